//! `Pmu::probe`: counters that hold what is written are real, stubbed or missing ones are not,
//! a counter in use is left alone, and every counter ends as it was.

use pmu_regs::arch::{AmdCore, Arch, Counter, Filter, FixedMode, IntelV1, IntelV4};
use pmu_regs::backend::mock::{Mock, MockConfig, MockFault};
use pmu_regs::detect::CounterSet;
use pmu_regs::intel::v4::ArchEvent;
use pmu_regs::pmu::{CounterProbe, Error, Pmu, Presence, ProbeFailure};

fn mock_pmu<A: Arch>(cfg: MockConfig) -> (Mock<A>, Pmu<A, pmu_regs::backend::mock::MockCpu<A>>) {
    let mock = Mock::<A>::new(cfg);
    let pmu = Pmu::<A, _>::with_counters(mock.cpu(0), CounterSet::full::<A>());
    (mock, pmu)
}

fn all(n: u32) -> u32 {
    (1 << n) - 1
}

#[test]
fn counters_that_hold_their_values_are_real_and_keep_them() {
    let (mock, mut pmu) = mock_pmu::<IntelV4>(MockConfig::full::<IntelV4>(1));
    let (gp, fixed) = (IntelV4::GP_INSTANCES, IntelV4::FIXED_INSTANCES);
    for n in 0..gp {
        pmu.write_counter(Counter::Gp(n), 0x1000 + n as u64)
            .unwrap();
    }
    pmu.write_counter(Counter::Fixed(1), 0x4242).unwrap();
    let probe = pmu.probe();
    assert_eq!(probe.presence(), Presence::Real);
    let want = |n| CounterProbe {
        working: all(n),
        ..CounterProbe::default()
    };
    assert_eq!((probe.gp, probe.fixed), (want(gp), want(fixed)));
    assert_eq!(probe.first_failure, None);
    for n in 0..gp {
        assert_eq!(pmu.read(Counter::Gp(n)).unwrap(), 0x1000 + n as u64);
    }
    assert_eq!(pmu.read(Counter::Fixed(1)).unwrap(), 0x4242);
    assert!(mock.faults().is_empty(), "{:?}", mock.faults());
    // Nothing was programmed: every event select and the fixed control are still zero.
    for n in 0..gp {
        let select = IntelV4::gp_select(n).unwrap();
        assert_eq!(
            mock.peek(0, select),
            Some(0),
            "IA32_PERFEVTSEL{n} was written"
        );
    }
    assert_eq!(mock.peek(0, IntelV4::fixed_ctrl().unwrap()), Some(0));
}

#[test]
fn stubbed_counters_that_read_zero_are_found() {
    // A hypervisor that stubs general counters 2 and 3 and fixed counter 0.
    let cfg = MockConfig::full::<IntelV4>(1).with_inert_counters(0b1100, 0b1);
    let (mock, mut pmu) = mock_pmu::<IntelV4>(cfg);
    let probe = pmu.probe();
    assert_eq!(probe.presence(), Presence::Partial);
    let gp = all(IntelV4::GP_INSTANCES);
    assert_eq!((probe.gp.working, probe.gp.failed), (gp & !0b1100, 0b1100));
    assert_eq!(probe.fixed.failed, 0b1);
    assert_eq!(
        probe.first_failure,
        Some((
            Counter::Gp(2),
            ProbeFailure::NotHeld {
                wrote: 0xFFFF,
                read: 0
            }
        ))
    );
    assert!(mock.faults().is_empty(), "a stub does not fault");

    let all_inert = MockConfig::full::<IntelV4>(1).with_inert_counters(u32::MAX, u32::MAX);
    let (_, mut pmu) = mock_pmu::<IntelV4>(all_inert);
    assert_eq!(pmu.probe().presence(), Presence::Absent);
}

