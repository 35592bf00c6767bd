//! The [`Encoder`]: indexes each generation's events on first use, then encodes requests
//! and decodes register values against the model.

use super::*;
use pmu_vocab::perf::GenericEvent;
use select::SelectFields;

// ---------------------------------------------------------------------------------------
// The encoder
// ---------------------------------------------------------------------------------------

/// Encodes and decodes against a loaded model.
///
/// Each generation's events are indexed by name and by encoding the first time the encoder
/// needs them, so keep one encoder for many requests.
#[derive(Clone, Debug)]
pub struct Encoder<'m> {
    pub(super) model: &'m Model,
    /// Per generation, in the model's order, built on first use.
    pub(super) indexes: Vec<OnceLock<EventIndex<'m>>>,
    /// The ids of the generations that describe CPU models, built on first use.
    pub(super) model_ids: OnceLock<HashSet<&'m str>>,
}

/// The event being encoded: a model event or raw terms.
#[derive(Clone, Debug)]
pub(super) struct EventDef {
    pub(super) name: String,
    pub(super) since: Option<String>,
    pub(super) event: u64,
    pub(super) umask: u64,
    pub(super) umask2: u64,
    pub(super) cmask: u64,
    pub(super) inv: bool,
    pub(super) edge: bool,
    pub(super) any: bool,
    pub(super) eq: bool,
    /// General counters it may use (`None`: every one).
    pub(super) counters: Option<Vec<u32>>,
    pub(super) fixed: Option<u32>,
    pub(super) msr: Option<(u32, u64)>,
    pub(super) alternatives: Vec<(u32, u32, Option<u32>)>,
    pub(super) raw: bool,
}

impl EventDef {
    pub(super) fn from_event(e: &Event) -> Self {
        EventDef {
            name: e.name.clone(),
            since: Some(e.since.clone()),
            event: e.event.into(),
            umask: e.umask.into(),
            umask2: e.umask2.unwrap_or(0).into(),
            cmask: e.cmask.into(),
            inv: e.inv,
            edge: e.edge,
            any: e.any,
            eq: e.eq,
            counters: Some(e.counters.clone()),
            fixed: e.fixed,
            msr: e.msr.as_ref().map(|m| (m.index, m.value)),
            alternatives: e
                .alternatives()
                .into_iter()
                .skip(1)
                .map(|a| (a.event, a.umask, a.msr_index))
                .collect(),
            raw: false,
        }
    }

    /// Raw perf-style terms. `umask` wider than UMASK spills into UMASK2 when the
    /// generation has one, as perf's `umask` format does on version 6.
    pub(super) fn from_terms(text: &str, umask: &UmaskLayout) -> Result<Self, Error> {
        let mut d = EventDef {
            name: "raw".into(),
            since: None,
            event: 0,
            umask: 0,
            umask2: 0,
            cmask: 0,
            inv: false,
            edge: false,
            any: false,
            eq: false,
            counters: None,
            fixed: None,
            msr: None,
            alternatives: Vec::new(),
            raw: true,
        };
        // The parser perf strings and the run-time resolver use (`pmu_vocab::perf::Terms`).
        let t = pmu_vocab::perf::Terms::parse(text, 0).map_err(|e| Error::BadRequest {
            reason: format!("raw terms `{text}`: {e}"),
        })?;
        let aux = [Term::OffcoreRsp, Term::Ldlat, Term::Frontend];
        if t.config.is_some() || t.config1.is_some() || aux.iter().any(|&a| t.get(a).is_some()) {
            return Err(Error::BadRequest {
                reason: format!(
                    "raw terms `{text}`: raw terms are event, umask, cmask, edge, inv, any, eq"
                ),
            });
        }
        let flag = |term: Term| -> Result<bool, Error> {
            match t.get(term).unwrap_or(0) {
                n @ (0 | 1) => Ok(n == 1),
                n => Err(Error::BadModifierValue {
                    modifier: term.key().into(),
                    value: n.to_string(),
                    reason: "a flag takes 0 or 1".into(),
                }),
            }
        };
        let has_event = t.get(Term::Event).is_some();
        d.event = t.get(Term::Event).unwrap_or(0);
        if let Some(n) = t.get(Term::Umask) {
            let total = umask.width + umask.umask2_width;
            if n > max_of(total) {
                return Err(Error::ValueTooBig {
                    attr: "umask".into(),
                    value: n,
                    field: umask.fields.clone(),
                    register: umask.register.clone(),
                    width: total,
                });
            }
            d.umask = n & max_of(umask.width);
            d.umask2 = n.checked_shr(umask.width).unwrap_or(0);
        }
        d.cmask = t.get(Term::Cmask).unwrap_or(0);
        (d.inv, d.edge, d.any, d.eq) = (
            flag(Term::Inv)?,
            flag(Term::Edge)?,
            flag(Term::Any)?,
            flag(Term::Eq)?,
        );
        if !has_event {
            return Err(Error::BadRequest {
                reason: format!("raw terms `{text}` have no `event=`"),
            });
        }
        Ok(d)
    }
}

