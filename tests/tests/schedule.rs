//! Counter scheduling (`pmu_regs::schedule`, issue 32).
//!
//! - Properties, on random sets of 1 to 12 events of Skylake, Ice Lake, Sapphire Rapids,
//!   Gracemont (Alder Lake's E-core) and Zen 4, drawn half from the events with a restriction
//!   (fewer counters, a fixed counter, an auxiliary MSR), sometimes on fewer counters than the
//!   generation defines (as CPUID may report), one event in four asking to be sampled
//!   precisely (`p` to `ppp`): every schedule is valid (each event on a counter it may use at
//!   its precision, no counter twice, one value per auxiliary MSR, each encoding one of the
//!   event's own, nothing but fixed counters beside an event that counts alone); every conflict names events that cannot share the PMU, checked by an
//!   oracle written here (Hall's condition over every subset, and every choice of auxiliary
//!   encodings), and removing any one of them makes the rest fit; every split's groups fit,
//!   and for up to 8 events the group count is the smallest (a brute force over every subset).
//! - Facts from the Linux kernel's constraint tables, as the run-time records give them.
//! - The conflicts of the issue, with their messages.

use pmu_regs::EventDesc;
use pmu_regs::arch::{Counter, Generation};
use pmu_regs::schedule::{self, Reason, Target, schedule, split, split_grouped};
use proptest::prelude::*;
use std::collections::HashMap;

/// SplitMix64: the values of one case, from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A model's events: all of them, and those with a restriction.
struct Pool {
    target: Target,
    all: Vec<EventDesc>,
    restricted: Vec<EventDesc>,
}

impl Pool {
    fn new(g: Generation) -> Pool {
        let target = Target::of(g);
        let all: Vec<EventDesc> = g.model_events().iter().collect();
        assert!(!all.is_empty(), "{g}: no events");
        let restricted = (all.iter())
            .filter(|e| {
                let few = e.counters & target.gp != target.gp;
                e.fixed.is_some() || e.msr.is_some() || few || e.taken_alone
            })
            .copied()
            .collect();
        Pool {
            target,
            all,
            restricted,
        }
    }

    /// `n` events, half of them restricted when there are such, and the target, on fewer
    /// counters one time in four.
    fn draw(&self, rng: &mut Rng, n: usize) -> (Target, Vec<EventDesc>) {
        let events = (0..n)
            .map(|_| {
                let e = if !self.restricted.is_empty() && rng.next() & 1 == 0 {
                    self.restricted[rng.below(self.restricted.len())]
                } else {
                    self.all[rng.below(self.all.len())]
                };
                match rng.below(12) {
                    k @ 0..=2 => e.with_precise(k as u8 + 1),
                    _ => e,
                }
            })
            .collect();
        let mut target = (self.target)
            .with_taken_alone(rng.below(4) != 0)
            .with_ht_off(rng.below(3) == 0);
        if rng.below(4) == 0 {
            let gp = target.gp & (rng.next() as u32 | 1);
            let fixed = target.fixed & rng.next() as u32;
            target = target.with_counters(gp, fixed);
        }
        (target, events)
    }
}

fn pools() -> &'static [Pool] {
    static POOLS: std::sync::OnceLock<Vec<Pool>> = std::sync::OnceLock::new();
    POOLS.get_or_init(|| {
        [
            Generation::IntelSkylake,
            Generation::IntelIcelake,
            Generation::IntelSapphirerapids,
            Generation::IntelAlderlakeGracemont,
            Generation::AmdZen4,
        ]
        .into_iter()
        .map(Pool::new)
        .collect()
    })
}

/// The counters event `e` may use on `target`: (general-purpose mask, fixed mask); its
/// counters with Hyper-Threading off when the target's core runs one thread. Asked to
/// be sampled precisely, it may use only its PEBS counters (a PEBS event's own counters when
/// the lists state none), at precision 3 its PDist counters (its PEBS ones when none stated).
fn allowed(target: &Target, e: &EventDesc) -> (u32, u32) {
    let mut fixed = match e.fixed {
        Some(f) if f < 32 => (1u32 << f) & target.fixed,
        _ => 0,
    };
    let own = match e.counters_ht_off {
        Some(gp) if target.ht_off => gp,
        _ => e.counters,
    };
    let mut gp = own & target.gp;
    if e.precise > 0 {
        let pebs = match e.pebs_counters {
            Some(m) => Some((m.gp, m.fixed)),
            None if e.pebs > 0 => Some((u32::MAX, u32::MAX)),
            None => None,
        };
        let pdist = e.pdist_counters.map(|m| (m.gp, m.fixed));
        let set = if e.precise >= 3 { pdist.or(pebs) } else { pebs };
        let (g, f) = set.unwrap_or((0, 0));
        gp &= g;
        fixed &= f;
    }
    (gp, fixed)
}

/// [`allowed`] within `set`, where an event that counts alone leaves the others only the
/// fixed counters; `None` when two events of `set` count alone.
fn allowed_in(target: &Target, events: &[EventDesc], set: &[usize]) -> Option<Vec<(u32, u32)>> {
    let alone: Vec<usize> = (set.iter().copied())
        .filter(|&i| target.taken_alone && events[i].taken_alone)
        .collect();
    if alone.len() > 1 {
        return None;
    }
    let masks = set.iter().map(|&i| {
        let (gp, fixed) = allowed(target, &events[i]);
        if alone.is_empty() || alone[0] == i {
            (gp, fixed)
        } else {
            (0, fixed)
        }
    });
    Some(masks.collect())
}

/// The auxiliary MSRs event `e`'s encodings may use, primary first, with their (event, umask).
fn aux_options(e: &EventDesc) -> Vec<(u32, u16, u8)> {
    let Some(m) = e.msr else { return vec![] };
    let mut v = vec![(m.index, e.event, e.umask)];
    for a in e.alternatives {
        if let Some(i) = a.msr_index {
            v.push((i, a.event, a.umask));
        }
    }
    v
}

/// The oracle: Hall's condition over every subset of `set` (counters), and a brute force over
/// the encodings (auxiliary MSRs).
fn counters_fit(target: &Target, events: &[EventDesc], set: &[usize]) -> bool {
    allowed_in(target, events, set).is_some_and(|masks| hall(&masks))
}

