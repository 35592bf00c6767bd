//! CPU-model event tables. They sit behind Cargo features, so this file only builds with one:
//! `cargo test -p pmu-regs --features all-models` (CI runs it).
#![cfg(feature = "intel-skylake")]

use pmu_regs::PlacementError;
use pmu_regs::intel::skylake::{IA32_PERFEVTSEL, events::Event};

const BRANCHES: IA32_PERFEVTSEL::Placed<3> =
    IA32_PERFEVTSEL::event_on::<3>(Event::BrInstRetired_AllBranches.desc())
        .with_bit::<IA32_PERFEVTSEL::USR>(true)
        .with_bit::<IA32_PERFEVTSEL::EN>(true)
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

/// Every compiled-in model generation is detected from a CPUID table built from its own
/// `cpus:` list and its architectural ancestor's `detect:` condition (nothing here names a
/// model, a family or a version): `PmuInfo::model` is a generation listing the CPU, and
/// `PmuInfo::generation` the ancestor whose condition was met.
#[test]
fn every_model_is_detected_from_its_definitions() {
    use pmu_regs::arch::{Arch, ArchVisitor, DetectSpec, Generation};
    use pmu_regs::detect::{CpuidEntry, CpuidTable, detect};

    struct Spec;
    impl ArchVisitor for Spec {
        type Output = DetectSpec;
        fn visit<A: Arch>(self) -> DetectSpec {
            A::DETECT
        }
    }
    let mut checked = 0;
    for &g in Generation::ALL {
        let d = g.visit(Spec);
        // The nearest ancestor with a CPUID condition decides the architectural generation.
        let Some((arch, (field, at_least))) = d.ancestors.iter().find_map(|id| {
            let a = Generation::from_id(id)?;
            Some((a, a.visit(Spec).cpuid?))
        }) else {
            continue;
        };
        for cpu in d.cpus {
            let stepping = cpu.steppings.trailing_zeros();
            let (fam, ext_fam) = if cpu.family >= 0xF {
                (0xF, cpu.family - 0xF)
            } else {
                (cpu.family, 0)
            };
            let signature = (ext_fam << 20)
                | ((cpu.model >> 4) << 16)
                | (fam << 8)
                | ((cpu.model & 0xF) << 4)
                | stepping;
            let mut leaf = [0u32; 4];
            leaf[field.register as usize] |= at_least << field.lsb;
            let vendor = match d.vendor {
                pmu_regs::arch::Vendor::Intel => [0x756E_6547, 0x6C65_746E, 0x4965_6E69],
                pmu_regs::arch::Vendor::Amd => [0x6874_7541, 0x444D_4163, 0x6974_6E65],
            };
            // The basic and extended maximum leaves cover the detecting field's leaf (AMD's
            // core counters are enumerated in Fn8000_0001).
            let (basic_max, ext_max) = if field.leaf >= 0x8000_0000 {
                (0x1A, field.leaf)
            } else {
                (0x1A.max(field.leaf), 0x8000_0000)
            };
            let table = [
                CpuidEntry::new(0, 0, [basic_max, vendor[0], vendor[1], vendor[2]]),
                CpuidEntry::new(0x8000_0000, 0, [ext_max, 0, 0, 0]),
                CpuidEntry::new(1, 0, [signature, 0, 0, 0]),
                CpuidEntry::new(
                    0x1A,
                    0,
                    [
                        ((cpu.core_type.unwrap_or(0) as u32) << 24)
                            | cpu.native_model_id.unwrap_or(0),
                        0,
                        0,
                        0,
                    ],
                ),
                CpuidEntry::new(field.leaf, field.subleaf, leaf),
            ];
            let info = detect(&mut CpuidTable::new(&table));
            assert_eq!(info.generation, Some(arch), "{g} {cpu:?}");
            let model = info
                .model
                .unwrap_or_else(|| panic!("{g} {cpu:?}: no model"));
            assert!(
                model.visit(Spec).cpus.contains(cpu),
                "{g} {cpu:?}: detected {model}"
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "no model generation is compiled in");
}

/// Every name of every compiled-in model is found by its model's `from_name` (through
/// `Generation::model_event`) in any ASCII case, and `Generation::models_with_event` lists
/// exactly the models `model_event` finds it in (with `all-models`: the cross-model table,
/// checked here against one lookup per model).
#[test]
fn every_name_is_found_in_its_models() {
    use pmu_regs::arch::Generation;
    let mut checked = 0;
    for &g in Generation::ALL {
        for d in g.model_events() {
            for name in [
                d.name.to_string(),
                d.name.to_ascii_lowercase(),
                d.name.to_ascii_uppercase(),
            ] {
                let found = g.model_event(&name);
                assert_eq!(found, Some(d), "{g} {name}");
            }
            let want: Vec<Generation> = Generation::ALL
                .iter()
                .copied()
                .filter(|o| o.model_event(d.name).is_some())
                .collect();
            let models = Generation::models_with_event(&d.name.to_ascii_lowercase());
            assert_eq!(models.len(), want.len(), "{}", d.name);
            assert_eq!(models.collect::<Vec<_>>(), want, "{}", d.name);
            checked += 1;
        }
    }
    assert!(checked > 0, "no model generation is compiled in");
}

/// Misses: no scan, no false positive on a name that only shares a hash slot, a prefix or
/// a length.
#[test]
fn misses() {
    use pmu_regs::arch::Generation;
    let long = "BR_INST_RETIRED.ALL_BRANCHES".repeat(10);
    for name in [
        "",
        "NO_SUCH.EVENT",
        "BR_INST_RETIRED.ALL_BRANCHE",
        "BR_INST_RETIRED.ALL_BRANCHESS",
        "BR_INST_RETIRED.ALL_BRANCHES\0",
        "BR_INST_RETİRED.ALL_BRANCHES",
        "BR_INST_RETIRED_ALL_BRANCHES",
        long.as_str(),
    ] {
        assert_eq!(Event::from_name(name), None, "{name:?}");
        assert_eq!(Generation::models_with_event(name).len(), 0, "{name:?}");
        for &g in Generation::ALL {
            assert_eq!(g.model_event(name), None, "{g} {name:?}");
        }
    }
    assert!(
        Generation::models_with_event("br_inst_retired.all_branches")
            .any(|g| g.id() == "intel-skylake")
    );
}

/// perf's spellings (create_perf_json.py `fix_name`), as `pmu_defs::encode` accepts them.
#[cfg(all(feature = "intel-nehalemep", feature = "intel-cascadelakex"))]
#[test]
fn perf_spellings() {
    use pmu_regs::intel::{cascadelakex, nehalemep};
    let e = nehalemep::events::Event::from_name("offcore_response.any_data.any_cache_dram");
    assert_eq!(
        e.map(|e| e.name()),
        Some("OFFCORE_RESPONSE_0.ANY_DATA.ANY_CACHE_DRAM")
    );
    let e = cascadelakex::events::Event::from_name("OFFCORE_RESPONSE.ALL_DATA_RD.L3_HIT.ANY_SNOOP");
    assert_eq!(
        e.map(|e| e.name()),
        Some("OFFCORE_RESPONSE:request=ALL_DATA_RD:response=L3_HIT.ANY_SNOOP")
    );
    let models: Vec<&str> =
        pmu_regs::arch::Generation::models_with_event("OFFCORE_RESPONSE.ANY_DATA.ANY_DRAM")
            .map(|g| g.id())
            .collect();
    assert!(models.contains(&"intel-nehalemep"), "{models:?}");
}
