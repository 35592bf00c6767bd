//! `cargo xtask`: project automation (see README.md, "Commands").

mod check_features;
#[path = "gen.rs"]
mod codegen;
mod encode;
mod fuzz_seeds;
mod import;
mod schema;

use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "cargo xtask", about = "pmu-regs project automation", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Load and check definition files; print every problem with file:line:col.
    ///
    /// Given files or directories, they are loaded on top of the shipped definitions
    /// (pmu-defs/defs), so a file may extend any built-in generation; only the problems in
    /// the given files are printed in full.
    Validate {
        /// Files or directories (default: pmu-defs/defs).
        paths: Vec<PathBuf>,
        /// Load only the given paths, without the shipped definitions.
        #[arg(long)]
        no_base: bool,
        /// Show the acknowledged warnings (an `allow:` in the definitions) in full, each with
        /// its reason, instead of one summary line.
        #[arg(long)]
        verbose: bool,
    },
    /// Print the fully resolved model (after `extends`).
    Dump {
        /// Print JSON (the documented machine-readable shape); otherwise a text summary.
        #[arg(long)]
        json: bool,
        /// Only this generation.
        #[arg(long)]
        generation: Option<String>,
        /// Files or directories (default: pmu-defs/defs).
        #[arg(long = "defs")]
        paths: Vec<PathBuf>,
        /// Show the acknowledged warnings in full, each with its reason.
        #[arg(long)]
        verbose: bool,
    },
    /// Write the documentation site (HTML, data, Markdown) for the definitions.
    GenDocs {
        /// Output directory (default: target/docs in the workspace).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Files or directories (default: pmu-defs/defs).
        #[arg(long = "defs")]
        paths: Vec<PathBuf>,
        /// Show the acknowledged warnings (an `allow:` in the definitions) in full, each with
        /// its reason, instead of one summary line.
        #[arg(long)]
        verbose: bool,
    },
    /// Encode an event: the event-select value and the Linux perf event string.
    Encode(encode::EncodeArgs),
    /// Decode an MSR value: every field, the event it selects, reserved bits set.
    Decode(encode::DecodeArgs),
    /// Regenerate pmu-regs/src/generated.rs from the canonical definitions.
    Gen {
        /// Do not write; fail (naming the file) when the checked-in file is stale.
        #[arg(long)]
        check: bool,
        /// Show the acknowledged warnings in full, each with its reason.
        #[arg(long)]
        verbose: bool,
        /// Format every file again, even those whose fingerprint line says their tokens and
        /// code are unchanged (by default only changed files are formatted).
        #[arg(long)]
        reformat: bool,
    },
    /// `cargo check` pmu-regs with each generation feature alone (a module gated behind one
    /// feature must not name an item gated behind another): by default one CPU model per
    /// microarchitecture, each model that enables none, and each microarchitecture no model
    /// enables; with --all, every feature (about 4 s each).
    CheckFeatures {
        /// Every feature, not the sample.
        #[arg(long)]
        all: bool,
    },
    /// Write the JSON Schema of the definition YAML, for editor completion and validation.
    Schema {
        /// Output file (default: pmu-defs/schema/generation.schema.json, the copy definition
        /// files name in their `# yaml-language-server: $schema=` modeline).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Do not write; fail when the file differs from what the generator writes.
        #[arg(long)]
        check: bool,
    },
    /// Write the seed corpus of the fuzz targets (fuzz/): one directory per target, from the
    /// shipped definitions and the perfmon test fixtures.
    FuzzSeeds {
        /// Output directory (default: $CARGO_TARGET_DIR/fuzz/seeds, else target/fuzz/seeds).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Import Intel perfmon core event lists, or Linux perf's AMD lists (a directory whose
    /// mapfile.csv names amdzenN directories), into core model generations (YAML).
    ImportPerfmon {
        /// A perfmon JSON file, or a directory (with mapfile.csv: the whole corpus).
        path: PathBuf,
        /// Output directory (default: pmu-defs/defs/intel/models; for an AMD corpus
        /// pmu-defs/defs/amd/models).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Do not write; exit 1 when the files in the output directory differ from a fresh
        /// import, or when a file would be removed.
        #[arg(long)]
        check: bool,
        /// Also remove every generated file in the output directory that this import does not
        /// produce. Without it, a generated file is removed only when the input is a whole
        /// corpus (a directory with its mapfile.csv) of the kind its header names (Intel
        /// perfmon, Linux perf's AMD lists) and the mapfile no longer lists its `source:`;
        /// others are left and listed. Hand-written files are never removed.
        #[arg(long)]
        prune: bool,
        /// The reviewed findings to write as `allow:` entries (default:
        /// pmu-defs/import/reviewed.yaml when the output is the default directory, else none).
        #[arg(long)]
        reviewed: Option<PathBuf>,
    },
}

/// The workspace root (the parent of this crate).
pub(crate) fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

