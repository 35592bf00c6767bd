//! The feasibility of a set: counters by bipartite matching (augmenting paths), auxiliary
//! MSRs by a small search over the encodings, and the minimal conflict of a set that does not
//! fit.

use super::conflict::{Conflict, Error, Reason};
use super::{MAX_EVENTS, MAX_HELD, MAX_OPTIONS, Target, bits_below, members};
use crate::{CounterMask, EventDesc};

/// The slots of the fixed counters (32 and up).
const FIXED_SLOTS: u64 = !0u64 << 32;

/// What one event needs, within the target.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Need {
    /// Slots it may use.
    pub(super) slots: u64,
    /// The fixed counter's slot, when it may use one (tried first).
    pub(super) prefer: u64,
    /// Auxiliary MSR addresses of its encodings (primary first), `options` of them.
    pub(super) aux: [u32; MAX_OPTIONS],
    pub(super) options: u8,
    /// The auxiliary value.
    pub(super) value: u64,
    /// It must count alone: no other event on a general-purpose counter meanwhile.
    pub(super) alone: bool,
}

/// The counters event `e` may use on any PMU: its own, within those that sample it as
/// precisely as it asks ([`EventDesc::precise`]): 1 or 2, its PEBS counters (where the
/// definitions state none, every counter when it is a PEBS event, else none); 3, its PDist
/// counters (where they state none, as for 2).
/// With `ht_off`, its own general counters are those it may use while its core runs one
/// thread ([`EventDesc::counters_ht_off`], where the definitions state them).
pub(super) fn demand(e: &EventDesc, ht_off: bool) -> CounterMask {
    let fixed = e
        .fixed
        .map_or(0, |f| 1u32.checked_shl(f.into()).unwrap_or(0));
    let gp = match e.counters_ht_off {
        Some(gp) if ht_off => gp,
        _ => e.counters,
    };
    let own = CounterMask::new(gp, fixed);
    if e.precise == 0 {
        return own;
    }
    let pebs = e.pebs_counters.or((e.pebs > 0).then_some(own));
    let precise = if e.precise >= 3 {
        e.pdist_counters.or(pebs)
    } else {
        pebs
    };
    let p = precise.unwrap_or_default();
    CounterMask::new(own.gp & p.gp, own.fixed & p.fixed)
}

impl Need {
    fn of(target: &Target, e: &EventDesc) -> Need {
        let want = demand(e, target.ht_off);
        let mut need = Need {
            slots: u64::from(want.gp & target.gp),
            alone: e.taken_alone && target.taken_alone,
            ..Need::default()
        };
        let fixed = want.fixed & target.fixed;
        if fixed != 0 {
            need.prefer = 1 << (32 + fixed.trailing_zeros());
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
pub(super) struct Needs {
    pub(super) needs: [Need; MAX_EVENTS],
    pub(super) len: usize,
}

impl Needs {
    pub(super) fn new<'a>(target: &Target, events: &'a [EventDesc]) -> Result<Needs, Error<'a>> {
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

    pub(super) fn all(&self) -> u64 {
        bits_below(self.len)
    }
}

/// Counter slot (0..64) and auxiliary choice (index into `Need::aux`) per event.
#[derive(Clone, Copy)]
pub(super) struct Assignment {
    pub(super) slot: [u8; MAX_EVENTS],
    pub(super) choice: [u8; MAX_EVENTS],
}

impl Assignment {
    pub(super) const EMPTY: Assignment = Assignment {
        slot: [u8::MAX; MAX_EVENTS],
        choice: [0; MAX_EVENTS],
    };
}

/// The events of `set` that must count alone.
fn alone_in(needs: &[Need], set: u64) -> u64 {
    members(set)
        .filter(|&i| needs[i].alone)
        .fold(0, |m, i| m | 1 << i)
}

/// Matches the events of `set` to counters; on success `out.slot` holds each one's slot.
pub(super) fn match_counters(needs: &[Need], set: u64, out: &mut Assignment) -> bool {
    match_counters_with(needs, set, out, true)
}

/// As [`match_counters`]; `honour_alone` false ignores that events must count alone.
pub(super) fn match_counters_with(
    needs: &[Need],
    set: u64,
    out: &mut Assignment,
    honour_alone: bool,
) -> bool {
    let alone = if honour_alone {
        alone_in(needs, set)
    } else {
        0
    };
    if alone.count_ones() > 1 {
        return false;
    }
    // With an event that counts alone, the others may use fixed counters only.
    let mut only = [u64::MAX; MAX_EVENTS];
    if alone != 0 {
        for i in members(set & !alone) {
            only[i] = FIXED_SLOTS;
        }
    }
    // owner[slot] = event + 1, 0 when free.
    let mut owner = [0u8; 64];
    for i in members(set) {
        let mut visited = 0u64;
        if !augment(needs, &only, i, &mut owner, &mut visited) {
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
fn augment(
    needs: &[Need],
    only: &[u64; MAX_EVENTS],
    i: usize,
    owner: &mut [u8; 64],
    visited: &mut u64,
) -> bool {
    let n = &needs[i];
    let order = [n.prefer & only[i], n.slots & !n.prefer & only[i]];
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
            if o == 0 || augment(needs, only, usize::from(o - 1), owner, visited) {
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

pub(super) fn feasible(needs: &[Need], set: u64, out: &mut Assignment) -> bool {
    match_counters(needs, set, out) && match_aux(needs, set, out)
}

/// A minimal infeasible subset of `set` (deletion filter: drop each event, last first, when
/// the rest still does not fit), with its reason.
pub(super) fn conflict<'a>(
    target: &Target,
    needs: &Needs,
    events: &'a [EventDesc],
    set: u64,
) -> Conflict<'a> {
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
            no_counter(&events[s.trailing_zeros() as usize], target.ht_off)
        } else if match_counters_with(needs_slice, s, &mut scratch, false) {
            Reason::TakenAlone {
                alone: alone_in(needs_slice, s),
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

/// Why one event has no counter on the target.
fn no_counter(e: &EventDesc, ht_off: bool) -> Reason {
    let want = demand(e, ht_off);
    if e.precise > 0 && want.is_empty() {
        return Reason::NotPrecise { level: e.precise };
    }
    Reason::NoCounter {
        gp: want.gp,
        fixed: (want.fixed != 0).then(|| want.fixed.trailing_zeros() as u8),
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
