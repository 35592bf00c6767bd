//! What a user asks for: [`Request`], parsed from `EVENT:modifiers` text, with the
//! [`Counter`] it names and the [`Modifiers`] it sets.

use super::*;
use pmu_vocab::perf;

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

pub(super) const MODIFIER_LIST: &str =
    "u, k, edge, inv, cmask=N, any, eq, int, en, ldlat=N, offcore_rsp=N";

/// Modifiers of a request; `None` means "not given" (the event's own value, or the
/// default): the type and parser the run-time resolver uses too, so the two accept the same
/// text. [`parse_modifiers`] and [`add_modifier`] report problems as the tools' [`Error`].
pub use pmu_vocab::perf::Modifiers;

/// Parses a modifier list such as `u,k,cmask=2` or `u:k:cmask=2`, stopping at the first
/// problem.
///
/// ```
/// use pmu_defs::encode::parse_modifiers;
/// let m = parse_modifiers("u,cmask=0x2:inv")?;
/// assert_eq!((m.usr, m.os, m.cmask, m.inv), (Some(true), None, Some(2), Some(true)));
/// assert!(parse_modifiers("u,u").is_err());
/// # Ok::<(), pmu_defs::encode::Error>(())
/// ```
pub fn parse_modifiers(list: &str) -> Result<Modifiers, Error> {
    let mut m = Modifiers::default();
    for term in list.split([',', ':']) {
        let term = term.trim();
        if !term.is_empty() {
            add_modifier(&mut m, term)?;
        }
    }
    Ok(m)
}

/// Adds one modifier (`u`, `cmask=2`, `inv=0`, ...) to `m`.
pub fn add_modifier(m: &mut Modifiers, term: &str) -> Result<(), Error> {
    m.add(term, 0).map_err(|e| modifier_error(term, e.kind))
}

/// The error for the modifier `term`, which the shared parser refused for `kind`.
fn modifier_error(term: &str, kind: perf::ErrorKind) -> Error {
    use perf::{ErrorKind as K, Modifier};
    let (name, value) = match term.split_once('=') {
        Some((n, v)) => (n.trim(), v.trim()),
        None => (term.trim(), ""),
    };
    let canonical: &str = Modifier::from_name(name).map_or(name, |m| m.key());
    let bad = |reason: String| Error::BadModifierValue {
        modifier: canonical.to_string(),
        value: value.to_string(),
        reason,
    };
    match kind {
        K::UnknownModifier => Error::UnknownModifier {
            modifier: name.to_string(),
            suggestion: did_you_mean(&name.to_ascii_lowercase(), Modifier::spellings())
                .and_then(Modifier::from_name)
                .map(Modifier::key),
        },
        K::ModifierTwice => Error::ModifierTwice {
            modifier: Modifier::from_name(name).map_or("a modifier", Modifier::key),
        },
        K::FlagValue => bad("a flag takes 0 or 1".into()),
        K::NeedsValue => bad(format!("needs a value: {canonical}=N")),
        K::BadNumber => bad("not a number (write decimal or 0x hex)".into()),
        other => Error::BadRequest {
            reason: format!("`{term}`: {}", perf::SyntaxError { at: 0, kind: other }),
        },
    }
}

/// Parses decimal, `0x` hex or `0b` binary, with `_` separators.
pub fn parse_number(s: &str) -> Option<u64> {
    perf::parse_number(s)
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
    /// The PMU a perf event string names (`cpu` in `cpu/event=0x2e,umask=0x41/`), checked
    /// against the generation's.
    pub pmu: Option<String>,
    /// The whole `EVENT:...` text, when it had a colon: a few of Intel's names contain
    /// colons themselves (`OFFCORE_RESPONSE:request=ALL_DATA_RD:response=ANY_RESPONSE`), so
    /// the encoder splits it again against the event list.
    pub(super) spec: Option<String>,
    /// Modifier lists added with [`Request::with_modifiers`].
    pub(super) extra: Vec<String>,
    /// Why the modifiers after the first colon did not parse, reported unless an event name
    /// with colons explains them.
    pub(super) deferred: Option<Error>,
}

