//! A JSON Schema (draft-07) of the definition YAML, for editors: completion, hover
//! documentation and on-the-fly checks while a vendor writes a generation file.
//!
//! `cargo xtask schema` writes it to [`SCHEMA_PATH`]; every definition file names it in a
//! `# yaml-language-server: $schema=…` modeline, which the YAML language server (VS Code,
//! Neovim, Helix, Zed, …) and JetBrains IDEs follow.
//!
//! The schema is built from the same key lists and limits the loader reads with
//! ([`crate::load::raw`]'s `*_KEYS`, `*_WORDS` and `*_MAX` constants), so it cannot offer a key the
//! loader refuses or miss one it takes. It checks what one file can show on its own: keys, value
//! shapes, name spelling, keywords, ranges and required keys. It is deliberately never stricter
//! than the loader, so an editor never flags a file `cargo xtask validate` accepts; the other way
//! round, only the loader sees:
//!
//! - what crosses files or entries: `extends` chains, overridden entries that must exist in the
//!   parent, field overlaps, counters that exist, constraint fields, duplicate names;
//! - quoting: a JSON Schema sees values after YAML has typed them, so it cannot tell `"0x10"`
//!   (a string, refused by the loader) from `0x10`, nor a quoted `'yes'` (a valid name) from a
//!   plain `yes` (a YAML 1.1 boolean, refused);
//! - the value of a number written in a form YAML 1.2 leaves a string (`0b1010`, `0x_FF`,
//!   `1_000`): its spelling is checked, its range only by the loader.

use crate::load::de::{EVENT_RULE, GENERATION_RULE, IDENT_RULE, PERFMON_CORE_RULE};
use crate::load::raw::{
    self, ACCESS_WORDS, COUNTER_KIND_WORDS, FIELD_ROLE_WORDS, REGISTER_ROLE_WORDS, SEVERITY_WORDS,
    VENDOR_WORDS,
};
use serde_json::{Map, Value, json};

/// Where `cargo xtask schema` writes the schema, relative to the workspace root.
pub const SCHEMA_PATH: &str = "pmu-defs/schema/generation.schema.json";

/// The modeline that points a definition file at the schema, for a file at `file`, a path
/// relative to the workspace root (`pmu-defs/defs/intel/v1.yaml`).
///
/// ```
/// assert_eq!(
///     pmu_defs::schema::modeline("pmu-defs/defs/intel/models/skylake.yaml"),
///     "# yaml-language-server: $schema=../../../schema/generation.schema.json",
/// );
/// ```
pub fn modeline(file: &str) -> String {
    format!("{MODELINE_PREFIX}{}", relative_schema_path(file))
}

/// What every modeline starts with.
pub const MODELINE_PREFIX: &str = "# yaml-language-server: $schema=";

/// [`SCHEMA_PATH`] relative to the directory of `file` (both relative to the workspace root).
pub fn relative_schema_path(file: &str) -> String {
    let dir: Vec<&str> = file.split('/').collect();
    let dir = &dir[..dir.len().saturating_sub(1)];
    let target: Vec<&str> = SCHEMA_PATH.split('/').collect();
    let common = dir.iter().zip(&target).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = vec![".."; dir.len() - common];
    parts.extend(&target[common..]);
    parts.join("/")
}

/// The schema as pretty-printed JSON with sorted keys and a trailing newline: the exact bytes
/// of the checked-in file.
pub fn render() -> String {
    let mut v = schema();
    v.sort_all_objects();
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}

/// The mappings of the format: each schema definition with the loader's key list for it.
/// The property names of each definition in [`schema`] are exactly these keys.
pub const MAPPINGS: &[(&str, &[&str])] = &[
    ("generation", raw::TOP_KEYS),
    ("cpu", raw::CPU_KEYS),
    ("detect", raw::DETECT_KEYS),
    ("pmu", raw::PMU_KEYS),
    ("pmu-encoding", raw::ENCODING_KEYS),
    ("register", raw::REGISTER_KEYS),
    ("msr-family", raw::MSR_FAMILY_KEYS),
    ("field", raw::FIELD_KEYS),
    ("field-array", raw::ARRAY_KEYS),
    ("value", raw::VALUE_KEYS),
    ("deprecation", raw::DEPRECATION_KEYS),
    ("cpuid-leaf", raw::CPUID_KEYS),
    ("event", raw::EVENT_KEYS),
    ("counter-set-map", raw::COUNTER_SET_KEYS),
    ("event-msr", raw::EVENT_MSR_KEYS),
    ("allow", raw::ALLOW_KEYS),
    ("constraint", raw::CONSTRAINT_KEYS),
    ("remove", raw::REMOVE_KEYS),
];

/// A regular expression for every spelling [`crate::load::de::parse_uint`] accepts (checked against it by
/// `tests/tests/json_schema.rs`): decimal, `0x` hex,
/// `0b` binary, `_` between digits.
const UINT_RE: &str = "(0[xX][0-9A-Fa-f](_*[0-9A-Fa-f])*|0[bB][01](_*[01])*|[0-9](_*[0-9])*)";

