//! Detection of the newest CPU models (Granite Rapids, Panther Lake, Nova Lake, Zen 5) from a
//! CPUID table of each part. Their model generations sit behind Cargo features, so this file
//! only builds with them: `cargo test -p pmu-regs --features all-models --test todays_cpus`
//! (CI runs it).
//!
//! The Zen 5 tables are recorded dumps (registers only, the leaves detection reads), named
//! next to each. No public dump of the three Intel parts was found; their tables are built
//! from the published facts instead, each value explained: the signature from the family and
//! model of Intel's perfmon `mapfile.csv` (and Linux `arch/x86/include/asm/intel-family.h`),
//! leaf 0AH from the counters Intel's event lists use (SDM Vol. 2A, CPUID leaf 0AH layout),
//! and on hybrid parts leaf 1AH from the mapfile's core type and native model id.
#![cfg(all(
    feature = "amd-zen5",
    feature = "intel-graniterapids",
    feature = "intel-pantherlake-cougarcove",
    feature = "intel-pantherlake-darkmont",
    feature = "intel-novalake-coyotecove",
    feature = "intel-novalake-arcticwolf",
))]

use pmu_regs::arch::{Facility, Generation};
use pmu_regs::detect::{CpuVendor, CpuidEntry, CpuidTable, PmuInfo, detect, facilities};

const GENUINE_INTEL: [u32; 3] = [0x756E_6547, 0x6C65_746E, 0x4965_6E69];
const AUTHENTIC_AMD: [u32; 3] = [0x6874_7541, 0x444D_4163, 0x6974_6E65];

const fn leaf0(max: u32, vendor: [u32; 3]) -> CpuidEntry {
    CpuidEntry::new(0, 0, [max, vendor[0], vendor[1], vendor[2]])
}

fn run(table: &[CpuidEntry]) -> PmuInfo {
    detect(&mut CpuidTable::new(table))
}

fn model(id: &str) -> Option<Generation> {
    Some(Generation::from_id(id).unwrap_or_else(|| panic!("{id} is not compiled in")))
}

/// AMD Ryzen 9 9950X (Zen 5 Granite Ridge, signature 00B40F40, logical CPU #0):
/// anrieff/libcpuid, tests/amd/zen5/amd-ryzen-9-9950x-16-core-processor.test (commit
/// 790c067401a4605f38ddbbb4060f46d0e8873c82).
const RYZEN_9_9950X: [CpuidEntry; 7] = [
    leaf0(0x10, AUTHENTIC_AMD),
    CpuidEntry::new(0x1, 0, [0x00B4_0F40, 0x0020_0800, 0x7ED8_320B, 0x178B_FBFF]),
    CpuidEntry::new(0xA, 0, [0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000]),
    CpuidEntry::new(
        0x8000_0000,
        0,
        [0x8000_0028, 0x6874_7541, 0x444D_4163, 0x6974_6E65],
    ),
    CpuidEntry::new(
        0x8000_0001,
        0,
        [0x00B4_0F40, 0x0000_0000, 0x75C2_37FF, 0x2FD3_FBFF],
    ),
    CpuidEntry::new(
        0x8000_001B,
        0,
        [0x0008_1BFF, 0x0000_0000, 0x0000_0000, 0x0000_0000],
    ),
    CpuidEntry::new(
        0x8000_0022,
        0,
        [0x0000_0007, 0x0008_4106, 0x0000_0003, 0x0000_0000],
    ),
];

