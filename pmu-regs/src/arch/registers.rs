//! What the run-time tables say about a register: its [`Access`], its [`Role`] in the PMU, and
//! [`RegInfo`] with the names and decoding of its instances.

use super::*;

/// How software may access a register (the YAML `access:`; checked against the model by the
/// test suite).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// Read and write.
    ReadWrite,
    /// Read only: writing faults (#GP).
    ReadOnly,
    /// Write only: reads return nothing meaningful.
    WriteOnly,
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
            Access::WriteOnly => "write-only",
            Access::WriteOneToClear => "write-1-to-clear",
            Access::WriteOneToSet => "write-1-to-set",
        }
    }
}

/// What a register does in the PMU: the YAML `role:` of a register (the generated tables
/// carry it; `Role::as_str` is the YAML spelling).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// General-purpose counter (IA32_PMCn, AMD PerfCtrn).
    Counter,
    /// General-purpose event select (IA32_PERFEVTSELn, AMD PerfEvtSeln).
    EventSelect,
    /// Full-width write alias of a general-purpose counter (IA32_A_PMCn).
    FullWidthCounter,
    /// Legacy counter aliased to the first general-purpose counters.
    LegacyCounter,
    /// Legacy event select aliased to the first event selects.
    LegacyEventSelect,
    /// Fixed-function counter (IA32_FIXED_CTRn).
    FixedCounter,
    /// Fixed-counter control (IA32_FIXED_CTR_CTRL).
    FixedControl,
    /// Global enable (IA32_PERF_GLOBAL_CTRL, AMD PerfCntrGlobalCtl).
    GlobalControl,
    /// Global overflow status.
    GlobalStatus,
    /// Write-1-to-clear companion of the status register.
    GlobalStatusReset,
    /// Write-1-to-set companion of the status register.
    GlobalStatusSet,
    /// Which counters are in use (IA32_PERF_GLOBAL_INUSE).
    GlobalInUse,
    /// PMU capabilities (IA32_PERF_CAPABILITIES).
    Capabilities,
    /// Debug control with the PMU freeze bits (IA32_DEBUGCTL).
    DebugControl,
    /// Instruction-Based Sampling fetch control (AMD IbsFetchCtl).
    IbsFetchControl,
    /// Instruction-Based Sampling op control (AMD IbsOpCtl).
    IbsOpControl,
}

impl Role {
    /// Every role, in the order of the YAML vocabulary.
    pub const ALL: [Role; 16] = [
        Role::Counter,
        Role::EventSelect,
        Role::FullWidthCounter,
        Role::LegacyCounter,
        Role::LegacyEventSelect,
        Role::FixedCounter,
        Role::FixedControl,
        Role::GlobalControl,
        Role::GlobalStatus,
        Role::GlobalStatusReset,
        Role::GlobalStatusSet,
        Role::GlobalInUse,
        Role::Capabilities,
        Role::DebugControl,
        Role::IbsFetchControl,
        Role::IbsOpControl,
    ];

    /// The YAML spelling (`role: global-status-reset`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Role::Counter => "counter",
            Role::EventSelect => "event-select",
            Role::FullWidthCounter => "full-width-counter",
            Role::LegacyCounter => "legacy-counter",
            Role::LegacyEventSelect => "legacy-event-select",
            Role::FixedCounter => "fixed-counter",
            Role::FixedControl => "fixed-control",
            Role::GlobalControl => "global-control",
            Role::GlobalStatus => "global-status",
            Role::GlobalStatusReset => "global-status-reset",
            Role::GlobalStatusSet => "global-status-set",
            Role::GlobalInUse => "global-in-use",
            Role::Capabilities => "capabilities",
            Role::DebugControl => "debug-control",
            Role::IbsFetchControl => "ibs-fetch-control",
            Role::IbsOpControl => "ibs-op-control",
        }
    }
}

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
    pub(super) name: &'static str,
    pub(super) index: Option<u32>,
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
    pub(super) bits: u64,
    pub(super) decode: Option<fn(u64, &mut fmt::Formatter<'_>) -> fmt::Result>,
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
