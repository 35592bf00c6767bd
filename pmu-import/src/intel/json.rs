//! Reading one perfmon JSON file: borrowed keys and raw values, so every value keeps its
//! position.

use crate::emit::{max_events, too_many_events};
use crate::intel::event::{HEADER_KEYS, PerfmonEvent, PerfmonFile};
use crate::intel::reader::{CounterType, Draft, read_event};
use crate::intel::value::{Entries, Val, classify, json_kind};
use crate::report::{Doc, Issue, Level};
use pmu_defs::model::CounterSet;
use serde_json::value::RawValue;
use std::collections::{BTreeMap, BTreeSet};

/// Parses one perfmon JSON file (`{ "Header": ..., "Events": [...] }` or a bare array).
/// Returns `None` when the file cannot be read at all; every problem goes to `issues`.
pub fn parse_file(name: &str, text: &str, issues: &mut Vec<Issue>) -> Option<PerfmonFile> {
    parse_file_within(name, text, &pmu_defs::Limits::default(), issues)
}

/// [`parse_file`], refusing (with an error, before reading any event) a list with more events
/// than a model within `limits` can hold ([`max_events`]).
pub(crate) fn parse_file_within(
    name: &str,
    text: &str,
    limits: &pmu_defs::Limits,
    issues: &mut Vec<Issue>,
) -> Option<PerfmonFile> {
    let mut doc = Doc::new(name, text, issues);
    let mut out = PerfmonFile {
        name: name.to_owned(),
        version: None,
        date: None,
        copyright: None,
        entries: 0,
        events: Vec::new(),
        fixed_from_one: false,
        keys: BTreeSet::new(),
    };
    let events = top_level(&mut doc, text, &mut out)?;
    out.entries = events.len();
    if events.len() > max_events(limits) {
        let message = too_many_events(events.len(), limits);
        let at = events.first().map_or(0, |e| doc.offset_of(e.get()));
        doc.error_at(at, message);
        return None;
    }
    let drafts = read_events(&mut doc, events, &mut out.keys);
    let base = fixed_base(&drafts);
    out.fixed_from_one = base == 1;
    out.events = resolve_counters(&mut doc, drafts, base);
    Some(out)
}

/// A `serde_json` error as an issue at its line and column.
pub(crate) fn json_error(doc: &mut Doc<'_>, e: serde_json::Error) {
    let pos = (e.line() > 0).then(|| (e.line(), e.column()));
    let msg = format!("malformed JSON: {e}");
    // serde_json appends " at line L column C"; keep only the reason.
    let msg = msg
        .rsplit_once(" at line ")
        .map_or(msg.clone(), |(m, _)| m.to_owned());
    doc.issues
        .push(Issue::new(Level::Error, doc.name, pos, msg));
}

/// The file's events, unread: the array itself, or the object's `Events` (its `Header` read
/// into `out`, other keys warned about once). `None`, with an error, when there is none.
pub(crate) fn top_level<'t>(
    doc: &mut Doc<'_>,
    text: &'t str,
    out: &mut PerfmonFile,
) -> Option<Vec<&'t RawValue>> {
    match json_kind(text) {
        Some(b'[') => match serde_json::from_str::<Vec<&RawValue>>(text) {
            Ok(v) => Some(v),
            Err(e) => {
                json_error(doc, e);
                None
            }
        },
        Some(b'{') => {
            let top = match serde_json::from_str::<Entries>(text) {
                Ok(t) => t,
                Err(e) => {
                    json_error(doc, e);
                    return None;
                }
            };
            let mut events = None;
            let mut warned = BTreeSet::new();
            for (k, v) in &top.0 {
                let at = doc.offset_of(v.get());
                match k.as_ref() {
                    "Events" => {
                        if json_kind(v.get()) != Some(b'[') {
                            doc.error_at(at, "`Events` is not an array of events".into());
                            return None;
                        }
                        match serde_json::from_str::<Vec<&RawValue>>(v.get()) {
                            Ok(list) => events = Some(list),
                            Err(e) => {
                                doc.error_at(at, format!("`Events` cannot be read: {e}"));
                                return None;
                            }
                        }
                    }
                    "Header" => read_header(doc, v, out),
                    other => {
                        if warned.insert(other.to_owned()) {
                            doc.warning_at(
                                doc.offset_of(v.get()),
                                format!("unknown top-level key `{other}`; ignored"),
                            );
                        }
                    }
                }
            }
            if events.is_none() {
                doc.error_at(
                    0,
                    "no `Events` array: expected `{ \"Header\": ..., \"Events\": [...] }` or an array of events".into(),
                );
            }
            events
        }
        _ => {
            let msg = if text.trim().is_empty() {
                "the file is empty".to_owned()
            } else {
                "not a perfmon event list: expected a JSON object with `Events`, or an array"
                    .to_owned()
            };
            doc.error_at(0, msg);
            None
        }
    }
}

/// Each event read ([`read_event`]), in file order; the keys it uses go to `keys`, and each
/// unknown key gets one warning per file, at its first use.
pub(crate) fn read_events(
    doc: &mut Doc<'_>,
    events: Vec<&RawValue>,
    keys: &mut BTreeSet<String>,
) -> Vec<Draft> {
    let mut unknown: BTreeMap<String, (usize, String, usize)> = BTreeMap::new();
    let mut drafts = Vec::with_capacity(events.len());
    for raw in events {
        let at = doc.offset_of(raw.get());
        if json_kind(raw.get()) != Some(b'{') {
            doc.error_at(at, "an event is not a JSON object".into());
            continue;
        }
        let entries = match serde_json::from_str::<Entries>(raw.get()) {
            Ok(e) => e,
            Err(e) => {
                doc.error_at(at, format!("an event cannot be read: {e}"));
                continue;
            }
        };
        if let Some(d) = read_event(doc, at, &entries, &mut unknown, keys) {
            drafts.push(d);
        }
    }
    for (key, (offset, first, count)) in &unknown {
        let more = if *count > 1 {
            format!(" and {} more", count - 1)
        } else {
            String::new()
        };
        doc.warning_at(
            *offset,
            format!("unknown event key `{key}` (in `{first}`{more}); ignored"),
        );
    }
    drafts
}

