//! Encode events into event-select values and Linux perf event strings; decode register
//! values back into fields and events.
//!
//! Everything goes through the model: values are placed with [`Field::insert`] into the
//! fields the generation's `pmu.encoding` names (so split fields such as AMD's 12-bit event
//! select and UMASK2 on version 6 work without special cases), counter placement comes from
//! the event's counter lists, and constraints from the generation's `constraints:`.
//!
//! ```
//! use pmu_defs::encode::{Encoder, Request};
//!
//! let loaded = pmu_defs::Loader::new().with_defaults().finish();
//! let encoder = Encoder::new(&loaded.model);
//!
//! // LLC misses, user and kernel, counter enabled.
//! let e = encoder.encode("intel-v3", &Request::parse("LLC_MISSES:u:k:en")?)?;
//! assert_eq!(e.value, 0x0043_412E);
//! assert_eq!(e.perf, "cpu/event=0x2e,umask=0x41/uk");
//!
//! // And back: every field by name, the event, reserved bits.
//! let d = encoder.decode("intel-v3", 0x186, 0x0043_412E)?;
//! assert_eq!(d.register, "IA32_PERFEVTSEL");
//! assert_eq!(d.instance, Some(0));
//! assert!(d.events.iter().any(|m| m.name == "LLC_MISSES"));
//! assert_eq!(d.reserved_set, 0);
//!
//! // Invalid requests are errors, worded like libpfm's.
//! let err = encoder.encode("intel-v3", &Request::parse("LLC_MISSES:cmask=256")?).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "invalid event attribute value: cmask=256 is too big for CMASK of IA32_PERFEVTSEL (8 bits, maximum 255)"
//! );
//! # Ok::<(), pmu_defs::encode::Error>(())
//! ```
//!
//! ## Requests
//!
//! [`Request::parse`] reads `EVENT[:modifier[:modifier...]]`, libpfm-style; modifiers may
//! also be separated by commas. The event is a name from the generation's event list
//! (matched case-insensitively), or raw perf-style terms `event=0x2e,umask=0x41` (also
//! `cmask`, `edge`, `inv`, `any`, `eq`; `umask` above 8 bits fills UMASK2, as in perf).
//!
//! | modifier | also | effect |
//! |---|---|---|
//! | `u` | `usr`, `user` | count at privilege levels 1-3 (USR) |
//! | `k` | `os`, `kernel` | count at privilege level 0 (OS) |
//! | `edge` | `e` | edge detect |
//! | `inv` | `i` | invert the counter-mask comparison |
//! | `cmask=N` | `c=N` | counter mask (threshold) |
//! | `any` | `t` | AnyThread (architectural versions 3 and 4) |
//! | `eq` | | equal-compare (version 6) |
//! | `int` | `pmi` | interrupt on overflow (INT, or PMI on a fixed counter) |
//! | `en` | | enable bit (EN) |
//!
//! A flag takes an optional `=0` or `=1`. Without `u` or `k` both privilege levels are
//! counted (the default of perf and of libpfm's `dfl_plm`); naming either selects exactly
//! the ones named. A modifier overrides the event's own value (`cmask=2` on an event that
//! has `cmask=1`); naming one twice is an error. INT and EN are off unless asked for: perf
//! and the kernel set them themselves, and they have no perf term.

pub mod decode;
mod index;
pub mod perf;

pub use decode::{Decoded, DecodedField, Difference, EventMatch, FixedDecoded};

use crate::load::de::did_you_mean;
use crate::model::{
    BitRange, Constraint, Event, Field, Generation, Model, Register, Severity, Vendor,
};
use index::EventIndex;
use perf::{PerfEvent, Term};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------

/// The class of an error, after libpfm4's error codes (`pfm_strerror`), whose wording the
/// messages start with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// `PFM_ERR_NOTFOUND`: "event not found" (also an unknown generation or register).
    NotFound,
    /// `PFM_ERR_ATTR`: "invalid event attribute" (unknown modifier, or one the hardware
    /// lacks).
    Attr,
    /// `PFM_ERR_ATTR_VAL`: "invalid event attribute value" (too big, not a number).
    AttrVal,
    /// `PFM_ERR_ATTR_SET`: "attribute value already set".
    AttrSet,
    /// `PFM_ERR_UMASK`: "invalid or missing unit mask".
    Umask,
    /// `PFM_ERR_FEATCOMB`: "invalid combination of model specific features".
    FeatComb,
    /// `PFM_ERR_NOTSUPP`: "not supported" (a counter the event cannot use).
    NotSupp,
    /// `PFM_ERR_INVAL`: "invalid parameters" (malformed request text).
    Inval,
}

impl ErrorKind {
    /// libpfm's wording of the class.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::NotFound => "event not found",
            ErrorKind::Attr => "invalid event attribute",
            ErrorKind::AttrVal => "invalid event attribute value",
            ErrorKind::AttrSet => "attribute value already set",
            ErrorKind::Umask => "invalid or missing unit mask",
            ErrorKind::FeatComb => "invalid combination of model specific features",
            ErrorKind::NotSupp => "not supported",
            ErrorKind::Inval => "invalid parameters",
        }
    }
}

