//! Resolving one register over its parent's (or as a new one): addresses, `alias-of`,
//! fields and their bit ranges, named values, access and deprecation.

use super::*;

impl Resolver<'_> {
    pub(super) fn register(
        &mut self,
        base: Option<Register>,
        rr: &RawRegister,
    ) -> Option<Register> {
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
            count_derived: false,
            width: 64,
            access: Access::ReadWrite,
            role: None,
            reset: None,
            requires: None,
            requires_span: None,
            count_from: None,
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
        presence(&mut reg, rr);
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
    pub(super) fn alias_msr(&mut self, reg: &mut Register, rr: &RawRegister) -> bool {
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

    pub(super) fn fields(
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

    pub(super) fn field(
        &mut self,
        base: Option<Field>,
        rf: &RawField,
        access: Access,
    ) -> Option<Field> {
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
            count_derived: false,
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
}

/// `requires:` and `count-from:` (when a CPU has the register, and how many instances) over
/// the inherited ones.
fn presence(reg: &mut Register, rr: &RawRegister) {
    if let Some(r) = &rr.requires {
        reg.requires = Some(r.value.clone());
        reg.requires_span = Some(r.span);
    }
    if let Some(c) = &rr.count_from {
        reg.count_from = Some(CountFrom {
            leaf: c.value.leaf.value.clone(),
            register: c.value.register.value.clone(),
            field: c.value.field.value.clone(),
            form: c.value.form,
            span: c.span,
        });
    }
}
