//! Reading a generation file's tree into [`RawGeneration`]: the generation's own keys, its
//! `detect:` and `cpus:`, the PMU encoding, registers, bit ranges and fields.

use super::*;

impl Cx<'_> {
    pub(super) fn ident(&mut self, n: &Node, what: &str) -> Option<Spanned<String>> {
        self.name(n, what, is_ident, IDENT_RULE)
    }

    pub(super) fn gen_id(&mut self, n: &Node) -> Option<Spanned<String>> {
        self.name(n, "generation id", is_generation_id, GENERATION_RULE)
    }

    pub(super) fn list<T>(
        &mut self,
        m: &MapReader<'_>,
        key: &str,
        what: &str,
        f: impl Fn(&mut Self, &Node) -> Option<T>,
    ) -> Vec<T> {
        let Some(n) = m.get(key) else {
            return Vec::new();
        };
        let Some(items) = self.seq(n, what) else {
            return Vec::new();
        };
        items.iter().filter_map(|i| f(self, i)).collect()
    }

    /// Reads a whole generation file.
    pub fn generation(&mut self, file: FileId, root: &Node) -> Option<RawGeneration> {
        let m = self.map(root, "generation file", TOP_KEYS)?;
        let id = self.req(&m, "generation", "generation file", Self::gen_id);
        let vendor = self.opt(&m, "vendor", |c, n| c.keyword(n, "vendor", VENDOR_WORDS));
        let title = self.opt(&m, "title", Self::text);
        let manual = self.opt(&m, "manual", Self::text);
        let doc = self.opt(&m, "doc", Self::text);
        let extends = self.opt(&m, "extends", Self::gen_id);
        let pmu = self.opt(&m, "pmu", Self::pmu);
        let registers = self.list(&m, "registers", "registers", Self::register);
        let cpuid = self.list(&m, "cpuid", "CPUID leaves", Self::cpuid);
        let events = self.list(&m, "events", "events", Self::event);
        let constraints = self.list(&m, "constraints", "constraints", Self::constraint);
        let remove = self.opt(&m, "remove", Self::remove).unwrap_or_default();
        let source = self.opt(&m, "source", Self::text);
        let cpus = m.get("cpus").map(|n| self.cpus(n));
        let detect = self.opt(&m, "detect", Self::detect);
        let generic_events = self.opt(&m, "generic-events", Self::generic_events);
        let perfmon_cores = m
            .get("perfmon-cores")
            .map(|n| self.names(n, "perfmon core list", is_perfmon_core, PERFMON_CORE_RULE))
            .unwrap_or_default();
        let mut remove = remove;
        if let Some(span) = m.key_span("remove").filter(|_| !m.has("extends")) {
            // Reported once here; its names are not looked up (nothing could match).
            remove = RawRemove::default();
            self.push(
                Diagnostic::error(
                    "remove-without-parent",
                    "`remove:` in a generation that extends nothing: there is nothing inherited to remove",
                    span,
                )
                .with_label("nothing to remove")
                .with_help("add `extends:` naming the generation whose entries this one drops, or delete the entries themselves"),
            );
        }
        // Only when neither key is written: an invalid value has its own error already.
        if !m.has("extends") && !m.has("vendor") && m.has("generation") {
            self.missing(&m, "vendor", "generation without `extends`");
        }
        Some(RawGeneration {
            file,
            id: id?,
            vendor,
            title,
            manual,
            doc,
            extends,
            pmu,
            registers,
            cpuid,
            events,
            constraints,
            remove,
            source,
            cpus,
            detect,
            perfmon_cores,
            generic_events,
        })
    }

    /// `generic-events:` a `manual:` and an `events:` mapping from perf's generic event names
    /// to the perf terms of the event each counts.
    pub(super) fn generic_events(&mut self, n: &Node) -> Option<RawGenericEvents> {
        let m = self.map(n, "generic-events", GENERIC_EVENTS_KEYS)?;
        let manual = self.opt(&m, "manual", Self::text);
        let names = GENERIC_EVENT_KEYS;
        let mut events = Vec::new();
        match m.get("events") {
            None => self.missing(&m, "events", "generic-events"),
            Some(e) => {
                // Unknown names are reported here, with the nearest perf name.
                let em = self.map(e, "generic events", &names)?;
                for name in &names {
                    let (Some(v), Some(span)) = (em.get(name), em.key_span(name)) else {
                        continue;
                    };
                    if let Some(terms) = self.generic_terms(v) {
                        events.push((Spanned::new((*name).to_owned(), span), terms));
                    }
                }
            }
        }
        Some(RawGenericEvents { manual, events })
    }

    /// The perf terms of a generic event: `event=` and at most `umask=`, `cmask=`, `inv`,
    /// `edge` and `any` (the kernel's tables hold an event-select encoding, nothing else).
    fn generic_terms(&mut self, n: &Node) -> Option<Spanned<String>> {
        let text = self.text(n)?;
        let problem = match Terms::parse(&text.value, 0) {
            Err(e) => Some(e.to_string()),
            Ok(t) if t.config.is_some() || t.config1.is_some() || t.period.is_some() => {
                Some("`config=`, `config1=` and `period=` are not event terms".to_owned())
            }
            Ok(t) if Term::ALL.iter().any(|&x| x.is_aux() && t.get(x).is_some()) => {
                Some("an auxiliary-MSR term has no place in a generic event".to_owned())
            }
            Ok(t) if t.get(Term::Event).is_none() => Some("no `event=` term".to_owned()),
            Ok(_) => None,
        };
        if let Some(why) = problem {
            self.push(
                Diagnostic::error(
                    "invalid-value",
                    format!("not the perf terms of an event: {why}"),
                    text.span,
                )
                .with_label("expected perf terms such as `event=0x2e,umask=0x41`")
                .with_help("write `event=`, and as needed `umask=`, `cmask=`, `inv`, `edge`, `any`, comma-separated"),
            );
            return None;
        }
        Some(text)
    }

    pub(super) fn detect(&mut self, n: &Node) -> Option<Spanned<RawDetect>> {
        let m = self.map(n, "detect", DETECT_KEYS)?;
        let d = RawDetect {
            leaf: self.opt(&m, "leaf", |c, n| c.ident(n, "CPUID leaf name")),
            register: self.opt(&m, "register", |c, n| {
                c.keyword(n, "CPUID output register", CPUID_REG_WORDS)
                    .map(|r| Spanned::new(r.value.to_owned(), r.span))
            }),
            field: self.opt(&m, "field", |c, n| c.ident(n, "field name")),
            at_least: self.opt(&m, "at-least", |c, n| {
                c.uint_max(n, u32::MAX as u64, "value")
            }),
            family_at_least: self.opt(&m, "family-at-least", |c, n| {
                c.uint_max(n, 0x10E, "CPU family")
            }),
        };
        let cpuid_keys = ["leaf", "register", "field", "at-least"];
        let given = cpuid_keys.iter().filter(|k| m.has(k)).count();
        if given != 0 && given != cpuid_keys.len() {
            for k in cpuid_keys.iter().filter(|k| !m.has(k)) {
                self.missing(&m, k, "CPUID condition of `detect`");
            }
            return None;
        }
        if given == 0 && !m.has("family-at-least") {
            self.missing(&m, "leaf", "detect");
            return None;
        }
        Some(Spanned::new(d, n.span))
    }

    /// `cpus:` a non-empty list of CPU models, each named once.
    pub(super) fn cpus(&mut self, n: &Node) -> Vec<RawCpu> {
        let Some(items) = self.seq(n, "CPU models") else {
            return Vec::new();
        };
        if items.is_empty() {
            self.push(
                Diagnostic::error("invalid-value", "an empty list of CPU models", n.span)
                    .with_label("`cpus` says which CPU models the generation describes")
                    .with_help("list at least one, or leave `cpus` out"),
            );
            return Vec::new();
        }
        let mut out: Vec<RawCpu> = Vec::new();
        for i in items {
            let Some(cpu) = self.cpu(i) else { continue };
            let key = |c: &RawCpu| {
                (
                    c.family_model.value.to_ascii_uppercase(),
                    c.core_type.as_ref().map(|t| t.value),
                )
            };
            if let Some(first) = out.iter().find(|c| key(c) == key(&cpu)) {
                let what = match &cpu.core_type {
                    Some(t) => {
                        format!("`{}` with core type {:#x}", cpu.family_model.value, t.value)
                    }
                    None => format!("`{}`", cpu.family_model.value),
                };
                self.push(
                    Diagnostic::error(
                        "duplicate-name",
                        format!("CPU model {what} is listed twice"),
                        cpu.family_model.span,
                    )
                    .with_label("second entry")
                    .with_secondary(first.family_model.span, "first listed here"),
                );
                continue;
            }
            out.push(cpu);
        }
        out
    }

    pub(super) fn cpu(&mut self, n: &Node) -> Option<RawCpu> {
        let m = self.map(n, "CPU model", CPU_KEYS)?;
        let family_model = self.req(&m, "family-model", "CPU model", |c, n| {
            let t = c.text(n)?;
            if is_family_model(&t.value) {
                return Some(t);
            }
            c.push(
                Diagnostic::error(
                    "invalid-value",
                    format!("`{}` is not a CPUID family-model", t.value),
                    t.span,
                )
                .with_label("expected vendor-family-model, family and model in hex")
                .with_help(
                    "write it as Intel's mapfile.csv does: `GenuineIntel-6-4E`, optionally with \
                     a stepping or a set of them: `GenuineIntel-6-55-4`, `GenuineIntel-6-55-[01234]`",
                ),
            );
            None
        });
        let version = self.opt(&m, "version", Self::text);
        let core_type = self.opt(&m, "core-type", |c, n| {
            c.uint_max(n, CORE_TYPE_MAX, "core type")
        });
        let native_model_id = self.opt(&m, "native-model-id", |c, n| {
            c.uint_max(n, NATIVE_MODEL_ID_MAX, "native model id")
        });
        let core_role = self.opt(&m, "core-role", Self::text);
        if (m.has("core-type") && core_type.is_none())
            || (m.has("native-model-id") && native_model_id.is_none())
        {
            return None; // reported; without it the entry would name another CPU
        }
        Some(RawCpu {
            span: n.span,
            family_model: family_model?,
            version,
            core_type,
            native_model_id,
            core_role,
        })
    }

    pub(super) fn pmu(&mut self, n: &Node) -> Option<RawPmu> {
        let m = self.map(n, "pmu", PMU_KEYS)?;
        let mut p = RawPmu {
            span: Some(n.span),
            ..RawPmu::default()
        };
        if let Some(e) = m.get("encoding")
            && let Some(em) = self.map(e, "pmu.encoding", ENCODING_KEYS)
            && let Kind::Map(entries) = &em.node.kind
        {
            for (k, v) in entries {
                if ENCODING_KEYS.contains(&k.name.as_str())
                    && let Some(field) = self.ident(v, "field name")
                {
                    p.encoding
                        .push((Spanned::new(k.name.clone(), k.span), field));
                }
            }
        }
        Some(p)
    }

    pub(super) fn msr(&mut self, n: &Node) -> Option<Spanned<RawMsr>> {
        if let Kind::Map(_) = n.kind {
            let m = self.map(n, "msr family", MSR_FAMILY_KEYS)?;
            let base = self.opt(&m, "base", |c, n| {
                c.uint_max(n, MSR_ADDRESS_MAX, "MSR address")
            });
            let count = self.opt(&m, "count", |c, n| {
                c.uint_max(n, MSR_COUNT_MAX, "register count")
            });
            let stride = self.opt(&m, "stride", |c, n| c.uint_max(n, MSR_STRIDE_MAX, "stride"));
            if let Some(c) = &count
                && c.value == 0
            {
                self.error(
                    "out-of-range",
                    "a register family needs at least one register",
                    c.span,
                );
                return None;
            }
            let bad = |k: &str, v: bool| m.has(k) && !v;
            if bad("base", base.is_some())
                || bad("count", count.is_some())
                || bad("stride", stride.is_some())
            {
                return None; // reported; a partial family would read as an override
            }
            return Some(Spanned::new(
                RawMsr {
                    base: base.map(|b| b.value),
                    count: count.map(|c| c.value),
                    stride: stride.map(|s| s.value),
                    indexed: true,
                },
                n.span,
            ));
        }
        let a = self.uint_max(n, MSR_ADDRESS_MAX, "MSR address")?;
        Some(Spanned::new(
            RawMsr {
                base: Some(a.value),
                count: Some(1),
                stride: Some(1),
                indexed: false,
            },
            a.span,
        ))
    }

    pub(super) fn register(&mut self, n: &Node) -> Option<RawRegister> {
        let m = self.map(n, "register", REGISTER_KEYS)?;
        let name = self.req(&m, "name", "register", |c, n| c.ident(n, "register name"));
        let renames = self.opt(&m, "renames", |c, n| c.ident(n, "register name"));
        let doc = self.opt(&m, "doc", Self::text);
        let manual = self.opt(&m, "manual", Self::text);
        let msr = self.opt(&m, "msr", Self::msr);
        let alias_msr = self.opt(&m, "alias-msr", Self::msr);
        let per_counter = self.opt(&m, "per-counter", |c, n| {
            c.keyword(n, "counter family", COUNTER_KIND_WORDS)
        });
        let width = self.opt(&m, "width", |c, n| c.uint(n));
        if let Some(w) = &width
            && !(1..=64).contains(&w.value)
        {
            self.push(
                Diagnostic::error(
                    "out-of-range",
                    format!("register width {} is not between 1 and 64", w.value),
                    w.span,
                )
                .with_label("MSRs are at most 64 bits wide"),
            );
        }
        let access = self.opt(&m, "access", |c, n| c.keyword(n, "access", ACCESS_WORDS));
        let role = self.opt(&m, "role", |c, n| {
            c.keyword(n, "register role", REGISTER_ROLE_WORDS)
        });
        let reset = self.opt(&m, "reset", Self::uint);
        let requires = self.opt(&m, "requires", Self::text);
        let count_from = self.opt(&m, "count-from", Self::count_from);
        let fields = self.list(&m, "fields", "fields", Self::field);
        let remove_fields = m
            .get("remove-fields")
            .map(|n| self.names(n, "field name", is_ident, IDENT_RULE))
            .unwrap_or_default();
        if m.has("msr") && msr.is_none() {
            // The address was written but is invalid (already reported): without it the entry
            // would also read as "missing `msr`".
            return None;
        }
        if m.has("alias-msr") && alias_msr.is_none() {
            return None; // reported, as for `msr:`
        }
        Some(RawRegister {
            name: name?,
            renames,
            doc,
            manual,
            msr,
            alias_msr,
            per_counter,
            width: width.filter(|w| (1..=64).contains(&w.value)),
            access,
            role,
            reset,
            requires,
            count_from,
            fields,
            remove_fields,
        })
    }

    /// `count-from: { leaf, register, field, as }`: a CPUID field, as `detect:` names one.
    fn count_from(&mut self, n: &Node) -> Option<Spanned<RawCountFrom>> {
        let m = self.map(n, "count-from", COUNT_FROM_KEYS)?;
        let leaf = self.req(&m, "leaf", "count-from", |c, n| {
            c.ident(n, "CPUID leaf name")
        });
        let register = self.req(&m, "register", "count-from", |c, n| {
            c.keyword(n, "CPUID output register", CPUID_REG_WORDS)
                .map(|r| Spanned::new(r.value.to_owned(), r.span))
        });
        let field = self.req(&m, "field", "count-from", |c, n| c.ident(n, "field name"));
        let form = self.opt(&m, "as", |c, n| {
            c.keyword(n, "count form", COUNT_FORM_WORDS)
        });
        let count_from = RawCountFrom {
            leaf: leaf?,
            register: register?,
            field: field?,
            form: form.map_or(CountForm::Count, |f| f.value),
        };
        Some(Spanned::new(count_from, n.span))
    }

    pub(super) fn bit_range(&mut self, n: &Node) -> Option<Spanned<RawBits>> {
        if let Kind::Scalar(s, _) = &n.kind
            && let Some((hi, lo)) = s.split_once(':')
        {
            let hi = crate::load::de::parse_uint(hi);
            let lo = crate::load::de::parse_uint(lo);
            return match (hi, lo) {
                (Some(msb), Some(lsb)) if msb >= lsb && msb < 64 => {
                    Some(Spanned::new(RawBits { lsb, msb }, n.span))
                }
                (Some(msb), Some(lsb)) if msb < lsb => {
                    self.push(
                        Diagnostic::error(
                            "invalid-bits",
                            format!("bit range `{s}` is written low:high"),
                            n.span,
                        )
                        .with_help(format!(
                            "write the high bit first, as the manuals do: `{lsb}:{msb}`"
                        )),
                    );
                    None
                }
                (Some(_), Some(_)) => {
                    self.push(
                        Diagnostic::error(
                            "invalid-bits",
                            format!("bit range `{s}` goes past bit 63"),
                            n.span,
                        )
                        .with_label("MSR bits are numbered 0 to 63"),
                    );
                    None
                }
                _ => {
                    self.push(
                        Diagnostic::error(
                            "invalid-bits",
                            format!("`{s}` is not a bit range"),
                            n.span,
                        )
                        .with_help("write one bit (`19`) or a range high:low (`31:24`)"),
                    );
                    None
                }
            };
        }
        let b = self.uint(n)?;
        if b.value > 63 {
            self.push(
                Diagnostic::error(
                    "invalid-bits",
                    format!("bit {} is past bit 63", b.value),
                    b.span,
                )
                .with_label("MSR bits are numbered 0 to 63"),
            );
            return None;
        }
        Some(Spanned::new(
            RawBits {
                lsb: b.value,
                msb: b.value,
            },
            b.span,
        ))
    }

    pub(super) fn bits(&mut self, n: &Node) -> Option<Spanned<Vec<Spanned<RawBits>>>> {
        if let Kind::Seq(items) = &n.kind {
            if items.is_empty() {
                self.error(
                    "invalid-bits",
                    "a split field needs at least one bit range",
                    n.span,
                );
                return None;
            }
            let parts: Vec<_> = items.iter().map(|i| self.bit_range(i)).collect();
            if parts.iter().any(Option::is_none) {
                return None;
            }
            return Some(Spanned::new(parts.into_iter().flatten().collect(), n.span));
        }
        self.bit_range(n)
            .map(|b| Spanned::new(vec![b.clone()], b.span))
    }

    pub(super) fn field(&mut self, n: &Node) -> Option<RawField> {
        let m = self.map(n, "field", FIELD_KEYS)?;
        let name = self.req(&m, "name", "field", |c, n| c.ident(n, "field name"));
        let bits = self.opt(&m, "bits", Self::bits);
        let array = self.opt(&m, "array", |c, n| {
            let am = c.map(n, "field array", ARRAY_KEYS)?;
            let count = c.opt(&am, "count", |c, n| c.uint_max(n, ARRAY_MAX, "array count"));
            let stride = c.opt(&am, "stride", |c, n| {
                c.uint_max(n, ARRAY_MAX, "array stride")
            });
            if (am.has("count") && count.is_none()) || (am.has("stride") && stride.is_none()) {
                return None;
            }
            if !am.has("count") && !am.has("stride") {
                c.missing(&am, "count", "field array");
                return None;
            }
            if count.as_ref().is_some_and(|v| v.value == 0)
                || stride.as_ref().is_some_and(|v| v.value == 0)
            {
                c.error(
                    "out-of-range",
                    "a field array needs a count and a stride of at least 1",
                    n.span,
                );
                return None;
            }
            Some(Spanned::new(
                (count.map(|v| v.value), stride.map(|v| v.value)),
                n.span,
            ))
        });
        let access = self.opt(&m, "access", |c, n| c.keyword(n, "access", ACCESS_WORDS));
        let per_counter = self.opt(&m, "per-counter", |c, n| {
            c.keyword(n, "counter family", COUNTER_KIND_WORDS)
        });
        let role = self.opt(&m, "role", |c, n| {
            c.keyword(n, "field role", FIELD_ROLE_WORDS)
        });
        let doc = self.opt(&m, "doc", Self::text);
        let values = m.get("values").map(|v| {
            let Some(items) = self.seq(v, "values") else {
                return Vec::new();
            };
            items
                .iter()
                .filter_map(|i| {
                    let vm = self.map(i, "value", VALUE_KEYS)?;
                    let name = self.req(&vm, "name", "value", |c, n| c.ident(n, "value name"));
                    let value = self.req(&vm, "value", "value", |c, n| c.uint(n));
                    let doc = self.opt(&vm, "doc", Self::text);
                    Some(RawValue {
                        name: name?,
                        value,
                        doc,
                    })
                })
                .collect()
        });
        let deprecated = self.opt(&m, "deprecated", |c, n| {
            let dm = c.map(n, "deprecation", DEPRECATION_KEYS)?;
            let since = c.req(&dm, "since", "deprecation", Self::gen_id);
            let when = c.opt(&dm, "when", Self::text);
            let doc = c.opt(&dm, "doc", Self::text);
            Some(RawDeprecated {
                since: since?,
                when,
                doc,
            })
        });
        let requires = self.opt(&m, "requires", Self::text);
        let instances = self.opt(&m, "instances", |c, n| {
            c.counter_list(n, "instance numbers")
        });
        if m.has("bits") && bits.is_none() {
            return None; // invalid bits were reported; do not also report them missing
        }
        Some(RawField {
            name: name?,
            bits,
            array,
            access,
            per_counter,
            role,
            doc,
            values,
            deprecated,
            requires,
            instances,
        })
    }
}