/// What an editor says when a number's spelling is wrong (`patternErrorMessage`, read by the
/// YAML language server; other validators ignore the keyword and print the pattern).
const NUMBER_MESSAGE: &str =
    "A number: decimal, 0x hex or 0b binary, with `_` only between digits.";

/// The anchored pattern of a number written as text.
pub fn uint_pattern() -> String {
    format!("^{UINT_RE}$")
}

fn desc(d: &str) -> Value {
    json!({ "description": d })
}

/// Merges `extra` (an object) into `base` (an object).
fn with(mut base: Value, extra: Value) -> Value {
    if let (Some(b), Value::Object(e)) = (base.as_object_mut(), extra) {
        b.extend(e);
    }
    base
}

/// An unsigned number, at most `max` when written as a YAML integer. One schema with both
/// types rather than an `anyOf`, so a validator names the broken bound ("65 is greater than
/// the maximum of 64") instead of "not valid under any of the schemas": `minimum`/`maximum`
/// apply only to numbers and `pattern` only to strings.
fn uint(max: Option<u64>, min: u64, description: &str) -> Value {
    let mut v = json!({
        "type": ["integer", "string"],
        "minimum": min,
        "pattern": uint_pattern(),
        "patternErrorMessage": NUMBER_MESSAGE,
        "description": description,
    });
    if let Some(max) = max {
        v["maximum"] = json!(max);
    }
    v
}

/// One number or a non-empty list of them (the first is the main one).
///
/// Like [`uint`], one schema whose keywords each apply to one type (`items` to the list), so
/// errors name the broken rule.
fn one_or_more(max: Option<u64>, description: &str) -> Value {
    let one = uint(max, 0, "a number");
    let mut v = one.clone();
    v["type"] = json!(["integer", "string", "array"]);
    v["minItems"] = json!(1);
    v["items"] = one;
    v["description"] = json!(description);
    v
}

/// A mapping definition used as one of several shapes: its object keywords without
/// `"type": "object"`, so `allOf: [{ $ref }]` applies it to mappings only.
///
/// Its description becomes a `$comment`: editors (yaml-language-server) show the first
/// description among the subschemas matching a value, innermost first, so a description here
/// would hide the property's own on hover (`tests/tests/editor_lsp.rs` checks every key).
fn object_keywords_only(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.remove("type");
        if let Some(d) = o.remove("description") {
            o.insert("$comment".to_owned(), d);
        }
    }
    v
}

fn boolean(description: &str) -> Value {
    with(json!({ "type": "boolean" }), desc(description))
}

/// Any scalar, read as text (the loader takes `title: 2024` as the text "2024").
fn text(description: &str) -> Value {
    with(
        json!({ "type": ["string", "number", "boolean", "null"] }),
        desc(description),
    )
}

fn name_ref(def: &str, description: &str) -> Value {
    with(
        json!({ "$ref": format!("#/definitions/{def}") }),
        desc(description),
    )
}

fn list_of(def: &str, description: &str) -> Value {
    with(
        json!({ "type": "array", "items": { "$ref": format!("#/definitions/{def}") } }),
        desc(description),
    )
}

fn keyword<T>(table: &[(&str, T)], description: &str) -> Value {
    let words: Vec<&str> = table.iter().map(|(w, _)| *w).collect();
    with(json!({ "enum": words }), desc(description))
}

/// A mapping whose properties are `props`, closed to other keys.
fn object(description: &str, props: Vec<(&str, Value)>, required: &[&str]) -> Value {
    let mut properties = Map::new();
    for (k, v) in props {
        properties.insert(k.to_owned(), v);
    }
    let mut o = json!({
        "type": "object",
        "description": description,
        "properties": properties,
        "additionalProperties": false,
    });
    if !required.is_empty() {
        o["required"] = json!(required);
    }
    o
}

/// The definitions of the schema, by name, in the order they are written.
#[derive(Default)]
struct Defs(Map<String, Value>);

impl Defs {
    fn def(&mut self, name: &str, v: Value) {
        self.0.insert(name.to_owned(), v);
    }
}

/// The schema as a JSON value.
pub fn schema() -> Value {
    let mut d = Defs::default();
    names(&mut d);
    top_level(&mut d);
    detect(&mut d);
    pmu(&mut d);
    registers(&mut d);
    cpuid(&mut d);
    events(&mut d);
    constraints(&mut d);
    let mut root = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$comment": "Generated by `cargo xtask schema` from pmu-defs/src/schema.rs. Do not edit: \
            change the generator and run `cargo xtask schema`; `cargo xtask schema --check` fails \
            when this file is stale.",
        "title": "pmu-regs generation definition",
        "$ref": "#/definitions/generation",
    });
    root["definitions"] = Value::Object(d.0);
    root
}

