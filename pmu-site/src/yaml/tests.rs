//! Unit tests of the YAML reference: descriptions in words, section and key order, examples
//! in YAML flow style, and the `required unless` reading of the schema.

use super::describe::*;
use super::inline::*;
use super::sections::*;
use pmu_defs::schema as js;
use serde_json::json;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// A few definitions to refer to: a mapping, a name type, a mapping used via `allOf`.
fn defs() -> Map<String, Value> {
    let v = json!({
        "register": { "type": "object", "properties": { "name": {} } },
        "msr-family": { "properties": { "base": {} } },
        "ident": { "type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_]*$" },
        "generation-id": { "type": "string", "pattern": "^[a-z][a-z0-9-]*$" },
    });
    v.as_object().unwrap().clone()
}

fn says(schema: Value) -> String {
    plain(&describe(&schema, &defs()))
}

fn uint(extra: Value) -> Value {
    let mut v = json!({
        "type": ["integer", "string"],
        "minimum": 0,
        "pattern": js::uint_pattern(),
        "patternErrorMessage": "A number: decimal, 0x hex or 0b binary.",
        "description": "d",
    });
    v.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    v
}

#[test]
fn scalars_in_words() {
    assert_eq!(
        says(json!({ "type": "boolean", "description": "d" })),
        "true/false"
    );
    assert_eq!(
        says(json!({ "type": ["string", "number", "boolean", "null"] })),
        "text"
    );
    assert_eq!(
        says(json!({ "enum": ["read-write", "read-only", "write-1-to-clear"] })),
        "one of `read-write`, `read-only`, `write-1-to-clear`"
    );
    assert_eq!(
        says(
            json!({ "type": "string", "pattern": "^[A-Z]+-[0-9]+$", "patternErrorMessage": "Vendor-number: `ACME-1`." })
        ),
        "vendor-number: `ACME-1`"
    );
    assert_eq!(
        says(json!({ "type": "string", "pattern": "^[A-Z]+$" })),
        "text matching `^[A-Z]+$`"
    );
}

#[test]
fn numbers_with_their_bounds() {
    assert_eq!(
        says(uint(json!({ "minimum": 1, "maximum": 64 }))),
        "number (1 to 64)"
    );
    assert_eq!(says(uint(json!({ "maximum": 3 }))), "number (0 to 3)");
    assert_eq!(
        says(uint(json!({ "maximum": 0xFFFF_FFFF_u64 }))),
        "number ≤ 0xFFFFFFFF"
    );
    assert_eq!(says(uint(json!({ "maximum": 65536 }))), "number ≤ 65536");
    assert_eq!(
        says(uint(json!({ "maximum": u64::MAX }))),
        "number ≤ 0xFFFFFFFFFFFFFFFF"
    );
    assert_eq!(says(uint(json!({ "minimum": 1 }))), "number ≥ 1");
    assert_eq!(says(uint(json!({}))), "number");
}

#[test]
fn references_link_to_their_section() {
    let d = defs();
    let runs = describe(
        &json!({ "$ref": "#/definitions/register", "description": "d" }),
        &d,
    );
    assert_eq!(
        runs,
        vec![Inline::Link {
            def: "register".into(),
            text: "register".into(),
            code: true
        }]
    );
    assert_eq!(
        to_html(&runs, ""),
        r##"<a href="#register"><code>register</code></a>"##
    );
    assert_eq!(to_md(&runs), "[`register`](#register)");
    assert_eq!(says(json!({ "$ref": "#/definitions/ident" })), "name");
    assert_eq!(
        says(json!({ "$ref": "#/definitions/generation-id" })),
        "generation id"
    );
    assert_eq!(
        says(json!({ "type": "array", "items": { "$ref": "#/definitions/register" } })),
        "list of `register`"
    );
    assert_eq!(
        says(
            json!({ "type": "array", "minItems": 1, "items": { "$ref": "#/definitions/generation-id" } })
        ),
        "non-empty list of generation ids"
    );
}

/// `"type": ["integer", "string", "array"]`: one number or a list of them, and a bit or
/// range (own pattern) or a list of them.
#[test]
fn number_or_list_and_bit_or_list() {
    let one = uint(json!({ "maximum": 0xFFFF_FFFF_u64 }));
    let mut many = one.clone();
    many["type"] = json!(["integer", "string", "array"]);
    many["minItems"] = json!(1);
    many["items"] = one;
    assert_eq!(
        says(many),
        "number ≤ 0xFFFFFFFF, or a non-empty list of them"
    );

    let bit = json!({
        "type": ["integer", "string"],
        "minimum": 0,
        "maximum": 63,
        "pattern": "^ *[0-9]+ *(: *[0-9]+ *)?$",
        "patternErrorMessage": "A bit (`19`) or a range high:low (`31:24`).",
    });
    let mut bits = bit.clone();
    bits["type"] = json!(["integer", "string", "array"]);
    bits["minItems"] = json!(1);
    bits["items"] = bit;
    assert_eq!(
        says(bits),
        "bit (`19`) or a range high:low (`31:24`), from 0 to 63, or a non-empty list of them"
    );

    // Items that differ from the scalar form are spelt out.
    let mixed = json!({
        "type": ["string", "array"],
        "pattern": "^all$",
        "patternErrorMessage": "`all`, or a list.",
        "items": { "type": ["integer", "string"], "minimum": 0, "pattern": "^[0-9]+(-[0-9]+)?$", "patternErrorMessage": "A counter number or a range low-high (`0-3`)." },
    });
    assert_eq!(
        says(mixed),
        "`all`, or a list, each counter number or a range low-high (`0-3`)"
    );
}

