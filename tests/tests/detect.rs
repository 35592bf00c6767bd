//! Capability detection against CPUID values recorded on real processors.
//!
//! Every dump below is copied (registers only) from a public source named next to it; only
//! the leaves detection reads are kept. Leaves a dump does not list read as zero, which is
//! what detection sees anyway: it never queries a leaf above the maximum the CPU reports.
//!
//! Expected values are worked out from the Intel SDM Vol. 2A (CPUID leaves 01H, 07H, 0AH,
//! 23H) and the AMD APM Vol. 3 (Fn8000_0001, Fn8000_0022), not from the code under test.

use pmu_regs::arch::{Arch, ArchVisitor, DetectSpec, Filter, Generation, IntelV5, Vendor};
use pmu_regs::backend::mock::{Mock, MockConfig};
use pmu_regs::detect::{CpuVendor, CpuidEntry, CpuidTable, Note, PmuInfo, detect};
use pmu_regs::pmu::{Error, Pmu};

fn run(table: &[CpuidEntry]) -> PmuInfo {
    detect(&mut CpuidTable::new(table))
}

const GENUINE_INTEL: [u32; 3] = [0x756E_6547, 0x6C65_746E, 0x4965_6E69];
const AUTHENTIC_AMD: [u32; 3] = [0x6874_7541, 0x444D_4163, 0x6974_6E65];

const fn leaf0(max: u32, vendor: [u32; 3]) -> CpuidEntry {
    CpuidEntry::new(0, 0, [max, vendor[0], vendor[1], vendor[2]])
}

/// Intel Pentium G4600 (Kaby Lake, signature 000906E9): google/EXEgesis,
/// exegesis/base/cpuid_x86_test.cc (commit 382d3deff18b268411db17088825fab905b17dfd),
/// `kDumpString`.
const KABY_LAKE_G4600: [CpuidEntry; 4] = [
    leaf0(0x16, GENUINE_INTEL),
    CpuidEntry::new(0x1, 0, [0x0009_06E9, 0x0010_0800, 0x4FFA_EBBF, 0xBFEB_FBFF]),
    CpuidEntry::new(0x7, 0, [0x0000_0000, 0x0294_6687, 0x0000_0000, 0x0000_0000]),
    CpuidEntry::new(0xA, 0, [0x0730_0404, 0x0000_0000, 0x0000_0000, 0x0000_0603]),
];

/// Intel Xeon Nehalem-EP (signature 000106A2): the instlatx64 dump
/// GenuineIntel00106A2_Nehalem-EP_CPUID.txt, as quoted in felix86
/// (OFFTKP/felix86, src/felix86/hle/cpuid.cpp, commit
/// 3da9ee51495a16d074fe8a52f20d856ec629b2d2).
const NEHALEM_EP: [CpuidEntry; 4] = [
    leaf0(0xB, GENUINE_INTEL),
    CpuidEntry::new(0x1, 0, [0x0001_06A2, 0x0010_0800, 0x00BC_E3BD, 0xBFEB_FBFF]),
    CpuidEntry::new(0x7, 0, [0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000]),
    CpuidEntry::new(0xA, 0, [0x0730_0403, 0x0000_0000, 0x0000_0000, 0x0000_0603]),
];

/// Intel Xeon E5-2660 (Sandy Bridge-EP, signature 000206D7): klauspost/cpuid, cpuid_test.go
/// (commit f89c8c58bdd5348f54ac22d0d58cf797c35bdc2b), dump `test16` of `TestPhysical`.
const SANDY_BRIDGE_EP_E5_2660: [CpuidEntry; 4] = [
    leaf0(0xD, GENUINE_INTEL),
    CpuidEntry::new(0x1, 0, [0x0002_06D7, 0x0320_0800, 0x1FBE_E3FF, 0xBFEB_FBFF]),
    CpuidEntry::new(0x7, 0, [0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000]),
    CpuidEntry::new(0xA, 0, [0x0730_0403, 0x0000_0000, 0x0000_0000, 0x0000_0603]),
];

