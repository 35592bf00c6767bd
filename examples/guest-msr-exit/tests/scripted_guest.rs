//! A scripted guest against the handler, on the mock PMU: program two counters, enable them
//! globally, read back, write a reserved bit and get the fault, use an event the filter
//! denies.

use guest_msr_exit::{Exit, VirtualPmu};
use pmu_regs::arch::{Counter, IntelV4};
use pmu_regs::backend::mock::{Mock, MockConfig};
use pmu_regs::detect::{CpuidEntry, CpuidTable};
use pmu_regs::guest::{EventFilter, EventMatch, GuestFault, GuestPmu};

/// A version 4 guest: four general counters and three fixed counters of 48 bits, AnyThread
/// available (Intel Pentium G4600's leaf 0AH, google/EXEgesis exegesis/base/cpuid_x86_test.cc),
/// with the hypervisor bit set.
const GUEST: [CpuidEntry; 3] = [
    CpuidEntry::new(0x0, 0, [0x16, 0x756E_6547, 0x6C65_746E, 0x4965_6E69]),
    CpuidEntry::new(0x1, 0, [0x0009_06E9, 0x0010_0800, 0x8000_0000, 0]),
    CpuidEntry::new(0xA, 0, [0x0730_0404, 0x0, 0x0, 0x0000_0603]),
];

// IA32_PERFEVTSELn, IA32_PMCn and IA32_PERF_GLOBAL_CTRL (Intel SDM Vol. 4, Table 2-2).
const PERFEVTSEL: u32 = 0x186;
const PMC: u32 = 0xC1;
const GLOBAL_CTRL: u32 = 0x38F;
/// Unhalted core cycles (3CH) and instructions retired (C0H), USR, OS, EN (SDM Vol. 3B,
/// "Pre-defined Architectural Performance Events").
const CYCLES: u64 = 0x43_003C;
const INSTRUCTIONS: u64 = 0x43_00C0;
/// LLC misses (2EH, unit mask 41H), USR, OS, EN.
const LLC_MISSES: u64 = 0x43_412E;

#[test]
fn a_scripted_guest_runs_on_the_mock() {
    let deny = [EventMatch::exact(0x2E, 0x41)];
    let guest = GuestPmu::from_cpuid(&mut CpuidTable::new(&GUEST), None)
        .with_filter(EventFilter::deny(&deny));
    let mock = Mock::<IntelV4>::new(MockConfig::from_info(guest.info(), 1));
    let mut vpmu = VirtualPmu::new(guest, mock.cpu(0));

    // Program two counters and enable them globally.
    vpmu.wrmsr(PERFEVTSEL, CYCLES).unwrap();
    vpmu.wrmsr(PERFEVTSEL + 1, INSTRUCTIONS).unwrap();
    vpmu.wrmsr(GLOBAL_CTRL, 0b11).unwrap();
    assert_eq!(mock.peek(0, PERFEVTSEL), Some(CYCLES));
    assert_eq!(mock.peek(0, GLOBAL_CTRL), Some(0b11));

    // They count, and the guest reads back what it wrote.
    mock.tick(0, Counter::Gp(0), 1000).unwrap();
    mock.tick(0, Counter::Gp(1), 400).unwrap();
    assert_eq!(vpmu.rdmsr(PMC).unwrap(), 1000);
    assert_eq!(vpmu.rdmsr(PMC + 1).unwrap(), 400);
    assert_eq!(vpmu.rdmsr(PERFEVTSEL).unwrap(), CYCLES);
    assert_eq!(vpmu.rdmsr(GLOBAL_CTRL).unwrap(), 0b11);

    // A reserved bit (63) faults, and nothing reaches the host.
    let writes = mock.writes();
    let err = vpmu.wrmsr(PERFEVTSEL, CYCLES | 1 << 63).unwrap_err();
    assert!(
        matches!(err, Exit::Inject(GuestFault::Reserved { msr: PERFEVTSEL, reserved, .. }) if reserved == 1 << 63),
        "{err:?}"
    );
    assert_eq!(mock.writes(), writes);
    assert_eq!(vpmu.rdmsr(PERFEVTSEL).unwrap(), CYCLES);
    // So does a counter the guest does not have, and a write to the read-only status.
    assert!(matches!(
        vpmu.rdmsr(PMC + 4),
        Err(Exit::Inject(GuestFault::NoSuchMsr { .. }))
    ));
    assert!(matches!(
        vpmu.wrmsr(0x38E, 0),
        Err(Exit::Inject(GuestFault::ReadOnly { .. }))
    ));

    // A denied event: the guest reads its select back, the host counter does not count.
    vpmu.wrmsr(PERFEVTSEL + 2, LLC_MISSES).unwrap();
    vpmu.wrmsr(GLOBAL_CTRL, 0b111).unwrap();
    assert_eq!(vpmu.rdmsr(PERFEVTSEL + 2).unwrap(), LLC_MISSES);
    assert_eq!(mock.peek(0, PERFEVTSEL + 2), Some(0));
    mock.tick(0, Counter::Gp(2), 50).unwrap();
    assert_eq!(vpmu.rdmsr(PMC + 2).unwrap(), 0);
    assert!(mock.faults().is_empty(), "{:?}", mock.faults());
}
