//! The Intel perfmon importer (`pmu_import`, `cargo xtask import-perfmon`) on small
//! hand-written fixtures: every shape of Intel's lists, every error class, and the
//! guarantees (facts only, deterministic, loads cleanly on the architectural generations,
//! never panics).
//!
//! The fixture corpus is `tests/fixtures/perfmon/` (invented event names and sentences, in the
//! layout of Intel's perfmon repository); single-file cases are inline.

use pmu_defs::model::{CounterSet, Event, Generation};
use pmu_defs::{Loaded, Severity};
use pmu_import::{CoreModel, Import, Issue, Level, PerfmonFile};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/perfmon")
}

/// The fixture corpus, imported once.
fn import() -> &'static Import {
    static IMPORT: OnceLock<Import> = OnceLock::new();
    IMPORT.get_or_init(|| pmu_import::import_path(&fixtures()))
}

/// The fixture models loaded on top of the architectural generations.
fn loaded() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(|| pmu_import::check_models(&import().models))
}

fn model(file: &str) -> &'static CoreModel {
    import()
        .models
        .iter()
        .find(|m| m.file_name == file)
        .unwrap_or_else(|| panic!("no model {file}: {:?}", names(import())))
}

fn names(i: &Import) -> Vec<&str> {
    i.models.iter().map(|m| m.file_name.as_str()).collect()
}

fn generation(id: &str) -> &'static Generation {
    loaded()
        .model
        .generation(id)
        .unwrap_or_else(|| panic!("no generation {id}"))
}

fn event<'a>(g: &'a Generation, name: &str) -> &'a Event {
    g.event(name)
        .unwrap_or_else(|| panic!("{}: no event {name}", g.id))
}

fn set(general: &[u32], fixed: &[u32]) -> Option<CounterSet> {
    Some(CounterSet {
        general: general.to_vec(),
        fixed: fixed.to_vec(),
    })
}

/// Parses an inline file; returns the result and every issue.
fn parse(text: &str) -> (Option<PerfmonFile>, Vec<Issue>) {
    let mut issues = Vec::new();
    let f = pmu_import::parse_file("t.json", text, &mut issues);
    (f, issues)
}

fn errors(issues: &[Issue]) -> Vec<&Issue> {
    issues.iter().filter(|i| i.level == Level::Error).collect()
}

/// The one error; fails, listing every issue, unless there is exactly one.
#[track_caller]
fn one_error(text: &str) -> Issue {
    let (_, issues) = parse(text);
    let e = errors(&issues);
    assert_eq!(e.len(), 1, "expected one error, got: {issues:#?}");
    e[0].clone()
}

/// `file:line:col` of an issue.
fn at(i: &Issue) -> String {
    format!(
        "{}:{}:{}",
        i.file,
        i.line.map_or("-".into(), |l| l.to_string()),
        i.column.map_or("-".into(), |c| c.to_string())
    )
}

/// A wrapper file around some event objects.
fn wrap(events: &str) -> String {
    format!("{{\n  \"Header\": {{ \"Version\": \"1\" }},\n  \"Events\": [\n{events}\n  ]\n}}\n")
}

/// A temporary directory for tests that need files on disk.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pmu-perfmon-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

// ---------------------------------------------------------------------------------------------
// The fixture corpus: every shape
// ---------------------------------------------------------------------------------------------

#[test]
fn the_fixture_corpus_imports_with_the_expected_warnings_only() {
    let imp = import();
    assert!(!imp.has_errors(), "{:#?}", imp.issues);
    assert_eq!(
        names(imp),
        [
            "foo.yaml",
            "hybrid-bigcore.yaml",
            "hybrid-smallcore.yaml",
            "old.yaml",
            "stray.yaml"
        ]
    );
    assert_eq!(
        imp.files_read, 5,
        "the uncore file in the mapfile is not read"
    );
    assert_eq!(
        imp.skipped_rows, 3,
        "uncore, metrics and a second uncore row"
    );
    assert_eq!(imp.missing_files, 1);
    let warnings: Vec<String> = imp.issues.iter().map(|i| i.to_string()).collect();
    let has = |needle: &str| warnings.iter().filter(|w| w.contains(needle)).count();
    // The missing file, with its mapfile line.
    assert_eq!(
        has(
            "mapfile.csv:10:1: core file `GONE/events/gone_core.json` (for GenuineIntel-6-F4) is named on line 10 but is not in the corpus"
        ),
        1,
        "{warnings:#?}"
    );
    // Unknown keys: once per key per file, at the first use, with a count.
    assert_eq!(
        has(
            "hybrid_smallcore_core.json:47:13: unknown event key `FutureKey` (in `SMALL_RETIRED.ALL` and 1 more); ignored"
        ),
        1,
        "{warnings:#?}"
    );
    assert_eq!(
        has("unknown event key `AnotherNewKey` (in `SMALL_LOADS.L1_MISS`)"),
        1
    );
    // Files the version table does not know: one warning each, naming the guess.
    assert_eq!(
        has("is not in the table of architectural perfmon versions"),
        5
    );
    assert_eq!(has("`foo_core` is not in the table"), 1);
    // A core file the mapfile does not name.
    assert_eq!(
        has("stray_core.json: a core event file that mapfile.csv does not name"),
        1
    );
    assert_eq!(warnings.len(), 1 + 2 + 5 + 1, "{warnings:#?}");
    assert!(imp.issues.iter().all(|i| i.level == Level::Warning));
}

#[test]
fn fixture_models_load_on_the_architectural_generations() {
    let l = loaded();
    assert!(!l.has_errors(), "{}", l.render_diagnostics());
    // The fixture cores have no microarchitecture generation, so their events' auxiliary
    // MSRs name no register: one `unknown-aux-msr` per event and MSR.
    assert_unknown_aux_msrs(l);
    // The one other warning is the fixture's deliberate PDIR counter outside the event's
    // counters (as a few of Intel's lists have: a general counter for a fixed-counter event).
    let warnings: Vec<_> = l
        .diagnostics
        .iter()
        .filter(|d| d.code != "unknown-aux-msr")
        .collect();
    assert_eq!(warnings.len(), 1, "{}", l.render_diagnostics());
    assert_eq!(warnings[0].code, "counter-not-in-event");
    assert_eq!(warnings[0].severity, Severity::Warning);
    assert_eq!(
        warnings[0].message,
        "event `INST_RETIRED.ANY`: `pdir-counters` names general counter 0, which is not one of the counters that count it"
    );
    assert_eq!(
        l.sources.name(warnings[0].span().file),
        "intel/models/hybrid-smallcore.yaml"
    );
    for m in &import().models {
        let g = generation(&m.id);
        assert_eq!(
            g.extends.as_deref(),
            Some(format!("intel-v{}", m.arch.version).as_str())
        );
        // Inherited architectural events plus every imported one.
        let own = g.events.iter().filter(|e| e.since == g.id).count();
        assert_eq!(own, m.events, "{}", m.id);
        assert_eq!(m.events, m.json_events, "{}", m.id);
        assert_eq!(g.source.as_deref(), Some(m.source.as_str()));
    }
}

#[test]
fn generation_ids_versions_and_cpus() {
    let ids: Vec<(&str, u8)> = import()
        .models
        .iter()
        .map(|m| (m.id.as_str(), m.arch.version))
        .collect();
    assert_eq!(
        ids,
        [
            ("intel-foo", 3),              // AnyThread
            ("intel-hybrid-bigcore", 6),   // UMaskExt / Equal
            ("intel-hybrid-smallcore", 6), // Equal
            ("intel-old", 2),              // fixed counters only
            ("intel-stray", 1),            // nothing later
        ]
    );
    assert!(import().models.iter().all(|m| !m.arch.from_table));

    let foo = generation("intel-foo");
    let fms: Vec<&str> = foo.cpus.iter().map(|c| c.family_model.as_str()).collect();
    assert_eq!(fms, ["GenuineIntel-6-F1", "GenuineIntel-6-F5"]);
    assert_eq!(foo.cpus[0].version.as_deref(), Some("V7"));
    assert_eq!(foo.cpus[0].core_type, None);
    assert_eq!(foo.source.as_deref(), Some("FOO/events/foo_core.json"));

    let old = generation("intel-old");
    assert_eq!(old.cpus[0].family_model, "GenuineIntel-6-F2-[0123]");

    // Hybrid parts: one generation per core type, with the mapfile's core facts; a file
    // named by a hybrid row and a plain core row lists both.
    let big = generation("intel-hybrid-bigcore");
    assert_eq!(big.cpus.len(), 1);
    assert_eq!(big.cpus[0].core_type, Some(0x40));
    assert_eq!(big.cpus[0].native_model_id, Some(1));
    assert_eq!(big.cpus[0].core_role.as_deref(), Some("Core"));
    let small = generation("intel-hybrid-smallcore");
    let small_cpus: Vec<(&str, Option<u8>)> = small
        .cpus
        .iter()
        .map(|c| (c.family_model.as_str(), c.core_type))
        .collect();
    assert_eq!(
        small_cpus,
        [
            ("GenuineIntel-6-F3", Some(0x20)),
            ("GenuineIntel-6-F6", None)
        ]
    );

    // Not named by the mapfile: no `cpus`.
    assert!(generation("intel-stray").cpus.is_empty());
    // `cpus` and `source` are not inherited by the architectural generations' children or
    // parents.
    assert!(generation("intel-v6").cpus.is_empty());
    assert!(generation("intel-v6").source.is_none());
}