/// Where an event is programmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Placement {
    General(Option<u32>),
    Fixed(u32),
}

impl<'m> Encoder<'m> {
    /// An encoder over a model.
    pub fn new(model: &'m Model) -> Self {
        Encoder {
            model,
            indexes: model.generations.iter().map(|_| OnceLock::new()).collect(),
            model_ids: OnceLock::new(),
        }
    }

    /// The event index of `g`: the cached one when `g` is one of the model's generations,
    /// else one built for this call.
    pub(super) fn index(&self, g: &'m Generation) -> Cow<'_, EventIndex<'m>> {
        let base = self.model.generations.as_ptr() as usize;
        let at = (g as *const Generation as usize).wrapping_sub(base) / size_of::<Generation>();
        match self.indexes.get(at) {
            Some(cell) if std::ptr::eq(&self.model.generations[at], g) => Cow::Borrowed(
                cell.get_or_init(|| EventIndex::new(g, |id| self.is_model_generation(id))),
            ),
            _ => Cow::Owned(EventIndex::new(g, |id| self.is_model_generation(id))),
        }
    }

    /// True when the generation `id` describes CPU models rather than an architectural
    /// version.
    pub(super) fn is_model_generation(&self, id: &str) -> bool {
        self.model_ids
            .get_or_init(|| {
                self.model
                    .generations
                    .iter()
                    .filter(|g| !g.cpus.is_empty())
                    .map(|g| g.id.as_str())
                    .collect()
            })
            .contains(id)
    }

    /// An event of `g` by exact name, case-insensitively, or by the name perf lists it under
    /// (`perf::perf_name`).
    pub(super) fn find_event(&self, g: &'m Generation, name: &str) -> Option<&'m Event> {
        self.index(g).find(name).map(|i| &g.events[i])
    }

    /// The model.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// A generation by id. Also accepts the id without its vendor prefix (`skylake` for
    /// `intel-skylake`, `v3` for `intel-v3`, `k7` for `amd-k7`), case-insensitively.
    pub fn generation(&self, id: &str) -> Result<&'m Generation, Error> {
        let want = id.trim().to_ascii_lowercase();
        if let Some(g) = self.model.generations.iter().find(|g| g.id == want) {
            return Ok(g);
        }
        let by_suffix: Vec<&Generation> = self
            .model
            .generations
            .iter()
            .filter(|g| {
                let vendor = match g.vendor {
                    Vendor::Intel => "intel-",
                    Vendor::Amd => "amd-",
                };
                g.id.strip_prefix(vendor) == Some(want.as_str())
            })
            .collect();
        match by_suffix.as_slice() {
            [g] => Ok(g),
            [] => Err(Error::UnknownGeneration {
                id: id.to_string(),
                suggestion: {
                    // Compare with the ids and with the ids without their vendor prefix.
                    let short = |id: &'m str| id.split_once('-').map_or(id, |(_, rest)| rest);
                    did_you_mean(
                        &want,
                        self.model
                            .generations
                            .iter()
                            .flat_map(|g| [g.id.as_str(), short(&g.id)]),
                    )
                    .and_then(|s| {
                        self.model
                            .generations
                            .iter()
                            .find(|g| g.id == s || short(&g.id) == s)
                            .map(|g| g.id.clone())
                    })
                },
                ambiguous: Vec::new(),
            }),
            many => Err(Error::UnknownGeneration {
                id: id.to_string(),
                suggestion: None,
                ambiguous: many.iter().map(|g| g.id.clone()).collect(),
            }),
        }
    }

