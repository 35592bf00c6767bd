//! The importer on Intel's whole perfmon corpus (`../shared/data/intel-perfmon` beside the
//! worktree: 47 core files, about 18,500 events). Every test here prints a note and passes
//! when the corpus is absent, so a fresh clone without it still tests green.
//!
//! The JSON is read here independently (serde_json values), so the counts and facts compared
//! are not the importer's own view of the files.

use pmu_defs::Loaded;
use pmu_defs::model::Event;
use pmu_import::{Import, Level};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn corpus() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/intel-perfmon");
    if p.join("mapfile.csv").is_file() {
        Some(p)
    } else {
        eprintln!(
            "note: {} is absent; the perfmon corpus tests are skipped",
            p.display()
        );
        None
    }
}

/// The reviewed findings of the shipped models (`pmu-defs/import/reviewed.yaml`), which
/// `cargo xtask import-perfmon` writes into them as `allow:` entries.
fn reviewed() -> pmu_import::Reviewed {
    let path = pmu_defs::defs_dir().join("../import/reviewed.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut issues = Vec::new();
    let r = pmu_import::parse_reviewed("reviewed.yaml", &text, &mut issues);
    assert!(issues.is_empty(), "{issues:#?}");
    r
}

/// The corpus imported as `cargo xtask import-perfmon` imports it into the shipped models.
fn import() -> Option<&'static Import> {
    static IMPORT: OnceLock<Option<Import>> = OnceLock::new();
    IMPORT
        .get_or_init(|| corpus().map(|c| pmu_import::import_path_reviewed(&c, &reviewed())))
        .as_ref()
}

fn loaded() -> Option<&'static Loaded> {
    static LOADED: OnceLock<Option<Loaded>> = OnceLock::new();
    LOADED
        .get_or_init(|| import().map(|i| pmu_import::check_models(&i.models)))
        .as_ref()
}

/// Each model's source file, parsed here (once): its event objects.
fn json_events(source: &str) -> &'static [Value] {
    static FILES: OnceLock<BTreeMap<String, Vec<Value>>> = OnceLock::new();
    let files = FILES.get_or_init(|| {
        let mut out = BTreeMap::new();
        for m in &import().unwrap().models {
            let path = corpus().unwrap().join(&m.source);
            let text = std::fs::read_to_string(&path).unwrap();
            let v: Value = serde_json::from_str(&text).unwrap();
            let events = match v {
                Value::Array(a) => a,
                Value::Object(mut o) => match o.remove("Events") {
                    Some(Value::Array(a)) => a,
                    _ => panic!("{}: no Events array", m.source),
                },
                _ => panic!("{}: neither a list nor an object", m.source),
            };
            out.insert(m.source.clone(), events);
        }
        out
    });
    &files[source]
}

fn text<'a>(e: &'a Value, k: &str) -> Option<&'a str> {
    e.get(k)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "null")
}

fn num(s: &str) -> u64 {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).unwrap(),
        None => s.parse().unwrap(),
    }
}

fn nums(s: &str) -> Vec<u64> {
    s.split(',').map(num).collect()
}

