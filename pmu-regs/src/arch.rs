//! One type per PMU generation ([`IntelV1`] .. [`IntelV6`], [`AmdK7`], [`AmdCore`],
//! [`AmdPerfmonV2`]) implementing [`Arch`]: the runtime view of a generated module.
//!
//! Everything an [`Arch`] answers is read from the generated register modules: addresses from
//! their `ADDRESSES`/`ADDRESS` constants, bit positions through their typed getters and
//! setters, reserved masks from `Value::RESERVED_MASK`. Nothing here restates a bit position or
//! an address, so the definitions in `pmu-defs/defs` stay the only source of hardware facts.
//! What this module adds is the *role* of each register (which one is the global control, which
//! one clears the status), which is what the counter-programming helpers in [`crate::pmu`], the
//! mock backend and the live-state dump need.
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
//! assert_eq!(Generation::IntelV4.visit(GpCount), 8);
//! assert_eq!(Generation::AmdCore.visit(GpCount), 6);
//! ```

use crate::EventDesc;
use crate::access::{Readable, RegisterValue, Writable};
use crate::{ConstraintError, FieldError, PlacementError};
use core::fmt;

/// CPU vendor of a generation (and of a detected CPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vendor {
    /// Intel (`GenuineIntel`).
    Intel,
    /// AMD (`AuthenticAMD`; Hygon's `HygonGenuine` parts use the same PMU).
    Amd,
}

/// A PMU generation: one module of the generated code, one YAML file in `pmu-defs/defs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Generation {
    /// `intel-v1` ([`crate::intel::v1`]).
    IntelV1,
    /// `intel-v2` ([`crate::intel::v2`]).
    IntelV2,
    /// `intel-v3` ([`crate::intel::v3`]).
    IntelV3,
    /// `intel-v4` ([`crate::intel::v4`]).
    IntelV4,
    /// `intel-v5` ([`crate::intel::v5`]).
    IntelV5,
    /// `intel-v6` ([`crate::intel::v6`]).
    IntelV6,
    /// `amd-k7` ([`crate::amd::k7`]).
    AmdK7,
    /// `amd-core` ([`crate::amd::core`]).
    AmdCore,
    /// `amd-perfmon-v2` ([`crate::amd::perfmon_v2`]).
    AmdPerfmonV2,
}

impl Generation {
    /// Every generation, in definition order.
    pub const ALL: [Generation; 9] = [
        Generation::IntelV1,
        Generation::IntelV2,
        Generation::IntelV3,
        Generation::IntelV4,
        Generation::IntelV5,
        Generation::IntelV6,
        Generation::AmdK7,
        Generation::AmdCore,
        Generation::AmdPerfmonV2,
    ];

    /// The generation id used by the YAML (`generation:`) and by `cargo xtask dump`.
    pub const fn id(self) -> &'static str {
        match self {
            Generation::IntelV1 => "intel-v1",
            Generation::IntelV2 => "intel-v2",
            Generation::IntelV3 => "intel-v3",
            Generation::IntelV4 => "intel-v4",
            Generation::IntelV5 => "intel-v5",
            Generation::IntelV6 => "intel-v6",
            Generation::AmdK7 => "amd-k7",
            Generation::AmdCore => "amd-core",
            Generation::AmdPerfmonV2 => "amd-perfmon-v2",
        }
    }

    /// The generated module path.
    pub const fn module(self) -> &'static str {
        match self {
            Generation::IntelV1 => "pmu_regs::intel::v1",
            Generation::IntelV2 => "pmu_regs::intel::v2",
            Generation::IntelV3 => "pmu_regs::intel::v3",
            Generation::IntelV4 => "pmu_regs::intel::v4",
            Generation::IntelV5 => "pmu_regs::intel::v5",
            Generation::IntelV6 => "pmu_regs::intel::v6",
            Generation::AmdK7 => "pmu_regs::amd::k7",
            Generation::AmdCore => "pmu_regs::amd::core",
            Generation::AmdPerfmonV2 => "pmu_regs::amd::perfmon_v2",
        }
    }

    /// The vendor whose manuals define the generation.
    pub const fn vendor(self) -> Vendor {
        match self {
            Generation::AmdK7 | Generation::AmdCore | Generation::AmdPerfmonV2 => Vendor::Amd,
            _ => Vendor::Intel,
        }
    }

    /// The generation with this id, if any.
    pub fn from_id(id: &str) -> Option<Generation> {
        Generation::ALL.into_iter().find(|g| g.id() == id)
    }

    /// Calls `visitor.visit::<A>()` with the [`Arch`] type of this generation.
    pub fn visit<V: ArchVisitor>(self, visitor: V) -> V::Output {
        match self {
            Generation::IntelV1 => visitor.visit::<IntelV1>(),
            Generation::IntelV2 => visitor.visit::<IntelV2>(),
            Generation::IntelV3 => visitor.visit::<IntelV3>(),
            Generation::IntelV4 => visitor.visit::<IntelV4>(),
            Generation::IntelV5 => visitor.visit::<IntelV5>(),
            Generation::IntelV6 => visitor.visit::<IntelV6>(),
            Generation::AmdK7 => visitor.visit::<AmdK7>(),
            Generation::AmdCore => visitor.visit::<AmdCore>(),
            Generation::AmdPerfmonV2 => visitor.visit::<AmdPerfmonV2>(),
        }
    }

    /// The MSRs of the generation (see [`RegInfo`]).
    pub fn registers(self) -> &'static [RegInfo] {
        struct Regs;
        impl ArchVisitor for Regs {
            type Output = &'static [RegInfo];
            fn visit<A: Arch>(self) -> &'static [RegInfo] {
                A::registers()
            }
        }
        self.visit(Regs)
    }
}

impl fmt::Display for Generation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
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

/// How software may access a register (the YAML `access:`; checked against the model by the
/// test suite).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// Read and write.
    ReadWrite,
    /// Read only: writing faults (#GP).
    ReadOnly,
    /// Write-only; each 1 written clears the matching status bit.
    WriteOneToClear,
    /// Write-only; each 1 written sets the matching status bit.
    WriteOneToSet,
}

