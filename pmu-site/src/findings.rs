//! "Known findings" (`findings.html`, `md/findings.md`): every warning the definitions
//! acknowledge, each `allow:` entry once (at the first generation that has it, parents first),
//! with the generation, the event, the warning's code and the reason. The event tables show
//! the same entries in their "Acknowledged" column.

use crate::context::{Ctx, paths};
use crate::escape::{html, md_cell, md_code, url};
use crate::format;
use crate::layout::{self, Nav, Page};
use crate::site::Site;
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

/// `ABOUT` with its code spans as `<code>`.
fn about_html() -> String {
    ABOUT
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", html(part))
            } else {
                html(part).to_string()
            }
        })
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

fn page(cx: &Ctx<'_>, list: &[Finding<'_>]) -> String {
    let mut b = format!(
        r#"<h1>Known findings</h1>
<p class="lede">{}</p>
<p>{}</p>
"#,
        about_html(),
        html(&count_line(list))
    );
    if !list.is_empty() {
        b.push_str(r#"<div class="table-wrap"><table class="findings"><thead><tr><th scope="col">Generation</th><th scope="col">Event</th><th scope="col">Warning</th><th scope="col">Reason</th></tr></thead><tbody>"#);
        for f in list {
            let _ = write!(
                b,
                r#"<tr><td><a href="{}"><code>{}</code></a></td><td><a href="{}#q={}"><code>{}</code></a></td><td><code>{}</code></td><td>{}</td></tr>"#,
                html(&paths::generation(f.generation)),
                html(f.generation),
                html(&paths::events(f.generation)),
                html(&url(f.event)),
                html(f.event),
                html(f.code),
                html(f.reason)
            );
        }
        b.push_str("</tbody></table></div>\n");
    }
    let p = Page {
        path: PAGE,
        title: "Known findings".to_owned(),
        nav: Nav::Findings,
        body: b,
        scripts: vec![],
        main_attrs: String::new(),
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
