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

/// How a register's `count-from:` CPUID field gives its number of instances (YAML `as:`).
pub use pmu_vocab::CountForm;

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

/// A yes/no fact of an event (YAML `precise-store: true`): its key, the model field that keeps
/// it, how tables label it, what the schema says of it, and the key Intel's perfmon JSON gives
/// it. [`EVENT_FLAGS`] lists every one; the reader, the resolver, the JSON Schema, the
/// importer and the docs site all take them from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventFlag {
    /// The YAML key: `precise-store`.
    pub key: &'static str,
    /// The field of [`crate::model::Event`] that keeps it (and its JSON name): `precise_store`.
    pub field: &'static str,
    /// A short label for tables: `Precise store`.
    pub label: &'static str,
    /// One sentence on what it means (the JSON Schema's description).
    pub doc: &'static str,
    /// The key of Intel's perfmon JSON that states it (`PRECISE_STORE`), when one does as a
    /// plain 0/1.
    pub intel: Option<&'static str>,
    /// True when the model keeps "not stated" apart from "no" (`Option<bool>`).
    pub tristate: bool,
}

/// Calls `$then!` with every event flag, in the order files write them: `field: "key",
/// "label", intel key, tristate, "doc";`. The one list of event flags; [`EVENT_FLAGS`] and the
/// model's accessors (`Event::flag`, `Event::set_flag`) are made from it.
macro_rules! for_each_event_flag {
    ($then:path) => {
        $then! {
            precise: "precise", "Precise", Some("Precise"), true,
                "Precise (PEBS) sampling is supported.";
            speculative: "speculative", "Counts speculative work", Some("Speculative"), true,
                "Counts speculative work as well as retired.";
            deprecated: "deprecated", "Deprecated", Some("Deprecated"), false,
                "The vendor deprecates the event.";
            taken_alone: "taken-alone", "Must count alone", Some("TakenAlone"), false,
                "Must be counted alone (Intel TakenAlone).";
            data_la: "data-la", "Data linear address", Some("Data_LA"), false,
                "Records the data linear address (Intel Data_LA).";
            l1_hit_indication: "l1-hit-indication", "L1 hit indication", Some("L1_Hit_Indication"), false,
                "Reports L1 hits (Intel L1_Hit_Indication).";
            offcore: "offcore", "Offcore response", Some("Offcore"), false,
                "An offcore-response event.";
            offmodule: "offmodule", "Off-module response", Some("Offmodule"), false,
                "An off-module response event (Intel Offmodule): its auxiliary MSRs are the off-module response registers.";
            // Intel states it as `ProgrammingRestriction: MSRIndex-UMask`, not as a 0/1 key.
            msr_per_umask: "msr-per-umask", "MSR per unit mask", None, false,
                "The auxiliary MSR goes with the unit mask (Intel ProgrammingRestriction MSRIndex-UMask): the i-th unit mask is programmed only with the i-th `msr.index`.";
            ellc: "ellc", "ELLC flag", Some("ELLC"), false,
                "Counts on the enhanced LLC (Intel ELLC).";
            precise_store: "precise-store", "Precise store", Some("PRECISE_STORE"), false,
                "Precise store sampling (Intel PRECISE_STORE).";
        }
    };
}
pub(crate) use for_each_event_flag;

macro_rules! flag_table {
    ($($field:ident: $key:literal, $label:literal, $intel:expr, $tri:literal, $doc:literal;)*) => {
        /// Every event flag, in the order definition files write them.
        pub const EVENT_FLAGS: &[EventFlag] = &[$(EventFlag {
            key: $key,
            field: stringify!($field),
            label: $label,
            doc: $doc,
            intel: $intel,
            tristate: $tri,
        }),*];
    };
}
for_each_event_flag!(flag_table);

impl EventFlag {
    /// The flag whose YAML key is `key`.
    pub fn by_key(key: &str) -> Option<&'static EventFlag> {
        EVENT_FLAGS.iter().find(|f| f.key == key)
    }
}
