//! From an event name or a perf string to the fields of Linux's `perf_event_attr`, at run time,
//! for the generation detection found: what a profiler needs to open an event by name on
//! whatever machine it lands on.
//!
//! [`PerfConfig::parse`] reads what a user types, with the parser the tools use too
//! ([`pmu_vocab::perf`]):
//!
//! * a name and modifiers (`MEM_LOAD_RETIRED.L3_MISS:u`, `LLC_MISSES:cmask=2:inv`), looked up
//!   in the generation's model events, then its architectural events; `ldlat=N` and
//!   `offcore_rsp=N` replace the value of the event's own auxiliary MSR (`config1`);
//! * a perf event string (`cpu/event=0xd1,umask=0x20/u`, `cpu_core/config=0x20d1/`);
//! * a raw config (`r20d1`).
//!
//! `config` is the event-select encoding without USR, OS, INT and EN (perf sets those from
//! `exclude_user`, `exclude_kernel` and its own needs), checked against the generation's
//! layout as [`Arch::encode_raw_config`] checks it. The events jevents.py spells its own way
//! (`INST_RETIRED.ANY` is `event=0xc0`) get perf's spelling, and the other events only a fixed
//! counter counts (`CPU_CLK_UNHALTED.REF_TSC`, `TOPDOWN.SLOTS`) their Linux pseudo-encoding,
//! event 0 with the unit mask Intel gives them (`umask=0x3`, `umask=0x4`), which the kernel
//! schedules on that fixed counter.
//!
//! [`PerfConfig`]'s `Display` writes the perf string back; parsing it gives the same config.
//!
//! ```
//! use pmu_regs::arch::Generation;
//! use pmu_regs::perf::PerfConfig;
//!
//! let v4 = Generation::from_id("intel-v4").unwrap();
//! let c = PerfConfig::parse(v4, "LLC_MISSES:u")?;
//! assert_eq!((c.pmu, c.config, c.exclude_kernel), ("cpu", 0x412E, true));
//! assert_eq!(c.to_string(), "cpu/event=0x2e,umask=0x41/u");
//! assert_eq!(PerfConfig::parse(v4, &c.to_string())?, c);
//! let e = PerfConfig::parse(v4, "LLC_MISES").unwrap_err();
//! assert_eq!(e.to_string(), "unknown event for intel-v4 (did you mean LLC_MISSES?)");
//! # Ok::<(), pmu_regs::perf::PerfError>(())
//! ```

use crate::EventDesc;
use crate::PlacementError;
use crate::arch::{
    Arch, ArchEventInfo, ArchVisitor, EncodeError, Generation, GenericEvents, MODEL_SPECS, RegInfo,
    Role,
};
use crate::detect::{Note, PmuInfo};
use core::fmt;
pub use pmu_vocab::perf::GenericEvent;
use pmu_vocab::perf::{self as spell, Event, Llx, Modifiers, SyntaxError, Term, Terms};

/// The `perf_event_attr` fields of one event on one generation's core PMU (see the
/// [module](self) docs). Two configs are equal when they open the same counter the same way,
/// however they were spelled.
#[derive(Clone, Copy, Debug)]
pub struct PerfConfig {
    /// The perf PMU to open it on (`cpu`; on hybrid parts `cpu_core`, `cpu_atom` or
    /// `cpu_lowpower`): its `type` is in `/sys/bus/event_source/devices/<pmu>/type`.
    pub pmu: &'static str,
    /// `perf_event_attr.config`: the event-select encoding.
    pub config: u64,
    /// `perf_event_attr.config1`: the auxiliary MSR's value (off-core response, load-latency
    /// threshold, front-end qualifier), 0 when none.
    pub config1: u64,
    /// `perf_event_attr.exclude_user` (modifier `k` alone).
    pub exclude_user: bool,
    /// `perf_event_attr.exclude_kernel` (modifier `u` alone).
    pub exclude_kernel: bool,
    /// `perf_event_attr.precise_ip` (modifiers `p`, `pp`, `ppp`): 0 counts, 1 and 2 sample
    /// with PEBS, 3 with precise distribution.
    pub precise: u8,
    /// The event's name, when it was given by name (for a generic event, the name of the
    /// generation's event with that encoding, if it has one).
    pub name: Option<&'static str>,
    /// The perf generic event it was given as (`cycles`, `branch-misses`): the same count can
    /// be opened as `PERF_TYPE_HARDWARE` with [`GenericEvent::hw_id`], where the kernel picks
    /// the encoding; `config` is the encoding the kernel picks for this CPU.
    pub generic: Option<GenericEvent>,
    /// An auxiliary MSR the event needs that perf has no term for (so it is not in
    /// `config1`, and perf does not program it): the count is the event's only when that MSR
    /// holds this value.
    pub unprogrammed_msr: Option<crate::EventMsr>,
    /// How `Display` writes it.
    spelling: Spelling,
}

