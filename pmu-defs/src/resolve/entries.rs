//! Resolving one CPUID leaf, event or constraint over its parent's (or as a new one).

use super::*;

impl Resolver<'_> {
    pub(super) fn cpuid(&mut self, base: Option<CpuidLeaf>, rc: &RawCpuid) -> Option<CpuidLeaf> {
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

    pub(super) fn event(&mut self, base: Option<Event>, re: &RawEvent) -> Option<Event> {
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
        for (flag, v) in &re.flags {
            e.set_flag(flag, v.value);
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

    pub(super) fn constraint(
        &mut self,
        base: Option<Constraint>,
        rc: &RawConstraint,
    ) -> Option<Constraint> {
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