/// Names: identifiers, generation ids, event names.
fn names(d: &mut Defs) {
    d.def(
        "ident",
        json!({
            "type": "string",
            "pattern": "^[A-Za-z][A-Za-z0-9_]*$",
            "patternErrorMessage": format!("A name {IDENT_RULE}."),
            "description": format!("A register, field, value or CPUID leaf name: {IDENT_RULE}."),
        }),
    );
    d.def(
        "generation-id",
        json!({
            "type": "string",
            "pattern": "^[a-z][a-z0-9-]*$",
            "patternErrorMessage": format!("A generation id {GENERATION_RULE}."),
            "description": format!("A generation id such as `intel-v4`: {GENERATION_RULE}."),
        }),
    );
    d.def(
        "event-name",
        json!({
            "type": "string",
            "pattern": "^[A-Za-z][A-Za-z0-9_.:=]*$",
            "patternErrorMessage": format!("An event name {EVENT_RULE}."),
            "description": format!("An event name as the vendor spells it: {EVENT_RULE}."),
        }),
    );
}

/// The generation document itself.
fn top_level(d: &mut Defs) {
    d.def(
        "generation",
        with(
            object(
                "One generation of performance-monitoring hardware. It stands alone (`vendor:` \
                 required) or `extends:` another, whose entries it then overrides by name.",
                vec![
                    (
                        "generation",
                        name_ref(
                            "generation-id",
                            "The generation's id (`intel-v3`, `amd-core`).",
                        ),
                    ),
                    (
                        "vendor",
                        keyword(
                            VENDOR_WORDS,
                            "The vendor. Required unless the generation `extends:` another.",
                        ),
                    ),
                    ("title", text("A one-line name.")),
                    (
                        "manual",
                        text("The manual section that defines it (`Intel SDM Vol. 3B §18.2.2`)."),
                    ),
                    ("doc", text("Prose documentation (Markdown).")),
                    (
                        "extends",
                        name_ref(
                            "generation-id",
                            "The parent generation: its registers, CPUID leaves, events and \
                             constraints are inherited; entries here with the same name change \
                             only the keys they give.",
                        ),
                    ),
                    (
                        "pmu",
                        name_ref(
                            "pmu",
                            "Which registers form the counters and how events encode into the \
                             event-select register.",
                        ),
                    ),
                    (
                        "registers",
                        list_of("register", "Model-specific registers (MSRs)."),
                    ),
                    (
                        "cpuid",
                        list_of("cpuid-leaf", "CPUID leaves and their output fields."),
                    ),
                    (
                        "events",
                        list_of("event", "Events: codes, unit masks and counters."),
                    ),
                    (
                        "constraints",
                        list_of(
                            "constraint",
                            "Field combinations of one register that are invalid or suspect.",
                        ),
                    ),
                    (
                        "remove",
                        name_ref("remove", "Entries of the parent this generation drops."),
                    ),
                    (
                        "source",
                        text(
                            "Where the generation's facts come from, e.g. the Intel perfmon \
                             file (not inherited).",
                        ),
                    ),
                    (
                        "perfmon-cores",
                        with(
                            json!({
                                "type": "array",
                                "minItems": 1,
                                "items": {
                                    "type": "string",
                                    "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]*$",
                                    "patternErrorMessage": format!("A perfmon core list that {PERFMON_CORE_RULE}."),
                                }
                            }),
                            desc(
                                "The Intel perfmon core event lists (file names without `.json`, \
                                 e.g. `skylake_core`) whose imported CPU-model generation extends \
                                 this one: how a hand-written generation adds the model-specific \
                                 registers of a microarchitecture (LBR stacks, ...) under the \
                                 imported models. Each list at most once in all definitions. Not \
                                 inherited.",
                            ),
                        ),
                    ),
                    (
                        "cpus",
                        with(
                            json!({
                                "type": "array",
                                "minItems": 1,
                                "items": { "$ref": "#/definitions/cpu" }
                            }),
                            desc(
                                "The CPU models this generation describes (a core model); leave \
                                 it out for an architecture. Not inherited.",
                            ),
                        ),
                    ),
                    (
                        "detect",
                        name_ref(
                            "detect",
                            "How the run-time layer recognises this generation: a CPUID field \
                             at least some value and/or a minimum CPU family. The deepest \
                             generation of the CPU's vendor whose condition holds is chosen. \
                             Not inherited.",
                        ),
                    ),
                ],
                &["generation"],
            ),
            json!({
                "if": { "not": { "required": ["extends"] } },
                "then": { "required": ["vendor"] }
            }),
        ),
    );
    d.def(
        "cpu",
        object(
            "A CPU model (and on hybrid parts a core type), as Intel's perfmon mapfile.csv names it.",
            vec![
                (
                    "family-model",
                    json!({
                        "type": "string",
                        "pattern": "^[A-Za-z0-9]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+(-([0-9A-Fa-f]+|\\[[0-9A-Fa-f]+\\]))?$",
                        "patternErrorMessage": "Vendor-family-model, family and model in hex, as \
                            mapfile.csv writes it: `GenuineIntel-6-4E`.",
                        "description": "CPUID vendor string, family and model in hex, optionally a \
                            stepping or a set of them: `GenuineIntel-6-4E`, `GenuineIntel-6-55-[01234]`.",
                        "examples": ["GenuineIntel-6-4E", "GenuineIntel-6-55-[01234]"],
                    }),
                ),
                (
                    "version",
                    text("The version of the event list for this CPU (`V59`)."),
                ),
                (
                    "core-type",
                    uint(
                        Some(raw::CORE_TYPE_MAX),
                        0,
                        "Hybrid parts: the core type, CPUID.1AH:EAX[31:24] (`0x20` Atom, `0x40` Core).",
                    ),
                ),
                (
                    "native-model-id",
                    uint(
                        Some(raw::NATIVE_MODEL_ID_MAX),
                        0,
                        "Hybrid parts: the native model id, CPUID.1AH:EAX[23:0].",
                    ),
                ),
                (
                    "core-role",
                    text("Intel's name for the core's role (`Atom`, `Core`, `LowPower_Atom`)."),
                ),
            ],
            &["family-model"],
        ),
    );
}

