//! `cargo xtask encode` / `decode` as a user runs them: output, JSON, exit codes
//! (0 ok, 1 invalid request, 2 usage).

use std::collections::BTreeMap;
use std::process::{Command, Output};

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .output()
        .expect("run xtask")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn encode_prints_the_value_the_perf_string_and_the_fields() {
    let out = xtask(&[
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
    let out = xtask(&[
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
        let out = xtask(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["encode", "LLC_MISSES"],
        vec!["encode", "--model", "v3"],
        vec!["encode", "--model", "v3", "--counter", "x", "LLC_MISSES"],
        vec!["decode", "--model", "v3", "0x186"],
        vec!["decode", "--model", "v3", "0x186", "banana"],
        vec![
            "decode",
            "--model",
            "v3",
            "0x186",
            "0x1_0000_0000_0000_0000",
        ],
    ] {
        let out = xtask(&args);
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
    let out = xtask(&["decode", "--model", "v3", "0x186", "0x8000000043412e"]);
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

    let out = xtask(&[
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
fn schema_writes_checks_and_refuses_a_stale_copy() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("nested/generation.schema.json");
    let p = path.to_str().expect("UTF-8 path");

    // Missing: --check fails and says how to fix it.
    let out = xtask(&["schema", "--out", p, "--check"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("cargo xtask schema"),
        "{}",
        text(&out.stderr)
    );

    // Written (creating the directory), then checked; a second write changes nothing.
    let out = xtask(&["schema", "--out", p]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&path).expect("schema written");
    let v: serde_json::Value = serde_json::from_str(&written).expect("valid JSON");
    assert_eq!(v["$schema"], "http://json-schema.org/draft-07/schema#");
    assert!(v["definitions"]["register"]["properties"]["msr"].is_object());
    assert_eq!(
        xtask(&["schema", "--out", p, "--check"]).status.code(),
        Some(0)
    );
    let out = xtask(&["schema", "--out", p]);
    assert!(
        text(&out.stdout).starts_with("unchanged"),
        "{}",
        text(&out.stdout)
    );

    // Edited by hand: stale.
    std::fs::write(&path, written.replace("\"msr\"", "\"mrs\"")).expect("edit");
    let out = xtask(&["schema", "--out", p, "--check"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("is stale"),
        "{}",
        text(&out.stderr)
    );

    // The checked-in copy is current.
    assert_eq!(xtask(&["schema", "--check"]).status.code(), Some(0));
}

/// Imported files name the editor schema by a path relative to where they are written, when
/// that is inside the workspace; elsewhere they carry no modeline (`schema --out` writes a copy
/// for such trees).
#[test]
fn import_writes_the_schema_modeline_relative_to_the_output() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf();
    let input = root.join("tests/fixtures/perfmon/FOO/events/foo_core.json");
    let input = input.to_str().expect("UTF-8 path");
    let first_lines = |dir: &std::path::Path| {
        let file = std::fs::read_dir(dir)
            .expect("output directory")
            .flatten()
            .find(|e| e.path().extension().is_some_and(|x| x == "yaml"))
            .expect("a YAML file")
            .path();
        let text = std::fs::read_to_string(file).expect("readable");
        text.lines().take(2).map(str::to_owned).collect::<Vec<_>>()
    };

    std::fs::create_dir_all(root.join("target")).expect("target/");
    let inside = tempfile::tempdir_in(root.join("target")).expect("temp dir in target/");
    let out = xtask(&[
        "import-perfmon",
        input,
        "--out",
        inside.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lines = first_lines(inside.path());
    assert!(lines[0].starts_with("# @generated by `cargo xtask import-perfmon`"));
    let modeline = lines[1]
        .strip_prefix("# yaml-language-server: $schema=")
        .unwrap_or_else(|| panic!("no modeline: {lines:?}"));
    let schema = inside.path().join(modeline);
    assert!(schema.is_file(), "{} does not exist", schema.display());
    assert_eq!(
        schema.canonicalize().unwrap(),
        root.join("pmu-defs/schema/generation.schema.json")
            .canonicalize()
            .unwrap()
    );

    let outside = tempfile::tempdir().expect("temp dir");
    let out = xtask(&[
        "import-perfmon",
        input,
        "--out",
        outside.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lines = first_lines(outside.path());
    assert!(!lines[1].contains("yaml-language-server"), "{lines:?}");
}

// ---------------------------------------------------------------------------------------------
// import-perfmon on bad input: never a loss of what was generated before
// ---------------------------------------------------------------------------------------------

fn workspace() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// Every file below `dir` (relative path → bytes), and every sibling of `dir` whose name
/// starts with `.` (a staging directory left behind would show up here).
fn snapshot(dir: &std::path::Path) -> (BTreeMap<String, Vec<u8>>, Vec<String>) {
    fn walk(dir: &std::path::Path, rel: &str, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).expect("readable").flatten() {
            let name = format!("{rel}{}", e.file_name().to_string_lossy());
            if e.path().is_dir() {
                walk(&e.path(), &format!("{name}/"), out);
            } else {
                out.insert(name, std::fs::read(e.path()).expect("readable"));
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(dir, "", &mut files);
    let hidden = std::fs::read_dir(dir.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    (files, hidden)
}

/// An output directory holding a fresh import of the fixture corpus, a hand-written note and
/// a subdirectory.
fn imported_out(base: &std::path::Path) -> std::path::PathBuf {
    let out = base.join("out");
    let corpus = workspace().join("tests/fixtures/perfmon");
    let run = xtask(&[
        "import-perfmon",
        corpus.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    std::fs::write(out.join("NOTES.txt"), "hand-written\n").unwrap();
    std::fs::create_dir(out.join("extra")).unwrap();
    std::fs::write(out.join("extra/keep.yaml"), "# mine\n").unwrap();
    out
}

const HEADER: &str =
    "Family-model,Version,Filename,EventType,Core Type,Native Model ID,Core Role Name\n";

/// Each input with nothing to import, or with a path leading out of the corpus, exits 1 with a
/// message naming the cause, and leaves the previous output byte for byte.
#[test]
fn import_refuses_empty_or_escaping_input_and_keeps_the_output() {
    let base = tempfile::tempdir().expect("temp dir");
    let out = imported_out(base.path());
    let before = snapshot(&out);
    assert!(before.0.len() >= 7, "{:?}", before.0.keys());
    let stray =
        std::fs::read(workspace().join("tests/fixtures/perfmon/STRAY/events/stray_core.json"))
            .unwrap();

    let mut n = 0;
    let mut case = |what: &str, setup: &dyn Fn(&std::path::Path), want: &[&str]| {
        n += 1;
        let dir = base.path().join(format!("case{n}/corpus"));
        std::fs::create_dir_all(&dir).unwrap();
        setup(&dir);
        let run = xtask(&[
            "import-perfmon",
            dir.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let err = text(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{what}: {err}");
        for w in want {
            assert!(err.contains(w), "{what}: no `{w}` in:\n{err}");
        }
        assert!(err.contains("nothing written"), "{what}: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
        assert!(
            snapshot(&out) == before,
            "{what}: the output directory changed"
        );
    };

    case(
        "an empty directory",
        &|_| {},
        &["corpus: nothing to import: no mapfile.csv and no .json file below this directory"],
    );
    // `git clone` without `--recursive` leaves a submodule as an empty directory; a partial
    // checkout may keep the README only.
    case(
        "an uninitialised submodule",
        &|d| std::fs::write(d.join("README.md"), "commit abc1234\n").unwrap(),
        &["git submodule update --init"],
    );
    case(
        "a mapfile whose files are all missing",
        &|d| {
            std::fs::write(
                d.join("mapfile.csv"),
                format!(
                    "{HEADER}GenuineIntel-6-F1,V1,/A/events/a_core.json,core,,,\n\
                     GenuineIntel-6-F2,V1,/B/events/b_core.json,core,,,\n"
                ),
            )
            .unwrap()
        },
        &[
            "mapfile.csv: nothing to import: none of the 2 core file(s) mapfile.csv names is in the corpus",
            "mapfile.csv:2:1: core file `A/events/a_core.json` (for GenuineIntel-6-F1) is named on line 2 but is not in the corpus",
        ],
    );
    case(
        "a header-only mapfile",
        &|d| std::fs::write(d.join("mapfile.csv"), HEADER).unwrap(),
        &["mapfile.csv:1:1: nothing to import: mapfile.csv has its header and no rows"],
    );
    case(
        "a header-only mapfile beside a core file",
        &|d| {
            std::fs::write(d.join("mapfile.csv"), HEADER).unwrap();
            std::fs::write(d.join("s_core.json"), &stray).unwrap();
        },
        &["mapfile.csv has its header and no rows"],
    );
    case(
        "a mapfile row leading out of the corpus",
        &|d| {
            // The file exists beside the corpus: it must not be read.
            std::fs::write(d.parent().unwrap().join("x_core.json"), &stray).unwrap();
            std::fs::write(
                d.join("mapfile.csv"),
                format!("{HEADER}GenuineIntel-6-F1,V7,/../x_core.json,core,,,\n"),
            )
            .unwrap();
        },
        &["mapfile.csv:2:22: mapfile row names `/../x_core.json`: the path has a `..` component"],
    );
    case(
        "a core file that fails to import",
        &|d| std::fs::write(d.join("bad_core.json"), "{ \"Events\": [ }").unwrap(),
        &["bad_core.json:1:"],
    );
    #[cfg(unix)]
    case(
        "a mapfile naming a symbolic link out of the corpus",
        &|d| {
            let elsewhere = d.parent().unwrap().join("elsewhere_core.json");
            std::fs::write(&elsewhere, &stray).unwrap();
            std::fs::create_dir_all(d.join("A/events")).unwrap();
            std::os::unix::fs::symlink(&elsewhere, d.join("A/events/a_core.json")).unwrap();
            std::fs::write(
                d.join("mapfile.csv"),
                format!("{HEADER}GenuineIntel-6-F1,V7,/A/events/a_core.json,core,,,\n"),
            )
            .unwrap();
        },
        &[
            "mapfile.csv:2:1: core file `A/events/a_core.json` not read: it resolves to",
            "(through a symbolic link), outside",
        ],
    );
    #[cfg(unix)]
    case(
        "a directory link out of the corpus",
        &|d| {
            let elsewhere = d.parent().unwrap().join("elsewhere");
            std::fs::create_dir_all(&elsewhere).unwrap();
            std::fs::write(elsewhere.join("e_core.json"), &stray).unwrap();
            std::os::unix::fs::symlink(&elsewhere, d.join("linked")).unwrap();
        },
        &[
            "corpus/linked: resolves to",
            "outside the corpus directory; not read",
        ],
    );

    // A path that does not exist, too.
    let run = xtask(&[
        "import-perfmon",
        base.path().join("nope").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(text(&run.stderr).contains("nope: no such file or directory"));
    assert!(snapshot(&out) == before);
}

/// A good import replaces the generated files through a staging directory: stale models go,
/// hand-written files and subdirectories stay, nothing is left beside the output.
#[test]
fn import_swaps_in_the_new_files_and_keeps_foreign_entries() {
    let base = tempfile::tempdir().expect("temp dir");
    let out = imported_out(base.path());
    let before = snapshot(&out).0;
    // The same corpus without one core file.
    let corpus = base.path().join("corpus");
    let fixtures = workspace().join("tests/fixtures/perfmon");
    for f in [
        "mapfile.csv",
        "README.md",
        "FOO/events/foo_core.json",
        "OLD/events/Old_core.json",
        "HYB/events/hybrid_bigcore_core.json",
        "HYB/events/hybrid_smallcore_core.json",
    ] {
        let to = corpus.join(f);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(fixtures.join(f), to).unwrap();
    }
    let run = xtask(&[
        "import-perfmon",
        corpus.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let stdout = text(&run.stdout);
    assert!(
        stdout.contains(
            "stray.yaml (its source `STRAY/events/stray_core.json` is no longer listed in "
        ),
        "{stdout}"
    );
    let (after, hidden) = snapshot(&out);
    let mut want = before.clone();
    want.remove("stray.yaml");
    assert!(after == want, "{:?} != {:?}", after.keys(), want.keys());
    assert!(hidden.is_empty(), "left beside the output: {hidden:?}");

    // Into a directory that does not exist yet (its parent neither).
    let fresh = base.path().join("new/models");
    let run = xtask(&[
        "import-perfmon",
        corpus.to_str().unwrap(),
        "--out",
        fresh.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let (files, hidden) = snapshot(&fresh);
    assert_eq!(files.len(), 4, "{:?}", files.keys());
    assert!(hidden.is_empty(), "{hidden:?}");
}

/// A vendor's file validated on its own extends a shipped generation: the shipped definitions
/// are the base, only the file's problems (including those naming a shipped place, such as an
/// inherited per-counter array too short for the file's counters) are printed in full, and
/// the shipped files' acknowledged warnings are one line.
#[test]
fn validate_a_file_on_top_of_the_shipped_definitions() {
    let dir = tempfile::tempdir().unwrap();
    let narrow = "generation: vendor-zen-x\nextends: amd-perfmon-v2\nregisters:\n  - { name: PERF_CTR_CORE, msr: { count: 8 } }\n  - { name: PERF_EVT_SEL_CORE, msr: { count: 8 } }\n";
    let file = dir.path().join("zen-x.yaml");
    std::fs::write(&file, narrow).unwrap();
    let out = xtask(&["validate", file.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    for (array, register) in [
        ("OVF", "PERF_CNTR_GLOBAL_STATUS"),
        ("EN", "PERF_CNTR_GLOBAL_CTL"),
        ("CLR_OVF", "PERF_CNTR_GLOBAL_STATUS_CLR"),
        ("SET_OVF", "PERF_CNTR_GLOBAL_STATUS_SET"),
    ] {
        assert!(
            err.contains(&format!(
                "error[counter-count-mismatch]: field array `{array}` of `{register}` has 6 elements but `PERF_CTR_CORE` has 8 general-purpose counters in `vendor-zen-x`"
            )),
            "{err}"
        );
    }
    assert!(err.contains("zen-x.yaml:4:"), "{err}");
    assert!(err.contains("4 errors, 0 warnings"), "{err}");
    assert!(
        err.contains(
            " acknowledged warnings in the definitions (allow:), not shown; --verbose lists them"
        ) && !err.contains("counter-not-in-event")
            && !err.contains("note: the shipped definitions"),
        "{err}"
    );

    let wide = format!(
        "{narrow}  - {{ name: PERF_CNTR_GLOBAL_STATUS, fields: [{{ name: OVF, array: {{ count: 8 }} }}] }}\n  - {{ name: PERF_CNTR_GLOBAL_CTL, fields: [{{ name: EN, array: {{ count: 8 }} }}] }}\n  - {{ name: PERF_CNTR_GLOBAL_STATUS_CLR, fields: [{{ name: CLR_OVF, array: {{ count: 8 }} }}] }}\n  - {{ name: PERF_CNTR_GLOBAL_STATUS_SET, fields: [{{ name: SET_OVF, array: {{ count: 8 }} }}] }}\n"
    );
    std::fs::write(&file, wide).unwrap();
    let out = xtask(&["validate", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("ok: 1 generation(s) from the given paths (vendor-zen-x)"),
        "{}",
        text(&out.stdout)
    );

    // Without the base, the parent is unknown.
    let out = xtask(&["validate", "--no-base", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("amd-perfmon-v2"),
        "{}",
        text(&out.stderr)
    );
}

/// `N` of the line `note: N acknowledged warnings in the definitions (allow:), ...`.
fn acknowledged_count(line: &str) -> usize {
    let n = line
        .strip_prefix("note: ")
        .and_then(|l| l.split_once(" acknowledged warning"))
        .map(|(n, _)| n.replace(',', ""))
        .unwrap_or_else(|| panic!("not the acknowledged line: {line}"));
    n.parse().unwrap_or_else(|_| panic!("{line}"))
}

/// The main job on the shipped definitions: one line for their acknowledged warnings, then
/// where the site is; `--verbose` lists each warning in full with its reason. `validate` says
/// the same.
#[test]
fn gen_docs_on_the_shipped_definitions_prints_one_summary_line_and_the_site() {
    let dir = tempfile::tempdir().expect("temp dir");
    let site = dir.path().join("docs");
    let run = xtask(&["gen-docs", "--out", site.to_str().unwrap()]);
    let (out, err) = (text(&run.stdout), text(&run.stderr));
    assert_eq!(run.status.code(), Some(0), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "one summary line, no warning blocks:\n{err}"
    );
    assert!(
        lines[0].ends_with(
            " acknowledged warnings in the definitions (allow:), not shown; --verbose lists them"
        ),
        "{err}"
    );
    let n = acknowledged_count(lines[0]);
    assert!(n > 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with(&format!(
            "wrote the documentation site to {} (",
            site.display()
        )),
        "{out}"
    );
    assert!(
        lines[1].starts_with("open file://") && lines[1].ends_with("/index.html"),
        "{out}"
    );

    let run = xtask(&["gen-docs", "--verbose", "--out", site.to_str().unwrap()]);
    let err = text(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{err}");
    // Each in full, up to the per-code cap; the rest of a code counted in one line.
    let more: usize = err
        .lines()
        .filter_map(|l| {
            l.strip_prefix("note: and ")?
                .split(' ')
                .next()?
                .parse::<usize>()
                .ok()
        })
        .sum();
    assert_eq!(err.matches("warning[").count() + more, n, "{err}");
    assert_eq!(
        err.matches("= acknowledged (`allow:`): ").count() + more,
        n,
        "{err}"
    );
    assert!(
        err.ends_with(&format!("0 errors, {n} warnings ({n} acknowledged)\n")),
        "{err}"
    );
    assert!(!err.contains("not shown"), "{err}");

    let run = xtask(&["validate"]);
    assert_eq!(run.status.code(), Some(0));
    assert_eq!(
        text(&run.stderr),
        format!(
            "note: {n} acknowledged warnings in the definitions (allow:), not shown; --verbose lists them\n"
        )
    );
    assert!(text(&run.stdout).starts_with("ok: "));
    let run = xtask(&["validate", "--verbose"]);
    let err = text(&run.stderr);
    assert_eq!(err.matches("warning[").count() + more, n, "{err}");
}

/// A vendor's new file still gets every warning in full, beside the one line for the shipped
/// definitions' acknowledged ones; its own `allow:` makes it one line too.
#[test]
fn a_new_files_warnings_print_in_full() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("vendor.yaml");
    let body = "generation: vendor-v4-x\nextends: intel-v4\nevents:\n  - { name: STRAY.PDIST, event: 0xC0, counters: [1], pdist-counters: [0] }\n";
    std::fs::write(&file, body).unwrap();
    let run = xtask(&["validate", file.to_str().unwrap()]);
    let err = text(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning[counter-not-in-event]: event `STRAY.PDIST`: `pdist-counters` names general counter 0"),
        "{err}"
    );
    assert!(err.contains("vendor.yaml:4:13"), "{err}");
    assert!(
        err.contains(" acknowledged warnings in the definitions (allow:), not shown"),
        "{err}"
    );
    assert!(err.ends_with("0 errors, 1 warning\n"), "{err}");

    std::fs::write(
        &file,
        body.replace(
            "pdist-counters: [0] }",
            "pdist-counters: [0], allow: [{ code: counter-not-in-event, reason: as the vendor lists it }] }",
        ),
    )
    .unwrap();
    let run = xtask(&["validate", file.to_str().unwrap()]);
    let err = text(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let run = xtask(&["validate", "--verbose", file.to_str().unwrap()]);
    let err = text(&run.stderr);
    assert!(
        err.contains("= acknowledged (`allow:`): as the vendor lists it"),
        "{err}"
    );
}

/// `import-perfmon --reviewed FILE` writes the findings as `allow:` entries and counts them in
/// one line; without it (an output other than the shipped models' directory reads none), an
/// unreviewed warning is printed at the JSON event it comes from.
#[test]
fn import_writes_the_reviewed_findings() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("models");
    let corpus = workspace().join("tests/fixtures/perfmon");
    let reviewed = workspace().join("tests/fixtures/perfmon-reviewed.yaml");
    let run = xtask(&[
        "import-perfmon",
        corpus.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = text(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(
        err.contains("hybrid_smallcore_core.json:")
            && err.contains("event `INST_RETIRED.ANY`: `pdir-counters` names general counter 0"),
        "{err}"
    );
    // The PDIR finding, and the fixture cores' auxiliary MSRs, which no generation defines.
    assert!(
        err.contains("warning(s) about the imported data above"),
        "{err}"
    );
    assert!(err.contains("unknown-aux-msr"), "{err}");
    let small = std::fs::read_to_string(out.join("hybrid-smallcore.yaml")).unwrap();
    assert!(!small.contains("allow:"));

    let run = xtask(&[
        "import-perfmon",
        corpus.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--reviewed",
        reviewed.to_str().unwrap(),
    ]);
    let (stdout, err) = (text(&run.stdout), text(&run.stderr));
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(!err.contains("INST_RETIRED.ANY"), "{err}");
    assert!(
        stdout.contains("note: 1 acknowledged warning(s) about Intel's data, reviewed in"),
        "{stdout}"
    );
    let small = std::fs::read_to_string(out.join("hybrid-smallcore.yaml")).unwrap();
    assert!(
        small.contains(
            "allow: [{ code: counter-not-in-event, reason: \"The fixture names PDIR counter 0"
        ),
        "{small}"
    );
    let run = xtask(&[
        "import-perfmon",
        corpus.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--reviewed",
        reviewed.to_str().unwrap(),
        "--check",
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));

    // A bad findings file is an error at its place, and nothing is written.
    let bad = dir.path().join("bad.yaml");
    std::fs::write(
        &bad,
        "- { generation: intel-x, events: [A.B], code: field-overlap, reason: r }\n",
    )
    .unwrap();
    let run = xtask(&[
        "import-perfmon",
        corpus.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--reviewed",
        bad.to_str().unwrap(),
    ]);
    let err = text(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "bad.yaml:1:47: `field-overlap` is an error: only warnings can be acknowledged"
        ),
        "{err}"
    );
    assert!(err.contains("nothing written"), "{err}");
    assert_eq!(
        std::fs::read_to_string(out.join("hybrid-smallcore.yaml")).unwrap(),
        small
    );
}

// ---------------------------------------------------------------------------------------------
// import-perfmon removes only what it is sure is its own
// ---------------------------------------------------------------------------------------------

/// Copies the files `files` of the fixture corpus into `to`, with `mapfile` as its mapfile.csv
/// (the fixture's when `None`).
fn corpus_copy(to: &std::path::Path, files: &[&str], mapfile: Option<&str>) {
    let fixtures = workspace().join("tests/fixtures/perfmon");
    for f in files.iter().chain(&["README.md"]) {
        let dest = to.join(f);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(fixtures.join(f), dest).unwrap();
    }
    let map = match mapfile {
        Some(m) => m.to_owned(),
        None => std::fs::read_to_string(fixtures.join("mapfile.csv")).unwrap(),
    };
    std::fs::write(to.join("mapfile.csv"), map).unwrap();
}

fn import(input: &std::path::Path, out: &std::path::Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "import-perfmon",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    xtask(&args)
}

/// The generated models (files whose first line is the importer's) in `files`.
fn models(files: &BTreeMap<String, Vec<u8>>) -> Vec<&str> {
    files
        .iter()
        .filter(|(_, t)| t.starts_with(b"# @generated by `cargo xtask import-perfmon`"))
        .map(|(n, _)| n.as_str())
        .collect()
}

/// A single file, or a directory without a mapfile, is not a whole corpus: the other models
/// stay, each named with the reason; `--check` does not count them either.
#[test]
fn import_of_a_file_or_a_folder_without_mapfile_leaves_the_other_models() {
    let base = tempfile::tempdir().expect("temp dir");
    let out = imported_out(base.path());
    std::fs::write(out.join("mine.yaml"), "generation: mine\n").unwrap();
    let before = snapshot(&out).0;
    assert_eq!(models(&before).len(), 5, "{:?}", before.keys());

    let file = workspace().join("tests/fixtures/perfmon/FOO/events/foo_core.json");
    let nomap = base.path().join("nomap");
    std::fs::create_dir(&nomap).unwrap();
    std::fs::copy(&file, nomap.join("foo_core.json")).unwrap();
    for input in [&nomap, &file] {
        let run = import(input, &out, &[]);
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
        let stdout = text(&run.stdout);
        assert!(!stdout.contains("removed"), "{stdout}");
        for m in [
            "hybrid-bigcore.yaml",
            "hybrid-smallcore.yaml",
            "old.yaml",
            "stray.yaml",
        ] {
            let line = format!(
                "left {}: not produced by this import (the input is not a whole corpus: a directory with its mapfile.csv); pass --prune to remove it",
                out.join(m).display()
            );
            assert!(stdout.contains(&line), "{stdout}\nlacks: {line}");
        }
        let after = snapshot(&out).0;
        assert_eq!(models(&after), models(&before), "{}", input.display());
        assert!(after.contains_key("mine.yaml") && after.contains_key("NOTES.txt"));

        let run = import(input, &out, &["--check"]);
        let stdout = text(&run.stdout);
        assert_eq!(run.status.code(), Some(0), "{}{stdout}", text(&run.stderr));
        assert!(
            stdout.contains(&format!(
                "note: not checked: {}: not produced by this import (the input is not a whole corpus",
                out.join("old.yaml").display()
            )),
            "{stdout}"
        );
    }
    // Only a single file's own model is compared: nothing differs.
    let run = import(&file, &out, &["--check", "--prune"]);
    assert_eq!(run.status.code(), Some(1), "{}", text(&run.stdout));
    let stderr = text(&run.stderr);
    assert!(
        stderr.contains(&format!(
            "error: {} is not produced by this import and would be removed (--prune)",
            out.join("old.yaml").display()
        )),
        "{stderr}"
    );
    assert!(stderr.contains("error: 4 file(s) out of date"), "{stderr}");

    // More than five: one line per reason.
    for copy in ["old-a.yaml", "old-b.yaml"] {
        std::fs::copy(out.join("old.yaml"), out.join(copy)).unwrap();
    }
    let run = import(&file, &out, &[]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let stdout = text(&run.stdout);
    let line = format!(
        "left 6 generated files in {} not produced by this import (the input is not a whole corpus: a directory with its mapfile.csv); pass --prune to remove them",
        out.display()
    );
    assert!(stdout.contains(&line), "{stdout}\nlacks: {line}");
    assert_eq!(stdout.matches("left").count(), 1, "{stdout}");
}

/// A whole corpus removes the model whose source its mapfile no longer lists, and leaves one
/// whose source it still lists (a core file missing from a partial checkout); `--check` fails
/// on the first only.
#[test]
fn a_whole_corpus_removes_only_models_whose_source_it_no_longer_lists() {
    let base = tempfile::tempdir().expect("temp dir");
    let out = imported_out(base.path());
    let fixtures = workspace().join("tests/fixtures/perfmon");
    let map = std::fs::read_to_string(fixtures.join("mapfile.csv")).unwrap();
    // OLD dropped from the mapfile and the corpus; HYB's small core still listed but missing.
    let map: String = map
        .lines()
        .filter(|l| !l.contains("/OLD/"))
        .map(|l| format!("{l}\n"))
        .collect();
    let corpus = base.path().join("corpus");
    corpus_copy(
        &corpus,
        &[
            "FOO/events/foo_core.json",
            "HYB/events/hybrid_bigcore_core.json",
            "STRAY/events/stray_core.json",
        ],
        Some(&map),
    );

    let run = import(&corpus, &out, &["--check"]);
    assert_eq!(run.status.code(), Some(1), "{}", text(&run.stdout));
    let stderr = text(&run.stderr);
    assert!(
        stderr.contains(&format!(
            "error: {} is not produced by this import and would be removed (its source `OLD/events/Old_core.json` is no longer listed in {})",
            out.join("old.yaml").display(),
            corpus.join("mapfile.csv").display()
        )),
        "{stderr}"
    );
    assert!(stderr.contains("error: 1 file(s) out of date"), "{stderr}");

    let run = import(&corpus, &out, &[]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let stdout = text(&run.stdout);
    assert!(
        stdout.contains(&format!(
            "removed {} (its source `OLD/events/Old_core.json` is no longer listed in {})",
            out.join("old.yaml").display(),
            corpus.join("mapfile.csv").display()
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "left {}: not produced by this import (its source `HYB/events/hybrid_smallcore_core.json` is still listed in {} but was not imported); pass --prune to remove it",
            out.join("hybrid-smallcore.yaml").display(),
            corpus.join("mapfile.csv").display()
        )),
        "{stdout}"
    );
    let after = snapshot(&out).0;
    assert_eq!(
        models(&after),
        [
            "foo.yaml",
            "hybrid-bigcore.yaml",
            "hybrid-smallcore.yaml",
            "stray.yaml"
        ]
    );
    assert!(after.contains_key("NOTES.txt") && after.contains_key("extra/keep.yaml"));
}

/// Models of the other vendor's corpus in the same directory stay, both ways round.
#[test]
fn a_model_of_the_other_vendors_corpus_is_left() {
    let base = tempfile::tempdir().expect("temp dir");
    let out = imported_out(base.path());
    let intel = models(&snapshot(&out).0)
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>();
    let amd = workspace().join("tests/fixtures/perf-amd");
    let run = import(&amd, &out, &[]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let stdout = text(&run.stdout);
    assert!(!stdout.contains("removed"), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "left {}: not produced by this import (generated from Intel perfmon, not Linux perf's AMD lists); pass --prune to remove it",
            out.join("old.yaml").display()
        )),
        "{stdout}"
    );
    let both = snapshot(&out).0;
    let all: Vec<&str> = models(&both);
    for m in &intel {
        assert!(all.contains(&m.as_str()), "{m} removed: {all:?}");
    }
    assert!(all.contains(&"zen1.yaml"), "{all:?}");

    // And the Intel corpus again: the AMD models stay (more than five files: one summary line
    // per reason).
    let run = import(&workspace().join("tests/fixtures/perfmon"), &out, &[]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let stdout = text(&run.stdout);
    assert!(!stdout.contains("removed"), "{stdout}");
    assert_eq!(models(&snapshot(&out).0), all);
    let amd_models = all.len() - intel.len();
    let line = if amd_models > 5 {
        format!(
            "left {amd_models} generated files in {} not produced by this import (generated from Linux perf's AMD lists, not Intel perfmon); pass --prune to remove them",
            out.display()
        )
    } else {
        format!(
            "left {}: not produced by this import (generated from Linux perf's AMD lists, not Intel perfmon); pass --prune to remove it",
            out.join("zen1.yaml").display()
        )
    };
    assert!(stdout.contains(&line), "{stdout}\nlacks: {line}");
}

/// `--prune` removes every generated file the import did not produce, never a hand-written
/// one (no importer header), whatever its extension.
#[test]
fn prune_removes_generated_files_not_produced_and_never_hand_written_ones() {
    let base = tempfile::tempdir().expect("temp dir");
    let out = imported_out(base.path());
    std::fs::write(out.join("mine.yaml"), "# hand-written\ngeneration: mine\n").unwrap();
    // A file that mentions the header, but not as its first line.
    std::fs::write(
        out.join("notes.yaml"),
        "# about files starting with\n# @generated by `cargo xtask import-perfmon`\n",
    )
    .unwrap();
    let file = workspace().join("tests/fixtures/perfmon/FOO/events/foo_core.json");
    let run = import(&file, &out, &["--prune"]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let stdout = text(&run.stdout);
    for m in [
        "hybrid-bigcore.yaml",
        "hybrid-smallcore.yaml",
        "old.yaml",
        "stray.yaml",
    ] {
        let line = format!("removed {} (--prune)", out.join(m).display());
        assert!(stdout.contains(&line), "{stdout}\nlacks: {line}");
    }
    let (after, hidden) = snapshot(&out);
    assert_eq!(
        after.keys().collect::<Vec<_>>(),
        [
            "NOTES.txt",
            "extra/keep.yaml",
            "foo.yaml",
            "mine.yaml",
            "notes.yaml"
        ]
    );
    assert!(hidden.is_empty(), "{hidden:?}");
}
