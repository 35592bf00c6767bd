//! What changed between two generations: registers and fields added, removed or changed
//! (bits, access, arrays, named values, availability, docs), renames, CPUID leaves, events,
//! constraints and the PMU description. [`compute`] works on any two generations; the site
//! has one page per generation against its parent (`gen/<id>/diff.html`, `md/<id>/diff.md`).

use super::escape::{html, md, md_cell, md_code};
use super::pages::{gen_link, inline, reg_link};
use super::{Ctx, Site, format, layout, paths};
use pmu_defs::model::{Constraint, CpuidLeaf, CpuidRegister, Event, Field, Generation, Register};
use std::fmt::Write;

/// One attribute that differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// What (`bits`, `access`, `address`, an event attribute, ...).
    pub what: String,
    /// Before (empty: absent).
    pub old: String,
    /// After (empty: absent).
    pub new: String,
}

fn change(out: &mut Vec<Change>, what: &str, old: String, new: String) {
    if old != new {
        out.push(Change {
            what: what.to_owned(),
            old,
            new,
        });
    }
}

/// A field added, removed or changed.
#[derive(Clone, Debug)]
pub enum FieldDiff<'m> {
    Added(&'m Field),
    Removed(&'m Field),
    Changed {
        field: &'m Field,
        changes: Vec<Change>,
    },
}

impl FieldDiff<'_> {
    pub fn name(&self) -> &str {
        match self {
            FieldDiff::Added(f) | FieldDiff::Removed(f) | FieldDiff::Changed { field: f, .. } => {
                &f.name
            }
        }
    }
}

/// A register added, removed or changed (possibly renamed).
#[derive(Clone, Debug)]
pub enum RegDiff<'m> {
    Added(&'m Register),
    Removed(&'m Register),
    Changed {
        old: &'m Register,
        new: &'m Register,
        changes: Vec<Change>,
        fields: Vec<FieldDiff<'m>>,
    },
}

impl RegDiff<'_> {
    /// The register's name in the newer generation (`None` when removed).
    pub fn new_name(&self) -> Option<&str> {
        match self {
            RegDiff::Added(r) | RegDiff::Changed { new: r, .. } => Some(&r.name),
            RegDiff::Removed(_) => None,
        }
    }
}

