//! How Linux perf spells a core event, written once for the tools' encoder (`pmu_defs::encode`)
//! and the run-time resolver (`pmu_regs::perf`): the event terms in perf's order ([`Term`]),
//! the events perf spells its own way ([`real_event`]), how numbers are printed ([`Llx`]) and
//! the parser of what a user types ([`parse`]), and perf's generic hardware event names
//! ([`GenericEvent`]).
//!
//! Three spellings are read:
//!
//! * a name with modifiers: `MEM_LOAD_RETIRED.L3_MISS:u:cmask=2`, modifiers after colons or
//!   commas (`u`, `k`, `edge`, `inv`, `cmask=N`, `any`, `eq`, `int`, `en`, `ldlat=N`,
//!   `offcore_rsp=N`);
//! * a perf event string: `cpu/event=0xd1,umask=0x20,cmask=2/u` (terms [`Term`], `config=`,
//!   `config1=`, `period=`; after the closing slash the privilege letters `u`, `k`);
//! * a raw config: `r20d1` (`perf_event_attr.config` in hex).
//!
//! Parsing is linear in the input and stops at the first problem: a modifier or term given twice
//! is an error at its second occurrence, so a megabyte of `:u` costs one pass over two bytes.
//!
//! ```
//! use pmu_vocab::perf::{Event, Term, parse};
//!
//! let s = parse("cpu_core/event=0xd1,umask=0x20,cmask=2/u").unwrap();
//! assert_eq!(s.pmu, Some("cpu_core"));
//! let Event::Terms(t) = s.event else { panic!() };
//! assert_eq!((t.get(Term::Event), t.get(Term::Umask)), (Some(0xD1), Some(0x20)));
//! assert_eq!((s.modifiers.usr, s.modifiers.os), (Some(true), Some(false)));
//! // A name's modifiers that do not parse: kept for the resolver, since some names have colons.
//! let twice = parse("LLC_MISSES:u:u").unwrap().modifier_error.unwrap();
//! assert_eq!(twice.to_string(), "at byte 13: modifier given twice");
//! ```

use core::fmt;

mod generic;
pub use generic::GenericEvent;

/// A perf event term, in perf's order (jevents.py `event_fields`; the derived `Ord` is that
/// order): `event=` first, then `any=`, `cmask=`, `edge=`, `eq=`, `inv=`, `umask=`, then the
/// auxiliary-MSR term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Term {
    /// `event=`.
    Event,
    /// `any=` (AnyThread).
    Any,
    /// `cmask=`.
    Cmask,
    /// `edge=`.
    Edge,
    /// `eq=` (Intel perfmon v6's equal-compare; perf has no JSON key for it, so its place is
    /// after `edge=`, where `Equal` sorts among jevents' keys).
    Eq,
    /// `inv=`.
    Inv,
    /// `umask=` (on perfmon v6 UMASK2 above UMASK's 8 bits).
    Umask,
    /// `offcore_rsp=` (MSR_OFFCORE_RSP_x), in `config1`.
    OffcoreRsp,
    /// `ldlat=` (MSR_PEBS_LD_LAT_THRESHOLD), in `config1`.
    Ldlat,
    /// `frontend=` (MSR_PEBS_FRONTEND), in `config1`.
    Frontend,
}

impl Term {
    /// How many terms there are.
    pub const COUNT: usize = 10;
    /// Every term, in perf's order.
    pub const ALL: [Term; Term::COUNT] = [
        Term::Event,
        Term::Any,
        Term::Cmask,
        Term::Edge,
        Term::Eq,
        Term::Inv,
        Term::Umask,
        Term::OffcoreRsp,
        Term::Ldlat,
        Term::Frontend,
    ];

