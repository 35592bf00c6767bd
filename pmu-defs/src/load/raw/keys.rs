//! What the schema allows: the keys of every mapping, the limits on numbers, and the YAML words
//! of the shared vocabulary ([`crate::vocab`]) with the value each stands for.

use super::*;

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
    "generic-events",
];
/// Keys of `generic-events:`.
pub const GENERIC_EVENTS_KEYS: &[&str] = &["manual", "events"];
/// Keys of `generic-events.events:`: perf's generic event names, in `PERF_COUNT_HW_*` order.
pub const GENERIC_EVENT_KEYS: [&str; GenericEvent::ALL.len()] = {
    let mut names = [""; GenericEvent::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = GenericEvent::ALL[i].name();
        i += 1;
    }
    names
};
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
    "requires",
    "count-from",
    "fields",
    "remove-fields",
];
/// Keys of a register's `count-from:`.
pub const COUNT_FROM_KEYS: &[&str] = &["leaf", "register", "field", "as"];
/// `count-from.as`: how the CPUID field gives the number of instances.
pub const COUNT_FORM_WORDS: &[(&str, CountForm)] = &[
    ("count", CountForm::Count),
    ("depth-bitmap", CountForm::DepthBitmap),
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
/// Keys of an event entry before its flags.
const EVENT_KEYS_BEFORE_FLAGS: &[&str] = &[
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
];
/// Keys of an event entry after its flags.
const EVENT_KEYS_AFTER_FLAGS: &[&str] = &["errata", "sample-after", "doc", "allow"];
/// Keys of an event entry: its codes, counters and MSR, the flags of
/// [`crate::vocab::EVENT_FLAGS`], then errata, period, doc and acknowledged warnings.
pub const EVENT_KEYS: &[&str] = &EVENT_KEY_ARRAY;
const EVENT_KEY_ARRAY: [&str;
    EVENT_KEYS_BEFORE_FLAGS.len() + crate::vocab::EVENT_FLAGS.len() + EVENT_KEYS_AFTER_FLAGS.len()] = {
    let mut out = [""; EVENT_KEYS_BEFORE_FLAGS.len()
        + crate::vocab::EVENT_FLAGS.len()
        + EVENT_KEYS_AFTER_FLAGS.len()];
    let mut i = 0;
    let mut j = 0;
    while j < EVENT_KEYS_BEFORE_FLAGS.len() {
        out[i] = EVENT_KEYS_BEFORE_FLAGS[j];
        i += 1;
        j += 1;
    }
    j = 0;
    while j < crate::vocab::EVENT_FLAGS.len() {
        out[i] = crate::vocab::EVENT_FLAGS[j].key;
        i += 1;
        j += 1;
    }
    j = 0;
    while j < EVENT_KEYS_AFTER_FLAGS.len() {
        out[i] = EVENT_KEYS_AFTER_FLAGS[j];
        i += 1;
        j += 1;
    }
    out
};

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
pub const REMOVE_KEYS: &[&str] = &[
    "registers",
    "cpuid",
    "events",
    "constraints",
    "generic-events",
];

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
