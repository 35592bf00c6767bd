//! Library half of `cargo xtask`: the parts integration tests call directly.
//!
//! * [`coverage`]: `COVERAGE.md`, the coverage table `cargo xtask gen` writes.

pub mod coverage;
