//! Reading the corpus's files: text, numbers as the lists write them, paths relative to the
//! corpus, the walk of a directory and what it skipped, and the commit its README names.

use crate::report::{Doc, Issue, Level};
use std::collections::BTreeSet;
use std::path::Path;

/// The `commit <hex>` the corpus README names.
pub(crate) fn readme_commit(root: &Path) -> Option<String> {
    let root = if root.as_os_str().is_empty() {
        Path::new(".")
    } else {
        root
    };
    // Like every file the importer reads, only when it lies below the corpus.
    let readme = pmu_defs::load::walk::confined(root, "README.md").ok()?;
    let text = std::fs::read_to_string(readme).ok()?;
    let mut words = text.split_whitespace();
    while let Some(w) = words.next() {
        if w == "commit"
            && let Some(next) = words.next()
        {
            let hex: String = next
                .trim_start_matches('`')
                .chars()
                .take_while(|c| c.is_ascii_hexdigit())
                .collect();
            if hex.len() >= 7 {
                return Some(hex);
            }
        }
    }
    None
}

pub(crate) fn display(p: &Path) -> String {
    p.display().to_string()
}

/// `path` relative to `root` with `/` separators.
pub(crate) fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Every `.json` file below the corpus directory `root` (sorted, depth first), through
/// [`pmu_defs::walk`]: each directory read once (symbolic-link cycles cut), and nothing outside
/// `root`. What the walk skipped is reported by [`report_skipped`].
pub(crate) fn json_files(root: &Path) -> pmu_defs::load::walk::Walk {
    pmu_defs::load::walk::walk(root, true, &|p: &Path| {
        p.extension().and_then(|e| e.to_str()) == Some("json")
    })
}

/// Reports the entries a walk of the corpus skipped: a link leading out of the corpus is an
/// error, a second way into a directory (a cycle) a warning. Paths under `reported` (core
/// files the mapfile names, already refused at their mapfile line) are not reported twice.
pub(crate) fn report_skipped(
    root: &Path,
    walk: &pmu_defs::load::walk::Walk,
    reported: &BTreeSet<String>,
    issues: &mut Vec<Issue>,
) {
    for s in &walk.skipped {
        let rel = relative(root, &s.path);
        let covered = reported.iter().any(|f| {
            *f == rel
                || f.strip_prefix(rel.as_str())
                    .is_some_and(|r| r.starts_with('/'))
        });
        if covered {
            continue;
        }
        let (level, message) = match &s.reason {
            pmu_defs::load::walk::Skip::Again { .. } => (Level::Warning, s.describe()),
            pmu_defs::load::walk::Skip::Outside { target } => (
                Level::Error,
                format!(
                    "resolves to `{}`, outside the corpus directory; not read (the importer reads only files below the corpus)",
                    target.display()
                ),
            ),
            pmu_defs::load::walk::Skip::Unreadable(_) => (Level::Error, s.describe()),
        };
        issues.push(Issue::new(level, &display(&s.path), None, message));
    }
}

pub(crate) fn read_text(path: &Path, issues: &mut Vec<Issue>) -> Option<String> {
    match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(t) => Some(t),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(e.as_bytes());
                let pos = Doc::new("", &text, &mut Vec::new()).pos(at);
                issues.push(Issue::new(
                    Level::Error,
                    &display(path),
                    Some(pos),
                    format!("not valid UTF-8 (byte offset {at})"),
                ));
                None
            }
        },
        Err(e) => {
            issues.push(Issue::new(
                Level::Error,
                &display(path),
                None,
                format!("cannot read: {e}"),
            ));
            None
        }
    }
}

/// A number as the mapfiles and event lists write it: `0x1A6`, `0X1a6` or `422`.
pub(crate) fn parse_number(s: &str) -> Option<u64> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        if h.is_empty() || !h.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        return u64::from_str_radix(h, 16).ok();
    }
    if s.is_empty() || !s.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}