/// Intel Core i7-1065G7 (Ice Lake, signature 000706E5): anrieff/libcpuid,
/// tests/intel/core_10th_gen/ice-lake-i7.test (commit
/// 2b8023f7336fc4c66d23fb7c65caee5b3581237e), `basic_cpuid[0]`, `[1]`, `[7]`, `[10]`.
const ICE_LAKE_I7_1065G7: [CpuidEntry; 4] = [
    leaf0(0x1B, GENUINE_INTEL),
    CpuidEntry::new(0x1, 0, [0x0007_06E5, 0x0010_0800, 0x7FFA_FBBF, 0xBFEB_FBFF]),
    CpuidEntry::new(0x7, 0, [0x0000_0000, 0xF2BF_27EF, 0x4040_5F4E, 0xBC00_0410]),
    CpuidEntry::new(0xA, 0, [0x0830_0805, 0x0000_0000, 0x0000_000F, 0x0000_8604]),
];

/// Intel Core i7-12700H (Alder Lake-P, signature 000906A2, logical CPU #0): anrieff/libcpuid,
/// tests/intel/core_12th_gen/alder-lake-p-i7.test (commit
/// 172062a6e8f69e59631d7b8e944fb94588225f62).
const ALDER_LAKE_P_I7_12700H: [CpuidEntry; 5] = [
    leaf0(0x20, GENUINE_INTEL),
    CpuidEntry::new(0x1, 0, [0x0009_06A2, 0x0080_0800, 0x7FFA_FBFF, 0xBFEB_FBFF]),
    CpuidEntry::new(0x7, 0, [0x0000_0001, 0x239C_A7EB, 0x98C0_07AC, 0xFC18_C410]),
    CpuidEntry::new(0x7, 1, [0x0040_0810, 0x0000_0000, 0x0000_0000, 0x0000_0000]),
    CpuidEntry::new(0xA, 0, [0x0730_0605, 0x0000_0000, 0x0000_0007, 0x0000_8603]),
];

/// AMD Ryzen 7 7700X (Zen 4, signature 00A60F12, logical CPU #0): anrieff/libcpuid,
/// tests/amd/zen4/amd-ryzen-7-7700x-8-core-processor.test (commit
/// 87bc7194607fc00f964e489de41f1cf48c15b195).
const RYZEN_7_7700X: [CpuidEntry; 6] = [
    leaf0(0x10, AUTHENTIC_AMD),
    CpuidEntry::new(0x1, 0, [0x00A6_0F12, 0x0010_0800, 0x7EF8_320B, 0x178B_FBFF]),
    CpuidEntry::new(0xA, 0, [0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000]),
    CpuidEntry::new(
        0x8000_0000,
        0,
        [0x8000_0028, 0x6874_7541, 0x444D_4163, 0x6974_6E65],
    ),
    CpuidEntry::new(
        0x8000_0001,
        0,
        [0x00A6_0F12, 0x0000_0000, 0x75C2_37FF, 0x2FD3_FBFF],
    ),
    CpuidEntry::new(
        0x8000_0022,
        0,
        [0x0000_0003, 0x0008_4106, 0x0000_0003, 0x0000_0000],
    ),
];

/// AMD Ryzen 5 3600 (Zen 2, signature 00870F10, logical CPU #0): anrieff/libcpuid,
/// tests/amd/zen2/amd-ryzen-5-3600-6-core-processor.test (commit
/// 87bc7194607fc00f964e489de41f1cf48c15b195).
const RYZEN_5_3600: [CpuidEntry; 5] = [
    leaf0(0x10, AUTHENTIC_AMD),
    CpuidEntry::new(0x1, 0, [0x0087_0F10, 0x000C_0800, 0x7ED8_320B, 0x178B_FBFF]),
    CpuidEntry::new(0xA, 0, [0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000]),
    CpuidEntry::new(
        0x8000_0000,
        0,
        [0x8000_0020, 0x6874_7541, 0x444D_4163, 0x6974_6E65],
    ),
    CpuidEntry::new(
        0x8000_0001,
        0,
        [0x0087_0F10, 0x2000_0000, 0x75C2_37FF, 0x2FD3_FBFF],
    ),
];

