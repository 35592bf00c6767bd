//! HTML fragments every kind of page uses: paragraphs and lines from doc strings (their
//! Markdown code spans as `<code>`, so no raw backtick reaches a page), access badges, links
//! to a generation, a register or the decoder, and a vendor's name. The markup is in small
//! templates (`templates/prose.html`, `spans.html`, `access.html`, `gen_link.html`,
//! `reg_link.html`).

use crate::context::paths;
use crate::escape::url;
use askama::Template;
use pmu_defs::model::{Access, Generation};

/// Paragraphs of a doc string (`templates/prose.html`): each a list of runs, `(true, text)`
/// for a Markdown code span.
#[derive(Template)]
#[template(path = "prose.html")]
struct Prose {
    paras: Vec<Vec<(bool, String)>>,
}

/// Paragraphs of a doc string: blank lines separate paragraphs, single line breaks are
/// wrapping, and `` `text` `` is code (the definitions' docs are Markdown of that much).
pub fn prose(doc: &str) -> String {
    let paras = doc
        .split("\n\n")
        .map(|para| para.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|text| !text.is_empty())
        .map(|text| code_spans(&text))
        .collect();
    Prose { paras }.render().unwrap_or_default()
}

/// One line of text (line breaks and runs of spaces become one space) with its Markdown code
/// spans as `<code>` (`templates/spans.html`).
pub fn inline(text: &str) -> String {
    let line = crate::format::one_line(text);
    Spans {
        runs: code_spans(&line),
    }
    .render()
    .unwrap_or_default()
}

/// Runs of text and code (`templates/spans.html`).
#[derive(Template)]
#[template(path = "spans.html")]
struct Spans {
    runs: Vec<(bool, String)>,
}

/// A line of text as runs of text and Markdown code spans: `(true, code)` for each
/// `` `code` ``; a backtick without its pair stays text.
pub fn code_spans(text: &str) -> Vec<(bool, String)> {
    let parts: Vec<&str> = text.split('`').collect();
    // An even number of parts means one backtick is unpaired: the last stays text.
    let paired = if parts.len().is_multiple_of(2) {
        parts.len() - 1
    } else {
        parts.len()
    };
    let mut runs: Vec<(bool, String)> = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let code = i % 2 == 1 && i < paired;
        let text = if i >= paired {
            format!("`{part}")
        } else {
            (*part).to_owned()
        };
        if text.is_empty() {
            continue;
        }
        match runs.last_mut() {
            Some((false, last)) if !code => last.push_str(&text),
            _ => runs.push((code, text)),
        }
    }
    runs
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

/// A link to where generation `g` shows register `reg`: its page, or its row on the
/// generation's page when `g` inherits it (`templates/reg_link.html`).
#[derive(Template)]
#[template(path = "reg_link.html")]
struct RegLink<'a> {
    root: &'a str,
    href: String,
    reg: &'a str,
}

pub fn reg_link(root: &str, g: &Generation, reg: &str) -> String {
    let href = paths::register_in(g, reg);
    RegLink { root, href, reg }.render().unwrap_or_default()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_become_code_and_an_unpaired_backtick_stays_text() {
        assert_eq!(
            code_spans("perf `power/energy-pkg/` and `x`."),
            [
                (false, "perf ".to_owned()),
                (true, "power/energy-pkg/".to_owned()),
                (false, " and ".to_owned()),
                (true, "x".to_owned()),
                (false, ".".to_owned()),
            ]
        );
        assert_eq!(code_spans("a `b"), [(false, "a `b".to_owned())]);
        assert_eq!(
            inline("`a<b`\n  c"),
            "<code>a&#60;b</code> c",
            "escaped once, one line"
        );
        assert_eq!(prose("x `y`\n\nz"), "<p>x <code>y</code></p><p>z</p>");
    }
}
