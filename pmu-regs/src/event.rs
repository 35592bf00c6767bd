//! Event encodings shared by the architectural events and the model-specific event tables, and
//! the checks that place an event on a counter.

use crate::__private::Buf;
use core::fmt;
use core::marker::PhantomData;

/// An auxiliary MSR an event needs programmed (offcore response, load latency, front end).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventMsr {
    /// MSR address.
    pub index: u32,
    /// Value to write to it.
    pub value: u64,
}

/// Another way to program the same event (Intel lists `0xB7, 0xBB` for the two offcore-response
/// event codes, each paired with its own `MSR_OFFCORE_RSP_x`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventAlt {
    /// Event select code.
    pub event: u16,
    /// Unit mask.
    pub umask: u8,
    /// The auxiliary MSR this alternative uses, when the event has one.
    pub msr_index: Option<u32>,
}

/// How an event is encoded in an event-select register, and where it may be counted.
///
/// Generated tables (`ArchEvent::desc`, the model event modules) produce these; the generated
/// `event_on` / `try_event_on` functions of each event-select register put one into a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct EventDesc {
    /// Canonical name.
    pub name: &'static str,
    /// Event select code (12 bits on AMD64).
    pub event: u16,
    /// Unit mask.
    pub umask: u8,
    /// Second unit mask (Intel architectural performance monitoring v6), 0 when unused.
    pub umask2: u8,
    /// Equal-compare flag (Intel v6).
    pub eq: bool,
    /// Counter mask (threshold).
    pub cmask: u8,
    /// Invert the counter-mask comparison.
    pub inv: bool,
    /// Edge detect.
    pub edge: bool,
    /// AnyThread.
    pub any: bool,
    /// General-purpose counters that may count it: bit `n` set for counter `n`. Zero when only a
    /// fixed counter counts it.
    pub counters: u32,
    /// The general-purpose counters that may count it while its core runs one thread
    /// (Hyper-Threading off), when the definitions state them (Intel's `CounterHTOff`, given
    /// for the cores whose threads share eight counters: Sandy Bridge to Cascade Lake).
    /// [`counters`](Self::counters) is what each of two threads may use.
    pub counters_ht_off: Option<u32>,
    /// The fixed counter that counts it, if any.
    pub fixed: Option<u8>,
    /// Auxiliary MSR to program alongside.
    pub msr: Option<EventMsr>,
    /// Other (event, umask, MSR) encodings of the same event, besides the primary one.
    pub alternatives: &'static [EventAlt],
    /// PEBS support as Intel's event lists give it: 0 none, 1 PEBS, 2 PEBS only.
    pub pebs: u8,
    /// Intel marks the event deprecated (kept for old tools; prefer its replacement).
    pub deprecated: bool,
    /// The event must count alone: while it counts, no other event may use a general-purpose
    /// counter (Intel's `TakenAlone`; fixed counters stay free). The scheduler honours it.
    pub taken_alone: bool,
    /// The counters that may sample it with PEBS, when the definitions state them
    /// (`pebs-counters:`).
    pub pebs_counters: Option<CounterMask>,
    /// The counters with precise distribution (PDist) for it, when the definitions state them
    /// (`pdist-counters:`; stated and empty: none has it).
    pub pdist_counters: Option<CounterMask>,
    /// The precision asked for: 0 counting, 1 or 2 sampling with PEBS, 3 with precise
    /// distribution (perf's `precise_ip`: modifiers `p`, `pp`, `ppp`). A request, not a fact
    /// of the event: the definitions leave it 0, and the scheduler restricts a precise event
    /// to the counters above ([`schedule`](crate::schedule)).
    pub precise: u8,
}

/// A set of counters: general-purpose counter `n` is bit `n` of `gp`, fixed counter `n` bit
/// `n` of `fixed`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CounterMask {
    /// General-purpose counters.
    pub gp: u32,
    /// Fixed counters.
    pub fixed: u32,
}

impl CounterMask {
    /// General-purpose counters `gp` and fixed counters `fixed`.
    pub const fn new(gp: u32, fixed: u32) -> Self {
        CounterMask { gp, fixed }
    }