/// AMD EPYC 9655 (Zen 5 Turin, signature 00B00F21, logical CPU #0): anrieff/libcpuid,
/// tests/amd/zen5/epyc-turin.test (commit 43be84460c9515deafc251fbe3a0485770b06fe6).
const EPYC_9655: [CpuidEntry; 7] = [
    leaf0(0x10, AUTHENTIC_AMD),
    CpuidEntry::new(0x1, 0, [0x00B0_0F21, 0x0040_0800, 0x7EFA_320B, 0x178B_FBFF]),
    CpuidEntry::new(0xA, 0, [0x0000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000]),
    CpuidEntry::new(
        0x8000_0000,
        0,
        [0x8000_0028, 0x6874_7541, 0x444D_4163, 0x6974_6E65],
    ),
    CpuidEntry::new(
        0x8000_0001,
        0,
        [0x00B0_0F21, 0x4000_0000, 0x75C2_37FF, 0x2FD3_FBFF],
    ),
    CpuidEntry::new(
        0x8000_001B,
        0,
        [0x0008_1BFF, 0x0000_0000, 0x0000_0000, 0x0000_0000],
    ),
    CpuidEntry::new(
        0x8000_0022,
        0,
        [0x0000_0007, 0x0030_4106, 0x0000_0FFF, 0x0000_0000],
    ),
];

/// Both Zen 5 dumps: family 1Ah, Fn8000_0022_EAX = 7 (PerfMonV2, LbrExtV2,
/// LbrAndPmcFreeze), EBX[3:0] = 6 core counters; Fn8000_0001_ECX = 75C237FF has IBS (bit 10)
/// and PerfCtrExtCore (bit 23). The model is amd-zen5 on the desktop (model 44h) and the
/// server part (model 02h) alike, on PerfMonV2.
#[test]
fn zen5_desktop_and_server_parts_are_amd_zen5_on_perfmon_v2() {
    for (name, table, cpu_model) in [
        ("Ryzen 9 9950X", &RYZEN_9_9950X, 0x44),
        ("EPYC 9655", &EPYC_9655, 0x02),
    ] {
        let info = run(table);
        assert_eq!(info.vendor, CpuVendor::Amd, "{name}");
        assert_eq!((info.family(), info.model()), (0x1A, cpu_model), "{name}");
        assert_eq!(info.generation, Some(Generation::AmdPerfmonV2), "{name}");
        assert_eq!(info.model, model("amd-zen5"), "{name}");
        assert_eq!(info.enumeration.general_count, Some(6), "{name}");
        assert_eq!(info.counters.gp, 0x3F, "{name}");
        assert_eq!(info.counters.gp_width, 48, "{name}");
        let found = facilities(&mut CpuidTable::new(table));
        assert!(found.contains(Facility::AmdIbs), "{name}: {found}");
        assert!(found.contains(Facility::AmdLbrV2), "{name}: {found}");
    }
}

/// A version-`version` Intel part: leaf 1 `signature`, leaf 0AH with `gp` 48-bit general
/// counters (EAX: version 7:0, count 15:8, width 23:16, EBX length 31:24 = 8) and `fixed`
/// 48-bit fixed counters (EDX 4:0, width 12:5), and on hybrid parts leaf 1AH `core` (core
/// type 31:24, native model id 23:0).
fn intel(signature: u32, version: u32, gp: u32, fixed: u32, core: Option<u32>) -> PmuInfo {
    let mut table = vec![
        leaf0(0x1A, GENUINE_INTEL),
        CpuidEntry::new(0x1, 0, [signature, 0, 0, 0]),
        CpuidEntry::new(
            0xA,
            0,
            [
                (8 << 24) | (48 << 16) | (gp << 8) | version,
                0,
                0,
                (48 << 5) | fixed,
            ],
        ),
        CpuidEntry::new(0x8000_0000, 0, [0x8000_0008, 0, 0, 0]),
    ];
    if let Some(eax) = core {
        table.push(CpuidEntry::new(0x1A, 0, [eax, 0, 0, 0]));
    }
    run(&table)
}

/// Granite Rapids (Xeon 6 P-core): family 6, model ADh (mapfile `GenuineIntel-6-AD`, Linux
/// `INTEL_GRANITERAPIDS_X`), version 5 with 8 general and 4 fixed counters (Intel's list uses
/// general counters 0-7 and fixed counters 0-3); not hybrid.
#[test]
fn granite_rapids_is_its_own_model_on_version_5() {
    // Stepping 1: signature 000A06D1 (extended model Ah, family 6, model Dh).
    let info = intel(0x000A_06D1, 5, 8, 4, None);
    assert_eq!((info.family(), info.model()), (6, 0xAD));
    assert_eq!(info.generation, Some(Generation::IntelV5));
    assert_eq!(info.model, model("intel-graniterapids"));
    assert_eq!(info.counters.gp, 0xFF);
    assert_eq!(info.counters.fixed, 0xF);
    // Model AEh (Granite Rapids-D) too.
    let d = intel(0x000A_06E1, 5, 8, 4, None);
    assert_eq!(d.model, model("intel-graniterapids"));
}

