//! The sink every phase pushes into ([`Diagnostics`]): sorted by place, repeats removed, at most
//! [`MAX_PER_CODE`] of each code kept and the rest counted ([`Omitted`]).

use super::*;

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
pub(super) struct Ranked(Diagnostic);

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
    pub(super) cap: usize,
    /// Per code, and acknowledged or not.
    pub(super) kept: BTreeMap<(&'static str, bool), BTreeSet<Ranked>>,
    /// Hashes of the distinct diagnostics left out, per code, severity and acknowledgement.
    pub(super) omitted: BTreeMap<(&'static str, Severity, bool), HashSet<u64>>,
    /// Errors pushed (repeats included), for `error_count`.
    pub(super) errors: usize,
    /// Files from this id on are kept before the others when a code is over its cap
    /// ([`Diagnostics::prefer_from`]).
    pub(super) prefer_from: Option<usize>,
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
    pub(super) fn keep(&mut self, d: Diagnostic) {
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
