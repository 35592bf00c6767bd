//! The YAML of a generated model, serialized: typed values mirroring the file (field order is
//! output order, defaults left out) written by `serde-saphyr`, one flow mapping per event; and
//! the size limits a model's events must fit. Only the comment block at the top of a file is
//! written as text ([`comment`] keeps it one comment).

use crate::intel::event::PerfmonEvent;
use crate::mapfile::MapRow;
use crate::outcome::{EventOrigin, Import};
use crate::report::{Issue, Level};
use pmu_defs::Span;
use pmu_defs::model::{CounterSet, EVENT_FLAGS, Event};
use serde::{Serialize, Serializer};
use serde_saphyr::{FlowMap, FlowSeq, LitString};
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};

/// True for a character a YAML comment may hold as it is, on one line: YAML 1.2's printable
/// set without tab, the characters YAML 1.1 takes as line breaks (U+0085, U+2028, U+2029)
/// and the byte-order mark.
pub(crate) fn yaml_literal(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{7E}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
        && !matches!(c, '\u{2028}' | '\u{2029}' | '\u{FEFF}')
}

/// Text for a `#` comment: a character [`yaml_literal`] refuses (a line break would end the
/// comment and start YAML) becomes U+FFFD.
pub(crate) fn comment(s: &str) -> String {
    s.chars()
        .map(|c| if yaml_literal(c) { c } else { '\u{FFFD}' })
        .collect()
}

/// Put before each [`Hex`] the serializer writes. `serde-saphyr` writes integers in decimal
/// only, and quotes a string that reads as a number (`"0x14"`), which the loader refuses as a
/// number; so a code is serialized as this private-use character followed by its hex digits
/// (a plain scalar), and [`to_yaml`] removes the character.
const HEX_MARK: char = '\u{E000}';

thread_local! {
    /// [`Hex`] values serialized on this thread, for [`to_yaml`]'s check.
    static HEX_WRITTEN: Cell<usize> = const { Cell::new(0) };
}

/// A number written in hex (`0x14`), with at least `digits` digits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hex {
    pub(crate) value: u64,
    pub(crate) digits: usize,
}

/// `0x14`, `0x01`: two digits at least, as codes and unit masks are written.
pub(crate) fn hex(v: u32) -> Hex {
    Hex {
        value: u64::from(v),
        digits: 2,
    }
}

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        HEX_WRITTEN.with(|n| n.set(n.get() + 1));
        let text = format!("{HEX_MARK}0x{:0w$X}", self.value, w = self.digits);
        s.serialize_str(&text)
    }
}

/// `value` as YAML: `serde-saphyr`, two-space indents with list items indented under their
/// key, block scalars only where a field asks for one ([`LitString`]). `Err` says why it
/// could not be written (a [`HEX_MARK`] in the text itself).
pub(crate) fn to_yaml<T: Serialize>(value: &T) -> Result<String, String> {
    let options = serde_saphyr::ser_options! {
        prefer_block_scalars: false,
        compact_list_indent: false,
    };
    let before = HEX_WRITTEN.with(Cell::get);
    let out = serde_saphyr::to_string_with_options(value, options).map_err(|e| e.to_string())?;
    let written = HEX_WRITTEN.with(Cell::get) - before;
    if out.matches(HEX_MARK).count() != written {
        return Err(format!(
            "the text holds U+{:04X}, which the importer uses to write hex numbers",
            u32::from(HEX_MARK)
        ));
    }
    Ok(out.replace(HEX_MARK, ""))
}

/// One number or several, in hex: `0x14`, `[0x14, 0x15]`.
#[derive(Serialize)]
#[serde(untagged)]
pub(crate) enum OneOrList {
    One(Hex),
    List(FlowSeq<Vec<Hex>>),
}

impl OneOrList {
    /// Each with at least `digits` digits.
    fn of(v: &[u32], digits: usize) -> OneOrList {
        let hex = |v: &u32| Hex {
            value: u64::from(*v),
            digits,
        };
        match v {
            [one] => OneOrList::One(hex(one)),
            many => OneOrList::List(FlowSeq(many.iter().map(hex).collect())),
        }
    }
}

/// One element of a counter list: a counter (`5`) or a run of them (`0-3`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub(crate) enum Counters {
    One(u32),
    Run(String),
}

