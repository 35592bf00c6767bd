//! Every compiled-in model's event table, decoded (`EventTable`, the byte encoding the
//! generator writes), against the definitions it was generated from (`pmu-defs`): every field
//! of every event, in name order, and the typed auxiliary-MSR values. The encoder and the
//! decoder are two programs sharing a layout; this is the test that they agree.
//!
//! `cargo test -p pmu-regs --features all-models --test event_tables` (CI runs it).
#![cfg(feature = "all-models")]

use pmu_defs::model::{Event as DefEvent, Generation as DefGeneration};
use pmu_defs::{Loaded, Loader};
use pmu_regs::arch::Generation;
use pmu_regs::{EventAlt, EventDesc};
use std::sync::OnceLock;

fn loaded() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(|| {
        let loaded = Loader::new().with_defaults().finish();
        assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
        loaded
    })
}

fn definition(id: &str) -> &'static DefGeneration {
    loaded()
        .model
        .generation(id)
        .unwrap_or_else(|| panic!("{id}: compiled in but not defined"))
}

/// A generation's model-specific events as `events::Event` orders them: those without a
/// CPUID bit, by name.
fn model_events(g: &DefGeneration) -> Vec<&DefEvent> {
    let mut evs: Vec<&DefEvent> = g.events.iter().filter(|e| e.cpuid_bit.is_none()).collect();
    evs.sort_by(|a, b| a.name.cmp(&b.name));
    evs
}

/// What the definitions say event `e`'s `EventDesc` is.
fn expected(e: &DefEvent) -> EventDesc {
    let alternatives: Vec<EventAlt> = e
        .alternatives()
        .iter()
        .skip(1)
        .map(|a| EventAlt {
            event: u16::try_from(a.event).unwrap(),
            umask: u8::try_from(a.umask).unwrap(),
            msr_index: a.msr_index,
        })
        .collect();
    let mut d = EventDesc::new(
        String::leak(e.name.clone()),
        u16::try_from(e.event).unwrap(),
        u8::try_from(e.umask).unwrap(),
    )
    .with_counters(
        e.counters
            .iter()
            .filter(|&&c| c < 32)
            .fold(0, |m, &c| m | 1 << c),
    )
    .with_cmask(u8::try_from(e.cmask).unwrap())
    .with_inv(e.inv)
    .with_edge(e.edge)
    .with_any(e.any)
    .with_umask2(u8::try_from(e.umask2.unwrap_or(0)).unwrap())
    .with_eq(e.eq)
    .with_alternatives(Vec::leak(alternatives))
    .with_pebs(e.pebs.unwrap_or(0))
    .with_deprecated(e.deprecated)
    .with_taken_alone(e.taken_alone);
    let mask = |c: &[u32]| c.iter().fold(0u32, |m, &c| m | 1 << c);
    if let Some(s) = &e.counters_ht_off {
        d = d.with_counters_ht_off(mask(&s.general));
    }
    if let Some(s) = &e.pebs_counters {
        d = d.with_pebs_counters(mask(&s.general), mask(&s.fixed));
    }
    if let Some(s) = &e.pdist_counters {
        d = d.with_pdist_counters(mask(&s.general), mask(&s.fixed));
    }
    if let Some(f) = e.fixed {
        d = d.with_fixed(u8::try_from(f).unwrap());
    }
    if let Some(m) = &e.msr {
        d = d.with_msr(m.index, m.value);
    }
    d
}

#[test]
fn every_model_table_decodes_to_its_definitions() {
    let mut events = 0;
    let mut models = 0;
    for &g in Generation::ALL {
        let table = g.model_events();
        if table.is_empty() {
            continue;
        }
        let want = model_events(definition(g.id()));
        assert_eq!(table.len(), want.len(), "{g}");
        for (i, (got, e)) in table.iter().zip(&want).enumerate() {
            assert_eq!(got, expected(e), "{g} event {i}");
            assert_eq!(table.name(i), e.name, "{g} event {i}");
            assert_eq!(table.get(i), Some(got), "{g} event {i}");
            events += 1;
        }
        assert_eq!(table.get(table.len()), None, "{g}");
        assert_eq!(table.iter().len(), table.len(), "{g}");
        models += 1;
    }
    // Every model of the definitions is compiled in with all-models.
    let defined = loaded()
        .model
        .generations
        .iter()
        .filter(|g| !model_events(g).is_empty() && !g.cpus.is_empty())
        .count();
    assert_eq!(models, defined);
    assert!(events > 15_000, "{events} events");
}

/// `Event::desc` (the constant table, folded where the event is constant) and the static
/// table behind `Event::TABLE` and `Generation::model_events` give the same events.
#[test]
fn desc_and_table_agree() {
    use pmu_regs::intel::cascadelakex::events::Event;
    for (i, e) in Event::ALL.iter().enumerate() {
        assert_eq!(e.desc().get(), Event::TABLE.desc(i), "{e}");
        assert_eq!(e.name(), Event::TABLE.name(i));
    }
    const OCR: EventDesc = Event::Ocr_AllDataRd_L3Hit_AnySnoop.desc().get();
    assert_eq!(OCR.name, "OCR.ALL_DATA_RD.L3_HIT.ANY_SNOOP");
    assert!(OCR.msr.is_some());
}

/// `Event::aux` is the typed value of the event's MSR exactly when the definitions give the
/// generation a writable register there and the value sets none of its reserved bits.
#[test]
fn aux_values_follow_the_definitions() {
    use pmu_regs::access::AuxValue;
    use pmu_regs::intel::{cascadelakex, skylake};
    let check = |id: &str, aux: &dyn Fn(usize) -> Option<(u32, u64)>| {
        let g = definition(id);
        let mut typed = 0;
        for (i, e) in model_events(g).iter().enumerate() {
            let want = e.msr.as_ref().and_then(|m| {
                let r = g.register_at(m.index)?;
                let outside = if r.width < 64 { !0u64 << r.width } else { 0 };
                (r.access.writable() && m.value & (r.reserved_mask | outside) == 0)
                    .then_some((m.index, m.value))
            });
            assert_eq!(aux(i), want, "{id} {}", e.name);
            typed += usize::from(want.is_some());
        }
        assert!(typed > 0, "{id}: no event has a typed auxiliary value");
    };
    check("intel-skylake", &|i| {
        skylake::events::Event::ALL[i]
            .aux()
            .map(|a| (a.address(), a.bits()))
    });
    check("intel-cascadelakex", &|i| {
        cascadelakex::events::Event::ALL[i]
            .aux()
            .map(|a| (a.address(), a.bits()))
    });
}

#[test]
fn empty_table() {
    let t = pmu_regs::EventTable::EMPTY;
    assert!(t.is_empty());
    assert_eq!(t.iter().next(), None);
    assert_eq!(t.get(0), None);
    assert_eq!(t.len(), 0);
}