fn load(paths: &[PathBuf]) -> pmu_defs::Loaded {
    let mut loader = pmu_defs::Loader::new();
    if paths.is_empty() {
        loader.add_path(&workspace_root().join("pmu-defs/defs"));
        loader.add_file(&workspace_root().join("pmu-defs/aliases.yaml"));
    }
    for p in paths {
        loader.add_path(p);
    }
    loader.finish()
}

/// `validate PATH...`: the paths on top of the shipped definitions. The problems in the given
/// files are printed in full, the acknowledged warnings (theirs and the shipped files') counted
/// in one line (in full with `verbose`); any other problem of the shipped files is counted in
/// one line. A given path inside the shipped directory is read once, as the user's.
fn validate_on_base(paths: &[PathBuf], verbose: bool) -> ExitCode {
    let base = workspace_root().join("pmu-defs/defs");
    let mine: Vec<PathBuf> = paths
        .iter()
        .map(|p| p.canonicalize().unwrap_or_else(|_| p.clone()))
        .collect();
    // The shipped files first (except those the user named: they are the user's), then the
    // user's: file ids from `first` on are the user's.
    let mut loader = pmu_defs::Loader::new();
    let shipped = pmu_defs::walk::walk(&base, false, &|p: &Path| {
        matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
    });
    for f in shipped.files {
        let canon = f.canonicalize().unwrap_or_else(|_| f.clone());
        if !mine.iter().any(|m| canon.starts_with(m)) {
            loader.add_file(&f);
        }
    }
    loader.add_file(&workspace_root().join("pmu-defs/aliases.yaml"));
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
            "note: the shipped definitions ({}) have {} diagnostic(s), {base_errors} of them errors, not shown (`cargo xtask validate` lists them)",
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

/// Prints diagnostics to stderr, the acknowledged warnings in one line unless `verbose`;
/// returns false when there were errors.
fn report(loaded: &pmu_defs::Loaded, verbose: bool) -> bool {
    if !loaded.diagnostics.is_empty() || !loaded.omitted.is_empty() {
        eprint!(
            "{}",
            if verbose {
                loaded.render_diagnostics_verbose()
            } else {
                loaded.render_diagnostics()
            }
        );
    }
    !loaded.has_errors()
}

/// Builds the site and writes it to `out`; prints where to open it.
fn gen_docs(model: &pmu_defs::Model, out: &Path) -> ExitCode {
    let site = pmu_site::build(model);
    match site.write(out) {
        Ok(s) => {
            // Output may go to a closed pipe (`| head`): not worth a panic.
            use std::io::Write as _;
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(
                stdout,
                "wrote the documentation site to {} ({} files: {} written, {} unchanged, {} stale removed)",
                out.display(),
                s.files,
                s.written,
                s.unchanged,
                s.removed
            );
            let index = out.join("index.html");
            let shown = std::fs::canonicalize(&index).unwrap_or(index);
            let _ = writeln!(stdout, "open file://{}", shown.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::GenDocs {
            out,
            paths,
            verbose,
        } => {
            let loaded = load(&paths);
            if !report(&loaded, verbose) {
                return ExitCode::FAILURE;
            }
            let out = out.unwrap_or_else(|| workspace_root().join("target/docs"));
            gen_docs(&loaded.model, &out)
        }
        Command::Encode(args) => encode::run_encode(args),
        Command::CheckFeatures { all } => {
            let loaded = load(&[]);
            if !report(&loaded, false) {
                return ExitCode::FAILURE;
            }
            check_features::run(&workspace_root(), &loaded.model, all)
        }
        Command::FuzzSeeds { out } => fuzz_seeds::run(out),
        Command::Decode(args) => encode::run_decode(args),
        Command::ImportPerfmon {
            path,
            out,
            check,
            prune,
            reviewed,
        } => {
            let out = out.unwrap_or_else(|| workspace_root().join(import::default_out(&path)));
            let reviewed = import::reviewed_for(&out, reviewed);
            import::run(&path, &out, reviewed.as_deref(), check, prune)
        }
        Command::Schema { out, check } => {
            let out = out.unwrap_or_else(|| workspace_root().join(pmu_defs::schema::SCHEMA_PATH));
            schema::run(&out, check)
        }
        Command::Gen {
            check,
            verbose,
            reformat,
        } => {
            let loaded = load(&[]);
            if !report(&loaded, verbose) {
                return ExitCode::FAILURE;
            }
            codegen::run(&workspace_root(), &loaded, check, reformat)
        }
        Command::Validate {
            paths,
            no_base,
            verbose,
        } => {
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
        Command::Dump {
            json,
            generation,
            paths,
            verbose,
        } => {
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
                    Ok(s) => println!("{s}"),
                    Err(e) => {
                        eprintln!("error: cannot serialise the model: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            } else {
                print!("{}", summary(&model));
            }
            ExitCode::SUCCESS
        }
    }
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
        }
        for c in &g.cpuid {
            let _ = writeln!(out, "  CPUID {:#x} {}", c.leaf, c.name);
        }
        let _ = writeln!(out, "  {} event(s)", g.events.len());
    }
    out
}
