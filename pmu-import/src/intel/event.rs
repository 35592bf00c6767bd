//! The event model of one perfmon file: what Intel's list states for each event.

use pmu_defs::model::{CounterSet, EVENT_FLAGS, Event};
use std::collections::BTreeSet;

/// Keys of an event object that the importer reads: these, and the flags'
/// ([`EventFlag::intel`](pmu_defs::model::EventFlag::intel)). Descriptions are read and dropped.
const NON_FLAG_KEYS: &[&str] = &[
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
    "CollectPEBSRecord",
    "CounterType",
    "ProgrammingRestriction",
    "Errata",
    "SampleAfterValue",
    "BriefDescription",
    "PublicDescription",
];

/// Every key of an event object that the importer reads: [`EVENT_FLAGS`]' Intel keys and the
/// others (codes, counters, MSR, errata, period, descriptions).
pub fn event_keys() -> impl Iterator<Item = &'static str> {
    NON_FLAG_KEYS
        .iter()
        .copied()
        .chain(EVENT_FLAGS.iter().filter_map(|f| f.intel))
}

/// Keys of the `Header` object.
pub(crate) const HEADER_KEYS: &[&str] =
    &["Copyright", "Info", "DatePublished", "Version", "Legend"];

/// Counters as written, before the file's fixed-counter numbering is known.
#[derive(Clone, Debug, Default)]
pub(crate) struct RawCounters {
    pub(crate) general: BTreeSet<u32>,
    /// `32 + n` in a list: fixed counter `n` (the IA32_PERF_GLOBAL_CTRL bit).
    pub(crate) fixed_bit: BTreeSet<u32>,
    /// `Fixed counter n`: numbered from 0, or from 1 in the oldest lists.
    pub(crate) fixed_named: BTreeSet<u32>,
}

impl RawCounters {
    pub(crate) fn resolve(&self, fixed_base: u32) -> CounterSet {
        let mut fixed: BTreeSet<u32> = self.fixed_bit.clone();
        fixed.extend(
            self.fixed_named
                .iter()
                .map(|n| n.saturating_sub(fixed_base)),
        );
        CounterSet {
            general: self.general.iter().copied().collect(),
            fixed: fixed.into_iter().collect(),
        }
    }
}

/// One event, every fact Intel's list states for it.
///
/// The facts the model declares one to one (the name, the flags, `cmask`, `umask2`, the PEBS
/// level, errata, the sampling period: `EventName`, `Equal`, `CounterMask`, ...,
/// `SampleAfterValue`) are in [`PerfmonEvent::facts`], the model's own [`Event`], so each is
/// declared once. The encoding and the counters are the fields beside it, as the list gives
/// them (every code and unit mask, fixed counters numbered from 0); the importer writes them
/// as the model's `event`, `umask`, `counters`, `fixed`, `msr` ..., and leaves those fields of
/// `facts` at [`Event::blank`]'s values.
#[derive(Clone, Debug)]
pub struct PerfmonEvent {
    /// Line of the event object in the JSON file.
    pub line: usize,
    /// `EventCode`: one or more event select codes, the first being the main one.
    pub codes: Vec<u32>,
    /// `UMask`: one or more unit masks.
    pub umasks: Vec<u32>,
    /// `Counter`.
    pub counters: CounterSet,
    /// `CounterHTOff`.
    pub counters_ht_off: Option<CounterSet>,
    /// `PEBScounters`.
    pub pebs_counters: Option<CounterSet>,
    /// `PDISTCounter`.
    pub pdist_counters: Option<CounterSet>,
    /// `PDIR_COUNTER`.
    pub pdir_counters: Option<CounterSet>,
    /// `MSRIndex` (one or more) and `MSRValue`, when the index is not 0.
    pub msr: Option<(Vec<u32>, u64)>,
    /// Every other fact, as the model declares it: `name` (`EventName`), `umask2`
    /// (`UMaskExt`), `eq` (`Equal`), `cmask`, `inv`, `edge`, `any`, `pebs`, `precise`,
    /// `speculative`, `collect_pebs_record`, `deprecated`, `taken_alone`, `data_la`,
    /// `l1_hit_indication`, `offcore`, `offmodule`, `msr_per_umask` (`ProgrammingRestriction`
    /// `MSRIndex-UMask`), `ellc`, `precise_store` (`PRECISE_STORE`), `errata` and
    /// `sample_after` (`SampleAfterValue`).
    pub facts: Event,
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

/// Keys of an event object that are select-register flags ("0" or "1"); with the event
/// flags' Intel keys ([`is_flag_key`]), a JSON boolean is read as one.
const SELECT_FLAG_KEYS: &[&str] = &["AnyThread", "EdgeDetect", "Equal", "Invert"];

/// True for a key whose value is a flag ("0" or "1", or a JSON boolean read as one).
pub(crate) fn is_flag_key(key: &str) -> bool {
    SELECT_FLAG_KEYS.contains(&key) || EVENT_FLAGS.iter().any(|f| f.intel == Some(key))
}
