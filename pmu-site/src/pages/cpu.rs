//! The CPU pages ("find your CPU in two steps": its name or family/model, then its
//! generation): `cpus/index.html` lists every CPU name of the definitions, and
//! `cpus/<name>.html` shows one: its other spellings, vendor, the family/models it covers
//! (as `06_8F` and as `cpus:` writes them) with the hybrid core types, and for each generation
//! it stands for the ancestors, counters, events and registers. The markup is in
//! `templates/cpus.html` and `templates/cpu.html`; every fact comes from the CPU-name files and
//! the generations' `cpus:` ([`crate::cpus`]).

use super::parts::crumbs;
use crate::context::{Ctx, paths};
use crate::cpus::{FamilyModelLabel, SiteCpu};
use crate::format;
use crate::html::{cpu_vendor, gen_link, reg_link};
use crate::layout::{self, Nav, Page};
use crate::site::Site;
use askama::Template;
use pmu_defs::model::{Cpu, Generation};

/// The list of CPUs (`templates/cpus.html`).
#[derive(Template)]
#[template(path = "cpus.html")]
struct CpusBody {
    crumbs: String,
    count: String,
    rows: Vec<CpuRow>,
}

/// One CPU in the list.
struct CpuRow {
    path: String,
    name: String,
    also: String,
    vendor: &'static str,
    family_models: String,
    /// Links to the generations, already rendered.
    generations: String,
}

/// A CPU's page (`templates/cpu.html`).
#[derive(Template)]
#[template(path = "cpu.html")]
struct CpuBody<'a> {
    crumbs: String,
    name: &'a str,
    also: &'a [String],
    vendor: &'static str,
    family_models: Vec<FamilyModelLabel>,
    /// The `cpus:` entries with their generations.
    models: Vec<ModelRow>,
    /// Whether any entry names a core type, native model id or core role.
    hybrid: bool,
    generations: Vec<GenSection>,
}

/// One `cpus:` entry the CPU covers, with its generation (a link).
struct ModelRow {
    label: FamilyModelLabel,
    generation: String,
    core_type: String,
    native_model_id: String,
    core_role: String,
    /// perf's PMU for the core role (`cpu_core`, `cpu_atom`, `cpu_lowpower`).
    perf_pmu: String,
}

