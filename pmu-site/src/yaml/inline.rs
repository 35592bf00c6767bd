//! Text as [`Inline`] runs (plain text and code), rendered as HTML or Markdown.

use crate::escape::{md, md_code, url};
use askama::Template;
use std::fmt::Write;

/// A run of inline content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Code(String),
    /// A link to the section of definition `def`, showing `text` (in code when `code`).
    Link {
        def: String,
        text: String,
        code: bool,
    },
}

pub(crate) fn text(s: impl Into<String>) -> Inline {
    Inline::Text(s.into())
}

pub(crate) fn code(s: impl Into<String>) -> Inline {
    Inline::Code(s.into())
}

/// Runs as plain text, code in backticks: what unit tests compare.
#[cfg(test)]
pub fn plain(runs: &[Inline]) -> String {
    runs.iter()
        .map(|r| match r {
            Inline::Text(t) => t.clone(),
            Inline::Code(c) => format!("`{c}`"),
            Inline::Link { text, code, .. } if *code => format!("`{text}`"),
            Inline::Link { text, .. } => text.clone(),
        })
        .collect()
}

/// Runs as HTML (`templates/inline.html`): code in `<code>`, links to `#def` on `page`
/// (relative to the current one).
#[derive(Template)]
#[template(path = "inline.html")]
pub(crate) struct Runs<'a> {
    pub(crate) runs: &'a [Inline],
    pub(crate) page: &'a str,
}

/// Runs as HTML (see [`Runs`]).
#[cfg(test)]
pub fn to_html(runs: &[Inline], page: &str) -> String {
    Runs { runs, page }.render().unwrap_or_default()
}

/// Markdown text on one line; unlike `md_cell`, spaces at the ends stay (runs join).
pub(crate) fn md_line(t: &str) -> String {
    md(&t.replace(['\n', '\r'], " "))
}

/// Runs as one line of Markdown (safe in a table cell).
pub fn to_md(runs: &[Inline]) -> String {
    let mut out = String::new();
    for r in runs {
        match r {
            Inline::Text(t) => out.push_str(&md_line(t)),
            Inline::Code(c) => out.push_str(&md_code(c)),
            Inline::Link { def, text, code } => {
                let shown = if *code { md_code(text) } else { md_line(text) };
                let _ = write!(out, "[{shown}](#{})", url(def));
            }
        }
    }
    out
}

/// Prose with `backtick` spans: text and code runs. An unmatched backtick stays text.
pub fn prose_runs(s: &str) -> Vec<Inline> {
    let folded: Vec<&str> = s.split_whitespace().collect();
    let s = folded.join(" ");
    let mut out = Vec::new();
    let mut rest = s.as_str();
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else {
            break;
        };
        if open > 0 {
            out.push(text(&rest[..open]));
        }
        out.push(code(&rest[open + 1..open + 1 + len]));
        rest = &rest[open + 1 + len + 1..];
    }
    if !rest.is_empty() {
        out.push(text(rest));
    }
    out
}

// ---------------------------------------------------------------------------------------
// Property schemas in words
