//! Phase 2, resolving: applies `extends` chains, turning the raw generations of
//! [`crate::load`] into the [`crate::model`]'s types. A child starts from its parent's
//! resolved model; each entry it lists either changes the same-named entry (only the keys it
//! gives) or adds a new one; `remove:` and `remove-fields:` drop entries; `renames:` continues
//! a register under a new name.
//!
//! Errors name the child's file; a generation whose parent is missing or part of a cycle is
//! reported once and skipped, and so are its descendants (no cascade).

use crate::diag::{Diagnostic, Diagnostics};
use crate::load::de::{Spanned, did_you_mean};
use crate::load::raw::*;
use crate::model::*;
use crate::source::Span;
use std::collections::HashMap;

mod entries;
mod generation;
mod per_counter;
mod registers;

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
        requires,
        count_from,
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
        && requires.is_none()
        && count_from.is_none()
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
