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

mod events;
mod registers;
mod top;

use events::*;
use registers::*;
use top::*;

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
    ("count-from", raw::COUNT_FROM_KEYS),
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
    ("generic-events", raw::GENERIC_EVENTS_KEYS),
    ("generic-event-map", &raw::GENERIC_EVENT_KEYS),
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
    generic_events(&mut d);
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