/// `detect:`: run-time detection conditions.
fn detect(d: &mut Defs) {
    d.def(
        "detect",
        object(
            "A run-time detection condition.",
            vec![
                (
                    "leaf",
                    name_ref("ident", "A CPUID leaf of the generation, by name."),
                ),
                (
                    "register",
                    keyword(raw::CPUID_REG_WORDS, "The leaf's output register."),
                ),
                ("field", name_ref("ident", "A field of that register.")),
                (
                    "at-least",
                    uint(Some(u32::MAX as u64), 0, "The field's minimum value."),
                ),
                (
                    "family-at-least",
                    uint(
                        Some(0x10E),
                        0,
                        "The minimum CPU family (extended family included).",
                    ),
                ),
            ],
            &[],
        ),
    );
}

/// `pmu:`: the roles of registers and fields.
fn pmu(d: &mut Defs) {
    d.def(
        "pmu",
        object(
            "How events encode into the event-select register (the counter sets themselves are the registers with the `counter`, `event-select`, `fixed-counter` and `fixed-control` roles).",
            vec![(
                "encoding",
                name_ref(
                    "pmu-encoding",
                    "Event attribute → the field of the select register that holds it.",
                ),
            )],
            &[],
        ),
    );
    let encoding_doc = |k: &str| -> &'static str {
        match k {
            "event" => "The field holding the event select code.",
            "umask" => "The field holding the unit mask.",
            "umask2" => "The field holding the second unit mask (Intel v6).",
            "eq" => "The field holding the equal-compare flag (Intel v6).",
            "cmask" => "The field holding the counter mask.",
            "inv" => "The field holding the invert flag.",
            "edge" => "The field holding the edge-detect flag.",
            "any" => "The field holding AnyThread.",
            "usr" => "The field that counts in user mode.",
            "os" => "The field that counts in kernel mode.",
            "int" => "The field that raises an interrupt on overflow.",
            "en" => "The field that enables the counter.",
            _ => "The field holding this attribute.",
        }
    };
    d.def(
        "pmu-encoding",
        object(
            "Event attribute → the field of the select register that holds it.",
            raw::ENCODING_KEYS
                .iter()
                .map(|k| (*k, name_ref("ident", encoding_doc(k))))
                .collect(),
            &[],
        ),
    );
}