#[test]
fn wrapper_shape_codes_counters_and_flags() {
    let g = generation("intel-foo");
    // Mixed hex case ("0xd0", "0X81"), "0" and "0x00" MSR indexes meaning "none".
    let loads = event(g, "FIX_LOADS.ALL");
    assert_eq!((loads.event, loads.umask), (0xD0, 0x81));
    assert_eq!(loads.msr, None);
    assert_eq!(loads.pebs, Some(1));
    assert!(loads.data_la && loads.l1_hit_indication && loads.deprecated);
    assert_eq!(loads.errata, ["FIX1", "FIX2"]);
    assert_eq!(loads.counters_ht_off, set(&[0, 1, 2, 3], &[]));
    assert_eq!(loads.sample_after, Some(100003));

    let cycles = event(g, "FIX_CYCLES.THREAD_ANY");
    assert!(cycles.any);
    assert_eq!(cycles.counters, [0, 1, 2, 3]);
    assert_eq!(cycles.counters_ht_off, set(&[0, 1, 2, 3, 4, 5, 6, 7], &[]));
    assert!(cycles.errata.is_empty(), "\"null\" is no erratum");
    assert_eq!(cycles.pebs, Some(0));

    // "Fixed counter 0" in Counter and CounterHTOff; Errata "0" is none.
    let inst = g
        .events
        .iter()
        .find(|e| e.name == "INST_RETIRED.ANY" && e.since == g.id)
        .unwrap();
    assert_eq!(inst.fixed, Some(0));
    assert!(inst.counters.is_empty());
    assert_eq!(inst.counters_ht_off, set(&[], &[0]));
    assert!(inst.errata.is_empty());

    // Comma lists in EventCode and MSRIndex, with and without spaces: one MSR per code.
    for name in ["FIX_OFFCORE.DEMAND_READ.ANY", "FIX_OFFCORE.SPACED_LISTS"] {
        let e = event(g, name);
        assert_eq!(
            (e.event, e.alt_events.as_slice()),
            (0xB7, &[0xBB][..]),
            "{name}"
        );
        let msr = e.msr.as_ref().unwrap();
        assert_eq!(
            (msr.index, msr.alt_indexes.as_slice()),
            (0x1A6, &[0x1A7][..])
        );
        assert!(e.offcore);
        let alts = e.alternatives();
        assert_eq!(alts.len(), 2);
        assert_eq!((alts[1].event, alts[1].msr_index), (0xBB, Some(0x1A7)));
    }
    assert_eq!(
        event(g, "FIX_OFFCORE.DEMAND_READ.ANY")
            .msr
            .as_ref()
            .unwrap()
            .value,
        0x10001
    );

    // Load latency (0x3F6) and front-end (0x3F7) auxiliary MSRs.
    let lat = event(g, "FIX_LATENCY.ABOVE_8");
    let msr = lat.msr.as_ref().unwrap();
    assert_eq!((msr.index, msr.value), (0x3F6, 8));
    assert!(lat.taken_alone);
    assert_eq!(lat.pebs, Some(2));
    assert_eq!(lat.counters, [3]);
    let fe = event(g, "FIX_FRONTEND.MISS");
    assert_eq!(
        fe.msr.as_ref().map(|m| (m.index, m.value)),
        Some((0x3F7, 0x11))
    );

    let stalls = event(g, "FIX_UOPS.STALL_EDGES");
    assert_eq!((stalls.cmask, stalls.inv, stalls.edge), (1, true, true));
    assert_eq!(stalls.counters, [0, 2, 3]);
    let misc = event(g, "FIX_MISC.STORE_FLAGS");
    assert!(misc.precise_store && misc.ellc);
    // Keys a list does not state stay "not stated".
    assert_eq!(
        (misc.pebs, misc.precise, misc.speculative),
        (None, None, None)
    );
    assert_eq!(misc.pebs_counters, None);
}

#[test]
fn bare_array_numbers_and_fixed_counters_numbered_from_one() {
    let g = generation("intel-old");
    // The oldest lists say "Fixed counter 1" for INST_RETIRED.ANY (fixed counter 0 in the SDM).
    let inst = g
        .events
        .iter()
        .find(|e| e.name == "INST_RETIRED.ANY" && e.since == g.id)
        .unwrap();
    assert_eq!(inst.fixed, Some(0));
    assert_eq!(event(g, "OLD_CYCLES.REF").fixed, Some(2));
    assert!(
        model("old.yaml")
            .yaml
            .contains("numbers the fixed counters from 1")
    );
    // "0x0" codes, a unit-mask list with one MSR for both, JSON numbers and literals.
    let ocr = event(g, "OLD_OFFCORE.ANY");
    assert_eq!((ocr.umask, ocr.alt_umasks.as_slice()), (1, &[2][..]));
    let msr = ocr.msr.as_ref().unwrap();
    assert_eq!((msr.index, msr.alt_indexes.len()), (0x1A6, 0));
    assert!(ocr.offcore, "JSON number 1");
    let nums = event(g, "OLD_RETIRED.NUMBERS");
    assert_eq!(nums.event, 192);
    assert_eq!(nums.sample_after, Some(100003));
    assert!(!nums.inv);
    assert_eq!(nums.pebs, None, "JSON null is not stated");
    assert_eq!(nums.pebs_counters, set(&[0], &[]));
}

#[test]
fn version_6_shapes_and_wider_counter_sets() {
    let big = generation("intel-hybrid-bigcore");
    assert_eq!((big.general_counters(), big.fixed_counters()), (10, 4));
    let br = event(big, "BIG_BRANCH.MISP_COND");
    assert_eq!(br.umask2, Some(1), "UMaskExt");
    assert_eq!(br.counters, (0..10).collect::<Vec<_>>());
    assert_eq!(br.pdist_counters, set(&[0, 1], &[]));
    assert_eq!((br.precise, br.speculative), (Some(true), Some(false)));
    assert_eq!(br.collect_pebs_record, Some(2));
    let eq = event(big, "BIG_STALLS.EXACTLY_4");
    assert!(eq.eq, "Equal");
    assert_eq!(eq.cmask, 4);
    assert_eq!(eq.pdist_counters, set(&[], &[]), "\"NA\" is an empty set");
    // PEBScounters / PDISTCounter 32+n are fixed counter n.
    let inst = big
        .events
        .iter()
        .find(|e| e.name == "INST_RETIRED.ANY" && e.since == big.id)
        .unwrap();
    assert_eq!(inst.pebs_counters, set(&[], &[0]));
    assert_eq!(inst.pdist_counters, set(&[], &[0]));
    let slots = event(big, "BIG_SLOTS.ALL");
    assert_eq!(slots.fixed, Some(3));
    assert_eq!(slots.pebs_counters, set(&[], &[3]));
    assert_eq!(slots.umask2, Some(0), "\"0X00\"");
    let ocr = event(big, "BIG_OCR.READS.ANY_RESPONSE");
    assert_eq!((ocr.event, ocr.alt_events.as_slice()), (0x2A, &[0x2B][..]));
    assert_eq!(ocr.msr.as_ref().unwrap().value, 0x10003C0001);

    let small = generation("intel-hybrid-smallcore");
    assert_eq!((small.general_counters(), small.fixed_counters()), (8, 7));
    let ret = event(small, "SMALL_TOPDOWN.RETIRING");
    assert_eq!(ret.fixed, Some(6));
    assert_eq!(ret.pebs_counters, set(&[], &[6]));
    assert_eq!(ret.pdir_counters, set(&[], &[]), "\"na\"");
    let inst = small
        .events
        .iter()
        .find(|e| e.name == "INST_RETIRED.ANY" && e.since == small.id)
        .unwrap();
    assert_eq!(inst.pdir_counters, set(&[0], &[]));
    assert_eq!(inst.umask2, None, "no UMaskExt key");
}

