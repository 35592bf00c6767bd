//! The page shell: head, navigation sidebar, main content and footer. The sidebar's `extends`
//! tree is not in the pages: it is one script, `data/nav.js` ([`nav_data`]), which every page
//! loads and `assets/site.js` draws (collapsible, the current generation's branch open, its
//! diff, events and registers listed); without JavaScript the sidebar keeps its links to the
//! index, the CPUs and the other top pages. The markup is XHTML-compatible HTML5 (every element
//! closed, attributes quoted, only XML entities), so pages parse both as HTML and as XML. The
//! markup is in `templates/page.html`; askama escapes every value it inserts, except the page
//! body, which a template rendered.

use crate::context::{Ctx, paths};
use crate::escape::json_for_js;
use crate::format;
use askama::Template;
use serde::Serialize;

/// Which page is shown, for highlighting it in the sidebar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nav<'a> {
    Home,
    Decoder,
    Yaml,
    Findings,
    /// The list of CPUs and each CPU's page.
    Cpus,
    Overview(&'a str),
    Diff(&'a str),
    Events(&'a str),
    Register(&'a str, &'a str),
}

impl<'a> Nav<'a> {
    fn generation(&self) -> Option<&'a str> {
        match *self {
            Nav::Home | Nav::Decoder | Nav::Yaml | Nav::Findings | Nav::Cpus => None,
            Nav::Overview(g) | Nav::Diff(g) | Nav::Events(g) | Nav::Register(g, _) => Some(g),
        }
    }
}

/// One page.
pub struct Page<'a> {
    /// Where it goes, relative to the site root.
    pub path: &'a str,
    /// Document title (plain text; escaped here).
    pub title: String,
    pub nav: Nav<'a>,
    /// Main content, already escaped markup.
    pub body: String,
    /// Scripts to load after the content, relative to the site root.
    pub scripts: Vec<String>,
    /// `data-` attributes for `<main>` (name without `data-`, value as plain text), e.g.
    /// `("gen", "intel-v3")`.
    pub data: Vec<(&'static str, String)>,
}

/// The whole document (`templates/page.html`).
#[derive(Template)]
#[template(path = "page.html")]
struct Document<'a> {
    title: &'a str,
    root: &'a str,
    nav: &'a Nav<'a>,
    /// The generation the page belongs to, whose branch the tree opens.
    current: Option<&'a str>,
    /// Which of the generation's pages it is: `diff`, `events`, `reg:<name>` or `index`.
    item: String,
    /// The `data-` attributes of `<main>`.
    data: &'a [(&'static str, String)],
    /// Already rendered markup: the content of `<main>`.
    body: &'a str,
    /// Relative to the site root.
    scripts: Vec<&'a str>,
}

/// One generation of the navigation tree, in `data/nav.js` ([`nav_data`]): every page fetches
/// the one file and `assets/site.js` draws the tree from it, so the tree is not repeated in
/// each page.
#[derive(Serialize)]
struct NavGen {
    id: String,
    /// The index of its parent in the list, when the parent is in the model.
    parent: Option<usize>,
    /// The link's tooltip: the CPU names standing for the generation and its id, else its
    /// title ([`Ctx::title_of`]).
    title: String,
    /// What the sidebar filter matches, lower case: the id, the title, the CPU names.
    filter: String,
    /// Its page, relative to the site root.
    href: String,
    /// The page of its changes from its parent, and the parent's id.
    diff: Option<(String, String)>,
    /// Its event table and the number of events, when it has events.
    events: Option<(String, String)>,
    /// Its registers: name and page.
    regs: Vec<(String, String)>,
}

/// The navigation tree as a script (`data/nav.js`): the generations in model order.
pub(crate) fn nav_data(cx: &Ctx<'_>) -> String {
    let gens = &cx.model.generations;
    let list: Vec<NavGen> = gens
        .iter()
        .map(|g| {
            let names: Vec<String> = cx
                .cpus_of(g)
                .iter()
                .flat_map(|c| std::iter::once(&c.name.name).chain(&c.name.also))
                .map(|n| n.to_lowercase())
                .collect();
            NavGen {
                id: g.id.clone(),
                parent: cx
                    .parent(g)
                    .and_then(|p| gens.iter().position(|x| x.id == p.id)),
                title: cx.title_of(g),
                filter: format!("{} {} {}", g.id, g.title.to_lowercase(), names.join(" "))
                    .trim_end()
                    .to_owned(),
                href: paths::generation(&g.id),
                diff: g.extends.as_ref().map(|p| (paths::diff(&g.id), p.clone())),
                events: (!g.events.is_empty())
                    .then(|| (paths::events(&g.id), format::thousands(g.events.len()))),
                regs: g
                    .registers
                    .iter()
                    .map(|r| (r.name.clone(), paths::register_in(g, &r.name)))
                    .collect(),
            }
        })
        .collect();
    format!(
        "/* The site's navigation tree: generated by cargo xtask gen-docs, drawn by assets/site.js. */
window.PMU = window.PMU || {{}};
PMU.nav = {};
",
        json_for_js(&list)
    )
}

/// Where the navigation tree's script goes, relative to the site root.
pub(crate) const NAV_DATA: &str = "data/nav.js";

/// The whole document.
pub fn render(_cx: &Ctx<'_>, page: &Page<'_>) -> String {
    let root = paths::root_of(page.path);
    let doc = Document {
        title: &page.title,
        root: &root,
        nav: &page.nav,
        current: page.nav.generation(),
        item: match page.nav {
            Nav::Diff(_) => "diff".to_owned(),
            Nav::Events(_) => "events".to_owned(),
            Nav::Register(_, r) => format!("reg:{r}"),
            _ => "index".to_owned(),
        },
        data: &page.data,
        body: &page.body,
        scripts: [NAV_DATA, "assets/site.js"]
            .into_iter()
            .chain(page.scripts.iter().map(String::as_str))
            .collect(),
    };
    doc.render().unwrap_or_default()
}
