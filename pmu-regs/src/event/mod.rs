//! Event encodings shared by the architectural events and the model-specific event tables, and
//! the checks that place an event on a counter.

use core::fmt;
use core::marker::PhantomData;

mod placement;
mod table;

pub use placement::PlacementError;
pub use table::{EventTable, EventTableIter};

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

/// The examples of the README, run as documentation tests of this crate (every ```` ```rust ````
/// block of `README.md`).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

/// The examples of the user guide, `docs/guide.md`, run the same way.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/guide.md")]
struct GuideDoctests;

/// The examples of `docs/commands.md` (the generated API at a glance).
#[cfg(doctest)]
#[doc = include_str!("../../../docs/commands.md")]
struct CommandsDoctests;
