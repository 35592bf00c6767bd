//! `cargo xtask import-perfmon <file-or-dir> [--out DIR] [--check]`: Intel perfmon JSON, or
//! Linux perf's AMD lists → core model generations (`pmu_import`,
//! `pmu_import::amd`).

use pmu_import::{HEADER, Level};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The default output directory, relative to the workspace root.
pub const MODELS: &str = "pmu-defs/defs/intel/models";

/// The default output directory of an AMD (perf-layout) corpus, relative to the workspace root.
pub const AMD_MODELS: &str = "pmu-defs/defs/amd/models";

/// The default output directory for an import of `input`: [`AMD_MODELS`] for a perf-layout
/// AMD corpus, else [`MODELS`].
pub fn default_out(input: &Path) -> &'static str {
    if input.is_dir() && pmu_import::amd::is_perf_layout(input) {
        AMD_MODELS
    } else {
        MODELS
    }
}

/// The reviewed findings of the shipped models (`pmu_import::Reviewed`), relative to
/// the workspace root: read by default when the output is [`MODELS`].
pub const REVIEWED: &str = "pmu-defs/import/reviewed.yaml";

/// The reviewed-findings file an import into `out` reads: `given`, else [`REVIEWED`] when
/// `out` is the shipped models' directory (the findings are about those), else none.
pub fn reviewed_for(out: &Path, given: Option<PathBuf>) -> Option<PathBuf> {
    if given.is_some() {
        return given;
    }
    let root = crate::workspace_root();
    let shipped = normalize(&root.join(MODELS));
    let abs = std::path::absolute(out).unwrap_or_else(|_| out.to_path_buf());
    (normalize(&abs) == shipped).then(|| root.join(REVIEWED))
}

/// Generated files in `dir` (those starting with the importer's header), by file name.
fn generated_files(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.extension().and_then(|x| x.to_str()) != Some("yaml") {
            continue;
        }
        if let (Some(name), Ok(text)) = (
            p.file_name().and_then(|n| n.to_str()),
            std::fs::read_to_string(&p),
        ) && text.starts_with(HEADER)
        {
            out.insert(name.to_owned(), text);
        }
    }
    out
}

/// The `# yaml-language-server: $schema=` modeline for files written to `out`, when `out` is
/// inside the workspace (the schema's path is then relative); `None` elsewhere (a vendor's own
/// tree can point at a schema written there with `cargo xtask schema --out`).
fn modeline_for(out: &Path) -> Option<String> {
    let root = crate::workspace_root();
    let abs = if out.is_absolute() {
        out.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(out)
    };
    let (root, abs) = (root.canonicalize().ok()?, normalize(&abs));
    let rel = abs.strip_prefix(&root).ok()?;
    let file = rel.join("x.yaml");
    let file = file.to_str()?.replace(std::path::MAIN_SEPARATOR, "/");
    Some(pmu_defs::schema::modeline(&file))
}

/// `path` with `.` and `..` resolved as far as the file system allows (the directory may not
/// exist yet).
fn normalize(path: &Path) -> PathBuf {
    // Canonicalize the longest existing ancestor, then append the rest.
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.file_name(), existing.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name.to_owned());
                existing = parent.to_path_buf();
            }
            _ => return path.to_path_buf(),
        }
    }
    let mut out = existing.canonicalize().unwrap_or(existing);
    for name in rest.iter().rev() {
        out.push(name);
    }
    out
}

