//! The perfmon importer on synthesised Intel lists of growing size (issue 25): 1,000, 10,000,
//! 50,000 and 100,000 distinct invented events in one file, written on one line as minified
//! JSON is (the shape that made positions quadratic). The files are generated at bench time
//! into `<target>/bench-perfmon/` (never checked in; the paths are printed, so
//! `cargo xtask import-perfmon FILE --out DIR` can be timed on the same input).
//!
//! - `import/<n>`: `pmu_import::import_path` (read, parse, convert, size check). The
//!   100,000-event model is about 10 MB of YAML, over the loader's 8 MiB, so that one ends in
//!   the size refusal after the model is written in memory: the same work.
//! - `import_check/<n>`: the same, then `pmu_import::check_models` (the loader on the model and
//!   the architectural generations), as `cargo xtask import-perfmon` does; up to 50,000 events.
//!
//! After criterion, a table: per size the file's bytes, the median and fastest-sample time and
//! the time per event, which stays flat when the work is linear.
//!
//! ```sh
//! cargo bench -p pmu-import --bench import          # ~1 minute
//! cargo bench -p pmu-import --no-run                # what CI does
//! ```

use criterion::{Criterion, SamplingMode};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

const SIZES: &[usize] = &[1_000, 10_000, 50_000, 100_000];

/// The largest list `import_check` loads (the 100,000-event model is over the loader's limit).
const CHECKED: usize = 50_000;

/// A perfmon list of `n` distinct invented events, on one line.
fn synthetic_list(n: usize) -> String {
    let mut out = String::from(r#"{"Header":{"Copyright":"synthetic","Version":"1"},"Events":["#);
    for i in 0..n {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!(
            r#"{{"EventCode":"0x{:02X}","UMask":"0x{:02X}","EventName":"SYNTH_EVENT_{}.UNIT_{}","Counter":"0,1,2,3","SampleAfterValue":"100003","MSRIndex":"0x00","MSRValue":"0x00","CounterMask":"{}","Invert":"0","EdgeDetect":"0","AnyThread":"0","Errata":"null","Deprecated":"0"}}"#,
            1 + i % 255,
            (i / 255) % 256,
            i / 256,
            i % 256,
            i / (255 * 256),
        ));
    }
    out.push_str("]}");
    out
}

/// `$CARGO_TARGET_DIR`, else the workspace's `target`.
fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(t) => PathBuf::from(t),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
    }
}

/// Where criterion writes its results: `$CRITERION_HOME`, else `<target>/criterion`.
fn output_dir() -> PathBuf {
    std::env::var_os("CRITERION_HOME").map_or_else(|| target_dir().join("criterion"), PathBuf::from)
}

/// Writes the list of `n` events (when it is not there yet) and returns its path and size.
fn input(n: usize) -> (PathBuf, usize) {
    let path = target_dir()
        .join("bench-perfmon")
        .join(format!("synthetic{n}_core.json"));
    let text = synthetic_list(n);
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
        std::fs::create_dir_all(path.parent().expect("a directory")).expect("target writable");
        std::fs::write(&path, &text).expect("target writable");
    }
    (path, text.len())
}

/// Checks that each input gives what it should before anything is timed: every event
/// imported and loaded without an error, or (past the loader's limit) the size refusal.
fn check_inputs(inputs: &[(usize, PathBuf, usize)]) {
    for (n, path, _) in inputs {
        let imp = pmu_import::import_path(path);
        if *n <= CHECKED {
            assert!(!imp.has_errors(), "{n}: {:?}", imp.issues);
            assert_eq!(imp.events(), *n);
            let loaded = pmu_import::check_models(&imp.models);
            assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
        } else {
            assert!(imp.models.is_empty());
            assert!(
                imp.issues
                    .iter()
                    .any(|i| i.message.contains("the loader accepts in one file")),
                "{n}: {:?}",
                imp.issues
            );
        }
    }
}

fn benches(c: &mut Criterion, inputs: &[(usize, PathBuf, usize)]) {
    let mut group = c.benchmark_group("import");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for (n, path, _) in inputs {
        group.bench_function(n.to_string(), |b| {
            b.iter(|| black_box(pmu_import::import_path(black_box(path))))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("import_check");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for (n, path, _) in inputs.iter().filter(|(n, ..)| *n <= CHECKED) {
        group.bench_function(n.to_string(), |b| {
            b.iter(|| {
                let imp = pmu_import::import_path(black_box(path));
                black_box(pmu_import::check_models(&imp.models))
            })
        });
    }
    group.finish();
}

/// (median, fastest sample) ns per iteration of `<group>/<id>` in this run.
fn times_ns(dir: &Path, group: &str, id: &str) -> Option<(f64, f64)> {
    let new = dir.join(group).join(id).join("new");
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

fn report(dir: &Path, inputs: &[(usize, PathBuf, usize)]) {
    for group in ["import", "import_check"] {
        println!("\n{group}, this run");
        println!(
            "{:>8} {:>11} {:>11} {:>11} {:>14} {:>14}",
            "events", "bytes", "median ms", "best ms", "median us/ev", "best us/ev"
        );
        for (n, _, bytes) in inputs {
            let Some((median, best)) = times_ns(dir, group, &n.to_string()) else {
                continue;
            };
            println!(
                "{:>8} {:>11} {:>11.1} {:>11.1} {:>14.2} {:>14.2}",
                n,
                bytes,
                median / 1e6,
                best / 1e6,
                median / 1e3 / *n as f64,
                best / 1e3 / *n as f64
            );
        }
    }
}

fn main() {
    let inputs: Vec<(usize, PathBuf, usize)> = SIZES
        .iter()
        .map(|&n| {
            let (path, bytes) = input(n);
            (n, path, bytes)
        })
        .collect();
    for (n, path, bytes) in &inputs {
        println!("input: {n} events, {bytes} bytes: {}", path.display());
    }
    check_inputs(&inputs);
    let dir = output_dir();
    let mut c = Criterion::default()
        .output_directory(&dir)
        .configure_from_args();
    benches(&mut c, &inputs);
    c.final_summary();
    let test_mode =
        std::env::args().any(|a| a == "--test") || !std::env::args().any(|a| a == "--bench");
    if !test_mode {
        report(&dir, &inputs);
    }
}
