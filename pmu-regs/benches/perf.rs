//! Resolving what a user types for an event (issue 28 §5), side by side in one run: the
//! run-time resolver `pmu_regs::perf::PerfConfig::parse` against the tools' encoder
//! (`pmu_defs::encode`: `Request::parse` then `Encoder::encode_in`), which share the parser
//! (`pmu_vocab::perf`).
//!
//! Cases (each a criterion group, both contenders):
//!
//! - `name`: `LLC_MISSES:u` on intel-v4, a perf string and a raw config;
//! - `repeated/N`: `LLC_MISSES` followed by N times `:u`, for N = 4,000, 8,000 and 16,000:
//!   an error at the second `:u`. The time should not grow with N beyond reading the text
//!   (the tools' resolver used to try a modifier parse at every colon, quadratic in N).
//!
//! ```sh
//! cargo bench -p pmu-regs --features perf --bench perf              # ~1 minute
//! cargo bench -p pmu-regs --features perf --bench perf -- --quick
//! ```

use criterion::{BenchmarkId, Criterion};
use pmu_defs::Loader;
use pmu_defs::encode::{Encoder, Request};
use pmu_regs::arch::Generation;
use pmu_regs::perf::PerfConfig;
use std::hint::black_box;
use std::time::Duration;

fn main() {
    let loaded = Loader::new().with_defaults().finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let encoder = Encoder::new(&loaded.model);
    let def = loaded.model.generation("intel-v4").expect("intel-v4 loads");
    let g = Generation::from_id("intel-v4").expect("intel-v4 is compiled");
    let tools = |text: &str| -> Result<u64, String> {
        let req = Request::parse(text).map_err(|e| e.to_string())?;
        encoder
            .encode_in(def, &req)
            .map(|e| e.value)
            .map_err(|e| e.to_string())
    };
    let ours = |text: &str| PerfConfig::parse(g, text).map(|c| c.config);

    let mut c = Criterion::default()
        .configure_from_args()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    let mut group = c.benchmark_group("name");
    for text in ["LLC_MISSES:u", "cpu/event=0x2e,umask=0x41/u", "r412e"] {
        assert!(ours(text).is_ok(), "{text}");
        group.bench_with_input(BenchmarkId::new("PerfConfig", text), text, |b, t| {
            b.iter(|| ours(black_box(t)))
        });
        if text != "r412e" {
            assert!(tools(text).is_ok(), "{text}");
            group.bench_with_input(BenchmarkId::new("encoder", text), text, |b, t| {
                b.iter(|| tools(black_box(t)))
            });
        }
    }
    group.finish();

    let mut group = c.benchmark_group("repeated");
    for n in [4_000usize, 8_000, 16_000] {
        let text = format!("LLC_MISSES{}", ":u".repeat(n));
        assert!(ours(&text).is_err() && tools(&text).is_err(), "refused");
        group.bench_with_input(BenchmarkId::new("PerfConfig", n), &text, |b, t| {
            b.iter(|| ours(black_box(t)))
        });
        group.bench_with_input(BenchmarkId::new("encoder", n), &text, |b, t| {
            b.iter(|| tools(black_box(t)))
        });
    }
    group.finish();
    c.final_summary();
}
