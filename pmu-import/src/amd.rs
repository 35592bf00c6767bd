//! Linux perf's AMD event lists → core model generations (the `amdzenN` half of the importer).
//!
//! perf keeps AMD's events in `tools/perf/pmu-events/arch/x86/<dir>/*.json`, one directory per
//! Zen family, with `mapfile.csv` rows `AuthenticAMD-<family>-<model regex>,<version>,<dir>,core`.
//! [`import_corpus`] writes one generation per directory the mapfile names: `extends:` the
//! Zen family naming it in `perfmon-cores:` (else the newest named and a warning), `cpus:`
//! the family/model pairs the row's regular expression matches (first row wins, as in perf's
//! `pmu_events_map__find`), `source:` the directory, one line per core-PMU event.
//!
//! Only facts are written: names, event codes and unit masks. Events of the other AMD PMUs
//! (`Unit`: `L3PMC`, `DFPMC`, `UMCPMC`) and perf's metrics are counted and named in the
//! header as not imported; their registers are not the core counters'. Description sentences
//! are never copied.

use crate::convert::model_name;
use crate::emit::{CpuYaml, Hex, ModelYaml, comment, hex, write_model};
use crate::files::parse_number;
use crate::files::{display, read_text, readme_commit, relative};
use crate::intel::value::{Entries, Val, classify, json_kind};
use crate::mapfile::MapRow;
use crate::outcome::{AMD_SOURCE_LINE, CoreModel, Corpus, CorpusKind, HEADER, Import, Provenance};
use crate::report::{Doc, Issue, Level};

use pmu_defs::load::de::is_event_name;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_saphyr::{FlowMap, LitString};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

/// perf's PMU for each `Unit` of the AMD lists (jevents.py `unit_to_pmu`). Events with a
/// unit are not core-PMU events and are not imported here.
pub const AMD_UNITS: &[(&str, &str)] = &[
    ("L3PMC", "amd_l3"),
    ("DFPMC", "amd_df"),
    ("UMCPMC", "amd_umc"),
];

/// First line of the generated files, after the common [`HEADER`](crate::HEADER).
pub use crate::outcome::AMD_SOURCE_LINE as SOURCE_LINE;

/// Keys of an AMD list object that the importer knows (descriptions and metric keys are read
/// and dropped).
pub const AMD_KEYS: &[&str] = &[
    "EventName",
    "EventCode",
    "UMask",
    "Unit",
    "PerPkg",
    "RdWrMask",
    "Deprecated",
    // Terms of the L3 PMU (perf's amd_l3 format: enallcores, enallslices, sliceid,
    // threadmask), on Zen 5's L3PMC events, which are not imported; a warning on a core event.
    "EnAllCores",
    "EnAllSlices",
    "SliceId",
    "ThreadMask",
    "BriefDescription",
    "PublicDescription",
    // Reviewed: a misspelling of `BriefDescription` in perf's amdzen4/cache.json and
    // amdzen5/load-store.json; a description, dropped as the others are.
    "BriefDescript6ion",
    "MetricName",
    "MetricExpr",
    "MetricGroup",
    "MetricConstraint",
    "MetricThreshold",
    "ScaleUnit",
];

/// One core-PMU event of an AMD list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmdEvent {
    /// `EventName`.
    pub name: String,
    /// The file it is in (relative to the corpus) and the line of its object.
    pub file: String,
    /// Line of the event object.
    pub line: usize,
    /// `EventCode` (12 bits on the core PMU).
    pub code: u32,
    /// `UMask`, when given.
    pub umask: Option<u32>,
    /// `Deprecated` is 1 (perf's lists keep a deprecated event under its old name).
    pub deprecated: bool,
}

/// What one family directory holds.
#[derive(Clone, Debug, Default)]
pub struct AmdDir {
    /// Core-PMU events, in file order.
    pub events: Vec<AmdEvent>,
    /// Objects read (events and metrics).
    pub entries: usize,
    /// Events of other PMUs, by `Unit`.
    pub other_units: BTreeMap<String, usize>,
    /// Metric objects (`MetricName`), not imported.
    pub metrics: usize,
    /// JSON files read.
    pub files: usize,
}