/// `[0-3, 5]`.
pub(crate) fn ranges(list: &[u32]) -> FlowSeq<Vec<Counters>> {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < list.len() {
        let mut j = i;
        while j + 1 < list.len() && list[j + 1] == list[j] + 1 {
            j += 1;
        }
        parts.push(if j > i {
            Counters::Run(format!("{}-{}", list[i], list[j]))
        } else {
            Counters::One(list[i])
        });
        i = j + 1;
    }
    FlowSeq(parts)
}

/// A counter set: `[0-3]` with only general counters, else `{general: [..], fixed: [..]}`.
#[derive(Serialize)]
#[serde(untagged)]
pub(crate) enum CounterSetYaml {
    General(FlowSeq<Vec<Counters>>),
    Both(FlowMap<GeneralFixed>),
}

#[derive(Serialize)]
pub(crate) struct GeneralFixed {
    #[serde(skip_serializing_if = "Option::is_none")]
    general: Option<FlowSeq<Vec<Counters>>>,
    fixed: FlowSeq<Vec<Counters>>,
}

pub(crate) fn counter_set(c: &CounterSet) -> CounterSetYaml {
    if c.fixed.is_empty() {
        CounterSetYaml::General(ranges(&c.general))
    } else {
        CounterSetYaml::Both(FlowMap(GeneralFixed {
            general: (!c.general.is_empty()).then(|| ranges(&c.general)),
            fixed: ranges(&c.fixed),
        }))
    }
}

/// An event's auxiliary MSR: `{index: 0x1A6, value: 0x10001}` (no padding).
#[derive(Serialize)]
pub(crate) struct MsrYaml {
    index: OneOrList,
    value: Hex,
}

/// An `allow:` entry.
#[derive(Serialize)]
pub(crate) struct AllowYaml<'a> {
    code: &'a str,
    reason: &'a str,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

/// An event's flags, as [`EVENT_FLAGS`] lists them: a tristate flag (`precise`) whenever the
/// event states it, another only when set.
pub(crate) struct Flags<'a>(&'a Event);

impl Serialize for Flags<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        for f in EVENT_FLAGS {
            match self.0.flag(f) {
                Some(v) if f.tristate || v => map.serialize_entry(f.key, &v)?,
                _ => {}
            }
        }
        map.end()
    }
}

/// One event of an Intel model, keys in the order written.
#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct EventYaml<'a> {
    name: &'a str,
    event: OneOrList,
    umask: OneOrList,
    #[serde(skip_serializing_if = "Option::is_none")]
    umask2: Option<Hex>,
    #[serde(skip_serializing_if = "is_false")]
    eq: bool,
    #[serde(skip_serializing_if = "is_zero")]
    cmask: u32,
    #[serde(skip_serializing_if = "is_false")]
    inv: bool,
    #[serde(skip_serializing_if = "is_false")]
    edge: bool,
    #[serde(skip_serializing_if = "is_false")]
    any: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    counters: Option<FlowSeq<Vec<Counters>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fixed: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    counters_ht_off: Option<CounterSetYaml>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pebs_counters: Option<CounterSetYaml>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pdist_counters: Option<CounterSetYaml>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pdir_counters: Option<CounterSetYaml>,
    #[serde(skip_serializing_if = "Option::is_none")]
    msr: Option<FlowMap<MsrYaml>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pebs: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    collect_pebs_record: Option<u8>,
    /// The event flags, in [`EVENT_FLAGS`]' order.
    #[serde(flatten)]
    flags: Flags<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    errata: Option<FlowSeq<&'a [String]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sample_after: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    allow: Option<FlowSeq<Vec<FlowMap<AllowYaml<'a>>>>>,
}

/// One event as written, with `allow` (code, reason) entries from the reviewed findings.
pub(crate) fn event_yaml<'a>(
    e: &'a PerfmonEvent,
    version: u8,
    allow: &[(&'a str, &'a str)],
) -> EventYaml<'a> {
    let f = &e.facts;
    let set = |s: &Option<CounterSet>| s.as_ref().map(counter_set);
    EventYaml {
        name: &f.name,
        event: OneOrList::of(&e.codes, 2),
        umask: OneOrList::of(&e.umasks, 2),
        umask2: f.umask2.filter(|u| version >= 6 || *u != 0).map(hex),
        eq: f.eq,
        cmask: f.cmask,
        inv: f.inv,
        edge: f.edge,
        any: f.any,
        counters: (!e.counters.general.is_empty()).then(|| ranges(&e.counters.general)),
        fixed: e.counters.fixed.first().copied(),
        counters_ht_off: set(&e.counters_ht_off),
        pebs_counters: set(&e.pebs_counters),
        pdist_counters: set(&e.pdist_counters),
        pdir_counters: set(&e.pdir_counters),
        msr: e.msr.as_ref().map(|(index, value)| {
            FlowMap(MsrYaml {
                index: OneOrList::of(index, 1),
                value: Hex {
                    value: *value,
                    digits: 1,
                },
            })
        }),
        pebs: f.pebs,
        collect_pebs_record: f.collect_pebs_record,
        flags: Flags(f),
        errata: (!f.errata.is_empty()).then_some(FlowSeq(f.errata.as_slice())),
        sample_after: f.sample_after,
        allow: (!allow.is_empty()).then(|| {
            FlowSeq(
                allow
                    .iter()
                    .map(|(code, reason)| FlowMap(AllowYaml { code, reason }))
                    .collect(),
            )
        }),
    }
}