/// Replaces the generated files in `out` by `fresh` and drops `stale` ones, without ever
/// leaving a half-written directory: every file is written into a staging directory next to
/// `out` (same file system), then `out` is swapped for it by two renames, and the entries of
/// the old directory this import did not generate (hand-written notes, subdirectories) are
/// moved into the new one. Any failure before the swap removes the staging directory and
/// leaves `out` untouched; a failure after it names the directory holding the old entries.
fn install(out: &Path, fresh: &BTreeMap<&str, String>, stale: &[&String]) -> Result<(), String> {
    // Work on the real directory when `out` is a symbolic link to one.
    let real = if out.exists() {
        if !out.is_dir() {
            return Err(format!("{} exists and is not a directory", out.display()));
        }
        out.canonicalize()
            .map_err(|e| format!("cannot resolve {}: {e}", out.display()))?
    } else {
        normalize(&std::path::absolute(out).unwrap_or_else(|_| out.to_path_buf()))
    };
    let (Some(parent), Some(name)) = (real.parent(), real.file_name()) else {
        return Err(format!("{} has no parent directory", out.display()));
    };
    let name = name.to_string_lossy();
    let untouched = |e: String| format!("{e}; nothing written, {} is as it was", out.display());
    std::fs::create_dir_all(parent)
        .map_err(|e| untouched(format!("cannot create {}: {e}", parent.display())))?;
    let pid = std::process::id();
    let staging = parent.join(format!(".{name}.import-{pid}"));
    let previous = parent.join(format!(".{name}.previous-{pid}"));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir(&staging)
        .map_err(|e| untouched(format!("cannot create {}: {e}", staging.display())))?;
    let staged = (|| -> Result<Vec<std::ffi::OsString>, String> {
        for (file, text) in fresh {
            let path = staging.join(file);
            std::fs::write(&path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        // Entries of the old directory that stay: everything but the files this import
        // writes and the stale ones it removes.
        let mut keep = Vec::new();
        if real.is_dir() {
            let perms = std::fs::metadata(&real)
                .map_err(|e| format!("cannot read {}: {e}", real.display()))?
                .permissions();
            std::fs::set_permissions(&staging, perms)
                .map_err(|e| format!("cannot set permissions of {}: {e}", staging.display()))?;
            let entries = std::fs::read_dir(&real)
                .map_err(|e| format!("cannot read {}: {e}", real.display()))?;
            for e in entries {
                let e = e.map_err(|e| format!("cannot read {}: {e}", real.display()))?;
                let n = e.file_name();
                let ours = n.to_str().is_some_and(|n| {
                    fresh.contains_key(n) || stale.iter().any(|s| s.as_str() == n)
                });
                if !ours {
                    keep.push(n);
                }
            }
        }
        Ok(keep)
    })();
    let keep = match staged {
        Ok(k) => k,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(untouched(e));
        }
    };
    if !real.is_dir() {
        return std::fs::rename(&staging, &real).map_err(|e| {
            let _ = std::fs::remove_dir_all(&staging);
            untouched(format!("cannot create {}: {e}", real.display()))
        });
    }
    let _ = std::fs::remove_dir_all(&previous);
    if let Err(e) = std::fs::rename(&real, &previous) {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(untouched(format!(
            "cannot move {} aside: {e}",
            real.display()
        )));
    }
    if let Err(e) = std::fs::rename(&staging, &real) {
        // Put the old directory back.
        let back = std::fs::rename(&previous, &real);
        let _ = std::fs::remove_dir_all(&staging);
        return Err(match back {
            Ok(()) => untouched(format!(
                "cannot move the new files into {}: {e}",
                real.display()
            )),
            Err(b) => format!(
                "cannot move the new files into {}: {e}; and cannot restore it: {b} (the previous files are in {})",
                real.display(),
                previous.display()
            ),
        });
    }
    for n in &keep {
        if let Err(e) = std::fs::rename(previous.join(n), real.join(n)) {
            return Err(format!(
                "the new models are in {}, but {} could not be moved back into it: {e} (it is in {})",
                real.display(),
                Path::new(n).display(),
                previous.display()
            ));
        }
    }
    std::fs::remove_dir_all(&previous)
        .map_err(|e| format!("cannot remove {}: {e}", previous.display()))
}

/// Why a generated file the import did not produce stays: the reason for the file, and the
/// same without its details, for a summary of many.
struct Left {
    why: String,
    kind: String,
}

/// Whether a generated file (`text`) that this import did not produce is removed (`Ok`, with
/// the reason) or left (`Err`): removed only with `--prune`, or when the input is a whole
/// corpus (`corpus`) of the kind the file's header names whose mapfile no longer lists the
/// file's `source:`. A file whose source is still listed (a core file missing from a partial
/// checkout) stays.
fn fate(text: &str, corpus: Option<&pmu_import::Corpus>, prune: bool) -> Result<String, Left> {
    if prune {
        return Ok("--prune".into());
    }
    let left = |why: String, kind: &str| {
        Err(Left {
            why,
            kind: kind.to_owned(),
        })
    };
    let Some(corpus) = corpus else {
        let why = "the input is not a whole corpus: a directory with its mapfile.csv";
        return left(why.into(), why);
    };
    let kind = pmu_import::CorpusKind::of_generated(text);
    if kind != Some(corpus.kind) {
        let why = format!(
            "generated from {}, not {}",
            kind.map_or("an unknown source", pmu_import::CorpusKind::describe),
            corpus.kind.describe()
        );
        return left(why.clone(), &why);
    }
    let Some(source) = pmu_import::generated_source(text) else {
        let why = "its header names no `source:`";
        return left(why.into(), why);
    };
    if corpus.listed.contains(&source) {
        return left(
            format!(
                "its source `{source}` is still listed in {} but was not imported",
                corpus.mapfile
            ),
            &format!("their sources are still listed in {}", corpus.mapfile),
        );
    }
    Ok(format!(
        "its source `{source}` is no longer listed in {}",
        corpus.mapfile
    ))
}

/// Says which generated files in `out` the import left alone and why (`check`: that it did
/// not compare them): one line each, or one line per reason when there are more than
/// [`LEFT_IN_FULL`].
fn report_left(out: &Path, left: &[(String, Left)], check: bool) {
    let (verb, end) = if check {
        ("note: not checked:", "; --prune would count it")
    } else {
        ("left", "; pass --prune to remove it")
    };
    if left.len() <= LEFT_IN_FULL {
        for (name, l) in left {
            println!(
                "{verb} {}: not produced by this import ({}){end}",
                out.join(name).display(),
                l.why
            );
        }
        return;
    }
    let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, l) in left {
        *by_kind.entry(l.kind.as_str()).or_default() += 1;
    }
    for (kind, n) in by_kind {
        println!(
            "{verb} {n} generated files in {} not produced by this import ({kind}){}",
            out.display(),
            if check {
                "; --prune would count them"
            } else {
                "; pass --prune to remove them"
            }
        );
    }
}

