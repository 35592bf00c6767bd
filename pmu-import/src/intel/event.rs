//! The event model of one perfmon file: what Intel's list states for each event.

use std::collections::BTreeSet;

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
pub(crate) const HEADER_KEYS: &[&str] =
    &["Copyright", "Info", "DatePublished", "Version", "Legend"];

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
pub(crate) struct RawCounters {
    pub(crate) general: BTreeSet<u32>,
    /// `32 + n` in a list: fixed counter `n` (the IA32_PERF_GLOBAL_CTRL bit).
    pub(crate) fixed_bit: BTreeSet<u32>,
    /// `Fixed counter n`: numbered from 0, or from 1 in the oldest lists.
    pub(crate) fixed_named: BTreeSet<u32>,
}

impl RawCounters {
    pub(crate) fn resolve(&self, fixed_base: u32) -> Counters {
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