    /// The term's name as perf writes it (without `=`).
    pub const fn key(self) -> &'static str {
        match self {
            Term::Event => "event",
            Term::Any => "any",
            Term::Cmask => "cmask",
            Term::Edge => "edge",
            Term::Eq => "eq",
            Term::Inv => "inv",
            Term::Umask => "umask",
            Term::OffcoreRsp => "offcore_rsp",
            Term::Ldlat => "ldlat",
            Term::Frontend => "frontend",
        }
    }

    /// The term named `key` (as perf writes it, ASCII case-insensitive).
    pub fn from_key(key: &str) -> Option<Term> {
        Term::ALL
            .into_iter()
            .find(|t| t.key().eq_ignore_ascii_case(key))
    }

    /// The term perf uses for an auxiliary MSR (jevents `lookup_msr()`), if it has one.
    pub const fn for_msr(index: u32) -> Option<Term> {
        match index {
            0x1A6 | 0x1A7 => Some(Term::OffcoreRsp),
            0x3F6 => Some(Term::Ldlat),
            0x3F7 => Some(Term::Frontend),
            _ => None,
        }
    }

    /// Whether the term's value goes in `config1` (an auxiliary MSR) rather than `config`.
    pub const fn is_aux(self) -> bool {
        matches!(self, Term::OffcoreRsp | Term::Ldlat | Term::Frontend)
    }

    /// Whether perf writes the term's value in decimal (Intel writes `CounterMask`,
    /// `EdgeDetect`, `Invert` and `AnyThread` in decimal, so `cmask=16`, never `cmask=0x10`)
    /// rather than with [`Llx`].
    pub const fn is_decimal(self) -> bool {
        matches!(
            self,
            Term::Any | Term::Cmask | Term::Edge | Term::Eq | Term::Inv
        )
    }
}

/// The events jevents.py spells with a fixed string instead of their JSON encoding
/// (`real_event()`), without the `period=` term. Names compare ASCII case-insensitively.
const REAL_EVENTS: &[(&str, &[(Term, &str)])] = &[
    ("INST_RETIRED.ANY", &[(Term::Event, "0xc0")]),
    ("INST_RETIRED.ANY_P", &[(Term::Event, "0xc0")]),
    (
        "CPU_CLK_UNHALTED.REF",
        &[(Term::Event, "0x0"), (Term::Umask, "0x03")],
    ),
    ("CPU_CLK_UNHALTED.THREAD", &[(Term::Event, "0x3c")]),
    ("CPU_CLK_UNHALTED.CORE", &[(Term::Event, "0x3c")]),
    (
        "CPU_CLK_UNHALTED.THREAD_ANY",
        &[(Term::Event, "0x3c"), (Term::Any, "1")],
    ),
];

/// perf's own spelling of an event, when jevents.py has one: the terms with their text as
/// perf prints it (`event=0x0,umask=0x03` for `CPU_CLK_UNHALTED.REF`). The kernel schedules
/// these onto the fixed counters.
pub fn real_event(name: &str) -> Option<&'static [(Term, &'static str)]> {
    REAL_EVENTS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, t)| *t)
}

/// A number as jevents.py's `llx()` prints it: 0 to 9 in decimal, larger values as `0x` and
/// lowercase hex (`Llx(0x2e)` shows `0x2e`, `Llx(9)` shows `9`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Llx(pub u64);

impl fmt::Display for Llx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 < 10 {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{:#x}", self.0)
        }
    }
}

/// The perf PMU name for a core with the given role in Intel's mapfile.csv
/// (`Core Role Name`: `Core`, `Atom`, `LowPower_Atom`; empty on non-hybrid parts): `cpu`,
/// `cpu_core`, `cpu_atom` or `cpu_lowpower` (jevents `unit_to_pmu()`).
pub fn pmu_for_core_role(role: &str) -> &'static str {
    if role.is_empty() {
        "cpu"
    } else if role.eq_ignore_ascii_case("core") {
        "cpu_core"
    } else if role.eq_ignore_ascii_case("lowpower_atom") {
        "cpu_lowpower"
    } else {
        "cpu_atom"
    }
}

