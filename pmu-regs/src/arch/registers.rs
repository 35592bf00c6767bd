//! What the run-time tables say about a register: its [`Access`], its [`Role`] in the PMU,
//! [`RegInfo`] with the names and decoding of its instances, and [`FieldInfo`], its fields.

use super::*;

/// How a register family's `count-from:` CPUID field gives its number of instances, shared
/// with the generator (`pmu_vocab`).
pub use pmu_vocab::CountForm;
/// One run of a field's bits (`width` bits from register bit `lsb`), shared with the
/// generator and the event encoder (`pmu_vocab::select`).
pub use pmu_vocab::select::Run;
/// How software may access a register, and what a register does in the PMU: the YAML's
/// `access:` and `role:`, shared with the generator (`pmu_vocab`).
pub use pmu_vocab::{Access, Role};

/// One field of a register, as data (see [`crate::field::FieldInfo`]).
pub use crate::field::FieldInfo;

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
    /// The condition under which a CPU has the register (its YAML `requires:`, the manuals'
    /// notation that [`pmu_vocab::requires`] evaluates); `None`: whenever it has the
    /// generation.
    pub requires: Option<&'static str>,
    /// For a family: the CPUID field that says how many of its instances a CPU has (its
    /// YAML `count-from:`); `None`: every instance of `addresses`.
    pub count_from: Option<CountFrom>,
    /// Its fields, in bit order (each element of a field array on its own).
    pub fields: &'static [FieldInfo],
}

/// The CPUID field that says how many instances of a register family a CPU has (YAML
/// `count-from:`): AMD's LBR v2 stack (CPUID Fn8000_0022_EBX\[9:4\]), Intel's
/// architectural LBR records (the depths CPUID.(EAX=1CH,ECX=0):EAX\[7:0\] lists).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountFrom {
    /// The field.
    pub field: CpuidField,
    /// How its value gives the count.
    pub form: CountForm,
}

impl CountFrom {
    /// The number of instances the CPUID output registers `regs` (EAX, EBX, ECX, EDX of the
    /// field's leaf) give.
    pub const fn instances(&self, regs: [u32; 4]) -> u32 {
        self.form.instances(self.field.get(regs))
    }
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

    /// A value of this register, displayed field by field as its generated `Debug` shows it
    /// (in hex when the register cannot be read).
    pub fn decoded(&self, bits: u64) -> Decoded {
        Decoded { bits, info: *self }
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
            .field("requires", &self.requires)
            .field("count_from", &self.count_from)
            .field("fields", &self.fields.len())
            .finish()
    }
}

/// `IA32_PMC3` / `IA32_PERF_GLOBAL_CTRL` ([`RegInfo::instance_name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    pub(super) info: RegInfo,
}

impl fmt::Display for Decoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.info;
        match r.access {
            Access::ReadWrite | Access::ReadOnly => {
                crate::field::debug(f, r.name, r.fields, self.bits, r.reserved_mask)
            }
            _ => write!(f, "{:#x}", self.bits),
        }
    }
}

impl fmt::Debug for Decoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
