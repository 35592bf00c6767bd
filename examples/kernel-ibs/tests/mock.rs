//! The kernel crate's logic against the mock PMU: a Zen 4 model event on core counter 0 and an
//! IBS op sample, with the sample's registers filled in as the hardware would.

use kernel_ibs::{Error, OpSample, Started, start, take_sample};
use pmu_regs::access::RawMsr;
use pmu_regs::amd::ibs::{
    IBS_DC_LIN_AD, IBS_FETCH_CTL, IBS_OP_CTL, IBS_OP_DATA, IBS_OP_DATA3, IBS_OP_RIP,
};
use pmu_regs::amd::zen4::PERF_EVT_SEL_CORE;
use pmu_regs::arch::{AmdZen4, Counter, Facility, Generation, Role};
use pmu_regs::backend::mock::{Mock, MockConfig};
use pmu_regs::detect::{CpuidEntry, CpuidTable, PmuInfo, detect, facilities};

/// A Zen 4 (family 19h model 61h, Raphael) CPUID table. Synthetic: the signature and the
/// vendor are those of a Ryzen 7000 part; the extended feature, PerfMonV2 and IBS leaves set
/// the bits the AMD APM defines for what this test needs (PerfCtrExtCore and IBS in
/// Fn8000_0001_ECX bits 23 and 10; PerfMonV2 with six core counters in Fn8000_0022; IBS
/// feature flags valid, fetch and op sampling, op counting in Fn8000_001B_EAX).
const ZEN4: [CpuidEntry; 6] = [
    CpuidEntry::new(0x0, 0, [0x10, 0x6874_7541, 0x444D_4163, 0x6974_6E65]),
    CpuidEntry::new(0x1, 0, [0x00A6_0F12, 0, 0, 0]),
    CpuidEntry::new(0x8000_0000, 0, [0x8000_0028, 0, 0, 0]),
    CpuidEntry::new(0x8000_0001, 0, [0x00A6_0F12, 0, (1 << 23) | (1 << 10), 0]),
    CpuidEntry::new(0x8000_001B, 0, [0b1_0111, 0, 0, 0]),
    CpuidEntry::new(0x8000_0022, 0, [0b1, 6, 0, 0]),
];

/// A mock of the CPU `table` describes: its counters and its facilities (IBS among them).
fn mock_of(table: &[CpuidEntry], info: &PmuInfo) -> Mock<AmdZen4> {
    let found = facilities(&mut CpuidTable::new(table));
    Mock::<AmdZen4>::new(MockConfig::from_info(info, 1).with_facilities(found))
}

#[test]
fn counts_a_zen4_event_and_takes_an_ibs_op_sample() {
    let info = detect(&mut CpuidTable::new(&ZEN4));
    assert_eq!(info.model, Some(Generation::AmdZen4));
    assert!(facilities(&mut CpuidTable::new(&ZEN4)).contains(Facility::AmdIbs));
    let mock = mock_of(&ZEN4, &info);
    let started = start(mock.cpu(0), &mut CpuidTable::new(&ZEN4), &info, 0x1000).unwrap();
    // Event 1CFH (EventSelect[7:0] = CFH in bits 7:0, [11:8] = 1 in bits 35:32), unit mask 1,
    // USR, OS, EN (AMD64 APM Vol. 2 §13.2.1).
    // IbsOpMaxCnt 1000H, IbsOpEn (17), IbsOpCntCtl (19) since OpCnt is enumerated (§13.3).
    assert_eq!(
        started,
        Started {
            select: 0x0000_0001_0043_01CF,
            ibs_op_ctl: 0x000A_1000,
        }
    );
    assert_eq!(
        mock.peek(0, PERF_EVT_SEL_CORE::address::<0>()),
        Some(started.select)
    );
    assert_eq!(mock.peek(0, IBS_OP_CTL::ADDRESS), Some(0x000A_1000));
    // No sample yet.
    assert_eq!(take_sample(mock.cpu(0), &info).unwrap(), None);

    // The hardware tags an op, counts, fills the op registers and sets IbsOpVal.
    mock.tick(0, Counter::Gp(0), 3).unwrap();
    let mut hw = mock.cpu(0);
    hw.write_raw(IBS_OP_RIP::ADDRESS, 0xFFFF_8000_0010_2030)
        .unwrap();
    hw.write_raw(IBS_OP_DATA::ADDRESS, (1 << 36) | (0x40 << 16) | 0x7)
        .unwrap();
    hw.write_raw(IBS_OP_DATA3::ADDRESS, (1 << 17) | (1 << 7) | 1)
        .unwrap();
    hw.write_raw(IBS_DC_LIN_AD::ADDRESS, 0x7FFF_0000_1000)
        .unwrap();
    hw.write_raw(IBS_OP_CTL::ADDRESS, 0x000A_1000 | (1 << 18))
        .unwrap();

    let sample = take_sample(mock.cpu(0), &info).unwrap();
    assert_eq!(
        sample,
        Some(OpSample {
            rip: 0xFFFF_8000_0010_2030,
            tag_to_retire: 0x40,
            mispredicted_branch: true,
            dc_miss_address: Some(0x7FFF_0000_1000),
            tagged_ops: 3,
        })
    );
    // Re-armed: IbsOpVal cleared, the rest as it was.
    assert_eq!(mock.peek(0, IBS_OP_CTL::ADDRESS), Some(0x000A_1000));
    assert!(mock.faults().is_empty(), "{:?}", mock.faults());
}

