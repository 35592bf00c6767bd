//! One page per generation: its PMU, registers, CPUID leaves with their diagrams, and
//! constraints.

use super::parts::*;
use crate::context::{Ctx, paths};
use crate::format;
use crate::html::{self, access_badge, decoder_link, gen_link, prose, reg_link, vendor};
use crate::layout::{self, Nav, Page};
use crate::site::Site;
use crate::svg::{self, Diagram};
use askama::Template;
use pmu_defs::model::{Constraint, CpuidLeaf, Generation, Register};

// ---------------------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------------------

/// How a register relates to the parent generation.
pub(crate) enum Status {
    New,
    Changed,
    Inherited,
}

pub(crate) fn status(g: &Generation, r: &Register) -> Status {
    if r.since == g.id {
        Status::New
    } else if r.defined_in == g.id {
        Status::Changed
    } else {
        Status::Inherited
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
    /// The CPU names standing for the generation (page, name), which the heading shows
    /// before its id.
    cpus: Vec<(String, &'a str)>,
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
    /// The page of the general-purpose event select's definition, whose fields the encoding
    /// names.
    select: Option<String>,
    registers: Vec<RegisterRow>,
    cpuid: String,
    constraints: String,
}

/// One row of the register table. A register the generation inherits unchanged has no page
/// of its own: its row (`#reg-<NAME>`) is where it is shown, with its Rust path here and
/// a link to its definition's page.
struct RegisterRow {
    anchor: Option<String>,
    link: String,
    /// The register's Rust path on this generation and its rustdoc page.
    rust: Option<(String, String)>,
    /// An inherited register's fields with their bits (the definition's page has the rest).
    field_bits: Vec<(String, String)>,
    summary: String,
    address: String,
    instances: String,
    access: String,
    fields: usize,
    since: String,
    status: Status,
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
    let cpuid: String = g.cpuid.iter().map(|c| cpuid_section(&root, g, c)).collect();
    let cs: Vec<&Constraint> = g.constraints.iter().collect();
    let counters = |n: u32| format::plural(n as usize, "counter", "counters");
    let body = GenerationBody {
        g,
        root: &root,
        crumbs: crumbs(&root, &[(None, g.id.clone())]),
        cpus: cx
            .cpus_of(g)
            .into_iter()
            .map(|c| {
                (
                    format!("{root}{}", paths::cpu(&c.slug)),
                    c.name.name.as_str(),
                )
            })
            .collect(),
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
                reg_link(&root, g, &s.counter),
                reg_link(&root, g, &s.select),
            )
        }),
        general_count: counters(g.general_counters()),
        fixed: g.pmu.fixed.as_ref().map(|f| reg_link(&root, g, &f.counter)),
        fixed_control: g
            .pmu
            .fixed
            .as_ref()
            .and_then(|f| f.control.as_ref())
            .map(|c| reg_link(&root, g, c)),
        fixed_count: counters(g.fixed_counters()),
        select: sel
            .and_then(|s| g.register(s))
            .map(|r| paths::register(&r.defined_in, &r.name)),
        registers: g
            .registers
            .iter()
            .map(|r| register_row(cx, &root, g, r))
            .collect(),
        cpuid,
        constraints: if cs.is_empty() {
            String::new()
        } else {
            constraints_table(&cs, &root, g, true)
        },
    };
    let page = Page {
        path: &path,
        title: cx.title_of(g),
        nav: Nav::Overview(&g.id),
        body: body.render().unwrap_or_default(),
        scripts: vec![],
        data: vec![("gen", g.id.clone())],
    };
    site.add(path.clone(), layout::render(cx, &page));
}

/// A register's row; an inherited one's anchor, Rust path and link to its definition.
fn register_row(cx: &Ctx<'_>, root: &str, g: &Generation, r: &Register) -> RegisterRow {
    let inherited = r.defined_in != g.id;
    RegisterRow {
        anchor: inherited.then(|| format!("reg-{}", crate::escape::slug(&r.name))),
        link: reg_link(
            root,
            cx.model.generation(&r.defined_in).unwrap_or(g),
            &r.name,
        ),
        rust: inherited
            .then(|| cx.rust.get(&(g.id.clone(), r.name.clone())))
            .flatten()
            .map(|p| (crate::rust::module_doc(&p.path), p.path.clone())),
        field_bits: if inherited {
            (r.fields.iter())
                .map(|f| (f.name.clone(), format::field_bits(f)))
                .collect()
        } else {
            Vec::new()
        },
        summary: first_sentence(&r.doc),
        address: format::address(&r.msr),
        instances: format::instances(r),
        access: access_badge(r.access),
        fields: r.fields.len(),
        since: gen_link(root, &r.since),
        status: status(g, r),
    }
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

/// A CPUID leaf's section (`templates/cpuid.html`): doc, manual, and per output register its
/// diagram and field table.
#[derive(Template)]
#[template(path = "cpuid.html")]
struct CpuidSection<'a> {
    c: &'a CpuidLeaf,
    root: &'a str,
    title: String,
    regs: Vec<CpuidRegister>,
    /// The leaf's section on the page of the generation defining it, when that is another.
    home: Option<String>,
}

/// One output register of a leaf, its diagram and field table already rendered.
struct CpuidRegister {
    name: String,
    decoder: String,
    diagram: String,
    fields: String,
    field_names: Vec<String>,
}

pub(crate) fn cpuid_section(root: &str, g: &Generation, c: &CpuidLeaf) -> String {
    // A leaf defined in another generation: its diagrams and field tables are on that
    // generation's page, drawn once.
    let inherited = c.defined_in != g.id;
    let regs = c
        .registers
        .iter()
        .map(|r| {
            let id = format!("cpuid-{}-{}", c.name, r.register);
            let name = format!("{}.{}", c.name, r.register.to_uppercase());
            CpuidRegister {
                name: r.register.to_uppercase(),
                decoder: decoder_link(root, &g.id, &format!("cpuid:{}:{}", c.name, r.register)),
                diagram: if inherited {
                    String::new()
                } else {
                    svg::render(&Diagram {
                        id: &id,
                        name: &name,
                        width: 32,
                        fields: &r.fields,
                        link_fields: false,
                        standalone: false,
                    })
                },
                fields: if inherited {
                    String::new()
                } else {
                    field_table(root, &r.fields, None, false)
                },
                field_names: r.fields.iter().map(|f| f.name.clone()).collect(),
            }
        })
        .collect();
    CpuidSection {
        c,
        root,
        title: cpuid_title(c),
        regs,
        home: inherited.then(|| {
            format!(
                "{root}{}#cpuid-{}",
                paths::generation(&c.defined_in),
                c.name
            )
        }),
    }
    .render()
    .unwrap_or_default()
}
