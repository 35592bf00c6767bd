//! The schema of a generation file's top level: names, the generation's own keys,
//! `detect:`, `cpus:` and the PMU encoding.

use super::*;

/// Names: identifiers, generation ids, event names.
pub(super) fn names(d: &mut Defs) {
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
pub(super) fn top_level(d: &mut Defs) {
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
                        "generic-events",
                        name_ref(
                            "generic-events",
                            "Which event each of perf's generic hardware events counts here, as \
                             the Linux kernel maps them.",
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
pub(super) fn detect(d: &mut Defs) {
    d.def(
        "detect",
        object(
            "A run-time detection condition.",
            [
                cpuid_field_keys().to_vec(),
                vec![
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
            ]
            .concat(),
            &[],
        ),
    );
}

/// `pmu:`: the roles of registers and fields.
pub(super) fn pmu(d: &mut Defs) {
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

/// The keys naming a CPUID field, shared by `detect:` and `count-from:`.
pub(super) fn cpuid_field_keys() -> [(&'static str, Value); 3] {
    [
        (
            "leaf",
            name_ref("ident", "A CPUID leaf of the generation, by name."),
        ),
        (
            "register",
            keyword(raw::CPUID_REG_WORDS, "The leaf's output register."),
        ),
        ("field", name_ref("ident", "A field of that register.")),
    ]
}