/// The perf PMU of a hybrid core by its type (CPUID.1AH:EAX\[31:24\]) when the model is not
/// known: `cpu_core` for Core (40H), `cpu_atom` for Atom (20H), as Linux names the PMUs it
/// registers per core type (`arch/x86/events/intel/core.c`, `intel_pmu_init` on hybrid parts);
/// `None` for another type. The low-power Atom PMU (`cpu_lowpower`) is told by the model.
pub fn pmu_for_core_type(core_type: u8) -> Option<&'static str> {
    match core_type {
        0x40 => Some("cpu_core"),
        0x20 => Some("cpu_atom"),
        _ => None,
    }
}

/// Parses decimal, `0x` hex or `0b` binary, with `_` separators.
pub fn parse_number(s: &str) -> Option<u64> {
    let s = s.trim();
    let (digits, radix) = match s.get(..2) {
        Some(p) if p.eq_ignore_ascii_case("0x") => (&s[2..], 16),
        Some(p) if p.eq_ignore_ascii_case("0b") => (&s[2..], 2),
        _ => (s, 10),
    };
    let mut v: u64 = 0;
    let mut any = false;
    for c in digits.chars() {
        if c == '_' {
            continue;
        }
        let d = c.to_digit(radix)?;
        v = v.checked_mul(radix as u64)?.checked_add(d as u64)?;
        any = true;
    }
    any.then_some(v)
}

/// The highest precision (`ppp`, `precise_ip` 3).
pub const MAX_PRECISE: u8 = 3;

/// A modifier of a named event (`LLC_MISSES:u:cmask=2`). The first of each group is how it
/// is written back; the others are accepted.
const MODIFIERS: &[(Modifier, &[&str])] = &[
    (Modifier::Usr, &["u", "usr", "user"]),
    (Modifier::Os, &["k", "os", "kernel"]),
    (Modifier::Edge, &["edge", "e"]),
    (Modifier::Inv, &["inv", "i"]),
    (Modifier::Cmask, &["cmask", "c"]),
    (Modifier::Any, &["any", "t"]),
    (Modifier::Eq, &["eq"]),
    (Modifier::Int, &["int", "pmi"]),
    (Modifier::En, &["en"]),
    (Modifier::Ldlat, &["ldlat"]),
    (Modifier::OffcoreRsp, &["offcore_rsp"]),
    (Modifier::Precise, &["precise", "p", "pp", "ppp"]),
];

/// One modifier (see [`Modifiers`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modifier {
    /// `u`: count at privilege levels 1 to 3.
    Usr,
    /// `k`: count at privilege level 0.
    Os,
    /// `edge`.
    Edge,
    /// `inv`.
    Inv,
    /// `cmask=N`.
    Cmask,
    /// `any` (AnyThread).
    Any,
    /// `eq` (equal-compare).
    Eq,
    /// `int` (interrupt on overflow; perf sets it itself).
    Int,
    /// `en` (enable; perf sets it itself).
    En,
    /// `ldlat=N` (the load-latency threshold, in `config1`).
    Ldlat,
    /// `offcore_rsp=N` (the off-core response MSR value, in `config1`).
    OffcoreRsp,
    /// `p`, `pp`, `ppp` or `precise=N` (N at most 3): the precision asked for
    /// (`perf_event_attr.precise_ip`: 1 and 2 sample with PEBS, 3 with precise distribution).
    Precise,
}

