//! `pmu schedule` as a whole command, in process (issue 32: "`pmu schedule` answers in under a
//! millisecond for 12 events"): argument parsing, finding the CPU, resolving 12 names with
//! modifiers, scheduling (or splitting) and formatting the answer, everything but starting the
//! process and writing to stdout.
//!
//! Cases, each against its peer in the same run:
//!
//! - `spr12/compiled`: `pmu schedule --cpu SPR EVENTS...` (12 Sapphire Rapids events that fit),
//!   the CPU read from the tables compiled into pmu-regs (`pmu_regs::arch::find_cpu`);
//! - `spr12/yaml`: the same with `--defs pmu-defs/defs --defs pmu-defs/cpu-names.yaml`: the CPU
//!   found by loading the definitions, as every `--cpu` did before;
//! - `skl12_groups/compiled` and `skl12_groups/yaml`: `--cpu 06_5E --groups --json` on 12
//!   Skylake events that need three groups.
//!
//! ```sh
//! cargo bench -p pmu-cli --bench schedule_command
//! ```

use clap::{Args, Command, FromArgMatches};
use criterion::Criterion;
use pmu_cli::schedule::{ScheduleArgs, answer};
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

/// `pmu schedule ARGS...` parsed as the command parses it.
fn parse(args: &[&str]) -> ScheduleArgs {
    let cmd = ScheduleArgs::augment_args(Command::new("schedule"));
    let m = cmd
        .try_get_matches_from(std::iter::once("schedule").chain(args.iter().copied()))
        .unwrap_or_else(|e| panic!("{e}"));
    ScheduleArgs::from_arg_matches(&m).unwrap_or_else(|e| panic!("{e}"))
}

fn main() {
    let defs = concat!(env!("CARGO_MANIFEST_DIR"), "/../pmu-defs/defs");
    let names = concat!(env!("CARGO_MANIFEST_DIR"), "/../pmu-defs/cpu-names.yaml");
    let yaml = ["--defs", defs, "--defs", names];
    let spr: Vec<&str> = ["--cpu", "SPR"].into_iter().chain(SPR).collect();
    let spr_yaml: Vec<&str> = spr.iter().copied().chain(yaml).collect();
    let skl: Vec<&str> = ["--cpu", "06_5E", "--groups", "--json"]
        .into_iter()
        .chain(SKL)
        .collect();
    let skl_yaml: Vec<&str> = skl.iter().copied().chain(yaml).collect();

    // The answers, checked before timing: both paths say the same.
    let run = |args: &[&str]| answer(&parse(args)).unwrap_or_else(|e| panic!("{e}"));
    let (a, b) = (run(&spr), run(&spr_yaml));
    assert!(a.fits && a == b, "{}\n{}", a.text, b.text);
    assert!(
        a.text
            .starts_with("intel-sapphirerapids: these events can be counted together")
    );
    let (a, b) = (run(&skl), run(&skl_yaml));
    assert!(a.fits && a == b, "{}\n{}", a.text, b.text);
    assert_eq!(a.text.matches("\"event\"").count(), 12, "{}", a.text);

    let mut c = Criterion::default()
        .configure_from_args()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20);
    for (name, fast, slow) in [
        ("spr12", &spr, &spr_yaml),
        ("skl12_groups", &skl, &skl_yaml),
    ] {
        let mut g = c.benchmark_group(name);
        g.bench_function("compiled", |b| {
            b.iter(|| answer(&parse(black_box(fast))).map(|a| a.text.len()))
        });
        g.bench_function("yaml", |b| {
            b.iter(|| answer(&parse(black_box(slow))).map(|a| a.text.len()))
        });
        g.finish();
    }
    c.final_summary();
}
