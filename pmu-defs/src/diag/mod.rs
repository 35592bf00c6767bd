//! Diagnostics: collected, never thrown.
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

/// `text`, cut to [`MAX_TEXT_CHARS`] characters with a note of how many were left out.
fn clip_text(text: &str) -> String {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        None => text.to_owned(),
        Some((at, _)) => format!(
            "{}… ({} more characters)",
            &text[..at],
            thousands(text[at..].chars().count())
        ),
    }
}

/// `1998` → `1,998`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn to_codespan(d: &Diagnostic) -> cs::Diagnostic<usize> {
    let base = match d.severity {
        Severity::Error => cs::Diagnostic::error(),
        Severity::Warning => cs::Diagnostic::warning(),
    };
    base.with_code(d.code)
        .with_message(clip_text(&d.message))
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
                        .with_message(clip_text(&l.message))
                })
                .collect(),
        )
        .with_notes(
            d.notes
                .iter()
                .map(|n| clip_text(n))
                .chain(
                    d.acknowledged
                        .iter()
                        .map(|r| clip_text(&format!("acknowledged (`allow:`): {r}"))),
                )
                .collect(),
        )
}

trait ReplaceLabels {
    fn with_labels_replaced(self, view: &Clipped) -> Self;
}

impl ReplaceLabels for cs::Diagnostic<usize> {
    /// The labels moved to their places in the clipped view.
    fn with_labels_replaced(mut self, view: &Clipped) -> Self {
        for l in &mut self.labels {
            l.range = view.map(l.file_id, l.range.start)..view.map(l.file_id, l.range.end);
        }
        self
    }
}

/// One clipped line of a [`Clipped`] view.
struct ClippedLine {
    /// Original byte range shown (the window).
    window: std::ops::Range<usize>,
    /// Where the window's first byte is in the view's text.
    at: usize,
    /// Bytes of the `…` written before the window (0 or 3).
    lead: usize,
    /// Where the line (including any `…`) ends in the view's text, before the newline.
    end: usize,
    /// 1-based column of the window's first character in the original line.
    column: usize,
}

/// The files a diagnostic points into, with every line longer than [`MAX_LINE_CHARS`] cut to
/// a window (around the first label on it): what `codespan-reporting` renders when a label is
/// on a long line. Line numbers are unchanged; columns are the original ones.
struct Clipped {
    files: SimpleFiles<String, String>,
    /// Per file: original line start → its clipped form (only files a label is in).
    lines: HashMap<FileId, BTreeMap<usize, ClippedLine>>,
    /// Per file: (original offset, view offset) of each line start, for mapping offsets.
    starts: HashMap<FileId, Vec<(usize, usize)>>,
}

impl Clipped {
    /// `None` when no label is on a long line (render the sources as they are).
    fn new(d: &Diagnostic, sources: &Sources) -> Option<Clipped> {
        // Spans are byte offsets that need not fall on character boundaries (a label at an
        // invalid byte): every slice is taken at the boundary at or before the offset.
        let line_of = |text: &str, at: usize| {
            let at = text.floor_char_boundary(at);
            let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
            (start, end)
        };
        let long = d.labels.iter().any(|l| {
            let text = sources.text(l.span.file);
            [l.span.start, l.span.end].iter().any(|&at| {
                let (a, b) = line_of(text, at);
                b - a > MAX_LINE_CHARS && text[a..b].chars().nth(MAX_LINE_CHARS).is_some()
            })
        });
        if !long {
            return None;
        }
        // Label positions per file, to centre each long line's window on its first label.
        let mut anchors: HashMap<FileId, BTreeSet<usize>> = HashMap::new();
        for l in &d.labels {
            anchors
                .entry(l.span.file)
                .or_default()
                .extend([l.span.start, l.span.end]);
        }
        let mut view = Clipped {
            files: SimpleFiles::new(),
            lines: HashMap::new(),
            starts: HashMap::new(),
        };
        let count = (0..).take_while(|&i| sources.has(i)).count();
        for id in 0..count {
            let name = sources.name(id).to_owned();
            let Some(anchor) = anchors.get(&id) else {
                view.files.add(name, String::new());
                continue;
            };
            let text = sources.text(id);
            let mut out = String::with_capacity(text.len().min(1 << 20));
            let mut lines = BTreeMap::new();
            let mut starts = Vec::new();
            let mut pos = 0;
            for line in text.split_inclusive('\n') {
                let content = line.trim_end_matches(['\n', '\r']);
                starts.push((pos, out.len()));
                let chars = content.chars().count();
                if chars <= MAX_LINE_CHARS {
                    out.push_str(line);
                } else {
                    // The window: from a little before the first label on the line.
                    let first = anchor
                        .range(pos..pos + content.len() + 1)
                        .next()
                        .map_or(0, |a| a - pos);
                    let idx: Vec<usize> = content.char_indices().map(|(i, _)| i).collect();
                    let first_char = idx.partition_point(|&i| i < first);
                    let from_char = first_char.saturating_sub(LINE_CONTEXT_CHARS);
                    let to_char = (from_char + MAX_LINE_CHARS).min(chars);
                    let from = idx[from_char];
                    let to = idx.get(to_char).copied().unwrap_or(content.len());
                    let lead = if from > 0 { "…" } else { "" };
                    out.push_str(lead);
                    let at = out.len();
                    out.push_str(&content[from..to]);
                    if to < content.len() {
                        out.push('…');
                    }
                    let end = out.len();
                    out.push_str(&line[content.len()..]);
                    lines.insert(
                        pos,
                        ClippedLine {
                            window: pos + from..pos + to,
                            at,
                            lead: lead.len(),
                            end,
                            column: from_char + 1,
                        },
                    );
                }
                pos += line.len();
            }
            starts.push((pos, out.len()));
            view.files.add(name, out);
            view.lines.insert(id, lines);
            view.starts.insert(id, starts);
        }
        Some(view)
    }

