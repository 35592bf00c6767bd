//! `pmu check`: the comparisons over recorded sysfs trees (`tests/data/sysfs/`: an Intel v4
//! core, an AMD Zen core, and one wrong on purpose), the count verdicts, and the command as a
//! user runs it on this machine.

mod common;
use common::{pmu, text};

use pmu_cli::check::Library;
use pmu_cli::check::compare::{
    EventLine, Expect, FormatLine, Resolution, Verdict, compare_events, compare_formats, judge,
};
use pmu_cli::check::report::{CountLine, Opened, PmuLine, Refusal, Report, Status};
use pmu_cli::check::sysfs::{SysfsPmu, core_pmus};
use pmu_regs::arch::{FieldInfo, Generation, Run};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/sysfs")
        .join(name)
}

fn read(name: &str) -> SysfsPmu {
    SysfsPmu::read(&fixture(name), "cpu").unwrap_or_else(|e| panic!("{e}"))
}

fn library(id: &str) -> Library {
    Library::named(Generation::from_id(id).unwrap_or_else(|| panic!("no generation {id}")))
}

fn line<'a>(lines: &'a [FormatLine], term: &str) -> &'a FormatLine {
    (lines.iter().find(|l| l.term == term)).unwrap_or_else(|| panic!("no {term}: {lines:#?}"))
}

fn event<'a>(lines: &'a [EventLine], name: &str) -> &'a EventLine {
    (lines.iter().find(|l| l.name == name)).unwrap_or_else(|| panic!("no {name}: {lines:#?}"))
}

#[test]
fn a_recorded_tree_reads_as_plain_data() {
    let p = read("intel-v4");
    assert_eq!((p.name.as_str(), p.type_), ("cpu", 4));
    assert_eq!(p.formats.len(), 12);
    assert!(
        p.formats
            .contains(&("umask".to_owned(), "config:8-15".to_owned()))
    );
    assert!(
        p.events
            .contains(&("ref-cycles".to_owned(), "event=0x00,umask=0x03".to_owned()))
    );
    // The metadata beside the events is not an event.
    assert!(
        p.events.iter().all(|(n, _)| !n.ends_with(".scale")),
        "{:?}",
        p.events
    );
    // No events directory: no events.
    assert!(read("amd-zen").events.is_empty());
    assert_eq!(core_pmus(&fixture("amd-zen")), ["cpu"]);
    assert!(core_pmus(&fixture("nowhere")).is_empty());
    let e = SysfsPmu::read(&fixture("intel-v4"), "cpu_core").unwrap_err();
    assert!(e.to_string().contains("cpu_core/type"), "{e}");
}

#[test]
fn an_intel_core_formats_agree_with_the_event_select() {
    let lines = compare_formats(&read("intel-v4"), library("intel-skylake").select_fields());
    assert_eq!(lines.len(), 12);
    for l in &lines {
        assert_eq!(l.verdict, Verdict::Agree, "{l:?}");
    }
    assert_eq!(line(&lines, "event").library, "EVENT_SELECT config:0-7");
    assert_eq!(line(&lines, "any").library, "ANY config:21");
    assert_eq!(line(&lines, "in_tx_cp").library, "IN_TXCP config:33");
    assert!(line(&lines, "ldlat").library.starts_with("config1"));
}

#[test]
fn amds_split_event_select_agrees_and_intels_does_not() {
    let amd = read("amd-zen");
    let lines = compare_formats(&amd, library("amd-zen4").select_fields());
    assert!(
        lines.iter().all(|l| l.verdict == Verdict::Agree),
        "{lines:#?}"
    );
    assert_eq!(
        line(&lines, "event").library,
        "EVENT_SELECT config:0-7,32-35"
    );
    // The same tree against an Intel event select: the event code is 8 bits there.
    let lines = compare_formats(&amd, library("intel-v4").select_fields());
    assert_eq!(line(&lines, "event").verdict, Verdict::Differ);
    assert_eq!(line(&lines, "umask").verdict, Verdict::Agree);
}

