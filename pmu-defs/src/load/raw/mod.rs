//! The schema as written: one generation per file, every value with its span.
//!
//! Entries in an extending generation are overrides: a register, field, CPUID leaf or event
//! whose name exists in the parent changes only the keys it gives. So every key here is
//! optional; which ones a *new* entry needs is checked when the `extends` chain is resolved.

use crate::diag::Diagnostic;
use crate::load::de::{
    Cx, EVENT_RULE, GENERATION_RULE, GENERIC_RULE, IDENT_RULE, MapReader, PERFMON_CORE_RULE,
    Spanned, did_you_mean, is_event_name, is_generation_id, is_generic_event, is_ident,
    is_perfmon_core,
};
use crate::load::yaml::{Kind, Node};
use crate::source::{FileId, Span};
use crate::vocab::{
    Access, CountForm, CounterKind, FieldRole, RegisterRole, Severity as CSeverity, Vendor,
};
use pmu_vocab::perf::{GenericEvent, Term, Terms};

mod keys;
mod read;
mod read_events;

pub use keys::*;

/// One generation file.
#[derive(Clone, Debug)]
pub struct RawGeneration {
    /// The file it came from.
    pub file: FileId,
    /// `generation:` the id, e.g. `intel-v3`.
    pub id: Spanned<String>,
    /// `vendor:`.
    pub vendor: Option<Spanned<Vendor>>,
    /// `title:` a one-line name.
    pub title: Option<Spanned<String>>,
    /// `manual:` the manual section that defines this generation.
    pub manual: Option<Spanned<String>>,
    /// `doc:` prose.
    pub doc: Option<Spanned<String>>,
    /// `extends:` the parent generation.
    pub extends: Option<Spanned<String>>,
    /// `pmu:` which registers form the counters and how events encode.
    pub pmu: Option<RawPmu>,
    /// `registers:`.
    pub registers: Vec<RawRegister>,
    /// `cpuid:` leaves.
    pub cpuid: Vec<RawCpuid>,
    /// `events:`.
    pub events: Vec<RawEvent>,
    /// `constraints:`.
    pub constraints: Vec<RawConstraint>,
    /// `remove:` what this generation drops from its parent.
    pub remove: RawRemove,
    /// `source:` where the generation's facts come from (e.g. the Intel perfmon file).
    pub source: Option<Spanned<String>>,
    /// `cpus:` the CPU models this generation describes (`None` when not written).
    pub cpus: Option<Vec<RawCpu>>,
    /// `perfmon-cores:` the Intel perfmon core lists whose imported generation extends this
    /// one (empty when not written).
    pub perfmon_cores: Vec<Spanned<String>>,
    /// `detect:` how the generation is recognised at run time.
    pub detect: Option<Spanned<RawDetect>>,
    /// `generic-events:` the event each of perf's generic hardware events counts.
    pub generic_events: Option<RawGenericEvents>,
}

/// `generic-events:` which event each of perf's generic hardware events (`cpu-cycles`,
/// `instructions`, ...) counts on this generation, as the Linux kernel maps them.
#[derive(Clone, Debug)]
pub struct RawGenericEvents {
    /// `manual:` where the mapping comes from (the kernel's table).
    pub manual: Option<Spanned<String>>,
    /// `events:` perf's name (a [`pmu_vocab::perf::GenericEvent`] name) and the perf terms
    /// of the event it counts (`event=0x2e,umask=0x41`), checked when read.
    pub events: Vec<(Spanned<String>, Spanned<String>)>,
}

/// `count-from: { leaf, register, field, as }`.
#[derive(Clone, Debug)]
pub struct RawCountFrom {
    /// `leaf:` the CPUID leaf, by name.
    pub leaf: Spanned<String>,
    /// `register:` its output register.
    pub register: Spanned<String>,
    /// `field:` the field of that register.
    pub field: Spanned<String>,
    /// `as:` how the field gives the count (default [`CountForm::Count`]).
    pub form: CountForm,
}

/// `detect:` a CPUID field condition and/or a minimum family.
#[derive(Clone, Debug, Default)]
pub struct RawDetect {
    /// `leaf:` the CPUID leaf, by name.
    pub leaf: Option<Spanned<String>>,
    /// `register:` its output register.
    pub register: Option<Spanned<String>>,
    /// `field:` the field of that register.
    pub field: Option<Spanned<String>>,
    /// `at-least:` the minimum value of the field.
    pub at_least: Option<Spanned<u64>>,
    /// `family-at-least:` the minimum CPU family.
    pub family_at_least: Option<Spanned<u64>>,
}