impl PartialEq for PerfConfig {
    fn eq(&self, other: &Self) -> bool {
        (self.pmu, self.config, self.config1) == (other.pmu, other.config, other.config1)
            && (self.exclude_user, self.exclude_kernel, self.precise)
                == (other.exclude_user, other.exclude_kernel, other.precise)
    }
}

impl Eq for PerfConfig {}

/// How a config is written back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spelling {
    /// `event=..,umask=..,...`: each term's value (zero terms are left out, but `event=` and
    /// the auxiliary term, when there is one, are always written).
    Terms([u64; Term::COUNT], Option<Term>),
    /// perf's literal spelling of the event (jevents.py `real_event()`).
    Real(&'static [(Term, &'static str)]),
    /// `config=..` (and `config1=..`).
    Raw,
}

/// Why text does not name an event of the generation, or not one perf can open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerfError {
    /// The text does not parse.
    Syntax(SyntaxError),
    /// No event of the generation has that name.
    UnknownEvent {
        /// The generation.
        generation: &'static str,
        /// The nearest name, when one is close.
        suggestion: Option<&'static str>,
    },
    /// A perf string for another PMU than the generation's.
    WrongPmu {
        /// The generation's PMU.
        expected: &'static str,
    },
    /// The encoding does not fit the generation's event select (a field it lacks, a value
    /// too wide, an event restricted to a fixed counter given a counter modifier, ...).
    Encode(EncodeError),
    /// A value too wide for its term.
    TooWide {
        /// The term (`event`, `umask`, `cmask`, a flag).
        term: &'static str,
        /// The value given.
        value: u64,
    },
    /// `ldlat=`/`offcore_rsp=` (or `frontend=`) for an event without that auxiliary MSR, or
    /// two auxiliary terms.
    AuxMsr {
        /// The term.
        term: &'static str,
    },
    /// A raw config that sets bits the event select reserves.
    Reserved {
        /// The reserved bits set.
        bits: u64,
    },
    /// `config=` together with event terms: one or the other.
    ConfigAndTerms,
    /// A perf string without `event=` or `config=`.
    NoEvent,
    /// `int` or `en`: the kernel sets INT and EN itself.
    KernelOwned,
    /// `u=0` and `k=0`: nothing would be counted.
    NothingCounted,
    /// Detection found no PMU the definitions describe on this CPU.
    NoPmu,
    /// A counter-mask or filter modifier on an event only a fixed counter counts.
    FixedOnly {
        /// The event.
        event: &'static str,
    },
    /// A perf generic event the kernel maps to no event on this generation (`ref-cycles`
    /// before Zen 4, `stalled-cycles-backend` from Haswell on).
    NoGenericEvent {
        /// perf's name of the generic event.
        event: &'static str,
        /// The generation whose mapping was used.
        generation: &'static str,
    },
    /// A perf generic event whose architectural event CPUID.0AH:EBX reports unavailable: the
    /// kernel does not map it either (`intel_arch_events_quirk`).
    Unavailable {
        /// perf's name of the generic event.
        event: &'static str,
        /// The architectural event it counts.
        arch_event: &'static str,
    },
}