/// Hall's condition: every subset of the events may use at least as many counters.
fn hall(masks: &[(u32, u32)]) -> bool {
    (1u32..1 << masks.len()).all(|sub| {
        let (mut gp, mut fixed) = (0u32, 0u32);
        for (k, &(g, f)) in masks.iter().enumerate() {
            if sub & (1 << k) != 0 {
                gp |= g;
                fixed |= f;
            }
        }
        gp.count_ones() + fixed.count_ones() >= sub.count_ones()
    })
}

/// [`counters_fit`] as if no event had to count alone.
fn counters_fit_together(target: &Target, events: &[EventDesc], set: &[usize]) -> bool {
    let masks: Vec<(u32, u32)> = set.iter().map(|&i| allowed(target, &events[i])).collect();
    hall(&masks)
}

fn aux_fits(events: &[EventDesc], set: &[usize]) -> bool {
    fn go(events: &[EventDesc], rest: &[usize], held: &mut HashMap<u32, u64>) -> bool {
        let Some((&i, rest)) = rest.split_first() else {
            return true;
        };
        let e = &events[i];
        let options = aux_options(e);
        if options.is_empty() {
            return go(events, rest, held);
        }
        let value = e.msr.unwrap().value;
        for (msr, _, _) in options {
            match held.get(&msr) {
                Some(&v) if v == value => {
                    if go(events, rest, held) {
                        return true;
                    }
                }
                Some(_) => {}
                None => {
                    held.insert(msr, value);
                    let ok = go(events, rest, held);
                    held.remove(&msr);
                    if ok {
                        return true;
                    }
                }
            }
        }
        false
    }
    go(events, set, &mut HashMap::new())
}

fn oracle_fits(target: &Target, events: &[EventDesc], set: &[usize]) -> bool {
    counters_fit(target, events, set) && aux_fits(events, set)
}

/// Every placement of `s` is valid, and it places exactly `set`.
fn check_schedule(
    target: &Target,
    events: &[EventDesc],
    s: &schedule::Schedule<'_>,
    set: &[usize],
) -> Result<(), TestCaseError> {
    let placed: Vec<usize> = s.iter().map(|p| p.index).collect();
    prop_assert_eq!(&placed, set);
    let mut used = Vec::new();
    let mut msrs: HashMap<u32, u64> = HashMap::new();
    let masks = allowed_in(target, events, set);
    prop_assert!(
        masks.is_some(),
        "two events that count alone placed together"
    );
    let masks = masks.unwrap_or_default();
    for (k, p) in s.iter().enumerate() {
        let e = &events[p.index];
        let (gp, fixed) = masks[k];
        match p.counter {
            Counter::Gp(n) => prop_assert!(gp & (1 << n) != 0, "{} on gp{n}", e.name),
            Counter::Fixed(n) => prop_assert!(fixed & (1 << n) != 0, "{} on fixed{n}", e.name),
        }
        // Linux's preference: a free fixed counter before a general-purpose one.
        if fixed != 0 && matches!(p.counter, Counter::Gp(_)) {
            let f = fixed.trailing_zeros();
            prop_assert!(
                s.iter().any(|q| q.counter == Counter::Fixed(f)),
                "{} on a general-purpose counter while fixed{f} is free",
                e.name
            );
        }
        prop_assert!(!used.contains(&p.counter), "{:?} twice", p.counter);
        used.push(p.counter);
        match (e.msr, p.event.msr) {
            (None, None) => prop_assert_eq!((p.event.event, p.event.umask), (e.event, e.umask)),
            (Some(want), Some(got)) => {
                prop_assert_eq!(got.value, want.value);
                let encoding = (got.index, p.event.event, p.event.umask);
                prop_assert!(
                    aux_options(e).contains(&encoding),
                    "{} as {encoding:x?}",
                    e.name
                );
                let held = *msrs.entry(got.index).or_insert(got.value);
                prop_assert_eq!(held, got.value, "MSR {:#x} given two values", got.index);
            }
            other => prop_assert!(false, "{}: auxiliary MSR {other:?}", e.name),
        }
    }
    Ok(())
}

/// `schedule` of `events` is either valid or a true, minimal conflict.
fn check_case(target: &Target, events: &[EventDesc]) -> Result<(), TestCaseError> {
    let all: Vec<usize> = (0..events.len()).collect();
    match schedule(target, events) {
        Ok(s) => check_schedule(target, events, &s, &all)?,
        Err(schedule::Error::Conflict(c)) => {
            let members: Vec<usize> = c.indexes().collect();
            prop_assert!(!members.is_empty());
            prop_assert!(
                !oracle_fits(target, events, &members),
                "conflict {c} names events that fit"
            );
            match c.reason {
                Reason::Counters { .. } | Reason::NoCounter { .. } => {
                    prop_assert!(!counters_fit_together(target, events, &members), "{c}")
                }
                Reason::TakenAlone { alone } => {
                    prop_assert!(counters_fit_together(target, events, &members), "{c}");
                    prop_assert!(!counters_fit(target, events, &members), "{c}");
                    prop_assert!(members.iter().any(|&i| alone & (1 << i) != 0), "{c}");
                }
                Reason::NotPrecise { level } => {
                    prop_assert_eq!(members.len(), 1);
                    let e = &events[members[0]];
                    prop_assert_eq!(level, e.precise);
                    prop_assert_eq!(allowed(&Target::of(target.generation), e), (0, 0));
                }
                Reason::AuxMsr { .. } => {
                    prop_assert!(counters_fit(target, events, &members), "{c}");
                    prop_assert!(!aux_fits(events, &members), "{c}");
                }
                other => prop_assert!(false, "a reason this test does not know: {other:?}"),
            }
            for &drop in &members {
                let rest: Vec<EventDesc> = (members.iter())
                    .filter(|&&i| i != drop)
                    .map(|&i| events[i])
                    .collect();
                let idx: Vec<usize> = (0..rest.len()).collect();
                prop_assert!(oracle_fits(target, &rest, &idx), "{c}: not minimal");
                let s = schedule(target, &rest);
                prop_assert!(s.is_ok(), "{c}: without one, {:?}", s.err());
                check_schedule(target, &rest, &s.unwrap(), &idx)?;
            }
            prop_assert!(!c.to_string().is_empty());
        }
        Err(e) => prop_assert!(false, "{e}"),
    }
    Ok(())
}

