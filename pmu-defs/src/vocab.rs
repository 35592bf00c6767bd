//! The shared vocabulary: the words the raw schema ([`crate::load::raw`]) reads from the YAML
//! and the resolved model ([`crate::model`]) keeps, declared once so that neither phase imports
//! the other: vendors, access modes, register, field and counter roles, constraint severity.

use serde::Serialize;

/// Who makes the hardware.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Vendor {
    /// Intel.
    Intel,
    /// AMD.
    Amd,
}

/// What software may do with a register or field: `pmu_vocab`'s, the one `pmu-regs` uses.
pub use pmu_vocab::Access;

/// What a register does in the PMU (YAML `role:`): `pmu_vocab::Role`, the one the run-time
/// layer (`pmu_regs::arch::Role`) uses, under the name this crate gives it.
pub use pmu_vocab::Role as RegisterRole;

/// Which counter family the elements of a per-counter field array belong to (YAML
/// `per-counter:`): element i is counter i's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CounterKind {
    /// The general-purpose counters (the `counter` role's family).
    General,
    /// The fixed counters (the `fixed-counter` role's family).
    Fixed,
}

/// What a single field means to the run-time layer (YAML `role:` on a field). Each role
/// belongs to registers of given roles ([`FieldRole::register_roles`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FieldRole {
    /// Privilege levels a fixed counter counts at; its named values are `DISABLED`, `OS`,
    /// `USR` and `ALL`.
    Privilege,
    /// Interrupt on overflow of a fixed counter.
    Pmi,
    /// AnyThread of a fixed counter.
    AnyThread,
    /// Counters are frozen (a status bit, or its clear/set bit).
    Frozen,
    /// A PMI is in use (in-use register).
    PmiInUse,
    /// Freeze the counters on a PMI (debug control).
    FreezeOnPmi,
    /// Full-width counter writes are supported (capabilities).
    FullWidthWrite,
    /// CPUID: number of general-purpose counters.
    GeneralCount,
    /// CPUID: bit width of the general-purpose counters.
    GeneralWidth,
    /// CPUID: number of fixed counters.
    FixedCount,
    /// CPUID: bit width of the fixed counters.
    FixedWidth,
    /// CPUID: bitmap of fixed counters present in addition to the first `fixed-count` ones
    /// (Intel version 5 CPUID.0AH:ECX: "fixed counter i is supported if ECX\[i\] or
    /// EDX\[4:0\] > i").
    FixedBitmap,
    /// CPUID: bitmap of the general-purpose counters present (authoritative where the leaf is
    /// enumerated).
    GeneralPresent,
    /// CPUID: bitmap of the fixed counters present (authoritative where the leaf is enumerated).
    FixedPresent,
    /// CPUID: number of valid bits of the architectural-event vector.
    EventsLength,
    /// CPUID: AnyThread is deprecated.
    AnythreadDeprecated,
    /// CPUID: the event select's UMASK2 field is supported.
    Umask2Supported,
    /// CPUID: the event select's EQ field is supported.
    EqSupported,
    /// CPUID: bitmap of the valid subleaves of the leaf.
    SubleafBitmap,
}

impl FieldRole {
    /// The register roles a field with this role may belong to.
    pub fn register_roles(self) -> &'static [RegisterRole] {
        use RegisterRole as R;
        match self {
            FieldRole::Privilege | FieldRole::Pmi | FieldRole::AnyThread => &[R::FixedControl],
            FieldRole::Frozen => &[R::GlobalStatus, R::GlobalStatusReset, R::GlobalStatusSet],
            FieldRole::PmiInUse => &[R::GlobalInUse],
            FieldRole::FreezeOnPmi => &[R::DebugControl],
            FieldRole::FullWidthWrite => &[R::Capabilities],
            _ => &[],
        }
    }

    /// True for a role of a CPUID output field (what the leaf enumerates), false for a role
    /// of an MSR field.
    pub fn is_cpuid(self) -> bool {
        self.register_roles().is_empty()
    }
}

/// Constraint severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The combination must be rejected.
    Error,
    /// The combination is accepted but almost certainly not meant.
    Warning,
}
