//! The schema of events (encodings, counters, flags, `allow:`) and constraints.

use super::*;
use pmu_vocab::perf::GenericEvent;

/// Events and their encodings.
pub(super) fn events(d: &mut Defs) {
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
    for f in crate::vocab::EVENT_FLAGS {
        event_props.push((f.key, boolean(f.doc)));
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
pub(super) fn constraints(d: &mut Defs) {
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
                (
                    "generic-events",
                    list_of("generic-event-name", "perf's generic event names."),
                ),
            ],
            &[],
        ),
    );
}

/// `generic-events:`: which event each of perf's generic hardware events counts.
pub(super) fn generic_events(d: &mut Defs) {
    let names: Vec<&str> = GenericEvent::ALL.iter().map(|g| g.name()).collect();
    d.def(
        "generic-event-name",
        with(
            json!({ "enum": names }),
            desc("One of perf's generic hardware events (`perf list hw`), by its perf name."),
        ),
    );
    let terms = || {
        with(
            json!({
                "type": "string",
                "pattern": "^[a-z0-9_]+(=[0-9a-fA-FxXbB_]+)?(,[a-z0-9_]+(=[0-9a-fA-FxXbB_]+)?)*$",
                "patternErrorMessage": "perf terms: `event=0x2e,umask=0x41`, comma-separated.",
            }),
            desc(
                "The perf terms of the event it counts: `event=`, and as needed `umask=`, \
                 `cmask=`, `inv`, `edge`, `any`.",
            ),
        )
    };
    let events = names.iter().map(|n| (*n, terms())).collect();
    d.def(
        "generic-event-map",
        object("perf's name → the perf terms of the event.", events, &[]),
    );
    d.def(
        "generic-events",
        object(
            "Which event each of perf's generic hardware events (`cpu-cycles`, \
             `instructions`, ...) counts on this generation, as the Linux kernel maps them \
             (`intel_perfmon_event_map`, `amd_zen4_perfmon_event_map`, ...). Inherited; an \
             entry here replaces the parent's of that name; `remove: { generic-events: [...] }` \
             drops one the kernel does not map.",
            vec![
                (
                    "manual",
                    text("Where the mapping comes from (the kernel's table)."),
                ),
                (
                    "events",
                    name_ref(
                        "generic-event-map",
                        "perf's name of each generic event mapped here → the perf terms of the \
                         event it counts.",
                    ),
                ),
            ],
            &["events"],
        ),
    );
}