/// Every per-counter bit array of the global registers, and every block of the fixed-counter
/// control register, has one element per counter (SDM: general counter n is bit n, fixed
/// counter n bit 32 + n, fixed block n at bits 4n+3:4n).
#[test]
fn widened_models_keep_every_per_counter_array_in_step() {
    for m in &import().models {
        let g = generation(&m.id);
        let (gp, fx) = (g.general_counters(), g.fixed_counters());
        assert_eq!((gp, fx), m.counters, "{}", m.id);
        for name in ["IA32_PMC", "IA32_A_PMC", "IA32_PERFEVTSEL"] {
            assert_eq!(g.register(name).unwrap().msr.count, gp, "{} {name}", m.id);
        }
        for r in g
            .registers
            .iter()
            .filter(|r| r.name.starts_with("IA32_PERF_GLOBAL"))
        {
            for f in r.fields.iter().filter(|f| f.array.is_some()) {
                let want = match f.bits[0].lsb {
                    0 => gp,
                    32 => fx,
                    other => panic!("{} {}.{}: array at bit {other}", m.id, r.name, f.name),
                };
                assert_eq!(f.count(), want, "{} {}.{}", m.id, r.name, f.name);
            }
        }
        if let Some(ctl) = g.register("IA32_FIXED_CTR_CTRL") {
            for f in ctl.fields.iter().filter(|f| f.array.is_some()) {
                assert_eq!(f.count(), fx, "{} {}", m.id, f.name);
            }
        }
    }
    // Counters 8 and 9 and fixed counters 4 to 6 continue the architectural families.
    let big = generation("intel-hybrid-bigcore");
    assert_eq!(
        big.register("IA32_PMC").unwrap().addresses[8..],
        [0xC9, 0xCA]
    );
    assert_eq!(
        big.register("IA32_PERFEVTSEL").unwrap().addresses[8..],
        [0x18E, 0x18F]
    );
    let small = generation("intel-hybrid-smallcore");
    assert_eq!(
        small.register("IA32_FIXED_CTR").unwrap().addresses[4..],
        [0x30D, 0x30E, 0x30F]
    );
}

#[test]
fn output_is_facts_only_deterministic_and_sorted() {
    let again = pmu_import::import_path(&fixtures());
    assert_eq!(
        import().models,
        again.models,
        "two imports of the same input differ"
    );
    // No description sentence of any fixture file reaches the output.
    let mut sentences = Vec::new();
    for m in &import().models {
        let text = std::fs::read_to_string(fixtures().join(&m.source)).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let events = v.get("Events").unwrap_or(&v).as_array().unwrap().clone();
        for e in events {
            for k in ["BriefDescription", "PublicDescription"] {
                if let Some(s) = e.get(k).and_then(|s| s.as_str()) {
                    sentences.push(s.to_owned());
                }
            }
        }
    }
    assert!(sentences.len() >= 30, "{}", sentences.len());
    for m in &import().models {
        for s in &sentences {
            assert!(!m.yaml.contains(s.as_str()), "{} copies {s:?}", m.file_name);
        }
        assert!(!m.yaml.contains("Fixture sentence"), "{}", m.file_name);
        assert!(
            !m.yaml.contains("Fixture public sentence"),
            "{}",
            m.file_name
        );
        // Events sorted by name, one per line.
        let names: Vec<&str> = m
            .yaml
            .lines()
            .skip_while(|l| *l != "events:")
            .filter_map(|l| l.strip_prefix("  - {name: "))
            .map(|l| l.split(',').next().unwrap().trim_matches('"'))
            .collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted, "{}", m.file_name);
        assert_eq!(names.len(), m.events, "{}", m.file_name);
    }
    // The header: generated, from where, under which license, not to be edited.
    let foo = &model("foo.yaml").yaml;
    let header: Vec<&str> = foo.lines().take_while(|l| l.starts_with('#')).collect();
    assert!(header[0].starts_with(pmu_import::HEADER));
    assert!(header[0].contains("DO NOT EDIT"));
    assert!(header[1].contains("FOO/events/foo_core.json"), "{header:?}");
    assert!(header[1].contains("commit abc1234"), "{header:?}");
    assert!(
        header[1].contains("event list version 7 (01/02/2025)"),
        "{header:?}"
    );
    assert!(header[2].contains("BSD 3-Clause"), "{header:?}");
}

#[test]
fn a_single_file_finds_its_mapfile_and_gives_the_same_generation() {
    let one = pmu_import::import_path(&fixtures().join("HYB/events/hybrid_bigcore_core.json"));
    assert!(!one.has_errors(), "{:#?}", one.issues);
    assert_eq!(one.models.len(), 1);
    assert_eq!(one.models[0], *model("hybrid-bigcore.yaml"));
}

// ---------------------------------------------------------------------------------------------
// Reviewed findings: `allow:` entries written from a hand-edited file
// ---------------------------------------------------------------------------------------------

/// The fixture corpus's reviewed findings (`tests/fixtures/perfmon-reviewed.yaml`), parsed.
fn reviewed() -> pmu_import::Reviewed {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/perfmon-reviewed.yaml"),
    )
    .unwrap();
    let mut issues = Vec::new();
    let r = pmu_import::parse_reviewed("perfmon-reviewed.yaml", &text, &mut issues);
    assert!(issues.is_empty(), "{issues:#?}");
    r
}

const REVIEWED_REASON: &str = "The fixture names PDIR counter 0 for a fixed-counter event on purpose, as a few of Intel's lists do.";

#[test]
fn reviewed_findings_become_allow_entries_the_loader_acknowledges() {
    let r = reviewed();
    assert_eq!(r.entries.len(), 1);
    let e = &r.entries[0];
    assert_eq!(e.generation, "intel-hybrid-smallcore");
    assert_eq!(e.events, [("INST_RETIRED.ANY".to_owned(), (4, 12))]);
    assert_eq!(e.code, "counter-not-in-event");
    // A folded reason is one line.
    assert_eq!(e.reason, REVIEWED_REASON);
    assert_eq!(e.at, (3, 3));

    let imp = pmu_import::import_path_reviewed(&fixtures(), &r);
    assert!(!imp.has_errors(), "{:#?}", imp.issues);
    assert_eq!(imp.issues, import().issues, "no issue of its own");
    // Only the reviewed event's line changes, by its `allow:` at the end.
    for m in &imp.models {
        let plain = model(&m.file_name);
        if m.file_name != "hybrid-smallcore.yaml" {
            assert_eq!(m, plain);
            continue;
        }
        let changed: Vec<(&str, &str)> = m
            .yaml
            .lines()
            .zip(plain.yaml.lines())
            .filter(|(a, b)| a != b)
            .collect();
        assert_eq!(m.yaml.lines().count(), plain.yaml.lines().count());
        assert_eq!(changed.len(), 1, "{changed:#?}");
        let (with, without) = changed[0];
        assert!(
            without.starts_with("  - {name: INST_RETIRED.ANY,"),
            "{without}"
        );
        assert_eq!(
            with,
            format!(
                "{}, allow: [{{code: counter-not-in-event, reason: \"{REVIEWED_REASON}\"}}]}}",
                without.strip_suffix('}').unwrap()
            )
        );
        assert_eq!(m.origins, plain.origins);
    }

    // The loader reads it: the fixture's one warning is acknowledged, with the reason (besides
    // the auxiliary MSRs no generation of the fixture cores defines).
    let l = pmu_import::check_models(&imp.models);
    assert!(!l.has_errors(), "{}", l.render_diagnostics());
    assert_unknown_aux_msrs(&l);
    let rest: Vec<_> = l
        .diagnostics
        .iter()
        .filter(|d| d.code != "unknown-aux-msr")
        .collect();
    assert_eq!(rest.len(), 1, "{}", l.render_diagnostics_verbose());
    let d = rest[0];
    assert_eq!(d.code, "counter-not-in-event");
    assert_eq!(d.acknowledged.as_deref(), Some(REVIEWED_REASON));
    // Rendered: the acknowledged one is a line, the unacknowledged auxiliary-MSR warnings are
    // shown in full.
    let text = l.render_diagnostics();
    assert!(
        text.contains(
            "note: 1 acknowledged warning in the definitions (allow:), not shown; --verbose lists them\n"
        ),
        "{text}"
    );
    assert!(!text.contains("counter-not-in-event"), "{text}");
    let g = l.model.generation("intel-hybrid-smallcore").unwrap();
    let allow = &event(g, "INST_RETIRED.ANY").allow;
    assert_eq!(allow.len(), 1);
    assert_eq!(
        (allow[0].code.as_str(), allow[0].reason.as_str()),
        ("counter-not-in-event", REVIEWED_REASON)
    );

    // Importing one file applies the same entry; without findings nothing changes.
    let one = pmu_import::import_path_reviewed(
        &fixtures().join("HYB/events/hybrid_smallcore_core.json"),
        &r,
    );
    assert_eq!(
        one.models[0].yaml,
        imp.models
            .iter()
            .find(|m| m.file_name == "hybrid-smallcore.yaml")
            .unwrap()
            .yaml
    );
    let none = pmu_import::import_path_reviewed(&fixtures(), &pmu_import::Reviewed::default());
    assert_eq!(none.models, import().models);
}

