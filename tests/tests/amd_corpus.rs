//! Every event of Linux perf's AMD lists (`amdzen1`..`amdzen5` in
//! `../shared/data/linux-amd-pmu-events`): the imported Zen model has it, our perf string equals
//! the one perf builds from the JSON, and the event-select value decodes back to the event.
//!
//! The reference is an independent re-implementation of Linux
//! `tools/perf/pmu-events/jevents.py` (`JsonEvent`) for these lists: the PMU is `cpu` unless the
//! event has a `Unit` (`unit_to_pmu`: `L3PMC` → `amd_l3`, `DFPMC` → `amd_df`, `UMCPMC` →
//! `amd_umc`); the terms are `event=llx(EventCode)` then `umask=` when `UMask` is present and
//! non-zero, its value through `canonicalize_value` (hex through `llx`: 0 to 9 in decimal,
//! larger as `0x` + lowercase hex). Events of the other PMUs are not core-PMU events: the test
//! checks that no Zen model has them and counts them. Skips with a note when the lists are
//! absent.

use pmu_defs::Loader;
use pmu_defs::encode::{Counter, Encoder, Request};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn corpus_or_skip() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/linux-amd-pmu-events");
    if dir.join("mapfile.csv").is_file() {
        Some(dir)
    } else {
        println!(
            "note: skipping the AMD corpus test: {} is absent",
            dir.display()
        );
        None
    }
}

/// jevents `llx()`.
fn llx(v: u64) -> String {
    if v < 10 {
        v.to_string()
    } else {
        format!("{v:#x}")
    }
}

fn int(s: &str) -> u64 {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).unwrap(),
        None => s.parse().unwrap(),
    }
}

/// jevents `canonicalize_value()`.
fn canonical(s: &str) -> String {
    if s.starts_with("0x") {
        llx(int(s))
    } else {
        s.to_owned()
    }
}

/// jevents `unit_to_pmu()` for the units of the AMD lists.
fn pmu(unit: Option<&str>) -> &'static str {
    match unit {
        None => "cpu",
        Some("L3PMC") => "amd_l3",
        Some("DFPMC") => "amd_df",
        Some("UMCPMC") => "amd_umc",
        Some(other) => panic!("jevents has no PMU for unit {other}"),
    }
}

/// perf's string for one JSON event (PMU and terms; no modifiers).
fn reference(jd: &serde_json::Map<String, Value>) -> String {
    let s = |k: &str| jd.get(k).and_then(Value::as_str);
    let mut terms = vec![format!("event={}", llx(int(s("EventCode").unwrap())))];
    if let Some(u) = s("UMask").filter(|u| int(u) != 0) {
        terms.push(format!("umask={}", canonical(u)));
    }
    format!("{}/{}/", pmu(s("Unit")), terms.join(","))
}

/// The event objects of every JSON file of a family directory.
fn events(dir: &Path) -> Vec<serde_json::Map<String, Value>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        for o in v.as_array().unwrap() {
            let o = o.as_object().unwrap();
            if o.contains_key("EventName") {
                out.push(o.clone());
            }
        }
    }
    out
}

#[test]
fn every_zen_event_encodes_decodes_and_is_spelled_as_perf_spells_it() {
    let Some(dir) = corpus_or_skip() else { return };
    let loaded = Loader::new().with_defaults().finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let encoder = Encoder::new(&loaded.model);
    let mut compared = 0;
    let mut other_pmus: BTreeMap<&str, usize> = BTreeMap::new();
    for family in ["amdzen1", "amdzen2", "amdzen3", "amdzen4", "amdzen5"] {
        let g = loaded
            .model
            .generations
            .iter()
            .find(|g| g.source.as_deref() == Some(family))
            .unwrap_or_else(|| panic!("no imported generation has source {family}"));
        let core: Vec<_> = events(&dir.join(family))
            .into_iter()
            .filter(|jd| {
                let unit = jd.get("Unit").and_then(Value::as_str);
                if let Some(u) = unit {
                    *other_pmus.entry(pmu(Some(u))).or_default() += 1;
                    let name = jd["EventName"].as_str().unwrap();
                    assert!(
                        g.events.iter().all(|e| e.name != name),
                        "{family}: {name} of {u} imported"
                    );
                }
                unit.is_none()
            })
            .collect();
        assert_eq!(
            g.events.len(),
            core.len(),
            "{family}: every core event, nothing else"
        );
        for jd in &core {
            let name = jd["EventName"].as_str().unwrap();
            let mut req = Request::new(name);
            req.counter = Some(Counter::General(0));
            let enc = encoder
                .encode_in(g, &req)
                .unwrap_or_else(|e| panic!("{family} {name}: {e}"));
            assert_eq!(enc.perf, reference(jd), "{family} {name}");
            let address = enc.address.expect("a general counter's select");
            let d = encoder.decode_in(g, address, enc.value).unwrap();
            assert!(
                d.reserved_bits.is_empty(),
                "{family} {name}: {:?}",
                d.reserved_bits
            );
            assert!(
                d.events.iter().any(|m| m.name == name),
                "{family} {name}: decoded as {:?}",
                d.events
            );
            let code = int(jd["EventCode"].as_str().unwrap());
            // AMD64 APM Vol. 2 §13.2.1: EventSelect[7:0] in bits 7:0, [11:8] in bits 35:32.
            assert_eq!(enc.value & 0xFF, code & 0xFF, "{family} {name}");
            assert_eq!((enc.value >> 32) & 0xF, code >> 8, "{family} {name}");
            compared += 1;
        }
    }
    println!("compared {compared} core events; other PMUs' events not imported: {other_pmus:?}");
    // The counts of perf's lists in ../shared (see its README): 171 + 207 + 243 + 366 + 526
    // events, of which 8 + 8 + 20 + 30 + 234 belong to the L3, data-fabric and
    // memory-controller PMUs.
    assert_eq!(
        compared,
        171 + 207 + 243 + 366 + 526 - (8 + 8 + 20 + 30 + 234)
    );
    assert_eq!(
        other_pmus,
        BTreeMap::from([
            ("amd_df", 12 + 204),
            ("amd_l3", 41 + 17),
            ("amd_umc", 13 + 13)
        ])
    );
}
