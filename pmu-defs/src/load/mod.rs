//! Phase 1, loading: definition files read into a located tree and then into the raw schema.
//!
//! [`walk`] finds the `.yaml` files below a directory and `par` parses several on every
//! core; [`yaml`] turns each file's text into a tree of [`yaml::Node`]s that remember their
//! [`Span`](crate::Span); [`de`] holds the reading helpers ([`de::Cx`]) that [`raw`] uses to
//! read a generation file into [`raw::RawGeneration`] (every value spanned, nothing inherited
//! yet), and that [`aliases`] and [`cpu_names`] use for the two side files. Nothing here knows
//! the resolved model: [`crate::resolve`] comes next.

pub mod aliases;
pub mod cpu_names;
pub mod de;
pub mod par;
pub mod raw;
pub mod walk;
pub mod yaml;
