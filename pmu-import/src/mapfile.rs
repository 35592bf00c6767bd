//! `mapfile.csv`: CPUID family-model strings to event files.

use crate::files::parse_number;
use crate::report::{Issue, Level};

/// One row of `mapfile.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapRow {
    /// Line in the CSV file.
    pub line: usize,
    /// `Family-model`, e.g. `GenuineIntel-6-4E`.
    pub family_model: String,
    /// `Version`, e.g. `V59`.
    pub version: String,
    /// `Filename` without the leading `/`, e.g. `SKL/events/skylake_core.json`.
    pub file: String,
    /// `EventType`: `core`, `hybridcore`, `uncore`, `metrics`, ...
    pub event_type: String,
    /// `Core Type` on hybrid parts (`0x20`, `0x40`).
    pub core_type: Option<u8>,
    /// `Native Model ID` on hybrid parts.
    pub native_model_id: Option<u32>,
    /// `Core Role Name` on hybrid parts (`Atom`, `Core`).
    pub core_role: Option<String>,
}

impl MapRow {
    /// True for the event types that are core event lists (`core`, `hybridcore`).
    pub fn is_core(&self) -> bool {
        self.event_type.eq_ignore_ascii_case("core")
            || self.event_type.eq_ignore_ascii_case("hybridcore")
    }
}

/// Parses `mapfile.csv`. Rows that cannot be read are reported and skipped.
pub fn parse_mapfile(name: &str, text: &str, issues: &mut Vec<Issue>) -> Vec<MapRow> {
    let mut lines = text.lines().enumerate();
    let Some((_, header)) = lines.next() else {
        issues.push(Issue::new(
            Level::Error,
            name,
            None,
            "the mapfile is empty".into(),
        ));
        return Vec::new();
    };
    let cols: Vec<String> = header
        .trim_start_matches('\u{feff}')
        .split(',')
        .map(|c| c.trim().to_ascii_lowercase())
        .collect();
    let col = |n: &str| cols.iter().position(|c| c == n);
    let (Some(fm), Some(ver), Some(file), Some(ty)) = (
        col("family-model"),
        col("version"),
        col("filename"),
        col("eventtype"),
    ) else {
        issues.push(Issue::new(
            Level::Error,
            name,
            Some((1, 1)),
            "the mapfile header lacks one of the columns Family-model, Version, Filename, EventType"
                .into(),
        ));
        return Vec::new();
    };
    let (core_type, native, role) = (
        col("core type"),
        col("native model id"),
        col("core role name"),
    );
    let mut out = Vec::new();
    for (i, l) in lines {
        let line = i + 1;
        if l.trim().is_empty() {
            continue;
        }
        let parts: Vec<&str> = l.split(',').map(str::trim).collect();
        let get = |c: Option<usize>| c.and_then(|c| parts.get(c)).copied().unwrap_or("");
        if parts.len() < 4 || [fm, ver, file, ty].iter().any(|&c| get(Some(c)).is_empty()) {
            issues.push(Issue::new(
                Level::Warning,
                name,
                Some((line, 1)),
                format!("mapfile row `{l}` lacks a family-model, version, file name or event type; skipped"),
            ));
            continue;
        }
        let hex = |s: &str| -> Result<Option<u64>, ()> {
            if s.is_empty() {
                return Ok(None);
            }
            parse_number(s).map(Some).ok_or(())
        };
        let (Ok(ct), Ok(nm)) = (hex(get(core_type)), hex(get(native))) else {
            issues.push(Issue::new(
                Level::Warning,
                name,
                Some((line, 1)),
                format!("mapfile row `{l}`: core type or native model id is not a number; skipped"),
            ));
            continue;
        };
        let (Ok(ct), Ok(nm)) = (
            ct.map(u8::try_from).transpose(),
            nm.map(|v| u32::try_from(v).ok().filter(|&v| v <= 0xFF_FFFF).ok_or(()))
                .transpose(),
        ) else {
            issues.push(Issue::new(
                Level::Warning,
                name,
                Some((line, 1)),
                format!("mapfile row `{l}`: core type (8 bits) or native model id (24 bits) out of range; skipped"),
            ));
            continue;
        };
        // Every path must stay below the corpus: a row such as `/../x_core.json` is refused
        // (whatever its event type), at the column of its file name.
        if let Err(why) =
            pmu_defs::load::walk::check_relative(get(Some(file)).trim_start_matches('/'))
        {
            let column = l
                .split(',')
                .take(file)
                .map(|p| p.chars().count() + 1)
                .sum::<usize>()
                + l.split(',')
                    .nth(file)
                    .map_or(0, |p| p.chars().count() - p.trim_start().chars().count())
                + 1;
            issues.push(Issue::new(
                Level::Error,
                name,
                Some((line, column)),
                format!(
                    "mapfile row names `{}`: {why}; the importer reads only files below the corpus directory",
                    get(Some(file))
                ),
            ));
            continue;
        }
        out.push(MapRow {
            line,
            family_model: get(Some(fm)).to_owned(),
            version: get(Some(ver)).to_owned(),
            file: get(Some(file)).trim_start_matches('/').to_owned(),
            event_type: get(Some(ty)).to_owned(),
            core_type: ct,
            native_model_id: nm,
            core_role: Some(get(role).to_owned()).filter(|s| !s.is_empty()),
        });
    }
    out
}