/// Registers, fields, values and addresses.
fn registers(d: &mut Defs) {
    d.def(
        "register",
        object(
            "A model-specific register. Reserved bits are never listed: they are the bits no \
             field covers.",
            vec![
                (
                    "name",
                    name_ref("ident", "The register's name (`IA32_PERFEVTSEL`)."),
                ),
                (
                    "renames",
                    name_ref(
                        "ident",
                        "The parent's register this one continues under a new name.",
                    ),
                ),
                ("doc", text("Prose documentation (Markdown).")),
                ("manual", text("The manual section that defines it.")),
                (
                    "msr",
                    with(
                        uint(
                            Some(raw::MSR_ADDRESS_MAX),
                            0,
                            "The MSR address, or `{ base, count, stride }` for a family of \
                             registers; an override may give only what changes (`{ count: 10 }`).",
                        ),
                        json!({
                            "type": ["integer", "string", "object"],
                            "allOf": [{ "$ref": "#/definitions/msr-family" }],
                            "examples": [0x38D, { "base": 0xC001_0200_u64, "count": 6, "stride": 2 }]
                        }),
                    ),
                ),
                (
                    "alias-msr",
                    with(
                        uint(
                            Some(raw::MSR_ADDRESS_MAX),
                            0,
                            "A second address range of the same register (same instances, \
                             same value type): one address for a single register, \
                             `{ base, stride }` for a family, whose count is always the \
                             family's (a `count` given must equal it). It must not overlap any \
                             register's addresses.",
                        ),
                        json!({
                            "type": ["integer", "string", "object"],
                            "allOf": [{ "$ref": "#/definitions/msr-family" }],
                            "examples": [{ "base": 0x1900, "stride": 4 }]
                        }),
                    ),
                ),
                (
                    "per-counter",
                    keyword(
                        COUNTER_KIND_WORDS,
                        "A register family with one instance per counter of this family \
                         (general: the `counter` role's registers, fixed: the \
                         `fixed-counter` role's); its count must equal the counters'.",
                    ),
                ),
                (
                    "width",
                    uint(Some(64), 1, "Width in bits, 1 to 64 (default 64)."),
                ),
                (
                    "access",
                    keyword(
                        ACCESS_WORDS,
                        "The default access of its fields (default read-write).",
                    ),
                ),
                (
                    "role",
                    keyword(
                        REGISTER_ROLE_WORDS,
                        "What the register does for the run-time layer (pmu_regs::arch): \
                         one register per role in a generation; inherited until restated.",
                    ),
                ),
                (
                    "reset",
                    uint(
                        None,
                        0,
                        "The value after reset, where the manual gives one.",
                    ),
                ),
                ("fields", list_of("field", "The register's fields.")),
                (
                    "remove-fields",
                    list_of(
                        "ident",
                        "In an extending generation: the parent's fields to drop.",
                    ),
                ),
            ],
            &["name"],
        ),
    );
    d.def(
        "msr-family",
        object_keywords_only(object(
            "A family of registers at `base`, `base + stride`, …",
            vec![
                (
                    "base",
                    uint(Some(raw::MSR_ADDRESS_MAX), 0, "The address of index 0."),
                ),
                (
                    "count",
                    uint(Some(raw::MSR_COUNT_MAX), 1, "How many registers."),
                ),
                (
                    "stride",
                    uint(
                        Some(raw::MSR_STRIDE_MAX),
                        0,
                        "Address distance between registers (default 1).",
                    ),
                ),
            ],
            &[],
        )),
    );
    let bit = json!({
        "type": ["integer", "string"],
        "minimum": 0,
        "maximum": 63,
        "pattern": format!("^ *{UINT_RE} *(: *{UINT_RE} *)?$"),
        "patternErrorMessage": "A bit (`19`) or a range high:low (`31:24`).",
    });
    d.def(
        "field",
        object(
            "A bit field.",
            vec![
                (
                    "name",
                    name_ref("ident", "The field's name (`EVENT_SELECT`)."),
                ),
                (
                    "bits",
                    with(
                        bit.clone(),
                        json!({
                            "type": ["integer", "string", "array"],
                            "minItems": 1,
                            "items": bit,
                            "examples": [19, "31:24", ["7:0", "35:32"]],
                            "description": "One bit (`19`), a range high:low (`31:24`), or a \
                                split field as a list of ranges, low part first (`[7:0, 35:32]`)."
                        }),
                    ),
                ),
                (
                    "array",
                    name_ref(
                        "field-array",
                        "The field repeats: `{ count, stride }` (one block per fixed counter).",
                    ),
                ),
                (
                    "access",
                    keyword(ACCESS_WORDS, "Access, when it differs from the register's."),
                ),
                (
                    "per-counter",
                    keyword(
                        COUNTER_KIND_WORDS,
                        "Element i of this field array belongs to counter i of this family \
                         (general: the `counter` role's registers, fixed: the `fixed-counter` \
                         role's); the array has one element per counter.",
                    ),
                ),
                (
                    "role",
                    keyword(
                        FIELD_ROLE_WORDS,
                        "What the field means to the run-time layer; each role belongs to \
                         registers of given roles (privilege, pmi, any-thread: fixed-control; \
                         frozen: global-status and its reset/set; pmi-in-use: global-in-use; \
                         freeze-on-pmi: debug-control; full-width-write: capabilities).",
                    ),
                ),
                ("doc", text("Prose documentation (Markdown).")),
                ("values", list_of("value", "Named values of the field.")),
                (
                    "deprecated",
                    name_ref("deprecation", "When the field stops being meaningful."),
                ),
                (
                    "requires",
                    text(
                        "The enumeration that must be present for the field to exist \
                         (`IA32_PERF_CAPABILITIES.FW_WRITE[13] = 1`).",
                    ),
                ),
                (
                    "instances",
                    name_ref(
                        "counter-list",
                        "The instances of the register family on which the field is valid \
                         (`[2]`: IN_TXCP only on IA32_PERFEVTSEL2); every instance when left \
                         out. The generated setter takes the field only on a value placed on \
                         one of them.",
                    ),
                ),
            ],
            &["name"],
        ),
    );
    d.def(
        "field-array",
        with(
            object(
                "A field that repeats `count` times, `stride` bits apart; an override may give \
                 one of them (`{ count: 7 }`).",
                vec![
                    ("count", uint(Some(raw::ARRAY_MAX), 1, "How many copies.")),
                    (
                        "stride",
                        uint(Some(raw::ARRAY_MAX), 1, "Bits between copies."),
                    ),
                ],
                &[],
            ),
            json!({ "minProperties": 1 }),
        ),
    );
    d.def(
        "value",
        object(
            "A named value of a field.",
            vec![
                ("name", name_ref("ident", "The value's name.")),
                ("value", uint(None, 0, "The value.")),
                ("doc", text("Prose documentation.")),
            ],
            &["name", "value"],
        ),
    );
    d.def(
        "deprecation",
        object(
            "When a field stops being meaningful.",
            vec![
                (
                    "since",
                    name_ref("generation-id", "The generation that deprecates it."),
                ),
                (
                    "when",
                    text("The enumeration that signals it (`CPUID.0AH:EDX[15] = 1`)."),
                ),
                ("doc", text("Prose documentation.")),
            ],
            &["since"],
        ),
    );
}

