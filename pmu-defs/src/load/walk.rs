//! Directory walks that always end: every walker in the workspace (the [`Loader`]'s
//! directories, the perfmon importer, `registers!`, `cargo xtask gen`) goes through [`walk`].
//!
//! Symbolic links are followed, but each directory is read once, by its canonical path: a link
//! back to an ancestor (a cycle) or a second link to a directory already read is reported and
//! skipped, so two links to `.` cost two entries, not 2^depth paths. With a confining root
//! (the importer's corpus), a file or directory that resolves outside it is reported and not
//! returned. The walk uses an explicit stack, so a deep tree cannot overflow the call stack.
//!
//! [`Loader`]: crate::Loader

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Why an entry was not walked or returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// A directory that could not be read (or a path whose target could not be resolved).
    Unreadable(String),
    /// A directory (reached through a symbolic link) that resolves to one already read:
    /// `target` is its canonical path; `cycle` when it is an ancestor of the link.
    Again {
        /// The canonical directory.
        target: PathBuf,
        /// True when the link points at one of its own ancestors.
        cycle: bool,
    },
    /// With a confining root: the entry resolves to `target`, outside it.
    Outside {
        /// The canonical path it resolves to.
        target: PathBuf,
    },
}

/// An entry [`walk`] skipped, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The path as reached from the root (not canonical).
    pub path: PathBuf,
    /// Why.
    pub reason: Skip,
}

impl Skipped {
    /// The reason in words, for a message about `path`.
    pub fn describe(&self) -> String {
        match &self.reason {
            Skip::Unreadable(e) => format!("cannot read: {e}"),
            Skip::Again {
                target,
                cycle: true,
            } => format!(
                "a symbolic link to `{}`, a directory that contains it (a cycle); not read again",
                target.display()
            ),
            Skip::Again {
                target,
                cycle: false,
            } => format!(
                "a symbolic link to `{}`, a directory already read; not read again",
                target.display()
            ),
            Skip::Outside { target } => format!(
                "resolves to `{}`, outside the directory being read; not read",
                target.display()
            ),
        }
    }
}

/// The outcome of a [`walk`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Walk {
    /// Files `keep` accepted, sorted as paths (component by component: depth first, each
    /// directory's entries in order), as reached from the root (`root.join(...)`, not
    /// canonicalized).
    pub files: Vec<PathBuf>,
    /// Entries not walked or not returned, in the order met.
    pub skipped: Vec<Skipped>,
}

/// Every file below `root` for which `keep(path)` is true (directories are always entered).
/// With `confine`, entries resolving outside `root` are skipped ([`Skip::Outside`]).
pub fn walk(root: &Path, confine: bool, keep: &dyn Fn(&Path) -> bool) -> Walk {
    let mut out = Walk::default();
    let root_canon = match root.canonicalize() {
        Ok(c) => c,
        Err(e) => {
            out.skipped.push(Skipped {
                path: root.to_path_buf(),
                reason: Skip::Unreadable(e.to_string()),
            });
            return out;
        }
    };
    let mut seen: HashSet<PathBuf> = HashSet::new();
    seen.insert(root_canon.clone());
    // (path as reached, its canonical path)
    let mut stack: Vec<(PathBuf, PathBuf)> = vec![(root.to_path_buf(), root_canon.clone())];
    while let Some((dir, dir_canon)) = stack.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(rd) => rd,
            Err(e) => {
                out.skipped.push(Skipped {
                    path: dir,
                    reason: Skip::Unreadable(e.to_string()),
                });
                continue;
            }
        };
        let mut list: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        list.sort();
        let mut subdirs = Vec::new();
        for p in list {
            // `metadata` follows links; a broken link is "not a directory" and, when kept, is
            // returned so its reader reports why it cannot be read.
            let is_dir = std::fs::metadata(&p).is_ok_and(|m| m.is_dir());
            let is_link = std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink());
            if is_dir {
                let canon = if is_link {
                    match p.canonicalize() {
                        Ok(c) => c,
                        Err(e) => {
                            out.skipped.push(Skipped {
                                path: p,
                                reason: Skip::Unreadable(e.to_string()),
                            });
                            continue;
                        }
                    }
                } else {
                    dir_canon.join(p.file_name().unwrap_or_default())
                };
                if confine && !canon.starts_with(&root_canon) {
                    out.skipped.push(Skipped {
                        path: p,
                        reason: Skip::Outside { target: canon },
                    });
                    continue;
                }
                if !seen.insert(canon.clone()) {
                    let cycle = dir_canon.starts_with(&canon);
                    out.skipped.push(Skipped {
                        path: p,
                        reason: Skip::Again {
                            target: canon,
                            cycle,
                        },
                    });
                    continue;
                }
                subdirs.push((p, canon));
            } else if keep(&p) {
                if confine && is_link {
                    match p.canonicalize() {
                        Ok(c) if !c.starts_with(&root_canon) => {
                            out.skipped.push(Skipped {
                                path: p,
                                reason: Skip::Outside { target: c },
                            });
                            continue;
                        }
                        Ok(_) => {}
                        // A broken link: returned, its reader says why it cannot be read.
                        Err(_) => {}
                    }
                }
                out.files.push(p);
            }
        }
        stack.extend(subdirs.into_iter().rev());
    }
    // Paths compare component by component: this is the depth-first order with each
    // directory's entries sorted, whatever order the stack visited them in.
    out.files.sort();
    out
}

