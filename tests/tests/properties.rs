//! Property tests over every shipped definition (issue 11): the model is walked from
//! `Loader::new().with_defaults()`, never from a list of generations or registers kept here.
//!
//! - Every field of every register of every generation: random in-range values, one per
//!   field element, encoded into one register value and decoded back by `pmu_defs::encode`'s
//!   decoder, give the values back; no such value has a reserved bit set.
//! - Split fields (several bit ranges, AMD's 12-bit EVENT_SELECT) round-trip, and place each
//!   bit where a bit-by-bit reading of their ranges says.
//! - The encoder's raw terms (`event=..,umask=..,cmask=..`) round-trip through the decoder on
//!   every generation with general-purpose counters.
//!
//! The typed API of `pmu-regs` has its properties in `no_reserved_bits.rs`. Each proptest
//! draws its many values from a seed (SplitMix64), so a case covers the whole model and the
//! number of cases stays small.

use pmu_defs::encode::{Counter, Encoder, Request};
use pmu_defs::model::{Field, Generation, Register};
use pmu_defs::{Loader, Model};
use proptest::prelude::*;
use std::sync::OnceLock;

fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        let loaded = Loader::new().with_defaults().finish();
        assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
        loaded.model
    })
}

/// SplitMix64: the values of one case, from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value of `width` bits: zero, one, the maximum or a random one.
    fn value(&mut self, width: u32) -> u64 {
        let max = if width >= 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        match self.next() % 8 {
            0 => 0,
            1 => 1 & max,
            2 => max,
            _ => self.next() & max,
        }
    }
}

/// Element `i` of `f` with logical value `v`, placed bit by bit: logical bit `k` is the
/// `k`-th bit of the ranges taken low part first, shifted by the element's stride. (Independent
/// of `Field::insert`, which shifts whole parts.)
fn place_bitwise(f: &Field, i: u32, v: u64) -> u64 {
    let shift = f.array.map_or(0, |a| a.stride * i);
    let mut out = 0;
    let mut k = 0;
    for b in &f.bits {
        for bit in b.lsb..=b.msb {
            if v >> k & 1 == 1 {
                out |= 1u64 << (bit + shift);
            }
            k += 1;
        }
    }
    out
}