/// True when `dir` is a perf-layout corpus: its `mapfile.csv` names directories (perf's
/// `pmu-events/arch/x86` layout) for AMD CPUs, not JSON files as Intel's perfmon does.
pub fn is_perf_layout(dir: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(dir.join("mapfile.csv")) else {
        return false;
    };
    text.lines()
        .skip(1)
        .any(|l| l.trim_start().starts_with("AuthenticAMD-"))
}

/// The family/model pairs (as `cpus:` spells them, family and model in hex) a mapfile row
/// matches, over every model 00h-FFh and, for a row with a stepping part, every stepping.
/// perf prints the CPU as `vendor-family-model-stepping` with the family in decimal and the
/// model and stepping in hex without padding (`get_cpuid_str`: `%s-%u-%X-%X`), and needs the
/// pattern to match all of it but the stepping (all of it when the row has a stepping);
/// `claimed` holds what earlier rows took (the first matching row wins).
pub(crate) fn row_cpus(
    row: &MapRow,
    map_name: &str,
    claimed: &mut BTreeSet<(u32, u32, u32)>,
    issues: &mut Vec<Issue>,
) -> Option<Vec<String>> {
    let at = Some((row.line, 1));
    let parts: Vec<&str> = row.family_model.splitn(3, '-').collect();
    let family = match parts.as_slice() {
        [vendor, fam, _] if *vendor == "AuthenticAMD" && !fam.is_empty() => fam
            .parse::<u32>()
            .ok()
            .filter(|_| fam.bytes().all(|b| b.is_ascii_digit())),
        _ => None,
    };
    let Some(family) = family else {
        issues.push(Issue::new(
            Level::Error,
            map_name,
            at,
            format!(
                "`{}` is not `AuthenticAMD-<family>-<model pattern>` with the family in decimal, as perf prints it",
                row.family_model
            ),
        ));
        return None;
    };
    let re = match regex::Regex::new(&format!("^(?:{})$", row.family_model)) {
        Ok(r) => r,
        Err(e) => {
            let why = e.to_string();
            let why = why.lines().last().unwrap_or("").trim();
            issues.push(Issue::new(
                Level::Error,
                map_name,
                at,
                format!("`{}` is not a regular expression: {why}", row.family_model),
            ));
            return None;
        }
    };
    // perf's is_full_cpuid: exactly three `-` (a range such as `[0-9A-F]` counts too).
    let with_stepping = row.family_model.matches('-').count() == 3;
    let mut out = Vec::new();
    for model in 0..=0xFFu32 {
        let id = format!("AuthenticAMD-{family}-{model:X}");
        let mut steppings = 0u16;
        for s in 0..16u32 {
            let hit = if with_stepping {
                re.is_match(&format!("{id}-{s:X}"))
            } else {
                re.is_match(&id)
            };
            if hit && claimed.insert((family, model, s)) {
                steppings |= 1 << s;
            }
        }
        match steppings {
            0 => {}
            u16::MAX => out.push(format!("AuthenticAMD-{family:X}-{model:02X}")),
            m => {
                let list: String = (0..16)
                    .filter(|s| m & (1 << s) != 0)
                    .map(|s| format!("{s:X}"))
                    .collect();
                out.push(format!("AuthenticAMD-{family:X}-{model:02X}-[{list}]"));
            }
        }
    }
    if out.is_empty() {
        issues.push(Issue::new(
            Level::Warning,
            map_name,
            at,
            format!(
                "`{}` matches no CPU an earlier row does not already claim; `{}` gets no `cpus`",
                row.family_model, row.file
            ),
        ));
    }
    Some(out)
}

/// Reads one AMD list (a JSON array of flat objects) into `dir`.
pub fn parse_list(name: &str, text: &str, dir: &mut AmdDir, issues: &mut Vec<Issue>) {
    let mut doc = Doc::new(name, text, issues);
    if json_kind(text) != Some(b'[') {
        doc.error_at(
            0,
            "not a perf event list: expected a JSON array of events".into(),
        );
        return;
    }
    let list: Vec<&RawValue> = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let pos = (e.line() > 0).then(|| (e.line(), e.column()));
            let msg = e.to_string();
            let msg = msg
                .rsplit_once(" at line ")
                .map_or(msg.as_str(), |(m, _)| m);
            doc.issues.push(Issue::new(
                Level::Error,
                name,
                pos,
                format!("malformed JSON: {msg}"),
            ));
            return;
        }
    };
    dir.files += 1;
    dir.entries += list.len();
    let mut unknown: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for raw in list {
        read_object(&mut doc, raw, dir, &mut unknown);
    }
    for (key, (offset, count)) in unknown {
        let more = if count > 1 {
            format!(" ({count} objects)")
        } else {
            String::new()
        };
        doc.warning_at(offset, format!("unknown key `{key}`{more}; ignored"));
    }
}

