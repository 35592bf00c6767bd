//! Why an event cannot be put in an event-select register.

use crate::__private::Buf;
use core::fmt;

/// Why an event cannot be put in an event-select register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlacementError {
    /// The register family has no counter with this index.
    CounterOutOfRange {
        /// Register name.
        register: &'static str,
        /// Number of counters.
        count: u32,
        /// The requested counter.
        counter: u32,
    },
    /// Only a fixed-function counter counts the event.
    FixedOnly {
        /// Event name.
        event: &'static str,
        /// The fixed counter that counts it.
        fixed: u8,
        /// The requested general-purpose counter.
        counter: u32,
    },
    /// The event may be counted only on some general-purpose counters, not this one.
    NotOnCounter {
        /// Event name.
        event: &'static str,
        /// The counters it may use (bit n = counter n).
        allowed: u32,
        /// The requested counter.
        counter: u32,
    },
    /// The event needs a field the register does not have in this generation.
    Unsupported {
        /// Event name.
        event: &'static str,
        /// The missing field.
        field: &'static str,
        /// Register name.
        register: &'static str,
    },
    /// A value placed on one instance of a register family is written to another.
    WrongCounter {
        /// Register name.
        register: &'static str,
        /// The instance the value was built for.
        placed: u32,
        /// The instance it was to be written to.
        counter: u32,
    },
    /// A field valid only on some instances of the family is set on a value for another.
    FieldNotOnCounter {
        /// Register name.
        register: &'static str,
        /// The field.
        field: &'static str,
        /// The instance.
        counter: u32,
    },
    /// An encoding value does not fit its field.
    TooWide {
        /// Event name.
        event: &'static str,
        /// Field.
        field: &'static str,
        /// Field width.
        width: u32,
        /// The value.
        value: u64,
    },
}

impl PlacementError {
    fn message(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        match *self {
            PlacementError::CounterOutOfRange {
                register,
                count,
                counter,
            } => write!(
                out,
                "{register} has {count} counters (0..={}); counter {counter} is out of range",
                count.saturating_sub(1)
            ),
            PlacementError::FixedOnly {
                event,
                fixed,
                counter,
            } => write!(
                out,
                "{event} counts only on fixed counter {fixed}; it cannot be placed on general-purpose counter {counter}"
            ),
            PlacementError::NotOnCounter {
                event,
                allowed,
                counter,
            } => {
                let plural = if allowed.count_ones() == 1 { "" } else { "s" };
                write!(
                    out,
                    "{event} may be counted only on general-purpose counter{plural} "
                )?;
                let mut first = true;
                for n in 0..32 {
                    if allowed & (1 << n) != 0 {
                        write!(out, "{}{n}", if first { "" } else { "," })?;
                        first = false;
                    }
                }
                write!(out, "; not on counter {counter}")
            }
            PlacementError::Unsupported {
                event,
                field,
                register,
            } => write!(
                out,
                "{event} needs field {field}, which this generation's {register} does not have"
            ),
            PlacementError::WrongCounter {
                register,
                placed,
                counter,
            } => write!(
                out,
                "this {register} value was built for {register}{placed}; it cannot be written to {register}{counter}"
            ),
            PlacementError::FieldNotOnCounter {
                register,
                field,
                counter,
            } => write!(out, "{field} is not valid on {register}{counter}"),
            PlacementError::TooWide {
                event,
                field,
                width,
                value,
            } => write!(
                out,
                "{event}: {field} is {width} bits wide; {value:#X} does not fit"
            ),
        }
    }

    /// Const-eval failure with the same message as `Display` (used by `event_on`).
    #[doc(hidden)]
    #[track_caller]
    pub const fn fail(self) -> ! {
        let b = Buf::new();
        let b = match self {
            PlacementError::CounterOutOfRange {
                register,
                count,
                counter,
            } => b
                .push_str(register)
                .push_str(" has ")
                .push_num(count as u64, false)
                .push_str(" counters (0..=")
                .push_num(count.saturating_sub(1) as u64, false)
                .push_str("); counter ")
                .push_num(counter as u64, false)
                .push_str(" is out of range"),
            PlacementError::FixedOnly {
                event,
                fixed,
                counter,
            } => b
                .push_str(event)
                .push_str(" counts only on fixed counter ")
                .push_num(fixed as u64, false)
                .push_str("; it cannot be placed on general-purpose counter ")
                .push_num(counter as u64, false),
            PlacementError::NotOnCounter {
                event,
                allowed,
                counter,
            } => {
                let mut b = b.push_str(event).push_str(if allowed.count_ones() == 1 {
                    " may be counted only on general-purpose counter "
                } else {
                    " may be counted only on general-purpose counters "
                });
                let mut n = 0;
                let mut first = true;
                while n < 32 {
                    if allowed & (1 << n) != 0 {
                        if !first {
                            b = b.push_str(",");
                        }
                        b = b.push_num(n as u64, false);
                        first = false;
                    }
                    n += 1;
                }
                b.push_str("; not on counter ")
                    .push_num(counter as u64, false)
            }
            PlacementError::Unsupported {
                event,
                field,
                register,
            } => b
                .push_str(event)
                .push_str(" needs field ")
                .push_str(field)
                .push_str(", which this generation's ")
                .push_str(register)
                .push_str(" does not have"),
            PlacementError::WrongCounter {
                register,
                placed,
                counter,
            } => b
                .push_str("this ")
                .push_str(register)
                .push_str(" value was built for ")
                .push_str(register)
                .push_num(placed as u64, false)
                .push_str("; it cannot be written to ")
                .push_str(register)
                .push_num(counter as u64, false),
            PlacementError::FieldNotOnCounter {
                register,
                field,
                counter,
            } => b
                .push_str(field)
                .push_str(" is not valid on ")
                .push_str(register)
                .push_num(counter as u64, false),
            PlacementError::TooWide {
                event,
                field,
                width,
                value,
            } => b
                .push_str(event)
                .push_str(": ")
                .push_str(field)
                .push_str(" is ")
                .push_num(width as u64, false)
                .push_str(" bits wide; ")
                .push_num(value, true)
                .push_str(" does not fit"),
        };
        b.fail()
    }
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.message(f)
    }
}

impl core::error::Error for PlacementError {}