/// CPUID leaves.
fn cpuid(d: &mut Defs) {
    let mut cpuid_props = vec![
        (
            "name",
            name_ref("ident", "The leaf's name (`ARCH_PERFMON`)."),
        ),
        (
            "leaf",
            uint(Some(raw::CPUID_INPUT_MAX), 0, "The leaf (EAX input)."),
        ),
        (
            "subleaf",
            uint(Some(raw::CPUID_INPUT_MAX), 0, "The subleaf (ECX input)."),
        ),
        ("doc", text("Prose documentation (Markdown).")),
        ("manual", text("The manual section that defines it.")),
    ];
    for r in raw::CPUID_REGS {
        let d = match *r {
            "eax" => "The fields of EAX.",
            "ebx" => "The fields of EBX.",
            "ecx" => "The fields of ECX.",
            _ => "The fields of EDX.",
        };
        cpuid_props.push((r, list_of("field", d)));
    }
    d.def(
        "cpuid-leaf",
        object(
            "A CPUID leaf and its output fields.",
            cpuid_props,
            &["name"],
        ),
    );
}

/// Events and their encodings.
fn events(d: &mut Defs) {
    let counter_item = json!({
        "type": ["integer", "string"],
        "minimum": 0,
        "pattern": format!("^ *{UINT_RE} *(- *{UINT_RE} *)?$"),
        "patternErrorMessage": "A counter number or a range low-high (`0-3`).",
    });
    d.def(
        "counter-list",
        json!({
            "type": "array",
            "items": counter_item.clone(),
            "description": "Counter numbers and ranges low-high: `[0-3]`, `[0, 1, 5]`.",
            "examples": [["0-3"]]
        }),
    );
    d.def(
        "counter-set-map",
        object_keywords_only(object(
            "General-purpose and fixed counters.",
            vec![
                (
                    "general",
                    name_ref("counter-list", "General-purpose counters."),
                ),
                ("fixed", name_ref("counter-list", "Fixed counters.")),
            ],
            &[],
        )),
    );
    d.def(
        "counter-set",
        json!({
            "type": ["array", "object"],
            "items": counter_item.clone(),
            "allOf": [{ "$ref": "#/definitions/counter-set-map" }],
            "description": "`[0-3]` (general counters) or `{ general: [0-3], fixed: [0] }`.",
            "examples": [["0-3"], { "general": ["0-3"], "fixed": [0] }]
        }),
    );
    d.def(
        "event-msr",
        object(
            "An auxiliary MSR programmed with the event (offcore response, load latency, …).",
            vec![
                (
                    "index",
                    one_or_more(
                        Some(raw::MSR_ADDRESS_MAX),
                        "The MSR address; or one per event code / unit mask, in order.",
                    ),
                ),
                ("value", uint(None, 0, "The value written to it.")),
            ],
            &["index", "value"],
        ),
    );
    let flag_doc = |k: &str| -> &'static str {
        match k {
            "precise" => "Precise (PEBS) sampling is supported.",
            "speculative" => "Counts speculative work as well as retired.",
            "deprecated" => "The vendor deprecates the event.",
            "taken-alone" => "Must be counted alone (Intel TakenAlone).",
            "data-la" => "Records the data linear address (Intel Data_LA).",
            "l1-hit-indication" => "Reports L1 hits (Intel L1_Hit_Indication).",
            "offcore" => "An offcore-response event.",
            "offmodule" => {
                "An off-module response event (Intel Offmodule): its auxiliary MSRs are the off-module response registers."
            }
            "msr-per-umask" => {
                "The auxiliary MSR goes with the unit mask (Intel ProgrammingRestriction MSRIndex-UMask): the i-th unit mask is programmed only with the i-th `msr.index`."
            }
            "ellc" => "Counts on the enhanced LLC (Intel ELLC).",
            "precise-store" => "Precise store sampling (Intel PRECISE_STORE).",
            _ => "A boolean fact of the event.",
        }
    };
    let mut event_props = vec![
        (
            "name",
            name_ref(
                "event-name",
                "The event's name as the vendor spells it (`BR_INST_RETIRED.ALL_BRANCHES`).",
            ),
        ),
        (
            "event",
            one_or_more(
                None,
                "The event select code; or a list of them, the first the main one, paired by \
                 position with `umask` and `msr.index` lists.",
            ),
        ),
        (
            "umask",
            one_or_more(None, "The unit mask; or a list, the first the main one."),
        ),
        ("umask2", uint(None, 0, "The second unit mask (Intel v6).")),
        ("eq", boolean("The equal-compare flag (Intel v6).")),
        ("cmask", uint(None, 0, "The counter mask.")),
        ("inv", boolean("Invert the counter mask comparison.")),
        ("edge", boolean("Count rising edges.")),
        (
            "any",
            boolean("AnyThread: count for every logical processor of the core."),
        ),
        (
            "counters",
            with(
                json!({
                    "type": ["string", "array"],
                    "pattern": "^all$",
                    "patternErrorMessage": "`all`, or a list of counters (`[0-3]`).",
                    "items": counter_item.clone(),
                    "examples": ["all", ["0-3"]]
                }),
                desc(
                    "The general-purpose counters that may count it (default `all`; with only \
                     `fixed:` the event is fixed-counter only).",
                ),
            ),
        ),
        ("fixed", uint(None, 0, "The fixed counter that counts it.")),
    ];
    for k in raw::COUNTER_SET_EVENT_KEYS {
        let d = match *k {
            "counters-ht-off" => "The counters that may count it while Hyper-Threading is off.",
            "pebs-counters" => "The counters that may sample it with PEBS.",
            "pdist-counters" => "The counters with precise distribution (PDist) for it.",
            _ => "The counters with precise distribution of instructions retired (PDIR).",
        };
        event_props.push((k, name_ref("counter-set", d)));
    }
    event_props.extend([
        (
            "cpuid-bit",
            uint(
                Some(raw::CPUID_BIT_MAX),
                0,
                "The CPUID.0AH:EBX bit that, when set, marks the event unavailable.",
            ),
        ),
        (
            "msr",
            name_ref("event-msr", "An auxiliary MSR programmed with the event."),
        ),
        (
            "pebs",
            uint(
                Some(raw::PEBS_MAX),
                0,
                "0 no PEBS, 1 PEBS, 2 PEBS with precise distribution.",
            ),
        ),
        (
            "collect-pebs-record",
            uint(
                Some(raw::COLLECT_PEBS_RECORD_MAX),
                0,
                "Intel's CollectPEBSRecord level, 0 to 3.",
            ),
        ),
    ]);
    for k in raw::EVENT_FLAGS {
        event_props.push((k, boolean(flag_doc(k))));
    }
    event_props.extend([
        (
            "errata",
            list_of("ident", "Erratum ids that affect the event (`SKL057`)."),
        ),
        (
            "sample-after",
            uint(None, 1, "The default sampling period (at least 1)."),
        ),
        ("doc", text("Prose documentation.")),
        (
            "allow",
            list_of(
                "allow",
                "Warnings about the event that are reviewed and acceptable, each with its \
                 reason: the validator reports them in one summary line instead of in full. An \
                 entry that acknowledges nothing is an `unused-allow` warning.",
            ),
        ),
    ]);
    d.def("event", object("An event.", event_props, &["name"]));
    d.def(
        "allow",
        with(
            object(
                "A warning acknowledged: its code and why it is acceptable.",
                vec![
                    (
                        "code",
                        keyword(
                            &crate::diag::EVENT_WARNINGS
                                .iter()
                                .map(|c| (*c, ()))
                                .collect::<Vec<_>>(),
                            "The warning's code (only warnings can be acknowledged, and only \
                             those reported about the entry).",
                        ),
                    ),
                    (
                        "reason",
                        with(
                            text("Why the warning is acceptable, in your own words."),
                            json!({
                                "pattern": "\\S",
                                "patternErrorMessage": "A reason: say why the warning is acceptable."
                            }),
                        ),
                    ),
                ],
                &["code", "reason"],
            ),
            json!({
                "examples": [{
                    "code": "counter-not-in-event",
                    "reason": "The vendor's list names PEBS counter 0 for this fixed-counter event; kept as given."
                }]
            }),
        ),
    );
}

