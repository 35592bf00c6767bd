//! Diagnostics, what every phase reports problems with: collected, never thrown.
//!
//! Every stage pushes into one [`Diagnostics`] sink (like serde_derive's `Ctxt`) and goes on,
//! so a user sees every problem in a file set at once. Rendering follows rustc's layout through
//! `codespan-reporting`.
//!
//! Output is bounded whatever the input: the sink keeps at most [`MAX_PER_CODE`] diagnostics of
//! each code (the first by position) and counts the others, distinct ones only ([`Omitted`],
//! printed as "and 1,998 more field-overlap errors"); a source line longer than
//! [`MAX_LINE_CHARS`] is shown as a window around the labels, with `…` where it was cut; a
//! message, label or note longer than [`MAX_TEXT_CHARS`] is cut the same way.
//!
//! A warning the definitions acknowledge (an `allow:` with the warning's code and a reason, on
//! the entry the warning is about) is marked [`Diagnostic::acknowledged`] by the validator.
//! [`render`] leaves acknowledged diagnostics out and counts them in one line;
//! [`render_verbose`] shows them in full, each with its reason. They are kept and capped apart
//! from the others, so acknowledged findings never push a new warning of the same code out.
//! [`CODES`] lists every code the loader reports, with its severity.

use crate::source::{FileId, Sources, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{Files, SimpleFiles};
use codespan_reporting::term;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{Hash, Hasher};

mod clip;
mod render;
mod sink;

pub use clip::*;
pub use render::*;
pub use sink::*;

/// Diagnostics of one code (one class, such as `field-overlap`) a [`Diagnostics`] sink keeps;
/// the others are counted and summarised.
pub const MAX_PER_CODE: usize = 50;

/// Characters of a source line shown; a longer line is shown as a window of this many
/// characters around the labels on it.
pub const MAX_LINE_CHARS: usize = 160;

/// Characters shown of a message, label or note; the rest is cut, saying how much.
pub const MAX_TEXT_CHARS: usize = 400;

/// Characters shown before the first label on a clipped line.
const LINE_CONTEXT_CHARS: usize = 40;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The definitions cannot be used.
    Error,
    /// Suspicious but usable.
    Warning,
}

/// A labelled span in a diagnostic.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What is there (may be empty).
    pub message: String,
    /// The primary label is the place the error is; secondary labels give context.
    pub primary: bool,
}

/// Every diagnostic code the loader reports, with its severity, sorted by code. Codes are
/// stable; `tests/tests/diagnostics.rs` checks this table against the loader's sources.
pub const CODES: &[(&str, Severity)] = &[
    ("access-conflict", Severity::Error),
    ("alias-count-mismatch", Severity::Error),
    ("alias-overlap", Severity::Error),
    ("alternatives-mismatch", Severity::Error),
    ("aux-msr-reserved", Severity::Warning),
    ("counter-count-mismatch", Severity::Error),
    ("counter-not-in-event", Severity::Warning),
    ("counter-out-of-range", Severity::Error),
    ("deprecated-since", Severity::Error),
    ("duplicate-address", Severity::Error),
    ("duplicate-key", Severity::Error),
    ("duplicate-leaf", Severity::Error),
    ("duplicate-name", Severity::Error),
    ("duplicate-perfmon-core", Severity::Error),
    ("duplicate-role", Severity::Error),
    ("duplicate-value", Severity::Error),
    ("empty-file", Severity::Error),
    ("extends-cycle", Severity::Error),
    ("field-instances", Severity::Error),
    ("field-overlap", Severity::Error),
    ("field-past-width", Severity::Error),
    ("invalid-alias", Severity::Error),
    ("invalid-alias-msr", Severity::Error),
    ("invalid-allow", Severity::Error),
    ("invalid-bits", Severity::Error),
    ("invalid-cpu-name", Severity::Error),
    ("invalid-name", Severity::Error),
    ("invalid-number", Severity::Error),
    ("invalid-value", Severity::Error),
    ("io", Severity::Error),
    ("misplaced-role", Severity::Error),
    ("missing-key", Severity::Error),
    ("missing-role", Severity::Error),
    ("name-collision", Severity::Error),
    ("no-counter", Severity::Error),
    ("not-utf8", Severity::Error),
    ("out-of-range", Severity::Error),
    ("perfmon-core-in-model", Severity::Error),
    ("remove-without-parent", Severity::Error),
    ("repeated-directory", Severity::Warning),
    ("reserved-name", Severity::Error),
    ("reset-reserved", Severity::Error),
    ("role-values", Severity::Error),
    ("type-mismatch", Severity::Error),
    ("unknown-aux-msr", Severity::Warning),
    ("unknown-generation", Severity::Error),
    ("unknown-key", Severity::Error),
    ("unknown-name", Severity::Error),
    ("unsupported-attribute", Severity::Error),
    ("unused-alias", Severity::Warning),
    ("unused-allow", Severity::Warning),
    ("value-too-wide", Severity::Error),
    ("vendor-mismatch", Severity::Error),
    ("yaml-complex-key", Severity::Error),
    ("yaml-multiple-documents", Severity::Error),
    ("yaml-syntax", Severity::Error),
    ("yaml-tag", Severity::Error),
    ("yaml-too-deep", Severity::Error),
    ("yaml-too-large", Severity::Error),
    ("yaml11-boolean", Severity::Error),
];

