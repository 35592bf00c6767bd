//! Source files and byte spans into them.
//!
//! Every diagnostic points at a [`Span`]; spans are byte ranges into a file held by
//! [`Sources`], which also renders `file:line:col` locations.

use codespan_reporting::files::{Files, SimpleFiles};

/// Identifies one file in a [`Sources`] set.
pub type FileId = usize;

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// The file the range is in.
    pub file: FileId,
    /// First byte of the range.
    pub start: usize,
    /// One past the last byte of the range.
    pub end: usize,
}

impl Span {
    /// A span covering `start..end` of `file`.
    pub const fn new(file: FileId, start: usize, end: usize) -> Self {
        Span { file, start, end }
    }

    /// The smallest span covering both `self` and `other` (same file assumed).
    pub fn join(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// A 1-based line and column, as editors and rustc print them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column number, counted in characters.
    pub col: usize,
}

/// The set of files a load works on.
#[derive(Debug, Default)]
pub struct Sources {
    files: SimpleFiles<String, String>,
    len: usize,
}

impl Sources {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file under the name diagnostics will print for it.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.len += 1;
        self.files.add(name.into(), text.into())
    }

    /// How many files were added: file ids are `0..len()`, in the order they were added.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no file was added.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The name a file was added under.
    pub fn name(&self, file: FileId) -> &str {
        self.files
            .get(file)
            .map(|f| f.name().as_str())
            .unwrap_or("<unknown>")
    }

    /// The text of a file.
    pub fn text(&self, file: FileId) -> &str {
        self.files
            .get(file)
            .map(|f| f.source().as_str())
            .unwrap_or("")
    }

    /// The line and column where `span` starts.
    pub fn line_col(&self, span: Span) -> LineCol {
        let loc = self.files.location(span.file, span.start);
        match loc {
            Ok(l) => LineCol {
                line: l.line_number,
                col: l.column_number,
            },
            Err(_) => LineCol { line: 1, col: 1 },
        }
    }

    /// `file:line:col` for the start of `span`.
    pub fn location(&self, span: Span) -> String {
        let lc = self.line_col(span);
        format!("{}:{}:{}", self.name(span.file), lc.line, lc.col)
    }

    /// True when `file` is in the set.
    pub(crate) fn has(&self, file: FileId) -> bool {
        self.files.get(file).is_ok()
    }

    /// The underlying file database, for rendering.
    pub(crate) fn files(&self) -> &SimpleFiles<String, String> {
        &self.files
    }
}
