//! `pmu validate` (definition files, alone or on top of the shipped ones) and `pmu dump`
//! (the resolved model, after `extends`, as text or JSON).

use crate::defs::{load, report};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `pmu validate`.
#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// Files or directories (default: the shipped definitions).
    paths: Vec<PathBuf>,
    /// Load only the given paths, without the shipped definitions.
    #[arg(long)]
    no_base: bool,
    /// Show the acknowledged warnings (an `allow:` in the definitions) in full, each with
    /// its reason, instead of one summary line.
    #[arg(long)]
    verbose: bool,
}

/// `pmu dump`.
#[derive(Args, Debug)]
pub struct DumpArgs {
    /// Print JSON (the documented machine-readable shape); otherwise a text summary.
    #[arg(long)]
    json: bool,
    /// Only this generation.
    #[arg(long)]
    generation: Option<String>,
    /// Files or directories (default: the shipped definitions).
    #[arg(long = "defs")]
    paths: Vec<PathBuf>,
    /// Show the acknowledged warnings in full, each with its reason.
    #[arg(long)]
    verbose: bool,
}

/// Runs `pmu validate`: given files or directories are loaded on top of the shipped
/// definitions (so a file may extend any built-in generation) unless `--no-base`; only the
/// problems in the given files are printed in full.
pub fn run_validate(args: ValidateArgs) -> ExitCode {
    let ValidateArgs {
        paths,
        no_base,
        verbose,
    } = args;
    if !paths.is_empty() && !no_base {
        return validate_on_base(&paths, verbose);
    }
    let loaded = load(&paths);
    if !report(&loaded, verbose) {
        return ExitCode::FAILURE;
    }
    let events: usize = loaded
        .model
        .generations
        .iter()
        .map(|g| g.events.len())
        .sum();
    println!(
        "ok: {} file(s), {} generation(s), {} event entries",
        loaded.paths.len(),
        loaded.model.generations.len(),
        events
    );
    ExitCode::SUCCESS
}

/// `validate PATH...`: the paths on top of the shipped definitions. The problems in the given
/// files are printed in full, the acknowledged warnings (theirs and the shipped files') counted
/// in one line (in full with `verbose`); any other problem of the shipped files is counted in
/// one line. A given path inside the shipped directory is read once, as the user's.
pub fn validate_on_base(paths: &[PathBuf], verbose: bool) -> ExitCode {
    let base = pmu_defs::defs_dir();
    let mine: Vec<PathBuf> = paths
        .iter()
        .map(|p| p.canonicalize().unwrap_or_else(|_| p.clone()))
        .collect();
    // The shipped files first (except those the user named: they are the user's), then the
    // user's: file ids from `first` on are the user's.
    let mut loader = pmu_defs::Loader::new();
    let shipped = pmu_defs::load::walk::walk(&base, false, &|p: &Path| {
        matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
    });
    for f in shipped.files {
        let canon = f.canonicalize().unwrap_or_else(|_| f.clone());
        if !mine.iter().any(|m| canon.starts_with(m)) {
            loader.add_file(&f);
        }
    }
    loader.add_file(&pmu_defs::aliases_file());
    loader.add_file(&pmu_defs::cpu_names_file());
    let first = loader.sources().len();
    // The given files' findings are shown in full: the shipped files' (many acknowledged)
    // ones must not take their place under the per-code cap.
    loader.prefer_diagnostics_from_here();
    for p in paths {
        loader.add_path(p);
    }
    let loaded = loader.finish();
    let (mut shown, hidden) = loaded.split_from(first);
    let (acknowledged, hidden): (Vec<_>, Vec<_>) =
        hidden.into_iter().partition(|d| d.acknowledged.is_some());
    shown.extend(acknowledged);
    if !shown.is_empty() || !loaded.omitted.is_empty() {
        eprint!(
            "{}",
            pmu_defs::diag::render_with(&shown, &loaded.omitted, &loaded.sources, verbose)
        );
    }
    let base_errors = hidden
        .iter()
        .filter(|d| d.severity == pmu_defs::Severity::Error)
        .count();
    if !hidden.is_empty() {
        eprintln!(
            "note: the shipped definitions ({}) have {} diagnostic(s), {base_errors} of them errors, not shown (`pmu validate` lists them)",
            base.display(),
            hidden.len()
        );
    }
    if loaded.has_errors() {
        if base_errors > 0 {
            eprint!("{}", pmu_defs::diag::render(&hidden, &[], &loaded.sources));
        }
        return ExitCode::FAILURE;
    }
    let ids: Vec<&str> = loaded
        .model
        .generations
        .iter()
        .filter(|g| g.span.file >= first)
        .map(|g| g.id.as_str())
        .collect();
    println!(
        "ok: {} generation(s) from the given paths ({}), on top of {} shipped",
        ids.len(),
        ids.join(", "),
        loaded.model.generations.len() - ids.len()
    );
    ExitCode::SUCCESS
}

/// Runs `pmu dump`.
pub fn run_dump(args: DumpArgs) -> ExitCode {
    let DumpArgs {
        json,
        generation,
        paths,
        verbose,
    } = args;
    let loaded = load(&paths);
    if !report(&loaded, verbose) {
        return ExitCode::FAILURE;
    }
    let mut model = loaded.model;
    if let Some(id) = &generation {
        if model.generation(id).is_none() {
            let ids: Vec<&str> = model.generations.iter().map(|g| g.id.as_str()).collect();
            eprintln!("error: no generation `{id}`; known: {}", ids.join(", "));
            return ExitCode::FAILURE;
        }
        model.generations.retain(|g| &g.id == id);
    }
    if json {
        match serde_json::to_string_pretty(&model) {
            Ok(s) => crate::out(&(s + "\n")),
            Err(e) => {
                eprintln!("error: cannot serialise the model: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        crate::out(&summary(&model));
    }
    ExitCode::SUCCESS
}

/// A human-readable overview of the resolved model.
fn summary(model: &pmu_defs::Model) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for g in &model.generations {
        let _ = writeln!(out, "{} — {}", g.id, g.title);
        if let Some(p) = &g.extends {
            let _ = writeln!(out, "  extends {p}");
        }
        for r in &g.registers {
            let addr = if r.msr.indexed {
                format!("{:#x}+{}n (n<{})", r.msr.base, r.msr.stride, r.msr.count)
            } else {
                format!("{:#x}", r.msr.base)
            };
            let _ = writeln!(
                out,
                "  {:<32} {:<24} {:<17} {} field(s), reserved {:#018x}",
                r.name,
                addr,
                r.access.as_str(),
                r.fields.len(),
                r.reserved_mask
            );
            // Counts the definitions leave to the counter family (resolve::per_counter).
            let arrays: Vec<&str> = (r.fields.iter())
                .filter(|f| f.count_derived)
                .map(|f| f.name.as_str())
                .collect();
            if r.count_derived || !arrays.is_empty() {
                let what = match (r.count_derived, arrays.is_empty()) {
                    (true, true) => "instance count".to_owned(),
                    (true, false) => format!("instance count, {}", arrays.join(", ")),
                    (false, _) => arrays.join(", "),
                };
                let _ = writeln!(out, "  {:<32} derived from the counter count: {what}", "");
            }
        }
        for c in &g.cpuid {
            let _ = writeln!(out, "  CPUID {:#x} {}", c.leaf, c.name);
        }
        let _ = writeln!(out, "  {} event(s)", g.events.len());
    }
    out
}
