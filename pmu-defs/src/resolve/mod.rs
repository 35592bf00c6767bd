//! Applies `extends` chains: a child starts from its parent's resolved model; each entry it
//! lists either changes the same-named entry (only the keys it gives) or adds a new one;
//! `remove:` and `remove-fields:` drop entries; `renames:` continues a register under a new
//! name.
//!
//! Errors name the child's file; a generation whose parent is missing or part of a cycle is
//! reported once and skipped, and so are its descendants (no cascade).

use crate::diag::{Diagnostic, Diagnostics};
use crate::load::de::{Spanned, did_you_mean};
use crate::load::raw::*;
use crate::model::*;
use crate::source::Span;
use std::collections::HashMap;

/// Resolves every generation; the result holds those that could be resolved.
///
/// `unreadable_files` is the number of files that could not be parsed at all: a missing
/// parent may be defined in one of them, and the error says so.
pub fn resolve(raws: &[RawGeneration], unreadable_files: usize, diags: &mut Diagnostics) -> Model {
    let mut by_id: HashMap<&str, usize> = HashMap::new();
    for (i, g) in raws.iter().enumerate() {
        if let Some(&first) = by_id.get(g.id.value.as_str()) {
            diags.push(
                Diagnostic::error(
                    "duplicate-name",
                    format!("generation `{}` is defined twice", g.id.value),
                    g.id.span,
                )
                .with_label("second definition")
                .with_secondary(raws[first].id.span, "first defined here"),
            );
        } else {
            by_id.insert(&g.id.value, i);
        }
    }

    // Order parents before children; report missing parents and cycles once each.
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Todo,
        Visiting,
        Done,
        Broken,
    }
    let mut state = vec![State::Todo; raws.len()];
    let mut order = Vec::new();
    let mut ids: Vec<&str> = by_id.keys().copied().collect();
    ids.sort_unstable();
    for &id in &ids {
        let start = by_id[id];
        let mut path = vec![start];
        while let Some(&cur) = path.last() {
            match state[cur] {
                State::Done | State::Broken => {
                    path.pop();
                    continue;
                }
                State::Todo => state[cur] = State::Visiting,
                State::Visiting => {}
            }
            let parent = match &raws[cur].extends {
                None => None,
                Some(p) => match by_id.get(p.value.as_str()) {
                    Some(&pi) => Some(pi),
                    None => {
                        let mut d = Diagnostic::error(
                            "unknown-generation",
                            format!(
                                "generation `{}` extends `{}`, which is not defined",
                                raws[cur].id.value, p.value
                            ),
                            p.span,
                        )
                        .with_label("no generation has this id");
                        let others = ids.iter().copied().filter(|&i| i != raws[cur].id.value);
                        if let Some(s) = did_you_mean(&p.value, others) {
                            d = d.with_help(format!("did you mean `{s}`?"));
                        }
                        if unreadable_files > 0 {
                            d = d.with_note(format!(
                                "{unreadable_files} file(s) could not be read; fix those errors first, `{}` may be defined there",
                                p.value
                            ));
                        }
                        diags.push(d);
                        state[cur] = State::Broken;
                        path.pop();
                        continue;
                    }
                },
            };
            match parent.map(|p| (p, state[p])) {
                None => {
                    state[cur] = State::Done;
                    order.push(cur);
                    path.pop();
                }
                Some((_, State::Done)) => {
                    state[cur] = State::Done;
                    order.push(cur);
                    path.pop();
                }
                Some((_, State::Broken)) => {
                    state[cur] = State::Broken;
                    path.pop();
                }
                Some((p, State::Todo)) => path.push(p),
                Some((p, State::Visiting)) => {
                    // A cycle: everything on the path from `p` on.
                    let pos = path.iter().position(|&x| x == p).unwrap_or(0);
                    let cycle: Vec<&str> = path[pos..]
                        .iter()
                        .map(|&i| raws[i].id.value.as_str())
                        .collect();
                    let ext = raws[cur]
                        .extends
                        .as_ref()
                        .map_or(raws[cur].id.span, |e| e.span);
                    diags.push(
                        Diagnostic::error(
                            "extends-cycle",
                            format!(
                                "`extends` forms a cycle: {} -> {}",
                                cycle.join(" -> "),
                                raws[p].id.value
                            ),
                            ext,
                        )
                        .with_label("this closes the cycle")
                        .with_note(
                            "a generation cannot inherit from itself, directly or through others",
                        ),
                    );
                    for &i in &path[pos..] {
                        state[i] = State::Broken;
                    }
                    path.truncate(pos);
                }
            }
        }
    }

    let mut resolved: HashMap<String, Generation> = HashMap::new();
    let mut out = Vec::new();
    for i in order {
        let raw = &raws[i];
        let parent = raw.extends.as_ref().and_then(|p| resolved.get(&p.value));
        let g = Resolver {
            diags: &mut *diags,
            id: &raw.id.value,
        }
        .generation(raw, parent);
        resolved.insert(g.id.clone(), g.clone());
        out.push(g);
    }
    Model {
        generations: out,
        aliases: Vec::new(),
        cpu_names: Vec::new(),
    }
}

