//! A vendor adds a CPU generation by editing YAML alone ("YAML is the only source").
//!
//! In a copy of the workspace (the crates `cargo xtask` and `pmu-regs` need), the test adds a
//! hypothetical `intel-v7` (`pmu-defs/defs/intel/v7.yaml`: version 7 detection, six fixed
//! counters, a new event-select field with named values, a new MSR, three architectural
//! events) and a core model `intel-futurecove` (`models/futurecove.yaml`, family 6 model F0H,
//! one model event), then runs what a vendor would run:
//!
//! 1. `cargo xtask validate` on a v7 that states six fixed counters but five bits in one of
//!    the global registers' per-counter arrays: refused, one `counter-count-mismatch`;
//! 2. `cargo xtask validate`, `dump`, `gen` and `gen-docs` on the files as a vendor writes
//!    them, the fixed-counter count stated once: accepted, every per-counter array and family
//!    derived from it (`dump` says so), generated, documented (pages for both generations);
//! 3. `cargo run` of a consumer crate depending on the copied `pmu-regs` (features `mock` and
//!    `intel-futurecove`): detection on a version-7 CPUID table picks `intel-v7` and the model,
//!    and `Pmu` programs, counts and reads a v7 event, the model event and fixed counter 5 on
//!    the mock, for both generations;
//! 4. the project's own suites that read the definitions (`facts`, `encode`, `detect`,
//!    `runtime`, `no_reserved_bits`) pass unchanged in the copy;
//! 5. a vendor's crate outside any workspace, `tests/ui/pass/extends_builtin.rs` with its
//!    YAML, builds against the copy's `pmu-regs` and `pmu-macros` and runs: `registers!`
//!    extends the built-in `amd-perfmon-v2`, and its generation is detected and programmed
//!    through `Pmu` on the mock.
//!
//! No Rust file of the copy is edited by hand. The copy and its build directory live under
//! `CARGO_TARGET_TMPDIR` (`target/tmp/yaml-only/`), at a fixed path and refreshed file by file
//! (only files whose contents changed are rewritten), so a rerun rebuilds nothing that did not
//! change: the build of `pmu-defs` depends on its own path (`env!("CARGO_MANIFEST_DIR")` finds
//! the definitions), so a fresh random directory would rebuild everything every time. A lock
//! file keeps two runs from sharing the copy at once. The documentation goes to a fresh
//! temporary directory.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

/// What the copy needs to build `xtask` and `pmu-regs`: the workspace files and these crates.
const ROOT_FILES: [&str; 3] = ["Cargo.toml", "Cargo.lock", "rust-toolchain.toml"];
const DIRS: [&str; 11] = [
    ".cargo",
    "pmu-cli",
    "pmu-codegen",
    "pmu-defs",
    "pmu-import",
    "pmu-macros",
    "pmu-regs",
    "pmu-site",
    "pmu-vocab",
    "tests",
    "xtask",
];
/// Workspace members of the copy (the real workspace also has the examples).
const MEMBERS: [&str; 10] = [
    "pmu-cli",
    "pmu-codegen",
    "pmu-defs",
    "pmu-import",
    "pmu-macros",
    "pmu-regs",
    "pmu-site",
    "pmu-vocab",
    "tests",
    "xtask",
];
/// The project's own suites that read the definitions or the generated run-time tables: they
/// must pass unchanged in the copy, whose definitions have two more generations.
const OWN_SUITES: [&str; 5] = ["facts", "encode", "detect", "runtime", "no_reserved_bits"];
/// A vendor's crate outside any workspace (beside the copy), built against the copy's
/// `pmu-regs` and `pmu-macros`: `tests/ui/pass/extends_builtin.{rs,yaml}` as its `main.rs`,
/// a `registers!` file extending the built-in `amd-perfmon-v2`, run on the mock.
const VENDOR: &str = "vendor-crate";
const VENDOR_MANIFEST: &str = r#"[package]
name = "vendor-crate"
version = "0.1.0"
edition = "2024"
publish = false

# Not a member of any workspace.
[workspace]

[dependencies]
pmu-regs = { path = "../ws/pmu-regs", features = ["mock"] }
pmu-macros = { path = "../ws/pmu-macros" }
"#;
/// The consumer crate, added as a member once `cargo xtask gen` has made its feature.
const CONSUMER: &str = "yaml-only-consumer";

