//! The HTML diff page: summary chips, the registers and fields that changed with their
//! change tables, CPUID leaves, events and constraints.

use super::compute::*;
use crate::context::{Ctx, paths};
use crate::escape::html;
use crate::html::{gen_link, inline, reg_link};
use crate::{format, layout};
use askama::Template;
use pmu_defs::model::Event;
use std::fmt::Write;

pub(crate) const ADDED: &str = r#"<span class="tag tag-add">added</span>"#;
pub(crate) const REMOVED: &str = r#"<span class="tag tag-rem">removed</span>"#;
pub(crate) const CHANGED: &str = r#"<span class="tag tag-chg">changed</span>"#;

pub(crate) fn changes_table(changes: &[Change]) -> String {
    let mut out = String::from(
        r#"<div class="table-wrap"><table class="changes"><thead><tr><th scope="col">What</th><th scope="col">Before</th><th scope="col">After</th></tr></thead><tbody>"#,
    );
    for c in changes {
        let cell = |s: &str, tag: &str| {
            if s.is_empty() {
                r#"<span class="muted">—</span>"#.to_owned()
            } else {
                format!("<{tag}>{}</{tag}>", html(s))
            }
        };
        let _ = write!(
            out,
            "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td></tr>",
            html(&c.what),
            cell(&c.old, "del"),
            cell(&c.new, "ins")
        );
    }
    out.push_str("</tbody></table></div>");
    out
}

pub(crate) fn field_diffs_html(diffs: &[FieldDiff<'_>]) -> String {
    let mut out = String::from(
        r#"<div class="table-wrap"><table class="changes"><thead><tr><th scope="col">Field</th><th scope="col"></th><th scope="col">What</th><th scope="col">Before</th><th scope="col">After</th></tr></thead><tbody>"#,
    );
    for d in diffs {
        match d {
            FieldDiff::Added(f) => {
                let _ = write!(
                    out,
                    r#"<tr><th scope="row"><code>{}</code></th><td>{ADDED}</td><td>bits</td><td><span class="muted">—</span></td><td><ins>{}</ins></td></tr>"#,
                    html(&f.name),
                    html(&bits_with_array(f))
                );
            }
            FieldDiff::Removed(f) => {
                let _ = write!(
                    out,
                    r#"<tr><th scope="row"><code>{}</code></th><td>{REMOVED}</td><td>bits</td><td><del>{}</del></td><td><span class="muted">—</span></td></tr>"#,
                    html(&f.name),
                    html(&bits_with_array(f))
                );
            }
            FieldDiff::Changed { field, changes } => {
                for (i, c) in changes.iter().enumerate() {
                    let name = if i == 0 {
                        format!(
                            r#"<th scope="row" rowspan="{}"><code>{}</code></th><td rowspan="{}">{CHANGED}</td>"#,
                            changes.len(),
                            html(&field.name),
                            changes.len()
                        )
                    } else {
                        String::new()
                    };
                    let cell = |s: &str, tag: &str| {
                        if s.is_empty() {
                            r#"<span class="muted">—</span>"#.to_owned()
                        } else {
                            format!("<{tag}>{}</{tag}>", html(s))
                        }
                    };
                    let _ = write!(
                        out,
                        "<tr>{name}<td>{}</td><td>{}</td><td>{}</td></tr>",
                        html(&c.what),
                        cell(&c.old, "del"),
                        cell(&c.new, "ins")
                    );
                }
            }
        }
    }
    out.push_str("</tbody></table></div>");
    out
}

/// The body of one register's difference (used on diff pages, whose headings already say
/// added/removed, and on register pages, which show the tag here).
pub fn reg_diff_html(d: &RegDiff<'_>, with_tag: bool) -> String {
    let mut out = String::new();
    let tag = |t: &str| {
        if with_tag {
            format!("{t} ")
        } else {
            String::new()
        }
    };
    match d {
        RegDiff::Added(r) => {
            let _ = write!(
                out,
                "<p>{}New register at <code>{}</code> with {}.</p>",
                tag(ADDED),
                html(&format::address(&r.msr)),
                html(&format::plural(r.fields.len(), "field", "fields"))
            );
        }
        RegDiff::Removed(r) => {
            let _ = write!(
                out,
                "<p>{}Was at <code>{}</code>.</p>",
                tag(REMOVED),
                html(&format::address(&r.msr))
            );
        }
        RegDiff::Changed {
            old,
            new,
            changes,
            fields,
        } => {
            if old.name != new.name {
                let _ = write!(out, "<p>Renamed from <code>{}</code>.</p>", html(&old.name));
            }
            if !changes.is_empty() {
                out.push_str(&changes_table(changes));
            }
            if !fields.is_empty() {
                out.push_str(&field_diffs_html(fields));
            }
        }
    }
    out
}

pub(crate) fn event_row(e: &Event) -> String {
    let mut extra = Vec::new();
    if e.cmask != 0 {
        extra.push(format!("cmask {}", format::hex(u64::from(e.cmask))));
    }
    if e.inv {
        extra.push("inv".to_owned());
    }
    if e.edge {
        extra.push("edge".to_owned());
    }
    if e.any {
        extra.push("any".to_owned());
    }
    if let Some(u) = e.umask2 {
        extra.push(format!("umask2 {}", format::hex(u64::from(u))));
    }
    if e.eq {
        extra.push("eq".to_owned());
    }
    format!(
        "<tr><td><code>{}</code></td><td><code>{}</code></td><td><code>{}</code></td><td>{}</td></tr>",
        html(&e.name),
        format::hex(u64::from(e.event)),
        format::hex(u64::from(e.umask)),
        html(&extra.join(", "))
    )
}

pub(crate) fn events_list_html(title: &str, tag: &str, events: &[&Event]) -> String {
    if events.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    let open = if events.len() <= 25 {
        r#" open="open""#
    } else {
        ""
    };
    let _ = write!(
        out,
        r#"<details class="evlist"{open}><summary>{tag} {} {}</summary><div class="table-wrap"><table class="events-static"><thead><tr><th scope="col">Name</th><th scope="col">Event</th><th scope="col">Umask</th><th scope="col">Modifiers</th></tr></thead><tbody>"#,
        format::thousands(events.len()),
        html(title)
    );
    for e in events {
        out.push_str(&event_row(e));
    }
    out.push_str("</tbody></table></div></details>");
    out
}

pub(crate) fn summary_chip(n: usize, what: &str, class: &str, sign: &str) -> String {
    if n == 0 {
        String::new()
    } else {
        format!(
            r#"<span class="chip chip-{class}">{sign}{} {what}</span>"#,
            format::thousands(n)
        )
    }
}

/// The diff page's body (`templates/diff.html`); the sections with a row per change are
/// rendered by the small functions below it.
#[derive(Template)]
#[template(path = "diff.html")]
struct DiffBody<'a> {
    d: &'a Diff<'a>,
    root: &'a str,
    to_path: String,
    to_link: String,
    from_link: String,
    chips: String,
    pmu: String,
    /// Each changed register: its title and what changed.
    registers: Vec<(String, String)>,
    unchanged: String,
    cpuid: String,
    events: String,
    events_path: String,
    events_label: String,
    constraints: String,
}

