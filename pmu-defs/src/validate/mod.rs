//! Phase 3, validating: semantic checks on resolved generations, what the schema's shape
//! cannot say (the side files' checks too: [`aliases`], [`cpu_names`]).
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
mod events;
mod names;
mod registers;
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

/// `IA32_PERFEVTSEL2` for instance 2 of a family, the plain name otherwise.
fn instance(r: &Register, i: u32) -> String {
    if r.msr.indexed {
        format!("{}{i}", r.name)
    } else {
        r.name.clone()
    }
}
