//! A model's event table: compact generated records decoded on access.

use super::{CounterMask, EventAlt, EventDesc, EventMsr};
use core::fmt;

/// A CPU model's event table (`events::Event::TABLE`, `Generation::model_events`): every
/// event's [`EventDesc`], in name order, decoded on access from a compact encoding.
///
/// The generator writes each model's table as three literals: one fixed-size record of bytes
/// per event, the names end to end in one string, and the alternative encodings (off-core
/// response events have a second one) in one array. The compiler reads a byte string at
/// once, where a table of thousands of `EventDesc` values is thousands of constant
/// evaluations: this encoding is most of why a build with every model is as fast as it is.
/// Reading one is a few loads; with a constant event (`Event::X.desc()`) the optimizer folds
/// them into the event's fields.
#[derive(Clone, Copy)]
pub struct EventTable {
    records: &'static [u8],
    names: &'static str,
    alternatives: &'static [EventAlt],
}

// How an [`EventTable`] record is laid out (byte offsets, little-endian fields): the layout
// the generator writes, declared once in `pmu_vocab::record`.
use pmu_vocab::record;

impl EventTable {
    /// A table over generated literals. Not public API: the layout is the generator's.
    #[doc(hidden)]
    pub const fn __new(
        records: &'static [u8],
        names: &'static str,
        alternatives: &'static [EventAlt],
    ) -> Self {
        assert!(
            records.len().is_multiple_of(record::LEN),
            "event table records are not whole"
        );
        EventTable {
            records,
            names,
            alternatives,
        }
    }

    /// The empty table (a generation without model events).
    pub const EMPTY: EventTable = EventTable {
        records: &[],
        names: "",
        alternatives: &[],
    };

    /// Number of events.
    #[inline]
    pub const fn len(&self) -> usize {
        self.records.len() / record::LEN
    }

    /// True when the table has no event.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The record of event `i`; panics when `i` is out of range.
    #[inline(always)]
    const fn record(&self, i: usize) -> &'static [u8] {
        let start = i * record::LEN;
        self.records.split_at(start).1.split_at(record::LEN).0
    }

    /// The name of event `i`, without decoding the rest; panics when `i` is out of range.
    #[inline(always)]
    pub const fn name(&self, i: usize) -> &'static str {
        self.name_of(self.record(i))
    }

    /// The name a record points to.
    #[inline(always)]
    const fn name_of(&self, r: &[u8]) -> &'static str {
        let off = u32_at(r, record::NAME_OFFSET) as usize;
        let len = r[record::NAME_LEN] as usize;
        self.names.split_at(off).1.split_at(len).0
    }

    /// Event `i`, decoded; panics when `i` is out of range (the generated `Event::desc` never
    /// is: the index is its discriminant).
    #[inline(always)]
    pub const fn desc(&self, i: usize) -> EventDesc {
        let r = self.record(i);
        let flags = r[record::FLAGS];
        let alt_start = u16_at(r, record::ALT_START) as usize;
        let alt_len = r[record::ALT_LEN] as usize;
        EventDesc {
            name: self.name_of(r),
            event: u16_at(r, record::EVENT),
            umask: r[record::UMASK],
            umask2: r[record::UMASK2],
            eq: flags & record::EQ != 0,
            cmask: r[record::CMASK],
            inv: flags & record::INV != 0,
            edge: flags & record::EDGE != 0,
            any: flags & record::ANY != 0,
            counters: u32_at(r, record::COUNTERS),
            counters_ht_off: if r[record::FLAGS2] & record::HAS_COUNTERS_HT_OFF != 0 {
                Some(u32_at(r, record::COUNTERS_HT_OFF))
            } else {
                None
            },
            fixed: if flags & record::HAS_FIXED != 0 {
                Some(r[record::FIXED])
            } else {
                None
            },
            msr: if flags & record::HAS_MSR != 0 {
                Some(EventMsr {
                    index: u32_at(r, record::MSR_INDEX),
                    value: u64_at(r, record::MSR_VALUE),
                })
            } else {
                None
            },
            alternatives: self.alternatives.split_at(alt_start).1.split_at(alt_len).0,
            pebs: r[record::PEBS],
            deprecated: flags & record::DEPRECATED != 0,
            taken_alone: r[record::FLAGS2] & record::TAKEN_ALONE != 0,
            pebs_counters: counter_mask(r, record::HAS_PEBS_COUNTERS, record::PEBS_GP),
            pdist_counters: counter_mask(r, record::HAS_PDIST_COUNTERS, record::PDIST_GP),
            precise: 0,
        }
    }

    /// Event `i`, or `None` past the end.
    pub const fn get(&self, i: usize) -> Option<EventDesc> {
        if i < self.len() {
            Some(self.desc(i))
        } else {
            None
        }
    }

    /// Which typed auxiliary-MSR value event `i` has (its model's `events::Aux` variant,
    /// counted from 1; 0: none). Not public API.
    #[doc(hidden)]
    #[inline(always)]
    pub const fn __aux_kind(&self, i: usize) -> u8 {
        self.record(i)[record::AUX]
    }

    /// Every event, in table (name) order.
    pub fn iter(&self) -> EventTableIter {
        EventTableIter {
            table: *self,
            next: 0,
        }
    }
}

/// The counter set at `at` (its general counters, then a byte of fixed ones), when the
/// record's `flag` says it is stated.
#[inline(always)]
const fn counter_mask(r: &[u8], flag: u8, at: usize) -> Option<CounterMask> {
    if r[record::FLAGS2] & flag == 0 {
        return None;
    }
    Some(CounterMask::new(u32_at(r, at), r[at + 4] as u32))
}

#[inline(always)]
const fn u16_at(r: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([r[at], r[at + 1]])
}

#[inline(always)]
const fn u32_at(r: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([r[at], r[at + 1], r[at + 2], r[at + 3]])
}

#[inline(always)]
const fn u64_at(r: &[u8], at: usize) -> u64 {
    let (lo, hi) = (u32_at(r, at) as u64, u32_at(r, at + 4) as u64);
    lo | hi << 32
}

impl fmt::Debug for EventTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for EventTable {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for EventTable {}

impl IntoIterator for EventTable {
    type Item = EventDesc;
    type IntoIter = EventTableIter;
    fn into_iter(self) -> EventTableIter {
        self.iter()
    }
}

impl IntoIterator for &EventTable {
    type Item = EventDesc;
    type IntoIter = EventTableIter;
    fn into_iter(self) -> EventTableIter {
        self.iter()
    }
}

/// The events of an [`EventTable`], in order ([`EventTable::iter`]).
#[derive(Clone, Debug)]
pub struct EventTableIter {
    table: EventTable,
    next: usize,
}

impl Iterator for EventTableIter {
    type Item = EventDesc;
    fn next(&mut self) -> Option<EventDesc> {
        let d = self.table.get(self.next)?;
        self.next += 1;
        Some(d)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.table.len() - self.next;
        (n, Some(n))
    }
    fn nth(&mut self, n: usize) -> Option<EventDesc> {
        self.next = self.next.saturating_add(n).min(self.table.len());
        self.next()
    }
}

impl ExactSizeIterator for EventTableIter {}
impl core::iter::FusedIterator for EventTableIter {}
