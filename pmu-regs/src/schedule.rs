//! Counter scheduling: put a set of events on a PMU's counters together, or say exactly why
//! they do not fit.
//!
//! [`schedule`] takes a [`Target`] (a generation's counters, or the counters detection found:
//! [`Target::detected`]) and a list of [`EventDesc`]s, and returns a [`Schedule`]: each event
//! on a general-purpose or fixed counter, with the encoding and auxiliary-MSR value to program.
//! It respects what the run-time event records hold:
//!
//! - the general-purpose counters each event may use ([`EventDesc::counters`]);
//! - the fixed counter of an event, which is preferred when it is free (as Linux does: it
//!   leaves the general-purpose counters to events that need them), and the only choice for
//!   an event only a fixed counter counts (`INST_RETIRED.ANY`, `TOPDOWN.SLOTS`);
//! - the auxiliary MSRs (off-core response, load-latency threshold, front-end qualifier): one
//!   value per MSR for the whole set, an event with an alternative encoding (Intel's second
//!   off-core response register) moving to it when the first holds another value.
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
//! assert_eq!(s.counter(0), Counter::Fixed(0));
//! assert_eq!(s.counter(1), Counter::Gp(0));
//! # }
//! ```
//!
//! # Limits
//!
//! The run-time event records hold each event's counters, fixed counter, auxiliary MSR and
//! its alternatives; the scheduler knows nothing they do not say:
//!
//! - events Intel's lists mark "taken alone" (the definitions' `taken-alone:`, which the
//!   load-latency and front-end events have) are not in the records: such an event is
//!   scheduled with others when the counters allow, where the hardware's count of it may then
//!   be off;
//! - the PEBS and PDIST counter restrictions (`pebs-counters:`, `pdist-counters:`) are not in
//!   the records: a schedule is for counting, and sampling with PEBS may need another counter;
//! - Intel's topdown metrics (`IA32_PERF_METRICS`, read with fixed counter 3) are not events in
//!   the records, and the rule that metric events go with `TOPDOWN.SLOTS` in one group is not
//!   checked;
//! - the counter restrictions with Hyper-Threading off (`counters-ht-off:`) are not in the
//!   records: the records give the restrictions with it on.