/// `"type": ["integer", "string", "object"]` with `allOf: [{ $ref }]`: a number or the
/// mapping.
#[test]
fn number_or_mapping() {
    let mut msr = uint(json!({ "maximum": 0xFFFF_FFFF_u64 }));
    msr["type"] = json!(["integer", "string", "object"]);
    msr["allOf"] = json!([{ "$ref": "#/definitions/msr-family" }]);
    let runs = describe(&msr, &defs());
    assert_eq!(plain(&runs), "number ≤ 0xFFFFFFFF, or `msr-family`");
    assert_eq!(
        to_html(&runs, ""),
        r##"number ≤ 0xFFFFFFFF, or <a href="#msr-family"><code>msr-family</code></a>"##
    );

    let set = json!({
        "type": ["array", "object"],
        "items": { "type": "integer" },
        "allOf": [{ "$ref": "#/definitions/msr-family" }],
    });
    assert_eq!(says(set), "list, each number, or `msr-family`");
}

#[test]
fn mappings_with_pattern_keys() {
    let when = json!({
        "type": "object",
        "minProperties": 1,
        "patternProperties": { "^[A-Za-z][A-Za-z0-9_]*$": uint(json!({})) },
        "additionalProperties": false,
    });
    assert_eq!(says(when), "mapping name → number, at least one entry");
    let other = json!({ "type": "object", "patternProperties": { "^x-": { "type": "boolean" } } });
    assert_eq!(says(other), "mapping key matching `^x-` → true/false");
}

#[test]
fn unknown_keywords_are_named_not_dropped() {
    assert_eq!(
        says(json!({ "type": "integer", "multipleOf": 8 })),
        "number; see the schema for `multipleOf`"
    );
}

/// Every property of the real schema is put in words from keywords this module knows.
#[test]
fn the_schema_is_fully_understood() {
    let s = js::schema();
    let defs = s["definitions"].as_object().unwrap();
    for (d, v) in defs {
        for (k, p) in v["properties"].as_object().into_iter().flatten() {
            let words = plain(&describe(p, defs));
            assert!(!words.contains("see the schema"), "{d}.{k}: {words}");
            assert!(!words.contains("any value"), "{d}.{k}: {words}");
        }
    }
    let say = |d: &str, k: &str| plain(&describe(&defs[d]["properties"][k], defs));
    assert_eq!(say("register", "width"), "number (1 to 64)");
    assert_eq!(
        say("register", "msr"),
        "number ≤ 0xFFFFFFFF, or `msr-family`"
    );
    assert_eq!(say("generation", "registers"), "list of `register`");
    assert_eq!(say("generation", "cpus"), "non-empty list of `cpu`");
    assert_eq!(say("remove", "events"), "list of event names");
    assert!(say("event", "counters").starts_with("`all`, or a list, each counter number"));
    assert_eq!(say("event", "pebs-counters"), "counter set");
    assert_eq!(
        say("constraint", "when"),
        "mapping name → number, at least one entry"
    );
}

#[test]
fn order_puts_known_definitions_first_then_the_rest_sorted() {
    let mut d = defs();
    d.insert("zeta".into(), json!({}));
    d.insert("alpha".into(), json!({}));
    assert_eq!(
        section_order(&d),
        [
            "register",
            "msr-family",
            "ident",
            "generation-id",
            "alpha",
            "zeta"
        ]
    );
    let all = section_order(js::schema()["definitions"].as_object().unwrap());
    assert_eq!(all[0], "generation");
    assert_eq!(
        all.len(),
        js::schema()["definitions"].as_object().unwrap().len()
    );
}

#[test]
fn prose_keeps_code_spans() {
    assert_eq!(
        prose_runs("Give `count`\n  or `stride` ` alone"),
        vec![
            text("Give "),
            code("count"),
            text(" or "),
            code("stride"),
            text(" ` alone"),
        ]
    );
    assert_eq!(to_md(&prose_runs("a|b `x|y`")), "a\\|b `x\\|y`");
}

#[test]
fn examples_read_as_yaml() {
    assert_eq!(yaml_flow(&json!(909)), "0x38D");
    assert_eq!(yaml_flow(&json!(19)), "19");
    assert_eq!(yaml_flow(&json!(["7:0", "35:32"])), "[7:0, 35:32]");
    assert_eq!(
        yaml_flow(&json!({ "base": 0xC001_0200_u64, "count": 6 })),
        "{ base: 0xC0010200, count: 6 }"
    );
    assert_eq!(
        yaml_flow(&json!("GenuineIntel-6-55-[01234]")),
        "'GenuineIntel-6-55-[01234]'"
    );
    assert_eq!(yaml_flow(&json!("yes")), "'yes'");
    assert_eq!(yaml_flow(&json!("42")), "'42'");
    assert_eq!(yaml_flow(&json!("it's")), "'it''s'");
    assert_eq!(yaml_flow(&json!("all")), "all");
}

#[test]
fn conditional_requirements_are_read_from_if_then() {
    let d = json!({
        "if": { "not": { "required": ["extends"] } },
        "then": { "required": ["vendor"] }
    });
    assert_eq!(
        required_unless(&d),
        BTreeMap::from([("vendor".to_owned(), "extends".to_owned())])
    );
    assert!(required_unless(&json!({})).is_empty());
}
