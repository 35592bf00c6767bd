//! Semantic checks on resolved generations: what the schema's shape cannot say.
//!
//! A fault inherited from an ancestor is found again, at the same places, in every
//! descendant; it is reported for the ancestor only. Faults that first appear in a child
//! (an inherited event naming a counter the child no longer has) are reported for the child.

use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::load::de::did_you_mean;
use crate::model::*;
use crate::source::Span;
use std::collections::{HashMap, HashSet};

pub mod aliases;
pub mod cpu_names;
mod names;
mod roles;
pub use roles::{counter_kind_word, field_role_word, register_role_word};

/// Checks every generation of a model (parents come before children in `model`).
///
/// A warning about an event whose `allow:` names the warning's code is reported
/// acknowledged, with the entry's reason ([`Diagnostic::acknowledged`]); an `allow:` entry
/// that acknowledges nothing in any generation is an `unused-allow` warning.
pub fn validate(model: &Model, diags: &mut Diagnostics) {
    type Key = (&'static str, Vec<Span>);
    let mut seen: HashMap<&str, Vec<Key>> = HashMap::new();
    let mut used: HashSet<Span> = HashSet::new();
    for g in &model.generations {
        let mut local = Diagnostics::unbounded();
        Validator {
            g,
            diags: &mut local,
        }
        .run();
        let inherited: HashSet<&Key> = g
            .ancestors
            .iter()
            .filter_map(|a| seen.get(a.as_str()))
            .flatten()
            .collect();
        // A warning's subject is the event at whose name it is reported.
        let allows: HashMap<Span, &[Allow]> = g
            .events
            .iter()
            .filter(|e| !e.allow.is_empty())
            .map(|e| (e.span, e.allow.as_slice()))
            .collect();
        let mut keys = Vec::new();
        for mut d in local.into_vec() {
            let key: Key = (d.code, d.labels.iter().map(|l| l.span).collect());
            if d.severity == Severity::Warning
                && let Some(a) = allows
                    .get(&d.span())
                    .and_then(|list| list.iter().find(|a| a.code == d.code))
            {
                used.insert(a.span);
                d = d.acknowledge(a.reason.clone());
            }
            if !inherited.contains(&key) {
                diags.push(d);
            }
            keys.push(key);
        }
        seen.insert(&g.id, keys);
    }
    unused_allows(model, &used, diags);
    names::model(model, diags);
    deprecations(model, diags);
    perfmon_cores(model, diags);
}

/// `perfmon-cores:`: each list names one parent in all definitions, and only a generation
/// that is not itself a CPU model can be one (the importer writes the models).
fn perfmon_cores(model: &Model, diags: &mut Diagnostics) {
    // Perfmon file names are matched without regard to case (`NehalemEP_core`).
    let mut first: HashMap<String, (&str, Span)> = HashMap::new();
    for g in &model.generations {
        for (core, &span) in g.perfmon_cores.iter().zip(&g.perfmon_core_spans) {
            if !g.cpus.is_empty() {
                diags.push(
                    Diagnostic::error(
                        "perfmon-core-in-model",
                        format!(
                            "`{}` describes CPU models (`cpus:`) and cannot be the parent of the imported `{core}`",
                            g.id
                        ),
                        span,
                    )
                    .with_label("in a CPU-model generation")
                    .with_help("name the list in the microarchitecture generation the model extends"),
                );
                continue;
            }
            match first.get(&core.to_ascii_lowercase()) {
                Some(&(other, at)) => diags.push(
                    Diagnostic::error(
                        "duplicate-perfmon-core",
                        format!(
                            "perfmon core list `{core}` is claimed by `{}` and by `{other}`: its imported generation can extend only one",
                            g.id
                        ),
                        span,
                    )
                    .with_label("claimed again here")
                    .with_secondary(at, "first claimed here"),
                ),
                None => {
                    first.insert(core.to_ascii_lowercase(), (&g.id, span));
                }
            }
        }
    }
}

/// Every `allow:` entry that acknowledged no warning (`used` holds the spans of those that
/// did), reported once where it is written.
fn unused_allows(model: &Model, used: &HashSet<Span>, diags: &mut Diagnostics) {
    let mut done = HashSet::new();
    for g in &model.generations {
        for e in &g.events {
            for a in &e.allow {
                if used.contains(&a.span) || !done.insert(a.span) {
                    continue;
                }
                diags.push(
                    Diagnostic::warning(
                        "unused-allow",
                        format!(
                            "event `{}` acknowledges `{}`, but it has no such warning",
                            e.name, a.code
                        ),
                        a.span,
                    )
                    .with_label("acknowledges nothing")
                    .with_help("remove the entry: the finding it acknowledged is gone"),
                );
            }
        }
    }
}

/// `deprecated: { since: X }` names the generation that writes it or one it extends: a
/// generation cannot speak for a later one (version 5 deprecates AnyThread in its own file,
/// as an override of the field version 3 defines). Checked once, in the generation whose
/// file writes it.
fn deprecations(model: &Model, diags: &mut Diagnostics) {
    let mut done = HashSet::new();
    for g in &model.generations {
        let fields = g
            .registers
            .iter()
            .flat_map(|r| r.fields.iter().map(move |f| (r.name.as_str(), f)));
        for (owner, f) in fields {
            let Some(d) = &f.deprecated else { continue };
            if d.span.file != g.span.file || !done.insert(d.span) {
                continue;
            }
            let Some(since) = model.generation(&d.since) else {
                diags.push(
                    Diagnostic::error(
                        "unknown-generation",
                        format!(
                            "field `{}` of `{owner}` is deprecated since `{}`, which is not defined",
                            f.name, d.since
                        ),
                        d.span,
                    )
                    .with_label("no generation has this id"),
                );
                continue;
            };
            if since.id != g.id && !g.ancestors.contains(&since.id) {
                let later = since.ancestors.contains(&g.id);
                diags.push(
                    Diagnostic::error(
                        "deprecated-since",
                        format!(
                            "field `{}` of `{owner}` is deprecated since `{}`, which is not `{}` or a generation it extends",
                            f.name, d.since, g.id
                        ),
                        d.span,
                    )
                    .with_label(if later {
                        "a later generation"
                    } else {
                        "not on this generation's `extends` chain"
                    })
                    .with_help(if later {
                        format!(
                            "state the deprecation in `{}`'s own file, as an override of the field",
                            d.since
                        )
                    } else {
                        format!("name `{}` or a generation it extends", g.id)
                    }),
                );
            }
        }
    }
}

struct Validator<'a> {
    g: &'a Generation,
    diags: &'a mut Diagnostics,
}