use crate::EventDesc;
use crate::arch::{Arch, ArchVisitor, Counter, Generation, InstanceName, RegInfo};
use crate::detect::PmuInfo;
use core::fmt;

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
        }
    }

    /// The counters detection found (CPUID's counts and bitmaps), on its model generation when
    /// that is compiled in, else its architectural generation; `None` when it found no PMU the
    /// definitions describe.
    pub fn detected(info: &PmuInfo) -> Option<Target> {
        let g = info.model.or(info.generation)?;
        Some(Target::of(g).with_counters(info.counters.gp, info.counters.fixed))
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

/// What one event needs, within the target.
#[derive(Clone, Copy, Debug, Default)]
struct Need {
    /// Slots it may use.
    slots: u64,
    /// The fixed counter's slot, when it may use one (tried first).
    prefer: u64,
    /// Auxiliary MSR addresses of its encodings (primary first), `options` of them.
    aux: [u32; MAX_OPTIONS],
    options: u8,
    /// The auxiliary value.
    value: u64,
}

impl Need {
    fn of(target: &Target, e: &EventDesc) -> Need {
        let mut need = Need {
            slots: u64::from(e.counters & target.gp),
            ..Need::default()
        };
        if let Some(f) = e.fixed
            && f < 32
            && target.fixed & (1 << f) != 0
        {
            need.prefer = 1 << (32 + u32::from(f));
            need.slots |= need.prefer;
        }
        if let Some(m) = e.msr {
            need.value = m.value;
            need.aux[0] = m.index;
            need.options = 1;
            for alt in e.alternatives {
                if let Some(index) = alt.msr_index
                    && usize::from(need.options) < MAX_OPTIONS
                {
                    need.aux[usize::from(need.options)] = index;
                    need.options += 1;
                }
            }
        }
        need
    }
}

/// The needs of every event, prepared once.
struct Needs {
    needs: [Need; MAX_EVENTS],
    len: usize,
}

impl Needs {
    fn new<'a>(target: &Target, events: &'a [EventDesc]) -> Result<Needs, Error<'a>> {
        if events.len() > MAX_EVENTS {
            return Err(Error::TooMany {
                given: events.len(),
            });
        }
        let mut needs = [Need::default(); MAX_EVENTS];
        for (n, e) in needs.iter_mut().zip(events) {
            *n = Need::of(target, e);
        }
        Ok(Needs {
            needs,
            len: events.len(),
        })
    }

    fn all(&self) -> u64 {
        bits_below(self.len)
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

/// Counter slot (0..64) and auxiliary choice (index into `Need::aux`) per event.
#[derive(Clone, Copy)]
struct Assignment {
    slot: [u8; MAX_EVENTS],
    choice: [u8; MAX_EVENTS],
}

impl Assignment {
    const EMPTY: Assignment = Assignment {
        slot: [u8::MAX; MAX_EVENTS],
        choice: [0; MAX_EVENTS],
    };
}

/// Matches the events of `set` to counters; on success `out.slot` holds each one's slot.
fn match_counters(needs: &[Need], set: u64, out: &mut Assignment) -> bool {
    // owner[slot] = event + 1, 0 when free.
    let mut owner = [0u8; 64];
    for i in members(set) {
        let mut visited = 0u64;
        if !augment(needs, i, &mut owner, &mut visited) {
            return false;
        }
    }
    for (slot, &o) in owner.iter().enumerate() {
        if o != 0 {
            out.slot[usize::from(o - 1)] = slot as u8;
        }
    }
    // Prefer fixed counters: an event on a general-purpose counter moves to its free fixed one.
    for i in members(set) {
        let p = needs[i].prefer;
        if p != 0 && out.slot[i] < 32 {
            let f = p.trailing_zeros() as usize;
            if owner[f] == 0 {
                owner[usize::from(out.slot[i])] = 0;
                owner[f] = i as u8 + 1;
                out.slot[i] = f as u8;
            }
        }
    }
    true
}

/// Kuhn's augmenting path from event `i`: its fixed counter first, then general-purpose
/// counters from the lowest.
fn augment(needs: &[Need], i: usize, owner: &mut [u8; 64], visited: &mut u64) -> bool {
    let n = &needs[i];
    let order = [n.prefer, n.slots & !n.prefer];
    // A free counter first, so no other event is moved needlessly.
    for part in order {
        if let Some(s) = members(part & !*visited).find(|&s| owner[s] == 0) {
            *visited |= 1 << s;
            owner[s] = i as u8 + 1;
            return true;
        }
    }
    for part in order {
        for s in members(part & !*visited) {
            *visited |= 1 << s;
            let o = owner[s];
            if o == 0 || augment(needs, usize::from(o - 1), owner, visited) {
                owner[s] = i as u8 + 1;
                return true;
            }
        }
    }
    false
}

/// Chooses an auxiliary encoding for each event of `set` that has one, so that every MSR
/// holds one value; on success `out.choice` holds the choices.
fn match_aux(needs: &[Need], set: u64, out: &mut Assignment) -> bool {
    let mut order = [0u8; MAX_EVENTS];
    let mut len = 0;
    for i in members(set) {
        if needs[i].options > 0 {
            order[len] = i as u8;
            len += 1;
        }
    }
    let mut held = [(0u32, 0u64); MAX_HELD];
    aux_search(needs, &order[..len], &mut held, 0, out)
}

fn aux_search(
    needs: &[Need],
    order: &[u8],
    held: &mut [(u32, u64); MAX_HELD],
    nheld: usize,
    out: &mut Assignment,
) -> bool {
    let Some((&first, rest)) = order.split_first() else {
        return true;
    };
    let i = usize::from(first);
    let n = &needs[i];
    let options = &n.aux[..usize::from(n.options)];
    // An MSR already holding the value costs nothing: take it, no other choice is better.
    for (o, &addr) in options.iter().enumerate() {
        if held[..nheld].contains(&(addr, n.value)) {
            out.choice[i] = o as u8;
            return aux_search(needs, rest, held, nheld, out);
        }
    }
    if nheld == MAX_HELD {
        return false;
    }
    for (o, &addr) in options.iter().enumerate() {
        if held[..nheld].iter().any(|&(a, _)| a == addr) {
            continue;
        }
        held[nheld] = (addr, n.value);
        out.choice[i] = o as u8;
        if aux_search(needs, rest, held, nheld + 1, out) {
            return true;
        }
    }
    false
}

fn feasible(needs: &[Need], set: u64, out: &mut Assignment) -> bool {
    match_counters(needs, set, out) && match_aux(needs, set, out)
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

    /// The counter of event `index` (of the list given); a general-purpose counter 255 for an
    /// index it does not hold.
    pub fn counter(&self, index: usize) -> Counter {
        slot_counter(self.assignment.slot.get(index).copied().unwrap_or(u8::MAX) & 63)
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

/// Why a list cannot be scheduled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error<'a> {
    /// The events cannot share the PMU.
    Conflict(Conflict<'a>),
    /// More events than one call takes.
    TooMany {
        /// How many were given.
        given: usize,
    },
}

impl fmt::Display for Error<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Conflict(c) => c.fmt(f),
            Error::TooMany { given } => write!(
                f,
                "{given} events given; one schedule takes at most {MAX_EVENTS}"
            ),
        }
    }
}

