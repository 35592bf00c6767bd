//! One event object of a perfmon file, read key by key into a [`PerfmonEvent`].

use crate::files::parse_number;
use crate::intel::event::{PerfmonEvent, RawCounters, event_keys, is_flag_key};
use crate::intel::value::{Entries, Val, classify};
use crate::report::Doc;
use pmu_defs::Span;
use pmu_defs::load::de::{is_event_name, is_ident};
use pmu_defs::model::{CounterSet, EVENT_FLAGS, Event, EventFlag};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// An event before the file's fixed-counter numbering is known.
pub(crate) struct Draft {
    pub(crate) event: PerfmonEvent,
    /// `CounterType`, checked against `Counter` once fixed counters are numbered.
    pub(crate) counter_type: Option<CounterType>,
    pub(crate) counter: RawCounters,
    pub(crate) ht_off: Option<RawCounters>,
    pub(crate) pebs: Option<RawCounters>,
    pub(crate) pdist: Option<RawCounters>,
    pub(crate) pdir: Option<RawCounters>,
}

/// One event object's known keys, read as text: (value, offset of the value) by key; null,
/// "null" and "" mean not given. Keys whose value was refused (reported) are in `rejected`, so
/// they are not "missing" as well; unknown keys, with their offsets, in `strays`.
pub(crate) struct EventFields<'v> {
    pub(crate) fields: BTreeMap<&'static str, (Cow<'v, str>, usize)>,
    pub(crate) rejected: BTreeSet<&'static str>,
    pub(crate) strays: Vec<(String, usize)>,
}

/// Reads `entries` into [`EventFields`], reporting values of the wrong JSON type and keys
/// given twice; `keys` collects every known key seen (for the file's summary).
pub(crate) fn event_fields<'v>(
    doc: &mut Doc<'_>,
    entries: &'v Entries<'_>,
    keys: &mut BTreeSet<String>,
    label: &str,
) -> EventFields<'v> {
    let mut fields: BTreeMap<&'static str, (Cow<'v, str>, usize)> = BTreeMap::new();
    let mut strays: Vec<(String, usize)> = Vec::new();
    let mut rejected: BTreeSet<&'static str> = BTreeSet::new();
    for (k, v) in &entries.0 {
        let off = doc.offset_of(v.get());
        let Some(key) = event_keys().find(|x| *x == k.as_ref()) else {
            strays.push((k.to_string(), off));
            continue;
        };
        keys.insert(key.to_owned());
        if key == "BriefDescription" || key == "PublicDescription" {
            continue; // never copied
        }
        let text: Cow<'_, str> = match classify(v) {
            Val::Null => continue,
            Val::Text(t) => t,
            Val::Number(n) => Cow::Borrowed(n),
            // A JSON boolean is read as "1"/"0" only for a key that is a flag (`Invert:
            // false`); for a number (an event code, a counter mask) it is not guessed into
            // one.
            Val::Bool if is_flag_key(key) => {
                Cow::Borrowed(if v.get() == "true" { "1" } else { "0" })
            }
            Val::Bool => {
                rejected.insert(key);
                doc.error_at(
                    off,
                    format!(
                        "event `{label}`: `{key}` is a JSON boolean, expected a string or a number (only flags such as `Invert` may be `true` or `false`)"
                    ),
                );
                continue;
            }
            Val::Other(what) => {
                rejected.insert(key);
                doc.error_at(
                    off,
                    format!("event `{label}`: `{key}` is {what}, expected a string or a number"),
                );
                continue;
            }
        };
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.eq_ignore_ascii_case("null") {
            continue;
        }
        if fields.contains_key(key) {
            doc.error_at(off, format!("event `{label}`: key `{key}` is given twice"));
            continue;
        }
        let value = match text {
            Cow::Borrowed(b) => Cow::Borrowed(b.trim()),
            Cow::Owned(o) => Cow::Owned(o.trim().to_owned()),
        };
        fields.insert(key, (value, off));
    }
    EventFields {
        fields,
        rejected,
        strays,
    }
}

/// Counts the unknown keys of one event (the object at `at`) into `unknown` (key -> where
/// first seen, by which event, how often), pointing at the key itself when it is written
/// without escapes. Only a key's first use is located, and only within its event's text.
pub(crate) fn count_strays(
    doc: &Doc<'_>,
    at: usize,
    strays: Vec<(String, usize)>,
    unknown: &mut BTreeMap<String, (usize, String, usize)>,
    label: &str,
) {
    for (k, off) in strays {
        let e = unknown.entry(k).or_insert_with_key(|k| {
            let quoted = format!("\"{k}\"");
            let at_key = doc
                .text
                .get(at..off.min(doc.text.len()))
                .and_then(|event| event.rfind(&quoted))
                .map_or(off, |i| at + i);
            (at_key, label.to_owned(), 0)
        });
        e.2 += 1;
    }
}

