//! The HTML diff page: summary chips, the registers and fields that changed with their
//! change tables, CPUID leaves, events and constraints. The markup is in
//! `templates/diff.html` and the parts it shares with register pages:
//! `templates/reg_diff.html`, `changes.html`, `field_diffs.html` and `events_list.html`.

use super::compute::*;
use crate::context::{Ctx, paths};
use crate::html::{self, gen_link, reg_link};
use crate::{format, layout};
use askama::Template;
use pmu_defs::model::{Constraint, Event, Field, Register};

/// A table of changes: what, before, after (`templates/changes.html`).
#[derive(Template)]
#[template(path = "changes.html")]
struct ChangesTable<'a> {
    changes: &'a [Change],
}

fn changes_table(changes: &[Change]) -> String {
    ChangesTable { changes }.render().unwrap_or_default()
}

/// The fields added, removed or changed, a row per change (`templates/field_diffs.html`).
#[derive(Template)]
#[template(path = "field_diffs.html")]
struct FieldDiffs<'a> {
    diffs: &'a [FieldDiff<'a>],
}

impl FieldDiffs<'_> {
    fn bits(&self, f: &Field) -> String {
        bits_with_array(f)
    }
}

fn field_diffs_html(diffs: &[FieldDiff<'_>]) -> String {
    FieldDiffs { diffs }.render().unwrap_or_default()
}

/// The body of one register's difference (`templates/reg_diff.html`).
#[derive(Template)]
#[template(path = "reg_diff.html")]
struct RegDiffBody<'a> {
    d: &'a RegDiff<'a>,
    /// Show the added/removed tag (register pages; diff pages have it in the heading).
    with_tag: bool,
}

impl RegDiffBody<'_> {
    fn address(&self, r: &Register) -> String {
        format::address(&r.msr)
    }

    fn field_count(&self, r: &Register) -> String {
        format::plural(r.fields.len(), "field", "fields")
    }

    fn changes_table(&self, changes: &[Change]) -> String {
        changes_table(changes)
    }

    fn field_diffs(&self, diffs: &[FieldDiff<'_>]) -> String {
        field_diffs_html(diffs)
    }
}

/// The body of one register's difference (used on diff pages, whose headings already say
/// added/removed, and on register pages, which show the tag here).
pub fn reg_diff_html(d: &RegDiff<'_>, with_tag: bool) -> String {
    RegDiffBody { d, with_tag }.render().unwrap_or_default()
}

/// Events added or removed, as a table that opens when short (`templates/events_list.html`).
#[derive(Template)]
#[template(path = "events_list.html")]
struct EventsList<'a> {
    title: &'a str,
    /// The tag: `add` / `added` or `rem` / `removed`.
    tag_class: &'static str,
    tag_word: &'static str,
    events: &'a [&'a Event],
}

impl EventsList<'_> {
    fn hex(&self, v: &u32) -> String {
        format::hex(u64::from(*v))
    }

    /// The modifiers an event is defined with, in words.
    fn modifiers(&self, e: &Event) -> String {
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
        extra.join(", ")
    }
}

/// More events added than this (a model's list over a family without one): the diff links
/// to the event table rather than repeat it.
pub(crate) const LONG_LIST: usize = 100;

/// The events added (`added`) or removed, empty when there are none.
fn events_list_html(events: &[&Event], added: bool) -> String {
    if events.is_empty() {
        return String::new();
    }
    let title = match (added, events.len() == 1) {
        (true, true) => "event added",
        (true, false) => "events added",
        (false, true) => "event removed",
        (false, false) => "events removed",
    };
    let (tag_class, tag_word) = if added {
        ("add", "added")
    } else {
        ("rem", "removed")
    };
    EventsList {
        title,
        tag_class,
        tag_word,
        events,
    }
    .render()
    .unwrap_or_default()
}

