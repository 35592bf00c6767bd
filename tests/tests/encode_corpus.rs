//! Every event of every imported Intel model: our encoder's perf string equals the one perf
//! builds from Intel's JSON. (The encode -> decode round trip of every event, imported ones
//! included, is in `encode.rs`: it needs only the checked-in YAML.)
//!
//! The reference below is an independent re-implementation of perf's pipeline, applied to
//! Intel's perfmon JSON in `../shared/data/intel-perfmon`:
//!
//! 1. intel/perfmon `scripts/create_perf_json.py` (`PerfmonJsonEvent`): values `0`, `0x0`,
//!    `0x00`, `na`, `null`, `tbd` are dropped, others stripped; `UMask` keeps the first of a
//!    list and, when non-zero, gets `UMaskExt` prepended (`UMaskExt + UMask[2:]`), then is
//!    rewritten `0x%x`; hybrid cores get `Unit` `cpu_core` / `cpu_atom` (and `cpu_lowpower`
//!    for Arrow Lake's low-power Atom cores, as perf's arrowlake JSON has it).
//! 2. Linux `tools/perf/pmu-events/jevents.py` (`JsonEvent`): `event=llx(first EventCode)`,
//!    then `AnyThread`, `CounterMask`, `EdgeDetect`, `Invert`, `SampleAfterValue`, `UMask` as
//!    `any=`, `cmask=`, `edge=`, `inv=`, `period=`, `umask=` when non-zero, values through
//!    `canonicalize_value` (hex through `llx`, decimal as is), then `lookup_msr(MSRIndex)` +
//!    `MSRValue` verbatim; six names replaced by `real_event()`.
//!
//! Then the `period=` term is removed (a sampling default, not part of the encoding).
//!
//! Differences are only allowed in four classes, each explained where it is checked and
//! each counted and asserted exactly:
//!
//! * `msr-spelling`: perf copies `MSRValue` verbatim (`0x3FBFC00001`, `0x000107F7`); we
//!   print the same number as `0x` + lowercase hex. The numbers must be equal.
//! * `umaskext-dropped`: create_perf_json.py folds `UMaskExt` into `UMask` only when `UMask`
//!   is non-zero (`get()` drops `0x00` first), so perf's string lacks the unit mask of
//!   events such as `MEM_LOAD_RETIRED.L1_HIT_L1` (UMask 0x00, UMaskExt 0x01 on Lunar Lake;
//!   perf's lunarlake/cache.json indeed has no UMask for it). We encode UMASK2 and print
//!   `umask=0x100`: the hardware needs it.
//! * `no-perf-term`: jevents.py's `lookup_msr` has no term for Nova Lake's off-module
//!   response registers (MSR_OMR_0..3, 3E0H-3E3H), so perf cannot build these events from the
//!   JSON; our perf string has no auxiliary term either, and a note says to program the MSR.
//! * `ldlat-none`: on Nehalem and Westmere `MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_0` has
//!   `MSRIndex` 0x3F6 with `MSRValue` `0x0`; create_perf_json.py drops the zero value and
//!   jevents then prints Python's `None` (`ldlat=None`). We print `ldlat=0x0`.

use pmu_defs::encode::{Encoder, Request};
use pmu_defs::{Loaded, Loader};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/intel-perfmon")
}

fn corpus_or_skip() -> Option<PathBuf> {
    let dir = corpus_dir();
    if dir.join("mapfile.csv").is_file() {
        Some(dir)
    } else {
        println!(
            "note: skipping the perf-spelling corpus test: {} is absent",
            dir.display()
        );
        None
    }
}

/// The shipped definitions, or `None` (with a note) when no imported model is among them.
fn models_or_skip() -> Option<Loaded> {
    let loaded = Loader::new().with_defaults().finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    if loaded.model.generations.iter().any(|g| g.source.is_some()) {
        Some(loaded)
    } else {
        println!(
            "note: skipping the perf-spelling corpus test: no imported model YAML under \
             pmu-defs/defs/intel/models (run cargo xtask import-perfmon)"
        );
        None
    }
}

// ---------------------------------------------------------------------------------------
// The reference: create_perf_json.py + jevents.py
// ---------------------------------------------------------------------------------------

/// create_perf_json.py `get()`.
fn get(jd: &Map<String, Value>, key: &str) -> Option<String> {
    let v = jd.get(key)?.as_str()?;
    if v.is_empty() || ["0", "0x0", "0x00", "na", "null", "tbd"].contains(&v) {
        return None;
    }
    Some(v.trim().to_string())
}

