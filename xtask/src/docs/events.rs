//! Event tables: one data file per generation (`data/events/<id>.js`), an HTML page whose
//! rows the browser builds from it (filterable by name and code), and a Markdown table.
//!
//! Columns come from the serialised `model::Event`, so attributes the model gains later
//! show up without changes here: known ones get a label and a format, unknown ones are
//! shown as they serialise. Columns whose value is the default in every row are hidden
//! (kept in the data, which the decoder matches against).

use super::escape::{html, json_for_js, md_cell, md_code};
use super::layout::{self, Nav, Page};
use super::{Ctx, Site, format, paths};
use pmu_defs::model::Generation;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write;

/// One column of an event table.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Column {
    /// Attribute name in the serialised event (`event`, `umask`, ...).
    pub key: String,
    /// Header text.
    pub label: String,
    /// How to show a value: `name`, `hex`, `flag`, `num`, `list`, `msr`, `gen`, `allow`
    /// (`code: reason` entries), `text`, `json`.
    pub kind: &'static str,
    /// False when every row holds the default (the column is still in the data).
    pub show: bool,
}

/// The events of one generation as columns and rows.
#[derive(Clone, Debug, Serialize)]
pub struct Table {
    pub generation: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Value>>,
}

const KNOWN: [(&str, &str, &str); 16] = [
    ("name", "Name", "name"),
    ("event", "Event", "hex"),
    ("umask", "Umask", "hex"),
    ("umask2", "Umask2", "hex"),
    ("cmask", "Cmask", "hex"),
    ("inv", "Inv", "flag"),
    ("edge", "Edge", "flag"),
    ("any", "Any", "flag"),
    ("eq", "Eq", "flag"),
    ("counters", "Counters", "list"),
    ("fixed", "Fixed", "num"),
    ("msr", "Aux MSR", "msr"),
    ("cpuid_bit", "CPUID bit", "num"),
    ("allow", "Acknowledged", "allow"),
    ("since", "Since", "gen"),
    ("doc", "Description", "text"),
];

/// Always shown: identity and encoding.
const ALWAYS: [&str; 3] = ["name", "event", "umask"];

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
        Value::Object(m) => m.is_empty(),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Bool(_) => "flag",
        Value::Number(_) => "num",
        Value::String(_) => "text",
        Value::Array(a) if a.iter().all(Value::is_number) => "list",
        _ => "json",
    }
}

fn label_of(key: &str) -> String {
    let mut s = key.replace('_', " ");
    if let Some(first) = s.get(..1) {
        let up = first.to_uppercase();
        s.replace_range(..1, &up);
    }
    s
}

/// The table of a generation's events.
pub fn table(g: &Generation) -> Table {
    let objects: Vec<serde_json::Map<String, Value>> = g
        .events
        .iter()
        .map(|e| match serde_json::to_value(e) {
            Ok(Value::Object(m)) => m,
            _ => serde_json::Map::new(),
        })
        .collect();
    table_from(&g.id, objects)
}

