//! Decoding a register value: every field by name, the event it selects, reserved bits.

use super::{
    Encoder, Error, FIXED_ANY, FIXED_ENABLE, bits_text, deprecated_in, encoding_field, fires,
    instance_name, ranges,
};
use crate::model::{Event, Generation, Register, Severity};
use serde::{Serialize, Serializer};
use std::fmt;

/// One field (or one element of a per-counter field) of a decoded value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DecodedField<'m> {
    /// Field name.
    pub name: &'m str,
    /// Array element, for per-counter fields.
    pub element: Option<u32>,
    /// Register bits (`15:8`; split fields low part first: `7:0,35:32`).
    pub bits: String,
    /// Logical value (split parts joined).
    pub value: u64,
    /// The name of the value, when the field names its values.
    pub meaning: Option<&'m str>,
}

/// An event whose encoding a decoded value matches, borrowed from the model (a value of an
/// offcore-response code matches every such event: Cascade Lake-X has 1,700 of them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EventMatch<'m> {
    /// Event name.
    pub name: &'m str,
    /// The generation that introduced it.
    pub since: &'m str,
    /// `architectural` (introduced by an architectural generation, counted the same on
    /// every processor of that version) or `model` (a model-specific event).
    pub kind: &'static str,
    /// For near misses: how the value differs from the event (`cmask=1 (value has 0)`).
    pub differs: Vec<Difference>,
}

/// One modifier in which a value differs from a near-miss event; displays (and serializes)
/// as `cmask=1 (value has 0)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The encoding attribute (`cmask`, `inv`, `edge`, `any`, `eq`).
    pub attribute: &'static str,
    /// The event's value.
    pub event: u64,
    /// The decoded value's.
    pub value: u64,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}={} (value has {})",
            self.attribute, self.event, self.value
        )
    }
}

impl Serialize for Difference {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// What a block of the fixed-counter control register counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FixedDecoded<'m> {
    /// Fixed counter number.
    pub counter: u32,
    /// True when its privilege-level field is non-zero.
    pub enabled: bool,
    /// Events counted by this fixed counter with this AnyThread setting.
    pub events: Vec<EventMatch<'m>>,
}

/// The result of [`Encoder::decode`]; names are borrowed from the model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Decoded<'m> {
    /// Generation id.
    pub generation: &'m str,
    /// Register name (without index).
    pub register: &'m str,
    /// Instance within an indexed family (`IA32_PERFEVTSEL2`: 2).
    pub instance: Option<u32>,
    /// The address decoded.
    pub address: u32,
    /// The value decoded.
    pub value: u64,
    /// Every field, in bit order; per-counter fields once per element.
    pub fields: Vec<DecodedField<'m>>,
    /// The bits of the value no field covers (plus any above the register's width).
    pub reserved_set: u64,
    /// The same, as bit numbers.
    pub reserved_bits: Vec<u32>,
    /// Events this value selects (event-select registers): every event whose encoding
    /// matches, architectural and model-specific alike.
    pub events: Vec<EventMatch<'m>>,
    /// Events with the same event code and unit mask but other modifiers.
    pub similar: Vec<EventMatch<'m>>,
    /// For the fixed-counter control register: what each enabled block counts.
    pub fixed: Vec<FixedDecoded<'m>>,
    /// Constraints the value violates, deprecated fields set, counter restrictions.
    pub warnings: Vec<String>,
}

impl Decoded<'_> {
    /// The register with its instance number (`IA32_PERFEVTSEL2`).
    pub fn register_instance(&self) -> String {
        match self.instance {
            Some(i) => format!("{}{i}", self.register),
            None => self.register.to_owned(),
        }
    }
}

