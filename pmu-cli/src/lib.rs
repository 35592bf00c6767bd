//! The `pmu` command's code: each subcommand in a module of its own, so `cargo xtask` and the
//! tests run the same code the installed command does.
//!
//! * [`defs`]: loading the definitions (the shipped ones, or files given with `--defs`).
//! * [`cpu`]: which CPU a command is about: `--cpu` by generation id, name ("Sapphire
//!   Rapids", "Zen 4") or family/model ("06_8F"), else the CPU this runs on.
//! * [`list`], [`encode`], [`info`], [`validate`], [`check`], [`schedule`]: the subcommands.
//!
//! Without the default `detect` feature (as `cargo xtask` uses it: it must build while
//! `pmu-regs`' generated code is stale), there is no `info`, `check` or `schedule` and `--cpu` is
//! required.
//!
//! Exit codes, for every subcommand: 0 success, 1 an invalid request (unknown event or CPU,
//! a value too big for its field, definitions that do not load, ...), 2 a usage error.

#[cfg(feature = "detect")]
pub mod check;
pub mod cpu;
pub mod defs;
pub mod encode;
#[cfg(feature = "detect")]
pub mod guest;
#[cfg(feature = "detect")]
pub mod info;
pub mod list;
#[cfg(feature = "detect")]
pub mod schedule;
pub mod validate;

/// Writes `text` to stdout. A reader that went away (`pmu list | head`) ends the output
/// quietly, as it does for other Unix tools, instead of the panic `print!` gives.
pub fn out(text: &str) {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}