impl fmt::Display for PerfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PerfError::Syntax(e) => e.fmt(f),
            PerfError::UnknownEvent {
                generation,
                suggestion,
            } => {
                write!(f, "unknown event for {generation}")?;
                match suggestion {
                    Some(s) => write!(f, " (did you mean {s}?)"),
                    None => Ok(()),
                }
            }
            PerfError::WrongPmu { expected } => {
                write!(f, "this generation's events are on PMU `{expected}`")
            }
            PerfError::Encode(e) => e.fmt(f),
            PerfError::TooWide { term, value } => {
                write!(f, "`{term}={value:#x}` does not fit the event select")
            }
            PerfError::AuxMsr { term } => write!(
                f,
                "`{term}=` needs an event that programs that MSR, and one auxiliary value only"
            ),
            PerfError::Reserved { bits } => {
                write!(f, "the raw config sets reserved bits {bits:#x}")
            }
            PerfError::ConfigAndTerms => f.write_str("`config=` and event terms are exclusive"),
            PerfError::NoEvent => f.write_str("the perf string has no `event=` or `config=`"),
            PerfError::KernelOwned => {
                f.write_str("`int` and `en` are the kernel's to set; leave them out")
            }
            PerfError::NothingCounted => f.write_str("`u=0` and `k=0` together count nothing"),
            PerfError::NoPmu => {
                f.write_str("this CPU has no PMU the definitions describe (see `pmu info`)")
            }
            PerfError::FixedOnly { event } => write!(
                f,
                "{event} is counted by a fixed counter only: it takes no counter-mask or filter modifier"
            ),
            PerfError::NoGenericEvent { event, generation } => write!(
                f,
                "the kernel maps perf's `{event}` to no event on {generation}"
            ),
            PerfError::Unavailable { event, arch_event } => write!(
                f,
                "perf's `{event}` counts {arch_event}, which CPUID.0AH:EBX reports unavailable on this CPU"
            ),
        }
    }
}

impl core::error::Error for PerfError {}

impl From<SyntaxError> for PerfError {
    fn from(e: SyntaxError) -> Self {
        PerfError::Syntax(e)
    }
}

impl From<EncodeError> for PerfError {
    fn from(e: EncodeError) -> Self {
        PerfError::Encode(e)
    }
}