/// The text of each known key of one object; unknown keys counted in `unknown`.
pub(crate) fn object_texts<'t>(
    doc: &mut Doc<'_>,
    entries: &'t Entries<'t>,
    unknown: &mut BTreeMap<String, (usize, usize)>,
) -> BTreeMap<&'static str, (String, usize)> {
    let mut texts = BTreeMap::new();
    for (k, v) in &entries.0 {
        let at = doc.offset_of(v.get());
        let Some(key) = AMD_KEYS.iter().find(|x| **x == k.as_ref()) else {
            let slot = unknown.entry(k.to_string()).or_insert((at, 0));
            slot.1 += 1;
            continue;
        };
        match classify(v) {
            Val::Text(t) => {
                texts.insert(*key, (t.trim().to_owned(), at));
            }
            Val::Number(n) => {
                texts.insert(*key, (n.to_owned(), at));
            }
            _ if key.starts_with("BriefDescript")
                || key.ends_with("Description")
                || key.starts_with("Metric") => {}
            _ => doc.error_at(at, format!("`{key}` is not a string or a number")),
        }
    }
    texts
}

/// One object of a list: a core event into `dir.events`, anything else counted.
pub(crate) fn read_object(
    doc: &mut Doc<'_>,
    raw: &RawValue,
    dir: &mut AmdDir,
    unknown: &mut BTreeMap<String, (usize, usize)>,
) {
    let at = doc.offset_of(raw.get());
    let Ok(entries) = serde_json::from_str::<Entries>(raw.get()) else {
        doc.error_at(at, "an entry is not a JSON object".into());
        return;
    };
    let texts = object_texts(doc, &entries, unknown);
    let Some((name, name_at)) = texts.get("EventName") else {
        if texts.contains_key("MetricName") {
            dir.metrics += 1;
        } else {
            doc.error_at(
                at,
                "an entry has neither `EventName` nor `MetricName`".into(),
            );
        }
        return;
    };
    if let Some((unit, _)) = texts.get("Unit") {
        *dir.other_units.entry(unit.clone()).or_default() += 1;
        return;
    }
    if !is_event_name(name) {
        let why = format!("event name `{name}` {}", pmu_defs::load::de::EVENT_RULE);
        doc.error_at(
            *name_at,
            why.replace(&format!("`{name}` "), &format!("`{name}` must be: ")),
        );
        return;
    }
    let number = |doc: &mut Doc<'_>, key: &str, max: u64| -> Option<Option<u32>> {
        let Some((t, off)) = texts.get(key) else {
            return Some(None);
        };
        match parse_number(t).filter(|v| *v <= max) {
            Some(v) => Some(Some(v as u32)),
            None => {
                doc.error_at(
                    *off,
                    format!("event `{name}`: `{key}` `{t}` is not a number up to {max:#x}"),
                );
                None
            }
        }
    };
    let (Some(code), Some(umask)) = (number(doc, "EventCode", 0xFFF), number(doc, "UMask", 0xFF))
    else {
        return;
    };
    let Some(code) = code else {
        doc.error_at(at, format!("event `{name}` has no `EventCode`"));
        return;
    };
    if let Some((_, off)) = texts.get("RdWrMask") {
        doc.warning_at(
            *off,
            format!(
                "event `{name}`: `RdWrMask` is a memory-controller term; ignored on a core event"
            ),
        );
    }
    for key in ["EnAllCores", "EnAllSlices", "SliceId", "ThreadMask"] {
        if let Some((_, off)) = texts.get(key) {
            doc.warning_at(
                *off,
                format!("event `{name}`: `{key}` is an L3 PMU term; ignored on a core event"),
            );
        }
    }
    let deprecated = match texts.get("Deprecated").map(|(t, off)| (t.as_str(), *off)) {
        None | Some(("0", _)) => false,
        Some(("1", _)) => true,
        Some((t, off)) => {
            doc.error_at(
                off,
                format!("event `{name}`: `Deprecated` is `{t}`, expected 0 or 1"),
            );
            return;
        }
    };
    let line = doc.line(at);
    dir.events.push(AmdEvent {
        name: name.clone(),
        file: doc.name.to_owned(),
        line,
        code,
        umask,
        deprecated,
    });
}