#[test]
fn a_wrong_range_is_a_difference_and_a_bad_file_is_named() {
    let lines = compare_formats(&read("wrong"), library("intel-v4").select_fields());
    let umask = line(&lines, "umask");
    assert_eq!(umask.verdict, Verdict::Differ);
    assert_eq!(
        (umask.sysfs.as_str(), umask.library.as_str()),
        ("config:8-16", "UMASK config:8-15")
    );
    let inv = line(&lines, "inv");
    assert_eq!(inv.verdict, Verdict::Unknown);
    assert!(inv.note.contains("wrong/cpu/format/inv"), "{inv:?}");
    assert!(inv.note.contains("not a bit number"), "{inv:?}");
    assert_eq!(line(&lines, "cmask").verdict, Verdict::Agree);
}

/// Field tables made up for the test: where a term lives matters, not its name alone.
#[test]
fn a_term_in_the_wrong_word_or_without_a_field_differs() {
    const FIELDS: &[FieldInfo] = &[
        FieldInfo::new("EVENT_SELECT", &[Run::new(0, 8)]),
        FieldInfo::new("UMASK", &[Run::new(8, 8)]),
    ];
    let pmu = SysfsPmu {
        name: "cpu".to_owned(),
        dir: PathBuf::from("/made/up/cpu"),
        type_: 4,
        formats: [
            ("event", "config1:0-7"),
            ("edge", "config:18"),
            ("ldlat", "config:32-47"),
            ("snoop_rsp", "config:8-9"),
            ("umask", "config:8-15"),
        ]
        .map(|(t, f)| (t.to_owned(), f.to_owned()))
        .to_vec(),
        events: Vec::new(),
    };
    let lines = compare_formats(&pmu, FIELDS);
    assert_eq!(line(&lines, "event").verdict, Verdict::Differ);
    let edge = line(&lines, "edge");
    assert_eq!(
        (edge.verdict, edge.library.as_str()),
        (Verdict::Differ, "no field")
    );
    assert_eq!(line(&lines, "ldlat").verdict, Verdict::Differ);
    let snoop = line(&lines, "snoop_rsp");
    assert_eq!(snoop.verdict, Verdict::Unknown);
    assert!(snoop.note.contains("UMASK"), "{snoop:?}");
    assert_eq!(line(&lines, "umask").verdict, Verdict::Agree);
}

#[test]
fn sysfs_events_are_encoded_through_the_formats_and_compared() {
    let resolve = |name: &str| match name {
        "cycles" => Resolution::Config {
            config: 0x3C,
            config1: 0,
            spelling: "cpu/event=0x3c/".to_owned(),
        },
        "instructions" => Resolution::Config {
            config: 0xC1,
            config1: 0,
            spelling: "cpu/event=0xc1/".to_owned(),
        },
        "mem-loads" => Resolution::Config {
            config: 0x1CD,
            config1: 3,
            spelling: "cpu/event=0xcd,umask=0x1,ldlat=0x3/".to_owned(),
        },
        "ref-cycles" => Resolution::Error("cannot".to_owned()),
        _ => Resolution::Unknown("unknown event".to_owned()),
    };
    let lines = compare_events(&read("intel-v4"), &resolve);
    let cycles = event(&lines, "cpu-cycles");
    assert_eq!(
        (cycles.library_name.as_str(), cycles.verdict),
        ("cycles", Verdict::Agree)
    );
    let instructions = event(&lines, "instructions");
    assert_eq!(instructions.verdict, Verdict::Differ);
    assert!(instructions.note.contains("0xc0") && instructions.note.contains("0xc1"));
    let loads = event(&lines, "mem-loads");
    assert_eq!(
        (loads.kernel_config, loads.kernel_config1),
        (Some(0x1CD), Some(3))
    );
    assert_eq!(loads.verdict, Verdict::Agree);
    let t = event(&lines, "cycles-t");
    assert_eq!(t.kernel_config, Some(0x1_0000_003C));
    assert_eq!(event(&lines, "ref-cycles").verdict, Verdict::Unknown);
    assert!(event(&lines, "ref-cycles").note.contains("cannot encode"));
    assert_eq!(
        event(&lines, "branch-instructions").library_name,
        "branches"
    );
    assert_eq!(event(&lines, "bus-cycles").kernel_config, Some(0x13C));

    let broken = compare_events(&read("wrong"), &resolve);
    let b = event(&broken, "broken");
    assert_eq!((b.verdict, b.kernel_config), (Verdict::Unknown, None));
    assert!(b.note.contains("wrong/cpu/events/broken"), "{b:?}");
}

