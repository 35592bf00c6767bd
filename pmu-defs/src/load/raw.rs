//! The schema as written: one generation per file, every value with its span.
//!
//! Entries in an extending generation are overrides: a register, field, CPUID leaf or event
//! whose name exists in the parent changes only the keys it gives. So every key here is
//! optional; which ones a *new* entry needs is checked when the `extends` chain is resolved.

use crate::diag::Diagnostic;
use crate::load::de::{
    Cx, EVENT_RULE, GENERATION_RULE, IDENT_RULE, MapReader, PERFMON_CORE_RULE, Spanned,
    did_you_mean, is_event_name, is_generation_id, is_ident, is_perfmon_core,
};
use crate::load::yaml::{Kind, Node};
use crate::source::{FileId, Span};
use crate::vocab::{Access, CounterKind, FieldRole, RegisterRole, Severity as CSeverity, Vendor};

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
    /// Flags, in [`EVENT_FLAGS`] order.
    pub flags: Vec<(&'static str, Spanned<bool>)>,
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

/// Boolean event keys beyond the select-register flags, each a typed fact of the model.
pub const EVENT_FLAGS: &[&str] = &[
    "precise",
    "speculative",
    "deprecated",
    "taken-alone",
    "data-la",
    "l1-hit-indication",
    "offcore",
    "offmodule",
    "msr-per-umask",
    "ellc",
    "precise-store",
];

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
}

/// Keys of a generation file's top-level mapping.
pub const TOP_KEYS: &[&str] = &[
    "generation",
    "vendor",
    "title",
    "manual",
    "doc",
    "extends",
    "pmu",
    "registers",
    "cpuid",
    "events",
    "constraints",
    "remove",
    "source",
    "cpus",
    "detect",
    "perfmon-cores",
];
/// Keys of `detect:`.
pub const DETECT_KEYS: &[&str] = &["leaf", "register", "field", "at-least", "family-at-least"];
/// Keys of a `cpus:` entry.
pub const CPU_KEYS: &[&str] = &[
    "family-model",
    "version",
    "core-type",
    "native-model-id",
    "core-role",
];
/// Keys of a register entry.
pub const REGISTER_KEYS: &[&str] = &[
    "name",
    "renames",
    "doc",
    "manual",
    "msr",
    "alias-msr",
    "per-counter",
    "width",
    "access",
    "role",
    "reset",
    "fields",
    "remove-fields",
];
/// Keys of a field entry (registers and CPUID output registers alike).
pub const FIELD_KEYS: &[&str] = &[
    "name",
    "bits",
    "array",
    "access",
    "per-counter",
    "role",
    "doc",
    "values",
    "deprecated",
    "requires",
    "instances",
];
/// Keys of an event entry.
pub const EVENT_KEYS: &[&str] = &[
    "name",
    "event",
    "umask",
    "umask2",
    "eq",
    "cmask",
    "inv",
    "edge",
    "any",
    "counters",
    "fixed",
    "counters-ht-off",
    "pebs-counters",
    "pdist-counters",
    "pdir-counters",
    "cpuid-bit",
    "msr",
    "pebs",
    "collect-pebs-record",
    "precise",
    "speculative",
    "deprecated",
    "taken-alone",
    "data-la",
    "l1-hit-indication",
    "offcore",
    "offmodule",
    "msr-per-umask",
    "ellc",
    "precise-store",
    "errata",
    "sample-after",
    "doc",
    "allow",
];

/// Keys of `pmu:`.
pub const PMU_KEYS: &[&str] = &["encoding"];
/// Keys of a register family's `msr:`.
pub const MSR_FAMILY_KEYS: &[&str] = &["base", "count", "stride"];
/// Keys of a field's `array:`.
pub const ARRAY_KEYS: &[&str] = &["count", "stride"];
/// Keys of a named field value.
pub const VALUE_KEYS: &[&str] = &["name", "value", "doc"];
/// Keys of a field's `deprecated:`.
pub const DEPRECATION_KEYS: &[&str] = &["since", "when", "doc"];
/// Keys of a CPUID leaf entry; the output registers are [`CPUID_REGS`].
pub const CPUID_KEYS: &[&str] = &[
    "name", "leaf", "subleaf", "doc", "manual", "eax", "ebx", "ecx", "edx",
];
/// Keys of a counter set written as a mapping.
pub const COUNTER_SET_KEYS: &[&str] = &["general", "fixed"];
/// The event keys holding counter sets.
pub const COUNTER_SET_EVENT_KEYS: &[&str] = &[
    "counters-ht-off",
    "pebs-counters",
    "pdist-counters",
    "pdir-counters",
];
/// Keys of an `allow:` entry.
pub const ALLOW_KEYS: &[&str] = &["code", "reason"];
/// Keys of an event's `msr:`.
pub const EVENT_MSR_KEYS: &[&str] = &["index", "value"];
/// Keys of a constraint entry.
pub const CONSTRAINT_KEYS: &[&str] = &["id", "register", "when", "severity", "message", "manual"];
/// Keys of `remove:`.
pub const REMOVE_KEYS: &[&str] = &["registers", "cpuid", "events", "constraints"];

/// Keyword table for `vendor:`.
pub const VENDOR_WORDS: &[(&str, Vendor)] = &[("intel", Vendor::Intel), ("amd", Vendor::Amd)];
/// Keyword table for a constraint's `severity:`.
pub const SEVERITY_WORDS: &[(&str, CSeverity)] =
    &[("error", CSeverity::Error), ("warning", CSeverity::Warning)];

