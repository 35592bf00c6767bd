//! The HTML reference page (`yaml.html`); the markup is in `templates/yaml.html`, inline runs
//! in `templates/inline.html`.

use super::describe::*;
use super::files::*;
use super::inline::*;
use super::sections::*;
use crate::context::Ctx;
use crate::layout::{self, Nav, Page};
use askama::Template;
use serde_json::Value;

/// The page's body (`templates/yaml.html`).
#[derive(Template)]
#[template(path = "yaml.html")]
struct YamlBody<'a> {
    in_tree: String,
    schema_file: &'static str,
    schema_name: &'static str,
    beside: String,
    /// The general rules, each a sentence of runs.
    general: Vec<Vec<Inline>>,
    secs: &'a [Section],
}

impl YamlBody<'_> {
    /// Runs as markup (`templates/inline.html`), links to sections of this page.
    fn runs<'r>(&self, runs: &'r [Inline]) -> Runs<'r> {
        Runs { runs, page: "" }
    }
}

pub(crate) fn page_html(cx: &Ctx<'_>, schema: &Value, secs: &[Section]) -> String {
    let schema_name = SCHEMA_FILE.rsplit('/').next().unwrap_or(SCHEMA_FILE);
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
    let body = YamlBody {
        in_tree: in_tree_modeline(),
        schema_file: SCHEMA_FILE,
        schema_name,
        beside: beside_modeline(),
        general,
        secs,
    };
    let page = Page {
        path: PAGE,
        title: "Writing definitions".to_owned(),
        nav: Nav::Yaml,
        body: body.render().unwrap_or_default(),
        scripts: vec![],
        data: vec![],
    };
    layout::render(cx, &page)
}