impl core::error::Error for Error<'_> {}

impl<'a> From<Conflict<'a>> for Error<'a> {
    fn from(c: Conflict<'a>) -> Self {
        Error::Conflict(c)
    }
}

/// Why the events of a [`Conflict`] cannot share the PMU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// No counter the target has counts the (one) event: it may use only general-purpose
    /// counters `gp` and fixed counter `fixed`, none of which the target has.
    NoCounter {
        /// The general-purpose counters the event may use.
        gp: u32,
        /// Its fixed counter.
        fixed: Option<u8>,
    },
    /// Between them the events may use only these counters, one fewer than there are events.
    Counters {
        /// General-purpose counters (bit n = counter n).
        gp: u32,
        /// Fixed counters.
        fixed: u32,
    },
    /// The events need more different values in their auxiliary MSRs (each holds one value)
    /// than the MSRs their encodings may use.
    AuxMsr {
        /// The MSRs (primary encodings' first), `msr_count` of them.
        msrs: [u32; MAX_OPTIONS],
        /// How many of `msrs` are used.
        msr_count: u8,
        /// The different values the events need, `value_count` of them (at most four kept).
        values: [u64; MAX_OPTIONS],
        /// How many different values there are.
        value_count: u8,
    },
}

/// A smallest set of events that cannot share the PMU, and why. Every event of it is needed:
/// without any one of them, the others fit.
#[derive(Clone, Copy)]
pub struct Conflict<'a> {
    /// The events (bit i = the i-th event of the list given).
    pub events: u64,
    /// Why.
    pub reason: Reason,
    generation: Generation,
    list: &'a [EventDesc],
}

impl<'a> Conflict<'a> {
    /// The indexes (in the list given) of the events, in order.
    pub fn indexes(&self) -> impl Iterator<Item = usize> + '_ {
        members(self.events)
    }

    /// How many events.
    pub fn len(&self) -> usize {
        self.events.count_ones() as usize
    }

    /// Never true: a conflict has at least one event.
    pub fn is_empty(&self) -> bool {
        self.events == 0
    }

    /// The names of the events, in order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        members(self.events).filter_map(|i| self.list.get(i).map(|e| e.name))
    }

    /// The register at MSR `address` (`MSR_OFFCORE_RSP_1`), when the generation has one.
    pub fn msr_name(&self, address: u32) -> Option<InstanceName> {
        msr_name(self.generation.registers(), address)
    }
}

impl PartialEq for Conflict<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.events == other.events && self.reason == other.reason
    }
}