/// A CPUID leaf added, removed or changed.
#[derive(Clone, Debug)]
pub enum LeafDiff<'m> {
    Added(&'m CpuidLeaf),
    Removed(&'m CpuidLeaf),
    Changed {
        leaf: &'m CpuidLeaf,
        changes: Vec<Change>,
        registers: Vec<(String, Vec<FieldDiff<'m>>)>,
    },
}

/// An event added, removed or changed.
#[derive(Clone, Debug)]
pub enum EventDiff<'m> {
    Added(&'m Event),
    Removed(&'m Event),
    Changed {
        event: &'m Event,
        changes: Vec<Change>,
    },
}

/// A constraint added, removed or changed.
#[derive(Clone, Debug)]
pub enum ConstraintDiff<'m> {
    Added(&'m Constraint),
    Removed(&'m Constraint),
    Changed {
        constraint: &'m Constraint,
        changes: Vec<Change>,
    },
}

/// Everything that differs from `from` to `to`.
#[derive(Clone, Debug)]
pub struct Diff<'m> {
    pub from: &'m Generation,
    pub to: &'m Generation,
    pub pmu: Vec<Change>,
    pub registers: Vec<RegDiff<'m>>,
    /// Registers present in both and identical.
    pub unchanged: Vec<&'m str>,
    pub cpuid: Vec<LeafDiff<'m>>,
    pub events: Vec<EventDiff<'m>>,
    pub constraints: Vec<ConstraintDiff<'m>>,
}

impl Diff<'_> {
    /// True when nothing differs.
    pub fn is_empty(&self) -> bool {
        self.pmu.is_empty()
            && self.registers.is_empty()
            && self.cpuid.is_empty()
            && self.events.is_empty()
            && self.constraints.is_empty()
    }
}

/// Compares two generations.
pub fn compute<'m>(from: &'m Generation, to: &'m Generation) -> Diff<'m> {
    let (registers, unchanged) = registers(from, to);
    Diff {
        from,
        to,
        pmu: pmu(from, to),
        registers,
        unchanged,
        cpuid: cpuid(from, to),
        events: events(&from.events, &to.events),
        constraints: constraints(&from.constraints, &to.constraints),
    }
}

fn pmu(a: &Generation, b: &Generation) -> Vec<Change> {
    let mut out = Vec::new();
    let general = |g: &Generation| {
        g.pmu
            .general
            .as_ref()
            .map(|s| format!("{} selected by {}", s.counter, s.select))
            .unwrap_or_default()
    };
    let fixed = |g: &Generation| {
        g.pmu
            .fixed
            .as_ref()
            .map(|f| match &f.control {
                Some(c) => format!("{} controlled by {}", f.counter, c),
                None => f.counter.clone(),
            })
            .unwrap_or_default()
    };
    change(&mut out, "general-purpose counters", general(a), general(b));
    change(
        &mut out,
        "number of general-purpose counters",
        a.general_counters().to_string(),
        b.general_counters().to_string(),
    );
    change(&mut out, "fixed-function counters", fixed(a), fixed(b));
    change(
        &mut out,
        "number of fixed-function counters",
        a.fixed_counters().to_string(),
        b.fixed_counters().to_string(),
    );
    let mut attrs: Vec<&str> = a
        .pmu
        .encoding
        .iter()
        .chain(&b.pmu.encoding)
        .map(|(k, _)| k.as_str())
        .collect();
    attrs.dedup();
    let mut seen = Vec::new();
    for k in attrs {
        if seen.contains(&k) {
            continue;
        }
        seen.push(k);
        change(
            &mut out,
            &format!("event encoding `{k}`"),
            a.pmu.encoding_field(k).unwrap_or_default().to_owned(),
            b.pmu.encoding_field(k).unwrap_or_default().to_owned(),
        );
    }
    out
}

fn values(f: &Field) -> String {
    f.values
        .iter()
        .map(|v| format!("{} = {}", v.name, format::hex(v.value)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn deprecation(f: &Field) -> String {
    f.deprecated
        .as_ref()
        .map(|d| {
            let mut s = format!("from {}", d.since);
            if let Some(w) = &d.when {
                let _ = write!(s, " when {w}");
            }
            s
        })
        .unwrap_or_default()
}

fn bits_with_array(f: &Field) -> String {
    let mut s = format::field_bits(f);
    if let Some(shape) = format::array_shape(f) {
        let _ = write!(s, " ({shape})");
    }
    s
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Attribute changes of one field.
pub fn field_changes(a: &Field, b: &Field) -> Vec<Change> {
    let mut out = Vec::new();
    change(&mut out, "bits", bits_with_array(a), bits_with_array(b));
    change(
        &mut out,
        "access",
        a.access.as_str().to_owned(),
        b.access.as_str().to_owned(),
    );
    change(&mut out, "named values", values(a), values(b));
    change(&mut out, "deprecated", deprecation(a), deprecation(b));
    change(
        &mut out,
        "requires",
        a.requires.clone().unwrap_or_default(),
        b.requires.clone().unwrap_or_default(),
    );
    change(&mut out, "since", a.since.clone(), b.since.clone());
    change(&mut out, "description", one_line(&a.doc), one_line(&b.doc));
    out
}

/// Field differences, in the newer order, removed fields last.
pub fn fields<'m>(a: &'m [Field], b: &'m [Field]) -> Vec<FieldDiff<'m>> {
    let mut out = Vec::new();
    for f in b {
        match a.iter().find(|o| o.name == f.name) {
            None => out.push(FieldDiff::Added(f)),
            Some(o) => {
                let changes = field_changes(o, f);
                if !changes.is_empty() {
                    out.push(FieldDiff::Changed { field: f, changes });
                }
            }
        }
    }
    for o in a {
        if !b.iter().any(|f| f.name == o.name) {
            out.push(FieldDiff::Removed(o));
        }
    }
    out
}

fn register_changes(a: &Register, b: &Register) -> Vec<Change> {
    let mut out = Vec::new();
    change(&mut out, "name", a.name.clone(), b.name.clone());
    change(
        &mut out,
        "address",
        format::address(&a.msr),
        format::address(&b.msr),
    );
    let alias = |r: &Register| {
        r.alias_msr
            .as_ref()
            .map(format::address)
            .unwrap_or_default()
    };
    change(&mut out, "alias address", alias(a), alias(b));
    change(&mut out, "width", a.width.to_string(), b.width.to_string());
    change(
        &mut out,
        "access",
        a.access.as_str().to_owned(),
        b.access.as_str().to_owned(),
    );
    change(
        &mut out,
        "reset",
        a.reset.map(format::hex).unwrap_or_default(),
        b.reset.map(format::hex).unwrap_or_default(),
    );
    change(
        &mut out,
        "reserved bits",
        format::mask_ranges(a.reserved_mask),
        format::mask_ranges(b.reserved_mask),
    );
    change(&mut out, "manual", one_line(&a.manual), one_line(&b.manual));
    change(&mut out, "description", one_line(&a.doc), one_line(&b.doc));
    out
}

/// Register differences (in the newer order, removed ones last) and the names of the
/// registers that are identical. A register that is new by name but was introduced before
/// (`since`) continues one the older generation has and the newer lacks: a rename.
pub fn registers<'m>(from: &'m Generation, to: &'m Generation) -> (Vec<RegDiff<'m>>, Vec<&'m str>) {
    let mut out = Vec::new();
    let mut unchanged = Vec::new();
    let mut renamed_from: Vec<&str> = Vec::new();
    for r in &to.registers {
        let old = from.register(&r.name).or_else(|| {
            if r.since == to.id {
                return None;
            }
            let candidates: Vec<&Register> = from
                .registers
                .iter()
                .filter(|o| {
                    o.since == r.since
                        && to.register(&o.name).is_none()
                        && !renamed_from.contains(&o.name.as_str())
                })
                .collect();
            candidates
                .iter()
                .find(|o| o.msr.base == r.msr.base)
                .or(candidates.first())
                .copied()
        });
        match old {
            None => out.push(RegDiff::Added(r)),
            Some(o) => {
                if o.name != r.name {
                    renamed_from.push(&o.name);
                }
                let changes = register_changes(o, r);
                let fields = fields(&o.fields, &r.fields);
                if changes.is_empty() && fields.is_empty() {
                    unchanged.push(r.name.as_str());
                } else {
                    out.push(RegDiff::Changed {
                        old: o,
                        new: r,
                        changes,
                        fields,
                    });
                }
            }
        }
    }
    for o in &from.registers {
        if to.register(&o.name).is_none() && !renamed_from.contains(&o.name.as_str()) {
            out.push(RegDiff::Removed(o));
        }
    }
    (out, unchanged)
}

fn leaf_key(c: &CpuidLeaf) -> String {
    match c.subleaf {
        Some(s) => format!("{:#X}/{s}", c.leaf),
        None => format!("{:#X}", c.leaf),
    }
}

fn cpuid<'m>(from: &'m Generation, to: &'m Generation) -> Vec<LeafDiff<'m>> {
    let mut out = Vec::new();
    for c in &to.cpuid {
        match from.cpuid_leaf(&c.name) {
            None => out.push(LeafDiff::Added(c)),
            Some(o) => {
                let mut changes = Vec::new();
                change(&mut changes, "leaf", leaf_key(o), leaf_key(c));
                change(
                    &mut changes,
                    "manual",
                    one_line(&o.manual),
                    one_line(&c.manual),
                );
                change(
                    &mut changes,
                    "description",
                    one_line(&o.doc),
                    one_line(&c.doc),
                );
                let empty: &[Field] = &[];
                let find = |regs: &'m [CpuidRegister], name: &str| -> &'m [Field] {
                    regs.iter()
                        .find(|r| r.register == name)
                        .map_or(empty, |r| r.fields.as_slice())
                };
                let mut names: Vec<&str> = c
                    .registers
                    .iter()
                    .chain(&o.registers)
                    .map(|r| r.register.as_str())
                    .collect();
                names.sort_unstable();
                names.dedup();
                let mut registers = Vec::new();
                for n in names {
                    let d = fields(find(&o.registers, n), find(&c.registers, n));
                    if !d.is_empty() {
                        registers.push((n.to_owned(), d));
                    }
                }
                if !changes.is_empty() || !registers.is_empty() {
                    out.push(LeafDiff::Changed {
                        leaf: c,
                        changes,
                        registers,
                    });
                }
            }
        }
    }
    for o in &from.cpuid {
        if to.cpuid_leaf(&o.name).is_none() {
            out.push(LeafDiff::Removed(o));
        }
    }
    out
}

/// An event as attribute → text, through its serialised form, so attributes added to
/// `model::Event` later are compared too.
pub fn event_attrs(e: &Event) -> Vec<(String, String)> {
    match serde_json::to_value(e) {
        Ok(serde_json::Value::Object(map)) => map
            .into_iter()
            .filter(|(k, _)| k != "name")
            .map(|(k, v)| {
                let text = match &v {
                    serde_json::Value::Null => String::new(),
                    serde_json::Value::String(s) => one_line(s),
                    serde_json::Value::Number(n) => match n.as_u64() {
                        Some(u) if matches!(k.as_str(), "event" | "umask" | "umask2" | "cmask") => {
                            format::hex(u)
                        }
                        _ => n.to_string(),
                    },
                    other => other.to_string(),
                };
                (k, text)
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn events<'m>(a: &'m [Event], b: &'m [Event]) -> Vec<EventDiff<'m>> {
    let old: std::collections::HashMap<&str, &Event> =
        a.iter().map(|e| (e.name.as_str(), e)).collect();
    let new: std::collections::HashSet<&str> = b.iter().map(|e| e.name.as_str()).collect();
    let mut out = Vec::new();
    for e in b {
        match old.get(e.name.as_str()) {
            None => out.push(EventDiff::Added(e)),
            Some(o) => {
                let (x, y) = (event_attrs(o), event_attrs(e));
                let mut changes = Vec::new();
                for (k, v) in &y {
                    let before = x
                        .iter()
                        .find(|(kk, _)| kk == k)
                        .map(|(_, v)| v.clone())
                        .unwrap_or_default();
                    change(&mut changes, k, before, v.clone());
                }
                if !changes.is_empty() {
                    out.push(EventDiff::Changed { event: e, changes });
                }
            }
        }
    }
    for e in a {
        if !new.contains(e.name.as_str()) {
            out.push(EventDiff::Removed(e));
        }
    }
    out
}

fn when(c: &Constraint) -> String {
    c.when
        .iter()
        .map(|w| format!("{} = {}", w.field, format::hex(w.value)))
        .collect::<Vec<_>>()
        .join(" and ")
}

fn constraints<'m>(a: &'m [Constraint], b: &'m [Constraint]) -> Vec<ConstraintDiff<'m>> {
    let mut out = Vec::new();
    for c in b {
        match a.iter().find(|o| o.id == c.id) {
            None => out.push(ConstraintDiff::Added(c)),
            Some(o) => {
                let mut changes = Vec::new();
                change(
                    &mut changes,
                    "register",
                    o.register.clone(),
                    c.register.clone(),
                );
                change(&mut changes, "when", when(o), when(c));
                change(
                    &mut changes,
                    "severity",
                    format!("{:?}", o.severity).to_lowercase(),
                    format!("{:?}", c.severity).to_lowercase(),
                );
                change(
                    &mut changes,
                    "message",
                    one_line(&o.message),
                    one_line(&c.message),
                );
                if !changes.is_empty() {
                    out.push(ConstraintDiff::Changed {
                        constraint: c,
                        changes,
                    });
                }
            }
        }
    }
    for o in a {
        if !b.iter().any(|c| c.id == o.id) {
            out.push(ConstraintDiff::Removed(o));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// HTML
// ---------------------------------------------------------------------------------------

const ADDED: &str = r#"<span class="tag tag-add">added</span>"#;
const REMOVED: &str = r#"<span class="tag tag-rem">removed</span>"#;
const CHANGED: &str = r#"<span class="tag tag-chg">changed</span>"#;

fn changes_table(changes: &[Change]) -> String {
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

fn field_diffs_html(diffs: &[FieldDiff<'_>]) -> String {
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

fn event_row(e: &Event) -> String {
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

fn events_list_html(title: &str, tag: &str, events: &[&Event]) -> String {
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

fn summary_chip(n: usize, what: &str, class: &str, sign: &str) -> String {
    if n == 0 {
        String::new()
    } else {
        format!(
            r#"<span class="chip chip-{class}">{sign}{} {what}</span>"#,
            format::thousands(n)
        )
    }
}

fn page_html(cx: &Ctx<'_>, d: &Diff<'_>) -> String {
    let path = paths::diff(&d.to.id);
    let root = paths::root_of(&path);
    let mut b = format!(
        r#"<nav class="crumbs" aria-label="Breadcrumbs"><a href="{root}index.html">Generations</a><span aria-hidden="true"> › </span><a href="{root}{}">{}</a><span aria-hidden="true"> › </span><span>Changes</span></nav>"#,
        html(&paths::generation(&d.to.id)),
        html(&d.to.id)
    );
    let _ = write!(
        b,
        r#"<h1>Changes from <code>{}</code> to <code>{}</code></h1><p class="lede">What {} adds, removes and changes relative to the generation it extends, {}.</p>"#,
        html(&d.from.id),
        html(&d.to.id),
        gen_link(&root, &d.to.id),
        gen_link(&root, &d.from.id)
    );
    let count = |f: &dyn Fn(&RegDiff<'_>) -> bool| d.registers.iter().filter(|r| f(r)).count();
    let (ra, rr, rc) = (
        count(&|r| matches!(r, RegDiff::Added(_))),
        count(&|r| matches!(r, RegDiff::Removed(_))),
        count(&|r| matches!(r, RegDiff::Changed { .. })),
    );
    let ev = |f: &dyn Fn(&EventDiff<'_>) -> bool| d.events.iter().filter(|e| f(e)).count();
    let (ea, er, ec) = (
        ev(&|e| matches!(e, EventDiff::Added(_))),
        ev(&|e| matches!(e, EventDiff::Removed(_))),
        ev(&|e| matches!(e, EventDiff::Changed { .. })),
    );
    b.push_str(r#"<p class="chips">"#);
    b.push_str(&summary_chip(ra, "registers", "add", "+"));
    b.push_str(&summary_chip(rc, "registers changed", "chg", "~"));
    b.push_str(&summary_chip(rr, "registers", "rem", "−"));
    b.push_str(&summary_chip(d.cpuid.len(), "CPUID leaves", "chg", "~"));
    b.push_str(&summary_chip(ea, "events", "add", "+"));
    b.push_str(&summary_chip(ec, "events changed", "chg", "~"));
    b.push_str(&summary_chip(er, "events", "rem", "−"));
    b.push_str(&summary_chip(
        d.constraints.len(),
        "constraints",
        "chg",
        "~",
    ));
    if d.is_empty() {
        b.push_str(r#"<span class="chip">no differences</span>"#);
    }
    b.push_str("</p>");

    if !d.pmu.is_empty() {
        b.push_str(r#"<h2 id="pmu">Performance-monitoring unit</h2>"#);
        b.push_str(&changes_table(&d.pmu));
    }
    if !d.registers.is_empty() || !d.unchanged.is_empty() {
        b.push_str(r#"<h2 id="registers">Registers</h2>"#);
        for r in &d.registers {
            let title = match r {
                RegDiff::Added(x) => format!("{ADDED} {}", reg_link(&root, &d.to.id, &x.name)),
                RegDiff::Removed(x) => format!(
                    "{REMOVED} <a href=\"{root}{}\"><code>{}</code></a>",
                    html(&paths::register(&d.from.id, &x.name)),
                    html(&x.name)
                ),
                RegDiff::Changed { new, .. } => {
                    format!("{CHANGED} {}", reg_link(&root, &d.to.id, &new.name))
                }
            };
            let _ = write!(b, r#"<section class="regdiff"><h3>{title}</h3>"#);
            b.push_str(&reg_diff_html(r, false));
            b.push_str("</section>");
        }
        if !d.unchanged.is_empty() {
            let list: Vec<String> = d
                .unchanged
                .iter()
                .map(|n| reg_link(&root, &d.to.id, n))
                .collect();
            let _ = write!(
                b,
                r#"<p class="unchanged"><span class="muted">Unchanged:</span> {}</p>"#,
                list.join(", ")
            );
        }
    }
    if !d.cpuid.is_empty() {
        b.push_str(r#"<h2 id="cpuid">CPUID leaves</h2>"#);
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
    }
    if !d.events.is_empty() {
        b.push_str(r#"<h2 id="events">Events</h2>"#);
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
        if !d.to.events.is_empty() {
            let _ = write!(
                b,
                r#"<p><a href="{root}{}">All {} of {} →</a></p>"#,
                html(&paths::events(&d.to.id)),
                html(&format::plural(d.to.events.len(), "event", "events")),
                html(&d.to.id)
            );
        }
    }
    if !d.constraints.is_empty() {
        b.push_str(r#"<h2 id="constraints">Constraints</h2>"#);
        for c in &d.constraints {
            match c {
                ConstraintDiff::Added(x) => {
                    let _ = write!(
                        b,
                        "<p>{ADDED} <code>{}</code> on {}: when <code>{}</code>, {}</p>",
                        html(&x.id),
                        reg_link(&root, &d.to.id, &x.register),
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
    }
    let page = layout::Page {
        path: &path,
        title: format!("Changes from {} to {}", d.from.id, d.to.id),
        nav: layout::Nav::Diff(&d.to.id),
        body: b,
        scripts: vec![],
        main_attrs: format!(
            r#" data-gen="{}" data-from="{}""#,
            html(&d.to.id),
            html(&d.from.id)
        ),
    };
    layout::render(cx, &page)
}

// ---------------------------------------------------------------------------------------
// Markdown
// ---------------------------------------------------------------------------------------

fn md_changes(changes: &[Change], out: &mut String) {
    out.push_str("| What | Before | After |\n|---|---|---|\n");
    for c in changes {
        let cell = |s: &str| {
            if s.is_empty() {
                "—".to_owned()
            } else {
                md_cell(s)
            }
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            md_cell(&c.what),
            cell(&c.old),
            cell(&c.new)
        );
    }
    out.push('\n');
}

fn md_fields(diffs: &[FieldDiff<'_>], out: &mut String) {
    out.push_str("| Field | | What | Before | After |\n|---|---|---|---|---|\n");
    for d in diffs {
        match d {
            FieldDiff::Added(f) => {
                let _ = writeln!(
                    out,
                    "| {} | added | bits | — | {} |",
                    md_code(&f.name),
                    md_cell(&bits_with_array(f))
                );
            }
            FieldDiff::Removed(f) => {
                let _ = writeln!(
                    out,
                    "| {} | removed | bits | {} | — |",
                    md_code(&f.name),
                    md_cell(&bits_with_array(f))
                );
            }
            FieldDiff::Changed { field, changes } => {
                for c in changes {
                    let cell = |s: &str| {
                        if s.is_empty() {
                            "—".to_owned()
                        } else {
                            md_cell(s)
                        }
                    };
                    let _ = writeln!(
                        out,
                        "| {} | changed | {} | {} | {} |",
                        md_code(&field.name),
                        md_cell(&c.what),
                        cell(&c.old),
                        cell(&c.new)
                    );
                }
            }
        }
    }
    out.push('\n');
}

fn page_md(d: &Diff<'_>) -> String {
    let mut out = format!(
        "# Changes from `{}` to `{}`\n\n[← {}](README.md) · [parent: {}](../{}/README.md)\n\n",
        d.from.id,
        d.to.id,
        md(&d.to.id),
        md(&d.from.id),
        super::escape::slug(&d.from.id)
    );
    if d.is_empty() {
        out.push_str("No differences.\n");
        return out;
    }
    if !d.pmu.is_empty() {
        out.push_str("## Performance-monitoring unit\n\n");
        md_changes(&d.pmu, &mut out);
    }
    if !d.registers.is_empty() {
        out.push_str("## Registers\n\n");
        for r in &d.registers {
            match r {
                RegDiff::Added(x) => {
                    let _ = writeln!(
                        out,
                        "### Added: {}\n\nAt {} with {}.\n",
                        md_code(&x.name),
                        md_code(&format::address(&x.msr)),
                        format::plural(x.fields.len(), "field", "fields")
                    );
                }
                RegDiff::Removed(x) => {
                    let _ = writeln!(out, "### Removed: {}\n", md_code(&x.name));
                }
                RegDiff::Changed {
                    old,
                    new,
                    changes,
                    fields,
                } => {
                    let _ = writeln!(out, "### Changed: {}\n", md_code(&new.name));
                    if old.name != new.name {
                        let _ = writeln!(out, "Renamed from {}.\n", md_code(&old.name));
                    }
                    if !changes.is_empty() {
                        md_changes(changes, &mut out);
                    }
                    if !fields.is_empty() {
                        md_fields(fields, &mut out);
                    }
                }
            }
        }
        if !d.unchanged.is_empty() {
            let list: Vec<String> = d.unchanged.iter().map(|n| md_code(n)).collect();
            let _ = writeln!(out, "Unchanged: {}.\n", list.join(", "));
        }
    }
    if !d.cpuid.is_empty() {
        out.push_str("## CPUID leaves\n\n");
        for c in &d.cpuid {
            match c {
                LeafDiff::Added(l) => {
                    let _ = writeln!(out, "- Added: {}", md_code(&l.name));
                }
                LeafDiff::Removed(l) => {
                    let _ = writeln!(out, "- Removed: {}", md_code(&l.name));
                }
                LeafDiff::Changed {
                    leaf,
                    changes,
                    registers,
                } => {
                    let _ = writeln!(out, "\n### Changed: {}\n", md_code(&leaf.name));
                    if !changes.is_empty() {
                        md_changes(changes, &mut out);
                    }
                    for (reg, fd) in registers {
                        let _ = writeln!(out, "{}:\n", md_code(&reg.to_uppercase()));
                        md_fields(fd, &mut out);
                    }
                }
            }
        }
        out.push('\n');
    }
    if !d.events.is_empty() {
        out.push_str("## Events\n\n");
        let mut added = Vec::new();
        let mut removed = Vec::new();
        for e in &d.events {
            match e {
                EventDiff::Added(x) => added.push(md_code(&x.name)),
                EventDiff::Removed(x) => removed.push(md_code(&x.name)),
                EventDiff::Changed { .. } => {}
            }
        }
        if !added.is_empty() {
            let _ = writeln!(
                out,
                "Added ({}): {}.\n",
                format::thousands(added.len()),
                added.join(", ")
            );
        }
        if !removed.is_empty() {
            let _ = writeln!(
                out,
                "Removed ({}): {}.\n",
                format::thousands(removed.len()),
                removed.join(", ")
            );
        }
        for e in &d.events {
            if let EventDiff::Changed { event, changes } = e {
                let _ = writeln!(out, "### Changed: {}\n", md_code(&event.name));
                md_changes(changes, &mut out);
            }
        }
    }
    if !d.constraints.is_empty() {
        out.push_str("## Constraints\n\n");
        for c in &d.constraints {
            match c {
                ConstraintDiff::Added(x) => {
                    let _ = writeln!(
                        out,
                        "- Added: {} on {}: when {}, {}",
                        md_code(&x.id),
                        md_code(&x.register),
                        md_code(&when(x)),
                        md_cell(&x.message)
                    );
                }
                ConstraintDiff::Removed(x) => {
                    let _ = writeln!(out, "- Removed: {}", md_code(&x.id));
                }
                ConstraintDiff::Changed {
                    constraint,
                    changes,
                } => {
                    let _ = writeln!(out, "\n### Changed: {}\n", md_code(&constraint.id));
                    md_changes(changes, &mut out);
                }
            }
        }
        out.push('\n');
    }
    out
}

/// Diff pages (HTML and Markdown) for every generation with a parent.
pub(crate) fn all(cx: &Ctx<'_>, site: &mut Site) {
    for g in &cx.model.generations {
        if let Some(p) = cx.parent(g) {
            let d = compute(p, g);
            site.add(paths::diff(&g.id), page_html(cx, &d));
            site.add(paths::md_diff(&g.id), page_md(&d));
        }
    }
}
