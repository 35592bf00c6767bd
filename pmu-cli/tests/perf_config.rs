//! `pmu_regs::perf::PerfConfig` (the run-time resolver a profiler links) against the tools'
//! encoder (`pmu encode`, the docs site) on every event of every generation in the
//! definitions: the same perf string, the same refusals, and `parse(format(c)) == c`.

#![cfg(feature = "detect")]

use pmu_defs::Loader;
use pmu_defs::encode::{Encoder, Request};
use pmu_regs::arch::Generation;
use pmu_regs::perf::PerfConfig;

#[test]
fn every_event_agrees_with_the_encoder_and_round_trips() {
    let loaded = Loader::new().with_defaults().finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let encoder = Encoder::new(&loaded.model);
    let (mut agreed, mut refused) = (0, 0);
    let mut problems = Vec::new();
    for &g in Generation::ALL {
        let def = loaded.model.generation(g.id()).unwrap();
        for e in &def.events {
            for spec in [
                e.name.clone(),
                format!("{}:u", e.name),
                format!("{}:k", e.name),
            ] {
                let tools = encoder.encode_in(def, &Request::parse(&spec).unwrap());
                let ours = PerfConfig::parse(g, &spec);
                match (tools, ours) {
                    (Ok(t), Ok(c)) => {
                        if c.to_string() != t.perf {
                            problems.push(format!(
                                "{} {spec}: {c} vs the encoder's {}",
                                g.id(),
                                t.perf
                            ));
                            continue;
                        }
                        match PerfConfig::parse(g, &t.perf) {
                            Ok(back) if back == c => agreed += 1,
                            other => problems.push(format!(
                                "{} {spec}: {} reads back as {other:?}",
                                g.id(),
                                t.perf
                            )),
                        }
                    }
                    (Err(_), Err(_)) => refused += 1,
                    (t, o) => problems.push(format!(
                        "{} {spec}: the encoder says {:?}, PerfConfig {:?}",
                        g.id(),
                        t.map(|t| t.perf).map_err(|e| e.to_string()),
                        o.map(|c| c.to_string()).map_err(|e| e.to_string())
                    )),
                }
            }
        }
    }
    let shown: Vec<_> = problems.iter().take(20).collect();
    assert!(
        problems.is_empty(),
        "{} problems, first: {shown:#?}",
        problems.len()
    );
    assert!(
        agreed > 50_000,
        "{agreed} agreed, {refused} refused by both"
    );
}
