//! The documentation site (`cargo xtask gen-docs`): well-formed pages, diagrams that put
//! every field at its bits, escaping, determinism, scale, the generation diffs and writing
//! to disk. The browser side (the decoder, the event tables, the sidebar's tree, narrow
//! screens) is tested in `xtask/tests/docs_e2e/`.
//! One test binary (the site is built once) with a module per concern.

#[path = "../support/mod.rs"]
mod support;

mod content;
mod cpus;
mod descriptions;
mod diagrams;
mod escaping;
mod event_table;
mod markup;
mod navigation;
mod search;
mod text;
mod writing;
mod yaml_reference;

use pmu_defs::model::{Access, Field, Generation};
use pmu_site::{self as docs, diff};
use std::collections::{BTreeMap, BTreeSet};
use support::{Element, model, parse_xml, site};

fn reg_page(g: &str, r: &str) -> String {
    format!("gen/{g}/reg/{r}.html")
}

/// Where generation `g` shows register `r`: its page when `g` defines it, else its row on
/// the generation's page.
fn reg_href(g: &str, r: &str) -> String {
    if generation(g).register(r).unwrap().defined_in == g {
        reg_page(g, r)
    } else {
        format!("gen/{g}/index.html#reg-{r}")
    }
}

/// A link relative to the site's root resolves: its page exists and has the element its
/// fragment names.
fn resolves(link: &str) -> bool {
    let (page, id) = link
        .split_once('#')
        .map_or((link, None), |(p, a)| (p, Some(a)));
    site()
        .get(page)
        .is_some_and(|t| id.is_none_or(|a| t.contains(&format!(r#"id="{a}""#))))
}

fn generation(id: &str) -> &'static Generation {
    model().generation(id).unwrap()
}

/// The JSON value assigned after `prefix` in a generated data file.
fn js_value(js: &str, prefix: &str) -> serde_json::Value {
    let start = js.find(prefix).unwrap_or_else(|| panic!("no {prefix}")) + prefix.len();
    let end = js[start..].find(";\n").unwrap() + start;
    // An event table's rows are packed in the file (`events::packed`).
    docs::events::unpack(serde_json::from_str(&js[start..end]).unwrap())
}
