//! Event tables: one data file per generation (`data/events/<id>.js`), an HTML page whose
//! rows the browser builds from it (filterable by name and code), and a Markdown table.
//!
//! A row shows what a reader comes for, in a few columns (`place: "main"`): the name, the
//! event code and unit mask, the counter mask / invert / edge modifiers, the counters in
//! words, the perf event string and the event-select value, both computed by
//! [`pmu_defs::encode::Encoder`] exactly as `cargo xtask encode` computes them (default
//! modifiers: user and kernel mode). Every other attribute is behind the row's Details
//! button (`place: "details"`), in words, never as JSON.
//!
//! The attribute columns come from the serialised `model::Event`, so attributes the model
//! gains later show up without changes here: known ones get a full-word label and a format,
//! unknown ones are labelled from their key and shown in words by their shape. Columns
//! whose value is the default in every row have `show: false` (kept in the data, which the
//! decoder matches against).

use crate::context::{Ctx, paths};
use crate::descriptions::{Descriptions, Source};
use crate::escape::{self, json_for_js, md_cell, md_code};
use crate::format;
use crate::layout::{self, Nav, Page};
use crate::site::Site;
use askama::Template;
use pmu_defs::encode::{Encoder, Request};
use pmu_defs::model::{EVENT_FLAGS, Generation};
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write;

/// One column of an event table.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Column {
    /// Attribute name in the serialised event (`event`, `umask`, ...), or a computed
    /// column (`code`, `modifiers`, `counters_text`, `perf`, `value`, `register`).
    pub key: String,
    /// Header text, in full words.
    pub label: String,
    /// How to show a value: `name`, `text` (shown as it is), `copy` (text with a copy
    /// button), `hex`, `hexlist`, `flag`, `num`, `list` (number ranges), `counterset`,
    /// `msr`, `gen`, `allow` (`code: reason` entries), `words` (a list of strings), `object`
    /// (an unknown shape, put in words).
    pub kind: &'static str,
    /// `main`: a column of the row; `details`: behind the row's Details button; `data`:
    /// only in the data (the decoder and the computed columns read it).
    pub place: &'static str,
    /// False when every row holds the default (the column is still in the data).
    pub show: bool,
}

/// The events of one generation as columns and rows.
#[derive(Clone, Debug, Serialize)]
pub struct Table {
    pub generation: String,
    /// The general-purpose event select, whose value the `value` column is (fixed-only
    /// events give their block of the fixed counter control instead; `register` says so).
    pub select: Option<String>,
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Value>>,
    /// Where the events' descriptions live, when the table has none of its own (a site
    /// built without `--descriptions`): each row's details link there.
    pub source: Option<Source>,
    /// Where the Rust paths link: the rustdoc root (`rust::RUSTDOC`); `assets/events.js`
    /// makes `…/events/enum.Event.html#variant.X` of `…::events::Event::X`.
    pub rustdoc: Option<String>,
}

/// Attributes of `model::Event` before its flags, with their labels and formats.
const KNOWN_BEFORE_FLAGS: &[(&str, &str, &str)] = &[
    ("name", "Name", "name"),
    ("event", "Event code", "hex"),
    ("alt_events", "Alternative event codes", "hexlist"),
    ("umask", "Unit mask", "hex"),
    ("alt_umasks", "Alternative unit masks", "hexlist"),
    ("umask2", "Second unit mask", "hex"),
    ("cmask", "Counter mask", "num"),
    ("inv", "Invert", "flag"),
    ("edge", "Edge detect", "flag"),
    ("any", "Any thread", "flag"),
    ("eq", "Equal compare", "flag"),
    ("counters", "General counters", "list"),
    ("fixed", "Fixed counter", "num"),
    (
        "counters_ht_off",
        "Counters with Hyper-Threading off",
        "counterset",
    ),
    ("pebs_counters", "PEBS counters", "counterset"),
    (
        "pdist_counters",
        "Precise-distribution counters",
        "counterset",
    ),
    (
        "pdir_counters",
        "Precise instructions-retired counters",
        "counterset",
    ),
    ("msr", "Auxiliary MSR", "msr"),
    ("cpuid_bit", "Unavailable when CPUID.0AH:EBX bit", "num"),
    ("pebs", "PEBS support", "num"),
    ("collect_pebs_record", "PEBS record level", "num"),
];
/// Attributes of `model::Event` after its flags.
const KNOWN_AFTER_FLAGS: &[(&str, &str, &str)] = &[
    ("errata", "Errata", "words"),
    ("sample_after", "Default sample period", "num"),
    ("allow", "Acknowledged", "allow"),
    ("since", "Since", "gen"),
    ("doc", "Description", "text"),
    ("description", "Description", "text"),
];

