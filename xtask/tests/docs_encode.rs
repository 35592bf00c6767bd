//! The event tables agree with `cargo xtask encode`: for a sample of the events of every
//! generation (first, middle, last, and the first fixed-counter-only event, the first with an
//! auxiliary MSR and the first with modifiers of its own), the perf string, the value and the
//! register in `data/events/<id>.js` are what `cargo xtask encode --json` prints. The
//! decoder's side (the page matching a value to the events `cargo xtask decode` names) is in
//! `docs_e2e/`, in Chromium.

#[path = "../../pmu-site/tests/support/mod.rs"]
mod support;

use serde_json::Value;
use std::process::Command;
use support::{model, site};

/// The JSON value assigned after `prefix` in a generated data file.
fn js_value(js: &str, prefix: &str) -> Value {
    let start = js.find(prefix).unwrap_or_else(|| panic!("no {prefix}")) + prefix.len();
    let end = js[start..].find(";\n").unwrap() + start;
    // An event table's rows are packed in the file (`events::packed`).
    pmu_site::events::unpack(serde_json::from_str(&js[start..end]).unwrap())
}

/// Indexes of the sampled events of a generation.
fn sample(g: &pmu_defs::model::Generation) -> Vec<usize> {
    let n = g.events.len();
    let mut out = vec![0, n / 2, n - 1];
    let firsts = [
        g.events.iter().position(|e| e.counters.is_empty()),
        g.events.iter().position(|e| e.msr.is_some()),
        g.events
            .iter()
            .position(|e| e.cmask != 0 || e.inv || e.edge),
    ];
    out.extend(firsts.into_iter().flatten());
    out.sort_unstable();
    out.dedup();
    out
}

#[test]
fn event_tables_agree_with_cargo_xtask_encode() {
    let mut checked = 0;
    for g in &model().generations {
        if g.events.is_empty() {
            continue;
        }
        let js = site().get(&format!("data/events/{}.js", g.id)).unwrap();
        let table = js_value(js, &format!("PMU.events[\"{}\"] = ", g.id));
        let cols = table["columns"].as_array().unwrap();
        let rows = table["rows"].as_array().unwrap();
        let key = |k: &str| cols.iter().position(|c| c["key"] == k).unwrap();
        let picked = sample(g);
        let names: Vec<&str> = picked.iter().map(|&i| g.events[i].name.as_str()).collect();
        let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(["encode", "--json", "--model", &g.id])
            .args(&names)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .output()
            .unwrap();
        let encoded: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", g.id, String::from_utf8_lossy(&out.stderr)));
        for (&i, want) in picked.iter().zip(encoded.as_array().unwrap()) {
            let row = &rows[i];
            assert_eq!(row[key("name")], g.events[i].name.as_str());
            let what = format!("{} {}", g.id, g.events[i].name);
            match want.get("value").and_then(Value::as_u64) {
                Some(v) => {
                    assert_eq!(row[key("value")], format!("0x{v:X}"), "{what}");
                    assert_eq!(row[key("perf")], want["perf"], "{what}");
                    assert_eq!(row[key("register")], want["register"], "{what}");
                }
                None => {
                    // encode refused it: the table shows no value and says why.
                    assert!(row[key("value")].is_null(), "{what}: {want}");
                    assert!(row[key("perf")].is_null(), "{what}: {want}");
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} events checked");
}