/// Up to this many files left alone are named one by one.
const LEFT_IN_FULL: usize = 5;

/// Runs the import; `out` is the output directory, `reviewed` the reviewed-findings file whose
/// `allow:` entries go into the models ([`reviewed_for`]); with `prune`, every generated file
/// in `out` that this import did not produce is removed (else only those [`fate`] is sure of).
pub fn run(
    input: &Path,
    out: &Path,
    reviewed: Option<&Path>,
    check: bool,
    prune: bool,
) -> ExitCode {
    let (import, import_time) = match import_reviewed(input, out, reviewed) {
        Ok(done) => done,
        Err(code) => return code,
    };
    if let Err(code) = load_and_report(&import, import_time, out, reviewed) {
        return code;
    }
    let plan = Plan::new(&import, out, prune);
    if check {
        plan.check(input, out)
    } else {
        plan.write(out)
    }
}

/// Reads the reviewed findings and imports `input` with them, printing every issue; `Err`
/// (the exit code) when there was an error: nothing is written.
fn import_reviewed(
    input: &Path,
    out: &Path,
    reviewed: Option<&Path>,
) -> Result<(pmu_import::Import, Duration), ExitCode> {
    let started = Instant::now();
    let mut issues = Vec::new();
    let findings = match reviewed {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => pmu_import::parse_reviewed(&path.display().to_string(), &text, &mut issues),
            Err(e) => {
                eprintln!(
                    "error: {}: cannot read the reviewed findings: {e}; nothing written ({} is as it was)",
                    path.display(),
                    out.display()
                );
                return Err(ExitCode::FAILURE);
            }
        },
        None => pmu_import::Reviewed::default(),
    };
    let mut import = pmu_import::import_path_reviewed(input, &findings);
    issues.append(&mut import.issues);
    import.issues = issues;
    let import_time = started.elapsed();

    let (mut errors, mut warnings) = (0, 0);
    for issue in &import.issues {
        match issue.level {
            Level::Error => errors += 1,
            Level::Warning => warnings += 1,
        }
        eprintln!("{issue}");
    }
    if errors > 0 {
        eprintln!(
            "error: {errors} error(s), {warnings} warning(s); nothing written ({} is as it was)",
            out.display()
        );
        return Err(ExitCode::FAILURE);
    }
    Ok((import, import_time))
}