/// Attributes of `model::Event` with their labels and formats, in details order: the flags'
/// labels are the definitions' ([`EVENT_FLAGS`]).
fn known() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> + Clone {
    let flags = EVENT_FLAGS.iter().map(|f| (f.field, f.label, "flag"));
    KNOWN_BEFORE_FLAGS
        .iter()
        .copied()
        .chain(flags)
        .chain(KNOWN_AFTER_FLAGS.iter().copied())
}

/// The computed columns: key, label, kind, place.
const COMPUTED: [(&str, &str, &str, &str); 8] = [
    ("code", "Event code.unit mask", "text", "main"),
    ("modifiers", "Counter mask, invert, edge", "text", "main"),
    ("counters_text", "Counters", "text", "main"),
    ("perf", "perf event", "copy", "main"),
    ("value", "Event-select value", "copy", "main"),
    ("register", "Register", "text", "details"),
    ("rust", "In Rust", "copy", "details"),
    ("filters", "Filter tags", "words", "data"),
];

/// The tags the table's filters select by ([`filter_tags`]), with the filter's label.
pub const FILTERS: [(&str, &str); 4] = [
    ("precise", "Precise (PEBS)"),
    ("fixed-only", "Fixed counter only"),
    ("aux-msr", "Auxiliary MSR"),
    ("deprecated", "Deprecated"),
];

/// The table's filter tags of one event: `precise` (PEBS can sample it, or the definitions
/// call it precise), `fixed-only` (no general-purpose counter counts it), `aux-msr` (it needs
/// an auxiliary MSR programmed), `deprecated`; then `g<n>` per general-purpose counter and
/// `f<n>` for its fixed counter, for the counter filter.
pub fn filter_tags(e: &pmu_defs::model::Event) -> Vec<String> {
    let set = [
        e.pebs.is_some_and(|p| p > 0) || e.precise == Some(true),
        e.counters.is_empty() && e.fixed.is_some(),
        e.msr.is_some(),
        e.deprecated,
    ];
    let mut tags: Vec<String> = FILTERS
        .iter()
        .zip(set)
        .filter(|(_, on)| *on)
        .map(|((t, _), _)| (*t).to_owned())
        .collect();
    tags.extend(e.counters.iter().map(|c| format!("g{c}")));
    tags.extend(e.fixed.iter().map(|f| format!("f{f}")));
    tags
}

/// Attributes the main columns show (not repeated in the details).
const IN_MAIN: [&str; 9] = [
    "name", "event", "umask", "umask2", "cmask", "inv", "edge", "counters", "fixed",
];

/// Largest integer JavaScript numbers hold exactly.
const JS_SAFE: u64 = (1 << 53) - 1;

/// Numbers JavaScript cannot hold exactly become `0x…` strings.
fn js_safe(v: Value) -> Value {
    match v {
        Value::Number(n) if n.as_u64().is_some_and(|u| u > JS_SAFE) => {
            Value::String(format::hex(n.as_u64().unwrap_or_default()))
        }
        Value::Array(a) => Value::Array(a.into_iter().map(js_safe).collect()),
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, js_safe(v))).collect()),
        other => other,
    }
}

fn is_default(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_u64() == Some(0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.values().all(is_default),
    }
}

