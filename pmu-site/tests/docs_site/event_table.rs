//! The event tables' Rust paths, filter tags, sortable headers and filters.

use super::*;

fn table(g: &Generation) -> serde_json::Value {
    let js = site().get(&format!("data/events/{}.js", g.id)).unwrap();
    js_value(js, &format!("PMU.events[\"{}\"] = ", g.id))
}

fn column(t: &serde_json::Value, key: &str) -> usize {
    let cols = t["columns"].as_array().unwrap();
    cols.iter()
        .position(|c| c["key"] == key)
        .unwrap_or_else(|| panic!("no column {key}"))
}

/// The variants of `pub enum Event` in a generated module's file, as `cargo xtask gen` wrote it.
fn generated_variants(file: &str) -> Vec<String> {
    let start = file.find("pub enum Event {").expect("an Event enum");
    let body = &file[start..];
    let end = body.find("\n    }").unwrap();
    body[..end]
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| !l.starts_with("///") && !l.starts_with("#[") && !l.is_empty())
        .map(|l| l.trim_end_matches(',').to_owned())
        .collect()
}

#[test]
fn each_event_has_the_rust_path_of_its_variant_in_pmu_regs() {
    let spr = table(generation("intel-sapphirerapids"));
    let (name, rust) = (column(&spr, "name"), column(&spr, "rust"));
    let row = spr["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r[name] == "MEM_LOAD_RETIRED.L3_MISS")
        .unwrap();
    assert_eq!(
        row[rust],
        "pmu_regs::intel::sapphirerapids::events::Event::MemLoadRetired_L3Miss"
    );
    assert_eq!(spr["columns"][rust]["kind"], "copy");
    assert_eq!(spr["columns"][rust]["place"], "details");

    // Every CPU model's events against the enum `cargo xtask gen` wrote into pmu-regs.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../pmu-regs/src/generated");
    let mut checked = 0;
    for g in model().generations.iter().filter(|g| !g.events.is_empty()) {
        let t = table(g);
        let rust = column(&t, "rust");
        let module = pmu_defs::model::names::module_path(&g.id);
        let prefix = format!("pmu_regs::{}::", module.join("::"));
        let paths: Vec<&str> = t["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r[rust].as_str().unwrap())
            .collect();
        for (p, e) in paths.iter().zip(&g.events) {
            let enum_path = if e.cpuid_bit.is_some() {
                "ArchEvent::"
            } else {
                "events::Event::"
            };
            assert!(
                p.starts_with(&format!("{prefix}{enum_path}")),
                "{}: {}: {p}",
                g.id,
                e.name
            );
        }
        let Ok(file) = std::fs::read_to_string(root.join(format!("{}.rs", module.join("/"))))
        else {
            continue;
        };
        if !file.contains("pub enum Event {") {
            continue;
        }
        let variants = generated_variants(&file);
        for (p, e) in paths.iter().zip(&g.events) {
            if e.cpuid_bit.is_none() {
                let v = p.rsplit("::").next().unwrap();
                assert!(variants.iter().any(|x| x == v), "{}: {v}", g.id);
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn filter_tags_and_the_counts_the_page_shows_agree() {
    for g in model().generations.iter().filter(|g| !g.events.is_empty()) {
        let t = table(g);
        let tags = column(&t, "filters");
        let rows = t["rows"].as_array().unwrap();
        let has =
            |r: &serde_json::Value, tag: &str| r[tags].as_array().unwrap().iter().any(|x| x == tag);
        for (r, e) in rows.iter().zip(&g.events) {
            // Fixed-only: no general-purpose counter tag.
            assert_eq!(
                has(r, "fixed-only"),
                e.counters.is_empty() && e.fixed.is_some(),
                "{}",
                e.name
            );
            assert_eq!(has(r, "aux-msr"), e.msr.is_some(), "{}", e.name);
            assert_eq!(has(r, "deprecated"), e.deprecated, "{}", e.name);
            for c in &e.counters {
                assert!(has(r, &format!("g{c}")), "{}: g{c}", e.name);
            }
        }
        let page = site().get(&format!("gen/{}/events.html", g.id)).unwrap();
        let doc = parse_xml(&g.id, page).unwrap();
        for input in doc.find_all("input") {
            let Some(tag) = input.attr("data-tag") else {
                continue;
            };
            let n = rows.iter().filter(|r| has(r, tag)).count();
            assert!(n > 0, "{}: a filter no event passes: {tag}", g.id);
            let label = doc
                .find_all("label")
                .into_iter()
                .find(|l| {
                    l.find_all("input")
                        .iter()
                        .any(|i| i.attr("data-tag") == Some(tag))
                })
                .unwrap()
                .text();
            assert!(
                label.ends_with(&docs::format::thousands(n)),
                "{}: {tag}: {label} ({n})",
                g.id
            );
        }
    }
    // Sapphire Rapids has each kind of filter: PEBS events, fixed-only, offcore (aux MSR).
    let page = site().get("gen/intel-sapphirerapids/events.html").unwrap();
    for tag in ["precise", "fixed-only", "aux-msr"] {
        assert!(page.contains(&format!("data-tag=\"{tag}\"")), "{tag}");
    }
    assert!(page.contains("<option value=\"f0\">fixed counter 0</option>"));
}

#[test]
fn every_main_column_sorts_from_a_header_button() {
    let g = generation("intel-skylake");
    let t = table(g);
    let page = site().get("gen/intel-skylake/events.html").unwrap();
    let doc = parse_xml("skylake", page).unwrap();
    let buttons: Vec<&str> = doc
        .find_all("th")
        .into_iter()
        .flat_map(|th| th.find_all("button"))
        .map(|b| b.attr("data-key").unwrap())
        .collect();
    let main: Vec<&str> = t["columns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["place"] == "main" && c["show"] == true)
        .map(|c| c["key"].as_str().unwrap())
        .collect();
    assert_eq!(buttons, main);
    // The page names the enum that holds the events, and the feature that compiles it.
    assert!(page.contains("pmu_regs::intel::skylake::events::Event"));
    assert!(page.contains("Cargo feature <code>intel-skylake</code>"));
}
