//! "Known findings" (`findings.html`, `md/findings.md`): every warning the definitions
//! acknowledge, each `allow:` entry once (at the first generation that has it, parents first),
//! with the generation, the event, the warning's code and the reason. The event tables show
//! the same entries in their "Acknowledged" column.

use crate::context::{Ctx, paths};
use crate::escape::{self, md_cell, md_code};
use crate::format;
use crate::layout::{self, Nav, Page};
use crate::site::Site;
use askama::Template;
use pmu_defs::model::Model;
use std::collections::HashSet;
use std::fmt::Write;

/// The page.
pub const PAGE: &str = "findings.html";
/// The page as Markdown.
pub const MD_PAGE: &str = "md/findings.md";

/// One acknowledged warning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding<'m> {
    /// The generation whose event carries the `allow:` first.
    pub generation: &'m str,
    /// The event.
    pub event: &'m str,
    /// The warning's code.
    pub code: &'m str,
    /// Why it is acceptable.
    pub reason: &'m str,
}

/// Every `allow:` entry of the model once, in model order (generations parents first, their
/// events in order).
pub fn collect(model: &Model) -> Vec<Finding<'_>> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for g in &model.generations {
        for e in &g.events {
            for a in &e.allow {
                if seen.insert(a.span) {
                    out.push(Finding {
                        generation: &g.id,
                        event: &e.name,
                        code: &a.code,
                        reason: &a.reason,
                    });
                }
            }
        }
    }
    out
}

/// How many generations the findings are in.
fn generations(list: &[Finding<'_>]) -> usize {
    list.iter()
        .map(|f| f.generation)
        .collect::<HashSet<_>>()
        .len()
}

pub(crate) fn all(cx: &Ctx<'_>, site: &mut Site) {
    let list = collect(cx.model);
    site.add(PAGE.to_owned(), page(cx, &list));
    site.add(MD_PAGE.to_owned(), markdown(&list));
}

/// What the page is about, in one paragraph (plain text).
const ABOUT: &str = "Warnings the validator reports about these definitions that were reviewed and are acceptable as written: each is acknowledged by an `allow:` on the entry it is about, with the reason. `cargo xtask validate` and `cargo xtask gen-docs` count them in one line, and `--verbose` prints each at its place in the YAML. An `allow:` that no longer acknowledges anything is itself a warning (`unused-allow`). For the imported Intel core models the entries come from `pmu-defs/import/reviewed.yaml`.";

/// `ABOUT` in parts, each with whether it is a code span.
fn about_parts() -> Vec<(bool, &'static str)> {
    ABOUT
        .split('`')
        .enumerate()
        .map(|(i, part)| (i % 2 == 1, part))
        .collect()
}

fn count_line(list: &[Finding<'_>]) -> String {
    if list.is_empty() {
        "No warning is acknowledged.".to_owned()
    } else {
        format!(
            "{} in {}.",
            format::plural(list.len(), "acknowledged warning", "acknowledged warnings"),
            format::plural(generations(list), "generation", "generations")
        )
    }
}

/// The page's body (`templates/findings.html`).
#[derive(Template)]
#[template(path = "findings.html")]
struct FindingsBody<'a> {
    about: Vec<(bool, &'static str)>,
    count: String,
    list: &'a [Finding<'a>],
}

fn page(cx: &Ctx<'_>, list: &[Finding<'_>]) -> String {
    let body = FindingsBody {
        about: about_parts(),
        count: count_line(list),
        list,
    };
    let p = Page {
        path: PAGE,
        title: "Known findings".to_owned(),
        nav: Nav::Findings,
        body: body.render().unwrap_or_default(),
        scripts: vec![],
        data: vec![],
    };
    layout::render(cx, &p)
}

fn markdown(list: &[Finding<'_>]) -> String {
    let mut out = format!(
        "# Known findings\n\n[← Generations](README.md)\n\n{ABOUT}\n\n{}\n",
        count_line(list)
    );
    if !list.is_empty() {
        out.push_str("\n| Generation | Event | Warning | Reason |\n|---|---|---|---|\n");
        for f in list {
            let _ = writeln!(
                out,
                "| [{}]({}) | {} | {} | {} |",
                md_code(f.generation),
                paths::md_events(f.generation)
                    .strip_prefix("md/")
                    .unwrap_or_default(),
                md_code(f.event),
                md_code(f.code),
                md_cell(f.reason)
            );
        }
    }
    out
}
