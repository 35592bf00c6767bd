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
mod encoder;
mod encoding;
mod error;
mod index;
pub mod perf;
mod place;
mod request;
mod select;

pub use encoder::*;
pub use encoding::*;
pub use error::*;
pub use place::*;
pub use request::*;

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
        let m = parse_modifiers("usr:kernel:e:i=0:c=0x10:t:eq=1:pmi:en=0").unwrap();
        assert_eq!(m.usr, Some(true));
        assert_eq!(m.os, Some(true));
        assert_eq!(m.edge, Some(true));
        assert_eq!(m.inv, Some(false));
        assert_eq!(m.cmask, Some(16));
        assert_eq!(m.any, Some(true));
        assert_eq!(m.eq, Some(true));
        assert_eq!(m.int, Some(true));
        assert_eq!(m.en, Some(false));
        assert!(parse_modifiers("").unwrap().is_empty());
        assert!(parse_modifiers(" , : ").unwrap().is_empty());
    }

    #[test]
    fn modifier_errors() {
        let e = parse_modifiers("u,usr").unwrap_err();
        assert_eq!(e, Error::ModifierTwice { modifier: "u" });
        assert_eq!(
            e.to_string(),
            "attribute value already set: `u` is given more than once"
        );
        let e = parse_modifiers("kernal").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Attr);
        assert_eq!(
            e.to_string(),
            "invalid event attribute: unknown modifier `kernal` (did you mean `k`?); \
             modifiers are u, k, edge, inv, cmask=N, any, eq, int, en, ldlat=N, offcore_rsp=N"
        );
        let e = parse_modifiers("u=2").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid event attribute value: `u=2`: a flag takes 0 or 1"
        );
        let e = parse_modifiers("cmask").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid event attribute value: `cmask` needs a value: cmask=N"
        );
        let e = parse_modifiers("cmask=lots").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::AttrVal);
        let e = parse_modifiers("zz").unwrap_err();
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
