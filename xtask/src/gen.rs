//! `cargo xtask gen [--check]`: regenerate `pmu-regs/src/generated.rs`, one file per CPU-model
//! generation under `pmu-regs/src/generated/`, and the matching `[features]` block of
//! `pmu-regs/Cargo.toml`, from the definitions.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The checked-in generated sources, relative to the workspace root.
pub const SRC: &str = "pmu-regs/src";
/// The manifest whose feature block is generated.
pub const MANIFEST: &str = "pmu-regs/Cargo.toml";
const BEGIN: &str =
    "# @generated features: begin (cargo xtask gen) — DO NOT EDIT between the markers";
const END: &str = "# @generated features: end";

/// Every generated file: path relative to the workspace root -> expected contents.
/// A checked-in file whose fingerprint line still matches is kept as it is, not formatted
/// again, unless `reformat`.
pub fn expected(
    root: &Path,
    loaded: &pmu_defs::Loaded,
    reformat: bool,
) -> Result<BTreeMap<PathBuf, String>, String> {
    let src = root.join(SRC);
    let previous = |path: &str| {
        if reformat {
            None
        } else {
            std::fs::read_to_string(src.join(path)).ok()
        }
    };
    let files = pmu_codegen::render_split_reusing(
        &loaded.model,
        &pmu_codegen::Options::internal(),
        &previous,
    )?;
    let mut out = BTreeMap::new();
    for (path, text) in files {
        out.insert(Path::new(SRC).join(path), text);
    }
    let manifest = std::fs::read_to_string(root.join(MANIFEST))
        .map_err(|e| format!("cannot read {MANIFEST}: {e}"))?;
    out.insert(
        PathBuf::from(MANIFEST),
        with_features(&manifest, &pmu_codegen::features(&loaded.model))?,
    );
    out.insert(
        PathBuf::from(xtask::coverage::PATH),
        xtask::coverage::render(&loaded.model),
    );
    Ok(out)
}

/// `manifest` with the block between the markers replaced by one feature per gated generation
/// (CPU models, microarchitectures, facilities) plus `all-models` and `all-facilities`.
fn with_features(manifest: &str, features: &[pmu_codegen::Feature]) -> Result<String, String> {
    use pmu_codegen::FeatureKind;
    let (Some(b), Some(e)) = (manifest.find(BEGIN), manifest.find(END)) else {
        return Err(format!(
            "{MANIFEST} has no generated feature block; add the lines\n{BEGIN}\n{END}\nunder [features]"
        ));
    };
    let of = |kind: FeatureKind| features.iter().filter(move |f| f.kind == kind);
    let all = |name: &str, kind: FeatureKind| {
        let names: Vec<String> = of(kind).map(|f| format!("\"{}\"", f.name)).collect();
        format!("{name} = [{}]\n", names.join(", "))
    };
    let lines = |kind: FeatureKind| -> String {
        of(kind)
            .map(|f| format!("{}\n", f.manifest_line()))
            .collect()
    };
    let block = [
        format!("{BEGIN}\n"),
        "# Every CPU-model event table.\n".to_owned(),
        all("all-models", FeatureKind::Model),
        "# Every facility's registers.\n".to_owned(),
        all("all-facilities", FeatureKind::Facility),
        "# A microarchitecture's registers (`intel::skylake_family`); its CPU models turn it on.\n"
            .to_owned(),
        lines(FeatureKind::Microarchitecture),
        "# A facility's registers (`intel::rapl`, `amd::df`): outside the core PMU, so not\n\
         # compiled by default. Its detection (`detect::facilities`) needs no feature.\n"
            .to_owned(),
        lines(FeatureKind::Facility),
        "# A CPU model's event table (`intel::skylake::events`).\n".to_owned(),
        lines(FeatureKind::Model),
    ]
    .concat();
    Ok(format!("{}{block}{}", &manifest[..b], &manifest[e..]))
}

/// Generated files under `pmu-regs/src/generated/` that exist on disk.
fn on_disk(root: &Path) -> Vec<PathBuf> {
    let base = Path::new(SRC).join("generated");
    let dir = root.join(&base);
    if !dir.is_dir() {
        return Vec::new();
    }
    // Each directory read once (a symbolic-link cycle ends); sorted.
    let found = pmu_defs::load::walk::walk(&dir, false, &|p: &Path| {
        p.extension().is_some_and(|x| x == "rs")
    });
    found
        .files
        .iter()
        .filter_map(|p| p.strip_prefix(&dir).ok().map(|r| base.join(r)))
        .collect()
}

/// Writes (or, with `check`, compares) every generated file.
pub fn run(root: &Path, loaded: &pmu_defs::Loaded, check: bool, reformat: bool) -> ExitCode {
    let want = match expected(root, loaded, reformat) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let stale_extra: Vec<PathBuf> = on_disk(root)
        .into_iter()
        .filter(|p| !want.contains_key(p))
        .collect();
    let mut changed = Vec::new();
    for (path, text) in &want {
        let current = std::fs::read_to_string(root.join(path)).unwrap_or_default();
        if &current != text {
            changed.push(path.clone());
        }
    }
    if check {
        if changed.is_empty() && stale_extra.is_empty() {
            println!("ok: {} generated files are up to date", want.len());
            return ExitCode::SUCCESS;
        }
        for p in &changed {
            eprintln!("error: {} is stale", p.display());
        }
        for p in &stale_extra {
            eprintln!("error: {} is no longer generated", p.display());
        }
        eprintln!("run `cargo xtask gen` and commit the result");
        return ExitCode::FAILURE;
    }
    for path in &changed {
        let full = root.join(path);
        if let Some(dir) = full.parent()
            && let Err(e) = std::fs::create_dir_all(dir)
        {
            eprintln!("error: cannot create {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        if let Err(e) = std::fs::write(&full, &want[path]) {
            eprintln!("error: cannot write {}: {e}", full.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {}", path.display());
    }
    for p in &stale_extra {
        if let Err(e) = std::fs::remove_file(root.join(p)) {
            eprintln!("error: cannot remove {}: {e}", p.display());
            return ExitCode::FAILURE;
        }
        println!("removed {}", p.display());
    }
    if changed.is_empty() && stale_extra.is_empty() {
        println!("unchanged: {} generated files", want.len());
    }
    ExitCode::SUCCESS
}