/// Largest MSR address (MSRs are addressed by ECX, 32 bits).
pub const MSR_ADDRESS_MAX: u64 = u32::MAX as u64;
/// Most registers in one family.
pub const MSR_COUNT_MAX: u64 = 256;
/// Largest address distance between family members.
pub const MSR_STRIDE_MAX: u64 = 0x1_0000;
/// Largest `count` and `stride` of a field array (bits in a register).
pub const ARRAY_MAX: u64 = 64;
/// Largest CPUID leaf or subleaf input (EAX, ECX: 32 bits).
pub const CPUID_INPUT_MAX: u64 = u32::MAX as u64;
/// Largest `core-type` (CPUID.1AH:EAX\[31:24\]).
pub const CORE_TYPE_MAX: u64 = 0xFF;
/// Largest `native-model-id` (CPUID.1AH:EAX\[23:0\]).
pub const NATIVE_MODEL_ID_MAX: u64 = 0xFF_FFFF;
/// Largest `cpuid-bit` (a bit of CPUID.0AH:EBX).
pub const CPUID_BIT_MAX: u64 = 31;
/// Largest `pebs:` level.
pub const PEBS_MAX: u64 = 2;
/// Largest `collect-pebs-record:` level.
pub const COLLECT_PEBS_RECORD_MAX: u64 = 3;

/// `GenuineIntel-6-4E`: a vendor string, family and model in hex, and optionally a stepping
/// (`-4`) or a set of steppings (`-[01234]`), as in Intel's perfmon `mapfile.csv`.
pub fn is_family_model(s: &str) -> bool {
    let hex = |p: &str| !p.is_empty() && p.chars().all(|c| c.is_ascii_hexdigit());
    let parts: Vec<&str> = s.split('-').collect();
    let stepping = |p: &str| {
        hex(p)
            || p.strip_prefix('[')
                .and_then(|p| p.strip_suffix(']'))
                .is_some_and(hex)
    };
    match parts.as_slice() {
        [vendor, family, model, rest @ ..] => {
            !vendor.is_empty()
                && vendor.chars().all(|c| c.is_ascii_alphanumeric())
                && hex(family)
                && hex(model)
                && match rest {
                    [] => true,
                    [s] => stepping(s),
                    _ => false,
                }
        }
        _ => false,
    }
}

/// Keyword table for a register's `role:`: `pmu_vocab::Role`'s spellings.
pub const REGISTER_ROLE_WORDS: &[(&str, RegisterRole)] = &{
    let mut t = [("", RegisterRole::Counter); RegisterRole::ALL.len()];
    let mut i = 0;
    while i < t.len() {
        t[i] = (RegisterRole::ALL[i].as_str(), RegisterRole::ALL[i]);
        i += 1;
    }
    t
};

/// Keyword table for a field's `per-counter:`.
pub const COUNTER_KIND_WORDS: &[(&str, CounterKind)] = &[
    ("general", CounterKind::General),
    ("fixed", CounterKind::Fixed),
];

/// Keyword table for a field's `role:`.
pub const FIELD_ROLE_WORDS: &[(&str, FieldRole)] = &[
    ("privilege", FieldRole::Privilege),
    ("pmi", FieldRole::Pmi),
    ("any-thread", FieldRole::AnyThread),
    ("frozen", FieldRole::Frozen),
    ("pmi-in-use", FieldRole::PmiInUse),
    ("freeze-on-pmi", FieldRole::FreezeOnPmi),
    ("full-width-write", FieldRole::FullWidthWrite),
    ("general-count", FieldRole::GeneralCount),
    ("general-width", FieldRole::GeneralWidth),
    ("fixed-count", FieldRole::FixedCount),
    ("fixed-width", FieldRole::FixedWidth),
    ("fixed-bitmap", FieldRole::FixedBitmap),
    ("general-present", FieldRole::GeneralPresent),
    ("fixed-present", FieldRole::FixedPresent),
    ("events-length", FieldRole::EventsLength),
    ("anythread-deprecated", FieldRole::AnythreadDeprecated),
    ("umask2-supported", FieldRole::Umask2Supported),
    ("eq-supported", FieldRole::EqSupported),
    ("subleaf-bitmap", FieldRole::SubleafBitmap),
];

/// The CPUID output registers, as `detect.register` spells them.
pub const CPUID_REG_WORDS: &[(&str, &str)] = &[
    ("eax", "eax"),
    ("ebx", "ebx"),
    ("ecx", "ecx"),
    ("edx", "edx"),
];

/// Keyword table for `access:`: `pmu_vocab::Access`'s spellings.
pub const ACCESS_WORDS: &[(&str, Access)] = &{
    let mut t = [("", Access::ReadWrite); Access::ALL.len()];
    let mut i = 0;
    while i < t.len() {
        t[i] = (Access::ALL[i].as_str(), Access::ALL[i]);
        i += 1;
    }
    t
};