/// AMD Athlon XP 3200+ (K7 Barton, signature 000006A0): anrieff/libcpuid,
/// tests/amd/k7/amd-athlon-xp-3200+.test (commit 87bc7194607fc00f964e489de41f1cf48c15b195).
const ATHLON_XP_3200: [CpuidEntry; 4] = [
    leaf0(0x1, AUTHENTIC_AMD),
    CpuidEntry::new(0x1, 0, [0x0000_06A0, 0x0000_0000, 0x0000_0000, 0x0383_FBFF]),
    CpuidEntry::new(
        0x8000_0000,
        0,
        [0x8000_0008, 0x6874_7541, 0x444D_4163, 0x6974_6E65],
    ),
    CpuidEntry::new(
        0x8000_0001,
        0,
        [0x0000_07A0, 0x0000_0000, 0x0000_0000, 0xC1C3_FBFF],
    ),
];

#[test]
fn kaby_lake_is_version_4_with_four_counters() {
    let info = run(&KABY_LAKE_G4600);
    assert_eq!(info.vendor, CpuVendor::Intel);
    assert_eq!((info.family(), info.model(), info.stepping()), (6, 0x9E, 9));
    assert_eq!(info.generation, Some(Generation::IntelV4));
    let p = info.enumeration;
    assert_eq!(
        (
            p.condition,
            p.general_count,
            p.general_width,
            p.events_length
        ),
        (Some(4), Some(4), Some(48), Some(7))
    );
    assert_eq!((p.fixed_count, p.fixed_width), (Some(3), Some(48)));
    // Leaf 07H subleaf 0 EAX = 0: no subleaf 1, so no leaf 23H (and intel-v4 has none).
    assert_eq!(p.subleaves, None);
    let c = info.counters;
    assert_eq!(
        (c.gp, c.gp_width, c.fixed, c.fixed_width),
        (0xF, 48, 0x7, 48)
    );
    assert_eq!(
        c.unavailable_events, 0,
        "EBX = 0 and length 7: all seven available"
    );
    assert!(!c.anythread_deprecated && !c.umask2 && !c.eq);
    // CPUID.01H:ECX = 4FFAEBBF has bit 15 (PDCM) set.
    assert!(info.perf_capabilities_msr);
    assert!(!info.hypervisor);
    assert_eq!(info.notes().count(), 0);
    let report = info.to_string();
    assert!(
        report.contains("PMU generation: intel-v4 (pmu_regs::intel::v4)"),
        "{report}"
    );
    assert!(
        report.contains("general-purpose counters: 4 x 48 bits (IA32_PMC 0-3)"),
        "{report}"
    );
    assert!(
        report.contains("fixed counters:           3 x 48 bits (IA32_FIXED_CTR 0-2)"),
        "{report}"
    );
    assert!(report.contains("available   LLC_MISSES"), "{report}");
}

#[test]
fn nehalem_and_sandy_bridge_are_version_3() {
    for (name, table) in [
        ("Nehalem-EP", &NEHALEM_EP[..]),
        ("Xeon E5-2660", &SANDY_BRIDGE_EP_E5_2660[..]),
    ] {
        let info = run(table);
        assert_eq!(info.generation, Some(Generation::IntelV3), "{name}");
        let c = info.counters;
        assert_eq!(
            (c.gp, c.gp_width, c.fixed, c.fixed_width),
            (0xF, 48, 0x7, 48),
            "{name}"
        );
        assert_eq!(c.unavailable_events, 0, "{name}");
        assert_eq!(info.enumeration.subleaves, None, "{name}");
    }
    // Nehalem-EP leaf 1 ECX = 00BCE3BD: PDCM (bit 15) set; E5-2660 ECX = 1FBEE3FF: set too.
    assert!(run(&NEHALEM_EP).perf_capabilities_msr);
    assert!(run(&SANDY_BRIDGE_EP_E5_2660).perf_capabilities_msr);
    assert_eq!(run(&NEHALEM_EP).model(), 0x1A);
    assert_eq!(run(&SANDY_BRIDGE_EP_E5_2660).model(), 0x2D);
}