pub(crate) fn page_html(cx: &Ctx<'_>, d: &Diff<'_>) -> String {
    let path = paths::diff(&d.to.id);
    let root = paths::root_of(&path);
    let body = DiffBody {
        d,
        root: &root,
        to_path: paths::generation(&d.to.id),
        to_link: gen_link(&root, &d.to.id),
        from_link: gen_link(&root, &d.from.id),
        chips: chips(d),
        pmu: changes_table(&d.pmu),
        registers: d
            .registers
            .iter()
            .map(|r| (register_title(&root, d, r), reg_diff_html(r, false)))
            .collect(),
        unchanged: d
            .unchanged
            .iter()
            .map(|n| reg_link(&root, &d.to.id, n))
            .collect::<Vec<_>>()
            .join(", "),
        cpuid: cpuid_html(d),
        events: events_html(d),
        events_path: paths::events(&d.to.id),
        events_label: format::plural(d.to.events.len(), "event", "events"),
        constraints: constraints_html(&root, d),
    };
    let page = layout::Page {
        path: &path,
        title: format!("Changes from {} to {}", d.from.id, d.to.id),
        nav: layout::Nav::Diff(&d.to.id),
        body: body.render().unwrap_or_default(),
        scripts: vec![],
        data: vec![("gen", d.to.id.clone()), ("from", d.from.id.clone())],
    };
    layout::render(cx, &page)
}

