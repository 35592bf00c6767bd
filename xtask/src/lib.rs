//! Library half of `cargo xtask`: the parts integration tests call directly.
//!
//! * [`docs`]: `cargo xtask gen-docs`, the static documentation site.

pub mod docs;
