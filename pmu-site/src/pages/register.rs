//! One page per register of each generation: the bit-layout diagram, the field table, the
//! changes from the parent, its Rust path and snippet, its role and its instances.

use super::parts::*;
use crate::context::{Ctx, paths};
use crate::escape::html;
use crate::html::{access_badge, decoder_link, gen_link, inline, prose};
use crate::layout::{self, Nav, Page};
use crate::site::Site;
use crate::svg::{self, Diagram};
use crate::{diff, format};
use pmu_defs::model::{Constraint, Generation, Register};
use std::fmt::Write;

// ---------------------------------------------------------------------------------------
// Register
// ---------------------------------------------------------------------------------------

/// `change`: `None` without a parent; `Some(None)` when the register is as in the parent.
pub(crate) fn register(
    cx: &Ctx<'_>,
    g: &Generation,
    r: &Register,
    change: Option<Option<&diff::RegDiff<'_>>>,
    site: &mut Site,
) {
    let path = paths::register(&g.id, &r.name);
    let root = paths::root_of(&path);
    let mut b = crumbs(
        &root,
        &[
            (
                Some(format!("{root}{}", paths::generation(&g.id))),
                g.id.clone(),
            ),
            (None, r.name.clone()),
        ],
    );
    let _ = write!(b, r#"<h1><code>{}</code></h1>"#, html(&r.name));
    b.push_str(&prose(&r.doc));

    let roles = role_text(r);

    b.push_str(r#"<dl class="facts">"#);
    let _ = write!(
        b,
        "<dt>Address</dt><dd><code>{}</code>",
        html(&format::address(&r.msr))
    );
    if r.msr.indexed {
        let _ = write!(
            b,
            " <span class=\"muted\">{}</span>",
            html(&format::instances(r))
        );
    }
    b.push_str("</dd>");
    if let Some(a) = &r.alias_msr {
        let _ = write!(
            b,
            "<dt>Alias address</dt><dd><code>{}</code> <span class=\"muted\">the same {}, \
             the same value type</span></dd>",
            html(&format::address(a)),
            if r.msr.indexed {
                "instances"
            } else {
                "register"
            }
        );
    }
    let _ = write!(
        b,
        "<dt>Width</dt><dd>{} bits</dd><dt>Access</dt><dd>{}</dd>",
        r.width,
        access_badge(r.access)
    );
    if let Some(v) = r.reset {
        let _ = write!(b, "<dt>Reset</dt><dd><code>{}</code></dd>", format::hex(v));
    }
    let _ = write!(
        b,
        "<dt>Reserved</dt><dd>{}</dd>",
        if r.reserved_mask == 0 {
            "none".to_owned()
        } else {
            format!(
                "bits <code>{}</code> <span class=\"muted\">(mask <code>{}</code>): software must not set them</span>",
                format::mask_ranges(r.reserved_mask),
                format::hex_width(r.reserved_mask, r.width)
            )
        }
    );
    if !roles.is_empty() {
        let _ = write!(b, "<dt>Role</dt><dd>{roles}</dd>");
    }
    let _ = write!(
        b,
        "<dt>Since</dt><dd>{}</dd><dt>Definition</dt><dd>",
        gen_link(&root, &r.since)
    );
    if r.defined_in == g.id {
        if r.since == g.id {
            b.push_str("new in this generation");
        } else {
            b.push_str("changed in this generation (see below)");
        }
    } else {
        let _ = write!(
            b,
            "as in {} (unchanged here)",
            gen_link(&root, &r.defined_in)
        );
    }
    b.push_str("</dd>");
    let _ = write!(b, "<dt>Manual</dt><dd>{}</dd>", inline(&r.manual));
    b.push_str("</dl>");

    let _ = write!(
        b,
        r#"<p class="actions"><a class="button" href="{}">Decode a value</a>"#,
        html(&decoder_link(&root, &g.id, &r.name))
    );
    if g.pmu.general.as_ref().is_some_and(|s| s.select == r.name) && !g.events.is_empty() {
        let _ = write!(
            b,
            r#" <a class="button ghost" href="{root}{}">{}</a>"#,
            html(&paths::events(&g.id)),
            html(&format::plural(g.events.len(), "event", "events"))
        );
    }
    b.push_str("</p>");

    let _ = write!(
        b,
        r#"<h2 id="layout">Bit layout</h2><figure class="diagram">{}<figcaption>Most significant bit on the left; shaded boxes are reserved. Select a field to jump to its description.</figcaption></figure>"#,
        svg::render(&Diagram {
            id: "reg",
            name: &r.name,
            width: r.width,
            fields: &r.fields,
            link_fields: true,
            standalone: false,
        })
    );

    let _ = write!(
        b,
        r#"<h2 id="fields">Fields</h2>{}"#,
        field_table(&root, &r.fields, Some(r.access), true)
    );

    if let Some(p) = cx.rust.get(&(g.id.clone(), r.name.clone())) {
        b.push_str(&crate::rust::section(&root, g, r, p));
    }

    let cs: Vec<&Constraint> = g
        .constraints
        .iter()
        .filter(|c| c.register == r.name)
        .collect();
    if !cs.is_empty() {
        b.push_str(r#"<h2 id="constraints">Constraints</h2>"#);
        b.push_str(&constraints_table(&cs, &root, &g.id, false));
    }

    if let (Some(parent), Some(change)) = (cx.parent(g), change) {
        let _ = write!(
            b,
            r#"<h2 id="changes">Changes from {}</h2>"#,
            gen_link(&root, &parent.id)
        );
        match change {
            None => b.push_str(
                "<p class=\"muted\">None: the register is as in the parent generation.</p>",
            ),
            Some(d) => b.push_str(&diff::reg_diff_html(d, true)),
        }
    }

    if r.msr.indexed && r.msr.count > 1 {
        b.push_str(&instances_table(r));
    }

    let page = Page {
        path: &path,
        title: format!("{} ({})", r.name, g.id),
        nav: Nav::Register(&g.id, &r.name),
        body: b,
        scripts: vec![],
        main_attrs: format!(
            r#" data-gen="{}" data-register="{}""#,
            html(&g.id),
            html(&r.name)
        ),
    };
    site.add(path.clone(), layout::render(cx, &page));
}

// ---------------------------------------------------------------------------------------
// Decoder shell

/// The register's run-time role (`role:`) and its fields' roles, in words with the YAML
/// spelling, as HTML; empty when it has none.
pub(crate) fn role_text(r: &pmu_defs::model::Register) -> String {
    use pmu_defs::validate::{counter_kind_word, field_role_word, register_role_word};
    let mut parts = Vec::new();
    if let Some(role) = r.role {
        parts.push(format!("<code>{}</code>", html(register_role_word(role))));
    }
    for f in &r.fields {
        let mut what = Vec::new();
        if let Some(k) = f.per_counter {
            what.push(format!("one element per {} counter", counter_kind_word(k)));
        }
        if let Some(fr) = f.role {
            what.push(format!("<code>{}</code>", html(field_role_word(fr))));
        }
        if !what.is_empty() {
            parts.push(format!(
                "<code>{}</code>: {}",
                html(&f.name),
                what.join(", ")
            ));
        }
    }
    parts.join("; ")
}

/// The instances of a register family, each with its address (and its alias address when the
/// register has an `alias-msr:` range).
pub(crate) fn instances_table(r: &Register) -> String {
    let alias = !r.alias_addresses.is_empty();
    let mut b = String::from(
        r#"<h2 id="instances">Instances</h2><div class="table-wrap"><table class="instances"><thead><tr><th scope="col">Register</th><th scope="col">Address</th>"#,
    );
    if alias {
        b.push_str(r#"<th scope="col">Alias address</th>"#);
    }
    b.push_str("</tr></thead><tbody>");
    for (i, a) in r.msr.addresses().enumerate() {
        let _ = write!(
            b,
            "<tr><td><code>{}{i}</code></td><td><code>{}</code></td>",
            html(&r.name),
            format::hex(u64::from(a))
        );
        if let Some(x) = r.alias_addresses.get(i) {
            let _ = write!(b, "<td><code>{}</code></td>", format::hex(u64::from(*x)));
        }
        b.push_str("</tr>");
    }
    b.push_str("</tbody></table></div>");
    b
}
