//! `cargo xtask fuzz-seeds [--out DIR]`: the seed corpus of the fuzz targets in `fuzz/`,
//! generated from the shipped definitions and the hand-written perfmon fixtures (nothing is
//! committed; `scripts/fuzz.sh` runs this before each run). One directory per target:
//!
//! - `load_gen/`: every hand-written shipped file and a short head of every CPU model (its
//!   generation renamed `<id>-fuzz`, so it is a new generation on top of the shipped ones and
//!   reaches the code generator), and the YAML cases of `tests/ui`.
//! - `import_perfmon/`: the fixtures of `tests/fixtures/perfmon/`, and for every CPU model a
//!   perfmon list of its first events written back from the model (names and numbers only).
//! - `encode/`: per generation, events by name with modifiers and counters, and raw terms.
//! - `decode/`: per generation, every register at its first address with a value made of its
//!   fields (and one with every bit set).
//!
//! And two libFuzzer dictionaries beside them: `load_gen.dict` (every key and keyword of the
//! YAML format, from the loader's tables, and the shipped generation ids) and
//! `import_perfmon.dict` (the perfmon event keys the importer knows).

use serde_json::{Map, Value, json};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Events of a CPU model written into its `load_gen` and `import_perfmon` seeds.
const MODEL_EVENTS: usize = 8;

