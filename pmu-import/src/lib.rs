//! The event importer: Intel perfmon event lists and Linux perf's AMD lists → core model
//! generations, the YAML files under `pmu-defs/defs/{intel,amd}/models`.
//!
//! Intel publishes, per core type, a JSON list of its performance-monitoring events
//! (`<PLATFORM>/events/<name>_core.json`, with `mapfile.csv` mapping CPUID family-model strings
//! to files). This crate reads every shape of those lists and writes one generation YAML file
//! per core file: `extends:` the core's architectural generation (`intel-v3` ... `intel-v6`),
//! `cpus:` and `source:` saying which CPUs it describes and where the facts come from, the
//! register overrides the core needs (more general or fixed counters), and one line per event.
//!
//! Only facts are written: names, codes, counters, flags, auxiliary MSR values, erratum ids
//! and sampling periods. Intel's description sentences (`BriefDescription`,
//! `PublicDescription`) are never copied.
//!
//! Problems are [`Issue`]s naming the file and, for JSON, the line and column; unknown keys
//! (from cores newer than this importer) are warnings, once per key per file. Nothing here
//! panics on input.
//!
//! ```no_run
//! let import = pmu_import::import_path(std::path::Path::new("../shared/data/intel-perfmon"));
//! for issue in &import.issues {
//!     eprintln!("{issue}");
//! }
//! for m in &import.models {
//!     println!("{}: {} events", m.file_name, m.events);
//! }
//! ```
//!
//! The crate is the import pipeline, one module per step:
//!
//! - [`mapfile`]: `mapfile.csv`, CPUID family-model strings to event files;
//! - [`intel`]: one perfmon JSON file read into a [`PerfmonFile`] (keys, counters, flags), and
//!   the architectural version of each core;
//! - [`amd`]: Linux perf's AMD lists (`pmu-events/arch/x86/amdzen*`);
//! - `convert`: a file's facts translated to a generation ([`CoreModel`]), written by `emit`;
//! - [`findings`]: the reviewed findings written into the models as `allow:` entries;
//! - `corpus`: importing a file, a corpus or a folder, and the check of the result against the
//!   hand-written definitions ([`check_models`]), with `files` (reading the corpus) and `defs`
//!   (the hand-written generations a model extends);
//! - `outcome`: what an import gives ([`Import`], [`CoreModel`], [`Corpus`]);
//! - `report`: the importer's [`Issue`]s.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod amd;
mod convert;
mod corpus;
mod defs;
mod emit;
mod files;
pub mod findings;
pub mod intel;
pub mod mapfile;
mod outcome;
mod report;

pub use convert::{convert, convert_reviewed, json_locations, model_name};
pub use corpus::{check_models, import_path, import_path_reviewed, import_path_within, import_str};
pub use emit::{MODELINE_ROOM, family_in_hex, max_events};
pub use findings::{REVIEWED_KEYS, Reviewed, ReviewedEntry, parse_reviewed};
pub use intel::{
    ARCH_VERSIONS, ArchVersion, PerfmonEvent, PerfmonFile, guess_arch_version, parse_file,
};
pub use mapfile::{MapRow, parse_mapfile};
pub use outcome::{
    AMD_SOURCE_LINE, CoreModel, Corpus, CorpusKind, EventOrigin, HEADER, INTEL_SOURCE_LINE, Import,
    Provenance, generated_source, vendor_dir,
};
pub use report::{Issue, Level};

#[cfg(test)]
mod tests;
