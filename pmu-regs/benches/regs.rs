//! Zero-cost check (issue 3 §5): building and decoding IA32_PERFEVTSEL, IA32_FIXED_CTR_CTRL and
//! IA32_PERF_GLOBAL_CTRL values through the generated API and through hand-written shifts and
//! masks, in the same run, with `black_box` inputs so the run-time paths are measured (run-time
//! setters and range checks, not constants folded away).
//!
//! Each case has a `generated` and a `hand_written` function doing the same job with the same
//! checks; `main` asserts they agree, runs criterion, then prints the generated/hand-written
//! ratio per case, of the median times and of the fastest samples (read back from criterion's
//! `estimates.json` and `sample.json` under `target/criterion`).
//!
//! ```sh
//! cargo bench -p pmu-regs --bench regs             # full run (about 1 minute)
//! cargo bench -p pmu-regs --bench regs -- --quick  # quick run
//! cargo bench -p pmu-regs --no-run                 # what CI does: compile only
//! ```

use criterion::Criterion;
use pmu_regs::intel::v3::{IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL, IA32_PERFEVTSEL};
use std::hint::black_box;
use std::path::{Path, PathBuf};

/// Inputs of one PERFEVTSEL write, as a driver gets them at run time.
#[derive(Clone, Copy)]
struct SelInput {
    umask: u8,
    usr: bool,
    os: bool,
    cmask: u64,
}

mod perfevtsel {
    use super::*;

    /// LLC misses (event 0x2E) with a run-time unit mask, privilege filter and threshold
    /// (range-checked), enabled; `None` when the threshold does not fit CMASK.
    #[inline(never)]
    pub fn build_generated(i: SelInput) -> Option<u64> {
        let b = IA32_PERFEVTSEL::Value::new()
            .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0x2E>()
            .try_with::<IA32_PERFEVTSEL::UMASK>(u64::from(i.umask))
            .ok()?
            .with_bit::<IA32_PERFEVTSEL::USR>(i.usr)
            .with_bit::<IA32_PERFEVTSEL::OS>(i.os)
            .with_bit::<IA32_PERFEVTSEL::EN>(true)
            .try_with::<IA32_PERFEVTSEL::CMASK>(i.cmask)
            .ok()?;
        Some(b.try_build().ok()?.bits())
    }

    #[inline(never)]
    pub fn build_hand_written(i: SelInput) -> Option<u64> {
        if i.cmask > 0xFF {
            return None;
        }
        Some(
            0x2E | (u64::from(i.umask) << 8)
                | (u64::from(i.usr) << 16)
                | (u64::from(i.os) << 17)
                | (1 << 22)
                | (i.cmask << 24),
        )
    }

    /// Every field a driver looks at, folded into one number.
    #[inline(never)]
    pub fn decode_generated(bits: u64) -> u64 {
        let v = IA32_PERFEVTSEL::Value::from_raw_read(bits);
        v.get::<IA32_PERFEVTSEL::EVENT_SELECT>()
            + v.get::<IA32_PERFEVTSEL::UMASK>()
            + u64::from(v.is_set::<IA32_PERFEVTSEL::USR>())
            + u64::from(v.is_set::<IA32_PERFEVTSEL::OS>())
            + u64::from(v.is_set::<IA32_PERFEVTSEL::EDGE>())
            + u64::from(v.is_set::<IA32_PERFEVTSEL::INT>())
            + u64::from(v.is_set::<IA32_PERFEVTSEL::EN>())
            + u64::from(v.is_set::<IA32_PERFEVTSEL::INV>())
            + v.get::<IA32_PERFEVTSEL::CMASK>()
    }

    #[inline(never)]
    pub fn decode_hand_written(bits: u64) -> u64 {
        (bits & 0xFF)
            + ((bits >> 8) & 0xFF)
            + ((bits >> 16) & 1)
            + ((bits >> 17) & 1)
            + ((bits >> 18) & 1)
            + ((bits >> 20) & 1)
            + ((bits >> 22) & 1)
            + ((bits >> 23) & 1)
            + ((bits >> 24) & 0xFF)
    }
}