#[test]
fn the_whole_corpus_imports_with_zero_errors() {
    let Some(imp) = import() else { return };
    let errors: Vec<String> = imp
        .issues
        .iter()
        .filter(|i| i.level == Level::Error)
        .map(|i| i.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert_eq!(imp.files_read, 47);
    assert_eq!(imp.models.len(), 47);
    // The only warnings: core files the mapfile names that this corpus lacks (none about the
    // reviewed findings: each names an event the import has).
    for w in &imp.issues {
        assert!(
            w.file.ends_with("mapfile.csv") && w.message.contains("is not in the corpus"),
            "{w}"
        );
    }
    assert_eq!(imp.missing_files, imp.issues.len());
    // Every core is in the table of architectural versions (no guess).
    for m in &imp.models {
        assert!(m.arch.from_table, "{}: {}", m.id, m.arch.basis);
    }
}

#[test]
fn every_event_of_every_file_is_imported() {
    let Some(imp) = import() else { return };
    let mut total = 0;
    for m in &imp.models {
        let n = json_events(&m.source).len();
        assert_eq!(m.json_events, n, "{}", m.source);
        assert_eq!(m.events, n, "{}: events written", m.source);
        total += n;
    }
    assert!((18_000..=19_000).contains(&total), "{total} events");
    assert_eq!(imp.events(), total);
}

#[test]
fn the_imported_corpus_loads_with_zero_errors() {
    let Some(l) = loaded() else { return };
    assert!(!l.has_errors(), "{}", l.render_diagnostics());
    // Warnings only for the few PEBS/PDist/PDIR counters Intel lists outside an event's own
    // counters and the auxiliary-MSR values that set a bit our layout (Linux's mask) reserves,
    // each reviewed and acknowledged (no `unused-allow`).
    for d in &l.diagnostics {
        assert!(
            matches!(d.code, "counter-not-in-event" | "aux-msr-reserved"),
            "{}",
            d.message
        );
        assert!(d.acknowledged.is_some(), "not reviewed: {}", d.message);
    }
    assert!(l.acknowledged() > 0, "{}", l.render_diagnostics_verbose());
    let imp = import().unwrap();
    // Every imported model is a generation, beside the architectural ones it extends.
    let models = l.model.generations.iter().filter(|g| !g.cpus.is_empty());
    assert_eq!(models.count(), imp.models.len());
    // Hybrid parts: one generation per core type. Alder Lake (family 6, model 97H in the
    // mapfile) has Golden Cove (core type 40H) and Gracemont (20H) cores.
    let mut adl: Vec<(&str, Option<u8>)> = l
        .model
        .generations
        .iter()
        .filter_map(|g| {
            let cpu = g
                .cpus
                .iter()
                .find(|c| c.family_model.starts_with("GenuineIntel-6-97"))?;
            Some((g.id.as_str(), cpu.core_type))
        })
        .collect();
    adl.sort();
    assert_eq!(
        adl,
        [
            ("intel-alderlake-goldencove", Some(0x40)),
            ("intel-alderlake-gracemont", Some(0x20))
        ]
    );
}

/// Codes, unit masks, thresholds, flags, auxiliary MSRs, sampling periods and counters of
/// every event, compared with the JSON as read here.
#[test]
fn every_imported_fact_matches_the_json() {
    let (Some(imp), Some(l)) = (import(), loaded()) else {
        return;
    };
    let mut checked = 0;
    for m in &imp.models {
        let g = l.model.generation(&m.id).unwrap();
        let by_name: HashMap<&str, &Event> = g
            .events
            .iter()
            .filter(|e| e.since == g.id)
            .map(|e| (e.name.as_str(), e))
            .collect();
        let events = json_events(&m.source);
        // The oldest lists number fixed counters from 1.
        let base = events
            .iter()
            .find(|e| text(e, "EventName") == Some("INST_RETIRED.ANY"))
            .and_then(|e| text(e, "Counter"))
            .and_then(|c| c.strip_prefix("Fixed counter "))
            .map_or(0, num);
        for j in events {
            let name = text(j, "EventName").unwrap();
            let e = by_name
                .get(name)
                .unwrap_or_else(|| panic!("{}: `{name}` missing", m.id));
            let at = format!("{} {name}", m.id);
            let codes: Vec<u64> = std::iter::once(e.event)
                .chain(e.alt_events.iter().copied())
                .map(u64::from)
                .collect();
            assert_eq!(codes, nums(text(j, "EventCode").unwrap()), "{at}");
            let umasks: Vec<u64> = std::iter::once(e.umask)
                .chain(e.alt_umasks.iter().copied())
                .map(u64::from)
                .collect();
            assert_eq!(umasks, nums(text(j, "UMask").unwrap()), "{at}");
            assert_eq!(
                u64::from(e.cmask),
                text(j, "CounterMask").map_or(0, num),
                "{at}"
            );
            assert_eq!(e.inv, text(j, "Invert") == Some("1"), "{at}");
            assert_eq!(e.edge, text(j, "EdgeDetect") == Some("1"), "{at}");
            assert_eq!(e.any, text(j, "AnyThread") == Some("1"), "{at}");
            assert_eq!(e.offcore, text(j, "Offcore") == Some("1"), "{at}");
            assert_eq!(e.deprecated, text(j, "Deprecated") == Some("1"), "{at}");
            assert_eq!(e.sample_after, text(j, "SampleAfterValue").map(num), "{at}");
            let index = nums(text(j, "MSRIndex").unwrap_or("0"));
            match &e.msr {
                None => assert!(index.iter().all(|&i| i == 0), "{at}"),
                Some(msr) => {
                    let got: Vec<u64> = std::iter::once(msr.index)
                        .chain(msr.alt_indexes.iter().copied())
                        .map(u64::from)
                        .collect();
                    assert_eq!(got, index, "{at}");
                    assert_eq!(msr.value, num(text(j, "MSRValue").unwrap()), "{at}");
                }
            }
            let counter = text(j, "Counter").unwrap();
            match counter.strip_prefix("Fixed counter ") {
                Some(n) => {
                    assert_eq!(e.fixed.map(u64::from), Some(num(n) - base), "{at}");
                    assert!(e.counters.is_empty(), "{at}");
                }
                None => {
                    let list: Vec<u64> = e.counters.iter().map(|&c| u64::from(c)).collect();
                    assert_eq!(list, nums(counter), "{at}");
                    assert_eq!(e.fixed, None, "{at}");
                }
            }
            match text(j, "UMaskExt") {
                Some(u) if m.arch.version >= 6 => {
                    assert_eq!(e.umask2.map(u64::from), Some(num(u)), "{at}")
                }
                Some(u) => assert_eq!(num(u), 0, "{at}: a non-zero UMaskExt below v6"),
                None => assert_eq!(e.umask2, None, "{at}"),
            }
            checked += 1;
        }
    }
    assert_eq!(checked, imp.events());
}

/// No description sentence of the corpus is copied: 200 descriptions, spread evenly over all
/// of them, are looked for (whole, and their first half) in every generated file.
#[test]
fn no_description_is_copied() {
    let Some(imp) = import() else { return };
    let mut all: Vec<String> = Vec::new();
    for m in &imp.models {
        for e in json_events(&m.source) {
            for k in ["BriefDescription", "PublicDescription"] {
                // Sentences: a few of Intel's "descriptions" are just the event's name,
                // which is a fact and is imported.
                if let Some(s) = text(e, k)
                    && s.len() >= 24
                    && s.matches(' ').count() >= 3
                {
                    all.push(s.to_owned());
                }
            }
        }
    }
    all.sort();
    all.dedup();
    assert!(all.len() > 5_000, "{} distinct descriptions", all.len());
    let step = all.len() / 200;
    let sample: Vec<&String> = all.iter().step_by(step).take(200).collect();
    assert_eq!(sample.len(), 200);
    let mut words: BTreeMap<&str, usize> = BTreeMap::new();
    for m in &imp.models {
        for s in &sample {
            assert!(!m.yaml.contains(s.as_str()), "{} copies {s:?}", m.file_name);
            // Not even the first half of one, when that half is several words of prose
            // (some descriptions start with an event name, which is a fact).
            let half = &s[..s.floor_char_boundary(s.len() / 2)];
            if half.matches(' ').count() >= 3 {
                assert!(!m.yaml.contains(half), "{} copies {half:?}", m.file_name);
            }
        }
        *words.entry("files").or_default() += 1;
    }
    assert_eq!(words["files"], imp.models.len());
}

/// The checked-in core models are exactly what the importer makes of the corpus (what
/// `cargo xtask import-perfmon ../shared/data/intel-perfmon --check` checks), and the models
/// directory holds nothing else.
#[test]
fn the_checked_in_models_equal_a_fresh_import() {
    let Some(imp) = import() else { return };
    let dir = pmu_defs::defs_dir().join("intel/models");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let fresh: Vec<&str> = imp.models.iter().map(|m| m.file_name.as_str()).collect();
    assert_eq!(on_disk, fresh, "files in {}", dir.display());
    for m in &imp.models {
        let current = std::fs::read_to_string(dir.join(&m.file_name)).unwrap();
        // `cargo xtask import-perfmon` adds the editor-schema modeline for the file's place.
        let modeline =
            pmu_defs::schema::modeline(&format!("pmu-defs/defs/intel/models/{}", m.file_name));
        assert!(
            current == m.yaml_with_modeline(&modeline),
            "{} differs from a fresh import; run `cargo xtask import-perfmon ../shared/data/intel-perfmon`",
            m.file_name
        );
    }
}
