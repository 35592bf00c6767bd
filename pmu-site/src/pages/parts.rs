//! Pieces the generation and register pages share: breadcrumbs, a field's availability and
//! bits, the field table and the constraints table.

use crate::escape::html;
use crate::format;
use crate::html::{access_badge, gen_link, inline, prose, reg_link};
use crate::svg::{self};
use pmu_defs::model::{Access, Constraint, Field};
use std::fmt::Write;

pub(crate) fn crumbs(root: &str, items: &[(Option<String>, String)]) -> String {
    let mut out = String::from(r#"<nav class="crumbs" aria-label="Breadcrumbs">"#);
    let _ = write!(out, r#"<a href="{root}index.html">Generations</a>"#);
    for (href, text) in items {
        out.push_str(r#"<span aria-hidden="true"> › </span>"#);
        match href {
            Some(h) => {
                let _ = write!(out, r#"<a href="{}">{}</a>"#, html(h), html(text));
            }
            None => {
                let _ = write!(out, r#"<span>{}</span>"#, html(text));
            }
        }
    }
    out.push_str("</nav>");
    out
}

/// `since`, `deprecated` and `requires` of a field.
pub(crate) fn availability(root: &str, f: &Field) -> String {
    let mut out = format!(r#"<div>since {}</div>"#, gen_link(root, &f.since));
    if let Some(d) = &f.deprecated {
        let _ = write!(
            out,
            r#"<div class="dep"><span class="tag tag-dep">deprecated</span> from {}"#,
            gen_link(root, &d.since)
        );
        if let Some(w) = &d.when {
            let _ = write!(out, " when <code>{}</code>", html(w));
        }
        out.push_str("</div>");
        if !d.doc.is_empty() {
            let _ = write!(out, r#"<div class="note">{}</div>"#, inline(&d.doc));
        }
    }
    if let Some(r) = &f.requires {
        let _ = write!(
            out,
            r#"<div class="req"><span class="tag tag-req">requires</span> <code>{}</code></div>"#,
            html(r)
        );
    }
    out
}

/// The bits column of a field table.
pub(crate) fn bits_cell(f: &Field) -> String {
    let mut out = format!("<code>{}</code>", html(&format::field_bits(f)));
    if f.bits.len() > 1 {
        out.push_str(r#"<div class="note">split field, low part first</div>"#);
    }
    if let (Some(shape), Some(elems)) = (format::array_shape(f), format::element_bits(f)) {
        let _ = write!(
            out,
            r#"<div class="note">{} <span class="elems">({})</span></div>"#,
            html(&shape),
            html(&elems)
        );
    }
    out
}

/// A field table (registers and CPUID outputs).
pub(crate) fn field_table(
    root: &str,
    fields: &[Field],
    reg_access: Option<Access>,
    anchors: bool,
) -> String {
    let mut out = String::from(
        r#"<div class="table-wrap"><table class="fields"><thead><tr><th scope="col">Bits</th><th scope="col">Field</th><th scope="col">Access</th><th scope="col">Availability</th><th scope="col">Description</th></tr></thead><tbody>"#,
    );
    for (i, f) in fields.iter().enumerate() {
        let id = if anchors {
            format!(r#" id="field-{}""#, html(&f.name))
        } else {
            String::new()
        };
        let acc = if reg_access == Some(f.access) {
            format!(r#"<span class="same">{}</span>"#, access_badge(f.access))
        } else {
            access_badge(f.access)
        };
        let _ = write!(
            out,
            r#"<tr{id}><td class="bits">{}</td><td class="fname"><span class="swatch c{}" aria-hidden="true"></span><code>{}</code></td><td>{acc}</td><td class="avail">{}</td><td class="doc">{}"#,
            bits_cell(f),
            i % svg::COLOURS,
            html(&f.name),
            availability(root, f),
            prose(&f.doc)
        );
        if !f.values.is_empty() {
            out.push_str(r#"<table class="values"><tbody>"#);
            for v in &f.values {
                let _ = write!(
                    out,
                    r#"<tr><td><code>{}</code></td><td><code>{}</code></td><td>{}</td></tr>"#,
                    html(&format::hex(v.value)),
                    html(&v.name),
                    inline(&v.doc)
                );
            }
            out.push_str("</tbody></table>");
        }
        out.push_str("</td></tr>");
    }
    out.push_str("</tbody></table></div>");
    out
}

pub(crate) fn constraints_table(
    cs: &[&Constraint],
    root: &str,
    gen_id: &str,
    with_register: bool,
) -> String {
    let mut out = String::from(
        r#"<div class="table-wrap"><table class="constraints"><thead><tr><th scope="col">Id</th>"#,
    );
    if with_register {
        out.push_str(r#"<th scope="col">Register</th>"#);
    }
    out.push_str(r#"<th scope="col">When</th><th scope="col">Severity</th><th scope="col">Message</th></tr></thead><tbody>"#);
    for c in cs {
        let when: Vec<String> = c
            .when
            .iter()
            .map(|w| format!("{} = {}", w.field, format::hex(w.value)))
            .collect();
        let sev = match c.severity {
            pmu_defs::model::Severity::Error => r#"<span class="tag tag-err">error</span>"#,
            pmu_defs::model::Severity::Warning => r#"<span class="tag tag-warn">warning</span>"#,
        };
        let _ = write!(out, r#"<tr><td><code>{}</code></td>"#, html(&c.id));
        if with_register {
            let _ = write!(out, "<td>{}</td>", reg_link(root, gen_id, &c.register));
        }
        let _ = write!(
            out,
            r#"<td><code>{}</code></td><td>{sev}</td><td>{}"#,
            html(&when.join(" and ")),
            inline(&c.message)
        );
        if !c.manual.is_empty() {
            let _ = write!(out, r#"<div class="note">{}</div>"#, inline(&c.manual));
        }
        out.push_str("</td></tr>");
    }
    out.push_str("</tbody></table></div>");
    out
}
