//! The minimal perfect hash behind the generated name lookups (`Event::from_name`,
//! `Generation::with_event`): [`build`] places a set of names so that `pmu-regs`'
//! `__private::lookup::NameIndex::find` reaches each with one hash, one pilot and one slot,
//! ASCII case-insensitively, and refuses any other name with one comparison.
//!
//! The scheme is PTHash's (Pibiri and Trani, SIGIR 2021): `n` names go into `n / LAMBDA`
//! buckets by the high half of their hash; buckets, largest first, each get the smallest
//! *pilot* that sends all their names to free slots, `slot(hash, pilot)`. The functions
//! [`hash`], [`bucket`] and [`slot`] are `pmu_vocab::hash`'s, the ones `pmu-regs` looks names
//! up with.

/// Names per bucket, on average: larger means fewer pilots, longer pilot searches.
const LAMBDA: usize = 4;

pub use pmu_vocab::hash::{bucket, hash, slot};

/// The step between the seeds tried in turn (2^64 / golden ratio: consecutive seeds far apart).
const SEED_STEP: u64 = 0x9E37_79B9_7F4A_7C15;

/// A built table: what a `NameIndex` holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The seed the names hash under.
    pub seed: u64,
    /// The longest name, in bytes.
    pub max_len: usize,
    /// One pilot per bucket.
    pub pilots: Vec<u16>,
    /// The index (into the names given to [`build`]) of the name in each slot: as many
    /// slots as distinct names.
    pub slots: Vec<u16>,
}

/// Places `names` (at most 65,535); of names equal ignoring ASCII case only the first is
/// placed (a later one is never found). Deterministic: the same names give the same table.
///
/// # Panics
///
/// When there are more than 65,535 names.
pub fn build(names: &[&str]) -> Table {
    assert!(
        names.len() <= usize::from(u16::MAX),
        "{} names do not fit a u16 slot table",
        names.len()
    );
    let mut seen = std::collections::HashSet::new();
    let keys: Vec<usize> = (0..names.len())
        .filter(|&i| seen.insert(names[i].to_ascii_uppercase()))
        .collect();
    let buckets = keys.len().div_ceil(LAMBDA).max(1);
    // Seeds from a Weyl sequence; almost every seed works, a retry is rare.
    let mut seed = 0x0123_4567_89AB_CDEFu64;
    loop {
        if let Some(t) = place(seed, names, &keys, buckets) {
            return t;
        }
        seed = seed.wrapping_add(SEED_STEP);
    }
}

/// One attempt with `seed` for the names at `keys`: `None` when some bucket finds no pilot.
fn place(seed: u64, names: &[&str], keys: &[usize], buckets: usize) -> Option<Table> {
    let n = keys.len();
    let hashes: Vec<u64> = keys
        .iter()
        .map(|&k| hash(seed, names[k].as_bytes()))
        .collect();
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); buckets];
    for (i, &h) in hashes.iter().enumerate() {
        members[bucket(h, buckets)].push(i);
    }
    let mut order: Vec<usize> = (0..buckets).filter(|&b| !members[b].is_empty()).collect();
    order.sort_by_key(|&b| (std::cmp::Reverse(members[b].len()), b));
    let mut taken = vec![false; n];
    let mut slots = vec![0u16; n];
    let mut pilots = vec![0u16; buckets];
    let mut at = Vec::new();
    for b in order {
        let pilot = (0..=u16::MAX).find(|&p| {
            at.clear();
            members[b].iter().all(|&i| {
                let s = slot(hashes[i], p, n);
                let free = !taken[s] && !at.contains(&s);
                at.push(s);
                free
            })
        })?;
        for (&i, &s) in members[b].iter().zip(&at) {
            taken[s] = true;
            slots[s] = keys[i] as u16;
        }
        pilots[b] = pilot;
    }
    Some(Table {
        seed,
        max_len: names.iter().map(|k| k.len()).max().unwrap_or(0),
        pilots,
        slots,
    })
}

/// The index of `name` in the names `t` was built from, as `NameIndex::find` computes it.
pub fn find(t: &Table, names: &[&str], name: &str) -> Option<usize> {
    if name.len() > t.max_len || t.slots.is_empty() {
        return None;
    }
    let h = hash(t.seed, name.as_bytes());
    let pilot = t.pilots[bucket(h, t.pilots.len())];
    let k = usize::from(t.slots[slot(h, pilot, t.slots.len())]);
    names[k].eq_ignore_ascii_case(name).then_some(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_found_in_any_case_and_others_are_not() {
        for n in [0usize, 1, 2, 3, 7, 100, 5000] {
            let names: Vec<String> = (0..n).map(|i| format!("EVENT_{i}.SUB_{}", i * 7)).collect();
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            let t = build(&refs);
            assert_eq!(t.slots.len(), n);
            assert_eq!(t, build(&refs), "deterministic");
            for (i, name) in refs.iter().enumerate() {
                assert_eq!(find(&t, &refs, name), Some(i));
                assert_eq!(find(&t, &refs, &name.to_ascii_lowercase()), Some(i));
                assert_eq!(find(&t, &refs, &format!("{name}X")), None);
            }
            assert_eq!(find(&t, &refs, "NO_SUCH"), None);
        }
    }

    #[test]
    fn of_names_equal_ignoring_case_the_first_is_found() {
        let names = ["A.B", "C", "a.b"];
        let t = build(&names);
        assert_eq!(t.slots.len(), 2);
        assert_eq!(find(&t, &names, "a.B"), Some(0));
    }
}
