//! Reading the rest of a generation file: CPUID leaves, counter sets, events (with their
//! `allow:` lists), constraints and `remove:`.

use super::*;

impl Cx<'_> {
    pub(super) fn cpuid(&mut self, n: &Node) -> Option<RawCpuid> {
        let m = self.map(n, "CPUID leaf", CPUID_KEYS)?;
        let name = self.req(&m, "name", "CPUID leaf", |c, n| {
            c.ident(n, "CPUID leaf name")
        });
        let leaf = self.opt(&m, "leaf", |c, n| {
            c.uint_max(n, CPUID_INPUT_MAX, "CPUID leaf")
        });
        if m.has("leaf") && leaf.is_none() {
            return None;
        }
        let subleaf = self.opt(&m, "subleaf", |c, n| {
            c.uint_max(n, CPUID_INPUT_MAX, "CPUID subleaf")
        });
        let doc = self.opt(&m, "doc", Self::text);
        let manual = self.opt(&m, "manual", Self::text);
        let mut regs = Vec::new();
        for r in CPUID_REGS {
            if let Some(list) = m.get(r) {
                let span = m.key_span(r).unwrap_or(list.span);
                let fields = match self.seq(list, "fields") {
                    Some(items) => items.iter().filter_map(|i| self.field(i)).collect(),
                    None => Vec::new(),
                };
                regs.push((Spanned::new((*r).to_owned(), span), fields));
            }
        }
        Some(RawCpuid {
            name: name?,
            leaf,
            subleaf,
            doc,
            manual,
            regs,
        })
    }

    /// A list of counter numbers and `low-high` ranges. A list with a bad item is dropped whole
    /// (reported), so it cannot read as "no counters".
    pub(super) fn counter_list(
        &mut self,
        n: &Node,
        what: &str,
    ) -> Option<Spanned<Vec<Spanned<u64>>>> {
        let items = self.seq(n, what)?;
        let errors_before = self.diags.error_count();
        let mut out = Vec::new();
        for i in items {
            // `0-3` ranges are accepted besides single numbers.
            if let Kind::Scalar(s, _) = &i.kind
                && let Some((a, b)) = s.split_once('-')
            {
                match (
                    crate::load::de::parse_uint(a),
                    crate::load::de::parse_uint(b),
                ) {
                    (Some(a), Some(b)) if a <= b && b < 64 => {
                        out.extend((a..=b).map(|v| Spanned::new(v, i.span)));
                    }
                    _ => self.push(
                        Diagnostic::error(
                            "invalid-value",
                            format!("`{s}` is not a counter range"),
                            i.span,
                        )
                        .with_help("write a number or a range low-high such as `0-3`"),
                    ),
                }
                continue;
            }
            if let Some(v) = self.uint(i) {
                out.push(v);
            }
        }
        (self.diags.error_count() == errors_before).then(|| Spanned::new(out, n.span))
    }

    /// `[0-3]` (general counters) or `{ general: [0-3], fixed: [0] }`.
    pub(super) fn counter_set(&mut self, n: &Node) -> Option<RawCounterSet> {
        if let Kind::Map(_) = n.kind {
            let m = self.map(n, "counter set", COUNTER_SET_KEYS)?;
            let general = self.opt(&m, "general", |c, n| {
                c.counter_list(n, "general counter numbers")
            });
            let fixed = self.opt(&m, "fixed", |c, n| {
                c.counter_list(n, "fixed counter numbers")
            });
            if (m.has("general") && general.is_none()) || (m.has("fixed") && fixed.is_none()) {
                return None;
            }
            return Some(RawCounterSet {
                span: n.span,
                general: general.map(|g| g.value).unwrap_or_default(),
                fixed: fixed.map(|f| f.value).unwrap_or_default(),
            });
        }
        let general = self.counter_list(n, "counter numbers (or `{ general, fixed }`)")?;
        Some(RawCounterSet {
            span: n.span,
            general: general.value,
            fixed: Vec::new(),
        })
    }

    /// One number, or a non-empty list of them: the first and the rest.
    pub(super) fn one_or_more(
        &mut self,
        n: &Node,
        what: &str,
        max: u64,
    ) -> Option<(Spanned<u64>, Vec<Spanned<u64>>)> {
        let Kind::Seq(items) = &n.kind else {
            return self.uint_max(n, max, what).map(|v| (v, Vec::new()));
        };
        if items.is_empty() {
            self.push(
                Diagnostic::error("invalid-value", format!("an empty list of {what}s"), n.span)
                    .with_help("write one number, or a list whose first entry is the main one"),
            );
            return None;
        }
        let vals: Vec<_> = items.iter().map(|i| self.uint_max(i, max, what)).collect();
        if vals.iter().any(Option::is_none) {
            return None;
        }
        let mut vals = vals.into_iter().flatten();
        let first = vals.next()?;
        Some((first, vals.collect()))
    }

    pub(super) fn event(&mut self, n: &Node) -> Option<RawEvent> {
        let m = self.map(n, "event", EVENT_KEYS)?;
        let name = self.req(&m, "name", "event", |c, n| {
            c.name(n, "event name", is_event_name, EVENT_RULE)
        });
        let all_counters = m
            .get("counters")
            .filter(|n| matches!(&n.kind, Kind::Scalar(s, _) if s == "all"))
            .map(|n| n.span);
        let counters = self.opt(&m, "counters", |c, n| {
            if all_counters.is_some() {
                return None;
            }
            c.counter_list(n, "counter numbers (or `all`)")
        });
        let msr = self.opt(&m, "msr", |c, n| {
            let mm = c.map(n, "event msr", EVENT_MSR_KEYS)?;
            let index = c.req(&mm, "index", "event msr", |c, n| {
                c.one_or_more(n, "MSR address", MSR_ADDRESS_MAX)
            });
            let value = c.req(&mm, "value", "event msr", |c, n| c.uint(n));
            let (index, alt_indexes) = index?;
            Some(Spanned::new(
                RawEventMsr {
                    index,
                    alt_indexes,
                    value: value?,
                },
                n.span,
            ))
        });
        let event = self.opt(&m, "event", |c, n| c.one_or_more(n, "event code", u64::MAX));
        let umask = self.opt(&m, "umask", |c, n| c.one_or_more(n, "unit mask", u64::MAX));
        let sets: Vec<Option<RawCounterSet>> = COUNTER_SET_EVENT_KEYS
            .iter()
            .map(|k| self.opt(&m, k, Self::counter_set))
            .collect();
        let bad_set = COUNTER_SET_EVENT_KEYS
            .iter()
            .zip(&sets)
            .any(|(k, s)| m.has(k) && s.is_none());
        let bad_counters = m.has("counters") && counters.is_none() && all_counters.is_none();
        let bad_msr = m.has("msr") && msr.is_none();
        let bad_umask = m.has("umask") && umask.is_none();
        if (m.has("event") && event.is_none()) || bad_counters || bad_set || bad_msr || bad_umask {
            // Reported already; keeping the entry would add "missing `event`", "no counter" or
            // an override that silently keeps the inherited value.
            return None;
        }
        let mut sets = sets.into_iter();
        let mut flags = Vec::new();
        for flag in crate::vocab::EVENT_FLAGS {
            if let Some(v) = self.opt(&m, flag.key, Self::boolean) {
                flags.push((flag, v));
            }
        }
        let sample_after = self.opt(&m, "sample-after", Self::uint);
        if let Some(s) = &sample_after
            && s.value == 0
        {
            self.push(
                Diagnostic::error("out-of-range", "a sample-after period of 0", s.span).with_label(
                    "the counter would overflow on every event; the period must be at least 1",
                ),
            );
        }
        let ev = RawEvent {
            name: name?,
            event: event.as_ref().map(|e| e.0.clone()),
            alt_events: event.map(|e| e.1),
            umask: umask.as_ref().map(|u| u.0.clone()),
            alt_umasks: umask.map(|u| u.1),
            umask2: self.opt(&m, "umask2", Self::uint),
            eq: self.opt(&m, "eq", Self::boolean),
            cmask: self.opt(&m, "cmask", Self::uint),
            inv: self.opt(&m, "inv", Self::boolean),
            edge: self.opt(&m, "edge", Self::boolean),
            any: self.opt(&m, "any", Self::boolean),
            counters,
            all_counters,
            fixed: self.opt(&m, "fixed", Self::uint),
            counters_ht_off: sets.next().flatten(),
            pebs_counters: sets.next().flatten(),
            pdist_counters: sets.next().flatten(),
            pdir_counters: sets.next().flatten(),
            cpuid_bit: self.opt(&m, "cpuid-bit", |c, n| {
                c.uint_max(n, CPUID_BIT_MAX, "CPUID bit")
            }),
            msr,
            pebs: self.opt(&m, "pebs", |c, n| c.uint_max(n, PEBS_MAX, "PEBS level")),
            collect_pebs_record: self.opt(&m, "collect-pebs-record", |c, n| {
                c.uint_max(n, COLLECT_PEBS_RECORD_MAX, "PEBS record level")
            }),
            flags,
            errata: m
                .get("errata")
                .map(|n| self.names(n, "erratum id", is_ident, IDENT_RULE)),
            sample_after: sample_after.filter(|s| s.value != 0),
            doc: self.opt(&m, "doc", Self::text),
            allow: m
                .get("allow")
                .map(|n| self.allow(n, "event", crate::diag::EVENT_WARNINGS)),
        };
        Some(ev)
    }

    /// An `allow:` list on an entry of kind `what` ("event"), whose warnings are `codes`: each
    /// entry a code of one of them and a reason. An unknown code, an error's code, a warning
    /// not reported about this kind of entry, a code listed twice and an empty reason are
    /// `invalid-allow` errors (the entry is dropped).
    pub fn allow(&mut self, n: &Node, what: &str, codes: &[&'static str]) -> Vec<RawAllow> {
        let Some(items) = self.seq(n, "`allow:` entries") else {
            return Vec::new();
        };
        let mut out: Vec<RawAllow> = Vec::new();
        for item in items {
            let Some(m) = self.map(item, "allow entry", ALLOW_KEYS) else {
                continue;
            };
            let code = self.req(&m, "code", "allow entry", |c, n| {
                c.allow_code(n, what, codes)
            });
            let reason = self.req(&m, "reason", "allow entry", Self::text);
            if let Some(r) = &reason
                && r.value.trim().is_empty()
            {
                self.push(
                    Diagnostic::error("invalid-allow", "an `allow:` entry with an empty reason", r.span)
                        .with_label("no reason given")
                        .with_help("say why the warning is acceptable: the entry is how a reader learns it was reviewed"),
                );
                continue;
            }
            let (Some(code), Some(reason)) = (code, reason) else {
                continue;
            };
            if let Some(first) = out.iter().find(|a| a.code.value == code.value) {
                self.push(
                    Diagnostic::error(
                        "invalid-allow",
                        format!("`{}` is acknowledged twice on this {what}", code.value),
                        code.span,
                    )
                    .with_label("second entry")
                    .with_secondary(first.code.span, "first entry")
                    .with_help("give each code once, with one reason"),
                );
                continue;
            }
            out.push(RawAllow { code, reason });
        }
        out
    }

    /// The `code:` of an `allow:` entry on an entry of kind `what`: one of `codes` (an
    /// `invalid-allow` error otherwise, saying whether the code is unknown, an error's, or a
    /// warning reported about something else).
    pub fn allow_code(
        &mut self,
        n: &Node,
        what: &str,
        codes: &[&'static str],
    ) -> Option<Spanned<&'static str>> {
        let Kind::Scalar(s, _) = &n.kind else {
            self.push(
                Diagnostic::error(
                    "type-mismatch",
                    format!("expected a diagnostic code, found {}", n.describe()),
                    n.span,
                )
                .with_label("expected a diagnostic code"),
            );
            return None;
        };
        if let Some(code) = codes.iter().find(|c| **c == s.as_str()) {
            return Some(Spanned::new(code, n.span));
        }
        let which = codes.join(", ");
        let d = match crate::diag::severity_of(s) {
            None => {
                let mut d = Diagnostic::error(
                    "invalid-allow",
                    format!("`{s}` is not a diagnostic code"),
                    n.span,
                )
                .with_label("no diagnostic has this code");
                if let Some(near) = did_you_mean(s, crate::diag::CODES.iter().map(|(c, _)| *c)) {
                    d = d.with_help(format!("did you mean `{near}`?"));
                }
                d.with_note(format!("an {what}'s `allow:` may acknowledge: {which}"))
            }
            Some(crate::diag::Severity::Error) => Diagnostic::error(
                "invalid-allow",
                format!("`{s}` is an error: only warnings can be acknowledged"),
                n.span,
            )
            .with_label("an error cannot be allowed")
            .with_help("correct the definition instead"),
            Some(crate::diag::Severity::Warning) => Diagnostic::error(
                "invalid-allow",
                format!("`{s}` is never reported about an {what}: an {what}'s `allow:` cannot acknowledge it"),
                n.span,
            )
            .with_label(format!("not a warning about an {what}"))
            .with_note(format!("an {what}'s `allow:` may acknowledge: {which}")),
        };
        self.push(d);
        None
    }

    pub(super) fn constraint(&mut self, n: &Node) -> Option<RawConstraint> {
        let m = self.map(n, "constraint", CONSTRAINT_KEYS)?;
        let id = self.req(&m, "id", "constraint", |c, n| {
            c.name(n, "constraint id", is_generation_id, GENERATION_RULE)
        });
        let register = self.opt(&m, "register", |c, n| c.ident(n, "register name"));
        let mut when = Vec::new();
        if let Some(w) = m.get("when") {
            match &w.kind {
                Kind::Map(entries) if !entries.is_empty() => {
                    for (k, v) in entries {
                        let key = crate::load::yaml::Node {
                            span: k.span,
                            kind: Kind::Scalar(k.name.clone(), crate::load::yaml::Style::Quoted),
                        };
                        if let (Some(f), Some(val)) = (self.ident(&key, "field name"), self.uint(v))
                        {
                            when.push((f, val));
                        }
                    }
                }
                _ => self.push(
                    Diagnostic::error(
                        "type-mismatch",
                        "`when` maps field names to the values that trigger it",
                        w.span,
                    )
                    .with_help("for example `when: { INV: 1, CMASK: 0 }`"),
                ),
            }
        }
        let severity = self.opt(&m, "severity", |c, n| {
            c.keyword(n, "severity", SEVERITY_WORDS)
        });
        let message = self.opt(&m, "message", Self::text);
        let manual = self.opt(&m, "manual", Self::text);
        Some(RawConstraint {
            id: id?,
            register,
            when,
            severity,
            message,
            manual,
        })
    }

    pub(super) fn remove(&mut self, n: &Node) -> Option<RawRemove> {
        let m = self.map(n, "remove", REMOVE_KEYS)?;
        let mut r = RawRemove::default();
        if let Some(v) = m.get("registers") {
            r.registers = self.names(v, "register name", is_ident, IDENT_RULE);
        }
        if let Some(v) = m.get("cpuid") {
            r.cpuid = self.names(v, "CPUID leaf name", is_ident, IDENT_RULE);
        }
        if let Some(v) = m.get("events") {
            r.events = self.names(v, "event name", is_event_name, EVENT_RULE);
        }
        if let Some(v) = m.get("constraints") {
            r.constraints = self.names(v, "constraint id", is_generation_id, GENERATION_RULE);
        }
        if let Some(v) = m.get("generic-events") {
            r.generic_events = self.names(v, "generic event name", is_generic_event, GENERIC_RULE);
        }
        Some(r)
    }
}
