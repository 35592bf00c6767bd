//! The run-time view of every generation: a marker type per generation implementing
//! [`Arch`], and [`Generation`], the enum over them. Both are generated (`cargo xtask gen`)
//! from the definitions' *roles*: each register states what it does (`role: event-select`,
//! `global-status-reset`, ...), each per-counter field array which counters its elements belong
//! to (`per-counter: general`), and single-purpose fields their role (`frozen`,
//! `freeze-on-pmi`, ...). A generation added by YAML alone gets its marker and its variant
//! with no Rust edit.
//!
//! The generated impl gives a [`Spec`] (addresses and bit positions by role), the register
//! table ([`RegInfo`], each with its [`Role`]), the architectural events and the event
//! encoding through the generated `try_event_on`. The behaviour (enable a counter, decode a
//! status, clear overflow bits) is written once, in [`Arch`]'s provided methods, over that
//! data: nothing here names a generation, a register, an address or a bit.
//!
//! The generation to use at run time comes from [`crate::detect`]; [`Generation::visit`] turns
//! it into a type:
//!
//! ```
//! use pmu_regs::arch::{Arch, ArchVisitor, Generation};
//!
//! struct GpCount;
//! impl ArchVisitor for GpCount {
//!     type Output = u32;
//!     fn visit<A: Arch>(self) -> u32 {
//!         A::GP_INSTANCES
//!     }
//! }
//! for g in Generation::ALL {
//!     let counters = g.visit(GpCount);
//!     assert_eq!(counters as usize, g.registers().iter()
//!         .find(|r| r.role == Some(pmu_regs::arch::Role::Counter))
//!         .map_or(0, |r| r.addresses.len()));
//!     println!("{g}: {counters} general-purpose counters");
//! }
//! ```

use crate::EventDesc;
use crate::{ConstraintError, FieldError, PlacementError};
use core::fmt;

mod cpus;
mod programming;
mod registers;
mod spec;

pub use crate::__generations::*;
pub use cpus::{CpuName, CpuNameTarget, CpuQuery, FoundCpu, find_cpu};
pub use programming::Arch;
pub use registers::{
    Access, CountForm, CountFrom, Decoded, FieldInfo, InstanceName, RegInfo, Role, Run,
};
pub use spec::*;

/// CPU vendor of a generation (and of a detected CPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vendor {
    /// Intel (`GenuineIntel`).
    Intel,
    /// AMD (`AuthenticAMD`; Hygon's `HygonGenuine` parts use the same PMU).
    Amd,
}

/// Runs code generic over [`Arch`] for a generation chosen at run time
/// ([`Generation::visit`]).
pub trait ArchVisitor {
    /// What the visit returns.
    type Output;
    /// Called with the generation's [`Arch`] type.
    fn visit<A: Arch>(self) -> Self::Output;
}

/// A counter: general-purpose (`IA32_PMCn`, AMD `PerfCtrn`) or fixed-function
/// (`IA32_FIXED_CTRn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Counter {
    /// General-purpose counter `n`.
    Gp(u32),
    /// Fixed-function counter `n`.
    Fixed(u32),
}

impl fmt::Display for Counter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Counter::Gp(n) => write!(f, "general-purpose counter {n}"),
            Counter::Fixed(n) => write!(f, "fixed counter {n}"),
        }
    }
}

/// Privilege-level filter and interrupt flag of a general-purpose counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Filter {
    /// Count at privilege levels 1-3 (USR).
    pub usr: bool,
    /// Count at privilege level 0 (OS).
    pub os: bool,
    /// Raise a PMI when the counter overflows (INT).
    pub int: bool,
}

impl Filter {
    /// User and kernel mode, no interrupt.
    pub const ALL: Filter = Filter {
        usr: true,
        os: true,
        int: false,
    };
    /// User mode only.
    pub const USER: Filter = Filter {
        usr: true,
        os: false,
        int: false,
    };
    /// Kernel mode only.
    pub const KERNEL: Filter = Filter {
        usr: false,
        os: true,
        int: false,
    };

    /// The same filter with the overflow interrupt on or off.
    pub const fn with_interrupt(mut self, on: bool) -> Filter {
        self.int = on;
        self
    }
}

/// Privilege levels a fixed counter counts at (the ENABLE field of its IA32_FIXED_CTR_CTRL
/// block; the encodings come from the generated `Enable` enum).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FixedMode {
    /// Privilege level 0 only.
    Os,
    /// Privilege levels 1-3 only.
    Usr,
    /// Every privilege level.
    All,
}

/// A privilege level at which simulated events happen (mock backend).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ring {
    /// Ring 0.
    Kernel,
    /// Rings 1-3.
    User,
}

/// The decoded state of an event-select register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SelectState {
    /// EN.
    pub enabled: bool,
    /// USR.
    pub usr: bool,
    /// OS.
    pub os: bool,
    /// INT.
    pub int: bool,
    /// The event select field is non-zero (what IA32_PERF_GLOBAL_INUSE reports).
    pub in_use: bool,
}

