//! One page per register definition (each register a generation defines, new or changed):
//! the bit-layout diagram, the field table, the changes from the parent, its Rust path and
//! snippet, its role and its instances. A register a generation inherits unchanged is a row
//! of its generation's page (`generation.rs`), linking here.

use super::parts::*;
use crate::context::{Ctx, paths};
use crate::html::{access_badge, decoder_link, gen_link, prose};
use crate::layout::{self, Nav, Page};
use crate::site::Site;
use crate::svg::{self, Diagram};
use crate::{diff, format};
use askama::Template;
use pmu_defs::model::{Constraint, Generation, Register};
use pmu_defs::validate::{counter_kind_word, field_role_word, register_role_word};

// ---------------------------------------------------------------------------------------
// Register
// ---------------------------------------------------------------------------------------

/// A register's page body (`templates/register.html`): the values it shows, and the parts
/// rendered elsewhere as markup (breadcrumbs, diagram, tables, Rust section, changes).
#[derive(Template)]
#[template(path = "register.html")]
struct RegisterBody<'a> {
    g: &'a Generation,
    r: &'a Register,
    root: &'a str,
    crumbs: String,
    prose: String,
    address: String,
    instances: String,
    alias: Option<String>,
    access: String,
    reset: Option<String>,
    reserved_bits: String,
    reserved_mask: String,
    /// The register's run-time role and its fields' roles, in words with the YAML spelling.
    role: Option<&'static str>,
    field_roles: Vec<FieldRoles<'a>>,
    since: String,
    manual: String,
    decoder: String,
    events_label: Option<String>,
    events_path: String,
    diagram: String,
    fields: String,
    rust: String,
    constraints: String,
    /// A link to the parent generation, when there is one, and what changed from it (`None`:
    /// nothing).
    parent: Option<String>,
    changes: Option<String>,
    /// For a register family: each instance's number, address and alias address.
    instance_rows: Vec<(usize, String, Option<String>)>,
}

/// The roles of one field.
struct FieldRoles<'a> {
    name: &'a str,
    per_counter: Option<&'static str>,
    role: Option<&'static str>,
}

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
    let crumbs = crumbs(
        &root,
        &[
            (
                Some(format!("{root}{}", paths::generation(&g.id))),
                g.id.clone(),
            ),
            (None, r.name.clone()),
        ],
    );
    let cs: Vec<&Constraint> = g
        .constraints
        .iter()
        .filter(|c| c.register == r.name)
        .collect();
    let (parent, changes) = match (cx.parent(g), change) {
        (Some(parent), Some(change)) => (
            Some(gen_link(&root, &parent.id)),
            change.map(|d| diff::reg_diff_html(d, true)),
        ),
        _ => (None, None),
    };
    let with_events =
        g.pmu.general.as_ref().is_some_and(|s| s.select == r.name) && !g.events.is_empty();
    let body = RegisterBody {
        g,
        r,
        root: &root,
        crumbs,
        prose: prose(&r.doc),
        address: format::address(&r.msr),
        instances: format::instances(r),
        alias: r.alias_msr.as_ref().map(format::address),
        access: access_badge(r.access),
        reset: r.reset.map(format::hex),
        reserved_bits: format::mask_ranges(r.reserved_mask),
        reserved_mask: format::hex_width(r.reserved_mask, r.width),
        role: r.role.map(register_role_word),
        field_roles: field_roles(r),
        since: gen_link(&root, &r.since),
        manual: format::one_line(&r.manual),
        decoder: decoder_link(&root, &g.id, &r.name),
        events_label: with_events.then(|| format::plural(g.events.len(), "event", "events")),
        events_path: paths::events(&g.id),
        diagram: svg::render(&Diagram {
            id: "reg",
            name: &r.name,
            width: r.width,
            fields: &r.fields,
            link_fields: true,
            standalone: false,
        }),
        fields: field_table(&root, &r.fields, Some(r.access), true),
        rust: cx
            .rust
            .get(&(g.id.clone(), r.name.clone()))
            .map(|p| crate::rust::section(&root, g, r, p))
            .unwrap_or_default(),
        constraints: if cs.is_empty() {
            String::new()
        } else {
            constraints_table(&cs, &root, g, false)
        },
        parent,
        changes,
        instance_rows: if r.msr.indexed && r.msr.count > 1 {
            instance_rows(r)
        } else {
            Vec::new()
        },
    };
    let page = Page {
        path: &path,
        title: format!("{} ({})", r.name, g.id),
        nav: Nav::Register(&g.id, &r.name),
        body: body.render().unwrap_or_default(),
        scripts: vec![],
        data: vec![("gen", g.id.clone()), ("register", r.name.clone())],
    };
    site.add(path.clone(), layout::render(cx, &page));
}

/// The fields with a run-time role or one element per counter.
fn field_roles(r: &Register) -> Vec<FieldRoles<'_>> {
    r.fields
        .iter()
        .filter(|f| f.per_counter.is_some() || f.role.is_some())
        .map(|f| FieldRoles {
            name: &f.name,
            per_counter: f.per_counter.map(counter_kind_word),
            role: f.role.map(field_role_word),
        })
        .collect()
}

/// The instances of a register family, each with its address (and its alias address when the
/// register has an `alias-msr:` range).
fn instance_rows(r: &Register) -> Vec<(usize, String, Option<String>)> {
    r.msr
        .addresses()
        .enumerate()
        .map(|(i, a)| {
            (
                i,
                format::hex(u64::from(a)),
                r.alias_addresses.get(i).map(|x| format::hex(u64::from(*x))),
            )
        })
        .collect()
}
