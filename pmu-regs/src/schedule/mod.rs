//! Counter scheduling: put a set of events on a PMU's counters together, or say exactly why
//! they do not fit.
//!
//! [`schedule`] takes a [`Target`] (a generation's counters, or the counters detection found:
//! [`Target::detected`]) and a list of [`EventDesc`]s, and returns a [`Schedule`]: each event
//! on a general-purpose or fixed counter, with the encoding and auxiliary-MSR value to program.
//! It respects what the run-time event records hold:
//!
//! - the general-purpose counters each event may use ([`EventDesc::counters`]; with
//!   Hyper-Threading off, [`EventDesc::counters_ht_off`] where the lists give them:
//!   [`Target::ht_off`]);
//! - the fixed counter of an event, which is preferred when it is free (as Linux does: it
//!   leaves the general-purpose counters to events that need them), and the only choice for
//!   an event only a fixed counter counts (`INST_RETIRED.ANY`, `TOPDOWN.SLOTS`);
//! - the auxiliary MSRs (off-core response, load-latency threshold, front-end qualifier): one
//!   value per MSR for the whole set, an event with an alternative encoding (Intel's second
//!   off-core response register) moving to it when the first holds another value;
//! - events that must count alone ([`EventDesc::taken_alone`], Intel's `TakenAlone`): while one
//!   counts, the other events of the set may use fixed counters only;
//! - the precision an event asks for ([`EventDesc::precise`], perf's `p`, `pp`, `ppp`, which
//!   `resolve`, with feature `perf`, reads): sampled with PEBS, an event may use only its PEBS counters
//!   (`pebs-counters:`; where the definitions state none, all of a PEBS event's counters and
//!   none of another's), and at precision 3 only its PDist counters (`pdist-counters:`, as
//!   for 2 where they state none: before Ice Lake the lists give no PDist counters).
//!
//! Counters are assigned by bipartite matching (augmenting paths), so a set is refused only
//! when no assignment exists; the auxiliary MSRs by a small search over the alternatives.
//! When a set does not fit, the [`Conflict`] names a smallest set of the events that cannot
//! share the PMU, every one of which is needed (removing any one lets the others fit: the set
//! violates Hall's condition minimally), and [`Reason`] says why; its `Display` is the
//! message.
//!
//! [`split`] divides a list into the fewest groups that each fit, keeping the groups a caller
//! gives together ([`split_grouped`]).
//!
//! No allocation: a call takes at most [`MAX_EVENTS`] events, in fixed-size arrays.
//!
//! ```
//! # #[cfg(feature = "intel-skylake")] {
//! use pmu_regs::arch::{Counter, Generation};
//! use pmu_regs::intel::skylake::events::Event;
//! use pmu_regs::schedule::{Target, schedule};
//!
//! let target = Target::of(Generation::IntelSkylake);
//! let events = [Event::InstRetired_Any, Event::MemLoadRetired_L3Miss].map(|e| e.desc().get());
//! let s = schedule(&target, &events).unwrap();
//! assert_eq!(s.counter(0), Some(Counter::Fixed(0)));
//! assert_eq!(s.counter(1), Some(Counter::Gp(0)));
//! # }
//! ```
//!
//! # Limits
//!
//! The run-time event records hold each event's counters, fixed counter, auxiliary MSR and
//! its alternatives, whether it counts alone, its counters with Hyper-Threading off and its
//! PEBS and PDist counters; the scheduler
//! knows nothing they do not say:
//!
//! - Intel's topdown metrics (`IA32_PERF_METRICS`, read with fixed counter 3) are not events in
//!   the records, and the rule that metric events go with `TOPDOWN.SLOTS` in one group is not
//!   checked;
//! - the PDIR counter of Skylake's `INST_RETIRED.PREC_DIST` (`pdir-counters:`) is not in the
//!   records.

use crate::EventDesc;
use crate::arch::{Arch, ArchVisitor, Counter, Generation, InstanceName, RegInfo};
use crate::detect::PmuInfo;
use core::fmt;

mod conflict;
mod matching;
mod split;

pub use conflict::{Conflict, Error, Labelled, Reason};
pub use split::{Split, split, split_grouped};