    /// An event of a generation, by exact name or case-insensitively.
    pub fn event(&self, g: &'m Generation, name: &str) -> Result<&'m Event, Error> {
        if let Some(e) = self.find_event(g, name) {
            return Ok(e);
        }
        Err(Error::UnknownEvent {
            generation: g.id.clone(),
            name: name.to_string(),
            suggestion: did_you_mean(name, g.events.iter().map(|e| e.name.as_str()))
                .map(str::to_string),
        })
    }

    /// Encodes a request for the generation (or model) `target`.
    pub fn encode(&self, target: &str, req: &Request) -> Result<Encoding, Error> {
        let g = self.generation(target)?;
        self.encode_in(g, req)
    }

    /// Encodes a request for a generation already looked up.
    pub fn encode_in(&self, g: &'m Generation, req: &Request) -> Result<Encoding, Error> {
        if let Some(pmu) = &req.pmu
            && pmu != perf_pmu(g)
        {
            return Err(Error::BadRequest {
                reason: format!("{} events are on PMU `{}`, not `{pmu}`", g.id, perf_pmu(g)),
            });
        }
        let (def, mods) = self.resolve(g, req)?;
        let def = with_aux_modifiers(g, def, &mods)?;
        let placement = place(g, &def, req.counter)?;
        let mods = &mods;
        let mut notes = Vec::new();

        // Privilege levels: both unless u or k is named.
        let explicit_priv = mods.usr.is_some() || mods.os.is_some();
        let usr = mods.usr.unwrap_or(!explicit_priv);
        let os = mods.os.unwrap_or(!explicit_priv);
        if !usr && !os {
            notes.push(
                "neither user nor kernel mode is selected: the counter counts nothing".into(),
            );
        }

        let final_attrs = Attrs {
            cmask: mods.cmask.unwrap_or(def.cmask),
            inv: mods.inv.unwrap_or(def.inv),
            edge: mods.edge.unwrap_or(def.edge),
            any: mods.any.unwrap_or(def.any),
            eq: mods.eq.unwrap_or(def.eq),
            usr,
            os,
            int: mods.int.unwrap_or(false),
            en: mods.en.unwrap_or(false),
        };

        let mut enc = match placement {
            Placement::General(counter) => {
                self.encode_general(g, &def, counter, &final_attrs, &mut notes)?
            }
            Placement::Fixed(n) => self.encode_fixed(g, &def, n, &final_attrs, &mut notes)?,
        };

        // Auxiliary MSR.
        if let Some((index, value)) = def.msr {
            let register = g
                .registers
                .iter()
                .find(|r| r.has_address(index))
                .map(|r| instance_name(r, index));
            enc.aux.push(AuxMsr {
                index,
                register,
                value,
                perf_term: Term::for_msr(index).map(Term::key),
            });
        }

        // The perf string.
        let pmu = perf_pmu(g).to_string();
        let mut p = PerfEvent::new(pmu.clone());
        match perf::real_event(&def.name).filter(|_| !def.raw) {
            Some(terms) => {
                for (t, v) in terms {
                    p.set(*t, *v);
                }
                notes.push(format!(
                    "perf spells {} with its own encoding (jevents.py real_event): {}",
                    def.name,
                    terms
                        .iter()
                        .map(|(t, v)| format!("{}={v}", t.key()))
                        .collect::<Vec<_>>()
                        .join(",")
                ));
            }
            None => {
                p.set(Term::Event, perf::llx(def.event));
                p.set_number(Term::Any, def.any.into(), true);
                p.set_number(Term::Cmask, def.cmask, true);
                p.set_number(Term::Edge, def.edge.into(), true);
                p.set_number(Term::Eq, def.eq.into(), true);
                p.set_number(Term::Inv, def.inv.into(), true);
                let umask_width = self.umask_layout(g).map_or(8, |u| u.width);
                let perf_umask = def.umask | def.umask2.checked_shl(umask_width).unwrap_or(0);
                p.set_number(Term::Umask, perf_umask, false);
                if let Some((index, value)) = def.msr {
                    match Term::for_msr(index) {
                        Some(t) => p.set(t, perf::msr_value(value)),
                        None => notes.push(format!(
                            "perf has no term for auxiliary MSR {index:#x}; program it yourself"
                        )),
                    }
                }
            }
        }
        // Modifiers override the event's own values.
        if let Some(v) = mods.any {
            p.set_number(Term::Any, v.into(), true);
        }
        if let Some(v) = mods.cmask {
            p.set_number(Term::Cmask, v, true);
        }
        if let Some(v) = mods.edge {
            p.set_number(Term::Edge, v.into(), true);
        }
        if let Some(v) = mods.eq {
            p.set_number(Term::Eq, v.into(), true);
        }
        if let Some(v) = mods.inv {
            p.set_number(Term::Inv, v.into(), true);
        }
        if explicit_priv {
            p.modifiers = match (usr, os) {
                (true, true) => "uk".into(),
                (true, false) => "u".into(),
                (false, true) => "k".into(),
                (false, false) => String::new(),
            };
        }
        if mods.int == Some(true) || mods.en == Some(true) {
            notes.push(
                "INT and EN have no perf term: perf and the kernel set them themselves".into(),
            );
        }

        let plain = non_hybrid_cpus(g);
        if !plain.is_empty() {
            let mut on_cpu = p.clone();
            on_cpu.pmu = "cpu".into();
            notes.push(format!(
                "{} is not hybrid: there the PMU is `cpu` ({on_cpu})",
                plain.join(", ")
            ));
        }
        enc.perf = p.to_string();
        enc.pmu = pmu;
        enc.notes.extend(notes);
        Ok(enc)
    }

    /// The event and modifiers a request names: an event name (the longest that the
    /// `EVENT:...` text starts with, as names may contain colons), or raw terms.
    pub(super) fn resolve(
        &self,
        g: &'m Generation,
        req: &Request,
    ) -> Result<(EventDef, Modifiers), Error> {
        if let Some(spec) = &req.spec {
            // The whole text, then up to its third and second colon: Intel's names have at
            // most two (`OFFCORE_RESPONSE:request=X:response=Y`), so a bounded number of
            // tries keeps this linear in the text.
            let colons: Vec<usize> = spec.match_indices(':').map(|(i, _)| i).take(3).collect();
            let cuts = std::iter::once(spec.len())
                .chain(colons.into_iter().rev())
                .filter(|&i| i > req.event.len());
            for cut in cuts {
                if let Some(e) = self.find_event(g, spec[..cut].trim()) {
                    let mut m = parse_modifiers(spec.get(cut + 1..).unwrap_or(""))?;
                    for list in &req.extra {
                        for term in list.split([',', ':']).map(str::trim) {
                            if !term.is_empty() {
                                add_modifier(&mut m, term)?;
                            }
                        }
                    }
                    return Ok((EventDef::from_event(e), m));
                }
            }
        }
        if let Some(e) = &req.deferred {
            return Err(e.clone());
        }
        let def = match self.find_event(g, &req.event) {
            Some(e) => EventDef::from_event(e),
            None if let Some(generic) = GenericEvent::from_name(&req.event) => {
                self.generic(g, generic)?
            }
            None if req.event.contains('=') => {
                EventDef::from_terms(&req.event, &self.umask_layout(g)?)?
            }
            None => EventDef::from_event(self.event(g, &req.event)?),
        };
        Ok((def, req.modifiers))
    }

    /// The event perf's generic event `generic` counts on `g` (its `generic-events:`): the
    /// generation's own event with that encoding, one a general counter counts first (so the
    /// fixed-only pseudo-encoding of `ref-cycles` stays on its fixed counter), else the terms
    /// as they are. The run-time resolver (`pmu_regs::perf`) decides the same way.
    pub(super) fn generic(
        &self,
        g: &'m Generation,
        generic: GenericEvent,
    ) -> Result<EventDef, Error> {
        let Some(mapped) = g.generic_events.iter().find(|d| d.name == generic.name()) else {
            return Err(Error::BadRequest {
                reason: format!(
                    "the kernel maps perf's `{}` to no event on {}",
                    generic.name(),
                    g.id
                ),
            });
        };
        let terms = EventDef::from_terms(&mapped.terms, &self.umask_layout(g)?)?;
        let key = |d: &EventDef| {
            (
                d.event, d.umask, d.umask2, d.cmask, d.inv, d.edge, d.any, d.eq,
            )
        };
        let same: Vec<EventDef> = (g.events.iter())
            .map(EventDef::from_event)
            .filter(|d| key(d) == key(&terms))
            .collect();
        let general = same
            .iter()
            .find(|d| d.counters.as_ref().is_none_or(|c| !c.is_empty()));
        let mut def = general.or(same.first()).cloned().unwrap_or(terms);
        // Written back as the kernel's terms, not perf's spelling of the event's name.
        def.raw = true;
        Ok(def)
    }

    /// Where perf's `umask` goes: UMASK, then UMASK2 above it when the generation has one
    /// (the kernel's `umask` format is `config:8-15,40-47` on version 6).
    pub(super) fn umask_layout(&self, g: &'m Generation) -> Result<UmaskLayout, Error> {
        let sel = self.select(g)?;
        let umask = encoding_field(g, sel, "umask").ok_or_else(|| unsupported(g, sel, "umask"))?;
        let umask2 = encoding_field(g, sel, "umask2");
        Ok(UmaskLayout {
            width: umask.width,
            umask2_width: umask2.map_or(0, |f| f.width),
            fields: match umask2 {
                Some(u2) => format!("{}+{}", umask.name, u2.name),
                None => umask.name.clone(),
            },
            register: sel.name.clone(),
        })
    }

    /// The generation's general event-select register.
    pub(super) fn select(&self, g: &'m Generation) -> Result<&'m Register, Error> {
        g.pmu
            .general
            .as_ref()
            .and_then(|gc| g.register(&gc.select))
            .ok_or_else(|| Error::Unsupported {
                attr: "general counters".into(),
                generation: g.id.clone(),
                reason: "no register of it has the roles `event-select` and `counter`".into(),
            })
    }

    pub(super) fn encode_general(
        &self,
        g: &'m Generation,
        def: &EventDef,
        counter: Option<u32>,
        a: &Attrs,
        notes: &mut Vec<String>,
    ) -> Result<Encoding, Error> {
        let sel = self.select(g)?;
        for attr in ["event", "umask"] {
            if encoding_field(g, sel, attr).is_none() {
                return Err(unsupported(g, sel, attr));
            }
        }
        let select = SelectFields::of(g, sel);
        let build = |a: &Attrs, event: u64, umask: u64| select.build(def, a, event, umask);
        let (value, mut fields) = build(a, def.event, def.umask)?;
        fields.sort_by_key(|f| lowest_bit(sel, &f.name));

        // Constraints: an error when the request causes it; a note when the event itself
        // is defined that way by the vendor.
        let baseline = Attrs {
            cmask: def.cmask,
            inv: def.inv,
            edge: def.edge,
            any: def.any,
            eq: def.eq,
            ..*a
        };
        let base_value = build(&baseline, def.event, def.umask).map(|(v, _)| v).ok();
        for c in g.constraints.iter().filter(|c| c.register == sel.name) {
            if !fires(c, sel, value) {
                continue;
            }
            let vendor_defined = base_value.is_some_and(|b| fires(c, sel, b));
            match c.severity {
                Severity::Error if !vendor_defined => {
                    return Err(Error::InvalidCombination {
                        message: format!("{} ({})", c.message, c.id),
                    });
                }
                Severity::Error => notes.push(format!(
                    "{} defines this combination itself, which the manual rejects: {} ({})",
                    def.name, c.message, c.id
                )),
                Severity::Warning => notes.push(format!("{} ({})", c.message, c.id)),
            }
        }

        let alternatives = def
            .alternatives
            .iter()
            .map(|&(event, umask, msr_index)| {
                build(a, event.into(), umask.into()).map(|(value, _)| AltEncoding {
                    event,
                    umask,
                    msr_index,
                    value,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;

        let counter_reg = g
            .pmu
            .general
            .as_ref()
            .and_then(|gc| g.register(&gc.counter));
        let mask = sel.fields.iter().fold(0, |m, f| m | f.full_mask());
        Ok(Encoding {
            generation: g.id.clone(),
            event: def.name.clone(),
            event_since: def.since.clone(),
            register: sel.name.clone(),
            counter: counter.map(Counter::General),
            allowed: describe_counters(def),
            address: counter.map(|n| sel.msr.address(n)),
            counter_register: counter.and_then(|n| counter_reg.map(|r| RegisterRef::of(r, n))),
            value,
            mask,
            fields,
            aux: Vec::new(),
            alternatives,
            perf: String::new(),
            pmu: String::new(),
            notes: Vec::new(),
        })
    }

    pub(super) fn encode_fixed(
        &self,
        g: &'m Generation,
        def: &EventDef,
        n: u32,
        a: &Attrs,
        notes: &mut Vec<String>,
    ) -> Result<Encoding, Error> {
        let fixed = g.pmu.fixed.as_ref().ok_or_else(|| Error::Unsupported {
            attr: "fixed counters".into(),
            generation: g.id.clone(),
            reason: "no register of it has the role `fixed-counter`".into(),
        })?;
        let ctrl = fixed
            .control
            .as_deref()
            .and_then(|c| g.register(c))
            .ok_or_else(|| Error::Unsupported {
                attr: "fixed counters".into(),
                generation: g.id.clone(),
                reason: "no register of it has the role `fixed-control`".into(),
            })?;
        for (attr, set) in [
            ("cmask", a.cmask != 0),
            ("edge", a.edge),
            ("inv", a.inv),
            ("eq", a.eq),
        ] {
            if set {
                return Err(Error::InvalidCombination {
                    message: format!(
                        "`{attr}` cannot be applied on fixed counter {n}: {} has no such \
                         control; count {} on a general counter instead",
                        ctrl.name, def.name
                    ),
                });
            }
        }
        if def.umask2 != 0 {
            notes.push("UMASK2 does not apply to a fixed counter".into());
        }
        let field = |name: &str| -> Result<&'m Field, Error> {
            ctrl.field(name)
                .filter(|f| n < f.count())
                .ok_or_else(|| Error::Unsupported {
                    attr: name.to_ascii_lowercase(),
                    generation: g.id.clone(),
                    reason: format!("{} has no {name} block for fixed counter {n}", ctrl.name),
                })
        };
        // The privilege-level field and its named values (OS, USR, ALL).
        let enable = field(FIXED_ENABLE)?;
        let level = match (a.usr, a.os) {
            (true, true) => "ALL",
            (true, false) => "USR",
            (false, true) => "OS",
            (false, false) => "DISABLED",
        };
        let level_value = enable
            .value(level)
            .ok_or_else(|| Error::Unsupported {
                attr: "u/k".into(),
                generation: g.id.clone(),
                reason: format!("{}.{FIXED_ENABLE} has no value named {level}", ctrl.name),
            })?
            .value;
        let mut items: Vec<(&'m Field, u64, &str)> = vec![(enable, level_value, "u/k")];
        if a.any {
            let f = field(FIXED_ANY).map_err(|_| unsupported_fixed_any(g, ctrl))?;
            check_deprecation(g, f, "any")?;
            items.push((f, 1, "any"));
        } else if let Ok(f) = field(FIXED_ANY) {
            items.push((f, 0, "any"));
        }
        let pmi = field(FIXED_PMI);
        match (a.int, pmi) {
            (true, Err(e)) => return Err(e),
            (int, Ok(f)) => items.push((f, int.into(), "int")),
            (false, Err(_)) => {}
        }
        if a.en {
            notes.push(format!(
                "a fixed counter has no EN bit: {}.{FIXED_ENABLE}[{n}] enables it",
                ctrl.name
            ));
        }
        let mut value = 0;
        let mut mask = 0;
        let mut fields = Vec::new();
        for (f, v, _) in items {
            value |= f.insert(n, v);
            mask |= f.element_mask(n);
            fields.push(FieldValue {
                name: f.name.clone(),
                element: Some(n),
                bits: bits_text(&f.bits, f.array.map_or(0, |a| a.stride * n)),
                value: v,
            });
        }
        fields.sort_by_key(|f| lowest_bit(ctrl, &f.name));
        let counter_reg = g.register(&fixed.counter);
        Ok(Encoding {
            generation: g.id.clone(),
            event: def.name.clone(),
            event_since: def.since.clone(),
            register: ctrl.name.clone(),
            counter: Some(Counter::Fixed(n)),
            allowed: describe_counters(def),
            address: Some(ctrl.msr.base),
            counter_register: counter_reg.map(|r| RegisterRef::of(r, n)),
            value,
            mask,
            fields,
            aux: Vec::new(),
            alternatives: Vec::new(),
            perf: String::new(),
            pmu: String::new(),
            notes: Vec::new(),
        })
    }
}

/// `def` with the auxiliary-MSR value the modifiers `ldlat=N` / `offcore_rsp=N` give, which
/// must be the event's own auxiliary MSR and fit its register.
fn with_aux_modifiers(
    g: &Generation,
    mut def: EventDef,
    mods: &Modifiers,
) -> Result<EventDef, Error> {
    for (given, term) in [
        (mods.ldlat, Term::Ldlat),
        (mods.offcore_rsp, Term::OffcoreRsp),
    ] {
        let Some(value) = given else { continue };
        let refuse = |reason: String| Error::BadModifierValue {
            modifier: term.key().into(),
            value: format!("{value:#x}"),
            reason,
        };
        let index = match def.msr {
            Some((index, _)) if Term::for_msr(index) == Some(term) => index,
            _ => {
                return Err(refuse(format!(
                    "{} programs no {} MSR; the events that do say so in `pmu list`",
                    def.name,
                    term.key()
                )));
            }
        };
        if let Some(r) = g.registers.iter().find(|r| r.has_address(index))
            && value & r.reserved_mask != 0
        {
            return Err(refuse(format!(
                "sets bits {:#x}, reserved in {}",
                value & r.reserved_mask,
                r.name
            )));
        }
        def.msr = Some((index, value));
    }
    Ok(def)
}