/// One entry of `cpus:`: a CPU model (and, on hybrid parts, a core type) the generation
/// describes, as Intel's perfmon `mapfile.csv` names it.
#[derive(Clone, Debug)]
pub struct RawCpu {
    /// Where the entry is written.
    pub span: Span,
    /// `family-model:` vendor string, family and model (hex), and optionally a stepping or a
    /// set of steppings: `GenuineIntel-6-4E`, `GenuineIntel-6-55-[01234]`.
    pub family_model: Spanned<String>,
    /// `version:` the version of the event list for this CPU (`V59`).
    pub version: Option<Spanned<String>>,
    /// `core-type:` on hybrid parts, the core type (CPUID.1AH:EAX\[31:24\], `0x20` Atom,
    /// `0x40` Core).
    pub core_type: Option<Spanned<u64>>,
    /// `native-model-id:` on hybrid parts, CPUID.1AH:EAX\[23:0\].
    pub native_model_id: Option<Spanned<u64>>,
    /// `core-role:` Intel's name for the core's role (`Atom`, `Core`, `LowPower_Atom`).
    pub core_role: Option<Spanned<String>>,
}

/// `pmu:` the counter sets and event encoding.
#[derive(Clone, Debug, Default)]
pub struct RawPmu {
    /// Span of the `pmu:` mapping.
    pub span: Option<Span>,
    /// `encoding:` event attribute -> field of the select register.
    pub encoding: Vec<(Spanned<String>, Spanned<String>)>,
}

/// Event attributes that `pmu.encoding` may map to select-register fields.
pub const ENCODING_KEYS: &[&str] = &[
    "event", "umask", "umask2", "eq", "cmask", "inv", "edge", "any", "usr", "os", "int", "en",
];

/// `msr:` a single address or an indexed family.
///
/// In a family, a key left out keeps the inherited value when the entry overrides a parent's
/// register (`msr: { count: 10 }` adds counters at the same base and stride); a new register
/// needs `base` and `count`, and `stride` defaults to 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawMsr {
    /// The address of index 0.
    pub base: Option<u64>,
    /// How many instances (1 for a single register).
    pub count: Option<u64>,
    /// Address distance between instances.
    pub stride: Option<u64>,
    /// Written as a family (`{base, count, stride}`) rather than one address.
    pub indexed: bool,
}

/// A register entry.
#[derive(Clone, Debug)]
pub struct RawRegister {
    /// `name:`.
    pub name: Spanned<String>,
    /// `renames:` the parent register this one continues under a new name.
    pub renames: Option<Spanned<String>>,
    /// `doc:`.
    pub doc: Option<Spanned<String>>,
    /// `manual:`.
    pub manual: Option<Spanned<String>>,
    /// `msr:`.
    pub msr: Option<Spanned<RawMsr>>,
    /// `alias-msr:` a second address range of the same register (same instances, same
    /// value type): one address for a single register, `{ base, stride }` for a family,
    /// whose count is the family's (`count:`, when given, must equal it).
    pub alias_msr: Option<Spanned<RawMsr>>,
    /// `per-counter:` one instance per counter of this family (the CFG_B / CFG_C families of
    /// perfmon v6): the family has as many instances as the family's counters.
    pub per_counter: Option<Spanned<CounterKind>>,
    /// `width:` in bits.
    pub width: Option<Spanned<u64>>,
    /// `access:` the default for its fields.
    pub access: Option<Spanned<Access>>,
    /// `role:` what the register does for the run-time layer.
    pub role: Option<Spanned<RegisterRole>>,
    /// `reset:` the value after reset, where the manual gives one.
    pub reset: Option<Spanned<u64>>,
    /// `requires:` the CPUID or capabilities condition under which the register exists
    /// (the `requires:` notation of fields).
    pub requires: Option<Spanned<String>>,
    /// `count-from:` the CPUID field that says how many instances of the family a CPU has.
    pub count_from: Option<Spanned<RawCountFrom>>,
    /// `fields:`.
    pub fields: Vec<RawField>,
    /// `remove-fields:`.
    pub remove_fields: Vec<Spanned<String>>,
}

/// A bit range `msb:lsb` (or one bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawBits {
    /// Lowest bit.
    pub lsb: u64,
    /// Highest bit.
    pub msb: u64,
}