struct Resolver<'a> {
    diags: &'a mut Diagnostics,
    id: &'a str,
}

/// Reports entries listed twice in one list of one file.
fn check_unique<'r, T: 'r>(
    diags: &mut Diagnostics,
    what: &str,
    items: impl IntoIterator<Item = &'r T>,
    name: impl Fn(&T) -> &Spanned<String>,
) {
    let mut seen: HashMap<String, Span> = HashMap::new();
    for it in items {
        let n = name(it);
        if let Some(first) = seen.get(&n.value) {
            diags.push(
                Diagnostic::error(
                    "duplicate-name",
                    format!("{what} `{}` is listed twice", n.value),
                    n.span,
                )
                .with_label("second definition")
                .with_secondary(*first, "first defined here")
                .with_help(format!(
                    "to change an inherited {what}, list it once with the keys that change"
                )),
            );
        } else {
            seen.insert(n.value.clone(), n.span);
        }
    }
}

/// Position of each item by name (the first, should a name repeat): merges look names up
/// here instead of scanning the list, so a generation with n events resolves in O(n).
fn index_of<T>(items: &[T], name: impl Fn(&T) -> &str) -> HashMap<String, usize> {
    let mut index = HashMap::with_capacity(items.len());
    for (i, it) in items.iter().enumerate() {
        index.entry(name(it).to_owned()).or_insert(i);
    }
    index
}

/// The parent's PMU layout with this file's `pmu.encoding` entries merged in by key.
fn pmu_layout(raw: &RawGeneration, parent: Option<&Generation>) -> Pmu {
    let mut pmu = parent.map(|p| p.pmu.clone()).unwrap_or_default();
    if let Some(rp) = &raw.pmu {
        for (k, f) in &rp.encoding {
            pmu.spans.push((format!("encoding.{}", k.value), f.span));
        }
        for (k, f) in &rp.encoding {
            match pmu.encoding.iter_mut().find(|(a, _)| *a == k.value) {
                Some(e) => e.1 = f.value.clone(),
                None => pmu.encoding.push((k.value.clone(), f.value.clone())),
            }
        }
    }
    pmu
}

/// A register whose constraints this generation adds, changes or removes has a new
/// definition here, even when none of its fields changed: generated code attaches
/// constraints to the register's type.
fn mark_constrained(
    id: &str,
    raw: &RawGeneration,
    parent: Option<&Generation>,
    constraints: &[Constraint],
    registers: &mut [Register],
) {
    let touched: Vec<&str> = (raw.constraints.iter())
        .filter_map(|rc| {
            (constraints.iter())
                .find(|c| c.id == rc.id.value)
                .map(|c| c.register.as_str())
        })
        .chain(
            (parent.iter().flat_map(|p| p.constraints.iter()))
                .filter(|c| raw.remove.constraints.iter().any(|r| r.value == c.id))
                .map(|c| c.register.as_str()),
        )
        .collect();
    for r in registers
        .iter_mut()
        .filter(|r| touched.contains(&r.name.as_str()))
    {
        r.defined_in = id.to_owned();
    }
}

/// `detect:`, as read (its fields were checked when read).
fn detect(raw: &RawGeneration) -> Option<Detect> {
    raw.detect.as_ref().map(|d| Detect {
        cpuid: match (
            &d.value.leaf,
            &d.value.register,
            &d.value.field,
            &d.value.at_least,
        ) {
            (Some(leaf), Some(register), Some(field), Some(at_least)) => Some(DetectCpuid {
                leaf: leaf.value.clone(),
                register: register.value.clone(),
                field: field.value.clone(),
                at_least: at_least.value,
            }),
            _ => None,
        },
        family_at_least: d.value.family_at_least.as_ref().map(|f| f.value as u32),
        span: d.span,
    })
}

fn text(s: &Option<Spanned<String>>) -> Option<String> {
    s.as_ref().map(|s| s.value.clone())
}

