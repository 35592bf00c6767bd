//! Proc-macro front end of the pmu-regs code generator.
//!
//! `pmu_macros::registers!("my_cpu.yaml")` loads a YAML definition file (or a directory of
//! them) with [`pmu_defs::Loader`] and expands to the same code `cargo xtask gen` checks into
//! `pmu-regs`, with paths through `::pmu_regs` (the invoking crate must depend on `pmu-regs`).
//!
//! # Extending the shipped generations
//!
//! The shipped definitions ([`pmu_defs::defs_dir`]) are loaded first, so a file may say
//! `extends: amd-perfmon-v2`. Code is generated only for the generations of the user's files
//! (`amd-zen5` becomes `amd::zen5` inside the invoking module); everything they inherit
//! unchanged from a shipped generation (a register, `ArchEvent`, a CPUID leaf) is a `pub use`
//! of `pmu-regs`' own item (`::pmu_regs::amd::perfmon_v2::PERF_CTR_CORE`), so it is the same
//! type as in `pmu_regs`. Extending a CPU-model generation needs its `pmu-regs` feature.
//!
//! # Where the path is looked up
//!
//! Like `include_str!`, the path is first taken relative to the directory of the source file
//! that invokes the macro (`proc_macro::Span::local_file`, stable since Rust 1.88). When no
//! file or directory exists there, it is taken relative to the invoking crate's
//! `CARGO_MANIFEST_DIR`. When neither exists the macro fails with one `compile_error!` naming
//! both places it looked. An absolute path is used as is.
//!
//! # Errors
//!
//! Definition errors become one `compile_error!`, pointing at the path literal, that carries
//! the rendered validator messages with `file:line:col` inside the YAML: those that name a
//! place in the user's files (the shipped definitions' reviewed warnings are left out). Files are named there
//! relative to the compiler's working directory (the workspace root under cargo) when they are
//! below it, and otherwise by the path as written in the macro call, so messages never depend
//! on where the project is checked out.
//!
//! Names are errors like any other: every YAML name becomes a Rust identifier by the rule of
//! [`pmu_defs::model::names`] (keywords escaped, `r#gen`, `self_`), and a name the generated code
//! cannot use (no identifier, one it already uses, two names giving one identifier) is a
//! located validator error, so the macro does not panic on a name nor expand to code that does
//! not compile. Should the generator fail all the same, that too is one `compile_error!`.
//!
//! A bad file is one error, not a cascade: the `compile_error!` is placed inside the
//! top-level modules the file's generations would have been generated in (`amd`), and rustc
//! reports no path through a module whose expansion failed as missing, so the user's code
//! that names `amd::zen5::PERF_CTL` adds nothing (`tests/ui/proc_macro/no_cascade.rs`).

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2, TokenTree};
use quote::{quote, quote_spanned};
use std::path::{Path, PathBuf};

/// Expands the registers, events and generations described by a YAML definition file (or a
/// directory of them). See the crate documentation for how the path is resolved.
#[proc_macro]
pub fn registers(input: TokenStream) -> TokenStream {
    let call_file = proc_macro::Span::call_site().local_file();
    match expand(input.into(), call_file) {
        Ok(t) => t.into(),
        Err(failure) => failure.into_tokens().into(),
    }
}

/// Why the macro expands to an error: where, what, and the top-level modules (`amd`,
/// `intel`) the user's generations would have been generated in.
#[derive(Debug)]
struct Failure {
    span: Span,
    message: String,
    modules: Vec<String>,
}

impl Failure {
    fn new(span: Span, message: String) -> Self {
        Failure {
            span,
            message,
            modules: Vec::new(),
        }
    }

