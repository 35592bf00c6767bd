//! Typed, zero-cost x86 performance-monitoring registers, generated from the YAML definitions
//! in `pmu-defs/defs` (see `cargo xtask gen`).
//!
//! One module per PMU generation: [`intel::v1`] .. [`intel::v6`], [`amd::k7`], [`amd::core`],
//! [`amd::perfmon_v2`]. A register is defined once, in the generation that introduced its
//! current layout, and re-exported (the same type) by later generations that inherit it.
//!
//! ```
//! use pmu_regs::intel::v3::IA32_PERFEVTSEL;
//!
//! // LLC misses, user + kernel mode, enabled; checked entirely at compile time.
//! const LLC_MISSES: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::new()
//!     .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0x2E>()
//!     .with::<IA32_PERFEVTSEL::UMASK, 0x41>()
//!     .with_bit::<IA32_PERFEVTSEL::USR>(true)
//!     .with_bit::<IA32_PERFEVTSEL::OS>(true)
//!     .with_bit::<IA32_PERFEVTSEL::EN>(true)
//!     .build();
//! assert_eq!(LLC_MISSES.bits(), 0x0043_412E);
//! assert_eq!(IA32_PERFEVTSEL::address::<3>(), 0x189);
//! ```
//!
//! The runtime layer on top of the generated registers:
//!
//! - [`access`]: the backend trait [`access::RawMsr`] and typed `read`/`write`/`modify`;
//! - [`backend`]: `rdmsr`/`wrmsr` in ring 0, `/dev/cpu/N/msr` (feature `std`), a
//!   hardware-like mock (feature `mock`);
//! - [`detect`]: the PMU generation and counters of a CPU, from CPUID;
//! - [`arch`]: one type per generation, the runtime view of a generated module;
//! - [`pmu`]: counter programming (events, fixed counters, freeze, overflow status);
//! - [`schedule`]: which counters a set of events goes on, or why it does not fit;
//! - `perf` (feature `perf`): an event name or perf string to `perf_event_attr` fields, at
//!   run time.

#![no_std]
// `unsafe` is allowed in exactly one place: the rdmsr/wrmsr boundary of the ring-0 backend
// (`backend::ring0`), which carries its own `#[allow(unsafe_code)]` and safety contract.
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

pub use tock_registers;

pub mod access;
pub mod arch;
pub mod backend;
pub mod detect;
mod event;
mod field;
pub mod guest;
mod lookup;
#[cfg(feature = "perf")]
pub mod perf;
mod place;
pub mod pmu;
pub mod reg;
pub mod schedule;
#[rustfmt::skip]
mod generated;
pub use event::{
    CounterMask, EventAlt, EventDesc, EventMsr, EventRef, EventTable, EventTableIter,
    PlacementError,
};
pub use generated::*;

use core::fmt;

/// A runtime field update that does not fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldError {
    /// The value has bits above the field's width.
    TooWide {
        /// Field name.
        field: &'static str,
        /// Field width in bits.
        width: u32,
        /// The rejected value.
        value: u64,
    },
    /// The field is valid only on some instances of its register family (IN_TXCP on counter
    /// 2), and the value is for another.
    NotOnInstance {
        /// Field name.
        field: &'static str,
        /// The instance the value is for.
        instance: u32,
    },
    /// The element index of a per-counter field array is out of range.
    IndexOutOfRange {
        /// Field name.
        field: &'static str,
        /// Number of elements.
        count: u32,
        /// The rejected index.
        index: u32,
    },
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FieldError::TooWide {
                field,
                width,
                value,
            } => {
                write!(f, "{field} is {width} bits wide; {value:#X} does not fit")
            }
            FieldError::NotOnInstance { field, instance } => write!(
                f,
                "{field} is not valid on instance {instance} of its register; the processor faults (#GP)"
            ),
            FieldError::IndexOutOfRange {
                field,
                count,
                index,
            } => write!(
                f,
                "{field} has {count} elements (0..={}); index {index} is out of range",
                count.saturating_sub(1)
            ),
        }
    }
}

impl core::error::Error for FieldError {}

/// A combination of field values the hardware documentation rules out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstraintError {
    /// Constraint id from the definitions (`field-set-twice` for a builder given one field
    /// twice).
    pub id: &'static str,
    /// What is wrong and how to fix it; when [`field`](Self::field) names a field, what is
    /// wrong with it (the `Display` puts its name first).
    pub message: &'static str,
    /// The field at fault, when there is one (the field given two different values).
    pub field: Option<&'static str>,
}

impl fmt::Display for ConstraintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(field) = self.field {
            write!(f, "{field} ")?;
        }
        write!(f, "{} [{}]", self.message, self.id)
    }
}

