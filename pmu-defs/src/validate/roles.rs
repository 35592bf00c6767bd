//! Checks of the run-time roles (`role:` on registers and fields, `per-counter:` on field
//! arrays) and of the counter counts every per-counter array must agree with.
//!
//! The run-time layer (`pmu_regs::arch`) programs a generation only through these roles, so a
//! role given twice, a role whose partner is missing, or a per-counter array shorter than its
//! counter family would silently leave counters unreachable; each is an error here, located at
//! both places that disagree.

use super::Validator;
use crate::diag::Diagnostic;
use crate::load::raw::{COUNTER_KIND_WORDS, FIELD_ROLE_WORDS, REGISTER_ROLE_WORDS};
use crate::model::*;

fn word<T: PartialEq + Copy>(table: &[(&'static str, T)], v: T) -> &'static str {
    table.iter().find(|(_, x)| *x == v).map_or("?", |(w, _)| w)
}

/// The YAML spelling of a register role.
pub fn register_role_word(r: RegisterRole) -> &'static str {
    word(REGISTER_ROLE_WORDS, r)
}

/// The YAML spelling of a field role.
pub fn field_role_word(r: FieldRole) -> &'static str {
    word(FIELD_ROLE_WORDS, r)
}

/// The YAML spelling of a counter family.
pub fn counter_kind_word(k: CounterKind) -> &'static str {
    word(COUNTER_KIND_WORDS, k)
}

/// Roles that only make sense with a partner: (role, the partner it needs).
const PARTNERS: &[(RegisterRole, RegisterRole)] = &[
    (RegisterRole::EventSelect, RegisterRole::Counter),
    (RegisterRole::Counter, RegisterRole::EventSelect),
    (RegisterRole::FullWidthCounter, RegisterRole::Counter),
    (RegisterRole::LegacyEventSelect, RegisterRole::EventSelect),
    (RegisterRole::LegacyCounter, RegisterRole::Counter),
    (RegisterRole::FixedControl, RegisterRole::FixedCounter),
    (RegisterRole::GlobalStatusReset, RegisterRole::GlobalStatus),
    (RegisterRole::GlobalStatusSet, RegisterRole::GlobalStatus),
];

