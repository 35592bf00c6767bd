//! Checks of a generation's events (encodings against the event select's fields,
//! alternatives, auxiliary MSRs, counter sets) and constraints.

use super::*;

impl<'a> Validator<'a> {
    pub(super) fn events(&mut self) {
        let g = self.g;
        let gp = g.general_counters();
        let fx = g.fixed_counters();
        for e in &g.events {
            let mut checks: Vec<(&str, Option<u64>)> = vec![
                ("event", Some(e.event as u64)),
                ("umask", Some(e.umask as u64)),
                ("cmask", Some(e.cmask as u64)),
                ("umask2", e.umask2.map(u64::from)),
            ];
            checks.extend(e.alt_events.iter().map(|&v| ("event", Some(v as u64))));
            checks.extend(e.alt_umasks.iter().map(|&v| ("umask", Some(v as u64))));
            for (attr, value) in checks {
                let Some(value) = value else { continue };
                match self.select_field(attr) {
                    Some(f) if f.width < 64 && value >> f.width != 0 => {
                        let most = format!(
                            "{attr} is at most {:#x} in `{}`",
                            (1u64 << f.width) - 1,
                            g.id
                        );
                        let message = format!(
                            "event `{}`: {attr} {value:#x} does not fit the {}-bit field `{}`",
                            e.name, f.width, f.name
                        );
                        // An inherited event that a field narrowed in this file no longer
                        // fits is the narrowing's fault: say so where it is.
                        let narrowed_here =
                            f.span.file == g.span.file && e.span.file != g.span.file;
                        let d = match narrowed_here {
                            true => Diagnostic::error("value-too-wide", message, f.span)
                                .with_label(most)
                                .with_secondary(
                                    e.span,
                                    format!("inherited event with {attr} {value:#x}"),
                                ),
                            false => Diagnostic::error("value-too-wide", message, e.span)
                                .with_label(most),
                        };
                        self.diags.push(d);
                    }
                    Some(_) => {}
                    None if value != 0 || attr == "umask2" => {
                        self.diags.push(Diagnostic::error(
                            "unsupported-attribute",
                            format!(
                                "event `{}` sets {attr}, which generation `{}` has no field for",
                                e.name, g.id
                            ),
                            e.span,
                        ));
                    }
                    None => {}
                }
            }
            for (attr, set) in [
                ("inv", e.inv),
                ("edge", e.edge),
                ("any", e.any),
                ("eq", e.eq),
            ] {
                if set && self.select_field(attr).is_none() {
                    self.diags.push(
                        Diagnostic::error(
                            "unsupported-attribute",
                            format!(
                                "event `{}` sets {attr}, which generation `{}` has no field for",
                                e.name, g.id
                            ),
                            e.span,
                        )
                        .with_note(format!(
                            "`pmu.encoding` of `{}` maps no field to `{attr}`",
                            g.id
                        )),
                    );
                }
            }
            if let Some(&bad) = e.counters.iter().find(|&&c| c >= gp) {
                self.diags.push(
                    Diagnostic::error(
                        "counter-out-of-range",
                        if gp == 0 {
                            format!("event `{}` names general counter {bad}, but `{}` has no general-purpose counters", e.name, g.id)
                        } else {
                            format!("event `{}` names general counter {bad}, but `{}` has {gp} (0 to {})", e.name, g.id, gp - 1)
                        },
                        e.span,
                    )
                    .with_label("counter number out of range"),
                );
            }
            if let Some(f) = e.fixed
                && f >= fx
            {
                self.diags.push(
                    Diagnostic::error(
                        "counter-out-of-range",
                        if fx == 0 {
                            format!("event `{}` names fixed counter {f}, but `{}` has no fixed counters", e.name, g.id)
                        } else {
                            format!("event `{}` names fixed counter {f}, but `{}` has {fx} (0 to {})", e.name, g.id, fx - 1)
                        },
                        e.span,
                    )
                    .with_label("fixed counter number out of range"),
                );
            }
            self.alternatives(e);
            self.aux_msr(e);
            self.counter_sets(e, gp, fx);
            if e.counters.is_empty() && e.fixed.is_none() {
                self.diags.push(Diagnostic::error(
                    "no-counter",
                    format!(
                        "event `{}` can be counted by no counter of `{}`",
                        e.name, g.id
                    ),
                    e.span,
                ));
            }
            if let Some(bit) = e.cpuid_bit
                && g.vendor == Vendor::Intel
                && let Some(leaf) = g.cpuid.iter().find(|c| c.leaf == 0x0A)
                && let Some(ebx) = leaf.registers.iter().find(|r| r.register == "ebx")
                && !ebx.fields.iter().any(|f| f.full_mask() & (1 << bit) != 0)
            {
                self.diags.push(Diagnostic::error(
                    "unknown-name",
                    format!("event `{}` names CPUID.0AH:EBX bit {bit}, which the `{}` layout of `{}` does not define", e.name, leaf.name, g.id),
                    e.span,
                ));
            }
        }
    }

