//! The schema of registers (addresses, fields, bit ranges, named values) and CPUID leaves.

use super::*;

/// Registers, fields, values and addresses.
pub(super) fn registers(d: &mut Defs) {
    register(d);
    count_from(d);
    msr_family(d);
    field(d);
    field_array(d);
    value(d);
    deprecation(d);
}

/// A register entry.
fn register(d: &mut Defs) {
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
                (
                    "requires",
                    text(
                        "The enumeration under which a CPU has the register, in the notation \
                         of a field's `requires:` (`CPUID Fn8000_001B_EAX[BrnTrgt] (bit 5) = 1`).",
                    ),
                ),
                (
                    "count-from",
                    name_ref(
                        "count-from",
                        "For a family: the CPUID field that says how many of its instances a \
                         CPU has.",
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
}

/// `count-from:` of a register family.
fn count_from(d: &mut Defs) {
    d.def(
        "count-from",
        object(
            "The CPUID field giving a register family's number of instances.",
            [
                cpuid_field_keys().to_vec(),
                vec![(
                    "as",
                    keyword(
                        raw::COUNT_FORM_WORDS,
                        "count (default): the value is the count; depth-bitmap: bit n set \
                         means a depth of 8(n+1) is supported, the deepest is the count.",
                    ),
                )],
            ]
            .concat(),
            &["leaf", "register", "field"],
        ),
    );
}

/// `msr: { base, count, stride }`.
fn msr_family(d: &mut Defs) {
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
}

/// A field entry.
fn field(d: &mut Defs) {
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
}

/// `array:` of a field.
fn field_array(d: &mut Defs) {
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
}

/// A named value of a field.
fn value(d: &mut Defs) {
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
}

/// `deprecated:` of a field.
fn deprecation(d: &mut Defs) {
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
pub(super) fn cpuid(d: &mut Defs) {
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
