//! A model's event table as `pmu_regs::EventTable` reads it: one fixed-size record of bytes per
//! event, the names end to end in one string, and the alternative encodings in one array.
//!
//! rustc reads a byte string or a string at once, where an array of `EventDesc` values is one
//! constant evaluation per field: with every model compiled in, that was a third of the build
//! (BENCHMARKS.md, "Event tables as bytes"). The record layout is `pmu_vocab::record`, read
//! by pmu-regs' `event/table.rs`; `tests/tests/event_tables.rs` decodes every model's table and
//! compares it with the definitions.

use super::util::lit_u32;
use pmu_defs::model::{Alternative, CounterSet, Event};
use proc_macro2::TokenStream;
use quote::quote;
use std::fmt::Write as _;
use std::str::FromStr;

use pmu_vocab::record::{
    self, ANY, DEPRECATED, EDGE, EQ, HAS_FIXED, HAS_MSR, HAS_PDIST_COUNTERS, HAS_PEBS_COUNTERS,
    INV, LEN as RECORD_LEN, TAKEN_ALONE,
};

/// The three literals of a table, as text: the records (`b"..."`), the names (`"..."`) and the
/// alternatives (`EventAlt` literals, without the brackets).
pub(super) struct Literals {
    pub records: TokenStream,
    pub names: TokenStream,
    pub alternatives: Vec<TokenStream>,
}

/// The table of `evs` (in `Event` order); `aux_kind(i)` is event `i`'s `events::Aux` variant,
/// counted from 1 (0: none). `Err` names the event and the value that does not fit its
/// record field (the validator rejects such values first; this keeps them from being
/// truncated if it did not).
pub(super) fn literals(
    krate: &TokenStream,
    evs: &[&Event],
    aux_kind: impl Fn(usize) -> u8,
) -> Result<Literals, String> {
    let mut records = String::from("b\"\\\n");
    let mut names = String::from("\"\\\n");
    let mut name_len = 0usize;
    let mut alternatives: Vec<TokenStream> = Vec::new();
    // The alternatives' text, to find a run another event already has: most off-core events
    // share one alternative (the other OFFCORE_RSP MSR), so the table holds each run once.
    let mut alt_text: Vec<String> = Vec::new();
    for (i, e) in evs.iter().enumerate() {
        let alts = e.alternatives();
        let extra: Vec<TokenStream> = (alts.get(1..).unwrap_or_default().iter())
            .map(|a| event_alt(krate, a))
            .collect();
        let text: Vec<String> = extra.iter().map(|t| t.to_string()).collect();
        let found = (!text.is_empty())
            .then(|| {
                alt_text
                    .windows(text.len())
                    .position(|w| w == text.as_slice())
            })
            .flatten();
        let start = match found {
            Some(at) => at,
            None => {
                alternatives.extend(extra);
                alt_text.extend(text.iter().cloned());
                alt_text.len() - text.len()
            }
        };
        let r = record(e, name_len, start, text.len(), aux_kind(i))
            .map_err(|what| format!("event `{}`: {what} does not fit its table field", e.name))?;
        for b in r {
            let _ = write!(records, "\\x{b:02x}");
        }
        records.push_str("\\\n");
        names.push_str(&escape_name(&e.name));
        names.push_str("\\\n");
        name_len += e.name.len();
    }
    records.push('"');
    names.push('"');
    let parse = |s: &str| TokenStream::from_str(s).map_err(|e| format!("event table literal: {e}"));
    Ok(Literals {
        records: parse(&records)?,
        names: parse(&names)?,
        alternatives,
    })
}