/// The `events:` list alone, as a model writes it.
#[derive(Serialize)]
struct EventsOnly<T> {
    events: Vec<FlowMap<T>>,
}

/// One event's line in a model (`  - {name: ..}` and its line break).
pub(crate) fn event_line(e: &PerfmonEvent, version: u8, allow: &[(&str, &str)]) -> String {
    let doc = EventsOnly {
        events: vec![FlowMap(event_yaml(e, version, allow))],
    };
    let text = to_yaml(&doc).unwrap_or_default();
    text.split_once('\n')
        .map_or(text.as_str(), |(_, line)| line)
        .to_owned()
}

/// A generated model: the keys of a generation in the order written.
#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct ModelYaml<'a, E> {
    pub(crate) generation: &'a str,
    pub(crate) extends: &'a str,
    pub(crate) title: String,
    pub(crate) manual: String,
    pub(crate) doc: LitString,
    pub(crate) source: &'a str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) cpus: Vec<FlowMap<CpuYaml<'a>>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) registers: Vec<FlowMap<RegisterOverride>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) events: Vec<FlowMap<E>>,
}

/// A `cpus:` entry.
#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct CpuYaml<'a> {
    pub(crate) family_model: String,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub(crate) version: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) core_type: Option<Hex>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) native_model_id: Option<Hex>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) core_role: Option<&'a str>,
}

/// A register override, on one line: `{name: IA32_PMC, msr: {count: 10}}`, with the
/// per-counter field arrays that grow (`fields: [{name: EN_PMC, array: {count: 10}}]`).
#[derive(Serialize)]
pub(crate) struct RegisterOverride {
    pub(crate) name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) msr: Option<FlowMap<Count>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) fields: Vec<FlowMap<FieldArray>>,
}

/// `{count: n}`.
#[derive(Serialize)]
pub(crate) struct Count {
    pub(crate) count: u32,
}

/// A per-counter field array that grows: `{name: EN_PMC, array: {count: n}}`.
#[derive(Serialize)]
pub(crate) struct FieldArray {
    pub(crate) name: String,
    pub(crate) array: FlowMap<Count>,
}

/// The model file: `header` (the comment block, as text) and `model` serialized, with where
/// each event's line is (the line after `events:`, one line each).
pub(crate) fn write_model<E: Serialize>(
    header: &str,
    model: &ModelYaml<'_, E>,
    names: impl Iterator<Item = (String, usize)>,
) -> Result<(String, Vec<EventOrigin>), String> {
    let body = to_yaml(model)?;
    let mut y = String::with_capacity(header.len() + body.len());
    y.push_str(header);
    y.push_str(&body);
    let first = y.lines().position(|l| l == "events:").map_or(0, |i| i + 2);
    let origins = (first..)
        .zip(names)
        .map(|(yaml_line, (name, json_line))| EventOrigin {
            yaml_line,
            name,
            json_line,
        })
        .collect();
    Ok((y, origins))
}

/// Room kept in a model for the line `cargo xtask import-perfmon` adds when it writes the file
/// (the `# yaml-language-server: $schema=` modeline, [`CoreModel::yaml_with_modeline`](crate::CoreModel::yaml_with_modeline)).
pub const MODELINE_ROOM: usize = 512;

/// The fewest bytes one event takes in a model: the line of an event with a one-letter name,
/// one code, one unit mask, one counter and nothing else.
pub(crate) fn min_event_bytes() -> usize {
    let mut e = PerfmonEvent {
        line: 1,
        codes: vec![0],
        umasks: vec![0],
        counters: CounterSet {
            general: vec![0],
            fixed: Vec::new(),
        },
        counters_ht_off: None,
        pebs_counters: None,
        pdist_counters: None,
        pdir_counters: None,
        msr: None,
        facts: Event::blank("A".into(), String::new(), Span::new(0, 0, 0)),
    };
    let general = event_line(&e, 6, &[]).len();
    e.counters = CounterSet {
        general: Vec::new(),
        fixed: vec![0],
    };
    general.min(event_line(&e, 6, &[]).len())
}