#[test]
fn ice_lake_is_version_5_with_four_fixed_counters_and_no_anythread() {
    let info = run(&ICE_LAKE_I7_1065G7);
    assert_eq!(info.generation, Some(Generation::IntelV5));
    let p = info.enumeration;
    assert_eq!(
        (
            p.condition,
            p.general_count,
            p.general_width,
            p.events_length
        ),
        (Some(5), Some(8), Some(48), Some(8))
    );
    // EDX = 8604: 4 fixed counters of 0x30 = 48 bits, bit 15 AnyThread deprecation.
    assert_eq!((p.fixed_count, p.fixed_width), (Some(4), Some(48)));
    assert_eq!(p.fixed_bitmap, Some(0xF));
    assert_eq!(p.anythread_deprecated, Some(true));
    let c = info.counters;
    assert_eq!((c.gp, c.fixed, c.fixed_width), (0xFF, 0xF, 48));
    // Length 8 covers TOPDOWN_SLOTS (bit 7); EBX = 0: every v5 event is available.
    assert_eq!(c.unavailable_events, 0);
    assert!(c.anythread_deprecated);
    let report = info.to_string();
    assert!(
        report.contains("AnyThread:                deprecated"),
        "{report}"
    );
    assert!(report.contains("available   TOPDOWN_SLOTS"), "{report}");
    assert!(report.contains("(also fixed counter 3)"), "{report}");
}