impl PerfConfig {
    /// The perf PMU of `generation`'s events (see [`PerfConfig::pmu`]).
    pub fn pmu_of(generation: Generation) -> &'static str {
        (MODEL_SPECS.iter())
            .find(|m| m.id == generation.id())
            .map_or("cpu", |m| m.perf_pmu)
    }

    /// Resolves `input` (see the [module](self) docs) for `generation`, on its PMU
    /// ([`PerfConfig::pmu_of`]); perf's generic events as the kernel maps them on it.
    pub fn parse(generation: Generation, input: &str) -> Result<PerfConfig, PerfError> {
        let context = Context {
            pmu: Self::pmu_of(generation),
            generic: GenericEvents::of(generation.id()),
            unavailable: 0,
        };
        Self::parse_on(generation, &context, input)
    }

    /// Resolves `input` for the CPU detection describes: its model when its tables are
    /// compiled in, else its generation; on the PMU of the core it ran on (on a hybrid part,
    /// the model's `cpu_core`, `cpu_atom` or `cpu_lowpower`, else the one of its core type;
    /// `cpu` otherwise, even for a model that also has hybrid parts). Generic events follow
    /// [`PerfConfig::detected_generic`], and one whose architectural event CPUID reports
    /// unavailable is refused ([`PerfError::Unavailable`]), as the kernel refuses it.
    pub fn parse_detected(info: &PmuInfo, input: &str) -> Result<PerfConfig, PerfError> {
        let generation = (info.model.or(info.generation)).ok_or(PerfError::NoPmu)?;
        let context = Context {
            pmu: Self::detected_pmu(info),
            generic: Self::detected_generic(info),
            unavailable: info.counters.unavailable_events,
        };
        Self::parse_on(generation, &context, input)
    }

    /// The perf PMU of the core detection ran on (see [`PerfConfig::parse_detected`]).
    pub fn detected_pmu(info: &PmuInfo) -> &'static str {
        let model = (info.model_id).and_then(|id| MODEL_SPECS.iter().find(|m| m.id == id));
        match (info.core_type, model) {
            (Some(_), Some(m)) => m.perf_pmu,
            (Some(t), None) => spell::pmu_for_core_type(t).unwrap_or("cpu"),
            (None, _) => "cpu",
        }
    }

    /// What perf's generic events count on the CPU detection describes: its model's mapping
    /// (compiled in or not); else, when CPUID hides what the model's registers need (a guest
    /// without AMD's PerfCtrExtCore), the mapping of the model its family and model name,
    /// since the kernel picks generic events by the CPU's family and model whatever counters
    /// a hypervisor offers; else its generation's.
    pub fn detected_generic(info: &PmuInfo) -> Option<&'static GenericEvents> {
        let named = info.notes().find_map(|n| match n {
            Note::ModelNotTaken { model, .. } => Some(model),
            _ => None,
        });
        let generation = info.generation.map(Generation::id);
        [info.model_id, named, generation]
            .into_iter()
            .flatten()
            .find_map(GenericEvents::of)
    }

    fn parse_on(
        generation: Generation,
        context: &Context,
        input: &str,
    ) -> Result<PerfConfig, PerfError> {
        let spec = spell::parse(input)?;
        resolve(&generation.visit(OpsOf(generation)), context, &spec)
    }
}

/// What the resolution takes besides the generation: the PMU, the generic events' mapping
/// and the architectural events CPUID reports unavailable (by `cpuid_bit`).
struct Context {
    pmu: &'static str,
    generic: Option<&'static GenericEvents>,
    unavailable: u32,
}

/// What the resolver needs of the generation `A`, taken once: the resolution itself is not
/// generic, so it is compiled once rather than once per generation.
struct Ops {
    generation: Generation,
    encode_raw_config: fn(&EventDesc) -> Result<u64, EncodeError>,
    place_event: fn(u32, &EventDesc) -> Result<u64, PlacementError>,
    arch_events: &'static [ArchEventInfo],
    registers: &'static [RegInfo],
}

/// [`Ops`] of the generation `A`.
struct OpsOf(Generation);

impl ArchVisitor for OpsOf {
    type Output = Ops;

    fn visit<A: Arch>(self) -> Ops {
        Ops {
            generation: self.0,
            encode_raw_config: A::encode_raw_config,
            place_event: A::place_event,
            arch_events: A::arch_events(),
            registers: A::registers(),
        }
    }
}

/// [`PerfConfig::parse`] once `spec` is parsed.
fn resolve(ops: &Ops, cx: &Context, spec: &spell::Spec<'_>) -> Result<PerfConfig, PerfError> {
    let pmu = cx.pmu;
    if let Some(p) = spec.pmu
        && p != pmu
    {
        return Err(PerfError::WrongPmu { expected: pmu });
    }
    let (mut config, modifiers) = match spec.event {
        Event::Name(_) => named(ops, spec, cx)?,
        Event::Terms(terms) => (terms_config(ops, pmu, &terms)?, spec.modifiers),
        Event::Raw(raw) => (raw_config(ops, pmu, raw, 0)?, spec.modifiers),
    };
    if modifiers.int.is_some() || modifiers.en.is_some() {
        return Err(PerfError::KernelOwned);
    }
    let explicit = modifiers.usr.is_some() || modifiers.os.is_some();
    let usr = modifiers.usr.unwrap_or(!explicit);
    let os = modifiers.os.unwrap_or(!explicit);
    if !usr && !os {
        return Err(PerfError::NothingCounted);
    }
    config.exclude_user = !usr;
    config.exclude_kernel = !os;
    config.precise = modifiers.precise.unwrap_or(0);
    Ok(config)
}