/// A field entry.
#[derive(Clone, Debug)]
pub struct RawField {
    /// `name:`.
    pub name: Spanned<String>,
    /// `bits:` one range, or several forming one logical field (low part first).
    pub bits: Option<Spanned<Vec<Spanned<RawBits>>>>,
    /// `array:` `{count, stride}`: the field repeats `count` times, `stride` bits apart. Either
    /// may be left out when overriding an inherited array (`array: { count: 7 }`).
    pub array: Option<Spanned<(Option<u64>, Option<u64>)>>,
    /// `access:` overrides the register's.
    pub access: Option<Spanned<Access>>,
    /// `per-counter:` element i of the array belongs to counter i of this family.
    pub per_counter: Option<Spanned<CounterKind>>,
    /// `role:` what the field means to the run-time layer.
    pub role: Option<Spanned<FieldRole>>,
    /// `doc:`.
    pub doc: Option<Spanned<String>>,
    /// `values:` named values.
    pub values: Option<Vec<RawValue>>,
    /// `deprecated:`.
    pub deprecated: Option<RawDeprecated>,
    /// `requires:` the enumeration (CPUID bit, capability) that must be present.
    pub requires: Option<Spanned<String>>,
    /// `instances:` the instances of the register family on which the field is valid (`[2]`:
    /// IN_TXCP only on IA32_PERFEVTSEL2); every instance when left out.
    pub instances: Option<Spanned<Vec<Spanned<u64>>>>,
}

/// A named field value.
#[derive(Clone, Debug)]
pub struct RawValue {
    /// `name:`.
    pub name: Spanned<String>,
    /// `value:`.
    pub value: Option<Spanned<u64>>,
    /// `doc:`.
    pub doc: Option<Spanned<String>>,
}

/// `deprecated:` when a field stops being meaningful.
#[derive(Clone, Debug)]
pub struct RawDeprecated {
    /// `since:` generation id.
    pub since: Spanned<String>,
    /// `when:` the enumeration that signals it.
    pub when: Option<Spanned<String>>,
    /// `doc:`.
    pub doc: Option<Spanned<String>>,
}

/// A CPUID leaf entry.
#[derive(Clone, Debug)]
pub struct RawCpuid {
    /// `name:`.
    pub name: Spanned<String>,
    /// `leaf:` EAX input.
    pub leaf: Option<Spanned<u64>>,
    /// `subleaf:` ECX input.
    pub subleaf: Option<Spanned<u64>>,
    /// `doc:`.
    pub doc: Option<Spanned<String>>,
    /// `manual:`.
    pub manual: Option<Spanned<String>>,
    /// `eax:` .. `edx:` field lists, by output register.
    pub regs: Vec<(Spanned<String>, Vec<RawField>)>,
}

/// CPUID output registers, in order.
pub const CPUID_REGS: &[&str] = &["eax", "ebx", "ecx", "edx"];

