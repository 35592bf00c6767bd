//! The hand-written definitions a generated model extends: their files, loaded once, and the
//! generation an imported list extends.

use crate::report::{Issue, Level};
use pmu_defs::model::Generation;
use std::path::{Path, PathBuf};

/// The hand-written definition files of `vendor`: `defs/<vendor>/**/*.yaml` except the
/// imported models under `defs/<vendor>/models/`, sorted.
pub(crate) fn hand_written_files(vendor: &str) -> Vec<PathBuf> {
    let dir = pmu_defs::defs_dir().join(vendor);
    let models = dir.join("models");
    let found = pmu_defs::load::walk::walk(&dir, true, &|p: &Path| {
        p.extension().is_some_and(|e| e == "yaml") && !p.starts_with(&models)
    });
    found.files
}

/// The hand-written Intel definition files (architectural versions, microarchitecture
/// generations, facilities of their own).
pub(crate) fn architectural_files() -> Vec<PathBuf> {
    hand_written_files("intel")
}

/// The hand-written AMD definitions (architectural generations, Zen families, facilities),
/// loaded once: the Zen family each perf directory's model extends (`perfmon-cores:`).
pub(crate) fn amd_architectural() -> &'static pmu_defs::Loaded {
    static ARCH: std::sync::OnceLock<pmu_defs::Loaded> = std::sync::OnceLock::new();
    ARCH.get_or_init(|| {
        let mut loader = pmu_defs::Loader::new();
        for p in hand_written_files("amd") {
            loader.add_file(&p);
        }
        loader.finish()
    })
}

/// The generation an imported list extends: the hand-written one naming `stem` in its
/// `perfmon-cores:` (which must extend architectural version `version`), else
/// `intel-v{version}` itself. `None` after an error in `issues`.
pub(crate) fn parent_generation(
    stem: &str,
    version: u8,
    file: &str,
    issues: &mut Vec<Issue>,
) -> Option<&'static Generation> {
    let model = &architectural().model;
    let arch = format!("intel-v{version}");
    let claimed = model
        .generations
        .iter()
        .find(|g| g.perfmon_cores.iter().any(|c| c.eq_ignore_ascii_case(stem)));
    let message = match claimed {
        Some(g) if g.id == arch || g.ancestors.contains(&arch) => return Some(g),
        Some(g) => format!(
            "`{}` names `{stem}` in its `perfmon-cores:` but does not extend `{arch}`, the \
             architectural version of `{stem}`",
            g.id
        ),
        None => match model.generation(&arch) {
            Some(g) => return Some(g),
            None => format!(
                "the architectural generation `{arch}` does not load from {} (run `cargo xtask validate`)",
                pmu_defs::defs_dir().join("intel").display()
            ),
        },
    };
    issues.push(Issue::new(Level::Error, file, None, message));
    None
}

/// The architectural Intel generations, loaded once: what a model extends, and so which
/// registers and per-counter arrays a core with more counters overrides.
pub(crate) fn architectural() -> &'static pmu_defs::Loaded {
    static ARCH: std::sync::OnceLock<pmu_defs::Loaded> = std::sync::OnceLock::new();
    ARCH.get_or_init(|| {
        let mut loader = pmu_defs::Loader::new();
        for p in architectural_files() {
            loader.add_file(&p);
        }
        loader.finish()
    })
}