impl Access {
    /// The register may be read.
    pub const fn readable(self) -> bool {
        matches!(self, Access::ReadWrite | Access::ReadOnly)
    }

    /// The register may be written.
    pub const fn writable(self) -> bool {
        !matches!(self, Access::ReadOnly)
    }

    /// The YAML spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Access::ReadWrite => "read-write",
            Access::ReadOnly => "read-only",
            Access::WriteOneToClear => "write-1-to-clear",
            Access::WriteOneToSet => "write-1-to-set",
        }
    }
}

/// What a register does in the PMU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// General-purpose event select (IA32_PERFEVTSELn, AMD PerfEvtSeln / PerfCtln).
    EventSelect,
    /// General-purpose counter (IA32_PMCn, AMD PerfCtrn).
    Counter,
    /// Full-width write alias of a general-purpose counter (IA32_A_PMCn).
    FullWidthCounter,
    /// AMD legacy event select at C001_0000h, aliased to the first four core event selects.
    LegacyEventSelect,
    /// AMD legacy counter at C001_0004h, aliased to the first four core counters.
    LegacyCounter,
    /// Fixed-function counter (IA32_FIXED_CTRn).
    FixedCounter,
    /// Fixed-counter control (IA32_FIXED_CTR_CTRL).
    FixedCtrl,
    /// Global enable (IA32_PERF_GLOBAL_CTRL, AMD PerfCntrGlobalCtl).
    GlobalCtrl,
    /// Global overflow status.
    GlobalStatus,
    /// Write-1-to-clear companion of the status register.
    GlobalStatusReset,
    /// Write-1-to-set companion of the status register.
    GlobalStatusSet,
    /// IA32_PERF_GLOBAL_INUSE.
    GlobalInUse,
    /// IA32_PERF_CAPABILITIES.
    Capabilities,
    /// IA32_DEBUGCTL (freeze bits).
    DebugCtl,
}

