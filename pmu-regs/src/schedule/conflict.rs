//! Why a set of events does not fit: [`Error`], [`Conflict`] and its [`Reason`], and their
//! messages.

use super::{MAX_EVENTS, MAX_OPTIONS, members, msr_name};
use crate::EventDesc;
use crate::arch::{Generation, InstanceName};
use crate::detect::write_counter_list;
use core::fmt;

/// Why a list cannot be scheduled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error<'a> {
    /// The events cannot share the PMU.
    Conflict(Conflict<'a>),
    /// More events than one call takes.
    TooMany {
        /// How many were given.
        given: usize,
    },
}

impl fmt::Display for Error<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Conflict(c) => c.fmt(f),
            Error::TooMany { given } => write!(
                f,
                "{given} events given; one schedule takes at most {MAX_EVENTS}"
            ),
        }
    }
}

impl core::error::Error for Error<'_> {}

impl<'a> From<Conflict<'a>> for Error<'a> {
    fn from(c: Conflict<'a>) -> Self {
        Error::Conflict(c)
    }
}

/// Why the events of a [`Conflict`] cannot share the PMU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// No counter the target has counts the (one) event: it may use only general-purpose
    /// counters `gp` and fixed counter `fixed`, none of which the target has.
    NoCounter {
        /// The general-purpose counters the event may use.
        gp: u32,
        /// Its fixed counter.
        fixed: Option<u8>,
    },
    /// Between them the events may use only these counters, one fewer than there are events.
    Counters {
        /// General-purpose counters (bit n = counter n).
        gp: u32,
        /// Fixed counters.
        fixed: u32,
    },
    /// The events need more different values in their auxiliary MSRs (each holds one value)
    /// than the MSRs their encodings may use.
    AuxMsr {
        /// The MSRs (primary encodings' first), `msr_count` of them.
        msrs: [u32; MAX_OPTIONS],
        /// How many of `msrs` are used.
        msr_count: u8,
        /// The different values the events need, `value_count` of them (at most four kept).
        values: [u64; MAX_OPTIONS],
        /// How many different values there are.
        value_count: u8,
    },
    /// Events that must count alone ([`EventDesc::taken_alone`]) are in the set with others
    /// that need a general-purpose counter, or with each other.
    TakenAlone {
        /// The events that must count alone (bit i = the i-th event of the list given).
        alone: u64,
    },
    /// The (one) event asks to be sampled precisely ([`EventDesc::precise`]) and no counter
    /// can: it is not a PEBS event, or (level 3) it has no PDist counter.
    NotPrecise {
        /// The precision asked for.
        level: u8,
    },
}

/// A smallest set of events that cannot share the PMU, and why. Every event of it is needed:
/// without any one of them, the others fit.
#[derive(Clone, Copy)]
pub struct Conflict<'a> {
    /// The events (bit i = the i-th event of the list given).
    pub events: u64,
    /// Why.
    pub reason: Reason,
    pub(super) generation: Generation,
    pub(super) list: &'a [EventDesc],
}

impl<'a> Conflict<'a> {
    /// The indexes (in the list given) of the events, in order.
    pub fn indexes(&self) -> impl Iterator<Item = usize> + '_ {
        members(self.events)
    }

    /// How many events.
    pub fn len(&self) -> usize {
        self.events.count_ones() as usize
    }

    /// Never true: a conflict has at least one event.
    pub fn is_empty(&self) -> bool {
        self.events == 0
    }

    /// The names of the events, in order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        members(self.events).filter_map(|i| self.list.get(i).map(|e| e.name))
    }

    /// The register at MSR `address` (`MSR_OFFCORE_RSP_1`), when the generation has one.
    pub fn msr_name(&self, address: u32) -> Option<InstanceName> {
        msr_name(self.generation.registers(), address)
    }
}

impl PartialEq for Conflict<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.events == other.events && self.reason == other.reason
    }
}

impl Eq for Conflict<'_> {}

impl fmt::Debug for Conflict<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Conflict")
            .field("events", &ListNames(self, None))
            .field("reason", &self.reason)
            .finish()
    }
}

