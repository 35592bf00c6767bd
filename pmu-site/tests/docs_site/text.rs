//! The site's text: no raw Markdown, numbers agreeing with their nouns, no empty table
//! headers, and contrast of links and buttons in both colour schemes.

use super::*;
use scraper::{Html, Node as HtmlNode};

/// Elements whose text is code or not text at all.
const CODE: &[&str] = &["code", "pre", "script", "style", "textarea", "kbd", "samp"];

/// The text nodes of a page outside code, with the page's path.
fn prose_texts(doc: &Html) -> Vec<String> {
    let mut out = Vec::new();
    for node in doc.tree.nodes() {
        let HtmlNode::Text(t) = node.value() else {
            continue;
        };
        let in_code = node.ancestors().any(|a| {
            a.value()
                .as_element()
                .is_some_and(|e| CODE.contains(&e.name()))
        });
        if !in_code {
            out.push(t.to_string());
        }
    }
    out
}

fn pages() -> impl Iterator<Item = (&'static str, Html)> {
    site()
        .files()
        .iter()
        .filter(|(p, _)| p.ends_with(".html"))
        .map(|(p, text)| (p.as_str(), Html::parse_document(text)))
}

#[test]
fn no_markdown_backticks_outside_code() {
    let mut found = Vec::new();
    for (path, doc) in pages() {
        for t in prose_texts(&doc) {
            if t.contains('`') {
                found.push(format!("{path}: {}", t.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} text runs with a backtick outside <code>, first: {:#?}",
        found.len(),
        &found[..found.len().min(10)]
    );
    // The definitions' code spans are code on the pages: Intel RAPL's `power/energy-pkg/`.
    let rapl = site().get("gen/intel-rapl/index.html").unwrap();
    assert!(rapl.contains("<code>power/energy-pkg/</code>"));
}

/// Nouns the site counts: after the number 1 each must be singular.
const COUNTED: &[&str] = &[
    "events",
    "registers",
    "fields",
    "leaves",
    "constraints",
    "generations",
    "counters",
    "instances",
    "CPUs",
];

#[test]
fn one_of_a_thing_is_singular() {
    let mut found = Vec::new();
    let mut ones = 0;
    for (path, doc) in pages() {
        let text = prose_texts(&doc).join("");
        for noun in COUNTED {
            for (i, _) in text.match_indices(&format!("1 {noun}")) {
                let before = text[..i].chars().next_back();
                let after = text[i + 2 + noun.len()..].chars().next();
                if before.is_some_and(|c| c.is_ascii_digit() || c == ',' || c == '.')
                    || after.is_some_and(char::is_alphanumeric)
                {
                    continue;
                }
                found.push(format!("{path}: …{}…", &text[i.saturating_sub(20)..i + 20]));
            }
        }
        ones += text.matches("+1 event ").count() + text.matches("~1 CPUID leaf").count();
    }
    assert!(found.is_empty(), "{:#?}", &found[..found.len().min(10)]);
    assert!(ones > 0, "no diff adds one event or changes one CPUID leaf");
}

#[test]
fn table_headers_say_what_their_column_is() {
    let th = scraper::Selector::parse("th").unwrap();
    for (path, doc) in pages() {
        for h in doc.select(&th) {
            let text: String = h.text().collect();
            assert!(
                !text.trim().is_empty() || h.value().attr("aria-label").is_some(),
                "{path}: an empty table header"
            );
        }
    }
}

/// The custom properties of one `:root { … }` block of the style sheet.
fn vars(block: &str) -> BTreeMap<String, String> {
    block
        .split(';')
        .filter_map(|d| d[d.find("--")? + 2..].split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect()
}

/// WCAG 2 relative luminance of `#rrggbb`.
fn luminance(hex: &str) -> f64 {
    let h = hex.trim_start_matches('#');
    let c = |i: usize| {
        let v = f64::from(u8::from_str_radix(&h[i..i + 2], 16).unwrap()) / 255.0;
        if v <= 0.03928 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * c(0) + 0.7152 * c(2) + 0.0722 * c(4)
}

fn contrast(a: &str, b: &str) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn links_and_primary_buttons_have_contrast_in_light_and_dark() {
    let css = site().get("assets/style.css").unwrap();
    let light_at = css.find(":root {").unwrap();
    let light = &css[light_at..light_at + css[light_at..].find('}').unwrap()];
    let dark_at = css.find("@media (prefers-color-scheme: dark)").unwrap();
    let dark_root = dark_at + css[dark_at..].find(":root {").unwrap();
    let dark = &css[dark_root..dark_root + css[dark_root..].find('}').unwrap()];
    // The rules use these properties.
    assert!(css.contains(".crumbs a { color: var(--accent); }"));
    assert!(css.contains("background: var(--btn-bg); color: var(--on-accent);"));
    let l = vars(light);
    let mut d = l.clone();
    d.extend(vars(dark));
    for (scheme, v) in [("light", &l), ("dark", &d)] {
        let link = contrast(&v["accent"], &v["bg"]);
        assert!(link >= 4.5, "{scheme}: breadcrumb links {link:.2}:1");
        let button = contrast(&v["on-accent"], &v["btn-bg"]);
        assert!(button >= 4.5, "{scheme}: primary buttons {button:.2}:1");
    }
}