const V7_PATH: &str = "pmu-defs/defs/intel/v7.yaml";
const MODEL_PATH: &str = "pmu-defs/defs/intel/models/futurecove.yaml";

/// intel-v7 up to the per-counter arrays of the global registers.
const V7_HEAD: &str = r#"# yaml-language-server: $schema=../../schema/generation.schema.json
# Intel architectural performance monitoring, version 7: hypothetical, written by
# tests/tests/yaml_only.rs to show that a generation is added by YAML alone.
# See v1.yaml for how manual sections are numbered.
generation: intel-v7
extends: intel-v6
title: Intel architectural performance monitoring, version 7
manual: Intel SDM Vol. 3B, "Architectural Performance Monitoring Version 7" (hypothetical)
doc: |
  Six fixed counters (4 and 5 added), a scope filter in the event select, the
  IA32_PERF_FOO register and three more architectural events.

# Detected when CPUID.0AH:EAX[7:0] reports version 7 or later (the deepest generation whose
# condition holds is chosen).
detect: { leaf: ARCH_PERFMON, register: eax, field: VERSION, at-least: 7 }

registers:
  - name: IA32_FIXED_CTR
    doc: |
      Fixed-function counter: 0 instructions retired, 1 unhalted core cycles, 2 unhalted
      reference cycles, 3 top-down slots, 4 and 5 new in version 7.
    manual: Intel SDM Vol. 3B (hypothetical); Vol. 4 Table 2-2 (309H-30EH)
    msr: { count: 6 }

  - name: IA32_PERFEVTSEL
    fields:
      - name: SCOPE
        bits: 38:37
        doc: Which logical processors' occurrences of the event are counted.
        values:
          - { name: THREAD, value: 0, doc: This logical processor only. }
          - { name: CORE, value: 1, doc: Every logical processor of the core. }
          - { name: MODULE, value: 2, doc: Every core of the module. }

"#;

/// The per-counter arrays over the fixed counters of the shipped intel-v6, as (field,
/// register): what follows the fixed-counter count of a generation that extends it.
fn fixed_arrays() -> Vec<(String, String)> {
    use pmu_defs::model::CounterKind;
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    let v6 = loaded.model.generation("intel-v6").expect("intel-v6");
    v6.registers
        .iter()
        .flat_map(|r| {
            r.fields
                .iter()
                .filter(|f| f.per_counter == Some(CounterKind::Fixed))
                .map(|f| (f.name.clone(), r.name.clone()))
        })
        .collect()
}

/// The register families with one instance per fixed counter (`per-counter: fixed`), read
/// from the model: they follow the fixed-counter count too.
fn fixed_register_families() -> Vec<String> {
    use pmu_defs::model::CounterKind;
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    let v6 = loaded.model.generation("intel-v6").expect("intel-v6");
    v6.registers
        .iter()
        .filter(|r| r.per_counter == Some(CounterKind::Fixed))
        .map(|r| r.name.clone())
        .collect()
}

/// One per-counter array stated with a count that disagrees with the six fixed counters.
const V7_WRONG: &str = r#"  - name: IA32_PERF_GLOBAL_CTRL
    fields:
      - { name: EN_FIXED_CTR, array: { count: 5 } }

"#;

/// The rest of intel-v7: a new MSR with a role-less field, CPUID bits, three events.
const V7_TAIL: &str = r#"  - name: IA32_PERF_FOO
    doc: Hypothetical version 7 register with one field and no run-time role.
    manual: Intel SDM Vol. 4 Table 2-2 (39FH, hypothetical)
    msr: 0x39F
    width: 64
    access: read-write
    reset: 0
    fields:
      - name: FOO_LEVEL
        bits: 3:0
        doc: A level from 0 to 15.

cpuid:
  - name: ARCH_PERFMON
    ebx:
      - { name: FOO_CYCLES_UNAVAILABLE, bits: 13, doc: Set when Foo Cycles is not available. }
      - { name: FOO_HITS_UNAVAILABLE, bits: 14, doc: Set when Foo Hits is not available. }
      - { name: FOO_MISSES_UNAVAILABLE, bits: 15, doc: Set when Foo Misses is not available. }

