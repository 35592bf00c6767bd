//! The index page (generations as the `extends` tree, what is where) and the decoder's shell
//! (its data comes from `data/`, see `data.rs`). The markup is in `templates/index.html` and
//! `templates/decoder.html`.

use crate::context::{Ctx, paths};
use crate::format;
use crate::html;
use crate::layout::{self, Nav, Page};
use crate::site::Site;
use askama::Template;
use pmu_defs::model::Generation;

// ---------------------------------------------------------------------------------------
// Index
// ---------------------------------------------------------------------------------------

/// The index page's body (`templates/index.html`).
#[derive(Template)]
#[template(path = "index.html")]
struct IndexBody<'a> {
    /// The card for the default decoder register, when it is an event select.
    select: Option<SelectCard<'a>>,
    generations: String,
    registers: String,
    events: String,
    /// The generations in `extends` tree order.
    rows: Vec<IndexRow<'a>>,
    findings_page: &'static str,
    findings: String,
    cpus_page: &'static str,
    /// How many CPU names there are, in words.
    cpus: String,
}

struct SelectCard<'a> {
    path: String,
    register: String,
    generation: &'a str,
}

/// One generation in the table, indented by its depth in the tree.
struct IndexRow<'a> {
    g: &'a Generation,
    indent: String,
}

pub(crate) fn index(cx: &Ctx<'_>, site: &mut Site) {
    let path = "index.html";
    let total_events: usize = cx.model.generations.iter().map(|g| g.events.len()).sum();
    let mut rows = Vec::new();
    for g in cx.roots() {
        index_rows(cx, g, 0, &mut rows);
    }
    let body = IndexBody {
        select: cx
            .decoder_default()
            .filter(|(g, reg)| g.pmu.general.as_ref().is_some_and(|s| &s.select == reg))
            .map(|(g, reg)| SelectCard {
                path: paths::register_in(g, &reg),
                register: reg,
                generation: &g.id,
            }),
        generations: format::plural(cx.model.generations.len(), "generation", "generations"),
        registers: format::plural(
            cx.model.generations.iter().map(|g| g.registers.len()).sum(),
            "register entry",
            "register entries",
        ),
        events: format::plural(total_events, "event entry", "event entries"),
        rows,
        findings_page: crate::findings::PAGE,
        findings: format::plural(
            crate::findings::collect(cx.model).len(),
            "warning",
            "warnings",
        ),
        cpus_page: paths::CPUS,
        cpus: format::plural(cx.cpus.len(), "CPU name", "CPU names"),
    };
    let page = Page {
        path,
        title: "Overview".to_owned(),
        nav: Nav::Home,
        body: body.render().unwrap_or_default(),
        scripts: vec![],
        data: vec![],
    };
    site.add(path.to_owned(), layout::render(cx, &page));
}

/// The rows of `g` and its descendants, depth first.
fn index_rows<'a>(cx: &'a Ctx<'_>, g: &'a Generation, depth: usize, rows: &mut Vec<IndexRow<'a>>) {
    rows.push(IndexRow {
        g,
        indent: (0.75 + depth as f64 * 1.25).to_string(),
    });
    for k in cx.children_of(&g.id) {
        index_rows(cx, k, depth + 1, rows);
    }
}

// ---------------------------------------------------------------------------------------

/// The decoder's shell (`templates/decoder.html`): the form; `assets/decoder.js` fills it.
#[derive(Template)]
#[template(path = "decoder.html")]
struct DecoderBody;

pub(crate) fn decoder(cx: &Ctx<'_>, site: &mut Site) {
    let path = "decoder.html";
    let page = Page {
        path,
        title: "Decoder".to_owned(),
        nav: Nav::Decoder,
        body: DecoderBody.render().unwrap_or_default(),
        scripts: vec!["data/index.js".to_owned(), "assets/decoder.js".to_owned()],
        data: vec![],
    };
    site.add(path.to_owned(), layout::render(cx, &page));
}
