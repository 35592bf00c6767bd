//! Placing an event on a general-purpose counter, written once for every generated event
//! select: the counter and event checks, then the event's attributes through
//! [`pmu_vocab::select::encode`], the function `pmu-defs`' encoder uses too. The generated
//! `event_on` / `try_event_on` of a register pass its [`SelectSpec`] (data: the register's
//! name, its instance count and which field holds each attribute) and turn the result into
//! the register's `Builder`.

use crate::{EventDesc, PlacementError};
use pmu_vocab::select::{Attr, Encoded, Fault, SelectLayout, encode};

/// The event select of a generation's general-purpose counters, as its `event_on` sees it:
/// written by the generator from the generation's `pmu.encoding`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelectSpec {
    /// The register's name.
    pub register: &'static str,
    /// Its instances (one per general-purpose counter).
    pub instances: u32,
    /// Which writable field holds each event attribute.
    pub layout: SelectLayout<'static>,
}

/// The event-select bits of `event` on counter `counter` (event code, unit masks, CMASK,
/// INV, EDGE, AnyThread; nothing else), with the bits of every field written; or why it cannot
/// be counted there. Checked in this order: the counter exists, the event is not fixed-only,
/// the event may use this counter, then each attribute fits a field of the register.
#[inline(always)]
pub const fn place(
    spec: &SelectSpec,
    counter: u32,
    event: &EventDesc,
) -> Result<Encoded, PlacementError> {
    if counter >= spec.instances {
        return Err(PlacementError::CounterOutOfRange {
            register: spec.register,
            count: spec.instances,
            counter,
        });
    }
    if let (0, Some(fixed)) = (event.counters, event.fixed) {
        return Err(PlacementError::FixedOnly {
            event: event.name,
            fixed,
            counter,
        });
    }
    if !event.allows_counter(counter) {
        return Err(PlacementError::NotOnCounter {
            event: event.name,
            allowed: event.counters,
            counter,
        });
    }
    match encode(&spec.layout, &attributes(event)) {
        Ok(e) => Ok(e),
        Err(Fault::TooWide {
            field,
            width,
            value,
            ..
        }) => Err(PlacementError::TooWide {
            event: event.name,
            field,
            width,
            value,
        }),
        Err(Fault::Unsupported { attr }) => Err(PlacementError::Unsupported {
            event: event.name,
            field: attr.label(),
            register: spec.register,
        }),
    }
}

/// `event`'s attribute values, indexed by `Attr as usize`.
#[inline(always)]
const fn attributes(event: &EventDesc) -> [u64; Attr::COUNT] {
    let mut v = [0; Attr::COUNT];
    v[Attr::Event as usize] = event.event as u64;
    v[Attr::Umask as usize] = event.umask as u64;
    v[Attr::Umask2 as usize] = event.umask2 as u64;
    v[Attr::Eq as usize] = event.eq as u64;
    v[Attr::Cmask as usize] = event.cmask as u64;
    v[Attr::Inv as usize] = event.inv as u64;
    v[Attr::Edge as usize] = event.edge as u64;
    v[Attr::Any as usize] = event.any as u64;
    v
}