impl Resolver<'_> {
    fn missing_new(&mut self, what: &str, name: &Spanned<String>, key: &str) {
        self.diags.push(
            Diagnostic::error(
                "missing-key",
                format!("new {what} `{}` needs `{key}`", name.value),
                name.span,
            )
            .with_label(format!("not inherited, so `{key}` must be given"))
            .with_note(format!(
                "only an entry that overrides an inherited {what} may leave out `{key}`"
            )),
        );
    }

    fn unknown(&mut self, what: &str, name: &Spanned<String>, known: Vec<&str>, action: &str) {
        let mut d = Diagnostic::error(
            "unknown-name",
            format!(
                "cannot {action} {what} `{}`: the parent generation has none by that name",
                name.value
            ),
            name.span,
        );
        if let Some(s) = did_you_mean(&name.value, known) {
            d = d.with_help(format!("did you mean `{s}`?"));
        }
        self.diags.push(d);
    }

    /// Drops each named entry from `items`, reporting names the parent does not have.
    fn remove_named<T>(
        &mut self,
        items: &mut Vec<T>,
        names: &[Spanned<String>],
        what: &str,
        name_of: impl Fn(&T) -> &String,
    ) {
        if names.is_empty() {
            return;
        }
        let index = index_of(items, |it| name_of(it).as_str());
        let mut removed = vec![false; items.len()];
        for name in names {
            match index.get(&name.value) {
                Some(&i) if !removed[i] => removed[i] = true,
                _ => {
                    let known = items
                        .iter()
                        .zip(&removed)
                        .filter(|(_, r)| !**r)
                        .map(|(it, _)| name_of(it).as_str())
                        .collect();
                    self.unknown(what, name, known, "remove");
                }
            }
        }
        let mut gone = removed.into_iter();
        items.retain(|_| !gone.next().unwrap_or(false));
    }

    fn generation(&mut self, raw: &RawGeneration, parent: Option<&Generation>) -> Generation {
        let id = self.id.to_owned();
        let mut ancestors = Vec::new();
        if let Some(p) = parent {
            ancestors.push(p.id.clone());
            ancestors.extend(p.ancestors.iter().cloned());
        }
        let vendor = self.vendor(raw, parent);
        let mut registers = self.registers(raw, parent);
        let cpuid = self.cpuid_leaves(raw, parent);
        let mut pmu = pmu_layout(raw, parent);
        let events = self.events(raw, parent);
        let constraints = self.constraints(raw, parent);
        mark_constrained(&id, raw, parent, &constraints, &mut registers);
        let cpus = self.cpus(raw, vendor);
        derive_counter_sets(&mut pmu, &registers);
        let mut g = Generation {
            id: id.clone(),
            vendor,
            title: text(&raw.title).unwrap_or_else(|| id.clone()),
            manual: text(&raw.manual)
                .or(parent.map(|p| p.manual.clone()))
                .unwrap_or_default(),
            doc: text(&raw.doc).unwrap_or_default(),
            extends: raw.extends.as_ref().map(|e| e.value.clone()),
            ancestors,
            source: text(&raw.source),
            perfmon_cores: raw.perfmon_cores.iter().map(|c| c.value.clone()).collect(),
            perfmon_core_spans: raw.perfmon_cores.iter().map(|c| c.span).collect(),
            cpus,
            detect: detect(raw),
            pmu,
            registers,
            cpuid,
            events: Vec::new(),
            constraints,
            span: raw.id.span,
        };
        // Events that do not restrict their counters may use every general counter of this
        // generation (an inherited event follows the child's counter count).
        let all: Vec<u32> = (0..g.general_counters()).collect();
        g.events = events;
        for e in g.events.iter_mut().filter(|e| e.any_counter) {
            e.counters = all.clone();
        }
        g
    }

    /// The generation's vendor: its own, else its parent's; a vendor other than the parent's
    /// is an error.
    fn vendor(&mut self, raw: &RawGeneration, parent: Option<&Generation>) -> Vendor {
        if let (Some(v), Some(p)) = (&raw.vendor, parent)
            && v.value != p.vendor
        {
            self.diags.push(
                Diagnostic::error(
                    "vendor-mismatch",
                    format!("`{}` extends a generation of another vendor", self.id),
                    v.span,
                )
                .with_label(format!("the parent `{}` is {:?}", p.id, p.vendor)),
            );
        }
        (raw.vendor.as_ref().map(|v| v.value))
            .or(parent.map(|p| p.vendor))
            .unwrap_or(Vendor::Intel)
    }

    /// The parent's registers with this file's merged in by name (or `renames:`), new ones
    /// appended, `remove:`d ones dropped.
    fn registers(&mut self, raw: &RawGeneration, parent: Option<&Generation>) -> Vec<Register> {
        check_unique(self.diags, "register", &raw.registers, |r| &r.name);
        let mut registers: Vec<Register> = parent.map(|p| p.registers.clone()).unwrap_or_default();
        let mut index = index_of(&registers, |r| r.name.as_str());
        for rr in &raw.registers {
            let (pos, base) = if let Some(old) = &rr.renames {
                match index.get(&old.value).copied() {
                    Some(i) => {
                        if rr.name.value != old.value && index.contains_key(&rr.name.value) {
                            self.diags.push(Diagnostic::error(
                                "duplicate-name",
                                format!(
                                    "cannot rename `{}` to `{}`: that name is taken",
                                    old.value, rr.name.value
                                ),
                                rr.name.span,
                            ));
                            continue;
                        }
                        (Some(i), Some(registers[i].clone()))
                    }
                    None => {
                        let known = registers.iter().map(|r| r.name.as_str()).collect();
                        self.unknown("register", old, known, "rename");
                        continue;
                    }
                }
            } else {
                let i = index.get(&rr.name.value).copied();
                (i, i.map(|i| registers[i].clone()))
            };
            let Some(reg) = self.register(base, rr) else {
                continue;
            };
            match pos {
                Some(i) => {
                    if registers[i].name != reg.name {
                        index.remove(&registers[i].name);
                    }
                    index.insert(reg.name.clone(), i);
                    registers[i] = reg;
                }
                None => {
                    index.entry(reg.name.clone()).or_insert(registers.len());
                    registers.push(reg);
                }
            }
        }
        self.remove_named(&mut registers, &raw.remove.registers, "register", |r| {
            &r.name
        });
        registers
    }

    /// `inherited` with each of `raws` merged in by name through `make` (given the inherited
    /// entry of that name, if any; `None` when the entry is invalid, already reported), new
    /// names appended, then the `remove` names dropped.
    #[allow(clippy::too_many_arguments)]
    fn merge_named<T: Clone, R>(
        &mut self,
        what: &str,
        mut items: Vec<T>,
        raws: &[R],
        remove: &[Spanned<String>],
        raw_name: impl Fn(&R) -> &Spanned<String>,
        name: impl Fn(&T) -> &String,
        make: impl Fn(&mut Self, Option<T>, &R) -> Option<T>,
    ) -> Vec<T> {
        check_unique(self.diags, what, raws, &raw_name);
        let mut index = index_of(&items, |it| name(it).as_str());
        for r in raws {
            let pos = index.get(&raw_name(r).value).copied();
            if let Some(it) = make(self, pos.map(|i| items[i].clone()), r) {
                match pos {
                    Some(i) => items[i] = it,
                    None => {
                        index.insert(name(&it).clone(), items.len());
                        items.push(it);
                    }
                }
            }
        }
        self.remove_named(&mut items, remove, what, name);
        items
    }

    fn cpuid_leaves(&mut self, raw: &RawGeneration, parent: Option<&Generation>) -> Vec<CpuidLeaf> {
        let inherited = parent.map(|p| p.cpuid.clone()).unwrap_or_default();
        self.merge_named(
            "CPUID leaf",
            inherited,
            &raw.cpuid,
            &raw.remove.cpuid,
            |c| &c.name,
            |c| &c.name,
            |this, base, rc| this.cpuid(base, rc),
        )
    }

    fn events(&mut self, raw: &RawGeneration, parent: Option<&Generation>) -> Vec<Event> {
        let inherited = parent.map(|p| p.events.clone()).unwrap_or_default();
        self.merge_named(
            "event",
            inherited,
            &raw.events,
            &raw.remove.events,
            |e| &e.name,
            |e| &e.name,
            |this, base, re| this.event(base, re),
        )
    }

    fn constraints(&mut self, raw: &RawGeneration, parent: Option<&Generation>) -> Vec<Constraint> {
        let inherited = parent.map(|p| p.constraints.clone()).unwrap_or_default();
        self.merge_named(
            "constraint",
            inherited,
            &raw.constraints,
            &raw.remove.constraints,
            |c| &c.id,
            |c| &c.id,
            |this, base, rc| this.constraint(base, rc),
        )
    }

    /// The CPU models of `cpus:`; one whose CPUID vendor string is not the generation's
    /// vendor is an error and left out.
    fn cpus(&mut self, raw: &RawGeneration, vendor: Vendor) -> Vec<Cpu> {
        let id = self.id;
        raw
            .cpus
            .iter()
            .flatten()
            .filter_map(|c| {
                let (want, name) = match vendor {
                    Vendor::Intel => ("GenuineIntel", "Intel"),
                    Vendor::Amd => ("AuthenticAMD", "AMD"),
                };
                let got = c.family_model.value.split('-').next().unwrap_or_default();
                if got != want {
                    self.diags.push(
                        Diagnostic::error(
                            "vendor-mismatch",
                            format!(
                                "CPU model `{}` identifies as `{got}`, but `{id}` is an {name} generation",
                                c.family_model.value
                            ),
                            c.family_model.span,
                        )
                        .with_label(format!("{name} CPUs identify as `{want}`")),
                    );
                    return None;
                }
                Some(Cpu {
                    family_model: c.family_model.value.clone(),
                    version: text(&c.version),
                    // Bounded when read (8 and 24 bits).
                    core_type: c.core_type.as_ref().map(|t| t.value as u8),
                    native_model_id: c.native_model_id.as_ref().map(|t| t.value as u32),
                    core_role: text(&c.core_role),
                })
            })
            .collect()
    }

    fn register(&mut self, base: Option<Register>, rr: &RawRegister) -> Option<Register> {
        let is_new = base.is_none();
        if is_new && rr.msr.is_none() {
            self.missing_new("register", &rr.name, "msr");
            return None;
        }
        let mut reg = base.unwrap_or_else(|| Register {
            name: rr.name.value.clone(),
            doc: String::new(),
            manual: String::new(),
            msr: Msr {
                base: 0,
                count: 1,
                stride: 1,
                indexed: false,
            },
            addresses: Vec::new(),
            alias_msr: None,
            alias_addresses: Vec::new(),
            alias_span: None,
            per_counter: None,
            width: 64,
            access: Access::ReadWrite,
            role: None,
            reset: None,
            fields: Vec::new(),
            reserved_mask: 0,
            defined_in: self.id.to_owned(),
            since: self.id.to_owned(),
            span: rr.name.span,
            role_span: None,
        });
        let old_access = reg.access;
        reg.name = rr.name.value.clone();
        reg.span = rr.name.span;
        // An entry that only gives an inherited register a role changes nothing generated
        // code puts in the register's type: it stays the parent's type.
        if is_new || !role_only(rr) {
            reg.defined_in = self.id.to_owned();
        }
        if let Some(d) = &rr.doc {
            reg.doc = d.value.clone();
        }
        if let Some(m) = &rr.manual {
            reg.manual = m.value.clone();
        }
        if let Some(m) = &rr.msr {
            // A family key left out keeps the inherited value; a new register has none.
            let inherited = (!is_new).then_some(reg.msr);
            let part = |v: Option<u64>, old: Option<u32>, default: Option<u64>| {
                v.or(old.map(u64::from)).or(default)
            };
            let base = part(m.base, inherited.map(|o| o.base), None);
            let count = part(m.count, inherited.map(|o| o.count), None);
            let stride = part(m.stride, inherited.map(|o| o.stride), Some(1));
            let (Some(base), Some(count), Some(stride)) = (base, count, stride) else {
                let key = if base.is_none() { "base" } else { "count" };
                self.diags.push(
                    Diagnostic::error(
                        "missing-key",
                        format!("msr family is missing required key `{key}`"),
                        Span {
                            end: m.span.start,
                            ..m.span
                        },
                    )
                    .with_label(format!("this msr family needs `{key}`"))
                    .with_note(format!(
                        "only an entry that overrides an inherited register may leave out `{key}`"
                    )),
                );
                return None;
            };
            reg.msr = Msr {
                base: base as u32,
                count: count as u32,
                stride: stride as u32,
                indexed: m.indexed,
            };
            if base + (count - 1) * stride > u32::MAX as u64 {
                self.diags.push(
                    Diagnostic::error(
                        "out-of-range",
                        "the register family runs past MSR address 0xFFFFFFFF",
                        m.span,
                    )
                    .with_label("base + (count - 1) * stride is too large"),
                );
                return None;
            }
        }
        reg.addresses = reg.msr.addresses().collect();
        if !self.alias_msr(&mut reg, rr) {
            return None;
        }
        if let Some(p) = &rr.per_counter {
            reg.per_counter = Some(p.value);
        }
        if let Some(w) = &rr.width {
            reg.width = w.value as u32;
        }
        if let Some(a) = &rr.access {
            reg.access = a.value;
            // Fields that took the register's access follow it.
            for f in reg.fields.iter_mut().filter(|f| f.access == old_access) {
                f.access = a.value;
            }
        }
        if let Some(r) = &rr.role {
            reg.role = Some(r.value);
            reg.role_span = Some(r.span);
        }
        if let Some(r) = &rr.reset {
            reg.reset = Some(r.value);
        }
        reg.fields = self.fields(
            std::mem::take(&mut reg.fields),
            &rr.fields,
            &rr.remove_fields,
            reg.access,
        );
        reg.reserved_mask = reserved(reg.width, &reg.fields);
        Some(reg)
    }

    /// `alias-msr:` merged into `reg` (whose `msr` is final): a family's alias takes the
    /// family's count, so an override that adds counters (`msr: { count: 10 }`) extends the
    /// inherited alias range too. False after an error.
    fn alias_msr(&mut self, reg: &mut Register, rr: &RawRegister) -> bool {
        let inherited = reg.alias_msr;
        let Some(m) = &rr.alias_msr else {
            reg.alias_msr = inherited.map(|a| Msr {
                count: reg.msr.count,
                ..a
            });
            reg.alias_addresses = reg.alias_msr.iter().flat_map(Msr::addresses).collect();
            return true;
        };
        if m.value.indexed != reg.msr.indexed {
            let (what, want) = if reg.msr.indexed {
                ("a register family", "`{ base, stride }`")
            } else {
                ("a single register", "one address")
            };
            self.diags.push(
                Diagnostic::error(
                    "invalid-alias-msr",
                    format!(
                        "`{}` is {what}: its `alias-msr:` must be {want}",
                        rr.name.value
                    ),
                    m.span,
                )
                .with_secondary(rr.name.span, "the register")
                .with_note("an alias range has one address per instance of the register"),
            );
            return false;
        }
        let count = u64::from(reg.msr.count);
        if m.value.indexed
            && let Some(c) = m.value.count
            && c != count
        {
            self.diags.push(
                Diagnostic::error(
                    "alias-count-mismatch",
                    format!(
                        "`alias-msr:` of `{}` has {c} addresses but the register has {count} \
                         instances",
                        rr.name.value
                    ),
                    m.span,
                )
                .with_secondary(rr.name.span, "the register")
                .with_help("leave `count` out: an alias range always has the register's count"),
            );
            return false;
        }
        let base = m.value.base.or(inherited.map(|a| u64::from(a.base)));
        let stride = m.value.stride.or(inherited.map(|a| u64::from(a.stride)));
        let Some(base) = base else {
            self.diags.push(
                Diagnostic::error(
                    "missing-key",
                    "alias-msr is missing required key `base`",
                    m.span,
                )
                .with_label("this alias range needs `base`")
                .with_note("only an entry that overrides an inherited alias may leave out `base`"),
            );
            return false;
        };
        let stride = stride.unwrap_or(1);
        if base + (count - 1) * stride > u64::from(u32::MAX) {
            self.diags.push(
                Diagnostic::error(
                    "out-of-range",
                    "the alias range runs past MSR address 0xFFFFFFFF",
                    m.span,
                )
                .with_label("base + (count - 1) * stride is too large"),
            );
            return false;
        }
        let alias = Msr {
            base: base as u32,
            count: reg.msr.count,
            stride: stride as u32,
            indexed: reg.msr.indexed,
        };
        reg.alias_msr = Some(alias);
        reg.alias_span = Some(m.span);
        reg.alias_addresses = alias.addresses().collect();
        true
    }

    fn fields(
        &mut self,
        mut fields: Vec<Field>,
        raw: &[RawField],
        remove: &[Spanned<String>],
        access: Access,
    ) -> Vec<Field> {
        check_unique(self.diags, "field", raw, |f| &f.name);
        let mut index = index_of(&fields, |f| f.name.as_str());
        for rf in raw {
            let pos = index.get(&rf.name.value).copied();
            if let Some(f) = self.field(pos.map(|i| fields[i].clone()), rf, access) {
                match pos {
                    Some(i) => fields[i] = f,
                    None => {
                        index.insert(f.name.clone(), fields.len());
                        fields.push(f);
                    }
                }
            }
        }
        self.remove_named(&mut fields, remove, "field", |f| &f.name);
        fields.sort_by_key(|f| {
            (
                f.bits.iter().map(|b| b.lsb).min().unwrap_or(0),
                f.name.clone(),
            )
        });
        fields
    }

    fn field(&mut self, base: Option<Field>, rf: &RawField, access: Access) -> Option<Field> {
        if base.is_none() && rf.bits.is_none() {
            self.missing_new("field", &rf.name, "bits");
            return None;
        }
        let mut f = base.unwrap_or_else(|| Field {
            name: rf.name.value.clone(),
            doc: String::new(),
            bits: Vec::new(),
            width: 0,
            mask: 0,
            access,
            values: Vec::new(),
            array: None,
            per_counter: None,
            role: None,
            since: self.id.to_owned(),
            deprecated: None,
            requires: None,
            instances: None,
            instances_span: None,
            span: rf.name.span,
            role_span: None,
        });
        f.span = rf.name.span;
        if let Some(d) = &rf.doc {
            f.doc = d.value.clone();
        }
        if let Some(b) = &rf.bits {
            f.bits = b
                .value
                .iter()
                .map(|r| BitRange {
                    lsb: r.lsb as u32,
                    msb: r.msb as u32,
                })
                .collect();
            f.width = f.bits.iter().map(BitRange::width).sum();
            // Overlap between a split field's own parts.
            for (i, a) in b.value.iter().enumerate() {
                for c in &b.value[..i] {
                    if a.lsb <= c.msb && c.lsb <= a.msb {
                        self.diags.push(
                            Diagnostic::error(
                                "field-overlap",
                                format!("the parts of field `{}` overlap", f.name),
                                a.span,
                            )
                            .with_secondary(c.span, "overlaps this part"),
                        );
                    }
                }
            }
        }
        if let Some(a) = &rf.array {
            let (count, stride) = a.value;
            let count = count.or(f.array.map(|o| u64::from(o.count)));
            let stride = stride.or(f.array.map(|o| u64::from(o.stride)));
            match (count, stride) {
                (Some(count), Some(stride)) => {
                    f.array = Some(FieldArray {
                        count: count as u32,
                        stride: stride as u32,
                    })
                }
                _ => {
                    let key = if count.is_none() { "count" } else { "stride" };
                    self.diags.push(
                        Diagnostic::error(
                            "missing-key",
                            format!("field array is missing required key `{key}`"),
                            Span {
                                end: a.span.start,
                                ..a.span
                            },
                        )
                        .with_label(format!("this field array needs `{key}`"))
                        .with_note(format!(
                            "only an entry that overrides an inherited field array may leave out `{key}`"
                        )),
                    );
                    return None;
                }
            }
        }
        if let Some(a) = &rf.access {
            f.access = a.value;
        }
        if let Some(p) = &rf.per_counter {
            f.per_counter = Some(p.value);
            f.role_span = Some(p.span);
        }
        if let Some(r) = &rf.role {
            f.role = Some(r.value);
            f.role_span = Some(r.span);
        }
        if let Some(vals) = &rf.values {
            check_unique(self.diags, "value", vals, |v| &v.name);
            f.values = vals
                .iter()
                .filter_map(|v| {
                    Some(EnumValue {
                        name: v.name.value.clone(),
                        value: v.value.as_ref()?.value,
                        doc: text(&v.doc).unwrap_or_default(),
                        span: v.name.span,
                    })
                })
                .collect();
        }
        if let Some(d) = &rf.deprecated {
            f.deprecated = Some(Deprecation {
                since: d.since.value.clone(),
                when: text(&d.when),
                doc: text(&d.doc).unwrap_or_default(),
                span: d.since.span,
            });
        }
        if let Some(r) = &rf.requires {
            f.requires = Some(r.value.clone());
        }
        if let Some(i) = &rf.instances {
            let mut v: Vec<u32> = i
                .value
                .iter()
                .map(|n| n.value.min(u64::from(u32::MAX)) as u32)
                .collect();
            v.sort_unstable();
            v.dedup();
            f.instances = Some(v);
            f.instances_span = Some(i.span);
        }
        f.mask = f.element_mask(0);
        Some(f)
    }

    fn cpuid(&mut self, base: Option<CpuidLeaf>, rc: &RawCpuid) -> Option<CpuidLeaf> {
        if base.is_none() && rc.leaf.is_none() {
            self.missing_new("CPUID leaf", &rc.name, "leaf");
            return None;
        }
        let mut c = base.unwrap_or_else(|| CpuidLeaf {
            name: rc.name.value.clone(),
            leaf: 0,
            subleaf: None,
            doc: String::new(),
            manual: String::new(),
            registers: Vec::new(),
            defined_in: self.id.to_owned(),
            span: rc.name.span,
        });
        c.span = rc.name.span;
        c.defined_in = self.id.to_owned();
        if let Some(l) = &rc.leaf {
            c.leaf = l.value as u32;
        }
        if let Some(s) = &rc.subleaf {
            c.subleaf = Some(s.value as u32);
        }
        if let Some(d) = &rc.doc {
            c.doc = d.value.clone();
        }
        if let Some(m) = &rc.manual {
            c.manual = m.value.clone();
        }
        for (reg, raw_fields) in &rc.regs {
            let pos = c.registers.iter().position(|r| r.register == reg.value);
            let old = pos
                .map(|i| std::mem::take(&mut c.registers[i].fields))
                .unwrap_or_default();
            let fields = self.fields(old, raw_fields, &[], Access::ReadOnly);
            let r = CpuidRegister {
                register: reg.value.clone(),
                reserved_mask: reserved(32, &fields) as u32,
                fields,
            };
            match pos {
                Some(i) => c.registers[i] = r,
                None => c.registers.push(r),
            }
        }
        c.registers
            .sort_by_key(|r| CPUID_REGS.iter().position(|x| *x == r.register));
        Some(c)
    }

    fn event(&mut self, base: Option<Event>, re: &RawEvent) -> Option<Event> {
        if base.is_none() && re.event.is_none() {
            self.missing_new("event", &re.name, "event");
            return None;
        }
        let mut e = base.unwrap_or_else(|| {
            Event::blank(re.name.value.clone(), self.id.to_owned(), re.name.span)
        });
        e.span = re.name.span;
        // Values are range-checked against the select register's fields in validation; here
        // they only need to fit the model's integer type.
        let narrow = |d: &mut Diagnostics, v: &Spanned<u64>, what: &str| -> Option<u32> {
            match u32::try_from(v.value) {
                Ok(x) => Some(x),
                Err(_) => {
                    d.push(Diagnostic::error(
                        "value-too-wide",
                        format!("{what} {:#x} does not fit 32 bits", v.value),
                        v.span,
                    ));
                    None
                }
            }
        };
        if let Some(v) = &re.event {
            e.event = narrow(self.diags, v, "event select")?;
        }
        if let Some(alts) = &re.alt_events {
            e.alt_events = alts
                .iter()
                .map(|v| narrow(self.diags, v, "event select"))
                .collect::<Option<_>>()?;
        }
        if let Some(v) = &re.umask {
            e.umask = narrow(self.diags, v, "umask")?;
        }
        if let Some(alts) = &re.alt_umasks {
            e.alt_umasks = alts
                .iter()
                .map(|v| narrow(self.diags, v, "umask"))
                .collect::<Option<_>>()?;
        }
        if let Some(v) = &re.umask2 {
            e.umask2 = Some(narrow(self.diags, v, "umask2")?);
        }
        if let Some(v) = &re.cmask {
            e.cmask = narrow(self.diags, v, "cmask")?;
        }
        if let Some(v) = &re.eq {
            e.eq = v.value;
        }
        if let Some(v) = &re.inv {
            e.inv = v.value;
        }
        if let Some(v) = &re.edge {
            e.edge = v.value;
        }
        if let Some(v) = &re.any {
            e.any = v.value;
        }
        if let Some(c) = &re.counters {
            let mut list: Vec<u32> = c
                .value
                .iter()
                .map(|v| v.value.min(u32::MAX as u64) as u32)
                .collect();
            list.sort_unstable();
            list.dedup();
            e.counters = list;
            e.any_counter = false;
        }
        if re.all_counters.is_some() {
            e.any_counter = true;
        }
        if let Some(v) = &re.fixed {
            e.fixed = Some(narrow(self.diags, v, "fixed counter")?);
            if re.counters.is_none() && re.all_counters.is_none() {
                // Counted by a fixed counter only, unless general counters are listed too.
                e.counters.clear();
                e.any_counter = false;
            }
        }
        if let Some(v) = &re.cpuid_bit {
            e.cpuid_bit = Some(v.value as u32);
        }
        if let Some(m) = &re.msr {
            let m = &m.value;
            // Addresses were range-checked (32 bits) when read.
            e.msr = Some(EventMsr {
                index: m.index.value as u32,
                alt_indexes: m.alt_indexes.iter().map(|i| i.value as u32).collect(),
                value: m.value.value,
            });
        }
        let sets = [
            (&re.counters_ht_off, &mut e.counters_ht_off),
            (&re.pebs_counters, &mut e.pebs_counters),
            (&re.pdist_counters, &mut e.pdist_counters),
            (&re.pdir_counters, &mut e.pdir_counters),
        ];
        for (raw, out) in sets {
            if let Some(r) = raw {
                *out = Some(counter_set(r));
            }
        }
        if let Some(v) = &re.pebs {
            e.pebs = Some(v.value as u8); // at most 2, checked when read
        }
        if let Some(v) = &re.collect_pebs_record {
            e.collect_pebs_record = Some(v.value as u8); // at most 3, checked when read
        }
        for (key, v) in &re.flags {
            let v = v.value;
            match *key {
                "precise" => e.precise = Some(v),
                "speculative" => e.speculative = Some(v),
                "deprecated" => e.deprecated = v,
                "taken-alone" => e.taken_alone = v,
                "data-la" => e.data_la = v,
                "l1-hit-indication" => e.l1_hit_indication = v,
                "offcore" => e.offcore = v,
                "offmodule" => e.offmodule = v,
                "msr-per-umask" => e.msr_per_umask = v,
                "ellc" => e.ellc = v,
                "precise-store" => e.precise_store = v,
                other => unreachable!("EVENT_FLAGS lists `{other}` without a model field"),
            }
        }
        if let Some(list) = &re.errata {
            check_unique(self.diags, "erratum", list, |x| x);
            e.errata = list.iter().map(|x| x.value.clone()).collect();
            e.errata.dedup();
        }
        if let Some(v) = &re.sample_after {
            e.sample_after = Some(v.value);
        }
        if let Some(d) = &re.doc {
            e.doc = d.value.clone();
        }
        if let Some(list) = &re.allow {
            // An override's list replaces the inherited one, like `errata`.
            e.allow = list
                .iter()
                .map(|a| Allow {
                    code: a.code.value.to_owned(),
                    reason: a.reason.value.clone(),
                    span: a.code.span,
                })
                .collect();
        }
        Some(e)
    }

    fn constraint(&mut self, base: Option<Constraint>, rc: &RawConstraint) -> Option<Constraint> {
        if base.is_none() {
            for (key, present) in [
                ("register", rc.register.is_some()),
                ("when", !rc.when.is_empty()),
                ("message", rc.message.is_some()),
            ] {
                if !present {
                    self.missing_new("constraint", &rc.id, key);
                    return None;
                }
            }
        }
        let mut c = base.unwrap_or_else(|| Constraint {
            id: rc.id.value.clone(),
            register: String::new(),
            when: Vec::new(),
            severity: Severity::Error,
            message: String::new(),
            manual: String::new(),
            span: rc.id.span,
        });
        c.span = rc.id.span;
        if let Some(r) = &rc.register {
            c.register = r.value.clone();
        }
        if !rc.when.is_empty() {
            c.when = rc
                .when
                .iter()
                .map(|(f, v)| Condition {
                    field: f.value.clone(),
                    value: v.value,
                })
                .collect();
        }
        if let Some(s) = &rc.severity {
            c.severity = s.value;
        }
        if let Some(m) = &rc.message {
            c.message = m.value.clone();
        }
        if let Some(m) = &rc.manual {
            c.manual = m.value.clone();
        }
        Some(c)
    }
}