    /// Alternative codes, unit masks and MSR indexes pair up by position.
    pub(super) fn alternatives(&mut self, e: &Event) {
        let (ne, nu) = (e.alt_events.len(), e.alt_umasks.len());
        if ne > 0 && nu > 0 && ne != nu {
            self.diags.push(
                Diagnostic::error(
                    "alternatives-mismatch",
                    format!(
                        "event `{}` lists {} event codes and {} unit masks",
                        e.name,
                        ne + 1,
                        nu + 1
                    ),
                    e.span,
                )
                .with_note("codes and unit masks pair up by position: give one of each, or lists of the same length"),
            );
            return;
        }
        let n = 1 + ne.max(nu);
        if e.msr_per_umask {
            let indexes = e.msr.as_ref().map(|m| 1 + m.alt_indexes.len());
            let fits = match indexes {
                None => false,
                Some(k) => nu == 0 || k == nu + 1,
            };
            if !fits {
                let what = match indexes {
                    None => "has no `msr`".to_owned(),
                    Some(k) => format!("lists {k} MSR indexes for {} unit masks", nu + 1),
                };
                self.diags.push(
                    Diagnostic::error(
                        "alternatives-mismatch",
                        format!("event `{}` is `msr-per-umask` but {what}", e.name),
                        e.span,
                    )
                    .with_note("`msr-per-umask: true` says the auxiliary MSR goes with the unit mask: give `msr`, and with a list of unit masks an `msr.index` list of the same length"),
                );
                return;
            }
        }
        if let Some(m) = &e.msr
            && !m.alt_indexes.is_empty()
            && m.alt_indexes.len() + 1 != n
        {
            self.diags.push(
                Diagnostic::error(
                    "alternatives-mismatch",
                    format!(
                        "event `{}` lists {} MSR indexes for {n} encoding{}",
                        e.name,
                        m.alt_indexes.len() + 1,
                        if n == 1 { "" } else { "s" }
                    ),
                    e.span,
                )
                .with_note("the n-th MSR index goes with the n-th event code or unit mask; one index serves them all"),
            );
            return;
        }
        let alts = e.alternatives();
        for (i, a) in alts.iter().enumerate() {
            if let Some(j) = alts[..i]
                .iter()
                .position(|b| (b.event, b.umask) == (a.event, a.umask))
            {
                self.diags.push(Diagnostic::error(
                    "alternatives-mismatch",
                    format!(
                        "event `{}` lists encoding {} (event {:#x}, umask {:#x}) twice, as entries {} and {}",
                        e.name,
                        i + 1,
                        a.event,
                        a.umask,
                        j + 1,
                        i + 1
                    ),
                    e.span,
                ));
                return;
            }
        }
    }

    /// An auxiliary MSR names a register of the generation (by address), and the value the
    /// event writes there sets no reserved bit of it and fits its width: one warning per event
    /// for the reserved bits, naming each register.
    pub(super) fn aux_msr(&mut self, e: &Event) {
        let Some(m) = &e.msr else { return };
        let mut indexes = vec![m.index];
        indexes.extend(m.alt_indexes.iter().filter(|&&i| i != m.index));
        let mut bad_regs: Vec<(&Register, u64, u32)> = Vec::new();
        for index in indexes {
            let Some(r) = self.g.register_at(index) else {
                self.diags.push(
                    Diagnostic::warning(
                        "unknown-aux-msr",
                        format!(
                            "event `{}` programs auxiliary MSR {index:#x}, but no register of `{}` is at that address",
                            e.name, self.g.id
                        ),
                        e.span,
                    )
                    .with_label(format!("`msr.index` {index:#x}"))
                    .with_note("define the register (in the microarchitecture generation the model extends) so the value is checked against its fields and written as a typed value"),
                );
                continue;
            };
            let outside = if r.width < 64 { !0u64 << r.width } else { 0 };
            let bad = m.value & (r.reserved_mask | outside);
            if bad != 0 {
                bad_regs.push((r, bad, index));
            }
        }
        let Some(&(first, _, _)) = bad_regs.first() else {
            return;
        };
        let what: Vec<String> = bad_regs
            .iter()
            .map(|(r, bad, index)| {
                format!(
                    "`{}` ({index:#x}), setting reserved bit{} {}",
                    r.name,
                    if bad.count_ones() == 1 { "" } else { "s" },
                    bit_list(*bad)
                )
            })
            .collect();
        let all = bad_regs.iter().fold(0, |a, (_, b, _)| a | b);
        self.diags.push(
            Diagnostic::warning(
                "aux-msr-reserved",
                format!(
                    "event `{}` writes {:#x} to {}",
                    e.name,
                    m.value,
                    what.join(" and to ")
                ),
                e.span,
            )
            .with_label(format!("`msr.value` {:#x} (reserved: {all:#x})", m.value))
            .with_secondary(
                first.span,
                format!(
                    "`{}` of `{}` leaves those bits to no field",
                    first.name, self.g.id
                ),
            ),
        );
    }