fn bits_text(f: &Field) -> String {
    f.bits
        .iter()
        .map(|b| {
            if b.lsb == b.msb {
                b.lsb.to_string()
            } else {
                format!("{}:{}", b.msb, b.lsb)
            }
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

/// "general counters 0, 1 and fixed counter 2", for messages.
/// The set bits of `mask` as runs: `3, 4, 46:47` style (`hi:lo` for a run).
fn bit_list(mask: u64) -> String {
    let mut runs = Vec::new();
    let mut b = 0;
    while b < 64 {
        if mask >> b & 1 == 0 {
            b += 1;
            continue;
        }
        let lo = b;
        while b < 64 && mask >> b & 1 == 1 {
            b += 1;
        }
        runs.push(if b - 1 == lo {
            lo.to_string()
        } else {
            format!("{}:{lo}", b - 1)
        });
    }
    runs.join(", ")
}

fn describe_counters(general: &[u32], fixed: Option<u32>) -> String {
    let mut parts = Vec::new();
    if !general.is_empty() {
        let list: Vec<String> = general.iter().map(u32::to_string).collect();
        parts.push(format!("general counters {}", list.join(", ")));
    }
    if let Some(f) = fixed {
        parts.push(format!("fixed counter {f}"));
    }
    if parts.is_empty() {
        "no counter".to_owned()
    } else {
        parts.join(" and ")
    }
}

impl<'a> Validator<'a> {
    fn run(&mut self) {
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

    fn fields(&mut self, fields: &[Field], width: u32, owner: &str) {
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
    fn instances(&mut self) {
        let g = self.g;
        for r in &g.registers {
            for f in &r.fields {
                let (Some(list), Some(span)) = (&f.instances, f.instances_span) else {
                    continue;
                };
                let problem = if !r.msr.indexed {
                    Some(format!(
                        "`{}` is one MSR, not a family: field `{}` cannot be limited to instances",
                        r.name, f.name
                    ))
                } else if f.width != 1 || f.array.is_some() {
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
                    self.diags.push(
                        Diagnostic::error("field-instances", msg, span)
                            .with_secondary(r.span, "the register"),
                    );
                }
            }
        }
    }

    fn addresses(&mut self) {
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
    fn cpuid_leaves(&mut self) {
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
    fn pmu(&mut self) {
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

    fn select_field(&self, attr: &str) -> Option<&Field> {
        let sel = self.g.register(&self.g.pmu.general.as_ref()?.select)?;
        sel.field(self.g.pmu.encoding_field(attr)?)
    }

    fn events(&mut self) {
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
                        self.diags.push(
                            Diagnostic::error(
                                "value-too-wide",
                                format!("event `{}`: {attr} {value:#x} does not fit the {}-bit field `{}`", e.name, f.width, f.name),
                                e.span,
                            )
                            .with_label(format!("{attr} is at most {:#x} in `{}`", (1u64 << f.width) - 1, g.id)),
                        );
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
    fn alternatives(&mut self, e: &Event) {
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
    fn aux_msr(&mut self, e: &Event) {
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
    fn counter_sets(&mut self, e: &Event, gp: u32, fx: u32) {
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

    fn constraints(&mut self) {
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

/// `IA32_PERFEVTSEL2` for instance 2 of a family, the plain name otherwise.
fn instance(r: &Register, i: u32) -> String {
    if r.msr.indexed {
        format!("{}{i}", r.name)
    } else {
        r.name.clone()
    }
}