    /// Where original offset `at` of `file` is in the view.
    fn map(&self, file: FileId, at: usize) -> usize {
        let Some(starts) = self.starts.get(&file) else {
            return at;
        };
        let i = starts.partition_point(|&(o, _)| o <= at).saturating_sub(1);
        let (orig, new) = starts[i];
        match self.lines.get(&file).and_then(|l| l.get(&orig)) {
            None => new + (at - orig),
            Some(c) if at < c.window.start => c.at - c.lead,
            Some(c) if at <= c.window.end => c.at + (at - c.window.start),
            Some(c) => c.end,
        }
    }
}

impl<'a> Files<'a> for Clipped {
    type FileId = usize;
    type Name = String;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<String, codespan_reporting::files::Error> {
        self.files.name(id)
    }

    fn source(&'a self, id: usize) -> Result<&'a str, codespan_reporting::files::Error> {
        self.files.source(id)
    }

    fn line_index(
        &'a self,
        id: usize,
        byte: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        self.files.line_index(id, byte)
    }

    fn line_range(
        &'a self,
        id: usize,
        line: usize,
    ) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        self.files.line_range(id, line)
    }

    /// The original column: a clipped line counts from its window's first character.
    fn column_number(
        &'a self,
        id: usize,
        line: usize,
        byte: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        let range = self.files.line_range(id, line)?;
        let text = self.files.source(id)?;
        let clipped = self.starts.get(&id).and_then(|starts| {
            let (orig, _) = *starts.iter().find(|&&(_, new)| new == range.start)?;
            self.lines.get(&id)?.get(&orig)
        });
        Ok(match clipped {
            None => codespan_reporting::files::column_index(text, range, byte) + 1,
            Some(c) => {
                let byte = text.floor_char_boundary(byte.clamp(c.at, c.end));
                c.column + text[c.at..byte].chars().count()
            }
        })
    }
}

/// Diagnostics of one code and severity a capped [`Diagnostics`] sink counted but did not
/// keep.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Omitted {
    /// The code, such as `field-overlap`.
    pub code: &'static str,
    /// Error or warning.
    pub severity: Severity,
    /// How many distinct diagnostics were left out.
    pub count: usize,
    /// True for acknowledged warnings (kept and counted apart from the others).
    pub acknowledged: bool,
}

impl Omitted {
    /// `and 1,998 more field-overlap errors`.
    pub fn line(&self) -> String {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        format!(
            "and {} more {}{} {kind}{} (the first {MAX_PER_CODE} are shown)",
            thousands(self.count),
            if self.acknowledged {
                "acknowledged "
            } else {
                ""
            },
            self.code,
            if self.count == 1 { "" } else { "s" },
        )
    }
}