events:
  - { name: FOO_CYCLES, event: 0xE8, umask: 0x01, cpuid-bit: 13, doc: Cycles the foo unit is busy. }
  - { name: FOO_HITS, event: 0xE8, umask: 0x02, cpuid-bit: 14, doc: Foo lookups that hit. }
  - { name: FOO_MISSES, event: 0xE8, umask: 0x04, cpuid-bit: 15, doc: Foo lookups that missed. }
"#;

const MODEL: &str = r#"# yaml-language-server: $schema=../../../schema/generation.schema.json
# A hypothetical core model, written by tests/tests/yaml_only.rs: a core of intel-v7 with one
# model-specific event.
generation: intel-futurecove
extends: intel-v7
title: Core events of Future Cove (hypothetical)
manual: Intel SDM Vol. 3B, "Architectural Performance Monitoring Version 7" (hypothetical)
doc: |
  A hypothetical core: architectural performance monitoring version 7 with one
  model-specific event.
source: hypothetical (tests/tests/yaml_only.rs)
cpus:
  - { family-model: GenuineIntel-6-F0 }
events:
  - { name: FOO_PORT.DISPATCH, event: 0xE9, umask: 0x01, counters: [0-7], sample-after: 100003 }
"#;

const CONSUMER_MANIFEST: &str = r#"[package]
name = "yaml-only-consumer"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
pmu-regs = { path = "../pmu-regs", features = ["mock", "intel-futurecove"] }
"#;

const CONSUMER_MAIN: &str = r#"//! Uses the generated crate on a CPU that only the YAML describes.

use pmu_regs::access::MsrExt;
use pmu_regs::arch::{
    Arch, ArchVisitor, Counter, Filter, FixedMode, Generation, IntelFuturecove, IntelV7,
};
use pmu_regs::backend::mock::{Mock, MockConfig};
use pmu_regs::detect::{CpuidEntry, CpuidTable, PmuInfo, detect};
use pmu_regs::intel::{futurecove, v7};
use pmu_regs::pmu::{AsEvent, Pmu};

const GENUINE_INTEL: [u32; 3] = [0x756E_6547, 0x6C65_746E, 0x4965_6E69];

/// Family 6, model F0H, stepping 1 (CPUID.01H:EAX = extended model F, family 6, model 0);
/// CPUID.0AH: version 7, 8 general-purpose counters of 48 bits, 16 architectural-event bits
/// all clear, fixed counters 0-5 (ECX bitmap, EDX count 6 of 48 bits, AnyThread deprecated);
/// leaf 23H (enumerated by CPUID.(07H,1):EAX[8]) with UMASK2, EQ and the counter bitmaps.
const FUTURE_COVE: [CpuidEntry; 7] = [
    CpuidEntry::new(0x0, 0, [0x23, GENUINE_INTEL[0], GENUINE_INTEL[1], GENUINE_INTEL[2]]),
    CpuidEntry::new(0x1, 0, [0x000F_0601, 0, 0, 0]),
    CpuidEntry::new(0x7, 0, [0x1, 0, 0, 0]),
    CpuidEntry::new(0x7, 1, [1 << 8, 0, 0, 0]),
    CpuidEntry::new(0xA, 0, [0x1030_0807, 0, 0x3F, 0x8606]),
    CpuidEntry::new(0x23, 0, [0b11, 0b11, 0, 0]),
    CpuidEntry::new(0x23, 1, [0xFF, 0x3F, 0, 0]),
];

/// Programs, counts and reads on the mock of the visited generation.
struct Count<'a>(&'a PmuInfo);

impl ArchVisitor for Count<'_> {
    type Output = String;
    fn visit<A: Arch>(self) -> String {
        let info = self.0;
        assert_eq!((A::GP_INSTANCES, A::FIXED_INSTANCES), (8, 6));
        let mock = Mock::<A>::new(MockConfig::from_info(info, 1));
        let mut pmu = Pmu::<A, _>::new(mock.cpu(0), info).expect("Pmu::new");
        // An architectural event new in version 7, and the model's own event.
        // `A` is any generation here, so the events go in as `EventDesc`s (`program_raw`);
        // `main` programs them typed on the model's marker.
        let sel = pmu
            .program_raw(2, &v7::ArchEvent::FooHits.event_desc(), Filter::ALL)
            .expect("program FOO_HITS");
        assert_eq!(sel & 0xFFFF, 0x02E8);
        let dispatch = futurecove::events::Event::FooPort_Dispatch.event_desc();
        pmu.program_raw(7, &dispatch, Filter::USER)
            .expect("program FOO_PORT.DISPATCH");
        // Fixed counter 5, which only version 7 has.
        pmu.program_fixed(5, FixedMode::All, false)
            .expect("program fixed counter 5");
        assert!(mock.tick(0, Counter::Gp(2), 1234).unwrap().counted);
        assert!(mock.tick(0, Counter::Gp(7), 77).unwrap().counted);
        assert!(mock.tick(0, Counter::Fixed(5), 5555).unwrap().counted);
        let gp2 = pmu.read(Counter::Gp(2)).expect("read");
        let gp7 = pmu.read(Counter::Gp(7)).expect("read");
        let fixed5 = pmu.read(Counter::Fixed(5)).expect("read");
        assert_eq!((gp2, gp7, fixed5), (1234, 77, 5555));
        assert!(mock.faults().is_empty(), "{:?}", mock.faults());
        format!("{}: gp2={gp2} gp7={gp7} fixed5={fixed5}", A::ID)
    }
}