/// The format of an attribute this table does not know, from its shape.
fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Bool(_) => "flag",
        Value::Number(_) => "num",
        Value::String(_) => "text",
        Value::Array(a) if a.iter().all(Value::is_number) => "list",
        Value::Array(a) if a.iter().all(Value::is_string) => "words",
        Value::Object(m) if m.contains_key("general") && m.contains_key("fixed") => "counterset",
        _ => "object",
    }
}

/// `pebs_counters` → `Pebs counters`.
fn label_of(key: &str) -> String {
    let mut s = key.replace('_', " ");
    if let Some(first) = s.get(..1) {
        let up = first.to_uppercase();
        s.replace_range(..1, &up);
    }
    s
}

/// True for an attribute or computed column with its own full-word label and format.
pub fn is_known(key: &str) -> bool {
    known().any(|(k, _, _)| k == key) || COMPUTED.iter().any(|(k, ..)| *k == key)
}

/// The table of a generation's events, with the encoder's perf string and value per event.
pub fn table<'m>(enc: &Encoder<'m>, g: &'m Generation) -> Table {
    table_with(enc, g, None)
}

/// [`table`], with each event's description from `descriptions` where its list has one;
/// without any, the table says where they live ([`Table::source`]).
pub fn table_with<'m>(
    enc: &Encoder<'m>,
    g: &'m Generation,
    descriptions: Option<&Descriptions>,
) -> Table {
    let objects: Vec<serde_json::Map<String, Value>> = g
        .events
        .iter()
        .map(|e| {
            let mut m = match serde_json::to_value(e) {
                Ok(Value::Object(m)) => m,
                _ => serde_json::Map::new(),
            };
            for (k, v) in computed(enc, g, e) {
                m.insert(k.to_owned(), v);
            }
            if let Some(text) = descriptions.and_then(|d| d.get(&g.id, &e.name)) {
                m.insert("description".to_owned(), Value::String(text.to_owned()));
            }
            m
        })
        .collect();
    let mut t = table_from(&g.id, objects);
    t.select = g.pmu.general.as_ref().map(|s| s.select.clone());
    let described = t.columns.iter().any(|c| c.key == "description");
    t.source = crate::descriptions::source(g).filter(|_| !described);
    t.rustdoc = Some(crate::rust::RUSTDOC.to_owned());
    t
}