/// The warnings an event's `allow:` may acknowledge: those the validator reports about an
/// event (at its name). Other warnings have no entry of the definitions as their subject
/// (`repeated-directory` is about a directory, `unused-allow` about an `allow:` itself).
pub const EVENT_WARNINGS: &[&str] = &[
    "aux-msr-reserved",
    "counter-not-in-event",
    "unknown-aux-msr",
];

/// The severity of a code of [`CODES`]; `None` for a code the loader does not report.
pub fn severity_of(code: &str) -> Option<Severity> {
    CODES
        .binary_search_by(|(c, _)| (*c).cmp(code))
        .ok()
        .map(|i| CODES[i].1)
}

/// One problem found in the definitions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// A stable, greppable code such as `unknown-key` (one per diagnostic class).
    pub code: &'static str,
    /// The headline.
    pub message: String,
    /// Spans, the primary one first.
    pub labels: Vec<Label>,
    /// Free-form notes and help lines.
    pub notes: Vec<String>,
    /// The reason of the `allow:` that acknowledges this warning, when the definitions
    /// acknowledge it (set by the validator; never on an error).
    pub acknowledged: Option<String>,
}

impl Diagnostic {
    /// A new error with a primary label at `span`.
    pub fn error(code: &'static str, message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            labels: vec![Label {
                span,
                message: String::new(),
                primary: true,
            }],
            notes: Vec::new(),
            acknowledged: None,
        }
    }

    /// A new warning with a primary label at `span`.
    pub fn warning(code: &'static str, message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Self::error(code, message, span)
        }
    }

    /// Sets the text of the primary label.
    pub fn with_label(mut self, message: impl Into<String>) -> Self {
        if let Some(l) = self.labels.first_mut() {
            l.message = message.into();
        }
        self
    }

    /// Adds a secondary label, for the other side of a conflict.
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: false,
        });
        self
    }

    /// Adds a note line.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Adds a `help:` line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.notes.push(format!("help: {}", help.into()));
        self
    }

    /// Marks a warning acknowledged by an `allow:` with `reason` (errors cannot be).
    pub fn acknowledge(mut self, reason: impl Into<String>) -> Self {
        if self.severity == Severity::Warning {
            self.acknowledged = Some(reason.into());
        }
        self
    }

    /// The primary span.
    pub fn span(&self) -> Span {
        self.labels[0].span
    }

    /// Renders this diagnostic like rustc, without colour. Long source lines are shown as a
    /// window around the labels, long texts are cut ([`MAX_LINE_CHARS`], [`MAX_TEXT_CHARS`]).
    /// An acknowledged warning ends with a note giving the `allow:`'s reason.
    pub fn render(&self, sources: &Sources) -> String {
        let config = term::Config::default();
        let d = to_codespan(self);
        let out = match Clipped::new(self, sources) {
            None => term::emit_into_string(&config, sources.files(), &d),
            Some(view) => {
                let d = d.with_labels_replaced(&view);
                term::emit_into_string(&config, &view, &d)
            }
        };
        out.unwrap_or_else(|_| format!("{}\n", self.short(sources)))
    }

    /// One line: `file:line:col: error[code]: message`.
    pub fn short(&self, sources: &Sources) -> String {
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        format!(
            "{}: {level}[{}]: {}",
            sources.location(self.span()),
            self.code,
            self.message
        )
    }
}

/// `text`, cut to [`MAX_TEXT_CHARS`] characters with a note of how many were left out: for
/// any user text echoed in a message (the `pmu` command's requests too).
pub fn clip_text(text: &str) -> String {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        None => text.to_owned(),
        Some((at, _)) => format!(
            "{}… ({} more characters)",
            &text[..at],
            thousands(text[at..].chars().count())
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_windowed_around_the_label_with_true_columns() {
        let mut sources = Sources::new();
        // 1,000 two-byte characters, a marker at character 600, then a short line.
        let line = format!("{}XY{}", "é".repeat(600), "é".repeat(400));
        let text = format!("short\n{line}\nend\n");
        let file = sources.add("f.yaml", text.clone());
        let at = text.find("XY").unwrap();
        let d = Diagnostic::error("x", "marker", Span::new(file, at, at + 2))
            .with_label("here")
            .with_secondary(Span::new(file, 0, 5), "first line");
        let out = d.render(&sources);
        assert!(out.contains("┌─ f.yaml:2:601"), "{out}");
        assert!(out.contains("2 │ …éé"), "{out}");
        assert!(out.contains("XY"), "{out}");
        let longest = out.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(longest <= MAX_LINE_CHARS + 12, "{longest}: {out}");
        // A label inside a character, past the end, or empty never panics.
        for (s, e) in [
            (at + 1, at + 1),
            (text.len() + 5, text.len() + 9),
            (7, 3000),
        ] {
            let _ = Diagnostic::error("x", "m", Span::new(file, s, e)).render(&sources);
        }
    }

    #[test]
    fn long_texts_are_cut_saying_how_much() {
        assert_eq!(clip_text("short"), "short");
        let long = "a".repeat(MAX_TEXT_CHARS + 1_234);
        let cut = clip_text(&long);
        assert!(cut.ends_with("a… (1,234 more characters)"), "{cut}");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_998), "1,998");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