impl<'m> Encoder<'m> {
    /// Decodes `value` read from (or to be written to) MSR `address` of the generation (or
    /// model) `target`.
    pub fn decode(&self, target: &str, address: u32, value: u64) -> Result<Decoded<'m>, Error> {
        let g = self.generation(target)?;
        self.decode_in(g, address, value)
    }

    /// The address of a register named `NAME` or `NAMEn` (an instance of an indexed family)
    /// in the generation.
    pub fn register_address(&self, g: &'m Generation, name: &str) -> Result<u32, Error> {
        let upper = name.trim().to_ascii_uppercase();
        if let Some(r) = g.register(&upper) {
            return Ok(r.msr.base);
        }
        let digits = upper.len() - upper.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        if digits > 0 {
            let (base, index) = upper.split_at(upper.len() - digits);
            if let (Some(r), Ok(i)) = (g.register(base), index.parse::<u32>())
                && r.msr.indexed
                && i < r.msr.count
            {
                return Ok(r.msr.address(i));
            }
        }
        Err(Error::UnknownRegister {
            generation: g.id.clone(),
            what: format!("`{name}`"),
            elsewhere: Vec::new(),
        })
    }

    /// Decodes a value for a generation already looked up.
    pub fn decode_in(
        &self,
        g: &'m Generation,
        address: u32,
        value: u64,
    ) -> Result<Decoded<'m>, Error> {
        let Some(reg) = g.registers.iter().find(|r| r.has_address(address)) else {
            let elsewhere = self
                .model()
                .generations
                .iter()
                .filter_map(|o| {
                    o.registers
                        .iter()
                        .find(|r| r.has_address(address))
                        .map(|r| format!("{} in {}", instance_name(r, address), o.id))
                })
                .take(3)
                .collect();
            return Err(Error::UnknownRegister {
                generation: g.id.clone(),
                what: format!("MSR {address:#x}"),
                elsewhere,
            });
        };
        let instance = if reg.msr.indexed {
            reg.index_at(address)
        } else {
            None
        };

        let fields = decoded_fields(reg, value);
        let above = if reg.width >= 64 {
            0
        } else {
            !((1u64 << reg.width) - 1)
        };
        let reserved_set = value & (reg.reserved_mask | above);
        let reserved_bits = (0..64).filter(|b| reserved_set >> b & 1 == 1).collect();
        let mut warnings = value_warnings(g, reg, value);
        let (events, similar) = self.matches(g, reg, instance, value, &mut warnings);
        let fixed = self.fixed_blocks(g, reg, value);
        Ok(Decoded {
            generation: &g.id,
            register: &reg.name,
            instance,
            address,
            value,
            fields,
            reserved_set,
            reserved_bits,
            events,
            similar,
            fixed,
            warnings,
        })
    }

    /// The events whose encoding the value of select register `reg` matches, and its near
    /// misses (same code and unit mask, other modifiers); a warning per matching event that
    /// may not count on counter `instance`.
    fn matches(
        &self,
        g: &'m Generation,
        reg: &'m Register,
        instance: Option<u32>,
        value: u64,
        warnings: &mut Vec<String>,
    ) -> (Vec<EventMatch<'m>>, Vec<EventMatch<'m>>) {
        let (mut events, mut similar) = (Vec::new(), Vec::new());
        let Some(sel) = Selector::of(g, reg) else {
            return (events, similar);
        };
        let got = sel.read(value);
        let on = instance.filter(|_| is_general_select(g, reg));
        let index = self.index(g);
        let candidates = index.with_code(got.event, got.umask);
        events.reserve(candidates.len());
        for &i in candidates {
            let e = &g.events[i];
            match got.compare(e) {
                Compare::Same => {
                    events.push(event_match(e, index.kind(i), Vec::new()));
                    if let Some(n) = on
                        && !e.counters.contains(&n)
                    {
                        warnings.push(format!(
                            "{} may count only on general counters {}, not on counter {n}",
                            e.name,
                            ranges(&e.counters)
                        ));
                    }
                }
                Compare::Differs(d) => similar.push(event_match(e, index.kind(i), d)),
                Compare::Other => {}
            }
        }
        (events, similar)
    }

    /// For the fixed-counter control register: what each block counts.
    fn fixed_blocks(
        &self,
        g: &'m Generation,
        reg: &'m Register,
        value: u64,
    ) -> Vec<FixedDecoded<'m>> {
        let is_control = g
            .pmu
            .fixed
            .as_ref()
            .and_then(|f| f.control.as_deref())
            .is_some_and(|c| c == reg.name);
        let Some(enable) = reg.field(FIXED_ENABLE).filter(|_| is_control) else {
            return Vec::new();
        };
        let any = reg.field(FIXED_ANY);
        let index = self.index(g);
        (0..enable.count().min(g.fixed_counters()))
            .map(|n| {
                let any_set = any.is_some_and(|f| n < f.count() && f.extract(n, value) != 0);
                let events = index
                    .fixed()
                    .iter()
                    .map(|&i| (i, &g.events[i]))
                    .filter(|(_, e)| e.fixed == Some(n) && e.any == any_set)
                    .map(|(i, e)| event_match(e, index.kind(i), Vec::new()))
                    .collect();
                FixedDecoded {
                    counter: n,
                    enabled: enable.extract(n, value) != 0,
                    events,
                }
            })
            .collect()
    }
}

