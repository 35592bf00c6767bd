//! How an event's encoding goes into an event-select register, written once: which field holds
//! each event attribute ([`SelectLayout`], data the generator writes from a generation's
//! `pmu.encoding`) and the one function that writes the attributes ([`encode`]).
//!
//! Three callers share it, so the rules cannot drift apart: the generated `event_on` (in a
//! `const`, at compile time), `pmu-regs` at run time (`Pmu::program`, through the same
//! generated code) and `pmu-defs`' encoder (the `pmu encode` command and the docs site).
//!
//! ```
//! use pmu_vocab::select::{Attr, FieldRuns, Run, SelectLayout, encode};
//!
//! // AMD64's event select: EventSelect[7:0] at bits 7:0 and [11:8] at 35:32.
//! const LAYOUT: SelectLayout<'static> = SelectLayout::EMPTY
//!     .with(Attr::Event, FieldRuns::new("EVENT_SELECT", &[Run::new(0, 8), Run::new(32, 4)]))
//!     .with(Attr::Umask, FieldRuns::new("UMASK", &[Run::new(8, 8)]));
//! let mut values = [0; Attr::COUNT];
//! values[Attr::Event as usize] = 0x1C0;
//! values[Attr::Umask as usize] = 0x01;
//! let e = encode(&LAYOUT, &values).unwrap();
//! assert_eq!(e.bits, 0x1_0000_01C0);
//! assert_eq!(e.set, 0xF_0000_FFFF);
//! ```

/// One run of a field's bits: `width` bits from register bit `lsb`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Run {
    /// Lowest register bit of the run.
    pub lsb: u32,
    /// Bits in the run (1 to 64).
    pub width: u32,
}

impl Run {
    /// `width` bits from bit `lsb`.
    #[inline]
    pub const fn new(lsb: u32, width: u32) -> Self {
        Run { lsb, width }
    }

    /// The run's bits in the register.
    #[inline(always)]
    pub const fn mask(self) -> u64 {
        if self.lsb >= 64 || self.width == 0 {
            return 0;
        }
        let ones = if self.width >= 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        };
        ones << self.lsb
    }
}

/// A field of a register by name and bits: its runs hold the value low bits first (AMD's
/// 12-bit event select is `[Run::new(0, 8), Run::new(32, 4)]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldRuns<'a> {
    /// The field's name in the definitions.
    pub name: &'a str,
    /// Its bits, the value's low bits first.
    pub runs: &'a [Run],
}

impl<'a> FieldRuns<'a> {
    /// The field `name` at `runs`.
    #[inline]
    pub const fn new(name: &'a str, runs: &'a [Run]) -> Self {
        FieldRuns { name, runs }
    }

    /// The field's width: the sum of its runs.
    #[inline(always)]
    pub const fn width(&self) -> u32 {
        let mut w = 0;
        let mut i = 0;
        while i < self.runs.len() {
            w += self.runs[i].width;
            i += 1;
        }
        w
    }

    /// Every register bit the field covers.
    #[inline(always)]
    pub const fn mask(&self) -> u64 {
        let mut m = 0;
        let mut i = 0;
        while i < self.runs.len() {
            m |= self.runs[i].mask();
            i += 1;
        }
        m
    }

    /// `bits` with the field set to `value` (other bits unchanged), or `None` when `value` is
    /// wider than the field.
    #[inline(always)]
    pub const fn insert(&self, bits: u64, value: u64) -> Option<u64> {
        let width = self.width();
        if width < 64 && value >> width != 0 {
            return None;
        }
        let mut out = bits & !self.mask();
        let (mut i, mut at) = (0, 0u32);
        while i < self.runs.len() {
            let r = self.runs[i];
            if at < 64 {
                out |= ((value >> at) << r.lsb) & r.mask();
            }
            at += r.width;
            i += 1;
        }
        Some(out)
    }

    /// The field's value in `bits`.
    #[inline(always)]
    pub const fn extract(&self, bits: u64) -> u64 {
        let mut v = 0;
        let (mut i, mut at) = (0, 0u32);
        while i < self.runs.len() {
            let r = self.runs[i];
            if at < 64 {
                v |= ((bits & r.mask()) >> r.lsb) << at;
            }
            at += r.width;
            i += 1;
        }
        v
    }
}

