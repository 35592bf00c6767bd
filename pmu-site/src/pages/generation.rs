//! One page per generation: its PMU, registers, CPUID leaves with their diagrams, and
//! constraints.

use super::parts::*;
use crate::context::{Ctx, paths};
use crate::escape::html;
use crate::format;
use crate::html::{access_badge, decoder_link, gen_link, inline, prose, reg_link, vendor};
use crate::layout::{self, Nav, Page};
use crate::site::Site;
use crate::svg::{self, Diagram};
use pmu_defs::model::{Constraint, CpuidLeaf, Generation, Register};
use std::fmt::Write;

// ---------------------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------------------

/// How a register relates to the parent generation.
pub(crate) fn status(g: &Generation, r: &Register) -> String {
    if r.since == g.id {
        r#"<span class="tag tag-add">new</span>"#.to_owned()
    } else if r.defined_in == g.id {
        r#"<span class="tag tag-chg">changed</span>"#.to_owned()
    } else {
        r#"<span class="muted">inherited</span>"#.to_owned()
    }
}

pub(crate) fn generation(cx: &Ctx<'_>, g: &Generation, site: &mut Site) {
    let path = paths::generation(&g.id);
    let root = paths::root_of(&path);
    let mut b = crumbs(&root, &[(None, g.id.clone())]);
    let _ = write!(
        b,
        r#"<h1>{}</h1><p class="sub"><code>{}</code> · {}"#,
        html(&g.title),
        html(&g.id),
        vendor(g)
    );
    if let Some(p) = &g.extends {
        let _ = write!(b, " · extends {}", gen_link(&root, p));
    }
    b.push_str("</p>");
    b.push_str(&prose(&g.doc));
    b.push_str(r#"<dl class="facts">"#);
    let _ = write!(b, "<dt>Manual</dt><dd>{}</dd>", inline(&g.manual));
    if !g.ancestors.is_empty() {
        let chain: Vec<String> = g.ancestors.iter().map(|a| gen_link(&root, a)).collect();
        let _ = write!(b, "<dt>Ancestors</dt><dd>{}</dd>", chain.join(" → "));
    }
    let kids = cx.children_of(&g.id);
    if !kids.is_empty() {
        let list: Vec<String> = kids.iter().map(|k| gen_link(&root, &k.id)).collect();
        let _ = write!(b, "<dt>Extended by</dt><dd>{}</dd>", list.join(", "));
    }
    let _ = write!(
        b,
        "<dt>Counters</dt><dd>{} general-purpose, {} fixed-function</dd>",
        g.general_counters(),
        g.fixed_counters()
    );
    b.push_str("</dl>");

    b.push_str(r#"<div class="cards">"#);
    if let Some(p) = &g.extends {
        let _ = write!(
            b,
            r#"<a class="card" href="{root}{}"><strong>Changes</strong><span>What changed from <code>{}</code>.</span></a>"#,
            html(&paths::diff(&g.id)),
            html(p)
        );
    }
    if !g.events.is_empty() {
        let _ = write!(
            b,
            r#"<a class="card" href="{root}{}"><strong>Events</strong><span>{}, searchable by name and code.</span></a>"#,
            html(&paths::events(&g.id)),
            html(&format::plural(g.events.len(), "event", "events"))
        );
    }
    if let Some(sel) = &g.pmu.general {
        let _ = write!(
            b,
            r#"<a class="card" href="{}"><strong>Decoder</strong><span>Decode a <code>{}</code> value.</span></a>"#,
            html(&decoder_link(&root, &g.id, &sel.select)),
            html(&sel.select)
        );
    }
    b.push_str("</div>");

    // PMU.
    b.push_str(r#"<h2 id="pmu">Performance-monitoring unit</h2><div class="table-wrap"><table class="kv"><tbody>"#);
    match &g.pmu.general {
        Some(s) => {
            let _ = write!(
                b,
                "<tr><th scope=\"row\">General-purpose counters</th><td>{} selected by {} ({})</td></tr>",
                reg_link(&root, &g.id, &s.counter),
                reg_link(&root, &g.id, &s.select),
                format::plural(g.general_counters() as usize, "counter", "counters")
            );
        }
        None => b.push_str(
            "<tr><th scope=\"row\">General-purpose counters</th><td class=\"muted\">none</td></tr>",
        ),
    }
    match &g.pmu.fixed {
        Some(f) => {
            let _ = write!(
                b,
                "<tr><th scope=\"row\">Fixed-function counters</th><td>{}",
                reg_link(&root, &g.id, &f.counter)
            );
            if let Some(c) = &f.control {
                let _ = write!(b, " controlled by {}", reg_link(&root, &g.id, c));
            }
            let _ = write!(
                b,
                " ({})</td></tr>",
                format::plural(g.fixed_counters() as usize, "counter", "counters")
            );
        }
        None => b.push_str(
            "<tr><th scope=\"row\">Fixed-function counters</th><td class=\"muted\">none</td></tr>",
        ),
    }
    if !g.pmu.encoding.is_empty() {
        let sel = g.pmu.general.as_ref().map(|s| s.select.as_str());
        let enc: Vec<String> = g
            .pmu
            .encoding
            .iter()
            .map(|(attr, field)| {
                let target = match sel {
                    Some(s) => format!(
                        r#"<a href="{root}{}#field-{}"><code>{}</code></a>"#,
                        html(&paths::register(&g.id, s)),
                        html(field),
                        html(field)
                    ),
                    None => format!("<code>{}</code>", html(field)),
                };
                format!(
                    r#"<span class="pair"><code>{}</code> → {target}</span>"#,
                    html(attr)
                )
            })
            .collect();
        let _ = write!(
            b,
            "<tr><th scope=\"row\">Event encoding</th><td>{}</td></tr>",
            enc.join(" ")
        );
    }
    b.push_str("</tbody></table></div>");

    // Registers.
    if !g.registers.is_empty() {
        b.push_str(r#"<h2 id="registers">Registers</h2><div class="table-wrap"><table class="regs"><thead><tr><th scope="col">Register</th><th scope="col">Address</th><th scope="col">Access</th><th scope="col" class="num">Fields</th><th scope="col">Since</th><th scope="col">Here</th></tr></thead><tbody>"#);
        for r in &g.registers {
            let _ = write!(
                b,
                r#"<tr><td>{}<div class="note">{}</div></td><td><code>{}</code><div class="note">{}</div></td><td>{}</td><td class="num">{}</td><td>{}</td><td>{}</td></tr>"#,
                reg_link(&root, &g.id, &r.name),
                first_sentence(&r.doc),
                html(&format::address(&r.msr)),
                html(&format::instances(r)),
                access_badge(r.access),
                r.fields.len(),
                gen_link(&root, &r.since),
                status(g, r)
            );
        }
        b.push_str("</tbody></table></div>");
    }

    // CPUID.
    if !g.cpuid.is_empty() {
        b.push_str(r#"<h2 id="cpuid">CPUID leaves</h2>"#);
        for c in &g.cpuid {
            cpuid_section(&root, g, c, &mut b);
        }
    }

    // Constraints.
    if !g.constraints.is_empty() {
        b.push_str(r#"<h2 id="constraints">Constraints</h2><p>Field combinations the generated API rejects (errors) or flags (warnings); the decoder checks them too.</p>"#);
        let cs: Vec<&Constraint> = g.constraints.iter().collect();
        b.push_str(&constraints_table(&cs, &root, &g.id, true));
    }

    let page = Page {
        path: &path,
        title: g.title.clone(),
        nav: Nav::Overview(&g.id),
        body: b,
        scripts: vec![],
        main_attrs: format!(r#" data-gen="{}""#, html(&g.id)),
    };
    site.add(path.clone(), layout::render(cx, &page));
}

pub(crate) fn first_sentence(doc: &str) -> String {
    let text: Vec<&str> = doc.split_whitespace().collect();
    let text = text.join(" ");
    let end = text
        .match_indices(". ")
        .next()
        .map_or(text.len(), |(i, _)| i + 1);
    html(&text[..end]).to_string()
}

pub(crate) fn cpuid_title(c: &CpuidLeaf) -> String {
    match c.subleaf {
        Some(s) => format!("CPUID.(EAX={:02X}H,ECX={s}) {}", c.leaf, c.name),
        None => format!("CPUID.{:02X}H {}", c.leaf, c.name),
    }
}

pub(crate) fn cpuid_section(root: &str, g: &Generation, c: &CpuidLeaf, b: &mut String) {
    let anchor = format!("cpuid-{}", c.name);
    let _ = write!(
        b,
        r#"<section class="leaf" id="{}"><h3>{}</h3>"#,
        html(&anchor),
        html(&cpuid_title(c))
    );
    b.push_str(&prose(&c.doc));
    let _ = write!(
        b,
        r#"<p class="note">{} · defined in {}</p>"#,
        inline(&c.manual),
        gen_link(root, &c.defined_in)
    );
    for r in &c.registers {
        let id = format!("cpuid-{}-{}", c.name, r.register);
        let name = format!("{}.{}", c.name, r.register.to_uppercase());
        let _ = write!(
            b,
            r#"<h4><code>{}</code> <a class="small" href="{}">decode</a></h4><figure class="diagram">{}</figure>"#,
            html(&r.register.to_uppercase()),
            html(&decoder_link(
                root,
                &g.id,
                &format!("cpuid:{}:{}", c.name, r.register)
            )),
            svg::render(&Diagram {
                id: &id,
                name: &name,
                width: 32,
                fields: &r.fields,
                link_fields: false,
                standalone: false,
            })
        );
        b.push_str(&field_table(root, &r.fields, None, false));
    }
    b.push_str("</section>");
}