/// A counter set, sorted and without repeats (numbers were bounded when read).
/// True for a register entry that states nothing but its name and role.
fn role_only(rr: &RawRegister) -> bool {
    let RawRegister {
        name: _,
        role,
        renames,
        doc,
        manual,
        msr,
        alias_msr,
        per_counter,
        width,
        access,
        reset,
        fields,
        remove_fields,
    } = rr;
    role.is_some()
        && renames.is_none()
        && doc.is_none()
        && manual.is_none()
        && msr.is_none()
        && alias_msr.is_none()
        && per_counter.is_none()
        && width.is_none()
        && access.is_none()
        && reset.is_none()
        && fields.is_empty()
        && remove_fields.is_empty()
}

/// `pmu.general` and `pmu.fixed` from the registers' roles: the event-select and counter
/// families, the fixed counters and their control. The validator reports a role given to two
/// registers, or an event select without counters; here the first register of a role wins.
fn derive_counter_sets(pmu: &mut Pmu, registers: &[Register]) {
    let named = |role: RegisterRole| {
        registers
            .iter()
            .find(|r| r.role == Some(role))
            .map(|r| r.name.clone())
    };
    pmu.general = match (
        named(RegisterRole::EventSelect),
        named(RegisterRole::Counter),
    ) {
        (Some(select), Some(counter)) => Some(GeneralCounters { select, counter }),
        _ => None,
    };
    pmu.fixed = named(RegisterRole::FixedCounter).map(|counter| FixedCounters {
        counter,
        control: named(RegisterRole::FixedControl),
    });
}

fn counter_set(r: &RawCounterSet) -> CounterSet {
    let norm = |v: &[Spanned<u64>]| {
        let mut out: Vec<u32> = v
            .iter()
            .map(|x| x.value.min(u32::MAX as u64) as u32)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    };
    CounterSet {
        general: norm(&r.general),
        fixed: norm(&r.fixed),
    }
}

/// Bits of a `width`-bit register that no field covers.
fn reserved(width: u32, fields: &[Field]) -> u64 {
    let all = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    fields.iter().fold(all, |m, f| m & !f.full_mask())
}
