//! Event descriptions: never in the definitions, merged into a site built with
//! `--descriptions DIR`, and without it a link to where each generation's live.

use super::*;
use pmu_defs::encode::Encoder;
use pmu_site::Descriptions;
use pmu_site::events::table_with;
use std::path::Path;

const SPR: &str = "intel-sapphirerapids";

fn column(t: &pmu_site::events::Table, key: &str) -> Option<usize> {
    t.columns.iter().position(|c| c.key == key)
}

fn row<'t>(t: &'t pmu_site::events::Table, name: &str) -> &'t [serde_json::Value] {
    let i = column(t, "name").unwrap();
    t.rows.iter().find(|r| r[i] == name).unwrap()
}

#[test]
fn without_descriptions_each_table_links_to_its_list() {
    let spr = model().generation(SPR).unwrap();
    let t = table_with(&Encoder::new(model()), spr, None);
    assert_eq!(column(&t, "description"), None);
    let source = t.source.clone().unwrap();
    assert_eq!(source.label, "SPR/events/sapphirerapids_core.json");
    assert_eq!(
        source.url,
        "https://github.com/intel/perfmon/blob/main/SPR/events/sapphirerapids_core.json"
    );
    let zen4 = model().generation("amd-zen4").unwrap();
    let z = table_with(&Encoder::new(model()), zen4, None)
        .source
        .unwrap();
    assert!(
        z.url.ends_with("tools/perf/pmu-events/arch/x86/amdzen4"),
        "{}",
        z.url
    );
    // The page says so, with the link.
    let page = site().get(&format!("gen/{SPR}/events.html")).unwrap();
    assert!(page.contains(&source.url), "no link on the events page");
    assert!(page.contains("--descriptions DIR"));
    // Architectural events carry the definitions' own text, no link.
    let v1 = model().generation("intel-v1").unwrap();
    assert_eq!(table_with(&Encoder::new(model()), v1, None).source, None);
}

#[test]
fn descriptions_are_read_from_the_lists_and_merged_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir
        .path()
        .join("intel-perfmon/SPR/events/sapphirerapids_core.json");
    std::fs::create_dir_all(list.parent().unwrap()).unwrap();
    // A fixture of our own words, in Intel's shape.
    std::fs::write(
        &list,
        r#"{"Header": {}, "Events": [
            {"EventName": "MEM_LOAD_RETIRED.L3_MISS", "BriefDescription": "fixture brief",
             "PublicDescription": "fixture text"},
            {"EventName": "NOT_AN_EVENT_HERE", "BriefDescription": "ignored"}
        ]}"#,
    )
    .unwrap();
    let spr = model().generation(SPR).unwrap();
    let zen4 = model().generation("amd-zen4").unwrap();
    let d = Descriptions::read(dir.path(), [spr, zen4]);
    assert_eq!((d.files, d.len()), (1, 2));
    assert_eq!(d.get(SPR, "MEM_LOAD_RETIRED.L3_MISS"), Some("fixture text"));
    // A list that is not there is named, with where it was looked for.
    assert_eq!(d.problems.len(), 1, "{:?}", d.problems);
    assert!(
        d.problems[0].starts_with("amd-zen4: `amdzen4` is neither in"),
        "{:?}",
        d.problems
    );

    let t = table_with(&Encoder::new(model()), spr, Some(&d));
    let i = column(&t, "description").unwrap();
    assert_eq!(t.columns[i].place, "details");
    assert_eq!(row(&t, "MEM_LOAD_RETIRED.L3_MISS")[i], "fixture text");
    assert!(row(&t, "MEM_LOAD_RETIRED.L3_HIT")[i].is_null());
    assert_eq!(t.source, None);
}

/// With the vendors' lists beside the repository (`../shared/data`, as CI has them), every
/// imported model gets its descriptions.
#[test]
fn the_shared_lists_describe_the_imported_events() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    if !dir.join("intel-perfmon").is_dir() {
        eprintln!("skipped: {} is absent", dir.display());
        return;
    }
    let d = Descriptions::read(&dir, &model().generations);
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    assert!(d.len() > 18_000, "{}", d.len());
    for (g, event) in [
        (SPR, "MEM_LOAD_RETIRED.L3_MISS"),
        ("amd-zen4", "ex_ret_instr"),
    ] {
        assert!(d.get(g, event).is_some_and(|t| t.len() > 10), "{g} {event}");
    }
}