use matching::{Assignment, Needs, conflict, feasible};

/// The most events one call takes.
pub const MAX_EVENTS: usize = 64;

/// Up to this many events (or user-given groups), [`split`] is exact: the group count is the
/// smallest possible, unless its search gives up (then [`Split::exact`] is false). Past it,
/// [`split`] places the events first-fit (most constrained first) and says so.
pub const EXACT_SPLIT_LIMIT: usize = 32;

/// How many auxiliary-MSR encodings of one event are considered (the primary and its
/// alternatives).
const MAX_OPTIONS: usize = 4;

/// How many auxiliary MSRs one set may hold at once.
const MAX_HELD: usize = 8;

/// Feasibility checks an exact [`split`] may make before it settles for the best split found.
const SPLIT_BUDGET: u32 = 200_000;
/// The counters to schedule on: a generation's, or those CPUID reports.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// The generation (its registers name the auxiliary MSRs in messages).
    pub generation: Generation,
    /// General-purpose counters that may be used (bit n = counter n).
    pub gp: u32,
    /// Fixed counters that may be used (bit n = fixed counter n).
    pub fixed: u32,
    /// Whether events that must count alone ([`EventDesc::taken_alone`]) are kept from the
    /// others' general-purpose counters: true from [`Target::of`], as Intel's lists ask.
    /// False schedules them like any other event, as Linux does (it does not read the
    /// lists' `TakenAlone`): the counts may then be off.
    pub taken_alone: bool,
    /// Whether each core runs one thread (Hyper-Threading off or absent), so an event may use
    /// the general counters Intel lists for that case ([`EventDesc::counters_ht_off`]: on
    /// Sandy Bridge to Cascade Lake, a thread then has eight counters where two threads have
    /// four each). False from [`Target::of`], as Intel's `Counter` lists assume; set by
    /// [`Target::detected`] when CPUID gives the thread a counter those lists never name.
    pub ht_off: bool,
}

struct Counts;

impl ArchVisitor for Counts {
    type Output = (u32, u32);
    fn visit<A: Arch>(self) -> (u32, u32) {
        (mask_of(A::GP_INSTANCES), mask_of(A::FIXED_INSTANCES))
    }
}

impl Target {
    /// Every counter `generation` defines.
    pub fn of(generation: Generation) -> Target {
        let (gp, fixed) = generation.visit(Counts);
        Target {
            generation,
            gp,
            fixed,
            taken_alone: true,
            ht_off: false,
        }
    }

    /// The same counters on a core running one thread (`true`) or two (`false`, the default);
    /// see [`ht_off`](Self::ht_off).
    pub fn with_ht_off(mut self, ht_off: bool) -> Target {
        self.ht_off = ht_off;
        self
    }

    /// The same counters, keeping events that must count alone from the others (`true`, the
    /// default) or not; see [`taken_alone`](Self::taken_alone).
    pub fn with_taken_alone(mut self, honour: bool) -> Target {
        self.taken_alone = honour;
        self
    }

    /// The counters detection found (CPUID's counts and bitmaps), on its model generation when
    /// that is compiled in, else its architectural generation; `None` when it found no PMU the
    /// definitions describe.
    ///
    /// The thread runs alone on its core ([`ht_off`](Self::ht_off)) when CPUID reports a
    /// general counter that the generation's lists with Hyper-Threading on never name, where
    /// they differ from those with it off (each thread of a Skylake core reports four counters
    /// with Hyper-Threading on, eight with it off; the lists name counters 0-3 and 0-7).
    pub fn detected(info: &PmuInfo) -> Option<Target> {
        let g = info.model.or(info.generation)?;
        let t = Target::of(g).with_counters(info.counters.gp, info.counters.fixed);
        let listed = (g.model_events().iter())
            .filter(|e| e.counters_ht_off.is_some())
            .fold(0, |m, e| m | e.counters);
        Some(t.with_ht_off(listed != 0 && t.gp & !listed != 0))
    }

    /// Only the counters of `gp` and `fixed` (within the generation's).
    pub fn with_counters(mut self, gp: u32, fixed: u32) -> Target {
        let (all_gp, all_fixed) = self.generation.visit(Counts);
        self.gp = gp & all_gp;
        self.fixed = fixed & all_fixed;
        self
    }

