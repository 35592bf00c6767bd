//! Escaping: text from the YAML reaches HTML, SVG, Markdown and JavaScript escaped.

use super::*;

const NASTY: &str =
    r#"<script>alert("x")</script> & 'single' "double" | *star* [l](javascript:x) </textarea>"#;

pub(crate) fn nasty_model() -> pmu_defs::Model {
    let q = serde_json::to_string(NASTY).unwrap(); // a valid YAML double-quoted scalar
    let yaml = format!(
        r#"generation: evil-base
vendor: intel
title: {q}
manual: {q}
doc: {q}
pmu:
  encoding: {{ event: EVENT_SELECT, umask: UMASK }}
registers:
  - name: EVIL_SEL
    doc: {q}
    manual: {q}
    msr: {{ base: 0x100, count: 2, stride: 1 }}
    role: event-select
    fields:
      - name: EVENT_SELECT
        bits: 7:0
        doc: {q}
        requires: {q}
        values:
          - {{ name: V1, value: 1, doc: {q} }}
      - name: UMASK
        bits: 15:8
        doc: {q}
        deprecated: {{ since: evil-base, when: {q}, doc: {q} }}
  - name: EVIL_CTR
    msr: {{ base: 0x200, count: 2, stride: 1 }}
    role: counter
    fields:
      - {{ name: COUNT, bits: 47:0, doc: {q} }}
cpuid:
  - name: EVIL_LEAF
    leaf: 0x0A
    doc: {q}
    manual: {q}
    eax:
      - {{ name: X, bits: 7:0, doc: {q} }}
constraints:
  - id: evil-constraint
    register: EVIL_SEL
    when: {{ UMASK: 1 }}
    severity: warning
    message: {q}
    manual: {q}
events:
  - {{ name: EVIL.EVENT, event: 0x2E, umask: 0x41, doc: {q}, counters: [1], pebs-counters: [0], allow: [{{ code: counter-not-in-event, reason: {q} }}] }}
"#
    );
    let child = r#"generation: evil-child
extends: evil-base
title: child
manual: m
doc: d
registers:
  - name: EVIL_SEL
    fields:
      - { name: EVENT_SELECT, doc: "changed </del><script>alert(9)</script>" }
"#;
    let mut loader = pmu_defs::Loader::new();
    loader.add_str("evil.yaml", yaml);
    loader.add_str("child.yaml", child);
    let loaded = loader.finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    loaded.model
}

#[test]
fn text_from_yaml_is_escaped_in_html_svg_markdown_and_js() {
    let model = nasty_model();
    let site = docs::build(&model);
    for (path, text) in site.files() {
        if path.starts_with("assets/") {
            continue;
        }
        for raw in [
            "<script>alert",
            "</script> &",
            "</textarea>",
            "</del><script>",
        ] {
            assert!(!text.contains(raw), "{path} contains raw {raw:?}");
        }
        if path.ends_with(".html") || path.ends_with(".svg") {
            let root = parse_xml(path, text).unwrap_or_else(|e| panic!("{e}"));
            for s in root.find_all("script") {
                assert!(
                    s.attr("src").is_some() && s.text().is_empty(),
                    "{path}: injected script"
                );
            }
        }
        if path.ends_with(".html") {
            assert!(
                scraper::Html::parse_document(text).errors.is_empty(),
                "{path}"
            );
        }
    }

    // The text survives unchanged (escaped once, not twice) in each context.
    let page = site.get("gen/evil-base/reg/EVIL_SEL.html").unwrap();
    let root = parse_xml("page", page).unwrap();
    assert!(root.text().contains(NASTY), "text content");
    // The navigation tree's data: the generation's title as a JSON string.
    let nav = js_value(site.get("data/nav.js").unwrap(), "PMU.nav = ");
    let titles: Vec<&str> = nav
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["title"].as_str().unwrap())
        .collect();
    assert!(titles.contains(&NASTY), "navigation title: {titles:?}");
    let svg = parse_xml("svg", site.get("md/svg/evil-base/EVIL_SEL.svg").unwrap()).unwrap();
    assert_eq!(svg.attr("data-register"), Some("EVIL_SEL"));

    let js = site.get("data/events/evil-base.js").unwrap();
    let table = js_value(js, "PMU.events[\"evil-base\"] = ");
    let doc_col = table["columns"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["key"] == "doc")
        .unwrap();
    assert_eq!(table["rows"][0][doc_col], NASTY);
    let data = js_value(
        site.get("data/gen/evil-base.js").unwrap(),
        "PMU.gen[\"evil-base\"] = ",
    );
    assert_eq!(data["title"], NASTY);

    let allow_col = table["columns"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["key"] == "allow")
        .unwrap();
    assert_eq!(table["rows"][0][allow_col][0]["reason"], NASTY);
    let findings = parse_xml("findings", site.get("findings.html").unwrap()).unwrap();
    assert!(findings.text().contains(NASTY), "findings page");
    let md = site.get("md/findings.md").unwrap();
    assert!(
        md.contains("&lt;script&gt;alert(\"x\")&lt;/script&gt; &amp; 'single'"),
        "{md}"
    );
    let md = site.get("md/evil-base/README.md").unwrap();
    assert!(md.contains("&lt;script&gt;alert(\"x\")&lt;/script&gt; &amp; 'single'"));
    assert!(md.contains("\\| \\*star\\* \\[l\\]"));
    let diff = site.get("gen/evil-child/diff.html").unwrap();
    assert!(
        parse_xml("diff", diff)
            .unwrap()
            .text()
            .contains("changed </del><script>alert(9)</script>")
    );
}