/// One register family of a generation: its MSRs and what they are.
#[derive(Clone, Copy)]
pub struct RegInfo {
    /// Register name, as in the manuals (and the generated module).
    pub name: &'static str,
    /// Every MSR address, by index (one entry for a single register).
    pub addresses: &'static [u32],
    /// Bits no field covers.
    pub reserved_mask: u64,
    /// Access, checked by trait bounds on the generated `Instance` type.
    pub access: Access,
    /// What the register does.
    pub role: Role,
    /// Formats a value read from the register with its generated `Debug` (field by field);
    /// `None` for write-only registers.
    pub decode: Option<fn(u64, &mut fmt::Formatter<'_>) -> fmt::Result>,
}

impl RegInfo {
    /// The index of `address` in this family, if it belongs to it.
    pub fn index_of(&self, address: u32) -> Option<u32> {
        self.addresses
            .iter()
            .position(|&a| a == address)
            .map(|i| i as u32)
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

// Access constructors: the trait bounds make the table agree with the generated impls (a
// register declared read-write here must implement both Readable and Writable).
#[allow(clippy::extra_unused_type_parameters)] // the parameter is there for its bounds
const fn rw<M: Readable + Writable>() -> Access {
    Access::ReadWrite
}
#[allow(clippy::extra_unused_type_parameters)] // the parameter is there for its bounds
const fn ro<M: Readable>() -> Access {
    Access::ReadOnly
}
#[allow(clippy::extra_unused_type_parameters)] // the parameter is there for its bounds
const fn w1c<M: Writable>() -> Access {
    Access::WriteOneToClear
}
#[allow(clippy::extra_unused_type_parameters)] // the parameter is there for its bounds
const fn w1s<M: Writable>() -> Access {
    Access::WriteOneToSet
}

fn decode<M: Readable>(bits: u64, f: &mut fmt::Formatter<'_>) -> fmt::Result
where
    M::Value: fmt::Debug,
{
    fmt::Debug::fmt(&M::from_read(bits), f)
}

macro_rules! reg {
    (@acc rw $($p:ident)::+) => { rw::<$($p)::+::Instance>() };
    (@acc ro $($p:ident)::+) => { ro::<$($p)::+::Instance>() };
    (@acc w1c $($p:ident)::+) => { w1c::<$($p)::+::Instance>() };
    (@acc w1s $($p:ident)::+) => { w1s::<$($p)::+::Instance>() };
    (@dec rw $($p:ident)::+) => { Some(decode::<$($p)::+::Instance>) };
    (@dec ro $($p:ident)::+) => { Some(decode::<$($p)::+::Instance>) };
    (@dec w1c $($p:ident)::+) => { None };
    (@dec w1s $($p:ident)::+) => { None };
    (family $acc:ident $role:ident $($p:ident)::+) => {
        RegInfo {
            name: <$($p)::+::Value as RegisterValue>::NAME,
            addresses: &$($p)::+::ADDRESSES,
            reserved_mask: <$($p)::+::Value as RegisterValue>::RESERVED_MASK,
            access: reg!(@acc $acc $($p)::+),
            role: Role::$role,
            decode: reg!(@dec $acc $($p)::+),
        }
    };
    (single $acc:ident $role:ident $($p:ident)::+) => {
        RegInfo {
            name: <$($p)::+::Value as RegisterValue>::NAME,
            addresses: &[$($p)::+::ADDRESS],
            reserved_mask: <$($p)::+::Value as RegisterValue>::RESERVED_MASK,
            access: reg!(@acc $acc $($p)::+),
            role: Role::$role,
            decode: reg!(@dec $acc $($p)::+),
        }
    };
}

static INTEL_V1_REGS: [RegInfo; 5] = [
    reg!(family rw Counter crate::intel::v1::IA32_PMC),
    reg!(family rw FullWidthCounter crate::intel::v1::IA32_A_PMC),
    reg!(family rw EventSelect crate::intel::v1::IA32_PERFEVTSEL),
    reg!(single ro Capabilities crate::intel::v1::IA32_PERF_CAPABILITIES),
    reg!(single rw DebugCtl crate::intel::v1::IA32_DEBUGCTL),
];

macro_rules! intel_v2_v3_regs {
    ($v:ident) => {
        [
            reg!(family rw Counter crate::intel::$v::IA32_PMC),
            reg!(family rw FullWidthCounter crate::intel::$v::IA32_A_PMC),
            reg!(family rw EventSelect crate::intel::$v::IA32_PERFEVTSEL),
            reg!(single ro Capabilities crate::intel::$v::IA32_PERF_CAPABILITIES),
            reg!(single rw DebugCtl crate::intel::$v::IA32_DEBUGCTL),
            reg!(family rw FixedCounter crate::intel::$v::IA32_FIXED_CTR),
            reg!(single rw FixedCtrl crate::intel::$v::IA32_FIXED_CTR_CTRL),
            reg!(single ro GlobalStatus crate::intel::$v::IA32_PERF_GLOBAL_STATUS),
            reg!(single rw GlobalCtrl crate::intel::$v::IA32_PERF_GLOBAL_CTRL),
            reg!(single w1c GlobalStatusReset crate::intel::$v::IA32_PERF_GLOBAL_OVF_CTRL),
        ]
    };
}

macro_rules! intel_v4_plus_regs {
    ($v:ident) => {
        [
            reg!(family rw Counter crate::intel::$v::IA32_PMC),
            reg!(family rw FullWidthCounter crate::intel::$v::IA32_A_PMC),
            reg!(family rw EventSelect crate::intel::$v::IA32_PERFEVTSEL),
            reg!(single ro Capabilities crate::intel::$v::IA32_PERF_CAPABILITIES),
            reg!(single rw DebugCtl crate::intel::$v::IA32_DEBUGCTL),
            reg!(family rw FixedCounter crate::intel::$v::IA32_FIXED_CTR),
            reg!(single rw FixedCtrl crate::intel::$v::IA32_FIXED_CTR_CTRL),
            reg!(single ro GlobalStatus crate::intel::$v::IA32_PERF_GLOBAL_STATUS),
            reg!(single rw GlobalCtrl crate::intel::$v::IA32_PERF_GLOBAL_CTRL),
            reg!(single w1c GlobalStatusReset crate::intel::$v::IA32_PERF_GLOBAL_STATUS_RESET),
            reg!(single w1s GlobalStatusSet crate::intel::$v::IA32_PERF_GLOBAL_STATUS_SET),
            reg!(single ro GlobalInUse crate::intel::$v::IA32_PERF_GLOBAL_INUSE),
        ]
    };
}

static INTEL_V2_REGS: [RegInfo; 10] = intel_v2_v3_regs!(v2);
static INTEL_V3_REGS: [RegInfo; 10] = intel_v2_v3_regs!(v3);
static INTEL_V4_REGS: [RegInfo; 12] = intel_v4_plus_regs!(v4);
static INTEL_V5_REGS: [RegInfo; 12] = intel_v4_plus_regs!(v5);
static INTEL_V6_REGS: [RegInfo; 12] = intel_v4_plus_regs!(v6);

static AMD_K7_REGS: [RegInfo; 2] = [
    reg!(family rw EventSelect crate::amd::k7::PERF_EVT_SEL),
    reg!(family rw Counter crate::amd::k7::PERF_CTR),
];

static AMD_CORE_REGS: [RegInfo; 4] = [
    reg!(family rw LegacyEventSelect crate::amd::core::PERF_EVT_SEL),
    reg!(family rw LegacyCounter crate::amd::core::PERF_CTR),
    reg!(family rw EventSelect crate::amd::core::PERF_EVT_SEL_CORE),
    reg!(family rw Counter crate::amd::core::PERF_CTR_CORE),
];

static AMD_PERFMON_V2_REGS: [RegInfo; 8] = [
    reg!(family rw LegacyEventSelect crate::amd::perfmon_v2::PERF_EVT_SEL),
    reg!(family rw LegacyCounter crate::amd::perfmon_v2::PERF_CTR),
    reg!(family rw EventSelect crate::amd::perfmon_v2::PERF_EVT_SEL_CORE),
    reg!(family rw Counter crate::amd::perfmon_v2::PERF_CTR_CORE),
    reg!(single ro GlobalStatus crate::amd::perfmon_v2::PERF_CNTR_GLOBAL_STATUS),
    reg!(single rw GlobalCtrl crate::amd::perfmon_v2::PERF_CNTR_GLOBAL_CTL),
    reg!(single w1c GlobalStatusReset crate::amd::perfmon_v2::PERF_CNTR_GLOBAL_STATUS_CLR),
    reg!(single w1s GlobalStatusSet crate::amd::perfmon_v2::PERF_CNTR_GLOBAL_STATUS_SET),
];

/// The single bit of a 64-bit register for which `pred` holds, found by trying each bit.
///
/// Used to locate a status or in-use bit through a read-only register's generated getter
/// (`ovf_pmc_at(n)`, `perfevtsel_inuse_at(n)`), which have no setter to compute it from.
fn find_bit(pred: impl Fn(u64) -> bool) -> Option<u64> {
    (0..64).map(|b| 1u64 << b).find(|&bit| pred(bit))
}

/// Width in bits of a counter register: everything below its lowest reserved bit.
const fn width_from_reserved(reserved: u64) -> u32 {
    if reserved == 0 {
        64
    } else {
        reserved.trailing_zeros()
    }
}

fn unsupported_field(field: &'static str, index: u32) -> FieldError {
    FieldError::IndexOutOfRange {
        field,
        count: 0,
        index,
    }
}

/// The runtime view of one PMU generation. Implemented by [`IntelV1`] .. [`IntelV6`],
/// [`AmdK7`], [`AmdCore`] and [`AmdPerfmonV2`]; every answer comes from the generated module.
///
/// Methods returning `Option<u32>` give MSR addresses (`None`: the generation has no such
/// register, or no such index). Methods taking and returning `u64` transform raw register
/// values through the generated typed setters, so bits they do not own (other fields, reserved
/// bits as read) pass through unchanged.
pub trait Arch: Copy + Default + fmt::Debug + Send + Sync + 'static {
    /// Which generation this is.
    const GENERATION: Generation;
    /// Instances of the general-purpose counter family in the definitions.
    const GP_INSTANCES: u32;
    /// Instances of the fixed-counter family (0 when the generation has none).
    const FIXED_INSTANCES: u32;
    /// Bits of a general-purpose counter below its reserved bits.
    const GP_MODEL_WIDTH: u32;
    /// Bits of a fixed counter below its reserved bits (0 when there are none).
    const FIXED_MODEL_WIDTH: u32;

    /// Every register family of the generation.
    fn registers() -> &'static [RegInfo];
    /// The generation's architectural events (empty for AMD).
    fn arch_events() -> &'static [ArchEventInfo];
    /// Whether CPUID.0AH (`eax`, `ebx`) offers architectural event `index` of
    /// [`Arch::arch_events`] (the generated `ArchEvent::is_available`: its EBX bit is clear and
    /// lies within the EBX length).
    fn arch_event_available(_index: usize, _eax: u32, _ebx: u32) -> bool {
        false
    }

    /// Event select `n`.
    fn gp_select(n: u32) -> Option<u32>;
    /// Counter `n`.
    fn gp_counter(n: u32) -> Option<u32>;
    /// Full-width write alias of counter `n` (IA32_A_PMCn); `None` when counter writes are
    /// always full width (AMD) or there is no counter `n`.
    fn gp_counter_full_width(_n: u32) -> Option<u32> {
        None
    }
    /// Plain writes to the counter take only bits 31:0 and sign-extend them (Intel IA32_PMCn).
    const GP_WRITE_SIGN_EXTENDS: bool = false;

    /// The event-select value counting `event` on counter `n` with `filter`, enabled: the
    /// generated `try_event_on` plus USR/OS/INT/EN, then the manual's constraints.
    fn encode_select(n: u32, event: &EventDesc, filter: Filter) -> Result<u64, EncodeError>;
    /// The event encoding alone (no USR/OS/INT/EN), as Linux perf takes it in
    /// `perf_event_attr.config` for `PERF_TYPE_RAW`.
    fn encode_raw_config(event: &EventDesc) -> Result<u64, EncodeError>;
    /// Decodes an event-select value.
    fn select_state(bits: u64) -> SelectState;
    /// `bits` with EN set or cleared.
    fn select_with_enable(bits: u64, on: bool) -> u64;

    /// Fixed counter `n`.
    fn fixed_counter(_n: u32) -> Option<u32> {
        None
    }
    /// IA32_FIXED_CTR_CTRL.
    fn fixed_ctrl() -> Option<u32> {
        None
    }
    /// `bits` with fixed counter `n`'s block set to `mode` (`None`: disabled) and `pmi`, its
    /// other per-counter bits (AnyThread, adaptive PEBS) cleared.
    fn fixed_ctrl_with(
        _bits: u64,
        n: u32,
        _mode: Option<FixedMode>,
        _pmi: bool,
    ) -> Result<u64, FieldError> {
        Err(unsupported_field("ENABLE", n))
    }
    /// Decodes fixed counter `n`'s block.
    fn fixed_state(_bits: u64, _n: u32) -> Option<FixedState> {
        None
    }

    /// The global enable register.
    fn global_ctrl() -> Option<u32> {
        None
    }
    /// `bits` with `counter`'s global enable set or cleared.
    fn global_ctrl_with(_bits: u64, counter: Counter, _on: bool) -> Result<u64, FieldError> {
        Err(unsupported_field(
            "EN",
            match counter {
                Counter::Gp(n) | Counter::Fixed(n) => n,
            },
        ))
    }
    /// `counter`'s global enable in `bits`.
    fn global_ctrl_enabled(_bits: u64, _counter: Counter) -> bool {
        true
    }
    /// Reserved bits of the global enable register.
    fn global_ctrl_reserved() -> u64 {
        u64::MAX
    }

    /// The global status register.
    fn global_status() -> Option<u32> {
        None
    }
    /// Decodes a status value.
    fn status_decode(bits: u64) -> Status {
        Status {
            raw: bits,
            ..Status::default()
        }
    }
    /// The status bit reporting `counter`'s overflow.
    fn status_bit(_counter: Counter) -> Option<u64> {
        None
    }
    /// The CTR_FRZ status bit (streamlined freeze, version 4 and later).
    fn ctr_frz_bit() -> Option<u64> {
        None
    }
    /// The write-1-to-clear register of the status.
    fn status_reset() -> Option<u32> {
        None
    }
    /// The value that, written to [`Arch::status_reset`], clears the overflow bits of the
    /// counters in `gp`/`fixed` and, when `ctr_frz`, CTR_FRZ.
    fn status_reset_bits(_gp: u32, _fixed: u32, _ctr_frz: bool) -> Result<u64, FieldError> {
        Err(unsupported_field("CLR_OVF", 0))
    }
    /// The write-1-to-set register of the status.
    fn status_set() -> Option<u32> {
        None
    }
    /// The value that, written to [`Arch::status_set`], sets the overflow bits of these
    /// counters.
    fn status_set_bits(_gp: u32, _fixed: u32) -> Result<u64, FieldError> {
        Err(unsupported_field("SET_OVF", 0))
    }

    /// IA32_PERF_GLOBAL_INUSE.
    fn global_inuse() -> Option<u32> {
        None
    }
    /// Its bit for `counter`.
    fn inuse_bit(_counter: Counter) -> Option<u64> {
        None
    }
    /// Its PMI_InUse bit.
    fn inuse_pmi_bit() -> Option<u64> {
        None
    }

    /// IA32_DEBUGCTL, when it has the Freeze_PerfMon_On_PMI bit.
    fn debugctl() -> Option<u32> {
        None
    }
    /// Freeze_PerfMon_On_PMI in `bits`.
    fn freeze_on_pmi(_bits: u64) -> bool {
        false
    }
    /// `bits` with Freeze_PerfMon_On_PMI set or cleared.
    fn with_freeze_on_pmi(bits: u64, _on: bool) -> u64 {
        bits
    }

    /// IA32_PERF_CAPABILITIES.
    fn perf_capabilities() -> Option<u32> {
        None
    }
    /// FW_WRITE (IA32_A_PMCx present) in a capabilities value.
    fn caps_full_width_write(_bits: u64) -> bool {
        false
    }
    /// The capabilities value with only FW_WRITE set.
    fn caps_full_width_write_bit() -> Option<u64> {
        None
    }
}

/// Builds an [`ArchEventInfo`] table from a generated `ArchEvent::ALL` (const, so the tables
/// are statics).
macro_rules! arch_events {
    ($name:ident, $($p:ident)::+) => {
        static $name: [ArchEventInfo; $($p)::+::ALL.len()] = {
            let all = $($p)::+::ALL;
            let mut out = [ArchEventInfo {
                name: "",
                cpuid_bit: 0,
                desc: EventDesc::new("", 0, 0),
            }; $($p)::+::ALL.len()];
            let mut i = 0;
            while i < all.len() {
                out[i] = ArchEventInfo {
                    name: all[i].name(),
                    cpuid_bit: all[i].cpuid_bit(),
                    desc: *all[i].desc(),
                };
                i += 1;
            }
            out
        };
    };
}

arch_events!(INTEL_V1_EVENTS, crate::intel::v1::ArchEvent);
arch_events!(INTEL_V2_EVENTS, crate::intel::v2::ArchEvent);
arch_events!(INTEL_V5_EVENTS, crate::intel::v5::ArchEvent);
arch_events!(INTEL_V6_EVENTS, crate::intel::v6::ArchEvent);

macro_rules! marker {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
    };
}

marker!(
    /// Intel architectural performance monitoring version 1 ([`crate::intel::v1`]).
    IntelV1
);
marker!(
    /// Intel architectural performance monitoring version 2 ([`crate::intel::v2`]).
    IntelV2
);
marker!(
    /// Intel architectural performance monitoring version 3 ([`crate::intel::v3`]).
    IntelV3
);
marker!(
    /// Intel architectural performance monitoring version 4 ([`crate::intel::v4`]).
    IntelV4
);
marker!(
    /// Intel architectural performance monitoring version 5 ([`crate::intel::v5`]).
    IntelV5
);
marker!(
    /// Intel architectural performance monitoring version 6 ([`crate::intel::v6`]).
    IntelV6
);
marker!(
    /// AMD legacy (K7) performance counters ([`crate::amd::k7`]).
    AmdK7
);
marker!(
    /// AMD64 core performance counter extensions ([`crate::amd::core`]).
    AmdCore
);
marker!(
    /// AMD PerfMonV2 ([`crate::amd::perfmon_v2`]).
    AmdPerfmonV2
);

/// Everything about the general-purpose counters: shared by all generations.
macro_rules! gp_items {
    ($sel:path, $ctr:path) => {
        const GP_INSTANCES: u32 = {
            use $ctr as C;
            C::INSTANCES
        };
        const GP_MODEL_WIDTH: u32 = {
            use $ctr as C;
            width_from_reserved(C::Value::RESERVED_MASK)
        };

        fn gp_select(n: u32) -> Option<u32> {
            use $sel as S;
            S::try_address(n)
        }

        fn gp_counter(n: u32) -> Option<u32> {
            use $ctr as C;
            C::try_address(n)
        }

        fn encode_select(n: u32, event: &EventDesc, filter: Filter) -> Result<u64, EncodeError> {
            use $sel as S;
            let v = S::try_event_on(n, event)?
                .with_usr(filter.usr)
                .with_os(filter.os)
                .with_int(filter.int)
                .with_en(true)
                .try_build()?;
            Ok(v.bits())
        }

        fn encode_raw_config(event: &EventDesc) -> Result<u64, EncodeError> {
            use $sel as S;
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
            Ok(S::try_event_on(0, &unrestricted)?.try_build()?.bits())
        }

        fn select_state(bits: u64) -> SelectState {
            use $sel as S;
            let v = S::Value::from_raw_read(bits);
            SelectState {
                enabled: v.en(),
                usr: v.usr(),
                os: v.os(),
                int: v.int(),
                in_use: v.event_select() != 0,
            }
        }

        fn select_with_enable(bits: u64, on: bool) -> u64 {
            use $sel as S;
            S::Value::from_raw_read(bits).with_en(on).bits()
        }
    };
}

/// Intel-only items common to every version: the full-width alias and the capabilities MSR.
macro_rules! intel_common_items {
    ($v:ident) => {
        const GP_WRITE_SIGN_EXTENDS: bool = true;

        fn gp_counter_full_width(n: u32) -> Option<u32> {
            crate::intel::$v::IA32_A_PMC::try_address(n)
        }

        fn perf_capabilities() -> Option<u32> {
            Some(crate::intel::$v::IA32_PERF_CAPABILITIES::ADDRESS)
        }

        fn caps_full_width_write(bits: u64) -> bool {
            crate::intel::$v::IA32_PERF_CAPABILITIES::Value::from_raw_read(bits).fw_write()
        }

        fn caps_full_width_write_bit() -> Option<u64> {
            find_bit(|b| {
                crate::intel::$v::IA32_PERF_CAPABILITIES::Value::from_raw_read(b).fw_write()
            })
        }
    };
}

/// Intel version 2 and later: fixed counters, global control and status, DEBUGCTL freeze.
macro_rules! intel_global_items {
    ($v:ident, reset = $reset:ident, fixed_extra = [$($extra:ident),*]) => {
        const FIXED_INSTANCES: u32 = crate::intel::$v::IA32_FIXED_CTR::INSTANCES;
        const FIXED_MODEL_WIDTH: u32 =
            width_from_reserved(crate::intel::$v::IA32_FIXED_CTR::Value::RESERVED_MASK);

        fn fixed_counter(n: u32) -> Option<u32> {
            crate::intel::$v::IA32_FIXED_CTR::try_address(n)
        }

        fn fixed_ctrl() -> Option<u32> {
            Some(crate::intel::$v::IA32_FIXED_CTR_CTRL::ADDRESS)
        }

        fn fixed_ctrl_with(
            bits: u64,
            n: u32,
            mode: Option<FixedMode>,
            pmi: bool,
        ) -> Result<u64, FieldError> {
            use crate::intel::$v::IA32_FIXED_CTR_CTRL as F;
            let enable = match mode {
                None => F::Enable::Disabled,
                Some(FixedMode::Os) => F::Enable::Os,
                Some(FixedMode::Usr) => F::Enable::Usr,
                Some(FixedMode::All) => F::Enable::All,
            };
            let v = F::Value::from_raw_read(bits)
                .try_set_enable_at(n, enable.value())?
                .try_set_pmi_at(n, pmi as u64)?;
            $(let v = v.$extra(n, 0)?;)*
            Ok(v.bits())
        }

        fn fixed_state(bits: u64, n: u32) -> Option<FixedState> {
            use crate::intel::$v::IA32_FIXED_CTR_CTRL as F;
            let v = F::Value::from_raw_read(bits);
            let enable = v.enable_at(n)?;
            let mode = match F::Enable::from_value(enable as u64)? {
                F::Enable::Disabled => None,
                F::Enable::Os => Some(FixedMode::Os),
                F::Enable::Usr => Some(FixedMode::Usr),
                F::Enable::All => Some(FixedMode::All),
            };
            Some(FixedState {
                mode,
                pmi: v.pmi_at(n)?,
            })
        }

        fn global_ctrl() -> Option<u32> {
            Some(crate::intel::$v::IA32_PERF_GLOBAL_CTRL::ADDRESS)
        }

        fn global_ctrl_with(bits: u64, counter: Counter, on: bool) -> Result<u64, FieldError> {
            let v = crate::intel::$v::IA32_PERF_GLOBAL_CTRL::Value::from_raw_read(bits);
            let v = match counter {
                Counter::Gp(n) => v.try_set_en_pmc_at(n, on as u64)?,
                Counter::Fixed(n) => v.try_set_en_fixed_ctr_at(n, on as u64)?,
            };
            Ok(v.bits())
        }

        fn global_ctrl_enabled(bits: u64, counter: Counter) -> bool {
            let v = crate::intel::$v::IA32_PERF_GLOBAL_CTRL::Value::from_raw_read(bits);
            match counter {
                Counter::Gp(n) => v.en_pmc_at(n),
                Counter::Fixed(n) => v.en_fixed_ctr_at(n),
            }
            .unwrap_or(false)
        }

        fn global_ctrl_reserved() -> u64 {
            crate::intel::$v::IA32_PERF_GLOBAL_CTRL::Value::RESERVED_MASK
        }

        fn global_status() -> Option<u32> {
            Some(crate::intel::$v::IA32_PERF_GLOBAL_STATUS::ADDRESS)
        }

        fn status_decode(bits: u64) -> Status {
            let v = crate::intel::$v::IA32_PERF_GLOBAL_STATUS::Value::from_raw_read(bits);
            let mut gp = 0;
            for n in 0..Self::GP_INSTANCES {
                if v.ovf_pmc_at(n) == Some(true) {
                    gp |= 1 << n;
                }
            }
            let mut fixed = 0;
            for n in 0..Self::FIXED_INSTANCES {
                if v.ovf_fixed_ctr_at(n) == Some(true) {
                    fixed |= 1 << n;
                }
            }
            Status {
                gp,
                fixed,
                frozen: Self::ctr_frz_bit().is_some_and(|b| bits & b != 0),
                raw: bits,
            }
        }

        fn status_bit(counter: Counter) -> Option<u64> {
            use crate::intel::$v::IA32_PERF_GLOBAL_STATUS as S;
            find_bit(|b| {
                let v = S::Value::from_raw_read(b);
                let hit = match counter {
                    Counter::Gp(n) => v.ovf_pmc_at(n),
                    Counter::Fixed(n) => v.ovf_fixed_ctr_at(n),
                };
                hit == Some(true)
            })
        }

        fn status_reset() -> Option<u32> {
            Some(crate::intel::$v::$reset::ADDRESS)
        }

        fn status_reset_bits(gp: u32, fixed: u32, ctr_frz: bool) -> Result<u64, FieldError> {
            let mut b = crate::intel::$v::$reset::Value::new();
            for n in 0..32 {
                if gp & (1 << n) != 0 {
                    b = b.try_clear_ovf_pmc_at(n)?;
                }
                if fixed & (1 << n) != 0 {
                    b = b.try_clear_ovf_fixed_ctr_at(n)?;
                }
            }
            let v = b.try_build().map_err(|_| unsupported_field("CLR_OVF", 0))?;
            let frz = if ctr_frz {
                Self::ctr_frz_reset_bit().ok_or(unsupported_field("CLR_CTR_FRZ", 0))?
            } else {
                0
            };
            Ok(v.bits() | frz)
        }

        fn debugctl() -> Option<u32> {
            Some(crate::intel::$v::IA32_DEBUGCTL::ADDRESS)
        }

        fn freeze_on_pmi(bits: u64) -> bool {
            crate::intel::$v::IA32_DEBUGCTL::Value::from_raw_read(bits).freeze_perfmon_on_pmi()
        }

        fn with_freeze_on_pmi(bits: u64, on: bool) -> u64 {
            crate::intel::$v::IA32_DEBUGCTL::Value::from_raw_read(bits)
                .with_freeze_perfmon_on_pmi(on)
                .bits()
        }
    };
}

/// Intel version 4 and later: STATUS_SET, INUSE and the streamlined freeze (CTR_FRZ).
macro_rules! intel_v4_items {
    ($v:ident) => {
        fn ctr_frz_bit() -> Option<u64> {
            find_bit(|b| {
                crate::intel::$v::IA32_PERF_GLOBAL_STATUS::Value::from_raw_read(b).ctr_frz()
            })
        }

        fn status_set() -> Option<u32> {
            Some(crate::intel::$v::IA32_PERF_GLOBAL_STATUS_SET::ADDRESS)
        }

        fn status_set_bits(gp: u32, fixed: u32) -> Result<u64, FieldError> {
            let mut b = crate::intel::$v::IA32_PERF_GLOBAL_STATUS_SET::Value::new();
            for n in 0..32 {
                if gp & (1 << n) != 0 {
                    b = b.try_set_ovf_pmc_at(n)?;
                }
                if fixed & (1 << n) != 0 {
                    b = b.try_set_ovf_fixed_ctr_at(n)?;
                }
            }
            b.try_build()
                .map(|v| v.bits())
                .map_err(|_| unsupported_field("SET_OVF", 0))
        }

        fn global_inuse() -> Option<u32> {
            Some(crate::intel::$v::IA32_PERF_GLOBAL_INUSE::ADDRESS)
        }

        fn inuse_bit(counter: Counter) -> Option<u64> {
            use crate::intel::$v::IA32_PERF_GLOBAL_INUSE as U;
            find_bit(|b| {
                let v = U::Value::from_raw_read(b);
                let hit = match counter {
                    Counter::Gp(n) => v.perfevtsel_inuse_at(n),
                    Counter::Fixed(n) => v.fixed_ctr_inuse_at(n),
                };
                hit == Some(true)
            })
        }

        fn inuse_pmi_bit() -> Option<u64> {
            find_bit(|b| {
                crate::intel::$v::IA32_PERF_GLOBAL_INUSE::Value::from_raw_read(b).pmi_inuse()
            })
        }
    };
}

/// CLR_CTR_FRZ of the status-reset register (a helper trait so that versions 2 and 3, whose
/// IA32_PERF_GLOBAL_OVF_CTRL has no such bit, answer `None`).
trait CtrFrzReset {
    fn ctr_frz_reset_bit() -> Option<u64>;
}

macro_rules! ctr_frz_reset {
    ($t:ty, none) => {
        impl CtrFrzReset for $t {
            fn ctr_frz_reset_bit() -> Option<u64> {
                None
            }
        }
    };
    ($t:ty, $v:ident) => {
        impl CtrFrzReset for $t {
            fn ctr_frz_reset_bit() -> Option<u64> {
                crate::intel::$v::IA32_PERF_GLOBAL_STATUS_RESET::Value::new()
                    .clear_ctr_frz()
                    .try_build()
                    .ok()
                    .map(|v| v.bits())
            }
        }
    };
}

ctr_frz_reset!(IntelV2, none);
ctr_frz_reset!(IntelV3, none);
ctr_frz_reset!(IntelV4, v4);
ctr_frz_reset!(IntelV5, v5);
ctr_frz_reset!(IntelV6, v6);

impl Arch for IntelV1 {
    const GENERATION: Generation = Generation::IntelV1;
    const FIXED_INSTANCES: u32 = 0;
    const FIXED_MODEL_WIDTH: u32 = 0;
    gp_items!(
        crate::intel::v1::IA32_PERFEVTSEL,
        crate::intel::v1::IA32_PMC
    );
    intel_common_items!(v1);