impl Modifier {
    /// How the modifier is written.
    pub fn key(self) -> &'static str {
        MODIFIERS
            .iter()
            .find(|(m, _)| *m == self)
            .map_or("", |(_, names)| names[0])
    }

    /// The modifier named `name` (any of its spellings, ASCII case-insensitive).
    pub fn from_name(name: &str) -> Option<Modifier> {
        MODIFIERS
            .iter()
            .find(|(_, names)| names.iter().any(|n| n.eq_ignore_ascii_case(name)))
            .map(|(m, _)| *m)
    }

    /// Every spelling of every modifier, canonical ones first in each group.
    pub fn spellings() -> impl Iterator<Item = &'static str> {
        MODIFIERS
            .iter()
            .flat_map(|(_, names)| names.iter().copied())
    }

    /// Whether the modifier takes a number (`cmask=2`) rather than a flag (`u`, `inv=0`).
    pub const fn takes_number(self) -> bool {
        matches!(
            self,
            Modifier::Cmask | Modifier::Ldlat | Modifier::OffcoreRsp
        )
    }
}

/// Modifiers of a request; `None`: not given (the event's own value, or the default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Modifiers {
    /// Count at privilege levels 1-3.
    pub usr: Option<bool>,
    /// Count at privilege level 0.
    pub os: Option<bool>,
    /// Edge detect.
    pub edge: Option<bool>,
    /// Invert.
    pub inv: Option<bool>,
    /// Counter mask.
    pub cmask: Option<u64>,
    /// AnyThread.
    pub any: Option<bool>,
    /// Equal-compare.
    pub eq: Option<bool>,
    /// Interrupt on overflow.
    pub int: Option<bool>,
    /// Enable.
    pub en: Option<bool>,
    /// Load-latency threshold (`config1`).
    pub ldlat: Option<u64>,
    /// Off-core response value (`config1`).
    pub offcore_rsp: Option<u64>,
    /// Precision (`precise_ip`, 0 to 3).
    pub precise: Option<u8>,
}

impl Modifiers {
    /// Parses a list such as `u,k,cmask=2` or `u:k:cmask=2`; `at` is the list's offset in the
    /// whole input, for the error's position. Stops at the first problem.
    pub fn parse(list: &str, at: usize) -> Result<Modifiers, SyntaxError> {
        let mut m = Modifiers::default();
        let mut start = 0;
        for term in list.split([',', ':']) {
            let here = at + start;
            start += term.len() + 1;
            if !term.trim().is_empty() {
                m.add(term.trim(), here)?;
            }
        }
        Ok(m)
    }

    /// Adds one modifier (`u`, `cmask=2`, `inv=0`); `at` is its offset, for errors.
    pub fn add(&mut self, term: &str, at: usize) -> Result<(), SyntaxError> {
        let (name, value) = match term.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (term.trim(), None),
        };
        let bad = |kind| SyntaxError { at, kind };
        if name.len() > usize::from(MAX_PRECISE) && name.bytes().all(|b| b == b'p') {
            return Err(bad(ErrorKind::BadPrecise));
        }
        let m = Modifier::from_name(name).ok_or(bad(ErrorKind::UnknownModifier))?;
        if m == Modifier::Precise {
            let level = match value {
                None if name.eq_ignore_ascii_case("precise") => Err(ErrorKind::NeedsValue),
                None => Ok(name.len() as u64),
                Some(v) => parse_number(v).ok_or(ErrorKind::BadNumber),
            };
            let level = level.map_err(bad)?;
            let level = u8::try_from(level)
                .ok()
                .filter(|&l| l <= MAX_PRECISE)
                .ok_or(bad(ErrorKind::BadPrecise))?;
            return match self.precise {
                Some(_) => Err(bad(ErrorKind::ModifierTwice)),
                None => {
                    self.precise = Some(level);
                    Ok(())
                }
            };
        }
        let number = match (m.takes_number(), value) {
            (true, None) => return Err(bad(ErrorKind::NeedsValue)),
            (true, Some(v)) => parse_number(v).ok_or(bad(ErrorKind::BadNumber))?,
            (false, None) => 1,
            (false, Some(v)) => match parse_number(v) {
                Some(v @ (0 | 1)) => v,
                _ => return Err(bad(ErrorKind::FlagValue)),
            },
        };
        let flag = number != 0;
        let twice = bad(ErrorKind::ModifierTwice);
        fn put<T>(slot: &mut Option<T>, v: T, twice: SyntaxError) -> Result<(), SyntaxError> {
            match slot {
                Some(_) => Err(twice),
                None => {
                    *slot = Some(v);
                    Ok(())
                }
            }
        }
        match m {
            Modifier::Usr => put(&mut self.usr, flag, twice),
            Modifier::Os => put(&mut self.os, flag, twice),
            Modifier::Edge => put(&mut self.edge, flag, twice),
            Modifier::Inv => put(&mut self.inv, flag, twice),
            Modifier::Cmask => put(&mut self.cmask, number, twice),
            Modifier::Any => put(&mut self.any, flag, twice),
            Modifier::Eq => put(&mut self.eq, flag, twice),
            Modifier::Int => put(&mut self.int, flag, twice),
            Modifier::En => put(&mut self.en, flag, twice),
            Modifier::Ldlat => put(&mut self.ldlat, number, twice),
            Modifier::OffcoreRsp => put(&mut self.offcore_rsp, number, twice),
            Modifier::Precise => Ok(()),
        }
    }

    /// True when no modifier is given.
    pub fn is_empty(&self) -> bool {
        *self == Modifiers::default()
    }
}