    /// The one `compile_error!`, and nothing cascades from it: the error is placed inside
    /// the first module the user's generations would have been generated in (`pub mod amd {
    /// compile_error!(..) }`), and the others are that module under their names (`pub use amd
    /// as intel;`). rustc does not report a path as missing when it goes through a module
    /// whose expansion failed (the failed macro might have defined it), so
    /// `cpu::amd::zen5::PERF_CTL` in the user's code adds no `cannot find` error. Without a
    /// known module (the file did not parse far enough to name its generation) the error
    /// stands alone in the invoking module, which has the same effect on paths that start
    /// there.
    fn into_tokens(self) -> TokenStream2 {
        let Failure {
            span,
            message,
            modules,
        } = self;
        let error = quote_spanned! { span=> ::core::compile_error!(#message); };
        let mut idents = modules.iter().map(|m| proc_macro2::Ident::new(m, span));
        let Some(first) = idents.next() else {
            return error;
        };
        quote_spanned! { span=>
            #[allow(missing_docs)]
            pub mod #first { #error }
            #( #[allow(unused_imports)] pub use #first as #idents; )*
        }
    }
}

/// The top-level modules the generations declared in the user's files (ids from
/// `first_user` on) are generated in: `amd-zen5` -> `amd`. Ids whose module would not be a
/// Rust identifier are left out (the validator reports them).
fn user_modules(loaded: &pmu_defs::Loaded, first_user: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (file, id) in &loaded.declared {
        if *file < first_user {
            continue;
        }
        let Some(top) = pmu_codegen::module_path(id).into_iter().next() else {
            continue;
        };
        if pmu_defs::model::names::is_ident(&top) && !out.contains(&top) {
            out.push(top);
        }
    }
    out.sort();
    out
}

fn expand(input: TokenStream2, call_file: Option<PathBuf>) -> Result<TokenStream2, Failure> {
    let (span, rel) = parse_path(input)?;
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    let file_dir = call_file.as_deref().and_then(Path::parent);
    let candidates = candidates(Path::new(&rel), file_dir, manifest_dir.as_deref());
    let Some(abs) = candidates.iter().find(|p| p.exists()) else {
        return Err(Failure::new(
            span,
            not_found(&rel, file_dir, manifest_dir.is_some()),
        ));
    };
    let shown = match std::env::current_dir() {
        Ok(cwd) => shown_name(abs, &cwd, Path::new(&rel)),
        Err(_) => PathBuf::from(&rel),
    };
    let mut loader = pmu_defs::Loader::new();
    let abs_c = std::fs::canonicalize(abs).unwrap_or_else(|_| abs.clone());
    add_shipped(&mut loader, &abs_c);
    let first_user = loader.sources().len();
    let mut deps = Vec::new();
    add(&mut loader, abs, &shown, &mut deps);
    let loaded = loader.finish();
    if let Some(message) = failure(&loaded, first_user) {
        return Err(Failure {
            span,
            message,
            modules: user_modules(&loaded, first_user),
        });
    }
    let only: Vec<String> = loaded
        .model
        .generations
        .iter()
        .filter(|g| g.span.file >= first_user)
        .map(|g| g.id.clone())
        .collect();
    // The user's generations get their `Arch` marker types too: `Pmu`, the mock and the
    // run-time helpers take them like the built-in ones.
    let opts = pmu_codegen::Options {
        only: Some(only),
        runtime: true,
        ..pmu_codegen::Options::external()
    };
    // The validator refuses every name the generator could not use, so this never panics;
    // should it, the user gets an error at the path instead of "proc macro panicked".
    let generated = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pmu_codegen::generate(&loaded.model, &opts)
    }));
    let code = generated.map_err(|panic| {
        let what = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("no message");
        Failure {
            span,
            message: format!(
                "internal error: the code generator failed on definitions the validator \
                 accepted ({what}); please report this with `{}`",
                shown.display()
            ),
            modules: user_modules(&loaded, first_user),
        }
    })?;
    let deps = deps.iter().map(|p| {
        let abs = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
        let s = abs.display().to_string();
        quote! { const _: &[u8] = include_bytes!(#s); }
    });
    Ok(quote! { #(#deps)* #code })
}

/// Adds the shipped definitions ([`pmu_defs::defs_dir`]) first, so the user's files can
/// extend them, except the files at or below `user` (the user's path, canonical): a shipped
/// file named in the macro call is the user's, loaded once, and generated. They are named
/// `pmu-defs/defs/...` (as in this repository), never by where they are on disk; the proc
/// macro is rebuilt whenever pmu-defs is, so they need no `include_bytes!`.
fn add_shipped(loader: &mut pmu_defs::Loader, user: &Path) {
    let dir = pmu_defs::defs_dir();
    let found = pmu_defs::load::walk::walk(&dir, false, &|p: &Path| {
        matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
    });
    for p in found.files {
        let canon = std::fs::canonicalize(&p).unwrap_or_else(|_| p.clone());
        if canon.starts_with(user) {
            continue;
        }
        let below = p.strip_prefix(&dir).unwrap_or(&p);
        let shown = Path::new("pmu-defs/defs").join(below);
        add_file(loader, &p, &shown, &mut Vec::new());
    }
}

/// The message of the one `compile_error!` when the load failed: the diagnostics with a label
/// in the user's files (ids from `first_user` on; a problem naming both a shipped place and
/// the user's file is the user's), errors and warnings. The shipped definitions' own
/// diagnostics are left out (their warnings are known and do not fail the build), unless they
/// have errors, which are then shown too. Acknowledged warnings (an `allow:` with a reason, in
/// any file) are left out without a trace: the message has no `--verbose` to offer.
fn failure(loaded: &pmu_defs::Loaded, first_user: usize) -> Option<String> {
    if !loaded.has_errors() {
        return None;
    }
    let (mut shown, hidden) = loaded.split_from(first_user);
    let shipped_errors = hidden
        .iter()
        .any(|d| d.severity == pmu_defs::Severity::Error);
    if shipped_errors {
        shown.extend(hidden);
    }
    shown.retain(|d| d.acknowledged.is_none());
    let omitted: Vec<pmu_defs::diag::Omitted> = loaded
        .omitted
        .iter()
        .filter(|o| !o.acknowledged)
        .cloned()
        .collect();
    Some(pmu_defs::diag::render(&shown, &omitted, &loaded.sources))
}

/// Where `rel` may be: beside the invoking file, then below the manifest directory.
fn candidates(rel: &Path, file_dir: Option<&Path>, manifest_dir: Option<&Path>) -> Vec<PathBuf> {
    if rel.is_absolute() {
        return vec![rel.to_path_buf()];
    }
    let mut out: Vec<PathBuf> = Vec::new();
    for dir in [file_dir, manifest_dir].into_iter().flatten() {
        let p = dir.join(rel);
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// Names the places looked at: the file-relative candidate as a path (it is beside the
/// user's source), the manifest-relative one by the variable's name (its value is a build
/// detail, and would make messages depend on where the project is checked out).
fn not_found(rel: &str, file_dir: Option<&Path>, manifest_known: bool) -> String {
    let mut tried = Vec::new();
    if Path::new(rel).is_absolute() {
        tried.push(format!("`{rel}`"));
    } else {
        if let Some(dir) = file_dir {
            let p = dir.join(rel);
            tried.push(format!("`{}` (beside the invoking file)", p.display()));
        }
        if manifest_known {
            tried.push(format!("`{rel}` below CARGO_MANIFEST_DIR"));
        }
    }
    if tried.is_empty() {
        tried.push("nowhere: neither the invoking file nor CARGO_MANIFEST_DIR is known".into());
    }
    format!(
        "registers!: `{rel}` not found; looked for {}",
        tried.join(" and for ")
    )
}

/// The name diagnostics print for `abs`: relative to `cwd` when below it, else `rel` as the
/// user wrote it.
fn shown_name(abs: &Path, cwd: &Path, rel: &Path) -> PathBuf {
    let abs_c = std::fs::canonicalize(abs).unwrap_or_else(|_| abs.to_path_buf());
    let cwd_c = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    match abs_c.strip_prefix(&cwd_c) {
        Ok(below) if !below.as_os_str().is_empty() => below.to_path_buf(),
        _ => rel.to_path_buf(),
    }
}

/// Adds `path` (a file, or every `.yaml`/`.yml` below a directory in sorted order) to the
/// loader under the display name `shown`, recording every file read in `deps`.
fn add(loader: &mut pmu_defs::Loader, path: &Path, shown: &Path, deps: &mut Vec<PathBuf>) {
    if path.is_dir() {
        // Through the loader's walker: each directory read once, so symbolic-link cycles end.
        let found = pmu_defs::load::walk::walk(path, false, &|p: &Path| {
            matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
        });
        for s in &found.skipped {
            if matches!(s.reason, pmu_defs::load::walk::Skip::Unreadable(_)) {
                // The loader reports the unreadable directory with its reason.
                loader.add_path(&s.path);
            }
        }
        for p in found.files {
            let below = p.strip_prefix(path).unwrap_or(&p);
            add_file(loader, &p, &shown.join(below), deps);
        }
        return;
    }
    add_file(loader, path, shown, deps);
}

fn add_file(loader: &mut pmu_defs::Loader, path: &Path, shown: &Path, deps: &mut Vec<PathBuf>) {
    deps.push(path.to_path_buf());
    match std::fs::read(path).map(String::from_utf8) {
        Ok(Ok(text)) => {
            loader.add_str(shown.display().to_string(), text);
        }
        // Unreadable or not UTF-8: the loader reports it (with the offending byte).
        _ => {
            loader.add_file(path);
        }
    }
}

/// The single string-literal argument (plain or raw string, no escapes) and its span.
fn parse_path(input: TokenStream2) -> Result<(Span, String), Failure> {
    let mut it = input.into_iter();
    let (first, second) = (it.next(), it.next());
    let (Some(TokenTree::Literal(lit)), None) = (&first, second) else {
        let span = first.map_or_else(Span::call_site, |t| t.span());
        return Err(Failure::new(span, usage()));
    };
    let s = lit.to_string();
    let inner = if let Some(rest) = s.strip_prefix('r') {
        let hashes = rest.len() - rest.trim_start_matches('#').len();
        let body = &rest[hashes..rest.len() - hashes];
        body.strip_prefix('"').and_then(|b| b.strip_suffix('"'))
    } else {
        s.strip_prefix('"')
            .and_then(|b| b.strip_suffix('"'))
            .filter(|b| !b.contains('\\'))
    };
    match inner {
        Some(p) => Ok((lit.span(), p.to_string())),
        None => Err(Failure::new(lit.span(), usage())),
    }
}

fn usage() -> String {
    "registers!: expected one string literal, the path of a YAML definition file (or directory) \
     relative to the invoking file or to CARGO_MANIFEST_DIR, e.g. \
     `pmu_macros::registers!(\"my_cpu.yaml\");`"
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory with two links to `.`: every file once, in path order, named below the
    /// shown path (the walk used to recurse without end).
    #[cfg(unix)]
    #[test]
    fn a_directory_with_link_cycles_is_read_once() {
        let dir = std::env::temp_dir().join(format!("pmu-macros-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("b")).unwrap();
        std::fs::write(
            dir.join("a.yaml"),
            "generation: a\nvendor: intel\ntitle: A\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("b/b.yaml"),
            "generation: b\nextends: a\ntitle: B\n",
        )
        .unwrap();
        std::os::unix::fs::symlink(".", dir.join("l1")).unwrap();
        std::os::unix::fs::symlink("..", dir.join("b/up")).unwrap();
        let mut loader = pmu_defs::Loader::new();
        let mut deps = Vec::new();
        add(&mut loader, &dir, Path::new("defs"), &mut deps);
        assert_eq!(deps, [dir.join("a.yaml"), dir.join("b/b.yaml")]);
        let loaded = loader.finish();
        assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
        assert_eq!(loaded.model.generations.len(), 2);
        assert_eq!(loaded.sources.name(0), "defs/a.yaml");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A file extending a shipped generation: only its generation is emitted, what it inherits
    /// unchanged is re-exported from pmu-regs, its widened registers are its own.
    #[test]
    fn extends_a_shipped_generation() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/ui/pass/extends_builtin.yaml")
            .display()
            .to_string();
        let code = expand(quote!(#path), None).unwrap().to_string();
        let code: String = code.split_whitespace().collect();
        assert!(code.contains("pubmodamd{pubmodzen5_test{"));
        assert!(
            !code.contains("pubmodperfmon_v2"),
            "a shipped generation was emitted"
        );
        assert!(
            !code.contains("pubmodk7"),
            "a shipped generation was emitted"
        );
        assert!(code.contains("pubuse::pmu_regs::amd::k7::{PERF_CTR,PerfCtr};"));
        assert!(code.contains("pubuse::pmu_regs::amd::core::{PERF_EVT_SEL,PerfEvtSel};"));
        assert!(code.contains("pubuse::pmu_regs::amd::perfmon_v2::cpuid::EXT_PERFMON_DEBUG;"));
        for own in ["PERF_CTR_CORE", "PERF_EVT_SEL_CORE", "PERF_CNTR_GLOBAL_CTL"] {
            assert!(
                code.contains(&format!("pubmod{own}{{")),
                "{own} is not emitted"
            );
        }
        // The only relative paths: from a field's tock-registers module up to its register
        // (`super::Register`, `pub use super::Enum as Value`).
        for (at, _) in code.match_indices("super::") {
            let rest = &code[at + "super::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let tail = &rest[name.len()..];
            assert!(
                name == "Register" || tail.starts_with("asValue;"),
                "a relative path to a shipped generation: super::{}",
                &rest[..rest.len().min(60)]
            );
        }
    }

    /// `ArchEvent` inherited from a shipped generation is re-exported from pmu-regs too.
    #[test]
    fn arch_events_of_a_shipped_parent() {
        let mut loader = pmu_defs::Loader::new().with_defaults();
        loader.add_str(
            "child.yaml",
            "generation: intel-v5-child\nextends: intel-v5\ntitle: T\nmanual: none\n",
        );
        let loaded = loader.finish();
        assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
        let opts = pmu_codegen::Options {
            only: Some(vec!["intel-v5-child".into()]),
            ..pmu_codegen::Options::external()
        };
        let code = pmu_codegen::generate(&loaded.model, &opts).to_string();
        let code: String = code.split_whitespace().collect();
        assert!(code.contains("pubmodintel{pubmodv5_child{"));
        assert!(code.contains("pubuse::pmu_regs::intel::"), "{code}");
        assert!(code.contains("::ArchEvent;"));
        assert!(!code.contains("super::"));
        assert!(
            !code.contains("pubmodIA32"),
            "an inherited layout was emitted again"
        );
    }

    /// The shipped files' warnings stay out; the unknown parent is the one error.
    #[test]
    fn only_the_users_diagnostics() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/ui/proc_macro/extends_unknown.yaml")
            .display()
            .to_string();
        let failure = expand(quote!(#path), None).unwrap_err();
        let msg = &failure.message;
        assert!(msg.ends_with("1 error, 0 warnings\n"), "{msg}");
        assert!(!msg.contains("pmu-defs/defs"), "{msg}");
        // The generation did not resolve, but its module is known from its id.
        assert_eq!(failure.modules, ["amd"]);
        let code = failure.into_tokens().to_string();
        assert!(
            code.starts_with("# [allow (missing_docs)] pub mod amd {"),
            "{code}"
        );
        assert_eq!(code.matches("compile_error").count(), 1, "{code}");
    }

    /// The user's acknowledged warnings stay out of the message too, without a summary line
    /// (there is no `--verbose` to offer); an unacknowledged one is shown with the error.
    #[test]
    fn acknowledged_warnings_stay_out_of_the_message() {
        let dir = std::env::temp_dir().join(format!("pmu-macros-allow-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("allow.yaml");
        std::fs::write(
            &file,
            "generation: intel-v4-allow\nextends: intel-v4\ntitel: typo\nevents:\n  \
             - { name: KNOWN, event: 0xC0, counters: [1], pdist-counters: [0], \
             allow: [{ code: counter-not-in-event, reason: reviewed }] }\n  \
             - { name: FRESH, event: 0xC1, counters: [1], pdist-counters: [0] }\n",
        )
        .unwrap();
        let path = file.display().to_string();
        let failure = expand(quote!(#path), None).unwrap_err();
        let msg = &failure.message;
        assert!(msg.contains("error[unknown-key]"), "{msg}");
        assert!(msg.contains("event `FRESH`"), "{msg}");
        assert!(!msg.contains("KNOWN"), "{msg}");
        assert!(!msg.contains("acknowledged"), "{msg}");
        assert!(msg.ends_with("1 error, 1 warning\n"), "{msg}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Several top-level modules: the error once, the other modules are the first renamed.
    #[test]
    fn one_error_for_several_modules() {
        let failure = Failure {
            span: Span::call_site(),
            message: "bad".into(),
            modules: vec!["amd".into(), "intel".into()],
        };
        let code = failure.into_tokens().to_string();
        assert_eq!(code.matches("compile_error").count(), 1, "{code}");
        assert!(code.contains("pub use amd as intel"), "{code}");
    }

    #[test]
    fn file_relative_first_then_manifest() {
        let c = candidates(
            Path::new("defs/x.yaml"),
            Some(Path::new("/w/crate/src")),
            Some(Path::new("/w/crate")),
        );
        assert_eq!(
            c,
            [
                PathBuf::from("/w/crate/src/defs/x.yaml"),
                PathBuf::from("/w/crate/defs/x.yaml")
            ]
        );
        // Same directory twice (a file at the crate root): looked up once.
        let c = candidates(
            Path::new("x.yaml"),
            Some(Path::new("/w/crate")),
            Some(Path::new("/w/crate")),
        );
        assert_eq!(c, [PathBuf::from("/w/crate/x.yaml")]);
        assert_eq!(
            candidates(Path::new("/abs/x.yaml"), None, Some(Path::new("/w"))),
            [PathBuf::from("/abs/x.yaml")]
        );
        assert!(candidates(Path::new("x.yaml"), None, None).is_empty());
    }

    #[test]
    fn not_found_names_both_places() {
        assert_eq!(
            not_found("x.yaml", Some(Path::new("src")), true),
            "registers!: `x.yaml` not found; looked for `src/x.yaml` (beside the invoking \
             file) and for `x.yaml` below CARGO_MANIFEST_DIR"
        );
        assert_eq!(
            not_found("/abs/x.yaml", None, true),
            "registers!: `/abs/x.yaml` not found; looked for `/abs/x.yaml`"
        );
        assert!(not_found("x.yaml", None, false).contains("nowhere"));
    }

    #[test]
    fn shown_relative_to_cwd_else_as_written() {
        let cwd = Path::new(env!("CARGO_MANIFEST_DIR"));
        let abs = cwd.join("src/lib.rs");
        assert_eq!(
            shown_name(&abs, cwd, Path::new("lib.rs")),
            PathBuf::from("src/lib.rs")
        );
        let elsewhere = cwd.join("src");
        assert_eq!(
            shown_name(
                &cwd.join("Cargo.toml"),
                &elsewhere,
                Path::new("../Cargo.toml")
            ),
            PathBuf::from("../Cargo.toml")
        );
    }

    #[test]
    fn path_literal_forms() {
        let ok = |s: &str| parse_path(s.parse().unwrap()).map(|(_, p)| p);
        assert_eq!(ok(r#""a/b.yaml""#).unwrap(), "a/b.yaml");
        assert_eq!(ok(r##"r#"a/b.yaml"#"##).unwrap(), "a/b.yaml");
        assert!(ok(r#""a\\b.yaml""#).is_err());
        assert!(ok("a b").is_err());
        assert!(ok("42").is_err());
    }
}