#[test]
fn alder_lake_p_ebx_length_hides_topdown_slots() {
    let info = run(&ALDER_LAKE_P_I7_12700H);
    assert_eq!(info.generation, Some(Generation::IntelV5));
    let p = info.enumeration;
    assert_eq!(
        (p.condition, p.general_count, p.events_length),
        (Some(5), Some(6), Some(7))
    );
    // Leaf 07H.1 EAX = 00400810: bit 8 (ArchPerfmonExt) clear, so leaf 23H is not read (and
    // intel-v5 has none).
    assert_eq!(p.subleaves, None);
    let c = info.counters;
    assert_eq!((c.gp, c.fixed), (0x3F, 0x7));
    // TOPDOWN_SLOTS has EBX bit 7, beyond the EBX length of 7: not available.
    assert_eq!(c.unavailable_events, 1 << 7);
    assert!(info.to_string().contains("unavailable TOPDOWN_SLOTS"));

    // ... and the helpers refuse it, before writing anything.
    let mock = Mock::<IntelV5>::new(MockConfig::from_info(&info, 1));
    let mut pmu = Pmu::<IntelV5, _>::new(mock.cpu(0), &info).unwrap();
    let err = pmu
        .program(
            0,
            &pmu_regs::intel::v5::ArchEvent::TopdownSlots,
            Filter::ALL,
        )
        .unwrap_err();
    assert_eq!(
        err,
        Error::EventUnavailable {
            event: "TOPDOWN_SLOTS",
            cpuid_bit: 7
        }
    );
    assert!(err.to_string().contains("CPUID.0AH:EBX[7]"), "{err}");
    // Counter 6 is beyond the six CPUID reports, although the definitions have eight.
    let err = pmu
        .program(6, &pmu_regs::intel::v5::ArchEvent::LlcMisses, Filter::ALL)
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::NoSuchCounter {
                available: 0x3F,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(mock.writes(), 0);
    assert!(mock.faults().is_empty());
}

#[test]
fn ryzen_7700x_has_perfmon_v2() {
    let info = run(&RYZEN_7_7700X);
    assert_eq!(info.vendor, CpuVendor::Amd);
    assert_eq!((info.family(), info.model()), (0x19, 0x61));
    assert_eq!(info.generation, Some(Generation::AmdPerfmonV2));
    // 80000022H EAX = 3: PerfMonV2 (bit 0, the condition) and the LbrExtV2 stack.
    assert_eq!(info.enumeration.condition, Some(1));
    // EBX = 00084106: 6 core counters (EBX[3:0]).
    assert_eq!(info.enumeration.general_count, Some(6));
    assert_eq!(info.counters.gp, 0x3F);
    assert_eq!(info.counters.gp_width, 48);
    assert_eq!(info.counters.fixed, 0);
    assert_eq!(
        info.enumeration.events_length, None,
        "leaf 0AH is not used on AMD"
    );
    let report = info.to_string();
    assert!(
        report.contains("PMU generation: amd-perfmon-v2"),
        "{report}"
    );
    assert!(report.contains("CPUID PERFMON_V2: 1"), "{report}");
}

#[test]
fn ryzen_3600_has_core_extensions_only() {
    let info = run(&RYZEN_5_3600);
    assert_eq!(info.generation, Some(Generation::AmdCore));
    // Highest extended leaf 80000020H: no 80000022H; Fn8000_0001_ECX[23] set.
    assert_eq!(info.max_ext_leaf, 0x8000_0020);
    assert_eq!(info.enumeration.condition, Some(1));
    assert_eq!(info.counters.gp, 0x3F);
}

#[test]
fn athlon_xp_has_the_k7_counters() {
    let info = run(&ATHLON_XP_3200);
    assert_eq!(info.family(), 6);
    assert_eq!(info.generation, Some(Generation::AmdK7));
    // No PerfCtrExtCore: the family condition (at least 6) picks the K7 counters.
    assert_eq!(info.enumeration.condition, None);
    assert_eq!(info.counters.gp, 0xF);
}

/// An Arrow Lake core (family 6 model C5H) on perfmon version 6 whose leaf 1AH EAX is
/// `leaf_1a`: the core type in bits 31:24, the native model id in bits 23:0.
fn arrow_lake_core(leaf_1a: u32) -> PmuInfo {
    run(&[
        leaf0(0x23, GENUINE_INTEL),
        CpuidEntry::new(0x1, 0, [0x000C_0652, 0, 0, 0]),
        CpuidEntry::new(0xA, 0, [0x0830_0806, 0, 0xF, 0x0000_8604]),
        CpuidEntry::new(0x1A, 0, [leaf_1a, 0, 0, 0]),
    ])
}

/// Intel's perfmon mapfile.csv gives family 6 model C5H three core lists: Lion Cove (core type
/// 40H, native model id 3), Skymont (core type 20H, native model id 3) and Crestmont (core type
/// 20H, native model id 2, the low-power E-cores). Two E-core designs share the core type, so
/// the native model id (CPUID.1AH:EAX[23:0], SDM Vol. 2A) tells them apart. `model_id` does
/// not depend on the model features.
#[test]
fn arrow_lake_e_cores_are_told_apart_by_native_model_id() {
    let model = |eax: u32| arrow_lake_core(eax).model_id;
    assert_eq!(model(0x4000_0003), Some("intel-arrowlake-lioncove"));
    assert_eq!(model(0x2000_0003), Some("intel-arrowlake-skymont"));
    assert_eq!(model(0x2000_0002), Some("intel-arrowlake-crestmont"));
    // A core type with a native model id no list gives: no model.
    assert_eq!(model(0x2000_0007), None);
    assert_eq!(
        arrow_lake_core(0x2000_0003).generation,
        Some(Generation::IntelV6)
    );
}

/// Arrow Lake-H leaf 23H subleaf 0 on two CPUs, quoted by Kan Liang (Intel) on LKML, "Re:
/// [RESEND PATCH 05/12] perf/x86: Add config_mask to represent EVENTSEL bitmask", 21 June 2024
/// (Message-ID ff25c37f-cb62-4687-adaa-596e8fc3a52a@linux.intel.com): "They are supported by
/// CPU 11 but not CPU 12."
/// A version 6 CPU whose leaf 23H subleaf 0 is `sub0` and subleaf 1 `sub1`, with
/// CPUID.(7,1):EAX[8] set (synthetic around the quoted leaf).
fn v6_with_leaf23(sub0: [u32; 4], sub1: [u32; 4]) -> PmuInfo {
    run(&[
        leaf0(0x23, GENUINE_INTEL),
        CpuidEntry::new(0x7, 0, [1, 0, 0, 0]),
        CpuidEntry::new(0x7, 1, [1 << 8, 0, 0, 0]),
        CpuidEntry::new(0xA, 0, [0x0830_0806, 0, 0xF, 0x0000_8604]),
        CpuidEntry::new(0x23, 0, sub0),
        CpuidEntry::new(0x23, 1, sub1),
    ])
}

/// Arrow Lake-H leaf 23H subleaf 0 on two CPUs, quoted by Kan Liang (Intel) on LKML, "Re:
/// [RESEND PATCH 05/12] perf/x86: Add config_mask to represent EVENTSEL bitmask", 21 June 2024
/// (Message-ID ff25c37f-cb62-4687-adaa-596e8fc3a52a@linux.intel.com): "They are supported by
/// CPU 11 but not CPU 12."
#[test]
fn arrow_lake_h_leaf_23h_umask2_and_eq_per_core_type() {
    let e11 = v6_with_leaf23([0x0000_000F, 0x0000_0003, 0x0000_0008, 0], [0; 4]).enumeration;
    assert_eq!(e11.subleaves, Some(0xF));
    assert_eq!((e11.umask2, e11.eq), (Some(true), Some(true)));
    let e12 = v6_with_leaf23([0x0000_000B, 0, 0x0000_0006, 0], [0; 4]).enumeration;
    assert_eq!(e12.subleaves, Some(0xB));
    assert_eq!((e12.umask2, e12.eq), (Some(false), Some(false)));
}

#[test]
fn leaf_23h_subleaf_1_needs_its_bitmap_bit() {
    // Synthetic: subleaf 0 enumerating only subleaf 0 (bit 1 clear, the case Linux commit
    // "perf/x86/intel: Fix ARCH_PERFMON_NUM_COUNTER_LEAF" describes for VMMs): a subleaf 1
    // answer is ignored.
    let info = v6_with_leaf23([0x1, 0x3, 0, 0], [0xFF, 0x7, 0, 0]);
    assert_eq!(info.enumeration.general_present, None);
    let e = v6_with_leaf23([0x3, 0x3, 0, 0], [0xFF, 0x7, 0, 0]).enumeration;
    assert_eq!(
        (e.general_present, e.fixed_present),
        (Some(0xFF), Some(0x7))
    );
}

#[test]
fn leaf_23h_is_read_only_when_cpuid_7_1_enumerates_it() {
    // Synthetic dumps (not a real CPU): a version 6 leaf 0AH with leaf 23H present, with and
    // without CPUID.(7,1):EAX[8].
    let base = |arch_perfmon_ext: u32| {
        [
            leaf0(0x23, GENUINE_INTEL),
            CpuidEntry::new(0x7, 0, [1, 0, 0, 0]),
            CpuidEntry::new(0x7, 1, [arch_perfmon_ext << 8, 0, 0, 0]),
            CpuidEntry::new(0xA, 0, [0x0830_0806, 0, 0xF, 0x0000_8604]),
            CpuidEntry::new(0x23, 0, [0x3, 0x3, 0, 0]),
            CpuidEntry::new(0x23, 1, [0x3F, 0x5, 0, 0]),
        ]
    };
    let with = run(&base(1));
    assert_eq!(with.generation, Some(Generation::IntelV6));
    // Subleaf 1 bitmaps win over the counts (as in Linux update_pmu_cap): 6 GP counters,
    // fixed counters 0 and 2.
    assert_eq!((with.counters.gp, with.counters.fixed), (0x3F, 0x5));
    assert!(with.counters.umask2 && with.counters.eq);
    let without = run(&base(0));
    assert_eq!(without.enumeration.subleaves, None);
    assert_eq!((without.counters.gp, without.counters.fixed), (0xFF, 0xF));
    assert!(!without.counters.umask2 && !without.counters.eq);
}

#[test]
fn more_counters_than_defined_are_clamped_with_a_note() {
    // Synthetic (not a real CPU): version 5 reporting 10 general counters of 64 bits.
    let info = run(&[
        leaf0(0xA, GENUINE_INTEL),
        CpuidEntry::new(0xA, 0, [0x0840_0A05, 0, 0x0, 0x0000_0603]),
    ]);
    assert_eq!(info.counters.gp, 0xFF);
    assert_eq!(info.counters.gp_width, 48);
    let notes: Vec<Note> = info.notes().collect();
    assert!(notes.contains(&Note::MoreCountersThanDefined {
        fixed: false,
        reported: 0x3FF,
        defined: 8
    }));
    assert!(notes.contains(&Note::WiderThanDefined {
        fixed: false,
        reported: 64,
        defined: 48
    }));
    let report = info.to_string();
    assert!(
        report.contains("note: the CPU reports 10 general-purpose counters"),
        "{report}"
    );
}

#[test]
fn no_pmu_cases_say_why() {
    // Synthetic: an Intel CPU whose highest leaf is 05H, one reporting version 0, a newer
    // version than the definitions, and an unknown vendor.
    let old = run(&[leaf0(0x5, GENUINE_INTEL)]);
    assert_eq!(old.generation, None);
    assert!(
        old.to_string()
            .contains("needs VERSION >= 1, and the CPU does not enumerate VERSION"),
        "{old}"
    );
    let v0 = run(&[
        leaf0(0xA, GENUINE_INTEL),
        CpuidEntry::new(0xA, 0, [0, 0, 0, 0]),
    ]);
    assert_eq!(v0.generation, None);
    assert!(
        v0.to_string()
            .contains("needs VERSION >= 1, the CPU reports 0"),
        "{v0}"
    );
    // One version past the newest the definitions describe: that newest generation, with a
    // note that the CPU is newer.
    let (newest, generation) = newest_intel_version();
    let next = newest + 1;
    let newer = run(&[
        leaf0(0xA, GENUINE_INTEL),
        CpuidEntry::new(0xA, 0, [0x0730_0400 | next, 0, 0, 0x603]),
    ]);
    assert_eq!(newer.generation, Some(generation));
    assert!(
        newer
            .notes()
            .any(|n| matches!(n, Note::NewerThanDefined { value, .. } if value == next)),
        "{newer}"
    );
    let other = run(&[CpuidEntry::new(
        0,
        0,
        [0x1, 0x6C65_7641, 0x6873_6E61, 0x6D61_6F72],
    )]);
    assert!(matches!(other.vendor, CpuVendor::Other(_)));
    assert_eq!(other.generation, None);
    assert!(other.to_string().contains("unknown CPU vendor"));
}

/// The newest Intel architectural performance monitoring version the definitions describe,
/// and its generation: the largest `at-least` of the architectural (not CPU-model)
/// generations detected from CPUID.0AH:EAX's version ID (found through their generated
/// `DetectSpec`, not a list of ids).
fn newest_intel_version() -> (u32, Generation) {
    struct DetectOf;
    impl ArchVisitor for DetectOf {
        type Output = DetectSpec;
        fn visit<A: Arch>(self) -> DetectSpec {
            A::DETECT
        }
    }
    Generation::ALL
        .iter()
        .filter_map(|&g| {
            let d = g.visit(DetectOf);
            let (field, at_least) = d.cpuid?;
            let arch_version = d.vendor == Vendor::Intel
                && d.cpus.is_empty()
                && field.leaf == 0x0A
                && field.register == 0
                && field.lsb == 0;
            arch_version.then_some((at_least, g))
        })
        .max_by_key(|&(v, _)| v)
        .expect("the definitions describe an Intel architectural version")
}

#[cfg(target_arch = "x86_64")]
#[test]
fn the_running_cpu_is_detected_without_panicking() {
    // Whatever this machine is (a VM in CI), detection completes and the report prints.
    let info = pmu_regs::detect::detect_live();
    let report = info.to_string();
    assert!(report.starts_with("CPU: "), "{report}");
    println!("{report}");
}

/// `detect_for` asks about one generation: its own `detect:` condition and what its CPUID
/// fields enumerate; `Pmu::new` accepts the result.
#[test]
fn detect_for_one_generation() {
    use pmu_regs::arch::{AmdCore, IntelV4};
    use pmu_regs::detect::detect_for;
    let info = detect_for::<IntelV4, _>(&mut CpuidTable::new(&KABY_LAKE_G4600)).unwrap();
    assert_eq!(info.id, Some("intel-v4"));
    assert_eq!((info.counters.gp, info.counters.fixed), (0xF, 0x7));
    assert_eq!(info.enumeration.condition, Some(4));
    let mock = Mock::<IntelV4>::new(MockConfig::from_info(&info, 1));
    assert!(Pmu::<IntelV4, _>::new(mock.cpu(0), &info).is_ok());
    // An AMD generation on an Intel CPU, and a later version than the CPU reports.
    assert!(detect_for::<AmdCore, _>(&mut CpuidTable::new(&KABY_LAKE_G4600)).is_none());
    assert!(
        detect_for::<pmu_regs::arch::IntelV5, _>(&mut CpuidTable::new(&KABY_LAKE_G4600)).is_none()
    );
    // `detect` records the id it enumerated for: the CPU model's when its generation is
    // compiled in (a Cargo feature), else the architectural one.
    let info = run(&KABY_LAKE_G4600);
    assert_eq!(info.id, Some(info.model.map_or("intel-v4", |m| m.id())));
}

/// Facilities from the same CPUID dumps. Fn8000_0001_ECX of both Ryzens is 75C237FFH: IBS
/// (bit 10, Instruction-Based Sampling), PerfCtrExtNB (bit 24, Data Fabric counters) and
/// PerfCtrExtLLC (bit 28, L3 counters) set (AMD64 APM Vol. 3, CPUID Fn8000_0001_ECX); the
/// Zen 4's Fn8000_0022_EAX (3) has LbrExtV2 (bit 1) beside PerfMonV2. The Zen 2 part (family
/// 17h) gets the family 17h L3 layout and the legacy Data Fabric counters; the Zen 4 part
/// (family 19h, PerfMonV2 in Fn8000_0022_EAX[0]) the family 19h L3 layout and PerfMonV2's
/// Data Fabric counters, each instead of the layout it extends (Linux
/// arch/x86/events/amd/uncore.c chooses the same way). Alder Lake's CPUID.(7,0):EDX[19] (FC18C410H) enumerates architectural LBRs; Kaby
/// Lake's (0) does not, and the K7 has none of them.
#[test]
fn facilities_follow_the_definitions_conditions() {
    use pmu_regs::arch::Facility;
    use pmu_regs::detect::facilities;

    let of = |t: &[CpuidEntry]| facilities(&mut CpuidTable::new(t));
    let zen2 = of(&RYZEN_5_3600);
    assert_eq!(
        zen2.iter().collect::<Vec<_>>(),
        [Facility::AmdDf, Facility::AmdIbs, Facility::AmdL3F17h],
        "{zen2}"
    );
    let zen4 = of(&RYZEN_7_7700X);
    assert_eq!(
        zen4.iter().collect::<Vec<_>>(),
        [
            Facility::AmdDfV2,
            Facility::AmdIbs,
            Facility::AmdL3F19h,
            Facility::AmdLbrV2
        ],
        "{zen4}"
    );
    assert_eq!(
        zen4.to_string(),
        "amd-df-v2, amd-ibs, amd-l3-f19h, amd-lbr-v2"
    );
    assert!(of(&ATHLON_XP_3200).is_empty());
    assert_eq!(of(&ATHLON_XP_3200).to_string(), "none");

    // IBS follows its own bit, not the core PMU's: the same Zen 4 with IBS hidden (as a
    // hypervisor may, keeping PerfCtrExtCore and PerfMonV2) keeps its generation and loses IBS.
    let mut guest = RYZEN_7_7700X;
    let ext = guest.iter_mut().find(|e| e.leaf == 0x8000_0001).unwrap();
    ext.regs.ecx &= !(1 << 10);
    assert!(!of(&guest).contains(Facility::AmdIbs), "{}", of(&guest));
    assert_eq!(run(&guest).generation, run(&RYZEN_7_7700X).generation);
    // Likewise the LBR v2 stack: PerfMonV2 (Fn8000_0022_EAX[0]) without LbrExtV2 (bit 1).
    let ext = guest.iter_mut().find(|e| e.leaf == 0x8000_0022).unwrap();
    ext.regs.eax &= !(1 << 1);
    assert!(!of(&guest).contains(Facility::AmdLbrV2), "{}", of(&guest));
    assert_eq!(run(&guest).generation, run(&RYZEN_7_7700X).generation);

    // AMD's RAPL follows CPUID Fn8000_0007_EDX[RAPL] (bit 14; Linux sets X86_FEATURE_RAPL from
    // it in early_init_amd). The Zen 4 table above has no leaf 8000_0007H; with one whose
    // EDX has only bit 14 set, amd-rapl is detected, and without that bit it is not.
    let power = |edx| CpuidEntry::new(0x8000_0007, 0, [0, 0, 0, edx]);
    let [a, b, c, d, e, f] = RYZEN_7_7700X;
    let with_rapl = [a, b, c, d, e, f, power(1 << 14)];
    assert!(
        of(&with_rapl).contains(Facility::AmdRapl),
        "{}",
        of(&with_rapl)
    );
    assert!(!zen4.contains(Facility::AmdRapl));
    let without = [a, b, c, d, e, f, power(!(1 << 14))];
    assert!(
        !of(&without).contains(Facility::AmdRapl),
        "{}",
        of(&without)
    );

    let adl = of(&ALDER_LAKE_P_I7_12700H);
    assert!(adl.contains(Facility::IntelArchLbr), "{adl}");
    assert!(adl.iter().all(|f| f.detect().vendor == Vendor::Intel));
    assert!(!of(&KABY_LAKE_G4600).contains(Facility::IntelArchLbr));
    // A facility's registers are in its generated module.
    assert_eq!(Facility::IntelArchLbr.module(), "pmu_regs::intel::arch_lbr");
}
