//! The identifier rule: every Rust name the code generator derives from a YAML name, in one
//! place, shared with the validator (`validate/names.rs`), so that a name the generated code
//! could not use is reported at its YAML line instead of failing to compile.
//!
//! Each function here gives the final name of one kind of item, *escaped*: a leading digit
//! gets a `_` in front, `self`, `Self`, `super` and `crate` (which cannot be raw identifiers)
//! get a `_` after them, and every other keyword of any edition is kept and written as a raw
//! identifier (`r#gen`, see [`is_raw`]). Two names are the same Rust name when these strings
//! are equal (`r#gen` and `gen` name the same item).
//!
//! The generator calls these functions; the validator computes the same names per Rust scope
//! (a module, the methods of a type, the variants of an enum) and reports a name that is no
//! identifier, a name the generated code already uses in that scope (the `RESERVED_*` tables:
//! its own items, the prelude and primitive names it writes unqualified, its local variables),
//! and two YAML names giving one Rust name.

use crate::model::{Access, Field, Register};

/// Keywords of every Rust edition (2015 to 2024), strict and reserved: none of them can be a
/// plain identifier in generated code.
pub const KEYWORDS: &[&str] = &[
    "Self", "abstract", "as", "async", "await", "become", "box", "break", "const", "continue",
    "crate", "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if",
    "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub",
    "ref", "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// The keywords that cannot be raw identifiers (`r#self` is an error): [`escape`] writes them
/// with a trailing `_`.
pub const NON_RAW_KEYWORDS: &[&str] = &["Self", "crate", "self", "super"];

/// True when `s` is a plain Rust identifier in every edition: ASCII letters, digits and `_`,
/// not starting with a digit, not `_` alone, and not a keyword.
pub fn is_ident(s: &str) -> bool {
    is_identifier(s) && !KEYWORDS.contains(&s)
}

/// True when `s` has the shape of an identifier (ASCII letters, digits and `_`, not starting
/// with a digit, not `_` alone); a keyword is one written raw (see [`is_raw`]).
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s != "_"
}

/// True when the escaped name `s` must be written as a raw identifier (`r#gen`): a keyword of
/// some edition that may be raw.
pub fn is_raw(s: &str) -> bool {
    KEYWORDS.contains(&s) && !NON_RAW_KEYWORDS.contains(&s)
}

/// The Rust name for a derived name: `_` before a leading digit, `_` after `self`, `Self`,
/// `super` and `crate`; other keywords unchanged (written raw, see [`is_raw`]). The result
/// may still be no identifier (empty, `_`); the validator reports those.
pub fn escape(s: &str) -> String {
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{s}")
    } else if NON_RAW_KEYWORDS.contains(&s) {
        format!("{s}_")
    } else {
        s.to_owned()
    }
}