/// A diagnostic ordered by position, then severity, code, message, labels and notes: the
/// order diagnostics are printed in, and the key de-duplication uses.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Ranked(Diagnostic);

impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let (a, b) = (&self.0, &other.0);
        (
            a.span(),
            a.severity,
            a.code,
            &a.message,
            &a.labels,
            &a.notes,
            &a.acknowledged,
        )
            .cmp(&(
                b.span(),
                b.severity,
                b.code,
                &b.message,
                &b.labels,
                &b.notes,
                &b.acknowledged,
            ))
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The sink every stage reports into.
///
/// A sink from [`Diagnostics::new`] keeps at most [`MAX_PER_CODE`] diagnostics per code, the
/// first by position, and counts the others (distinct ones: a fault found again is one fault);
/// [`Diagnostics::unbounded`] keeps everything. Exact repeats are kept once either way.
/// Acknowledged warnings are capped apart from the others of their code.
#[derive(Clone, Debug)]
pub struct Diagnostics {
    cap: usize,
    /// Per code, and acknowledged or not.
    kept: BTreeMap<(&'static str, bool), BTreeSet<Ranked>>,
    /// Hashes of the distinct diagnostics left out, per code, severity and acknowledgement.
    omitted: BTreeMap<(&'static str, Severity, bool), HashSet<u64>>,
    /// Errors pushed (repeats included), for `error_count`.
    errors: usize,
    /// Files from this id on are kept before the others when a code is over its cap
    /// ([`Diagnostics::prefer_from`]).
    prefer_from: Option<usize>,
}

impl Default for Diagnostics {
    fn default() -> Self {
        Self::with_cap(MAX_PER_CODE)
    }
}

impl Diagnostics {
    /// An empty sink keeping at most [`MAX_PER_CODE`] diagnostics per code.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty sink that keeps every diagnostic (for a stage that filters its findings
    /// before passing them on).
    pub fn unbounded() -> Self {
        Self::with_cap(usize::MAX)
    }

    /// An empty sink keeping at most `cap` diagnostics per code.
    pub fn with_cap(cap: usize) -> Self {
        Diagnostics {
            cap: cap.max(1),
            kept: BTreeMap::new(),
            omitted: BTreeMap::new(),
            errors: 0,
            prefer_from: None,
        }
    }

    /// Over a code's cap, keeps the diagnostics of files `first` and later before those of
    /// earlier files (then by position, as always): `validate PATH...` loads the shipped
    /// definitions first and the user's files after, and the user's findings must not be the
    /// ones left out for the shipped files' many acknowledged ones.
    pub fn prefer_from(&mut self, first: usize) {
        self.prefer_from = Some(first);
    }

    /// Records a diagnostic.
    pub fn push(&mut self, d: Diagnostic) {
        if d.severity == Severity::Error {
            self.errors += 1;
        }
        self.keep(d);
    }

    /// Records everything `other` recorded, as if each of its diagnostics had been pushed
    /// here (what was kept and left out does not depend on the order of pushes, so sinks
    /// filled on several threads merge into the result one sink would give).
    pub fn absorb(&mut self, other: Diagnostics) {
        self.errors += other.errors;
        for (key, hashes) in other.omitted {
            self.omitted.entry(key).or_default().extend(hashes);
        }
        for Ranked(d) in other.kept.into_values().flatten() {
            self.keep(d);
        }
    }

    /// Keeps `d` among the first `cap` of its code by position (the preferred files'
    /// first, [`Diagnostics::prefer_from`]), counting the one left out. Which are kept does
    /// not depend on the order of pushes: the last under one total order goes.
    fn keep(&mut self, d: Diagnostic) {
        let set = self
            .kept
            .entry((d.code, d.acknowledged.is_some()))
            .or_default();
        set.insert(Ranked(d));
        if set.len() <= self.cap {
            return;
        }
        let victim = match self.prefer_from {
            Some(first) => set.iter().rev().find(|r| r.0.span().file < first),
            None => None,
        }
        .or_else(|| set.last())
        .cloned();
        if let Some(victim) = victim
            && set.remove(&victim)
        {
            let last = victim.0;
            let mut h = std::hash::DefaultHasher::new();
            last.hash(&mut h);
            self.omitted
                .entry((last.code, last.severity, last.acknowledged.is_some()))
                .or_default()
                .insert(h.finish());
        }
    }

    /// Records an error at `span`.
    pub fn error(&mut self, code: &'static str, message: impl Into<String>, span: Span) {
        self.push(Diagnostic::error(code, message, span));
    }

    /// True when any error (not warning) was recorded.
    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }

    /// Number of errors recorded (repeats and those left out included): compare two counts to
    /// learn whether a step reported one.
    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// The diagnostics kept, sorted by file and position, each once (a fault in a parent
    /// generation is found again in every child; it is reported once).
    pub fn sorted(&self) -> Vec<Diagnostic> {
        let mut v: Vec<&Ranked> = self.kept.values().flatten().collect();
        v.sort();
        v.into_iter().map(|r| r.0.clone()).collect()
    }

    /// What was counted and not kept, by code and severity.
    pub fn omitted(&self) -> Vec<Omitted> {
        self.omitted
            .iter()
            .map(|(&(code, severity, acknowledged), set)| Omitted {
                code,
                severity,
                count: set.len(),
                acknowledged,
            })
            .collect()
    }

    /// Consumes the sink, returning the sorted, de-duplicated list.
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.sorted()
    }