/// The table of events given in their serialised form (any attributes).
pub fn table_from(generation: &str, objects: Vec<serde_json::Map<String, Value>>) -> Table {
    let objects: Vec<serde_json::Map<String, Value>> = objects
        .into_iter()
        .map(|m| m.into_iter().map(|(k, v)| (k, js_safe(v))).collect())
        .collect();
    let mut keys: Vec<String> = KNOWN
        .iter()
        .map(|(k, _, _)| (*k).to_owned())
        .filter(|k| objects.iter().any(|o| o.contains_key(k)) || ALWAYS.contains(&k.as_str()))
        .collect();
    let mut extra: Vec<String> = objects
        .iter()
        .flat_map(|o| o.keys())
        .filter(|k| !KNOWN.iter().any(|(kk, _, _)| kk == k))
        .cloned()
        .collect();
    extra.sort();
    extra.dedup();
    // Unknown attributes go before `since` and `doc`.
    let tail = keys
        .iter()
        .position(|k| k == "since" || k == "doc")
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
        .map(|(i, k)| {
            let known = KNOWN.iter().find(|(kk, _, _)| kk == k);
            let values = rows.iter().map(|r| &r[i]);
            let show = if ALWAYS.contains(&k.as_str()) {
                true
            } else if k == "since" {
                // Worth a column only when the events come from different generations.
                let mut firsts = rows.iter().map(|r| &r[i]);
                let first = firsts.next();
                firsts.any(|v| Some(v) != first)
            } else {
                values.clone().any(|v| !is_default(v))
            };
            Column {
                key: k.clone(),
                label: known.map_or_else(|| label_of(k), |(_, l, _)| (*l).to_owned()),
                kind: known.map_or_else(
                    || {
                        rows.iter()
                            .map(|r| &r[i])
                            .find(|v| !v.is_null())
                            .map_or("text", kind_of)
                    },
                    |(_, _, kind)| kind,
                ),
                show,
            }
        })
        .collect();
    Table {
        generation: generation.to_owned(),
        columns,
        rows,
    }
}

/// Formats one value as the browser does (for Markdown).
fn text(kind: &str, v: &Value) -> String {
    match (kind, v) {
        (_, Value::Null) => String::new(),
        ("hex", Value::Number(n)) => n.as_u64().map_or_else(|| n.to_string(), format::hex),
        ("flag", Value::Bool(b)) => if *b { "yes" } else { "" }.to_owned(),
        ("list", Value::Array(a)) => {
            let nums: Vec<u32> = a
                .iter()
                .filter_map(|x| x.as_u64().and_then(|u| u32::try_from(u).ok()))
                .collect();
            if nums.len() == a.len() {
                format::number_ranges(&nums)
            } else {
                Value::Array(a.clone()).to_string()
            }
        }
        ("msr", Value::Object(m)) => {
            let part = |k: &str| match m.get(k) {
                Some(Value::Number(n)) => n.as_u64().map_or_else(|| n.to_string(), format::hex),
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            };
            format!("{} = {}", part("index"), part("value"))
        }
        ("allow", Value::Array(a)) => a
            .iter()
            .map(|x| match (x.get("code"), x.get("reason")) {
                (Some(Value::String(c)), Some(Value::String(r))) => format!("{c}: {r}"),
                _ => x.to_string(),
            })
            .collect::<Vec<_>>()
            .join("; "),
        (_, Value::String(s)) => s.clone(),
        (_, Value::Bool(b)) => if *b { "yes" } else { "" }.to_owned(),
        (_, other) => other.to_string(),
    }
}

pub fn all(cx: &Ctx<'_>, site: &mut Site) {
    for g in &cx.model.generations {
        if g.events.is_empty() {
            continue;
        }
        let t = table(g);
        site.add(
            paths::data_events(&g.id),
            format!(
                "/* Events of {}: generated by cargo xtask gen-docs. */\nwindow.PMU = window.PMU || {{}};\nPMU.events = PMU.events || {{}};\nPMU.events[{}] = {};\n",
                g.id.replace("*/", "* /"),
                json_for_js(&g.id),
                json_for_js(&t)
            ),
        );
        site.add(paths::events(&g.id), page(cx, g, &t));
        site.add(paths::md_events(&g.id), markdown(g, &t));
    }
}