/// Constraints and `remove:`.
fn constraints(d: &mut Defs) {
    d.def(
        "constraint",
        object(
            "A field combination of one register that is invalid (error) or suspect (warning).",
            vec![
                (
                    "id",
                    name_ref(
                        "generation-id",
                        "The constraint's id (`inv-without-cmask`).",
                    ),
                ),
                (
                    "register",
                    name_ref("ident", "The register whose fields it tests."),
                ),
                (
                    "when",
                    json!({
                        "type": "object",
                        "minProperties": 1,
                        "patternProperties": {
                            "^[A-Za-z][A-Za-z0-9_]*$": uint(None, 0, "the field's value")
                        },
                        "additionalProperties": false,
                        "description": "Field name → value; the constraint applies when all hold \
                            (`{ INV: 1, CMASK: 0 }`).",
                    }),
                ),
                (
                    "severity",
                    keyword(
                        SEVERITY_WORDS,
                        "`error` refuses the value; `warning` reports it.",
                    ),
                ),
                ("message", text("What is wrong, for the user.")),
                ("manual", text("The manual section that states the rule.")),
            ],
            &["id"],
        ),
    );
    d.def(
        "remove",
        object(
            "Entries of the parent generation to drop.",
            vec![
                ("registers", list_of("ident", "Register names.")),
                ("cpuid", list_of("ident", "CPUID leaf names.")),
                ("events", list_of("event-name", "Event names.")),
                ("constraints", list_of("generation-id", "Constraint ids.")),
            ],
            &[],
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Calls `f` on every object in `v`, with its JSON pointer.
    fn each_object(v: &Value, at: &str, f: &mut impl FnMut(&Map<String, Value>, &str)) {
        match v {
            Value::Object(o) => {
                f(o, at);
                for (k, v) in o {
                    each_object(v, &format!("{at}/{k}"), f);
                }
            }
            Value::Array(a) => {
                for (i, v) in a.iter().enumerate() {
                    each_object(v, &format!("{at}/{i}"), f);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn every_mapping_offers_exactly_the_loader_keys() {
        let s = schema();
        for (def, keys) in MAPPINGS {
            let props = s["definitions"][def]["properties"]
                .as_object()
                .unwrap_or_else(|| panic!("definition `{def}` has no properties"));
            let mut got: Vec<&str> = props.keys().map(String::as_str).collect();
            let mut want: Vec<&str> = keys.to_vec();
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want, "definition `{def}`");
            assert_eq!(
                s["definitions"][def]["additionalProperties"],
                json!(false),
                "`{def}` must refuse unknown keys, as the loader does"
            );
        }
    }

    #[test]
    fn every_property_is_documented() {
        let s = schema();
        for (def, _) in MAPPINGS {
            for (k, v) in s["definitions"][def]["properties"].as_object().unwrap() {
                assert!(
                    v["description"].as_str().is_some_and(|d| !d.is_empty()),
                    "`{def}.{k}` has no description"
                );
            }
        }
    }

    #[test]
    fn every_reference_resolves() {
        let s = schema();
        let defs = s["definitions"].as_object().unwrap();
        each_object(&s, "#", &mut |o, at| {
            if let Some(r) = o.get("$ref").and_then(Value::as_str) {
                let name = r.strip_prefix("#/definitions/").unwrap_or(r);
                assert!(defs.contains_key(name), "{at}: dangling $ref {r}");
            }
        });
    }

    /// A definition reached through an `allOf`/`anyOf` branch carries no description (it
    /// would replace the property's own on hover), and neither does the branch itself.
    #[test]
    fn branches_carry_no_description() {
        fn walk(v: &Value, in_branch: bool, refs: &mut Vec<String>, at: &str) {
            match v {
                Value::Object(o) => {
                    if in_branch {
                        assert!(
                            !o.contains_key("description"),
                            "{at}: description in a branch"
                        );
                        if let Some(r) = o.get("$ref").and_then(Value::as_str) {
                            refs.push(r.trim_start_matches("#/definitions/").to_owned());
                        }
                    }
                    for (k, v) in o {
                        let branch = matches!(k.as_str(), "allOf" | "anyOf" | "oneOf");
                        walk(v, branch, refs, &format!("{at}/{k}"));
                    }
                }
                Value::Array(a) => a.iter().for_each(|v| walk(v, in_branch, refs, at)),
                _ => {}
            }
        }
        let s = schema();
        let mut refs = Vec::new();
        walk(&s, false, &mut refs, "#");
        assert!(!refs.is_empty());
        for r in refs {
            assert!(
                s["definitions"][&r].get("description").is_none(),
                "definition `{r}` is reached through a branch but has a description"
            );
        }
    }

    /// Editors show `patternErrorMessage` instead of a regular expression.
    #[test]
    fn every_pattern_has_a_message() {
        each_object(&schema(), "#", &mut |o, at| {
            if o.contains_key("pattern") {
                assert!(
                    o.get("patternErrorMessage").is_some_and(Value::is_string),
                    "{at}: a pattern without patternErrorMessage"
                );
            }
        });
    }

    #[test]
    fn modeline_paths_are_relative_to_the_file() {
        assert_eq!(
            relative_schema_path("pmu-defs/defs/intel/v1.yaml"),
            "../../schema/generation.schema.json"
        );
        assert_eq!(
            relative_schema_path("pmu-defs/defs/intel/models/skylake.yaml"),
            "../../../schema/generation.schema.json"
        );
        assert_eq!(
            relative_schema_path("vendor/acme.yaml"),
            "../pmu-defs/schema/generation.schema.json"
        );
        assert_eq!(relative_schema_path("x.yaml"), SCHEMA_PATH);
    }

    #[test]
    fn rendering_is_deterministic() {
        assert_eq!(render(), render());
        assert!(render().ends_with("}\n"));
    }
}