/// Why a request was refused. `Display` gives the libpfm class, a colon, and the details.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// No generation has this id (nor `<vendor>-<id>`).
    UnknownGeneration {
        /// What was asked for.
        id: String,
        /// The closest id, if one is close.
        suggestion: Option<String>,
        /// Ids that matched `<vendor>-<id>` when more than one did.
        ambiguous: Vec<String>,
    },
    /// The generation has no event of this name.
    UnknownEvent {
        /// Generation id.
        generation: String,
        /// What was asked for.
        name: String,
        /// The closest name, if one is close.
        suggestion: Option<String>,
    },
    /// A modifier that does not exist.
    UnknownModifier {
        /// What was written.
        modifier: String,
        /// The closest modifier, if one is close.
        suggestion: Option<&'static str>,
    },
    /// A modifier whose value is malformed (`u=2`, `cmask=x`, `cmask` without a value).
    BadModifierValue {
        /// The modifier.
        modifier: String,
        /// What was written after `=` (empty when nothing was).
        value: String,
        /// What is wrong.
        reason: String,
    },
    /// A modifier given twice.
    ModifierTwice {
        /// The modifier (canonical name).
        modifier: &'static str,
    },
    /// Malformed request text (empty event, bad counter, bad raw term).
    BadRequest {
        /// What is wrong.
        reason: String,
    },
    /// A value wider than the field it goes into.
    ValueTooBig {
        /// The attribute (`cmask`, `event`, ...).
        attr: String,
        /// The value.
        value: u64,
        /// The field.
        field: String,
        /// The register.
        register: String,
        /// Field width in bits.
        width: u32,
    },
    /// The generation has no field for an attribute.
    Unsupported {
        /// The attribute.
        attr: String,
        /// Generation id.
        generation: String,
        /// Why, in a sentence.
        reason: String,
    },
    /// The field exists but is deprecated in this generation.
    Deprecated {
        /// The attribute.
        attr: String,
        /// The field.
        field: String,
        /// Generation id.
        generation: String,
        /// Generation from which it is deprecated.
        since: String,
        /// The enumeration that says so.
        when: Option<String>,
    },
    /// The event counts only on a fixed counter and a general counter was asked for.
    FixedOnly {
        /// Event name.
        event: String,
        /// Its fixed counter.
        fixed: u32,
        /// The general counter asked for.
        requested: u32,
    },
    /// The event may not use the counter asked for.
    CounterNotAllowed {
        /// Event name.
        event: String,
        /// The counter asked for.
        requested: Counter,
        /// The counters it may use, in words.
        allowed: String,
    },
    /// The generation has no such counter.
    NoSuchCounter {
        /// The counter asked for.
        requested: Counter,
        /// Generation id.
        generation: String,
        /// How many of that kind it has.
        count: u32,
    },
    /// A combination the hardware rejects (a constraint, or a modifier a fixed counter
    /// cannot apply).
    InvalidCombination {
        /// What is wrong.
        message: String,
    },
    /// No register of the generation is at this address.
    UnknownRegister {
        /// Generation id.
        generation: String,
        /// The address (or name) asked for.
        what: String,
        /// Other generations where it is a register, as `generation: REGISTER`.
        elsewhere: Vec<String>,
    },
}

