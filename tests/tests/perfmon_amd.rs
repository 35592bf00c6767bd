//! The importer on a hand-written corpus in Linux perf's AMD layout
//! (`tests/fixtures/perf-amd/`: invented event names and sentences; mapfile rows are regular
//! expressions, one directory per family): `cpus:` from the patterns (first row wins), the
//! architectural generation from the importer's table or, for a directory it does not list,
//! the newest with a warning, core-PMU events only, the other PMUs' events and the metrics
//! counted, every error at its place, facts only, and the result loads and encodes.

use pmu_defs::encode::{Counter, Encoder, Request};
use pmu_import::{CoreModel, Import, Issue, Level};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/perf-amd")
}

fn import() -> &'static Import {
    static IMPORT: OnceLock<Import> = OnceLock::new();
    IMPORT.get_or_init(|| pmu_import::import_path(&fixtures()))
}

fn model(file: &str) -> &'static CoreModel {
    import()
        .models
        .iter()
        .find(|m| m.file_name == file)
        .unwrap_or_else(|| panic!("no model {file}"))
}

fn cpus(m: &CoreModel) -> Vec<&str> {
    m.yaml
        .lines()
        .filter_map(|l| l.strip_prefix("  - {family-model: "))
        .map(|l| l.split(',').next().unwrap())
        .collect()
}

fn short(i: &Issue) -> String {
    let file = Path::new(&i.file).file_name().unwrap().to_string_lossy();
    let dir = Path::new(&i.file)
        .parent()
        .and_then(|p| p.file_name())
        .map(|d| format!("{}/", d.to_string_lossy()))
        .unwrap_or_default();
    let dir = if dir == "perf-amd/" {
        String::new()
    } else {
        dir
    };
    format!(
        "{dir}{file}:{}:{}",
        i.line.unwrap_or(0),
        i.column.unwrap_or(0)
    )
}

