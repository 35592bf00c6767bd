//! What can go wrong encoding or decoding: [`ErrorKind`] (after libpfm4's error codes)
//! and [`Error`], whose messages say what was asked, what the model has, and what to try.

use super::*;

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

pub(super) fn max_of(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}