/// Checks that `rel` (a `/`-separated path from a file such as a mapfile) stays below the
/// directory it is relative to: not empty, no `..`, root or drive components.
pub fn check_relative(rel: &str) -> Result<(), String> {
    use std::path::Component;
    if rel.is_empty() {
        return Err("the path is empty".into());
    }
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(_) | Component::CurDir => {}
            Component::ParentDir => {
                return Err(
                    "the path has a `..` component, which could leave the directory".into(),
                );
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err("the path is absolute".into());
            }
        }
    }
    Ok(())
}

/// `rel` checked against `root`: [`check_relative`], and when the file exists its canonical
/// path must lie below `root`'s (a symbolic link may not lead out). `Ok(path)` is
/// `root.join(rel)` (which may not exist); `Err` says why it is refused.
pub fn confined(root: &Path, rel: &str) -> Result<PathBuf, String> {
    check_relative(rel)?;
    let path = root.join(rel);
    if let Ok(canon) = path.canonicalize() {
        let root_canon = root
            .canonicalize()
            .map_err(|e| format!("cannot resolve `{}`: {e}", root.display()))?;
        if !canon.starts_with(&root_canon) {
            return Err(format!(
                "it resolves to `{}` (through a symbolic link), outside `{}`",
                canon.display(),
                root_canon.display()
            ));
        }
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("pmu-walk-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn sorted_as_paths() {
        let d = temp("order");
        std::fs::create_dir_all(d.join("b/c")).unwrap();
        for f in ["z.yaml", "a.yaml", "b/c/x.yaml", "b/y.yaml", "b/n.txt"] {
            std::fs::write(d.join(f), "").unwrap();
        }
        let w = walk(&d, false, &|p| p.extension().is_some_and(|e| e == "yaml"));
        let rel: Vec<String> = w
            .files
            .iter()
            .map(|p| p.strip_prefix(&d).unwrap().display().to_string())
            .collect();
        assert_eq!(rel, ["a.yaml", "b/c/x.yaml", "b/y.yaml", "z.yaml"]);
        assert!(w.skipped.is_empty());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn links_to_dot_and_outside_are_skipped_once() {
        let d = temp("links");
        let outside = temp("links-outside");
        std::fs::write(outside.join("o.yaml"), "").unwrap();
        std::fs::write(d.join("a.yaml"), "").unwrap();
        std::os::unix::fs::symlink(".", d.join("l1")).unwrap();
        std::os::unix::fs::symlink(".", d.join("l2")).unwrap();
        std::os::unix::fs::symlink(&outside, d.join("out")).unwrap();
        std::os::unix::fs::symlink(outside.join("o.yaml"), d.join("o.yaml")).unwrap();
        let keep = |p: &Path| p.extension().is_some_and(|e| e == "yaml");
        let w = walk(&d, true, &keep);
        assert_eq!(w.files, [d.join("a.yaml")]);
        assert_eq!(w.skipped.len(), 4, "{:#?}", w.skipped);
        assert!(matches!(
            w.skipped[0].reason,
            Skip::Again { cycle: true, .. }
        ));
        assert!(w.skipped[0].describe().contains("(a cycle)"));
        assert!(matches!(w.skipped[2].reason, Skip::Outside { .. }));
        // Unconfined: the outside directory and file are read.
        let w = walk(&d, false, &keep);
        assert_eq!(w.files.len(), 3, "{:#?}", w.files);
        assert_eq!(w.skipped.len(), 2);
        let _ = std::fs::remove_dir_all(&d);
        let _ = std::fs::remove_dir_all(&outside);
    }

    #[test]
    fn confined_paths() {
        let d = temp("confined");
        assert!(confined(&d, "A/events/a.json").is_ok());
        assert!(confined(&d, "../x_core.json").unwrap_err().contains("`..`"));
        assert!(confined(&d, "A/../../x").unwrap_err().contains("`..`"));
        assert!(
            confined(&d, "/etc/passwd")
                .unwrap_err()
                .contains("absolute")
        );
        assert!(confined(&d, "").is_err());
        let _ = std::fs::remove_dir_all(&d);
    }
}