/// Whatever the library resolves of the kernel's events, it must be the kernel's encoding:
/// an event it knows is never encoded otherwise.
#[test]
fn the_library_never_encodes_a_kernel_event_otherwise() {
    for (tree, id) in [("intel-v4", "intel-skylake"), ("intel-v4", "intel-v4")] {
        let lib = library(id);
        let lines = compare_events(&read(tree), &|n| lib.resolution(n));
        assert_eq!(lines.len(), 11);
        for l in &lines {
            assert_ne!(l.verdict, Verdict::Differ, "{id}: {l:?}");
        }
    }
}

#[test]
fn counts_are_judged_against_the_loop() {
    let e = Expect::per_iteration(2, 10_000_000);
    assert_eq!((e.low, e.high), (20_000_000, 20_210_000));
    assert_eq!(judge(e, Some(20_000_000)), Verdict::Agree);
    assert_eq!(judge(e, Some(20_000_350)), Verdict::Agree);
    assert_eq!(judge(e, Some(20_210_000)), Verdict::Agree);
    assert_eq!(judge(e, Some(20_210_001)), Verdict::Differ);
    assert_eq!(judge(e, Some(19_999_999)), Verdict::Differ);
    assert_eq!(judge(e, Some(0)), Verdict::Differ);
    assert_eq!(judge(e, None), Verdict::Unknown);
    let b = Expect::per_iteration(1, 1000);
    assert_eq!((b.low, b.high), (1000, 11_010));
}

fn count(got: Option<u64>) -> CountLine {
    let expected = Expect::per_iteration(2, 1_000_000);
    CountLine {
        event: "instructions".to_owned(),
        via: "kernel".to_owned(),
        encoding: "PERF_COUNT_HW_INSTRUCTIONS".to_owned(),
        expected,
        got,
        verdict: judge(expected, got),
        note: String::new(),
    }
}

#[test]
fn the_status_is_mismatch_ok_or_skipped() {
    let mut r = Report::new(PmuLine::default());
    assert_eq!(r.compute_status(), Status::Skipped);
    r.counts.push(count(None));
    assert_eq!(r.compute_status(), Status::Skipped);
    r.counts.push(count(Some(2_000_100)));
    assert_eq!(r.compute_status(), Status::Ok);
    r.events = Some(Opened {
        total: 2,
        opened: 1,
        refused: vec![Refusal {
            name: "X".to_owned(),
            encoding: "cpu/event=0x1/".to_owned(),
            why: "EACCES: Permission denied".to_owned(),
            permission: true,
        }],
        unresolved: Vec::new(),
    });
    // Refused for want of permission only: not the encoding's fault.
    assert_eq!(r.compute_status(), Status::Ok);
    if let Some(o) = r.events.as_mut() {
        o.refused[0].permission = false;
        o.refused[0].why = "EINVAL: Invalid argument".to_owned();
    }
    assert_eq!(r.compute_status(), Status::Mismatch);
    assert!(
        r.text().contains("refused     X cpu/event=0x1/: EINVAL"),
        "{}",
        r.text()
    );
    r.events = None;
    r.counts.push(count(Some(5)));
    assert_eq!(r.compute_status(), Status::Mismatch);
    r.status = r.compute_status();
    let t = r.text();
    assert!(t.contains("expected [2000000, 2030000]"), "{t}");
    assert!(t.ends_with("status: mismatch\n"), "{t}");
}