/// An event attribute that goes into the event select: the keys of a generation's
/// `pmu.encoding` that an event's definition sets. [`encode`] writes them in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Attr {
    /// The event select code.
    Event,
    /// The unit mask.
    Umask,
    /// The second unit mask (Intel v6).
    Umask2,
    /// Equal-compare (Intel v6).
    Eq,
    /// The counter mask (threshold).
    Cmask,
    /// Invert the counter-mask comparison.
    Inv,
    /// Edge detect.
    Edge,
    /// AnyThread (Intel v3 to v4).
    Any,
}

impl Attr {
    /// How many attributes there are.
    pub const COUNT: usize = 8;
    /// Every attribute, in [`encode`]'s order.
    pub const ALL: [Attr; Attr::COUNT] = [
        Attr::Event,
        Attr::Umask,
        Attr::Umask2,
        Attr::Eq,
        Attr::Cmask,
        Attr::Inv,
        Attr::Edge,
        Attr::Any,
    ];

    /// The attribute's key in `pmu.encoding` (`event`, `umask`, ...).
    #[inline]
    pub const fn key(self) -> &'static str {
        match self {
            Attr::Event => "event",
            Attr::Umask => "umask",
            Attr::Umask2 => "umask2",
            Attr::Eq => "eq",
            Attr::Cmask => "cmask",
            Attr::Inv => "inv",
            Attr::Edge => "edge",
            Attr::Any => "any",
        }
    }

    /// How errors name the attribute when the register has no field for it.
    #[inline]
    pub const fn label(self) -> &'static str {
        match self {
            Attr::Event => "EVENT_SELECT",
            Attr::Umask => "UMASK",
            Attr::Umask2 => "UMASK2",
            Attr::Eq => "EQ",
            Attr::Cmask => "CMASK",
            Attr::Inv => "INV",
            Attr::Edge => "EDGE",
            Attr::Any => "ANY (AnyThread)",
        }
    }

    /// The attribute whose key is `key`.
    pub fn from_key(key: &str) -> Option<Attr> {
        Attr::ALL.into_iter().find(|a| a.key() == key)
    }
}

/// Which field of an event-select register holds each [`Attr`] (`None`: the register has no
/// writable field for it, so an event that sets it cannot be counted there).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SelectLayout<'a> {
    /// The field of each attribute, indexed by `Attr as usize`.
    pub fields: [Option<FieldRuns<'a>>; Attr::COUNT],
}

impl<'a> SelectLayout<'a> {
    /// No field for any attribute.
    pub const EMPTY: SelectLayout<'a> = SelectLayout {
        fields: [None; Attr::COUNT],
    };

    /// The layout with `attr` held by `field`.
    #[inline]
    pub const fn with(mut self, attr: Attr, field: FieldRuns<'a>) -> Self {
        self.fields[attr as usize] = Some(field);
        self
    }

    /// The field holding `attr`.
    #[inline(always)]
    pub const fn field(&self, attr: Attr) -> Option<FieldRuns<'a>> {
        self.fields[attr as usize]
    }
}

/// Why an event's attributes do not fit a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fault<'a> {
    /// The attribute's value is wider than its field.
    TooWide {
        /// The attribute.
        attr: Attr,
        /// Its field.
        field: &'a str,
        /// The field's width.
        width: u32,
        /// The value.
        value: u64,
    },
    /// The event sets an attribute the register has no field for.
    Unsupported {
        /// The attribute.
        attr: Attr,
    },
}

/// An encoded event: the register bits, and every bit of the fields that were written (also
/// those written with 0), so a builder knows which fields the event gave a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Encoded {
    /// The register value.
    pub bits: u64,
    /// The bits of every field written.
    pub set: u64,
}

/// Writes `values` (indexed by `Attr as usize`) into the fields `layout` names, in
/// [`Attr::ALL`]'s order, stopping at the first attribute that does not fit: one wider than its
/// field, or a non-zero one without a field.
#[inline(always)]
pub const fn encode<'a>(
    layout: &SelectLayout<'a>,
    values: &[u64; Attr::COUNT],
) -> Result<Encoded, Fault<'a>> {
    let mut out = Encoded { bits: 0, set: 0 };
    // One step per attribute, written out rather than looped: with a constant layout and
    // event (a `const`, or `event_on::<N>(ArchEvent::X.desc())`) the optimizer folds the
    // whole encoding to one immediate, which it does not do through a loop.
    macro_rules! steps {
        ($($attr:ident),*) => {$(
            match step(layout, values, Attr::$attr, out) {
                Ok(next) => out = next,
                Err(f) => return Err(f),
            }
        )*};
    }
    steps!(Event, Umask, Umask2, Eq, Cmask, Inv, Edge, Any);
    Ok(out)
}