/// A generic kernel finds the IBS control registers by role, as the definitions state them.
#[test]
fn the_ibs_controls_have_their_roles() {
    let by_role = |role| {
        (Facility::AmdIbs.registers().iter())
            .find(|r| r.role == Some(role))
            .map(|r| r.addresses)
    };
    assert_eq!(
        by_role(Role::IbsOpControl),
        Some(&[IBS_OP_CTL::ADDRESS][..])
    );
    assert_eq!(
        by_role(Role::IbsFetchControl),
        Some(&[IBS_FETCH_CTL::ADDRESS][..])
    );
}

#[test]
fn refuses_without_ibs_op_sampling() {
    let mut table = ZEN4;
    table[4] = CpuidEntry::new(0x8000_001B, 0, [0b0011, 0, 0, 0]); // fetch sampling only
    let info = detect(&mut CpuidTable::new(&table));
    let mock = mock_of(&table, &info);
    let err = start(mock.cpu(0), &mut CpuidTable::new(&table), &info, 0x1000).unwrap_err();
    assert_eq!(err, Error::NoIbsOpSampling);
    assert_eq!(mock.writes(), 0);
}

#[test]
fn refuses_other_cpus() {
    // AMD Ryzen 5 3600 (Zen 2, family 17h model 71h): anrieff/libcpuid
    // tests/amd/zen2/amd-ryzen-5-3600-6-core-processor.test.
    let zen2 = [
        CpuidEntry::new(0x0, 0, [0x10, 0x6874_7541, 0x444D_4163, 0x6974_6E65]),
        CpuidEntry::new(0x1, 0, [0x0087_0F10, 0x000C_0800, 0x7ED8_320B, 0x178B_FBFF]),
        CpuidEntry::new(0x8000_0000, 0, [0x8000_0020, 0, 0, 0]),
        CpuidEntry::new(
            0x8000_0001,
            0,
            [0x0087_0F10, 0x2000_0000, 0x75C2_37FF, 0x2FD3_FBFF],
        ),
    ];
    let info = detect(&mut CpuidTable::new(&zen2));
    let mock = Mock::<AmdZen4>::new(MockConfig::full::<AmdZen4>(1));
    let err = start(mock.cpu(0), &mut CpuidTable::new(&zen2), &info, 0x1000).unwrap_err();
    // The model detection found is named: amd-zen2 when its feature is on (a workspace build
    // turns on every model for the `pmu` command), none when only this example's are.
    assert_eq!(err, Error::NotZen4 { found: info.model });
    assert_ne!(info.model.map(|g| g.id()), Some("amd-zen4"));
    assert_eq!(mock.writes(), 0);
}