fn main() {
    let info = detect(&mut CpuidTable::new(&FUTURE_COVE));
    print!("{info}");
    assert_eq!(info.generation.map(|g| g.id()), Some("intel-v7"));
    assert_eq!(info.model.map(|g| g.id()), Some("intel-futurecove"));
    assert_eq!((info.counters.gp, info.counters.fixed), (0xFF, 0x3F));
    assert_eq!(Generation::from_id("intel-v7"), Some(Generation::IntelV7));
    assert_eq!(info.generation, <IntelV7 as Arch>::generation());

    // The generation's typed registers: the new MSR and the new event-select field.
    let mock = Mock::<IntelV7>::new(MockConfig::from_info(&info, 1));
    let mut cpu = mock.cpu(0);
    assert_eq!(v7::IA32_PERF_FOO::ADDRESS, 0x39F);
    cpu.write(
        v7::IA32_PERF_FOO::MSR,
        v7::IA32_PERF_FOO::Value::new().with::<v7::IA32_PERF_FOO::FOO_LEVEL, 9>().build(),
    )
    .expect("write IA32_PERF_FOO");
    assert_eq!(cpu.read(v7::IA32_PERF_FOO::MSR).unwrap().get::<v7::IA32_PERF_FOO::FOO_LEVEL>(), 9);
    let sel2 = v7::IA32_PERFEVTSEL::msr::<2>();
    cpu.modify(sel2, |v| v.with::<v7::IA32_PERFEVTSEL::SCOPE, 1>())
        .expect("set SCOPE");
    assert_eq!(
        cpu.read(sel2).unwrap().named::<v7::IA32_PERFEVTSEL::SCOPE>(),
        Some(v7::IA32_PERFEVTSEL::Scope::Core)
    );
    assert!(mock.faults().is_empty(), "{:?}", mock.faults());

    // The model's Pmu takes version 7's architectural event and the model's own, typed
    // (`EventOf`, generated from the YAML's `extends` chain).
    let mock = Mock::<IntelFuturecove>::new(MockConfig::from_info(&info, 1));
    let mut pmu = Pmu::<IntelFuturecove, _>::new(mock.cpu(0), &info).expect("Pmu::new");
    let sel = pmu.program(0, &v7::ArchEvent::FooHits, Filter::ALL).expect("typed FOO_HITS");
    assert_eq!(sel & 0xFFFF, 0x02E8);
    let sel = pmu
        .program(1, &futurecove::events::Event::FooPort_Dispatch, Filter::ALL)
        .expect("typed FOO_PORT.DISPATCH");
    assert_eq!(sel & 0xFFFF, 0x01E9);

    // Pmu on the detected generation and on the model, chosen at run time.
    let generation = info.generation.unwrap().visit(Count(&info));
    let model = info.model.unwrap().visit(Count(&info));
    println!("yaml-only consumer: {generation}; {model}");
}
"#;

fn cargo() -> Command {
    let mut c = Command::new(env!("CARGO"));
    // The outer `cargo test` describes the `tests` package to this process; the inner cargo
    // works on the copy, with its own target directory.
    for (k, _) in std::env::vars_os() {
        let k = k.to_string_lossy();
        if k.starts_with("CARGO_PKG_")
            || matches!(
                &*k,
                "CARGO_TARGET_DIR"
                    | "CARGO_BUILD_TARGET_DIR"
                    | "CARGO_MANIFEST_DIR"
                    | "CARGO_MANIFEST_PATH"
                    | "CARGO_PRIMARY_PACKAGE"
                    | "CARGO_CRATE_NAME"
                    | "CARGO_TARGET_TMPDIR"
            )
        {
            c.env_remove(&*k);
        }
    }
    c
}

