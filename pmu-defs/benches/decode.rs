//! `Encoder::decode_in` over the whole shipped corpus (issue 12 §2): every event of every
//! generation (the architectural ones and every imported core model), encoded on its first
//! general counter (or its fixed counter) as `tests/tests/encode.rs` round-trips it, then
//! decoded at that register. One criterion benchmark per generation; each iteration decodes
//! the next value of the generation's list (shuffled with a fixed seed, so a short run still
//! sees a fair sample of the list), so criterion's time per iteration is the time per value.
//! After criterion, a table: per generation the values, the events a value matches on
//! average, and the median and fastest-sample time per value; then the mean over the corpus
//! (weighted by values).
//!
//! ```sh
//! cargo bench -p pmu-defs --bench decode                    # every generation (~2 minutes)
//! cargo bench -p pmu-defs --bench decode -- cascadelakex    # a criterion filter
//! cargo bench -p pmu-defs --no-run                          # what CI does: compile only
//! ```

use criterion::Criterion;
use pmu_defs::Loader;
use pmu_defs::encode::{Counter, Encoder, Request};
use pmu_defs::model::Model;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One generation's values: (address, value) pairs in shuffled order.
struct Values {
    id: String,
    values: Vec<(u32, u64)>,
    /// Events matched per value, on average (`events` + `similar` + fixed-counter events).
    matches: f64,
}

fn corpus(model: &Model) -> Vec<Values> {
    let enc = Encoder::new(model);
    let mut out = Vec::new();
    for g in &model.generations {
        let mut values = Vec::new();
        for ev in &g.events {
            let on = match (ev.counters.first(), ev.fixed) {
                (Some(&c), _) => Counter::General(c),
                (None, Some(f)) => Counter::Fixed(f),
                (None, None) => continue,
            };
            let e = enc
                .encode_in(g, &Request::new(ev.name.clone()).on(on))
                .unwrap_or_else(|e| panic!("{} {}: {e}", g.id, ev.name));
            values.push((e.address.expect("placed on a counter"), e.value));
        }
        if values.is_empty() {
            continue;
        }
        shuffle(&mut values);
        let total: usize = values
            .iter()
            .map(|&(a, v)| {
                let d = enc.decode_in(g, a, v).expect("decodes");
                d.events.len()
                    + d.similar.len()
                    + d.fixed.iter().map(|f| f.events.len()).sum::<usize>()
            })
            .sum();
        out.push(Values {
            id: g.id.clone(),
            matches: total as f64 / values.len() as f64,
            values,
        });
    }
    out
}

/// Fisher-Yates with SplitMix64 from a fixed seed.
fn shuffle<T>(v: &mut [T]) {
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    for i in (1..v.len()).rev() {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        v.swap(i, (z % (i as u64 + 1)) as usize);
    }
}

fn benches(c: &mut Criterion, model: &Model, corpus: &[Values]) {
    let enc = Encoder::new(model);
    let mut group = c.benchmark_group("decode");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for v in corpus {
        let g = model.generation(&v.id).expect("generation");
        let mut next = 0;
        group.bench_function(&v.id, |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    let (a, value) = v.values[next];
                    next = (next + 1) % v.values.len();
                    black_box(enc.decode_in(g, black_box(a), black_box(value)).ok());
                }
                start.elapsed()
            })
        });
    }
    group.finish();
}

/// Where criterion writes its results: `$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`,
/// else the workspace's `target/criterion`.
fn output_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/criterion")
}

/// (median, fastest sample) ns per iteration of `decode/<id>` in this run.
fn times_ns(dir: &Path, id: &str) -> Option<(f64, f64)> {
    let new = dir.join("decode").join(id).join("new");
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

fn report(dir: &Path, corpus: &[Values]) {
    println!("\ndecode_in per value, this run (us)");
    println!(
        "{:<34} {:>7} {:>9} {:>11} {:>11}",
        "generation", "values", "matches", "median", "best"
    );
    let (mut n, mut sum_median, mut sum_best) = (0usize, 0.0, 0.0);
    for v in corpus {
        let Some((median, best)) = times_ns(dir, &v.id) else {
            continue;
        };
        println!(
            "{:<34} {:>7} {:>9.1} {:>11.3} {:>11.3}",
            v.id,
            v.values.len(),
            v.matches,
            median / 1e3,
            best / 1e3
        );
        n += v.values.len();
        sum_median += median * v.values.len() as f64;
        sum_best += best * v.values.len() as f64;
    }
    if n > 0 {
        println!(
            "{:<34} {:>7} {:>9} {:>11.3} {:>11.3}",
            "corpus (mean per value)",
            n,
            "",
            sum_median / n as f64 / 1e3,
            sum_best / n as f64 / 1e3
        );
    }
}

fn main() {
    let loaded = Loader::new().with_defaults().finish();
    let model = &loaded.model;
    let corpus = corpus(model);
    let dir = output_dir();
    let mut c = Criterion::default()
        .output_directory(&dir)
        .configure_from_args();
    benches(&mut c, model, &corpus);
    c.final_summary();
    let test_mode =
        std::env::args().any(|a| a == "--test") || !std::env::args().any(|a| a == "--bench");
    if !test_mode {
        report(&dir, &corpus);
    }
}