/// A named event: the longest name the text starts with (names may contain colons), then its
/// modifiers.
fn named(
    ops: &Ops,
    spec: &spell::Spec<'_>,
    cx: &Context,
) -> Result<(PerfConfig, Modifiers), PerfError> {
    for (name, end) in spec.modifier_splits() {
        let generic = GenericEvent::from_name(name.trim());
        let desc = match generic {
            Some(g) => generic_desc(ops, cx, g)?,
            None => match find(ops, name.trim()) {
                Some(desc) => desc,
                None => continue,
            },
        };
        let modifiers = match spec.text.get(end + 1..) {
            Some(list) => Modifiers::parse(list, end + 1)?,
            None => Modifiers::default(),
        };
        let mut c = named_config(ops, cx.pmu, &desc, &modifiers, generic.is_none())?;
        if generic.is_some() {
            c.name = Some(desc.name).filter(|n| !n.is_empty());
            c.generic = generic;
        }
        return Ok((c, modifiers));
    }
    if let Some(e) = spec.modifier_error {
        return Err(e.into());
    }
    let first = spec.text.split(':').next().unwrap_or("").trim();
    Err(PerfError::UnknownEvent {
        generation: ops.generation.id(),
        suggestion: nearest(ops, first),
    })
}

/// The event perf's generic event `g` counts (see [`PerfConfig::detected_generic`]): the
/// generation's own event with those terms when it has one (so an event only a fixed counter
/// counts stays one), else the terms as they are.
fn generic_desc(ops: &Ops, cx: &Context, g: GenericEvent) -> Result<EventDesc, PerfError> {
    let no_event = |generation| PerfError::NoGenericEvent {
        event: g.name(),
        generation,
    };
    let map = cx.generic.ok_or(no_event(ops.generation.id()))?;
    let text = map.get(g.name()).ok_or(no_event(map.id))?;
    // The definitions' terms were checked when they were loaded (`generic-events:`).
    let terms = Terms::parse(text, 0)?;
    let d = terms_desc(&terms)?;
    if let Some(a) = ops
        .arch_events
        .iter()
        .find(|a| event_terms(&a.desc) == event_terms(&d))
        && a.cpuid_bit < 32
        && cx.unavailable & (1 << a.cpuid_bit) != 0
    {
        return Err(PerfError::Unavailable {
            event: g.name(),
            arch_event: a.name,
        });
    }
    // One a general counter counts first: the kernel schedules `cycles` (0x3c) anywhere,
    // with or without a counter mask, even where a fixed-only event shares the encoding.
    let mut same = definitions(ops, &d);
    let first = same.next();
    let general = first
        .filter(|e| e.counters != 0)
        .or_else(|| same.find(|e| e.counters != 0));
    Ok(general.or(first).unwrap_or(d))
}

/// The event named `name` (ASCII case-insensitive): a model event, then an architectural one.
fn find(ops: &Ops, name: &str) -> Option<EventDesc> {
    if let Some(d) = ops.generation.model_event(name) {
        return Some(d);
    }
    (ops.arch_events.iter())
        .find(|e| e.name.eq_ignore_ascii_case(name))
        .map(|e| e.desc)
}

/// An event of the generation encoded exactly as `d` (event, unit masks, CMASK, INV, EDGE,
/// AnyThread, EQ), if there is one.
fn defined(ops: &Ops, d: &EventDesc) -> Option<EventDesc> {
    definitions(ops, d).next()
}

/// Every event of the generation encoded exactly as `d`: model events, then architectural.
fn definitions(ops: &Ops, d: &EventDesc) -> impl Iterator<Item = EventDesc> {
    let terms = event_terms(d);
    let table = ops.generation.model_events();
    let model = (0..table.len()).map(move |i| table.desc(i));
    let arch = ops.arch_events.iter().map(|e| e.desc);
    model.chain(arch).filter(move |e| event_terms(e) == terms)
}

