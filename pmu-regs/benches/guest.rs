//! A guest's PMU MSR accesses (issue 31): what a hypervisor's WRMSR exit pays in
//! `GuestPmu::check_write`, and construction from the guest's CPUID.
//!
//! Cases (each a criterion function), on a version 6 guest (8 general counters, 3 fixed
//! counters, TSX, leaf 23H with UMASK2 and EQ, IA32_PERF_CAPABILITIES with FW_WRITE and
//! PEBS_BASELINE):
//!
//! - `check_write_select`: a write to IA32_PERFEVTSEL3 (fields gated by `requires:`);
//! - `check_write_global`: a write to IA32_PERF_GLOBAL_CTRL (per-counter elements);
//! - `msrs`: every MSR the guest has with its write mask;
//! - `from_cpuid`: building the guest from its CPUID table.
//!
//! ```sh
//! cargo bench -p pmu-regs --bench guest
//! ```

use criterion::Criterion;
use pmu_regs::arch::Generation;
use pmu_regs::detect::{CpuidEntry, CpuidTable};
use pmu_regs::guest::GuestPmu;
use std::hint::black_box;
use std::time::Duration;

/// Version 6, 8 general counters of 48 bits, fixed counters 0-2, HLE and RTM, PDCM, leaf 23H
/// (ArchPerfmonExt) with UMASK2 and EQ.
const GUEST: [CpuidEntry; 6] = [
    CpuidEntry::new(0, 0, [0x23, 0x756E_6547, 0x6C65_746E, 0x4965_6E69]),
    CpuidEntry::new(1, 0, [0x0000_0611, 0, (1 << 31) | (1 << 15), 0]),
    CpuidEntry::new(7, 0, [1, (1 << 4) | (1 << 11), 0, 0]),
    CpuidEntry::new(7, 1, [1 << 8, 0, 0, 0]),
    CpuidEntry::new(
        0xA,
        0,
        [6 | 8 << 8 | 48 << 16 | 7 << 24, 0, 0x7, 3 | 48 << 5],
    ),
    CpuidEntry::new(0x23, 0, [1, 0b11, 0, 0]),
];

/// FW_WRITE (13) and PEBS_BASELINE (14).
const PERF_CAPABILITIES: u64 = 0x6000;

fn guest() -> GuestPmu<'static> {
    GuestPmu::from_cpuid(&mut CpuidTable::new(&GUEST), Some(PERF_CAPABILITIES))
}

fn main() {
    let g = guest();
    // The answers, checked before timing.
    assert_eq!(g.generation(), Some(Generation::IntelV6));
    let select = 0x0043_00C0 | 1 << 32; // INST_RETIRED.ANY, USR+OS, EN, IN_TX
    assert_eq!(g.check_write(0x189, select).map(|w| w.value), Ok(select));
    assert_eq!(
        g.check_write(0x38F, 0x7_0000_00FF).map(|w| w.value),
        Ok(0x7_0000_00FF)
    );
    assert!(g.check_write(0x38F, 1 << 8).is_err());
    let msrs = g.msrs().count();
    assert!(msrs > 30, "{msrs} MSRs");

    let mut c = Criterion::default()
        .configure_from_args()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    c.bench_function("check_write_select", |b| {
        b.iter(|| g.check_write(black_box(0x189), black_box(select)).is_ok())
    });
    c.bench_function("check_write_global", |b| {
        b.iter(|| {
            g.check_write(black_box(0x38F), black_box(0x7_0000_00FF))
                .is_ok()
        })
    });
    c.bench_function("msrs", |b| {
        b.iter(|| black_box(&g).msrs().fold(0, |m, r| m ^ r.write_mask))
    });
    c.bench_function("from_cpuid", |b| {
        b.iter(|| black_box(guest()).perf_capabilities())
    });
    c.final_summary();
}
