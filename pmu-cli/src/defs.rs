//! Loading the definitions: the ones shipped with `pmu-defs` (its `defs/` folder, search
//! aliases and CPU names), or the files and folders a command is given with `--defs`.

use std::path::PathBuf;

/// Loads `paths`, or the shipped definitions when there are none.
pub fn load(paths: &[PathBuf]) -> pmu_defs::Loaded {
    if paths.is_empty() {
        return pmu_defs::Loader::new().with_defaults().finish();
    }
    let mut loader = pmu_defs::Loader::new();
    for p in paths {
        loader.add_path(p);
    }
    loader.finish()
}

/// Prints the diagnostics to stderr, the acknowledged warnings in one line unless `verbose`;
/// false when there were errors.
pub fn report(loaded: &pmu_defs::Loaded, verbose: bool) -> bool {
    if !loaded.diagnostics.is_empty() || !loaded.omitted.is_empty() {
        eprint!(
            "{}",
            if verbose {
                loaded.render_diagnostics_verbose()
            } else {
                loaded.render_diagnostics()
            }
        );
    }
    !loaded.has_errors()
}

/// Loads for a command that uses the model: `None`, after printing every diagnostic, when
/// the definitions have errors. Warnings are `pmu validate`'s business and are not repeated.
pub fn load_for_use(paths: &[PathBuf]) -> Option<pmu_defs::Loaded> {
    let loaded = load(paths);
    if loaded.has_errors() {
        report(&loaded, false);
        None
    } else {
        Some(loaded)
    }
}
