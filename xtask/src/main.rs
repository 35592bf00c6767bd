//! `cargo xtask`: project automation (see docs/commands.md).

mod check_features;
#[path = "gen.rs"]
mod codegen;
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
    /// Load and check definition files (`pmu validate`).
    Validate(pmu_cli::validate::ValidateArgs),
    /// Print the fully resolved model (`pmu dump`).
    Dump(pmu_cli::validate::DumpArgs),
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
        /// Merge the vendors' event descriptions into the site (a build artifact; the
        /// definitions never hold them): the directory with `intel-perfmon/` and
        /// `linux-amd-pmu-events/` (`../shared/data`), or one of them.
        #[arg(long, value_name = "DIR")]
        descriptions: Option<PathBuf>,
    },
    /// Encode an event (`pmu encode`; give the CPU with --cpu).
    Encode(pmu_cli::encode::EncodeArgs),
    /// Decode an MSR value (`pmu decode`; give the CPU with --cpu).
    Decode(pmu_cli::encode::DecodeArgs),
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

use pmu_cli::defs::{load, report};

/// Builds the site and writes it to `out`; prints where to open it.
/// The vendors' event descriptions from `dir`, with a line on what was read and each
/// problem (a list that is missing or does not parse leaves its events without).
fn read_descriptions(dir: &Path, model: &pmu_defs::Model) -> pmu_site::Descriptions {
    let d = pmu_site::Descriptions::read(dir, &model.generations);
    for p in &d.problems {
        eprintln!("warning: descriptions: {p}");
    }
    println!(
        "read {} event descriptions from {} list files in {}",
        d.len(),
        d.files,
        dir.display()
    );
    d
}

fn gen_docs(
    model: &pmu_defs::Model,
    descriptions: Option<&pmu_site::Descriptions>,
    out: &Path,
) -> ExitCode {
    let site = pmu_site::build_with(model, descriptions);
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
    // The developer tasks never detect the CPU: a workspace build turns on pmu-cli's
    // detection, but `cargo xtask encode` asks for `--cpu` all the same.
    pmu_cli::cpu::without_detection();
    let cli = Cli::parse();
    match cli.command {
        Command::GenDocs {
            out,
            paths,
            verbose,
            descriptions,
        } => {
            let loaded = load(&paths);
            if !report(&loaded, verbose) {
                return ExitCode::FAILURE;
            }
            let out = out.unwrap_or_else(|| workspace_root().join("target/docs"));
            let descriptions = descriptions.map(|dir| read_descriptions(&dir, &loaded.model));
            gen_docs(&loaded.model, descriptions.as_ref(), &out)
        }
        Command::Encode(args) => pmu_cli::encode::run_encode(args),
        Command::CheckFeatures { all } => {
            let loaded = load(&[]);
            if !report(&loaded, false) {
                return ExitCode::FAILURE;
            }
            check_features::run(&workspace_root(), &loaded.model, all)
        }
        Command::FuzzSeeds { out } => fuzz_seeds::run(out),
        Command::Decode(args) => pmu_cli::encode::run_decode(args),
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
        Command::Validate(args) => pmu_cli::validate::run_validate(args),
        Command::Dump(args) => pmu_cli::validate::run_dump(args),
    }
}