/// The generation a directory extends and why: the hand-written AMD generation naming it in
/// its `perfmon-cores:` (a Zen family, `pmu-defs/defs/amd/uarch/`), its `manual:` the basis.
/// A directory no generation names extends the one naming the newest directory, with a
/// warning.
pub(crate) fn arch_for(dir: &str, map_name: &str, line: usize, issues: &mut Vec<Issue>) -> Arch {
    let model = &crate::defs::amd_architectural().model;
    let claims = model
        .generations
        .iter()
        .flat_map(|g| g.perfmon_cores.iter().map(move |c| (c.as_str(), g)));
    let mut newest: Option<(&str, &pmu_defs::model::Generation)> = None;
    for (core, g) in claims {
        if core.eq_ignore_ascii_case(dir) {
            return (g.id.as_str(), g.manual.clone(), true);
        }
        // Directory names differ in their number (`amdzen5`): longer is newer, then larger.
        let key = |c: &str| (c.len(), c.to_ascii_lowercase());
        if newest.is_none_or(|(n, _)| key(core) > key(n)) {
            newest = Some((core, g));
        }
    }
    let (newest, g) = match newest {
        Some((n, g)) => (n, g.id.as_str()),
        None => ("none", "amd-core"),
    };
    issues.push(Issue::new(
        Level::Warning,
        map_name,
        Some((line, 1)),
        format!(
            "no AMD generation names `{dir}` in its `perfmon-cores:`: it extends `{g}`, as `{newest}` does; add it to a Zen family in pmu-defs/defs/amd/uarch/ (check CPUID Fn8000_0022_EAX[PerfMonV2] on the part and Linux's amd_pmu_event_map)"
        ),
    ));
    let basis =
        format!("not named by a Zen family; extends {g} as {newest}, the newest named, does");
    (g, basis, false)
}

/// Reads every `.json` file of one family directory.
pub(crate) fn read_dir(root: &Path, dir: &Path, issues: &mut Vec<Issue>) -> AmdDir {
    let mut out = AmdDir::default();
    let walk = pmu_defs::load::walk::walk(dir, true, &|p: &Path| {
        p.extension().and_then(|e| e.to_str()) == Some("json")
    });
    for s in &walk.skipped {
        issues.push(Issue::new(
            Level::Error,
            &display(&s.path),
            None,
            s.describe(),
        ));
    }
    for p in &walk.files {
        if let Some(text) = read_text(p, issues) {
            parse_list(&relative(root, p), &text, &mut out, issues);
        }
    }
    out
}

/// Duplicate names in one directory are errors (the first is kept).
pub(crate) fn drop_duplicates(events: &mut Vec<AmdEvent>, issues: &mut Vec<Issue>) {
    let mut seen: BTreeMap<String, (String, usize)> = BTreeMap::new();
    events.retain(|e| match seen.get(&e.name) {
        Some((file, line)) => {
            issues.push(Issue::new(
                Level::Error,
                &e.file,
                Some((e.line, 1)),
                format!(
                    "event `{}` is listed twice (first at {file}:{line}); kept the first",
                    e.name
                ),
            ));
            false
        }
        None => {
            seen.insert(e.name.clone(), (e.file.clone(), e.line));
            true
        }
    });
}

/// The generation extended, the basis, and whether a generation names the directory.
pub(crate) type Arch = (&'static str, String, bool);

/// The `cpus:`, the header's "not imported" line and the YAML of one generation.
pub(crate) struct Generation<'a> {
    pub(crate) dir: &'a str,
    pub(crate) row: &'a MapRow,
    pub(crate) cpus: Vec<String>,
    pub(crate) arch: Arch,
    pub(crate) list: AmdDir,
}