/// One generation the CPU is: its links and counts, rendered.
struct GenSection {
    id: String,
    title: String,
    link: String,
    ancestors: String,
    general: u32,
    fixed: u32,
    /// The event page and its count, when the generation has events.
    events: Option<(String, String)>,
    /// The counter and event-select registers by role, then every register.
    roles: Vec<(&'static str, String)>,
    registers: String,
}

/// The list of CPUs and a page per CPU.
pub(crate) fn all(cx: &Ctx<'_>, site: &mut Site) {
    list(cx, site);
    for c in &cx.cpus {
        page(cx, c, site);
    }
}

fn list(cx: &Ctx<'_>, site: &mut Site) {
    let path = paths::CPUS;
    let root = paths::root_of(path);
    let rows = cx
        .cpus
        .iter()
        .map(|c| CpuRow {
            path: format!("{root}{}", paths::cpu(&c.slug)),
            name: c.name.name.clone(),
            also: c.name.also.join(", "),
            vendor: cpu_vendor(c),
            family_models: fm_list(&c.family_models()),
            generations: gen_links(&root, &c.generations),
        })
        .collect();
    let body = CpusBody {
        crumbs: crumbs(&root, &[(None, "CPUs".to_owned())]),
        count: format::plural(cx.cpus.len(), "CPU name", "CPU names"),
        rows,
    };
    add(cx, site, path, "CPUs".to_owned(), body.render(), vec![]);
}

fn page(cx: &Ctx<'_>, c: &SiteCpu<'_>, site: &mut Site) {
    let path = paths::cpu(&c.slug);
    let root = paths::root_of(&path);
    // By family/model, so a hybrid part's core types are side by side.
    let mut models: Vec<ModelRow> = c
        .models
        .iter()
        .map(|(g, m)| model_row(&root, g, m))
        .collect();
    models.sort_by(|a, b| a.label.cpus.cmp(&b.label.cpus));
    let body = CpuBody {
        crumbs: crumbs(
            &root,
            &[
                (Some(format!("{root}{}", paths::CPUS)), "CPUs".to_owned()),
                (None, c.name.name.clone()),
            ],
        ),
        name: &c.name.name,
        also: &c.name.also,
        vendor: cpu_vendor(c),
        family_models: c.family_models(),
        hybrid: c
            .models
            .iter()
            .any(|(_, m)| m.core_type.is_some() || m.core_role.is_some()),
        models,
        generations: c
            .generations
            .iter()
            .map(|g| section(cx, &root, g))
            .collect(),
    };
    // The search ranks the items of the CPU's generations first on its page.
    let gens: Vec<&str> = c.generations.iter().map(|g| g.id.as_str()).collect();
    let data = vec![("gens", gens.join(" "))];
    add(cx, site, &path, c.name.name.clone(), body.render(), data);
}

/// Puts a rendered body in the page shell.
fn add(
    cx: &Ctx<'_>,
    site: &mut Site,
    path: &str,
    title: String,
    body: askama::Result<String>,
    data: Vec<(&'static str, String)>,
) {
    let page = Page {
        path,
        title,
        nav: Nav::Cpus,
        body: body.unwrap_or_default(),
        scripts: vec![],
        data,
    };
    site.add(path.to_owned(), layout::render(cx, &page));
}

fn model_row(root: &str, g: &Generation, m: &Cpu) -> ModelRow {
    let role = m.core_role.as_deref().unwrap_or_default();
    ModelRow {
        label: FamilyModelLabel::of(&m.family_model),
        generation: gen_link(root, &g.id),
        core_type: m
            .core_type
            .map(|t| format!("0x{t:02X}"))
            .unwrap_or_default(),
        native_model_id: m
            .native_model_id
            .map(|n| format!("0x{n:06X}"))
            .unwrap_or_default(),
        core_role: role.to_owned(),
        perf_pmu: if role.is_empty() {
            String::new()
        } else {
            pmu_vocab::perf::pmu_for_core_role(role).to_owned()
        },
    }
}

fn section(cx: &Ctx<'_>, root: &str, g: &Generation) -> GenSection {
    let mut roles = Vec::new();
    if let Some(s) = &g.pmu.general {
        roles.push(("General-purpose counter", reg_link(root, g, &s.counter)));
        roles.push(("Event select", reg_link(root, g, &s.select)));
    }
    if let Some(f) = &g.pmu.fixed {
        roles.push(("Fixed-function counter", reg_link(root, g, &f.counter)));
        if let Some(ctl) = &f.control {
            roles.push(("Fixed-function control", reg_link(root, g, ctl)));
        }
    }
    let ancestors: Vec<&Generation> = g
        .ancestors
        .iter()
        .filter_map(|a| cx.model.generation(a))
        .collect();
    GenSection {
        id: g.id.clone(),
        title: g.title.clone(),
        link: gen_link(root, &g.id),
        ancestors: gen_links_sep(root, &ancestors, " → "),
        general: g.general_counters(),
        fixed: g.fixed_counters(),
        events: (!g.events.is_empty()).then(|| {
            (
                format!("{root}{}", paths::events(&g.id)),
                format::plural(g.events.len(), "event", "events"),
            )
        }),
        roles,
        registers: g
            .registers
            .iter()
            .map(|r| reg_link(root, g, &r.name))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// `06_8F, 06_8E`: the family/models in Intel's spelling.
fn fm_list(fms: &[FamilyModelLabel]) -> String {
    let mut shown: Vec<&str> = Vec::new();
    for l in fms {
        if !shown.contains(&l.display.as_str()) {
            shown.push(&l.display);
        }
    }
    shown.join(", ")
}

fn gen_links(root: &str, gens: &[&Generation]) -> String {
    gen_links_sep(root, gens, ", ")
}

fn gen_links_sep(root: &str, gens: &[&Generation], sep: &str) -> String {
    gens.iter()
        .map(|g| gen_link(root, &g.id))
        .collect::<Vec<_>>()
        .join(sep)
}