/// `A`, `A and B`, `A, B and C`: the events' names, or the labels given for them.
struct ListNames<'c, 'a>(&'c Conflict<'a>, Option<&'c [&'c str]>);

impl fmt::Debug for ListNames<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.names()).finish()
    }
}

impl fmt::Display for ListNames<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        for (k, i) in self.0.indexes().enumerate() {
            if k > 0 {
                f.write_str(if k + 1 == n { " and " } else { ", " })?;
            }
            let label = self.1.and_then(|l| l.get(i).copied());
            let name = self.0.list.get(i).map_or("?", |e| e.name);
            f.write_str(label.unwrap_or(name))?;
        }
        Ok(())
    }
}

/// `general-purpose counters 0-3 and fixed counter 1`.
struct Counters {
    gp: u32,
    fixed: u32,
}

impl fmt::Display for Counters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |m: u32| if m.count_ones() == 1 { "" } else { "s" };
        if self.gp != 0 {
            write!(f, "general-purpose counter{} ", plural(self.gp))?;
            write_counter_list(f, self.gp)?;
        }
        if self.fixed != 0 {
            if self.gp != 0 {
                f.write_str(" and ")?;
            }
            write!(f, "fixed counter{} ", plural(self.fixed))?;
            write_counter_list(f, self.fixed)?;
        }
        if self.gp == 0 && self.fixed == 0 {
            f.write_str("no counter")?;
        }
        Ok(())
    }
}

fn msr_label(f: &mut fmt::Formatter<'_>, address: u32, name: Option<InstanceName>) -> fmt::Result {
    match name {
        Some(n) => write!(f, "{n} ({address:#x})"),
        None => write!(f, "MSR {address:#x}"),
    }
}

/// A [`Conflict`]'s message with the events named by the caller's labels
/// ([`Conflict::labelled`]).
#[derive(Debug)]
pub struct Labelled<'c, 'a> {
    conflict: &'c Conflict<'a>,
    labels: &'c [&'c str],
}

impl fmt::Display for Labelled<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.conflict
            .message(f, ListNames(self.conflict, Some(self.labels)))
    }
}

impl<'a> Conflict<'a> {
    /// The message, with event `i` called `labels[i]` (what the user typed, modifiers and
    /// all) instead of its name.
    pub fn labelled<'c>(&'c self, labels: &'c [&'c str]) -> Labelled<'c, 'a> {
        Labelled {
            conflict: self,
            labels,
        }
    }
}

impl fmt::Display for Conflict<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.message(f, ListNames(self, None))
    }
}

