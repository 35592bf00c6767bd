//! `cargo xtask schema [--out FILE] [--check]`: write the JSON Schema of the definition YAML
//! (`pmu_defs::schema`) for editors, or check that the checked-in copy is current.

use std::path::Path;
use std::process::ExitCode;

/// Writes the schema to `out`, or with `check` compares it and fails when it differs.
pub fn run(out: &Path, check: bool) -> ExitCode {
    let want = pmu_defs::schema::render();
    let shown = out.display();
    if check {
        return match std::fs::read_to_string(out) {
            Ok(have) if have == want => {
                println!("ok: {shown} is up to date");
                ExitCode::SUCCESS
            }
            Ok(_) => {
                eprintln!("error: {shown} is stale; run `cargo xtask schema` and commit it");
                ExitCode::FAILURE
            }
            Err(e) => {
                eprintln!("error: cannot read {shown}: {e}; run `cargo xtask schema`");
                ExitCode::FAILURE
            }
        };
    }
    if let Some(dir) = out.parent()
        && !dir.as_os_str().is_empty()
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        eprintln!("error: cannot create {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    if std::fs::read_to_string(out).is_ok_and(|have| have == want) {
        println!("unchanged: {shown}");
        return ExitCode::SUCCESS;
    }
    match std::fs::write(out, want) {
        Ok(()) => {
            println!("wrote {shown}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write {shown}: {e}");
            ExitCode::FAILURE
        }
    }
}