/// A scratch corpus with the given files (relative path, contents).
fn corpus(name: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::Builder::new()
        .prefix(&format!("pmu-amd-{name}-"))
        .tempdir()
        .unwrap();
    for (rel, text) in files {
        let p = d.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    d
}

const MAP: &str = "Family-model,Version,Filename,EventType\n";

#[test]
fn one_generation_per_family_directory_with_its_cpus() {
    let imp = import();
    let files: Vec<&str> = imp.models.iter().map(|m| m.file_name.as_str()).collect();
    assert_eq!(files, ["zen1.yaml", "zen2.yaml", "zen9.yaml"]);
    // perf prints the family in decimal and the model in hex without padding; zen1's pattern
    // takes models 0-2F of family 23 (17h), zen2's the rest: the first matching row wins.
    let z1 = cpus(model("zen1.yaml"));
    assert_eq!(z1.len(), 0x30);
    assert_eq!(
        (z1[0], z1[0x2F]),
        ("AuthenticAMD-17-00", "AuthenticAMD-17-2F")
    );
    let z2 = cpus(model("zen2.yaml"));
    assert_eq!(z2.len(), 0x100 - 0x30);
    assert_eq!(
        (z2[0], z2[z2.len() - 1]),
        ("AuthenticAMD-17-30", "AuthenticAMD-17-FF")
    );
    assert_eq!(cpus(model("zen9.yaml")).len(), 0x100);
    assert!(
        model("zen1.yaml")
            .yaml
            .contains("\ngeneration: amd-zen1\nextends: amd-zen1-family\n")
    );
    assert!(model("zen1.yaml").yaml.contains("version: v2}"));
    // A directory no Zen family names extends the family naming the newest directory.
    assert!(
        model("zen9.yaml")
            .yaml
            .contains("\nextends: amd-zen4-family\n")
    );
    assert!(!model("zen9.yaml").arch.from_table);
    assert!(model("zen1.yaml").yaml.contains("\nsource: amdzen1\n"));
    // The README's commit.
    assert!(
        model("zen1.yaml").yaml.contains("commit 0f1e2d3c4b5a."),
        "{}",
        model("zen1.yaml").yaml
    );
}

#[test]
fn core_events_only_as_facts_the_rest_counted() {
    let y = &model("zen1.yaml").yaml;
    let events: Vec<&str> = y.lines().filter(|l| l.starts_with("  - {name:")).collect();
    assert_eq!(
        events,
        [
            "  - {name: fx_small, event: 0x03, umask: 0x00}",
            "  - {name: fx_wide.all, event: 0x1CF, umask: 0xFF}",
            "  - {name: fx_wide.low_half, event: 0x1CF, umask: 0x04}",
            "  - {name: fx_widget_turns, event: 0x76}",
        ]
    );
    assert!(y.contains(
        "# amdzen1: not imported: 1 events of other PMUs (1 L3PMC (amd_l3)), 1 metrics.\n"
    ));
    assert!(y.starts_with(pmu_import::HEADER));
    for sentence in [
        "Fixture sentence",
        "Another fixture",
        "Fixture L3",
        "Fixture metric",
        "nobody knows",
    ] {
        assert!(!y.contains(sentence), "{sentence}");
    }
    assert_eq!(
        import().notes,
        [
            "amdzen1: not imported: 1 events of other PMUs (1 L3PMC (amd_l3)), 1 metrics",
            "amdzen2: not imported: 1 events of other PMUs (1 DFPMC (amd_df)), 0 metrics",
        ]
    );
}

#[test]
fn warnings_say_where_and_why() {
    let imp = import();
    assert!(!imp.has_errors(), "{:?}", imp.issues);
    let got: Vec<(String, &str)> = imp
        .issues
        .iter()
        .map(|i| (short(i), i.message.as_str()))
        .collect();
    assert_eq!(got.len(), 3, "{got:#?}");
    assert!(imp.issues.iter().all(|i| i.level == Level::Warning));
    // In the order found: the first family's files, then the row of the unlisted family.
    assert_eq!(got[0].0, "amdzen1/cache.json:20:29");
    assert_eq!(got[0].1, "unknown key `BriefDescriptionTypo`; ignored");
    assert_eq!(got[1].0, "mapfile.csv:4:1");
    assert!(
        got[1]
            .1
            .contains("no AMD generation names `amdzen9` in its `perfmon-cores:`"),
        "{}",
        got[1].1
    );
    assert_eq!(got[2].0, "mapfile.csv:6:1");
    assert!(
        got[2]
            .1
            .contains("`amdgone` is named here but is not in the corpus")
    );
    assert_eq!((imp.skipped_rows, imp.missing_files), (1, 1));
}

#[test]
fn the_import_loads_encodes_and_is_deterministic() {
    let loaded = pmu_import::check_models(&import().models);
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    assert_eq!(
        loaded.diagnostics.len(),
        0,
        "{}",
        loaded.render_diagnostics()
    );
    let enc = Encoder::new(&loaded.model);
    let mut req = Request::new("fx_wide.low_half");
    req.counter = Some(Counter::General(1));
    let e = enc.encode("amd-zen1", &req).unwrap();
    assert_eq!(e.perf, "cpu/event=0x1cf,umask=4/");
    // AMD64 APM Vol. 2 §13.2.1: EventSelect[11:8] in bits 35:32, PerfEvtSel1 at C001_0202.
    assert_eq!(e.value & 0xF_0000_FFFF, (1 << 32) | 0x04CF);
    assert_eq!(e.address, Some(0xC001_0202));
    let again = pmu_import::import_path(&fixtures());
    let texts = |i: &Import| i.models.iter().map(|m| m.yaml.clone()).collect::<Vec<_>>();
    assert_eq!(texts(&again), texts(import()));
}

#[test]
fn bad_rows_and_lists_are_errors_at_their_place() {
    let d = corpus(
        "bad",
        &[
            (
                "mapfile.csv",
                &format!(
                    "{MAP}AuthenticAMD-23-([12],v1,amdzen1,core\nAuthenticAMD-1A-[0-9],v1,amdzen2,core\nAuthenticAMD-25-[[:xdigit:]]+,v1,amdzen3,core\n"
                ),
            ),
            (
                "amdzen3/a.json",
                "[\n  { \"EventName\": \"x_a\", \"EventCode\": \"0x1000\" },\n  { \"EventName\": \"x_b\", \"EventCode\": \"0x10\", \"UMask\": \"0x100\" }\n]\n",
            ),
            (
                "amdzen3/b.json",
                "[\n  { \"EventName\": \"x_c\", \"EventCode\": \"0x10\" },\n  { \"EventCode\": \"0x10\" }\n]\n",
            ),
            (
                "amdzen3/c.json",
                "[\n  { \"EventName\": \"x_c\", \"EventCode\": \"0x11\" },\n  { \"EventName\": \"x d\", \"EventCode\": \"0x11\" },\n  { \"EventName\": \"x_e\" }\n]\n",
            ),
            (
                "amdzen3/d.json",
                "[\n  { \"EventName\": \"x_f\", \"EventCode\": \"0x11\" ]\n",
            ),
        ],
    );
    let imp = pmu_import::import_path(d.path());
    let errors: Vec<(String, &str)> = imp
        .issues
        .iter()
        .filter(|i| i.level == Level::Error)
        .map(|i| (short(i), i.message.as_str()))
        .collect();
    let at = |place: &str, words: &str| {
        assert!(
            errors
                .iter()
                .any(|(p, m)| p.ends_with(place) && m.contains(words)),
            "no error at {place} with `{words}` in {errors:#?}"
        );
    };
    at("mapfile.csv:2:1", "is not a regular expression");
    at("mapfile.csv:3:1", "family in decimal");
    at(
        "a.json:2:38",
        "`EventCode` `0x1000` is not a number up to 0xfff",
    );
    at("a.json:3:55", "`UMask` `0x100` is not a number up to 0xff");
    at("b.json:3:3", "neither `EventName` nor `MetricName`");
    at(
        "c.json:2:1",
        "`x_c` is listed twice (first at amdzen3/b.json:2)",
    );
    at("c.json:3:18", "event name `x d` must be:");
    at("c.json:4:3", "event `x_e` has no `EventCode`");
    at("d.json:2:45", "malformed JSON");
    assert_eq!(errors.len(), 9, "{errors:#?}");
}