    /// Renders every diagnostic like rustc (acknowledged ones counted in one line), then a
    /// line per class left out and a summary line: [`render`].
    pub fn render(&self, sources: &Sources) -> String {
        render(&self.sorted(), &self.omitted(), sources)
    }
}

/// The line that stands for the acknowledged warnings [`render`] leaves out.
pub fn acknowledged_line(count: usize) -> String {
    format!(
        "note: {} acknowledged warning{} in the definitions (allow:), not shown; --verbose lists them",
        thousands(count),
        if count == 1 { "" } else { "s" }
    )
}

/// Renders `list` like rustc, leaving out the acknowledged warnings, which one line counts
/// ([`acknowledged_line`]); then one line per [`Omitted`] class and the summary line
/// (counting those left out), when anything else was reported.
pub fn render(list: &[Diagnostic], omitted: &[Omitted], sources: &Sources) -> String {
    render_with(list, omitted, sources, false)
}

/// Renders every diagnostic of `list` like rustc, acknowledged warnings included (each with
/// its reason), then one line per [`Omitted`] class and the summary line, which says how many
/// warnings are acknowledged.
pub fn render_verbose(list: &[Diagnostic], omitted: &[Omitted], sources: &Sources) -> String {
    render_with(list, omitted, sources, true)
}

/// [`render`] or, with `verbose`, [`render_verbose`].
pub fn render_with(
    list: &[Diagnostic],
    omitted: &[Omitted],
    sources: &Sources,
    verbose: bool,
) -> String {
    let mut out = String::new();
    let shown = |acknowledged: bool| verbose || !acknowledged;
    for d in list.iter().filter(|d| shown(d.acknowledged.is_some())) {
        out.push_str(&d.render(sources));
    }
    for o in omitted.iter().filter(|o| shown(o.acknowledged)) {
        out.push_str(&format!("note: {}\n", o.line()));
    }
    let count = |s: Severity, acknowledged: bool| {
        list.iter()
            .filter(|d| d.severity == s && d.acknowledged.is_some() == acknowledged)
            .count()
            + omitted
                .iter()
                .filter(|o| o.severity == s && o.acknowledged == acknowledged)
                .map(|o| o.count)
                .sum::<usize>()
    };
    let acknowledged = count(Severity::Warning, true);
    // Errors are never acknowledged (`Diagnostic::acknowledge`).
    let (errors, warnings) = (
        count(Severity::Error, false),
        count(Severity::Warning, false),
    );
    if !verbose && acknowledged > 0 {
        out.push_str(&acknowledged_line(acknowledged));
        out.push('\n');
    }
    let warnings_shown = if verbose {
        warnings + acknowledged
    } else {
        warnings
    };
    if errors > 0 || warnings_shown > 0 {
        out.push_str(&format!(
            "{} error{}, {} warning{}",
            thousands(errors),
            if errors == 1 { "" } else { "s" },
            thousands(warnings_shown),
            if warnings_shown == 1 { "" } else { "s" }
        ));
        if verbose && acknowledged > 0 {
            out.push_str(&format!(" ({} acknowledged)", thousands(acknowledged)));
        }
        out.push('\n');
    }
    out
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
