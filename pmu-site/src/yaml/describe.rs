//! One property schema in words ([`describe`]): types, bounds, patterns, lists, mappings and
//! the YAML spelling of examples.

use super::inline::*;
use crate::format;
use pmu_defs::schema as js;
use serde_json::{Map, Value};

/// How a reference to a scalar definition reads in the value column; any other is its name
/// with spaces (`generation-id` → "generation id").
pub const NOUNS: &[(&str, &str)] = &[("ident", "name")];

/// Keywords [`describe`] puts into words (or that carry no pub(crate) constraint). Any other keyword in
/// a property is named in the value column ("see the schema"), never silently dropped.
const UNDERSTOOD: &[&str] = &[
    "$ref",
    "type",
    "enum",
    "minimum",
    "maximum",
    "pattern",
    "patternErrorMessage",
    "items",
    "minItems",
    "allOf",
    "patternProperties",
    "additionalProperties",
    "minProperties",
    "description",
    "examples",
];

// ---------------------------------------------------------------------------------------

/// The name of the definition a `#/definitions/…` reference points at.
pub(crate) fn ref_name(v: &Value) -> Option<&str> {
    v.get("$ref")?
        .as_str()
        .map(|r| r.strip_prefix("#/definitions/").unwrap_or(r))
}

pub(crate) fn is_mapping(defs: &Map<String, Value>, name: &str) -> bool {
    defs.get(name)
        .is_some_and(|d| d.get("properties").is_some_and(Value::is_object))
}

pub(crate) fn noun(def: &str) -> String {
    NOUNS
        .iter()
        .find(|(d, _)| *d == def)
        .map_or_else(|| def.replace('-', " "), |(_, n)| (*n).to_owned())
}

/// A reference: a mapping is a link named by its definition (`register`), a scalar type a
/// link worded by [`noun`] (`name`, `generation ids` when `plural`).
pub(crate) fn reference(defs: &Map<String, Value>, def: &str, plural: bool) -> Inline {
    if is_mapping(defs, def) {
        Inline::Link {
            def: def.to_owned(),
            text: def.to_owned(),
            code: true,
        }
    } else {
        let mut n = noun(def);
        if plural {
            n.push('s');
        }
        Inline::Link {
            def: def.to_owned(),
            text: n,
            code: false,
        }
    }
}

/// `0xFFFFFFFF` for register-sized limits (all ones, at least 16 bits), decimal otherwise.
pub(crate) fn limit(n: &Value) -> String {
    match n.as_u64() {
        Some(v) if v >= 0xFFFF && v.checked_add(1).is_none_or(u64::is_power_of_two) => {
            format::hex(v)
        }
        _ => n.to_string(),
    }
}

/// The bounds of a number: `1 to 64`, `≤ 0xFFFFFFFF`, `≥ 1`, or nothing.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Bounds {
    Range(String, String),
    AtMost(String),
    AtLeast(String),
}

pub(crate) fn bounds(s: &Value) -> Option<Bounds> {
    let min = s.get("minimum").filter(|v| v.is_number());
    let max = s.get("maximum").filter(|v| v.is_number());
    let min_is_zero = min.is_none_or(|m| m.as_f64() == Some(0.0));
    match (min, max) {
        (_, Some(max)) if min_is_zero && max.as_u64().is_some_and(|v| v >= 0xFFFF) => {
            Some(Bounds::AtMost(limit(max)))
        }
        (_, Some(max)) => Some(Bounds::Range(
            min.map_or_else(|| "0".to_owned(), Value::to_string),
            limit(max),
        )),
        (Some(min), None) if !min_is_zero => Some(Bounds::AtLeast(min.to_string())),
        _ => None,
    }
}

/// `number (1 to 64)`, `number ≤ 0xFFFFFFFF`, `number ≥ 1`, `number`.
pub(crate) fn number_phrase(b: Option<Bounds>) -> String {
    match b {
        Some(Bounds::Range(lo, hi)) => format!("number ({lo} to {hi})"),
        Some(Bounds::AtMost(hi)) => format!("number ≤ {hi}"),
        Some(Bounds::AtLeast(lo)) => format!("number ≥ {lo}"),
        None => "number".to_owned(),
    }
}

/// The bounds after a phrase that is not "number": `, from 0 to 63`.
pub(crate) fn bounds_suffix(b: Option<Bounds>) -> Option<String> {
    match b? {
        Bounds::Range(lo, hi) => Some(format!(", from {lo} to {hi}")),
        Bounds::AtMost(hi) => Some(format!(", at most {hi}")),
        Bounds::AtLeast(lo) => Some(format!(", at least {lo}")),
    }
}