    fn registers() -> &'static [RegInfo] {
        &INTEL_V1_REGS
    }

    fn arch_events() -> &'static [ArchEventInfo] {
        &INTEL_V1_EVENTS
    }

    fn arch_event_available(index: usize, eax: u32, ebx: u32) -> bool {
        crate::intel::v1::ArchEvent::ALL
            .get(index)
            .is_some_and(|e| e.is_available(eax, ebx))
    }
}

macro_rules! intel_arch {
    ($t:ident, $g:ident, $v:ident, $regs:ident, $events:ident($ev:ident), reset = $reset:ident,
     fixed_extra = [$($extra:ident),*] $(, $v4:ident)?) => {
        impl Arch for $t {
            const GENERATION: Generation = Generation::$g;
            gp_items!(crate::intel::$v::IA32_PERFEVTSEL, crate::intel::$v::IA32_PMC);
            intel_common_items!($v);
            intel_global_items!($v, reset = $reset, fixed_extra = [$($extra),*]);
            $(intel_v4_items!($v4);)?

            fn registers() -> &'static [RegInfo] {
                &$regs
            }

            fn arch_events() -> &'static [ArchEventInfo] {
                &$events
            }

            fn arch_event_available(index: usize, eax: u32, ebx: u32) -> bool {
                crate::intel::$ev::ArchEvent::ALL
                    .get(index)
                    .is_some_and(|e| e.is_available(eax, ebx))
            }
        }
    };
}