/// Reads the fields of one event object; `None` (with errors reported) when it cannot be
/// imported.
pub(crate) fn read_event(
    doc: &mut Doc<'_>,
    at: usize,
    entries: &Entries<'_>,
    unknown: &mut BTreeMap<String, (usize, String, usize)>,
    keys: &mut BTreeSet<String>,
) -> Option<Draft> {
    let errors_before = doc.errors();
    let name_value = entries
        .0
        .iter()
        .find(|(k, _)| k == "EventName")
        .and_then(|(_, v)| match classify(v) {
            Val::Text(t) => Some(t.trim().to_owned()),
            _ => None,
        });
    let label = name_value.clone().unwrap_or_else(|| "<unnamed>".to_owned());
    let EventFields {
        fields,
        rejected,
        strays,
    } = event_fields(doc, entries, keys, &label);
    count_strays(doc, at, strays, unknown, &label);

    let line = doc.line(at);
    let Some(name) = name_value else {
        doc.error_at(at, "an event has no `EventName` string".into());
        return None;
    };
    if !is_event_name(&name) {
        let off = fields.get("EventName").map_or(at, |f| f.1);
        doc.error_at(
            off,
            format!("`{name}` is not a valid event name (a letter, then letters, digits, `_`, `.`, `:` or `=`)"),
        );
        return None;
    }
    let mut r = Reader {
        doc,
        fields: &fields,
        rejected: &rejected,
        event: &name,
        at,
    };
    let codes = r.required_list("EventCode", u32::MAX as u64);
    let umasks = r.required_list("UMask", u32::MAX as u64);
    let umask2 = r.number("UMaskExt", u32::MAX as u64).map(|v| v as u32);
    let eq = r.flag("Equal");
    let cmask = r.number("CounterMask", u32::MAX as u64).unwrap_or(0) as u32;
    let inv = r.flag("Invert");
    let edge = r.flag("EdgeDetect");
    let any = r.flag("AnyThread");
    let counter = r.counter();
    let ht_off = r.counters("CounterHTOff");
    let pebs = r.counters("PEBScounters");
    let pdist = r.counters("PDISTCounter");
    let pdir = r.counters("PDIR_COUNTER");
    let msr = r.aux_msr();
    let pebs_level = r.number("PEBS", 2).map(|v| v as u8);
    let collect_pebs_record = r.number("CollectPEBSRecord", 3).map(|v| v as u8);
    // Every flag Intel states as a 0/1 key, named by the one list of flags.
    let flags: Vec<(&EventFlag, bool)> = EVENT_FLAGS
        .iter()
        .filter_map(|f| Some((f, r.opt_flag(f.intel?)?)))
        .collect();
    let msr_per_umask = r.programming_restriction();
    let counter_type = r.counter_type();
    let errata = r.errata();
    let sample_after = r.sample_after();
    if r.doc.errors() > errors_before {
        return None;
    }
    let mut facts = Event {
        umask2,
        eq,
        cmask,
        inv,
        edge,
        any,
        pebs: pebs_level,
        collect_pebs_record,
        msr_per_umask,
        errata,
        sample_after,
        // Neither a generation nor a span: the event is not in a model yet.
        ..Event::blank(name, String::new(), Span::new(0, 0, 0))
    };
    for (f, v) in flags {
        facts.set_flag(f, v);
    }
    Some(Draft {
        event: PerfmonEvent {
            line,
            codes: codes?.into_iter().map(|v| v as u32).collect(),
            umasks: umasks?.into_iter().map(|v| v as u32).collect(),
            counters: CounterSet::default(),
            counters_ht_off: None,
            pebs_counters: None,
            pdist_counters: None,
            pdir_counters: None,
            msr,
            facts,
        },
        counter_type,
        counter: counter?,
        ht_off,
        pebs,
        pdist,
        pdir,
    })
}

/// `CounterType`: the kind of counter the list says counts the event (Nova Lake's lists
/// on). Not a fact of its own in the model, where `fixed:` and `counters:` say the same:
/// checked against `Counter` instead ([`resolve_counters`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CounterType {
    /// `FIXED`: a fixed counter.
    Fixed,
    /// `PGMABLE`: general-purpose (programmable) counters.
    Programmable,
}

/// Typed reads of one event's fields, reporting at the value's position.
pub(crate) struct Reader<'r, 'd, 'f> {
    pub(crate) doc: &'r mut Doc<'d>,
    pub(crate) fields: &'r BTreeMap<&'static str, (Cow<'f, str>, usize)>,
    pub(crate) rejected: &'r BTreeSet<&'static str>,
    pub(crate) event: &'r str,
    pub(crate) at: usize,
}