/// Runs `cargo args` in `ws` and returns its output, with the time it took.
fn run(ws: &Path, target: &Path, args: &[&str], times: &mut Vec<(String, f64)>) -> Output {
    let start = Instant::now();
    let out = cargo()
        .args(args)
        .current_dir(ws)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {} {args:?}: {e}", env!("CARGO")));
    let label = format!("cargo {}", args.join(" "));
    times.push((label, start.elapsed().as_secs_f64()));
    out
}

fn text(out: &Output) -> String {
    format!(
        "status: {}\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Writes `contents` to `path` unless it already holds exactly that (so its modification
/// time, which cargo compares, only moves when it changes).
fn put(path: &Path, contents: &[u8]) {
    if fs::read(path).is_ok_and(|old| old == contents) {
        return;
    }
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).unwrap();
    }
    fs::write(path, contents).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}

/// Files below `dir` (relative to `root`), skipping build directories and symbolic links.
fn files(root: &Path, dir: &Path, out: &mut BTreeSet<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let Ok(kind) = e.file_type() else { continue };
        if kind.is_dir() && e.file_name() != OsStr::new("target") {
            files(root, &path, out);
        } else if kind.is_file() {
            out.insert(path.strip_prefix(root).unwrap().to_path_buf());
        }
    }
}

/// `cargo xtask gen`'s outputs: regenerated from the definitions in the copy, so the copy
/// keeps its own (and their modification times) rather than taking the workspace's.
fn generated(rel: &Path) -> bool {
    rel == Path::new("pmu-regs/src/generated.rs") || rel.starts_with("pmu-regs/src/generated")
}

/// `pmu-regs/Cargo.toml` without the block `cargo xtask gen` writes.
fn without_features(manifest: &str) -> String {
    let begin = manifest.find("# @generated features: begin");
    let end = manifest.find("# @generated features: end");
    match (begin, end) {
        (Some(b), Some(e)) => format!("{}{}", &manifest[..b], &manifest[e..]),
        _ => manifest.to_string(),
    }
}

/// The workspace manifest with `members` as given.
fn with_members(manifest: &str, members: &[&str]) -> String {
    let start = manifest
        .find("members = [")
        .expect("workspace manifest lists its members");
    let end = start + manifest[start..].find(']').unwrap() + 1;
    let list: Vec<String> = members.iter().map(|m| format!("\"{m}\"")).collect();
    format!(
        "{}members = [{}]{}",
        &manifest[..start],
        list.join(", "),
        &manifest[end..]
    )
}

/// Brings the copy in `ws` up to date with the workspace in `root`.
fn refresh(root: &Path, ws: &Path) {
    let mut want = BTreeSet::new();
    for f in ROOT_FILES {
        want.insert(PathBuf::from(f));
    }
    for d in DIRS {
        files(root, &root.join(d), &mut want);
    }
    for rel in &want {
        let src = fs::read(root.join(rel)).unwrap();
        let dst = ws.join(rel);
        if rel == Path::new("Cargo.toml") {
            let manifest = String::from_utf8(src).unwrap();
            put(&dst, with_members(&manifest, &MEMBERS).as_bytes());
        } else if rel == Path::new("pmu-regs/Cargo.toml") {
            let same = fs::read_to_string(&dst).is_ok_and(|old| {
                without_features(&old) == without_features(&String::from_utf8_lossy(&src))
            });
            if !same {
                put(&dst, &src);
            }
        } else if !(generated(rel) && dst.exists()) {
            put(&dst, &src);
        }
    }
    // Files the workspace no longer has (the generated ones are gen's to prune).
    let mut have = BTreeSet::new();
    for d in DIRS {
        files(ws, &ws.join(d), &mut have);
    }
    for rel in have.difference(&want) {
        if !generated(rel) && rel != Path::new(V7_PATH) && rel != Path::new(MODEL_PATH) {
            fs::remove_file(ws.join(rel)).unwrap();
        }
    }
}

