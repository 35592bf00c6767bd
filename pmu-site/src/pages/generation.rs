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
use askama::Template;
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

/// A generation's page body (`templates/generation.html`): the values it shows, and the parts
/// rendered elsewhere as markup (breadcrumbs, links, tables, CPUID sections).
#[derive(Template)]
#[template(path = "generation.html")]
struct GenerationBody<'a> {
    g: &'a Generation,
    root: &'a str,
    crumbs: String,
    vendor: &'static str,
    extends: Option<String>,
    prose: String,
    manual: String,
    ancestors: String,
    extended_by: String,
    diff_path: String,
    events_path: String,
    events_label: String,
    decoder: String,
    /// Links to the general-purpose counter and its select register.
    general: Option<(String, String)>,
    general_count: String,
    fixed: Option<String>,
    fixed_control: Option<String>,
    fixed_count: String,
    encoding: String,
    registers: Vec<RegisterRow>,
    cpuid: String,
    constraints: String,
}

/// One row of the register table.
struct RegisterRow {
    link: String,
    summary: String,
    address: String,
    instances: String,
    access: String,
    fields: usize,
    since: String,
    status: String,
}

pub(crate) fn generation(cx: &Ctx<'_>, g: &Generation, site: &mut Site) {
    let path = paths::generation(&g.id);
    let root = paths::root_of(&path);
    let links = |ids: &mut dyn Iterator<Item = &str>, sep: &str| -> String {
        ids.map(|id| gen_link(&root, id))
            .collect::<Vec<_>>()
            .join(sep)
    };
    let sel = g.pmu.general.as_ref().map(|s| s.select.as_str());
    let encoding: Vec<String> = g
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
    let mut cpuid = String::new();
    for c in &g.cpuid {
        cpuid_section(&root, g, c, &mut cpuid);
    }
    let cs: Vec<&Constraint> = g.constraints.iter().collect();
    let counters = |n: u32| format::plural(n as usize, "counter", "counters");
    let body = GenerationBody {
        g,
        root: &root,
        crumbs: crumbs(&root, &[(None, g.id.clone())]),
        vendor: vendor(g),
        extends: g.extends.as_ref().map(|p| gen_link(&root, p)),
        prose: prose(&g.doc),
        manual: format::one_line(&g.manual),
        ancestors: links(&mut g.ancestors.iter().map(String::as_str), " → "),
        extended_by: links(
            &mut cx.children_of(&g.id).iter().map(|k| k.id.as_str()),
            ", ",
        ),
        diff_path: paths::diff(&g.id),
        events_path: paths::events(&g.id),
        events_label: format::plural(g.events.len(), "event", "events"),
        decoder: sel.map_or(String::new(), |s| decoder_link(&root, &g.id, s)),
        general: g.pmu.general.as_ref().map(|s| {
            (
                reg_link(&root, &g.id, &s.counter),
                reg_link(&root, &g.id, &s.select),
            )
        }),
        general_count: counters(g.general_counters()),
        fixed: g
            .pmu
            .fixed
            .as_ref()
            .map(|f| reg_link(&root, &g.id, &f.counter)),
        fixed_control: g
            .pmu
            .fixed
            .as_ref()
            .and_then(|f| f.control.as_ref())
            .map(|c| reg_link(&root, &g.id, c)),
        fixed_count: counters(g.fixed_counters()),
        encoding: encoding.join(" "),
        registers: g
            .registers
            .iter()
            .map(|r| RegisterRow {
                link: reg_link(&root, &g.id, &r.name),
                summary: first_sentence(&r.doc),
                address: format::address(&r.msr),
                instances: format::instances(r),
                access: access_badge(r.access),
                fields: r.fields.len(),
                since: gen_link(&root, &r.since),
                status: status(g, r),
            })
            .collect(),
        cpuid,
        constraints: if cs.is_empty() {
            String::new()
        } else {
            constraints_table(&cs, &root, &g.id, true)
        },
    };
    let page = Page {
        path: &path,
        title: g.title.clone(),
        nav: Nav::Overview(&g.id),
        body: body.render().unwrap_or_default(),
        scripts: vec![],
        data: vec![("gen", g.id.clone())],
    };
    site.add(path.clone(), layout::render(cx, &page));
}

/// The first sentence of a doc string, on one line, as plain text.
pub(crate) fn first_sentence(doc: &str) -> String {
    let text = format::one_line(doc);
    let end = text
        .match_indices(". ")
        .next()
        .map_or(text.len(), |(i, _)| i + 1);
    text[..end].to_owned()
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