/// Every group of the split fits; with `brute` (8 events at most), the count is the smallest.
fn check_split(target: &Target, events: &[EventDesc], brute: bool) -> Result<(), TestCaseError> {
    let singles_fit = (0..events.len()).all(|i| oracle_fits(target, events, &[i]));
    let sp = match split(target, events) {
        Ok(sp) => sp,
        Err(schedule::Error::Conflict(c)) => {
            prop_assert!(!singles_fit, "split refused {c}");
            prop_assert_eq!(c.len(), 1);
            return Ok(());
        }
        Err(e) => return Err(TestCaseError::fail(e.to_string())),
    };
    prop_assert!(singles_fit);
    prop_assert!(sp.exact());
    let mut seen = 0u64;
    for k in 0..sp.len() {
        let members: Vec<usize> = (0..events.len())
            .filter(|&i| sp.members(k) & (1 << i) != 0)
            .collect();
        prop_assert!(!members.is_empty());
        prop_assert!(oracle_fits(target, events, &members));
        let g = sp.group(k).expect("a group schedules");
        check_schedule(target, events, &g, &members)?;
        seen |= sp.members(k);
    }
    prop_assert_eq!(seen, (1u64 << events.len()) - 1);
    if brute {
        prop_assert_eq!(sp.len(), brute_force_groups(target, events));
    }
    Ok(())
}

/// The fewest groups, over every partition into subsets the oracle says fit.
fn brute_force_groups(target: &Target, events: &[EventDesc]) -> usize {
    let n = events.len();
    let full = (1usize << n) - 1;
    let fits: Vec<bool> = (0..=full)
        .map(|m| {
            let set: Vec<usize> = (0..n).filter(|&i| m & (1 << i) != 0).collect();
            oracle_fits(target, events, &set)
        })
        .collect();
    let mut best = vec![usize::MAX; full + 1];
    best[0] = 0;
    for m in 1..=full {
        let low = m & m.wrapping_neg();
        let mut sub = m;
        while sub != 0 {
            if sub & low != 0 && fits[sub] && best[m ^ sub] != usize::MAX {
                best[m] = best[m].min(best[m ^ sub] + 1);
            }
            sub = (sub - 1) & m;
        }
    }
    best[full]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

    /// 1-12 events: schedules valid, conflicts true and minimal, split groups fit.
    #[test]
    fn schedules_and_conflicts_hold(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        for pool in pools() {
            let n = 1 + rng.below(12);
            let (target, events) = pool.draw(&mut rng, n);
            check_case(&target, &events)?;
            check_split(&target, &events, false)?;
        }
    }

    /// Up to 8 events: the split is minimal.
    #[test]
    fn splits_are_minimal(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        for pool in pools() {
            let n = 1 + rng.below(8);
            let (target, events) = pool.draw(&mut rng, n);
            check_split(&target, &events, true)?;
        }
    }
}

fn ev(g: Generation, name: &str) -> EventDesc {
    g.model_event(name)
        .unwrap_or_else(|| panic!("{g}: no {name}"))
}

// Facts from the Linux kernel, arch/x86/events/intel/core.c: intel_skl_event_constraints and
// intel_skl_extra_regs (Skylake), intel_icl_event_constraints (Ice Lake),
// intel_spr_event_constraints and intel_spr_extra_regs (Sapphire Rapids).

#[test]
fn skylake_constraints_agree_with_the_kernel() {
    let g = Generation::IntelSkylake;
    // FIXED_EVENT_CONSTRAINT 0x00c0 -> 0, 0x003c -> 1, 0x0300 -> 2.
    for (name, fixed) in [
        ("INST_RETIRED.ANY", 0),
        ("CPU_CLK_UNHALTED.THREAD", 1),
        ("CPU_CLK_UNHALTED.REF_TSC", 2),
    ] {
        let e = ev(g, name);
        assert_eq!((e.fixed, e.counters), (Some(fixed), 0), "{name}");
        let events = [e];
        let s = schedule(&Target::of(g), &events).unwrap();
        assert_eq!(s.counter(0), Some(Counter::Fixed(fixed.into())));
    }
    // INTEL_UEVENT_CONSTRAINT(0x1c0, 0x2): INST_RETIRED.PREC_DIST on counter 1 only.
    assert_eq!(ev(g, "INST_RETIRED.PREC_DIST").counters, 0b10);
    // INTEL_EVENT_CONSTRAINT(0xd0 / 0xd1 / 0xd2 / 0xcd / 0xc6, 0xf): counters 0-3.
    let table = g.model_events();
    for code in [0xd0, 0xd1, 0xd2, 0xcd, 0xc6] {
        let mut any = false;
        for e in table.iter().filter(|e| e.event == code) {
            assert_eq!(e.counters & !0xf, 0, "{}", e.name);
            any = true;
        }
        assert!(any, "no event {code:#x}");
    }
    // intel_skl_extra_regs: 0x01b7 uses MSR_OFFCORE_RSP_0, 0x01bb MSR_OFFCORE_RSP_1.
    let o = ev(g, "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE");
    assert_eq!((o.event, o.umask, o.msr.unwrap().index), (0xb7, 1, 0x1a6));
    let alt = o
        .alternatives
        .iter()
        .find(|a| a.msr_index.is_some())
        .unwrap();
    assert_eq!(
        (alt.event, alt.umask, alt.msr_index),
        (0xbb, 1, Some(0x1a7))
    );

    // Consequence: PREC_DIST and another event restricted to counter 1 cannot share; with
    // an unrestricted event they can, PREC_DIST on counter 1.
    let events = [
        ev(g, "BR_MISP_RETIRED.ALL_BRANCHES"),
        ev(g, "INST_RETIRED.PREC_DIST"),
    ];
    let s = schedule(&Target::of(g), &events).unwrap();
    assert_eq!(
        (s.counter(0), s.counter(1)),
        (Some(Counter::Gp(0)), Some(Counter::Gp(1)))
    );
    let events = [
        ev(g, "INST_RETIRED.PREC_DIST"),
        ev(g, "INST_RETIRED.PREC_DIST"),
    ];
    let Err(schedule::Error::Conflict(c)) = schedule(&Target::of(g), &events) else {
        panic!("two PREC_DIST fit")
    };
    assert_eq!(c.reason, Reason::Counters { gp: 0b10, fixed: 0 });
}