/// Panther Lake: family 6, model CCh (mapfile `GenuineIntel-6-CC`, Linux
/// `INTEL_PANTHERLAKE_L`), hybrid; leaf 1AH names the core: 40H (Core, Cougar Cove) or 20H
/// (Atom, Darkmont), native model id 4. Cougar Cove counts on 10 general counters, Darkmont
/// on 8 (Intel's lists).
#[test]
fn panther_lake_cores_are_told_apart_by_core_type() {
    let p = intel(0x000C_06C0, 6, 10, 4, Some(0x4000_0004));
    assert_eq!((p.family(), p.model()), (6, 0xCC));
    assert_eq!(p.model, model("intel-pantherlake-cougarcove"));
    assert_eq!(p.counters.gp, 0x3FF);
    let e = intel(0x000C_06C0, 6, 8, 4, Some(0x2000_0004));
    assert_eq!(e.model, model("intel-pantherlake-darkmont"));
    assert_eq!(e.counters.gp, 0xFF);
    // Wildcat Lake (model D5h) is listed with the same core lists.
    let w = intel(0x000D_0650, 6, 10, 4, Some(0x4000_0004));
    assert_eq!((w.family(), w.model()), (6, 0xD5));
    assert_eq!(w.model, model("intel-pantherlake-cougarcove"));
}

/// Nova Lake: family 18 = 12H (mapfile `GenuineIntel-18-1` and `-18-3`, decimal as perf
/// prints it; Linux `INTEL_NOVALAKE` is `IFM(18, 0x01)`, `INTEL_NOVALAKE_L` `IFM(18, 0x03)`),
/// which CPUID spells as family Fh plus extended family 3. Hybrid: Coyote Cove (40H) and
/// Arctic Wolf (20H), native model id 5.
#[test]
fn nova_lake_is_family_12h_and_its_cores_are_told_apart() {
    for (signature, cpu_model) in [(0x0030_0F10, 1), (0x0030_0F30, 3)] {
        let p = intel(signature, 6, 8, 4, Some(0x4000_0005));
        assert_eq!((p.family(), p.model()), (0x12, cpu_model));
        assert_eq!(p.generation, Some(Generation::IntelV6));
        assert_eq!(p.model, model("intel-novalake-coyotecove"));
        let e = intel(signature, 6, 8, 7, Some(0x2000_0005));
        assert_eq!(e.model, model("intel-novalake-arcticwolf"));
    }
    // Family 18H (what reading the mapfile's 18 as hex would give) is not Nova Lake.
    let wrong = intel(0x0090_0F10, 6, 8, 4, Some(0x4000_0005));
    assert_eq!(wrong.family(), 0x18);
    assert_eq!(wrong.model, None);
}

/// Nova Lake's off-module response events program MSR_OMR_i, an indexed family (3E0H-3E3H):
/// the typed auxiliary value of such an event is the instance its primary encoding names
/// (unit mask 01H with MSR_OMR_0), with the list's value.
#[test]
fn nova_lake_off_module_events_have_typed_omr_values() {
    use pmu_regs::access::AuxValue;
    use pmu_regs::intel::novalake_coyotecove::events::{Aux, Event};
    let e = Event::MemLoadL2MissRetired_L3Miss;
    let aux = e.aux().expect("a typed MSR_OMR value");
    assert!(matches!(aux, Aux::MSR_OMR_0(_)), "{aux:?}");
    assert_eq!(aux.address(), 0x3E0);
    // Intel's NVL list: MSRValue 0xFF03F000000001 (request bit 0, response bits 55:32).
    assert_eq!(aux.bits(), 0x00FF_03F0_0000_0001);
    let desc = e.desc();
    assert!(desc.msr.is_some());
}