/// [`encode`]'s step for `attr`.
#[inline(always)]
const fn step<'a>(
    layout: &SelectLayout<'a>,
    values: &[u64; Attr::COUNT],
    attr: Attr,
    out: Encoded,
) -> Result<Encoded, Fault<'a>> {
    let value = values[attr as usize];
    match layout.fields[attr as usize] {
        Some(f) => match f.insert(out.bits, value) {
            Some(bits) => Ok(Encoded {
                bits,
                set: out.set | f.mask(),
            }),
            None => Err(Fault::TooWide {
                attr,
                field: f.name,
                width: f.width(),
                value,
            }),
        },
        None if value != 0 => Err(Fault::Unsupported { attr }),
        None => Ok(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPLIT: FieldRuns<'static> =
        FieldRuns::new("EVENT_SELECT", &[Run::new(0, 8), Run::new(32, 4)]);

    #[test]
    fn a_split_field_round_trips_every_value() {
        assert_eq!(SPLIT.width(), 12);
        assert_eq!(SPLIT.mask(), 0xF_0000_00FF);
        for v in 0..0x1000u64 {
            let bits = SPLIT.insert(u64::MAX, v).unwrap();
            assert_eq!(SPLIT.extract(bits), v);
            assert_eq!(bits | SPLIT.mask(), u64::MAX, "other bits kept");
        }
        assert_eq!(SPLIT.insert(0, 0x1000), None);
    }

    #[test]
    fn a_full_width_field_takes_every_value() {
        const F: FieldRuns<'static> = FieldRuns::new("COUNT", &[Run::new(0, 64)]);
        let f = F;
        assert_eq!(f.insert(0, u64::MAX), Some(u64::MAX));
        assert_eq!(f.extract(u64::MAX), u64::MAX);
    }

    #[test]
    fn encode_stops_at_the_first_attribute_that_does_not_fit() {
        const LAYOUT: SelectLayout<'static> = SelectLayout::EMPTY
            .with(
                Attr::Event,
                FieldRuns::new("EVENT_SELECT", &[Run::new(0, 8)]),
            )
            .with(Attr::Cmask, FieldRuns::new("CMASK", &[Run::new(24, 8)]))
            .with(Attr::Inv, FieldRuns::new("INV", &[Run::new(23, 1)]));
        let layout = LAYOUT;
        let mut v = [0; Attr::COUNT];
        v[Attr::Event as usize] = 0x3C;
        v[Attr::Inv as usize] = 1;
        v[Attr::Cmask as usize] = 1;
        let e = encode(&layout, &v).unwrap();
        assert_eq!(e.bits, 0x0180_003C);
        assert_eq!(e.set, 0xFF80_00FF);

        v[Attr::Event as usize] = 0x13C;
        v[Attr::Any as usize] = 1;
        assert_eq!(
            encode(&layout, &v),
            Err(Fault::TooWide {
                attr: Attr::Event,
                field: "EVENT_SELECT",
                width: 8,
                value: 0x13C
            })
        );
        v[Attr::Event as usize] = 0x3C;
        assert_eq!(
            encode(&layout, &v),
            Err(Fault::Unsupported { attr: Attr::Any })
        );
        v[Attr::Any as usize] = 0;
        v[Attr::Inv as usize] = 2;
        assert!(matches!(
            encode(&layout, &v),
            Err(Fault::TooWide {
                attr: Attr::Inv,
                width: 1,
                ..
            })
        ));
    }

    #[test]
    fn attributes_are_found_by_key() {
        for a in Attr::ALL {
            assert_eq!(Attr::from_key(a.key()), Some(a));
            assert_eq!(Attr::ALL[a as usize], a);
        }
        assert_eq!(Attr::from_key("usr"), None);
    }
}