/// Loads the imported models on top of the architectural generations (every import must load
/// cleanly), prints the warnings nobody has reviewed at their JSON events, then the summary
/// and the notes; `Err` (the exit code) when the YAML does not validate.
fn load_and_report(
    import: &pmu_import::Import,
    import_time: Duration,
    out: &Path,
    reviewed: Option<&Path>,
) -> Result<(), ExitCode> {
    // Every import must load cleanly on top of the architectural generations.
    let started = Instant::now();
    let loaded = pmu_import::check_models(&import.models);
    let check_time = started.elapsed();
    if loaded.has_errors() {
        // Each problem at the JSON event it comes from; the YAML the import generated (which
        // was never written) is shown after, for the details.
        let located = pmu_import::json_locations(&import.models, &loaded);
        for (_, issue) in &located {
            if let Some(issue) = issue {
                eprintln!("{issue}");
            }
        }
        if located.iter().any(|(_, i)| i.is_some()) {
            eprintln!("note: in the YAML the import generated from those files (not written):");
        }
        eprint!("{}", loaded.render_diagnostics());
        eprintln!(
            "error: the imported YAML does not validate; nothing written ({} is as it was)",
            out.display()
        );
        return Err(ExitCode::FAILURE);
    }
    // Warnings nobody has reviewed yet, each at the JSON event it comes from.
    let fresh_warnings: Vec<_> = pmu_import::json_locations(&import.models, &loaded)
        .into_iter()
        .filter(|(d, _)| d.acknowledged.is_none())
        .collect();
    for (d, issue) in &fresh_warnings {
        match issue {
            Some(issue) => eprintln!("{issue}"),
            None => eprint!("{}", d.render(&loaded.sources)),
        }
    }
    let unreviewed = fresh_warnings.len()
        + loaded
            .omitted
            .iter()
            .filter(|o| !o.acknowledged)
            .map(|o| o.count)
            .sum::<usize>();
    if unreviewed > 0 {
        eprintln!(
            "note: {unreviewed} warning(s) about the imported data above: when Intel's data is right as given, add each to {} with a reason (an `allow:` in the models)",
            reviewed.map_or_else(|| REVIEWED.to_owned(), |p| p.display().to_string())
        );
    }
    let json_events: usize = import.models.iter().map(|m| m.json_events).sum();
    println!(
        "imported {} file(s), {} of {} events, into {} generation(s) in {:.0} ms; validated in {:.0} ms",
        import.files_read,
        import.events(),
        json_events,
        import.models.len(),
        import_time.as_secs_f64() * 1e3,
        check_time.as_secs_f64() * 1e3,
    );
    let acknowledged = loaded.acknowledged();
    if acknowledged > 0 {
        println!(
            "note: {acknowledged} acknowledged warning(s) about Intel's data, reviewed in {}; `cargo xtask validate --verbose` lists them",
            reviewed.map_or_else(|| REVIEWED.to_owned(), |p| p.display().to_string())
        );
    }
    for note in &import.notes {
        println!("note: {note}");
    }
    if import.skipped_rows > 0 || import.missing_files > 0 {
        println!(
            "note: mapfile.csv rows of other event types skipped: {}; core files it names that are missing: {}",
            import.skipped_rows, import.missing_files
        );
    }
    Ok(())
}