/// Every field of `reg` (per-counter fields once per element) in `value`, in bit order.
fn decoded_fields(reg: &Register, value: u64) -> Vec<DecodedField<'_>> {
    let mut fields = Vec::new();
    for f in &reg.fields {
        for i in 0..f.count() {
            let shift = f.array.map_or(0, |a| a.stride * i);
            let v = f.extract(i, value);
            let lowest = f
                .bits
                .iter()
                .map(|b| b.lsb + shift)
                .min()
                .unwrap_or(u32::MAX);
            let field = DecodedField {
                name: &f.name,
                element: f.array.map(|_| i),
                bits: bits_text(&f.bits, shift),
                value: v,
                meaning: f
                    .values
                    .iter()
                    .find(|e| e.value == v)
                    .map(|e| e.name.as_str()),
            };
            fields.push((lowest, field));
        }
    }
    fields.sort_by_key(|&(lowest, _)| lowest);
    fields.into_iter().map(|(_, f)| f).collect()
}

/// The constraints `value` violates and the deprecated fields it sets.
fn value_warnings(g: &Generation, reg: &Register, value: u64) -> Vec<String> {
    let mut warnings = Vec::new();
    for c in g.constraints.iter().filter(|c| c.register == reg.name) {
        if fires(c, reg, value) {
            let sev = match c.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            warnings.push(format!("{sev}: {} ({})", c.message, c.id));
        }
    }
    for f in &reg.fields {
        if deprecated_in(g, f) && (0..f.count()).any(|i| f.extract(i, value) != 0) {
            let d = f.deprecated.as_ref().expect("checked by deprecated_in");
            warnings.push(format!(
                "{} is set but deprecated from {}{}",
                f.name,
                d.since,
                d.when
                    .as_ref()
                    .map(|w| format!(" (not supported where {w})"))
                    .unwrap_or_default()
            ));
        }
    }
    warnings
}

fn is_general_select(g: &Generation, reg: &Register) -> bool {
    g.pmu
        .general
        .as_ref()
        .is_some_and(|gc| gc.select == reg.name)
}

fn event_match<'m>(e: &'m Event, kind: &'static str, differs: Vec<Difference>) -> EventMatch<'m> {
    EventMatch {
        name: &e.name,
        since: &e.since,
        kind,
        differs,
    }
}

/// The encoding fields of an event-select register.
struct Selector<'g> {
    g: &'g Generation,
    reg: &'g Register,
}

/// What a select value encodes.
struct Selected {
    event: u64,
    umask: u64,
    umask2: u64,
    cmask: u64,
    inv: bool,
    edge: bool,
    any: bool,
    eq: bool,
}

enum Compare {
    Same,
    Differs(Vec<Difference>),
    Other,
}

impl<'g> Selector<'g> {
    /// The register's encoding, when it has the generation's event and unit-mask fields
    /// (the general select, and registers laid out like it such as AMD's legacy
    /// PerfEvtSel aliases).
    fn of(g: &'g Generation, reg: &'g Register) -> Option<Self> {
        (encoding_field(g, reg, "event").is_some() && encoding_field(g, reg, "umask").is_some())
            .then_some(Selector { g, reg })
    }

    fn get(&self, attr: &str, value: u64) -> u64 {
        encoding_field(self.g, self.reg, attr).map_or(0, |f| f.extract(0, value))
    }

    fn read(&self, value: u64) -> Selected {
        Selected {
            event: self.get("event", value),
            umask: self.get("umask", value),
            umask2: self.get("umask2", value),
            cmask: self.get("cmask", value),
            inv: self.get("inv", value) != 0,
            edge: self.get("edge", value) != 0,
            any: self.get("any", value) != 0,
            eq: self.get("eq", value) != 0,
        }
    }
}

impl Selected {
    /// How `e`, one of the events with the value's event code and unit mask (primary or
    /// alternative: `EventIndex::with_code`), differs from the value.
    fn compare(&self, e: &Event) -> Compare {
        if u64::from(e.umask2.unwrap_or(0)) != self.umask2 {
            return Compare::Other;
        }
        let mut d = Vec::new();
        let mut diff = |attribute: &'static str, event: u64, value: u64| {
            if event != value {
                d.push(Difference {
                    attribute,
                    event,
                    value,
                });
            }
        };
        diff("cmask", e.cmask.into(), self.cmask);
        diff("inv", e.inv.into(), self.inv.into());
        diff("edge", e.edge.into(), self.edge.into());
        diff("any", e.any.into(), self.any.into());
        diff("eq", e.eq.into(), self.eq.into());
        if d.is_empty() {
            Compare::Same
        } else {
            Compare::Differs(d)
        }
    }
}