mod fixed_ctr_ctrl {
    use super::*;

    /// Fixed counters 0-2 with run-time privilege modes (range-checked 2-bit values) and PMI
    /// flags; `None` when a mode does not fit.
    #[inline(never)]
    pub fn build_generated(modes: [u64; 3], pmi: [bool; 3]) -> Option<u64> {
        let b = IA32_FIXED_CTR_CTRL::Value::new()
            .try_with::<IA32_FIXED_CTR_CTRL::ENABLE0>(modes[0])
            .ok()?
            .try_with::<IA32_FIXED_CTR_CTRL::ENABLE1>(modes[1])
            .ok()?
            .try_with::<IA32_FIXED_CTR_CTRL::ENABLE2>(modes[2])
            .ok()?
            .with_bit::<IA32_FIXED_CTR_CTRL::PMI0>(pmi[0])
            .with_bit::<IA32_FIXED_CTR_CTRL::PMI1>(pmi[1])
            .with_bit::<IA32_FIXED_CTR_CTRL::PMI2>(pmi[2]);
        Some(b.try_build().ok()?.bits())
    }

    #[inline(never)]
    pub fn build_hand_written(modes: [u64; 3], pmi: [bool; 3]) -> Option<u64> {
        if modes.iter().any(|&m| m > 3) {
            return None;
        }
        Some(
            modes[0]
                | (modes[1] << 4)
                | (modes[2] << 8)
                | (u64::from(pmi[0]) << 3)
                | (u64::from(pmi[1]) << 7)
                | (u64::from(pmi[2]) << 11),
        )
    }

    #[inline(never)]
    pub fn decode_generated(bits: u64) -> u64 {
        let v = IA32_FIXED_CTR_CTRL::Value::from_raw_read(bits);
        v.get::<IA32_FIXED_CTR_CTRL::ENABLE0>()
            + v.get::<IA32_FIXED_CTR_CTRL::ENABLE1>()
            + v.get::<IA32_FIXED_CTR_CTRL::ENABLE2>()
            + u64::from(v.is_set::<IA32_FIXED_CTR_CTRL::PMI0>())
            + u64::from(v.is_set::<IA32_FIXED_CTR_CTRL::PMI1>())
            + u64::from(v.is_set::<IA32_FIXED_CTR_CTRL::PMI2>())
            + u64::from(v.is_set::<IA32_FIXED_CTR_CTRL::ANY0>())
            + u64::from(v.is_set::<IA32_FIXED_CTR_CTRL::ANY1>())
            + u64::from(v.is_set::<IA32_FIXED_CTR_CTRL::ANY2>())
    }

    #[inline(never)]
    pub fn decode_hand_written(bits: u64) -> u64 {
        (bits & 3)
            + ((bits >> 4) & 3)
            + ((bits >> 8) & 3)
            + ((bits >> 3) & 1)
            + ((bits >> 7) & 1)
            + ((bits >> 11) & 1)
            + ((bits >> 2) & 1)
            + ((bits >> 6) & 1)
            + ((bits >> 10) & 1)
    }
}

mod global_ctrl {
    use super::*;

    /// Enable the general counters in `gp` (bit n = counter n) and the fixed counters in
    /// `fixed`, as a driver does on `pmu_enable`.
    #[inline(never)]
    pub fn build_generated(gp: u8, fixed: u8) -> u64 {
        let on = |mask: u8, n: u32| mask & (1 << n) != 0;
        IA32_PERF_GLOBAL_CTRL::Value::new()
            .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC0>(on(gp, 0))
            .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC1>(on(gp, 1))
            .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC2>(on(gp, 2))
            .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC3>(on(gp, 3))
            .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC4>(on(gp, 4))
            .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC5>(on(gp, 5))
            .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC6>(on(gp, 6))
            .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC7>(on(gp, 7))
            .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_FIXED_CTR0>(on(fixed, 0))
            .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_FIXED_CTR1>(on(fixed, 1))
            .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_FIXED_CTR2>(on(fixed, 2))
            .build()
            .bits()
    }

