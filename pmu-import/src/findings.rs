//! Reviewed findings: loader warnings about Intel's data that were looked at and are
//! acceptable, written into the models as `allow:` entries.

use crate::outcome::CoreModel;
use crate::report::{Issue, Level};
use pmu_defs::load::de::is_event_name;
use std::collections::BTreeMap;

/// Keys of an entry of a reviewed-findings file.
pub const REVIEWED_KEYS: &[&str] = &["generation", "events", "code", "reason"];

/// Warnings the loader reports about Intel's data that were looked at and are acceptable as
/// Intel gives them, each with the reason: the importer writes them into the models as `allow:`
/// entries on the events (so the loader reports them acknowledged, in one summary line).
///
/// Read from a small hand-edited YAML file ([`parse_reviewed`]; the project's is
/// `pmu-defs/import/reviewed.yaml`), a list of entries:
///
/// ```yaml
/// - generation: intel-goldmont          # the model's generation id
///   events: [INST_RETIRED.ANY]          # its events the finding is about
///   code: counter-not-in-event          # the warning (one an event's `allow:` takes)
///   reason: Intel's list gives ...      # why it is acceptable: facts and your own words
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reviewed {
    /// The file the entries come from, as issues name it.
    pub file: String,
    /// The entries, in file order.
    pub entries: Vec<ReviewedEntry>,
}

/// One entry of a [`Reviewed`] file: one finding on one or more events of a generation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewedEntry {
    /// The generation id (`intel-goldmont`).
    pub generation: String,
    /// The events, each with the 1-based line and column of its name in the file.
    pub events: Vec<(String, (usize, usize))>,
    /// The warning's code.
    pub code: &'static str,
    /// Why it is acceptable (whitespace runs read as one space: one line in the YAML).
    pub reason: String,
    /// 1-based line and column of the entry.
    pub at: (usize, usize),
}

/// Reads a reviewed-findings file (see [`Reviewed`]). Every problem is an error at its
/// `file:line:col`: keys, a generation id or event name that is not one, a code an event's
/// `allow:` does not take (unknown, an error's, another kind's warning), an empty reason, and
/// one finding listed twice for one event.
pub fn parse_reviewed(name: &str, text: &str, issues: &mut Vec<Issue>) -> Reviewed {
    use pmu_defs::load::de::{Cx, EVENT_RULE, GENERATION_RULE, is_generation_id};
    let mut sources = pmu_defs::Sources::new();
    let file = sources.add(name, text);
    let mut diags = pmu_defs::Diagnostics::unbounded();
    let mut out = Reviewed {
        file: name.to_owned(),
        entries: Vec::new(),
    };
    let pos = |sources: &pmu_defs::Sources, span: pmu_defs::Span| {
        let lc = sources.line_col(span);
        (lc.line, lc.col)
    };
    if let Some(root) =
        pmu_defs::load::yaml::parse(file, text, pmu_defs::Limits::default(), &mut diags)
    {
        let mut cx = Cx { diags: &mut diags };
        // No findings is `[]`.
        let items = cx.seq(&root, "reviewed findings");
        let mut seen: BTreeMap<(String, String, &str), pmu_defs::Span> = BTreeMap::new();
        for item in items.unwrap_or_default() {
            let Some(m) = cx.map(item, "reviewed finding", REVIEWED_KEYS) else {
                continue;
            };
            let generation = cx.req(&m, "generation", "reviewed finding", |c, n| {
                c.name(n, "generation id", is_generation_id, GENERATION_RULE)
            });
            let events = cx.req(&m, "events", "reviewed finding", |c, n| {
                Some(c.names(n, "event name", is_event_name, EVENT_RULE))
            });
            let code = cx.req(&m, "code", "reviewed finding", |c, n| {
                c.allow_code(n, "event", pmu_defs::diag::EVENT_WARNINGS)
            });
            let reason = cx.req(&m, "reason", "reviewed finding", |c, n| c.text(n));
            let reason = reason.and_then(|r| {
                let words: Vec<&str> = r.value.split_whitespace().collect();
                if words.is_empty() {
                    cx.push(
                        pmu_defs::Diagnostic::error(
                            "invalid-allow",
                            "a reviewed finding with an empty reason",
                            r.span,
                        )
                        .with_help("say why the warning is acceptable as Intel gives it"),
                    );
                    return None;
                }
                Some(words.join(" "))
            });
            let (Some(generation), Some(events), Some(code), Some(reason)) =
                (generation, events, code, reason)
            else {
                continue;
            };
            for e in &events {
                let key = (generation.value.clone(), e.value.clone(), code.value);
                if let Some(first) = seen.get(&key) {
                    cx.push(
                        pmu_defs::Diagnostic::error(
                            "invalid-allow",
                            format!(
                                "`{}` of `{}` is reviewed for `{}` twice",
                                e.value, generation.value, code.value
                            ),
                            e.span,
                        )
                        .with_secondary(*first, "first here"),
                    );
                } else {
                    seen.insert(key, e.span);
                }
            }
            out.entries.push(ReviewedEntry {
                generation: generation.value,
                events: events
                    .iter()
                    .map(|e| (e.value.clone(), pos(&sources, e.span)))
                    .collect(),
                code: code.value,
                reason,
                at: pos(&sources, item.span),
            });
        }
    }
    for d in diags.into_vec() {
        let mut message = d.message.clone();
        for n in &d.notes {
            message.push_str(&format!("; {n}"));
        }
        let level = d.severity;
        issues.push(Issue::new(
            level,
            name,
            Some(pos(&sources, d.span())),
            message,
        ));
    }
    out
}

impl Reviewed {
    /// The findings of generation `id`: event name → (code, reason) entries.
    pub fn allows(&self, id: &str) -> BTreeMap<&str, Vec<(&str, &str)>> {
        let mut out: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::new();
        for r in self.entries.iter().filter(|r| r.generation == id) {
            for (e, _) in &r.events {
                let list = out.entry(e.as_str()).or_default();
                if !list.iter().any(|(c, _)| *c == r.code) {
                    list.push((r.code, r.reason.as_str()));
                }
            }
        }
        out
    }

    /// Warnings for entries that name what `models` do not have: an event missing from its
    /// generation, and, with `whole` (the import of a whole corpus), a generation not
    /// imported.
    pub fn check(&self, models: &[CoreModel], whole: bool, issues: &mut Vec<Issue>) {
        for r in &self.entries {
            let Some(m) = models.iter().find(|m| m.id == r.generation) else {
                if whole {
                    issues.push(Issue::new(
                        Level::Warning,
                        &self.file,
                        Some(r.at),
                        format!(
                            "reviewed finding for `{}`, which this import does not write (is its source gone?); the entry is unused",
                            r.generation
                        ),
                    ));
                }
                continue;
            };
            for (e, at) in &r.events {
                let found = m
                    .origins
                    .binary_search_by(|o| o.name.as_str().cmp(e.as_str()))
                    .is_ok();
                if !found {
                    issues.push(Issue::new(
                        Level::Warning,
                        &self.file,
                        Some(*at),
                        format!(
                            "`{}` has no event `{e}` (is it gone from Intel's list?); the reviewed finding is unused",
                            r.generation
                        ),
                    ));
                }
            }
        }
    }
}