intel_arch!(
    IntelV2,
    IntelV2,
    v2,
    INTEL_V2_REGS,
    INTEL_V2_EVENTS(v2),
    reset = IA32_PERF_GLOBAL_OVF_CTRL,
    fixed_extra = []
);
intel_arch!(
    IntelV3,
    IntelV3,
    v3,
    INTEL_V3_REGS,
    INTEL_V2_EVENTS(v2),
    reset = IA32_PERF_GLOBAL_OVF_CTRL,
    fixed_extra = [try_set_any_at]
);
intel_arch!(
    IntelV4,
    IntelV4,
    v4,
    INTEL_V4_REGS,
    INTEL_V2_EVENTS(v2),
    reset = IA32_PERF_GLOBAL_STATUS_RESET,
    fixed_extra = [try_set_any_at],
    v4
);
intel_arch!(
    IntelV5,
    IntelV5,
    v5,
    INTEL_V5_REGS,
    INTEL_V5_EVENTS(v5),
    reset = IA32_PERF_GLOBAL_STATUS_RESET,
    fixed_extra = [try_set_any_at, try_set_adaptive_record_at],
    v5
);
intel_arch!(
    IntelV6,
    IntelV6,
    v6,
    INTEL_V6_REGS,
    INTEL_V6_EVENTS(v6),
    reset = IA32_PERF_GLOBAL_STATUS_RESET,
    fixed_extra = [try_set_any_at, try_set_adaptive_record_at],
    v6
);

