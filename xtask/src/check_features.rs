//! `cargo xtask check-features`: `cargo check` of pmu-regs with each generation feature on its
//! own, so that a module gated behind one feature never names an item gated behind another
//! (`all-models` turns them all on together and would not notice). The features come from
//! the definitions (`pmu_codegen::features`), as `cargo xtask gen` writes them into
//! `pmu-regs/Cargo.toml`.

use pmu_codegen::{Feature, FeatureKind};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::Instant;

/// Checks each feature of `sample` (or of every feature, with `all`) alone; prints one line per
/// feature and fails when any check does.
pub fn run(root: &Path, model: &pmu_defs::Model, all: bool) -> ExitCode {
    let features = pmu_codegen::features(model);
    let picked = if all {
        features.iter().map(|f| f.name.as_str()).collect()
    } else {
        sample(&features)
    };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut failed = Vec::new();
    for (i, f) in picked.iter().enumerate() {
        let start = Instant::now();
        let status = Command::new(&cargo)
            .current_dir(root)
            .args(["check", "--quiet", "-p", "pmu-regs", "--features", f])
            .status();
        let ok = status.as_ref().is_ok_and(|s| s.success());
        println!(
            "[{}/{}] {f}: {} ({:.1} s)",
            i + 1,
            picked.len(),
            match &status {
                Ok(_) if ok => "ok".to_string(),
                Ok(s) => format!("FAILED ({s})"),
                Err(e) => format!("FAILED (cannot run {cargo}: {e})"),
            },
            start.elapsed().as_secs_f64()
        );
        if !ok {
            failed.push(*f);
        }
    }
    if failed.is_empty() {
        println!(
            "ok: pmu-regs builds with each of {} feature(s) alone",
            picked.len()
        );
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "error: pmu-regs does not build with these features alone: {}",
            failed.join(", ")
        );
        ExitCode::FAILURE
    }
}

/// One CPU model per microarchitecture (the first by name; it turns the microarchitecture's
/// feature on, and the ones that extends), each model that turns none on, and each other
/// feature (a microarchitecture, a facility) that no picked model and no other such feature
/// turns on (`amd-df-v2` alone checks `amd-df` too).
pub fn sample(features: &[Feature]) -> Vec<&str> {
    let mut covered: BTreeSet<&str> = BTreeSet::new();
    let mut picked = Vec::new();
    let models = || features.iter().filter(|f| f.kind == FeatureKind::Model);
    let others = || features.iter().filter(|f| f.kind != FeatureKind::Model);
    for f in models() {
        if f.enables.is_empty() || f.enables.iter().any(|e| covered.insert(e.as_str())) {
            picked.push(f.name.as_str());
        }
    }
    for f in others() {
        let enabled_by_other = others().any(|o| o.enables.contains(&f.name));
        if !covered.contains(f.name.as_str()) && !enabled_by_other {
            picked.push(f.name.as_str());
        }
    }
    picked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feature(name: &str, enables: &[&str], kind: FeatureKind) -> Feature {
        Feature {
            name: name.into(),
            enables: enables.iter().map(|e| e.to_string()).collect(),
            kind,
        }
    }

    /// Made-up ids (`m-`: a CPU model, `u-`: a microarchitecture, `f-`: a facility), in
    /// name order.
    #[test]
    fn one_model_per_microarchitecture_and_every_unused_one() {
        use FeatureKind::{Facility, Microarchitecture, Model};
        let f = [
            feature("f-child", &["f-parent"], Facility),
            feature("f-lone", &[], Facility),
            feature("f-parent", &[], Facility),
            feature("m-alone", &[], Model),
            feature("m-broad", &["u-has"], Model),
            feature("m-has", &["u-has"], Model),
            feature("m-sandy", &["u-sandy"], Model),
            feature("u-has", &["u-sandy"], Microarchitecture),
            feature("u-lonely", &[], Microarchitecture),
            feature("u-sandy", &[], Microarchitecture),
        ];
        assert_eq!(
            sample(&f),
            [
                "m-alone", "m-broad", "m-sandy", "f-child", "f-lone", "u-lonely"
            ]
        );
    }
}