/// A CamelCase type name from a YAML name, not escaped: `intel-v4` -> `IntelV4` (a
/// generation's marker type and `Generation` variant), `IA32_PMC` -> `Ia32Pmc` (a register's
/// alias type); a leading digit gets a `V`.
pub fn camel(s: &str) -> String {
    let mut out = String::new();
    for part in s.split(['_', '-']).filter(|p| !p.is_empty()) {
        let mut cs = part.chars();
        if let Some(c) = cs.next() {
            out.push(c.to_ascii_uppercase());
            out.extend(cs.map(|c| c.to_ascii_lowercase()));
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Generations
// ---------------------------------------------------------------------------------------------

/// The module path of a generation, each segment escaped: `intel-v3` -> `["intel", "v3"]`,
/// `amd-perfmon-v2` -> `["amd", "perfmon_v2"]`, `k7` -> `["k7"]`, `x-1` -> `["x", "_1"]`. The
/// first segment is the vendor module; an id ending in `-` gives an empty last segment (no
/// identifier: the validator reports it).
pub fn module_path(id: &str) -> Vec<String> {
    let snake = |s: &str| escape(&s.replace(['-', '.'], "_").to_ascii_lowercase());
    match id.split_once('-') {
        Some((vendor, rest)) => vec![snake(vendor), snake(rest)],
        None => vec![snake(id)],
    }
}

/// A generation's marker type (its `Arch` type and `Generation` variant): the id in
/// CamelCase (`intel-v4` -> `IntelV4`).
pub fn marker_type(id: &str) -> String {
    escape(&camel(id))
}

/// The module under each vendor that holds the register layouts several CPU-model
/// generations share (`intel::shared`): no generation's module may have this name.
pub const SHARED_MODULE: &str = "shared";

// ---------------------------------------------------------------------------------------------
// Registers and fields
// ---------------------------------------------------------------------------------------------

/// A register's module (`IA32_PERFEVTSEL`), also the name of its tock-registers marker type
/// inside that module.
pub fn register_module(name: &str) -> String {
    escape(name)
}

/// A register's value type alias beside its module: `IA32_PERFEVTSEL` -> `Ia32Perfevtsel`.
pub fn register_alias(name: &str) -> String {
    escape(&camel(name))
}

/// The element names of a field, not escaped: `EN_PMC0`, `EN_PMC1`, ... for an array, the
/// name for a plain field.
pub fn element_names(f: &Field) -> Vec<String> {
    match f.array {
        Some(a) => (0..a.count).map(|i| format!("{}{i}", f.name)).collect(),
        None => vec![f.name.clone()],
    }
}

/// Method stems that would name a method `Value` or `Builder` already has (or shadow a
/// trait method): such an element's stem gets a `_field` suffix (`NEW` -> `new_field()`).
pub const STEMS_WITH_SUFFIX: &[&str] = &[
    "eq",
    "ne",
    "cmp",
    "clone",
    "hash",
    "fmt",
    "into",
    "from",
    "default",
    "bits",
    "new",
    "build",
    "try_build",
    "to_local",
    "from_raw_read",
    "from_raw",
    "from_bits",
    "try_from_bits",
    "value",
    "track",
];

/// The method stem of a field element, not escaped: `EN_PMC3` -> `en_pmc3`, with `_field`
/// after a stem in [`STEMS_WITH_SUFFIX`] (`BITS` -> `bits_field`).
pub fn stem(element: &str) -> String {
    let mut stem = element.to_ascii_lowercase();
    if STEMS_WITH_SUFFIX.contains(&stem.as_str()) {
        stem.push_str("_field");
    }
    stem
}

/// The tock-registers field names of one element (constant and module in the register's
/// module), escaped: the element, or its parts `_LO`/`_HI` (two) or `_P<i>` (more) for a
/// split field of `parts` bit ranges.
pub fn tock_names(element: &str, parts: usize) -> Vec<String> {
    match parts {
        0 | 1 => vec![escape(element)],
        2 => vec![
            escape(&format!("{element}_LO")),
            escape(&format!("{element}_HI")),
        ],
        n => (0..n).map(|i| escape(&format!("{element}_P{i}"))).collect(),
    }
}

/// The enum of a field's named values in the register's module: `EVENT_SELECT` ->
/// `EventSelect`.
pub fn value_enum(field: &str) -> String {
    escape(&camel(field))
}

/// A variant of a value enum: `ANY_THREAD` -> `AnyThread`.
pub fn value_variant(value: &str) -> String {
    escape(&camel(value))
}

/// True when software may write field `f` of `r`.
pub fn writable(r: &Register, f: &Field) -> bool {
    r.access.writable() && f.access.writable()
}

/// For write-1-to-clear/-set fields: the verb of their setter and the name prefixes it
/// replaces (`CLR_OVF_PMC0` -> `clear_ovf_pmc0`).
pub fn w1_verb(f: &Field) -> Option<(&'static str, &'static [&'static str])> {
    match f.access {
        Access::WriteOneToClear => Some(("clear", &["CLR_", "CLEAR_"])),
        Access::WriteOneToSet => Some(("set", &["SET_"])),
        _ => None,
    }
}

/// What one generated getter of a CPUID output register does (a register's fields are read
/// and written through their marker types and the generic `pmu_regs::reg::Value`, no method
/// per field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `version()`: the field's value.
    Getter,
    /// `version_value()`: the named value, for a field with values.
    EnumGetter,
}

impl Method {
    /// What the method is, for messages.
    pub fn role(self) -> &'static str {
        match self {
            Method::Getter => "getter",
            Method::EnumGetter => "named-value getter",
        }
    }
}

/// The marker types a field gives its register's module: one per element (`EN_PMC0`,
/// `EN_PMC1`, ... for an array, the name for a plain field), and the array's own (`EN_PMC`),
/// for `get_at` / `try_with_at`. Not escaped.
pub fn field_markers(f: &Field) -> Vec<String> {
    let mut out = element_names(f);
    if f.array.is_some() {
        out.push(f.name.clone());
    }
    out
}

// ---------------------------------------------------------------------------------------------
// CPUID and events
// ---------------------------------------------------------------------------------------------

/// A CPUID leaf's module inside the generation's `cpuid` module.
pub fn cpuid_leaf_module(name: &str) -> String {
    escape(name)
}

/// The value type of a CPUID output register: `eax` -> `Eax`.
pub fn cpuid_register_type(register: &str) -> String {
    camel(register)
}

/// The enum of a CPUID field's named values: `EaxVersion`.
pub fn cpuid_value_enum(register: &str, field: &str) -> String {
    escape(&format!("{}{}", camel(register), camel(field)))
}

/// The getters of a CPUID field element (the element's stem, and `<stem>_value` for a field
/// with named values).
pub fn cpuid_getters(f: &Field, element: &str) -> Vec<(Method, String)> {
    let stem = stem(element);
    let mut out = vec![(Method::Getter, escape(&stem))];
    if !f.values.is_empty() {
        out.push((Method::EnumGetter, format!("{stem}_value")));
    }
    out
}

/// `BR_INST_RETIRED.ALL_BRANCHES` -> `BrInstRetired_AllBranches`: the variant of an event in
/// `ArchEvent` or a model's `Event`. Each `.`-separated part in CamelCase, parts joined by `_`
/// (so `RS.EMPTY_COUNT` and `RS_EMPTY.COUNT` stay distinct); inside a part an underscore
/// stays between two digits (`PORT_2_3` -> `Port2_3`); escaped.
pub fn event_variant(name: &str) -> String {
    let mut parts = Vec::new();
    for part in name.split('.') {
        let mut out = String::new();
        for word in part
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            let starts_digit = word.starts_with(|c: char| c.is_ascii_digit());
            if starts_digit && out.ends_with(|c: char| c.is_ascii_digit()) {
                out.push('_');
            }
            let mut chars = word.chars();
            if let Some(c) = chars.next() {
                out.push(c.to_ascii_uppercase());
                out.extend(chars.map(|c| c.to_ascii_lowercase()));
            }
        }
        if !out.is_empty() {
            parts.push(out);
        }
    }
    let mut out = parts.join("_");
    if out.starts_with(|c: char| c.is_ascii_digit()) || out.is_empty() {
        out.insert(0, 'E');
    }
    escape(&out)
}

// ---------------------------------------------------------------------------------------------
// Names the generated code already uses, by scope
// ---------------------------------------------------------------------------------------------

/// The two Rust namespaces items can clash in (macros aside): types and modules, and values
/// (functions, constants, statics, unit and tuple struct constructors, local variables).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ns {
    /// Types, traits and modules.
    Type,
    /// Functions, constants, statics, constructors and local variables.
    Value,
}