/// An event entry.
#[derive(Clone, Debug)]
pub struct RawEvent {
    /// `name:`.
    pub name: Spanned<String>,
    /// `event:` the event select code (the first one when a list is given).
    pub event: Option<Spanned<u64>>,
    /// `event: [a, b, ...]`: the codes after the first (empty for a single code; `None` when
    /// `event:` is not written, so an override keeps the inherited list).
    pub alt_events: Option<Vec<Spanned<u64>>>,
    /// `umask:` (the first one when a list is given).
    pub umask: Option<Spanned<u64>>,
    /// `umask: [a, b, ...]`: the unit masks after the first.
    pub alt_umasks: Option<Vec<Spanned<u64>>>,
    /// `umask2:` the second unit mask (Intel v6).
    pub umask2: Option<Spanned<u64>>,
    /// `eq:` the equal-compare flag (Intel v6).
    pub eq: Option<Spanned<bool>>,
    /// `cmask:`.
    pub cmask: Option<Spanned<u64>>,
    /// `inv:`.
    pub inv: Option<Spanned<bool>>,
    /// `edge:`.
    pub edge: Option<Spanned<bool>>,
    /// `any:` AnyThread.
    pub any: Option<Spanned<bool>>,
    /// `counters:` the general-purpose counters that may count it.
    pub counters: Option<Spanned<Vec<Spanned<u64>>>>,
    /// `counters: all`: every general-purpose counter of the generation (the default, but
    /// stated explicitly so that `fixed:` adds a fixed counter instead of replacing them).
    pub all_counters: Option<Span>,
    /// `fixed:` the fixed counter that counts it.
    pub fixed: Option<Spanned<u64>>,
    /// `counters-ht-off:` the counters that may count it while Hyper-Threading is off.
    pub counters_ht_off: Option<RawCounterSet>,
    /// `pebs-counters:` the counters that may sample it with PEBS.
    pub pebs_counters: Option<RawCounterSet>,
    /// `pdist-counters:` the counters with precise distribution (PDist) for it.
    pub pdist_counters: Option<RawCounterSet>,
    /// `pdir-counters:` the counters with precise distribution of instructions retired (PDIR).
    pub pdir_counters: Option<RawCounterSet>,
    /// `cpuid-bit:` the CPUID.0AH:EBX bit that, when set, marks it unavailable.
    pub cpuid_bit: Option<Spanned<u64>>,
    /// `msr:` an auxiliary MSR programmed with the event (offcore response, load latency).
    pub msr: Option<Spanned<RawEventMsr>>,
    /// `pebs:` 0 no PEBS, 1 PEBS, 2 PEBS with precise distribution (older Intel lists).
    pub pebs: Option<Spanned<u64>>,
    /// `collect-pebs-record:` Intel's CollectPEBSRecord level (0 to 3).
    pub collect_pebs_record: Option<Spanned<u64>>,
    /// Flags, in [`crate::vocab::EVENT_FLAGS`] order.
    pub flags: Vec<(&'static crate::vocab::EventFlag, Spanned<bool>)>,
    /// `errata:` erratum ids that affect the event.
    pub errata: Option<Vec<Spanned<String>>>,
    /// `sample-after:` the default sampling period.
    pub sample_after: Option<Spanned<u64>>,
    /// `doc:`.
    pub doc: Option<Spanned<String>>,
    /// `allow:` the warnings about the event that are acknowledged (`None` when not written,
    /// so an override keeps the inherited list).
    pub allow: Option<Vec<RawAllow>>,
}

/// An `allow:` entry: a warning acknowledged, with the reason.
#[derive(Clone, Debug)]
pub struct RawAllow {
    /// `code:` the warning's code, one of the codes the entry's kind may acknowledge.
    pub code: Spanned<&'static str>,
    /// `reason:` why the warning is acceptable (not empty).
    pub reason: Spanned<String>,
}

/// A set of general-purpose and fixed counters: `[0-3]` (general only) or
/// `{ general: [0-3], fixed: [0] }`.
#[derive(Clone, Debug)]
pub struct RawCounterSet {
    /// Where the set is written.
    pub span: Span,
    /// General-purpose counters.
    pub general: Vec<Spanned<u64>>,
    /// Fixed counters.
    pub fixed: Vec<Spanned<u64>>,
}

/// An event's `msr:`.
#[derive(Clone, Debug)]
pub struct RawEventMsr {
    /// `index:` the MSR address (the first one when a list is given).
    pub index: Spanned<u64>,
    /// `index: [a, b]`: the addresses after the first, paired in order with the event's
    /// alternative codes or unit masks.
    pub alt_indexes: Vec<Spanned<u64>>,
    /// `value:`.
    pub value: Spanned<u64>,
}

/// A constraint between fields of one register.
#[derive(Clone, Debug)]
pub struct RawConstraint {
    /// `id:`.
    pub id: Spanned<String>,
    /// `register:`.
    pub register: Option<Spanned<String>>,
    /// `when:` every field equals its value.
    pub when: Vec<(Spanned<String>, Spanned<u64>)>,
    /// `severity:`.
    pub severity: Option<Spanned<CSeverity>>,
    /// `message:`.
    pub message: Option<Spanned<String>>,
    /// `manual:`.
    pub manual: Option<Spanned<String>>,
}

/// `remove:` names dropped from the parent.
#[derive(Clone, Debug, Default)]
pub struct RawRemove {
    /// Registers.
    pub registers: Vec<Spanned<String>>,
    /// CPUID leaves.
    pub cpuid: Vec<Spanned<String>>,
    /// Events.
    pub events: Vec<Spanned<String>>,
    /// Constraints.
    pub constraints: Vec<Spanned<String>>,
    /// perf's generic events, by name (`stalled-cycles-backend`).
    pub generic_events: Vec<Spanned<String>>,
}
