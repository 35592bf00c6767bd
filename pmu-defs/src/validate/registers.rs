//! Checks of a generation's registers and fields (overlaps, widths, named values, roles),
//! their instances and addresses, its CPUID leaves and its PMU layout.

use super::*;

impl<'a> Validator<'a> {
    pub(super) fn run(&mut self) {
        let g = self.g;
        for r in &g.registers {
            self.fields(&r.fields, r.width, &format!("register `{}`", r.name));
            if r.access == Access::ReadOnly {
                for f in r.fields.iter().filter(|f| f.access.writable()) {
                    self.diags.push(
                        Diagnostic::error(
                            "access-conflict",
                            format!(
                                "field `{}` is {} in read-only register `{}`",
                                f.name,
                                f.access.as_str(),
                                r.name
                            ),
                            f.span,
                        )
                        .with_secondary(r.span, "register is read-only"),
                    );
                }
            }
            if let Some(reset) = r.reset
                && reset & r.reserved_mask != 0
            {
                self.diags.push(
                    Diagnostic::error(
                        "reset-reserved",
                        format!(
                            "reset value {reset:#x} of `{}` sets reserved bits {:#x}",
                            r.name,
                            reset & r.reserved_mask
                        ),
                        r.span,
                    )
                    .with_note("reserved bits are the bits no field covers"),
                );
            }
        }
        self.instances();
        self.presence();
        self.addresses();
        self.cpuid_leaves();
        for c in &g.cpuid {
            for reg in &c.registers {
                self.fields(
                    &reg.fields,
                    32,
                    &format!("CPUID leaf `{}` {}", c.name, reg.register.to_uppercase()),
                );
            }
        }
        self.pmu();
        self.roles();
        self.events();
        self.constraints();
        names::generation(g, self.diags);
    }

    pub(super) fn fields(&mut self, fields: &[Field], width: u32, owner: &str) {
        for f in fields {
            if f.top_bit() >= width {
                let what = if f.array.is_some() {
                    format!(
                        "field array `{}` reaches bit {} (last element)",
                        f.name,
                        f.top_bit()
                    )
                } else {
                    format!(
                        "field `{}` (bits {}) reaches bit {}",
                        f.name,
                        bits_text(f),
                        f.top_bit()
                    )
                };
                self.diags.push(
                    Diagnostic::error(
                        "field-past-width",
                        format!("{what}, past the {width}-bit width of {owner}"),
                        f.span,
                    )
                    .with_label(format!("{owner} has bits 0 to {}", width - 1)),
                );
            }
            for v in &f.values {
                if f.width < 64 && v.value >> f.width != 0 {
                    self.diags.push(
                        Diagnostic::error(
                            "value-too-wide",
                            format!(
                                "value `{}` = {:#x} does not fit the {}-bit field `{}`",
                                v.name, v.value, f.width, f.name
                            ),
                            f.span,
                        )
                        .with_label(format!(
                            "values of this field are at most {:#x}",
                            (1u64 << f.width) - 1
                        )),
                    );
                }
            }
            let mut seen: HashMap<u64, &str> = HashMap::new();
            for v in &f.values {
                if let Some(other) = seen.insert(v.value, &v.name) {
                    self.diags.push(Diagnostic::error(
                        "duplicate-value",
                        format!(
                            "values `{other}` and `{}` of field `{}` are both {:#x}",
                            v.name, f.name, v.value
                        ),
                        f.span,
                    ));
                }
            }
        }
        // Overlaps between fields, element by element (arrays included): each field against
        // the first earlier field to claim each of its bits, so n fields on the same bits give
        // n - 1 errors, not n²/2 (64 bits: linear in the number of fields).
        let mut claimed: [Option<usize>; 64] = [None; 64];
        for (i, a) in fields.iter().enumerate() {
            let mask = a.full_mask();
            let mut others: Vec<usize> = (0..64)
                .filter(|&bit| mask & (1 << bit) != 0)
                .filter_map(|bit| claimed[bit])
                .collect();
            others.sort_unstable();
            others.dedup();
            for (bit, owner) in claimed.iter_mut().enumerate() {
                if mask & (1 << bit) != 0 && owner.is_none() {
                    *owner = Some(i);
                }
            }
            for b in others.into_iter().map(|j| &fields[j]) {
                let overlap = a.full_mask() & b.full_mask();
                // Reported at the field this generation's file adds, when the other is inherited
                // (the parent's file is not the one to fix).
                let here = self.g.span.file;
                let (a, b) = if a.span.file != here && b.span.file == here {
                    (b, a)
                } else {
                    (a, b)
                };
                if overlap != 0 {
                    let bit = overlap.trailing_zeros();
                    self.diags.push(
                        Diagnostic::error(
                            "field-overlap",
                            format!(
                                "fields `{}` and `{}` of {owner} overlap at bit {bit}",
                                b.name, a.name
                            ),
                            a.span,
                        )
                        .with_label(format!("`{}` covers bits {}", a.name, bits_text(a)))
                        .with_secondary(
                            b.span,
                            format!("`{}` covers bits {}", b.name, bits_text(b)),
                        ),
                    );
                }
            }
            if let Some(arr) = a.array {
                let span: u32 = a.bits.iter().map(|b| b.msb).max().unwrap_or(0)
                    - a.bits.iter().map(|b| b.lsb).min().unwrap_or(0)
                    + 1;
                if arr.count > 1 && arr.stride < span {
                    self.diags.push(
                        Diagnostic::error(
                            "field-overlap",
                            format!("elements of field array `{}` overlap: stride {} is less than its {span} bits", a.name, arr.stride),
                            a.span,
                        ),
                    );
                }
            }
        }
    }

