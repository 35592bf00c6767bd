//! The kernel crate's logic against the mock PMU, with CPUID values recorded on real CPUs.

use kernel_pmc::{Sample, StartError, sample, start};
use pmu_regs::arch::{Counter, Generation, IntelV4};
use pmu_regs::backend::mock::{Mock, MockConfig};
use pmu_regs::detect::{CpuidEntry, CpuidTable, detect};
use pmu_regs::intel::v4::{IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL, IA32_PERFEVTSEL};

/// Intel Pentium G4600 (Kaby Lake): google/EXEgesis exegesis/base/cpuid_x86_test.cc.
const KABY_LAKE_G4600: [CpuidEntry; 4] = [
    CpuidEntry::new(0x0, 0, [0x16, 0x756E_6547, 0x6C65_746E, 0x4965_6E69]),
    CpuidEntry::new(0x1, 0, [0x0009_06E9, 0x0010_0800, 0x4FFA_EBBF, 0xBFEB_FBFF]),
    CpuidEntry::new(0x7, 0, [0x0, 0x0294_6687, 0x0, 0x0]),
    CpuidEntry::new(0xA, 0, [0x0730_0404, 0x0, 0x0, 0x0000_0603]),
];

#[test]
fn programs_llc_misses_on_pmc0_and_the_fixed_counters() {
    let info = detect(&mut CpuidTable::new(&KABY_LAKE_G4600));
    let mock = Mock::<IntelV4>::new(MockConfig::from_info(&info, 1));
    let started = start(mock.cpu(0), &info).unwrap();
    assert_eq!(started.generation, Generation::IntelV4);
    assert_eq!(started.fixed, 0b111);
    // Event 2EH, umask 41H, USR, OS, EN (SDM "Pre-defined Architectural Performance Events").
    assert_eq!(started.select, 0x0043_412E);
    assert_eq!(
        mock.peek(0, IA32_PERFEVTSEL::address::<0>()),
        Some(0x0043_412E)
    );
    // ENABLE = 3 (all rings) in each of the three 4-bit blocks.
    assert_eq!(mock.peek(0, IA32_FIXED_CTR_CTRL::ADDRESS), Some(0x333));
    // EN_PMC0 and EN_FIXED_CTR0-2.
    assert_eq!(
        mock.peek(0, IA32_PERF_GLOBAL_CTRL::ADDRESS),
        Some(0x7_0000_0001)
    );

    mock.tick(0, Counter::Gp(0), 17).unwrap();
    mock.tick(0, Counter::Fixed(1), 1000).unwrap();
    let s = sample(mock.cpu(0), &info).unwrap();
    assert_eq!(
        s,
        Sample {
            llc_misses: 17,
            fixed: [Some(0), Some(1000), Some(0), None]
        }
    );
    assert!(mock.faults().is_empty());
}

#[test]
fn refuses_cpus_without_an_intel_pmu() {
    // AMD Ryzen 5 3600: anrieff/libcpuid tests/amd/zen2/amd-ryzen-5-3600-6-core-processor.test.
    let amd = [
        CpuidEntry::new(0x0, 0, [0x10, 0x6874_7541, 0x444D_4163, 0x6974_6E65]),
        CpuidEntry::new(0x1, 0, [0x0087_0F10, 0x000C_0800, 0x7ED8_320B, 0x178B_FBFF]),
        CpuidEntry::new(0x8000_0000, 0, [0x8000_0020, 0, 0, 0]),
        CpuidEntry::new(
            0x8000_0001,
            0,
            [0x0087_0F10, 0x2000_0000, 0x75C2_37FF, 0x2FD3_FBFF],
        ),
    ];
    let info = detect(&mut CpuidTable::new(&amd));
    let mock = Mock::<IntelV4>::new(MockConfig::full::<IntelV4>(1));
    let err = start(mock.cpu(0), &info).unwrap_err();
    assert_eq!(
        err,
        StartError::NoIntelPmu {
            found: Some(Generation::AmdCore)
        }
    );
    assert_eq!(
        err.to_string(),
        "amd-core is not an Intel architectural PMU"
    );
    assert_eq!(mock.writes(), 0);
}

#[test]
fn refuses_when_cpuid_marks_llc_misses_unavailable() {
    // Synthetic: the Kaby Lake leaf 0AH with EBX bit 4 (LLC misses) set.
    let mut table = KABY_LAKE_G4600;
    table[3] = CpuidEntry::new(0xA, 0, [0x0730_0404, 1 << 4, 0x0, 0x0000_0603]);
    let info = detect(&mut CpuidTable::new(&table));
    let mock = Mock::<IntelV4>::new(MockConfig::from_info(&info, 1));
    let err = start(mock.cpu(0), &info).unwrap_err();
    assert!(
        err.to_string().contains("LLC_MISSES is not available"),
        "{err}"
    );
    assert_eq!(mock.writes(), 0);
}