/// What a `patternErrorMessage` says the text is, as a phrase: "A bit (`19`)." → "bit (`19`)".
pub(crate) fn pattern_phrase(s: &Value) -> Vec<Inline> {
    let Some(msg) = s.get("patternErrorMessage").and_then(Value::as_str) else {
        let p = s.get("pattern").and_then(Value::as_str).unwrap_or_default();
        return vec![text("text matching "), code(p)];
    };
    let msg = msg.trim().trim_end_matches('.');
    let msg = msg
        .strip_prefix("A ")
        .or_else(|| msg.strip_prefix("An "))
        .unwrap_or(msg);
    let mut chars = msg.chars();
    let lowered = match (chars.next(), chars.next()) {
        // "Vendor-family-model" → "vendor-…", but "CPUID …" stays.
        (Some(a), Some(b)) if a.is_uppercase() && !b.is_uppercase() => {
            format!("{}{}", a.to_lowercase(), &msg[a.len_utf8()..])
        }
        _ => msg.to_owned(),
    };
    prose_runs(&lowered)
}

/// A pattern that matches one word only (`^all$`): that word.
pub(crate) fn literal(pattern: &str) -> Option<&str> {
    let w = pattern.strip_prefix('^')?.strip_suffix('$')?;
    (!w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    .then_some(w)
}

pub(crate) fn types(s: &Value) -> Vec<&str> {
    match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    }
}

/// Joins alternatives: `a`, `a, or b`, `a, b, or c`.
pub(crate) fn alternatives(alts: Vec<Vec<Inline>>) -> Vec<Inline> {
    let n = alts.len();
    let mut out = Vec::new();
    for (i, a) in alts.into_iter().enumerate() {
        if i > 0 {
            out.push(text(if i + 1 == n { ", or " } else { ", " }));
        }
        out.extend(a);
    }
    out
}

/// Adjacent text runs merged, so equal phrases compare equal.
pub(crate) fn merged(runs: Vec<Inline>) -> Vec<Inline> {
    let mut out: Vec<Inline> = Vec::with_capacity(runs.len());
    for r in runs {
        match (out.last_mut(), r) {
            (Some(Inline::Text(a)), Inline::Text(b)) => a.push_str(&b),
            (_, r) => out.push(r),
        }
    }
    out
}

/// One property schema (or a scalar definition) in words, from its JSON keywords alone:
///
/// - `$ref` to a mapping: a link to its section; to a scalar definition: `name`,
///   `generation id`, `event name` (linked);
/// - `enum`: `one of read-write, read-only, …`;
/// - `boolean`: `true/false`; a string without pattern (with any other scalar types): `text`;
/// - `integer` (with `string` spelled by the number pattern): `number`, with its bounds
///   `(1 to 64)`, `≤ 0xFFFFFFFF`, `≥ 1`; with another pattern, what its
///   `patternErrorMessage` says (`bit (19) or a range high:low (31:24)`), bounds after;
/// - a string matching one word: that word (`all`);
/// - `array`: `list of register` / `list of names` for references, `list of them` when the
///   items are the scalar form, else `list, each …`; `non-empty` with `minItems: 1`;
/// - `object`: the mapping of `allOf: [{ $ref }]`, or `mapping name → number` for
///   `patternProperties`;
///
/// alternatives joined in the order of `type`. Keywords it does not know are named at the
/// end (`see the schema for …`), never dropped.
pub fn describe(s: &Value, defs: &Map<String, Value>) -> Vec<Inline> {
    merged(describe_runs(s, defs))
}

pub(crate) fn describe_runs(s: &Value, defs: &Map<String, Value>) -> Vec<Inline> {
    let mut out = shape(s, defs);
    if let Some(o) = s.as_object() {
        let unknown: Vec<&str> = o
            .keys()
            .map(String::as_str)
            .filter(|k| !UNDERSTOOD.contains(k) && !k.starts_with('$'))
            .collect();
        if !unknown.is_empty() {
            out.push(text("; see the schema for "));
            for (i, k) in unknown.iter().enumerate() {
                if i > 0 {
                    out.push(text(", "));
                }
                out.push(code(*k));
            }
        }
    }
    out
}

