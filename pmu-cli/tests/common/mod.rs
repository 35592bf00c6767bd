//! What the `pmu` command tests share: running the binary as a user does.

use std::process::{Command, Output};

/// `pmu ARGS...`, run to completion.
pub fn pmu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pmu"))
        .args(args)
        .output()
        .expect("run pmu")
}

/// A stream of the command's output as text, for assertions and their messages.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
