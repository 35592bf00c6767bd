//! The generated files as one value ([`Site`]), and writing them to a directory: a manifest
//! marks the directory as the site's, so a later run removes the pages that no longer exist
//! and never touches a directory it did not write.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The name of the file that marks a directory as written by `gen-docs`; it lists every
/// file written, so the next run removes pages that no longer exist and nothing else.
pub const MANIFEST: &str = ".pmu-docs-manifest";

/// The generated files: relative path (`/`-separated) → contents, in path order.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Site {
    files: BTreeMap<String, String>,
}

impl Site {
    /// Every file, in path order.
    pub fn files(&self) -> &BTreeMap<String, String> {
        &self.files
    }

    /// One file's contents.
    pub fn get(&self, path: &str) -> Option<&str> {
        self.files.get(path).map(String::as_str)
    }

    pub(crate) fn add(&mut self, path: String, contents: String) {
        self.files.insert(path, contents);
    }

    /// Writes the site below `out`, creating it when needed. A directory that exists, is not
    /// empty and was not written by `gen-docs` (no manifest) is refused rather than mixed
    /// into; files a previous run wrote that this run does not are removed.
    pub fn write(&self, out: &Path) -> Result<WriteSummary, String> {
        let manifest_path = out.join(MANIFEST);
        let previous: BTreeSet<String> = if out.is_dir() {
            match std::fs::read_to_string(&manifest_path) {
                Ok(text) => text.lines().map(str::to_owned).collect(),
                Err(_) => {
                    let mut entries = std::fs::read_dir(out)
                        .map_err(|e| format!("cannot read {}: {e}", out.display()))?;
                    if entries.next().is_some() {
                        return Err(format!(
                            "{} exists, is not empty and was not written by `cargo xtask gen-docs` \
                             (no {MANIFEST}); choose a new or empty directory with --out",
                            out.display()
                        ));
                    }
                    BTreeSet::new()
                }
            }
        } else if out.exists() {
            return Err(format!("{} exists and is not a directory", out.display()));
        } else {
            BTreeSet::new()
        };
        let mut written = 0;
        let mut unchanged = 0;
        for (rel, contents) in &self.files {
            let path = out.join(rel);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            if std::fs::read(&path).is_ok_and(|old| old == contents.as_bytes()) {
                unchanged += 1;
                continue;
            }
            std::fs::write(&path, contents)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            written += 1;
        }
        let mut removed = 0;
        for rel in previous.difference(&self.files.keys().cloned().collect()) {
            // Only plain relative paths a previous run could have written.
            if rel.is_empty()
                || rel.starts_with('/')
                || rel
                    .split('/')
                    .any(|c| c.is_empty() || c == "." || c == "..")
            {
                continue;
            }
            let path = out.join(rel);
            if path.is_file() {
                std::fs::remove_file(&path)
                    .map_err(|e| format!("cannot remove stale {}: {e}", path.display()))?;
                removed += 1;
                // Drop directories the removal emptied (never `out` itself).
                let mut dir = path.parent();
                while let Some(d) = dir {
                    if d == out || std::fs::remove_dir(d).is_err() {
                        break;
                    }
                    dir = d.parent();
                }
            }
        }
        let list: String = self.files.keys().map(|k| format!("{k}\n")).collect();
        std::fs::write(&manifest_path, list)
            .map_err(|e| format!("cannot write {}: {e}", manifest_path.display()))?;
        Ok(WriteSummary {
            files: self.files.len(),
            written,
            unchanged,
            removed,
        })
    }
}

/// What [`Site::write`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteSummary {
    /// Files in the site.
    pub files: usize,
    /// Files created or changed.
    pub written: usize,
    /// Files already up to date.
    pub unchanged: usize,
    /// Stale files from a previous run removed.
    pub removed: usize,
}