pub(crate) fn shape(s: &Value, defs: &Map<String, Value>) -> Vec<Inline> {
    let ts = types(s);
    if let Some(def) = ref_name(s)
        && ts.is_empty()
    {
        return vec![reference(defs, def, false)];
    }
    if let Some(words) = s.get("enum").and_then(Value::as_array) {
        let mut out = vec![text("one of ")];
        for (i, w) in words.iter().enumerate() {
            if i > 0 {
                out.push(text(", "));
            }
            out.push(code(
                w.as_str().map_or_else(|| w.to_string(), str::to_owned),
            ));
        }
        return out;
    }
    let has = |t: &str| ts.contains(&t);
    let pattern = s.get("pattern").and_then(Value::as_str);
    let uint_pattern = js::uint_pattern();
    let numeric = has("integer") || has("number");
    let mut alts: Vec<Vec<Inline>> = Vec::new();

    if has("string") && pattern.is_none() {
        // Any scalar read as text.
        alts.push(vec![text("text")]);
    } else {
        if numeric {
            let b = bounds(s);
            if has("string") && pattern.is_some_and(|p| p != uint_pattern) {
                // The text form has its own spelling; the bounds apply to plain numbers.
                let mut a = pattern_phrase(s);
                if let Some(suffix) = bounds_suffix(b) {
                    a.push(text(suffix));
                }
                alts.push(a);
            } else {
                alts.push(vec![text(number_phrase(b))]);
            }
        } else if has("string") {
            let p = pattern.unwrap_or_default();
            alts.push(match literal(p) {
                Some(w) => vec![code(w)],
                None => pattern_phrase(s),
            });
        }
        if has("boolean") {
            alts.push(vec![text("true/false")]);
        }
        if has("null") {
            alts.push(vec![text("empty")]);
        }
    }
    if has("array") {
        let scalar = alts.first().map(|a| merged(a.clone()));
        let mut l = list(s, defs, scalar.as_deref());
        if !alts.is_empty() {
            // "number, or a list of them"
            l.insert(0, text("a "));
        }
        alts.push(l);
    }
    if has("object") {
        alts.push(mapping(s, defs));
    }
    if ts.is_empty() {
        // Object keywords without a type (a mapping used as one of several shapes).
        if let Some(def) = all_of_ref(s) {
            alts.push(vec![reference(defs, def, false)]);
        } else if s.get("properties").is_some() {
            alts.push(vec![text("mapping")]);
        }
    }
    if alts.is_empty() {
        alts.push(vec![text("any value")]);
    }
    alternatives(alts)
}

pub(crate) fn all_of_ref(s: &Value) -> Option<&str> {
    s.get("allOf")?.as_array()?.iter().find_map(ref_name)
}

pub(crate) fn list(s: &Value, defs: &Map<String, Value>, scalar: Option<&[Inline]>) -> Vec<Inline> {
    let mut out = vec![text(match s.get("minItems").and_then(Value::as_u64) {
        None | Some(0) => "list".to_owned(),
        Some(1) => "non-empty list".to_owned(),
        Some(n) => format!("list of at least {n}"),
    })];
    let Some(items) = s.get("items") else {
        return out;
    };
    if let (Some(def), true) = (ref_name(items), types(items).is_empty()) {
        out.push(text(" of "));
        out.push(reference(defs, def, true));
        return out;
    }
    let each = describe(items, defs);
    if scalar.is_some_and(|sc| sc == each.as_slice()) {
        out.push(text(" of them"));
    } else {
        out.push(text(", each "));
        out.extend(each);
    }
    out
}

pub(crate) fn mapping(s: &Value, defs: &Map<String, Value>) -> Vec<Inline> {
    if let Some(def) = all_of_ref(s) {
        return vec![reference(defs, def, false)];
    }
    let mut out = vec![text("mapping")];
    if let Some(pp) = s.get("patternProperties").and_then(Value::as_object) {
        for (i, (pat, value)) in pp.iter().enumerate() {
            out.push(text(if i == 0 { " " } else { "; " }));
            // A key pattern that is a named definition's pattern reads as its noun.
            let named = defs.iter().find(|(_, d)| {
                d.get("pattern").and_then(Value::as_str) == Some(pat.as_str())
                    && d.get("type").and_then(Value::as_str) == Some("string")
            });
            match named {
                Some((def, _)) => out.push(reference(defs, def, false)),
                None => {
                    out.push(text("key matching "));
                    out.push(code(pat));
                }
            }
            out.push(text(" → "));
            out.extend(describe(value, defs));
        }
    } else if let Some(props) = s.get("properties").and_then(Value::as_object) {
        out.push(text(" with "));
        for (i, k) in props.keys().enumerate() {
            if i > 0 {
                out.push(text(", "));
            }
            out.push(code(k));
        }
    }
    match s.get("minProperties").and_then(Value::as_u64) {
        Some(1) => out.push(text(", at least one entry")),
        Some(n) if n > 1 => out.push(text(format!(", at least {n} entries"))),
        _ => {}
    }
    out
}

// ---------------------------------------------------------------------------------------
// Examples as YAML
// ---------------------------------------------------------------------------------------

/// A JSON value as YAML flow syntax, the way a definition file writes it: numbers from 256
/// in hex (addresses), strings unquoted unless YAML would read them otherwise.
pub fn yaml_flow(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_u64() {
            Some(u) if u >= 0x100 => format::hex(u),
            _ => n.to_string(),
        },
        Value::String(s) => yaml_scalar(s),
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(yaml_flow).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(o) => format!(
            "{{ {} }}",
            o.iter()
                .map(|(k, v)| format!("{}: {}", yaml_scalar(k), yaml_flow(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

pub(crate) fn yaml_scalar(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '/'))
        && s.starts_with(|c: char| c.is_ascii_alphanumeric())
        && !s.ends_with(':')
        && !s.contains(": ")
        && !s.chars().all(|c| c.is_ascii_digit())
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n" | "~"
        );
    if plain {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "''"))
    }
}
