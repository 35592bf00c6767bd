//! Event lookup by name (issue 12 §1), side by side in one run: the generated lookup
//! (`events::Event::from_name`, `Generation::model_event`, `Generation::models_with_event`:
//! a minimal perfect hash, ASCII case-insensitive) against
//!
//! - `old`: what `from_name` did before (binary search, then a case-insensitive linear scan),
//!   re-implemented here over the same events (`Event::TABLE`, decoded into a `Vec`);
//! - `phf`: a `phf::Map` over the same names and perf spellings, exact keys (the map
//!   `phf_codegen` would emit: built by `phf_generator` when the bench starts);
//! - `hashmap`: `std::collections::HashMap` over the same keys.
//!
//! Cases (each a criterion group): hits and misses on Skylake and Cascade Lake-X (the largest
//! table, with perf's offcore-response spellings), on a model chosen at run time
//! (`Generation::from_id`), and "which models have this name" over every model. Each
//! iteration looks up the next name of the case's list: for hits every name of the model (or
//! of all models), shuffled; for misses each of those names with its last byte replaced by
//! `#`, so a miss shares its length and all but one byte with a name. `main` checks that the
//! contenders agree on every query, runs criterion, then prints ns per lookup (median and
//! fastest sample) and the ratios to `phf`.
//!
//! ```sh
//! cargo bench -p pmu-regs --features all-models --bench lookup             # ~2 minutes
//! cargo bench -p pmu-regs --features all-models --bench lookup -- --quick
//! cargo bench -p pmu-regs --features all-models --no-run                   # CI: compile only
//! ```

use criterion::Criterion;
use pmu_regs::EventDesc;
use pmu_regs::arch::Generation;
use pmu_regs::intel::{cascadelakex, skylake};
use std::collections::HashMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The lookup `from_name` did before the perfect hash: exact by binary search over the
/// name-sorted table, then ASCII case-insensitive by a linear scan.
fn old_from_name(descs: &'static [EventDesc], name: &str) -> Option<usize> {
    match descs.binary_search_by(|d| d.name.cmp(name)) {
        Ok(i) => Some(i),
        Err(_) => descs.iter().position(|d| d.name.eq_ignore_ascii_case(name)),
    }
}

/// A model's events decoded once, for the contenders that index a slice.
fn decoded(table: pmu_regs::EventTable) -> &'static [EventDesc] {
    Vec::leak(table.iter().collect())
}

/// perf's spelling of a name, when it differs (pmu-defs `encode::perf::perf_name`): the
/// generated lookup accepts it, so the maps it is compared with have it too.
fn perf_name(name: &str) -> Option<&'static str> {
    let spelled = if let Some(rest) = name.strip_prefix("OFFCORE_RESPONSE_0") {
        format!("OFFCORE_RESPONSE{rest}")
    } else {
        let rest = name.strip_prefix("OFFCORE_RESPONSE:request=")?;
        let (request, response) = rest.split_once(":response=")?;
        format!("OFFCORE_RESPONSE.{request}.{response}")
    };
    Some(String::leak(spelled))
}

/// Map entries for a table: each name, then perf's spellings that are not a name, with
/// `value(i)` of event `i`.
fn with_spellings<V>(descs: &[EventDesc], value: impl Fn(usize) -> V) -> Vec<(&'static str, V)> {
    let mut entries: Vec<(&'static str, V)> = descs
        .iter()
        .enumerate()
        .map(|(i, d)| (d.name, value(i)))
        .collect();
    for (i, d) in descs.iter().enumerate() {
        if let Some(p) = perf_name(d.name)
            && descs.iter().all(|d| d.name != p)
        {
            entries.push((p, value(i)));
        }
    }
    entries
}

/// A `phf::Map` from `keys`, as `phf_codegen` would generate it (same generator, same hash).
fn phf_map<V: Copy + 'static>(entries: &[(&'static str, V)]) -> phf::Map<&'static str, V> {
    let keys: Vec<&str> = entries.iter().map(|e| e.0).collect();
    let state = phf_generator::generate_hash(&keys);
    phf::Map {
        key: state.key,
        disps: Vec::leak(state.disps),
        entries: Vec::leak(state.map.iter().map(|&i| entries[i]).collect()),
    }
}

