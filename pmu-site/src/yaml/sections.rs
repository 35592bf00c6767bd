//! The reference as data: one [`Section`] per schema definition, with its keys in the
//! loader's order, and the modelines that point an editor at the schema.

use super::describe::*;
use super::inline::*;
use pmu_defs::schema as js;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Reading order of the definitions: the file, what a register needs, events, the rest, then
/// the named value types. Definitions not listed here follow, sorted by name.
pub const ORDER: &[&str] = &[
    "generation",
    "register",
    "msr-family",
    "field",
    "field-array",
    "value",
    "deprecation",
    "cpuid-leaf",
    "event",
    "counter-set",
    "counter-set-map",
    "counter-list",
    "event-msr",
    "allow",
    "constraint",
    "remove",
    "cpu",
    "detect",
    "pmu",
    "pmu-encoding",
    "ident",
    "generation-id",
    "event-name",
];

// ---------------------------------------------------------------------------------------
// The reference as data
// ---------------------------------------------------------------------------------------

/// One key of a mapping.
pub(crate) struct Key {
    pub(crate) name: String,
    pub(crate) value: Vec<Inline>,
    /// `None`: optional; `Some(None)`: required; `Some(Some(other))`: required unless
    /// `other` is given (the schema's `if not required [other] then required [key]`).
    pub(crate) required: Option<Option<String>>,
    pub(crate) meaning: Vec<Inline>,
    pub(crate) examples: Vec<String>,
}

/// One definition's section.
pub(crate) struct Section {
    pub(crate) name: String,
    pub(crate) description: Vec<Inline>,
    /// Mappings: the keys, in the loader's order.
    pub(crate) keys: Option<Vec<Key>>,
    /// Scalar types: their form in words, and their pattern.
    pub(crate) form: Option<Vec<Inline>>,
    pub(crate) pattern: Option<String>,
    pub(crate) notes: Vec<Vec<Inline>>,
    pub(crate) examples: Vec<String>,
    /// `def.key` places that refer to this definition.
    pub(crate) used_in: Vec<(String, String)>,
}

/// The definitions in reading order: [`ORDER`] first, then any other, sorted.
pub fn section_order(defs: &Map<String, Value>) -> Vec<String> {
    let mut out: Vec<String> = ORDER
        .iter()
        .filter(|d| defs.contains_key(**d))
        .map(|d| (*d).to_owned())
        .collect();
    let mut rest: Vec<&String> = defs
        .keys()
        .filter(|k| !ORDER.contains(&k.as_str()))
        .collect();
    rest.sort();
    out.extend(rest.into_iter().cloned());
    out
}

/// Properties in the loader's order ([`js::MAPPINGS`]), any others after, sorted.
pub(crate) fn key_order<'a>(def: &str, props: &'a Map<String, Value>) -> Vec<&'a str> {
    let loader: &[&str] = js::MAPPINGS
        .iter()
        .find(|(d, _)| *d == def)
        .map_or(&[], |(_, keys)| keys);
    let mut out: Vec<&str> = loader
        .iter()
        .filter_map(|k| props.get_key_value(*k).map(|(k, _)| k.as_str()))
        .collect();
    let mut rest: Vec<&str> = props
        .keys()
        .map(String::as_str)
        .filter(|k| !out.contains(k))
        .collect();
    rest.sort_unstable();
    out.extend(rest);
    out
}

/// Every definition a schema refers to: `$ref` anywhere below `v`.
pub(crate) fn refs_below<'a>(v: &'a Value, out: &mut BTreeSet<&'a str>) {
    match v {
        Value::Object(o) => {
            if let Some(r) = ref_name(v) {
                out.insert(r);
            }
            o.values().for_each(|v| refs_below(v, out));
        }
        Value::Array(a) => a.iter().for_each(|v| refs_below(v, out)),
        _ => {}
    }
}

/// `if: { not: { required: [a] } }, then: { required: [b, …] }` → b… are required unless a.
pub(crate) fn required_unless(d: &Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let unless = d
        .pointer("/if/not/required")
        .and_then(Value::as_array)
        .filter(|a| a.len() == 1)
        .and_then(|a| a[0].as_str());
    let then = d.pointer("/then/required").and_then(Value::as_array);
    if let (Some(unless), Some(then)) = (unless, then) {
        for k in then.iter().filter_map(Value::as_str) {
            out.insert(k.to_owned(), unless.to_owned());
        }
    }
    out
}

