//! Intel perfmon event lists → core model generations (feature `perfmon`).
//!
//! Intel publishes, per core type, a JSON list of its performance-monitoring events
//! (`<PLATFORM>/events/<name>_core.json`, with `mapfile.csv` mapping CPUID family-model strings
//! to files). This module reads every shape of those lists and writes one generation YAML file
//! per core file: `extends:` the core's architectural generation (`intel-v3` ... `intel-v6`),
//! `cpus:` and `source:` saying which CPUs it describes and where the facts come from, the
//! register overrides the core needs (more general or fixed counters), and one line per event.
//!
//! Only facts are written: names, codes, counters, flags, auxiliary MSR values, erratum ids
//! and sampling periods. Intel's description sentences (`BriefDescription`,
//! `PublicDescription`) are never copied.
//!
//! Problems are [`Issue`]s naming the file and, for JSON, the line and column; unknown keys
//! (from cores newer than this importer) are warnings, once per key per file. Nothing here
//! panics on input.
//!
//! ```no_run
//! let import = pmu_defs::perfmon::import_path(std::path::Path::new("../shared/data/intel-perfmon"));
//! for issue in &import.issues {
//!     eprintln!("{issue}");
//! }
//! for m in &import.models {
//!     println!("{}: {} events", m.file_name, m.events);
//! }
//! ```

pub mod amd;

use crate::de::{is_event_name, is_ident};
use crate::model::{CounterKind, Generation, Register, RegisterRole};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------------------------
// Issues
// ---------------------------------------------------------------------------------------------

/// How serious an [`Issue`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// The import goes on; the output is complete.
    Warning,
    /// Something could not be imported; nothing should be written.
    Error,
}

/// A problem found while importing, with the file and (for JSON and CSV input) the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// Error or warning.
    pub level: Level,
    /// The file, as given (or relative to the corpus).
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column (in characters), when known.
    pub column: Option<usize>,
    /// What is wrong, and why.
    pub message: String,
}

impl Issue {
    fn new(level: Level, file: &str, pos: Option<(usize, usize)>, message: String) -> Self {
        Issue {
            level,
            file: file.to_owned(),
            line: pos.map(|p| p.0),
            column: pos.map(|p| p.1),
            message,
        }
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.level {
            Level::Warning => "warning",
            Level::Error => "error",
        };
        write!(f, "{level}: {}", self.file)?;
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, ":{l}:{c}")?,
            (Some(l), None) => write!(f, ":{l}")?,
            _ => {}
        }
        write!(f, ": {}", self.message)
    }
}

/// A file's text with line lookup, and the issues found in it.
///
/// Positions cost no more than the text: a line is a binary search over the line starts, and
/// a column counts characters from the last column computed on the same line when it lies
/// before the offset (issues come in file order), so a file written on one line (minified
/// JSON) does not count from the line start for every issue.
struct Doc<'a> {
    name: &'a str,
    text: &'a str,
    line_starts: Vec<usize>,
    issues: &'a mut Vec<Issue>,
    /// The last column computed: (its line's start, its offset, the column).
    last_column: Cell<(usize, usize, usize)>,
    /// Bytes of text scanned to compute columns (a test checks it stays linear).
    scanned: Cell<usize>,
    /// How many of `issues` were counted by [`Doc::errors`], and how many of those are errors.
    counted: Cell<(usize, usize)>,
}

impl<'a> Doc<'a> {
    fn new(name: &'a str, text: &'a str, issues: &'a mut Vec<Issue>) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Doc {
            name,
            text,
            line_starts,
            issues,
            last_column: Cell::new((0, 0, 1)),
            scanned: Cell::new(0),
            counted: Cell::new((0, 0)),
        }
    }

    /// 1-based line of a byte offset.
    fn line(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        self.line_starts.partition_point(|&s| s <= offset)
    }

    /// 1-based line and column (in characters) of a byte offset.
    fn pos(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line(offset);
        let start = self.line_starts[line.saturating_sub(1)];
        let (last_start, last_offset, last_col) = self.last_column.get();
        // Go on from the last column when it is on this line, at or before `offset`.
        let (from, col) = if last_start == start && last_offset <= offset {
            (last_offset, last_col)
        } else {
            (start, 1)
        };
        let Some(part) = self.text.get(from..offset) else {
            return (line, 1); // not at a character boundary
        };
        self.scanned.set(self.scanned.get() + part.len());
        let col = col + part.chars().count();
        self.last_column.set((start, offset, col));
        (line, col)
    }

    /// How many of the issues are errors (counting only those added since the last call).
    fn errors(&self) -> usize {
        let (seen, errors) = self.counted.get();
        let new = self.issues.get(seen..).unwrap_or_default();
        let errors = errors + new.iter().filter(|i| i.level == Level::Error).count();
        self.counted.set((self.issues.len(), errors));
        errors
    }

    /// Byte offset of a slice of this document's text.
    fn offset_of(&self, part: &str) -> usize {
        let base = self.text.as_ptr() as usize;
        let at = part.as_ptr() as usize;
        if at >= base && at <= base + self.text.len() {
            at - base
        } else {
            0
        }
    }

    fn error_at(&mut self, offset: usize, message: String) {
        let pos = self.pos(offset);
        self.issues
            .push(Issue::new(Level::Error, self.name, Some(pos), message));
    }

    fn warning_at(&mut self, offset: usize, message: String) {
        let pos = self.pos(offset);
        self.issues
            .push(Issue::new(Level::Warning, self.name, Some(pos), message));
    }
}

// ---------------------------------------------------------------------------------------------
// JSON reading: borrowed keys and raw values, so every value keeps its position
// ---------------------------------------------------------------------------------------------