impl Request {
    /// A request for an event with no modifiers (the name is taken whole).
    pub fn new(event: impl Into<String>) -> Self {
        Request {
            event: event.into(),
            modifiers: Modifiers::default(),
            counter: None,
            pmu: None,
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
    ///
    /// A perf event string is read too, by the parser the run-time resolver uses
    /// (`pmu_vocab::perf`): its terms become raw terms and its `u`/`k` the privilege
    /// modifiers.
    ///
    /// ```
    /// use pmu_defs::encode::Request;
    /// let r = Request::parse("cpu/event=0xd1,umask=0x20,cmask=2/u")?;
    /// assert_eq!(r.event, "event=0xd1,cmask=0x2,umask=0x20");
    /// assert_eq!(r.pmu.as_deref(), Some("cpu"));
    /// assert_eq!((r.modifiers.usr, r.modifiers.os), (Some(true), Some(false)));
    /// # Ok::<(), pmu_defs::encode::Error>(())
    /// ```
    pub fn parse(spec: &str) -> Result<Self, Error> {
        let spec = spec.trim();
        if spec.contains('/') {
            return Self::parse_perf_string(spec);
        }
        let (event, mods) = match spec.split_once(':') {
            Some((e, m)) => (e.trim(), m),
            None => (spec, ""),
        };
        if event.is_empty() {
            return Err(Error::BadRequest {
                reason: format!("`{spec}` names no event"),
            });
        }
        let (modifiers, deferred) = match parse_modifiers(mods) {
            Ok(m) => (m, None),
            Err(e) => (Modifiers::default(), Some(e)),
        };
        Ok(Request {
            event: event.to_string(),
            modifiers,
            counter: None,
            pmu: None,
            spec: spec.contains(':').then(|| spec.to_string()),
            extra: Vec::new(),
            deferred,
        })
    }

    /// A perf event string (`cpu/event=0xd1,umask=0x20,cmask=2/u`), read by the parser the
    /// run-time resolver uses (`pmu_vocab::perf::parse`): its terms become raw terms, `u`/`k`
    /// the privilege modifiers, `ldlat=`/`offcore_rsp=` the auxiliary-MSR modifiers.
    fn parse_perf_string(spec: &str) -> Result<Self, Error> {
        let bad = |reason: String| Error::BadRequest { reason };
        let parsed = perf::parse(spec).map_err(|e| bad(format!("`{spec}`: {e}")))?;
        let perf::Event::Terms(terms) = parsed.event else {
            return Err(bad(format!("`{spec}` is not a perf event string")));
        };
        if terms.config.is_some() || terms.config1.is_some() {
            return Err(bad(format!(
                "`{spec}`: `config=`/`config1=` give a raw value; `pmu decode` reads one"
            )));
        }
        let mut event = Vec::new();
        let mut modifiers = parsed.modifiers;
        for t in perf::Term::ALL {
            let Some(v) = terms.get(t) else { continue };
            match t {
                perf::Term::Ldlat => modifiers.ldlat = Some(v),
                perf::Term::OffcoreRsp => modifiers.offcore_rsp = Some(v),
                perf::Term::Frontend => {
                    return Err(bad(format!(
                        "`{spec}`: `frontend=` is not encoded here; name the event instead"
                    )));
                }
                _ => event.push(format!("{}={v:#x}", t.key())),
            }
        }
        Ok(Request {
            event: event.join(","),
            modifiers,
            pmu: parsed.pmu.map(str::to_string),
            ..Request::new("")
        })
    }

    /// The same request, more modifiers (a list as [`parse_modifiers`] reads).
    pub fn with_modifiers(mut self, list: &str) -> Result<Self, Error> {
        for term in list.split([',', ':']) {
            let term = term.trim();
            if !term.is_empty() {
                add_modifier(&mut self.modifiers, term)?;
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