#[test]
fn icelake_constraints_agree_with_the_kernel() {
    let g = Generation::IntelIcelake;
    // FIXED_EVENT_CONSTRAINT(0x0400, 3): SLOTS.
    let slots = ev(g, "TOPDOWN.SLOTS");
    assert_eq!((slots.fixed, slots.counters), (Some(3), 0));
    // INTEL_EVENT_CONSTRAINT_RANGE(0xd0, 0xe6, 0xf): counters 0-3.
    let table = g.model_events();
    let ranged: Vec<_> = (table.iter())
        .filter(|e| (0xd0..=0xe6).contains(&e.event))
        .collect();
    assert!(!ranged.is_empty());
    for e in ranged {
        assert_eq!(e.counters & !0xf, 0, "{}", e.name);
    }
}

#[test]
fn sapphire_rapids_constraints_agree_with_the_kernel() {
    let g = Generation::IntelSapphirerapids;
    // INTEL_UEVENT_CONSTRAINT(0x04a4, 0x1) and (0x08a4, 0x1): counter 0 only.
    let bad = ev(g, "TOPDOWN.BAD_SPEC_SLOTS");
    let br = ev(g, "TOPDOWN.BR_MISPREDICT_SLOTS");
    assert_eq!((bad.event, bad.umask, bad.counters), (0xa4, 0x04, 1));
    assert_eq!((br.event, br.umask, br.counters), (0xa4, 0x08, 1));
    // FIXED_EVENT_CONSTRAINT(0x0400, 3).
    assert_eq!(ev(g, "TOPDOWN.SLOTS").fixed, Some(3));
    // intel_spr_extra_regs: 0x012a uses MSR_OFFCORE_RSP_0, 0x012b MSR_OFFCORE_RSP_1.
    let table = g.model_events();
    let o = table
        .iter()
        .find(|e| e.event == 0x2a && e.msr.is_some())
        .expect("an off-core response event");
    assert_eq!((o.umask, o.msr.unwrap().index), (1, 0x1a6));
    let alt = o
        .alternatives
        .iter()
        .find(|a| a.msr_index.is_some())
        .unwrap();
    assert_eq!((alt.event, alt.msr_index), (0x2b, Some(0x1a7)));

    // Consequence: the two counter-0 events cannot share the PMU.
    let events = [bad, br, ev(g, "TOPDOWN.SLOTS")];
    let Err(schedule::Error::Conflict(c)) = schedule(&Target::of(g), &events) else {
        panic!("both counter-0 events fit")
    };
    assert_eq!(c.indexes().collect::<Vec<_>>(), [0, 1]);
    assert_eq!(
        c.to_string(),
        "TOPDOWN.BAD_SPEC_SLOTS and TOPDOWN.BR_MISPREDICT_SLOTS may be counted only on \
         general-purpose counter 0; one such event already uses it"
    );
    let sp = split(&Target::of(g), &events).unwrap();
    assert_eq!(sp.len(), 2);
}

// The conflicts of the issue.

#[test]
fn five_mem_load_retired_events_need_counters_0_to_3() {
    let g = Generation::IntelSkylake;
    let names = [
        "MEM_LOAD_RETIRED.L1_HIT",
        "MEM_LOAD_RETIRED.L2_HIT",
        "MEM_LOAD_RETIRED.L3_HIT",
        "MEM_LOAD_RETIRED.L1_MISS",
        "INST_RETIRED.ANY",
        "MEM_LOAD_RETIRED.L3_MISS",
    ];
    let events: Vec<EventDesc> = names.iter().map(|n| ev(g, n)).collect();
    let target = Target::of(g);
    let Err(schedule::Error::Conflict(c)) = schedule(&target, &events) else {
        panic!("five MEM_LOAD_RETIRED events fit")
    };
    assert_eq!(c.indexes().collect::<Vec<_>>(), [0, 1, 2, 3, 5]);
    assert_eq!(c.reason, Reason::Counters { gp: 0xf, fixed: 0 });
    assert_eq!(
        c.to_string(),
        "MEM_LOAD_RETIRED.L1_HIT, MEM_LOAD_RETIRED.L2_HIT, MEM_LOAD_RETIRED.L3_HIT, \
         MEM_LOAD_RETIRED.L1_MISS and MEM_LOAD_RETIRED.L3_MISS may be counted only on \
         general-purpose counters 0-3; four such events already use them"
    );
    let sp = split(&target, &events).unwrap();
    assert_eq!((sp.len(), sp.exact()), (2, true));
}

#[test]
fn offcore_response_values_take_the_alternative_encoding_then_conflict() {
    let g = Generation::IntelSkylake;
    let target = Target::of(g);
    let a = ev(g, "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE");
    let b = ev(g, "OFFCORE_RESPONSE.DEMAND_CODE_RD.ANY_RESPONSE");
    let c = ev(g, "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_MISS.ANY_SNOOP");
    // Two values: the second event takes the alternative encoding (0xBB, MSR_OFFCORE_RSP_1).
    let two = [a, b];
    let s = schedule(&target, &two).unwrap();
    let (p, q) = (s.get(0).unwrap(), s.get(1).unwrap());
    assert_eq!((p.event.event, p.event.msr.unwrap().index), (0xb7, 0x1a6));
    assert_eq!((q.event.event, q.event.msr.unwrap().index), (0xbb, 0x1a7));
    // The same value twice shares one MSR.
    let same = [a, a];
    let s = schedule(&target, &same).unwrap();
    assert!(s.iter().all(|p| p.event.msr.unwrap().index == 0x1a6));
    // Three values do not fit.
    let three = [a, b, c];
    let Err(schedule::Error::Conflict(k)) = schedule(&target, &three) else {
        panic!("three off-core values fit")
    };
    assert_eq!(k.len(), 3);
    assert!(matches!(
        k.reason,
        Reason::AuxMsr {
            msr_count: 2,
            value_count: 3,
            ..
        }
    ));
    assert_eq!(
        k.to_string(),
        "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE, OFFCORE_RESPONSE.DEMAND_CODE_RD.ANY_RESPONSE \
         and OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_MISS.ANY_SNOOP need MSR_OFFCORE_RSP_0 (0x1a6) \
         with different values (0x10001, 0x10004, 0x3ffc400001) and the alternative encoding's \
         MSR_OFFCORE_RSP_1 (0x1a7) is taken"
    );
    let sp = split(&target, &three).unwrap();
    assert_eq!(sp.len(), 2);
}

