//! Event descriptions, read when the site is built from the vendors' own lists and merged into
//! the generated pages only.
//!
//! The definitions hold facts (names, codes, masks), never Intel's or Linux perf's description
//! sentences: those may not be copied into this repository. `cargo xtask gen-docs
//! --descriptions DIR` reads them from the lists themselves (Intel's perfmon JSON, BSD-3-Clause;
//! Linux perf's AMD lists, GPL-2.0) into the site it writes, a build artifact. `DIR` is the
//! directory holding `intel-perfmon/` and `linux-amd-pmu-events/` (`../shared/data`), or one of
//! them. Without it, each event table says where its descriptions live ([`Source`]).
//!
//! A model generation names its list in `source:` (`SPR/events/sapphirerapids_core.json`,
//! `amdzen4`); its events are matched by name.

use pmu_defs::model::{Generation, Vendor};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The descriptions of every model generation's events, by generation id and event name.
#[derive(Clone, Debug, Default)]
pub struct Descriptions {
    by_generation: BTreeMap<String, BTreeMap<String, String>>,
    /// The list files read.
    pub files: usize,
    /// What could not be read, each with its path and why (the site is built without those
    /// descriptions).
    pub problems: Vec<String>,
}

impl Descriptions {
    /// Reads the lists of every generation of `generations` with a `source:` from `dir`.
    pub fn read<'g>(dir: &Path, generations: impl IntoIterator<Item = &'g Generation>) -> Self {
        let mut d = Descriptions::default();
        for g in generations {
            let Some(source) = &g.source else { continue };
            let files = match list_files(dir, g.vendor, source) {
                Ok(f) => f,
                Err(why) => {
                    d.problems.push(format!("{}: {why}", g.id));
                    continue;
                }
            };
            let mut texts = BTreeMap::new();
            for file in files {
                match read_list(&file) {
                    Ok(entries) => texts.extend(entries),
                    Err(why) => d.problems.push(format!("{}: {why}", file.display())),
                }
                d.files += 1;
            }
            d.by_generation.insert(g.id.clone(), texts);
        }
        d
    }

    /// The description of `event` of generation `generation`, if its list has one.
    pub fn get(&self, generation: &str, event: &str) -> Option<&str> {
        let texts = self.by_generation.get(generation)?;
        texts.get(event).map(String::as_str)
    }

    /// How many events have a description.
    pub fn len(&self) -> usize {
        self.by_generation.values().map(BTreeMap::len).sum()
    }

    /// True when no event has one.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Where a generation's event descriptions live, for a reader of a site built without them.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Source {
    /// The list, as `source:` names it.
    pub label: String,
    /// Its public location.
    pub url: String,
    /// Whose list it is and its licence.
    pub owner: &'static str,
}

/// The public location of `g`'s event list, when it was imported from one.
pub fn source(g: &Generation) -> Option<Source> {
    let label = g.source.clone()?;
    let (url, owner) = match g.vendor {
        Vendor::Intel => (
            format!("https://github.com/intel/perfmon/blob/main/{label}"),
            "Intel's perfmon event list (BSD-3-Clause)",
        ),
        Vendor::Amd => (
            format!(
                "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/tools/perf/pmu-events/arch/x86/{label}"
            ),
            "Linux perf's event list (GPL-2.0)",
        ),
    };
    Some(Source { label, url, owner })
}

/// The JSON files of a list: Intel's one file, AMD's directory of them (sorted).
fn list_files(dir: &Path, vendor: Vendor, source: &str) -> Result<Vec<PathBuf>, String> {
    let sub = match vendor {
        Vendor::Intel => "intel-perfmon",
        Vendor::Amd => "linux-amd-pmu-events",
    };
    let candidates = [dir.join(sub).join(source), dir.join(source)];
    let Some(found) = candidates.iter().find(|p| p.exists()) else {
        return Err(format!(
            "`{source}` is neither in {} nor in {}",
            dir.join(sub).display(),
            dir.display()
        ));
    };
    if found.is_file() {
        return Ok(vec![found.clone()]);
    }
    let entries = std::fs::read_dir(found).map_err(|e| format!("{}: {e}", found.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

/// `EventName` → description (`PublicDescription`, else `BriefDescription`) of one list:
/// Intel's `{"Events": [...]}` or perf's bare array.
fn read_list(path: &Path) -> Result<Vec<(String, String)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let json: Value = serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    let events = match &json {
        Value::Array(a) => a,
        Value::Object(o) => match o.get("Events") {
            Some(Value::Array(a)) => a,
            _ => return Err("no `Events` array".to_owned()),
        },
        _ => return Err("neither an event array nor an object with `Events`".to_owned()),
    };
    let text_of = |e: &Value, key: &str| {
        e.get(key)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    Ok(events
        .iter()
        .filter_map(|e| {
            let name = text_of(e, "EventName")?;
            let text =
                text_of(e, "PublicDescription").or_else(|| text_of(e, "BriefDescription"))?;
            Some((name, text))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_shapes_are_read_and_bad_files_say_why() {
        let dir = tempfile::tempdir().unwrap();
        let intel = dir.path().join("intel.json");
        std::fs::write(
            &intel,
            r#"{"Header": {}, "Events": [
                {"EventName": "A.B", "BriefDescription": "short", "PublicDescription": "long"},
                {"EventName": "C", "BriefDescription": "only brief"},
                {"EventName": "D"}
            ]}"#,
        )
        .unwrap();
        let got = read_list(&intel).unwrap();
        assert_eq!(
            got,
            [
                ("A.B".to_owned(), "long".to_owned()),
                ("C".to_owned(), "only brief".to_owned())
            ]
        );
        let amd = dir.path().join("amd.json");
        std::fs::write(&amd, r#"[{"EventName": "x.y", "BriefDescription": "z"}]"#).unwrap();
        assert_eq!(read_list(&amd).unwrap().len(), 1);
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, "{").unwrap();
        assert!(read_list(&bad).unwrap_err().starts_with("not JSON"));
        std::fs::write(&bad, "{}").unwrap();
        assert_eq!(read_list(&bad).unwrap_err(), "no `Events` array");
    }
}