/// Python `int(s, 16)` (accepts a `0x`/`0X` prefix).
fn int16(s: &str) -> u64 {
    let t = s.trim();
    let t = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(t);
    u64::from_str_radix(t, 16).unwrap_or_else(|_| panic!("int({s:?}, 16)"))
}

/// Python `int(s, 0)`.
fn int0(s: &str) -> u64 {
    let t = s.trim();
    if t.len() > 2 && (t.starts_with("0x") || t.starts_with("0X")) {
        int16(t)
    } else {
        t.parse().unwrap_or_else(|_| panic!("int({s:?}, 0)"))
    }
}

/// jevents `llx()`.
fn llx(x: u64) -> String {
    if x < 10 {
        x.to_string()
    } else {
        format!("{x:#x}")
    }
}

/// The perf JSON event create_perf_json.py writes (only the keys jevents encodes).
fn to_perf_json(jd: &Map<String, Value>) -> BTreeMap<&'static str, String> {
    let mut out = BTreeMap::new();
    for key in [
        "AnyThread",
        "CounterMask",
        "EdgeDetect",
        "EventCode",
        "Invert",
        "MSRIndex",
        "MSRValue",
        "SampleAfterValue",
    ] {
        if let Some(v) = get(jd, key) {
            out.insert(key, v);
        }
    }
    if let Some(umask) = get(jd, "UMask") {
        let mut umask = umask.split(',').next().unwrap_or("").to_string();
        if let Some(ext) = get(jd, "UMaskExt") {
            umask = format!("{ext}{}", &umask[2..]);
        }
        out.insert("UMask", format!("{:#x}", int16(&umask)));
    }
    out
}

/// jevents.py `JsonEvent` (event string only), without the `period=` term; `Err(index)` when
/// `lookup_msr` has no entry for the event's first `MSRIndex` (jevents.py's `msrmap[...]`
/// raises `KeyError`: perf cannot build the event from this JSON).
fn jevents(name: &str, jd: &BTreeMap<&'static str, String>) -> Result<String, u64> {
    let real_event: &[(&str, &str)] = &[
        ("inst_retired.any", "event=0xc0,period=2000003"),
        ("inst_retired.any_p", "event=0xc0,period=2000003"),
        (
            "cpu_clk_unhalted.ref",
            "event=0x0,umask=0x03,period=2000003",
        ),
        ("cpu_clk_unhalted.thread", "event=0x3c,period=2000003"),
        ("cpu_clk_unhalted.core", "event=0x3c,period=2000003"),
        (
            "cpu_clk_unhalted.thread_any",
            "event=0x3c,any=1,period=2000003",
        ),
    ];
    let is_zero = |v: &str| {
        if v.starts_with("0x") {
            int16(v) == 0
        } else {
            v.parse::<u64>().map(|n| n == 0).unwrap_or(false)
        }
    };
    let canonicalize = |v: &str| {
        if v.starts_with("0x") {
            llx(int16(v))
        } else {
            v.parse::<u64>()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| v.to_string())
        }
    };
    let eventcode = jd
        .get("EventCode")
        .map_or(0, |c| int0(c.split(',').next().unwrap_or("0")));
    let mut event = format!("event={}", llx(eventcode));
    for (key, term) in [
        ("AnyThread", "any="),
        ("CounterMask", "cmask="),
        ("EdgeDetect", "edge="),
        ("Invert", "inv="),
        ("SampleAfterValue", "period="),
        ("UMask", "umask="),
    ] {
        if let Some(v) = jd.get(key)
            && !is_zero(v)
        {
            event += &format!(",{term}{}", canonicalize(v));
        }
    }
    if let Some(index) = jd.get("MSRIndex") {
        let first = int0(index.split(',').next().unwrap_or("0"));
        let term = match first {
            0x3F6 => "ldlat=",
            0x1A6 | 0x1A7 => "offcore_rsp=",
            0x3F7 => "frontend=",
            other => return Err(other),
        };
        let value = jd.get("MSRValue").map_or("None", String::as_str);
        event += &format!(",{term}{value}");
    }
    if let Some((_, fixed)) = real_event
        .iter()
        .find(|(n, _)| *n == name.to_ascii_lowercase())
    {
        event = fixed.to_string();
    }
    Ok(event
        .split(',')
        .filter(|t| !t.starts_with("period="))
        .collect::<Vec<_>>()
        .join(","))
}