impl Error {
    /// The libpfm class of the error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::UnknownGeneration { .. }
            | Error::UnknownEvent { .. }
            | Error::UnknownRegister { .. } => ErrorKind::NotFound,
            Error::UnknownModifier { .. } | Error::Unsupported { .. } => ErrorKind::Attr,
            Error::Deprecated { .. } => ErrorKind::Attr,
            Error::BadModifierValue { .. } => ErrorKind::AttrVal,
            Error::ValueTooBig { attr, .. } if attr == "umask" => ErrorKind::Umask,
            Error::ValueTooBig { .. } => ErrorKind::AttrVal,
            Error::ModifierTwice { .. } => ErrorKind::AttrSet,
            Error::BadRequest { .. } => ErrorKind::Inval,
            Error::FixedOnly { .. }
            | Error::CounterNotAllowed { .. }
            | Error::NoSuchCounter { .. } => ErrorKind::NotSupp,
            Error::InvalidCombination { .. } => ErrorKind::FeatComb,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.kind().as_str())?;
        match self {
            Error::UnknownGeneration {
                id,
                suggestion,
                ambiguous,
            } => {
                if ambiguous.is_empty() {
                    write!(f, "no generation or model `{id}`")?;
                    if let Some(s) = suggestion {
                        write!(f, " (did you mean `{s}`?)")?;
                    }
                    Ok(())
                } else {
                    write!(f, "`{id}` is ambiguous: {}", ambiguous.join(", "))
                }
            }
            Error::UnknownEvent {
                generation,
                name,
                suggestion,
            } => {
                write!(f, "no event `{name}` in {generation}")?;
                if let Some(s) = suggestion {
                    write!(f, " (did you mean `{s}`?)")?;
                }
                Ok(())
            }
            Error::UnknownModifier {
                modifier,
                suggestion,
            } => {
                write!(f, "unknown modifier `{modifier}`")?;
                if let Some(s) = suggestion {
                    write!(f, " (did you mean `{s}`?)")?;
                }
                write!(f, "; modifiers are {MODIFIER_LIST}")
            }
            Error::BadModifierValue {
                modifier,
                value,
                reason,
            } => {
                if value.is_empty() {
                    write!(f, "`{modifier}` {reason}")
                } else {
                    write!(f, "`{modifier}={value}`: {reason}")
                }
            }
            Error::ModifierTwice { modifier } => {
                write!(f, "`{modifier}` is given more than once")
            }
            Error::BadRequest { reason } => f.write_str(reason),
            Error::ValueTooBig {
                attr,
                value,
                field,
                register,
                width,
            } => write!(
                f,
                "{attr}={value} is too big for {field} of {register} ({width} bits, maximum {})",
                max_of(*width)
            ),
            Error::Unsupported {
                attr,
                generation,
                reason,
            } => write!(f, "`{attr}` is not supported by {generation}: {reason}"),
            Error::Deprecated {
                attr,
                field,
                generation,
                since,
                when,
            } => {
                write!(f, "`{attr}` ({field}) is deprecated from {since} on")?;
                if *generation != *since {
                    write!(f, " ({generation} extends it)")?;
                }
                match when {
                    Some(w) => write!(
                        f,
                        ": where {w} the processor does not support it and it must not be set"
                    ),
                    None => f.write_str(": it must not be set"),
                }
            }
            Error::FixedOnly {
                event,
                fixed,
                requested,
            } => write!(
                f,
                "{event} counts only on fixed counter {fixed}, not on general counter \
                 {requested} (use --counter fixed{fixed}, or no counter)"
            ),
            Error::CounterNotAllowed {
                event,
                requested,
                allowed,
            } => write!(
                f,
                "{event} cannot count on {requested}; it may use {allowed}"
            ),
            Error::NoSuchCounter {
                requested,
                generation,
                count,
            } => {
                let kind = match requested {
                    Counter::General(_) => "general",
                    Counter::Fixed(_) => "fixed",
                };
                write!(
                    f,
                    "{generation} has no {requested} ({count} {kind} counters)"
                )
            }
            Error::InvalidCombination { message } => f.write_str(message),
            Error::UnknownRegister {
                generation,
                what,
                elsewhere,
            } => {
                write!(f, "{what} is no register of {generation}")?;
                if !elsewhere.is_empty() {
                    write!(f, " (it is {})", elsewhere.join(", "))?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Error {}

fn max_of(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

// ---------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------

/// A counter: general-purpose `n` or fixed-function `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", content = "index", rename_all = "lowercase")]
pub enum Counter {
    /// General-purpose counter (IA32_PMCn / its event select).
    General(u32),
    /// Fixed-function counter (IA32_FIXED_CTRn / its block of the fixed control register).
    Fixed(u32),
}

impl fmt::Display for Counter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Counter::General(n) => write!(f, "general counter {n}"),
            Counter::Fixed(n) => write!(f, "fixed counter {n}"),
        }
    }
}

impl FromStr for Counter {
    type Err = Error;

    /// `3`, `gp3`, `pmc3` or `general3`: general counter 3; `fixed1` or `f1`: fixed
    /// counter 1.
    fn from_str(s: &str) -> Result<Self, Error> {
        let t = s.trim().to_ascii_lowercase();
        let (fixed, digits) = if let Some(d) = t.strip_prefix("fixed") {
            (true, d)
        } else if let Some(d) = t.strip_prefix("general") {
            (false, d)
        } else if let Some(d) = t.strip_prefix("pmc").or_else(|| t.strip_prefix("gp")) {
            (false, d)
        } else if let Some(d) = t.strip_prefix('f') {
            (true, d)
        } else {
            (false, t.as_str())
        };
        let digits = if digits.len() < t.len() {
            digits.strip_prefix(':').unwrap_or(digits)
        } else {
            digits
        };
        match digits.parse::<u32>() {
            Ok(n) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
                Ok(if fixed {
                    Counter::Fixed(n)
                } else {
                    Counter::General(n)
                })
            }
            _ => Err(Error::BadRequest {
                reason: format!(
                    "`{s}` is not a counter: write a number (general counter) or fixedN"
                ),
            }),
        }
    }
}

const MODIFIER_LIST: &str = "u, k, edge, inv, cmask=N, any, eq, int, en";

/// Modifier names and aliases (first of each group is canonical).
const MODIFIERS: &[(&str, &[&str])] = &[
    ("u", &["usr", "user"]),
    ("k", &["os", "kernel"]),
    ("edge", &["e"]),
    ("inv", &["i"]),
    ("cmask", &["c"]),
    ("any", &["t"]),
    ("eq", &[]),
    ("int", &["pmi"]),
    ("en", &[]),
];

/// Modifiers of a request; `None` means "not given" (the event's own value, or the
/// default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
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
}

impl Modifiers {
    /// Parses a list such as `u,k,cmask=2` or `u:k:cmask=2`.
    ///
    /// ```
    /// use pmu_defs::encode::Modifiers;
    /// let m = Modifiers::parse("u,cmask=0x2:inv")?;
    /// assert_eq!((m.usr, m.os, m.cmask, m.inv), (Some(true), None, Some(2), Some(true)));
    /// assert!(Modifiers::parse("u,u").is_err());
    /// # Ok::<(), pmu_defs::encode::Error>(())
    /// ```
    pub fn parse(list: &str) -> Result<Self, Error> {
        let mut m = Modifiers::default();
        for term in list.split([',', ':']) {
            let term = term.trim();
            if !term.is_empty() {
                m.add(term)?;
            }
        }
        Ok(m)
    }