/// The summary: how many registers, leaves, events and constraints were added, changed or
/// removed.
fn chips(d: &Diff<'_>) -> String {
    let count = |f: &dyn Fn(&RegDiff<'_>) -> bool| d.registers.iter().filter(|r| f(r)).count();
    let ev = |f: &dyn Fn(&EventDiff<'_>) -> bool| d.events.iter().filter(|e| f(e)).count();
    [
        (
            count(&|r| matches!(r, RegDiff::Added(_))),
            "registers",
            "add",
            "+",
        ),
        (
            count(&|r| matches!(r, RegDiff::Changed { .. })),
            "registers changed",
            "chg",
            "~",
        ),
        (
            count(&|r| matches!(r, RegDiff::Removed(_))),
            "registers",
            "rem",
            "−",
        ),
        (d.cpuid.len(), "CPUID leaves", "chg", "~"),
        (
            ev(&|e| matches!(e, EventDiff::Added(_))),
            "events",
            "add",
            "+",
        ),
        (
            ev(&|e| matches!(e, EventDiff::Changed { .. })),
            "events changed",
            "chg",
            "~",
        ),
        (
            ev(&|e| matches!(e, EventDiff::Removed(_))),
            "events",
            "rem",
            "−",
        ),
        (d.constraints.len(), "constraints", "chg", "~"),
    ]
    .into_iter()
    .map(|(n, what, class, sign)| summary_chip(n, what, class, sign))
    .collect()
}

/// A changed register's heading: its tag and a link to it (in the parent when removed).
fn register_title(root: &str, d: &Diff<'_>, r: &RegDiff<'_>) -> String {
    match r {
        RegDiff::Added(x) => format!("{ADDED} {}", reg_link(root, &d.to.id, &x.name)),
        RegDiff::Removed(x) => format!(
            "{REMOVED} <a href=\"{root}{}\"><code>{}</code></a>",
            html(&paths::register(&d.from.id, &x.name)),
            html(&x.name)
        ),
        RegDiff::Changed { new, .. } => {
            format!("{CHANGED} {}", reg_link(root, &d.to.id, &new.name))
        }
    }
}

/// The CPUID leaves added, removed or changed, with their fields' changes.
fn cpuid_html(d: &Diff<'_>) -> String {
    let mut b = String::new();
    for c in &d.cpuid {
        match c {
            LeafDiff::Added(l) => {
                let _ = write!(
                    b,
                    "<h3>{ADDED} <code>{}</code></h3><p>{}</p>",
                    html(&l.name),
                    inline(&l.doc)
                );
            }
            LeafDiff::Removed(l) => {
                let _ = write!(b, "<h3>{REMOVED} <code>{}</code></h3>", html(&l.name));
            }
            LeafDiff::Changed {
                leaf,
                changes,
                registers,
            } => {
                let _ = write!(b, "<h3>{CHANGED} <code>{}</code></h3>", html(&leaf.name));
                if !changes.is_empty() {
                    b.push_str(&changes_table(changes));
                }
                for (reg, fd) in registers {
                    let _ = write!(b, "<h4><code>{}</code></h4>", html(&reg.to_uppercase()));
                    b.push_str(&field_diffs_html(fd));
                }
            }
        }
    }
    b
}

/// The events added and removed as lists, and the changed ones with their changes.
fn events_html(d: &Diff<'_>) -> String {
    let mut b = String::new();
    let mut added: Vec<&Event> = Vec::new();
    let mut removed: Vec<&Event> = Vec::new();
    for e in &d.events {
        match e {
            EventDiff::Added(x) => added.push(x),
            EventDiff::Removed(x) => removed.push(x),
            EventDiff::Changed { .. } => {}
        }
    }
    b.push_str(&events_list_html(
        if added.len() == 1 {
            "event added"
        } else {
            "events added"
        },
        ADDED,
        &added,
    ));
    b.push_str(&events_list_html(
        if removed.len() == 1 {
            "event removed"
        } else {
            "events removed"
        },
        REMOVED,
        &removed,
    ));
    for e in &d.events {
        if let EventDiff::Changed { event, changes } = e {
            let _ = write!(b, "<h3>{CHANGED} <code>{}</code></h3>", html(&event.name));
            b.push_str(&changes_table(changes));
        }
    }
    b
}

/// The constraints added, removed or changed.
fn constraints_html(root: &str, d: &Diff<'_>) -> String {
    let mut b = String::new();
    for c in &d.constraints {
        match c {
            ConstraintDiff::Added(x) => {
                let _ = write!(
                    b,
                    "<p>{ADDED} <code>{}</code> on {}: when <code>{}</code>, {}</p>",
                    html(&x.id),
                    reg_link(root, &d.to.id, &x.register),
                    html(&when(x)),
                    inline(&x.message)
                );
            }
            ConstraintDiff::Removed(x) => {
                let _ = write!(b, "<p>{REMOVED} <code>{}</code></p>", html(&x.id));
            }
            ConstraintDiff::Changed {
                constraint,
                changes,
            } => {
                let _ = write!(
                    b,
                    "<h3>{CHANGED} <code>{}</code></h3>",
                    html(&constraint.id)
                );
                b.push_str(&changes_table(changes));
            }
        }
    }
    b
}