    /// HT-off, PEBS, PDist and PDIR counters exist; the sampling ones are counters the event
    /// may use.
    pub(super) fn counter_sets(&mut self, e: &Event, gp: u32, fx: u32) {
        let g = self.g;
        let sets = [
            ("counters-ht-off", &e.counters_ht_off, false),
            ("pebs-counters", &e.pebs_counters, true),
            ("pdist-counters", &e.pdist_counters, true),
            ("pdir-counters", &e.pdir_counters, true),
        ];
        for (key, set, subset) in sets {
            let Some(set) = set else { continue };
            let mut out_of_range = false;
            for (kind, list, have) in [("general", &set.general, gp), ("fixed", &set.fixed, fx)] {
                if let Some(&bad) = list.iter().find(|&&c| c >= have) {
                    out_of_range = true;
                    self.diags.push(
                        Diagnostic::error(
                            "counter-out-of-range",
                            if have == 0 {
                                format!("event `{}`: `{key}` names {kind} counter {bad}, but `{}` has no {kind} counters", e.name, g.id)
                            } else {
                                format!("event `{}`: `{key}` names {kind} counter {bad}, but `{}` has {have} (0 to {})", e.name, g.id, have - 1)
                            },
                            e.span,
                        )
                        .with_label("counter number out of range"),
                    );
                }
            }
            if !subset || out_of_range {
                continue;
            }
            let general = set.general.iter().find(|c| !e.counters.contains(c));
            let fixed = set.fixed.iter().find(|&&c| e.fixed != Some(c));
            let stray = general
                .map(|c| format!("general counter {c}"))
                .or(fixed.map(|c| format!("fixed counter {c}")));
            if let Some(stray) = stray {
                self.diags.push(
                    Diagnostic::warning(
                        "counter-not-in-event",
                        format!(
                            "event `{}`: `{key}` names {stray}, which is not one of the counters that count it",
                            e.name
                        ),
                        e.span,
                    )
                    .with_note(format!(
                        "it counts on {}",
                        describe_counters(&e.counters, e.fixed)
                    )),
                );
            }
        }
    }

    pub(super) fn constraints(&mut self) {
        let g = self.g;
        for c in &g.constraints {
            let Some(r) = g.register(&c.register) else {
                let mut d = Diagnostic::error(
                    "unknown-name",
                    format!(
                        "constraint `{}` names register `{}`, which `{}` does not have",
                        c.id, c.register, g.id
                    ),
                    c.span,
                );
                if let Some(s) =
                    did_you_mean(&c.register, g.registers.iter().map(|r| r.name.as_str()))
                {
                    d = d.with_help(format!("did you mean `{s}`?"));
                }
                self.diags.push(d);
                continue;
            };
            for cond in &c.when {
                match r.field(&cond.field) {
                    None => {
                        let mut d = Diagnostic::error(
                            "unknown-name",
                            format!(
                                "constraint `{}` names field `{}`, which `{}` does not have in `{}`",
                                c.id, cond.field, r.name, g.id
                            ),
                            c.span,
                        );
                        if let Some(s) =
                            did_you_mean(&cond.field, r.fields.iter().map(|f| f.name.as_str()))
                        {
                            d = d.with_help(format!("did you mean `{s}`?"));
                        }
                        self.diags.push(d);
                    }
                    Some(f) if f.width < 64 && cond.value >> f.width != 0 => {
                        self.diags.push(Diagnostic::error(
                            "value-too-wide",
                            format!(
                                "constraint `{}`: {} does not fit the {}-bit field `{}`",
                                c.id, cond.value, f.width, f.name
                            ),
                            c.span,
                        ))
                    }
                    Some(_) => {}
                }
            }
        }
    }
}
