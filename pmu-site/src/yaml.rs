//! "Writing definitions": the YAML reference (`yaml.html`, `md/yaml.md`) and a downloadable
//! copy of the JSON Schema (`schema/generation.schema.json`).
//!
//! Everything on the page comes from [`pmu_defs::schema::schema`]: one section per definition,
//! each mapping with a table of its keys (value in words, required or not, meaning and
//! examples). Nothing here lists keys: a key or definition the schema gains shows up by itself.
//! The only lists are presentational: [`ORDER`], the reading order of the definitions this
//! version knows (others follow, sorted), and [`NOUNS`], how a reference to a scalar
//! definition is worded.
//!
//! [`describe`] turns one property schema into words (`number (1 to 64)`,
//! `one of read-write, …`, `list of register`); its output is [`Inline`] runs, rendered as
//! HTML or Markdown.

use super::escape::{html, md, md_code, url};
use super::layout::{self, Nav, Page};
use super::{Ctx, Site, format};
use pmu_defs::schema as js;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// The reference page.
pub const PAGE: &str = "yaml.html";
/// The reference as Markdown.
pub const MD_PAGE: &str = "md/yaml.md";
/// The schema copy the page links to, so the link works from `file://`.
pub const SCHEMA_FILE: &str = "schema/generation.schema.json";

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

/// How a reference to a scalar definition reads in the value column; any other is its name
/// with spaces (`generation-id` → "generation id").
pub const NOUNS: &[(&str, &str)] = &[("ident", "name")];

/// Keywords [`describe`] puts into words (or that carry no constraint). Any other keyword in
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

/// A run of inline content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Code(String),
    /// A link to the section of definition `def`, showing `text` (in code when `code`).
    Link {
        def: String,
        text: String,
        code: bool,
    },
}

fn text(s: impl Into<String>) -> Inline {
    Inline::Text(s.into())
}

fn code(s: impl Into<String>) -> Inline {
    Inline::Code(s.into())
}

/// Runs as plain text, code in backticks: what unit tests compare.
#[cfg(test)]
pub fn plain(runs: &[Inline]) -> String {
    runs.iter()
        .map(|r| match r {
            Inline::Text(t) => t.clone(),
            Inline::Code(c) => format!("`{c}`"),
            Inline::Link { text, code, .. } if *code => format!("`{text}`"),
            Inline::Link { text, .. } => text.clone(),
        })
        .collect()
}

/// Runs as HTML: code in `<code>`, links to `#def` (on `page`, relative to the current one).
pub fn to_html(runs: &[Inline], page: &str) -> String {
    let mut out = String::new();
    for r in runs {
        match r {
            Inline::Text(t) => {
                let _ = write!(out, "{}", html(t));
            }
            Inline::Code(c) => {
                let _ = write!(out, "<code>{}</code>", html(c));
            }
            Inline::Link { def, text, code } => {
                let inner = if *code {
                    format!("<code>{}</code>", html(text))
                } else {
                    html(text).to_string()
                };
                let _ = write!(
                    out,
                    r##"<a href="{}#{}">{inner}</a>"##,
                    html(page),
                    html(def)
                );
            }
        }
    }
    out
}

/// Markdown text on one line; unlike `md_cell`, spaces at the ends stay (runs join).
fn md_line(t: &str) -> String {
    md(&t.replace(['\n', '\r'], " "))
}

/// Runs as one line of Markdown (safe in a table cell).
pub fn to_md(runs: &[Inline]) -> String {
    let mut out = String::new();
    for r in runs {
        match r {
            Inline::Text(t) => out.push_str(&md_line(t)),
            Inline::Code(c) => out.push_str(&md_code(c)),
            Inline::Link { def, text, code } => {
                let shown = if *code { md_code(text) } else { md_line(text) };
                let _ = write!(out, "[{shown}](#{})", url(def));
            }
        }
    }
    out
}

/// Prose with `backtick` spans: text and code runs. An unmatched backtick stays text.
pub fn prose_runs(s: &str) -> Vec<Inline> {
    let folded: Vec<&str> = s.split_whitespace().collect();
    let s = folded.join(" ");
    let mut out = Vec::new();
    let mut rest = s.as_str();
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else {
            break;
        };
        if open > 0 {
            out.push(text(&rest[..open]));
        }
        out.push(code(&rest[open + 1..open + 1 + len]));
        rest = &rest[open + 1 + len + 1..];
    }
    if !rest.is_empty() {
        out.push(text(rest));
    }
    out
}