    /// The register at MSR `address` (`MSR_OFFCORE_RSP_1`), when the generation has one.
    pub fn msr_name(&self, address: u32) -> Option<InstanceName> {
        msr_name(self.generation.registers(), address)
    }
}

fn msr_name(registers: &[RegInfo], address: u32) -> Option<InstanceName> {
    registers
        .iter()
        .find_map(|r| r.index_of(address).map(|i| r.instance_name(i)))
}

const fn mask_of(count: u32) -> u32 {
    if count >= 32 {
        u32::MAX
    } else {
        (1u32 << count) - 1
    }
}
/// A counter as a slot of the matching: general-purpose `n` is slot `n`, fixed `n` slot
/// `32 + n`.
fn slot_counter(slot: u8) -> Counter {
    if slot < 32 {
        Counter::Gp(slot.into())
    } else {
        Counter::Fixed(u32::from(slot) - 32)
    }
}
fn bits_below(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

fn members(set: u64) -> impl Iterator<Item = usize> {
    let mut rest = set;
    core::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        Some(i)
    })
}
/// A set of events on the counters ([`schedule`]).
#[derive(Clone, Copy)]
pub struct Schedule<'a> {
    target: Target,
    events: &'a [EventDesc],
    /// Which events of `events` it holds (all of them, from [`schedule`]; a group's, from
    /// [`Split::group`]).
    set: u64,
    assignment: Assignment,
}

/// One event of a [`Schedule`]: where it goes and what to program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Its index in the list given.
    pub index: usize,
    /// The counter.
    pub counter: Counter,
    /// The event as it is to be programmed: the alternative encoding when the schedule took
    /// it, with [`EventDesc::msr`] the auxiliary MSR and value to write.
    pub event: EventDesc,
}

impl<'a> Schedule<'a> {
    /// The counters it was made for.
    pub fn target(&self) -> Target {
        self.target
    }

    /// How many events it places.
    pub fn len(&self) -> usize {
        self.set.count_ones() as usize
    }

    /// True when it places no event.
    pub fn is_empty(&self) -> bool {
        self.set == 0
    }

    /// The counter of event `index` (of the list given), when this schedule holds it.
    pub fn counter(&self, index: usize) -> Option<Counter> {
        self.get(index).map(|p| p.counter)
    }

    /// The placement of event `index`, when this schedule holds it.
    pub fn get(&self, index: usize) -> Option<Placement> {
        if index >= MAX_EVENTS || self.set & (1 << index) == 0 {
            return None;
        }
        let mut event = *self.events.get(index)?;
        let choice = usize::from(self.assignment.choice[index]);
        if let Some(m) = event.msr.as_mut()
            && choice > 0
        {
            let alt = event.alternatives.iter().filter(|a| a.msr_index.is_some());
            if let Some(a) = alt.clone().nth(choice - 1) {
                (event.event, event.umask) = (a.event, a.umask);
                m.index = a.msr_index.unwrap_or(m.index);
            }
        }
        Some(Placement {
            index,
            counter: slot_counter(self.assignment.slot[index]),
            event,
        })
    }

    /// Every placement, in the order of the list given.
    pub fn iter(&self) -> impl Iterator<Item = Placement> + '_ {
        members(self.set).filter_map(|i| self.get(i))
    }

    /// The general-purpose counters it uses (bit n = counter n) and the fixed ones.
    pub fn counters(&self) -> (u32, u32) {
        let (mut gp, mut fixed) = (0u32, 0u32);
        for i in members(self.set) {
            match slot_counter(self.assignment.slot[i]) {
                Counter::Gp(n) => gp |= 1 << n,
                Counter::Fixed(n) => fixed |= 1 << n,
            }
        }
        (gp, fixed)
    }
}

impl fmt::Debug for Schedule<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl fmt::Display for Schedule<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, p) in self.iter().enumerate() {
            if k > 0 {
                f.write_str("\n")?;
            }
            let c = match p.counter {
                Counter::Gp(n) => Slot::Gp(n),
                Counter::Fixed(n) => Slot::Fixed(n),
            };
            write!(f, "{:<8} {}", c, p.event.name)?;
            if let Some(m) = p.event.msr {
                write!(f, " (MSR {:#x} = {:#x})", m.index, m.value)?;
            }
        }
        Ok(())
    }
}