impl Conflict<'_> {
    /// ` at precision N` when the (first) event asks for one.
    fn names_precise(&self) -> Precision {
        let e = self.indexes().next().and_then(|i| self.list.get(i));
        Precision(e.map_or(0, |e| e.precise))
    }

    /// [`Reason::TakenAlone`]'s message.
    fn alone_message(
        &self,
        f: &mut fmt::Formatter<'_>,
        names: ListNames<'_, '_>,
        alone: u64,
    ) -> fmt::Result {
        let name = |i: usize| {
            let label = names.1.and_then(|l| l.get(i).copied());
            label.unwrap_or(self.list.get(i).map_or("?", |e| e.name))
        };
        if alone.count_ones() > 1 || alone == 0 {
            return write!(
                f,
                "{names} each must count alone (Intel's TakenAlone: no other event on a \
                 general-purpose counter meanwhile)"
            );
        }
        let t = alone.trailing_zeros() as usize;
        write!(
            f,
            "{} must count alone (Intel's TakenAlone: no other event on a general-purpose \
             counter meanwhile), and ",
            name(t)
        )?;
        let others = Conflict {
            events: self.events & !alone,
            ..*self
        };
        let others = ListNames(&others, names.1);
        let verb = if others.0.len() == 1 { "needs" } else { "need" };
        write!(f, "{others} {verb} one")
    }

    fn message(&self, f: &mut fmt::Formatter<'_>, names: ListNames<'_, '_>) -> fmt::Result {
        match self.reason {
            Reason::TakenAlone { alone } => self.alone_message(f, names, alone),
            Reason::NotPrecise { level } if level >= 3 => write!(
                f,
                "{names} has no counter with precise distribution (PDist) to sample it at \
                 precision {level}"
            ),
            Reason::NotPrecise { level } => write!(
                f,
                "{names} cannot be sampled with PEBS (precision {level}) on this PMU's counters"
            ),
            Reason::NoCounter { gp, fixed } => {
                let precise = self.names_precise();
                match fixed {
                    Some(k) if gp == 0 => write!(
                        f,
                        "{names} needs fixed counter {k}{precise}, which this PMU does not have"
                    ),
                    _ => {
                        let fixed = fixed.map_or(0, |k| 1u32.checked_shl(k.into()).unwrap_or(0));
                        write!(
                            f,
                            "{names} may be counted{precise} only on {}, none of which this \
                             PMU has",
                            Counters { gp, fixed }
                        )
                    }
                }
            }
            Reason::Counters { gp, fixed } => self.counters_message(f, names, gp, fixed),
            Reason::AuxMsr {
                msrs,
                msr_count,
                values,
                value_count,
            } => {
                let m = usize::from(msr_count).min(MAX_OPTIONS);
                let shown = usize::from(value_count).min(MAX_OPTIONS);
                self.aux_message(f, names, &msrs[..m], &values[..shown])
            }
        }
    }

    /// [`Reason::Counters`]'s message.
    fn counters_message(
        &self,
        f: &mut fmt::Formatter<'_>,
        names: ListNames<'_, '_>,
        gp: u32,
        fixed: u32,
    ) -> fmt::Result {
        let n = self.len();
        let c = Counters { gp, fixed };
        let slots = gp.count_ones() + fixed.count_ones();
        if gp == 0 && fixed.count_ones() == 1 {
            let k = fixed.trailing_zeros();
            let both = if n == 2 { "both " } else { "all " };
            return write!(
                f,
                "{names} {both}need fixed counter {k}, which counts one event at a time"
            );
        }
        let such = match slots {
            1 => "one such event already uses it",
            2 => "two such events already use them",
            3 => "three such events already use them",
            4 => "four such events already use them",
            _ => "",
        };
        // Sampled precisely, every one of them: their PEBS or PDist counters.
        let all_precise = (self.indexes()).all(|i| self.list.get(i).is_some_and(|e| e.precise > 0));
        let how = if all_precise {
            "sampled as precisely as asked"
        } else {
            "counted"
        };
        if such.is_empty() {
            write!(
                f,
                "{names} may be {how} only on {c}: {n} events for {slots} counters"
            )
        } else {
            write!(f, "{names} may be {how} only on {c}; {such}")
        }
    }

    /// [`Reason::AuxMsr`]'s message: `msrs` the MSRs (primary first), `values` those shown.
    fn aux_message(
        &self,
        f: &mut fmt::Formatter<'_>,
        names: ListNames<'_, '_>,
        msrs: &[u32],
        values: &[u64],
    ) -> fmt::Result {
        let both = if self.len() == 2 { "both " } else { "" };
        write!(f, "{names} {both}need ")?;
        if let Some(&first) = msrs.first() {
            msr_label(f, first, self.msr_name(first))?;
        }
        write!(f, " with different values (")?;
        for (k, v) in values.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{v:#x}")?;
        }
        f.write_str(")")?;
        if msrs.len() > 1 {
            f.write_str(" and the alternative encoding's ")?;
            for (k, &a) in msrs[1..].iter().enumerate() {
                if k > 0 {
                    f.write_str(", ")?;
                }
                msr_label(f, a, self.msr_name(a))?;
            }
            f.write_str(" is taken")?;
        }
        Ok(())
    }
}

/// ` at precision N` (nothing for 0).
struct Precision(u8);

impl fmt::Display for Precision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => Ok(()),
            n => write!(f, " at precision {n}"),
        }
    }
}