// ---------------------------------------------------------------------------------------
// Property schemas in words
// ---------------------------------------------------------------------------------------

/// The name of the definition a `#/definitions/…` reference points at.
fn ref_name(v: &Value) -> Option<&str> {
    v.get("$ref")?
        .as_str()
        .map(|r| r.strip_prefix("#/definitions/").unwrap_or(r))
}

fn is_mapping(defs: &Map<String, Value>, name: &str) -> bool {
    defs.get(name)
        .is_some_and(|d| d.get("properties").is_some_and(Value::is_object))
}

fn noun(def: &str) -> String {
    NOUNS
        .iter()
        .find(|(d, _)| *d == def)
        .map_or_else(|| def.replace('-', " "), |(_, n)| (*n).to_owned())
}

/// A reference: a mapping is a link named by its definition (`register`), a scalar type a
/// link worded by [`noun`] (`name`, `generation ids` when `plural`).
fn reference(defs: &Map<String, Value>, def: &str, plural: bool) -> Inline {
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
fn limit(n: &Value) -> String {
    match n.as_u64() {
        Some(v) if v >= 0xFFFF && v.checked_add(1).is_none_or(u64::is_power_of_two) => {
            format::hex(v)
        }
        _ => n.to_string(),
    }
}

/// The bounds of a number: `1 to 64`, `≤ 0xFFFFFFFF`, `≥ 1`, or nothing.
#[derive(Debug, PartialEq, Eq)]
enum Bounds {
    Range(String, String),
    AtMost(String),
    AtLeast(String),
}

fn bounds(s: &Value) -> Option<Bounds> {
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
fn number_phrase(b: Option<Bounds>) -> String {
    match b {
        Some(Bounds::Range(lo, hi)) => format!("number ({lo} to {hi})"),
        Some(Bounds::AtMost(hi)) => format!("number ≤ {hi}"),
        Some(Bounds::AtLeast(lo)) => format!("number ≥ {lo}"),
        None => "number".to_owned(),
    }
}

/// The bounds after a phrase that is not "number": `, from 0 to 63`.
fn bounds_suffix(b: Option<Bounds>) -> Option<String> {
    match b? {
        Bounds::Range(lo, hi) => Some(format!(", from {lo} to {hi}")),
        Bounds::AtMost(hi) => Some(format!(", at most {hi}")),
        Bounds::AtLeast(lo) => Some(format!(", at least {lo}")),
    }
}

/// What a `patternErrorMessage` says the text is, as a phrase: "A bit (`19`)." → "bit (`19`)".
fn pattern_phrase(s: &Value) -> Vec<Inline> {
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
fn literal(pattern: &str) -> Option<&str> {
    let w = pattern.strip_prefix('^')?.strip_suffix('$')?;
    (!w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    .then_some(w)
}

fn types(s: &Value) -> Vec<&str> {
    match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    }
}

/// Joins alternatives: `a`, `a, or b`, `a, b, or c`.
fn alternatives(alts: Vec<Vec<Inline>>) -> Vec<Inline> {
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
fn merged(runs: Vec<Inline>) -> Vec<Inline> {
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

fn describe_runs(s: &Value, defs: &Map<String, Value>) -> Vec<Inline> {
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

fn shape(s: &Value, defs: &Map<String, Value>) -> Vec<Inline> {
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

fn all_of_ref(s: &Value) -> Option<&str> {
    s.get("allOf")?.as_array()?.iter().find_map(ref_name)
}

fn list(s: &Value, defs: &Map<String, Value>, scalar: Option<&[Inline]>) -> Vec<Inline> {
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

fn mapping(s: &Value, defs: &Map<String, Value>) -> Vec<Inline> {
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

fn yaml_scalar(s: &str) -> String {
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

// ---------------------------------------------------------------------------------------
// The reference as data
// ---------------------------------------------------------------------------------------

/// One key of a mapping.
struct Key {
    name: String,
    value: Vec<Inline>,
    /// `None`: optional; `Some(None)`: required; `Some(Some(other))`: required unless
    /// `other` is given (the schema's `if not required [other] then required [key]`).
    required: Option<Option<String>>,
    meaning: Vec<Inline>,
    examples: Vec<String>,
}

/// One definition's section.
struct Section {
    name: String,
    description: Vec<Inline>,
    /// Mappings: the keys, in the loader's order.
    keys: Option<Vec<Key>>,
    /// Scalar types: their form in words, and their pattern.
    form: Option<Vec<Inline>>,
    pattern: Option<String>,
    notes: Vec<Vec<Inline>>,
    examples: Vec<String>,
    /// `def.key` places that refer to this definition.
    used_in: Vec<(String, String)>,
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
fn key_order<'a>(def: &str, props: &'a Map<String, Value>) -> Vec<&'a str> {
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
fn refs_below<'a>(v: &'a Value, out: &mut BTreeSet<&'a str>) {
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
fn required_unless(d: &Value) -> BTreeMap<String, String> {
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

fn examples(v: &Value) -> Vec<String> {
    v.get("examples")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(yaml_flow).collect())
        .unwrap_or_default()
}

fn sections(schema: &Value) -> Vec<Section> {
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
fn number_spelling(schema: &Value) -> Option<String> {
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
fn closed(schema: &Value) -> bool {
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
// Pages
// ---------------------------------------------------------------------------------------

/// Where a definition file in `pmu-defs/defs/<vendor>/` points its modeline.
fn in_tree_modeline() -> String {
    js::modeline("pmu-defs/defs/vendor/file.yaml")
}

/// A modeline for a file next to a downloaded copy of the schema.
fn beside_modeline() -> String {
    let file = SCHEMA_FILE.rsplit('/').next().unwrap_or(SCHEMA_FILE);
    format!("{}{file}", js::MODELINE_PREFIX)
}

pub fn all(cx: &Ctx<'_>, site: &mut Site) {
    let schema = js::schema();
    let secs = sections(&schema);
    site.add(SCHEMA_FILE.to_owned(), js::render());
    site.add(PAGE.to_owned(), page_html(cx, &schema, &secs));
    site.add(MD_PAGE.to_owned(), page_md(&schema, &secs));
}

fn page_html(cx: &Ctx<'_>, schema: &Value, secs: &[Section]) -> String {
    let here = "";
    let mut b = String::new();
    let schema_name = SCHEMA_FILE.rsplit('/').next().unwrap_or(SCHEMA_FILE);
    let _ = write!(
        b,
        r#"<h1>Writing definitions</h1>
<p class="sub">YAML reference</p>
<p class="lede">Every key of a definition file: one section per mapping, with the value each key takes, whether it is required and what it means. This page is generated from the JSON Schema that editors use (<code>cargo xtask schema</code>), so it lists exactly the keys the loader accepts.</p>
<h2 id="editor">Let your editor check as you type</h2>
<p>Start each file with the schema modeline; the YAML language server (VS Code's Red Hat YAML extension, Neovim, Helix, Zed; JetBrains IDEs read the same line) then completes keys, shows each key's meaning on hover and underlines mistakes. For a file in <code>pmu-defs/defs/&lt;vendor&gt;/</code>:</p>
<pre><code>{}</code></pre>
<p>For YAML kept elsewhere (a <code>registers!</code> file in your crate), <a href="{}" download="{}">download the schema</a> (or write a copy with <code>cargo xtask schema --out FILE</code>), put it next to the file and write:</p>
<pre><code>{}</code></pre>
<p>The schema checks one file on its own: keys, value shapes, name spelling, keywords, ranges and required keys. <code>cargo xtask validate</code> checks what it cannot: <code>extends</code> chains and overrides of entries the parent must have, overlapping fields, fields past the register width, counters that exist, duplicate names, and quoting (a quoted number such as <code>width: '48'</code>, or an unquoted YAML 1.1 boolean such as <code>name: yes</code>).</p>
"#,
        html(&in_tree_modeline()),
        html(SCHEMA_FILE),
        html(schema_name),
        html(&beside_modeline()),
    );
    let mut general = Vec::new();
    if let Some(root) = ref_name(schema) {
        let defs = schema
            .get("definitions")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        general.push(vec![
            text("A file is one "),
            reference(&defs, root, false),
            text(" mapping."),
        ]);
    }
    if closed(schema) {
        general.push(vec![text(
            "Every mapping refuses keys its table does not list (the loader suggests the nearest one).",
        )]);
    }
    if let Some(n) = number_spelling(schema) {
        let mut runs = vec![text("Numbers: ")];
        runs.extend(prose_runs(&n));
        general.push(runs);
    }
    if !general.is_empty() {
        b.push_str("<ul>");
        for g in &general {
            let _ = write!(b, "<li>{}</li>", to_html(g, here));
        }
        b.push_str("</ul>\n");
    }
    b.push_str(
        r#"<nav class="toc" aria-label="Definitions"><p class="navhead">Definitions</p><ul>"#,
    );
    for s in secs {
        let _ = write!(
            b,
            r##"<li><a href="#{}"><code>{}</code></a></li>"##,
            html(&s.name),
            html(&s.name)
        );
    }
    b.push_str("</ul></nav>\n");

    for s in secs {
        let _ = write!(
            b,
            r##"<section class="def" id="{}"><h2><a class="anchor" href="#{}"><code>{}</code></a></h2>"##,
            html(&s.name),
            html(&s.name),
            html(&s.name)
        );
        if !s.description.is_empty() {
            let _ = write!(b, "<p>{}</p>", to_html(&s.description, here));
        }
        for n in &s.notes {
            let _ = write!(b, r#"<p class="note">{}</p>"#, to_html(n, here));
        }
        let mut facts = String::new();
        if let Some(f) = &s.form {
            let _ = write!(facts, "<dt>Value</dt><dd>{}</dd>", to_html(f, here));
        }
        if let Some(p) = &s.pattern {
            let _ = write!(facts, "<dt>Pattern</dt><dd><code>{}</code></dd>", html(p));
        }
        if !s.examples.is_empty() {
            let _ = write!(
                facts,
                "<dt>Examples</dt><dd>{}</dd>",
                examples_html(&s.examples)
            );
        }
        if !s.used_in.is_empty() {
            let links: Vec<String> = s
                .used_in
                .iter()
                .map(|(d, k)| {
                    format!(
                        r##"<a href="#{}.{}"><code>{}.{}</code></a>"##,
                        html(d),
                        html(k),
                        html(d),
                        html(k)
                    )
                })
                .collect();
            let _ = write!(facts, "<dt>Used in</dt><dd>{}</dd>", links.join(", "));
        }
        if !facts.is_empty() {
            let _ = write!(b, r#"<dl class="facts">{facts}</dl>"#);
        }
        if let Some(keys) = &s.keys {
            b.push_str(r#"<div class="table-wrap"><table class="fields keys"><thead><tr><th scope="col">Key</th><th scope="col">Value</th><th scope="col">Required</th><th scope="col">Meaning</th></tr></thead><tbody>"#);
            for k in keys {
                let required = match &k.required {
                    None => String::new(),
                    Some(None) => r#"<span class="tag tag-req">required</span>"#.to_owned(),
                    Some(Some(o)) => format!(
                        r##"<span class="tag tag-req">required</span> <span class="note">unless <a href="#{}.{}"><code>{}</code></a></span>"##,
                        html(&s.name),
                        html(o),
                        html(o)
                    ),
                };
                let _ = write!(
                    b,
                    r##"<tr id="{0}.{1}"><td class="fname"><a class="anchor" href="#{0}.{1}"><code>{1}</code></a></td><td class="val">{2}</td><td>{required}</td><td class="doc">{3}"##,
                    html(&s.name),
                    html(&k.name),
                    to_html(&k.value, here),
                    to_html(&k.meaning, here)
                );
                if !k.examples.is_empty() {
                    let _ = write!(
                        b,
                        r#"<div class="note">Examples: {}</div>"#,
                        examples_html(&k.examples)
                    );
                }
                b.push_str("</td></tr>");
            }
            b.push_str("</tbody></table></div>");
        }
        b.push_str("</section>\n");
    }
    let page = Page {
        path: PAGE,
        title: "Writing definitions".to_owned(),
        nav: Nav::Yaml,
        body: b,
        scripts: vec![],
        main_attrs: String::new(),
    };
    layout::render(cx, &page)
}

fn examples_html(ex: &[String]) -> String {
    ex.iter()
        .map(|e| format!("<code>{}</code>", html(e)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn page_md(schema: &Value, secs: &[Section]) -> String {
    let schema_rel = format!("../{SCHEMA_FILE}");
    let mut out = String::new();
    let _ = write!(
        out,
        "# Writing definitions: YAML reference\n\n[All generations](README.md) · [HTML version](../{PAGE}) · [the JSON Schema]({schema_rel})\n\n\
Every key of a definition file: one section per mapping, with the value each key takes, whether it is required and what it means. Generated by `cargo xtask gen-docs` from the JSON Schema that editors use (`cargo xtask schema`), so it lists exactly the keys the loader accepts.\n\n\
## Let your editor check as you type\n\n\
Start each file with the schema modeline; the YAML language server (VS Code's Red Hat YAML extension, Neovim, Helix, Zed; JetBrains IDEs read the same line) then completes keys, shows each key's meaning on hover and underlines mistakes. For a file in `pmu-defs/defs/<vendor>/`:\n\n```yaml\n{}\n```\n\n\
For YAML kept elsewhere (a `registers!` file in your crate), [download the schema]({schema_rel}) (or write a copy with `cargo xtask schema --out FILE`), put it next to the file and write:\n\n```yaml\n{}\n```\n\n\
The schema checks one file on its own: keys, value shapes, name spelling, keywords, ranges and required keys. `cargo xtask validate` checks what it cannot: `extends` chains and overrides of entries the parent must have, overlapping fields, fields past the register width, counters that exist, duplicate names, and quoting (a quoted number such as `width: '48'`, or an unquoted YAML 1.1 boolean such as `name: yes`).\n\n",
        in_tree_modeline(),
        beside_modeline()
    );
    let defs = schema
        .get("definitions")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    if let Some(root) = ref_name(schema) {
        let _ = writeln!(
            out,
            "- {}",
            to_md(&[
                text("A file is one "),
                reference(&defs, root, false),
                text(" mapping."),
            ])
        );
    }
    if closed(schema) {
        out.push_str("- Every mapping refuses keys its table does not list (the loader suggests the nearest one).\n");
    }
    if let Some(n) = number_spelling(schema) {
        let mut runs = vec![text("Numbers: ")];
        runs.extend(prose_runs(&n));
        let _ = writeln!(out, "- {}", to_md(&runs));
    }
    out.push_str("\nDefinitions: ");
    let toc: Vec<String> = secs
        .iter()
        .map(|s| format!("[{}](#{})", md_code(&s.name), url(&s.name)))
        .collect();
    out.push_str(&toc.join(" · "));
    out.push_str("\n\n");

    for s in secs {
        let _ = writeln!(
            out,
            "<a id=\"{}\"></a>\n\n## {}\n",
            html(&s.name),
            md_code(&s.name)
        );
        if !s.description.is_empty() {
            let _ = writeln!(out, "{}\n", to_md(&s.description));
        }
        for n in &s.notes {
            let _ = writeln!(out, "{}\n", to_md(n));
        }
        if let Some(f) = &s.form {
            let _ = writeln!(out, "- Value: {}", to_md(f));
        }
        if let Some(p) = &s.pattern {
            let _ = writeln!(out, "- Pattern: {}", md_code(p));
        }
        if !s.examples.is_empty() {
            let _ = writeln!(out, "- Examples: {}", examples_md(&s.examples));
        }
        if !s.used_in.is_empty() {
            let links: Vec<String> = s
                .used_in
                .iter()
                .map(|(d, k)| {
                    let anchor = format!("{d}.{k}");
                    format!("[{}](#{})", md_code(&anchor), url(&anchor))
                })
                .collect();
            let _ = writeln!(out, "- Used in: {}", links.join(", "));
        }
        if s.form.is_some()
            || s.pattern.is_some()
            || !s.examples.is_empty()
            || !s.used_in.is_empty()
        {
            out.push('\n');
        }
        if let Some(keys) = &s.keys {
            out.push_str("| Key | Value | Required | Meaning |\n|---|---|---|---|\n");
            for k in keys {
                let required = match &k.required {
                    None => String::new(),
                    Some(None) => "required".to_owned(),
                    Some(Some(o)) => format!("required unless {}", md_code(o)),
                };
                let mut meaning = to_md(&k.meaning);
                if !k.examples.is_empty() {
                    let _ = write!(meaning, "<br>Examples: {}", examples_md(&k.examples));
                }
                let _ = writeln!(
                    out,
                    "| <a id=\"{}.{}\"></a>{} | {} | {required} | {meaning} |",
                    html(&s.name),
                    html(&k.name),
                    md_code(&k.name),
                    to_md(&k.value)
                );
            }
            out.push('\n');
        }
    }
    out
}

fn examples_md(ex: &[String]) -> String {
    ex.iter().map(|e| md_code(e)).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        let other =
            json!({ "type": "object", "patternProperties": { "^x-": { "type": "boolean" } } });
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
}
