//! The HTML reference page (`yaml.html`).

use super::describe::*;
use super::files::*;
use super::inline::*;
use super::sections::*;
use crate::context::Ctx;
use crate::escape::html;
use crate::layout::{self, Nav, Page};
use serde_json::Value;
use std::fmt::Write;

pub(crate) fn page_html(cx: &Ctx<'_>, schema: &Value, secs: &[Section]) -> String {
    let here = "";
    let mut b = String::new();
    let schema_name = SCHEMA_FILE.rsplit('/').next().unwrap_or(SCHEMA_FILE);
    let _ = write!(
        b,
        r#"<h1>Writing definitions</h1>
<p class="sub">YAML reference</p>
<p class="lede">Every key of a definition file: one section per mapping, with the value each key takes, whether it is required and what it means. This page is generated from the JSON Schema that editors use (<code>cargo xtask schema</code>), so it lists exactly the keys the loader accepts.</p>
<h2 id="editor">Let your editor check as you type</h2>
<p>Start each file with the schema modeline; the YAML language server (VS Code's Red Hat YAML extension, Neovim, Helix, Zed; JetBrains IDEs read the same line) then completes keys, shows each key's meaning on hover and underlines mistakes. For a file in <code>pmu-defs/defs/&lt;vendor&gt;/</code>:</p>
<pre><code>{}</code></pre>
<p>For YAML kept elsewhere (a <code>registers!</code> file in your crate), <a href="{}" download="{}">download the schema</a> (or write a copy with <code>cargo xtask schema --out FILE</code>), put it next to the file and write:</p>
<pre><code>{}</code></pre>
<p>The schema checks one file on its own: keys, value shapes, name spelling, keywords, ranges and required keys. <code>cargo xtask validate</code> checks what it cannot: <code>extends</code> chains and overrides of entries the parent must have, overlapping fields, fields past the register width, counters that exist, duplicate names, and quoting (a quoted number such as <code>width: '48'</code>, or an unquoted YAML 1.1 boolean such as <code>name: yes</code>).</p>
"#,
        html(&in_tree_modeline()),
        html(SCHEMA_FILE),
        html(schema_name),
        html(&beside_modeline()),
    );
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
    if !general.is_empty() {
        b.push_str("<ul>");
        for g in &general {
            let _ = write!(b, "<li>{}</li>", to_html(g, here));
        }
        b.push_str("</ul>\n");
    }
    b.push_str(
        r#"<nav class="toc" aria-label="Definitions"><p class="navhead">Definitions</p><ul>"#,
    );
    for s in secs {
        let _ = write!(
            b,
            r##"<li><a href="#{}"><code>{}</code></a></li>"##,
            html(&s.name),
            html(&s.name)
        );
    }
    b.push_str("</ul></nav>\n");

    for s in secs {
        let _ = write!(
            b,
            r##"<section class="def" id="{}"><h2><a class="anchor" href="#{}"><code>{}</code></a></h2>"##,
            html(&s.name),
            html(&s.name),
            html(&s.name)
        );
        if !s.description.is_empty() {
            let _ = write!(b, "<p>{}</p>", to_html(&s.description, here));
        }
        for n in &s.notes {
            let _ = write!(b, r#"<p class="note">{}</p>"#, to_html(n, here));
        }
        let mut facts = String::new();
        if let Some(f) = &s.form {
            let _ = write!(facts, "<dt>Value</dt><dd>{}</dd>", to_html(f, here));
        }
        if let Some(p) = &s.pattern {
            let _ = write!(facts, "<dt>Pattern</dt><dd><code>{}</code></dd>", html(p));
        }
        if !s.examples.is_empty() {
            let _ = write!(
                facts,
                "<dt>Examples</dt><dd>{}</dd>",
                examples_html(&s.examples)
            );
        }
        if !s.used_in.is_empty() {
            let links: Vec<String> = s
                .used_in
                .iter()
                .map(|(d, k)| {
                    format!(
                        r##"<a href="#{}.{}"><code>{}.{}</code></a>"##,
                        html(d),
                        html(k),
                        html(d),
                        html(k)
                    )
                })
                .collect();
            let _ = write!(facts, "<dt>Used in</dt><dd>{}</dd>", links.join(", "));
        }
        if !facts.is_empty() {
            let _ = write!(b, r#"<dl class="facts">{facts}</dl>"#);
        }
        if let Some(keys) = &s.keys {
            b.push_str(r#"<div class="table-wrap"><table class="fields keys"><thead><tr><th scope="col">Key</th><th scope="col">Value</th><th scope="col">Required</th><th scope="col">Meaning</th></tr></thead><tbody>"#);
            for k in keys {
                let required = match &k.required {
                    None => String::new(),
                    Some(None) => r#"<span class="tag tag-req">required</span>"#.to_owned(),
                    Some(Some(o)) => format!(
                        r##"<span class="tag tag-req">required</span> <span class="note">unless <a href="#{}.{}"><code>{}</code></a></span>"##,
                        html(&s.name),
                        html(o),
                        html(o)
                    ),
                };
                let _ = write!(
                    b,
                    r##"<tr id="{0}.{1}"><td class="fname"><a class="anchor" href="#{0}.{1}"><code>{1}</code></a></td><td class="val">{2}</td><td>{required}</td><td class="doc">{3}"##,
                    html(&s.name),
                    html(&k.name),
                    to_html(&k.value, here),
                    to_html(&k.meaning, here)
                );
                if !k.examples.is_empty() {
                    let _ = write!(
                        b,
                        r#"<div class="note">Examples: {}</div>"#,
                        examples_html(&k.examples)
                    );
                }
                b.push_str("</td></tr>");
            }
            b.push_str("</tbody></table></div>");
        }
        b.push_str("</section>\n");
    }
    let page = Page {
        path: PAGE,
        title: "Writing definitions".to_owned(),
        nav: Nav::Yaml,
        body: b,
        scripts: vec![],
        main_attrs: String::new(),
    };
    layout::render(cx, &page)
}

pub(crate) fn examples_html(ex: &[String]) -> String {
    ex.iter()
        .map(|e| format!("<code>{}</code>", html(e)))
        .collect::<Vec<_>>()
        .join(", ")
}
