//! Dividing a list into the fewest groups that each fit ([`split`], [`split_grouped`]).

use super::conflict::Error;
use super::matching::{Assignment, Need, Needs, conflict, feasible};
use super::{EXACT_SPLIT_LIMIT, MAX_EVENTS, SPLIT_BUDGET, Schedule, Target, members, schedule_set};
use crate::EventDesc;
use core::fmt;

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
/// every event's counters, the auxiliary MSRs' values, the events that count alone); past
/// that, or when the search has made 200,000 feasibility
/// checks, it keeps the best split found, first-fit with the most constrained events first,
/// and [`Split::exact`] says so. Fails when a user-given group, or one event, does not fit
/// on its own (the [`Conflict`](super::Conflict) names it).
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
    // Most constrained first: events that count alone, fewest counters, then auxiliary MSRs,
    // then larger units.
    let key = |u: u64| {
        let mut slots = 0u64;
        let mut aux = false;
        let mut alone = false;
        for i in members(u) {
            slots |= ns[i].slots;
            aux |= ns[i].options > 0;
            alone |= ns[i].alone;
        }
        (
            !alone,
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

/// A lower bound on the group count: [`counter_bound`] and [`aux_bound`], and the events that
/// count alone, one group each, beside the groups of the events that need a general-purpose
/// counter (which cannot join them).
fn lower_bound(needs: &[Need], set: u64) -> usize {
    let alone = members(set).filter(|&i| needs[i].alone).count();
    let general = members(set)
        .filter(|&i| !needs[i].alone && needs[i].slots >> 32 == 0)
        .fold(0u64, |m, i| m | 1 << i);
    let beside = if alone == 0 {
        0
    } else {
        alone + counter_bound(needs, general).max(aux_bound(needs, general))
    };
    counter_bound(needs, set)
        .max(aux_bound(needs, set))
        .max(beside)
}

/// For each event's counters `C`, the events that may use only counters of `C` need
/// `ceil(count / |C|)` groups (and the union of all).
fn counter_bound(needs: &[Need], set: u64) -> usize {
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

/// A lower bound from the auxiliary MSRs: the events whose encodings may use only the MSRs
/// of one event's encodings, `m` of them, with `v` different values, need `ceil(v / m)`
/// groups (a group holds one value per MSR).
fn aux_bound(needs: &[Need], set: u64) -> usize {
    let mut bound = 0;
    for i in members(set) {
        let n = &needs[i];
        let msrs = &n.aux[..usize::from(n.options)];
        if msrs.is_empty() {
            continue;
        }
        let mut values = [0u64; MAX_EVENTS];
        let mut count = 0;
        for j in members(set) {
            let o = &needs[j];
            let within = o.options > 0
                && o.aux[..usize::from(o.options)]
                    .iter()
                    .all(|a| msrs.contains(a));
            if within && !values[..count].contains(&o.value) {
                values[count] = o.value;
                count += 1;
            }
        }
        bound = bound.max(count.div_ceil(msrs.len()));
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
