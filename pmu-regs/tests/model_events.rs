//! CPU-model event tables. They sit behind Cargo features, so this file only builds with one:
//! `cargo test -p pmu-regs --features all-models` (CI runs it).
#![cfg(feature = "intel-skylake")]

use pmu_regs::PlacementError;
use pmu_regs::intel::skylake::{IA32_PERFEVTSEL, events::Event};

const BRANCHES: IA32_PERFEVTSEL::Value =
    IA32_PERFEVTSEL::event_on::<3>(Event::BrInstRetired_AllBranches.desc())
        .with_usr(true)
        .with_en(true)
        .build();

#[test]
fn lookup_and_placement() {
    assert_eq!(BRANCHES.bits(), 0x0041_00C4);
    let e: Event = "br_inst_retired.all_branches".parse().unwrap();
    assert_eq!(e, Event::BrInstRetired_AllBranches);
    assert_eq!(e.to_string(), "BR_INST_RETIRED.ALL_BRANCHES");
    assert_eq!(Event::from_name("NO_SUCH.EVENT"), None);
    // Counters 0-3 only while Hyper-Threading is on.
    assert!(matches!(
        IA32_PERFEVTSEL::try_event_on(5, e.desc()),
        Err(PlacementError::NotOnCounter {
            allowed: 0xF,
            counter: 5,
            ..
        })
    ));
    // INST_RETIRED.ANY counts on fixed counter 0 only.
    assert_eq!(
        IA32_PERFEVTSEL::try_event_on(0, Event::InstRetired_Any.desc()),
        Err(PlacementError::FixedOnly {
            event: "INST_RETIRED.ANY",
            fixed: 0,
            counter: 0
        })
    );
    // The table is in name order and every name round-trips.
    let names: Vec<&str> = Event::ALL.iter().map(|e| e.name()).collect();
    assert!(names.windows(2).all(|w| w[0] < w[1]));
    for e in Event::ALL {
        assert_eq!(Event::from_name(e.name()), Some(*e));
    }
}
