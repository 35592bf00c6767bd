//! Turning tokens into checked-in text: the do-not-edit header and the toolchain's rustfmt.

use super::HEADER;
use proc_macro2::TokenStream;

/// `tokens` as a file: the do-not-edit header, then the code formatted by [`rustfmt`].
pub(super) fn file(tokens: &TokenStream) -> Result<String, String> {
    rustfmt(&format!("{HEADER}\n{tokens}\n"))
}

/// Formats Rust source with the toolchain's `rustfmt --edition 2024` (through stdin).
pub fn rustfmt(text: &str) -> Result<String, String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let rustfmt = std::env::var("RUSTFMT").unwrap_or_else(|_| "rustfmt".into());
    let mut child = Command::new(&rustfmt)
        .args(["--edition", "2024", "--emit", "stdout"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run `{rustfmt}`: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("rustfmt has no stdin")?;
    let input = text.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("rustfmt failed: {e}"))?;
    writer
        .join()
        .map_err(|_| "rustfmt writer panicked".to_string())?
        .map_err(|e| format!("cannot write to rustfmt: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "rustfmt failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("rustfmt printed invalid UTF-8: {e}"))
}