/// The decoded state of one fixed counter's control block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedState {
    /// The ENABLE field; `None` when the counter is disabled.
    pub mode: Option<FixedMode>,
    /// PMI on overflow.
    pub pmi: bool,
}

/// Overflow and freeze status (IA32_PERF_GLOBAL_STATUS, AMD PerfCntrGlobalStatus).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Status {
    /// General-purpose counters that overflowed (bit n = counter n).
    pub gp: u32,
    /// Fixed counters that overflowed (bit n = fixed counter n).
    pub fixed: u32,
    /// Counters frozen by Freeze_PerfMon_On_PMI (CTR_FRZ, version 4 and later).
    pub frozen: bool,
    /// The register as read.
    pub raw: u64,
}

impl Status {
    /// True when no counter overflowed and nothing is frozen.
    pub const fn is_clear(&self) -> bool {
        self.gp == 0 && self.fixed == 0 && !self.frozen
    }

    /// True when `counter` overflowed.
    pub const fn overflowed(&self, counter: Counter) -> bool {
        match counter {
            Counter::Gp(n) => n < 32 && self.gp & (1 << n) != 0,
            Counter::Fixed(n) => n < 32 && self.fixed & (1 << n) != 0,
        }
    }
}

/// An architectural event of a generation, from its generated `ArchEvent` table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArchEventInfo {
    /// Canonical name.
    pub name: &'static str,
    /// The CPUID.0AH:EBX bit that marks it unavailable.
    pub cpuid_bit: u32,
    /// Its encoding and the counters that may count it.
    pub desc: EventDesc,
}

/// Why an event cannot be encoded into an event-select value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodeError {
    /// Counter index, fixed-only event, counter restriction, missing field or too-wide value.
    Placement(PlacementError),
    /// A field combination the manual rules out (INV without CMASK, ...).
    Constraint(ConstraintError),
}

impl From<PlacementError> for EncodeError {
    fn from(e: PlacementError) -> Self {
        EncodeError::Placement(e)
    }
}

impl From<ConstraintError> for EncodeError {
    fn from(e: ConstraintError) -> Self {
        EncodeError::Constraint(e)
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::Placement(e) => e.fmt(f),
            EncodeError::Constraint(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for EncodeError {}

/// Access constructors for the generated [`RegInfo`] tables: the trait bounds make each
/// table entry agree with the generated `Instance` impls (an entry says read-write only when
/// the register's type implements both `Readable` and `Writable`). Not public API.
#[doc(hidden)]
pub mod __access {
    use super::Access;
    use crate::access::{Readable, Writable};

    /// Read-write.
    #[allow(clippy::extra_unused_type_parameters)] // the parameter is there for its bounds
    pub const fn rw<M: Readable + Writable>() -> Access {
        Access::ReadWrite
    }
    /// Read-only.
    #[allow(clippy::extra_unused_type_parameters)]
    pub const fn ro<M: Readable>() -> Access {
        Access::ReadOnly
    }
    /// Write-only.
    #[allow(clippy::extra_unused_type_parameters)]
    pub const fn wo<M: Writable>() -> Access {
        Access::WriteOnly
    }
    /// Write-1-to-clear.
    #[allow(clippy::extra_unused_type_parameters)]
    pub const fn w1c<M: Writable>() -> Access {
        Access::WriteOneToClear
    }
    /// Write-1-to-set.
    #[allow(clippy::extra_unused_type_parameters)]
    pub const fn w1s<M: Writable>() -> Access {
        Access::WriteOneToSet
    }
}

fn unsupported_field(field: &'static str, index: u32) -> FieldError {
    FieldError::IndexOutOfRange {
        field,
        count: 0,
        index,
    }
}

fn counter_index(counter: Counter) -> u32 {
    match counter {
        Counter::Gp(n) | Counter::Fixed(n) => n,
    }
}

/// The per-counter array of `reg` for `counter`'s family.
fn per_counter(reg: &PerCounterSpec, counter: Counter) -> Option<Bits> {
    match counter {
        Counter::Gp(_) => reg.general,
        Counter::Fixed(_) => reg.fixed,
    }
}

/// The mask of the elements of `reg` for counters `gp` (bit n = general counter n) and
/// `fixed`, plus its flag when `flag`.
fn per_counter_bits(
    reg: &PerCounterSpec,
    gp: u32,
    fixed: u32,
    flag: bool,
    what: &'static str,
) -> Result<u64, FieldError> {
    let part = |bits: Option<Bits>, set: u32| match bits {
        Some(b) => b.elements(set),
        None if set == 0 => Ok(0),
        None => Err(unsupported_field(what, set.trailing_zeros())),
    };
    let mut out = part(reg.general, gp)? | part(reg.fixed, fixed)?;
    if flag {
        out |= reg
            .flag
            .and_then(|b| b.mask(0))
            .ok_or(unsupported_field(what, 0))?;
    }
    Ok(out)
}