    /// Adds one modifier (`u`, `cmask=2`, `inv=0`, ...).
    pub fn add(&mut self, term: &str) -> Result<(), Error> {
        let (name, value) = match term.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (term.trim(), None),
        };
        let lower = name.to_ascii_lowercase();
        let canonical = MODIFIERS
            .iter()
            .find(|(c, aliases)| *c == lower || aliases.contains(&lower.as_str()))
            .map(|(c, _)| *c)
            .ok_or_else(|| Error::UnknownModifier {
                modifier: name.to_string(),
                suggestion: did_you_mean(
                    &lower,
                    MODIFIERS
                        .iter()
                        .flat_map(|(c, a)| std::iter::once(*c).chain(a.iter().copied())),
                )
                .map(|s| {
                    MODIFIERS
                        .iter()
                        .find(|(c, a)| *c == s || a.contains(&s))
                        .map_or(s, |(c, _)| *c)
                }),
            })?;
        let flag = |value: Option<&str>| -> Result<bool, Error> {
            match value {
                None => Ok(true),
                Some(v) => match parse_number(v) {
                    Some(0) => Ok(false),
                    Some(1) => Ok(true),
                    _ => Err(Error::BadModifierValue {
                        modifier: canonical.to_string(),
                        value: v.to_string(),
                        reason: "a flag takes 0 or 1".into(),
                    }),
                },
            }
        };
        fn put<T>(slot: &mut Option<T>, v: T, name: &'static str) -> Result<(), Error> {
            if slot.is_some() {
                return Err(Error::ModifierTwice { modifier: name });
            }
            *slot = Some(v);
            Ok(())
        }
        match canonical {
            "u" => put(&mut self.usr, flag(value)?, "u"),
            "k" => put(&mut self.os, flag(value)?, "k"),
            "edge" => put(&mut self.edge, flag(value)?, "edge"),
            "inv" => put(&mut self.inv, flag(value)?, "inv"),
            "any" => put(&mut self.any, flag(value)?, "any"),
            "eq" => put(&mut self.eq, flag(value)?, "eq"),
            "int" => put(&mut self.int, flag(value)?, "int"),
            "en" => put(&mut self.en, flag(value)?, "en"),
            _ => {
                let v = value.ok_or_else(|| Error::BadModifierValue {
                    modifier: "cmask".into(),
                    value: String::new(),
                    reason: "needs a value: cmask=N".into(),
                })?;
                let n = parse_number(v).ok_or_else(|| Error::BadModifierValue {
                    modifier: "cmask".into(),
                    value: v.to_string(),
                    reason: "not a number (write decimal or 0x hex)".into(),
                })?;
                put(&mut self.cmask, n, "cmask")
            }
        }
    }

    /// True when no modifier is given.
    pub fn is_empty(&self) -> bool {
        *self == Modifiers::default()
    }
}

/// Parses decimal, `0x` hex or `0b` binary, with `_` separators.
pub fn parse_number(s: &str) -> Option<u64> {
    let s = s.trim().replace('_', "");
    let lower = s.to_ascii_lowercase();
    if let Some(h) = lower.strip_prefix("0x") {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = lower.strip_prefix("0b") {
        u64::from_str_radix(b, 2).ok()
    } else if !lower.is_empty() && lower.bytes().all(|b| b.is_ascii_digit()) {
        lower.parse().ok()
    } else {
        None
    }
}

/// What to encode: an event (by name or raw terms), modifiers, and optionally the counter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Event name, or raw terms (`event=0x2e,umask=0x41`).
    pub event: String,
    /// Modifiers.
    pub modifiers: Modifiers,
    /// The counter to program, if a particular one.
    pub counter: Option<Counter>,
    /// The whole `EVENT:...` text, when it had a colon: a few of Intel's names contain
    /// colons themselves (`OFFCORE_RESPONSE:request=ALL_DATA_RD:response=ANY_RESPONSE`), so
    /// the encoder splits it again against the event list.
    spec: Option<String>,
    /// Modifier lists added with [`Request::with_modifiers`].
    extra: Vec<String>,
    /// Why the modifiers after the first colon did not parse, reported unless an event name
    /// with colons explains them.
    deferred: Option<Error>,
}

impl Request {
    /// A request for an event with no modifiers (the name is taken whole).
    pub fn new(event: impl Into<String>) -> Self {
        Request {
            event: event.into(),
            modifiers: Modifiers::default(),
            counter: None,
            spec: None,
            extra: Vec::new(),
            deferred: None,
        }
    }

    /// Parses `EVENT[:modifier...]` (see the module documentation).
    ///
    /// ```
    /// use pmu_defs::encode::Request;
    /// let r = Request::parse("UOPS_ISSUED.STALL_CYCLES:u:cmask=2")?;
    /// assert_eq!(r.event, "UOPS_ISSUED.STALL_CYCLES");
    /// assert_eq!(r.modifiers.cmask, Some(2));
    /// # Ok::<(), pmu_defs::encode::Error>(())
    /// ```
    ///
    /// A modifier that does not parse is reported when the request is encoded (see
    /// [`Request::modifier_error`]), because an event name may itself contain colons.
    pub fn parse(spec: &str) -> Result<Self, Error> {
        let spec = spec.trim();
        let (event, mods) = match spec.split_once(':') {
            Some((e, m)) => (e.trim(), m),
            None => (spec, ""),
        };
        if event.is_empty() {
            return Err(Error::BadRequest {
                reason: format!("`{spec}` names no event"),
            });
        }
        let (modifiers, deferred) = match Modifiers::parse(mods) {
            Ok(m) => (m, None),
            Err(e) => (Modifiers::default(), Some(e)),
        };
        Ok(Request {
            event: event.to_string(),
            modifiers,
            counter: None,
            spec: spec.contains(':').then(|| spec.to_string()),
            extra: Vec::new(),
            deferred,
        })
    }

    /// The same request, more modifiers (a list as [`Modifiers::parse`] reads).
    pub fn with_modifiers(mut self, list: &str) -> Result<Self, Error> {
        for term in list.split([',', ':']) {
            let term = term.trim();
            if !term.is_empty() {
                self.modifiers.add(term)?;
            }
        }
        self.extra.push(list.to_string());
        Ok(self)
    }

    /// The same request, on a particular counter.
    pub fn on(mut self, counter: Counter) -> Self {
        self.counter = Some(counter);
        self
    }

    /// Why the text after the first colon is not a list of modifiers, if it is not (the
    /// encoder reports it unless a longer event name explains the colons).
    pub fn modifier_error(&self) -> Option<&Error> {
        self.deferred.as_ref()
    }
}

// ---------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------

/// One field an encoding sets (or a decoding reads).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldValue {
    /// Field name.
    pub name: String,
    /// Array element, for per-counter fields.
    pub element: Option<u32>,
    /// Register bits, high to low per part, low part first (`7:0,35:32`).
    pub bits: String,
    /// Logical value (split parts joined).
    pub value: u64,
}