/// The terms of a perf event string (`event=0xd1,umask=0x20`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Terms {
    values: [Option<u64>; Term::COUNT],
    /// `config=`: the whole `perf_event_attr.config`.
    pub config: Option<u64>,
    /// `config1=`.
    pub config1: Option<u64>,
    /// `period=`: the sampling period (not part of the encoding).
    pub period: Option<u64>,
}

impl Terms {
    /// The value of `term`, if given.
    pub fn get(&self, term: Term) -> Option<u64> {
        self.values[term as usize]
    }

    /// Sets `term` (for building a request by hand).
    pub fn set(&mut self, term: Term, value: u64) {
        self.values[term as usize] = Some(value);
    }

    /// Parses comma-separated terms (`event=0x2e,umask=0x41,inv`); `at` is the list's offset
    /// in the whole input, for the error's position. Stops at the first problem.
    pub fn parse(list: &str, at: usize) -> Result<Terms, SyntaxError> {
        let mut terms = Terms::default();
        let mut here = at;
        for term in list.split(',') {
            if !term.trim().is_empty() {
                terms.add(term, here)?;
            }
            here += term.len() + 1;
        }
        Ok(terms)
    }

    fn add(&mut self, term: &str, at: usize) -> Result<(), SyntaxError> {
        let bad = |kind| SyntaxError { at, kind };
        let (key, value) = match term.split_once('=') {
            Some((k, v)) => (k.trim(), Some(v.trim())),
            None => (term.trim(), None),
        };
        // A flag term without a value is 1 (`edge` = `edge=1`), as in perf; the others need
        // one.
        let flag = matches!(
            Term::from_key(key),
            Some(Term::Any | Term::Edge | Term::Eq | Term::Inv)
        );
        let value = match value {
            Some(v) => parse_number(v).ok_or(bad(ErrorKind::BadNumber))?,
            None if flag => 1,
            None => return Err(bad(ErrorKind::NeedsValue)),
        };
        let slot = if key.eq_ignore_ascii_case("config") {
            &mut self.config
        } else if key.eq_ignore_ascii_case("config1") {
            &mut self.config1
        } else if key.eq_ignore_ascii_case("period") {
            &mut self.period
        } else {
            let t = Term::from_key(key).ok_or(bad(ErrorKind::UnknownTerm))?;
            &mut self.values[t as usize]
        };
        if slot.is_some() {
            return Err(bad(ErrorKind::TermTwice));
        }
        *slot = Some(value);
        Ok(())
    }
}