impl Validator<'_> {
    pub(super) fn roles(&mut self) {
        self.unique_register_roles();
        self.partner_roles();
        self.event_select_counts();
        for r in &self.g.registers {
            if let Some(kind) = r.per_counter {
                self.per_counter_family(r, kind);
            }
            self.field_roles(r);
        }
        for leaf in &self.g.cpuid {
            for reg in &leaf.registers {
                for f in &reg.fields {
                    let misplaced =
                        f.per_counter.is_some() || f.role.is_some_and(|r| !r.is_cpuid());
                    if misplaced {
                        self.diags.push(
                            Diagnostic::error(
                                "misplaced-role",
                                format!(
                                    "field `{}` of CPUID leaf `{}` has an MSR field's role; CPUID fields take CPUID roles (general-count, fixed-width, ...)",
                                    f.name, leaf.name
                                ),
                                f.role_span.unwrap_or(f.span),
                            )
                            .with_label("not a CPUID role"),
                        );
                    }
                }
            }
        }
        self.detect();
    }

    fn unique_register_roles(&mut self) {
        let g = self.g;
        for (i, r) in g.registers.iter().enumerate() {
            let Some(role) = r.role else { continue };
            if let Some(first) = g.registers[..i].iter().find(|o| o.role == Some(role)) {
                let word = register_role_word(role);
                self.diags.push(
                    Diagnostic::error(
                        "duplicate-role",
                        format!(
                            "`{}` and `{}` both have role `{word}` in `{}`",
                            first.name, r.name, g.id
                        ),
                        r.role_span.unwrap_or(r.span),
                    )
                    .with_label(format!("second register with role `{word}`"))
                    .with_secondary(first.role_span.unwrap_or(first.span), "first one here")
                    .with_note(
                        "the run-time layer programs exactly one register per role; give the \
                         other register another role, or none (`remove` it, or restate it)",
                    ),
                );
            }
        }
    }

    fn partner_roles(&mut self) {
        let g = self.g;
        for &(role, partner) in PARTNERS {
            let Some(r) = g.register_with_role(role) else {
                continue;
            };
            if g.register_with_role(partner).is_none() {
                self.diags.push(
                    Diagnostic::error(
                        "missing-role",
                        format!(
                            "`{}` has role `{}` but no register of `{}` has role `{}`",
                            r.name,
                            register_role_word(role),
                            g.id,
                            register_role_word(partner)
                        ),
                        r.role_span.unwrap_or(r.span),
                    )
                    .with_help(format!(
                        "give the matching register `role: {}`",
                        register_role_word(partner)
                    )),
                );
            }
        }
    }

    /// Event select i programs counter i: both families have the same count.
    fn event_select_counts(&mut self) {
        let g = self.g;
        let (Some(sel), Some(ctr)) = (
            g.register_with_role(RegisterRole::EventSelect),
            g.register_with_role(RegisterRole::Counter),
        ) else {
            return;
        };
        if ctr.msr.count != sel.msr.count {
            self.diags.push(
                Diagnostic::error(
                    "counter-count-mismatch",
                    format!(
                        "`{}` has {} counters but `{}` has {} event selects in `{}`",
                        ctr.name, ctr.msr.count, sel.name, sel.msr.count, g.id
                    ),
                    ctr.span,
                )
                .with_label(format!("{} counters", ctr.msr.count))
                .with_secondary(sel.span, format!("{} event selects", sel.msr.count))
                .with_note(
                    "event select i programs counter i: give both families the same `count`",
                ),
            );
        }
    }

    fn field_roles(&mut self, r: &Register) {
        for (i, f) in r.fields.iter().enumerate() {
            if let Some(kind) = f.per_counter {
                self.per_counter(r, f, kind);
            }
            let Some(role) = f.role else { continue };
            let span = f.role_span.unwrap_or(f.span);
            let allowed = role.register_roles();
            if role.is_cpuid() {
                self.diags.push(Diagnostic::error(
                    "misplaced-role",
                    format!(
                        "field role `{}` belongs to a CPUID field, but `{}` is a field of MSR `{}`",
                        field_role_word(role),
                        f.name,
                        r.name
                    ),
                    span,
                ));
                continue;
            }
            if !r.role.is_some_and(|rr| allowed.contains(&rr)) {
                let words: Vec<&str> = allowed.iter().map(|&a| register_role_word(a)).collect();
                self.diags.push(
                    Diagnostic::error(
                        "misplaced-role",
                        format!(
                            "field role `{}` belongs to a register with role {}, but `{}` has {}",
                            field_role_word(role),
                            words
                                .iter()
                                .map(|w| format!("`{w}`"))
                                .collect::<Vec<_>>()
                                .join(" or "),
                            r.name,
                            r.role.map_or("no role".to_owned(), |x| format!(
                                "role `{}`",
                                register_role_word(x)
                            )),
                        ),
                        span,
                    )
                    .with_secondary(r.span, "in this register"),
                );
            }
            if let Some(first) = r.fields[..i].iter().find(|o| o.role == Some(role)) {
                self.diags.push(
                    Diagnostic::error(
                        "duplicate-role",
                        format!(
                            "fields `{}` and `{}` of `{}` both have role `{}`",
                            first.name,
                            f.name,
                            r.name,
                            field_role_word(role)
                        ),
                        span,
                    )
                    .with_secondary(first.role_span.unwrap_or(first.span), "first one here"),
                );
            }
            if role == FieldRole::Privilege {
                self.privilege_values(r, f, span);
            }
        }
    }

    fn privilege_values(&mut self, r: &Register, f: &Field, span: crate::source::Span) {
        let missing: Vec<&str> = PRIVILEGE_VALUES
            .iter()
            .copied()
            .filter(|v| !f.values.iter().any(|x| x.name == *v))
            .collect();
        if !missing.is_empty() {
            self.diags.push(
                Diagnostic::error(
                    "role-values",
                    format!(
                        "field `{}` of `{}` has role `privilege` but no named value{} {}",
                        f.name,
                        r.name,
                        if missing.len() > 1 { "s" } else { "" },
                        missing
                            .iter()
                            .map(|m| format!("`{m}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    span,
                )
                .with_note(
                    "the run-time layer selects the privilege levels a fixed counter counts at \
                     by these value names: DISABLED, OS (ring 0), USR (rings 1-3), ALL",
                ),
            );
        }
    }

    /// A register family with `per-counter:`: as many instances as the counters of its kind.
    fn per_counter_family(&mut self, r: &Register, kind: CounterKind) {
        let word = counter_kind_word(kind);
        let family_role = match kind {
            CounterKind::General => RegisterRole::Counter,
            CounterKind::Fixed => RegisterRole::FixedCounter,
        };
        let Some(family) = self.g.register_with_role(family_role) else {
            self.diags.push(Diagnostic::error(
                "missing-role",
                format!(
                    "register `{}` is `per-counter: {word}`, but no register of `{}` has role `{}`",
                    r.name,
                    self.g.id,
                    register_role_word(family_role)
                ),
                r.span,
            ));
            return;
        };
        let (have, want) = (r.msr.count, family.msr.count);
        if have != want || !r.msr.indexed {
            self.diags.push(
                Diagnostic::error(
                    "counter-count-mismatch",
                    format!(
                        "register family `{}` has {have} instances but `{}` has {want} counters in `{}`",
                        r.name, family.name, self.g.id
                    ),
                    r.span,
                )
                .with_label(format!("{have} instances, one per counter (`per-counter: {word}`)"))
                .with_secondary(family.span, format!("{want} counters"))
                .with_help(format!(
                    "leave `count` out of `{}`'s `msr:` (a per-counter family follows `{}`), or make it {want}",
                    r.name, family.name
                )),
            );
        }
    }

    fn per_counter(&mut self, r: &Register, f: &Field, kind: CounterKind) {
        let g = self.g;
        let span = f.role_span.unwrap_or(f.span);
        let word = counter_kind_word(kind);
        if f.array.is_none() {
            self.diags.push(
                Diagnostic::error(
                    "misplaced-role",
                    format!(
                        "field `{}` of `{}` is `per-counter: {word}` but is not an array",
                        f.name, r.name
                    ),
                    span,
                )
                .with_help("give it `array: { count: N, stride: S }`, one element per counter"),
            );
            return;
        }
        let family_role = match kind {
            CounterKind::General => RegisterRole::Counter,
            CounterKind::Fixed => RegisterRole::FixedCounter,
        };
        let Some(family) = g.register_with_role(family_role) else {
            self.diags.push(
                Diagnostic::error(
                    "missing-role",
                    format!(
                        "field `{}` of `{}` is `per-counter: {word}`, but no register of `{}` has role `{}`",
                        f.name,
                        r.name,
                        g.id,
                        register_role_word(family_role)
                    ),
                    span,
                ),
            );
            return;
        };
        let (have, want) = (f.count(), family.msr.count);
        if have != want {
            let noun = match kind {
                CounterKind::General => "general-purpose counters",
                CounterKind::Fixed => "fixed counters",
            };
            self.diags.push(
                Diagnostic::error(
                    "counter-count-mismatch",
                    format!(
                        "field array `{}` of `{}` has {have} elements but `{}` has {want} {noun} in `{}`",
                        f.name, r.name, family.name, g.id
                    ),
                    f.span,
                )
                .with_label(format!("{have} elements, one per counter (`per-counter: {word}`)"))
                .with_secondary(family.span, format!("{want} {noun}"))
                .with_help(format!(
                    "leave `count` out of `{}`'s `array:` (a per-counter array follows `{}`), or make it {want}",
                    f.name, family.name
                )),
            );
        }
    }
}

impl Validator<'_> {
    /// `detect:` names a CPUID field of the generation, with a minimum that fits it; roles on
    /// CPUID fields are CPUID roles and each is given once per generation.
    pub(super) fn detect(&mut self) {
        let g = self.g;
        if let Some(d) = &g.detect
            && let Some(c) = &d.cpuid
        {
            let field = g
                .cpuid_leaf(&c.leaf)
                .and_then(|l| l.registers.iter().find(|r| r.register == c.register))
                .and_then(|r| r.fields.iter().find(|f| f.name == c.field));
            match field {
                None => self.diags.push(
                    Diagnostic::error(
                        "unknown-name",
                        format!(
                            "`detect` names CPUID field `{}.{}.{}`, which generation `{}` does not have",
                            c.leaf, c.register, c.field, g.id
                        ),
                        d.span,
                    )
                    .with_help("name a leaf of `cpuid:`, one of its output registers and a field of it"),
                ),
                Some(f) if f.width < 64 && c.at_least >> f.width != 0 => self.diags.push(
                    Diagnostic::error(
                        "value-too-wide",
                        format!(
                            "`detect.at-least` {} does not fit the {}-bit field `{}`",
                            c.at_least, f.width, f.name
                        ),
                        d.span,
                    ),
                ),
                Some(_) => {}
            }
        }
        let mut seen: Vec<(FieldRole, crate::source::Span)> = Vec::new();
        for leaf in &g.cpuid {
            for reg in &leaf.registers {
                for f in &reg.fields {
                    let Some(role) = f.role else { continue };
                    let span = f.role_span.unwrap_or(f.span);
                    if let Some((_, first)) = seen.iter().find(|(r, _)| *r == role) {
                        self.diags.push(
                            Diagnostic::error(
                                "duplicate-role",
                                format!(
                                    "two CPUID fields of `{}` have role `{}`",
                                    g.id,
                                    field_role_word(role)
                                ),
                                span,
                            )
                            .with_secondary(*first, "first one here"),
                        );
                    } else {
                        seen.push((role, span));
                    }
                }
            }
        }
    }
}