/// Every (generation, register) of the model, with a decodable address of the register.
fn registers() -> impl Iterator<Item = (&'static Generation, &'static Register)> {
    model()
        .generations
        .iter()
        .flat_map(|g| g.registers.iter().map(move |r| (g, r)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Every field element of every register gets a random in-range value; the register value
    /// made of all of them (each placed with `Field::insert`, and bit by bit) decodes back to
    /// the same values, and has no reserved bit set.
    #[test]
    fn every_field_round_trips_through_encode_and_decode(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let encoder = Encoder::new(model());
        let mut fields_seen = 0usize;
        for (g, r) in registers() {
            let mut value = 0u64;
            let mut want = Vec::new();
            for f in &r.fields {
                for i in 0..f.count() {
                    let v = rng.value(f.width);
                    let placed = f.insert(i, v);
                    prop_assert_eq!(
                        placed,
                        place_bitwise(f, i, v),
                        "{} {} {}[{}] = {:#x}", g.id, r.name, f.name, i, v
                    );
                    prop_assert_eq!(
                        placed & !f.element_mask(i),
                        0,
                        "{} {} {}[{}] = {:#x} leaves its bits", g.id, r.name, f.name, i, v
                    );
                    prop_assert_eq!(
                        placed & r.reserved_mask,
                        0,
                        "{} {} {}[{}] = {:#x} sets a reserved bit", g.id, r.name, f.name, i, v
                    );
                    value |= placed;
                    want.push((f.name.as_str(), f.array.map(|_| i), v));
                    fields_seen += 1;
                }
            }
            let count = r.msr.count.max(1);
            let address = r.msr.address((rng.next() % u64::from(count)) as u32);
            let decoded = encoder.decode_in(g, address, value);
            let decoded = match decoded {
                Ok(d) => d,
                Err(e) => return Err(TestCaseError::fail(format!(
                    "{} {} at {address:#x}: {e}", g.id, r.name
                ))),
            };
            prop_assert_eq!(decoded.register, r.name.as_str());
            prop_assert_eq!(decoded.reserved_set, 0, "{} {} = {:#x}", g.id, r.name, value);
            for (name, element, v) in want {
                let back = decoded
                    .fields
                    .iter()
                    .find(|d| d.name == name && d.element == element)
                    .map(|d| d.value);
                prop_assert_eq!(
                    back,
                    Some(v),
                    "{} {} {}{:?} of {:#x}", g.id, r.name, name, element, value
                );
            }
        }
        prop_assert!(fields_seen > 1000, "only {fields_seen} field elements in the model");
    }

    /// Split fields: a random in-range value extracts back from what `insert` wrote, each part
    /// holds its slice of the value (low part first), and nothing outside the parts is
    /// touched, whatever the register held before.
    #[test]
    fn split_fields_round_trip(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let mut split = 0usize;
        for (g, r) in registers() {
            for f in r.fields.iter().filter(|f| f.bits.len() > 1) {
                split += 1;
                for i in 0..f.count() {
                    let v = rng.value(f.width);
                    let around = rng.next();
                    let mask = f.element_mask(i);
                    let reg = (around & !mask) | f.insert(i, v);
                    prop_assert_eq!(f.extract(i, reg), v, "{} {} {}", g.id, r.name, f.name);
                    prop_assert_eq!(reg & !mask, around & !mask);
                    let shift = f.array.map_or(0, |a| a.stride * i);
                    let mut consumed = 0;
                    for b in &f.bits {
                        let part = (reg >> (b.lsb + shift)) & (b.mask() >> b.lsb);
                        let slice = (v >> consumed) & (b.mask() >> b.lsb);
                        prop_assert_eq!(
                            part, slice,
                            "{} {} {} bits {}:{}", g.id, r.name, f.name, b.msb, b.lsb
                        );
                        consumed += b.width();
                    }
                    prop_assert_eq!(consumed, f.width);
                }
            }
        }
        // AMD's EVENT_SELECT (7:0 and 35:32) in every AMD generation, at least.
        prop_assert!(split > 0, "the shipped model has no split field");
    }

    /// Raw terms with in-range values encode on every generation with general-purpose
    /// counters, and the decoder reads the same values back from the event select (split
    /// event selects and UMASK2 included).
    #[test]
    fn raw_terms_round_trip_through_the_encoder(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let encoder = Encoder::new(model());
        let mut encoded = 0usize;
        for g in &model().generations {
            let Some(general) = &g.pmu.general else { continue };
            let Some(sel) = g.register(&general.select) else { continue };
            let width = |attr: &str| {
                g.pmu
                    .encoding_field(attr)
                    .and_then(|f| sel.field(f))
                    .map(|f| f.width)
            };
            let (Some(ev_w), Some(um_w)) = (width("event"), width("umask")) else { continue };
            let event = rng.value(ev_w);
            let umask = rng.value(um_w + width("umask2").unwrap_or(0));
            let mut terms = format!("event={event:#x},umask={umask:#x}");
            let mut cmask = 0;
            if let Some(w) = width("cmask") {
                cmask = rng.value(w);
                terms.push_str(&format!(",cmask={cmask}"));
            }
            let edge = width("edge").is_some() && rng.next() & 1 == 0;
            if edge {
                terms.push_str(",edge=1");
            }
            let request = Request::parse(&format!("{terms}:u"))
                .expect("raw terms parse")
                .on(Counter::General(0));
            let enc = match encoder.encode_in(g, &request) {
                Ok(e) => e,
                Err(e) => return Err(TestCaseError::fail(format!("{} {terms}: {e}", g.id))),
            };
            let Some(address) = enc.address else {
                return Err(TestCaseError::fail(format!("{} {terms}: no address", g.id)));
            };
            let d = encoder.decode_in(g, address, enc.value).expect("decodes");
            prop_assert_eq!(d.reserved_set, 0, "{} {}", g.id, terms);
            let field = |attr: &str| {
                let name = g.pmu.encoding_field(attr)?;
                d.fields.iter().find(|f| f.name == name).map(|f| f.value)
            };
            prop_assert_eq!(field("event"), Some(event), "{} {}", g.id, terms);
            let umask2 = field("umask2").unwrap_or(0);
            prop_assert_eq!(
                field("umask").map(|u| u | umask2 << um_w),
                Some(umask),
                "{} {}", g.id, terms
            );
            if width("cmask").is_some() {
                prop_assert_eq!(field("cmask"), Some(cmask), "{} {}", g.id, terms);
            }
            if width("edge").is_some() {
                prop_assert_eq!(field("edge"), Some(u64::from(edge)), "{} {}", g.id, terms);
            }
            encoded += 1;
        }
        prop_assert!(encoded > 5, "only {encoded} generations encode raw terms");
    }
}