impl Arch for AmdK7 {
    const GENERATION: Generation = Generation::AmdK7;
    const FIXED_INSTANCES: u32 = 0;
    const FIXED_MODEL_WIDTH: u32 = 0;
    gp_items!(crate::amd::k7::PERF_EVT_SEL, crate::amd::k7::PERF_CTR);

    fn registers() -> &'static [RegInfo] {
        &AMD_K7_REGS
    }

    fn arch_events() -> &'static [ArchEventInfo] {
        &[]
    }
}

impl Arch for AmdCore {
    const GENERATION: Generation = Generation::AmdCore;
    const FIXED_INSTANCES: u32 = 0;
    const FIXED_MODEL_WIDTH: u32 = 0;
    gp_items!(
        crate::amd::core::PERF_EVT_SEL_CORE,
        crate::amd::core::PERF_CTR_CORE
    );

    fn registers() -> &'static [RegInfo] {
        &AMD_CORE_REGS
    }

    fn arch_events() -> &'static [ArchEventInfo] {
        &[]
    }
}

impl Arch for AmdPerfmonV2 {
    const GENERATION: Generation = Generation::AmdPerfmonV2;
    const FIXED_INSTANCES: u32 = 0;
    const FIXED_MODEL_WIDTH: u32 = 0;
    gp_items!(
        crate::amd::perfmon_v2::PERF_EVT_SEL_CORE,
        crate::amd::perfmon_v2::PERF_CTR_CORE
    );