pub(crate) fn examples(v: &Value) -> Vec<String> {
    v.get("examples")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(yaml_flow).collect())
        .unwrap_or_default()
}

pub(crate) fn sections(schema: &Value) -> Vec<Section> {
    let empty = Map::new();
    let defs = schema
        .get("definitions")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let mut used_in: BTreeMap<&str, Vec<(String, String)>> = BTreeMap::new();
    for (d, v) in defs {
        if let Some(props) = v.get("properties").and_then(Value::as_object) {
            for (k, p) in props {
                let mut targets = BTreeSet::new();
                refs_below(p, &mut targets);
                for t in targets {
                    used_in.entry(t).or_default().push((d.clone(), k.clone()));
                }
            }
        }
    }
    section_order(defs)
        .into_iter()
        .map(|name| {
            let d = &defs[&name];
            // Definitions reached through `allOf` keep their description as `$comment` (a
            // `description` there would hide the property's own in editors' hovers).
            let description = prose_runs(
                d.get("description")
                    .or_else(|| d.get("$comment"))
                    .and_then(Value::as_str)
                    .unwrap_or(""),
            );
            let mut notes = Vec::new();
            let unless = required_unless(d);
            for (k, other) in &unless {
                notes.push(vec![
                    code(k),
                    text(" is required unless "),
                    code(other),
                    text(" is given."),
                ]);
            }
            if unless.is_empty() && (d.get("if").is_some() || d.get("then").is_some()) {
                notes.push(vec![
                    text("A further condition: "),
                    code(
                        serde_json::to_string(&serde_json::json!({
                            "if": d.get("if"), "then": d.get("then"), "else": d.get("else")
                        }))
                        .unwrap_or_default(),
                    ),
                ]);
            }
            match d.get("minProperties").and_then(Value::as_u64) {
                Some(1) => notes.push(vec![text("Give at least one key.")]),
                Some(n) if n > 1 => notes.push(vec![text(format!("Give at least {n} keys."))]),
                _ => {}
            }
            let required: BTreeSet<&str> = d
                .get("required")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let keys = d.get("properties").and_then(Value::as_object).map(|props| {
                key_order(&name, props)
                    .into_iter()
                    .map(|k| {
                        let p = &props[k];
                        Key {
                            name: k.to_owned(),
                            value: describe(p, defs),
                            required: if required.contains(k) {
                                Some(None)
                            } else {
                                unless.get(k).map(|o| Some(o.clone()))
                            },
                            meaning: prose_runs(
                                p.get("description").and_then(Value::as_str).unwrap_or(""),
                            ),
                            examples: examples(p),
                        }
                    })
                    .collect()
            });
            let (form, pattern) = if keys.is_none() {
                let pattern = d.get("pattern").and_then(Value::as_str).map(str::to_owned);
                // A name type: its description says what the pattern means.
                let form = if types(d) == ["string"] && pattern.is_some() {
                    vec![text("text matching the pattern")]
                } else {
                    describe(d, defs)
                };
                (Some(form), pattern)
            } else {
                (None, None)
            };
            Section {
                used_in: used_in.remove(name.as_str()).unwrap_or_default(),
                examples: examples(d),
                name,
                description,
                keys,
                form,
                pattern,
                notes,
            }
        })
        .collect()
}

/// The spelling of numbers, from the pattern message of the first property whose pattern is
/// the number pattern, without its lead-in ("A number: decimal, …" → "decimal, …").
pub(crate) fn number_spelling(schema: &Value) -> Option<String> {
    fn find(v: &Value, pat: &str) -> Option<String> {
        match v {
            Value::Object(o) => {
                if o.get("pattern").and_then(Value::as_str) == Some(pat)
                    && let Some(m) = o.get("patternErrorMessage").and_then(Value::as_str)
                {
                    let m = m.split_once(": ").map_or(m, |(_, rest)| rest);
                    return Some(m.to_owned());
                }
                o.values().find_map(|v| find(v, pat))
            }
            Value::Array(a) => a.iter().find_map(|v| find(v, pat)),
            _ => None,
        }
    }
    find(schema, &js::uint_pattern())
}

/// True when every mapping refuses keys it does not list.
pub(crate) fn closed(schema: &Value) -> bool {
    schema
        .get("definitions")
        .and_then(Value::as_object)
        .is_some_and(|defs| {
            defs.values()
                .filter(|d| d.get("properties").is_some())
                .all(|d| d.get("additionalProperties") == Some(&Value::Bool(false)))
        })
}

// ---------------------------------------------------------------------------------------