#[test]
fn load_latency_thresholds_share_one_msr() {
    let g = Generation::IntelSkylake;
    let a = ev(g, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4");
    let b = ev(g, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_8");
    let events = [a, b];
    // Intel's lists say the load-latency events count alone; as Linux schedules them, they
    // still need one threshold.
    let target = Target::of(g).with_taken_alone(false);
    let Err(schedule::Error::Conflict(c)) = schedule(&target, &events) else {
        panic!("two thresholds fit")
    };
    assert_eq!(
        c.to_string(),
        "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4 and MEM_TRANS_RETIRED.LOAD_LATENCY_GT_8 both need \
         MSR_PEBS_LD_LAT_THRESHOLD (0x3f6) with different values (0x4, 0x8)"
    );
}

#[test]
fn topdown_slots_needs_fixed_counter_3() {
    let g = Generation::IntelIcelake;
    let slots = ev(g, "TOPDOWN.SLOTS");
    let target = Target::of(g);
    let events = [slots, ev(g, "INST_RETIRED.ANY"), slots];
    let Err(schedule::Error::Conflict(c)) = schedule(&target, &events) else {
        panic!("two TOPDOWN.SLOTS fit")
    };
    assert_eq!(c.indexes().collect::<Vec<_>>(), [0, 2]);
    assert_eq!(
        c.to_string(),
        "TOPDOWN.SLOTS and TOPDOWN.SLOTS both need fixed counter 3, which counts one event at a time"
    );
    // Without fixed counter 3 (CPUID reports three fixed counters).
    let three = target.with_counters(target.gp, 0b111);
    let one = [slots];
    let Err(schedule::Error::Conflict(c)) = schedule(&three, &one) else {
        panic!("TOPDOWN.SLOTS fits without fixed counter 3")
    };
    assert_eq!(
        c.to_string(),
        "TOPDOWN.SLOTS needs fixed counter 3, which this PMU does not have"
    );
    // Split: the two TOPDOWN.SLOTS in two groups.
    let sp = split(&target, &events).unwrap();
    assert_eq!(sp.len(), 2);
    assert_ne!(sp.group_of(0), sp.group_of(2));
}

#[test]
fn fixed_counters_are_preferred() {
    let g = Generation::IntelV4;
    let target = Target::of(g);
    let table: Vec<_> = {
        use pmu_regs::arch::Arch;
        pmu_regs::arch::IntelV4::arch_events()
            .iter()
            .map(|a| a.desc)
            .collect()
    };
    let insts = *table.iter().find(|e| e.fixed == Some(0)).unwrap();
    assert_ne!(
        insts.counters, 0,
        "the architectural event also counts on a general counter"
    );
    let events = [insts, insts];
    let s = schedule(&target, &events).unwrap();
    assert_eq!(
        (s.counter(0), s.counter(1)),
        (Some(Counter::Fixed(0)), Some(Counter::Gp(0)))
    );
    // Without fixed counter 0, a general-purpose counter.
    let s = schedule(&target.with_counters(target.gp, 0b110), &events[..1]).unwrap();
    assert_eq!(s.counter(0), Some(Counter::Gp(0)));
}

#[test]
fn user_groups_stay_together() {
    let g = Generation::IntelSkylake;
    let target = Target::of(g);
    let m = |n: &str| ev(g, &format!("MEM_LOAD_RETIRED.{n}"));
    let events = [
        m("L1_HIT"),
        m("L2_HIT"),
        m("L3_HIT"),
        m("L1_MISS"),
        m("L2_MISS"),
        m("L3_MISS"),
    ];
    // {0, 5} together, {1, 2, 3} together, 4 alone: 5 with 4 fits first.
    let groups = [0, 1, 1, 1, 2, 0];
    let sp = split_grouped(&target, &events, &groups).unwrap();
    assert_eq!(sp.len(), 2);
    assert_eq!(sp.group_of(0), sp.group_of(5));
    assert_eq!(sp.group_of(1), sp.group_of(2));
    assert_eq!(sp.group_of(1), sp.group_of(3));
    // A user group that cannot fit is refused with its conflict.
    let all = [7u8; 6];
    let Err(schedule::Error::Conflict(c)) = split_grouped(&target, &events, &all) else {
        panic!("six MEM_LOAD_RETIRED events fit one group")
    };
    assert_eq!(c.len(), 5);
}

#[test]
fn too_many_events_is_an_error() {
    let g = Generation::AmdZen4;
    let e = g.model_events().desc(0);
    let events = vec![e; schedule::MAX_EVENTS + 1];
    let err = schedule(&Target::of(g), &events).unwrap_err();
    assert_eq!(err, schedule::Error::TooMany { given: 65 });
    assert_eq!(
        err.to_string(),
        "65 events given; one schedule takes at most 64"
    );
    // Past the exact limit, split says it used the heuristic.
    let events = vec![e; 40];
    let sp = split(&Target::of(g), &events).unwrap();
    assert!(!sp.exact());
    assert_eq!(sp.len(), 40usize.div_ceil(6));
}

#[test]
fn names_with_modifiers_resolve() {
    let g = Generation::IntelSkylake;
    let a = schedule::resolve(g, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:u:ldlat=16").unwrap();
    assert_eq!(a.msr.unwrap().value, 16);
    let b = schedule::resolve(g, "INST_RETIRED.ANY:u").unwrap();
    assert_eq!(b.fixed, Some(0));
    let c = schedule::resolve(g, "cpu/event=0xc4,umask=0x0/").unwrap();
    assert_eq!(c.counters & 0xf, 0xf);
    assert!(schedule::resolve(g, "NO_SUCH_EVENT").is_err());
}

/// `p`, `pp`, `ppp` (and `precise=N`, and a perf string's letters) ask for precision.
#[test]
fn precision_modifiers_resolve() {
    let g = Generation::IntelSapphirerapids;
    for (text, level) in [
        ("MEM_LOAD_RETIRED.L3_MISS", 0),
        ("MEM_LOAD_RETIRED.L3_MISS:p", 1),
        ("MEM_LOAD_RETIRED.L3_MISS:u:pp", 2),
        ("MEM_LOAD_RETIRED.L3_MISS:precise=3", 3),
        ("cpu/event=0xd1,umask=0x20/upp", 2),
    ] {
        assert_eq!(schedule::resolve(g, text).unwrap().precise, level, "{text}");
    }
    for bad in [
        "MEM_LOAD_RETIRED.L3_MISS:pppp",
        "cpu/event=0xd1,umask=0x20/pppp",
    ] {
        let e = schedule::resolve(g, bad).unwrap_err().to_string();
        assert!(e.contains("precision goes up to 3"), "{bad}: {e}");
    }
}

// Facts from the definitions (Intel's perfmon lists for Sapphire Rapids: `PEBScounters`,
// `PDISTCounter`; Skylake: `TakenAlone`, `PEBS`).

/// Sampled with PDist (`ppp`), Sapphire Rapids' MEM_LOAD_RETIRED.L3_MISS and
/// BR_INST_RETIRED.ALL_BRANCHES both need general-purpose counter 0; with `pp` they fit.
#[test]
fn pdist_events_share_counter_0() {
    let g = Generation::IntelSapphirerapids;
    let names = ["MEM_LOAD_RETIRED.L3_MISS", "BR_INST_RETIRED.ALL_BRANCHES"];
    let pp = names.map(|n| ev(g, n).with_precise(2));
    assert!(schedule(&Target::of(g), &pp).is_ok());
    let ppp = names.map(|n| ev(g, n).with_precise(3));
    let Err(schedule::Error::Conflict(c)) = schedule(&Target::of(g), &ppp) else {
        panic!("two PDist events on counter 0")
    };
    assert_eq!(c.reason, Reason::Counters { gp: 1, fixed: 0 });
    assert_eq!(
        c.to_string(),
        "MEM_LOAD_RETIRED.L3_MISS and BR_INST_RETIRED.ALL_BRANCHES may be sampled as precisely \
         as asked only on general-purpose counter 0; one such event already uses it"
    );
    // One of them goes to counter 0, the other anywhere else.
    let one = [ppp[0], pp[1]];
    let s = schedule(&Target::of(g), &one).unwrap();
    assert_eq!(s.counter(0), Some(Counter::Gp(0)));
    // INST_RETIRED.PREC_DIST's PDist counter is fixed counter 0.
    let prec = [ev(g, "INST_RETIRED.PREC_DIST").with_precise(3), ppp[0]];
    let s = schedule(&Target::of(g), &prec).unwrap();
    assert_eq!(s.counter(0), Some(Counter::Fixed(0)));
}

/// An event without a PDist counter cannot be sampled at precision 3; an event that is not a
/// PEBS event (Zen 4 has none) cannot be sampled precisely at all.
#[test]
fn precision_an_event_cannot_have_is_refused() {
    let g = Generation::IntelSapphirerapids;
    let e = [ev(g, "CPU_CLK_UNHALTED.THREAD_P").with_precise(3)];
    let Err(schedule::Error::Conflict(c)) = schedule(&Target::of(g), &e) else {
        panic!("PDist without a PDist counter")
    };
    assert_eq!(c.reason, Reason::NotPrecise { level: 3 });
    assert!(
        c.to_string()
            .contains("no counter with precise distribution"),
        "{c}"
    );
    let zen = Generation::AmdZen4;
    let r = [schedule::resolve(zen, "ex_ret_instr:p").unwrap()];
    let Err(schedule::Error::Conflict(c)) = schedule(&Target::of(zen), &r) else {
        panic!("PEBS on Zen 4")
    };
    assert_eq!(c.reason, Reason::NotPrecise { level: 1 });
    // Skylake's lists give PEBS but no PEBS counters: a PEBS event keeps its own counters.
    let sk = Generation::IntelSkylake;
    let m = [ev(sk, "MEM_LOAD_RETIRED.L3_MISS").with_precise(2)];
    assert!(schedule(&Target::of(sk), &m).is_ok());
    let not_pebs = [ev(sk, "CYCLE_ACTIVITY.STALLS_TOTAL").with_precise(1)];
    assert!(schedule(&Target::of(sk), &not_pebs).is_err());
}

/// Skylake's FRONTEND_RETIRED.DSB_MISS counts alone: with another event on a general-purpose
/// counter it conflicts, with INST_RETIRED.ANY (fixed counter 0) it fits, and `split` gives it
/// a group of its own; a target that does not honour it schedules them together.
#[test]
fn an_event_that_counts_alone_leaves_only_fixed_counters() {
    let g = Generation::IntelSkylake;
    let alone = ev(g, "FRONTEND_RETIRED.DSB_MISS");
    assert!(alone.taken_alone);
    let other = ev(g, "MEM_LOAD_RETIRED.L3_MISS");
    let pair = [alone, other];
    let Err(schedule::Error::Conflict(c)) = schedule(&Target::of(g), &pair) else {
        panic!("a TakenAlone event beside another")
    };
    assert_eq!(c.reason, Reason::TakenAlone { alone: 1 });
    assert_eq!(
        c.to_string(),
        "FRONTEND_RETIRED.DSB_MISS must count alone (Intel's TakenAlone: no other event on a \
         general-purpose counter meanwhile), and MEM_LOAD_RETIRED.L3_MISS needs one"
    );
    let with_fixed = [alone, ev(g, "INST_RETIRED.ANY")];
    let s = schedule(&Target::of(g), &with_fixed).unwrap();
    assert_eq!(s.counter(1), Some(Counter::Fixed(0)));
    let three = [alone, other, with_fixed[1]];
    let sp = split(&Target::of(g), &three).unwrap();
    assert_eq!(sp.len(), 2);
    assert!(schedule(&Target::of(g).with_taken_alone(false), &pair).is_ok());
}

/// The random draws reach every kind of conflict, so the properties above test them.
#[test]
fn random_draws_reach_conflicts() {
    let (mut counters, mut aux, mut fits, mut alone, mut precise) = (0, 0, 0, 0, 0);
    let mut rng = Rng(32);
    for _ in 0..300 {
        for pool in pools() {
            let n = 1 + rng.below(12);
            let (target, events) = pool.draw(&mut rng, n);
            match schedule(&target, &events) {
                Ok(_) => fits += 1,
                Err(schedule::Error::Conflict(c)) => match c.reason {
                    Reason::AuxMsr { .. } => aux += 1,
                    Reason::TakenAlone { .. } => alone += 1,
                    Reason::NotPrecise { .. } => precise += 1,
                    _ => counters += 1,
                },
                Err(e) => panic!("{e}"),
            }
        }
    }
    assert!(
        counters > 50 && aux > 5 && fits > 50 && alone > 5 && precise > 5,
        "{counters} {aux} {fits} {alone} {precise}"
    );
}

// `Pmu::program_all` on the mock backend.

mod program_all {
    use super::*;
    use pmu_regs::arch::{Filter, IntelIcelake, IntelSkylake};
    use pmu_regs::backend::mock::{Mock, MockConfig};
    use pmu_regs::detect::CounterSet;
    use pmu_regs::pmu::{Error, Pmu};

    const SEL0: u32 = 0x186;
    const FIXED_CTRL: u32 = 0x38d;

    fn skylake_set() -> Vec<EventDesc> {
        let g = Generation::IntelSkylake;
        [
            "INST_RETIRED.ANY",
            "MEM_LOAD_RETIRED.L3_MISS",
            "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE",
            "OFFCORE_RESPONSE.DEMAND_CODE_RD.ANY_RESPONSE",
            "CPU_CLK_UNHALTED.THREAD",
            "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_8",
        ]
        .iter()
        .map(|n| ev(g, n))
        .collect()
    }

    fn pmu(
        mock: &Mock<IntelSkylake>,
    ) -> Pmu<IntelSkylake, pmu_regs::backend::mock::MockCpu<IntelSkylake>> {
        Pmu::with_counters(mock.cpu(0), CounterSet::full::<IntelSkylake>())
    }

    #[test]
    fn programs_and_releases_a_schedule() {
        let events = skylake_set();
        // With the load-latency event beside others, as Linux would (Intel's lists say it
        // counts alone).
        let target = Target::of(Generation::IntelSkylake).with_taken_alone(false);
        let s = schedule(&target, &events).unwrap();
        let mock = Mock::<IntelSkylake>::new(MockConfig::full::<IntelSkylake>(1));
        let mut pmu = pmu(&mock);
        pmu.program_all(&s, Filter::ALL).unwrap();
        assert!(mock.faults().is_empty(), "{:?}", mock.faults());
        // Auxiliary MSRs: both off-core response registers and the load-latency threshold.
        assert_eq!(mock.peek(0, 0x1a6), Some(0x10001));
        assert_eq!(mock.peek(0, 0x1a7), Some(0x10004));
        assert_eq!(mock.peek(0, 0x3f6), Some(8));
        let (gp, fixed) = s.counters();
        assert_eq!((gp, fixed), (0b1111, 0b11));
        assert_eq!(pmu.active(), (gp, fixed));
        for p in s.iter() {
            match p.counter {
                Counter::Gp(n) => {
                    let sel = mock.peek(0, SEL0 + n).unwrap();
                    assert_eq!(sel & 0xff, u64::from(p.event.event), "{}", p.event.name);
                    assert_eq!((sel >> 8) & 0xff, u64::from(p.event.umask));
                    assert_ne!(sel & (1 << 22), 0, "EN");
                }
                Counter::Fixed(n) => {
                    let ctrl = mock.peek(0, FIXED_CTRL).unwrap();
                    assert_eq!((ctrl >> (4 * n)) & 0b11, 0b11, "fixed{n} at every level");
                }
            }
        }
        // The second off-core event went to its alternative encoding (0xBB).
        assert_eq!(s.get(3).unwrap().event.event, 0xbb);
        // It counts.
        let on = s.counter(1).unwrap();
        mock.tick(0, on, 7).unwrap();
        assert_eq!(pmu.read(on).unwrap(), 7);

        pmu.release_all(&s).unwrap();
        assert_eq!(pmu.active(), (0, 0));
        for n in 0..4 {
            assert_eq!(mock.peek(0, SEL0 + n).unwrap() & (1 << 22), 0);
        }
        // Released, the MSRs take other values.
        let g = Generation::IntelSkylake;
        let other = [ev(g, "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_MISS.ANY_SNOOP")];
        let s2 = schedule(&Target::of(g), &other).unwrap();
        pmu.program_all(&s2, Filter::USER).unwrap();
        assert_eq!(mock.peek(0, 0x1a6), Some(0x3ffc400001));
        assert!(mock.faults().is_empty());
    }

    #[test]
    fn refuses_a_schedule_for_another_pmu() {
        let mock = Mock::<IntelSkylake>::new(MockConfig::full::<IntelSkylake>(1));
        let g = Generation::IntelIcelake;
        let events = [ev(g, "TOPDOWN.SLOTS")];
        let s = schedule(&Target::of(g), &events).unwrap();
        let err = pmu(&mock).program_all(&s, Filter::ALL).unwrap_err();
        assert_eq!(
            err,
            Error::WrongSchedule {
                generation: "intel-icelake",
                counter: None
            }
        );
        // A counter the Pmu does not have: nothing is written.
        let mock = Mock::<IntelIcelake>::new(MockConfig::full::<IntelIcelake>(1));
        let mut few = CounterSet::full::<IntelIcelake>();
        few.fixed = 0b111;
        let mut pmu = Pmu::<IntelIcelake, _>::with_counters(mock.cpu(0), few);
        let writes = mock.writes();
        let err = pmu.program_all(&s, Filter::ALL).unwrap_err();
        assert_eq!(
            err,
            Error::WrongSchedule {
                generation: "intel-icelake",
                counter: Some(Counter::Fixed(3))
            }
        );
        assert!(err.to_string().contains("fixed counter 3"), "{err}");
        assert_eq!(mock.writes(), writes);
    }

    #[test]
    fn refuses_an_msr_a_counter_outside_the_schedule_holds() {
        let g = Generation::IntelSkylake;
        let mock = Mock::<IntelSkylake>::new(MockConfig::full::<IntelSkylake>(1));
        let mut pmu = pmu(&mock);
        let held = ev(g, "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_MISS.ANY_SNOOP");
        let other = ev(g, "OFFCORE_RESPONSE.DEMAND_CODE_RD.ANY_RESPONSE");
        pmu.program_raw(3, &held, Filter::ALL).unwrap();
        pmu.program_raw(2, &other, Filter::ALL).unwrap();
        let events = [ev(g, "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE")];
        let s = schedule(&Target::of(g), &events).unwrap();
        let writes = mock.writes();
        let err = pmu.program_all(&s, Filter::ALL).unwrap_err();
        assert!(
            matches!(err, Error::AuxMsrBusy { address: 0x1a6, .. }),
            "{err}"
        );
        assert_eq!(mock.writes(), writes);
    }
}

/// On the counters CPUID reports: a Kaby Lake's dump (the Skylake event list), whole and with
/// leaf 0AH reporting two general-purpose counters, as a hypervisor may.
#[test]
fn detected_counters_are_the_ones_scheduled() {
    use pmu_regs::detect::{CpuidEntry, CpuidTable, detect, parse_cpuid_dump};
    let dump = |leaf_a_eax: &str| {
        format!(
            "CPU 0:\n\
             0x00000000 0x00: eax=0x00000016 ebx=0x756e6547 ecx=0x6c65746e edx=0x49656e69\n\
             0x00000001 0x00: eax=0x000906e9 ebx=0x00100800 ecx=0x4ffaebbf edx=0xbfebfbff\n\
             0x00000007 0x00: eax=0x00000000 ebx=0x02946687 ecx=0x00000000 edx=0x00000000\n\
             0x0000000a 0x00: eax={leaf_a_eax} ebx=0x00000000 ecx=0x00000000 edx=0x00000603\n"
        )
    };
    let target_of = |text: &str| {
        let mut room = [CpuidEntry::new(0, 0, [0; 4]); 16];
        let entries = parse_cpuid_dump(text, &mut room).unwrap();
        Target::detected(&detect(&mut CpuidTable::new(entries))).expect("a PMU")
    };
    let g = Generation::IntelSkylake;
    let m = |n: &str| ev(g, &format!("MEM_LOAD_RETIRED.{n}"));
    let events = [m("L1_HIT"), m("L2_HIT"), m("L3_HIT")];

    let full = target_of(&dump("0x07300404"));
    assert_eq!((full.generation, full.gp, full.fixed), (g, 0b1111, 0b111));
    assert!(schedule(&full, &events).is_ok());

    let two = target_of(&dump("0x07300204"));
    assert_eq!((two.gp, two.fixed), (0b11, 0b111));
    let Err(schedule::Error::Conflict(c)) = schedule(&two, &events) else {
        panic!("three events fit two counters")
    };
    assert_eq!(c.reason, Reason::Counters { gp: 0b11, fixed: 0 });
    assert_eq!(
        c.to_string(),
        "MEM_LOAD_RETIRED.L1_HIT, MEM_LOAD_RETIRED.L2_HIT and MEM_LOAD_RETIRED.L3_HIT may be \
         counted only on general-purpose counters 0-1; two such events already use them"
    );
    assert_eq!(split(&two, &events).unwrap().len(), 2);
}

/// 32 events (the exact split's limit), 20 fixed draws per model: every group fits and the
/// search finishes (its lower bounds, Hall's on the counters and one on the auxiliary MSRs'
/// values, meet the split it finds), so the split is exact.
#[test]
fn splits_of_32_events_are_exact_and_fit() {
    let mut rng = Rng(7);
    for pool in pools() {
        for _ in 0..20 {
            let (target, events) = pool.draw(&mut rng, 32);
            let sp = match split(&target, &events) {
                Ok(sp) => sp,
                Err(schedule::Error::Conflict(c)) => {
                    assert_eq!(c.len(), 1, "{c}");
                    continue;
                }
                Err(e) => panic!("{e}"),
            };
            assert!(sp.exact(), "{}: {sp:?}", pool.target.generation);
            let mut seen = 0u64;
            for k in 0..sp.len() {
                let members: Vec<usize> =
                    (0..32).filter(|&i| sp.members(k) & (1 << i) != 0).collect();
                assert!(oracle_fits(&target, &events, &members));
                seen |= sp.members(k);
            }
            assert_eq!(seen, (1u64 << 32) - 1);
        }
    }
}

/// A Skylake client core (06_5E) whose leaf 0AH gives each thread `gp` general counters
/// (version 4, 48 bits wide, 3 fixed counters).
fn skylake_thread(gp: u32) -> Target {
    use pmu_regs::detect::{CpuidEntry, CpuidTable, detect};
    let table = [
        CpuidEntry::new(0x0, 0, [0x16, 0x756E_6547, 0x6C65_746E, 0x4965_6E69]),
        CpuidEntry::new(0x1, 0, [0x0005_06E3, 0, 0, 0]),
        CpuidEntry::new(0xA, 0, [0x0730_0004 | gp << 8, 0, 0, 0x0000_0603]),
    ];
    let info = detect(&mut CpuidTable::new(&table));
    assert_eq!(info.model, Some(Generation::IntelSkylake), "{info:?}");
    Target::detected(&info).unwrap()
}

#[test]
fn with_hyper_threading_off_a_thread_has_eight_counters() {
    // Intel's Skylake list: BR_INST_RETIRED.COND on counters 0-3, 0-7 with HT off; the
    // PEBS-only BR_INST_RETIRED.ALL_BRANCHES_PEBS on 0-3 either way.
    let g = Generation::IntelSkylake;
    let cond = ev(g, "BR_INST_RETIRED.COND");
    assert_eq!((cond.counters, cond.counters_ht_off), (0xf, Some(0xff)));
    let pebs = ev(g, "BR_INST_RETIRED.ALL_BRANCHES_PEBS");
    assert_eq!((pebs.counters, pebs.counters_ht_off), (0xf, Some(0xf)));
    // Four threads' counters (HT on, as CPUID reports it then): five general events conflict.
    let on = skylake_thread(4);
    assert!(!on.ht_off);
    let five = [cond; 5];
    assert!(schedule(&on, &five).is_err());
    // Eight (HT off): they fit, the fifth on counter 4; a sixth restricted to 0-3 still
    // finds room only while 0-3 are not all taken.
    let off = skylake_thread(8);
    assert!(off.ht_off);
    let s = schedule(&off, &five).unwrap();
    assert!(s.iter().any(|p| p.counter == Counter::Gp(4)), "{s:?}");
    let mixed = [pebs, pebs, pebs, pebs, cond, cond, cond, cond];
    assert!(schedule(&off, &mixed).is_ok());
    let restricted = [pebs; 5];
    let Err(schedule::Error::Conflict(c)) = schedule(&off, &restricted) else {
        panic!("five events restricted to counters 0-3 fit")
    };
    assert_eq!(c.len(), 5);
    // Target::of assumes HT on, as the lists do, until told otherwise.
    assert!(schedule(&Target::of(g), &five).is_err());
    assert!(schedule(&Target::of(g).with_ht_off(true), &five).is_ok());
}