/// "Not applicable": an empty counter set.
pub(crate) fn is_na(s: &str) -> bool {
    s.eq_ignore_ascii_case("na") || s.eq_ignore_ascii_case("n/a")
}

impl Reader<'_, '_, '_> {
    /// `Counter`: the counters the event may use; an error when it names none or is missing.
    pub(crate) fn counter(&mut self) -> Option<RawCounters> {
        match self.counters("Counter") {
            Some(c)
                if c.general.is_empty() && c.fixed_bit.is_empty() && c.fixed_named.is_empty() =>
            {
                let off = self.offset("Counter");
                self.doc.error_at(
                    off,
                    format!("event `{}`: `Counter` names no counter", self.event),
                );
                None
            }
            Some(c) => Some(c),
            None => {
                if !self.fields.contains_key("Counter") {
                    self.missing("Counter");
                }
                None
            }
        }
    }

    /// `MSRIndex` / `MSRValue`: the auxiliary MSRs and the value to write, when an index is
    /// not 0; a value without an index is a warning and not imported.
    pub(crate) fn aux_msr(&mut self) -> Option<(Vec<u32>, u64)> {
        let msr_index = self.list("MSRIndex", u32::MAX as u64);
        let msr_value = self.number("MSRValue", u64::MAX);
        match msr_index {
            Some(list) if list.iter().any(|&i| i != 0) => {
                if list.contains(&0) {
                    let off = self.offset("MSRIndex");
                    self.doc.error_at(
                        off,
                        format!(
                            "event `{}`: `MSRIndex` mixes 0 (no MSR) with MSR addresses",
                            self.event
                        ),
                    );
                }
                Some((
                    list.iter().map(|&i| i as u32).collect(),
                    msr_value.unwrap_or(0),
                ))
            }
            _ => {
                if msr_value.is_some_and(|v| v != 0) {
                    let off = self.offset("MSRValue");
                    self.doc.warning_at(
                        off,
                        format!("event `{}`: `MSRValue` is set but `MSRIndex` names no MSR; the value is not imported", self.event),
                    );
                }
                None
            }
        }
    }

    /// `ProgrammingRestriction`: `MSRIndex-UMask` (the auxiliary MSR goes with the unit
    /// mask) is true; `None` or absent is false. Any other value is an error: a restriction
    /// the importer does not know may change how the event must be programmed.
    pub(crate) fn programming_restriction(&mut self) -> bool {
        let Some((v, _)) = self.fields.get("ProgrammingRestriction") else {
            return false;
        };
        if v.eq_ignore_ascii_case("none") || is_na(v) {
            return false;
        }
        if v.eq_ignore_ascii_case("MSRIndex-UMask") {
            if !self.fields.contains_key("MSRIndex") {
                let off = self.offset("ProgrammingRestriction");
                self.doc.error_at(
                    off,
                    format!(
                        "event `{}`: `ProgrammingRestriction` is \"MSRIndex-UMask\" but the event has no `MSRIndex`",
                        self.event
                    ),
                );
            }
            return true;
        }
        let v = v.to_string();
        self.bad(
            "ProgrammingRestriction",
            &v,
            "a restriction the importer does not know (it knows None and MSRIndex-UMask); teach it before importing, since it may change how the event is programmed",
        );
        false
    }

    /// `CounterType`: `FIXED` or `PGMABLE` (`None` or absent: not given); anything else is
    /// an error.
    pub(crate) fn counter_type(&mut self) -> Option<CounterType> {
        let (v, _) = self.fields.get("CounterType")?;
        if v.eq_ignore_ascii_case("none") || is_na(v) {
            return None;
        }
        if v.eq_ignore_ascii_case("FIXED") {
            return Some(CounterType::Fixed);
        }
        if v.eq_ignore_ascii_case("PGMABLE") {
            return Some(CounterType::Programmable);
        }
        let v = v.to_string();
        self.bad("CounterType", &v, "expected FIXED or PGMABLE");
        None
    }

    /// `SampleAfterValue`; 0 (no sampling period) is a warning and not imported.
    pub(crate) fn sample_after(&mut self) -> Option<u64> {
        match self.number("SampleAfterValue", u64::MAX) {
            Some(0) => {
                let off = self.offset("SampleAfterValue");
                self.doc.warning_at(
                    off,
                    format!("event `{}`: `SampleAfterValue` is 0, which is no sampling period; not imported", self.event),
                );
                None
            }
            v => v,
        }
    }

    pub(crate) fn offset(&self, key: &str) -> usize {
        self.fields.get(key).map_or(self.at, |f| f.1)
    }

    pub(crate) fn missing(&mut self, key: &str) {
        if self.rejected.contains(key) {
            return;
        }
        self.doc
            .error_at(self.at, format!("event `{}` has no `{key}`", self.event));
    }

    pub(crate) fn bad(&mut self, key: &str, value: &str, what: &str) {
        let off = self.offset(key);
        self.doc.error_at(
            off,
            format!("event `{}`: `{key}` is \"{value}\", {what}", self.event),
        );
    }

    /// One number no larger than `max` (`None` when absent or invalid, reported).
    pub(crate) fn number(&mut self, key: &str, max: u64) -> Option<u64> {
        let (v, _) = self.fields.get(key)?;
        if is_na(v) {
            return None;
        }
        match parse_number(v) {
            Some(n) if n <= max => Some(n),
            Some(_) => {
                let v = v.to_string();
                self.bad(key, &v, &format!("larger than {max}"));
                None
            }
            None => {
                let v = v.to_string();
                self.bad(key, &v, "not a number (decimal or 0x hex)");
                None
            }
        }
    }

    /// A comma list of numbers (`"0xB7, 0xBB"`).
    pub(crate) fn list(&mut self, key: &str, max: u64) -> Option<Vec<u64>> {
        let (v, _) = self.fields.get(key)?;
        if is_na(v) {
            return None;
        }
        let mut out = Vec::new();
        for part in v.split(',') {
            match parse_number(part) {
                Some(n) if n <= max => out.push(n),
                _ => {
                    let v = v.to_string();
                    self.bad(
                        key,
                        &v,
                        &format!("`{}` is not a number up to {max:#x}", part.trim()),
                    );
                    return None;
                }
            }
        }
        Some(out)
    }

    pub(crate) fn required_list(&mut self, key: &str, max: u64) -> Option<Vec<u64>> {
        if !self.fields.contains_key(key) {
            self.missing(key);
            return None;
        }
        let list = self.list(key, max);
        if list.is_none() && self.fields.get(key).is_some_and(|(v, _)| is_na(v)) {
            let v = self.fields[key].0.to_string();
            self.bad(key, &v, "but every event needs one");
        }
        let mut list = list?;
        // A repeated alternative is the same encoding twice.
        let mut seen = BTreeSet::new();
        list.retain(|v| seen.insert(*v));
        Some(list)
    }

    /// `"0"` / `"1"` (also JSON booleans); absent is false.
    pub(crate) fn flag(&mut self, key: &str) -> bool {
        self.opt_flag(key).unwrap_or(false)
    }

    pub(crate) fn opt_flag(&mut self, key: &str) -> Option<bool> {
        let (v, _) = self.fields.get(key)?;
        match v.as_ref() {
            "0" | "0x0" | "0x00" => Some(false),
            "1" | "0x1" | "0x01" => Some(true),
            v if is_na(v) => None,
            v => {
                let v = v.to_owned();
                self.bad(key, &v, "expected 0 or 1");
                None
            }
        }
    }

    /// A counter list: numbers (`32 + n` = fixed counter n), "Fixed counter n", or "NA".
    pub(crate) fn counters(&mut self, key: &str) -> Option<RawCounters> {
        let (v, _) = self.fields.get(key)?;
        let mut out = RawCounters::default();
        if is_na(v) {
            return Some(out);
        }
        for part in v.split(',') {
            let p = part.trim();
            let lower = p.to_ascii_lowercase();
            if let Some(n) = lower.strip_prefix("fixed counter") {
                match parse_number(n) {
                    Some(n) if n < 32 => {
                        out.fixed_named.insert(n as u32);
                    }
                    _ => {
                        let v = v.to_string();
                        self.bad(key, &v, &format!("`{p}` is not a fixed counter 0 to 31"));
                        return None;
                    }
                }
                continue;
            }
            match parse_number(p) {
                Some(n) if n < 32 => {
                    out.general.insert(n as u32);
                }
                Some(n) if n < 64 => {
                    out.fixed_bit.insert(n as u32 - 32);
                }
                _ => {
                    let v = v.to_string();
                    self.bad(
                        key,
                        &v,
                        &format!("`{p}` is not a counter (0-31 general, 32+n fixed counter n, \"Fixed counter n\")"),
                    );
                    return None;
                }
            }
        }
        Some(out)
    }

    /// `"BDM69, BDM98"`; `"0"` and `"NA"` mean none.
    pub(crate) fn errata(&mut self) -> Vec<String> {
        let Some((v, _)) = self.fields.get("Errata") else {
            return Vec::new();
        };
        if v.as_ref() == "0" || is_na(v) || v.eq_ignore_ascii_case("none") {
            return Vec::new();
        }
        let mut out: Vec<String> = Vec::new();
        for part in v.split(',') {
            let p = part.trim();
            if !is_ident(p) {
                let v = v.to_string();
                self.bad(
                    "Errata",
                    &v,
                    &format!("`{p}` is not an erratum id (letters, digits and `_`)"),
                );
                return Vec::new();
            }
            if !out.iter().any(|x| x == p) {
                out.push(p.to_owned());
            }
        }
        out
    }
}
