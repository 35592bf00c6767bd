//! `cargo xtask gen [--check]`: regenerate `pmu-regs/src/generated.rs` from the definitions.

use std::path::Path;
use std::process::ExitCode;

/// The checked-in generated file, relative to the workspace root.
pub const GENERATED: &str = "pmu-regs/src/generated.rs";

/// Writes (or, with `check`, compares) the generated file.
pub fn run(root: &Path, loaded: &pmu_defs::Loaded, check: bool) -> ExitCode {
    let text =
        match pmu_defs::codegen::render(&loaded.model, &pmu_defs::codegen::Options::internal()) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        };
    let path = root.join(GENERATED);
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if check {
        if current == text {
            println!("ok: {GENERATED} is up to date");
            ExitCode::SUCCESS
        } else {
            eprintln!("error: {GENERATED} is stale; run `cargo xtask gen` and commit the result");
            ExitCode::FAILURE
        }
    } else if current == text {
        println!("unchanged: {GENERATED}");
        ExitCode::SUCCESS
    } else {
        match std::fs::write(&path, text) {
            Ok(()) => {
                println!("wrote {GENERATED}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", path.display());
                ExitCode::FAILURE
            }
        }
    }
}