/// Type namespace only.
pub const TYPE: &[Ns] = &[Ns::Type];
/// Value namespace only.
pub const VALUE: &[Ns] = &[Ns::Value];
/// Both: a unit or tuple struct, a tock-registers field (a constant and a module).
pub const BOTH: &[Ns] = &[Ns::Type, Ns::Value];

/// A name the generated code already uses in a scope: the name, its namespaces, and what it
/// is (for messages).
pub type Reserved = (&'static str, &'static [Ns], &'static str);

/// The primitive types: a module or type of this name would shadow them where the generated
/// code names them (`u64`, `bool`, `str`).
pub const PRIMITIVES: &[&str] = &[
    "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
    "i128", "isize", "f32", "f64",
];

/// Prelude names the generated code writes unqualified.
pub const PRELUDE: &[Reserved] = &[
    ("Option", TYPE, "the prelude's `Option`"),
    ("Result", TYPE, "the prelude's `Result`"),
    ("Default", TYPE, "the prelude's `Default`"),
    ("From", TYPE, "the prelude's `From`"),
    ("Some", VALUE, "the prelude's `Some`"),
    ("None", VALUE, "the prelude's `None`"),
    ("Ok", VALUE, "the prelude's `Ok`"),
    ("Err", VALUE, "the prelude's `Err`"),
];

/// The crate root of `pmu-regs`, where the vendor modules and the modules of generations
/// without a vendor are generated (`pub use generated::*`): its own items and the crates its
/// code names. `tests/tests/codegen.rs` checks this list against `pmu-regs/src/lib.rs`.
pub const RESERVED_CRATE_ROOT: &[Reserved] = &[
    ("access", TYPE, "the module `pmu_regs::access`"),
    ("arch", TYPE, "the module `pmu_regs::arch`"),
    ("backend", TYPE, "the module `pmu_regs::backend`"),
    ("detect", TYPE, "the module `pmu_regs::detect`"),
    ("event", TYPE, "the module `pmu_regs::event`"),
    ("field", TYPE, "the module of the generic field access"),
    ("place", TYPE, "the module placing an event on a counter"),
    (
        "perf",
        TYPE,
        "the module `pmu_regs::perf` (events to perf configs)",
    ),
    (
        "lookup",
        TYPE,
        "the module of the generated name tables' reader",
    ),
    ("pmu", TYPE, "the module `pmu_regs::pmu`"),
    (
        "guest",
        TYPE,
        "the module `pmu_regs::guest` (a guest's PMU)",
    ),
    (
        "schedule",
        TYPE,
        "the module `pmu_regs::schedule` (events to counters)",
    ),
    (
        "reg",
        TYPE,
        "the module `pmu_regs::reg` (the one register API)",
    ),
    ("generated", TYPE, "the module of the generated code"),
    ("fmt", TYPE, "`core::fmt`"),
    (
        "tock_registers",
        TYPE,
        "the re-exported `tock_registers` crate",
    ),
    ("core", TYPE, "the `core` crate"),
    ("alloc", TYPE, "the `alloc` crate"),
    ("std", TYPE, "the `std` crate"),
    (SHARED_MODULE, TYPE, "the register layouts CPU models share"),
];

/// A vendor's module (`intel`): its generations' modules and the shared layouts.
pub const RESERVED_VENDOR: &[Reserved] = &[(
    SHARED_MODULE,
    TYPE,
    "the register layouts generations share",
)];

/// The marker types of the generations, which `pmu-regs` re-exports beside its `Generation`
/// enum (`pmu_regs::arch`).
pub const RESERVED_MARKERS: &[Reserved] = &[
    ("Generation", TYPE, "the `Generation` enum"),
    (
        "ModelsWithEvent",
        TYPE,
        "the iterator of `Generation::models_with_event`",
    ),
    ("MODELS", VALUE, "the model generations with event tables"),
    (
        "__all_models",
        TYPE,
        "the table of every model's event names",
    ),
    (
        "V",
        TYPE,
        "the visitor type parameter of `Generation::visit`",
    ),
    ("Option", TYPE, "the prelude's `Option`"),
    ("CpuName", TYPE, "`arch::CpuName` (a CPU's name)"),
    ("CpuNameTarget", TYPE, "`arch::CpuNameTarget`"),
    (
        "CpuQuery",
        TYPE,
        "`arch::CpuQuery` (how `find_cpu` read a query)",
    ),
    ("FoundCpu", TYPE, "`arch::FoundCpu` (what `find_cpu` found)"),
    (
        "CountFrom",
        TYPE,
        "`arch::CountFrom` (a family's `count-from:`)",
    ),
    (
        "CountForm",
        TYPE,
        "`arch::CountForm` (how `count-from:` counts)",
    ),
];

/// A generation's module: what the generator puts beside the registers.
pub const RESERVED_GENERATION: &[Reserved] = &[
    ("ArchEvent", TYPE, "the architectural events"),
    ("events", TYPE, "the model's event table"),
    ("cpuid", TYPE, "the CPUID leaves"),
];

/// A register's module: its items, and the local variables and parameters of its code.
pub const RESERVED_REGISTER: &[Reserved] = &[
    ("Register", TYPE, "the register's marker type alias"),
    ("Value", BOTH, "the value type"),
    ("Builder", TYPE, "the builder type"),
    ("Instance", BOTH, "the typed MSR type"),
    (
        "Field",
        TYPE,
        "the imported `tock_registers::fields::Field`",
    ),
    (
        "field",
        TYPE,
        "the imported field data (`pmu_regs::__private::field`: `Info`, `Run`, `Access`)",
    ),
    ("ADDRESS", VALUE, "the MSR address"),
    ("BASE_ADDRESS", VALUE, "the address of instance 0"),
    ("INSTANCES", VALUE, "the number of instances"),
    ("ADDRESS_STRIDE", VALUE, "the address step"),
    ("ADDRESSES", VALUE, "the addresses of the family"),
    ("MSR", VALUE, "the typed MSR constant"),
    ("address", VALUE, "`address::<N>()`"),
    ("try_address", VALUE, "`try_address(index)`"),
    ("msr", VALUE, "`msr::<N>()`"),
    ("try_msr", VALUE, "`try_msr(index)`"),
    (
        "ALIAS_ADDRESS",
        VALUE,
        "the alias MSR address (`alias-msr:`)",
    ),
    (
        "ALIAS_BASE_ADDRESS",
        VALUE,
        "the alias address of instance 0",
    ),
    ("ALIAS_ADDRESS_STRIDE", VALUE, "the alias address step"),
    (
        "ALIAS_ADDRESSES",
        VALUE,
        "the alias addresses of the family",
    ),
    (
        "ALIAS_MSR",
        VALUE,
        "the typed MSR constant at the alias address",
    ),
    ("alias_address", VALUE, "`alias_address::<N>()`"),
    ("try_alias_address", VALUE, "`try_alias_address(index)`"),
    ("alias_msr", VALUE, "`alias_msr::<N>()`"),
    ("try_alias_msr", VALUE, "`try_alias_msr(index)`"),
    (
        "AliasIndexed",
        TYPE,
        "the typed MSR of instance `N` at its alias address",
    ),
    ("event_on", VALUE, "`event_on::<N>()`"),
    ("try_event_on", VALUE, "`try_event_on(counter, event)`"),
    ("event_on_raw", VALUE, "`event_on_raw::<N>(&desc)`"),
    (
        "try_event_on_raw",
        VALUE,
        "`try_event_on_raw(counter, &desc)`",
    ),
    ("Countable", TYPE, "the events types `event_on` takes"),
    ("Indexed", TYPE, "the typed MSR of instance `N`"),
    ("Placed", TYPE, "a value placed on instance `N`"),
    (
        "PlacedAt",
        TYPE,
        "a value placed on an instance at run time",
    ),
    ("P", TYPE, "the placement parameter of `Builder`"),
    (
        "N",
        TYPE,
        "the const parameter of `address::<N>()`, `msr::<N>()`, `event_on::<N>()`",
    ),
    ("FIELDS", VALUE, "the table of the register's fields"),
    ("a", VALUE, "a local variable"),
    ("bits", VALUE, "a parameter"),
    ("counter", VALUE, "a parameter"),
    ("event", VALUE, "a parameter"),
    ("index", VALUE, "a parameter"),
    ("m", VALUE, "a parameter"),
    ("placed", VALUE, "a local variable"),
    (
        "v",
        VALUE,
        "the parameter of a value enum's `from_value(v)` (a pattern: a constant `v` would be matched)",
    ),
];

/// The variants of `ArchEvent` and of a model's `Event`: their `FromStr` impl names
/// `Self::Err`, which a variant `Err` makes ambiguous.
pub const RESERVED_EVENT_VARIANTS: &[Reserved] =
    &[("Err", VALUE, "the error type of `FromStr` (`Self::Err`)")];

/// A CPUID leaf's module.
pub const RESERVED_CPUID_LEAF: &[Reserved] = &[
    ("LEAF", VALUE, "the leaf number"),
    ("field", TYPE, "the generic field code the getters call"),
    ("SUBLEAF", VALUE, "the subleaf number"),
    ("Leaf", TYPE, "the leaf's value type"),
    ("Eax", BOTH, "the EAX value type"),
    ("Ebx", BOTH, "the EBX value type"),
    ("Ecx", BOTH, "the ECX value type"),
    ("Edx", BOTH, "the EDX value type"),
];

/// The methods of a CPUID output register's value type besides the fields'.
pub const RESERVED_CPUID_METHODS: &[Reserved] = &[
    ("from_raw", VALUE, "`from_raw(bits)`"),
    ("bits", VALUE, "`bits()`"),
    ("RESERVED_MASK", VALUE, "`RESERVED_MASK`"),
    (
        "FIELDS",
        VALUE,
        "`FIELDS`, the table of the register's fields",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants() {
        let cases = [
            ("BR_INST_RETIRED.ALL_BRANCHES", "BrInstRetired_AllBranches"),
            ("UOPS_DISPATCHED.PORT_2_3", "UopsDispatched_Port2_3"),
            ("UOPS_DISPATCHED.PORT_23", "UopsDispatched_Port23"),
            ("RS.EMPTY_COUNT", "Rs_EmptyCount"),
            ("RS_EMPTY.COUNT", "RsEmpty_Count"),
            ("OCR.X:c=1", "Ocr_XC1"),
            ("1ST", "E1st"),
            ("SELF", "Self_"),
            ("EV_B.SUB", "EvB_Sub"),
        ];
        for (name, want) in cases {
            assert_eq!(event_variant(name), want, "{name}");
        }
    }

    #[test]
    fn escapes() {
        assert_eq!(escape("gen"), "gen");
        assert!(is_raw("gen") && is_raw("async") && !is_raw("self_") && !is_raw("Self"));
        assert_eq!(escape("self"), "self_");
        assert_eq!(escape("Self"), "Self_");
        assert_eq!(escape("1x"), "_1x");
        assert_eq!(module_path("x-1"), ["x", "_1"]);
        assert_eq!(module_path("x-gen"), ["x", "gen"]);
        assert_eq!(module_path("self-x"), ["self_", "x"]);
        assert_eq!(module_path("x-"), ["x", ""]);
        assert_eq!(marker_type("self"), "Self_");
        assert_eq!(register_alias("Self"), "Self_");
        assert!(is_identifier("r") && !is_identifier("_") && !is_identifier(""));
    }

    #[test]
    fn tock() {
        assert_eq!(tock_names("EV", 2), ["EV_LO", "EV_HI"]);
        assert_eq!(tock_names("EV", 3), ["EV_P0", "EV_P1", "EV_P2"]);
        assert_eq!(tock_names("Self", 1), ["Self_"]);
        assert_eq!(stem("NEW"), "new_field");
        assert_eq!(stem("EN_PMC3"), "en_pmc3");
    }
}