#[test]
fn a_generation_and_a_core_model_are_added_by_yaml_alone() {
    let total = Instant::now();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    if !root.join("pmu-defs/defs/intel/v6.yaml").is_file() {
        eprintln!(
            "note: skipping: {} is not the pmu-regs workspace (no pmu-defs/defs)",
            root.display()
        );
        return;
    }
    // The hypothetical files must not replace real ones.
    let mut defs = BTreeSet::new();
    files(root, &root.join("pmu-defs/defs"), &mut defs);
    assert!(
        !defs.contains(Path::new(V7_PATH)) && !defs.contains(Path::new(MODEL_PATH)),
        "the workspace has its own {V7_PATH} or {MODEL_PATH}: give the test's files other names"
    );
    for rel in &defs {
        let text = fs::read_to_string(root.join(rel)).unwrap_or_default();
        assert!(
            !text.contains("GenuineIntel-6-F0") && !text.contains("generation: intel-v7\n"),
            "{} uses family 6 model F0H or the id intel-v7: give the test's CPU another",
            rel.display()
        );
    }
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("yaml-only");
    let (ws, target) = (base.join("ws"), base.join("target"));
    fs::create_dir_all(&ws).unwrap();
    let lock = fs::File::create(base.join("lock")).unwrap();
    lock.lock().unwrap();
    refresh(root, &ws);
    let mut times = Vec::new();

    // 1. Six fixed counters, and one per-counter array stated with five elements: the
    //    validator refuses that one array, naming intel-v7.
    put(
        &ws.join(V7_PATH),
        format!("{V7_HEAD}{V7_WRONG}{V7_TAIL}").as_bytes(),
    );
    if ws.join(MODEL_PATH).exists() {
        fs::remove_file(ws.join(MODEL_PATH)).unwrap();
    }
    let out = run(&ws, &target, &["xtask", "validate"], &mut times);
    assert!(
        !out.status.success(),
        "a contradicting count accepted\n{}",
        text(&out)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let message = "error[counter-count-mismatch]: field array `EN_FIXED_CTR` of \
                   `IA32_PERF_GLOBAL_CTRL` has 5 elements but `IA32_FIXED_CTR` has 6 fixed \
                   counters in `intel-v7`";
    assert!(
        stderr.contains(message),
        "missing: {message}\n{}",
        text(&out)
    );
    assert!(
        stderr.lines().any(|l| l.starts_with("1 error,")),
        "one error, no other\n{}",
        text(&out)
    );

    // 2. The generation as a vendor writes it (the fixed-counter count once) and the core
    //    model: validated, every per-counter shape derived, generated, documented.
    put(&ws.join(V7_PATH), format!("{V7_HEAD}{V7_TAIL}").as_bytes());
    put(&ws.join(MODEL_PATH), MODEL.as_bytes());
    let out = run(&ws, &target, &["xtask", "validate"], &mut times);
    assert!(out.status.success(), "validate\n{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("v7.yaml") && !stderr.contains("futurecove.yaml"),
        "no diagnostic on the new files\n{}",
        text(&out)
    );
    let out = run(
        &ws,
        &target,
        &["xtask", "dump", "--generation", "intel-v7"],
        &mut times,
    );
    assert!(out.status.success(), "dump\n{}", text(&out));
    let dump = String::from_utf8_lossy(&out.stdout);
    let derived: Vec<&str> = (dump.lines())
        .filter_map(|l| l.split_once("derived from the counter count: "))
        .map(|(_, what)| what)
        .collect();
    for (field, register) in fixed_arrays() {
        assert!(
            derived.iter().any(|d| d.split(", ").any(|x| x == field)),
            "{field} of {register} not derived\n{dump}"
        );
    }
    let families = fixed_register_families();
    assert!(!families.is_empty());
    for register in families {
        let at = dump
            .find(&format!("\n  {register} "))
            .unwrap_or_else(|| panic!("{dump}"));
        let next = dump[at + 1..].lines().nth(1).unwrap_or_default();
        assert!(
            next.contains("derived from the counter count: instance count"),
            "{register}: {next}"
        );
    }
    let out = run(&ws, &target, &["xtask", "gen"], &mut times);
    assert!(out.status.success(), "gen\n{}", text(&out));
    let model_rs = ws.join("pmu-regs/src/generated/intel/futurecove.rs");
    assert!(model_rs.is_file(), "gen wrote no {}", model_rs.display());
    let manifest = fs::read_to_string(ws.join("pmu-regs/Cargo.toml")).unwrap();
    assert!(manifest.contains("\nintel-futurecove = []\n"), "{manifest}");
    let generated_rs = fs::read_to_string(ws.join("pmu-regs/src/generated.rs")).unwrap();
    assert!(generated_rs.contains("pub struct IntelV7;"));
    let docs = tempfile::tempdir().unwrap();
    let docs_out = docs.path().join("docs");
    let out = run(
        &ws,
        &target,
        &["xtask", "gen-docs", "--out", docs_out.to_str().unwrap()],
        &mut times,
    );
    assert!(out.status.success(), "gen-docs\n{}", text(&out));
    for (page, needle) in [
        ("gen/intel-v7/index.html", "IA32_PERF_FOO"),
        ("gen/intel-v7/reg/IA32_PERF_FOO.html", "FOO_LEVEL"),
        ("gen/intel-v7/reg/IA32_PERFEVTSEL.html", "SCOPE"),
        ("data/events/intel-v7.js", "FOO_HITS"),
        ("md/intel-v7/README.md", "IA32_PERF_FOO"),
        ("gen/intel-futurecove/index.html", "intel-v7"),
        ("data/events/intel-futurecove.js", "FOO_PORT.DISPATCH"),
        ("md/intel-futurecove/README.md", "intel-futurecove"),
    ] {
        let path = docs_out.join(page);
        let body =
            fs::read_to_string(&path).unwrap_or_else(|e| panic!("no page {}: {e}", path.display()));
        assert!(body.contains(needle), "{page} does not mention {needle}");
    }
    let index = fs::read_to_string(docs_out.join("index.html")).unwrap();
    assert!(index.contains("intel-v7") && index.contains("intel-futurecove"));

    // 3. A crate using the generated code: detection, typed registers, Pmu on the mock.
    let mut members = MEMBERS.to_vec();
    members.push(CONSUMER);
    let manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
    put(
        &ws.join("Cargo.toml"),
        with_members(&manifest, &members).as_bytes(),
    );
    put(
        &ws.join(CONSUMER).join("Cargo.toml"),
        CONSUMER_MANIFEST.as_bytes(),
    );
    put(
        &ws.join(CONSUMER).join("src/main.rs"),
        CONSUMER_MAIN.as_bytes(),
    );
    let out = run(
        &ws,
        &target,
        &["run", "--quiet", "--package", CONSUMER],
        &mut times,
    );
    assert!(out.status.success(), "consumer\n{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "yaml-only consumer: intel-v7: gp2=1234 gp7=77 fixed5=5555; \
             intel-futurecove: gp2=1234 gp7=77 fixed5=5555"
        ),
        "{}",
        text(&out)
    );
    assert!(
        stdout.contains("PMU generation: intel-v7"),
        "{}",
        text(&out)
    );

    // 4. The project's own suites, unchanged, on definitions with two more generations:
    //    nothing in them is a hand-kept list of generations that the new ones break.
    let mut args = vec!["test", "--quiet", "--package", "tests"];
    for suite in OWN_SUITES {
        args.extend(["--test", suite]);
    }
    let out = run(&ws, &target, &args, &mut times);
    assert!(
        out.status.success(),
        "own suites in the copy\n{}",
        text(&out)
    );

    // 5. A vendor's crate outside the workspace extends a built-in generation through
    //    registers!, and its types go through the run-time layer (the program asserts).
    let vendor = base.join(VENDOR);
    let pass = root.join("tests/ui/pass");
    put(&vendor.join("Cargo.toml"), VENDOR_MANIFEST.as_bytes());
    put(
        &vendor.join("Cargo.lock"),
        &fs::read(ws.join("Cargo.lock")).unwrap(),
    );
    put(
        &vendor.join("src/main.rs"),
        &fs::read(pass.join("extends_builtin.rs")).unwrap(),
    );
    put(
        &vendor.join("src/extends_builtin.yaml"),
        &fs::read(pass.join("extends_builtin.yaml")).unwrap(),
    );
    let out = run(&vendor, &target, &["run", "--quiet"], &mut times);
    assert!(out.status.success(), "vendor crate\n{}", text(&out));

    for (step, secs) in &times {
        eprintln!("{secs:7.1} s  {step}");
    }
    eprintln!("{:7.1} s  total", total.elapsed().as_secs_f64());
}