/// A seed: target, file name, contents.
type Seed = (&'static str, String, Vec<u8>);

pub fn run(out: Option<PathBuf>) -> ExitCode {
    let root = crate::workspace_root();
    let out = out.unwrap_or_else(|| {
        std::env::var_os("CARGO_TARGET_DIR")
            .map_or_else(|| root.join("target"), PathBuf::from)
            .join("fuzz/seeds")
    });
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    if loaded.has_errors() {
        eprint!("{}", loaded.render_diagnostics());
        return ExitCode::FAILURE;
    }
    let mut seeds: Vec<Seed> = Vec::new();
    load_gen_seeds(&root, &mut seeds);
    import_seeds(&root, &loaded.model, &mut seeds);
    encode_seeds(&loaded.model, &mut seeds);
    decode_seeds(&loaded.model, &mut seeds);
    let dicts = [
        ("load_gen", load_gen_dict(&loaded.model)),
        ("import_perfmon", import_dict()),
    ];
    for (target, words) in dicts {
        let path = out.join(format!("{target}.dict"));
        if let Err(e) = std::fs::create_dir_all(&out).and_then(|()| std::fs::write(&path, words)) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    for target in ["load_gen", "import_perfmon", "encode", "decode"] {
        let dir = out.join(target);
        // Seeds only: the previous run's are replaced (the fuzzer's own corpus is elsewhere).
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(e) = std::fs::create_dir_all(&dir) {
            eprintln!("error: cannot create {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        let mine: Vec<&Seed> = seeds.iter().filter(|s| s.0 == target).collect();
        for (_, name, bytes) in &mine {
            if let Err(e) = std::fs::write(dir.join(name), bytes) {
                eprintln!("error: cannot write {}: {e}", dir.join(name).display());
                return ExitCode::FAILURE;
            }
        }
        println!("{}: {} seeds", dir.display(), mine.len());
    }
    ExitCode::SUCCESS
}

/// A libFuzzer dictionary: one quoted word a line (`"` and `\\` escaped).
fn dictionary<'a>(words: impl IntoIterator<Item = &'a str>) -> String {
    let mut words: Vec<&str> = words.into_iter().collect();
    words.sort_unstable();
    words.dedup();
    let mut out = String::new();
    for w in words {
        let escaped = w.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "\"{escaped}\"");
    }
    out
}

/// `load_gen`'s dictionary: every key of the YAML format (the loader's key lists, as the
/// JSON Schema pairs them), every keyword (the warning codes an `allow:` takes among them),
/// and the shipped generation ids.
fn load_gen_dict(model: &pmu_defs::Model) -> String {
    use pmu_defs::load::raw;
    let keys = pmu_defs::schema::MAPPINGS
        .iter()
        .flat_map(|(_, keys)| keys.iter().copied());
    let words = raw::VENDOR_WORDS
        .iter()
        .map(|w| w.0)
        .chain(raw::SEVERITY_WORDS.iter().map(|w| w.0))
        .chain(raw::REGISTER_ROLE_WORDS.iter().map(|w| w.0))
        .chain(raw::COUNTER_KIND_WORDS.iter().map(|w| w.0))
        .chain(raw::FIELD_ROLE_WORDS.iter().map(|w| w.0))
        .chain(raw::CPUID_REG_WORDS.iter().map(|w| w.0))
        .chain(raw::ACCESS_WORDS.iter().map(|w| w.0))
        .chain(pmu_defs::diag::EVENT_WARNINGS.iter().copied());
    let ids = model.generations.iter().map(|g| g.id.as_str());
    dictionary(keys.chain(words).chain(ids))
}

/// `import_perfmon`'s dictionary: the event keys the importer knows.
fn import_dict() -> String {
    dictionary(pmu_import::intel::event_keys())
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    pmu_defs::load::walk::walk(dir, false, &|p: &Path| {
        matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
    })
    .files
}

/// A file name from a path or id: letters, digits, `-`, `_` and `.`.
fn file_name(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// `text` with its generation renamed `<id>-fuzz` (a new generation on top of the shipped
/// one), cut after `events` event lines when it is a CPU model (one event per line).
fn renamed(text: &str, events: Option<usize>) -> String {
    let mut out = String::new();
    let mut in_events = false;
    let mut kept = 0;
    for line in text.lines() {
        if let Some(id) = line.strip_prefix("generation:") {
            let _ = writeln!(out, "generation: {}-fuzz", id.trim());
            continue;
        }
        if let Some(max) = events {
            if line.starts_with("events:") {
                in_events = true;
            } else if in_events && line.starts_with("  - ") {
                if kept == max {
                    continue;
                }
                kept += 1;
            } else if in_events && !line.starts_with(' ') {
                in_events = false;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn load_gen_seeds(root: &Path, seeds: &mut Vec<Seed>) {
    let defs = root.join("pmu-defs/defs");
    for p in yaml_files(&defs) {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        let rel = p.strip_prefix(&defs).unwrap_or(&p).display().to_string();
        let model = rel.starts_with("intel/models");
        let text = renamed(&text, model.then_some(MODEL_EVENTS));
        seeds.push(("load_gen", file_name(&rel), text.into_bytes()));
    }
    for dir in ["tests/ui/pass", "tests/ui/proc_macro"] {
        for p in yaml_files(&root.join(dir)) {
            if let Ok(text) = std::fs::read(&p) {
                let rel = p.strip_prefix(root).unwrap_or(&p).display().to_string();
                seeds.push(("load_gen", file_name(&rel), text));
            }
        }
    }
}

/// A perfmon counter list: `0,1,2,3`, or `Fixed counter N`.
fn counter_list(e: &pmu_defs::model::Event) -> String {
    if e.counters.is_empty() {
        return e
            .fixed
            .map_or_else(|| "NA".to_string(), |f| format!("Fixed counter {f}"));
    }
    e.counters
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// A perfmon event entry with the model event's facts (no descriptions).
fn perfmon_event(e: &pmu_defs::model::Event) -> Value {
    let flag = |b: bool| if b { "1" } else { "0" };
    let mut m = Map::new();
    let mut put = |k: &str, v: String| {
        m.insert(k.to_string(), Value::String(v));
    };
    put("EventCode", format!("0x{:02X}", e.event));
    put("UMask", format!("0x{:02X}", e.umask));
    put("EventName", e.name.clone());
    put("Counter", counter_list(e));
    put("CounterMask", e.cmask.to_string());
    put("Invert", flag(e.inv).into());
    put("EdgeDetect", flag(e.edge).into());
    put("AnyThread", flag(e.any).into());
    if let Some(msr) = &e.msr {
        put("MSRIndex", format!("0x{:X}", msr.index));
        put("MSRValue", format!("0x{:X}", msr.value));
    }
    if let Some(s) = e.sample_after {
        put("SampleAfterValue", s.to_string());
    }
    if let Some(p) = e.pebs {
        put("PEBS", p.to_string());
    }
    put(
        "Errata",
        if e.errata.is_empty() {
            "null".into()
        } else {
            e.errata.join(", ")
        },
    );
    Value::Object(m)
}

fn import_seeds(root: &Path, model: &pmu_defs::Model, seeds: &mut Vec<Seed>) {
    let fixtures = root.join("tests/fixtures/perfmon");
    let found = pmu_defs::load::walk::walk(&fixtures, false, &|p: &Path| {
        p.extension().and_then(|e| e.to_str()) == Some("json")
    });
    for p in found.files {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        let rel = p
            .strip_prefix(&fixtures)
            .unwrap_or(&p)
            .display()
            .to_string();
        let name = rel.rsplit('/').next().unwrap_or(&rel).to_string();
        seeds.push((
            "import_perfmon",
            file_name(&rel),
            format!("{name}\n{text}").into_bytes(),
        ));
    }
    for g in &model.generations {
        let Some(source) = &g.source else { continue };
        let name = source.rsplit('/').next().unwrap_or(source);
        let events: Vec<Value> = g
            .events
            .iter()
            .filter(|e| e.since == g.id)
            .take(MODEL_EVENTS)
            .map(perfmon_event)
            .collect();
        let doc = json!({ "Header": { "Version": "1" }, "Events": events });
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        seeds.push((
            "import_perfmon",
            file_name(&format!("{}.json", g.id)),
            format!("{name}\n{text}").into_bytes(),
        ));
    }
}

fn encode_seeds(model: &pmu_defs::Model, seeds: &mut Vec<Seed>) {
    for g in &model.generations {
        let mut specs: Vec<String> = Vec::new();
        // A few of its own events, the first with every modifier form.
        let own: Vec<_> = g
            .events
            .iter()
            .filter(|e| e.since == g.id)
            .take(3)
            .collect();
        for (i, e) in own.iter().enumerate() {
            specs.push(match i {
                0 => format!("{}\n{}:u:k:cmask=1:inv\nedge,int=1\n0\n", g.id, e.name),
                1 => format!("{}\n{}\n\nfixed1\n", g.id, e.name),
                _ => format!("{}\n{}:c=0x2,e\n", g.id, e.name.to_ascii_lowercase()),
            });
        }
        if let Some(e) = g.events.iter().find(|e| e.fixed.is_some()) {
            specs.push(format!("{}\n{}:k:pmi\n", g.id, e.name));
        }
        specs.push(format!(
            "{}\nevent=0x3c,umask=0x1ff,cmask=1,any=1,eq=0:u\n\n7\n",
            g.id
        ));
        for (i, s) in specs.into_iter().enumerate() {
            seeds.push((
                "encode",
                format!("{}-{i}", file_name(&g.id)),
                s.into_bytes(),
            ));
        }
    }
}

fn decode_seeds(model: &pmu_defs::Model, seeds: &mut Vec<Seed>) {
    for (gi, g) in model.generations.iter().enumerate() {
        for (ri, r) in g.registers.iter().enumerate() {
            // Every field at 1, the event select at its first event's code.
            let mut value = 0u64;
            for f in &r.fields {
                value |= f.insert(0, 1);
            }
            let address = r.msr.address(0);
            let by_id = [
                value.to_le_bytes().as_slice(),
                &address.to_le_bytes(),
                g.id.as_bytes(),
            ]
            .concat();
            seeds.push((
                "decode",
                format!("{}-{}", file_name(&g.id), file_name(&r.name)),
                by_id,
            ));
            // The same register picked by index (`0xFF`, register, instance), all bits set.
            let picked = [
                u64::MAX.to_le_bytes().as_slice(),
                &[0xFF, ri as u8, 0, 0],
                &[gi as u8],
            ]
            .concat();
            seeds.push((
                "decode",
                format!("{}-{}-all", file_name(&g.id), file_name(&r.name)),
                picked,
            ));
        }
    }
}