    /// `instances:` of a field: only on a register family, at least one, each an instance of
    /// it (`field-instances`).
    pub(super) fn instances(&mut self) {
        let g = self.g;
        for r in &g.registers {
            for f in &r.fields {
                let (Some(list), Some(span)) = (&f.instances, f.instances_span) else {
                    continue;
                };
                // A field too wide for `instances:` is the field's fault: say so where it is
                // defined (a generation that widens an inherited one-bit field is in another
                // file than the inherited list).
                let mut at = span;
                let problem = if !r.msr.indexed {
                    Some(format!(
                        "`{}` is one MSR, not a family: field `{}` cannot be limited to instances",
                        r.name, f.name
                    ))
                } else if f.width != 1 || f.array.is_some() {
                    at = f.span;
                    Some(format!(
                        "field `{}` of `{}` is not one bit: only a one-bit field can be limited \
                         to instances (the generated setter is `with_x(bool)` on a placed value)",
                        f.name, r.name
                    ))
                } else if list.is_empty() {
                    Some(format!(
                        "field `{}` of `{}` is valid on no instance: list at least one",
                        f.name, r.name
                    ))
                } else {
                    list.iter().find(|&&i| i >= r.msr.count).map(|bad| {
                        format!(
                            "instance {bad} of field `{}` is out of range: `{}` has {} instances \
                             (0..={})",
                            f.name,
                            r.name,
                            r.msr.count,
                            r.msr.count - 1
                        )
                    })
                };
                if let Some(msg) = problem {
                    let mut d = Diagnostic::error("field-instances", msg, at);
                    if at != span {
                        d = d.with_secondary(span, "limited to these instances");
                    }
                    self.diags.push(d.with_secondary(r.span, "the register"));
                }
            }
        }
    }

    /// A register's `requires:` is in the notation `pmu_vocab::requires` reads, and its
    /// `count-from:` names a CPUID field of the generation, on a family.
    pub(super) fn presence(&mut self) {
        let g = self.g;
        for r in &g.registers {
            if let Some(text) = &r.requires
                && pmu_vocab::requires::eval(text, &NoFacts).is_none()
            {
                self.diags.push(
                    Diagnostic::error(
                        "invalid-value",
                        format!("`requires` of `{}` is not in the manuals' notation", r.name),
                        r.requires_span.unwrap_or(r.span),
                    )
                    .with_secondary(r.span, "the register")
                    .with_help(
                        "write `CPUID.(EAX=1CH,ECX=0):EBX.NAME[2] = 1`, `CPUID.01H:EDX.NAME[21] = 1`, \
                         `CPUID Fn8000_001B_EAX[Name] (bit 5) = 1` or \
                         `IA32_PERF_CAPABILITIES.NAME[15] = 1`, terms joined by ` or `",
                    ),
                );
            }
            let Some(c) = &r.count_from else { continue };
            let field = g
                .cpuid_leaf(&c.leaf)
                .and_then(|l| l.registers.iter().find(|x| x.register == c.register))
                .and_then(|x| x.fields.iter().find(|f| f.name == c.field));
            let d = if !r.msr.indexed {
                Diagnostic::error(
                    "invalid-value",
                    format!(
                        "`{}` is one MSR, not a family: `count-from` says how many instances a \
                         family has",
                        r.name
                    ),
                    c.span,
                )
                .with_help("use `requires:` for a register that a CPU has or not")
            } else if field.is_none() {
                Diagnostic::error(
                    "unknown-name",
                    format!(
                        "`count-from` of `{}` names CPUID field `{}.{}.{}`, which generation `{}` \
                         does not have",
                        r.name, c.leaf, c.register, c.field, g.id
                    ),
                    c.span,
                )
                .with_help("name a leaf of `cpuid:`, one of its output registers and a field of it")
            } else {
                continue;
            };
            self.diags.push(d.with_secondary(r.span, "the register"));
        }
    }