fn page(cx: &Ctx<'_>, g: &Generation, t: &Table) -> String {
    let path = paths::events(&g.id);
    let root = paths::root_of(&path);
    let mut b = format!(
        r#"<nav class="crumbs" aria-label="Breadcrumbs"><a href="{root}index.html">Generations</a><span aria-hidden="true"> › </span><a href="{root}{}">{}</a><span aria-hidden="true"> › </span><span>Events</span></nav>"#,
        html(&paths::generation(&g.id)),
        html(&g.id)
    );
    let _ = write!(
        b,
        r#"<h1>Events of <code>{}</code></h1><p class="lede">{} that {} can count. Filter by name (words in any order), by event code (<code>0x2E</code> or <code>2e</code>) or by code and unit mask together (<code>2E.41</code>).</p>"#,
        html(&g.id),
        html(&format::plural(g.events.len(), "event", "events")),
        html(&g.title)
    );
    b.push_str(r#"<div class="filter"><label for="ev-q">Filter</label><input id="ev-q" type="search" placeholder="name, 0x2E or 2E.41" autocomplete="off" spellcheck="false" /><span id="ev-count" class="muted" aria-live="polite"></span></div>"#);
    b.push_str(r#"<div class="table-wrap"><table class="events" id="ev-table"><thead><tr>"#);
    for c in t.columns.iter().filter(|c| c.show) {
        let _ = write!(
            b,
            r#"<th scope="col" class="k-{}">{}</th>"#,
            html(c.kind),
            html(&c.label)
        );
    }
    b.push_str(r#"</tr></thead><tbody id="ev-body"></tbody></table></div>"#);
    let _ = write!(
        b,
        r#"<noscript><p>The table is built in the browser from <code>data/events/{}.js</code>. Without JavaScript, read <a href="{root}{}">the Markdown event table</a>.</p></noscript>"#,
        html(&super::escape::slug(&g.id)),
        html(&paths::md_events(&g.id))
    );
    let p = Page {
        path: &path,
        title: format!("Events of {}", g.id),
        nav: Nav::Events(&g.id),
        body: b,
        scripts: vec![paths::data_events(&g.id), "assets/events.js".to_owned()],
        main_attrs: format!(r#" data-gen="{}" data-root="{}""#, html(&g.id), html(&root)),
    };
    layout::render(cx, &p)
}

fn markdown(g: &Generation, t: &Table) -> String {
    let mut out = format!(
        "# Events of `{}`\n\n[← {}](README.md)\n\n{}.\n\n",
        g.id,
        md_cell(&g.id),
        format::plural(g.events.len(), "event", "events")
    );
    let shown: Vec<(usize, &Column)> = t
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| c.show)
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
                "name" | "hex" | "gen" => md_code(&s),
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
        // `precise` and `pebs_counters` stand for attributes model::Event may gain later.
        let t = table_from(
            "g",
            vec![
                obj(
                    json!({"name": "A", "event": 1, "umask": 0, "cmask": 0, "precise": true,
                           "pebs_counters": [0, 1, 2], "doc": "", "since": "g",
                           "msr": {"index": 0x1A6, "value": u64::MAX}}),
                ),
                obj(
                    json!({"name": "B", "event": 2, "umask": 3, "cmask": 0, "precise": false,
                           "doc": "", "since": "g", "msr": null}),
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
                "msr",
                "pebs_counters",
                "precise",
                "since",
                "doc"
            ]
        );
        assert_eq!((col("precise").kind, col("precise").show), ("flag", true));
        assert_eq!(col("precise").label, "Precise");
        assert_eq!(
            (
                col("pebs_counters").kind,
                col("pebs_counters").label.as_str()
            ),
            ("list", "Pebs counters")
        );
        assert!(!col("cmask").show && !col("doc").show && !col("since").show);
        assert!(col("umask").show, "identity columns always show");
        // The missing attribute of B is null; a 64-bit value JavaScript cannot hold is text.
        let i = keys.iter().position(|k| *k == "pebs_counters").unwrap();
        assert_eq!(t.rows[1][i], Value::Null);
        let m = keys.iter().position(|k| *k == "msr").unwrap();
        assert_eq!(t.rows[0][m]["value"], "0xFFFFFFFFFFFFFFFF");
        assert_eq!(text("msr", &t.rows[0][m]), "0x1A6 = 0xFFFFFFFFFFFFFFFF");
        assert_eq!(text("list", &t.rows[0][i]), "0–2");
    }
}
