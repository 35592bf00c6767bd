//! The hash of the generated name tables (the PTHash scheme of Pibiri and Trani, SIGIR 2021):
//! a name's [`hash`], folded to ASCII upper case eight bytes at a time; its [`bucket`] from
//! the hash's high half; its [`slot`] from the hash mixed with the bucket's pilot. The
//! generator picks the seed and the pilots with these functions, and `pmu-regs` looks names
//! up with them, so the two cannot disagree.

/// Multiplier of the per-word step (2^64 / golden ratio).
const K: u64 = 0x9E37_79B9_7F4A_7C15;
/// Multiplier of the slot mix (SplitMix64's first).
const M: u64 = 0xBF58_476D_1CE4_E5B9;
const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = LO * 0x80;

/// The eight bytes of `w` (little-endian) with ASCII `a`-`z` turned to upper case (SWAR; other bytes,
/// non-ASCII ones included, unchanged).
#[inline(always)]
pub const fn upper8(w: u64) -> u64 {
    let low7 = w & !HI;
    // High bit of each byte: set where the byte (below 0x80) is >= `a`, resp. > `z`.
    let ge_a = low7 + LO * (0x80 - b'a' as u64);
    let gt_z = low7 + LO * (0x80 - b'z' as u64 - 1);
    let lower = ge_a & !gt_z & !w & HI;
    w - (lower >> 2)
}

/// The last `rest.len()` (1 to 7) bytes of `name` as a little-endian word, zero padded.
/// When `name` has eight bytes or more, one load of its last eight, shifted.
#[inline(always)]
fn tail(name: &[u8], rest: &[u8]) -> u64 {
    let n = rest.len();
    if let Some(last) = name.last_chunk::<8>() {
        return u64::from_le_bytes(*last) >> (8 * (8 - n));
    }
    let mut w = 0u64;
    for (i, &b) in rest.iter().enumerate() {
        w |= u64::from(b) << (8 * i);
    }
    w
}

/// The hash of `name` folded to ASCII upper case, under `seed`.
#[inline]
pub fn hash(seed: u64, name: &[u8]) -> u64 {
    let mut h = seed ^ (name.len() as u64).wrapping_mul(K);
    let (words, rest) = name.as_chunks::<8>();
    for w in words {
        h = (h ^ upper8(u64::from_le_bytes(*w)))
            .wrapping_mul(K)
            .rotate_left(29);
    }
    if !rest.is_empty() {
        h = (h ^ upper8(tail(name, rest)))
            .wrapping_mul(K)
            .rotate_left(29);
    }
    // MurmurHash3's finalizer: every bit of the state reaches the high half (the bucket).
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

/// The bucket of a hash among `buckets` (the high half, scaled).
#[inline(always)]
pub fn bucket(h: u64, buckets: usize) -> usize {
    (((h >> 32) * buckets as u64) >> 32) as usize
}

/// The slot of a hash among `slots` under its bucket's pilot.
#[inline(always)]
pub fn slot(h: u64, pilot: u16, slots: usize) -> usize {
    let x = (h ^ (u64::from(pilot) + 1).wrapping_mul(K)).wrapping_mul(M);
    (((x >> 32) * slots as u64) >> 32) as usize
}