#[test]
fn without_a_pmu_check_is_skipped_with_the_reason() {
    if Path::new("/sys/bus/event_source/devices/cpu").exists() {
        return; // a machine with a PMU: nothing to assert about skipping
    }
    let out = pmu(&["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.starts_with("skipped: "), "{s}");
    assert_eq!(s.lines().count(), 1, "{s}");
    assert!(s.contains("perf_event_open"), "{s}");

    let out = pmu(&["check", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["status"], "skipped");
    assert!(v["reason"].as_str().is_some_and(|r| !r.is_empty()), "{v}");
}

#[test]
fn sysfs_option_compares_a_recorded_tree() {
    let dir = fixture("intel-v4");
    let out = pmu(&[
        "check",
        "--json",
        "--cpu",
        "skylake",
        "--sysfs",
        dir.to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["pmu"]["generation"], "intel-skylake");
    assert!(v["pmu"]["sysfs"].as_str().unwrap().ends_with("cpu"), "{v}");
    let format = v["format"].as_array().expect("format");
    assert_eq!(format.len(), 12);
    assert!(format.iter().all(|f| f["verdict"] == "agree"), "{v}");
    let events = v["sysfs_events"].as_array().expect("sysfs_events");
    assert_eq!(events.len(), 11);
    assert!(events.iter().all(|e| e["verdict"] != "differ"), "{v}");
    if !Path::new("/sys/bus/event_source/devices/cpu").exists() {
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(v["status"], "ok");
        assert!(v["reason"].as_str().is_some(), "{v}");
    }

    let wrong = fixture("wrong");
    let out = pmu(&[
        "check",
        "--cpu",
        "intel-v4",
        "--sysfs",
        wrong.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.lines()
            .any(|l| l.contains("umask") && l.contains("DIFFER")),
        "{s}"
    );
    assert!(s.ends_with("status: mismatch\n"), "{s}");
    // Without a PMU only the counting is skipped: the comparison still ran.
    if !Path::new("/sys/bus/event_source/devices/cpu").exists() {
        assert!(s.starts_with("counting skipped: "), "{s}");
    }

    let out = pmu(&["check", "--sysfs", fixture("nowhere").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("nowhere"),
        "{}",
        text(&out.stderr)
    );
    let out = pmu(&["check", "--iterations", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn without_a_pmu_the_probe_says_absent_and_why() {
    let none = pmu_cli::check::no_pmu_reason(&[], "perf_event_open(...) failed: ENOENT");
    assert!(
        none.starts_with("no core PMU in /sys/bus/event_source/devices (no cpu"),
        "{none}"
    );
    assert!(
        none.ends_with("this machine (a VM?) exposes no PMU"),
        "{none}"
    );
    let listed = pmu_cli::check::no_pmu_reason(&["cpu_core", "cpu_atom"], "it failed");
    assert!(
        listed.contains("lists cpu_core, cpu_atom but it failed"),
        "{listed}"
    );

    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    if !Path::new("/sys/bus/event_source/devices/cpu").exists()
        && !Path::new("/sys/bus/event_source/devices/cpu_core").exists()
    {
        use pmu_regs::pmu::Presence;
        let probe = pmu_cli::check::count::probe();
        assert_eq!(probe.presence, Presence::Absent, "{probe:?}");
        assert!(!probe.denied, "{probe:?}");
        assert!(probe.reason.contains("PERF_TYPE_HARDWARE"), "{probe:?}");
    }
}

#[test]
fn the_library_side_lists_events_once_and_finds_the_event_select() {
    let lib = library("intel-skylake");
    assert_eq!(lib.pmu, "cpu");
    let names = lib.event_names();
    assert!(names.len() > 100, "{}", names.len());
    assert!(names.contains(&"MEM_LOAD_RETIRED.L3_MISS"));
    let mut sorted: Vec<String> = names.iter().map(|n| n.to_ascii_uppercase()).collect();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "a name twice");
    let fields: Vec<&str> = lib.select_fields().iter().map(|f| f.name).collect();
    assert!(
        fields.contains(&"EVENT_SELECT") && fields.contains(&"UMASK"),
        "{fields:?}"
    );
    // An architectural generation has no model table: its architectural events only.
    let v1 = library("intel-v1");
    assert!(!v1.event_names().is_empty());
    assert!(v1.resolve("LLC_MISSES").is_ok());
}