    #[inline(never)]
    pub fn build_hand_written(gp: u8, fixed: u8) -> u64 {
        u64::from(gp) | (u64::from(fixed & 0b111) << 32)
    }

    /// How many counters are enabled.
    #[inline(never)]
    pub fn decode_generated(bits: u64) -> u32 {
        let v = IA32_PERF_GLOBAL_CTRL::Value::from_raw_read(bits);
        let mut n = 0;
        for i in 0..8 {
            n += u32::from(v.get_at::<IA32_PERF_GLOBAL_CTRL::EN_PMC>(i) == Some(1));
        }
        for i in 0..3 {
            n += u32::from(v.get_at::<IA32_PERF_GLOBAL_CTRL::EN_FIXED_CTR>(i) == Some(1));
        }
        n
    }

    #[inline(never)]
    pub fn decode_hand_written(bits: u64) -> u32 {
        let mut n = 0;
        for i in 0..8 {
            n += ((bits >> i) & 1) as u32;
        }
        for i in 0..3 {
            n += ((bits >> (32 + i)) & 1) as u32;
        }
        n
    }
}

/// The two implementations of every case agree (on the inputs used below and around them).
fn check_equivalence() {
    for cmask in [0, 1, 0xFF, 0x100] {
        for (usr, os) in [(false, true), (true, false), (true, true)] {
            let i = SelInput {
                umask: 0x41,
                usr,
                os,
                cmask,
            };
            assert_eq!(
                perfevtsel::build_generated(i),
                perfevtsel::build_hand_written(i)
            );
        }
    }
    for bits in [0, 0x0043_412E, 0xFFFF_FFFF, u64::MAX] {
        assert_eq!(
            perfevtsel::decode_generated(bits),
            perfevtsel::decode_hand_written(bits)
        );
        assert_eq!(
            fixed_ctr_ctrl::decode_generated(bits),
            fixed_ctr_ctrl::decode_hand_written(bits)
        );
        assert_eq!(
            global_ctrl::decode_generated(bits),
            global_ctrl::decode_hand_written(bits)
        );
    }
    for modes in [[3, 1, 2], [0, 0, 0], [4, 0, 0]] {
        let pmi = [true, false, true];
        assert_eq!(
            fixed_ctr_ctrl::build_generated(modes, pmi),
            fixed_ctr_ctrl::build_hand_written(modes, pmi)
        );
    }
    for (gp, fixed) in [(0, 0), (0xFF, 0b111), (0b1010_0101, 0b010), (0xFF, 0xFF)] {
        assert_eq!(
            global_ctrl::build_generated(gp, fixed),
            global_ctrl::build_hand_written(gp, fixed)
        );
    }
}

/// Benchmark groups; each has a `generated` and a `hand_written` function.
const CASES: [&str; 6] = [
    "perfevtsel_build",
    "perfevtsel_decode",
    "fixed_ctr_ctrl_build",
    "fixed_ctr_ctrl_decode",
    "global_ctrl_build",
    "global_ctrl_decode",
];