/// One event's record; `Err` names the field that does not fit.
fn record(
    e: &Event,
    name_at: usize,
    alt_start: usize,
    alt_len: usize,
    aux: u8,
) -> Result<[u8; RECORD_LEN], &'static str> {
    let mut r = [0u8; RECORD_LEN];
    let u8_of = |v: u32, what| u8::try_from(v).map_err(|_| what);
    r[record::NAME_OFFSET..record::NAME_OFFSET + 4].copy_from_slice(
        &u32::try_from(name_at)
            .map_err(|_| "the names' length")?
            .to_le_bytes(),
    );
    r[record::NAME_LEN] = u8::try_from(e.name.len()).map_err(|_| "the name's length")?;
    r[record::EVENT..record::EVENT + 2].copy_from_slice(
        &u16::try_from(e.event)
            .map_err(|_| "the event select")?
            .to_le_bytes(),
    );
    r[record::UMASK] = u8_of(e.umask, "the unit mask")?;
    r[record::UMASK2] = u8_of(e.umask2.unwrap_or(0), "umask2")?;
    r[record::CMASK] = u8_of(e.cmask, "the counter mask")?;
    let mut flags = 0;
    for (on, bit) in [
        (e.eq, EQ),
        (e.inv, INV),
        (e.edge, EDGE),
        (e.any, ANY),
        (e.deprecated, DEPRECATED),
        (e.fixed.is_some(), HAS_FIXED),
        (e.msr.is_some(), HAS_MSR),
    ] {
        if on {
            flags |= bit;
        }
    }
    r[record::FLAGS] = flags;
    r[record::FIXED] = u8_of(e.fixed.unwrap_or(0), "the fixed counter")?;
    let counters = e
        .counters
        .iter()
        .filter(|&&c| c < 32)
        .fold(0u32, |m, &c| m | (1 << c));
    r[record::COUNTERS..record::COUNTERS + 4].copy_from_slice(&counters.to_le_bytes());
    r[record::PEBS] = e.pebs.unwrap_or(0);
    r[record::AUX] = aux;
    r[record::ALT_START..record::ALT_START + 2].copy_from_slice(
        &u16::try_from(alt_start)
            .map_err(|_| "the alternatives' count")?
            .to_le_bytes(),
    );
    r[record::ALT_LEN] = u8::try_from(alt_len).map_err(|_| "the number of alternatives")?;
    if let Some(m) = &e.msr {
        r[record::MSR_INDEX..record::MSR_INDEX + 4].copy_from_slice(&m.index.to_le_bytes());
        r[record::MSR_VALUE..record::MSR_VALUE + 8].copy_from_slice(&m.value.to_le_bytes());
    }
    let mut flags2 = if e.taken_alone { TAKEN_ALONE } else { 0 };
    let sets = [
        (
            &e.pebs_counters,
            HAS_PEBS_COUNTERS,
            record::PEBS_GP,
            record::PEBS_FIXED,
        ),
        (
            &e.pdist_counters,
            HAS_PDIST_COUNTERS,
            record::PDIST_GP,
            record::PDIST_FIXED,
        ),
    ];
    for (set, flag, gp_at, fixed_at) in sets {
        if let Some(set) = set {
            let (gp, fixed) = counter_masks(set).ok_or("a PEBS or PDist counter")?;
            flags2 |= flag;
            r[gp_at..gp_at + 4].copy_from_slice(&gp.to_le_bytes());
            r[fixed_at] = fixed;
        }
    }
    if let Some(set) = &e.counters_ht_off {
        let (gp, _) = counter_masks(set).ok_or("a counter with Hyper-Threading off")?;
        flags2 |= record::HAS_COUNTERS_HT_OFF;
        r[record::COUNTERS_HT_OFF..record::COUNTERS_HT_OFF + 4].copy_from_slice(&gp.to_le_bytes());
    }
    r[record::FLAGS2] = flags2;
    Ok(r)
}

/// A counter set as the record's bitmaps (general counters, fixed counters); `None` when a
/// counter is past what they hold.
pub(crate) fn counter_masks(set: &CounterSet) -> Option<(u32, u8)> {
    let gp = set
        .general
        .iter()
        .try_fold(0u32, |m, &c| Some(m | 1u32.checked_shl(c)?))?;
    let fixed = set
        .fixed
        .iter()
        .try_fold(0u8, |m, &c| Some(m | 1u8.checked_shl(c)?))?;
    Some((gp, fixed))
}

/// `name` inside a string literal that continues lines (`\` at each line's end): escaped as
/// Rust escapes it, and a leading whitespace character spelled as an escape, since the
/// continuation would skip it.
fn escape_name(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if i == 0 && c.is_whitespace() {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.extend(c.escape_default());
        }
    }
    out
}

/// `EventAlt { event, umask, msr_index }` of one further way to program an event.
pub(super) fn event_alt(krate: &TokenStream, a: &Alternative) -> TokenStream {
    let ev = hex(a.event);
    let um = hex(a.umask);
    let mi = match a.msr_index {
        Some(i) => {
            let i = lit_u32(i);
            quote!(Some(#i))
        }
        None => quote!(None),
    };
    quote! { #krate::EventAlt { event: #ev, umask: #um, msr_index: #mi } }
}

fn hex(v: u32) -> TokenStream {
    TokenStream::from_str(&format!("{v:#04x}")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pmu_defs::source::Span;

    fn event(name: &str) -> Event {
        Event {
            event: 0x3C,
            counters: vec![0, 1],
            ..Event::blank(name.into(), String::new(), Span::new(0, 0, 0))
        }
    }

    #[test]
    fn leading_whitespace_survives_the_line_continuation() {
        assert_eq!(escape_name(" A\"B\\"), "\\u{20}A\\\"B\\\\");
        assert_eq!(escape_name("BR_INST.ANY"), "BR_INST.ANY");
    }

    #[test]
    fn a_value_wider_than_its_field_is_an_error_not_a_truncation() {
        let e = Event {
            umask: 0x1FF,
            ..event("WIDE")
        };
        let err = literals(&quote!(crate), &[&e], |_| 0).err();
        assert_eq!(
            err.as_deref(),
            Some("event `WIDE`: the unit mask does not fit its table field")
        );
    }

    #[test]
    fn the_msr_value_takes_all_eight_bytes() {
        let e = Event {
            msr: Some(pmu_defs::model::EventMsr {
                index: 0x1A6,
                alt_indexes: vec![],
                value: 0x8000_0000_0000_0001,
            }),
            ..event("OCR.X")
        };
        let r = record(&e, 7, 0, 0, 1).unwrap();
        assert_eq!(r[0], 7);
        assert_eq!(r[10], HAS_MSR);
        assert_eq!(r[17], 1);
        assert_eq!(u32::from_le_bytes(r[21..25].try_into().unwrap()), 0x1A6);
        assert_eq!(
            u64::from_le_bytes(r[25..33].try_into().unwrap()),
            0x8000_0000_0000_0001
        );
    }
}
