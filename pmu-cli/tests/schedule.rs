//! `pmu schedule`: the assignment, the conflict, the groups, and the JSON shape.

mod common;
use common::{pmu, text};

use std::process::Output;

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)))
}

#[test]
fn events_that_fit_get_counters_and_aux_values() {
    let out = pmu(&[
        "schedule",
        "--cpu",
        "skylake",
        "INST_RETIRED.ANY",
        "MEM_LOAD_RETIRED.L3_MISS:u",
        "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE",
        "OFFCORE_RESPONSE.DEMAND_CODE_RD.ANY_RESPONSE",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.starts_with("intel-skylake: these events can be counted together\n"),
        "{s}"
    );
    assert!(s.contains("  fixed0   INST_RETIRED.ANY\n"), "{s}");
    assert!(s.contains("  gp0      MEM_LOAD_RETIRED.L3_MISS:u\n"), "{s}");
    assert!(
        s.contains(
            "  gp2      OFFCORE_RESPONSE.DEMAND_CODE_RD.ANY_RESPONSE  (MSR_OFFCORE_RSP1 = 0x10004)"
        ) || s.contains(
            "OFFCORE_RESPONSE.DEMAND_CODE_RD.ANY_RESPONSE  (MSR_OFFCORE_RSP_1 = 0x10004)"
        ),
        "{s}"
    );
}

#[test]
fn json_has_the_issue_shape() {
    let out = pmu(&[
        "schedule",
        "--model",
        "skylake",
        "--json",
        "INST_RETIRED.ANY",
        "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE",
        "OFFCORE_RESPONSE.DEMAND_CODE_RD.ANY_RESPONSE",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v = json(&out);
    let groups = v["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1);
    let g = groups[0].as_array().unwrap();
    assert_eq!(g[0]["event"], "INST_RETIRED.ANY");
    assert_eq!(g[0]["counter"], "fixed0");
    assert!(g[0]["aux"].is_null());
    assert_eq!(g[1]["counter"], "gp0");
    assert_eq!(g[1]["aux"]["msr"], "0x1a6");
    assert_eq!(g[1]["aux"]["value"], "0x10001");
    assert_eq!(g[2]["aux"]["msr"], "0x1a7");
    assert_eq!(g[2]["aux"]["value"], "0x10004");
    assert_eq!(v["conflicts"].as_array().unwrap().len(), 0);
}

#[test]
fn a_conflict_is_reported_with_exit_1() {
    let out = pmu(&[
        "schedule",
        "--cpu",
        "Ice Lake",
        "--json",
        "TOPDOWN.SLOTS",
        "TOPDOWN.SLOTS:u",
        "INST_RETIRED.ANY",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let v = json(&out);
    assert_eq!(v["groups"].as_array().unwrap().len(), 0);
    let c = &v["conflicts"][0];
    assert_eq!(c["events"][0], "TOPDOWN.SLOTS");
    assert_eq!(c["events"][1], "TOPDOWN.SLOTS:u");
    assert_eq!(
        c["message"],
        "TOPDOWN.SLOTS and TOPDOWN.SLOTS:u both need fixed counter 3, which counts one event at a time"
    );
    let out = pmu(&[
        "schedule",
        "--cpu",
        "icelake",
        "TOPDOWN.SLOTS",
        "TOPDOWN.SLOTS:u",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let s = text(&out.stdout);
    assert!(s.contains("cannot be counted together"), "{s}");
    assert!(
        s.contains("conflict: TOPDOWN.SLOTS and TOPDOWN.SLOTS:u both need fixed counter 3"),
        "{s}"
    );
}

#[test]
fn groups_split_into_the_fewest() {
    let mem = |n: &str| format!("MEM_LOAD_RETIRED.{n}");
    let names = [
        "L1_HIT", "L2_HIT", "L3_HIT", "L1_MISS", "L2_MISS", "L3_MISS",
    ]
    .map(mem);
    let mut args = vec!["schedule", "--cpu", "skylake", "--groups", "--json"];
    args.extend(names.iter().map(String::as_str));
    let out = pmu(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v = json(&out);
    let groups = v["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    assert_eq!(v["exact"], true);
    let placed: usize = groups.iter().map(|g| g.as_array().unwrap().len()).sum();
    assert_eq!(placed, 6);

    // User groups stay together; one that cannot fit is a conflict and the rest still split.
    let out = pmu(&[
        "schedule",
        "--cpu",
        "skylake",
        "--groups",
        "{MEM_LOAD_RETIRED.L1_HIT,MEM_LOAD_RETIRED.L2_HIT}",
        "{TOPDOWN.SLOTS}",
        "MEM_LOAD_RETIRED.L3_MISS",
    ]);
    // Skylake has no TOPDOWN.SLOTS event: an unknown event is an error.
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("`TOPDOWN.SLOTS`"),
        "{}",
        text(&out.stderr)
    );

    let out = pmu(&[
        "schedule",
        "--cpu",
        "icelake",
        "--groups",
        "{TOPDOWN.SLOTS,TOPDOWN.SLOTS:u}",
        "{MEM_LOAD_RETIRED.L1_HIT,cpu/event=0xd1,umask=0x2/}",
        "INST_RETIRED.ANY",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("intel-icelake: 1 group\n"), "{s}");
    assert!(
        s.contains("conflict: TOPDOWN.SLOTS and TOPDOWN.SLOTS:u both need"),
        "{s}"
    );
    assert!(s.contains("cpu/event=0xd1,umask=0x2/"), "{s}");
}

#[test]
fn an_unknown_cpu_or_event_is_an_error() {
    let out = pmu(&["schedule", "--cpu", "no-such-cpu", "INST_RETIRED.ANY"]);
    assert_eq!(out.status.code(), Some(1));
    let out = pmu(&["schedule", "--cpu", "skylake", "MEM_LOAD_RETIRED.L3_MIS"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("did you mean MEM_LOAD_RETIRED.L3_MISS"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_cpu_named_any_way_reads_from_the_compiled_tables_as_from_the_yaml() {
    let events = [
        "INST_RETIRED.ANY",
        "MEM_LOAD_RETIRED.L3_MISS",
        "OCR.DEMAND_DATA_RD.ANY_RESPONSE",
        "TOPDOWN.SLOTS",
    ];
    let defs = concat!(env!("CARGO_MANIFEST_DIR"), "/../pmu-defs/defs");
    let names = concat!(env!("CARGO_MANIFEST_DIR"), "/../pmu-defs/cpu-names.yaml");
    let mut seen = Vec::new();
    for cpu in [
        "SPR",
        "sapphire rapids",
        "06_8F",
        "intel-sapphirerapids",
        "sapphirerapids",
    ] {
        let fast = pmu(&[&["schedule", "--cpu", cpu][..], &events[..]].concat());
        let yaml = pmu(&[
            &["schedule", "--cpu", cpu, "--defs", defs, "--defs", names][..],
            &events[..],
        ]
        .concat());
        assert_eq!(fast.status.code(), Some(0), "{cpu}: {}", text(&fast.stderr));
        assert_eq!(text(&fast.stdout), text(&yaml.stdout), "{cpu}");
        assert_eq!(yaml.status.code(), Some(0), "{cpu}: {}", text(&yaml.stderr));
        seen.push(text(&fast.stdout));
    }
    assert!(seen[0].starts_with("intel-sapphirerapids: these events can be counted together"));
    assert!(seen.iter().all(|s| *s == seen[0]));
    // A name standing for two core types asks for one, on both paths.
    for extra in [&[][..], &["--defs", defs, "--defs", names][..]] {
        let out = pmu(&[
            &["schedule", "--cpu", "Alder Lake"][..],
            extra,
            &["INST_RETIRED.ANY"][..],
        ]
        .concat());
        assert_eq!(out.status.code(), Some(1));
        assert!(
            text(&out.stderr).contains(
                "CPU name \"Alder Lake\" names 2 generations (intel-alderlake-goldencove, \
                 intel-alderlake-gracemont)"
            ),
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn ht_off_gives_a_thread_the_core_s_eight_counters() {
    let five = ["BR_INST_RETIRED.COND"; 5];
    let on = pmu(&[&["schedule", "--cpu", "skylake"][..], &five[..]].concat());
    assert_eq!(on.status.code(), Some(1), "{}", text(&on.stderr));
    assert!(text(&on.stdout).contains("with it off (--ht-off) a thread has more"));
    let off = pmu(&[&["schedule", "--cpu", "skylake", "--ht-off"][..], &five[..]].concat());
    assert_eq!(off.status.code(), Some(0), "{}", text(&off.stderr));
    let s = text(&off.stdout);
    assert!(s.contains("gp4      BR_INST_RETIRED.COND"), "{s}");
}
