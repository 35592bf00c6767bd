//! Diagnostics: collected, never thrown.
//!
//! Every stage pushes into one [`Diagnostics`] sink (like serde_derive's `Ctxt`) and goes on,
//! so a user sees every problem in a file set at once. Rendering follows rustc's layout through
//! `codespan-reporting`.

use crate::source::{Sources, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::term;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The definitions cannot be used.
    Error,
    /// Suspicious but usable.
    Warning,
}

/// A labelled span in a diagnostic.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What is there (may be empty).
    pub message: String,
    /// The primary label is the place the error is; secondary labels give context.
    pub primary: bool,
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

    /// The primary span.
    pub fn span(&self) -> Span {
        self.labels[0].span
    }

    /// Renders this diagnostic like rustc, without colour.
    pub fn render(&self, sources: &Sources) -> String {
        let config = term::Config::default();
        term::emit_into_string(&config, sources.files(), &to_codespan(self))
            .unwrap_or_else(|_| format!("{}\n", self.short(sources)))
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

fn to_codespan(d: &Diagnostic) -> cs::Diagnostic<usize> {
    let base = match d.severity {
        Severity::Error => cs::Diagnostic::error(),
        Severity::Warning => cs::Diagnostic::warning(),
    };
    base.with_code(d.code)
        .with_message(&d.message)
        .with_labels(
            d.labels
                .iter()
                .map(|l| {
                    let style = if l.primary {
                        cs::LabelStyle::Primary
                    } else {
                        cs::LabelStyle::Secondary
                    };
                    cs::Label::new(style, l.span.file, l.span.start..l.span.end)
                        .with_message(&l.message)
                })
                .collect(),
        )
        .with_notes(d.notes.clone())
}

/// The sink every stage reports into.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
}

impl Diagnostics {
    /// An empty sink.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a diagnostic.
    pub fn push(&mut self, d: Diagnostic) {
        self.list.push(d);
    }

    /// Records an error at `span`.
    pub fn error(&mut self, code: &'static str, message: impl Into<String>, span: Span) {
        self.push(Diagnostic::error(code, message, span));
    }

    /// True when any error (not warning) was recorded.
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|d| d.severity == Severity::Error)
    }

    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.list
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    /// All diagnostics, sorted by file and position, duplicates removed (a fault in a parent
    /// generation is found again in every child; it is reported once).
    pub fn sorted(&self) -> Vec<Diagnostic> {
        let mut v = self.list.clone();
        v.sort_by(|a, b| {
            (a.span(), a.severity, a.code, &a.message).cmp(&(
                b.span(),
                b.severity,
                b.code,
                &b.message,
            ))
        });
        v.dedup();
        v
    }

    /// Consumes the sink, returning the sorted, de-duplicated list.
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.sorted()
    }

    /// Renders every diagnostic like rustc, followed by a summary line.
    pub fn render(&self, sources: &Sources) -> String {
        let list = self.sorted();
        let mut out = String::new();
        for d in &list {
            out.push_str(&d.render(sources));
        }
        let errors = list
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        let warnings = list.len() - errors;
        if errors > 0 || warnings > 0 {
            out.push_str(&format!(
                "{} error{}, {} warning{}\n",
                errors,
                if errors == 1 { "" } else { "s" },
                warnings,
                if warnings == 1 { "" } else { "s" }
            ));
        }
        out
    }
}