#[test]
fn counters_cpuid_reports_but_the_machine_lacks_are_absent() {
    // CPUID says 4 general counters; the (virtual) machine has 2: the others fault.
    let mut have = CounterSet::full::<IntelV4>();
    have.gp = 0b11;
    have.fixed = 0;
    let mock = Mock::<IntelV4>::new(MockConfig {
        counters: have,
        ..MockConfig::full::<IntelV4>(1)
    });
    let mut pmu = Pmu::<IntelV4, _>::with_counters(mock.cpu(0), CounterSet::full::<IntelV4>());
    let probe = pmu.probe();
    assert_eq!(probe.presence(), Presence::Partial);
    assert_eq!(probe.gp.working, 0b11);
    assert_eq!(probe.gp.failed, all(IntelV4::GP_INSTANCES) & !0b11);
    // General counters first, then fixed: the first failure is general counter 2's select.
    assert_eq!(probe.fixed.failed, all(IntelV4::FIXED_INSTANCES));
    let address = IntelV4::gp_select(2).unwrap();
    assert_eq!(
        probe.first_failure,
        Some((
            Counter::Gp(2),
            ProbeFailure::Access(Error::Msr(MockFault::UnknownMsr {
                cpu: 0,
                address,
                write: false
            }))
        ))
    );
    // No counter at all, as in a guest whose leaf 0AH is zero.
    let none = CounterSet {
        gp: 0,
        fixed: 0,
        ..CounterSet::full::<IntelV4>()
    };
    let mut pmu = Pmu::<IntelV4, _>::with_counters(mock.cpu(0), none);
    let probe = pmu.probe();
    assert_eq!(probe.presence(), Presence::Absent);
    assert_eq!(probe.first_failure, None);
}

#[test]
fn a_counter_in_use_is_left_alone() {
    let (mock, mut pmu) = mock_pmu::<IntelV4>(MockConfig::full::<IntelV4>(1));
    pmu.program(1, &ArchEvent::LlcMisses, Filter::ALL).unwrap();
    pmu.program_fixed(2, FixedMode::All, false).unwrap();
    mock.tick(0, Counter::Gp(1), 7).unwrap();
    let writes = mock.writes();
    let probe = pmu.probe();
    assert_eq!(probe.presence(), Presence::Real);
    assert_eq!((probe.gp.busy, probe.fixed.busy), (0b10, 0b100));
    assert_eq!(probe.gp.working & 0b10, 0, "a busy counter is not tested");
    assert_eq!(
        pmu.read(Counter::Gp(1)).unwrap(),
        7,
        "its count is untouched"
    );
    // Two writes (test value, old value) per tested counter, none for the busy ones.
    let tested = (probe.gp.working.count_ones() + probe.fixed.working.count_ones()) as u64;
    assert_eq!(mock.writes() - writes, 2 * tested);
}

#[test]
fn a_value_above_bit_31_is_restored_only_with_full_width_writes() {
    let high = 1u64 << 40 | 0x1234;
    for fw in [false, true] {
        // The machine has full-width writes (to preload bit 40); the probing `Pmu` uses
        // them or not.
        let cfg = MockConfig::full::<IntelV4>(1).with_full_width_writes(true);
        let mock = Mock::<IntelV4>::new(cfg);
        let mut pmu = Pmu::<IntelV4, _>::with_counters(mock.cpu(0), CounterSet::full::<IntelV4>())
            .with_full_width_writes(true);
        pmu.write_counter(Counter::Gp(0), high).unwrap();
        let mut pmu = Pmu::<IntelV4, _>::with_counters(mock.cpu(0), CounterSet::full::<IntelV4>())
            .with_full_width_writes(fw);
        let probe = pmu.probe();
        assert_eq!(probe.presence(), Presence::Real);
        if fw {
            assert_eq!(probe.gp.not_restored, 0);
            assert_eq!(pmu.read(Counter::Gp(0)).unwrap(), high);
        } else {
            assert_eq!(probe.gp.not_restored, 0b1, "bit 40 cannot be written back");
            assert_eq!(pmu.read(Counter::Gp(0)).unwrap(), 0x1234);
        }
    }
}

#[test]
fn other_generations_probe_the_same_way() {
    let (mock, mut pmu) = mock_pmu::<AmdCore>(MockConfig::full::<AmdCore>(1));
    let probe = pmu.probe();
    assert_eq!(probe.presence(), Presence::Real);
    assert_eq!(probe.gp.working, all(AmdCore::GP_INSTANCES));
    assert_eq!(probe.fixed, CounterProbe::default());
    assert!(mock.faults().is_empty());

    let (mock, mut pmu) =
        mock_pmu::<IntelV1>(MockConfig::full::<IntelV1>(1).with_inert_counters(0b1, 0));
    let probe = pmu.probe();
    assert_eq!(probe.presence(), Presence::Partial);
    assert_eq!(probe.gp.failed, 0b1);
    assert!(mock.faults().is_empty());
}
