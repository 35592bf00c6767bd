//! What a user asks for: [`Request`], parsed from `EVENT:modifiers` text, with the
//! [`Counter`] it names and the [`Modifiers`] it sets.

use super::*;

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

pub(super) const MODIFIER_LIST: &str = "u, k, edge, inv, cmask=N, any, eq, int, en";

/// Modifier names and aliases (first of each group is canonical).
pub(super) const MODIFIERS: &[(&str, &[&str])] = &[
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
