//! Pieces the generation and register pages share: breadcrumbs, a field's availability and
//! bits, the field table and the constraints table (`templates/crumbs.html`,
//! `field_table.html`, `constraints.html`).

use crate::format;
use crate::html;
use crate::svg;
use askama::Template;
use pmu_defs::model::{Access, Constraint, EnumValue, Field, Generation, Severity};

/// Breadcrumbs (`templates/crumbs.html`): the index, then each item, linked when it has an
/// address.
#[derive(Template)]
#[template(path = "crumbs.html")]
struct Crumbs<'a> {
    root: &'a str,
    items: &'a [(Option<String>, String)],
}

pub(crate) fn crumbs(root: &str, items: &[(Option<String>, String)]) -> String {
    Crumbs { root, items }.render().unwrap_or_default()
}

/// A field table (`templates/field_table.html`): bits, name, access, availability (`since`,
/// `deprecated`, `requires`) and description with the named values.
#[derive(Template)]
#[template(path = "field_table.html")]
struct FieldTable<'a> {
    root: &'a str,
    fields: &'a [Field],
    /// The register's access: a field with the same one shows it muted.
    reg_access: Option<Access>,
    /// Give each row an `id` (`field-NAME`).
    anchors: bool,
}

impl FieldTable<'_> {
    fn same_access(&self, f: &Field) -> bool {
        self.reg_access == Some(f.access)
    }

    fn badge(&self, f: &Field) -> String {
        html::access_badge(f.access)
    }

    fn hex(&self, v: &EnumValue) -> String {
        format::hex(v.value)
    }
}

/// A field table (registers and CPUID outputs).
pub(crate) fn field_table(
    root: &str,
    fields: &[Field],
    reg_access: Option<Access>,
    anchors: bool,
) -> String {
    FieldTable {
        root,
        fields,
        reg_access,
        anchors,
    }
    .render()
    .unwrap_or_default()
}

/// A constraints table (`templates/constraints.html`).
#[derive(Template)]
#[template(path = "constraints.html")]
struct ConstraintsTable<'a> {
    cs: &'a [&'a Constraint],
    root: &'a str,
    g: &'a Generation,
    with_register: bool,
}

impl ConstraintsTable<'_> {
    /// `FIELD = value and …`.
    fn when(&self, c: &Constraint) -> String {
        c.when
            .iter()
            .map(|w| format!("{} = {}", w.field, format::hex(w.value)))
            .collect::<Vec<_>>()
            .join(" and ")
    }
}

pub(crate) fn constraints_table(
    cs: &[&Constraint],
    root: &str,
    g: &Generation,
    with_register: bool,
) -> String {
    ConstraintsTable {
        cs,
        root,
        g,
        with_register,
    }
    .render()
    .unwrap_or_default()
}