/// An auxiliary MSR programmed with the event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AuxMsr {
    /// Address.
    pub index: u32,
    /// The model's register at that address, if it has one.
    pub register: Option<String>,
    /// Value to write.
    pub value: u64,
    /// The perf term that carries it (`offcore_rsp`, `ldlat`, `frontend`), if perf has one.
    pub perf_term: Option<&'static str>,
}

/// One alternative way to program an event (another event code / unit mask / MSR).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AltEncoding {
    /// Event code.
    pub event: u32,
    /// Unit mask.
    pub umask: u32,
    /// Auxiliary MSR to program with this code.
    pub msr_index: Option<u32>,
    /// The select-register value with this code.
    pub value: u64,
}

/// A register instance and its address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RegisterRef {
    /// Name with instance number (`IA32_PMC2`).
    pub name: String,
    /// MSR address.
    pub address: u32,
}

impl RegisterRef {
    fn of(r: &Register, index: u32) -> Self {
        let address = r.msr.address(index);
        RegisterRef {
            name: instance_name(r, address),
            address,
        }
    }
}

/// The result of [`Encoder::encode`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Encoding {
    /// Generation id.
    pub generation: String,
    /// Event name (`raw` for raw terms).
    pub event: String,
    /// The generation that introduced the event (`None` for raw terms).
    pub event_since: Option<String>,
    /// The register to write: the general event select, or the fixed counter control.
    pub register: String,
    /// The counter, when one was asked for or the event is fixed-only.
    pub counter: Option<Counter>,
    /// The counters the event may use, in words (`general counters 0-3 and fixed counter 1`).
    pub allowed: String,
    /// MSR address of the register (the select of that counter, or the fixed control).
    pub address: Option<u32>,
    /// The counter register to read, when a counter is known.
    pub counter_register: Option<RegisterRef>,
    /// The value: the whole event select, or this counter's block of the fixed control.
    pub value: u64,
    /// The bits of the register this value determines (all fields of the event select;
    /// only this counter's block of the fixed control: merge it into the rest).
    pub mask: u64,
    /// The fields set, with their values.
    pub fields: Vec<FieldValue>,
    /// Auxiliary MSRs to program.
    pub aux: Vec<AuxMsr>,
    /// Further encodings that count the same thing (Intel's `0xB7, 0xBB` offcore pairs).
    pub alternatives: Vec<AltEncoding>,
    /// The perf event string.
    pub perf: String,
    /// The perf PMU name.
    pub pmu: String,
    /// Things worth knowing (vendor-defined combinations the manual warns about, perf's own
    /// spelling of the event, ...).
    pub notes: Vec<String>,
}

// ---------------------------------------------------------------------------------------
// The encoder
// ---------------------------------------------------------------------------------------

/// Encodes and decodes against a loaded model.
///
/// Each generation's events are indexed by name and by encoding the first time the encoder
/// needs them, so keep one encoder for many requests.
#[derive(Clone, Debug)]
pub struct Encoder<'m> {
    model: &'m Model,
    /// Per generation, in the model's order, built on first use.
    indexes: Vec<OnceLock<EventIndex<'m>>>,
    /// The ids of the generations that describe CPU models, built on first use.
    model_ids: OnceLock<HashSet<&'m str>>,
}

/// The event being encoded: a model event or raw terms.
#[derive(Clone, Debug)]
struct EventDef {
    name: String,
    since: Option<String>,
    event: u64,
    umask: u64,
    umask2: u64,
    cmask: u64,
    inv: bool,
    edge: bool,
    any: bool,
    eq: bool,
    /// General counters it may use (`None`: every one).
    counters: Option<Vec<u32>>,
    fixed: Option<u32>,
    msr: Option<(u32, u64)>,
    alternatives: Vec<(u32, u32, Option<u32>)>,
    raw: bool,
}