/// `L3PMC: 8, DFPMC: 12`, with perf's PMU names.
pub(crate) fn units_text(units: &BTreeMap<String, usize>) -> String {
    units
        .iter()
        .map(|(u, n)| match AMD_UNITS.iter().find(|(x, _)| x == u) {
            Some((_, pmu)) => format!("{n} {u} ({pmu})"),
            None => format!("{n} {u}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One line: what a directory had that is not imported, or `None`.
pub fn skipped_summary(dir: &str, list: &AmdDir) -> Option<String> {
    let others: usize = list.other_units.values().sum();
    (others + list.metrics > 0).then(|| {
        format!(
            "{dir}: not imported: {others} events of other PMUs{}, {} metrics",
            if others > 0 {
                format!(" ({})", units_text(&list.other_units))
            } else {
                String::new()
            },
            list.metrics
        )
    })
}

impl Generation<'_> {
    pub(crate) fn header(&self, y: &mut String, provenance: &Provenance) {
        let _ = writeln!(y, "{HEADER} {AMD_SOURCE_LINE}");
        let _ = writeln!(
            y,
            "# Source: {}/*.json ({} files, Linux tools/perf/pmu-events/arch/x86/{}); mapfile.csv line {}, commit {}.",
            comment(self.dir),
            self.list.files,
            comment(self.dir),
            self.row.line,
            comment(provenance.commit.as_deref().unwrap_or("unknown"))
        );
        let _ = writeln!(
            y,
            "# The lists are part of the Linux kernel (GPL-2.0). Facts only (names, event codes, unit\n\
             # masks, which PMU): no description text is copied. Refresh with\n\
             # `cargo xtask import-perfmon ../shared/data/linux-amd-pmu-events` (CONTRIBUTING.md)."
        );
        if let Some(s) = skipped_summary(self.dir, &self.list) {
            let _ = writeln!(y, "# {}.", comment(&s));
        }
    }

    /// The generation's keys but its events; `id` its generation id.
    pub(crate) fn body<'s>(&'s self, id: &'s str) -> ModelYaml<'s, AmdEventYaml<'s>> {
        ModelYaml {
            generation: id,
            extends: self.arch.0,
            title: format!("Core events of {} (Linux perf)", self.dir),
            manual: format!(
                "Linux tools/perf/pmu-events/arch/x86/{}; {}",
                self.dir, self.arch.1
            ),
            doc: LitString(format!(
                "Every core-PMU event Linux perf's `{}` list gives for the CPUs in `cpus` (the\n\
                 family/model pairs its mapfile.csv pattern `{}` matches): names, event\n\
                 codes (12 bits: EventSelect[7:0] and [11:8]) and unit masks. Extends {}.\n",
                self.dir, self.row.family_model, self.arch.0
            )),
            source: self.dir,
            cpus: self
                .cpus
                .iter()
                .map(|c| {
                    FlowMap(CpuYaml {
                        family_model: c.clone(),
                        version: &self.row.version,
                        core_type: None,
                        native_model_id: None,
                        core_role: None,
                    })
                })
                .collect(),
            registers: Vec::new(),
            events: Vec::new(),
        }
    }
}

/// One event as written: `{name: .., event: 0x.., umask: 0x..}`.
#[derive(Serialize)]
pub(crate) struct AmdEventYaml<'a> {
    name: &'a str,
    event: Hex,
    #[serde(skip_serializing_if = "Option::is_none")]
    umask: Option<Hex>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    deprecated: bool,
}

impl<'a> From<&'a AmdEvent> for AmdEventYaml<'a> {
    fn from(e: &'a AmdEvent) -> Self {
        AmdEventYaml {
            name: &e.name,
            event: hex(e.code),
            umask: e.umask.map(hex),
            deprecated: e.deprecated,
        }
    }
}

