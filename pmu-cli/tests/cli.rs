//! `pmu` as a user runs it: output, JSON, exit codes (0 ok, 1 invalid request, 2 usage), and
//! the CPU named by id, name or family/model.

mod common;
use common::{pmu, text};

#[test]
fn encode_prints_the_value_the_perf_string_and_the_fields() {
    let out = pmu(&[
        "encode",
        "--model",
        "v3",
        "LLC_MISSES:u:k:en",
        "--counter",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("value     0x000000000043412e"), "{s}");
    assert!(s.contains("perf      cpu/event=0x2e,umask=0x41/uk"), "{s}");
    assert!(s.contains("IA32_PERFEVTSEL1 (MSR 0x187)"), "{s}");
    assert!(s.contains("IA32_PMC1 (MSR 0xc2)"), "{s}");
    assert!(s.contains("CMASK"), "{s}");
}

#[test]
fn encode_json_is_an_array_with_errors_in_place() {
    let out = pmu(&[
        "encode",
        "--json",
        "--model",
        "intel-v3",
        "--modifiers",
        "u",
        "LLC_MISSES",
        "LLC_MISES",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let items = v.as_array().expect("array");
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["perf"], "cpu/event=0x2e,umask=0x41/u");
    assert_eq!(items[0]["value"], 0x0001_412E);
    assert_eq!(items[0]["register"], "IA32_PERFEVTSEL");
    assert_eq!(items[1]["request"], "LLC_MISES");
    assert_eq!(items[1]["error"]["kind"], "not_found");
    assert!(
        items[1]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("did you mean `LLC_MISSES`?")
    );
}

#[test]
fn invalid_requests_exit_1_with_the_reason() {
    for (args, want) in [
        (
            vec!["encode", "--model", "v3", "LLC_MISSES:cmask=256"],
            "cmask=256 is too big",
        ),
        (
            vec!["encode", "--model", "v2", "LLC_MISSES:any"],
            "not supported by intel-v2",
        ),
        (
            vec!["encode", "--model", "v3", "LLC_MISSES:bogus"],
            "unknown modifier `bogus`",
        ),
        (
            vec!["encode", "--model", "v9", "LLC_MISSES"],
            "no generation or model `v9`",
        ),
        (
            vec![
                "encode",
                "--model",
                "v3",
                "--counter",
                "fixed0",
                "LLC_MISSES",
            ],
            "cannot count on fixed counter 0",
        ),
        (
            vec!["decode", "--model", "v3", "0x1234", "0"],
            "MSR 0x1234 is no register",
        ),
        (
            vec!["decode", "--model", "v3", "IA32_NOPE", "0"],
            "`IA32_NOPE` is no register",
        ),
    ] {
        let out = pmu(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // A long request is clipped where it is echoed, and the reason still follows it.
    let long = format!("LLC_MISSES{}", ":u".repeat(16_000));
    let out = pmu(&["encode", "--model", "v3", &long]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.len() < 1_000, "{} bytes", err.len());
    assert!(err.contains("more characters)"), "{err}");
    assert!(
        err.trim_end().ends_with("`u` is given more than once"),
        "{err}"
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["encode", "--model", "v3"],
        vec!["encode", "--model", "v3", "--counter", "x", "LLC_MISSES"],
        vec!["decode", "--model", "v3", "0x186", "banana"],
        vec![
            "decode",
            "--model",
            "v3",
            "0x186",
            "0x1_0000_0000_0000_0000",
        ],
    ] {
        let out = pmu(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn decode_prints_fields_event_and_reserved_bits() {
    let out = pmu(&["decode", "--model", "v3", "0x186", "0x8000000043412e"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains("IA32_PERFEVTSEL0 (MSR 0x186) in intel-v3"),
        "{s}"
    );
    assert!(s.contains("EVENT_SELECT"), "{s}");
    assert!(
        s.contains("event: LLC_MISSES (architectural, since intel-v1)"),
        "{s}"
    );
    assert!(
        s.contains("reserved bits set: 0x80000000000000 (bit 55)"),
        "{s}"
    );

    let out = pmu(&[
        "decode",
        "--json",
        "--model",
        "v3",
        "IA32_PERFEVTSEL2",
        "0x43412e",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["address"], 0x188);
    assert_eq!(v["instance"], 2);
    assert_eq!(v["events"][0]["name"], "LLC_MISSES");
    assert_eq!(v["reserved_set"], 0);
}

#[test]
fn a_cpu_by_id_name_abbreviation_or_family_model_is_the_same_cpu() {
    let first = |cpu: &str| {
        let out = pmu(&["list", "--json", "--cpu", cpu, "MEM_LOAD_RETIRED.L3_MISS"]);
        assert_eq!(out.status.code(), Some(0), "{cpu}: {}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let ids: Vec<String> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["generation"].as_str().unwrap().to_owned())
            .collect();
        (ids, v[0]["events"][0]["perf"].as_str().map(str::to_owned))
    };
    let want = (
        vec!["intel-sapphirerapids".to_owned()],
        Some("cpu/event=0xd1,umask=0x20/".to_owned()),
    );
    for cpu in [
        "intel-sapphirerapids",
        "sapphirerapids",
        "Sapphire Rapids",
        "sapphire-rapids",
        "SPR",
        "06_8F",
        "GenuineIntel-6-8F",
        "6/8fh",
    ] {
        assert_eq!(first(cpu), want, "{cpu}");
    }
    // A hybrid part's name gives both core types' lists.
    let (ids, _) = first("Raptor Lake");
    assert_eq!(
        ids,
        ["intel-alderlake-goldencove", "intel-alderlake-gracemont"]
    );
}

#[test]
fn the_readme_commands_work() {
    let out = pmu(&["list", "--cpu", "Sapphire Rapids"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.starts_with("# CPU name \"Sapphire Rapids\"\n"), "{s}");
    assert!(
        s.lines().any(|l| l.split_whitespace().collect::<Vec<_>>()
            == [
                "MEM_LOAD_RETIRED.L3_MISS",
                "cpu/event=0xd1,umask=0x20/",
                "counters",
                "0-3",
                "[precise]"
            ]),
        "{s}"
    );

    let out = pmu(&["encode", "--cpu", "skylake", "MEM_LOAD_RETIRED.L3_MISS:u"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("value     0x00000000000120d1"), "{s}");
    assert!(s.contains("perf      cpu/event=0xd1,umask=0x20/u"), "{s}");

    // One operand: the value of the first general counter's event select.
    let out = pmu(&["decode", "--cpu", "Zen 4", "0x4300c0"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.starts_with("PERF_EVT_SEL_CORE0 (MSR 0xc0010200) in amd-zen4"),
        "{s}"
    );
    assert!(s.contains("event: ex_ret_instr"), "{s}");

    let out = pmu(&["info"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    for key in ["cpu ", "hypervisor ", "generation ", "model ", "counters "] {
        assert!(s.lines().any(|l| l.starts_with(key)), "{key}: {s}");
    }
}

#[test]
fn a_name_for_several_generations_asks_for_one_when_one_is_needed() {
    let out = pmu(&["encode", "--cpu", "Alder Lake", "INST_RETIRED.ANY"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("CPU name \"Alder Lake\" names 2 generations (intel-alderlake-goldencove, intel-alderlake-gracemont)"),
        "{err}"
    );
    let out = pmu(&["list", "--cpu", "Skylake-Z"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("`pmu cpus` lists the names"));
}

#[test]
fn cpus_lists_every_name_with_its_generations() {
    let out = pmu(&["cpus"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["Genoa", "amd-zen4"]),
        "{s}"
    );
    assert!(
        s.lines()
            .any(|l| l.starts_with("Sapphire Rapids") && l.contains("intel-sapphirerapids (SPR)")),
        "{s}"
    );
}

#[test]
fn info_reads_a_cpuid_dump() {
    let dump = |name: &str| {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/test_data/cpuid-dumps")
            .join(name)
    };
    let file = dump("amd-epyc-19h-01h-guest.txt");
    let out = pmu(&["info", "--cpuid", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("hypervisor  yes"), "{s}");
    assert!(s.contains("generation  amd-fam10h"), "{s}");
    assert!(s.contains("model       none"), "{s}");
    assert!(s.contains("counters    4 general"), "{s}");
    assert!(s.contains("perf PMU    cpu"), "{s}");
    assert!(
        s.contains("note: the family/model is amd-zen3's, but its registers need amd-core"),
        "{s}"
    );

    let file = dump("intel-xeon-06cf-guest.txt");
    let out = pmu(&["info", "--cpuid", file.to_str().unwrap()]);
    let s = text(&out.stdout);
    assert!(s.contains("generation  none"), "{s}");
    assert!(!s.contains("perf PMU"), "no PMU, no perf PMU: {s}");
    assert!(
        s.contains(
            "note: the family/model is intel-emeraldrapids's, but its registers need intel-v5"
        ),
        "{s}"
    );

    // The same as JSON.
    let file = dump("amd-epyc-19h-01h-guest.txt");
    let out = pmu(&["info", "--cpuid", file.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["generation"], "amd-fam10h");
    assert_eq!(v["model"], serde_json::Value::Null);
    assert_eq!(v["gp_counters"], serde_json::json!([0, 1, 2, 3]));
    assert_eq!(v["gp_width"], 48);
    assert_eq!(v["perf_pmu"], "cpu");
    assert_eq!(v["fixed_counters"], serde_json::json!([]));
    assert_eq!(v["fixed_width"], 0);
    assert_eq!(v["cpu"]["family"], 0x19);
    assert_eq!(v["hypervisor"], true);
    let notes: Vec<&str> = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(notes.iter().any(|n| n.contains("amd-zen3")), "{notes:?}");
    assert!(v["facilities"].is_array(), "{v}");

    // A broken dump: where and why, exit 2.
    let dir = std::env::temp_dir().join(format!("pmu-cli-dump-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "0x0 0x0: eax=0x1 ebx=0x2 ecx=0x3\n").unwrap();
    let out = pmu(&["info", "--cpuid", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("bad.txt: line 1, column 33: expected edx="),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn list_shows_the_counters_with_hyper_threading_off_where_they_differ() {
    let out = pmu(&["list", "--cpu", "skylake", "BR_INST_RETIRED"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let line = |name: &str| {
        (s.lines()
            .find(|l| l.split_whitespace().next() == Some(name)))
        .unwrap_or_else(|| panic!("no {name}: {s}"))
        .to_owned()
    };
    assert!(line("BR_INST_RETIRED.COND").ends_with("counters 0-3 (HT off 0-7)"));
    assert!(line("BR_INST_RETIRED.ALL_BRANCHES_PEBS").ends_with("counters 0-3"));
}
