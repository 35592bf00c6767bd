//! Detection on the CPUID of two real machines, both virtual-machine guests, recorded with
//! `cpuid -r` (`tests/test_data/cpuid-dumps/`, see its README), and on guest variants of
//! them: what a hypervisor may hide or offer. The model a family/model names is taken only
//! when CPUID reports the generation its registers build on.
//!
//! The answer is the same whatever the Cargo features: `PmuInfo::model_id` names the model
//! either way, and `PmuInfo::model` is its `Generation` when its feature compiles it (CI runs
//! this file with and without `--features all-models`).

use pmu_regs::arch::Generation;
use pmu_regs::detect::{CpuidEntry, CpuidTable, Note, PmuInfo, detect, parse_cpuid_dump};

const EPYC: &str = include_str!("../../tests/test_data/cpuid-dumps/amd-epyc-19h-01h-guest.txt");
const XEON: &str = include_str!("../../tests/test_data/cpuid-dumps/intel-xeon-06cf-guest.txt");

/// The dump's entries, with `edit` applied to each (leaf, subleaf, registers).
fn entries(text: &str, edit: impl Fn(u32, u32, &mut [u32; 4])) -> Vec<CpuidEntry> {
    let mut room = vec![CpuidEntry::new(0, 0, [0; 4]); 256];
    let read = parse_cpuid_dump(text, &mut room).unwrap_or_else(|e| panic!("{e}"));
    read.iter()
        .map(|e| {
            let mut r = [e.regs.eax, e.regs.ebx, e.regs.ecx, e.regs.edx];
            edit(e.leaf, e.subleaf, &mut r);
            CpuidEntry::new(e.leaf, e.subleaf, r)
        })
        .collect()
}

fn run(entries: &[CpuidEntry]) -> PmuInfo {
    detect(&mut CpuidTable::new(entries))
}

/// Asserts that detection took the model `id`: by id always, as a `Generation` when its
/// feature is on, and with a note naming the feature when it is off.
fn assert_model(info: &PmuInfo, id: &'static str) {
    assert_eq!(info.model_id, Some(id));
    assert_eq!(info.model, Generation::from_id(id));
    let not_compiled = info.notes().any(
        |n| matches!(n, Note::ModelNotCompiled { model, feature } if model == id && feature == id),
    );
    assert_eq!(not_compiled, info.model.is_none(), "{info}");
}

fn model_not_taken(info: &PmuInfo) -> Option<Note> {
    info.notes()
        .find(|n| matches!(n, Note::ModelNotTaken { .. }))
}

/// AMD APM Vol. 3, CPUID Fn8000_0001_ECX bit 23 PerfCtrExtCore.
const PERF_CTR_EXT_CORE: u32 = 1 << 23;

#[test]
fn epyc_guest_without_perfctrextcore_gets_the_legacy_counters_and_no_model() {
    let info = run(&entries(EPYC, |_, _, _| {}));
    assert_eq!((info.family(), info.model()), (0x19, 0x01));
    assert!(info.hypervisor);
    // Fn8000_0001_ECX = 0x004003F3: bit 23 clear. The family (19h >= 10h) gives the legacy
    // counters at C001_0000-7 with the AMD64 layout (12-bit event select, host/guest bits).
    assert_eq!(info.generation, Some(Generation::AmdFam10h));
    assert_eq!(info.counters.gp, 0b1111);
    // amd-zen3 lists family 19h model 01h, but its counters are the core extension's.
    assert_eq!((info.model, info.model_id), (None, None));
    assert_eq!(info.id, Some("amd-fam10h"));
    assert_eq!(
        model_not_taken(&info),
        Some(Note::ModelNotTaken {
            model: "amd-zen3",
            needs: Some(Generation::AmdCore),
            detected: Some(Generation::AmdFam10h),
        })
    );
    let report = info.to_string();
    assert!(
        report.contains(
            "the family/model is amd-zen3's, but its registers need amd-core \
             (PERF_CTR_EXT_CORE >= 1) and CPUID reports amd-fam10h"
        ),
        "{report}"
    );
}

#[test]
fn epyc_guest_offered_the_core_extension_gets_zen3() {
    let info = run(&entries(EPYC, |leaf, _, r| {
        if leaf == 0x8000_0001 {
            r[2] |= PERF_CTR_EXT_CORE;
        }
    }));
    assert_eq!(info.generation, Some(Generation::AmdCore));
    assert_model(&info, "amd-zen3");
    assert_eq!(info.counters.gp, 0b11_1111);
    assert_eq!(model_not_taken(&info), None);
}

#[test]
fn xeon_guest_with_leaf_0ah_zeroed_has_no_generation_and_says_which_model_it_is() {
    let info = run(&entries(XEON, |_, _, _| {}));
    assert_eq!((info.family(), info.model()), (6, 0xCF));
    assert_eq!(info.generation, None);
    assert_eq!(info.model, None);
    assert_eq!(info.counters.gp, 0);
    assert!(info.notes().any(|n| n == Note::Hypervisor));
    assert!(info.notes().any(|n| matches!(n, Note::NoGeneration { .. })));
    assert_eq!(
        model_not_taken(&info),
        Some(Note::ModelNotTaken {
            model: "intel-emeraldrapids",
            needs: Some(Generation::IntelV5),
            detected: None,
        })
    );
}

/// Leaf 0AH of an Emerald Rapids as the SDM Vol. 2A lays it out: EAX version, 8 counters of
/// 48 bits, EBX length 7; EDX 4 fixed counters of 48 bits, AnyThread deprecated (bit 15).
fn leaf_0ah(version: u32) -> [u32; 4] {
    [0x0730_0800 | version, 0, 0, 0x0000_8604]
}

#[test]
fn xeon_guest_offered_perfmon_v5_gets_emerald_rapids() {
    let info = run(&entries(XEON, |leaf, _, r| {
        if leaf == 0xA {
            *r = leaf_0ah(5);
        }
    }));
    assert_eq!(info.generation, Some(Generation::IntelV5));
    assert_model(&info, "intel-emeraldrapids");
    assert_eq!(info.counters.gp, 0xFF);
    assert_eq!(model_not_taken(&info), None);
}

#[test]
fn xeon_guest_offered_a_lower_perfmon_version_gets_no_model() {
    let info = run(&entries(XEON, |leaf, _, r| {
        if leaf == 0xA {
            *r = leaf_0ah(2);
        }
    }));
    assert_eq!(info.generation, Some(Generation::IntelV2));
    assert_eq!(info.model, None);
    assert_eq!(
        model_not_taken(&info),
        Some(Note::ModelNotTaken {
            model: "intel-emeraldrapids",
            needs: Some(Generation::IntelV5),
            detected: Some(Generation::IntelV2),
        })
    );
    // The counters are what the version-2 leaf enumerates.
    assert_eq!(info.counters.gp, 0xFF);
}

#[test]
fn xeon_guest_offered_fewer_counters_gets_what_cpuid_reports() {
    // Version 5 with 4 general counters (EAX[15:8]) and 3 fixed ones (EDX[4:0]), as a
    // hypervisor that keeps some counters for itself may report.
    let info = run(&entries(XEON, |leaf, _, r| {
        if leaf == 0xA {
            *r = [0x0730_0405, 0, 0, 0x0000_8603];
        }
    }));
    assert_eq!(info.generation, Some(Generation::IntelV5));
    assert_model(&info, "intel-emeraldrapids");
    assert_eq!(info.counters.gp, 0b1111);
    assert_eq!(info.counters.fixed, 0b111);
    assert_eq!(
        (info.counters.gp_width, info.counters.fixed_width),
        (48, 48)
    );
}