impl Eq for Conflict<'_> {}

impl fmt::Debug for Conflict<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Conflict")
            .field("events", &ListNames(self, None))
            .field("reason", &self.reason)
            .finish()
    }
}

/// `A`, `A and B`, `A, B and C`: the events' names, or the labels given for them.
struct ListNames<'c, 'a>(&'c Conflict<'a>, Option<&'c [&'c str]>);

impl fmt::Debug for ListNames<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.names()).finish()
    }
}

impl fmt::Display for ListNames<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        for (k, i) in self.0.indexes().enumerate() {
            if k > 0 {
                f.write_str(if k + 1 == n { " and " } else { ", " })?;
            }
            let label = self.1.and_then(|l| l.get(i).copied());
            let name = self.0.list.get(i).map_or("?", |e| e.name);
            f.write_str(label.unwrap_or(name))?;
        }
        Ok(())
    }
}

/// `general-purpose counters 0-3 and fixed counter 1`.
struct Counters {
    gp: u32,
    fixed: u32,
}

fn ranges(f: &mut fmt::Formatter<'_>, mask: u32) -> fmt::Result {
    let mut first = true;
    let mut n = 0u32;
    while n < 32 {
        if mask & (1 << n) == 0 {
            n += 1;
            continue;
        }
        let start = n;
        while n + 1 < 32 && mask & (1 << (n + 1)) != 0 {
            n += 1;
        }
        if !first {
            f.write_str(",")?;
        }
        first = false;
        if n == start {
            write!(f, "{start}")?;
        } else {
            write!(f, "{start}-{n}")?;
        }
        n += 1;
    }
    Ok(())
}

impl fmt::Display for Counters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |m: u32| if m.count_ones() == 1 { "" } else { "s" };
        if self.gp != 0 {
            write!(f, "general-purpose counter{} ", plural(self.gp))?;
            ranges(f, self.gp)?;
        }
        if self.fixed != 0 {
            if self.gp != 0 {
                f.write_str(" and ")?;
            }
            write!(f, "fixed counter{} ", plural(self.fixed))?;
            ranges(f, self.fixed)?;
        }
        if self.gp == 0 && self.fixed == 0 {
            f.write_str("no counter")?;
        }
        Ok(())
    }
}

fn msr_label(f: &mut fmt::Formatter<'_>, address: u32, name: Option<InstanceName>) -> fmt::Result {
    match name {
        Some(n) => write!(f, "{n} ({address:#x})"),
        None => write!(f, "MSR {address:#x}"),
    }
}

/// A [`Conflict`]'s message with the events named by the caller's labels
/// ([`Conflict::labelled`]).
#[derive(Debug)]
pub struct Labelled<'c, 'a> {
    conflict: &'c Conflict<'a>,
    labels: &'c [&'c str],
}

impl fmt::Display for Labelled<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.conflict
            .message(f, ListNames(self.conflict, Some(self.labels)))
    }
}

impl<'a> Conflict<'a> {
    /// The message, with event `i` called `labels[i]` (what the user typed, modifiers and
    /// all) instead of its name.
    pub fn labelled<'c>(&'c self, labels: &'c [&'c str]) -> Labelled<'c, 'a> {
        Labelled {
            conflict: self,
            labels,
        }
    }
}

impl fmt::Display for Conflict<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.message(f, ListNames(self, None))
    }
}

