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

mod spec;
pub use crate::__generations::*;
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

/// How software may access a register, and what a register does in the PMU: the YAML's
/// `access:` and `role:`, shared with the generator (`pmu_vocab`).
pub use pmu_vocab::{Access, Role};

/// One register family of a generation: its MSRs and what they are.
#[derive(Clone, Copy)]
pub struct RegInfo {
    /// Register name, as in the manuals (and the generated module).
    pub name: &'static str,
    /// Every MSR address, by index (one entry for a single register).
    pub addresses: &'static [u32],
    /// The second address of each instance (`alias-msr:`, perfmon v6's `0x1900 + 4n`), by
    /// index; empty for a register without one. The same register as `addresses`.
    pub alias_addresses: &'static [u32],
    /// Bits no field covers.
    pub reserved_mask: u64,
    /// Access, checked by trait bounds on the generated `Instance` type.
    pub access: Access,
    /// What the register does for the run-time layer (its YAML `role:`).
    pub role: Option<Role>,
    /// Formats a value read from the register with its generated `Debug` (field by field);
    /// `None` for write-only registers.
    pub decode: Option<fn(u64, &mut fmt::Formatter<'_>) -> fmt::Result>,
}

impl RegInfo {
    /// The index of `address` in this family (its own address or its alias), if it belongs
    /// to it.
    pub fn index_of(&self, address: u32) -> Option<u32> {
        let own = self.addresses.iter().position(|&a| a == address);
        let alias = || self.alias_addresses.iter().position(|&a| a == address);
        own.or_else(alias).map(|i| i as u32)
    }

    /// `name` with the instance index for families (`IA32_PMC3`), plain otherwise.
    pub fn instance_name(&self, index: u32) -> InstanceName {
        InstanceName {
            name: self.name,
            index: (self.addresses.len() > 1).then_some(index),
        }
    }

    /// A value of this register, displayed with its generated field-by-field `Debug`.
    pub fn decoded(&self, bits: u64) -> Decoded {
        Decoded {
            bits,
            decode: self.decode,
        }
    }
}

impl fmt::Debug for RegInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RegInfo")
            .field("name", &self.name)
            .field("addresses", &self.addresses)
            .field("alias_addresses", &self.alias_addresses)
            .field("reserved_mask", &format_args!("{:#x}", self.reserved_mask))
            .field("access", &self.access)
            .field("role", &self.role)
            .finish()
    }
}

/// `IA32_PMC3` / `IA32_PERF_GLOBAL_CTRL` ([`RegInfo::instance_name`]).
#[derive(Clone, Copy, Debug)]
pub struct InstanceName {
    name: &'static str,
    index: Option<u32>,
}

impl fmt::Display for InstanceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "{}{}", self.name, i),
            None => f.write_str(self.name),
        }
    }
}

/// A register value shown field by field ([`RegInfo::decoded`]).
#[derive(Clone, Copy)]
pub struct Decoded {
    bits: u64,
    decode: Option<fn(u64, &mut fmt::Formatter<'_>) -> fmt::Result>,
}

impl fmt::Display for Decoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.decode {
            Some(d) => d(self.bits, f),
            None => write!(f, "{:#x}", self.bits),
        }
    }
}

impl fmt::Debug for Decoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Access constructors for the generated [`RegInfo`] tables: the trait bounds make each
/// table entry agree with the generated `Instance` impls (an entry says read-write only when
/// the register's type implements both `Readable` and `Writable`). Not public API.
#[doc(hidden)]
pub mod __access {
    use super::Access;
    use crate::access::{Readable, Writable};
    use core::fmt;

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