/// The computed columns of one event: code, modifiers and counters in words, what
/// `cargo xtask encode --model <g> <name>` gives (perf string, value, register), its Rust
/// path and its filter tags.
fn computed<'m>(
    enc: &Encoder<'m>,
    g: &'m Generation,
    e: &pmu_defs::model::Event,
) -> [(&'static str, Value); 8] {
    let mut code = format!("{:02X}.{:02X}", e.event, e.umask);
    if let Some(u2) = e.umask2 {
        let _ = write!(code, ".{u2:02X}");
    }
    let mut mods = Vec::new();
    if e.cmask != 0 {
        mods.push(format!("cmask {}", e.cmask));
    }
    if e.inv {
        mods.push("invert".to_owned());
    }
    if e.edge {
        mods.push("edge".to_owned());
    }
    if e.any {
        mods.push("any thread".to_owned());
    }
    if e.eq {
        mods.push("equal".to_owned());
    }
    let counters = counter_words(&e.counters, e.fixed.as_slice());
    let (perf, value, register) = match enc.encode_in(g, &Request::new(e.name.clone())) {
        Ok(x) => (
            Value::String(x.perf),
            Value::String(format::hex(x.value)),
            Value::String(x.register),
        ),
        Err(err) => (Value::Null, Value::Null, Value::String(err.to_string())),
    };
    [
        ("code", Value::String(code)),
        ("modifiers", Value::String(mods.join(", "))),
        ("counters_text", Value::String(counters)),
        ("perf", perf),
        ("value", value),
        ("register", register),
        ("rust", Value::String(crate::rust::event_path(g, e))),
        (
            "filters",
            Value::Array(filter_tags(e).into_iter().map(Value::String).collect()),
        ),
    ]
}

/// `0–3, fixed 1`; `fixed 1 only`; `none`.
pub fn counter_words(general: &[u32], fixed: &[u32]) -> String {
    let mut parts = Vec::new();
    if !general.is_empty() {
        parts.push(format::number_ranges(general));
    }
    if !fixed.is_empty() {
        parts.push(format!("fixed {}", format::number_ranges(fixed)));
    }
    match parts.len() {
        0 => "none".to_owned(),
        1 if general.is_empty() => format!("{} only", parts[0]),
        _ => parts.join(", "),
    }
}

/// The table of events given in their serialised form (any attributes, plus the computed
/// columns when present).
pub fn table_from(generation: &str, objects: Vec<serde_json::Map<String, Value>>) -> Table {
    let objects: Vec<serde_json::Map<String, Value>> = objects
        .into_iter()
        .map(|m| m.into_iter().map(|(k, v)| (k, js_safe(v))).collect())
        .collect();
    let present = |k: &str| objects.iter().any(|o| o.contains_key(k));
    // The name, then the computed columns, then the attributes.
    let mut keys: Vec<String> = std::iter::once("name")
        .chain(COMPUTED.iter().map(|(k, ..)| *k))
        .chain(known().map(|(k, _, _)| k).filter(|k| *k != "name"))
        .filter(|k| present(k) || ["name", "event", "umask"].contains(k))
        .map(str::to_owned)
        .collect();
    let mut extra: Vec<String> = objects
        .iter()
        .flat_map(|o| o.keys())
        .filter(|k| !is_known(k))
        .cloned()
        .collect();
    extra.sort();
    extra.dedup();
    // Unknown attributes go before `allow`, `since` and `doc`.
    let tail = keys
        .iter()
        .position(|k| k == "allow" || k == "since" || k == "doc" || k == "description")
        .unwrap_or(keys.len());
    keys.splice(tail..tail, extra);

    let rows: Vec<Vec<Value>> = objects
        .iter()
        .map(|o| {
            keys.iter()
                .map(|k| o.get(k).cloned().unwrap_or(Value::Null))
                .collect()
        })
        .collect();
    let columns = keys
        .iter()
        .enumerate()
        .map(|(i, k)| column(k, rows.iter().map(|r| &r[i])))
        .collect();
    Table {
        generation: generation.to_owned(),
        select: None,
        columns,
        rows,
        source: None,
        rustdoc: None,
    }
}

fn column<'v>(key: &str, values: impl Iterator<Item = &'v Value> + Clone) -> Column {
    let computed = COMPUTED.iter().find(|(k, ..)| *k == key);
    let known = known().find(|(k, _, _)| *k == key);
    let show = if key == "since" {
        // Worth showing only when the events come from different generations.
        let mut all = values.clone();
        let first = all.next();
        all.any(|v| Some(v) != first)
    } else {
        ["name", "event", "umask"].contains(&key) || values.clone().any(|v| !is_default(v))
    };
    let (label, kind, place) = match (computed, known) {
        (Some((_, label, kind, place)), _) => ((*label).to_owned(), *kind, *place),
        (None, Some((_, label, kind))) => {
            let place = if IN_MAIN.contains(&key) {
                if key == "name" { "main" } else { "data" }
            } else {
                "details"
            };
            (label.to_owned(), kind, place)
        }
        (None, None) => (
            label_of(key),
            values
                .clone()
                .find(|v| !v.is_null())
                .map_or("text", kind_of),
            "details",
        ),
    };
    Column {
        key: key.to_owned(),
        label,
        kind,
        place,
        show,
    }
}

/// A number as hex, from a JSON number or a `0x…` string.
fn hex_of(v: &Value) -> String {
    match v {
        Value::Number(n) => n.as_u64().map_or_else(|| n.to_string(), format::hex),
        Value::String(s) => s.clone(),
        other => words(other),
    }
}