/// The diff page's body (`templates/diff.html`).
#[derive(Template)]
#[template(path = "diff.html")]
struct DiffBody<'a> {
    d: &'a Diff<'a>,
    root: &'a str,
    to_path: String,
    to_link: String,
    from_link: String,
    /// The summary chips shown: count and what, class and sign.
    chips: Vec<(String, &'static str, &'static str)>,
    unchanged: String,
    events_added: String,
    events_removed: String,
    events_path: String,
    events_label: String,
}

impl DiffBody<'_> {
    fn changes_table(&self, changes: &[Change]) -> String {
        changes_table(changes)
    }

    fn field_diffs(&self, diffs: &[FieldDiff<'_>]) -> String {
        field_diffs_html(diffs)
    }

    fn reg_diff(&self, r: &RegDiff<'_>) -> String {
        reg_diff_html(r, false)
    }

    fn when_text(&self, c: &Constraint) -> String {
        when(c)
    }
}

pub(crate) fn page_html(cx: &Ctx<'_>, d: &Diff<'_>) -> String {
    let path = paths::diff(&d.to.id);
    let root = paths::root_of(&path);
    let mut added: Vec<&Event> = Vec::new();
    let mut removed: Vec<&Event> = Vec::new();
    for e in &d.events {
        match e {
            EventDiff::Added(x) => added.push(x),
            EventDiff::Removed(x) => removed.push(x),
            EventDiff::Changed { .. } => {}
        }
    }
    let body = DiffBody {
        d,
        root: &root,
        to_path: paths::generation(&d.to.id),
        to_link: gen_link(&root, &d.to.id),
        from_link: gen_link(&root, &d.from.id),
        chips: chips(d),
        unchanged: d
            .unchanged
            .iter()
            .map(|n| reg_link(&root, d.to, n))
            .collect::<Vec<_>>()
            .join(", "),
        events_added: if added.len() > LONG_LIST {
            format!(
                "<p><span class=\"tag tag-add\">added</span> {} events: <a href=\"{root}{}\">the event table</a> lists them (each with its generation under Since).</p>",
                format::thousands(added.len()),
                paths::events(&d.to.id)
            )
        } else {
            events_list_html(&added, true)
        },
        events_removed: events_list_html(&removed, false),
        events_path: paths::events(&d.to.id),
        events_label: format::plural(d.to.events.len(), "event", "events"),
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
/// removed (only the counts that are not zero), in words with the count's number
/// (`+1 event`, `~3 CPUID leaves`).
fn chips(d: &Diff<'_>) -> Vec<(String, &'static str, &'static str)> {
    let count = |f: &dyn Fn(&RegDiff<'_>) -> bool| d.registers.iter().filter(|r| f(r)).count();
    let ev = |f: &dyn Fn(&EventDiff<'_>) -> bool| d.events.iter().filter(|e| f(e)).count();
    let reg = ("register", "registers");
    let event = ("event", "events");
    [
        (count(&|r| matches!(r, RegDiff::Added(_))), reg, "add", "+"),
        (
            count(&|r| matches!(r, RegDiff::Changed { .. })),
            ("register changed", "registers changed"),
            "chg",
            "~",
        ),
        (
            count(&|r| matches!(r, RegDiff::Removed(_))),
            reg,
            "rem",
            "\u{2212}",
        ),
        (d.cpuid.len(), ("CPUID leaf", "CPUID leaves"), "chg", "~"),
        (ev(&|e| matches!(e, EventDiff::Added(_))), event, "add", "+"),
        (
            ev(&|e| matches!(e, EventDiff::Changed { .. })),
            ("event changed", "events changed"),
            "chg",
            "~",
        ),
        (
            ev(&|e| matches!(e, EventDiff::Removed(_))),
            event,
            "rem",
            "\u{2212}",
        ),
        (
            d.constraints.len(),
            ("constraint", "constraints"),
            "chg",
            "~",
        ),
    ]
    .into_iter()
    .filter(|(n, ..)| *n != 0)
    .map(|(n, (one, many), class, sign)| (format::plural(n, one, many), class, sign))
    .collect()
}