/// The PMU perf files a JSON under, from its mapfile.csv rows.
fn pmu_of(rows: &[Vec<String>]) -> &'static str {
    let hybrid = rows
        .iter()
        .find(|r| r.get(3).is_some_and(|t| t == "hybridcore"));
    match hybrid.and_then(|r| r.get(6)).map(String::as_str) {
        None => "cpu",
        Some("Core") => "cpu_core",
        Some("LowPower_Atom") => "cpu_lowpower",
        Some(_) => "cpu_atom",
    }
}

/// mapfile.csv rows by file path (without the leading slash).
fn mapfile(dir: &Path) -> HashMap<String, Vec<Vec<String>>> {
    let text = std::fs::read_to_string(dir.join("mapfile.csv")).expect("mapfile.csv");
    let mut out: HashMap<String, Vec<Vec<String>>> = HashMap::new();
    for line in text.lines().skip(1) {
        let cols: Vec<String> = line.split(',').map(|c| c.trim().to_string()).collect();
        if let Some(path) = cols.get(2) {
            out.entry(path.trim_start_matches('/').to_string())
                .or_default()
                .push(cols);
        }
    }
    out
}

fn core_files(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("corpus dir").flatten() {
        let events = entry.path().join("events");
        if let Ok(rd) = std::fs::read_dir(&events) {
            for f in rd.flatten() {
                let name = f.file_name().to_string_lossy().into_owned();
                if name.ends_with("_core.json") {
                    files.push(format!(
                        "{}/events/{name}",
                        entry.file_name().to_string_lossy()
                    ));
                }
            }
        }
    }
    files.sort();
    files
}

