//! HTML fragments every kind of page uses: paragraphs from doc strings,
//! access badges, links to a generation, a register or the decoder, and a vendor's name. The
//! markup is in small templates (`templates/prose.html`, `access.html`, `gen_link.html`,
//! `reg_link.html`).

use crate::context::paths;
use crate::escape::url;
use askama::Template;
use pmu_defs::model::{Access, Generation};

/// Paragraphs of a doc string (`templates/prose.html`).
#[derive(Template)]
#[template(path = "prose.html")]
struct Prose {
    paras: Vec<String>,
}

/// Paragraphs of a doc string: blank lines separate paragraphs, single line breaks are
/// wrapping.
pub fn prose(doc: &str) -> String {
    let paras = doc
        .split("\n\n")
        .map(|para| para.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|text| !text.is_empty())
        .collect();
    Prose { paras }.render().unwrap_or_default()
}

/// An access badge (`templates/access.html`).
#[derive(Template)]
#[template(path = "access.html")]
struct AccessBadge {
    class: &'static str,
    text: &'static str,
}

pub fn access_badge(a: Access) -> String {
    let class = match a {
        Access::ReadWrite => "rw",
        Access::ReadOnly => "ro",
        Access::WriteOnly => "wo",
        Access::WriteOneToClear => "w1c",
        Access::WriteOneToSet => "w1s",
    };
    AccessBadge {
        class,
        text: a.as_str(),
    }
    .render()
    .unwrap_or_default()
}

/// A link to a generation's page (`templates/gen_link.html`).
#[derive(Template)]
#[template(path = "gen_link.html")]
struct GenLink<'a> {
    root: &'a str,
    id: &'a str,
}

pub fn gen_link(root: &str, id: &str) -> String {
    GenLink { root, id }.render().unwrap_or_default()
}

/// A link to a register's page (`templates/reg_link.html`).
#[derive(Template)]
#[template(path = "reg_link.html")]
struct RegLink<'a> {
    root: &'a str,
    gen_id: &'a str,
    reg: &'a str,
}

pub fn reg_link(root: &str, gen_id: &str, reg: &str) -> String {
    RegLink { root, gen_id, reg }.render().unwrap_or_default()
}

pub fn decoder_link(root: &str, gen_id: &str, key: &str) -> String {
    format!("{root}decoder.html#gen={}&reg={}", url(gen_id), url(key))
}

/// `Intel`, `AMD`: the vendor of a CPU's generations (the first one's; they agree).
pub fn cpu_vendor(c: &crate::cpus::SiteCpu<'_>) -> &'static str {
    c.generations.first().map_or("", |g| vendor(g))
}

pub fn vendor(g: &Generation) -> &'static str {
    match g.vendor {
        pmu_defs::model::Vendor::Intel => "Intel",
        pmu_defs::model::Vendor::Amd => "AMD",
    }
}