    /// True when it holds no counter.
    pub const fn is_empty(&self) -> bool {
        self.gp == 0 && self.fixed == 0
    }
}

impl EventDesc {
    /// An event with only an event select and unit mask, countable on every general counter.
    pub const fn new(name: &'static str, event: u16, umask: u8) -> Self {
        EventDesc {
            name,
            event,
            umask,
            umask2: 0,
            eq: false,
            cmask: 0,
            inv: false,
            edge: false,
            any: false,
            counters: u32::MAX,
            counters_ht_off: None,
            fixed: None,
            msr: None,
            alternatives: &[],
            pebs: 0,
            deprecated: false,
            taken_alone: false,
            pebs_counters: None,
            pdist_counters: None,
            precise: 0,
        }
    }

    /// The same event restricted to the general counters in `mask` (bit n = counter n; 0: none).
    pub const fn with_counters(mut self, mask: u32) -> Self {
        self.counters = mask;
        self
    }

    /// The same event, also counted by fixed counter `n`.
    pub const fn with_fixed(mut self, n: u8) -> Self {
        self.fixed = Some(n);
        self
    }

    /// The same event with a counter mask (threshold).
    pub const fn with_cmask(mut self, cmask: u8) -> Self {
        self.cmask = cmask;
        self
    }

    /// The same event with the invert flag.
    pub const fn with_inv(mut self, on: bool) -> Self {
        self.inv = on;
        self
    }

    /// The same event with edge detect.
    pub const fn with_edge(mut self, on: bool) -> Self {
        self.edge = on;
        self
    }

    /// The same event with AnyThread.
    pub const fn with_any(mut self, on: bool) -> Self {
        self.any = on;
        self
    }

    /// The same event with a second unit mask (Intel v6).
    pub const fn with_umask2(mut self, umask2: u8) -> Self {
        self.umask2 = umask2;
        self
    }

    /// The same event with the equal-compare flag (Intel v6).
    pub const fn with_eq(mut self, on: bool) -> Self {
        self.eq = on;
        self
    }

    /// The same event with an auxiliary MSR to program.
    pub const fn with_msr(mut self, index: u32, value: u64) -> Self {
        self.msr = Some(EventMsr { index, value });
        self
    }

    /// The same event with other encodings besides the primary one.
    pub const fn with_alternatives(mut self, alternatives: &'static [EventAlt]) -> Self {
        self.alternatives = alternatives;
        self
    }

    /// The same event with a PEBS level (0 none, 1 PEBS, 2 PEBS only).
    pub const fn with_pebs(mut self, level: u8) -> Self {
        self.pebs = level;
        self
    }

    /// The same event, marked deprecated.
    pub const fn with_deprecated(mut self, on: bool) -> Self {
        self.deprecated = on;
        self
    }

    /// The same event, to be counted alone (see [`taken_alone`](Self::taken_alone)).
    pub const fn with_taken_alone(mut self, on: bool) -> Self {
        self.taken_alone = on;
        self
    }

    /// The same event with the general counters that may count it with Hyper-Threading off
    /// (see [`counters_ht_off`](Self::counters_ht_off)).
    pub const fn with_counters_ht_off(mut self, mask: u32) -> Self {
        self.counters_ht_off = Some(mask);
        self
    }

    /// The same event with the counters that may sample it with PEBS.
    pub const fn with_pebs_counters(mut self, gp: u32, fixed: u32) -> Self {
        self.pebs_counters = Some(CounterMask::new(gp, fixed));
        self
    }

    /// The same event with the counters that have precise distribution for it.
    pub const fn with_pdist_counters(mut self, gp: u32, fixed: u32) -> Self {
        self.pdist_counters = Some(CounterMask::new(gp, fixed));
        self
    }

    /// The same event, asking for precision `level` (0 counting; 1, 2 PEBS; 3 precise
    /// distribution): see [`precise`](Self::precise).
    pub const fn with_precise(mut self, level: u8) -> Self {
        self.precise = level;
        self
    }

    /// True when general-purpose counter `n` may count the event.
    pub const fn allows_counter(&self, n: u32) -> bool {
        n < 32 && self.counters & (1 << n) != 0
    }
}