impl EventDef {
    fn from_event(e: &Event) -> Self {
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
    fn from_terms(text: &str, umask: &UmaskLayout) -> Result<Self, Error> {
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
        let mut seen: Vec<String> = Vec::new();
        let mut has_event = false;
        for term in text.split(',') {
            let term = term.trim();
            if term.is_empty() {
                continue;
            }
            let Some((k, v)) = term.split_once('=') else {
                return Err(Error::BadRequest {
                    reason: format!("raw term `{term}` has no `=value`"),
                });
            };
            let k = k.trim().to_ascii_lowercase();
            if seen.contains(&k) {
                return Err(Error::BadRequest {
                    reason: format!("raw term `{k}` is given more than once"),
                });
            }
            seen.push(k.clone());
            let n = parse_number(v).ok_or_else(|| Error::BadModifierValue {
                modifier: k.clone(),
                value: v.trim().to_string(),
                reason: "not a number (write decimal or 0x hex)".into(),
            })?;
            let flag = |n: u64| -> Result<bool, Error> {
                match n {
                    0 => Ok(false),
                    1 => Ok(true),
                    _ => Err(Error::BadModifierValue {
                        modifier: k.clone(),
                        value: v.trim().to_string(),
                        reason: "a flag takes 0 or 1".into(),
                    }),
                }
            };
            match k.as_str() {
                "event" => {
                    d.event = n;
                    has_event = true;
                }
                "umask" => {
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
                "cmask" => d.cmask = n,
                "inv" => d.inv = flag(n)?,
                "edge" => d.edge = flag(n)?,
                "any" => d.any = flag(n)?,
                "eq" => d.eq = flag(n)?,
                _ => {
                    return Err(Error::BadRequest {
                        reason: format!(
                            "unknown raw term `{k}`; raw terms are event, umask, cmask, \
                             edge, inv, any, eq"
                        ),
                    });
                }
            }
        }
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
enum Placement {
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
    fn index(&self, g: &'m Generation) -> Cow<'_, EventIndex<'m>> {
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
    fn is_model_generation(&self, id: &str) -> bool {
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
    fn find_event(&self, g: &'m Generation, name: &str) -> Option<&'m Event> {
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
        let (def, mods) = self.resolve(g, req)?;
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
    fn resolve(&self, g: &'m Generation, req: &Request) -> Result<(EventDef, Modifiers), Error> {
        if let Some(spec) = &req.spec {
            let cuts = std::iter::once(spec.len())
                .chain(spec.rmatch_indices(':').map(|(i, _)| i))
                .filter(|&i| i > req.event.len());
            for cut in cuts {
                if let Some(e) = self.find_event(g, spec[..cut].trim()) {
                    let mut m = Modifiers::parse(spec.get(cut + 1..).unwrap_or(""))?;
                    for list in &req.extra {
                        for term in list.split([',', ':']).map(str::trim) {
                            if !term.is_empty() {
                                m.add(term)?;
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
            None if req.event.contains('=') => {
                EventDef::from_terms(&req.event, &self.umask_layout(g)?)?
            }
            None => EventDef::from_event(self.event(g, &req.event)?),
        };
        Ok((def, req.modifiers))
    }

    /// Where perf's `umask` goes: UMASK, then UMASK2 above it when the generation has one
    /// (the kernel's `umask` format is `config:8-15,40-47` on version 6).
    fn umask_layout(&self, g: &'m Generation) -> Result<UmaskLayout, Error> {
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
    fn select(&self, g: &'m Generation) -> Result<&'m Register, Error> {
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

    fn encode_general(
        &self,
        g: &'m Generation,
        def: &EventDef,
        counter: Option<u32>,
        a: &Attrs,
        notes: &mut Vec<String>,
    ) -> Result<Encoding, Error> {
        let sel = self.select(g)?;
        let build = |a: &Attrs, event: u64, umask: u64| -> Result<(u64, Vec<FieldValue>), Error> {
            let mut value = 0u64;
            let mut fields = Vec::new();
            let items: [(&str, u64, bool); 12] = [
                ("event", event, true),
                ("umask", umask, true),
                ("umask2", def.umask2, false),
                ("usr", a.usr.into(), true),
                ("os", a.os.into(), true),
                ("edge", a.edge.into(), false),
                ("int", a.int.into(), false),
                ("en", a.en.into(), false),
                ("inv", a.inv.into(), false),
                ("cmask", a.cmask, false),
                ("any", a.any.into(), false),
                ("eq", a.eq.into(), false),
            ];
            for (attr, v, required) in items {
                let Some(field) = encoding_field(g, sel, attr) else {
                    if v != 0 || required {
                        return Err(unsupported(g, sel, attr));
                    }
                    continue;
                };
                if v > max_of(field.width) {
                    return Err(Error::ValueTooBig {
                        attr: attr.into(),
                        value: v,
                        field: field.name.clone(),
                        register: sel.name.clone(),
                        width: field.width,
                    });
                }
                if v != 0 {
                    check_deprecation(g, field, attr)?;
                }
                value |= field.insert(0, v);
                fields.push(FieldValue {
                    name: field.name.clone(),
                    element: None,
                    bits: bits_text(&field.bits, 0),
                    value: v,
                });
            }
            Ok((value, fields))
        };
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

    fn encode_fixed(
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

/// Fields of the fixed-counter control register this module programs, by name: the
/// privilege-level block (named values `OS`, `USR`, `ALL`, `DISABLED`), AnyThread, and the
/// overflow interrupt (Intel SDM Vol. 3B §18.2.2, IA32_FIXED_CTR_CTRL).
const FIXED_ENABLE: &str = "ENABLE";
const FIXED_ANY: &str = "ANY";
const FIXED_PMI: &str = "PMI";

/// perf's `umask` on a generation: UMASK's width and UMASK2's above it.
#[derive(Clone, Debug)]
struct UmaskLayout {
    width: u32,
    umask2_width: u32,
    fields: String,
    register: String,
}

#[derive(Clone, Copy, Debug)]
struct Attrs {
    cmask: u64,
    inv: bool,
    edge: bool,
    any: bool,
    eq: bool,
    usr: bool,
    os: bool,
    int: bool,
    en: bool,
}

fn place(g: &Generation, def: &EventDef, counter: Option<Counter>) -> Result<Placement, Error> {
    let allowed_general = |n: u32| def.counters.as_ref().is_none_or(|c| c.contains(&n));
    let has_general = def.counters.as_ref().is_none_or(|c| !c.is_empty());
    match counter {
        None if has_general => Ok(Placement::General(None)),
        None => match def.fixed {
            Some(n) => Ok(Placement::Fixed(n)),
            None => Err(Error::CounterNotAllowed {
                event: def.name.clone(),
                requested: Counter::General(0),
                allowed: "no counter at all (its counter list is empty)".into(),
            }),
        },
        Some(Counter::General(n)) => {
            let count = g.general_counters();
            if n >= count {
                return Err(Error::NoSuchCounter {
                    requested: Counter::General(n),
                    generation: g.id.clone(),
                    count,
                });
            }
            if allowed_general(n) {
                return Ok(Placement::General(Some(n)));
            }
            match (has_general, def.fixed) {
                (false, Some(f)) => Err(Error::FixedOnly {
                    event: def.name.clone(),
                    fixed: f,
                    requested: n,
                }),
                _ => Err(Error::CounterNotAllowed {
                    event: def.name.clone(),
                    requested: Counter::General(n),
                    allowed: describe_counters(def),
                }),
            }
        }
        Some(Counter::Fixed(n)) => {
            let count = g.fixed_counters();
            if n >= count {
                return Err(Error::NoSuchCounter {
                    requested: Counter::Fixed(n),
                    generation: g.id.clone(),
                    count,
                });
            }
            if def.fixed == Some(n) {
                Ok(Placement::Fixed(n))
            } else {
                Err(Error::CounterNotAllowed {
                    event: def.name.clone(),
                    requested: Counter::Fixed(n),
                    allowed: describe_counters(def),
                })
            }
        }
    }
}

fn describe_counters(def: &EventDef) -> String {
    let general = match &def.counters {
        None => Some("every general counter".to_string()),
        Some(c) if c.is_empty() => None,
        Some(c) => Some(format!("general counters {}", ranges(c))),
    };
    let fixed = def.fixed.map(|f| format!("fixed counter {f}"));
    match (general, fixed) {
        (Some(g), Some(f)) => format!("{g} and {f}"),
        (Some(g), None) => g,
        (None, Some(f)) => f,
        (None, None) => "no counter".into(),
    }
}

/// `0-3,5` from a sorted list.
pub(crate) fn ranges(list: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < list.len() {
        let start = list[i];
        let mut end = start;
        while i + 1 < list.len() && list[i + 1] == end + 1 {
            end += 1;
            i += 1;
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    out.join(",")
}

/// The select-register field an encoding attribute goes into, if the generation has one.
fn encoding_field<'g>(g: &'g Generation, sel: &'g Register, attr: &str) -> Option<&'g Field> {
    g.pmu.encoding_field(attr).and_then(|f| sel.field(f))
}

fn unsupported(g: &Generation, sel: &Register, attr: &str) -> Error {
    let what = match attr {
        "any" => "AnyThread",
        "eq" => "the equal-compare flag",
        "umask2" => "a second unit mask (UMASK2)",
        "cmask" => "a counter mask",
        "edge" => "edge detect",
        "inv" => "invert",
        "int" => "an interrupt-enable bit",
        "en" => "an enable bit",
        _ => "a field for it",
    };
    let added = match attr {
        "any" => " (Intel added it in architectural performance monitoring version 3)",
        "eq" | "umask2" => " (Intel added it in architectural performance monitoring version 6)",
        _ => "",
    };
    Error::Unsupported {
        attr: attr.into(),
        generation: g.id.clone(),
        reason: format!("{} has no {what}{added}", sel.name),
    }
}

fn unsupported_fixed_any(g: &Generation, ctrl: &Register) -> Error {
    Error::Unsupported {
        attr: "any".into(),
        generation: g.id.clone(),
        reason: format!(
            "{} has no AnyThread bit (Intel added it in architectural performance \
             monitoring version 3)",
            ctrl.name
        ),
    }
}

/// True when `g` is the field's deprecation generation or descends from it.
pub(crate) fn deprecated_in(g: &Generation, field: &Field) -> bool {
    field
        .deprecated
        .as_ref()
        .is_some_and(|d| g.id == d.since || g.ancestors.contains(&d.since))
}

fn check_deprecation(g: &Generation, field: &Field, attr: &str) -> Result<(), Error> {
    if deprecated_in(g, field) {
        let d = field.deprecated.as_ref().expect("checked by deprecated_in");
        return Err(Error::Deprecated {
            attr: attr.into(),
            field: field.name.clone(),
            generation: g.id.clone(),
            since: d.since.clone(),
            when: d.when.clone(),
        });
    }
    Ok(())
}

/// True when every condition of the constraint holds for `value` of `reg`.
pub(crate) fn fires(c: &Constraint, reg: &Register, value: u64) -> bool {
    c.when.iter().all(|cond| {
        reg.field(&cond.field)
            .is_some_and(|f| f.extract(0, value) == cond.value)
    })
}

/// `7:0,35:32` (element shifted by `shift`).
pub(crate) fn bits_text(bits: &[BitRange], shift: u32) -> String {
    bits.iter()
        .map(|b| {
            let (lo, hi) = (b.lsb + shift, b.msb + shift);
            if lo == hi {
                lo.to_string()
            } else {
                format!("{hi}:{lo}")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn lowest_bit(reg: &Register, field: &str) -> u32 {
    reg.field(field)
        .and_then(|f| f.bits.iter().map(|b| b.lsb).min())
        .unwrap_or(u32::MAX)
}

/// `IA32_PERFEVTSEL2` for an address of an indexed family (its own or its alias range), the
/// plain name otherwise.
pub(crate) fn instance_name(r: &Register, address: u32) -> String {
    match r.index_at(address) {
        Some(i) if r.msr.indexed => format!("{}{i}", r.name),
        _ => r.name.clone(),
    }
}

/// The perf PMU name events of this generation are spelled with (see [`perf`]): `cpu`, or
/// on hybrid parts the PMU of the core type its `cpus` name (`cpu_core`, `cpu_atom`,
/// `cpu_lowpower`). A generation whose list also serves a non-hybrid part (Alder Lake N uses
/// the Gracemont list) is spelled for the hybrid parts; [`Encoder::encode`] adds a note.
pub fn perf_pmu(g: &Generation) -> &'static str {
    g.cpus
        .iter()
        .find_map(|c| c.core_role.as_deref())
        .map_or("cpu", perf::pmu_for_core_role)
}

/// The family-models of a generation's CPUs that are not hybrid, when others are.
fn non_hybrid_cpus(g: &Generation) -> Vec<&str> {
    if g.cpus.iter().all(|c| c.core_role.is_none()) {
        return Vec::new();
    }
    g.cpus
        .iter()
        .filter(|c| c.core_role.is_none())
        .map(|c| c.family_model.as_str())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_parse() {
        assert_eq!("3".parse::<Counter>(), Ok(Counter::General(3)));
        assert_eq!("pmc2".parse::<Counter>(), Ok(Counter::General(2)));
        assert_eq!("gp1".parse::<Counter>(), Ok(Counter::General(1)));
        assert_eq!("fixed1".parse::<Counter>(), Ok(Counter::Fixed(1)));
        assert_eq!("F0".parse::<Counter>(), Ok(Counter::Fixed(0)));
        assert_eq!("fixed:2".parse::<Counter>(), Ok(Counter::Fixed(2)));
        for bad in ["", "x", "fixed", "-1", "1.5", "fixedx"] {
            let e = bad.parse::<Counter>().unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Inval, "{bad}");
        }
    }

    #[test]
    fn numbers_parse() {
        assert_eq!(parse_number("10"), Some(10));
        assert_eq!(parse_number("0x1F"), Some(31));
        assert_eq!(parse_number("0b101"), Some(5));
        assert_eq!(parse_number("1_000"), Some(1000));
        assert_eq!(parse_number("0x"), None);
        assert_eq!(parse_number("-1"), None);
        assert_eq!(parse_number("ten"), None);
        assert_eq!(parse_number("0x1_0000_0000_0000_0000"), None);
    }

    #[test]
    fn modifiers_parse_with_aliases_and_values() {
        let m = Modifiers::parse("usr:kernel:e:i=0:c=0x10:t:eq=1:pmi:en=0").unwrap();
        assert_eq!(m.usr, Some(true));
        assert_eq!(m.os, Some(true));
        assert_eq!(m.edge, Some(true));
        assert_eq!(m.inv, Some(false));
        assert_eq!(m.cmask, Some(16));
        assert_eq!(m.any, Some(true));
        assert_eq!(m.eq, Some(true));
        assert_eq!(m.int, Some(true));
        assert_eq!(m.en, Some(false));
        assert!(Modifiers::parse("").unwrap().is_empty());
        assert!(Modifiers::parse(" , : ").unwrap().is_empty());
    }

    #[test]
    fn modifier_errors() {
        let e = Modifiers::parse("u,usr").unwrap_err();
        assert_eq!(e, Error::ModifierTwice { modifier: "u" });
        assert_eq!(
            e.to_string(),
            "attribute value already set: `u` is given more than once"
        );
        let e = Modifiers::parse("kernal").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Attr);
        assert_eq!(
            e.to_string(),
            "invalid event attribute: unknown modifier `kernal` (did you mean `k`?); \
             modifiers are u, k, edge, inv, cmask=N, any, eq, int, en"
        );
        let e = Modifiers::parse("u=2").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid event attribute value: `u=2`: a flag takes 0 or 1"
        );
        let e = Modifiers::parse("cmask").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid event attribute value: `cmask` needs a value: cmask=N"
        );
        let e = Modifiers::parse("cmask=lots").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::AttrVal);
        let e = Modifiers::parse("zz").unwrap_err();
        assert!(matches!(
            e,
            Error::UnknownModifier {
                suggestion: None,
                ..
            }
        ));
    }

    #[test]
    fn requests_parse() {
        let r = Request::parse(" LLC_MISSES : u : cmask=1 ").unwrap();
        assert_eq!(r.event, "LLC_MISSES");
        assert_eq!(r.modifiers.usr, Some(true));
        assert_eq!(r.modifiers.cmask, Some(1));
        let r = r.with_modifiers("k,inv").unwrap().on(Counter::General(1));
        assert_eq!(r.modifiers.os, Some(true));
        assert_eq!(r.modifiers.inv, Some(true));
        assert_eq!(r.counter, Some(Counter::General(1)));
        assert!(
            Request::parse("LLC_MISSES:u")
                .unwrap()
                .with_modifiers("u")
                .is_err()
        );
        let r = Request::parse("X:request=A:response=B:u").unwrap();
        assert_eq!(r.event, "X");
        assert!(matches!(
            r.modifier_error(),
            Some(Error::UnknownModifier { .. })
        ));
        assert_eq!(Request::parse(":u").unwrap_err().kind(), ErrorKind::Inval);
        assert_eq!(Request::parse("").unwrap_err().kind(), ErrorKind::Inval);
    }

    #[test]
    fn raw_terms_parse() {
        let v6 = UmaskLayout {
            width: 8,
            umask2_width: 8,
            fields: "UMASK+UMASK2".into(),
            register: "SEL".into(),
        };
        let v4 = UmaskLayout {
            umask2_width: 0,
            fields: "UMASK".into(),
            ..v6.clone()
        };
        let d = EventDef::from_terms("event=0x2e, umask=0x141,cmask=2,inv=1", &v6).unwrap();
        assert_eq!(
            (d.event, d.umask, d.umask2, d.cmask, d.inv),
            (0x2e, 0x41, 1, 2, true)
        );
        let e = EventDef::from_terms("event=0x2e,umask=0x141", &v4).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Umask);
        assert_eq!(
            e.to_string(),
            "invalid or missing unit mask: umask=321 is too big for UMASK of SEL (8 bits, maximum 255)"
        );
        assert!(EventDef::from_terms("event=0x2e,umask=0x10000", &v6).is_err());
        for bad in [
            "umask=1",
            "event=1,event=2",
            "event",
            "event=x",
            "event=1,foo=2",
            "event=1,inv=2",
        ] {
            assert!(EventDef::from_terms(bad, &v6).is_err(), "{bad}");
        }
    }

    #[test]
    fn ranges_compress() {
        assert_eq!(ranges(&[0, 1, 2, 3]), "0-3");
        assert_eq!(ranges(&[0, 2, 3, 5]), "0,2-3,5");
        assert_eq!(ranges(&[]), "");
    }
}