/// The most events one list may have: more cannot fit in a model the loader accepts under
/// `limits` (`max_bytes`, less [`MODELINE_ROOM`], over `min_event_bytes`), so such a list is
/// refused before its events are read.
pub fn max_events(limits: &pmu_defs::Limits) -> usize {
    limits.max_bytes.saturating_sub(MODELINE_ROOM) / min_event_bytes()
}

pub(crate) fn too_many_events(events: usize, limits: &pmu_defs::Limits) -> String {
    let min = min_event_bytes();
    format!(
        "{events} events: their model would be at least {} bytes of YAML ({min} bytes an event \
         at the least), more than the {} bytes the loader accepts in one file \
         (`yaml-too-large`), so it could never be loaded; not imported (at most {} events fit)",
        events.saturating_mul(min),
        limits.max_bytes,
        max_events(limits)
    )
}

/// Refuses (an error at its JSON file, the model dropped) each model whose YAML, with room for
/// the modeline, is larger than the loader accepts under `limits`: it could never be loaded,
/// and the loader would only say so after reading it.
pub(crate) fn check_sizes(imp: &mut Import, limits: &pmu_defs::Limits) {
    let max = limits.max_bytes.saturating_sub(MODELINE_ROOM);
    let issues = &mut imp.issues;
    imp.models.retain(|m| {
        if m.yaml.len() <= max {
            return true;
        }
        issues.push(Issue::new(
            Level::Error,
            &m.json_file,
            None,
            format!(
                "its model `{}` would be {} bytes of YAML ({} events), more than the {} bytes \
                 the loader accepts in one file (`yaml-too-large`, less {MODELINE_ROOM} bytes \
                 kept for the modeline), so it could never be loaded; not imported",
                m.file_name,
                m.yaml.len(),
                m.events,
                limits.max_bytes
            ),
        ));
        false
    });
}

/// A mapfile family-model as `cpus:` spells it: the mapfile writes the family in decimal,
/// as perf prints it (`get_cpuid_str`: `%s-%u-%X`; Nova Lake is `GenuineIntel-18-1`, family
/// 18 = 12H), `cpus:` in hex like the model (`GenuineIntel-12-1`). Families below 10 read
/// the same either way. A family that is not decimal is kept as given (the loader reports it).
pub fn family_in_hex(family_model: &str) -> String {
    let mut parts = family_model.splitn(3, '-');
    let (Some(vendor), Some(family), rest) = (parts.next(), parts.next(), parts.next()) else {
        return family_model.to_owned();
    };
    match family.parse::<u32>() {
        Ok(f) if family.bytes().all(|b| b.is_ascii_digit()) => match rest {
            Some(rest) => format!("{vendor}-{f:X}-{rest}"),
            None => format!("{vendor}-{f:X}"),
        },
        _ => family_model.to_owned(),
    }
}

/// `cpus:`, each family/model and core type once.
pub(crate) fn cpus<'a>(rows: &[&'a MapRow]) -> Vec<FlowMap<CpuYaml<'a>>> {
    let mut seen = BTreeSet::new();
    rows.iter()
        .filter(|c| seen.insert((c.family_model.to_ascii_uppercase(), c.core_type)))
        .map(|c| {
            FlowMap(CpuYaml {
                family_model: family_in_hex(&c.family_model),
                version: &c.version,
                core_type: c.core_type.map(|t| hex(u32::from(t))),
                native_model_id: c.native_model_id.map(|n| Hex {
                    value: u64::from(n),
                    digits: 6,
                }),
                core_role: c.core_role.as_deref(),
            })
        })
        .collect()
}

/// Each event as written, with the `allow:`s `allows` gives.
pub(crate) fn events_yaml<'a>(
    events: &[&'a PerfmonEvent],
    v: u8,
    allows: &'a BTreeMap<&str, Vec<(&'a str, &'a str)>>,
) -> Vec<FlowMap<EventYaml<'a>>> {
    events
        .iter()
        .map(|e| {
            let allow = allows
                .get(e.facts.name.as_str())
                .map_or(&[][..], Vec::as_slice);
            FlowMap(event_yaml(e, v, allow))
        })
        .collect()
}