/// An event of the events type `S` (a generation's `ArchEvent`, a model's `events::Event`):
/// its [`EventDesc`], typed with where it comes from. `ArchEvent::X.desc()` and
/// `Event::X.desc()` return one; it reads as the `EventDesc` it holds (`Deref`, or
/// [`EventRef::get`] in a `const`).
///
/// The type is what ties an event to the event selects it fits: `event_on` /
/// `try_event_on` of an event-select register take an `EventRef<S>` only when `S` is the
/// events type of a generation using that register (its `Countable` trait), so an Intel
/// event on AMD's `PERF_EVT_SEL_CORE`, or a model's event on a generation without it, does
/// not compile. A hand-built [`EventDesc`] goes through the untyped `event_on_raw` /
/// `try_event_on_raw` instead (the escape hatch: nothing ties it to a vendor).
pub struct EventRef<S> {
    desc: EventDesc,
    of: PhantomData<fn() -> S>,
}

impl<S> EventRef<S> {
    /// `desc`, typed as an event of `S` (the generated tables call this).
    #[doc(hidden)]
    #[inline(always)]
    pub const fn __new(desc: EventDesc) -> Self {
        EventRef {
            desc,
            of: PhantomData,
        }
    }

    /// The untyped description.
    #[inline(always)]
    pub const fn get(self) -> EventDesc {
        self.desc
    }
}

impl<S> Clone for EventRef<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for EventRef<S> {}

impl<S> core::ops::Deref for EventRef<S> {
    type Target = EventDesc;
    fn deref(&self) -> &EventDesc {
        &self.desc
    }
}

impl<S> fmt::Debug for EventRef<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.desc.fmt(f)
    }
}

impl<S> PartialEq for EventRef<S> {
    fn eq(&self, other: &Self) -> bool {
        self.desc == other.desc
    }
}

impl<S> Eq for EventRef<S> {}

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

/// Why an event cannot be put in an event-select register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlacementError {
    /// The register family has no counter with this index.
    CounterOutOfRange {
        /// Register name.
        register: &'static str,
        /// Number of counters.
        count: u32,
        /// The requested counter.
        counter: u32,
    },
    /// Only a fixed-function counter counts the event.
    FixedOnly {
        /// Event name.
        event: &'static str,
        /// The fixed counter that counts it.
        fixed: u8,
        /// The requested general-purpose counter.
        counter: u32,
    },
    /// The event may be counted only on some general-purpose counters, not this one.
    NotOnCounter {
        /// Event name.
        event: &'static str,
        /// The counters it may use (bit n = counter n).
        allowed: u32,
        /// The requested counter.
        counter: u32,
    },
    /// The event needs a field the register does not have in this generation.
    Unsupported {
        /// Event name.
        event: &'static str,
        /// The missing field.
        field: &'static str,
        /// Register name.
        register: &'static str,
    },
    /// A value placed on one instance of a register family is written to another.
    WrongCounter {
        /// Register name.
        register: &'static str,
        /// The instance the value was built for.
        placed: u32,
        /// The instance it was to be written to.
        counter: u32,
    },
    /// A field valid only on some instances of the family is set on a value for another.
    FieldNotOnCounter {
        /// Register name.
        register: &'static str,
        /// The field.
        field: &'static str,
        /// The instance.
        counter: u32,
    },
    /// An encoding value does not fit its field.
    TooWide {
        /// Event name.
        event: &'static str,
        /// Field.
        field: &'static str,
        /// Field width.
        width: u32,
        /// The value.
        value: u64,
    },
}