/// An entry that matches nothing in the import is a warning at its place; one whose finding is
/// gone from the data is the loader's `unused-allow`.
#[test]
fn stale_reviewed_findings_are_reported_where_they_are_written() {
    let text = "\
- generation: intel-hybrid-smallcore
  events: [INST_RETIRED.ANY, NO_SUCH.EVENT]
  code: counter-not-in-event
  reason: the fixture's PDIR counter
- generation: intel-gone
  events: [X.Y]
  code: counter-not-in-event
  reason: its source is gone
- generation: intel-hybrid-bigcore
  events: [BIG_SLOTS.ALL]
  code: counter-not-in-event
  reason: fixed in a later list
";
    let mut issues = Vec::new();
    let r = pmu_import::parse_reviewed("r.yaml", text, &mut issues);
    assert!(issues.is_empty(), "{issues:#?}");
    let imp = pmu_import::import_path_reviewed(&fixtures(), &r);
    assert!(!imp.has_errors(), "{:#?}", imp.issues);
    let mine: Vec<String> = imp
        .issues
        .iter()
        .filter(|i| i.file == "r.yaml")
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        mine,
        [
            "warning: r.yaml:2:30: `intel-hybrid-smallcore` has no event `NO_SUCH.EVENT` (is it gone from Intel's list?); the reviewed finding is unused",
            "warning: r.yaml:5:3: reviewed finding for `intel-gone`, which this import does not write (is its source gone?); the entry is unused",
        ]
    );
    // A single file leaves the other generations' entries alone.
    let one = pmu_import::import_path_reviewed(
        &fixtures().join("HYB/events/hybrid_smallcore_core.json"),
        &r,
    );
    let mine: Vec<&Issue> = one.issues.iter().filter(|i| i.file == "r.yaml").collect();
    assert_eq!(mine.len(), 1, "{mine:#?}");
    assert!(mine[0].message.contains("NO_SUCH.EVENT"));

    // The bigcore event has no such warning: the loader says the entry acknowledges nothing,
    // at the JSON event it comes from.
    let l = pmu_import::check_models(&imp.models);
    let unused: Vec<_> = l
        .diagnostics
        .iter()
        .filter(|d| d.code == "unused-allow")
        .collect();
    assert_eq!(unused.len(), 1, "{}", l.render_diagnostics());
    assert_eq!(
        unused[0].message,
        "event `BIG_SLOTS.ALL` acknowledges `counter-not-in-event`, but it has no such warning"
    );
    let located = pmu_import::json_locations(&imp.models, &l);
    let (_, at) = located
        .iter()
        .find(|(d, _)| d.code == "unused-allow")
        .unwrap();
    let at = at.as_ref().expect("located at the JSON event").to_string();
    assert!(
        at.starts_with("warning: ")
            && at.contains("hybrid_bigcore_core.json:")
            && at.ends_with("[unused-allow]"),
        "{at}"
    );
}

#[test]
fn bad_reviewed_findings_are_errors_at_their_place() {
    let cases: &[(&str, &str)] = &[
        (
            "- { generation: intel-x, events: [A.B], code: field-overlap, reason: r }\n",
            "error: r.yaml:1:47: `field-overlap` is an error: only warnings can be acknowledged",
        ),
        (
            "- { generation: intel-x, events: [A.B], code: counter-not-in-evnt, reason: r }\n",
            "error: r.yaml:1:47: `counter-not-in-evnt` is not a diagnostic code; help: did you mean `counter-not-in-event`?",
        ),
        (
            "- { generation: intel-x, events: [A.B], code: counter-not-in-event, reason: '  ' }\n",
            "error: r.yaml:1:77: a reviewed finding with an empty reason",
        ),
        (
            "- { generation: intel-x, events: [A.B], code: counter-not-in-event }\n",
            "error: r.yaml:1:3: reviewed finding is missing required key `reason`",
        ),
        (
            "- { generation: Intel_X, events: [A.B], code: counter-not-in-event, reason: r }\n",
            "error: r.yaml:1:17: ",
        ),
        (
            "- { generation: intel-x, events: [A.B], code: counter-not-in-event, reason: r, why: r }\n",
            "error: r.yaml:1:80: unknown key `why` in reviewed finding",
        ),
        (
            "- { generation: intel-x, events: [A.B], code: counter-not-in-event, reason: r }\n\
             - { generation: intel-x, events: [C.D, A.B], code: counter-not-in-event, reason: s }\n",
            "error: r.yaml:2:40: `A.B` of `intel-x` is reviewed for `counter-not-in-event` twice",
        ),
        (
            "{ generation: intel-x }\n",
            "error: r.yaml:1:1: expected a sequence of reviewed findings",
        ),
    ];
    for (text, want) in cases {
        let mut issues = Vec::new();
        let _ = pmu_import::parse_reviewed("r.yaml", text, &mut issues);
        let errors: Vec<String> = issues
            .iter()
            .filter(|i| i.level == Level::Error)
            .map(ToString::to_string)
            .collect();
        assert_eq!(errors.len(), 1, "{text}: {errors:#?}");
        assert!(
            errors[0].starts_with(want),
            "{text}: {} does not start with {want}",
            errors[0]
        );
    }
}