    pub(super) fn addresses(&mut self) {
        let mut at: HashMap<u32, (&Register, u32)> = HashMap::new();
        for r in &self.g.registers {
            for (i, a) in r.msr.addresses().enumerate() {
                if let Some((other, j)) = at.get(&a) {
                    self.diags.push(
                        Diagnostic::error(
                            "duplicate-address",
                            format!(
                                "`{}` and `{}` are both at MSR {a:#x} in generation `{}`",
                                instance(other, *j),
                                instance(r, i as u32),
                                self.g.id
                            ),
                            r.span,
                        )
                        .with_secondary(other.span, format!("`{}` is here", other.name)),
                    );
                    break;
                }
                at.insert(a, (r, i as u32));
            }
        }
        // Alias ranges after every register's own: an alias never shadows a register.
        for r in &self.g.registers {
            for (i, &a) in r.alias_addresses.iter().enumerate() {
                if let Some((other, j)) = at.get(&a) {
                    let whose = if std::ptr::eq(*other, r) {
                        "its own".to_owned()
                    } else {
                        format!("`{}`'s", other.name)
                    };
                    self.diags.push(
                        Diagnostic::error(
                            "alias-overlap",
                            format!(
                                "the alias address {a:#x} of `{}` is already `{}` in generation `{}`",
                                instance(r, i as u32),
                                instance(other, *j),
                                self.g.id
                            ),
                            r.alias_span.unwrap_or(r.span),
                        )
                        .with_secondary(other.span, format!("`{}` is here", other.name))
                        .with_note(format!(
                            "an alias range (`alias-msr:`) must not overlap {whose} addresses"
                        )),
                    );
                    break;
                }
                at.insert(a, (r, i as u32));
            }
        }
    }

    /// Two CPUID entries for one leaf (and subleaf): the second would shadow the first.
    pub(super) fn cpuid_leaves(&mut self) {
        let mut at: HashMap<(u32, Option<u32>), &CpuidLeaf> = HashMap::new();
        for c in &self.g.cpuid {
            if let Some(other) = at.get(&(c.leaf, c.subleaf)) {
                let which = match c.subleaf {
                    Some(s) => format!("leaf {:#X} subleaf {s}", c.leaf),
                    None => format!("leaf {:#X}", c.leaf),
                };
                self.diags.push(
                    Diagnostic::error(
                        "duplicate-leaf",
                        format!(
                            "CPUID entries `{}` and `{}` both describe {which} in generation `{}`",
                            other.name, c.name, self.g.id
                        ),
                        c.span,
                    )
                    .with_secondary(other.span, format!("`{}` is here", other.name))
                    .with_help("describe each leaf once; give a leaf with subleaves one entry per `subleaf:`"),
                );
                continue;
            }
            at.insert((c.leaf, c.subleaf), c);
        }
    }

    /// `pmu.encoding` names fields of the event-select register.
    pub(super) fn pmu(&mut self) {
        let g = self.g;
        let Some(sel) = g.register_with_role(RegisterRole::EventSelect) else {
            return;
        };
        for (attr, field) in &g.pmu.encoding {
            if sel.field(field).is_none() {
                let mut d = Diagnostic::error(
                    "unknown-name",
                    format!(
                        "`pmu.encoding.{attr}` names field `{field}`, which `{}` does not have in `{}`",
                        sel.name, g.id
                    ),
                    g.pmu.span_of(&format!("encoding.{attr}")).unwrap_or(g.span),
                );
                if let Some(s) = did_you_mean(field, sel.fields.iter().map(|f| f.name.as_str())) {
                    d = d.with_help(format!("did you mean `{s}`?"));
                }
                self.diags.push(d);
            }
        }
    }

    pub(super) fn select_field(&self, attr: &str) -> Option<&Field> {
        let sel = self.g.register(&self.g.pmu.general.as_ref()?.select)?;
        sel.field(self.g.pmu.encoding_field(attr)?)
    }
}

/// Facts with nothing set: a `requires:` text is understood when it evaluates on them.
struct NoFacts;

impl pmu_vocab::requires::Facts for NoFacts {
    fn cpuid(&self, _: u32, _: u32) -> Option<[u32; 4]> {
        None
    }

    fn perf_capabilities(&self) -> u64 {
        0
    }

    fn capabilities_name(&self) -> Option<&str> {
        Some("IA32_PERF_CAPABILITIES")
    }
}
