//! The page shell: head, navigation sidebar (the `extends` tree, with the current
//! generation's pages expanded), main content and footer. The markup is XHTML-compatible
//! HTML5 (every element closed, attributes quoted, only XML entities), so pages parse both as
//! HTML and as XML. The markup is in `templates/page.html` and `templates/tree_item.html`;
//! askama escapes every value they insert, except the page body, which a template rendered.

use crate::context::{Ctx, paths};
use crate::format;
use askama::Template;
use pmu_defs::model::Generation;

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

impl Nav<'_> {
    fn generation(&self) -> Option<&str> {
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
    /// One rendered [`TreeItem`] per top-level generation.
    tree: Vec<TreeItem<'a>>,
    /// The `data-` attributes of `<main>`.
    data: &'a [(&'static str, String)],
    /// Already rendered markup: the content of `<main>`.
    body: &'a str,
    /// Relative to the site root.
    scripts: Vec<&'a str>,
}

/// One generation in the sidebar's tree with its children (`templates/tree_item.html`); the
/// current generation is open, with its diff, events and registers.
#[derive(Template)]
#[template(path = "tree_item.html")]
struct TreeItem<'a> {
    g: &'a Generation,
    root: &'a str,
    nav: &'a Nav<'a>,
    /// The link's tooltip: the CPU names standing for the generation and its id, else its
    /// title ([`Ctx::title_of`]).
    title: String,
    /// What the sidebar filter matches, lower case: the id, the title, the CPU names.
    filter: String,
    open: bool,
    kids: Vec<TreeItem<'a>>,
}

impl<'a> TreeItem<'a> {
    fn new(cx: &'a Ctx<'_>, g: &'a Generation, nav: &'a Nav<'a>, root: &'a str) -> Self {
        let names: Vec<String> = cx
            .cpus_of(g)
            .iter()
            .flat_map(|c| std::iter::once(&c.name.name).chain(&c.name.also))
            .map(|n| n.to_lowercase())
            .collect();
        TreeItem {
            g,
            root,
            nav,
            title: cx.title_of(g),
            filter: format!("{} {} {}", g.id, g.title.to_lowercase(), names.join(" ")),
            open: nav.generation() == Some(g.id.as_str()),
            kids: cx
                .children_of(&g.id)
                .iter()
                .map(|k| TreeItem::new(cx, k, nav, root))
                .collect(),
        }
    }
}

/// The whole document.
pub fn render(cx: &Ctx<'_>, page: &Page<'_>) -> String {
    let root = paths::root_of(page.path);
    let doc = Document {
        title: &page.title,
        root: &root,
        nav: &page.nav,
        tree: cx
            .roots()
            .map(|g| TreeItem::new(cx, g, &page.nav, &root))
            .collect(),
        data: &page.data,
        body: &page.body,
        scripts: std::iter::once("assets/site.js")
            .chain(page.scripts.iter().map(String::as_str))
            .collect(),
    };
    doc.render().unwrap_or_default()
}
