// A file extending a shipped generation (`amd-perfmon-v2`): registers! loads the shipped
// definitions first, generates only `amd-zen5-test`, and re-exports what it inherits
// unchanged from pmu_regs itself, so those are pmu_regs' types. Its generated marker type
// implements pmu_regs::arch::Arch, so Pmu and the mock take it like a built-in generation.
pmu_macros::registers!("extends_builtin.yaml");

use amd::zen5_test::{
    AmdZen5Test, PERF_CNTR_GLOBAL_CTL, PERF_CNTR_GLOBAL_STATUS, PERF_CNTR_GLOBAL_STATUS_CLR,
    PERF_CNTR_GLOBAL_STATUS_SET, PERF_CTR, PERF_CTR_CORE, PERF_EVT_SEL, PERF_EVT_SEL_CORE, cpuid,
};
use pmu_regs::arch::{Arch, Counter, Filter};
use pmu_regs::backend::mock::{Mock, MockConfig};
use pmu_regs::detect::{CounterSet, CpuidEntry, CpuidTable, detect_for};
use pmu_regs::pmu::Pmu;

// Typed with pmu_regs' own paths: the inherited items must be these very types.
fn legacy_count(v: pmu_regs::amd::perfmon_v2::PERF_CTR::Value) -> u64 {
    v.bits()
}

fn legacy_select(v: pmu_regs::amd::core::PERF_EVT_SEL::Value) -> u64 {
    v.bits()
}

fn leaf(l: pmu_regs::amd::perfmon_v2::cpuid::EXT_PERFMON_DEBUG::Leaf) -> u8 {
    l.ebx.num_perf_ctr_core()
}

// The widened registers are the fixture's own.
const ALL_ON: PERF_CNTR_GLOBAL_CTL::Value = PERF_CNTR_GLOBAL_CTL::Value::new()
    .with_bit::<PERF_CNTR_GLOBAL_CTL::EN0>(true)
    .with_bit::<PERF_CNTR_GLOBAL_CTL::EN7>(true)
    .build();

fn main() {
    assert_eq!(ALL_ON.bits(), 0x81);
    assert_eq!(PERF_CTR_CORE::INSTANCES, 8);
    // The YAML states only PERF_CTR_CORE's count: every per-counter shape follows it.
    assert_eq!(PERF_EVT_SEL_CORE::INSTANCES, 8);
    assert_eq!(PERF_EVT_SEL_CORE::address::<7>(), 0xC001_020E);
    for fields in [
        PERF_CNTR_GLOBAL_CTL::FIELDS,
        PERF_CNTR_GLOBAL_STATUS::FIELDS,
        PERF_CNTR_GLOBAL_STATUS_CLR::FIELDS,
        PERF_CNTR_GLOBAL_STATUS_SET::FIELDS,
    ] {
        let bit7 = fields.iter().any(|f| f.runs.iter().any(|r| r.lsb == 7));
        assert!(bit7, "{:?}", fields.iter().map(|f| f.name).collect::<Vec<_>>());
    }
    assert_eq!(PERF_CTR_CORE::address::<7>(), 0xC001_020F);
    assert_eq!(pmu_regs::amd::perfmon_v2::PERF_CTR_CORE::INSTANCES, 6);
    assert_eq!(legacy_count(PERF_CTR::Value::from_raw_read(5)), 5);
    assert_eq!(legacy_select(PERF_EVT_SEL::Value::from_raw_read(0)), 0);
    let l = cpuid::EXT_PERFMON_DEBUG::Leaf::from_regs(1, 8, 0, 0);
    assert_eq!(leaf(l), 8);

    // The out-of-tree generation through the run-time layer: counter 7 exists only here.
    assert_eq!(AmdZen5Test::ID, "amd-zen5-test");
    assert_eq!(AmdZen5Test::generation(), None);
    assert_eq!(AmdZen5Test::GP_INSTANCES, 8);
    let mock = Mock::<AmdZen5Test>::new(MockConfig::full::<AmdZen5Test>(1));
    let mut pmu =
        Pmu::<AmdZen5Test, _>::with_counters(mock.cpu(0), CounterSet::full::<AmdZen5Test>());
    let retired = pmu_regs::EventDesc::new("RETIRED_INSTRUCTIONS", 0xC0, 0);
    pmu.program_raw(7, &retired, Filter::ALL).unwrap();
    mock.tick(0, Counter::Gp(7), 42).unwrap();
    assert_eq!(pmu.read(Counter::Gp(7)).unwrap(), 42);
    assert!(mock.faults().is_empty());

    // Detection through the generated DetectSpec: an AMD CPU enumerating PerfMonV2 with eight
    // core counters (CPUID Fn8000_0022_EBX[3:0] = 8).
    let cpu = [
        CpuidEntry::new(0, 0, [0x10, 0x6874_7541, 0x444D_4163, 0x6974_6E65]),
        CpuidEntry::new(1, 0, [0x00B4_0F40, 0, 0, 0]),
        CpuidEntry::new(0x8000_0000, 0, [0x8000_0022, 0, 0, 0]),
        CpuidEntry::new(0x8000_0022, 0, [0x1, 0x8, 0, 0]),
    ];
    let info = detect_for::<AmdZen5Test, _>(&mut CpuidTable::new(&cpu)).unwrap();
    assert_eq!(info.id, Some("amd-zen5-test"));
    assert_eq!(info.counters.gp, 0xFF);
    let mock = Mock::<AmdZen5Test>::new(MockConfig::from_info(&info, 1));
    let mut pmu = Pmu::<AmdZen5Test, _>::new(mock.cpu(0), &info).unwrap();
    pmu.program_raw(7, &retired, Filter::ALL).unwrap();
    // Without PerfMonV2 the condition fails.
    let old = [cpu[0], cpu[1], cpu[2], CpuidEntry::new(0x8000_0022, 0, [0, 0x8, 0, 0])];
    assert!(detect_for::<AmdZen5Test, _>(&mut CpuidTable::new(&old)).is_none());
}
