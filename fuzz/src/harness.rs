//! What each fuzz target does with its input. The targets in `fuzz/fuzz_targets/` are one line
//! each; `tests/tests/robustness.rs` includes this file (`#[path]`) so that every finding is
//! kept as a regression test run through exactly the code the fuzzer ran.
//!
//! Nothing here may panic on any input: a panic is a finding. The `assert!`s state what must
//! hold whatever the input (an encoded value has no reserved bit set, the importer's YAML
//! parses, ...).

use pmu_defs::encode::{Counter, Encoder, Request};
use pmu_defs::{Loaded, Loader, Severity};
use std::path::Path;
use std::sync::OnceLock;

/// One shipped definition file: its name as `registers!` shows it, its generation id and text.
struct Shipped {
    name: String,
    id: String,
    text: String,
}

/// The shipped definitions, read once: the architectural generations (always loaded under a
/// fuzz input) and the CPU models (loaded when the input names one).
struct Base {
    arch: Vec<Shipped>,
    models: Vec<Shipped>,
}

fn base() -> &'static Base {
    static BASE: OnceLock<Base> = OnceLock::new();
    BASE.get_or_init(|| {
        let dir = pmu_defs::defs_dir();
        let found = pmu_defs::load::walk::walk(&dir, false, &|p: &Path| {
            matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
        });
        let mut base = Base {
            arch: Vec::new(),
            models: Vec::new(),
        };
        for p in found.files {
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let below = p.strip_prefix(&dir).unwrap_or(&p);
            let id = text
                .lines()
                .find_map(|l| l.strip_prefix("generation:"))
                .map(|s| s.trim().to_string())
                .unwrap_or_default();
            let shipped = Shipped {
                name: Path::new("pmu-defs/defs").join(below).display().to_string(),
                id,
                text,
            };
            if below.starts_with("intel/models") {
                base.models.push(shipped);
            } else {
                base.arch.push(shipped);
            }
        }
        base
    })
}

/// Every shipped definition, loaded and validated once (the encoder's model).
pub fn shipped() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(|| Loader::new().with_defaults().finish())
}

/// `load_gen`: the input is a YAML file loaded on top of the shipped definitions, as
/// `registers!` loads a user's file; when the load has no error, the code generator runs on
/// the input's generations with the proc macro's options (external paths, run-time tables,
/// `only` the new generations).
///
/// The base is the architectural generations (`intel-v1` ... `v6`, the AMD ones) plus each
/// shipped CPU model whose id appears in the input: loading all 41 models (3.4 MB) on every
/// run would leave the fuzzer a run or two per second.
pub fn load_gen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let base = base();
    let mut loader = Loader::new();
    for s in &base.arch {
        loader.add_str(s.name.clone(), s.text.clone());
    }
    for s in &base.models {
        if !s.id.is_empty() && text.contains(s.id.as_str()) {
            loader.add_str(s.name.clone(), s.text.clone());
        }
    }
    let first_user = loader.sources().len();
    loader.add_str("fuzz.yaml", text.into_owned());
    let loaded = loader.finish();
    // The messages are rendered whatever happens (registers! renders them on failure).
    let (user, _) = loaded.split_from(first_user);
    let _ = pmu_defs::diag::render(&user, &loaded.omitted, &loaded.sources);
    if loaded.has_errors() {
        return;
    }
    let only: Vec<String> = loaded
        .model
        .generations
        .iter()
        .filter(|g| g.span.file >= first_user)
        .map(|g| g.id.clone())
        .collect();
    let opts = pmu_codegen::Options {
        only: Some(only),
        runtime: true,
        ..pmu_codegen::Options::external()
    };
    let _ = pmu_codegen::generate(&loaded.model, &opts);
}

/// `import_perfmon`: the input is one perfmon event file (JSON) imported in memory
/// ([`pmu_import::import_str`]). An optional first line `NAME.json` names it (the
/// name gives the generation id and the architectural version); else it is
/// `fuzz_core.json`. A model imported without error must be YAML the loader parses: its
/// check on `intel-v1` ... `v6` may report that the model does not validate, but never a
/// syntax or schema error in what the importer wrote.
pub fn import_perfmon(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (name, json) = match text.split_once('\n') {
        Some((first, rest)) if first.ends_with(".json") && !first.contains(['{', '[']) => {
            (first.trim(), rest)
        }
        _ => ("fuzz_core.json", &*text),
    };
    let import = pmu_import::import_str(name, json);
    for issue in &import.issues {
        let _ = issue.to_string();
    }
    if import.has_errors() {
        return;
    }
    let loaded = pmu_import::check_models(&import.models);
    // The codes of `pmu_defs::load::yaml` and the schema decoding (`de`, `raw`): what the file
    // says, before any generation is resolved or validated.
    let written = |code: &str| {
        code.starts_with("yaml")
            || matches!(
                code,
                "duplicate-key"
                    | "duplicate-name"
                    | "empty-file"
                    | "invalid-bits"
                    | "invalid-name"
                    | "invalid-number"
                    | "invalid-value"
                    | "missing-key"
                    | "out-of-range"
                    | "type-mismatch"
                    | "unknown-key"
            )
    };
    let bad: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error && written(d.code))
        .collect();
    assert!(
        bad.is_empty(),
        "the importer wrote YAML the loader cannot read:\n{}",
        pmu_defs::diag::render(
            &bad.into_iter().cloned().collect::<Vec<_>>(),
            &[],
            &loaded.sources
        )
    );
}