impl Conflict<'_> {
    fn message(&self, f: &mut fmt::Formatter<'_>, names: ListNames<'_, '_>) -> fmt::Result {
        let n = self.len();
        match self.reason {
            Reason::NoCounter { gp, fixed } => match fixed {
                Some(k) if gp == 0 => write!(
                    f,
                    "{names} needs fixed counter {k}, which this PMU does not have"
                ),
                _ => {
                    let fixed = fixed.map_or(0, |k| 1u32.checked_shl(k.into()).unwrap_or(0));
                    write!(
                        f,
                        "{names} may be counted only on {}, none of which this PMU has",
                        Counters { gp, fixed }
                    )
                }
            },
            Reason::Counters { gp, fixed } => {
                let c = Counters { gp, fixed };
                let slots = gp.count_ones() + fixed.count_ones();
                if gp == 0 && fixed.count_ones() == 1 {
                    let k = fixed.trailing_zeros();
                    let both = if n == 2 { "both " } else { "all " };
                    write!(
                        f,
                        "{names} {both}need fixed counter {k}, which counts one event at a time"
                    )
                } else {
                    let such = match slots {
                        1 => "one such event already uses it",
                        2 => "two such events already use them",
                        3 => "three such events already use them",
                        4 => "four such events already use them",
                        _ => "",
                    };
                    if such.is_empty() {
                        write!(
                            f,
                            "{names} may be counted only on {c}: {n} events for {slots} counters"
                        )
                    } else {
                        write!(f, "{names} may be counted only on {c}; {such}")
                    }
                }
            }
            Reason::AuxMsr {
                msrs,
                msr_count,
                values,
                value_count,
            } => {
                let m = usize::from(msr_count).min(MAX_OPTIONS);
                let shown = usize::from(value_count).min(MAX_OPTIONS);
                let both = if n == 2 { "both " } else { "" };
                write!(f, "{names} {both}need ")?;
                msr_label(f, msrs[0], self.msr_name(msrs[0]))?;
                write!(f, " with different values (")?;
                for (k, v) in values[..shown].iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v:#x}")?;
                }
                f.write_str(")")?;
                if m > 1 {
                    f.write_str(" and the alternative encoding's ")?;
                    for (k, &a) in msrs[1..m].iter().enumerate() {
                        if k > 0 {
                            f.write_str(", ")?;
                        }
                        msr_label(f, a, self.msr_name(a))?;
                    }
                    f.write_str(" is taken")?;
                }
                Ok(())
            }
        }
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

/// A minimal infeasible subset of `set` (deletion filter: drop each event, last first, when
/// the rest still does not fit), with its reason.
fn conflict<'a>(target: &Target, needs: &Needs, events: &'a [EventDesc], set: u64) -> Conflict<'a> {
    let needs_slice = &needs.needs[..needs.len];
    let mut scratch = Assignment::EMPTY;
    let mut s = set;
    let mut rest = set;
    while rest != 0 {
        let i = 63 - rest.leading_zeros() as usize;
        rest &= !(1 << i);
        let without = s & !(1 << i);
        if !feasible(needs_slice, without, &mut scratch) {
            s = without;
        }
    }
    let reason = if !match_counters(needs_slice, s, &mut scratch) {
        let mut slots = 0u64;
        for i in members(s) {
            slots |= needs_slice[i].slots;
        }
        if s.count_ones() == 1 && slots == 0 {
            let e = &events[s.trailing_zeros() as usize];
            Reason::NoCounter {
                gp: e.counters,
                fixed: e.fixed,
            }
        } else {
            Reason::Counters {
                gp: slots as u32,
                fixed: (slots >> 32) as u32,
            }
        }
    } else {
        aux_reason(needs_slice, s)
    };
    Conflict {
        events: s,
        reason,
        generation: target.generation,
        list: events,
    }
}

fn aux_reason(needs: &[Need], s: u64) -> Reason {
    let mut msrs = [0u32; MAX_OPTIONS];
    let mut msr_count = 0usize;
    let mut values = [0u64; MAX_OPTIONS];
    let mut value_count = 0usize;
    let mut seen = [0u64; MAX_EVENTS];
    for i in members(s) {
        let n = &needs[i];
        for &a in &n.aux[..usize::from(n.options)] {
            if !msrs[..msr_count].contains(&a) && msr_count < MAX_OPTIONS {
                msrs[msr_count] = a;
                msr_count += 1;
            }
        }
        if !seen[..value_count].contains(&n.value) {
            seen[value_count] = n.value;
            if value_count < MAX_OPTIONS {
                values[value_count] = n.value;
            }
            value_count += 1;
        }
    }
    Reason::AuxMsr {
        msrs,
        msr_count: msr_count as u8,
        values,
        value_count: value_count.min(255) as u8,
    }
}