/// Fisher-Yates with SplitMix64 from a fixed seed.
fn shuffle<T>(v: &mut [T]) {
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    for i in (1..v.len()).rev() {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        v.swap(i, (z % (i as u64 + 1)) as usize);
    }
}

/// Hit and miss queries for a set of names: the names shuffled, and each with its last byte
/// replaced by `#` (no event name has one).
fn queries(names: &[&'static str]) -> (Vec<&'static str>, Vec<&'static str>) {
    let mut hits = names.to_vec();
    shuffle(&mut hits);
    let misses = hits
        .iter()
        .map(|n| &*String::leak(format!("{}#", &n[..n.len() - 1])))
        .collect();
    (hits, misses)
}

/// The contenders of one case: name -> something comparable (an event's index, its
/// encoding, a model set), each boxed so every group calls through the same kind of closure.
type Lookup = Box<dyn Fn(&str) -> u64>;

struct Case {
    group: &'static str,
    queries: Vec<&'static str>,
    contenders: Vec<(&'static str, Lookup)>,
}

/// Index `i` of a table as the contenders report it (0: not found).
fn at(i: Option<usize>) -> u64 {
    i.map_or(0, |i| i as u64 + 1)
}

/// What a caller of a run-time lookup gets, the event's encoding, as one comparable number:
/// its name's hash and its event select and unit mask (0: not found).
fn encoding(d: Option<EventDesc>) -> u64 {
    use std::hash::{Hash, Hasher};
    d.map_or(0, |d| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        d.name.hash(&mut h);
        h.finish() ^ u64::from(d.event) << 8 ^ u64::from(d.umask)
    })
}

/// Hits and misses on one model's table; `from_name` gives the event's index.
fn model_cases(
    id: &'static str,
    table: pmu_regs::EventTable,
    from_name: fn(&str) -> Option<usize>,
) -> Vec<Case> {
    let descs = decoded(table);
    let names: Vec<&'static str> = descs.iter().map(|d| d.name).collect();
    let entries = with_spellings(descs, |i| i as u16);
    let (hits, misses) = queries(&names);
    let mut cases = Vec::new();
    for (kind, qs) in [("hit", hits), ("miss", misses)] {
        let phf = phf_map(&entries);
        let map: HashMap<&'static str, u16> = entries.iter().copied().collect();
        cases.push(Case {
            group: Box::leak(format!("{id}_{kind}").into_boxed_str()),
            queries: qs,
            contenders: vec![
                ("ours", Box::new(move |n| at(from_name(n)))),
                ("old", Box::new(move |n| at(old_from_name(descs, n)))),
                (
                    "phf",
                    Box::new(move |n| at(phf.get(n).map(|&i| usize::from(i)))),
                ),
                (
                    "hashmap",
                    Box::new(move |n| at(map.get(n).map(|&i| usize::from(i)))),
                ),
            ],
        });
    }
    cases
}

/// A model chosen at run time: its `Generation` comes from a string, so every contender
/// dispatches on it (ours and old through `Generation`, phf and HashMap through a table of
/// per-model maps indexed by the generation's position).
fn runtime_cases(id: &str) -> Vec<Case> {
    let g = Generation::from_id(id).expect("compiled in");
    let pos = Generation::ALL.iter().position(|&x| x == g).unwrap();
    let descs: Vec<&'static [EventDesc]> = Generation::ALL
        .iter()
        .map(|g| decoded(g.model_events()))
        .collect();
    let entries = |d: &'static [EventDesc]| with_spellings(d, |i| i as u16);
    let names: Vec<&'static str> = descs[pos].iter().map(|d| d.name).collect();
    let (hits, misses) = queries(&names);
    let mut cases = Vec::new();
    for (kind, qs) in [("hit", hits), ("miss", misses)] {
        let phfs: Vec<phf::Map<&'static str, u16>> =
            descs.iter().map(|d| phf_map(&entries(d))).collect();
        let maps: Vec<HashMap<&'static str, u16>> = descs
            .iter()
            .map(|d| entries(d).into_iter().collect())
            .collect();
        let (d1, d2, d3) = (descs.clone(), descs.clone(), descs.clone());
        cases.push(Case {
            group: Box::leak(format!("runtime_model_{kind}").into_boxed_str()),
            queries: qs,
            contenders: vec![
                (
                    "ours",
                    Box::new(move |n| encoding(black_box(g).model_event(n))),
                ),
                (
                    "old",
                    Box::new(move |n| {
                        let d = d1[black_box(pos)];
                        encoding(old_from_name(d, n).map(|i| d[i]))
                    }),
                ),
                (
                    "phf",
                    Box::new(move |n| {
                        let p = black_box(pos);
                        encoding(phfs[p].get(n).map(|&i| d2[p][usize::from(i)]))
                    }),
                ),
                (
                    "hashmap",
                    Box::new(move |n| {
                        let p = black_box(pos);
                        encoding(maps[p].get(n).map(|&i| d3[p][usize::from(i)]))
                    }),
                ),
            ],
        });
    }
    cases
}

/// "Which models have this name": ours is `Generation::models_with_event` (one lookup in
/// the cross-model table); old asks every model's old lookup; phf and HashMap map each name
/// (exact) to the set of models, as a bit mask over `Generation::ALL`.
fn models_with_cases() -> Vec<Case> {
    let mut sets: HashMap<&'static str, u64> = HashMap::new();
    let mut names = Vec::new();
    let mut keys = Vec::new();
    let descs: &'static [&'static [EventDesc]] = Vec::leak(
        Generation::ALL
            .iter()
            .map(|g| decoded(g.model_events()))
            .collect(),
    );
    for (i, d) in descs.iter().enumerate() {
        for (key, _) in with_spellings(d, |_| ()) {
            let m = sets.entry(key).or_insert_with(|| {
                keys.push(key);
                0
            });
            *m |= 1 << i;
        }
        names.extend(d.iter().map(|d| d.name));
    }
    names.sort_unstable();
    names.dedup();
    let entries: Vec<(&'static str, u64)> = keys.iter().map(|n| (*n, sets[n])).collect();
    let (hits, misses) = queries(&names);
    let mask = |it: &mut dyn Iterator<Item = Generation>| {
        it.fold(0u64, |m, g| {
            m | 1 << Generation::ALL.iter().position(|&x| x == g).unwrap()
        })
    };
    let mut cases = Vec::new();
    for (kind, qs) in [("hit", hits), ("miss", misses)] {
        let phf = phf_map(&entries);
        let map: HashMap<&'static str, u64> = entries.iter().copied().collect();
        cases.push(Case {
            group: Box::leak(format!("models_with_{kind}").into_boxed_str()),
            queries: qs,
            contenders: vec![
                (
                    "ours",
                    Box::new(move |n| {
                        let it = Generation::models_with_event(n);
                        // What a caller gets: the set, here as its size and first model.
                        it.len() as u64 | u64::from(it.clone().next().is_some()) << 32
                    }),
                ),
                (
                    "old",
                    Box::new(move |n| {
                        let mut m = 0u64;
                        for (i, d) in descs.iter().enumerate() {
                            if old_from_name(d, n).is_some() {
                                m |= 1 << i;
                            }
                        }
                        u64::from(m.count_ones()) | u64::from(m != 0) << 32
                    }),
                ),
                (
                    "phf",
                    Box::new(move |n| {
                        let m = phf.get(n).copied().unwrap_or(0);
                        u64::from(m.count_ones()) | u64::from(m != 0) << 32
                    }),
                ),
                (
                    "hashmap",
                    Box::new(move |n| {
                        let m = map.get(n).copied().unwrap_or(0);
                        u64::from(m.count_ones()) | u64::from(m != 0) << 32
                    }),
                ),
            ],
        });
    }
    // The cross-model table gives the models the per-model tables give.
    for n in names.iter().take(500) {
        let want = sets[n];
        assert_eq!(mask(&mut Generation::models_with_event(n)), want, "{n}");
    }
    cases
}

fn cases() -> Vec<Case> {
    let mut cases = model_cases("skylake", *skylake::events::Event::TABLE, |n| {
        skylake::events::Event::from_name(n).map(|e| e as usize)
    });
    cases.extend(model_cases(
        "cascadelakex",
        *cascadelakex::events::Event::TABLE,
        |n| cascadelakex::events::Event::from_name(n).map(|e| e as usize),
    ));
    cases.extend(runtime_cases("intel-skylake"));
    cases.extend(models_with_cases());
    cases
}

/// Every contender gives the same answer for every query of its case; `old` excepted for
/// "which models", where it misses the models that have a name only in perf's spelling.
fn check(cases: &[Case]) {
    for c in cases {
        for q in &c.queries {
            let want = (c.contenders[0].1)(q);
            for (name, f) in &c.contenders[1..] {
                if *name == "old" && c.group.starts_with("models_with") {
                    continue;
                }
                assert_eq!(f(q), want, "{} {name} {q}", c.group);
            }
        }
    }
}

fn benches(c: &mut Criterion, cases: &[Case]) {
    for case in cases {
        let mut g = c.benchmark_group(case.group);
        g.warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        for (name, f) in &case.contenders {
            let mut i = 0;
            g.bench_function(*name, |b| {
                b.iter(|| {
                    i += 1;
                    if i == case.queries.len() {
                        i = 0;
                    }
                    f(black_box(case.queries[i]))
                })
            });
        }
        g.finish();
    }
}

/// Where criterion writes its results: `$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`,
/// else the workspace's `target/criterion`.
fn output_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(target) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(target).join("criterion");
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/criterion")
}