/// Any value in words (never JSON syntax): `a 1, b yes`.
fn words(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_owned(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(words).collect::<Vec<_>>().join(", "),
        Value::Object(m) => m
            .iter()
            .filter(|(_, v)| !is_default(v))
            .map(|(k, v)| format!("{} {}", k.replace('_', " "), words(v)))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

fn numbers(v: &Value) -> Option<Vec<u32>> {
    v.as_array()?
        .iter()
        .map(|x| x.as_u64().and_then(|u| u32::try_from(u).ok()))
        .collect()
}

/// Formats one value as the browser does (for Markdown and the tests).
pub fn text(kind: &str, v: &Value) -> String {
    match (kind, v) {
        (_, Value::Null) => String::new(),
        ("hex", _) => hex_of(v),
        ("hexlist", Value::Array(a)) => a.iter().map(hex_of).collect::<Vec<_>>().join(", "),
        ("flag", Value::Bool(b)) => if *b { "yes" } else { "" }.to_owned(),
        ("list", _) => numbers(v).map_or_else(|| words(v), |n| format::number_ranges(&n)),
        ("counterset", Value::Object(m)) => match (
            m.get("general").and_then(numbers),
            m.get("fixed").and_then(numbers),
        ) {
            (Some(g), Some(f)) => counter_words(&g, &f),
            _ => words(v),
        },
        ("msr", Value::Object(m)) => {
            let part = |k: &str| m.get(k).map(hex_of).unwrap_or_default();
            format!("{} = {}", part("index"), part("value"))
        }
        ("allow", Value::Array(a)) => a
            .iter()
            .map(|x| match (x.get("code"), x.get("reason")) {
                (Some(Value::String(c)), Some(Value::String(r))) => format!("{c}: {r}"),
                _ => words(x),
            })
            .collect::<Vec<_>>()
            .join("; "),
        (_, Value::Bool(b)) => if *b { "yes" } else { "" }.to_owned(),
        _ => words(v),
    }
}

/// Restores the rows of a table [`packed`] (in the browser, at the head of each data file).
const UNPACK_JS: &str = "PMU.unpackEvents = PMU.unpackEvents || function (t) {\n  var fill = t.fill, prefix = t.prefix;\n  t.rows = t.rows.map(function (p) {\n    var r = fill.slice();\n    for (var i = 0; i < p.length; i += 2) r[p[i]] = prefix[p[i]] ? prefix[p[i]] + p[i + 1] : p[i + 1];\n    return r;\n  });\n  delete t.fill;\n  delete t.prefix;\n};";

/// A table as its data file holds it: each column's most common value (`fill`) and the prefix
/// its other values share (`prefix`, for strings: `pmu_regs::intel::skylake::`) said once,
/// each row only its other values, as column index and value without the prefix (`[0,
/// "NAME", 8, "ArchEvent::X"]`). Most attributes hold their default in most rows: the rows
/// shrink to a third. [`unpack`] (and `UNPACK_JS` in the browser) restores the rows.
pub fn packed(t: &Table) -> Value {
    let n = t.columns.len();
    let mut fill = Vec::with_capacity(n);
    let mut prefix = Vec::with_capacity(n);
    for i in 0..n {
        // Value (as JSON) → (rows holding it, first row): the most common, the earliest of
        // equals, is the fill; none when every value is different.
        let mut counts: std::collections::HashMap<String, (usize, usize)> = Default::default();
        for (j, r) in t.rows.iter().enumerate() {
            counts.entry(r[i].to_string()).or_insert((0, j)).0 += 1;
        }
        let common = counts
            .values()
            .filter(|(c, _)| *c > 1)
            .max_by_key(|(c, first)| (*c, std::cmp::Reverse(*first)))
            .map_or(Value::Null, |(_, first)| t.rows[*first][i].clone());
        let others: Vec<&str> = t
            .rows
            .iter()
            .map(|r| &r[i])
            .filter(|v| **v != common)
            .map(|v| v.as_str())
            .collect::<Option<Vec<&str>>>()
            .unwrap_or_default();
        let shared = match others.split_first() {
            Some((first, rest)) if !rest.is_empty() => {
                let mut len = rest.iter().fold(first.len(), |len, s| {
                    first
                        .bytes()
                        .zip(s.bytes())
                        .take(len)
                        .take_while(|(a, b)| a == b)
                        .count()
                });
                while !first.is_char_boundary(len) {
                    len -= 1;
                }
                first[..len].to_owned()
            }
            _ => String::new(),
        };
        fill.push(common);
        prefix.push(shared);
    }
    let rows: Vec<Value> = t
        .rows
        .iter()
        .map(|r| {
            let mut out = Vec::new();
            for (i, v) in r.iter().enumerate() {
                if *v == fill[i] {
                    continue;
                }
                out.push(Value::from(i));
                out.push(match v {
                    Value::String(s) if !prefix[i].is_empty() => Value::from(&s[prefix[i].len()..]),
                    v => v.clone(),
                });
            }
            Value::Array(out)
        })
        .collect();
    serde_json::json!({
        "generation": t.generation,
        "select": t.select,
        "columns": t.columns,
        "fill": fill,
        "prefix": prefix,
        "rows": rows,
        "source": t.source,
        "rustdoc": t.rustdoc,
    })
}

/// The table of a data file as [`Table`] serialises it: the rows [`packed`] restored. Any
/// other value is returned as it is.
pub fn unpack(mut v: Value) -> Value {
    let (Some(fill), Some(prefix)) = (
        v.get("fill").and_then(Value::as_array).cloned(),
        v.get("prefix").and_then(Value::as_array).cloned(),
    ) else {
        return v;
    };
    let rows: Vec<Value> = v["rows"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|p| {
            let mut r = fill.clone();
            let p = p.as_array().map(Vec::as_slice).unwrap_or_default();
            for pair in p.chunks(2) {
                let (Some(i), Some(x)) = (pair[0].as_u64(), pair.get(1)) else {
                    continue;
                };
                let i = i as usize;
                r[i] = match (prefix[i].as_str(), x) {
                    (Some(pre), Value::String(s)) if !pre.is_empty() => {
                        Value::from(format!("{pre}{s}"))
                    }
                    _ => x.clone(),
                };
            }
            Value::Array(r)
        })
        .collect();
    v["rows"] = Value::Array(rows);
    if let Some(o) = v.as_object_mut() {
        o.remove("fill");
        o.remove("prefix");
    }
    v
}

pub(crate) fn all(cx: &Ctx<'_>, site: &mut Site) {
    let enc = Encoder::new(cx.model);
    for g in &cx.model.generations {
        if g.events.is_empty() {
            continue;
        }
        let t = table_with(&enc, g, cx.descriptions);
        site.add(
            paths::data_events(&g.id),
            format!(
                "/* Events of {}: generated by cargo xtask gen-docs. */\nwindow.PMU = window.PMU || {{}};\nPMU.events = PMU.events || {{}};\n{UNPACK_JS}\nPMU.events[{id}] = {};\nPMU.unpackEvents(PMU.events[{id}]);\n",
                g.id.replace("*/", "* /"),
                json_for_js(&packed(&t)),
                id = json_for_js(&g.id),
            ),
        );
        site.add(paths::events(&g.id), page(cx, g, &t));
        site.add(paths::md_events(&g.id), markdown(g, &t));
    }
}

/// The main columns shown, in order.
fn main_columns(t: &Table) -> Vec<(usize, &Column)> {
    t.columns
        .iter()
        .enumerate()
        .filter(|(_, c)| c.place == "main" && c.show)
        .collect()
}

/// "571 events of `intel-skylake` (its title), 12 of them inherited."
fn intro(g: &Generation) -> (String, String) {
    let inherited = g.events.iter().filter(|e| e.since != g.id).count();
    let count = format::plural(g.events.len(), "event", "events");
    let tail = match inherited {
        0 => String::new(),
        n if n == g.events.len() => ", all inherited".to_owned(),
        n => format!(", {} of them inherited", format::thousands(n)),
    };
    (count, tail)
}

/// An event page's body (`templates/events.html`): the intro, the filter and the table's
/// head; `assets/events.js` fills the rows from the data file.
#[derive(Template)]
#[template(path = "events.html")]
struct EventsBody<'a> {
    g: &'a Generation,
    root: &'a str,
    count: String,
    tail: String,
    select: &'a str,
    columns: Vec<&'a Column>,
    /// Where the descriptions live, when the table has none.
    source: Option<&'a Source>,
    /// Whose descriptions the table has.
    described: Option<Source>,
    /// The enums holding the events in `pmu-regs`, and the Cargo feature compiling them.
    enums: Vec<String>,
    feature: Option<&'a str>,
    /// The counter filter's choices: tag and label.
    counters: Vec<(String, String)>,
    /// The checkbox filters some event has: tag, label, how many events have it.
    facets: Vec<(&'static str, &'static str, String)>,
}

/// The counter filter's choices: every general-purpose counter an event names, then every
/// fixed counter (tags as [`filter_tags`] gives them).
fn counter_choices(g: &Generation) -> Vec<(String, String)> {
    let mut general: Vec<u32> = g.events.iter().flat_map(|e| e.counters.clone()).collect();
    general.sort_unstable();
    general.dedup();
    let mut fixed: Vec<u32> = g.events.iter().filter_map(|e| e.fixed).collect();
    fixed.sort_unstable();
    fixed.dedup();
    let gp = general
        .iter()
        .map(|c| (format!("g{c}"), format!("general counter {c}")));
    let fx = fixed
        .iter()
        .map(|c| (format!("f{c}"), format!("fixed counter {c}")));
    gp.chain(fx).collect()
}

/// The checkbox filters with the number of events each keeps; those no event has are left out.
fn facet_choices(g: &Generation) -> Vec<(&'static str, &'static str, String)> {
    let tags: Vec<Vec<String>> = g.events.iter().map(filter_tags).collect();
    FILTERS
        .iter()
        .map(|(t, label)| {
            let n = tags.iter().filter(|ts| ts.iter().any(|x| x == t)).count();
            (*t, *label, n)
        })
        .filter(|(_, _, n)| *n > 0)
        .map(|(t, label, n)| (t, label, format::thousands(n)))
        .collect()
}

/// The enums of `pmu-regs` holding the generation's events: the paths of its events without
/// their variant, each once.
fn rust_enums(g: &Generation) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in &g.events {
        let p = crate::rust::event_path(g, e);
        if let Some((enum_path, _)) = p.rsplit_once("::")
            && !out.iter().any(|x| x == enum_path)
        {
            out.push(enum_path.to_owned());
        }
    }
    out
}