fn benches(c: &mut Criterion) {
    let sel = SelInput {
        umask: 0x41,
        usr: true,
        os: true,
        cmask: 2,
    };
    let sel_bits = 0x0243_412E_u64;
    let mut g = c.benchmark_group(CASES[0]);
    g.bench_function("generated", |b| {
        b.iter(|| perfevtsel::build_generated(black_box(sel)))
    });
    g.bench_function("hand_written", |b| {
        b.iter(|| perfevtsel::build_hand_written(black_box(sel)))
    });
    g.finish();
    let mut g = c.benchmark_group(CASES[1]);
    g.bench_function("generated", |b| {
        b.iter(|| perfevtsel::decode_generated(black_box(sel_bits)))
    });
    g.bench_function("hand_written", |b| {
        b.iter(|| perfevtsel::decode_hand_written(black_box(sel_bits)))
    });
    g.finish();

    let (modes, pmi) = ([3u64, 1, 2], [true, false, true]);
    let fixed_bits = 0x0A2B_u64;
    let mut g = c.benchmark_group(CASES[2]);
    g.bench_function("generated", |b| {
        b.iter(|| fixed_ctr_ctrl::build_generated(black_box(modes), black_box(pmi)))
    });
    g.bench_function("hand_written", |b| {
        b.iter(|| fixed_ctr_ctrl::build_hand_written(black_box(modes), black_box(pmi)))
    });
    g.finish();
    let mut g = c.benchmark_group(CASES[3]);
    g.bench_function("generated", |b| {
        b.iter(|| fixed_ctr_ctrl::decode_generated(black_box(fixed_bits)))
    });
    g.bench_function("hand_written", |b| {
        b.iter(|| fixed_ctr_ctrl::decode_hand_written(black_box(fixed_bits)))
    });
    g.finish();

    let (gp, fixed, global_bits) = (0b1010_0101u8, 0b011u8, 0x3_0000_00A5_u64);
    let mut g = c.benchmark_group(CASES[4]);
    g.bench_function("generated", |b| {
        b.iter(|| global_ctrl::build_generated(black_box(gp), black_box(fixed)))
    });
    g.bench_function("hand_written", |b| {
        b.iter(|| global_ctrl::build_hand_written(black_box(gp), black_box(fixed)))
    });
    g.finish();
    let mut g = c.benchmark_group(CASES[5]);
    g.bench_function("generated", |b| {
        b.iter(|| global_ctrl::decode_generated(black_box(global_bits)))
    });
    g.bench_function("hand_written", |b| {
        b.iter(|| global_ctrl::decode_hand_written(black_box(global_bits)))
    });
    g.finish();
}

/// Where criterion writes its results: `$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`,
/// else the workspace's `target/criterion` (set explicitly so the report reads the same place).
fn output_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/criterion")
}

/// (median, fastest sample) time per iteration in ns of one benchmark of this run, from
/// criterion's `new/estimates.json` and `new/sample.json`. On a busy machine the fastest
/// sample is the steadier figure: other load only ever adds time.
fn times_ns(dir: &Path, case: &str, function: &str) -> Option<(f64, f64)> {
    let new = dir.join(case).join(function).join("new");
    let read = |name: &str| -> Option<serde_json::Value> {
        serde_json::from_str(&std::fs::read_to_string(new.join(name)).ok()?).ok()
    };
    let median = read("estimates.json")?["median"]["point_estimate"].as_f64()?;
    let sample = read("sample.json")?;
    let (iters, times) = (sample["iters"].as_array()?, sample["times"].as_array()?);
    let fastest = iters
        .iter()
        .zip(times)
        .filter_map(|(n, t)| Some(t.as_f64()? / n.as_f64()?))
        .fold(f64::INFINITY, f64::min);
    Some((median, fastest))
}

fn report(dir: &Path) {
    println!(
        "\ngenerated / hand-written, this run (ns per call; ratio <= 1.0: generated is as fast)"
    );
    println!(
        "{:<22} {:>10} {:>10} {:>6}   {:>10} {:>10} {:>6}",
        "case", "gen median", "hand", "ratio", "gen best", "hand", "ratio"
    );
    for case in CASES {
        match (
            times_ns(dir, case, "generated"),
            times_ns(dir, case, "hand_written"),
        ) {
            (Some((gm, gb)), Some((hm, hb))) if hm > 0.0 && hb > 0.0 => println!(
                "{case:<22} {gm:>10.3} {hm:>10.3} {:>6.3}   {gb:>10.3} {hb:>10.3} {:>6.3}",
                gm / hm,
                gb / hb
            ),
            _ => println!("{case:<22} (no measurement in {})", dir.display()),
        }
    }
}

fn main() {
    check_equivalence();
    let dir = output_dir();
    let mut c = Criterion::default()
        .output_directory(&dir)
        .configure_from_args();
    benches(&mut c);
    c.final_summary();
    // `cargo test --benches` / `--test` only checks that each benchmark runs once.
    let test_mode =
        std::env::args().any(|a| a == "--test") || !std::env::args().any(|a| a == "--bench");
    if !test_mode {
        report(&dir);
    }
}