/// `gp0` / `fixed1`: a counter as `pmu schedule` spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Gp(u32),
    Fixed(u32),
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Slot::Gp(n) => ("gp", n),
            Slot::Fixed(n) => ("fixed", n),
        };
        // Pad as a whole when asked (`{:<8}`).
        let mut buf = [0u8; 16];
        let mut w = Cursor {
            buf: &mut buf,
            len: 0,
        };
        fmt::write(&mut w, format_args!("{}{}", s.0, s.1))?;
        let len = w.len;
        f.pad(core::str::from_utf8(&buf[..len]).unwrap_or("?"))
    }
}

struct Cursor<'b> {
    buf: &'b mut [u8],
    len: usize,
}

impl fmt::Write for Cursor<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let dst = self.buf.get_mut(self.len..end).ok_or(fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// `gp0`, `fixed1`: how `pmu schedule` and its JSON name a counter.
pub fn counter_label(counter: Counter) -> impl fmt::Display {
    match counter {
        Counter::Gp(n) => Slot::Gp(n),
        Counter::Fixed(n) => Slot::Fixed(n),
    }
}
/// Places every event of `events` on `target`'s counters; see the [module](self) docs.
pub fn schedule<'a>(target: &Target, events: &'a [EventDesc]) -> Result<Schedule<'a>, Error<'a>> {
    let needs = Needs::new(target, events)?;
    let set = needs.all();
    schedule_set(target, &needs, events, set)
}

fn schedule_set<'a>(
    target: &Target,
    needs: &Needs,
    events: &'a [EventDesc],
    set: u64,
) -> Result<Schedule<'a>, Error<'a>> {
    let mut assignment = Assignment::EMPTY;
    if feasible(&needs.needs[..needs.len], set, &mut assignment) {
        return Ok(Schedule {
            target: *target,
            events,
            set,
            assignment,
        });
    }
    Err(Error::Conflict(conflict(target, needs, events, set)))
}

/// Whether `events` fit `target` together.
pub fn fits(target: &Target, events: &[EventDesc]) -> bool {
    schedule(target, events).is_ok()
}
/// Resolves `text` (an event name with modifiers, a perf string or a raw config, as
/// [`PerfConfig::parse`](crate::perf::PerfConfig::parse) reads it) to the event to schedule on
/// `generation`: the definition of the event it names, with `ldlat=`/`offcore_rsp=` as its
/// auxiliary value and its counter-mask modifiers. A perf string or raw config naming no
/// defined event is taken as countable on every general-purpose counter.
#[cfg(feature = "perf")]
pub fn resolve(generation: Generation, text: &str) -> Result<EventDesc, crate::perf::PerfError> {
    let c = crate::perf::PerfConfig::parse(generation, text)?;
    let mut desc = c
        .name
        .and_then(|n| by_name(generation, n))
        .unwrap_or_else(|| {
            let event = (c.config & 0xff) | ((c.config >> 24) & 0xf00);
            EventDesc::new("(raw)", event as u16, (c.config >> 8) as u8)
        });
    if desc.counters != 0 || desc.fixed.is_none() {
        desc.cmask = (c.config >> 24) as u8;
        desc.inv = c.config & (1 << 23) != 0;
        desc.edge = c.config & (1 << 18) != 0;
    }
    if let Some(m) = desc.msr.as_mut()
        && c.config1 != 0
    {
        m.value = c.config1;
    }
    desc.precise = c.precise;
    Ok(desc)
}

#[cfg(feature = "perf")]
fn by_name(generation: Generation, name: &str) -> Option<EventDesc> {
    struct ArchEvents;
    impl ArchVisitor for ArchEvents {
        type Output = &'static [crate::arch::ArchEventInfo];
        fn visit<A: Arch>(self) -> Self::Output {
            A::arch_events()
        }
    }
    generation.model_event(name).or_else(|| {
        (generation.visit(ArchEvents).iter())
            .find(|e| e.name.eq_ignore_ascii_case(name))
            .map(|e| e.desc)
    })
}
