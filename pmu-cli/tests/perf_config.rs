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

/// The config the kernel gives a generic event on a CPU of `family` and `model` (`None`: it
/// maps none; `Err`: the kernel does not classify the CPU): Linux's `intel_perfmon_event_map`
/// with `intel_pmu_init`'s stalled-cycles entries, and `amd_pmu_event_map`'s choice among the
/// Zen tables (arch/x86/events/intel/core.c, arch/x86/events/amd/core.c; the
/// `X86_FEATURE_ZEN*` model ranges of arch/x86/kernel/cpu/amd.c).
fn kernel_config(intel: bool, family: u32, model: u32, hw: usize) -> Result<Option<u64>, ()> {
    const INTEL: [u64; 10] = [0x3c, 0xc0, 0x4f2e, 0x412e, 0xc4, 0xc5, 0x013c, 0, 0, 0x0300];
    const ZEN1: [u64; 10] = [0x76, 0xc0, 0xff60, 0x0964, 0xc2, 0xc3, 0, 0x0287, 0x0187, 0];
    const ZEN2: [u64; 10] = [0x76, 0xc0, 0xff60, 0x0964, 0xc2, 0xc3, 0, 0xa9, 0, 0];
    const ZEN4: [u64; 10] = [
        0x76,
        0xc0,
        0xff60,
        0x0964,
        0xc2,
        0xc3,
        0,
        0xa9,
        0,
        0x1_0000_0120,
    ];
    // X86_CONFIG(.event, .umask, .inv=1, .cmask=1)
    let stall = |event: u64, umask: u64| event | umask << 8 | 1 << 23 | 1 << 24;
    let config = if intel {
        let (nhm_wsm, snb, ivb) = (
            [0x1a, 0x1e, 0x1f, 0x2e, 0x25, 0x2c, 0x2f].contains(&model),
            [0x2a, 0x2d].contains(&model),
            [0x3a, 0x3e].contains(&model),
        );
        match hw {
            7 if nhm_wsm || snb || ivb => stall(0x0e, 0x01),
            8 if nhm_wsm => stall(0xb1, 0x3f),
            8 if snb => stall(0xb1, 0x01),
            _ => INTEL[hw],
        }
    } else {
        let table = match (family, model) {
            (0x1a.., _) => ZEN4,
            (0x19, 0x10..=0x1f | 0x60..=0xaf) => ZEN4,
            (0x19, 0x00..=0x0f | 0x20..=0x5f) => ZEN2,
            (0x17, 0x00..=0x2f) => ZEN1,
            (0x17, 0x30..=0x4f | 0x60..=0x7f | 0x90..=0x91 | 0xa0..=0xaf) => ZEN2,
            _ => return Err(()),
        };
        table[hw]
    };
    Ok(Some(config).filter(|&c| c != 0))
}

#[test]
fn every_models_generic_events_are_the_kernels() {
    use pmu_regs::arch::{MODEL_SPECS, Vendor};
    use pmu_regs::perf::{GenericEvent, PerfError};
    let loaded = Loader::new().with_defaults().finish();
    let encoder = Encoder::new(&loaded.model);
    let (mut checked, mut unclassified) = (0, 0);
    for spec in MODEL_SPECS {
        let g = Generation::from_id(spec.id).unwrap();
        // The tools' encoder (`pmu encode cycles`) agrees with the run-time resolver.
        let def = loaded.model.generation(spec.id).unwrap();
        for event in GenericEvent::ALL {
            let request = Request::parse(event.name()).unwrap();
            let tools = encoder.encode_in(def, &request).map(|e| e.perf);
            let ours = PerfConfig::parse(g, event.name()).map(|c| c.to_string());
            assert_eq!(
                tools.is_ok(),
                ours.is_ok(),
                "{} {event}: {tools:?} {ours:?}",
                spec.id
            );
            if let (Ok(t), Ok(o)) = (tools, ours) {
                assert_eq!(t, o, "{} {event}", spec.id);
            }
        }
        let intel = spec.vendor == Vendor::Intel;
        let models = (spec.cpus.iter()).flat_map(|c| c.models().map(move |m| (c.family, m)));
        for (family, model) in models {
            for event in GenericEvent::ALL {
                let hw = event.hw_id() as usize;
                // perf's AMD mapfile gives its newest list every model of a family (19h/30h,
                // 19h/B0h, ...); the kernel classifies no such part (it warns), so there is
                // no kernel answer to compare with.
                let Ok(kernel) = kernel_config(intel, family, model, hw) else {
                    unclassified += 1;
                    continue;
                };
                // The one range where perf's mapfile and the kernel disagree: perf gives
                // 19h/30h-3Fh (no part ships there) its amdzen4 list, which the model
                // follows; the kernel's range for Zen 3 covers it.
                if spec.id == "amd-zen4" && family == 0x19 && (0x30..=0x3f).contains(&model) {
                    unclassified += 1;
                    continue;
                }
                let Some(expected) = kernel else {
                    assert!(
                        matches!(
                            PerfConfig::parse(g, event.name()),
                            Err(PerfError::NoGenericEvent { .. })
                        ),
                        "{} ({:x}h/{:x}h) {event}: the kernel maps none",
                        spec.id,
                        family,
                        model
                    );
                    continue;
                };
                let c = PerfConfig::parse(g, event.name()).unwrap_or_else(|e| {
                    panic!("{} {event}: {e}", spec.id);
                });
                assert_eq!(
                    c.config, expected,
                    "{} ({:x}h/{:x}h) {event}: {c}",
                    spec.id, family, model
                );
                assert_eq!(PerfConfig::parse(g, &c.to_string()), Ok(c));
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked} ({unclassified} unclassified)");
    // Every model has CPUs the kernel classifies: each is compared.
    for spec in MODEL_SPECS {
        let intel = spec.vendor == Vendor::Intel;
        let classified = (spec.cpus.iter()).any(|c| {
            c.models()
                .any(|m| kernel_config(intel, c.family, m, 0).is_ok())
        });
        assert!(classified, "{}: no CPU the kernel classifies", spec.id);
    }
}