    /// Formats a value read from `M` with its generated `Debug`.
    pub fn decode<M: Readable>(bits: u64, f: &mut fmt::Formatter<'_>) -> fmt::Result
    where
        M::Value: fmt::Debug,
    {
        fmt::Debug::fmt(&M::from_read(bits), f)
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

/// The runtime view of one PMU generation, implemented by the generated marker type of every
/// generation whose definitions give registers the `counter` and `event-select` roles (see
/// [`Generation::ALL`]).
///
/// The generated impl supplies the [`Spec`] (addresses and bit positions by role), the register
/// and architectural-event tables, and the event encoding through the generated
/// `try_event_on`; every other method is written once, here, over the [`Spec`]. Methods
/// returning `Option<u32>` give MSR addresses (`None`: the generation has no such register, or
/// no such index). Methods taking and returning `u64` change only the bits they own, so other
/// fields and reserved bits as read pass through unchanged.
pub trait Arch: Copy + Default + fmt::Debug + Send + Sync + 'static {
    /// The generation's id (`generation:` in its YAML): the identity of the type, also for a
    /// generation defined outside `pmu-regs` through `registers!`.
    const ID: &'static str;
    /// Addresses and bit positions, by role.
    const SPEC: Spec;
    /// How detection recognises the generation, and what its CPUID fields enumerate.
    const DETECT: DetectSpec;
    /// Instances of the general-purpose counter family in the definitions.
    const GP_INSTANCES: u32 = Self::SPEC.general.counters.len() as u32;
    /// Instances of the fixed-counter family (0 when the generation has none).
    const FIXED_INSTANCES: u32 = match Self::SPEC.fixed {
        Some(f) => f.counters.len() as u32,
        None => 0,
    };
    /// Bits of a general-purpose counter below its reserved bits.
    const GP_MODEL_WIDTH: u32 = Self::SPEC.general.counter_width;
    /// Bits of a fixed counter below its reserved bits (0 when there are none).
    const FIXED_MODEL_WIDTH: u32 = match Self::SPEC.fixed {
        Some(f) => f.counter_width,
        None => 0,
    };
    /// Plain writes to the counter take only bits 31:0 and sign-extend them: true where the
    /// generation has a `full-width-counter` alias (Intel IA32_A_PMCn).
    const GP_WRITE_SIGN_EXTENDS: bool = !Self::SPEC.general.full_width.is_empty();

    /// The built-in [`Generation`] this is (`None` for a generation defined outside
    /// `pmu-regs`).
    fn generation() -> Option<Generation> {
        Generation::from_id(Self::ID)
    }

    /// Every register family of the generation.
    fn registers() -> &'static [RegInfo];
    /// The generation's architectural events (empty where it has none).
    fn arch_events() -> &'static [ArchEventInfo];
    /// Whether CPUID.0AH (`eax`, `ebx`) offers architectural event `index` of
    /// [`Arch::arch_events`] (the generated `ArchEvent::is_available`: its EBX bit is clear and
    /// lies within the EBX length).
    fn arch_event_available(index: usize, eax: u32, ebx: u32) -> bool;
    /// The event-select value counting `event` on counter `n`, without USR/OS/INT/EN: the
    /// generated `try_event_on` (placement, fields of this generation, widths) and the
    /// manual's constraints.
    fn select_event(n: u32, event: &EventDesc) -> Result<u64, EncodeError>;

    /// The event-select value counting `event` on counter `n` with `filter`, enabled.
    fn encode_select(n: u32, event: &EventDesc, filter: Filter) -> Result<u64, EncodeError> {
        let g = Self::SPEC.general;
        let mut v = Self::select_event(n, event)?;
        for (on, bits, name) in [
            (filter.usr, g.usr, "USR"),
            (filter.os, g.os, "OS"),
            (filter.int, g.int, "INT"),
            (true, g.en, "EN"),
        ] {
            match bits {
                Some(b) => {
                    v = b
                        .set(v, 0, on as u64)
                        .map_err(|_| unsupported_select(event, name))?
                }
                None if on => return Err(unsupported_select(event, name)),
                None => {}
            }
        }
        Ok(v)
    }

    /// The event encoding alone (no USR/OS/INT/EN), as Linux perf takes it in
    /// `perf_event_attr.config` for `PERF_TYPE_RAW`.
    fn encode_raw_config(event: &EventDesc) -> Result<u64, EncodeError> {
        // perf chooses the counter itself: place on counter 0 with the counter restriction
        // lifted, so only the checks that do not depend on the counter remain (fixed-only
        // events, fields this generation lacks, values too wide).
        let unrestricted = if event.counters == 0 {
            *event
        } else {
            EventDesc {
                counters: u32::MAX,
                ..*event
            }
        };
        Self::select_event(0, &unrestricted)
    }

    /// Event select `n`.
    fn gp_select(n: u32) -> Option<u32> {
        Self::SPEC.general.selects.get(n as usize).copied()
    }
    /// Counter `n`.
    fn gp_counter(n: u32) -> Option<u32> {
        Self::SPEC.general.counters.get(n as usize).copied()
    }
    /// Full-width write alias of counter `n` (IA32_A_PMCn); `None` when counter writes are
    /// always full width (AMD) or there is no counter `n`.
    fn gp_counter_full_width(n: u32) -> Option<u32> {
        Self::SPEC.general.full_width.get(n as usize).copied()
    }
    /// Decodes an event-select value.
    fn select_state(bits: u64) -> SelectState {
        let g = Self::SPEC.general;
        let flag = |b: Option<Bits>| b.and_then(|b| b.get(bits, 0)).is_some_and(|v| v != 0);
        SelectState {
            enabled: flag(g.en),
            usr: flag(g.usr),
            os: flag(g.os),
            int: flag(g.int),
            in_use: bits & g.event_mask != 0,
        }
    }
    /// `bits` with EN set or cleared.
    fn select_with_enable(bits: u64, on: bool) -> u64 {
        match Self::SPEC.general.en {
            Some(b) => b.set(bits, 0, on as u64).unwrap_or(bits),
            None => bits,
        }
    }

    /// Fixed counter `n`.
    fn fixed_counter(n: u32) -> Option<u32> {
        Self::SPEC.fixed?.counters.get(n as usize).copied()
    }
    /// The fixed-counter control register.
    fn fixed_ctrl() -> Option<u32> {
        Some(Self::SPEC.fixed?.control?.address)
    }
    /// `bits` with fixed counter `n`'s block set to `mode` (`None`: disabled) and `pmi`, its
    /// other per-counter bits (AnyThread, adaptive PEBS) cleared.
    fn fixed_ctrl_with(
        bits: u64,
        n: u32,
        mode: Option<FixedMode>,
        pmi: bool,
    ) -> Result<u64, FieldError> {
        let Some(c) = Self::SPEC.fixed.and_then(|f| f.control) else {
            return Err(unsupported_field("ENABLE", n));
        };
        let [disabled, os, usr, all] = c.privilege_values;
        let value = match mode {
            None => disabled,
            Some(FixedMode::Os) => os,
            Some(FixedMode::Usr) => usr,
            Some(FixedMode::All) => all,
        };
        let mut v = c.privilege.set(bits, n, value)?;
        match c.pmi {
            Some(p) => v = p.set(v, n, pmi as u64)?,
            None if pmi => return Err(unsupported_field("PMI", n)),
            None => {}
        }
        for other in c.others {
            v = other.set(v, n, 0)?;
        }
        Ok(v)
    }
    /// Decodes fixed counter `n`'s block.
    fn fixed_state(bits: u64, n: u32) -> Option<FixedState> {
        let c = Self::SPEC.fixed?.control?;
        let value = c.privilege.get(bits, n)?;
        let [disabled, os, usr, all] = c.privilege_values;
        let mode = if value == disabled {
            None
        } else if value == os {
            Some(FixedMode::Os)
        } else if value == usr {
            Some(FixedMode::Usr)
        } else if value == all {
            Some(FixedMode::All)
        } else {
            return None;
        };
        let pmi = match c.pmi {
            Some(p) => p.get(bits, n)? != 0,
            None => false,
        };
        Some(FixedState { mode, pmi })
    }

    /// The global enable register.
    fn global_ctrl() -> Option<u32> {
        Some(Self::SPEC.global_control?.address)
    }
    /// `bits` with `counter`'s global enable set or cleared.
    fn global_ctrl_with(bits: u64, counter: Counter, on: bool) -> Result<u64, FieldError> {
        let n = counter_index(counter);
        let b = Self::SPEC
            .global_control
            .and_then(|r| per_counter(&r, counter))
            .ok_or(unsupported_field("EN", n))?;
        b.set(bits, n, on as u64)
    }
    /// `counter`'s global enable in `bits` (true where the generation has no global enable).
    fn global_ctrl_enabled(bits: u64, counter: Counter) -> bool {
        match Self::SPEC.global_control {
            None => true,
            Some(r) => per_counter(&r, counter)
                .and_then(|b| b.get(bits, counter_index(counter)))
                .is_some_and(|v| v != 0),
        }
    }
    /// Reserved bits of the global enable register.
    fn global_ctrl_reserved() -> u64 {
        Self::SPEC.global_control.map_or(u64::MAX, |r| r.reserved)
    }

    /// The global status register.
    fn global_status() -> Option<u32> {
        Some(Self::SPEC.global_status?.address)
    }
    /// Decodes a status value.
    fn status_decode(bits: u64) -> Status {
        let Some(s) = Self::SPEC.global_status else {
            return Status {
                raw: bits,
                ..Status::default()
            };
        };
        let set = |b: Option<Bits>| b.map_or(0, |b| b.nonzero(bits));
        Status {
            gp: set(s.general),
            fixed: set(s.fixed),
            frozen: s.flag.is_some_and(|f| f.nonzero(bits) != 0),
            raw: bits,
        }
    }
    /// The status bit reporting `counter`'s overflow.
    fn status_bit(counter: Counter) -> Option<u64> {
        per_counter(&Self::SPEC.global_status?, counter)?.mask(counter_index(counter))
    }
    /// The `frozen` status bit (CTR_FRZ, version 4 and later).
    fn ctr_frz_bit() -> Option<u64> {
        Self::SPEC.global_status?.flag?.mask(0)
    }
    /// The write-1-to-clear register of the status.
    fn status_reset() -> Option<u32> {
        Some(Self::SPEC.global_status_reset?.address)
    }
    /// The value that, written to [`Arch::status_reset`], clears the overflow bits of the
    /// counters in `gp`/`fixed` and, when `ctr_frz`, the frozen bit.
    fn status_reset_bits(gp: u32, fixed: u32, ctr_frz: bool) -> Result<u64, FieldError> {
        let r = Self::SPEC
            .global_status_reset
            .ok_or(unsupported_field("CLR_OVF", 0))?;
        per_counter_bits(&r, gp, fixed, ctr_frz, "CLR_OVF")
    }
    /// The write-1-to-set register of the status.
    fn status_set() -> Option<u32> {
        Some(Self::SPEC.global_status_set?.address)
    }
    /// The value that, written to [`Arch::status_set`], sets the overflow bits of these
    /// counters.
    fn status_set_bits(gp: u32, fixed: u32) -> Result<u64, FieldError> {
        let r = Self::SPEC
            .global_status_set
            .ok_or(unsupported_field("SET_OVF", 0))?;
        per_counter_bits(&r, gp, fixed, false, "SET_OVF")
    }

    /// The in-use register (IA32_PERF_GLOBAL_INUSE).
    fn global_inuse() -> Option<u32> {
        Some(Self::SPEC.global_in_use?.address)
    }
    /// Its bit for `counter`.
    fn inuse_bit(counter: Counter) -> Option<u64> {
        per_counter(&Self::SPEC.global_in_use?, counter)?.mask(counter_index(counter))
    }
    /// Its `pmi-in-use` bit.
    fn inuse_pmi_bit() -> Option<u64> {
        Self::SPEC.global_in_use?.flag?.mask(0)
    }

    /// The debug-control register, when it has the `freeze-on-pmi` bit.
    fn debugctl() -> Option<u32> {
        let d = Self::SPEC.debug_control?;
        d.flag.map(|_| d.address)
    }
    /// Freeze-on-PMI in `bits`.
    fn freeze_on_pmi(bits: u64) -> bool {
        Self::SPEC
            .debug_control
            .and_then(|d| d.flag)
            .and_then(|f| f.get(bits, 0))
            .is_some_and(|v| v != 0)
    }
    /// `bits` with Freeze-on-PMI set or cleared.
    fn with_freeze_on_pmi(bits: u64, on: bool) -> u64 {
        match Self::SPEC.debug_control.and_then(|d| d.flag) {
            Some(f) => f.set(bits, 0, on as u64).unwrap_or(bits),
            None => bits,
        }
    }

    /// The capabilities register.
    fn perf_capabilities() -> Option<u32> {
        Some(Self::SPEC.capabilities?.address)
    }
    /// The `full-width-write` bit (IA32_A_PMCx present) in a capabilities value.
    fn caps_full_width_write(bits: u64) -> bool {
        Self::caps_full_width_write_bit().is_some_and(|b| bits & b != 0)
    }
    /// The capabilities value with only the `full-width-write` bit set.
    fn caps_full_width_write_bit() -> Option<u64> {
        Self::SPEC.capabilities?.flag?.mask(0)
    }
}

fn unsupported_select(event: &EventDesc, field: &'static str) -> EncodeError {
    EncodeError::Placement(PlacementError::Unsupported {
        event: event.name,
        field,
        register: "event select",
    })
}
