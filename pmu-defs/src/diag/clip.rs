//! Turning a [`Diagnostic`] into codespan-reporting's form, with source lines longer than
//! [`MAX_LINE_CHARS`] shown as a window around the labels.

use super::*;

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

pub(super) fn to_codespan(d: &Diagnostic) -> cs::Diagnostic<usize> {
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

pub(super) trait ReplaceLabels {
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
pub(super) struct ClippedLine {
    /// Original byte range shown (the window).
    pub(super) window: std::ops::Range<usize>,
    /// Where the window's first byte is in the view's text.
    pub(super) at: usize,
    /// Bytes of the `…` written before the window (0 or 3).
    pub(super) lead: usize,
    /// Where the line (including any `…`) ends in the view's text, before the newline.
    pub(super) end: usize,
    /// 1-based column of the window's first character in the original line.
    pub(super) column: usize,
}

/// The files a diagnostic points into, with every line longer than [`MAX_LINE_CHARS`] cut to
/// a window (around the first label on it): what `codespan-reporting` renders when a label is
/// on a long line. Line numbers are unchanged; columns are the original ones.
pub(super) struct Clipped {
    pub(super) files: SimpleFiles<String, String>,
    /// Per file: original line start → its clipped form (only files a label is in).
    pub(super) lines: HashMap<FileId, BTreeMap<usize, ClippedLine>>,
    /// Per file: (original offset, view offset) of each line start, for mapping offsets.
    pub(super) starts: HashMap<FileId, Vec<(usize, usize)>>,
}

impl Clipped {
    /// `None` when no label is on a long line (render the sources as they are).
    pub(super) fn new(d: &Diagnostic, sources: &Sources) -> Option<Clipped> {
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
    pub(super) fn map(&self, file: FileId, at: usize) -> usize {
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