/// `events` divided into the fewest groups that each fit `target` ([`split`]).
#[derive(Clone, Copy)]
pub struct Split<'a> {
    target: Target,
    events: &'a [EventDesc],
    needs_group: [u8; MAX_EVENTS],
    count: usize,
    exact: bool,
}

impl<'a> Split<'a> {
    /// How many groups.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True for an empty list.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// True when the group count is known to be the smallest possible; false when the list was
    /// longer than [`EXACT_SPLIT_LIMIT`] or the search gave up, and the groups were placed
    /// first-fit.
    pub fn exact(&self) -> bool {
        self.exact
    }

    /// The group of event `index`.
    pub fn group_of(&self, index: usize) -> Option<usize> {
        (index < self.events.len()).then(|| usize::from(self.needs_group[index]))
    }

    /// The events of group `k` (bit i = event i).
    pub fn members(&self, k: usize) -> u64 {
        let mut set = 0;
        for i in 0..self.events.len() {
            if usize::from(self.needs_group[i]) == k {
                set |= 1 << i;
            }
        }
        set
    }

    /// Group `k`, scheduled.
    pub fn group(&self, k: usize) -> Option<Schedule<'a>> {
        if k >= self.count {
            return None;
        }
        let needs = Needs::new(&self.target, self.events).ok()?;
        schedule_set(&self.target, &needs, self.events, self.members(k)).ok()
    }

    /// Every group, scheduled.
    pub fn groups(&self) -> impl Iterator<Item = Schedule<'a>> + '_ {
        (0..self.count).filter_map(|k| self.group(k))
    }
}

impl fmt::Debug for Split<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Split")
            .field("exact", &self.exact)
            .field("groups", &DebugGroups(self))
            .finish()
    }
}

struct DebugGroups<'s, 'a>(&'s Split<'a>);

impl fmt::Debug for DebugGroups<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.groups()).finish()
    }
}

/// Divides `events` into the fewest groups that each fit `target`; see [`split_grouped`].
pub fn split<'a>(target: &Target, events: &'a [EventDesc]) -> Result<Split<'a>, Error<'a>> {
    let mut units = [0u8; MAX_EVENTS];
    for (k, u) in units.iter_mut().enumerate() {
        *u = k as u8;
    }
    split_grouped(target, events, &units[..events.len().min(MAX_EVENTS)])
}

