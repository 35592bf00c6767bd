//! The diagnostics suite.
//!
//! - [`cases`]: the diagnostics of every diagnostic class as data. Each folder of
//!   `tests/test_data/diagnostics/` is a fixture (plain YAML files) beside the diagnostics
//!   the loader gives for it (`expected.txt`: code, message, every label's `file:line:col`,
//!   notes, then the rustc-style rendering); `tests/test_data/diagnostics/README.md` says how
//!   to add one and bless its output. A few of these fixtures are also loaded by Rust tests
//!   that assert what reaches the model ([`cases`]'s second half).
//! - [`guarantees`]: every error at once, a parent's fault once, the rendering, `allow:` and
//!   the code table (every code the loader reports has a fixture).
//! - [`limits`]: the YAML layer's limits and files read from disk.
//! - [`robustness`]: the shipped files load clean, and no truncation or mutation of them
//!   makes the loader panic.
//!
//! Columns count characters, as editors and rustc do.

mod cases;
mod guarantees;
mod limits;
mod robustness;

use pmu_defs::{Diagnostic, Limits, Loaded, Loader, Severity};
use std::path::{Path, PathBuf};

/// `tests/test_data/diagnostics`.
fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/diagnostics")
}

/// The shared parent of the fixtures in `on-base/` (`on-base/base.yaml`): eight general
/// counters, three fixed counters, an encoding without `edge`/`any`/`umask2`, one CPUID
/// leaf, one constraint and one event. `SEL` is at `base.yaml:12:11`.
fn base() -> String {
    std::fs::read_to_string(data_dir().join("on-base/base.yaml")).unwrap()
}

/// Removes the first newline and the indentation common to every non-blank line, so the
/// inline fixtures of the Rust tests can be indented: line 1 is the line after the opening
/// `r#"`.
fn dedent(text: &str) -> String {
    let text = text.strip_prefix('\n').unwrap_or(text);
    let indent = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out = String::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            out.push('\n');
        } else {
            out.push_str(&line[indent..]);
            out.push('\n');
        }
    }
    // The line holding the closing `"#` leaves one blank line; drop trailing blank lines.
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// Loads in-memory files (de-indented) with the given limits.
fn load_with(limits: Limits, files: &[(&str, &str)]) -> Loaded {
    let mut loader = Loader::new().with_limits(limits);
    for (name, text) in files {
        loader.add_str(*name, dedent(text));
    }
    loader.finish()
}

/// Loads in-memory files (de-indented) with the default limits.
fn load(files: &[(&str, &str)]) -> Loaded {
    load_with(Limits::default(), files)
}

/// Loads the shared `base.yaml` and `child` (de-indented) as `c.yaml`.
fn child(text: &str) -> Loaded {
    load(&[("base.yaml", base().as_str()), ("c.yaml", text)])
}

/// Loads files exactly as given (no de-indenting).
fn load_raw(files: &[(&str, &str)]) -> Loaded {
    let mut loader = Loader::new();
    for (name, text) in files {
        loader.add_str(*name, *text);
    }
    loader.finish()
}

/// Every diagnostic with `code`.
fn all<'a>(loaded: &'a Loaded, code: &str) -> Vec<&'a Diagnostic> {
    loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .collect()
}

/// The one diagnostic with `code`; fails, showing every diagnostic, when there is not exactly one.
#[track_caller]
fn only<'a>(loaded: &'a Loaded, code: &str) -> &'a Diagnostic {
    let found = all(loaded, code);
    assert_eq!(
        found.len(),
        1,
        "expected exactly one `{code}` diagnostic, found {}:\n{}",
        found.len(),
        loaded.render_diagnostics()
    );
    found[0]
}

/// `file:line:col` of the primary span.
fn loc(loaded: &Loaded, d: &Diagnostic) -> String {
    loaded.sources.location(d.span())
}

/// The text the primary span covers.
fn spanned_text<'a>(loaded: &'a Loaded, d: &Diagnostic) -> &'a str {
    let s = d.span();
    &loaded.sources.text(s.file)[s.start..s.end]
}

/// The codes of every diagnostic, in reported order.
fn codes(loaded: &Loaded) -> Vec<&'static str> {
    loaded.diagnostics.iter().map(|d| d.code).collect()
}

/// Asserts the full list of codes (so no stray or cascading diagnostic slips in).
#[track_caller]
fn assert_codes(loaded: &Loaded, expected: &[&str]) {
    assert_eq!(
        codes(loaded),
        expected,
        "unexpected diagnostics:\n{}",
        loaded.render_diagnostics()
    );
}

/// Asserts a note (or `help:` line) is present.
#[track_caller]
fn assert_note(d: &Diagnostic, note: &str) {
    assert!(
        d.notes.iter().any(|n| n == note),
        "note {note:?} missing from {:?}",
        d.notes
    );
}

/// Asserts a load produced no diagnostics at all.
#[track_caller]
fn assert_clean(loaded: &Loaded) {
    assert!(
        loaded.diagnostics.is_empty(),
        "expected no diagnostics:\n{}",
        loaded.render_diagnostics()
    );
}

/// Asserts a load of shipped files has no diagnostic but the `counter-not-in-event` and
/// `aux-msr-reserved` warnings that Intel's own lists cause in the imported core models
/// (`intel/models/`), each acknowledged (reviewed in `pmu-defs/import/reviewed.yaml`, written as an `allow:`).
#[track_caller]
fn assert_shipped_clean(loaded: &Loaded) {
    for d in &loaded.diagnostics {
        let file = loaded.sources.name(d.span().file).replace('\\', "/");
        assert!(
            d.severity == Severity::Warning
                && matches!(d.code, "counter-not-in-event" | "aux-msr-reserved")
                && d.acknowledged.is_some()
                && file.contains("models/"),
            "expected no diagnostics but Intel's acknowledged counter-not-in-event and aux-msr-reserved warnings:\n{}",
            loaded.render_diagnostics_verbose()
        );
    }
    // Past the per-code cap, only acknowledged warnings of those codes may be left out.
    assert!(
        loaded.omitted.iter().all(|o| o.acknowledged
            && o.severity == Severity::Warning
            && matches!(o.code, "counter-not-in-event" | "aux-msr-reserved")),
        "{:?}",
        loaded.omitted
    );
}
