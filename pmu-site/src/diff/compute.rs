//! The differences themselves, as data: [`compute`] and the per-kind lists it is made of.

use crate::format;
use crate::format::one_line;
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

pub(crate) fn change(out: &mut Vec<Change>, what: &str, old: String, new: String) {
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

pub(crate) fn pmu(a: &Generation, b: &Generation) -> Vec<Change> {
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

pub(crate) fn values(f: &Field) -> String {
    f.values
        .iter()
        .map(|v| format!("{} = {}", v.name, format::hex(v.value)))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn deprecation(f: &Field) -> String {
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

pub(crate) fn bits_with_array(f: &Field) -> String {
    let mut s = format::field_bits(f);
    if let Some(shape) = format::array_shape(f) {
        let _ = write!(s, " ({shape})");
    }
    s
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

pub(crate) fn register_changes(a: &Register, b: &Register) -> Vec<Change> {
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

pub(crate) fn leaf_key(c: &CpuidLeaf) -> String {
    match c.subleaf {
        Some(s) => format!("{:#X}/{s}", c.leaf),
        None => format!("{:#X}", c.leaf),
    }
}

pub(crate) fn cpuid<'m>(from: &'m Generation, to: &'m Generation) -> Vec<LeafDiff<'m>> {
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

pub(crate) fn events<'m>(a: &'m [Event], b: &'m [Event]) -> Vec<EventDiff<'m>> {
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

pub(crate) fn when(c: &Constraint) -> String {
    c.when
        .iter()
        .map(|w| format!("{} = {}", w.field, format::hex(w.value)))
        .collect::<Vec<_>>()
        .join(" and ")
}

pub(crate) fn constraints<'m>(a: &'m [Constraint], b: &'m [Constraint]) -> Vec<ConstraintDiff<'m>> {
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