impl core::error::Error for ConstraintError {}

/// A raw value that sets reserved bits of a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReservedBitsError {
    /// Register name.
    pub register: &'static str,
    /// The reserved bits that were set.
    pub bits: u64,
    /// Every reserved bit of the register.
    pub reserved_mask: u64,
}

impl fmt::Display for ReservedBitsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bits {:#X} are reserved in {} (reserved mask {:#018X}); writing them faults (#GP)",
            self.bits, self.register, self.reserved_mask
        )
    }
}

impl core::error::Error for ReservedBitsError {}

/// An event name that is not known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownEvent;

impl fmt::Display for UnknownEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown event name")
    }
}

impl core::error::Error for UnknownEvent {}

/// Support code for generated items. Not public API.
#[doc(hidden)]
pub mod __private {
    /// The generated name tables and their hash (`lookup.rs`).
    pub use crate::lookup::{NameIndex, bucket, eq_folded, hash, slot};
    /// Field access (`field.rs`): every generated getter and setter calls one of these.
    pub mod field {
        pub use crate::field::*;
    }
    /// Placing an event on a counter (`place.rs`), for the generated `event_on`.
    pub use crate::place::{SelectSpec, place};
    pub use pmu_vocab::select::{Attr, FieldRuns, Run, SelectLayout};

    /// `Debug` of a generated register or CPUID value: `name { FIELD: value, .. }`, a field
    /// flagged one bit wide as a `bool` and a wider one in hex, then `reserved` when it is not
    /// zero. One function for every register, where a `debug_struct` chain per register was a
    /// large body each for the compiler to check and compile.
    pub fn debug_value(
        f: &mut core::fmt::Formatter<'_>,
        name: &str,
        fields: &[(&str, bool, u64)],
        reserved: u64,
    ) -> core::fmt::Result {
        let mut d = f.debug_struct(name);
        for &(field, one_bit, v) in fields {
            if one_bit {
                d.field(field, &(v != 0));
            } else {
                d.field(field, &format_args!("{v:#x}"));
            }
        }
        if reserved != 0 {
            d.field("reserved", &format_args!("{reserved:#x}"));
        }
        d.finish()
    }

    pub(crate) struct Buf {
        bytes: [u8; 256],
        len: usize,
    }

    impl Buf {
        pub(crate) const fn new() -> Self {
            Buf {
                bytes: [0; 256],
                len: 0,
            }
        }

        pub(crate) const fn push_str(mut self, s: &str) -> Self {
            let b = s.as_bytes();
            let mut i = 0;
            while i < b.len() && self.len < self.bytes.len() {
                self.bytes[self.len] = b[i];
                self.len += 1;
                i += 1;
            }
            self
        }

        pub(crate) const fn push_num(mut self, v: u64, hex: bool) -> Self {
            let base = if hex { 16 } else { 10 };
            let mut digits = [0u8; 20];
            let mut n = 0;
            let mut v = v;
            loop {
                let d = (v % base) as u8;
                digits[n] = if d < 10 { b'0' + d } else { b'A' + d - 10 };
                n += 1;
                v /= base;
                if v == 0 {
                    break;
                }
            }
            if hex {
                self = self.push_str("0x");
            }
            while n > 0 && self.len < self.bytes.len() {
                n -= 1;
                self.bytes[self.len] = digits[n];
                self.len += 1;
            }
            self
        }

        #[track_caller]
        pub(crate) const fn fail(&self) -> ! {
            match core::str::from_utf8(self.bytes.split_at(self.len).0) {
                Ok(m) => panic!("{}", m),
                Err(_) => panic!("invalid register value"),
            }
        }
    }

    // Every helper below is `#[track_caller]`, like the generated functions that call them: a
    // failure while evaluating a `const` item is then reported at the user's expression, with
    // no frames inside this crate.

    /// Const-eval failure: `"{field} of {register} is {width} bits wide (at most {max:#X});
    /// {value} ({value:#X}) does not fit"`.
    #[track_caller]
    pub const fn too_wide(register: &str, field: &str, width: u32, value: u64) -> ! {
        let max = if width >= 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        Buf::new()
            .push_str(field)
            .push_str(" of ")
            .push_str(register)
            .push_str(" is ")
            .push_num(width as u64, false)
            .push_str(if width == 1 {
                " bit wide (at most "
            } else {
                " bits wide (at most "
            })
            .push_num(max, true)
            .push_str("); ")
            .push_num(value, false)
            .push_str(" (")
            .push_num(value, true)
            .push_str(") does not fit")
            .fail()
    }

