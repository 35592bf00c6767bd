//! What `pmu-regs` and the code generator that writes it (`pmu-defs`' `codegen`) must agree
//! on, written once for both: neither can depend on the other (the generated crate cannot
//! depend on its generator, and the generator must build while the generated crate is
//! stale), so each used to keep a copy, checked by a test. Now both use this crate.
//!
//! * [`record`]: the byte layout of one event of a packed event table (`pmu_regs::EventTable`).
//! * [`Access`] and [`Role`]: the YAML's `access:` and `role:` vocabularies, with their
//!   spellings (the `serde` feature serialises them so, for the definitions' model).
//! * [`CountForm`]: how a register's `count-from:` CPUID field gives its number of instances.
//! * [`cpu`]: how a user names a CPU (names compared folded, the family/model forms), read
//!   alike over the YAML model and the compiled tables.
//! * [`hash`]: the hash, bucket and slot functions of the generated minimal perfect hash
//!   tables (`Event::from_name`, `Generation::with_event`).
//! * [`requires`]: the manuals' notation of a field's `requires:` condition, evaluated on a
//!   guest's CPUID (`pmu_regs::guest`) and on a generation's full-featured guest (the
//!   generator's write-mask constants).
//! * [`select`]: which field of an event select holds each event attribute, and the one
//!   function that writes an event's attributes into it (generated code, run time, encoder).
//! * `perf` (feature `perf`): how Linux perf spells an event (terms, perf's own spellings) and the parser of
//!   what a user types (a name with modifiers, a perf string, a raw config).

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod access;
pub mod count;
pub mod cpu;
pub mod hash;
#[cfg(feature = "perf")]
pub mod perf;
pub mod record;
pub mod requires;
pub mod role;
pub mod select;

pub use access::Access;
pub use count::CountForm;
pub use role::Role;