    fn registers() -> &'static [RegInfo] {
        &AMD_PERFMON_V2_REGS
    }

    fn arch_events() -> &'static [ArchEventInfo] {
        &[]
    }

    fn global_ctrl() -> Option<u32> {
        Some(crate::amd::perfmon_v2::PERF_CNTR_GLOBAL_CTL::ADDRESS)
    }

    fn global_ctrl_with(bits: u64, counter: Counter, on: bool) -> Result<u64, FieldError> {
        let v = crate::amd::perfmon_v2::PERF_CNTR_GLOBAL_CTL::Value::from_raw_read(bits);
        match counter {
            Counter::Gp(n) => Ok(v.try_set_en_at(n, on as u64)?.bits()),
            Counter::Fixed(n) => Err(unsupported_field("EN", n)),
        }
    }

    fn global_ctrl_enabled(bits: u64, counter: Counter) -> bool {
        let v = crate::amd::perfmon_v2::PERF_CNTR_GLOBAL_CTL::Value::from_raw_read(bits);
        match counter {
            Counter::Gp(n) => v.en_at(n).unwrap_or(false),
            Counter::Fixed(_) => false,
        }
    }

    fn global_ctrl_reserved() -> u64 {
        crate::amd::perfmon_v2::PERF_CNTR_GLOBAL_CTL::Value::RESERVED_MASK
    }

    fn global_status() -> Option<u32> {
        Some(crate::amd::perfmon_v2::PERF_CNTR_GLOBAL_STATUS::ADDRESS)
    }

    fn status_decode(bits: u64) -> Status {
        let v = crate::amd::perfmon_v2::PERF_CNTR_GLOBAL_STATUS::Value::from_raw_read(bits);
        let mut gp = 0;
        for n in 0..Self::GP_INSTANCES {
            if v.ovf_at(n) == Some(true) {
                gp |= 1 << n;
            }
        }
        Status {
            gp,
            fixed: 0,
            frozen: false,
            raw: bits,
        }
    }

    fn status_bit(counter: Counter) -> Option<u64> {
        match counter {
            Counter::Gp(n) => find_bit(|b| {
                crate::amd::perfmon_v2::PERF_CNTR_GLOBAL_STATUS::Value::from_raw_read(b).ovf_at(n)
                    == Some(true)
            }),
            Counter::Fixed(_) => None,
        }
    }

    fn status_reset() -> Option<u32> {
        Some(crate::amd::perfmon_v2::PERF_CNTR_GLOBAL_STATUS_CLR::ADDRESS)
    }

    fn status_reset_bits(gp: u32, fixed: u32, ctr_frz: bool) -> Result<u64, FieldError> {
        if fixed != 0 {
            return Err(unsupported_field("CLR_OVF", fixed.trailing_zeros()));
        }
        if ctr_frz {
            return Err(unsupported_field("CLR_CTR_FRZ", 0));
        }
        let mut b = crate::amd::perfmon_v2::PERF_CNTR_GLOBAL_STATUS_CLR::Value::new();
        for n in 0..32 {
            if gp & (1 << n) != 0 {
                b = b.try_clear_ovf_at(n)?;
            }
        }
        b.try_build()
            .map(|v| v.bits())
            .map_err(|_| unsupported_field("CLR_OVF", 0))
    }

    fn status_set() -> Option<u32> {
        Some(crate::amd::perfmon_v2::PERF_CNTR_GLOBAL_STATUS_SET::ADDRESS)
    }

    fn status_set_bits(gp: u32, fixed: u32) -> Result<u64, FieldError> {
        if fixed != 0 {
            return Err(unsupported_field("SET_OVF", fixed.trailing_zeros()));
        }
        let mut b = crate::amd::perfmon_v2::PERF_CNTR_GLOBAL_STATUS_SET::Value::new();
        for n in 0..32 {
            if gp & (1 << n) != 0 {
                b = b.try_set_ovf_at(n)?;
            }
        }
        b.try_build()
            .map(|v| v.bits())
            .map_err(|_| unsupported_field("SET_OVF", 0))
    }
}