    /// The type a generated stub for a field missing from a generation's layout hangs its
    /// (never satisfied) bound on, so that rustc reports the stub trait's message.
    #[derive(Debug)]
    pub struct Const<const V: u64>;

    /// What a builder's `try_build` returns when a field was given two different values:
    /// the first of `fields` (the register's `FIELDS`) whose bits are in `conflict`.
    pub const fn set_twice_error(
        conflict: u64,
        fields: &[crate::arch::FieldInfo],
    ) -> crate::ConstraintError {
        crate::ConstraintError {
            id: "field-set-twice",
            message: "is given two different values; set each field once",
            field: Some(first_in(conflict, fields)),
        }
    }

    /// Const-eval failure of a builder: [`set_twice`] for the first of `fields` (as in
    /// [`set_twice_error`]) whose bits are in `conflict`.
    #[track_caller]
    pub const fn set_twice_in(
        register: &str,
        conflict: u64,
        fields: &[crate::arch::FieldInfo],
    ) -> ! {
        set_twice(register, first_in(conflict, fields))
    }

    /// The name of the first of `fields` with a bit in `conflict`.
    const fn first_in(conflict: u64, fields: &[crate::arch::FieldInfo]) -> &'static str {
        let mut i = 0;
        while i < fields.len() {
            if conflict & fields[i].mask() != 0 {
                return fields[i].name;
            }
            i += 1;
        }
        "a field"
    }

    /// Const-eval failure: a field given two different values in one builder chain.
    #[track_caller]
    pub const fn set_twice(register: &str, field: &str) -> ! {
        Buf::new()
            .push_str(field)
            .push_str(" of ")
            .push_str(register)
            .push_str(" is given two different values; set each field once")
            .fail()
    }

    /// Const-eval failure: a raw constant with reserved bits set.
    #[track_caller]
    pub const fn reserved_bits(register: &str, bits: u64, mask: u64) -> ! {
        Buf::new()
            .push_str("bits ")
            .push_num(bits, true)
            .push_str(" are reserved in ")
            .push_str(register)
            .push_str(" (reserved mask ")
            .push_num(mask, true)
            .push_str("); writing them faults (#GP)")
            .fail()
    }

    /// Const-eval failure: `"{field} of {register} is valid only on {register}{i}, ...; not on
    /// {register}{index}"`, or, for a value not placed on an instance at compile time, that it
    /// must be placed first.
    #[track_caller]
    pub const fn not_on_instance(
        register: &str,
        field: &str,
        instances: &[u32],
        index: Option<u32>,
    ) -> ! {
        let mut b = Buf::new()
            .push_str(field)
            .push_str(" of ")
            .push_str(register)
            .push_str(" is valid only on ");
        let mut i = 0;
        while i < instances.len() {
            if i > 0 {
                b = b.push_str(", ");
            }
            b = b.push_str(register).push_num(instances[i] as u64, false);
            i += 1;
        }
        match index {
            Some(n) => b.push_str("; not on ").push_str(register).push_num(n as u64, false),
            None => b.push_str(
                "; place the value on one of them first: `event_on::<N>(..)` or `Value::new().at::<N>()`",
            ),
        }
        .fail()
    }

    /// Const-eval failure: a read-only field (or a field of a read-only register) set.
    #[track_caller]
    pub const fn read_only(register: &str, field: &str) -> ! {
        Buf::new()
            .push_str(field)
            .push_str(" of ")
            .push_str(register)
            .push_str(" is read-only: it cannot be set (the processor reports it; read it with `MsrExt::read`, writing it faults: #GP)")
            .fail()
    }

    /// Const-eval failure: `"{field} of {register} is {width} bits wide: set it with `with::<F, V>()` or `try_with`"`.
    #[track_caller]
    pub const fn not_one_bit(register: &str, field: &str, width: u32) -> ! {
        Buf::new()
            .push_str(field)
            .push_str(" of ")
            .push_str(register)
            .push_str(" is ")
            .push_num(width as u64, false)
            .push_str(" bits wide, not one bit: set it with `with::<F, V>()` or `try_with::<F>(v)`")
            .fail()
    }

    /// Const-eval failure: `"{what} has {count} {unit} (0..={count-1}); index {index} is out of range"`.
    #[track_caller]
    pub const fn index_out_of_range(what: &str, unit: &str, count: u32, index: u32) -> ! {
        Buf::new()
            .push_str(what)
            .push_str(" has ")
            .push_num(count as u64, false)
            .push_str(" ")
            .push_str(unit)
            .push_str(" (0..=")
            .push_num(count.saturating_sub(1) as u64, false)
            .push_str("); index ")
            .push_num(index as u64, false)
            .push_str(" is out of range")
            .fail()
    }
}
