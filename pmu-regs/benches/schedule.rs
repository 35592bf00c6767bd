//! Counter scheduling (issue 32: "`pmu schedule` answers in under a millisecond for 12
//! events"): `pmu_regs::schedule` on 12 events, the library part of `pmu schedule`.
//!
//! Cases (each a criterion function):
//!
//! - `spr_fit12`: 12 Sapphire Rapids events that fit (4 on fixed counters, 8 on general ones,
//!   two off-core response events, one taking the alternative encoding): one `schedule`;
//! - `skl_conflict12`: 12 Skylake events that do not fit (4 general counters): `schedule`
//!   returns the minimal conflict, found by removing events one at a time;
//! - `skl_split12`: the same 12 events split into the fewest groups (exact search);
//! - `spr_resolve_split12`: what `pmu schedule --groups` does after finding the CPU: resolve
//!   12 names with modifiers (`schedule::resolve`) and split them.
//!
//! ```sh
//! cargo bench -p pmu-regs --features intel-skylake,intel-sapphirerapids,perf --bench schedule
//! ```

use criterion::Criterion;
use pmu_regs::EventDesc;
use pmu_regs::arch::Generation;
use pmu_regs::schedule::{self, Target};
use std::hint::black_box;
use std::time::Duration;

const SPR: [&str; 12] = [
    "INST_RETIRED.ANY",
    "CPU_CLK_UNHALTED.THREAD",
    "CPU_CLK_UNHALTED.REF_TSC",
    "TOPDOWN.SLOTS",
    "MEM_LOAD_RETIRED.L3_MISS:u",
    "BR_INST_RETIRED.ALL_BRANCHES",
    "TOPDOWN.BAD_SPEC_SLOTS",
    "BR_MISP_RETIRED.ALL_BRANCHES",
    "OCR.DEMAND_DATA_RD.ANY_RESPONSE",
    "OCR.DEMAND_RFO.ANY_RESPONSE",
    "BR_INST_RETIRED.COND",
    "UOPS_ISSUED.ANY",
];

const SKL: [&str; 12] = [
    "INST_RETIRED.ANY",
    "CPU_CLK_UNHALTED.THREAD",
    "MEM_LOAD_RETIRED.L1_HIT",
    "MEM_LOAD_RETIRED.L2_HIT",
    "MEM_LOAD_RETIRED.L3_HIT",
    "MEM_LOAD_RETIRED.L3_MISS",
    "INST_RETIRED.PREC_DIST",
    "BR_MISP_RETIRED.ALL_BRANCHES",
    "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE",
    "OFFCORE_RESPONSE.DEMAND_CODE_RD.ANY_RESPONSE",
    "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_MISS.ANY_SNOOP",
    "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4",
];

fn resolve(g: Generation, names: &[&str]) -> Vec<EventDesc> {
    names
        .iter()
        .map(|n| schedule::resolve(g, n).unwrap_or_else(|e| panic!("{n}: {e}")))
        .collect()
}

fn main() {
    let spr_g = Generation::IntelSapphirerapids;
    let skl_g = Generation::IntelSkylake;
    let (spr_t, skl_t) = (Target::of(spr_g), Target::of(skl_g));
    let spr = resolve(spr_g, &SPR);
    let skl = resolve(skl_g, &SKL);
    // The answers, checked before timing.
    if let Err(e) = schedule::schedule(&spr_t, &spr) {
        panic!("the Sapphire Rapids set does not fit: {e}");
    }
    let Err(schedule::Error::Conflict(c)) = schedule::schedule(&skl_t, &skl) else {
        panic!("12 Skylake events fit")
    };
    assert_eq!(c.len(), 5, "{c}");
    let sp = schedule::split(&skl_t, &skl).unwrap();
    assert!(sp.exact());
    // Nine events for four general-purpose counters, and the load-latency event alone.
    assert_eq!(sp.len(), 4);

    let mut c = Criterion::default()
        .configure_from_args()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    c.bench_function("spr_fit12", |b| {
        b.iter(|| schedule::schedule(black_box(&spr_t), black_box(&spr)).is_ok())
    });
    c.bench_function("skl_conflict12", |b| {
        b.iter(|| schedule::schedule(black_box(&skl_t), black_box(&skl)).is_err())
    });
    c.bench_function("skl_split12", |b| {
        b.iter(|| schedule::split(black_box(&skl_t), black_box(&skl)).map(|s| s.len()))
    });
    c.bench_function("spr_resolve_split12", |b| {
        b.iter(|| {
            let evs = resolve(spr_g, black_box(&SPR));
            schedule::split(&spr_t, &evs).map(|s| s.len()).unwrap_or(0)
        })
    });
    c.final_summary();
}
