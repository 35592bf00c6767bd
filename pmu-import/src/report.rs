//! The importer's problems: [`Issue`]s at a file's line and column, and [`Doc`], a file's
//! text with line lookup that collects them.

use std::cell::Cell;
use std::fmt;

/// How serious an [`Issue`] is: the loader's own [`Severity`](pmu_defs::Severity). An error
/// means something could not be imported and nothing should be written; after warnings the
/// import goes on and the output is complete.
pub use pmu_defs::Severity as Level;

/// A problem found while importing, with the file and (for JSON and CSV input) the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// Error or warning.
    pub level: Level,
    /// The file, as given (or relative to the corpus).
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column (in characters), when known.
    pub column: Option<usize>,
    /// What is wrong, and why.
    pub message: String,
}

impl Issue {
    pub(crate) fn new(
        level: Level,
        file: &str,
        pos: Option<(usize, usize)>,
        message: String,
    ) -> Self {
        Issue {
            level,
            file: file.to_owned(),
            line: pos.map(|p| p.0),
            column: pos.map(|p| p.1),
            message,
        }
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.level {
            Level::Warning => "warning",
            Level::Error => "error",
        };
        write!(f, "{level}: {}", self.file)?;
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, ":{l}:{c}")?,
            (Some(l), None) => write!(f, ":{l}")?,
            _ => {}
        }
        write!(f, ": {}", self.message)
    }
}

/// A file's text with line lookup, and the issues found in it.
///
/// Positions cost no more than the text: a line is a binary search over the line starts, and
/// a column counts characters from the last column computed on the same line when it lies
/// before the offset (issues come in file order), so a file written on one line (minified
/// JSON) does not count from the line start for every issue.
pub(crate) struct Doc<'a> {
    pub(crate) name: &'a str,
    pub(crate) text: &'a str,
    pub(crate) line_starts: Vec<usize>,
    pub(crate) issues: &'a mut Vec<Issue>,
    /// The last column computed: (its line's start, its offset, the column).
    pub(crate) last_column: Cell<(usize, usize, usize)>,
    /// Bytes of text scanned to compute columns (a test checks it stays linear).
    pub(crate) scanned: Cell<usize>,
    /// How many of `issues` were counted by [`Doc::errors`], and how many of those are errors.
    pub(crate) counted: Cell<(usize, usize)>,
}

impl<'a> Doc<'a> {
    pub(crate) fn new(name: &'a str, text: &'a str, issues: &'a mut Vec<Issue>) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Doc {
            name,
            text,
            line_starts,
            issues,
            last_column: Cell::new((0, 0, 1)),
            scanned: Cell::new(0),
            counted: Cell::new((0, 0)),
        }
    }

    /// 1-based line of a byte offset.
    pub(crate) fn line(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        self.line_starts.partition_point(|&s| s <= offset)
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub(crate) fn pos(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line(offset);
        let start = self.line_starts[line.saturating_sub(1)];
        let (last_start, last_offset, last_col) = self.last_column.get();
        // Go on from the last column when it is on this line, at or before `offset`.
        let (from, col) = if last_start == start && last_offset <= offset {
            (last_offset, last_col)
        } else {
            (start, 1)
        };
        let Some(part) = self.text.get(from..offset) else {
            return (line, 1); // not at a character boundary
        };
        self.scanned.set(self.scanned.get() + part.len());
        let col = col + part.chars().count();
        self.last_column.set((start, offset, col));
        (line, col)
    }

    /// How many of the issues are errors (counting only those added since the last call).
    pub(crate) fn errors(&self) -> usize {
        let (seen, errors) = self.counted.get();
        let new = self.issues.get(seen..).unwrap_or_default();
        let errors = errors + new.iter().filter(|i| i.level == Level::Error).count();
        self.counted.set((self.issues.len(), errors));
        errors
    }

    /// Byte offset of a slice of this document's text.
    pub(crate) fn offset_of(&self, part: &str) -> usize {
        let base = self.text.as_ptr() as usize;
        let at = part.as_ptr() as usize;
        if at >= base && at <= base + self.text.len() {
            at - base
        } else {
            0
        }
    }

    pub(crate) fn error_at(&mut self, offset: usize, message: String) {
        let pos = self.pos(offset);
        self.issues
            .push(Issue::new(Level::Error, self.name, Some(pos), message));
    }

    pub(crate) fn warning_at(&mut self, offset: usize, message: String) {
        let pos = self.pos(offset);
        self.issues
            .push(Issue::new(Level::Warning, self.name, Some(pos), message));
    }
}