/// What an import does to the output directory: the files it writes, the generated files it
/// removes and those it leaves, each with why.
struct Plan<'a> {
    fresh: BTreeMap<&'a str, String>,
    stale: Vec<(String, String)>,
    left: Vec<(String, Left)>,
}

impl<'a> Plan<'a> {
    fn new(import: &'a pmu_import::Import, out: &Path, prune: bool) -> Self {
        let existing = generated_files(out);
        let modeline = modeline_for(out);
        let fresh: BTreeMap<&str, String> = import
            .models
            .iter()
            .map(|m| {
                let yaml = match &modeline {
                    Some(line) => m.yaml_with_modeline(line),
                    None => m.yaml.clone(),
                };
                (m.file_name.as_str(), yaml)
            })
            .collect();
        // Generated files this import did not produce: removed only when certain they are this
        // corpus's and their source is gone from it, or when asked to (`--prune`).
        let mut stale: Vec<(String, String)> = Vec::new();
        let mut left: Vec<(String, Left)> = Vec::new();
        for (name, text) in existing
            .iter()
            .filter(|(name, _)| !fresh.contains_key(name.as_str()))
        {
            match fate(text, import.corpus.as_ref(), prune) {
                Ok(why) => stale.push((name.clone(), why)),
                Err(why) => left.push((name.clone(), why)),
            }
        }
        Plan { fresh, stale, left }
    }

    /// `--check`: writes nothing; fails when a file differs from a fresh import, is missing,
    /// or would be removed.
    fn check(&self, input: &Path, out: &Path) -> ExitCode {
        let (fresh, stale, left) = (&self.fresh, &self.stale, &self.left);
        let mut bad = 0;
        for (name, text) in fresh {
            let path = out.join(name);
            match std::fs::read_to_string(&path) {
                Ok(current) if current == **text => {}
                Ok(_) => {
                    eprintln!("error: {} differs from a fresh import", path.display());
                    bad += 1;
                }
                Err(_) => {
                    eprintln!("error: {} is missing", path.display());
                    bad += 1;
                }
            }
        }
        for (name, why) in stale {
            eprintln!(
                "error: {} is not produced by this import and would be removed ({why})",
                out.join(name).display()
            );
            bad += 1;
        }
        report_left(out, left, true);
        if bad > 0 {
            eprintln!(
                "error: {bad} file(s) out of date; run `cargo xtask import-perfmon {}` and commit the result",
                input.display()
            );
            return ExitCode::FAILURE;
        }
        println!(
            "ok: {} file(s) in {} match a fresh import",
            fresh.len(),
            out.display()
        );
        ExitCode::SUCCESS
    }

    /// Writes what changed and removes the stale files in one swap ([`install`]).
    fn write(&self, out: &Path) -> ExitCode {
        let (fresh, stale, left) = (&self.fresh, &self.stale, &self.left);
        let changed: Vec<&str> = fresh
            .iter()
            .filter(|(name, text)| {
                !std::fs::read_to_string(out.join(name)).is_ok_and(|c| c == **text)
            })
            .map(|(name, _)| *name)
            .collect();
        let (written, unchanged) = (changed.len(), fresh.len() - changed.len());
        if written > 0 || !stale.is_empty() {
            let names: Vec<&String> = stale.iter().map(|(n, _)| n).collect();
            if let Err(e) = install(out, fresh, &names) {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
            for (name, why) in stale {
                println!("removed {} ({why})", out.join(name).display());
            }
        }
        report_left(out, left, false);
        println!(
            "wrote {written} file(s), {unchanged} unchanged, in {}",
            out.display()
        );
        ExitCode::SUCCESS
    }
}