/// Divides `events` into the fewest groups that each fit `target`, keeping together the
/// events that `groups` gives the same number (`groups[i]` for event `i`; a shorter slice
/// leaves the rest each on its own). Exact for up to [`EXACT_SPLIT_LIMIT`] units (an event,
/// or a user-given group), by a search that starts at a lower bound (Hall's condition on
/// every event's counters); past that, or when the search has made 200,000 feasibility
/// checks, it keeps the best split found, first-fit with the most constrained events first,
/// and [`Split::exact`] says so. Fails when a user-given group, or one event, does not fit
/// on its own (the [`Conflict`] names it).
pub fn split_grouped<'a>(
    target: &Target,
    events: &'a [EventDesc],
    groups: &[u8],
) -> Result<Split<'a>, Error<'a>> {
    let needs = Needs::new(target, events)?;
    let ns = &needs.needs[..needs.len];
    // Units: sets of events that go together.
    let mut units = [0u64; MAX_EVENTS];
    let mut unit_count = 0usize;
    let mut unit_of_label = [u8::MAX; 256];
    for i in 0..events.len() {
        let label = groups.get(i).copied();
        let u = match label {
            Some(l) if unit_of_label[usize::from(l)] != u8::MAX => {
                usize::from(unit_of_label[usize::from(l)])
            }
            _ => {
                if let Some(l) = label {
                    unit_of_label[usize::from(l)] = unit_count as u8;
                }
                unit_count += 1;
                unit_count - 1
            }
        };
        units[u] |= 1 << i;
    }
    let mut scratch = Assignment::EMPTY;
    for &u in &units[..unit_count] {
        if !feasible(ns, u, &mut scratch) {
            return Err(Error::Conflict(conflict(target, &needs, events, u)));
        }
    }
    // Most constrained first: fewest counters, then auxiliary MSRs, then larger units.
    let key = |u: u64| {
        let mut slots = 0u64;
        let mut aux = false;
        for i in members(u) {
            slots |= ns[i].slots;
            aux |= ns[i].options > 0;
        }
        (
            slots.count_ones() as i32 - u.count_ones() as i32,
            !aux,
            u64::MAX - u64::from(u.count_ones()),
        )
    };
    let order = &mut units[..unit_count];
    order.sort_unstable_by_key(|&u| (key(u), u.trailing_zeros()));

    // First fit: an upper bound, and the answer past the exact limit.
    let mut best = [0u64; MAX_EVENTS];
    let mut best_count = 0usize;
    for &u in order.iter() {
        let home = (0..best_count).find(|&g| feasible(ns, best[g] | u, &mut scratch));
        match home {
            Some(g) => best[g] |= u,
            None => {
                best[best_count] = u;
                best_count += 1;
            }
        }
    }
    let lower = lower_bound(ns, needs.all());
    let mut exact = unit_count <= EXACT_SPLIT_LIMIT;
    if exact && best_count > lower {
        let mut budget = SPLIT_BUDGET;
        let mut k = lower;
        while k < best_count {
            let mut bins = [0u64; MAX_EVENTS];
            match search(ns, order, 0, &mut bins, 0, k, &mut budget) {
                Some(true) => {
                    best = bins;
                    best_count = k;
                    break;
                }
                Some(false) => k += 1,
                None => {
                    exact = false;
                    break;
                }
            }
        }
    }
    let mut needs_group = [0u8; MAX_EVENTS];
    // Groups numbered by their first event, so the output follows the list's order.
    let mut bins = best;
    bins[..best_count].sort_unstable_by_key(|b| b.trailing_zeros());
    for (g, &b) in bins[..best_count].iter().enumerate() {
        for i in members(b) {
            needs_group[i] = g as u8;
        }
    }
    Ok(Split {
        target: *target,
        events,
        needs_group,
        count: best_count,
        exact,
    })
}

/// A lower bound on the group count: for each event's counters `C`, the events that may use
/// only counters of `C` need `ceil(count / |C|)` groups (and the union of all).
fn lower_bound(needs: &[Need], set: u64) -> usize {
    let mut bound = usize::from(set != 0);
    let mut candidates = [0u64; MAX_EVENTS + 1];
    let mut len = 0;
    let mut all = 0u64;
    for i in members(set) {
        all |= needs[i].slots;
        if !candidates[..len].contains(&needs[i].slots) {
            candidates[len] = needs[i].slots;
            len += 1;
        }
    }
    candidates[len] = all;
    len += 1;
    for &c in &candidates[..len] {
        let width = c.count_ones() as usize;
        if width == 0 {
            continue;
        }
        let within = members(set).filter(|&i| needs[i].slots & !c == 0).count();
        bound = bound.max(within.div_ceil(width));
    }
    bound
}

/// Places units `order[at..]` into `k` bins (`used` of them opened); `None` when the budget
/// runs out.
fn search(
    needs: &[Need],
    order: &[u64],
    at: usize,
    bins: &mut [u64; MAX_EVENTS],
    used: usize,
    k: usize,
    budget: &mut u32,
) -> Option<bool> {
    let Some(&u) = order.get(at) else {
        return Some(true);
    };
    let mut scratch = Assignment::EMPTY;
    for g in 0..used {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        if feasible(needs, bins[g] | u, &mut scratch) {
            bins[g] |= u;
            if search(needs, order, at + 1, bins, used, k, budget)? {
                return Some(true);
            }
            bins[g] &= !u;
        }
    }
    if used < k {
        bins[used] = u;
        if search(needs, order, at + 1, bins, used + 1, k, budget)? {
            return Some(true);
        }
        bins[used] = 0;
    }
    Some(false)
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