impl Cx<'_> {
    fn ident(&mut self, n: &Node, what: &str) -> Option<Spanned<String>> {
        self.name(n, what, is_ident, IDENT_RULE)
    }

    fn gen_id(&mut self, n: &Node) -> Option<Spanned<String>> {
        self.name(n, "generation id", is_generation_id, GENERATION_RULE)
    }

    fn list<T>(
        &mut self,
        m: &MapReader<'_>,
        key: &str,
        what: &str,
        f: impl Fn(&mut Self, &Node) -> Option<T>,
    ) -> Vec<T> {
        let Some(n) = m.get(key) else {
            return Vec::new();
        };
        let Some(items) = self.seq(n, what) else {
            return Vec::new();
        };
        items.iter().filter_map(|i| f(self, i)).collect()
    }

    /// Reads a whole generation file.
    pub fn generation(&mut self, file: FileId, root: &Node) -> Option<RawGeneration> {
        let m = self.map(root, "generation file", TOP_KEYS)?;
        let id = self.req(&m, "generation", "generation file", Self::gen_id);
        let vendor = self.opt(&m, "vendor", |c, n| c.keyword(n, "vendor", VENDOR_WORDS));
        let title = self.opt(&m, "title", Self::text);
        let manual = self.opt(&m, "manual", Self::text);
        let doc = self.opt(&m, "doc", Self::text);
        let extends = self.opt(&m, "extends", Self::gen_id);
        let pmu = self.opt(&m, "pmu", Self::pmu);
        let registers = self.list(&m, "registers", "registers", Self::register);
        let cpuid = self.list(&m, "cpuid", "CPUID leaves", Self::cpuid);
        let events = self.list(&m, "events", "events", Self::event);
        let constraints = self.list(&m, "constraints", "constraints", Self::constraint);
        let remove = self.opt(&m, "remove", Self::remove).unwrap_or_default();
        let source = self.opt(&m, "source", Self::text);
        let cpus = m.get("cpus").map(|n| self.cpus(n));
        let detect = self.opt(&m, "detect", Self::detect);
        let perfmon_cores = m
            .get("perfmon-cores")
            .map(|n| self.names(n, "perfmon core list", is_perfmon_core, PERFMON_CORE_RULE))
            .unwrap_or_default();
        let mut remove = remove;
        if let Some(span) = m.key_span("remove").filter(|_| !m.has("extends")) {
            // Reported once here; its names are not looked up (nothing could match).
            remove = RawRemove::default();
            self.push(
                Diagnostic::error(
                    "remove-without-parent",
                    "`remove:` in a generation that extends nothing: there is nothing inherited to remove",
                    span,
                )
                .with_label("nothing to remove")
                .with_help("add `extends:` naming the generation whose entries this one drops, or delete the entries themselves"),
            );
        }
        // Only when neither key is written: an invalid value has its own error already.
        if !m.has("extends") && !m.has("vendor") && m.has("generation") {
            self.missing(&m, "vendor", "generation without `extends`");
        }
        Some(RawGeneration {
            file,
            id: id?,
            vendor,
            title,
            manual,
            doc,
            extends,
            pmu,
            registers,
            cpuid,
            events,
            constraints,
            remove,
            source,
            cpus,
            detect,
            perfmon_cores,
        })
    }

    fn detect(&mut self, n: &Node) -> Option<Spanned<RawDetect>> {
        let m = self.map(n, "detect", DETECT_KEYS)?;
        let d = RawDetect {
            leaf: self.opt(&m, "leaf", |c, n| c.ident(n, "CPUID leaf name")),
            register: self.opt(&m, "register", |c, n| {
                c.keyword(n, "CPUID output register", CPUID_REG_WORDS)
                    .map(|r| Spanned::new(r.value.to_owned(), r.span))
            }),
            field: self.opt(&m, "field", |c, n| c.ident(n, "field name")),
            at_least: self.opt(&m, "at-least", |c, n| {
                c.uint_max(n, u32::MAX as u64, "value")
            }),
            family_at_least: self.opt(&m, "family-at-least", |c, n| {
                c.uint_max(n, 0x10E, "CPU family")
            }),
        };
        let cpuid_keys = ["leaf", "register", "field", "at-least"];
        let given = cpuid_keys.iter().filter(|k| m.has(k)).count();
        if given != 0 && given != cpuid_keys.len() {
            for k in cpuid_keys.iter().filter(|k| !m.has(k)) {
                self.missing(&m, k, "CPUID condition of `detect`");
            }
            return None;
        }
        if given == 0 && !m.has("family-at-least") {
            self.missing(&m, "leaf", "detect");
            return None;
        }
        Some(Spanned::new(d, n.span))
    }

    /// `cpus:` a non-empty list of CPU models, each named once.
    fn cpus(&mut self, n: &Node) -> Vec<RawCpu> {
        let Some(items) = self.seq(n, "CPU models") else {
            return Vec::new();
        };
        if items.is_empty() {
            self.push(
                Diagnostic::error("invalid-value", "an empty list of CPU models", n.span)
                    .with_label("`cpus` says which CPU models the generation describes")
                    .with_help("list at least one, or leave `cpus` out"),
            );
            return Vec::new();
        }
        let mut out: Vec<RawCpu> = Vec::new();
        for i in items {
            let Some(cpu) = self.cpu(i) else { continue };
            let key = |c: &RawCpu| {
                (
                    c.family_model.value.to_ascii_uppercase(),
                    c.core_type.as_ref().map(|t| t.value),
                )
            };
            if let Some(first) = out.iter().find(|c| key(c) == key(&cpu)) {
                let what = match &cpu.core_type {
                    Some(t) => {
                        format!("`{}` with core type {:#x}", cpu.family_model.value, t.value)
                    }
                    None => format!("`{}`", cpu.family_model.value),
                };
                self.push(
                    Diagnostic::error(
                        "duplicate-name",
                        format!("CPU model {what} is listed twice"),
                        cpu.family_model.span,
                    )
                    .with_label("second entry")
                    .with_secondary(first.family_model.span, "first listed here"),
                );
                continue;
            }
            out.push(cpu);
        }
        out
    }

    fn cpu(&mut self, n: &Node) -> Option<RawCpu> {
        let m = self.map(n, "CPU model", CPU_KEYS)?;
        let family_model = self.req(&m, "family-model", "CPU model", |c, n| {
            let t = c.text(n)?;
            if is_family_model(&t.value) {
                return Some(t);
            }
            c.push(
                Diagnostic::error(
                    "invalid-value",
                    format!("`{}` is not a CPUID family-model", t.value),
                    t.span,
                )
                .with_label("expected vendor-family-model, family and model in hex")
                .with_help(
                    "write it as Intel's mapfile.csv does: `GenuineIntel-6-4E`, optionally with \
                     a stepping or a set of them: `GenuineIntel-6-55-4`, `GenuineIntel-6-55-[01234]`",
                ),
            );
            None
        });
        let version = self.opt(&m, "version", Self::text);
        let core_type = self.opt(&m, "core-type", |c, n| {
            c.uint_max(n, CORE_TYPE_MAX, "core type")
        });
        let native_model_id = self.opt(&m, "native-model-id", |c, n| {
            c.uint_max(n, NATIVE_MODEL_ID_MAX, "native model id")
        });
        let core_role = self.opt(&m, "core-role", Self::text);
        if (m.has("core-type") && core_type.is_none())
            || (m.has("native-model-id") && native_model_id.is_none())
        {
            return None; // reported; without it the entry would name another CPU
        }
        Some(RawCpu {
            span: n.span,
            family_model: family_model?,
            version,
            core_type,
            native_model_id,
            core_role,
        })
    }

    fn pmu(&mut self, n: &Node) -> Option<RawPmu> {
        let m = self.map(n, "pmu", PMU_KEYS)?;
        let mut p = RawPmu {
            span: Some(n.span),
            ..RawPmu::default()
        };
        if let Some(e) = m.get("encoding")
            && let Some(em) = self.map(e, "pmu.encoding", ENCODING_KEYS)
            && let Kind::Map(entries) = &em.node.kind
        {
            for (k, v) in entries {
                if ENCODING_KEYS.contains(&k.name.as_str())
                    && let Some(field) = self.ident(v, "field name")
                {
                    p.encoding
                        .push((Spanned::new(k.name.clone(), k.span), field));
                }
            }
        }
        Some(p)
    }

    fn msr(&mut self, n: &Node) -> Option<Spanned<RawMsr>> {
        if let Kind::Map(_) = n.kind {
            let m = self.map(n, "msr family", MSR_FAMILY_KEYS)?;
            let base = self.opt(&m, "base", |c, n| {
                c.uint_max(n, MSR_ADDRESS_MAX, "MSR address")
            });
            let count = self.opt(&m, "count", |c, n| {
                c.uint_max(n, MSR_COUNT_MAX, "register count")
            });
            let stride = self.opt(&m, "stride", |c, n| c.uint_max(n, MSR_STRIDE_MAX, "stride"));
            if let Some(c) = &count
                && c.value == 0
            {
                self.error(
                    "out-of-range",
                    "a register family needs at least one register",
                    c.span,
                );
                return None;
            }
            let bad = |k: &str, v: bool| m.has(k) && !v;
            if bad("base", base.is_some())
                || bad("count", count.is_some())
                || bad("stride", stride.is_some())
            {
                return None; // reported; a partial family would read as an override
            }
            return Some(Spanned::new(
                RawMsr {
                    base: base.map(|b| b.value),
                    count: count.map(|c| c.value),
                    stride: stride.map(|s| s.value),
                    indexed: true,
                },
                n.span,
            ));
        }
        let a = self.uint_max(n, MSR_ADDRESS_MAX, "MSR address")?;
        Some(Spanned::new(
            RawMsr {
                base: Some(a.value),
                count: Some(1),
                stride: Some(1),
                indexed: false,
            },
            a.span,
        ))
    }

    fn register(&mut self, n: &Node) -> Option<RawRegister> {
        let m = self.map(n, "register", REGISTER_KEYS)?;
        let name = self.req(&m, "name", "register", |c, n| c.ident(n, "register name"));
        let renames = self.opt(&m, "renames", |c, n| c.ident(n, "register name"));
        let doc = self.opt(&m, "doc", Self::text);
        let manual = self.opt(&m, "manual", Self::text);
        let msr = self.opt(&m, "msr", Self::msr);
        let alias_msr = self.opt(&m, "alias-msr", Self::msr);
        let per_counter = self.opt(&m, "per-counter", |c, n| {
            c.keyword(n, "counter family", COUNTER_KIND_WORDS)
        });
        let width = self.opt(&m, "width", |c, n| c.uint(n));
        if let Some(w) = &width
            && !(1..=64).contains(&w.value)
        {
            self.push(
                Diagnostic::error(
                    "out-of-range",
                    format!("register width {} is not between 1 and 64", w.value),
                    w.span,
                )
                .with_label("MSRs are at most 64 bits wide"),
            );
        }
        let access = self.opt(&m, "access", |c, n| c.keyword(n, "access", ACCESS_WORDS));
        let role = self.opt(&m, "role", |c, n| {
            c.keyword(n, "register role", REGISTER_ROLE_WORDS)
        });
        let reset = self.opt(&m, "reset", Self::uint);
        let fields = self.list(&m, "fields", "fields", Self::field);
        let remove_fields = m
            .get("remove-fields")
            .map(|n| self.names(n, "field name", is_ident, IDENT_RULE))
            .unwrap_or_default();
        if m.has("msr") && msr.is_none() {
            // The address was written but is invalid (already reported): without it the entry
            // would also read as "missing `msr`".
            return None;
        }
        if m.has("alias-msr") && alias_msr.is_none() {
            return None; // reported, as for `msr:`
        }
        Some(RawRegister {
            name: name?,
            renames,
            doc,
            manual,
            msr,
            alias_msr,
            per_counter,
            width: width.filter(|w| (1..=64).contains(&w.value)),
            access,
            role,
            reset,
            fields,
            remove_fields,
        })
    }

    fn bit_range(&mut self, n: &Node) -> Option<Spanned<RawBits>> {
        if let Kind::Scalar(s, _) = &n.kind
            && let Some((hi, lo)) = s.split_once(':')
        {
            let hi = crate::load::de::parse_uint(hi);
            let lo = crate::load::de::parse_uint(lo);
            return match (hi, lo) {
                (Some(msb), Some(lsb)) if msb >= lsb && msb < 64 => {
                    Some(Spanned::new(RawBits { lsb, msb }, n.span))
                }
                (Some(msb), Some(lsb)) if msb < lsb => {
                    self.push(
                        Diagnostic::error(
                            "invalid-bits",
                            format!("bit range `{s}` is written low:high"),
                            n.span,
                        )
                        .with_help(format!(
                            "write the high bit first, as the manuals do: `{lsb}:{msb}`"
                        )),
                    );
                    None
                }
                (Some(_), Some(_)) => {
                    self.push(
                        Diagnostic::error(
                            "invalid-bits",
                            format!("bit range `{s}` goes past bit 63"),
                            n.span,
                        )
                        .with_label("MSR bits are numbered 0 to 63"),
                    );
                    None
                }
                _ => {
                    self.push(
                        Diagnostic::error(
                            "invalid-bits",
                            format!("`{s}` is not a bit range"),
                            n.span,
                        )
                        .with_help("write one bit (`19`) or a range high:low (`31:24`)"),
                    );
                    None
                }
            };
        }
        let b = self.uint(n)?;
        if b.value > 63 {
            self.push(
                Diagnostic::error(
                    "invalid-bits",
                    format!("bit {} is past bit 63", b.value),
                    b.span,
                )
                .with_label("MSR bits are numbered 0 to 63"),
            );
            return None;
        }
        Some(Spanned::new(
            RawBits {
                lsb: b.value,
                msb: b.value,
            },
            b.span,
        ))
    }

    fn bits(&mut self, n: &Node) -> Option<Spanned<Vec<Spanned<RawBits>>>> {
        if let Kind::Seq(items) = &n.kind {
            if items.is_empty() {
                self.error(
                    "invalid-bits",
                    "a split field needs at least one bit range",
                    n.span,
                );
                return None;
            }
            let parts: Vec<_> = items.iter().map(|i| self.bit_range(i)).collect();
            if parts.iter().any(Option::is_none) {
                return None;
            }
            return Some(Spanned::new(parts.into_iter().flatten().collect(), n.span));
        }
        self.bit_range(n)
            .map(|b| Spanned::new(vec![b.clone()], b.span))
    }

    fn field(&mut self, n: &Node) -> Option<RawField> {
        let m = self.map(n, "field", FIELD_KEYS)?;
        let name = self.req(&m, "name", "field", |c, n| c.ident(n, "field name"));
        let bits = self.opt(&m, "bits", Self::bits);
        let array = self.opt(&m, "array", |c, n| {
            let am = c.map(n, "field array", ARRAY_KEYS)?;
            let count = c.opt(&am, "count", |c, n| c.uint_max(n, ARRAY_MAX, "array count"));
            let stride = c.opt(&am, "stride", |c, n| {
                c.uint_max(n, ARRAY_MAX, "array stride")
            });
            if (am.has("count") && count.is_none()) || (am.has("stride") && stride.is_none()) {
                return None;
            }
            if !am.has("count") && !am.has("stride") {
                c.missing(&am, "count", "field array");
                return None;
            }
            if count.as_ref().is_some_and(|v| v.value == 0)
                || stride.as_ref().is_some_and(|v| v.value == 0)
            {
                c.error(
                    "out-of-range",
                    "a field array needs a count and a stride of at least 1",
                    n.span,
                );
                return None;
            }
            Some(Spanned::new(
                (count.map(|v| v.value), stride.map(|v| v.value)),
                n.span,
            ))
        });
        let access = self.opt(&m, "access", |c, n| c.keyword(n, "access", ACCESS_WORDS));
        let per_counter = self.opt(&m, "per-counter", |c, n| {
            c.keyword(n, "counter family", COUNTER_KIND_WORDS)
        });
        let role = self.opt(&m, "role", |c, n| {
            c.keyword(n, "field role", FIELD_ROLE_WORDS)
        });
        let doc = self.opt(&m, "doc", Self::text);
        let values = m.get("values").map(|v| {
            let Some(items) = self.seq(v, "values") else {
                return Vec::new();
            };
            items
                .iter()
                .filter_map(|i| {
                    let vm = self.map(i, "value", VALUE_KEYS)?;
                    let name = self.req(&vm, "name", "value", |c, n| c.ident(n, "value name"));
                    let value = self.req(&vm, "value", "value", |c, n| c.uint(n));
                    let doc = self.opt(&vm, "doc", Self::text);
                    Some(RawValue {
                        name: name?,
                        value,
                        doc,
                    })
                })
                .collect()
        });
        let deprecated = self.opt(&m, "deprecated", |c, n| {
            let dm = c.map(n, "deprecation", DEPRECATION_KEYS)?;
            let since = c.req(&dm, "since", "deprecation", Self::gen_id);
            let when = c.opt(&dm, "when", Self::text);
            let doc = c.opt(&dm, "doc", Self::text);
            Some(RawDeprecated {
                since: since?,
                when,
                doc,
            })
        });
        let requires = self.opt(&m, "requires", Self::text);
        let instances = self.opt(&m, "instances", |c, n| {
            c.counter_list(n, "instance numbers")
        });
        if m.has("bits") && bits.is_none() {
            return None; // invalid bits were reported; do not also report them missing
        }
        Some(RawField {
            name: name?,
            bits,
            array,
            access,
            per_counter,
            role,
            doc,
            values,
            deprecated,
            requires,
            instances,
        })
    }

    fn cpuid(&mut self, n: &Node) -> Option<RawCpuid> {
        let m = self.map(n, "CPUID leaf", CPUID_KEYS)?;
        let name = self.req(&m, "name", "CPUID leaf", |c, n| {
            c.ident(n, "CPUID leaf name")
        });
        let leaf = self.opt(&m, "leaf", |c, n| {
            c.uint_max(n, CPUID_INPUT_MAX, "CPUID leaf")
        });
        if m.has("leaf") && leaf.is_none() {
            return None;
        }
        let subleaf = self.opt(&m, "subleaf", |c, n| {
            c.uint_max(n, CPUID_INPUT_MAX, "CPUID subleaf")
        });
        let doc = self.opt(&m, "doc", Self::text);
        let manual = self.opt(&m, "manual", Self::text);
        let mut regs = Vec::new();
        for r in CPUID_REGS {
            if let Some(list) = m.get(r) {
                let span = m.key_span(r).unwrap_or(list.span);
                let fields = match self.seq(list, "fields") {
                    Some(items) => items.iter().filter_map(|i| self.field(i)).collect(),
                    None => Vec::new(),
                };
                regs.push((Spanned::new((*r).to_owned(), span), fields));
            }
        }
        Some(RawCpuid {
            name: name?,
            leaf,
            subleaf,
            doc,
            manual,
            regs,
        })
    }

    /// A list of counter numbers and `low-high` ranges. A list with a bad item is dropped whole
    /// (reported), so it cannot read as "no counters".
    fn counter_list(&mut self, n: &Node, what: &str) -> Option<Spanned<Vec<Spanned<u64>>>> {
        let items = self.seq(n, what)?;
        let errors_before = self.diags.error_count();
        let mut out = Vec::new();
        for i in items {
            // `0-3` ranges are accepted besides single numbers.
            if let Kind::Scalar(s, _) = &i.kind
                && let Some((a, b)) = s.split_once('-')
            {
                match (
                    crate::load::de::parse_uint(a),
                    crate::load::de::parse_uint(b),
                ) {
                    (Some(a), Some(b)) if a <= b && b < 64 => {
                        out.extend((a..=b).map(|v| Spanned::new(v, i.span)));
                    }
                    _ => self.push(
                        Diagnostic::error(
                            "invalid-value",
                            format!("`{s}` is not a counter range"),
                            i.span,
                        )
                        .with_help("write a number or a range low-high such as `0-3`"),
                    ),
                }
                continue;
            }
            if let Some(v) = self.uint(i) {
                out.push(v);
            }
        }
        (self.diags.error_count() == errors_before).then(|| Spanned::new(out, n.span))
    }

    /// `[0-3]` (general counters) or `{ general: [0-3], fixed: [0] }`.
    fn counter_set(&mut self, n: &Node) -> Option<RawCounterSet> {
        if let Kind::Map(_) = n.kind {
            let m = self.map(n, "counter set", COUNTER_SET_KEYS)?;
            let general = self.opt(&m, "general", |c, n| {
                c.counter_list(n, "general counter numbers")
            });
            let fixed = self.opt(&m, "fixed", |c, n| {
                c.counter_list(n, "fixed counter numbers")
            });
            if (m.has("general") && general.is_none()) || (m.has("fixed") && fixed.is_none()) {
                return None;
            }
            return Some(RawCounterSet {
                span: n.span,
                general: general.map(|g| g.value).unwrap_or_default(),
                fixed: fixed.map(|f| f.value).unwrap_or_default(),
            });
        }
        let general = self.counter_list(n, "counter numbers (or `{ general, fixed }`)")?;
        Some(RawCounterSet {
            span: n.span,
            general: general.value,
            fixed: Vec::new(),
        })
    }

    /// One number, or a non-empty list of them: the first and the rest.
    fn one_or_more(
        &mut self,
        n: &Node,
        what: &str,
        max: u64,
    ) -> Option<(Spanned<u64>, Vec<Spanned<u64>>)> {
        let Kind::Seq(items) = &n.kind else {
            return self.uint_max(n, max, what).map(|v| (v, Vec::new()));
        };
        if items.is_empty() {
            self.push(
                Diagnostic::error("invalid-value", format!("an empty list of {what}s"), n.span)
                    .with_help("write one number, or a list whose first entry is the main one"),
            );
            return None;
        }
        let vals: Vec<_> = items.iter().map(|i| self.uint_max(i, max, what)).collect();
        if vals.iter().any(Option::is_none) {
            return None;
        }
        let mut vals = vals.into_iter().flatten();
        let first = vals.next()?;
        Some((first, vals.collect()))
    }

    fn event(&mut self, n: &Node) -> Option<RawEvent> {
        let m = self.map(n, "event", EVENT_KEYS)?;
        let name = self.req(&m, "name", "event", |c, n| {
            c.name(n, "event name", is_event_name, EVENT_RULE)
        });
        let all_counters = m
            .get("counters")
            .filter(|n| matches!(&n.kind, Kind::Scalar(s, _) if s == "all"))
            .map(|n| n.span);
        let counters = self.opt(&m, "counters", |c, n| {
            if all_counters.is_some() {
                return None;
            }
            c.counter_list(n, "counter numbers (or `all`)")
        });
        let msr = self.opt(&m, "msr", |c, n| {
            let mm = c.map(n, "event msr", EVENT_MSR_KEYS)?;
            let index = c.req(&mm, "index", "event msr", |c, n| {
                c.one_or_more(n, "MSR address", MSR_ADDRESS_MAX)
            });
            let value = c.req(&mm, "value", "event msr", |c, n| c.uint(n));
            let (index, alt_indexes) = index?;
            Some(Spanned::new(
                RawEventMsr {
                    index,
                    alt_indexes,
                    value: value?,
                },
                n.span,
            ))
        });
        let event = self.opt(&m, "event", |c, n| c.one_or_more(n, "event code", u64::MAX));
        let umask = self.opt(&m, "umask", |c, n| c.one_or_more(n, "unit mask", u64::MAX));
        let sets: Vec<Option<RawCounterSet>> = COUNTER_SET_EVENT_KEYS
            .iter()
            .map(|k| self.opt(&m, k, Self::counter_set))
            .collect();
        let bad_set = COUNTER_SET_EVENT_KEYS
            .iter()
            .zip(&sets)
            .any(|(k, s)| m.has(k) && s.is_none());
        let bad_counters = m.has("counters") && counters.is_none() && all_counters.is_none();
        let bad_msr = m.has("msr") && msr.is_none();
        let bad_umask = m.has("umask") && umask.is_none();
        if (m.has("event") && event.is_none()) || bad_counters || bad_set || bad_msr || bad_umask {
            // Reported already; keeping the entry would add "missing `event`", "no counter" or
            // an override that silently keeps the inherited value.
            return None;
        }
        let mut sets = sets.into_iter();
        let mut flags = Vec::new();
        for key in EVENT_FLAGS {
            if let Some(v) = self.opt(&m, key, Self::boolean) {
                flags.push((*key, v));
            }
        }
        let sample_after = self.opt(&m, "sample-after", Self::uint);
        if let Some(s) = &sample_after
            && s.value == 0
        {
            self.push(
                Diagnostic::error("out-of-range", "a sample-after period of 0", s.span).with_label(
                    "the counter would overflow on every event; the period must be at least 1",
                ),
            );
        }
        let ev = RawEvent {
            name: name?,
            event: event.as_ref().map(|e| e.0.clone()),
            alt_events: event.map(|e| e.1),
            umask: umask.as_ref().map(|u| u.0.clone()),
            alt_umasks: umask.map(|u| u.1),
            umask2: self.opt(&m, "umask2", Self::uint),
            eq: self.opt(&m, "eq", Self::boolean),
            cmask: self.opt(&m, "cmask", Self::uint),
            inv: self.opt(&m, "inv", Self::boolean),
            edge: self.opt(&m, "edge", Self::boolean),
            any: self.opt(&m, "any", Self::boolean),
            counters,
            all_counters,
            fixed: self.opt(&m, "fixed", Self::uint),
            counters_ht_off: sets.next().flatten(),
            pebs_counters: sets.next().flatten(),
            pdist_counters: sets.next().flatten(),
            pdir_counters: sets.next().flatten(),
            cpuid_bit: self.opt(&m, "cpuid-bit", |c, n| {
                c.uint_max(n, CPUID_BIT_MAX, "CPUID bit")
            }),
            msr,
            pebs: self.opt(&m, "pebs", |c, n| c.uint_max(n, PEBS_MAX, "PEBS level")),
            collect_pebs_record: self.opt(&m, "collect-pebs-record", |c, n| {
                c.uint_max(n, COLLECT_PEBS_RECORD_MAX, "PEBS record level")
            }),
            flags,
            errata: m
                .get("errata")
                .map(|n| self.names(n, "erratum id", is_ident, IDENT_RULE)),
            sample_after: sample_after.filter(|s| s.value != 0),
            doc: self.opt(&m, "doc", Self::text),
            allow: m
                .get("allow")
                .map(|n| self.allow(n, "event", crate::diag::EVENT_WARNINGS)),
        };
        Some(ev)
    }

    /// An `allow:` list on an entry of kind `what` ("event"), whose warnings are `codes`: each
    /// entry a code of one of them and a reason. An unknown code, an error's code, a warning
    /// not reported about this kind of entry, a code listed twice and an empty reason are
    /// `invalid-allow` errors (the entry is dropped).
    pub fn allow(&mut self, n: &Node, what: &str, codes: &[&'static str]) -> Vec<RawAllow> {
        let Some(items) = self.seq(n, "`allow:` entries") else {
            return Vec::new();
        };
        let mut out: Vec<RawAllow> = Vec::new();
        for item in items {
            let Some(m) = self.map(item, "allow entry", ALLOW_KEYS) else {
                continue;
            };
            let code = self.req(&m, "code", "allow entry", |c, n| {
                c.allow_code(n, what, codes)
            });
            let reason = self.req(&m, "reason", "allow entry", Self::text);
            if let Some(r) = &reason
                && r.value.trim().is_empty()
            {
                self.push(
                    Diagnostic::error("invalid-allow", "an `allow:` entry with an empty reason", r.span)
                        .with_label("no reason given")
                        .with_help("say why the warning is acceptable: the entry is how a reader learns it was reviewed"),
                );
                continue;
            }
            let (Some(code), Some(reason)) = (code, reason) else {
                continue;
            };
            if let Some(first) = out.iter().find(|a| a.code.value == code.value) {
                self.push(
                    Diagnostic::error(
                        "invalid-allow",
                        format!("`{}` is acknowledged twice on this {what}", code.value),
                        code.span,
                    )
                    .with_label("second entry")
                    .with_secondary(first.code.span, "first entry")
                    .with_help("give each code once, with one reason"),
                );
                continue;
            }
            out.push(RawAllow { code, reason });
        }
        out
    }

    /// The `code:` of an `allow:` entry on an entry of kind `what`: one of `codes` (an
    /// `invalid-allow` error otherwise, saying whether the code is unknown, an error's, or a
    /// warning reported about something else).
    pub fn allow_code(
        &mut self,
        n: &Node,
        what: &str,
        codes: &[&'static str],
    ) -> Option<Spanned<&'static str>> {
        let Kind::Scalar(s, _) = &n.kind else {
            self.push(
                Diagnostic::error(
                    "type-mismatch",
                    format!("expected a diagnostic code, found {}", n.describe()),
                    n.span,
                )
                .with_label("expected a diagnostic code"),
            );
            return None;
        };
        if let Some(code) = codes.iter().find(|c| **c == s.as_str()) {
            return Some(Spanned::new(code, n.span));
        }
        let which = codes.join(", ");
        let d = match crate::diag::severity_of(s) {
            None => {
                let mut d = Diagnostic::error(
                    "invalid-allow",
                    format!("`{s}` is not a diagnostic code"),
                    n.span,
                )
                .with_label("no diagnostic has this code");
                if let Some(near) = did_you_mean(s, crate::diag::CODES.iter().map(|(c, _)| *c)) {
                    d = d.with_help(format!("did you mean `{near}`?"));
                }
                d.with_note(format!("an {what}'s `allow:` may acknowledge: {which}"))
            }
            Some(crate::diag::Severity::Error) => Diagnostic::error(
                "invalid-allow",
                format!("`{s}` is an error: only warnings can be acknowledged"),
                n.span,
            )
            .with_label("an error cannot be allowed")
            .with_help("correct the definition instead"),
            Some(crate::diag::Severity::Warning) => Diagnostic::error(
                "invalid-allow",
                format!("`{s}` is never reported about an {what}: an {what}'s `allow:` cannot acknowledge it"),
                n.span,
            )
            .with_label(format!("not a warning about an {what}"))
            .with_note(format!("an {what}'s `allow:` may acknowledge: {which}")),
        };
        self.push(d);
        None
    }

    fn constraint(&mut self, n: &Node) -> Option<RawConstraint> {
        let m = self.map(n, "constraint", CONSTRAINT_KEYS)?;
        let id = self.req(&m, "id", "constraint", |c, n| {
            c.name(n, "constraint id", is_generation_id, GENERATION_RULE)
        });
        let register = self.opt(&m, "register", |c, n| c.ident(n, "register name"));
        let mut when = Vec::new();
        if let Some(w) = m.get("when") {
            match &w.kind {
                Kind::Map(entries) if !entries.is_empty() => {
                    for (k, v) in entries {
                        let key = crate::load::yaml::Node {
                            span: k.span,
                            kind: Kind::Scalar(k.name.clone(), crate::load::yaml::Style::Quoted),
                        };
                        if let (Some(f), Some(val)) = (self.ident(&key, "field name"), self.uint(v))
                        {
                            when.push((f, val));
                        }
                    }
                }
                _ => self.push(
                    Diagnostic::error(
                        "type-mismatch",
                        "`when` maps field names to the values that trigger it",
                        w.span,
                    )
                    .with_help("for example `when: { INV: 1, CMASK: 0 }`"),
                ),
            }
        }
        let severity = self.opt(&m, "severity", |c, n| {
            c.keyword(n, "severity", SEVERITY_WORDS)
        });
        let message = self.opt(&m, "message", Self::text);
        let manual = self.opt(&m, "manual", Self::text);
        Some(RawConstraint {
            id: id?,
            register,
            when,
            severity,
            message,
            manual,
        })
    }

    fn remove(&mut self, n: &Node) -> Option<RawRemove> {
        let m = self.map(n, "remove", REMOVE_KEYS)?;
        let mut r = RawRemove::default();
        if let Some(v) = m.get("registers") {
            r.registers = self.names(v, "register name", is_ident, IDENT_RULE);
        }
        if let Some(v) = m.get("cpuid") {
            r.cpuid = self.names(v, "CPUID leaf name", is_ident, IDENT_RULE);
        }
        if let Some(v) = m.get("events") {
            r.events = self.names(v, "event name", is_event_name, EVENT_RULE);
        }
        if let Some(v) = m.get("constraints") {
            r.constraints = self.names(v, "constraint id", is_generation_id, GENERATION_RULE);
        }
        Some(r)
    }
}
