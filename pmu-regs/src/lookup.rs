//! Event lookup by name: the minimal perfect hash tables `cargo xtask gen` emits for every
//! model's events and for "which models have this event" (`Generation::with_event`).
//!
//! A table maps the names of a set (and their perf spellings) to indexes `0..n`, ASCII
//! case-insensitively. The generator (`pmu-codegen` `src/phash.rs`) picks a `seed` and one
//! *pilot* per bucket so that every name lands in its own slot (the PTHash scheme: bucket
//! from the high half of the name's hash, slot from the hash mixed with the bucket's pilot).
//! A lookup hashes the query once (folding it to upper case eight bytes at a time, no
//! buffer), reads one pilot and one slot and compares one name: hits and misses cost the
//! same, and a query longer than the longest name is a miss before any hashing.
//!
//! The hash is `pmu_vocab::hash`, the one the generator builds the tables with; every
//! generated name is looked up again by `pmu-regs/tests/model_events.rs`.

use pmu_vocab::hash::upper8;
pub use pmu_vocab::hash::{bucket, hash, slot};

/// `a` and `b` are equal, ASCII case-insensitively (as `eq_ignore_ascii_case`), eight bytes
/// at a time (the last eight overlapping the ones before when the length is not a multiple);
/// words are folded only where they differ.
#[inline]
pub fn eq_folded(a: &[u8], b: &[u8]) -> bool {
    #[inline(always)]
    fn same(p: &[u8; 8], q: &[u8; 8]) -> bool {
        let (p, q) = (u64::from_le_bytes(*p), u64::from_le_bytes(*q));
        p == q || upper8(p) == upper8(q)
    }
    if a.len() != b.len() {
        return false;
    }
    let (x, y) = (a.as_chunks::<8>().0, b.as_chunks::<8>().0);
    if !x.iter().zip(y).all(|(p, q)| same(p, q)) {
        return false;
    }
    match (a.last_chunk::<8>(), b.last_chunk::<8>()) {
        (Some(p), Some(q)) => same(p, q),
        _ => a.eq_ignore_ascii_case(b),
    }
}

/// A generated name table: `find` gives the index of the name equal to the query,
/// ASCII case-insensitively.
#[derive(Debug)]
pub struct NameIndex {
    /// The hash seed the generator settled on.
    pub seed: u64,
    /// The longest name, in bytes.
    pub max_len: usize,
    /// One pilot per bucket.
    pub pilots: &'static [u16],
    /// The name index in each slot (as many slots as names).
    pub slots: &'static [u16],
}

impl NameIndex {
    /// The index `k` such that `key(k)` equals `name` ignoring ASCII case, if any.
    #[inline]
    pub fn find(&self, name: &str, key: impl FnOnce(usize) -> &'static str) -> Option<usize> {
        let b = name.as_bytes();
        if b.len() > self.max_len || self.slots.is_empty() {
            return None;
        }
        let h = hash(self.seed, b);
        let pilot = *self.pilots.get(bucket(h, self.pilots.len()))?;
        let k = usize::from(*self.slots.get(slot(h, pilot, self.slots.len()))?);
        eq_folded(key(k).as_bytes(), b).then_some(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upper8_folds_only_ascii_letters() {
        for b in 0..=255u8 {
            let w = u64::from_le_bytes([b, b'a', b'z', b'@', b'[', b'`', b'{', 0xE1]);
            let want = u64::from_le_bytes([
                b.to_ascii_uppercase(),
                b'A',
                b'Z',
                b'@',
                b'[',
                b'`',
                b'{',
                0xE1,
            ]);
            assert_eq!(upper8(w), want, "{b:#x}");
        }
    }

    #[test]
    fn eq_folded_is_eq_ignore_ascii_case() {
        let words = [
            "",
            "a",
            "A",
            "br_inst_retired.all_branches",
            "BR_INST_RETIRED.ALL_BRANCHES",
            "BR_INST_RETIRED.ALL_BRANCHEZ",
            "BR_INST_RETIRED.ALL_BRANCHES_",
            "ä",
            "Ä",
            "OFFCORE_RESPONSE:request=ALL_DATA_RD",
        ];
        for a in words {
            for b in words {
                assert_eq!(
                    eq_folded(a.as_bytes(), b.as_bytes()),
                    a.eq_ignore_ascii_case(b)
                );
                if a.eq_ignore_ascii_case(b) {
                    assert_eq!(hash(7, a.as_bytes()), hash(7, b.as_bytes()));
                }
            }
        }
    }
}