/// What names the event (see [`parse`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// An event name, possibly containing colons (`OFFCORE_RESPONSE:request=X:response=Y`):
    /// [`Spec::modifier_splits`] gives the places the name may end.
    Name(&'a str),
    /// The terms of a perf event string.
    Terms(Terms),
    /// A raw config (`r20d1`).
    Raw(u64),
}

/// What a user typed, parsed (see the [module](self) docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec<'a> {
    /// The PMU of a perf event string (`cpu`, `cpu_core`, ...).
    pub pmu: Option<&'a str>,
    /// The event.
    pub event: Event<'a>,
    /// The modifiers: after the name's first colon, or the privilege letters after a perf
    /// string's closing slash.
    pub modifiers: Modifiers,
    /// The whole input, trimmed (for another split of a name with colons).
    pub text: &'a str,
    /// Why the text after a name's first colon is not a modifier list, if it is not: an error
    /// unless a longer name (one with colons) explains it.
    pub modifier_error: Option<SyntaxError>,
}

impl<'a> Spec<'a> {
    /// For a named event whose name may contain colons: each way to split the text into a
    /// name and a modifier list, longest name first (the whole text, then up to each of its
    /// first three colons, for Intel's `OFFCORE_RESPONSE:request=X:response=Y`). A bounded
    /// number of splits keeps resolution linear.
    pub fn modifier_splits(&self) -> impl Iterator<Item = (&'a str, usize)> + 'a {
        let text = self.text;
        let colons = text.match_indices(':').map(|(i, _)| i).take(3);
        let mut ends: [usize; 4] = [text.len(); 4];
        let mut n = 1;
        for c in colons {
            ends[n] = c;
            n += 1;
        }
        ends[1..n].reverse();
        (0..n).map(move |i| (&text[..ends[i]], ends[i]))
    }
}

/// Parses a named event, a perf event string or a raw config (see the [module](self) docs).
/// A named event's modifiers are those after its first colon; when the name itself has
/// colons, resolve it with [`Spec::modifier_splits`] and [`Modifiers::parse`].
pub fn parse(input: &str) -> Result<Spec<'_>, SyntaxError> {
    let lead = input.len() - input.trim_start().len();
    let text = input.trim();
    if text.is_empty() {
        return Err(SyntaxError {
            at: 0,
            kind: ErrorKind::Empty,
        });
    }
    if let Some(slash) = text.find('/') {
        return parse_perf_string(text, slash, lead);
    }
    if let Some(hex) = text.strip_prefix('r').filter(|h| is_raw(h)) {
        let config = u64::from_str_radix(hex, 16).map_err(|_| SyntaxError {
            at: lead + 1,
            kind: ErrorKind::BadNumber,
        })?;
        return Ok(Spec {
            pmu: None,
            event: Event::Raw(config),
            modifiers: Modifiers::default(),
            text,
            modifier_error: None,
        });
    }
    let (name, modifiers) = match text.split_once(':') {
        Some((name, list)) => (name, Modifiers::parse(list, lead + name.len() + 1)),
        None => (text, Ok(Modifiers::default())),
    };
    Ok(Spec {
        pmu: None,
        event: Event::Name(name.trim()),
        // A list that does not parse may be part of a name with colons: reported by the
        // resolver when no longer name explains it.
        modifiers: modifiers.unwrap_or_default(),
        text,
        modifier_error: modifiers.err(),
    })
}