#[test]
fn a_directory_without_a_mapfile_imports_every_json_file_without_cpus() {
    let dir = temp_dir("nomap");
    std::fs::copy(
        fixtures().join("STRAY/events/stray_core.json"),
        dir.join("lone_core.json"),
    )
    .unwrap();
    let imp = pmu_import::import_path(&dir);
    assert!(!imp.has_errors(), "{:#?}", imp.issues);
    assert_eq!(names(&imp), ["lone.yaml"]);
    assert!(!imp.models[0].yaml.contains("cpus:"));
    assert!(
        imp.issues
            .iter()
            .any(|i| i.message.contains("no mapfile.csv here"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Intel's mapfile writes the family in decimal, as perf prints it (`GenuineIntel-18-1` is
/// Nova Lake, family 12H: Linux `INTEL_NOVALAKE` is `IFM(18, 0x01)`); `cpus:` reads family and
/// model in hex, so the importer writes `GenuineIntel-12-1`, and detection then matches family
/// 12H, not 18H.
#[test]
fn mapfile_families_are_decimal_and_cpus_families_hex() {
    assert_eq!(
        pmu_import::family_in_hex("GenuineIntel-18-1"),
        "GenuineIntel-12-1"
    );
    assert_eq!(
        pmu_import::family_in_hex("GenuineIntel-6-AD"),
        "GenuineIntel-6-AD"
    );
    assert_eq!(
        pmu_import::family_in_hex("GenuineIntel-6-55-[01234]"),
        "GenuineIntel-6-55-[01234]"
    );
    assert_eq!(
        pmu_import::family_in_hex("GenuineIntel-1A-2"),
        "GenuineIntel-1A-2"
    );

    let dir = temp_dir("family18");
    std::fs::create_dir_all(dir.join("NEW/events")).unwrap();
    std::fs::copy(
        fixtures().join("STRAY/events/stray_core.json"),
        dir.join("NEW/events/newlake_core.json"),
    )
    .unwrap();
    std::fs::write(
        dir.join("mapfile.csv"),
        "Family-model,Version,Filename,EventType,Core Type,Native Model ID,Core Role Name\n\
         GenuineIntel-18-1,V1.00,/NEW/events/newlake_core.json,hybridcore,0x40,0x000005,Core\n",
    )
    .unwrap();
    let imp = pmu_import::import_path(&dir);
    assert!(!imp.has_errors(), "{:#?}", imp.issues);
    let loaded = pmu_import::check_models(&imp.models);
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let g = loaded
        .model
        .generations
        .iter()
        .find(|g| g.source.as_deref() == Some("NEW/events/newlake_core.json"))
        .expect("the imported generation");
    let fm: Vec<&str> = g.cpus.iter().map(|c| c.family_model.as_str()).collect();
    assert_eq!(fm, ["GenuineIntel-12-1"]);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// Every error class: a clear message with file, line and column, and no panic
// ---------------------------------------------------------------------------------------------

#[test]
fn malformed_json_is_an_error_with_line_and_column() {
    // Truncated inside an event.
    let e =
        one_error("{\n  \"Events\": [\n    { \"EventName\": \"A.B\",\n      \"EventCode\": \"0x1");
    assert!(
        e.message.starts_with("malformed JSON: EOF while parsing"),
        "{e}"
    );
    assert_eq!(at(&e), "t.json:4:23");
    // A missing comma.
    let e = one_error(
        "{\n  \"Events\": [\n    { \"EventName\": \"A.B\" \"EventCode\": \"0x1\" }\n  ]\n}\n",
    );
    assert!(
        e.message.starts_with("malformed JSON: expected `,` or `}`"),
        "{e}"
    );
    assert_eq!(e.line, Some(3));
    // Garbage after the document.
    let e = one_error("[]\n]");
    assert_eq!(at(&e), "t.json:2:1");
    assert_eq!(
        e.to_string(),
        "error: t.json:2:1: malformed JSON: trailing characters"
    );
    // Not JSON at all, and not an event list.
    assert!(one_error("").message.contains("the file is empty"));
    assert!(one_error("42").message.contains("not a perfmon event list"));
    assert!(
        one_error("{ \"Header\": {} }")
            .message
            .contains("no `Events` array")
    );
    let e = one_error("{\n  \"Events\": { \"EventName\": \"A\" }\n}");
    assert_eq!(e.message, "`Events` is not an array of events");
    assert_eq!(at(&e), "t.json:2:13");
}

#[test]
fn bad_events_are_errors_at_the_value() {
    let ev = |fields: &str| {
        wrap(&format!(
            "    {{ \"EventName\": \"X.Y\", \"EventCode\": \"0x10\", \"UMask\": \"0x01\", \"Counter\": \"0,1\"{fields} }}"
        ))
    };
    // (extra fields, message, the text the position must point at: the value)
    let cases: &[(&str, &str, &str)] = &[
        (
            ", \"CounterMask\": \"0xZZ\"",
            "event `X.Y`: `CounterMask` is \"0xZZ\", not a number (decimal or 0x hex)",
            "\"0xZZ\"",
        ),
        (
            ", \"Invert\": \"2\"",
            "event `X.Y`: `Invert` is \"2\", expected 0 or 1",
            "\"2\"",
        ),
        (
            ", \"PEBS\": \"3\"",
            "event `X.Y`: `PEBS` is \"3\", larger than 2",
            "\"3\"",
        ),
        (
            ", \"CounterHTOff\": \"Fixed counter x\"",
            "event `X.Y`: `CounterHTOff` is \"Fixed counter x\", `Fixed counter x` is not a fixed counter 0 to 31",
            "\"Fixed",
        ),
        (
            ", \"PEBScounters\": \"0,99\"",
            "event `X.Y`: `PEBScounters` is \"0,99\", `99` is not a counter (0-31 general, 32+n fixed counter n, \"Fixed counter n\")",
            "\"0,99\"",
        ),
        (
            ", \"MSRIndex\": \"0x1a6,zz\"",
            "event `X.Y`: `MSRIndex` is \"0x1a6,zz\", `zz` is not a number up to 0xffffffff",
            "\"0x1a6,zz\"",
        ),
        (
            ", \"MSRIndex\": \"0x1a6,0\"",
            "event `X.Y`: `MSRIndex` mixes 0 (no MSR) with MSR addresses",
            "\"0x1a6,0\"",
        ),
        (
            ", \"Errata\": \"AB-12\"",
            "event `X.Y`: `Errata` is \"AB-12\", `AB-12` is not an erratum id (letters, digits and `_`)",
            "\"AB-12\"",
        ),
        (
            ", \"Offcore\": { \"x\": 1 }",
            "event `X.Y`: `Offcore` is an object, expected a string or a number",
            "{ \"x\"",
        ),
        (
            ", \"Invert\": \"0\", \"Invert\": \"1\"",
            "event `X.Y`: key `Invert` is given twice",
            "\"1\" }",
        ),
    ];
    for (fields, message, value) in cases {
        let text = ev(fields);
        let e = one_error(&text);
        assert_eq!(e.message, *message, "{fields}");
        // Line 4, at the value.
        let line = text.lines().nth(3).unwrap();
        let col = line[..line.rfind(value).unwrap()].chars().count() + 1;
        assert_eq!(at(&e), format!("t.json:4:{col}"), "{fields}");
    }
}

#[test]
fn missing_and_invalid_required_facts() {
    let e = one_error(&wrap(
        "    { \"EventCode\": \"0x10\", \"UMask\": \"0x01\", \"Counter\": \"0\" }",
    ));
    assert_eq!(e.message, "an event has no `EventName` string");
    assert_eq!(at(&e), "t.json:4:5");
    for (missing, text) in [
        (
            "EventCode",
            "{ \"EventName\": \"A.B\", \"UMask\": \"0x01\", \"Counter\": \"0\" }",
        ),
        (
            "UMask",
            "{ \"EventName\": \"A.B\", \"EventCode\": \"0x01\", \"Counter\": \"0\" }",
        ),
        (
            "Counter",
            "{ \"EventName\": \"A.B\", \"EventCode\": \"0x01\", \"UMask\": \"0x01\" }",
        ),
    ] {
        let e = one_error(&wrap(&format!("    {text}")));
        assert_eq!(e.message, format!("event `A.B` has no `{missing}`"));
        assert_eq!(e.line, Some(4));
    }
    let e = one_error(&wrap(
        "    { \"EventName\": \"A.B\", \"EventCode\": \"0x01\", \"UMask\": \"0x01\", \"Counter\": \"NA\" }",
    ));
    assert_eq!(e.message, "event `A.B`: `Counter` names no counter");
    let e = one_error(&wrap(
        "    { \"EventName\": \"1BAD\", \"EventCode\": \"0x01\", \"UMask\": \"0x01\", \"Counter\": \"0\" }",
    ));
    assert!(
        e.message.starts_with("`1BAD` is not a valid event name"),
        "{e}"
    );
    assert_eq!(at(&e), "t.json:4:20");
    let e = one_error(&wrap("    \"not an object\""));
    assert_eq!(e.message, "an event is not a JSON object");
    let e = one_error(&wrap(
        "    { \"EventName\": \"A.B\", \"EventCode\": \"0x01\", \"UMask\": \"0x01\", \"Counter\": \"Fixed counter 0,Fixed counter 1\" }",
    ));
    assert!(e.message.contains("names 2 fixed counters"), "{e}");
}

#[test]
fn duplicate_events_keep_the_first_and_report_the_second() {
    let text = wrap(
        "    { \"EventName\": \"A.B\", \"EventCode\": \"0x01\", \"UMask\": \"0x01\", \"Counter\": \"0\" },\n    { \"EventName\": \"A.B\", \"EventCode\": \"0x02\", \"UMask\": \"0x01\", \"Counter\": \"0\" }",
    );
    let (f, issues) = parse(&text);
    let e = errors(&issues);
    assert_eq!(e.len(), 1);
    assert_eq!(
        e[0].message,
        "event `A.B` is listed twice (first at line 4); kept the first"
    );
    assert_eq!(e[0].line, Some(5));
    let f = f.unwrap();
    assert_eq!(f.events.len(), 1);
    assert_eq!(f.events[0].codes, [1]);
    assert_eq!(f.entries, 2);
}

/// Nova Lake's lists add `CounterType`, `Offmodule` and `ProgrammingRestriction`: the first
/// is checked against `Counter`, the others become `offmodule` and `msr-per-umask`.
#[test]
fn counter_type_offmodule_and_programming_restriction() {
    let ev = |name: &str,
              counter: &str,
              kind: &str,
              off: &str,
              restriction: &str,
              umask: &str,
              msr: &str| {
        format!(
            "    {{ \"EventName\": \"{name}\", \"EventCode\": \"0xD6\", \"UMask\": \"{umask}\", \"Counter\": \"{counter}\", \"CounterType\": \"{kind}\", \"Offmodule\": \"{off}\", \"ProgrammingRestriction\": \"{restriction}\", \"MSRIndex\": \"{msr}\", \"MSRValue\": \"{value}\" }}",
            value = if msr == "0x00" { "0x00" } else { "0x10001" }
        )
    };
    let text = wrap(
        &[
            ev(
                "OMR.PAIRED",
                "0,1,2,3",
                "PGMABLE",
                "1",
                "MSRIndex-UMask",
                "0x01,0x02,0x04,0x08",
                "0x3E0,0x3E1,0x3E2,0x3E3",
            ),
            ev(
                "FIXED.ONE",
                "Fixed counter 1",
                "FIXED",
                "0",
                "None",
                "0x02",
                "0x00",
            ),
            ev("PLAIN.EVENT", "0,1", "PGMABLE", "0", "None", "0x01", "0x00"),
            ev("WRONG.TYPE", "0,1", "FIXED", "0", "None", "0x01", "0x00"),
        ]
        .join(",\n"),
    );
    let (f, issues) = parse(&text);
    assert!(errors(&issues).is_empty(), "{issues:#?}");
    let msgs: Vec<&str> = issues.iter().map(|i| i.message.as_str()).collect();
    assert_eq!(
        msgs,
        [
            "event `WRONG.TYPE`: `CounterType` is FIXED (a fixed counter), but `Counter` names general counters 0, 1; imported as `Counter` says"
        ]
    );
    let f = f.unwrap();
    let by = |n: &str| f.events.iter().find(|e| e.facts.name == n).unwrap();
    let paired = by("OMR.PAIRED");
    assert!(paired.facts.offmodule && paired.facts.msr_per_umask);
    assert_eq!(paired.msr.as_ref().unwrap().0, [0x3E0, 0x3E1, 0x3E2, 0x3E3]);
    let plain = by("PLAIN.EVENT");
    assert!(!plain.facts.offmodule && !plain.facts.msr_per_umask);
    assert_eq!(by("FIXED.ONE").counters.fixed, [1]);

    // A restriction the importer does not know is an error at its value: it may change how
    // the event is programmed.
    let e = one_error(&wrap(&ev(
        "NEW.RULE",
        "0",
        "PGMABLE",
        "0",
        "Umask-Twice",
        "0x01",
        "0x00",
    )));
    assert!(
        e.message.starts_with("event `NEW.RULE`: `ProgrammingRestriction` is \"Umask-Twice\", a restriction the importer does not know"),
        "{e:?}"
    );
    assert_eq!(at(&e), "t.json:4:156");
    // The pairing needs an MSR per unit mask.
    let e = one_error(&wrap(&ev(
        "SHORT.PAIRS",
        "0",
        "PGMABLE",
        "1",
        "MSRIndex-UMask",
        "0x01,0x02",
        "0x3E0",
    )));
    assert_eq!(
        e.message,
        "event `SHORT.PAIRS`: `ProgrammingRestriction` MSRIndex-UMask pairs each unit mask with an MSR, but it lists 2 unit masks and 1 MSRs"
    );
    let e = one_error(&wrap(&ev(
        "NO.KIND",
        "0",
        "SOMETIMES",
        "0",
        "None",
        "0x01",
        "0x00",
    )));
    assert_eq!(
        e.message,
        "event `NO.KIND`: `CounterType` is \"SOMETIMES\", expected FIXED or PGMABLE"
    );
}

#[test]
fn questionable_values_are_warnings() {
    let (f, issues) = parse(&wrap(
        "    { \"EventName\": \"A.B\", \"EventCode\": \"0x01\", \"UMask\": \"0x01\", \"Counter\": \"0\", \"MSRIndex\": \"0\", \"MSRValue\": \"0x5\", \"SampleAfterValue\": \"0\" }",
    ));
    assert!(errors(&issues).is_empty(), "{issues:#?}");
    let msgs: Vec<&str> = issues.iter().map(|i| i.message.as_str()).collect();
    assert_eq!(
        msgs,
        [
            "event `A.B`: `MSRValue` is set but `MSRIndex` names no MSR; the value is not imported",
            "event `A.B`: `SampleAfterValue` is 0, which is no sampling period; not imported"
        ]
    );
    let e = &f.unwrap().events[0];
    assert_eq!((e.msr.clone(), e.facts.sample_after), (None, None));
    // Unknown top-level and header keys.
    let (_, issues) = parse("{ \"Header\": { \"Shiny\": \"1\" }, \"Extra\": 1, \"Events\": [] }");
    let msgs: Vec<&str> = issues.iter().map(|i| i.message.as_str()).collect();
    assert_eq!(
        msgs,
        [
            "unknown header key `Shiny`; ignored",
            "unknown top-level key `Extra`; ignored"
        ]
    );
}

#[test]
fn version_requirements_are_checked_against_the_table() {
    // A core the table places at version 5 cannot have a non-zero second unit mask.
    let (f, issues) = parse(&wrap(
        "    { \"EventName\": \"A.B\", \"EventCode\": \"0x01\", \"UMask\": \"0x01\", \"UMaskExt\": \"0x02\", \"Counter\": \"0\" },\n    { \"EventName\": \"A.C\", \"EventCode\": \"0x01\", \"UMask\": \"0x01\", \"UMaskExt\": \"0x00\", \"Counter\": \"0\" }",
    ));
    assert!(issues.is_empty(), "{issues:#?}");
    let f = f.unwrap();
    let mut issues = Vec::new();
    let m = pmu_import::convert(
        &f,
        "TGL/events/tigerlake_core.json",
        &[],
        &Default::default(),
        &mut issues,
    );
    assert!(m.is_none());
    assert_eq!(errors(&issues).len(), 1);
    assert!(
        issues[0]
            .message
            .starts_with("event `A.B` uses a second unit mask (UMaskExt), which architectural perfmon version 5 does not have (it needs version 6)"),
        "{issues:#?}"
    );
    assert_eq!(issues[0].line, Some(4));
    // A zero UMaskExt is dropped below version 6 (nothing is lost).
    let (f, _) = parse(&wrap(
        "    { \"EventName\": \"A.C\", \"EventCode\": \"0x01\", \"UMask\": \"0x01\", \"UMaskExt\": \"0x00\", \"Counter\": \"0\" }",
    ));
    let mut issues = Vec::new();
    let m = pmu_import::convert(
        &f.unwrap(),
        "TGL/events/tigerlake_core.json",
        &[],
        &Default::default(),
        &mut issues,
    )
    .unwrap();
    assert!(issues.is_empty(), "{issues:#?}");
    assert_eq!((m.arch.version, m.arch.from_table), (5, true));
    assert!(!m.yaml.contains("umask2"));
    // Version 5: the model extends intel-v5, directly or through the microarchitecture
    // generation that names the list in its `perfmon-cores:`.
    let parent = m
        .yaml
        .lines()
        .find_map(|l| l.strip_prefix("extends: "))
        .expect("an extends line");
    let model = pmu_defs::Loader::new().with_defaults().finish().model;
    let g = model.generation(parent).expect("the parent loads");
    assert!(
        g.id == "intel-v5" || g.ancestors.iter().any(|a| a == "intel-v5"),
        "{parent}: {:?}",
        g.ancestors
    );
}

#[test]
fn mapfile_problems_are_reported_with_their_line() {
    let mut issues = Vec::new();
    let rows = pmu_import::parse_mapfile(
        "m.csv",
        "Family-model,Version,Filename,EventType,Core Type,Native Model ID,Core Role Name\n\
         GenuineIntel-6-01,V1,/A/events/a_core.json,core,,,\n\
         GenuineIntel-6-02,V1,,core,,,\n\
         GenuineIntel-6-03,V1,/B/events/b_core.json,hybridcore,0xZZ,0x1,Atom\n\
         GenuineIntel-6-04,V1,/C/events/c_core.json,hybridcore,0x100,0x1,Atom\n",
        &mut issues,
    );
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].file, "A/events/a_core.json");
    assert_eq!(rows[0].line, 2);
    let places: Vec<Option<usize>> = issues.iter().map(|i| i.line).collect();
    assert_eq!(places, [Some(3), Some(4), Some(5)]);
    assert!(issues.iter().all(|i| i.level == Level::Warning));
    let mut issues = Vec::new();
    assert!(pmu_import::parse_mapfile("m.csv", "Model,File\nx,y\n", &mut issues).is_empty());
    assert_eq!(issues[0].level, Level::Error);
    assert!(issues[0].message.contains("lacks one of the columns"));
}

#[test]
fn unreadable_files_and_clashing_ids_are_errors() {
    let dir = temp_dir("errors");
    let ok = std::fs::read_to_string(fixtures().join("STRAY/events/stray_core.json")).unwrap();
    // Two file names that give the same generation id.
    std::fs::write(dir.join("a-b_core.json"), &ok).unwrap();
    std::fs::write(dir.join("a_b_core.json"), &ok).unwrap();
    // Not UTF-8.
    std::fs::write(dir.join("bin_core.json"), b"{\n \"Events\": [\xff]\n}").unwrap();
    let imp = pmu_import::import_path(&dir);
    let errs: Vec<String> = imp
        .issues
        .iter()
        .filter(|i| i.level == Level::Error)
        .map(|i| i.to_string())
        .collect();
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert!(errs.iter().any(|e| e.contains("a_b_core.json: generation id `intel-a-b` (from the file name) is also that of `a-b_core.json`")), "{errs:#?}");
    assert!(
        errs.iter()
            .any(|e| e.contains("bin_core.json:2:13: not valid UTF-8 (byte offset 14)")),
        "{errs:#?}"
    );
    assert_eq!(imp.models.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every truncation of every fixture file, and a few thousand single-byte edits, give issues
/// with a line, never a panic.
#[test]
fn no_truncation_or_edit_of_a_fixture_panics() {
    let mut files = Vec::new();
    for m in &import().models {
        files.push(std::fs::read_to_string(fixtures().join(&m.source)).unwrap());
    }
    let mut inputs: Vec<String> = Vec::new();
    for text in &files {
        for cut in (0..text.len()).step_by(3) {
            inputs.push(text[..text.floor_char_boundary(cut)].to_owned());
        }
        // Deterministic single-character replacements.
        let bytes: Vec<(usize, char)> = text.char_indices().collect();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ text.len() as u64;
        for _ in 0..600 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let (at, c) = bytes[(seed % bytes.len() as u64) as usize];
            const EDITS: &[&str] = &[
                "",
                "\"",
                ",",
                "{",
                "]",
                "x",
                "9",
                "\\",
                "null",
                "Fixed counter 99",
            ];
            let edit = EDITS[((seed >> 32) % EDITS.len() as u64) as usize];
            inputs.push(format!(
                "{}{edit}{}",
                &text[..at],
                &text[at + c.len_utf8()..]
            ));
        }
    }
    assert!(inputs.len() > 5000, "{}", inputs.len());
    let mut failed = 0;
    for input in &inputs {
        let r = catch_unwind(AssertUnwindSafe(|| {
            let mut issues = Vec::new();
            let f = pmu_import::parse_file("t.json", input, &mut issues);
            if let Some(f) = &f {
                let _ = pmu_import::convert(
                    f,
                    "X/events/x_core.json",
                    &[],
                    &Default::default(),
                    &mut issues,
                );
            }
            issues
        }));
        match r {
            Ok(issues) => {
                for i in issues.iter().filter(|i| i.level == Level::Error) {
                    assert!(
                        i.line.is_some() || i.message.contains("global control registers"),
                        "an error without a position: {i}\n--- input ---\n{input}"
                    );
                }
            }
            Err(_) => failed += 1,
        }
    }
    assert_eq!(failed, 0, "{failed} inputs panicked");
}

#[test]
fn a_missing_path_is_one_error() {
    let imp = pmu_import::import_path(&fixtures().join("NOPE/events/nope_core.json"));
    assert_eq!(imp.issues.len(), 1, "{:#?}", imp.issues);
    assert_eq!(imp.issues[0].level, Level::Error);
    assert!(
        imp.issues[0]
            .to_string()
            .ends_with("NOPE/events/nope_core.json: no such file or directory")
    );
    assert!(imp.models.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Nothing to import, and paths leaving the corpus
// ---------------------------------------------------------------------------------------------

const MAP_HEADER: &str =
    "Family-model,Version,Filename,EventType,Core Type,Native Model ID,Core Role Name\n";

/// The errors of an import, rendered.
fn error_lines(imp: &Import) -> Vec<String> {
    errors(&imp.issues).iter().map(|i| i.to_string()).collect()
}

#[test]
fn nothing_to_import_is_one_error_saying_why() {
    let stray = std::fs::read_to_string(fixtures().join("STRAY/events/stray_core.json")).unwrap();
    type Setup<'a> = &'a dyn Fn(&Path);
    let cases: [(&str, Setup, &str); 6] = [
        (
            "empty",
            &|_| {},
            "empty: nothing to import: no mapfile.csv and no .json file below this directory",
        ),
        (
            "readme-only",
            &|d| {
                std::fs::write(d.join("README.md"), "commit abc1234").unwrap();
                std::fs::create_dir_all(d.join("SKX/events")).unwrap();
            },
            "git submodule update --init",
        ),
        (
            "all-missing",
            &|d| {
                std::fs::write(
                    d.join("mapfile.csv"),
                    format!("{MAP_HEADER}GenuineIntel-6-F1,V1,/A/events/a_core.json,core,,,\n"),
                )
                .unwrap()
            },
            "mapfile.csv: nothing to import: none of the 1 core file(s) mapfile.csv names is in the corpus",
        ),
        (
            "header-only",
            &|d| std::fs::write(d.join("mapfile.csv"), MAP_HEADER).unwrap(),
            "mapfile.csv:1:1: nothing to import: mapfile.csv has its header and no rows",
        ),
        (
            "header-and-blank-lines",
            &|d| {
                std::fs::write(d.join("mapfile.csv"), format!("{MAP_HEADER}\n  \n")).unwrap();
                std::fs::write(d.join("s_core.json"), &stray).unwrap();
            },
            "mapfile.csv has its header and no rows",
        ),
        (
            "uncore-only",
            &|d| {
                std::fs::write(
                    d.join("mapfile.csv"),
                    format!("{MAP_HEADER}GenuineIntel-6-F1,V1,/A/events/a_uncore.json,uncore,,,\n"),
                )
                .unwrap()
            },
            "mapfile.csv names no core event file (1 row(s) of other event types)",
        ),
    ];
    for (name, setup, want) in cases {
        let dir = temp_dir(&format!("nothing-{name}")).join(name);
        std::fs::create_dir_all(&dir).unwrap();
        setup(&dir);
        let imp = pmu_import::import_path(&dir);
        let errs = error_lines(&imp);
        assert_eq!(errs.len(), 1, "{name}: {:#?}", imp.issues);
        assert!(errs[0].contains(want), "{name}: {}", errs[0]);
        assert!(imp.models.is_empty(), "{name}");
        assert_eq!(imp.files_read, 0, "{name}");
        let _ = std::fs::remove_dir_all(dir.parent().unwrap());
    }

    // A file that yields no model: also an error, never an empty success.
    let dir = temp_dir("nothing-no-model");
    std::fs::write(dir.join("x_core.json"), "{ \"Events\": [ }").unwrap();
    let imp = pmu_import::import_path(&dir);
    assert!(
        imp.has_errors() && imp.models.is_empty(),
        "{:#?}",
        imp.issues
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mapfile_paths_leaving_the_corpus_are_refused_at_their_line() {
    let mut issues = Vec::new();
    let rows = pmu_import::parse_mapfile(
        "m.csv",
        &format!(
            "{MAP_HEADER}GenuineIntel-6-01,V1,/A/events/a_core.json,core,,,\n\
             GenuineIntel-6-02,V1,/../x_core.json,core,,,\n\
             GenuineIntel-6-03,V1, /A/../../y_core.json,core,,,\n\
             GenuineIntel-6-04,V1,/A/../../z_uncore.json,uncore,,,\n"
        ),
        &mut issues,
    );
    assert_eq!(rows.len(), 1);
    let got: Vec<String> = issues.iter().map(|i| i.to_string()).collect();
    assert_eq!(
        got,
        [
            "error: m.csv:3:22: mapfile row names `/../x_core.json`: the path has a `..` component, which could leave the directory; the importer reads only files below the corpus directory",
            "error: m.csv:4:23: mapfile row names `/A/../../y_core.json`: the path has a `..` component, which could leave the directory; the importer reads only files below the corpus directory",
            "error: m.csv:5:22: mapfile row names `/A/../../z_uncore.json`: the path has a `..` component, which could leave the directory; the importer reads only files below the corpus directory",
        ]
    );

    // On disk, with the file present beside the corpus: refused, not read.
    let base = temp_dir("escape");
    let corpus = base.join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::copy(
        fixtures().join("STRAY/events/stray_core.json"),
        base.join("x_core.json"),
    )
    .unwrap();
    std::fs::write(
        corpus.join("mapfile.csv"),
        format!("{MAP_HEADER}GenuineIntel-6-02,V1,/../x_core.json,core,,,\n"),
    )
    .unwrap();
    let imp = pmu_import::import_path(&corpus);
    let errs = error_lines(&imp);
    assert_eq!(errs.len(), 1, "{:#?}", imp.issues);
    assert!(
        errs[0].contains("mapfile.csv:2:22: mapfile row names `/../x_core.json`"),
        "{errs:?}"
    );
    assert_eq!((imp.files_read, imp.models.len()), (0, 0));
    let _ = std::fs::remove_dir_all(&base);
}

#[cfg(unix)]
#[test]
fn symbolic_links_out_of_the_corpus_are_refused_and_cycles_cut() {
    use std::os::unix::fs::symlink;
    let base = temp_dir("links");
    let corpus = base.join("corpus");
    let outside = base.join("outside");
    std::fs::create_dir_all(corpus.join("A/events")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let stray = fixtures().join("STRAY/events/stray_core.json");
    std::fs::copy(&stray, outside.join("o_core.json")).unwrap();
    std::fs::copy(&stray, corpus.join("A/events/a_core.json")).unwrap();
    std::fs::write(
        corpus.join("mapfile.csv"),
        format!("{MAP_HEADER}GenuineIntel-6-01,V1,/A/events/a_core.json,core,,,\n"),
    )
    .unwrap();

    // Two links to `.` (and one to a parent inside the corpus): each directory is read once,
    // the same model comes out, and each link is one warning.
    symlink(".", corpus.join("l1")).unwrap();
    symlink(".", corpus.join("l2")).unwrap();
    symlink("..", corpus.join("A/events/up")).unwrap();
    let imp = pmu_import::import_path(&corpus);
    assert!(!imp.has_errors(), "{:#?}", imp.issues);
    assert_eq!(names(&imp), ["a.yaml"]);
    assert_eq!(imp.files_read, 1);
    let cycles: Vec<String> = imp
        .issues
        .iter()
        .filter(|i| i.message.contains("(a cycle); not read again"))
        .map(|i| i.to_string())
        .collect();
    assert_eq!(cycles.len(), 3, "{:#?}", imp.issues);
    assert!(
        cycles.iter().all(|c| c.starts_with("warning: ")),
        "{cycles:#?}"
    );

    // A stray file linked from outside: an error at the link, not read.
    symlink(
        outside.join("o_core.json"),
        corpus.join("A/events/o_core.json"),
    )
    .unwrap();
    let imp = pmu_import::import_path(&corpus);
    let errs = error_lines(&imp);
    assert_eq!(errs.len(), 1, "{:#?}", imp.issues);
    assert!(
        errs[0].contains("A/events/o_core.json: resolves to")
            && errs[0].contains("outside the corpus directory; not read"),
        "{errs:?}"
    );
    assert_eq!(imp.files_read, 1);
    std::fs::remove_file(corpus.join("A/events/o_core.json")).unwrap();

    // A mapfile-named file that is a link out: one error, at its mapfile line.
    std::fs::remove_file(corpus.join("A/events/a_core.json")).unwrap();
    symlink(
        outside.join("o_core.json"),
        corpus.join("A/events/a_core.json"),
    )
    .unwrap();
    let imp = pmu_import::import_path(&corpus);
    let errs = error_lines(&imp);
    assert_eq!(errs.len(), 1, "{:#?}", imp.issues);
    assert!(
        errs[0]
            .contains("mapfile.csv:2:1: core file `A/events/a_core.json` not read: it resolves to"),
        "{errs:?}"
    );
    assert_eq!(imp.files_read, 0);

    // mapfile.csv itself a link out: refused.
    std::fs::rename(corpus.join("mapfile.csv"), outside.join("mapfile.csv")).unwrap();
    symlink(outside.join("mapfile.csv"), corpus.join("mapfile.csv")).unwrap();
    let imp = pmu_import::import_path(&corpus);
    let errs = error_lines(&imp);
    assert!(
        errs.iter()
            .any(|e| e.contains("mapfile.csv: not read: it resolves to")),
        "{errs:?}"
    );
    assert!(imp.models.is_empty());
    let _ = std::fs::remove_dir_all(&base);
}

/// A problem the validator finds in an imported model is reported at the JSON file and the
/// event it comes from, not only in the YAML that exists in memory during the import.
#[test]
fn validation_errors_name_the_json_file_and_event() {
    let dir = temp_dir("json-locations");
    std::fs::create_dir_all(dir.join("BAD/events")).unwrap();
    std::fs::write(
        dir.join("mapfile.csv"),
        "Family-model,Version,Filename,EventType,Core Type,Native Model ID,Core Role Name\n\
         GenuineIntel-6-F1,V7,/BAD/events/bad_core.json,core,,,\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("BAD/events/bad_core.json"),
        r#"{ "Header": {"Version": "1"}, "Events": [
 {"EventCode": "0x3C", "UMask": "0x00", "EventName": "GOOD.ONE", "Counter": "0,1", "SampleAfterValue": "2000003"},
 {"EventCode": "0xC1", "UMask": "0x00", "EventName": "GOOD.TWO", "Counter": "0,1", "SampleAfterValue": "2000003"},
 {"EventCode": "0x1C0", "UMask": "0x00", "EventName": "BAD.WIDE", "Counter": "0,1", "SampleAfterValue": "2000003"}
]}
"#,
    )
    .unwrap();
    let import = pmu_import::import_path(&dir);
    assert!(errors(&import.issues).is_empty(), "{:?}", import.issues);
    let loaded = pmu_import::check_models(&import.models);
    assert!(loaded.has_errors());
    let located = pmu_import::json_locations(&import.models, &loaded);
    let issues: Vec<&Issue> = located.iter().filter_map(|(_, i)| i.as_ref()).collect();
    assert_eq!(issues.len(), 1, "{located:?}");
    let issue = issues[0];
    assert_eq!(issue.level, Level::Error);
    assert!(issue.file.ends_with("BAD/events/bad_core.json"), "{issue}");
    assert_eq!(issue.line, Some(4), "{issue}");
    assert!(
        issue
            .message
            .starts_with("event `BAD.WIDE`: event 0x1c0 does not fit"),
        "{issue}"
    );
    assert!(issue.message.ends_with("[value-too-wide]"), "{issue}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A JSON boolean is not a number: for an event code or a counter mask it is refused, once,
/// at the value (not read as 1 or 0, and not reported as a missing key too); a flag may be one.
#[test]
fn json_booleans_are_refused() {
    let e = one_error(&wrap(
        r#"    { "EventCode": true, "UMask": "0x00", "EventName": "A.B", "Counter": "0,1" }"#,
    ));
    assert!(
        e.message
            .starts_with("event `A.B`: `EventCode` is a JSON boolean"),
        "{e}"
    );
    assert_eq!(at(&e), "t.json:4:20");
    let e = one_error(&wrap(
        r#"    { "EventCode": "0x3C", "UMask": "0x00", "EventName": "A.B", "Counter": "0,1", "CounterMask": true }"#,
    ));
    assert!(e.message.contains("`CounterMask` is a JSON boolean"), "{e}");
    // A flag may be a boolean.
    let (f, issues) = parse(&wrap(
        r#"    { "EventCode": "0x3C", "UMask": "0x00", "EventName": "A.B", "Counter": "0,1", "Invert": true, "CounterMask": "1" }"#,
    ));
    assert!(errors(&issues).is_empty(), "{issues:?}");
    assert!(f.unwrap().events[0].facts.inv);
}

/// Exactly one `unknown-aux-msr` warning for each event and auxiliary MSR address of the
/// loaded models that no register of the event's generation is at, at the event.
#[track_caller]
fn assert_unknown_aux_msrs(l: &pmu_defs::Loaded) {
    let mut expected = Vec::new();
    for g in &l.model.generations {
        for e in &g.events {
            let Some(m) = &e.msr else { continue };
            let mut indexes = vec![m.index];
            indexes.extend(m.alt_indexes.iter().filter(|&&i| i != m.index));
            for i in indexes.into_iter().filter(|&i| g.register_at(i).is_none()) {
                expected.push(format!(
                    "event `{}` programs auxiliary MSR {i:#x}, but no register of `{}` is at that address",
                    e.name, g.id
                ));
            }
        }
    }
    let mut found: Vec<String> = l
        .diagnostics
        .iter()
        .filter(|d| d.code == "unknown-aux-msr")
        .inspect(|d| assert_eq!(d.severity, Severity::Warning))
        .map(|d| d.message.clone())
        .collect();
    expected.sort();
    found.sort();
    assert!(!expected.is_empty(), "the fixtures have auxiliary MSRs");
    assert_eq!(found, expected);
}

// ---------------------------------------------------------------------------------------------
// Size: linear work, and a list too large for the loader refused before the work
// ---------------------------------------------------------------------------------------------

/// A perfmon list of `n` distinct invented events, written on one line (as minified JSON is:
/// every position is on line 1), each with a sampling period of 0 (one warning an event).
fn synthetic_list(n: usize) -> String {
    let events: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"EventCode":"0x{:02X}","UMask":"0x{:02X}","EventName":"SYNTH_EVENT_{}.UNIT_{}","Counter":"0,1,2,3","SampleAfterValue":"0","CounterMask":"{}"}}"#,
                1 + i % 255,
                (i / 255) % 256,
                i / 256,
                i % 256,
                i / (255 * 256),
            )
        })
        .collect();
    format!(
        r#"{{"Header":{{"Version":"1"}},"Events":[{}]}}"#,
        events.join(",")
    )
}

/// 20,000 events on one line (where positions used to cost the square of the line's length,
/// and each event counted every issue before it): all imported, every warning at its event's
/// column, and the model loads.
#[test]
fn a_large_one_line_list_imports_whole() {
    let n = 20_000;
    let dir = temp_dir("large");
    let file = dir.join("synthetic_core.json");
    let text = synthetic_list(n);
    std::fs::write(&file, &text).unwrap();
    let imp = pmu_import::import_path(&file);
    assert!(!imp.has_errors(), "{:#?}", errors(&imp.issues));
    assert_eq!(imp.events(), n);
    let period: Vec<&Issue> = imp
        .issues
        .iter()
        .filter(|i| i.message.contains("`SampleAfterValue` is 0"))
        .collect();
    assert_eq!(period.len(), n);
    let last = period[n - 1];
    let at = text.rfind(r#""0","CounterMask""#).unwrap();
    assert_eq!(
        (last.line, last.column),
        (Some(1), Some(text[..at].chars().count() + 1))
    );
    let loaded = pmu_import::check_models(&imp.models);
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let g = loaded.model.generation("intel-synthetic").unwrap();
    assert!(g.event("SYNTH_EVENT_78.UNIT_31").is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A list whose model cannot fit the loader's limit is refused with an error saying the file,
/// the count or size and the limit: by its event count before any event is read, else by the
/// YAML's size before it is validated. A small limit stands in for the loader's 8 MiB.
#[test]
fn a_list_too_large_for_the_loader_is_refused_first() {
    let limits = pmu_defs::Limits {
        max_bytes: 8192,
        ..Default::default()
    };
    assert!(pmu_import::max_events(&limits) < 1000);
    let dir = temp_dir("too-large");

    // Too many events for any model within the limit: refused before they are read (no
    // event's warning about its sampling period).
    let many = dir.join("many_core.json");
    std::fs::write(&many, synthetic_list(1000)).unwrap();
    let imp = pmu_import::import_path_within(&many, &pmu_import::Reviewed::default(), &limits);
    assert!(imp.models.is_empty());
    assert_eq!(error_lines(&imp).len(), 1, "{:#?}", imp.issues);
    let e = &error_lines(&imp)[0];
    assert!(
        e.starts_with(&format!("error: {}:1:", many.display())),
        "{e}"
    );
    for part in [
        "1000 events: their model would be at least ",
        "bytes of YAML",
        "more than the 8192 bytes the loader accepts in one file (`yaml-too-large`)",
        "not imported",
    ] {
        assert!(e.contains(part), "{e}\nlacks: {part}");
    }
    assert!(
        !imp.issues
            .iter()
            .any(|i| i.message.contains("SampleAfterValue")),
        "events were read: {:#?}",
        imp.issues
    );

    // Few enough events, but their lines are longer than the least: refused by the model's
    // size, before the loader reads it.
    let long = dir.join("long_core.json");
    std::fs::write(&long, synthetic_list(100)).unwrap();
    let imp = pmu_import::import_path_within(&long, &pmu_import::Reviewed::default(), &limits);
    assert!(imp.models.is_empty());
    let e = error_lines(&imp);
    assert_eq!(e.len(), 1, "{:#?}", imp.issues);
    assert!(
        e[0].starts_with(&format!(
            "error: {}: its model `long.yaml` would be ",
            long.display()
        )),
        "{}",
        e[0]
    );
    assert!(
        e[0].contains("bytes of YAML (100 events), more than the 8192 bytes the loader accepts"),
        "{}",
        e[0]
    );

    // The same list within the loader's own limit imports.
    let imp = pmu_import::import_path(&long);
    assert!(!imp.has_errors(), "{:#?}", imp.issues);
    let _ = std::fs::remove_dir_all(&dir);
}