/// How the list numbers fixed counters: the oldest lists from 1 (INST_RETIRED.ANY, which the
/// SDM assigns to fixed counter 0, is "Fixed counter 1" there), the others from 0.
pub(crate) fn fixed_base(drafts: &[Draft]) -> u32 {
    let anchor = drafts
        .iter()
        .find(|d| d.event.facts.name == "INST_RETIRED.ANY")
        .and_then(|d| d.counter.fixed_named.iter().next().copied());
    match anchor {
        Some(1) => 1,
        _ => 0,
    }
}

/// The events with their counter sets numbered from 0 (`base`: the list's first fixed
/// counter); a second event of the same name, or one naming several fixed counters, is an
/// error and left out.
pub(crate) fn resolve_counters(
    doc: &mut Doc<'_>,
    drafts: Vec<Draft>,
    base: u32,
) -> Vec<PerfmonEvent> {
    let mut events = Vec::with_capacity(drafts.len());
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for d in drafts {
        let mut e = d.event;
        if let Some(first) = seen.get(&e.facts.name) {
            doc.issues.push(Issue::new(
                Level::Error,
                doc.name,
                Some((e.line, 1)),
                format!(
                    "event `{}` is listed twice (first at line {first}); kept the first",
                    e.facts.name
                ),
            ));
            continue;
        }
        seen.insert(e.facts.name.clone(), e.line);
        e.counters = d.counter.resolve(base);
        let sets = [
            (&d.ht_off, &mut e.counters_ht_off),
            (&d.pebs, &mut e.pebs_counters),
            (&d.pdist, &mut e.pdist_counters),
            (&d.pdir, &mut e.pdir_counters),
        ];
        for (raw, slot) in sets {
            *slot = raw.as_ref().map(|r| r.resolve(base));
        }
        if let Some(kind) = d.counter_type {
            let agrees = match kind {
                CounterType::Fixed => e.counters.general.is_empty() && !e.counters.fixed.is_empty(),
                CounterType::Programmable => {
                    e.counters.fixed.is_empty() && !e.counters.general.is_empty()
                }
            };
            if !agrees {
                let said = match kind {
                    CounterType::Fixed => "FIXED (a fixed counter)",
                    CounterType::Programmable => "PGMABLE (general-purpose counters)",
                };
                doc.issues.push(Issue::new(
                    Level::Warning,
                    doc.name,
                    Some((e.line, 1)),
                    format!(
                        "event `{}`: `CounterType` is {said}, but `Counter` names {}; imported as `Counter` says",
                        e.facts.name,
                        describe_counters(&e.counters)
                    ),
                ));
            }
        }
        if e.facts.msr_per_umask
            && let Some((index, _)) = &e.msr
            && e.umasks.len() > 1
            && index.len() != e.umasks.len()
        {
            doc.issues.push(Issue::new(
                Level::Error,
                doc.name,
                Some((e.line, 1)),
                format!(
                    "event `{}`: `ProgrammingRestriction` MSRIndex-UMask pairs each unit mask with an MSR, but it lists {} unit masks and {} MSRs",
                    e.facts.name,
                    e.umasks.len(),
                    index.len()
                ),
            ));
            continue;
        }
        if e.counters.fixed.len() > 1 {
            doc.issues.push(Issue::new(
                Level::Error,
                doc.name,
                Some((e.line, 1)),
                format!(
                    "event `{}` names {} fixed counters in `Counter`; an event is counted by at most one",
                    e.facts.name,
                    e.counters.fixed.len()
                ),
            ));
            continue;
        }
        events.push(e);
    }
    events
}

/// "general counters 0, 1 and fixed counter 2", for messages.
pub(crate) fn describe_counters(c: &CounterSet) -> String {
    let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    match (c.general.is_empty(), c.fixed.is_empty()) {
        (true, true) => "no counter".to_owned(),
        (false, true) => format!("general counters {}", list(&c.general)),
        (true, false) => format!("fixed counter {}", list(&c.fixed)),
        (false, false) => format!(
            "general counters {} and fixed counter {}",
            list(&c.general),
            list(&c.fixed)
        ),
    }
}

pub(crate) fn read_header(doc: &mut Doc<'_>, v: &RawValue, out: &mut PerfmonFile) {
    let at = doc.offset_of(v.get());
    if json_kind(v.get()) != Some(b'{') {
        doc.warning_at(at, "`Header` is not an object; ignored".into());
        return;
    }
    let Ok(entries) = serde_json::from_str::<Entries>(v.get()) else {
        doc.warning_at(at, "`Header` cannot be read; ignored".into());
        return;
    };
    for (k, v) in &entries.0 {
        let text = match classify(v) {
            Val::Text(t) => Some(t.trim().to_owned()),
            Val::Number(n) => Some(n.to_owned()),
            _ => None,
        };
        match k.as_ref() {
            "Version" => out.version = text,
            "DatePublished" => out.date = text,
            "Copyright" => out.copyright = text,
            k if HEADER_KEYS.contains(&k) => {}
            other => doc.warning_at(
                doc.offset_of(v.get()),
                format!("unknown header key `{other}`; ignored"),
            ),
        }
    }
}
