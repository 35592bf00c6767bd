//! Intel's perfmon lists: one JSON file per core type, read into [`PerfmonFile`]s, and the
//! architectural performance monitoring version each core has.

pub mod arch;
pub mod event;
pub mod json;
pub(crate) mod reader;
pub(crate) mod value;

pub use arch::{ARCH_VERSIONS, ArchVersion, guess_arch_version};
pub use event::{PerfmonEvent, PerfmonFile, event_keys};
pub use json::parse_file;