/// A JSON string, borrowed from the input when it has no escapes.
struct Str<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Str<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Str<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Str(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Str(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(Str(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

/// A JSON object's entries in order, duplicates kept, values unparsed.
struct Entries<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de> Deserialize<'de> for Entries<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entries<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key::<Str<'de>>()? {
                    let v: &'de RawValue = map.next_value()?;
                    out.push((k.0, v));
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// Keys of an event object that are flags ("0" or "1"): a JSON boolean is read as one.
const FLAG_KEYS: &[&str] = &[
    "AnyThread",
    "Data_LA",
    "Deprecated",
    "ELLC",
    "EdgeDetect",
    "Equal",
    "Invert",
    "Offcore",
    "Offmodule",
    "PRECISE_STORE",
    "TakenAlone",
    "L1_Hit_Indication",
    "Precise",
    "Speculative",
];

/// What a raw JSON value is.
enum Val<'a> {
    Null,
    Text(Cow<'a, str>),
    Number(&'a str),
    Bool,
    Other(&'static str),
}

fn classify(raw: &RawValue) -> Val<'_> {
    let t = raw.get();
    match t.as_bytes().first() {
        Some(b'"') => match serde_json::from_str::<Str>(t) {
            Ok(s) => Val::Text(s.0),
            Err(_) => Val::Other("an invalid string"),
        },
        Some(b'{') => Val::Other("an object"),
        Some(b'[') => Val::Other("an array"),
        Some(b'n') => Val::Null,
        Some(b't' | b'f') => Val::Bool,
        _ => Val::Number(t),
    }
}

/// What the first non-blank character of a JSON text says it is.
fn json_kind(t: &str) -> Option<u8> {
    t.trim_start().as_bytes().first().copied()
}

// ---------------------------------------------------------------------------------------------
// The event model of one perfmon file
// ---------------------------------------------------------------------------------------------

/// Keys of an event object that the importer reads (descriptions are read and dropped).
pub const EVENT_KEYS: &[&str] = &[
    "EventName",
    "EventCode",
    "UMask",
    "UMaskExt",
    "Equal",
    "CounterMask",
    "Invert",
    "EdgeDetect",
    "AnyThread",
    "Counter",
    "CounterHTOff",
    "PEBScounters",
    "PDISTCounter",
    "PDIR_COUNTER",
    "MSRIndex",
    "MSRValue",
    "PEBS",
    "Precise",
    "Speculative",
    "CollectPEBSRecord",
    "Deprecated",
    "TakenAlone",
    "Data_LA",
    "L1_Hit_Indication",
    "Offcore",
    "Offmodule",
    "CounterType",
    "ProgrammingRestriction",
    "ELLC",
    "PRECISE_STORE",
    "Errata",
    "SampleAfterValue",
    "BriefDescription",
    "PublicDescription",
];

/// Keys of the `Header` object.
const HEADER_KEYS: &[&str] = &["Copyright", "Info", "DatePublished", "Version", "Legend"];

/// General-purpose and fixed counters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// General-purpose counter numbers, ascending.
    pub general: Vec<u32>,
    /// Fixed counter numbers (SDM numbering, from 0), ascending.
    pub fixed: Vec<u32>,
}

/// Counters as written, before the file's fixed-counter numbering is known.
#[derive(Clone, Debug, Default)]
struct RawCounters {
    general: BTreeSet<u32>,
    /// `32 + n` in a list: fixed counter `n` (the IA32_PERF_GLOBAL_CTRL bit).
    fixed_bit: BTreeSet<u32>,
    /// `Fixed counter n`: numbered from 0, or from 1 in the oldest lists.
    fixed_named: BTreeSet<u32>,
}

impl RawCounters {
    fn resolve(&self, fixed_base: u32) -> Counters {
        let mut fixed: BTreeSet<u32> = self.fixed_bit.clone();
        fixed.extend(
            self.fixed_named
                .iter()
                .map(|n| n.saturating_sub(fixed_base)),
        );
        Counters {
            general: self.general.iter().copied().collect(),
            fixed: fixed.into_iter().collect(),
        }
    }
}

/// One event, every fact Intel's list states for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerfmonEvent {
    /// `EventName`.
    pub name: String,
    /// Line of the event object in the JSON file.
    pub line: usize,
    /// `EventCode`: one or more event select codes, the first being the main one.
    pub codes: Vec<u32>,
    /// `UMask`: one or more unit masks.
    pub umasks: Vec<u32>,
    /// `UMaskExt`: the second unit mask (architectural perfmon v6).
    pub umask2: Option<u32>,
    /// `Equal`.
    pub eq: bool,
    /// `CounterMask`.
    pub cmask: u32,
    /// `Invert`.
    pub inv: bool,
    /// `EdgeDetect`.
    pub edge: bool,
    /// `AnyThread`.
    pub any: bool,
    /// `Counter`.
    pub counters: Counters,
    /// `CounterHTOff`.
    pub counters_ht_off: Option<Counters>,
    /// `PEBScounters`.
    pub pebs_counters: Option<Counters>,
    /// `PDISTCounter`.
    pub pdist_counters: Option<Counters>,
    /// `PDIR_COUNTER`.
    pub pdir_counters: Option<Counters>,
    /// `MSRIndex` (one or more) and `MSRValue`, when the index is not 0.
    pub msr: Option<(Vec<u32>, u64)>,
    /// `PEBS`.
    pub pebs: Option<u8>,
    /// `Precise`.
    pub precise: Option<bool>,
    /// `Speculative`.
    pub speculative: Option<bool>,
    /// `CollectPEBSRecord`.
    pub collect_pebs_record: Option<u8>,
    /// `Deprecated`.
    pub deprecated: bool,
    /// `TakenAlone`.
    pub taken_alone: bool,
    /// `Data_LA`.
    pub data_la: bool,
    /// `L1_Hit_Indication`.
    pub l1_hit_indication: bool,
    /// `Offcore`.
    pub offcore: bool,
    /// `Offmodule`.
    pub offmodule: bool,
    /// `ProgrammingRestriction` is `MSRIndex-UMask`: the auxiliary MSR goes with the unit mask.
    pub msr_per_umask: bool,
    /// `ELLC`.
    pub ellc: bool,
    /// `PRECISE_STORE`.
    pub precise_store: bool,
    /// `Errata`: erratum ids.
    pub errata: Vec<String>,
    /// `SampleAfterValue`.
    pub sample_after: Option<u64>,
}

/// One perfmon JSON file, read.
#[derive(Clone, Debug)]
pub struct PerfmonFile {
    /// The name issues use.
    pub name: String,
    /// `Header.Version`.
    pub version: Option<String>,
    /// `Header.DatePublished`.
    pub date: Option<String>,
    /// `Header.Copyright`.
    pub copyright: Option<String>,
    /// Number of entries in the JSON event list (read or not).
    pub entries: usize,
    /// The events read, in file order.
    pub events: Vec<PerfmonEvent>,
    /// True when the list numbers fixed counters from 1 (`INST_RETIRED.ANY` on
    /// "Fixed counter 1"); [`PerfmonEvent`] holds them numbered from 0.
    pub fixed_from_one: bool,
    /// Event keys the file uses (known ones), for the architectural-version heuristic.
    pub keys: BTreeSet<String>,
}

/// Parses one perfmon JSON file (`{ "Header": ..., "Events": [...] }` or a bare array).
/// Returns `None` when the file cannot be read at all; every problem goes to `issues`.
pub fn parse_file(name: &str, text: &str, issues: &mut Vec<Issue>) -> Option<PerfmonFile> {
    parse_file_within(name, text, &crate::Limits::default(), issues)
}

/// [`parse_file`], refusing (with an error, before reading any event) a list with more events
/// than a model within `limits` can hold ([`max_events`]).
fn parse_file_within(
    name: &str,
    text: &str,
    limits: &crate::Limits,
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
fn json_error(doc: &mut Doc<'_>, e: serde_json::Error) {
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
fn top_level<'t>(
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
fn read_events(
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
fn fixed_base(drafts: &[Draft]) -> u32 {
    let anchor = drafts
        .iter()
        .find(|d| d.event.name == "INST_RETIRED.ANY")
        .and_then(|d| d.counter.fixed_named.iter().next().copied());
    match anchor {
        Some(1) => 1,
        _ => 0,
    }
}

/// The events with their counter sets numbered from 0 (`base`: the list's first fixed
/// counter); a second event of the same name, or one naming several fixed counters, is an
/// error and left out.
fn resolve_counters(doc: &mut Doc<'_>, drafts: Vec<Draft>, base: u32) -> Vec<PerfmonEvent> {
    let mut events = Vec::with_capacity(drafts.len());
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for d in drafts {
        let mut e = d.event;
        if let Some(first) = seen.get(&e.name) {
            doc.issues.push(Issue::new(
                Level::Error,
                doc.name,
                Some((e.line, 1)),
                format!(
                    "event `{}` is listed twice (first at line {first}); kept the first",
                    e.name
                ),
            ));
            continue;
        }
        seen.insert(e.name.clone(), e.line);
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
                        e.name,
                        describe_counters(&e.counters)
                    ),
                ));
            }
        }
        if e.msr_per_umask
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
                    e.name,
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
                    e.name,
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
fn describe_counters(c: &Counters) -> String {
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

fn read_header(doc: &mut Doc<'_>, v: &RawValue, out: &mut PerfmonFile) {
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

/// An event before the file's fixed-counter numbering is known.
struct Draft {
    event: PerfmonEvent,
    /// `CounterType`, checked against `Counter` once fixed counters are numbered.
    counter_type: Option<CounterType>,
    counter: RawCounters,
    ht_off: Option<RawCounters>,
    pebs: Option<RawCounters>,
    pdist: Option<RawCounters>,
    pdir: Option<RawCounters>,
}

/// One event object's known keys, read as text: (value, offset of the value) by key; null,
/// "null" and "" mean not given. Keys whose value was refused (reported) are in `rejected`, so
/// they are not "missing" as well; unknown keys, with their offsets, in `strays`.
struct EventFields<'v> {
    fields: BTreeMap<&'static str, (Cow<'v, str>, usize)>,
    rejected: BTreeSet<&'static str>,
    strays: Vec<(String, usize)>,
}

/// Reads `entries` into [`EventFields`], reporting values of the wrong JSON type and keys
/// given twice; `keys` collects every known key seen (for the file's summary).
fn event_fields<'v>(
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
        let Some(&key) = EVENT_KEYS.iter().find(|x| **x == k.as_ref()) else {
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
            Val::Bool if FLAG_KEYS.contains(&key) => {
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
fn count_strays(
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
fn read_event(
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
    let precise = r.opt_flag("Precise");
    let speculative = r.opt_flag("Speculative");
    let collect_pebs_record = r.number("CollectPEBSRecord", 3).map(|v| v as u8);
    let deprecated = r.flag("Deprecated");
    let taken_alone = r.flag("TakenAlone");
    let data_la = r.flag("Data_LA");
    let l1_hit_indication = r.flag("L1_Hit_Indication");
    let offcore = r.flag("Offcore");
    let offmodule = r.flag("Offmodule");
    let msr_per_umask = r.programming_restriction();
    let counter_type = r.counter_type();
    let ellc = r.flag("ELLC");
    let precise_store = r.flag("PRECISE_STORE");
    let errata = r.errata();
    let sample_after = r.sample_after();
    if r.doc.errors() > errors_before {
        return None;
    }
    Some(Draft {
        event: PerfmonEvent {
            name,
            line,
            codes: codes?.into_iter().map(|v| v as u32).collect(),
            umasks: umasks?.into_iter().map(|v| v as u32).collect(),
            umask2,
            eq,
            cmask,
            inv,
            edge,
            any,
            counters: Counters::default(),
            counters_ht_off: None,
            pebs_counters: None,
            pdist_counters: None,
            pdir_counters: None,
            msr,
            pebs: pebs_level,
            precise,
            speculative,
            collect_pebs_record,
            deprecated,
            taken_alone,
            data_la,
            l1_hit_indication,
            offcore,
            offmodule,
            msr_per_umask,
            ellc,
            precise_store,
            errata,
            sample_after,
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
enum CounterType {
    /// `FIXED`: a fixed counter.
    Fixed,
    /// `PGMABLE`: general-purpose (programmable) counters.
    Programmable,
}

/// Typed reads of one event's fields, reporting at the value's position.
struct Reader<'r, 'd, 'f> {
    doc: &'r mut Doc<'d>,
    fields: &'r BTreeMap<&'static str, (Cow<'f, str>, usize)>,
    rejected: &'r BTreeSet<&'static str>,
    event: &'r str,
    at: usize,
}

/// `0x1A6`, `0X1a6` or `422`.
fn parse_number(s: &str) -> Option<u64> {
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

/// "Not applicable": an empty counter set.
fn is_na(s: &str) -> bool {
    s.eq_ignore_ascii_case("na") || s.eq_ignore_ascii_case("n/a")
}

impl Reader<'_, '_, '_> {
    /// `Counter`: the counters the event may use; an error when it names none or is missing.
    fn counter(&mut self) -> Option<RawCounters> {
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
    fn aux_msr(&mut self) -> Option<(Vec<u32>, u64)> {
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
    fn programming_restriction(&mut self) -> bool {
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
    fn counter_type(&mut self) -> Option<CounterType> {
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
    fn sample_after(&mut self) -> Option<u64> {
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

    fn offset(&self, key: &str) -> usize {
        self.fields.get(key).map_or(self.at, |f| f.1)
    }

    fn missing(&mut self, key: &str) {
        if self.rejected.contains(key) {
            return;
        }
        self.doc
            .error_at(self.at, format!("event `{}` has no `{key}`", self.event));
    }

    fn bad(&mut self, key: &str, value: &str, what: &str) {
        let off = self.offset(key);
        self.doc.error_at(
            off,
            format!("event `{}`: `{key}` is \"{value}\", {what}", self.event),
        );
    }

    /// One number no larger than `max` (`None` when absent or invalid, reported).
    fn number(&mut self, key: &str, max: u64) -> Option<u64> {
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
    fn list(&mut self, key: &str, max: u64) -> Option<Vec<u64>> {
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

    fn required_list(&mut self, key: &str, max: u64) -> Option<Vec<u64>> {
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
    fn flag(&mut self, key: &str) -> bool {
        self.opt_flag(key).unwrap_or(false)
    }

    fn opt_flag(&mut self, key: &str) -> Option<bool> {
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
    fn counters(&mut self, key: &str) -> Option<RawCounters> {
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
    fn errata(&mut self) -> Vec<String> {
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

// ---------------------------------------------------------------------------------------------
// mapfile.csv
// ---------------------------------------------------------------------------------------------

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
        if let Err(why) = crate::walk::check_relative(get(Some(file)).trim_start_matches('/')) {
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

// ---------------------------------------------------------------------------------------------
// Architectural performance monitoring version per core
// ---------------------------------------------------------------------------------------------

/// The architectural performance monitoring version (CPUID.0AH:EAX\[7:0\]) of each core whose
/// perfmon file this importer knows, keyed by the file name without `.json` (lowercase), with
/// the source of the fact. A file not listed here gets a version from its contents
/// ([`guess_arch_version`]) and a warning.
///
/// Section numbers are those of the SDM editions in which "Performance Monitoring" is chapter
/// 18 of Vol. 3B (see README, "Manual references"); look them up by title in later editions.
/// Where an InstLatx64 CPUID dump is cited, its CPUID.0AH:EAX value was read (low byte = the
/// version).
///
/// How each entry was checked when the table was written: Nehalem (§18.8) and Haswell
/// (§18.11) against the SDM text ("version ID 3"); Silvermont and Goldmont against SDM
/// Table 18-18 and the version-4 registers it lists for Goldmont; Knights Landing and
/// Tremont (Elkhart Lake, Snow Ridge) against CPUID dumps. The others are the versions the
/// SDM's per-microarchitecture sections give, not re-read for this table; the data agrees
/// with them (AnyThread set only on version 3 and 4 cores, fixed counter 3 and TOPDOWN.SLOTS
/// from version 5, non-zero UMaskExt only on version 6 cores). Arrow Lake's
/// Crestmont cores are given Meteor Lake's Crestmont version (5) although Intel's list for
/// them has the (all-zero) UMaskExt and Equal keys; version 5 claims no UMASK2/EQ bits.
pub const ARCH_VERSIONS: &[(&str, u8, &str)] = &[
    // Bonnell (first Intel Atom).
    (
        "bonnell_core",
        3,
        "Bonnell: SDM Vol. 3B, \"Performance Monitoring (Processors Based on Intel Atom Microarchitecture)\" (version ID 3)",
    ),
    // Nehalem and Westmere.
    (
        "nehalemep_core",
        3,
        "Nehalem: SDM Vol. 3B §18.8, \"Performance Monitoring for Processors Based on Intel Microarchitecture Code Name Nehalem\" (version ID 3)",
    ),
    (
        "nehalemex_core",
        3,
        "Nehalem: SDM Vol. 3B §18.8 (version ID 3)",
    ),
    (
        "westmereep-dp_core",
        3,
        "Westmere: SDM Vol. 3B, \"Performance Monitoring for Processors Based on Intel Microarchitecture Code Name Westmere\" (as Nehalem, version ID 3)",
    ),
    (
        "westmereep-sp_core",
        3,
        "Westmere: SDM Vol. 3B, Westmere performance monitoring (version ID 3)",
    ),
    (
        "westmereex_core",
        3,
        "Westmere: SDM Vol. 3B, Westmere performance monitoring (version ID 3)",
    ),
    // Sandy Bridge to Broadwell: version 3.
    (
        "sandybridge_core",
        3,
        "Sandy Bridge: SDM Vol. 3B, \"Performance Monitoring for 2nd Generation Intel Core Processors\" (version ID 3)",
    ),
    (
        "jaketown_core",
        3,
        "Sandy Bridge-EP: SDM Vol. 3B, 2nd generation Intel Core performance monitoring (version ID 3)",
    ),
    (
        "ivybridge_core",
        3,
        "Ivy Bridge: SDM Vol. 3B, \"3rd Generation Intel Core Processor Performance Monitoring Facility\" (version ID 3)",
    ),
    (
        "ivytown_core",
        3,
        "Ivy Bridge-EP: SDM Vol. 3B, 3rd generation Intel Core performance monitoring (version ID 3)",
    ),
    (
        "haswell_core",
        3,
        "Haswell: SDM Vol. 3B §18.11, \"4th Generation Intel Core Processor Performance Monitoring Facility\" (version ID 3)",
    ),
    (
        "haswellx_core",
        3,
        "Haswell-EP: SDM Vol. 3B §18.11 (version ID 3)",
    ),
    (
        "broadwell_core",
        3,
        "Broadwell: SDM Vol. 3B §18.12, \"Intel Core M Processor Performance Monitoring Facility\" (version ID 3)",
    ),
    (
        "broadwellde_core",
        3,
        "Broadwell-DE: SDM Vol. 3B §18.12 (version ID 3)",
    ),
    (
        "broadwellx_core",
        3,
        "Broadwell-EP: SDM Vol. 3B §18.12 (version ID 3)",
    ),
    // Silvermont family.
    (
        "silvermont_core",
        3,
        "Silvermont: SDM Vol. 3B, Table 18-18 \"Core PMU Comparison Between the Goldmont and Silvermont Microarchitectures\" (version ID 3)",
    ),
    (
        "knightslanding_core",
        3,
        "Knights Landing: InstLatx64 CPUID dump GenuineIntel0050671_KnightsLanding (CPUID.0AH:EAX = 07280203H)",
    ),
    // Skylake family and Goldmont: version 4.
    (
        "skylake_core",
        4,
        "Skylake: SDM Vol. 3B §18.13, \"6th Generation Intel Core Processor Performance Monitoring Facility\" (version ID 4)",
    ),
    (
        "skylakex_core",
        4,
        "Skylake-SP: SDM Vol. 3B §18.13 (version ID 4)",
    ),
    (
        "cascadelakex_core",
        4,
        "Cascade Lake: Skylake server core, SDM Vol. 3B §18.13 (version ID 4)",
    ),
    (
        "goldmont_core",
        4,
        "Goldmont: SDM Vol. 3B §18.7, Table 18-18 (IA32_PERF_GLOBAL_STATUS_RESET/SET and IA32_PERF_GLOBAL_INUSE, version 4 facilities)",
    ),
    (
        "goldmontplus_core",
        4,
        "Goldmont Plus: SDM Vol. 3B, \"Performance Monitoring for Goldmont Plus Microarchitecture\" (as Goldmont, version 4)",
    ),
    // Version 5: Ice Lake and later big cores, Tremont and later Atom cores.
    (
        "icelake_core",
        5,
        "Ice Lake (Sunny Cove): SDM Vol. 3B, \"10th Generation Intel Core Processor Performance Monitoring Facility\" (version ID 5)",
    ),
    (
        "icelakex_core",
        5,
        "Ice Lake-SP (Sunny Cove): SDM Vol. 3B (version ID 5)",
    ),
    (
        "tigerlake_core",
        5,
        "Tiger Lake (Willow Cove): SDM Vol. 3B, Sunny Cove-based performance monitoring (version ID 5)",
    ),
    (
        "rocketlake_core",
        5,
        "Rocket Lake (Cypress Cove): SDM Vol. 3B, Sunny Cove-based performance monitoring (version ID 5)",
    ),
    (
        "elkhartlake_core",
        5,
        "Elkhart Lake (Tremont): InstLatx64 CPUID dump GenuineIntel00906C0_JasperLake, a Tremont part (CPUID.0AH:EAX = 07300405H)",
    ),
    (
        "snowridgex_core",
        5,
        "Snow Ridge (Tremont): as Elkhart Lake, Tremont reports version 5",
    ),
    (
        "alderlake_goldencove_core",
        5,
        "Alder Lake (Golden Cove): SDM Vol. 3B, \"12th Generation Intel Core Processor Performance Monitoring Facility\" (version ID 5)",
    ),
    (
        "alderlake_gracemont_core",
        5,
        "Alder Lake (Gracemont): SDM Vol. 3B, 12th generation Intel Core performance monitoring (version ID 5)",
    ),
    (
        "sapphirerapids_core",
        5,
        "Sapphire Rapids (Golden Cove): SDM Vol. 3B (version ID 5)",
    ),
    (
        "emeraldrapids_core",
        5,
        "Emerald Rapids (Raptor Cove): SDM Vol. 3B (version ID 5)",
    ),
    (
        "meteorlake_redwoodcove_core",
        5,
        "Meteor Lake (Redwood Cove): SDM Vol. 3B (version ID 5)",
    ),
    (
        "meteorlake_crestmont_core",
        5,
        "Meteor Lake (Crestmont): SDM Vol. 3B (version ID 5)",
    ),
    (
        "arrowlake_crestmont_core",
        5,
        "Arrow Lake (Crestmont, as in Meteor Lake): version 5; Intel's list has UMaskExt and Equal keys here, all zero, so nothing is lost",
    ),
    (
        "sierraforest_core",
        5,
        "Sierra Forest (Crestmont): SDM Vol. 3B (version ID 5)",
    ),
    (
        "grandridge_core",
        5,
        "Grand Ridge (Crestmont): SDM Vol. 3B (version ID 5)",
    ),
    (
        "graniterapids_core",
        5,
        "Granite Rapids (Redwood Cove, as Meteor Lake's P-core): version 5, the version of the Golden Cove/Redwood Cove server cores; Linux arch/x86/events/intel/core.c sets Granite Rapids up with intel_pmu_init_glc (glc_common, intel_rwc_extra_regs) and Intel's list has neither UMaskExt nor Equal",
    ),
    // Version 6: UMASK2/EQ and CPUID leaf 23H.
    (
        "lunarlake_lioncove_core",
        6,
        "Lunar Lake (Lion Cove): SDM Vol. 3B, \"Architectural Performance Monitoring Version 6\"; Intel's list uses UMaskExt and Equal",
    ),
    (
        "lunarlake_skymont_core",
        6,
        "Lunar Lake (Skymont): SDM Vol. 3B, architectural performance monitoring version 6",
    ),
    (
        "arrowlake_lioncove_core",
        6,
        "Arrow Lake (Lion Cove): SDM Vol. 3B, architectural performance monitoring version 6",
    ),
    (
        "arrowlake_skymont_core",
        6,
        "Arrow Lake (Skymont): SDM Vol. 3B, architectural performance monitoring version 6",
    ),
    (
        "clearwaterforest_core",
        6,
        "Clearwater Forest (Darkmont): SDM Vol. 3B, architectural performance monitoring version 6",
    ),
    (
        "pantherlake_cougarcove_core",
        6,
        "Panther Lake (Cougar Cove): SDM Vol. 3B, architectural performance monitoring version 6; Linux arch/x86/events/intel/core.c sets Panther Lake up as Lunar Lake (lnl_common: intel_pmu_init_lnc for the P-core)",
    ),
    (
        "pantherlake_darkmont_core",
        6,
        "Panther Lake (Darkmont): SDM Vol. 3B, architectural performance monitoring version 6; Linux arch/x86/events/intel/core.c sets Panther Lake up as Lunar Lake (lnl_common: intel_pmu_init_skt for the E-core)",
    ),
    (
        "novalake_coyotecove_core",
        6,
        "Nova Lake (Coyote Cove): architectural performance monitoring version 6 (UMASK2/EQ in Intel's list); Linux arch/x86/events/intel/core.c (INTEL_NOVALAKE, INTEL_NOVALAKE_L) sets the P-core up as Panther Cove (intel_pmu_init_pnc)",
    ),
    (
        "novalake_arcticwolf_core",
        6,
        "Nova Lake (Arctic Wolf): architectural performance monitoring version 6 (UMASK2/EQ in Intel's list); Linux arch/x86/events/intel/core.c (INTEL_NOVALAKE, INTEL_NOVALAKE_L) sets the E-core up with intel_pmu_init_arw",
    ),
];

/// The architectural version a core model extends, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchVersion {
    /// 1 to 6: the model extends `intel-v<version>`; 0 for an AMD model (`basis` says which
    /// AMD generation it extends).
    pub version: u8,
    /// Where the version comes from (a manual section, or the heuristic's evidence).
    pub basis: String,
    /// True when it came from [`ARCH_VERSIONS`].
    pub from_table: bool,
}

/// Guesses the architectural version from what a list uses: `UMaskExt`/`Equal` → 6; fixed
/// counter 3 or `TOPDOWN.SLOTS` → 5; `AnyThread` → 3 (version 4 cannot be told apart from
/// the events alone; 3 claims fewer registers); any fixed counter → 2; else 1.
pub fn guess_arch_version(file: &PerfmonFile) -> ArchVersion {
    let has = |k: &str| file.keys.contains(k);
    let fixed3 = file.events.iter().any(|e| e.counters.fixed.contains(&3));
    let slots = file.events.iter().any(|e| e.name == "TOPDOWN.SLOTS");
    let fixed = file.events.iter().any(|e| !e.counters.fixed.is_empty());
    let (version, why) = if has("UMaskExt") || has("Equal") {
        (6, "the list uses UMaskExt/Equal")
    } else if fixed3 || slots {
        (5, "the list uses fixed counter 3 / TOPDOWN.SLOTS")
    } else if has("AnyThread") {
        (
            3,
            "the list uses AnyThread (version 3 or 4; 3 claims fewer registers)",
        )
    } else if fixed {
        (2, "the list uses fixed counters")
    } else {
        (1, "the list uses no later facility")
    };
    ArchVersion {
        version,
        basis: format!("guessed: {why}"),
        from_table: false,
    }
}

/// The table entry for a file (by its name without `.json`), or the guess with a warning.
fn arch_version(stem: &str, file: &PerfmonFile, issues: &mut Vec<Issue>) -> ArchVersion {
    let key = stem.to_ascii_lowercase();
    if let Some((_, v, basis)) = ARCH_VERSIONS.iter().find(|(k, _, _)| *k == key) {
        return ArchVersion {
            version: *v,
            basis: (*basis).to_owned(),
            from_table: true,
        };
    }
    let g = guess_arch_version(file);
    issues.push(Issue::new(
        Level::Warning,
        &file.name,
        None,
        format!(
            "`{stem}` is not in the table of architectural perfmon versions (perfmon::ARCH_VERSIONS); extending intel-v{} ({}). Check the SDM and add it to the table",
            g.version, g.basis
        ),
    ));
    g
}

// ---------------------------------------------------------------------------------------------
// Writing a core model generation
// ---------------------------------------------------------------------------------------------

/// Where the corpus came from, for the header comment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// The intel/perfmon commit named in the corpus README, if any.
    pub commit: Option<String>,
}

/// One generated generation file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreModel {
    /// Generation id, e.g. `intel-alderlake-goldencove`.
    pub id: String,
    /// File name, e.g. `alderlake-goldencove.yaml`.
    pub file_name: String,
    /// Source path relative to the corpus, e.g. `ADL/events/alderlake_goldencove_core.json`.
    pub source: String,
    /// The architectural version it extends.
    pub arch: ArchVersion,
    /// General-purpose and fixed counters it declares.
    pub counters: (u32, u32),
    /// Events written.
    pub events: usize,
    /// Entries in the JSON event list.
    pub json_events: usize,
    /// The JSON file, named as the import's issues name it.
    pub json_file: String,
    /// Where each event written to the YAML comes from, in YAML order.
    pub origins: Vec<EventOrigin>,
    /// The YAML text.
    pub yaml: String,
}

/// Where one event of a generated model comes from: so that a problem the validator finds in
/// the YAML (which exists only in memory during an import) is reported at the JSON event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventOrigin {
    /// 1-based line of the event in the generated YAML.
    pub yaml_line: usize,
    /// `EventName`.
    pub name: String,
    /// 1-based line of the event object in the JSON file.
    pub json_line: usize,
}

impl CoreModel {
    /// The YAML with `line` (a `# yaml-language-server: $schema=` modeline, whose relative path
    /// depends on where the file is written) inserted after the header's first line, which
    /// stays first so generated files remain recognisable.
    pub fn yaml_with_modeline(&self, line: &str) -> String {
        match self.yaml.split_once('\n') {
            Some((head, tail)) => format!("{head}\n{line}\n{tail}"),
            None => format!("{}\n{line}\n", self.yaml),
        }
    }
}

/// The problems the validator found in imported models, each at the JSON file and event it
/// comes from (`file.json:LINE: event `NAME`: message`), for the diagnostics located on an
/// event line of a model's YAML; the others (a problem with the model as a whole) are `None`
/// and keep their YAML location. `loaded` is [`check_models`]'s result for `models`.
pub fn json_locations(
    models: &[CoreModel],
    loaded: &crate::Loaded,
) -> Vec<(crate::diag::Diagnostic, Option<Issue>)> {
    let by_file: BTreeMap<String, &CoreModel> = models
        .iter()
        .map(|m| (format!("{}/models/{}", vendor_dir(m), m.file_name), m))
        .collect();
    let mut out = Vec::new();
    for d in &loaded.diagnostics {
        let issue = d.labels.first().and_then(|l| {
            let m = by_file.get(loaded.sources.name(l.span.file))?;
            let line = loaded.sources.line_col(l.span).line;
            let i = m.origins.partition_point(|o| o.yaml_line < line);
            let o = m.origins.get(i).filter(|o| o.yaml_line == line)?;
            let level = match d.severity {
                crate::Severity::Error => Level::Error,
                crate::Severity::Warning => Level::Warning,
            };
            let named = format!("event `{}`", o.name);
            let message = if d.message.starts_with(&named) {
                format!("{} [{}]", d.message, d.code)
            } else {
                format!("{named}: {} [{}]", d.message, d.code)
            };
            Some(Issue::new(
                level,
                &m.json_file,
                Some((o.json_line, 1)),
                message,
            ))
        });
        out.push((d.clone(), issue));
    }
    out
}

/// How every generated file starts (so stale ones can be recognised); the first line goes on
/// with the source: `from Intel perfmon — DO NOT EDIT.` or [`amd::SOURCE_LINE`].
pub const HEADER: &str = "# @generated by `cargo xtask import-perfmon`";

/// The rest of the first line of a model generated from Intel's lists, after [`HEADER`].
pub const INTEL_SOURCE_LINE: &str = "from Intel perfmon — DO NOT EDIT.";

/// `alderlake_goldencove_core.json` → `alderlake-goldencove`: lowercase, `_core` dropped,
/// every run of other characters a `-`.
pub fn model_name(file_name: &str) -> String {
    let stem = file_name.strip_suffix(".json").unwrap_or(file_name);
    let lower = stem.to_ascii_lowercase();
    let stem = lower.strip_suffix("_core").unwrap_or(&lower);
    let mut out = String::new();
    for c in stem.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() {
        out.push_str("unnamed");
    }
    out
}

/// YAML 1.1 words that are booleans or null, which must be quoted as names.
const YAML_SPECIAL: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
    "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
];

/// A scalar for a YAML flow context: plain when unambiguous, otherwise single-quoted, or
/// double-quoted with escapes when it has a character YAML cannot hold as it is.
fn scalar(s: &str) -> String {
    let plain = s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
        && !YAML_SPECIAL.contains(&s);
    if plain {
        s.to_owned()
    } else if s.chars().all(yaml_literal) {
        format!("'{}'", s.replace('\'', "''"))
    } else {
        quoted(s)
    }
}

/// True for a character a YAML scalar or comment may hold as it is, on one line: YAML 1.2's
/// printable set without tab, the characters YAML 1.1 takes as line breaks (U+0085,
/// U+2028, U+2029) and the byte-order mark. Anything else (a control character in a JSON
/// string or a file name, U+FFFE) must be escaped or left out.
fn yaml_literal(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{7E}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
        && !matches!(c, '\u{2028}' | '\u{2029}' | '\u{FEFF}')
}

/// A double-quoted YAML scalar: `"` and `\` escaped, every character [`yaml_literal`]
/// refuses as `\uXXXX` (or `\UXXXXXXXX`).
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if yaml_literal(c) => out.push(c),
            c if u32::from(c) <= 0xFFFF => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => {
                let _ = write!(out, "\\U{:08X}", u32::from(c));
            }
        }
    }
    out.push('"');
    out
}

/// Text for a `#` comment: a character [`yaml_literal`] refuses (a line break would end the
/// comment and start YAML) becomes U+FFFD.
fn comment(s: &str) -> String {
    s.chars()
        .map(|c| if yaml_literal(c) { c } else { '\u{FFFD}' })
        .collect()
}

fn hex(v: u64) -> String {
    format!("0x{v:02X}")
}

/// `[0-3, 5]`.
fn ranges(list: &[u32]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < list.len() {
        let mut j = i;
        while j + 1 < list.len() && list[j + 1] == list[j] + 1 {
            j += 1;
        }
        parts.push(if j > i {
            format!("{}-{}", list[i], list[j])
        } else {
            list[i].to_string()
        });
        i = j + 1;
    }
    format!("[{}]", parts.join(", "))
}

fn counter_set(c: &Counters) -> String {
    if c.fixed.is_empty() {
        ranges(&c.general)
    } else if c.general.is_empty() {
        format!("{{ fixed: {} }}", ranges(&c.fixed))
    } else {
        format!(
            "{{ general: {}, fixed: {} }}",
            ranges(&c.general),
            ranges(&c.fixed)
        )
    }
}

fn one_or_list(v: &[u32]) -> String {
    match v {
        [one] => hex(u64::from(*one)),
        many => format!(
            "[{}]",
            many.iter()
                .map(|v| hex(u64::from(*v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// One event as a flow mapping on one line, with `allow` (code, reason) entries from the
/// reviewed findings.
fn event_line(e: &PerfmonEvent, version: u8, allow: &[(&str, &str)]) -> String {
    let mut kv: Vec<(&str, String)> = vec![
        ("name", scalar(&e.name)),
        ("event", one_or_list(&e.codes)),
        ("umask", one_or_list(&e.umasks)),
    ];
    if let Some(u) = e.umask2
        && (version >= 6 || u != 0)
    {
        kv.push(("umask2", hex(u64::from(u))));
    }
    if e.eq {
        kv.push(("eq", "true".into()));
    }
    if e.cmask != 0 {
        kv.push(("cmask", e.cmask.to_string()));
    }
    for (k, v) in [("inv", e.inv), ("edge", e.edge), ("any", e.any)] {
        if v {
            kv.push((k, "true".into()));
        }
    }
    if !e.counters.general.is_empty() {
        kv.push(("counters", ranges(&e.counters.general)));
    }
    if let Some(f) = e.counters.fixed.first() {
        kv.push(("fixed", f.to_string()));
    }
    let sets = [
        ("counters-ht-off", &e.counters_ht_off),
        ("pebs-counters", &e.pebs_counters),
        ("pdist-counters", &e.pdist_counters),
        ("pdir-counters", &e.pdir_counters),
    ];
    for (k, s) in sets {
        if let Some(s) = s {
            kv.push((k, counter_set(s)));
        }
    }
    if let Some((index, value)) = &e.msr {
        let index = match index.as_slice() {
            [one] => format!("0x{one:X}"),
            many => format!(
                "[{}]",
                many.iter()
                    .map(|i| format!("0x{i:X}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        kv.push(("msr", format!("{{ index: {index}, value: 0x{value:X} }}")));
    }
    if let Some(p) = e.pebs {
        kv.push(("pebs", p.to_string()));
    }
    if let Some(c) = e.collect_pebs_record {
        kv.push(("collect-pebs-record", c.to_string()));
    }
    for (k, v) in [("precise", e.precise), ("speculative", e.speculative)] {
        if let Some(v) = v {
            kv.push((k, v.to_string()));
        }
    }
    let flags = [
        ("deprecated", e.deprecated),
        ("taken-alone", e.taken_alone),
        ("data-la", e.data_la),
        ("l1-hit-indication", e.l1_hit_indication),
        ("offcore", e.offcore),
        ("offmodule", e.offmodule),
        ("msr-per-umask", e.msr_per_umask),
        ("ellc", e.ellc),
        ("precise-store", e.precise_store),
    ];
    for (k, v) in flags {
        if v {
            kv.push((k, "true".into()));
        }
    }
    if !e.errata.is_empty() {
        let list: Vec<String> = e.errata.iter().map(|x| scalar(x)).collect();
        kv.push(("errata", format!("[{}]", list.join(", "))));
    }
    if let Some(s) = e.sample_after {
        kv.push(("sample-after", s.to_string()));
    }
    if !allow.is_empty() {
        let list: Vec<String> = allow
            .iter()
            .map(|(code, reason)| format!("{{ code: {code}, reason: {} }}", scalar_text(reason)))
            .collect();
        kv.push(("allow", format!("[{}]", list.join(", "))));
    }
    let body: Vec<String> = kv.into_iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!("  - {{ {} }}\n", body.join(", "))
}

/// Room kept in a model for the line `cargo xtask import-perfmon` adds when it writes the file
/// (the `# yaml-language-server: $schema=` modeline, [`CoreModel::yaml_with_modeline`]).
pub const MODELINE_ROOM: usize = 512;

/// The fewest bytes one event takes in a model: the line of an event with a one-letter name,
/// one code, one unit mask, one counter and nothing else.
fn min_event_bytes() -> usize {
    let mut e = PerfmonEvent {
        name: "A".into(),
        line: 1,
        codes: vec![0],
        umasks: vec![0],
        umask2: None,
        eq: false,
        cmask: 0,
        inv: false,
        edge: false,
        any: false,
        counters: Counters {
            general: vec![0],
            fixed: Vec::new(),
        },
        counters_ht_off: None,
        pebs_counters: None,
        pdist_counters: None,
        pdir_counters: None,
        msr: None,
        pebs: None,
        precise: None,
        speculative: None,
        collect_pebs_record: None,
        deprecated: false,
        taken_alone: false,
        data_la: false,
        l1_hit_indication: false,
        offcore: false,
        offmodule: false,
        msr_per_umask: false,
        ellc: false,
        precise_store: false,
        errata: Vec::new(),
        sample_after: None,
    };
    let general = event_line(&e, 6, &[]).len();
    e.counters = Counters {
        general: Vec::new(),
        fixed: vec![0],
    };
    general.min(event_line(&e, 6, &[]).len())
}

/// The most events one list may have: more cannot fit in a model the loader accepts under
/// `limits` (`max_bytes`, less [`MODELINE_ROOM`], over `min_event_bytes`), so such a list is
/// refused before its events are read.
pub fn max_events(limits: &crate::Limits) -> usize {
    limits.max_bytes.saturating_sub(MODELINE_ROOM) / min_event_bytes()
}

fn too_many_events(events: usize, limits: &crate::Limits) -> String {
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
fn check_sizes(imp: &mut Import, limits: &crate::Limits) {
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

/// The counter counts of an architectural generation: its general-purpose counter family
/// (role `counter`) and its fixed-counter family (role `fixed-counter`, 0 when it has none).
fn arch_counts(arch: &Generation) -> (u32, u32) {
    let count = |role| arch.register_with_role(role).map_or(0, |r| r.msr.count);
    (
        count(RegisterRole::Counter),
        count(RegisterRole::FixedCounter),
    )
}

/// Which counter family a register's family belongs to, for the registers a core with more
/// counters extends: the counters, their full-width aliases and event selects (general),
/// the fixed counters (fixed).
fn family_kind(r: &Register) -> Option<CounterKind> {
    if r.per_counter.is_some() {
        return r.per_counter;
    }
    match r.role? {
        RegisterRole::Counter | RegisterRole::FullWidthCounter | RegisterRole::EventSelect => {
            Some(CounterKind::General)
        }
        RegisterRole::FixedCounter => Some(CounterKind::Fixed),
        _ => None,
    }
}

/// The register overrides for `general` general-purpose and `fixed` fixed counters on top of
/// the architectural generation `arch` (empty when its own counts suffice), read from the
/// definitions: every counter family grows to the count, and so does every per-counter field
/// array (`per-counter:`), in the order the generation lists them.
fn register_overrides(arch: &Generation, general: u32, fixed: u32) -> String {
    let want = |kind| match kind {
        CounterKind::General => general,
        CounterKind::Fixed => fixed,
    };
    let (arch_general, arch_fixed) = arch_counts(arch);
    let more_general = general > arch_general;
    let more_fixed = fixed > arch_fixed;
    if !more_general && !more_fixed {
        return String::new();
    }
    let mut out = String::from("registers:\n");
    if more_general {
        let _ = writeln!(
            out,
            "  # {general} general-purpose counters: the families continue from counter {arch_general}\n  \
             # (see intel/v6.yaml, SDM Vol. 4 Table 2-2)."
        );
    }
    if more_fixed {
        let _ = writeln!(
            out,
            "  # {fixed} fixed counters: IA32_FIXED_CTR{arch_fixed} and up continue the family (see\n  \
             # intel/v6.yaml); each per-counter block and bit array has one element per counter."
        );
    }
    let count = |r: &Register| family_kind(r).map(want).filter(|&n| n > r.msr.count);
    let fields = |r: &Register| -> Vec<String> {
        r.fields
            .iter()
            .filter_map(|f| Some((f, want(f.per_counter?))))
            .filter(|(f, n)| *n > f.count())
            .map(|(f, n)| format!("      - {{ name: {}, array: {{ count: {n} }} }}\n", f.name))
            .collect()
    };
    // One-line count overrides first, then the registers whose field arrays grow (with
    // their own count, for a per-counter family such as CFG_B: one entry per register).
    for r in arch.registers.iter().filter(|r| fields(r).is_empty()) {
        if let Some(n) = count(r) {
            let _ = writeln!(out, "  - {{ name: {}, msr: {{ count: {n} }} }}", r.name);
        }
    }
    for r in &arch.registers {
        let fields = fields(r);
        if !fields.is_empty() {
            let _ = writeln!(out, "  - name: {}", r.name);
            if let Some(n) = count(r) {
                let _ = writeln!(out, "    msr: {{ count: {n} }}");
            }
            let _ = writeln!(out, "    fields:");
            out.extend(fields);
        }
    }
    out
}

/// Builds the generation file for one perfmon file. `source` is its path relative to the
/// corpus; `cpus` the mapfile rows naming it. Errors go to `issues` (and give `None`).
pub fn convert(
    file: &PerfmonFile,
    source: &str,
    cpus: &[&MapRow],
    provenance: &Provenance,
    issues: &mut Vec<Issue>,
) -> Option<CoreModel> {
    convert_reviewed(file, source, cpus, provenance, &Reviewed::default(), issues)
}

/// [`convert`], writing an `allow:` on each event `reviewed` names for this generation.
pub fn convert_reviewed(
    file: &PerfmonFile,
    source: &str,
    cpus: &[&MapRow],
    provenance: &Provenance,
    reviewed: &Reviewed,
    issues: &mut Vec<Issue>,
) -> Option<CoreModel> {
    let file_stem = source
        .rsplit('/')
        .next()
        .unwrap_or(source)
        .strip_suffix(".json")
        .unwrap_or(source);
    let name = model_name(source.rsplit('/').next().unwrap_or(source));
    let id = format!("intel-{name}");
    let arch = arch_version(file_stem, file, issues);
    let v = arch.version;
    let errors_before = issues.iter().filter(|i| i.level == Level::Error).count();
    let arch_gen = parent_generation(file_stem, v, &file.name, issues)?;
    let parent = arch_gen.id.clone();

    let (general, fixed) = counters_used(file, &arch, arch_counts(arch_gen), issues);
    if general > 32 || fixed > 16 {
        issues.push(Issue::new(
            Level::Error,
            &file.name,
            None,
            format!("the list names general counter {} or fixed counter {}; the global control registers have room for 32 general and 16 fixed counters", general - 1, fixed.saturating_sub(1)),
        ));
    }
    if issues.iter().filter(|i| i.level == Level::Error).count() > errors_before {
        return None;
    }

    let mut events: Vec<&PerfmonEvent> = file.events.iter().collect();
    events.sort_by(|a, b| a.name.cmp(&b.name));

    let mut y = model_header(file, source, provenance, &id, &parent, &arch);
    write_cpus(&mut y, cpus);
    y.push_str(&register_overrides(arch_gen, general, fixed));
    let origins = write_events(&mut y, &events, v, &reviewed.allows(&id));
    Some(CoreModel {
        json_file: file.name.clone(),
        origins,
        id,
        file_name: format!("{name}.yaml"),
        source: source.to_owned(),
        arch,
        counters: (general, fixed),
        events: events.len(),
        json_events: file.entries,
        yaml: y,
    })
}

/// The general and fixed counters the model has: the architectural generation's `counts`, or
/// more when an event names a higher counter. An event using what the architectural version
/// lacks (a second unit mask, AnyThread, a fixed counter) is an error in `issues`.
fn counters_used(
    file: &PerfmonFile,
    arch: &ArchVersion,
    counts: (u32, u32),
    issues: &mut Vec<Issue>,
) -> (u32, u32) {
    let (mut general, mut fixed) = counts;
    let v = arch.version;
    for e in &file.events {
        let at = Some((e.line, 1));
        let sets = [
            Some(&e.counters),
            e.counters_ht_off.as_ref(),
            e.pebs_counters.as_ref(),
            e.pdist_counters.as_ref(),
            e.pdir_counters.as_ref(),
        ];
        for s in sets.into_iter().flatten() {
            if let Some(&g) = s.general.last() {
                general = general.max(g + 1);
            }
            if let Some(&f) = s.fixed.last() {
                fixed = fixed.max(f + 1);
            }
        }
        let mut need = |min: u8, what: &str| {
            if v < min {
                issues.push(Issue::new(
                    Level::Error,
                    &file.name,
                    at,
                    format!(
                        "event `{}` uses {what}, which architectural perfmon version {v} does not have (it needs version {min}); the version comes from: {}",
                        e.name, arch.basis
                    ),
                ));
            }
        };
        if e.umask2.is_some_and(|u| u != 0) {
            need(6, "a second unit mask (UMaskExt)");
        }
        if e.eq {
            need(6, "the Equal flag");
        }
        if e.any {
            need(3, "AnyThread");
        }
        if !e.counters.fixed.is_empty() {
            need(2, "a fixed counter");
        }
    }
    (general, fixed)
}

/// The model file's header comment and its keys up to `source:` (generation, extends, title,
/// manual, doc).
fn model_header(
    file: &PerfmonFile,
    source: &str,
    provenance: &Provenance,
    id: &str,
    parent: &str,
    arch: &ArchVersion,
) -> String {
    let v = arch.version;
    let mut y = String::new();
    let _ = writeln!(y, "{HEADER} {INTEL_SOURCE_LINE}");
    let _ = writeln!(
        y,
        "# Source: {}, intel/perfmon commit {}{}{}.",
        comment(source),
        comment(provenance.commit.as_deref().unwrap_or("unknown")),
        file.version
            .as_ref()
            .map(|v| format!(", event list version {}", comment(v)))
            .unwrap_or_default(),
        file.date
            .as_ref()
            .map(|d| format!(" ({})", comment(d)))
            .unwrap_or_default(),
    );
    let _ = writeln!(
        y,
        "# Intel's data is under the BSD 3-Clause license{}.",
        file.copyright
            .as_ref()
            .map(|c| format!(" ({})", comment(c.trim_end_matches('.'))))
            .unwrap_or_default()
    );
    let _ = writeln!(
        y,
        "# Facts only (names, codes, counters, flags, MSR values, errata, sampling periods): no\n\
         # description text is copied. Refresh with `cargo xtask import-perfmon` (CONTRIBUTING.md)."
    );
    let _ = writeln!(y, "generation: {id}");
    let _ = writeln!(y, "extends: {parent}");
    let _ = writeln!(
        y,
        "title: {}",
        scalar_text(&format!(
            "Core events of {} (Intel perfmon)",
            source.rsplit('/').next().unwrap_or(source)
        ))
    );
    let _ = writeln!(
        y,
        "manual: {}",
        scalar_text(&format!(
            "Intel perfmon {source}{}; {}",
            file.version
                .as_ref()
                .map(|v| format!(" (event list version {v})"))
                .unwrap_or_default(),
            arch.basis
        ))
    );
    let mut doc = format!(
        "Every core event Intel's perfmon list gives for the CPUs in `cpus`: names, codes,\n\
         counters, flags, auxiliary MSR values, errata and sampling periods. Extends\n\
         architectural performance monitoring version {v} ({}).",
        if arch.from_table {
            "from the importer's table of cores"
        } else {
            "guessed from the list; not in the importer's table"
        }
    );
    if parent != format!("intel-v{v}") {
        let _ = write!(
            doc,
            "\nThe microarchitecture's model-specific registers come from `{parent}`, which\n\
             names this list in its `perfmon-cores:`."
        );
    }
    if file.fixed_from_one {
        doc.push_str(
            "\nIntel's list numbers the fixed counters from 1 (INST_RETIRED.ANY is \"Fixed counter 1\");\n\
             here they are numbered from 0, as in the SDM.",
        );
    }
    let _ = writeln!(y, "doc: |");
    for l in doc.lines() {
        let _ = writeln!(y, "  {l}");
    }
    let _ = writeln!(y, "source: {}", scalar_text(source));
    y
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
fn write_cpus(y: &mut String, cpus: &[&MapRow]) {
    if !cpus.is_empty() {
        let _ = writeln!(y, "cpus:");
        let mut seen = BTreeSet::new();
        for c in cpus {
            if !seen.insert((c.family_model.to_ascii_uppercase(), c.core_type)) {
                continue;
            }
            let mut parts = vec![format!(
                "family-model: {}",
                scalar(&family_in_hex(&c.family_model))
            )];
            if !c.version.is_empty() {
                parts.push(format!("version: {}", scalar(&c.version)));
            }
            if let Some(t) = c.core_type {
                parts.push(format!("core-type: 0x{t:02X}"));
            }
            if let Some(n) = c.native_model_id {
                parts.push(format!("native-model-id: 0x{n:06X}"));
            }
            if let Some(r) = &c.core_role {
                parts.push(format!("core-role: {}", scalar(r)));
            }
            let _ = writeln!(y, "  - {{ {} }}", parts.join(", "));
        }
    }
}

/// `events:`, one line (or block) each, with the `allow:`s `allows` gives; where each event's
/// line is in the YAML and was in the JSON.
fn write_events(
    y: &mut String,
    events: &[&PerfmonEvent],
    v: u8,
    allows: &BTreeMap<&str, Vec<(&str, &str)>>,
) -> Vec<EventOrigin> {
    let mut origins = Vec::with_capacity(events.len());
    if !events.is_empty() {
        y.push_str("events:\n");
        let mut line = y.bytes().filter(|&b| b == b'\n').count() + 1;
        for e in events {
            origins.push(EventOrigin {
                yaml_line: line,
                name: e.name.clone(),
                json_line: e.line,
            });
            let allow = allows.get(e.name.as_str()).map_or(&[][..], Vec::as_slice);
            let text = event_line(e, v, allow);
            line += text.bytes().filter(|&b| b == b'\n').count();
            y.push_str(&text);
        }
    }
    origins
}

/// Free text as a YAML scalar on one line: double-quoted (JSON escapes are valid YAML).
fn scalar_text(s: &str) -> String {
    let simple = s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && s.chars()
            .all(|c| yaml_literal(c) && !"\"'{}[],&*!|>%@`".contains(c));
    if simple { s.to_owned() } else { quoted(s) }
}

// ---------------------------------------------------------------------------------------------
// Reviewed findings
// ---------------------------------------------------------------------------------------------

/// Keys of an entry of a reviewed-findings file.
pub const REVIEWED_KEYS: &[&str] = &["generation", "events", "code", "reason"];

/// Warnings the loader reports about Intel's data that were looked at and are acceptable as
/// Intel gives them, each with the reason: the importer writes them into the models as `allow:`
/// entries on the events (so the loader reports them acknowledged, in one summary line).
///
/// Read from a small hand-edited YAML file ([`parse_reviewed`]; the project's is
/// `pmu-defs/import/reviewed.yaml`), a list of entries:
///
/// ```yaml
/// - generation: intel-goldmont          # the model's generation id
///   events: [INST_RETIRED.ANY]          # its events the finding is about
///   code: counter-not-in-event          # the warning (one an event's `allow:` takes)
///   reason: Intel's list gives ...      # why it is acceptable: facts and your own words
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reviewed {
    /// The file the entries come from, as issues name it.
    pub file: String,
    /// The entries, in file order.
    pub entries: Vec<ReviewedEntry>,
}

/// One entry of a [`Reviewed`] file: one finding on one or more events of a generation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewedEntry {
    /// The generation id (`intel-goldmont`).
    pub generation: String,
    /// The events, each with the 1-based line and column of its name in the file.
    pub events: Vec<(String, (usize, usize))>,
    /// The warning's code.
    pub code: &'static str,
    /// Why it is acceptable (whitespace runs read as one space: one line in the YAML).
    pub reason: String,
    /// 1-based line and column of the entry.
    pub at: (usize, usize),
}

/// Reads a reviewed-findings file (see [`Reviewed`]). Every problem is an error at its
/// `file:line:col`: keys, a generation id or event name that is not one, a code an event's
/// `allow:` does not take (unknown, an error's, another kind's warning), an empty reason, and
/// one finding listed twice for one event.
pub fn parse_reviewed(name: &str, text: &str, issues: &mut Vec<Issue>) -> Reviewed {
    use crate::de::{Cx, EVENT_RULE, GENERATION_RULE, is_generation_id};
    let mut sources = crate::Sources::new();
    let file = sources.add(name, text);
    let mut diags = crate::Diagnostics::unbounded();
    let mut out = Reviewed {
        file: name.to_owned(),
        entries: Vec::new(),
    };
    let pos = |sources: &crate::Sources, span: crate::Span| {
        let lc = sources.line_col(span);
        (lc.line, lc.col)
    };
    if let Some(root) = crate::yaml::parse(file, text, crate::Limits::default(), &mut diags) {
        let mut cx = Cx { diags: &mut diags };
        // No findings is `[]`.
        let items = cx.seq(&root, "reviewed findings");
        let mut seen: BTreeMap<(String, String, &str), crate::Span> = BTreeMap::new();
        for item in items.unwrap_or_default() {
            let Some(m) = cx.map(item, "reviewed finding", REVIEWED_KEYS) else {
                continue;
            };
            let generation = cx.req(&m, "generation", "reviewed finding", |c, n| {
                c.name(n, "generation id", is_generation_id, GENERATION_RULE)
            });
            let events = cx.req(&m, "events", "reviewed finding", |c, n| {
                Some(c.names(n, "event name", is_event_name, EVENT_RULE))
            });
            let code = cx.req(&m, "code", "reviewed finding", |c, n| {
                c.allow_code(n, "event", crate::diag::EVENT_WARNINGS)
            });
            let reason = cx.req(&m, "reason", "reviewed finding", |c, n| c.text(n));
            let reason = reason.and_then(|r| {
                let words: Vec<&str> = r.value.split_whitespace().collect();
                if words.is_empty() {
                    cx.push(
                        crate::Diagnostic::error(
                            "invalid-allow",
                            "a reviewed finding with an empty reason",
                            r.span,
                        )
                        .with_help("say why the warning is acceptable as Intel gives it"),
                    );
                    return None;
                }
                Some(words.join(" "))
            });
            let (Some(generation), Some(events), Some(code), Some(reason)) =
                (generation, events, code, reason)
            else {
                continue;
            };
            for e in &events {
                let key = (generation.value.clone(), e.value.clone(), code.value);
                if let Some(first) = seen.get(&key) {
                    cx.push(
                        crate::Diagnostic::error(
                            "invalid-allow",
                            format!(
                                "`{}` of `{}` is reviewed for `{}` twice",
                                e.value, generation.value, code.value
                            ),
                            e.span,
                        )
                        .with_secondary(*first, "first here"),
                    );
                } else {
                    seen.insert(key, e.span);
                }
            }
            out.entries.push(ReviewedEntry {
                generation: generation.value,
                events: events
                    .iter()
                    .map(|e| (e.value.clone(), pos(&sources, e.span)))
                    .collect(),
                code: code.value,
                reason,
                at: pos(&sources, item.span),
            });
        }
    }
    for d in diags.into_vec() {
        let mut message = d.message.clone();
        for n in &d.notes {
            message.push_str(&format!("; {n}"));
        }
        let level = match d.severity {
            crate::Severity::Error => Level::Error,
            crate::Severity::Warning => Level::Warning,
        };
        issues.push(Issue::new(
            level,
            name,
            Some(pos(&sources, d.span())),
            message,
        ));
    }
    out
}

impl Reviewed {
    /// The findings of generation `id`: event name → (code, reason) entries.
    pub fn allows(&self, id: &str) -> BTreeMap<&str, Vec<(&str, &str)>> {
        let mut out: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::new();
        for r in self.entries.iter().filter(|r| r.generation == id) {
            for (e, _) in &r.events {
                let list = out.entry(e.as_str()).or_default();
                if !list.iter().any(|(c, _)| *c == r.code) {
                    list.push((r.code, r.reason.as_str()));
                }
            }
        }
        out
    }

    /// Warnings for entries that name what `models` do not have: an event missing from its
    /// generation, and, with `whole` (the import of a whole corpus), a generation not
    /// imported.
    pub fn check(&self, models: &[CoreModel], whole: bool, issues: &mut Vec<Issue>) {
        for r in &self.entries {
            let Some(m) = models.iter().find(|m| m.id == r.generation) else {
                if whole {
                    issues.push(Issue::new(
                        Level::Warning,
                        &self.file,
                        Some(r.at),
                        format!(
                            "reviewed finding for `{}`, which this import does not write (is its source gone?); the entry is unused",
                            r.generation
                        ),
                    ));
                }
                continue;
            };
            for (e, at) in &r.events {
                let found = m
                    .origins
                    .binary_search_by(|o| o.name.as_str().cmp(e.as_str()))
                    .is_ok();
                if !found {
                    issues.push(Issue::new(
                        Level::Warning,
                        &self.file,
                        Some(*at),
                        format!(
                            "`{}` has no event `{e}` (is it gone from Intel's list?); the reviewed finding is unused",
                            r.generation
                        ),
                    ));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Files and directories
// ---------------------------------------------------------------------------------------------

/// The outcome of an import.
#[derive(Clone, Debug, Default)]
pub struct Import {
    /// One generation per core file, sorted by file name.
    pub models: Vec<CoreModel>,
    /// Every problem, in the order found.
    pub issues: Vec<Issue>,
    /// JSON files read.
    pub files_read: usize,
    /// Mapfile rows of other event types (uncore, offcore, metrics, ...), skipped.
    pub skipped_rows: usize,
    /// Core files the mapfile names that are missing.
    pub missing_files: usize,
    /// One line per model on what its source had that is not imported (AMD: events of other
    /// PMUs, metrics).
    pub notes: Vec<String>,
    /// When the input is a whole corpus (a directory with its mapfile): its kind and every
    /// source its mapfile lists. `None` for a file, or a directory without a mapfile.
    pub corpus: Option<Corpus>,
}

/// Where generated models come from: which importer wrote them (the first line of the file
/// says it, after [`HEADER`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CorpusKind {
    /// Intel's perfmon lists (`mapfile.csv` and `<PLATFORM>/events/*_core.json`).
    IntelPerfmon,
    /// Linux perf's AMD lists (`mapfile.csv` rows naming `amdzenN` directories).
    LinuxPerfAmd,
}

impl CorpusKind {
    /// The kind named by a generated file's first line, or `None` when `text` does not start
    /// with the importer's header (a hand-written file) or names no known source.
    pub fn of_generated(text: &str) -> Option<CorpusKind> {
        let first = text.lines().next()?.strip_prefix(HEADER)?.trim_start();
        if first.starts_with(INTEL_SOURCE_LINE) {
            Some(CorpusKind::IntelPerfmon)
        } else if first.starts_with(amd::SOURCE_LINE) {
            Some(CorpusKind::LinuxPerfAmd)
        } else {
            None
        }
    }

    /// What the kind is, for messages: `Intel perfmon`, `Linux perf's AMD lists`.
    pub fn describe(self) -> &'static str {
        match self {
            CorpusKind::IntelPerfmon => "Intel perfmon",
            CorpusKind::LinuxPerfAmd => "Linux perf's AMD lists",
        }
    }
}

/// A whole corpus an import read: its kind, its mapfile and the sources the mapfile lists
/// (core files for Intel, `amdzenN` directories for AMD), as the models' `source:` names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Corpus {
    /// Intel or AMD.
    pub kind: CorpusKind,
    /// The mapfile, as issues name it.
    pub mapfile: String,
    /// Every source the mapfile lists (its core rows), present or not.
    pub listed: BTreeSet<String>,
}

/// The `source:` a generated model names (the path of its JSON file relative to the corpus,
/// or AMD's `amdzenN` directory), read from the line the importer writes; `None` when there
/// is none.
pub fn generated_source(text: &str) -> Option<String> {
    let value = text
        .lines()
        .find_map(|l| l.strip_prefix("source: "))?
        .trim();
    if value.starts_with('"') {
        serde_json::from_str(value).ok()
    } else {
        Some(value.to_owned())
    }
}

impl Import {
    /// True when any issue is an error.
    pub fn has_errors(&self) -> bool {
        self.issues.iter().any(|i| i.level == Level::Error)
    }

    /// Events written, over all models.
    pub fn events(&self) -> usize {
        self.models.iter().map(|m| m.events).sum()
    }
}

/// The `commit <hex>` the corpus README names.
fn readme_commit(root: &Path) -> Option<String> {
    let root = if root.as_os_str().is_empty() {
        Path::new(".")
    } else {
        root
    };
    // Like every file the importer reads, only when it lies below the corpus.
    let readme = crate::walk::confined(root, "README.md").ok()?;
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

fn display(p: &Path) -> String {
    p.display().to_string()
}

/// `path` relative to `root` with `/` separators.
fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Every `.json` file below the corpus directory `root` (sorted, depth first), through
/// [`crate::walk`]: each directory read once (symbolic-link cycles cut), and nothing outside
/// `root`. What the walk skipped is reported by [`report_skipped`].
fn json_files(root: &Path) -> crate::walk::Walk {
    crate::walk::walk(root, true, &|p: &Path| {
        p.extension().and_then(|e| e.to_str()) == Some("json")
    })
}

/// Reports the entries a walk of the corpus skipped: a link leading out of the corpus is an
/// error, a second way into a directory (a cycle) a warning. Paths under `reported` (core
/// files the mapfile names, already refused at their mapfile line) are not reported twice.
fn report_skipped(
    root: &Path,
    walk: &crate::walk::Walk,
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
            crate::walk::Skip::Again { .. } => (Level::Warning, s.describe()),
            crate::walk::Skip::Outside { target } => (
                Level::Error,
                format!(
                    "resolves to `{}`, outside the corpus directory; not read (the importer reads only files below the corpus)",
                    target.display()
                ),
            ),
            crate::walk::Skip::Unreadable(_) => (Level::Error, s.describe()),
        };
        issues.push(Issue::new(level, &display(&s.path), None, message));
    }
}

fn read_text(path: &Path, issues: &mut Vec<Issue>) -> Option<String> {
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

/// Imports a perfmon JSON file, or a directory: with `mapfile.csv` in it, every core file the
/// mapfile names (missing ones reported with the mapfile line) plus `*_core.json` files it
/// does not name; without one, every `.json` file below it.
pub fn import_path(path: &Path) -> Import {
    import_path_reviewed(path, &Reviewed::default())
}

/// [`import_path`], writing the `allow:` entries of `reviewed` into the models. An entry
/// naming an event the imported generation does not have is a warning at the entry; so is,
/// when `path` is a directory (a whole corpus), an entry for a generation the import does not
/// write. Entries for other generations are left alone by a single-file import.
pub fn import_path_reviewed(path: &Path, reviewed: &Reviewed) -> Import {
    import_path_within(path, reviewed, &crate::Limits::default())
}

/// [`import_path_reviewed`] for models the loader is to read under `limits` (the loader's
/// default for the shipped models): a list with more events than such a model can hold
/// ([`max_events`]) is refused before its events are read, and a model whose YAML is larger
/// than `limits.max_bytes` (less [`MODELINE_ROOM`]) once written, before it is validated;
/// both are errors at the JSON file saying the sizes.
pub fn import_path_within(path: &Path, reviewed: &Reviewed, limits: &crate::Limits) -> Import {
    let mut imp = import_path_with(path, reviewed, limits);
    check_sizes(&mut imp, limits);
    if !imp.models.is_empty() {
        reviewed.check(&imp.models, path.is_dir(), &mut imp.issues);
    }
    imp
}

fn import_path_with(path: &Path, reviewed: &Reviewed, limits: &crate::Limits) -> Import {
    let mut imp = Import::default();
    if !path.exists() {
        imp.issues.push(Issue::new(
            Level::Error,
            &display(path),
            None,
            "no such file or directory".into(),
        ));
        return imp;
    }
    if path.is_dir() && amd::is_perf_layout(path) {
        amd::import_corpus(path, &mut imp);
        return imp;
    }
    // (absolute path, path relative to the corpus)
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    let mut rows: Vec<MapRow> = Vec::new();
    let root: PathBuf;
    if path.is_dir() {
        root = path.to_path_buf();
        import_dir(&root, &mut files, &mut rows, &mut imp);
        if !rows.is_empty() {
            imp.corpus = Some(Corpus {
                kind: CorpusKind::IntelPerfmon,
                mapfile: display(&root.join("mapfile.csv")),
                listed: rows
                    .iter()
                    .filter(|r| r.is_core())
                    .map(|r| r.file.clone())
                    .collect(),
            });
        }
    } else {
        // A single file: its corpus root is the closest ancestor holding mapfile.csv.
        let mut corpus = None;
        let mut dir = path.parent();
        for _ in 0..3 {
            let Some(d) = dir else { break };
            if d.join("mapfile.csv").is_file() {
                corpus = Some(d.to_path_buf());
                break;
            }
            dir = d.parent();
        }
        match &corpus {
            Some(c) => {
                let map = c.join("mapfile.csv");
                if let Some(text) = read_text(&map, &mut imp.issues) {
                    rows = parse_mapfile(&display(&map), &text, &mut imp.issues);
                }
                root = c.clone();
            }
            None => {
                imp.issues.push(Issue::new(
                    Level::Warning,
                    &display(path),
                    None,
                    "no mapfile.csv beside this file or above it: imported without `cpus`".into(),
                ));
                root = path.parent().map(Path::to_path_buf).unwrap_or_default();
            }
        }
        let rel = relative(&root, path);
        if corpus.is_some() && !rows.iter().any(|r| r.file == rel) {
            imp.issues.push(Issue::new(
                Level::Warning,
                &display(path),
                None,
                "mapfile.csv does not name this file: imported without `cpus`".into(),
            ));
        }
        files.push((path.to_path_buf(), rel));
    }

    if files.is_empty() && imp.has_errors() {
        // Nothing to read, and the error says why; no further noise.
        return imp;
    }
    let provenance = Provenance {
        commit: readme_commit(&root),
    };
    if provenance.commit.is_none() && path.is_dir() {
        imp.issues.push(Issue::new(
            Level::Warning,
            &display(&root.join("README.md")),
            None,
            "no `commit <hash>` found in the corpus README; the headers say `unknown`".into(),
        ));
    }
    // Core rows by file name, so each file finds its CPUs without a scan of the mapfile.
    let mut rows_of: BTreeMap<&str, Vec<&MapRow>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.is_core()) {
        rows_of.entry(r.file.as_str()).or_default().push(r);
    }
    let files_named = files.len();
    // Each file read, parsed and converted on its own (on every core); the results taken in
    // the files' order, so issues and models come out as a sequential loop gives them.
    let converted = crate::par::map(&files, &|(p, rel)| {
        let mut issues = Vec::new();
        let Some(text) = read_text(p, &mut issues) else {
            return (false, issues, None);
        };
        let name = display(p);
        let model = parse_file_within(&name, &text, limits, &mut issues).and_then(|file| {
            let cpus: &[&MapRow] = rows_of.get(rel.as_str()).map_or(&[], Vec::as_slice);
            convert_reviewed(&file, rel, cpus, &provenance, reviewed, &mut issues)
        });
        (true, issues, model.map(|m| (name, m)))
    });
    let mut by_id: BTreeMap<String, String> = BTreeMap::new();
    for ((_, rel), (read, issues, model)) in files.iter().zip(converted) {
        imp.files_read += usize::from(read);
        imp.issues.extend(issues);
        let Some((name, model)) = model else {
            continue;
        };
        if let Some(other) = by_id.get(&model.id) {
            imp.issues.push(Issue::new(
                Level::Error,
                &name,
                None,
                format!(
                    "generation id `{}` (from the file name) is also that of `{other}`; rename one of the files",
                    model.id
                ),
            ));
            continue;
        }
        by_id.insert(model.id.clone(), rel.clone());
        imp.models.push(model);
    }
    imp.models.sort_by(|a, b| a.file_name.cmp(&b.file_name));
    // An import that produced nothing must not look like a successful one: a caller that
    // writes the result would otherwise replace a directory of models with nothing.
    if imp.models.is_empty() && !imp.has_errors() {
        imp.issues.push(Issue::new(
            Level::Error,
            &display(path),
            None,
            format!("nothing to import: no core model came out of the {files_named} file(s) read"),
        ));
    }
    imp
}

/// Imports one perfmon JSON file held in memory: `source` is its path relative to the corpus
/// (`SKL/events/skylake_core.json`; its file name gives the generation id and the
/// architectural version), `text` its contents. There is no mapfile, so the model has no
/// `cpus`, and no README, so its header names no perfmon commit. Reads nothing from disk;
/// like [`import_path`], an input that gives no model is an error.
///
/// ```
/// let json = r#"[{ "EventCode": "0x3C", "UMask": "0x00", "EventName": "CPU_CLK_UNHALTED.THREAD_P", "Counter": "0,1,2,3" }]"#;
/// let import = pmu_defs::perfmon::import_str("SKL/events/skylake_core.json", json);
/// assert!(!import.has_errors(), "{:?}", import.issues);
/// assert_eq!(import.models[0].id, "intel-skylake");
/// ```
pub fn import_str(source: &str, text: &str) -> Import {
    let mut imp = Import {
        files_read: 1,
        ..Import::default()
    };
    let provenance = Provenance { commit: None };
    let limits = crate::Limits::default();
    if let Some(file) = parse_file_within(source, text, &limits, &mut imp.issues)
        && let Some(model) = convert(&file, source, &[], &provenance, &mut imp.issues)
    {
        imp.models.push(model);
    }
    check_sizes(&mut imp, &limits);
    if imp.models.is_empty() && !imp.has_errors() {
        imp.issues.push(Issue::new(
            Level::Error,
            source,
            None,
            "nothing to import: no core model came out of this file".into(),
        ));
    }
    imp
}

/// The directory half of [`import_path`]: the files to read (confined to `root`) and the
/// mapfile rows, or an error saying why there is nothing to import.
fn import_dir(
    root: &Path,
    files: &mut Vec<(PathBuf, String)>,
    rows: &mut Vec<MapRow>,
    imp: &mut Import,
) {
    let walk = json_files(root);
    let mut refused = BTreeSet::new();
    import_mapped(root, walk.files.clone(), files, rows, &mut refused, imp);
    report_skipped(root, &walk, &refused, &mut imp.issues);
    if files.is_empty() && !imp.has_errors() {
        imp.issues.push(Issue::new(
            Level::Error,
            &display(root),
            None,
            "nothing to import: no core event file below this directory".into(),
        ));
    }
}

/// [`import_dir`] on the walk's `found` files: the mapfile, its rows and the files it names
/// (those refused go to `refused`), stray core files; or an error saying why there is
/// nothing to import.
fn import_mapped(
    root: &Path,
    found: Vec<PathBuf>,
    files: &mut Vec<(PathBuf, String)>,
    rows: &mut Vec<MapRow>,
    refused_files: &mut BTreeSet<String>,
    imp: &mut Import,
) {
    let map = root.join("mapfile.csv");
    if !map.is_file() {
        without_mapfile(root, found, files, imp);
        return;
    }
    let map_name = display(&map);
    let Some(read) = read_mapfile(root, &map, &map_name, imp) else {
        return;
    };
    *rows = read;
    let named = core_files_named(rows, imp);
    let Some(missing) = locate_core_files(root, &map_name, &named, files, refused_files, imp)
    else {
        return;
    };
    if !named.is_empty() && missing == named.len() {
        imp.issues.push(Issue::new(
            Level::Error,
            &map_name,
            None,
            format!(
                "nothing to import: none of the {} core file(s) mapfile.csv names is in the \
                 corpus (a partial checkout, or the wrong directory?)",
                named.len()
            ),
        ));
        return;
    }
    add_unlisted_core_files(root, found, files, imp);
    if files.is_empty() {
        imp.issues.push(Issue::new(
            Level::Error,
            &map_name,
            None,
            format!(
                "nothing to import: mapfile.csv names no core event file ({} row(s) of other \
                 event types) and no *_core.json file is below the corpus directory",
                imp.skipped_rows
            ),
        ));
    }
}

/// No mapfile.csv: every .json file found, without `cpus` (an error when there is none).
fn without_mapfile(
    root: &Path,
    found: Vec<PathBuf>,
    files: &mut Vec<(PathBuf, String)>,
    imp: &mut Import,
) {
    if found.is_empty() {
        imp.issues.push(Issue::new(
            Level::Error,
            &display(root),
            None,
            "nothing to import: no mapfile.csv and no .json file below this directory \
             (an uninitialised git submodule is an empty directory: \
             `git submodule update --init`)"
                .into(),
        ));
        return;
    }
    imp.issues.push(Issue::new(
        Level::Warning,
        &display(root),
        None,
        "no mapfile.csv here: importing every .json file below, without `cpus`".into(),
    ));
    for p in found {
        let rel = relative(root, &p);
        files.push((p, rel));
    }
}

/// mapfile.csv's rows; `None` (with an error) when it is outside the corpus, unreadable, has
/// a refused row (a mapfile is not imported in part) or has no rows.
fn read_mapfile(root: &Path, map: &Path, map_name: &str, imp: &mut Import) -> Option<Vec<MapRow>> {
    if let Err(why) = crate::walk::confined(root, "mapfile.csv") {
        imp.issues.push(Issue::new(
            Level::Error,
            map_name,
            None,
            format!("not read: {why}; the importer reads only files below the corpus directory"),
        ));
        return None;
    }
    let text = read_text(map, &mut imp.issues)?;
    let errors = |imp: &Import| {
        imp.issues
            .iter()
            .filter(|i| i.level == Level::Error)
            .count()
    };
    let errors_before = errors(imp);
    let rows = parse_mapfile(map_name, &text, &mut imp.issues);
    if errors(imp) > errors_before {
        return None;
    }
    if text.lines().skip(1).all(|l| l.trim().is_empty()) {
        imp.issues.push(Issue::new(
            Level::Error,
            map_name,
            Some((1, 1)),
            "nothing to import: mapfile.csv has its header and no rows (a truncated or \
             unfinished checkout?)"
                .into(),
        ));
        return None;
    }
    Some(rows)
}

/// The core files the rows name, in the order first named, each with every row naming it;
/// rows of other event types are counted in `imp.skipped_rows`.
fn core_files_named<'r>(rows: &'r [MapRow], imp: &mut Import) -> Vec<(&'r str, Vec<&'r MapRow>)> {
    let mut named: Vec<(&str, Vec<&MapRow>)> = Vec::new();
    let mut at: BTreeMap<&str, usize> = BTreeMap::new();
    for r in rows {
        if !r.is_core() {
            imp.skipped_rows += 1;
            continue;
        }
        let i = *at.entry(r.file.as_str()).or_insert_with(|| {
            named.push((r.file.as_str(), Vec::new()));
            named.len() - 1
        });
        named[i].1.push(r);
    }
    named
}

/// Each named core file that is in the corpus goes to `files`; one that is not gets a
/// warning; one outside the corpus directory an error (and `None`: nothing is imported).
/// Returns how many are missing.
fn locate_core_files(
    root: &Path,
    map_name: &str,
    named: &[(&str, Vec<&MapRow>)],
    files: &mut Vec<(PathBuf, String)>,
    refused_files: &mut BTreeSet<String>,
    imp: &mut Import,
) -> Option<usize> {
    let mut missing: Vec<(&str, &[&MapRow])> = Vec::new();
    let mut refused = false;
    for (f, rs) in named {
        match crate::walk::confined(root, f) {
            Ok(p) if p.is_file() => files.push((p, (*f).to_owned())),
            Ok(_) => missing.push((f, rs)),
            Err(why) => {
                refused = true;
                refused_files.insert((*f).to_owned());
                imp.issues.push(Issue::new(
                    Level::Error,
                    map_name,
                    Some((rs[0].line, 1)),
                    format!(
                        "core file `{f}` not read: {why}; the importer reads only files below the corpus directory"
                    ),
                ));
            }
        }
    }
    missing.sort_by_key(|(f, _)| *f);
    for (f, rs) in &missing {
        let lines: Vec<String> = rs.iter().map(|r| r.line.to_string()).collect();
        let cpus: BTreeSet<&str> = rs.iter().map(|r| r.family_model.as_str()).collect();
        imp.issues.push(Issue::new(
            Level::Warning,
            map_name,
            rs.first().map(|r| (r.line, 1)),
            format!(
                "core file `{f}` (for {}) is named on line{} {} but is not in the corpus; not imported",
                cpus.into_iter().collect::<Vec<_>>().join(", "),
                if lines.len() > 1 { "s" } else { "" },
                lines.join(", ")
            ),
        ));
    }
    imp.missing_files = missing.len();
    (!refused).then_some(missing.len())
}

/// The `*_core.json` files below the corpus that mapfile.csv does not name: imported without
/// `cpus`, each with a warning.
fn add_unlisted_core_files(
    root: &Path,
    found: Vec<PathBuf>,
    files: &mut Vec<(PathBuf, String)>,
    imp: &mut Import,
) {
    let listed: BTreeSet<String> = files.iter().map(|(_, r)| r.clone()).collect();
    for p in found {
        let rel = relative(root, &p);
        let is_core = p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.ends_with("_core.json"));
        if is_core && !listed.contains(&rel) {
            imp.issues.push(Issue::new(
                Level::Warning,
                &display(&p),
                None,
                "a core event file that mapfile.csv does not name; imported without `cpus`".into(),
            ));
            files.push((p, rel));
        }
    }
}

/// The hand-written definition files of `vendor`: `defs/<vendor>/**/*.yaml` except the
/// imported models under `defs/<vendor>/models/`, sorted.
fn hand_written_files(vendor: &str) -> Vec<PathBuf> {
    let dir = crate::defs_dir().join(vendor);
    let models = dir.join("models");
    let found = crate::walk::walk(&dir, true, &|p: &Path| {
        p.extension().is_some_and(|e| e == "yaml") && !p.starts_with(&models)
    });
    found.files
}

/// The hand-written Intel definition files (architectural versions, microarchitecture
/// generations, facilities of their own).
fn architectural_files() -> Vec<PathBuf> {
    hand_written_files("intel")
}

/// The generation an imported list extends: the hand-written one naming `stem` in its
/// `perfmon-cores:` (which must extend architectural version `version`), else
/// `intel-v{version}` itself. `None` after an error in `issues`.
fn parent_generation(
    stem: &str,
    version: u8,
    file: &str,
    issues: &mut Vec<Issue>,
) -> Option<&'static Generation> {
    let model = &architectural().model;
    let arch = format!("intel-v{version}");
    let claimed = model
        .generations
        .iter()
        .find(|g| g.perfmon_cores.iter().any(|c| c.eq_ignore_ascii_case(stem)));
    let message = match claimed {
        Some(g) if g.id == arch || g.ancestors.contains(&arch) => return Some(g),
        Some(g) => format!(
            "`{}` names `{stem}` in its `perfmon-cores:` but does not extend `{arch}`, the \
             architectural version of `{stem}`",
            g.id
        ),
        None => match model.generation(&arch) {
            Some(g) => return Some(g),
            None => format!(
                "the architectural generation `{arch}` does not load from {} (run `cargo xtask validate`)",
                crate::defs_dir().join("intel").display()
            ),
        },
    };
    issues.push(Issue::new(Level::Error, file, None, message));
    None
}

/// The architectural Intel generations, loaded once: what a model extends, and so which
/// registers and per-counter arrays a core with more counters overrides.
fn architectural() -> &'static crate::Loaded {
    static ARCH: std::sync::OnceLock<crate::Loaded> = std::sync::OnceLock::new();
    ARCH.get_or_init(|| {
        let mut loader = crate::Loader::new();
        for p in architectural_files() {
            loader.add_file(&p);
        }
        loader.finish()
    })
}

/// The vendor directory of a generated model (`intel`, `amd`), from its id.
pub fn vendor_dir(model: &CoreModel) -> &str {
    model.id.split('-').next().unwrap_or("intel")
}

/// Loads the hand-written generations of each vendor the models belong to
/// (`defs/<vendor>/**/*.yaml` through `hand_written_files`, not the models below them) with `models` as
/// `<vendor>/models/<file>`, resolved and validated: the check every import must pass.
pub fn check_models(models: &[CoreModel]) -> crate::Loaded {
    let mut loader = crate::Loader::new();
    let mut vendors: Vec<&str> = models.iter().map(vendor_dir).collect();
    vendors.sort_unstable();
    vendors.dedup();
    if vendors.is_empty() {
        vendors.push("intel");
    }
    for vendor in vendors {
        loader.add_files(&hand_written_files(vendor));
    }
    loader.add_strs(models.iter().map(|m| {
        (
            format!("{}/models/{}", vendor_dir(m), m.file_name),
            m.yaml.clone(),
        )
    }));
    loader.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers() {
        assert_eq!(
            model_name("alderlake_goldencove_core.json"),
            "alderlake-goldencove"
        );
        assert_eq!(model_name("WestmereEP-DP_core.json"), "westmereep-dp");
        assert_eq!(model_name("Jaketown_core.json"), "jaketown");
        assert_eq!(model_name("x__y.json"), "x-y");
        assert_eq!(parse_number("0x1a6"), Some(0x1A6));
        assert_eq!(parse_number("0X1A6"), Some(0x1A6));
        assert_eq!(parse_number("0x00"), Some(0));
        assert_eq!(parse_number("0x"), None);
        assert_eq!(parse_number("-1"), None);
        assert_eq!(ranges(&[0, 1, 2, 3, 5, 7, 8]), "[0-3, 5, 7-8]");
        assert_eq!(ranges(&[]), "[]");
        assert_eq!(
            scalar("GenuineIntel-6-55-[01234]"),
            "'GenuineIntel-6-55-[01234]'"
        );
        assert_eq!(scalar("UOPS.ANY:c1"), "'UOPS.ANY:c1'");
        assert_eq!(scalar("No"), "'No'");
    }

    #[test]
    fn positions_count_characters() {
        let mut issues = Vec::new();
        let doc = Doc::new("f", "ab\ncé d", &mut issues);
        assert_eq!(doc.pos(0), (1, 1));
        assert_eq!(doc.pos(3), (2, 1));
        assert_eq!(doc.pos(7), (2, 4));
        // Backwards on the same line, then forwards again: the same answers.
        assert_eq!(doc.pos(4), (2, 2));
        assert_eq!(doc.pos(7), (2, 4));
        // Inside a character: column 1, as before.
        assert_eq!(doc.pos(5), (2, 1));
    }

    /// A one-line (minified) file of many events: each issue's column costs the distance from
    /// the previous one, so the columns of n issues in file order scan the line once.
    #[test]
    fn columns_on_one_long_line_scan_it_once() {
        let n = 5_000;
        let events: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"EventName":"E{i}.X","EventCode":"0x01","UMask":"0x00","Counter":"0","SampleAfterValue":"0","Extra{}":"é"}}"#,
                    i % 3
                )
            })
            .collect();
        let text = format!("[{}]", events.join(","));
        let mut issues = Vec::new();
        let file = parse_file("one-line.json", &text, &mut issues).expect("parses");
        assert_eq!(file.events.len(), n);
        // One warning per event (a sampling period of 0) and one per unknown key.
        let warnings: Vec<_> = issues
            .iter()
            .filter(|i| i.level == Level::Warning)
            .collect();
        assert_eq!(warnings.len(), n + 3, "{:?}", &issues[..3]);
        assert!(issues.iter().all(|i| i.line == Some(1)));
        // The last event's warning is at its own column (characters, `é` is one).
        let last = &warnings[n - 1];
        let at = text.rfind(r#""0","Extra"#).expect("last event");
        assert_eq!(last.column, Some(text[..at].chars().count() + 1));

        let mut issues = Vec::new();
        let doc = Doc::new("one-line.json", &text, &mut issues);
        let mut at = 0;
        while let Some(i) = text[at..].find("SampleAfterValue") {
            at += i + 1;
            doc.pos(at);
        }
        assert!(
            doc.scanned.get() <= text.len(),
            "{} bytes scanned for columns in a {}-byte line",
            doc.scanned.get(),
            text.len()
        );
    }
}