/// The event name nearest `name`, when one is within a third of its length in edits.
fn nearest(ops: &Ops, name: &str) -> Option<&'static str> {
    let table = ops.generation.model_events();
    let names = (0..table.len()).map(|i| table.name(i));
    let names = names.chain(ops.arch_events.iter().map(|e| e.name));
    let limit = (name.len() / 3).max(1);
    let mut best: Option<(usize, &'static str)> = None;
    for candidate in names {
        if let Some(d) = distance(name, candidate, limit)
            && best.is_none_or(|(b, _)| d < b)
        {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, n)| n)
}

/// The ASCII case-insensitive edit distance between `a` and `b`, when at most `limit`
/// (names over 96 bytes are not compared).
fn distance(a: &str, b: &str, limit: usize) -> Option<usize> {
    const MAX: usize = 96;
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() > MAX || b.len() > MAX || a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let mut prev = [0usize; MAX + 1];
    let mut row = [0usize; MAX + 1];
    for (j, p) in prev.iter_mut().enumerate().take(b.len() + 1) {
        *p = j;
    }
    for (i, &ca) in a.iter().enumerate() {
        row[0] = i + 1;
        let mut low = row[0];
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(!ca.eq_ignore_ascii_case(&cb));
            row[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(row[j] + 1);
            low = low.min(row[j + 1]);
        }
        if low > limit {
            return None;
        }
        prev[..=b.len()].copy_from_slice(&row[..=b.len()]);
    }
    Some(prev[b.len()]).filter(|&d| d <= limit)
}

/// A named event with its modifiers; `by_name`: in perf's spelling of that name, when it has
/// one (a generic event keeps the encoding the kernel gives it).
fn named_config(
    ops: &Ops,
    pmu: &'static str,
    desc: &EventDesc,
    m: &Modifiers,
    by_name: bool,
) -> Result<PerfConfig, PerfError> {
    let counter_modifiers = m.cmask.is_some()
        || m.inv.is_some()
        || m.edge.is_some()
        || m.any.is_some()
        || m.eq.is_some();
    let fixed_only = desc.counters == 0 && desc.fixed.is_some();
    if fixed_only && (counter_modifiers || m.ldlat.is_some() || m.offcore_rsp.is_some()) {
        return Err(PerfError::FixedOnly { event: desc.name });
    }
    let real = spell::real_event(desc.name).filter(|_| by_name && !counter_modifiers);
    if let Some(terms) = real {
        let mut values = [0u64; Term::COUNT];
        for (t, text) in terms {
            values[*t as usize] = spell::parse_number(text).unwrap_or(0);
        }
        let config = values[Term::Event as usize]
            | values[Term::Umask as usize] << 8
            | values[Term::Any as usize] << 21;
        let mut c = config_of(pmu, config, 0, Spelling::Real(terms));
        c.name = Some(desc.name);
        return Ok(c);
    }
    let (config, mut values) = if fixed_only {
        // Linux's pseudo-encoding: event 0 and the unit mask Intel gives the event.
        let config = u64::from(desc.event) | u64::from(desc.umask) << 8;
        let mut values = [0u64; Term::COUNT];
        values[Term::Event as usize] = desc.event.into();
        values[Term::Umask as usize] = desc.umask.into();
        (config, values)
    } else {
        let d = EventDesc {
            cmask: narrow(m.cmask.unwrap_or(desc.cmask.into()), "cmask")?,
            inv: m.inv.unwrap_or(desc.inv),
            edge: m.edge.unwrap_or(desc.edge),
            any: m.any.unwrap_or(desc.any),
            eq: m.eq.unwrap_or(desc.eq),
            ..*desc
        };
        (event_config(ops, &d, desc)?, event_terms(&d))
    };
    let (mut config1, mut aux, mut unprogrammed) = (0, None, None);
    if let Some(msr) = desc.msr {
        match Term::for_msr(msr.index) {
            Some(t) => {
                (config1, aux) = (msr.value, Some(t));
                values[t as usize] = msr.value;
            }
            None => unprogrammed = Some(msr),
        }
    }
    for (given, term) in [(m.ldlat, Term::Ldlat), (m.offcore_rsp, Term::OffcoreRsp)] {
        let Some(v) = given else { continue };
        if aux != Some(term) {
            return Err(PerfError::AuxMsr { term: term.key() });
        }
        config1 = v;
        values[term as usize] = v;
    }
    let mut c = config_of(pmu, config, config1, Spelling::Terms(values, aux));
    c.name = Some(desc.name);
    c.unprogrammed_msr = unprogrammed;
    Ok(c)
}