impl PlacementError {
    fn message(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        match *self {
            PlacementError::CounterOutOfRange {
                register,
                count,
                counter,
            } => write!(
                out,
                "{register} has {count} counters (0..={}); counter {counter} is out of range",
                count.saturating_sub(1)
            ),
            PlacementError::FixedOnly {
                event,
                fixed,
                counter,
            } => write!(
                out,
                "{event} counts only on fixed counter {fixed}; it cannot be placed on general-purpose counter {counter}"
            ),
            PlacementError::NotOnCounter {
                event,
                allowed,
                counter,
            } => {
                let plural = if allowed.count_ones() == 1 { "" } else { "s" };
                write!(
                    out,
                    "{event} may be counted only on general-purpose counter{plural} "
                )?;
                let mut first = true;
                for n in 0..32 {
                    if allowed & (1 << n) != 0 {
                        write!(out, "{}{n}", if first { "" } else { "," })?;
                        first = false;
                    }
                }
                write!(out, "; not on counter {counter}")
            }
            PlacementError::Unsupported {
                event,
                field,
                register,
            } => write!(
                out,
                "{event} needs field {field}, which this generation's {register} does not have"
            ),
            PlacementError::WrongCounter {
                register,
                placed,
                counter,
            } => write!(
                out,
                "this {register} value was built for {register}{placed}; it cannot be written to {register}{counter}"
            ),
            PlacementError::FieldNotOnCounter {
                register,
                field,
                counter,
            } => write!(out, "{field} is not valid on {register}{counter}"),
            PlacementError::TooWide {
                event,
                field,
                width,
                value,
            } => write!(
                out,
                "{event}: {field} is {width} bits wide; {value:#X} does not fit"
            ),
        }
    }

    /// Const-eval failure with the same message as `Display` (used by `event_on`).
    #[doc(hidden)]
    #[track_caller]
    pub const fn fail(self) -> ! {
        let b = Buf::new();
        let b = match self {
            PlacementError::CounterOutOfRange {
                register,
                count,
                counter,
            } => b
                .push_str(register)
                .push_str(" has ")
                .push_num(count as u64, false)
                .push_str(" counters (0..=")
                .push_num(count.saturating_sub(1) as u64, false)
                .push_str("); counter ")
                .push_num(counter as u64, false)
                .push_str(" is out of range"),
            PlacementError::FixedOnly {
                event,
                fixed,
                counter,
            } => b
                .push_str(event)
                .push_str(" counts only on fixed counter ")
                .push_num(fixed as u64, false)
                .push_str("; it cannot be placed on general-purpose counter ")
                .push_num(counter as u64, false),
            PlacementError::NotOnCounter {
                event,
                allowed,
                counter,
            } => {
                let mut b = b.push_str(event).push_str(if allowed.count_ones() == 1 {
                    " may be counted only on general-purpose counter "
                } else {
                    " may be counted only on general-purpose counters "
                });
                let mut n = 0;
                let mut first = true;
                while n < 32 {
                    if allowed & (1 << n) != 0 {
                        if !first {
                            b = b.push_str(",");
                        }
                        b = b.push_num(n as u64, false);
                        first = false;
                    }
                    n += 1;
                }
                b.push_str("; not on counter ")
                    .push_num(counter as u64, false)
            }
            PlacementError::Unsupported {
                event,
                field,
                register,
            } => b
                .push_str(event)
                .push_str(" needs field ")
                .push_str(field)
                .push_str(", which this generation's ")
                .push_str(register)
                .push_str(" does not have"),
            PlacementError::WrongCounter {
                register,
                placed,
                counter,
            } => b
                .push_str("this ")
                .push_str(register)
                .push_str(" value was built for ")
                .push_str(register)
                .push_num(placed as u64, false)
                .push_str("; it cannot be written to ")
                .push_str(register)
                .push_num(counter as u64, false),
            PlacementError::FieldNotOnCounter {
                register,
                field,
                counter,
            } => b
                .push_str(field)
                .push_str(" is not valid on ")
                .push_str(register)
                .push_num(counter as u64, false),
            PlacementError::TooWide {
                event,
                field,
                width,
                value,
            } => b
                .push_str(event)
                .push_str(": ")
                .push_str(field)
                .push_str(" is ")
                .push_num(width as u64, false)
                .push_str(" bits wide; ")
                .push_num(value, true)
                .push_str(" does not fit"),
        };
        b.fail()
    }
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.message(f)
    }
}

impl core::error::Error for PlacementError {}

/// The examples of the README, run as documentation tests of this crate (every ```` ```rust ````
/// block of `README.md`).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;

/// The examples of the user guide, `docs/guide.md`, run the same way.
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide.md")]
struct GuideDoctests;

/// The examples of `docs/commands.md` (the generated API at a glance).
#[cfg(doctest)]
#[doc = include_str!("../../docs/commands.md")]
struct CommandsDoctests;
