//! Library half of `cargo xtask`: the parts integration tests call directly.
//!
//! * [`docs`]: `cargo xtask gen-docs`, the static documentation site.
//! * [`coverage`]: `COVERAGE.md`, the coverage table `cargo xtask gen` writes.

pub mod coverage;
pub mod docs;