fn json_events(path: &Path) -> Vec<Map<String, Value>> {
    let text = std::fs::read_to_string(path).expect("read JSON");
    let v: Value = serde_json::from_str(&text).expect("parse JSON");
    let list = match v {
        Value::Object(mut o) => o.remove("Events").unwrap_or(Value::Array(Vec::new())),
        other => other,
    };
    match list {
        Value::Array(a) => a
            .into_iter()
            .filter_map(|e| match e {
                Value::Object(o) => Some(o),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Splits `pmu/terms/mods` into its parts.
fn parts(s: &str) -> (&str, Vec<&str>, &str) {
    let mut it = s.splitn(3, '/');
    let pmu = it.next().unwrap_or("");
    let terms = it.next().unwrap_or("");
    let mods = it.next().unwrap_or("");
    let terms = if terms.is_empty() {
        Vec::new()
    } else {
        terms.split(',').collect()
    };
    (pmu, terms, mods)
}

#[test]
fn perf_spelling_matches_perf_for_every_event_of_every_model() {
    let Some(dir) = corpus_or_skip() else { return };
    let Some(loaded) = models_or_skip() else {
        return;
    };
    let encoder = Encoder::new(&loaded.model);
    let map = mapfile(&dir);

    let mut compared = 0usize;
    let mut exceptions: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut mismatches = Vec::new();
    let files = core_files(&dir);
    assert!(!files.is_empty());
    for file in &files {
        let g = loaded
            .model
            .generations
            .iter()
            .find(|g| {
                g.source
                    .as_deref()
                    .is_some_and(|s| s.ends_with(file.as_str()))
            })
            .unwrap_or_else(|| panic!("no imported generation has source {file}"));
        let pmu = pmu_of(map.get(file).map_or(&[][..], Vec::as_slice));
        for jd in json_events(&dir.join(file)) {
            let name = jd["EventName"].as_str().expect("EventName").to_string();
            let perf_json = to_perf_json(&jd);
            let encoded = encoder
                .encode_in(g, &Request::new(name.clone()))
                .unwrap_or_else(|e| panic!("{file} {name}: {e}"));
            let reference = match jevents(&name, &perf_json) {
                Ok(terms) => format!("{pmu}/{terms}/"),
                Err(index) => {
                    // no-perf-term: perf has no term for this auxiliary MSR; ours names none
                    // either and says so.
                    let note = format!(
                        "perf has no term for auxiliary MSR {index:#x}; program it yourself"
                    );
                    assert!(
                        encoded.notes.contains(&note),
                        "{file} {name}: {:?}",
                        encoded.notes
                    );
                    assert!(
                        !encoded.perf.contains("offcore_rsp="),
                        "{file} {name}: {}",
                        encoded.perf
                    );
                    exceptions.entry("no-perf-term").or_default().push(name);
                    continue;
                }
            };
            let ours = encoded.perf;
            compared += 1;
            if ours == reference {
                continue;
            }
            let (rp, rt, rm) = parts(&reference);
            let (op, ot, om) = parts(&ours);
            assert_eq!((rp, rm), (op, om), "{file} {name}");
            // msr-spelling: same number, our canonical spelling.
            let msr_terms = ["offcore_rsp=", "ldlat=", "frontend="];
            let strip_msr = |t: &[&str]| -> Vec<String> {
                t.iter()
                    .filter(|x| !msr_terms.iter().any(|m| x.starts_with(m)))
                    .map(|x| x.to_string())
                    .collect()
            };
            let msr_of = |t: &[&str]| -> Option<(String, String)> {
                t.iter().find_map(|x| {
                    msr_terms
                        .iter()
                        .find(|m| x.starts_with(**m))
                        .map(|m| (m.to_string(), x[m.len()..].to_string()))
                })
            };
            let (r_rest, o_rest) = (strip_msr(&rt), strip_msr(&ot));
            let (r_msr, o_msr) = (msr_of(&rt), msr_of(&ot));
            if r_rest == o_rest
                && let (Some((rk, rv)), Some((ok, ov))) = (&r_msr, &o_msr)
                && rk == ok
            {
                if rv == "None" && ov == "0x0" && rk == "ldlat=" {
                    exceptions.entry("ldlat-none").or_default().push(name);
                    continue;
                }
                if rv != "None" && int16(rv) == int16(ov) && *ov == format!("{:#x}", int16(ov)) {
                    exceptions.entry("msr-spelling").or_default().push(name);
                    continue;
                }
            }
            // umaskext-dropped: perf lost the unit mask; ours is UMaskExt << 8.
            let umask = get(&jd, "UMask");
            let ext = get(&jd, "UMaskExt").map(|e| int16(&e)).unwrap_or(0);
            if umask.is_none() && ext != 0 {
                let mut fixed = rt.iter().map(|t| t.to_string()).collect::<Vec<_>>();
                let pos = fixed
                    .iter()
                    .position(|t| msr_terms.iter().any(|m| t.starts_with(m)))
                    .unwrap_or(fixed.len());
                fixed.insert(pos, format!("umask={}", llx(ext << 8)));
                if fixed == ot.iter().map(|t| t.to_string()).collect::<Vec<_>>() {
                    exceptions.entry("umaskext-dropped").or_default().push(name);
                    continue;
                }
            }
            mismatches.push(format!("{file} {name}: perf {reference} ours {ours}"));
        }
    }
    println!("compared {compared} events in {} files", files.len());
    for (class, names) in &exceptions {
        println!("  {class}: {} events", names.len());
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    assert!(compared > 15_000, "{compared}");
    // The exception classes are exactly the ones explained above, with these sizes in the
    // corpus at intel/perfmon 6dadedf.
    let count = |c: &str| exceptions.get(c).map_or(0, Vec::len);
    assert_eq!(count("ldlat-none"), 5, "{:?}", exceptions.get("ldlat-none"));
    let mut dropped = exceptions
        .get("umaskext-dropped")
        .cloned()
        .unwrap_or_default();
    dropped.sort();
    dropped.dedup();
    assert_eq!(
        dropped,
        [
            "BR_INST_RETIRED.COND_TAKEN_FWD",
            // Panther Lake and Nova Lake (UMask 0x00 with a UMaskExt).
            "BR_INST_RETIRED.FAR_BRANCH",
            "BR_MISP_RETIRED.ALL_BRANCHES_COST",
            "BR_MISP_RETIRED.ALL_BRANCHES_TPEBS",
            "BR_MISP_RETIRED.COND_TAKEN_FWD",
            "MEM_LOAD_L3_MISS_RETIRED.MEMSIDE_CACHE",
            "MEM_LOAD_RETIRED.L1_HIT_L1",
            "MEM_LOAD_RETIRED.L2_MISS",
            "MEM_STORE_RETIRED.MEMSIDE_CACHE",
            "UOPS_RETIRED.X87",
        ]
    );
    assert_eq!(count("msr-spelling"), 2435);
    // Nova Lake's off-module response events (MSR_OMR_0..3 from 3E0H): jevents' lookup_msr
    // knows no term for them.
    let mut no_term = exceptions.get("no-perf-term").cloned().unwrap_or_default();
    no_term.sort();
    assert_eq!(
        no_term,
        [
            "MEM_LOAD_L2_MISS_RETIRED.L3_HIT_SAME_CBB",
            "MEM_LOAD_L2_MISS_RETIRED.L3_HIT_SAME_CBB_SNP_HIT_NO_FWD",
            "MEM_LOAD_L2_MISS_RETIRED.L3_MISS",
            "MEM_LOAD_L2_MISS_RETIRED.MEM_REGION_1",
        ]
    );
    assert_eq!(exceptions.len(), 4, "{:?}", exceptions.keys());
}