fn page(cx: &Ctx<'_>, g: &Generation, t: &Table) -> String {
    let path = paths::events(&g.id);
    let root = paths::root_of(&path);
    let (count, tail) = intro(g);
    let body = EventsBody {
        g,
        root: &root,
        count,
        tail,
        select: t.select.as_deref().unwrap_or("event select"),
        columns: main_columns(t).into_iter().map(|(_, c)| c).collect(),
        source: t.source.as_ref(),
        described: crate::descriptions::source(g)
            .filter(|_| t.columns.iter().any(|c| c.key == "description")),
        enums: rust_enums(g),
        feature: pmu_codegen::is_gated(cx.model, g).then_some(g.id.as_str()),
        counters: counter_choices(g),
        facets: facet_choices(g),
    };
    let p = Page {
        path: &path,
        title: format!("Events of {}", g.id),
        nav: Nav::Events(&g.id),
        body: body.render().unwrap_or_default(),
        scripts: vec![paths::data_events(&g.id), "assets/events.js".to_owned()],
        data: vec![("gen", g.id.clone()), ("root", root.clone())],
    };
    layout::render(cx, &p)
}

fn markdown(g: &Generation, t: &Table) -> String {
    let (count, tail) = intro(g);
    let mut out = format!(
        "# Events of `{}`\n\n[← {}](README.md)\n\nThe {count} of `{}` ({}){tail}. Values are those of `cargo xtask encode` (user and kernel mode, not enabled).\n\n",
        g.id,
        md_cell(&g.id),
        g.id,
        md_cell(&g.title),
    );
    let shown: Vec<(usize, &Column)> = t
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| c.show && (c.place == "main" || c.key == "allow" || c.key == "doc"))
        .collect();
    out.push('|');
    for (_, c) in &shown {
        let _ = write!(out, " {} |", md_cell(&c.label));
    }
    out.push_str("\n|");
    for _ in &shown {
        out.push_str("---|");
    }
    out.push('\n');
    for row in &t.rows {
        out.push('|');
        for (i, c) in &shown {
            let s = text(c.kind, &row[*i]);
            let cell = match c.kind {
                _ if s.is_empty() => String::new(),
                "name" | "hex" | "gen" | "copy" => md_code(&s),
                _ if c.key == "code" => md_code(&s),
                _ => md_cell(&s),
            };
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> serde_json::Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    #[test]
    fn unknown_attributes_become_columns_and_defaults_are_hidden() {
        // `pebs_depth` and `pebs_lanes` stand for attributes model::Event may gain later.
        let t = table_from(
            "g",
            vec![
                obj(
                    json!({"name": "A", "event": 1, "umask": 0, "cmask": 0, "pebs_depth": true,
                           "pebs_lanes": [0, 1, 2], "doc": "", "since": "g",
                           "odd": {"a": 1, "b": [2, 3]},
                           "msr": {"index": 0x1A6, "value": u64::MAX}}),
                ),
                obj(
                    json!({"name": "B", "event": 2, "umask": 3, "cmask": 0, "pebs_depth": false,
                           "doc": "", "since": "g", "msr": null,
                           "pebs_counters": {"general": [0, 1, 2, 3], "fixed": [1]}}),
                ),
            ],
        );
        let col = |k: &str| t.columns.iter().find(|c| c.key == k).unwrap();
        let keys: Vec<&str> = t.columns.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "name",
                "event",
                "umask",
                "cmask",
                "pebs_counters",
                "msr",
                "odd",
                "pebs_depth",
                "pebs_lanes",
                "since",
                "doc"
            ]
        );
        assert_eq!(
            (col("pebs_depth").kind, col("pebs_depth").show),
            ("flag", true)
        );
        assert_eq!(col("pebs_depth").label, "Pebs depth");
        assert_eq!(col("pebs_depth").place, "details");
        assert_eq!(
            (col("pebs_lanes").kind, col("pebs_lanes").label.as_str()),
            ("list", "Pebs lanes")
        );
        assert_eq!(col("pebs_counters").label, "PEBS counters");
        assert_eq!(col("event").place, "data");
        assert_eq!(col("name").place, "main");
        assert!(!col("cmask").show && !col("doc").show && !col("since").show);
        assert!(col("umask").show, "identity columns always show");
        // The missing attribute of B is null; a 64-bit value JavaScript cannot hold is text.
        let i = keys.iter().position(|k| *k == "pebs_lanes").unwrap();
        assert_eq!(t.rows[1][i], Value::Null);
        let m = keys.iter().position(|k| *k == "msr").unwrap();
        assert_eq!(t.rows[0][m]["value"], "0xFFFFFFFFFFFFFFFF");
        assert_eq!(text("msr", &t.rows[0][m]), "0x1A6 = 0xFFFFFFFFFFFFFFFF");
        assert_eq!(text("list", &t.rows[0][i]), "0–2");
        // Counter sets and unknown shapes in words, never JSON.
        let pc = keys.iter().position(|k| *k == "pebs_counters").unwrap();
        assert_eq!(text("counterset", &t.rows[1][pc]), "0–3, fixed 1");
        let odd = keys.iter().position(|k| *k == "odd").unwrap();
        assert_eq!(col("odd").kind, "object");
        assert_eq!(text("object", &t.rows[0][odd]), "a 1; b 2, 3");
    }

    #[test]
    fn counters_in_words() {
        assert_eq!(counter_words(&[0, 1, 2, 3], &[1]), "0–3, fixed 1");
        assert_eq!(counter_words(&[], &[2]), "fixed 2 only");
        assert_eq!(counter_words(&[0, 2], &[]), "0, 2");
        assert_eq!(counter_words(&[], &[]), "none");
    }
}