/// (median, fastest sample) ns per iteration of `group/function` in this run.
fn times_ns(dir: &Path, group: &str, function: &str) -> Option<(f64, f64)> {
    let new = dir.join(group).join(function).join("new");
    let read = |name: &str| -> Option<serde_json::Value> {
        serde_json::from_str(&std::fs::read_to_string(new.join(name)).ok()?).ok()
    };
    let median = read("estimates.json")?["median"]["point_estimate"].as_f64()?;
    let sample = read("sample.json")?;
    let (iters, times) = (sample["iters"].as_array()?, sample["times"].as_array()?);
    let fastest = iters
        .iter()
        .zip(times)
        .filter_map(|(n, t)| Some(t.as_f64()? / n.as_f64()?))
        .fold(f64::INFINITY, f64::min);
    Some((median, fastest))
}

fn report(dir: &Path, cases: &[Case]) {
    println!(
        "\nns per lookup, this run: median (fastest sample); ours/phf of the medians and of the \
         fastest samples (other load only ever adds time, so the latter is the steadier one)"
    );
    print!("{:<22}", "case");
    for (name, _) in &cases[0].contenders {
        print!(" {name:>19}");
    }
    println!(" {:>10} {:>10}", "median", "fastest");
    for case in cases {
        print!("{:<22}", case.group);
        let mut times = HashMap::new();
        for (name, _) in &case.contenders {
            match times_ns(dir, case.group, name) {
                Some((m, f)) => {
                    times.insert(*name, (m, f));
                    print!(" {:>19}", format!("{m:.1} ({f:.1})"));
                }
                None => print!(" {:>19}", "-"),
            }
        }
        match (times.get("ours"), times.get("phf")) {
            (Some(o), Some(p)) if p.0 > 0.0 && p.1 > 0.0 => {
                println!(" {:>10.2} {:>10.2}", o.0 / p.0, o.1 / p.1)
            }
            _ => println!(),
        }
    }
}

fn main() {
    let cases = cases();
    check(&cases);
    let dir = output_dir();
    let mut c = Criterion::default()
        .output_directory(&dir)
        .configure_from_args();
    benches(&mut c, &cases);
    c.final_summary();
    let test_mode =
        std::env::args().any(|a| a == "--test") || !std::env::args().any(|a| a == "--bench");
    if !test_mode {
        report(&dir, &cases);
    }
}