/// The generation file of one family directory, or why it cannot be written.
pub(crate) fn render(g: &Generation<'_>, provenance: &Provenance) -> Result<CoreModel, String> {
    let stem = model_name(g.dir);
    let name = stem
        .strip_prefix("amd")
        .filter(|s| !s.is_empty())
        .unwrap_or(&stem)
        .trim_start_matches('-');
    let name = if name.is_empty() { stem.as_str() } else { name };
    let id = format!("amd-{name}");
    let mut header = String::new();
    g.header(&mut header, provenance);
    let mut events: Vec<&AmdEvent> = g.list.events.iter().collect();
    events.sort_by(|a, b| a.name.cmp(&b.name));
    let mut model = g.body(&id);
    model.events = events
        .iter()
        .map(|e| FlowMap(AmdEventYaml::from(*e)))
        .collect();
    let names = events.iter().map(|e| (e.name.clone(), e.line));
    let (yaml, origins) = write_model(&header, &model, names)?;
    Ok(CoreModel {
        id,
        file_name: format!("{name}.yaml"),
        source: g.dir.to_owned(),
        arch: crate::ArchVersion {
            version: 0,
            from_table: g.arch.2,
            basis: g.arch.1.clone(),
        },
        counters: (0, 0),
        events: events.len(),
        json_events: g.list.entries,
        json_file: format!("{}/*.json", g.dir),
        origins,
        yaml,
    })
}

/// Imports a perf-layout AMD corpus: every core row of `mapfile.csv` whose directory exists
/// gives one generation (a directory named by several rows gets all their CPUs).
pub fn import_corpus(root: &Path, imp: &mut Import) {
    let map = root.join("mapfile.csv");
    let map_name = display(&map);
    let Some(text) = read_text(&map, &mut imp.issues) else {
        return;
    };
    let rows = crate::parse_mapfile(&map_name, &text, &mut imp.issues);
    imp.corpus = Some(Corpus {
        kind: CorpusKind::LinuxPerfAmd,
        mapfile: map_name.clone(),
        listed: rows
            .iter()
            .filter(|r| r.is_core() && r.family_model.starts_with("AuthenticAMD-"))
            .map(|r| r.file.clone())
            .collect(),
    });
    let provenance = Provenance {
        commit: readme_commit(root),
    };
    let mut claimed = BTreeSet::new();
    let mut gens: Vec<Generation<'_>> = Vec::new();
    for row in &rows {
        if !row.is_core() || !row.family_model.starts_with("AuthenticAMD-") {
            imp.skipped_rows += 1;
            continue;
        }
        let Some(cpus) = row_cpus(row, &map_name, &mut claimed, &mut imp.issues) else {
            continue;
        };
        if let Some(g) = gens.iter_mut().find(|g| g.dir == row.file) {
            g.cpus.extend(cpus);
            continue;
        }
        let dir = match pmu_defs::load::walk::confined(root, &row.file) {
            Ok(p) if p.is_dir() => p,
            Ok(_) => {
                imp.missing_files += 1;
                imp.issues.push(Issue::new(
                    Level::Warning,
                    &map_name,
                    Some((row.line, 1)),
                    format!(
                        "directory `{}` is named here but is not in the corpus; not imported",
                        row.file
                    ),
                ));
                continue;
            }
            Err(why) => {
                imp.issues.push(Issue::new(
                    Level::Error,
                    &map_name,
                    Some((row.line, 1)),
                    format!("`{}` not read: {why}", row.file),
                ));
                continue;
            }
        };
        let mut list = read_dir(root, &dir, &mut imp.issues);
        imp.files_read += list.files;
        drop_duplicates(&mut list.events, &mut imp.issues);
        let arch = arch_for(&row.file, &map_name, row.line, &mut imp.issues);
        gens.push(Generation {
            dir: &row.file,
            row,
            cpus,
            arch,
            list,
        });
    }
    for g in &gens {
        if let Some(s) = skipped_summary(g.dir, &g.list) {
            imp.notes.push(s);
        }
        match render(g, &provenance) {
            Ok(m) => imp.models.push(m),
            Err(why) => imp.issues.push(Issue::new(
                Level::Error,
                &format!("{}/*.json", g.dir),
                None,
                format!("its model cannot be written as YAML: {why}"),
            )),
        }
    }
    imp.models.sort_by(|a, b| a.file_name.cmp(&b.file_name));
    if imp.models.is_empty() && !imp.has_errors() {
        imp.issues.push(Issue::new(
            Level::Error,
            &map_name,
            None,
            "nothing to import: no AuthenticAMD core row names a directory of the corpus".into(),
        ));
    }
}