/// `perf_event_attr.config` of `d`, the event `vendor` with the request's modifiers: the
/// manual's constraints on field combinations refuse what the request causes, not what the
/// vendor defines (Intel's `UOPS_EXECUTED.CORE_CYCLES_NONE` sets INV without CMASK; perf
/// opens it as defined), as the tools' encoder decides.
fn event_config(ops: &Ops, d: &EventDesc, vendor: &EventDesc) -> Result<u64, PerfError> {
    match (ops.encode_raw_config)(d) {
        Err(EncodeError::Constraint(c)) => match (ops.encode_raw_config)(vendor) {
            Err(EncodeError::Constraint(own)) if own.id == c.id => {
                let unrestricted = EventDesc {
                    counters: u32::MAX,
                    ..*d
                };
                let on_any = if d.counters == 0 { d } else { &unrestricted };
                Ok((ops.place_event)(0, on_any).map_err(EncodeError::Placement)?)
            }
            _ => Err(EncodeError::Constraint(c).into()),
        },
        other => Ok(other?),
    }
}

/// The terms of an event as perf writes them (UMASK2 folded into `umask` above its 8 bits).
fn event_terms(d: &EventDesc) -> [u64; Term::COUNT] {
    let mut v = [0u64; Term::COUNT];
    v[Term::Event as usize] = d.event.into();
    v[Term::Umask as usize] = u64::from(d.umask) | u64::from(d.umask2) << 8;
    v[Term::Cmask as usize] = d.cmask.into();
    v[Term::Inv as usize] = d.inv.into();
    v[Term::Edge as usize] = d.edge.into();
    v[Term::Any as usize] = d.any.into();
    v[Term::Eq as usize] = d.eq.into();
    v
}

/// A perf string's terms.
fn terms_config(ops: &Ops, pmu: &'static str, t: &spell::Terms) -> Result<PerfConfig, PerfError> {
    let aux = [Term::OffcoreRsp, Term::Ldlat, Term::Frontend];
    let mut config1 = t.config1;
    for term in aux {
        if let Some(v) = t.get(term) {
            if config1.is_some() {
                return Err(PerfError::AuxMsr { term: term.key() });
            }
            config1 = Some(v);
        }
    }
    let has_terms = Term::ALL.iter().any(|&x| !x.is_aux() && t.get(x).is_some());
    if let Some(raw) = t.config {
        if has_terms {
            return Err(PerfError::ConfigAndTerms);
        }
        return raw_config(ops, pmu, raw, config1.unwrap_or(0));
    }
    let d = terms_desc(t)?;
    let config = match (ops.encode_raw_config)(&d) {
        // The terms of an event the vendor defines this way: as defined (see `event_config`).
        Err(EncodeError::Constraint(_)) if let Some(vendor) = defined(ops, &d) => {
            event_config(ops, &d, &vendor)?
        }
        other => other?,
    };
    let mut values = event_terms(&d);
    let mut given = None;
    for term in aux {
        if let Some(v) = t.get(term) {
            values[term as usize] = v;
            given = Some(term);
        }
    }
    let spelling = Spelling::Terms(values, given);
    Ok(config_of(pmu, config, config1.unwrap_or(0), spelling))
}

