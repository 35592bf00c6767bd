//! Well-formed markup: every page and SVG is XML and HTML5 without errors, links stay inside the
//! site, scripts are files.

use super::*;

#[test]
fn every_page_and_svg_is_well_formed_xml() {
    let mut checked = 0;
    for (path, text) in site().files() {
        if path.ends_with(".html") || path.ends_with(".svg") {
            let root = parse_xml(path, text).unwrap_or_else(|e| panic!("{e}"));
            let want = if path.ends_with(".svg") {
                "svg"
            } else {
                "html"
            };
            assert_eq!(root.name, want, "{path}: root element");
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} pages checked");
}

#[test]
fn every_page_parses_as_html5_without_errors() {
    for (path, text) in site().files() {
        if path.ends_with(".html") {
            let doc = scraper::Html::parse_document(text);
            assert!(
                doc.errors.is_empty(),
                "{path}: HTML parse errors: {:?}",
                doc.errors
            );
        }
    }
}

#[test]
fn pages_link_only_to_files_of_the_site() {
    let files = site().files();
    for (path, text) in files {
        if !path.ends_with(".html") {
            continue;
        }
        let root = parse_xml(path, text).unwrap();
        let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
        for e in root.descendants() {
            let target = match (e.name.as_str(), e.attr("href"), e.attr("src")) {
                ("a" | "link", Some(h), _) => h,
                ("script", _, Some(s)) => s,
                _ => continue,
            };
            let target = target.split('#').next().unwrap_or_default();
            if target.is_empty() || target.starts_with("http") {
                continue;
            }
            let resolved = resolve(dir, target);
            // Markdown is linked from the index as a directory entry point.
            assert!(
                files.contains_key(&resolved),
                "{path}: link to {target} ({resolved}) has no file"
            );
        }
    }
}

fn resolve(dir: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for seg in rel.split('/') {
        match seg {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            s => parts.push(s),
        }
    }
    parts.join("/")
}

#[test]
fn scripts_are_external_files_only() {
    // file:// pages load their data with <script src>, never inline code or fetch/XHR.
    for (path, text) in site().files() {
        if path.ends_with(".html") {
            let root = parse_xml(path, text).unwrap();
            for s in root.find_all("script") {
                assert!(s.attr("src").is_some(), "{path}: inline <script>");
                assert!(s.text().trim().is_empty(), "{path}: script with a body");
            }
        }
        if path.ends_with(".js") {
            for forbidden in ["fetch(", "XMLHttpRequest", "innerHTML", "eval("] {
                assert!(!text.contains(forbidden), "{path} uses {forbidden}");
            }
        }
    }
}