/// `encode`: the input is up to four lines, `GENERATION`, `EVENT[:modifiers]` (an event name
/// or raw terms `event=0x3c,umask=0`), a further modifier list and a counter (`3`,
/// `fixed1`), encoded against every shipped generation. A value encoded without error has
/// no bit outside its mask, and, for an event select, decodes back with no reserved bit set
/// and the same value in every field the encoding names.
pub fn encode(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.splitn(4, '\n');
    let generation = lines.next().unwrap_or("").trim();
    let spec = lines.next().unwrap_or("");
    let modifiers = lines.next().unwrap_or("");
    let counter = lines.next().unwrap_or("");
    let encoder = Encoder::new(&shipped().model);
    let request = Request::parse(spec).and_then(|r| {
        let r = if modifiers.trim().is_empty() {
            r
        } else {
            r.with_modifiers(modifiers)?
        };
        Ok(match counter.trim() {
            "" => r,
            c => r.on(c.parse::<Counter>()?),
        })
    });
    let request = match request {
        Ok(r) => r,
        Err(e) => {
            let _ = (e.to_string(), e.kind());
            return;
        }
    };
    let enc = match encoder.encode(generation, &request) {
        Ok(enc) => enc,
        Err(e) => {
            let _ = (e.to_string(), e.kind());
            return;
        }
    };
    assert_eq!(
        enc.value & !enc.mask,
        0,
        "{generation} {spec}: value {:#x} outside its mask {:#x}",
        enc.value,
        enc.mask
    );
    let Some(address) = enc.address else {
        return;
    };
    let Ok(g) = encoder.generation(generation) else {
        return;
    };
    let select = g
        .pmu
        .general
        .as_ref()
        .and_then(|p| g.register(&p.select))
        .is_some_and(|r| r.msr.addresses().any(|a| a == address));
    if !select {
        return;
    }
    let decoded = encoder.decode_in(g, address, enc.value);
    let decoded = match decoded {
        Ok(d) => d,
        Err(e) => panic!("{generation} {spec}: the encoded value does not decode: {e}"),
    };
    assert_eq!(
        decoded.reserved_set, 0,
        "{generation} {spec}: encoded value {:#x} sets reserved bits",
        enc.value
    );
    for f in &enc.fields {
        let back = decoded
            .fields
            .iter()
            .find(|d| d.name == f.name && d.element == f.element);
        assert_eq!(
            back.map(|d| d.value),
            Some(f.value),
            "{generation} {spec}: field {} of {:#x}",
            f.name,
            enc.value
        );
    }
}

/// `decode`: the input is a register value (8 bytes, little-endian), an MSR address (4
/// bytes) and a generation: its id as the `decode` command takes it (or a unique suffix such
/// as `skylake`), or, when at most one byte is left, the shipped generation of that index.
/// An address whose first byte is `0xFF` stands for a register of the generation (the second
/// byte picks which, the third its instance), so the fuzzer reaches every register without
/// guessing addresses.
pub fn decode(data: &[u8]) {
    let model = &shipped().model;
    if model.generations.is_empty() || data.len() < 12 {
        return;
    }
    let value = u64::from_le_bytes(data[..8].try_into().unwrap_or_default());
    let address = u32::from_le_bytes(data[8..12].try_into().unwrap_or_default());
    let rest = &data[12..];
    let encoder = Encoder::new(model);
    let g = match rest {
        [] => &model.generations[0],
        [i] => &model.generations[usize::from(*i) % model.generations.len()],
        id => {
            // As the `decode` command looks it up: an id, a unique suffix (`skylake`), ...
            let id = String::from_utf8_lossy(id);
            match encoder.generation(&id) {
                Ok(g) => g,
                Err(e) => {
                    let _ = (e.to_string(), e.kind());
                    return;
                }
            }
        }
    };
    let address = match address.to_le_bytes() {
        [0xFF, pick, k, _] if !g.registers.is_empty() => {
            let r = &g.registers[usize::from(pick) % g.registers.len()];
            r.msr.address(u32::from(k) % r.msr.count.max(1))
        }
        _ => address,
    };
    match encoder.decode_in(g, address, value) {
        Ok(d) => {
            let _ = (format!("{d:?}"), d.register_instance());
        }
        Err(e) => {
            let _ = (e.to_string(), e.kind());
        }
    }
}
