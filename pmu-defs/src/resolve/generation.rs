//! Resolving a generation as a whole: its vendor, PMU layout and CPUs, and the merging of its
//! registers, CPUID leaves, events and constraints with its parent's (`remove:` applied).

use super::*;
use pmu_vocab::perf::GenericEvent;

impl Resolver<'_> {
    pub(super) fn missing_new(&mut self, what: &str, name: &Spanned<String>, key: &str) {
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

    pub(super) fn unknown(
        &mut self,
        what: &str,
        name: &Spanned<String>,
        known: Vec<&str>,
        action: &str,
    ) {
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
    pub(super) fn remove_named<T>(
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

    pub(super) fn generation(
        &mut self,
        raw: &RawGeneration,
        parent: Option<&Generation>,
    ) -> Generation {
        let id = self.id.to_owned();
        let mut ancestors = Vec::new();
        if let Some(p) = parent {
            ancestors.push(p.id.clone());
            ancestors.extend(p.ancestors.iter().cloned());
        }
        let vendor = self.vendor(raw, parent);
        let mut registers = self.registers(raw, parent);
        self.per_counter_counts(raw, &mut registers);
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
            generic_events: self.generic_events(raw, parent),
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

    /// The parent's generic events with this file's set over them by name, `remove:`d ones
    /// dropped, in `PERF_COUNT_HW_*` order.
    pub(super) fn generic_events(
        &mut self,
        raw: &RawGeneration,
        parent: Option<&Generation>,
    ) -> Vec<GenericEventDef> {
        let mut out = parent.map(|p| p.generic_events.clone()).unwrap_or_default();
        if let Some(g) = &raw.generic_events {
            let manual = text(&g.manual).or(text(&raw.manual)).unwrap_or_default();
            for (name, terms) in &g.events {
                let def = GenericEventDef {
                    name: name.value.clone(),
                    terms: terms.value.clone(),
                    manual: manual.clone(),
                    span: terms.span,
                };
                match out.iter_mut().find(|d| d.name == def.name) {
                    Some(d) => *d = def,
                    None => out.push(def),
                }
            }
        }
        let removed = &raw.remove.generic_events;
        self.remove_named(&mut out, removed, "generic event", |d| &d.name);
        out.sort_by_key(|d| GenericEvent::from_name(&d.name).map(|g| g.hw_id()));
        out
    }

    /// The generation's vendor: its own, else its parent's; a vendor other than the parent's
    /// is an error.
    pub(super) fn vendor(&mut self, raw: &RawGeneration, parent: Option<&Generation>) -> Vendor {
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
    pub(super) fn registers(
        &mut self,
        raw: &RawGeneration,
        parent: Option<&Generation>,
    ) -> Vec<Register> {
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
    pub(super) fn merge_named<T: Clone, R>(
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

    pub(super) fn cpuid_leaves(
        &mut self,
        raw: &RawGeneration,
        parent: Option<&Generation>,
    ) -> Vec<CpuidLeaf> {
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

    pub(super) fn events(
        &mut self,
        raw: &RawGeneration,
        parent: Option<&Generation>,
    ) -> Vec<Event> {
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

    pub(super) fn constraints(
        &mut self,
        raw: &RawGeneration,
        parent: Option<&Generation>,
    ) -> Vec<Constraint> {
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
    pub(super) fn cpus(&mut self, raw: &RawGeneration, vendor: Vendor) -> Vec<Cpu> {
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
}