/// `r` followed by 1 to 16 hex digits (and nothing else): perf's raw config.
fn is_raw(hex: &str) -> bool {
    (1..=16).contains(&hex.len()) && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `pmu/terms/letters`.
fn parse_perf_string(text: &str, slash: usize, lead: usize) -> Result<Spec<'_>, SyntaxError> {
    let pmu = text[..slash].trim();
    let rest = &text[slash + 1..];
    let Some(close) = rest.find('/') else {
        return Err(SyntaxError {
            at: lead + text.len(),
            kind: ErrorKind::Unclosed,
        });
    };
    if pmu.is_empty() || !pmu.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(SyntaxError {
            at: lead,
            kind: ErrorKind::BadPmu,
        });
    }
    let terms = Terms::parse(&rest[..close], lead + slash + 1)?;
    let mut modifiers = Modifiers::default();
    let letters = &rest[close + 1..];
    let at = lead + slash + 1 + close + 1;
    for (i, c) in letters.char_indices() {
        let slot = match c {
            'u' => &mut modifiers.usr,
            'k' => &mut modifiers.os,
            'p' => {
                let level = modifiers.precise.unwrap_or(0) + 1;
                if level > MAX_PRECISE {
                    return Err(SyntaxError {
                        at: at + i,
                        kind: ErrorKind::BadPrecise,
                    });
                }
                modifiers.precise = Some(level);
                continue;
            }
            _ => {
                return Err(SyntaxError {
                    at: at + i,
                    kind: ErrorKind::UnknownModifier,
                });
            }
        };
        if slot.is_some() {
            return Err(SyntaxError {
                at: at + i,
                kind: ErrorKind::ModifierTwice,
            });
        }
        *slot = Some(true);
    }
    // perf's letters name the levels to count: `u` alone excludes the kernel.
    if modifiers.usr.is_some() || modifiers.os.is_some() {
        modifiers.usr = Some(modifiers.usr.is_some());
        modifiers.os = Some(modifiers.os.is_some());
    }
    Ok(Spec {
        pmu: Some(pmu),
        event: Event::Terms(terms),
        modifiers,
        text,
        modifier_error: None,
    })
}

/// Why a request does not parse, and where (a byte offset in the input).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte offset of the problem in the input.
    pub at: usize,
    /// What is wrong.
    pub kind: ErrorKind,
}

/// What is wrong with a request (see [`SyntaxError`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Nothing to parse.
    Empty,
    /// A modifier not in the list.
    UnknownModifier,
    /// A modifier given twice.
    ModifierTwice,
    /// A flag given a value other than 0 or 1.
    FlagValue,
    /// A numeric modifier without `=N`.
    NeedsValue,
    /// Not a number (decimal, `0x` hex or `0b` binary).
    BadNumber,
    /// A term perf does not have on a core PMU.
    UnknownTerm,
    /// A term given twice.
    TermTwice,
    /// A perf string without its closing `/`.
    Unclosed,
    /// A PMU name that is not one (`cpu`, `cpu_core`, ...).
    BadPmu,
    /// A precision past 3 (`pppp`, `precise=4`).
    BadPrecise,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ErrorKind::Empty => "names no event",
            ErrorKind::UnknownModifier => {
                "unknown modifier (u, k, edge, inv, cmask=N, any, eq, int, en, ldlat=N, \
                 offcore_rsp=N, p, pp, ppp, precise=N; after a perf string's `/`: u, k, p)"
            }
            ErrorKind::ModifierTwice => "modifier given twice",
            ErrorKind::BadPrecise => "precision goes up to 3 (ppp)",
            ErrorKind::FlagValue => "a flag takes 0 or 1",
            ErrorKind::NeedsValue => "needs a value (cmask=N, event=N, ...)",
            ErrorKind::BadNumber => "not a number (decimal, 0x hex or 0b binary)",
            ErrorKind::UnknownTerm => {
                "unknown term (event, umask, any, cmask, edge, eq, inv, offcore_rsp, ldlat, \
                 frontend, config, config1, period)"
            }
            ErrorKind::TermTwice => "term given twice",
            ErrorKind::Unclosed => "the perf string has no closing `/`",
            ErrorKind::BadPmu => "not a PMU name (cpu, cpu_core, cpu_atom, cpu_lowpower)",
        };
        write!(f, "at byte {}: {what}", self.at)
    }
}

impl core::error::Error for SyntaxError {}

#[cfg(test)]
mod tests;