/// The event a perf string's event terms (`event=`, `umask=`, `cmask=`, flags) describe,
/// on any counter.
fn terms_desc(t: &Terms) -> Result<EventDesc, PerfError> {
    let event = t.get(Term::Event).ok_or(PerfError::NoEvent)?;
    let flag = |term: Term| -> Result<bool, PerfError> {
        match t.get(term).unwrap_or(0) {
            v @ (0 | 1) => Ok(v == 1),
            value => Err(PerfError::TooWide {
                term: term.key(),
                value,
            }),
        }
    };
    let umask = t.get(Term::Umask).unwrap_or(0);
    Ok(EventDesc {
        event: narrow(event, "event")?,
        umask: (umask & 0xFF) as u8,
        umask2: narrow(umask >> 8, "umask")?,
        cmask: narrow(t.get(Term::Cmask).unwrap_or(0), "cmask")?,
        inv: flag(Term::Inv)?,
        edge: flag(Term::Edge)?,
        any: flag(Term::Any)?,
        eq: flag(Term::Eq)?,
        ..EventDesc::new("", 0, 0)
    })
}

/// A raw config (`r20d1`, `config=`): any bits but those the event select reserves.
fn raw_config(
    ops: &Ops,
    pmu: &'static str,
    raw: u64,
    config1: u64,
) -> Result<PerfConfig, PerfError> {
    let reserved = (ops.registers.iter())
        .find(|r| r.role == Some(Role::EventSelect))
        .map_or(0, |r| r.reserved_mask);
    if raw & reserved != 0 {
        return Err(PerfError::Reserved {
            bits: raw & reserved,
        });
    }
    Ok(config_of(pmu, raw, config1, Spelling::Raw))
}

/// `v` as a field of type `T`, or [`PerfError::TooWide`].
fn narrow<T: TryFrom<u64>>(v: u64, term: &'static str) -> Result<T, PerfError> {
    T::try_from(v).map_err(|_| PerfError::TooWide { term, value: v })
}

fn config_of(pmu: &'static str, config: u64, config1: u64, spelling: Spelling) -> PerfConfig {
    PerfConfig {
        pmu,
        config,
        config1,
        exclude_user: false,
        exclude_kernel: false,
        precise: 0,
        name: None,
        generic: None,
        unprogrammed_msr: None,
        spelling,
    }
}

impl fmt::Display for PerfConfig {
    /// The perf string: `pmu/terms/`, then `u` or `k` when one level is excluded and a `p`
    /// per level of precision.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/", self.pmu)?;
        match self.spelling {
            Spelling::Real(terms) => {
                for (i, (t, text)) in terms.iter().enumerate() {
                    let sep = if i == 0 { "" } else { "," };
                    write!(f, "{sep}{}={text}", t.key())?;
                }
            }
            Spelling::Terms(values, aux) => {
                for (i, t) in Term::ALL.iter().enumerate() {
                    let v = values[i];
                    if v == 0 && *t != Term::Event && Some(*t) != aux {
                        continue;
                    }
                    let sep = if *t == Term::Event { "" } else { "," };
                    if t.is_aux() {
                        write!(f, "{sep}{}={v:#x}", t.key())?;
                    } else if t.is_decimal() {
                        write!(f, "{sep}{}={v}", t.key())?;
                    } else {
                        write!(f, "{sep}{}={}", t.key(), Llx(v))?;
                    }
                }
                // An auxiliary value given as `config1=`.
                if self.config1 != 0 && aux.is_none() {
                    write!(f, ",config1={:#x}", self.config1)?;
                }
            }
            Spelling::Raw => {
                write!(f, "config={:#x}", self.config)?;
                if self.config1 != 0 {
                    write!(f, ",config1={:#x}", self.config1)?;
                }
            }
        }
        f.write_str("/")?;
        match (self.exclude_user, self.exclude_kernel) {
            (false, true) => f.write_str("u")?,
            (true, false) => f.write_str("k")?,
            _ => {}
        }
        for _ in 0..self.precise {
            f.write_str("p")?;
        }
        Ok(())
    }
}
