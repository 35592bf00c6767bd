//! The identifier rule as a property (issue 11): for any names in a definition file, the
//! validator either rejects the file with an error located in it, or the code generator
//! succeeds and its output is Rust that compiles.
//!
//! 1. **Random files** (proptest, fixed seed, [`CASES`] files): a generation whose id,
//!    registers, fields, named values, CPUID leaves and fields, and events have random names,
//!    drawn from the generator's own vocabulary (every identifier of its output for a small
//!    generation using every kind of item, tock-registers' names and every edition's keywords)
//!    in random case, run together with letters, digits, `_`, `-`, `.`, `:`, `=` and `é`. Each
//!    file extends `intel-v4` and is loaded on top of the hand-written shipped definitions as
//!    `registers!` loads a user's file (`Loaded::split_from`): either an error's primary label
//!    is in the file, or `codegen::generate` does not panic and its output parses as a Rust
//!    file (`syn`).
//! 2. **Sweeps**: every word of the vocabulary as a field, a named value, a CPUID field and an
//!    event name, and every word scope lookup can find (not a method, a path segment or an
//!    attribute) as a register, a CPUID leaf and a generation id, in files the validator is
//!    asked about until it accepts them (a refused word is dropped from the place its error's
//!    line names, and must be refused there).
//! 3. **Compilation**: the first [`COMPILED`] accepted random files, the sweep, and the
//!    regression files of the names that used to make `registers!` panic or expand to code
//!    that did not compile, each behind one `registers!` call in one scratch crate
//!    (`CARGO_TARGET_TMPDIR/names`, at a fixed path, depending on `pmu-regs` and `pmu-macros`
//!    by path, with its own target directory so that a rerun rebuilds only what changed),
//!    built once with `cargo build`: so "the generated code compiles" is proven, not assumed.
//!    The first run also builds the dependencies (about two minutes on two cores); after a
//!    change to the generator the crate is rebuilt (about a minute), else nothing is. The
//!    random files and the sweep take about 20 s.
//!
//! A fourth test checks the other direction: every item the generator emits for the shipped
//! definitions is either derived by `pmu_defs::model::names` or listed in its `RESERVED_*` tables.

use pmu_codegen::{Options, generate};
use pmu_defs::model::names::KEYWORDS;
use pmu_defs::{Loaded, Loader, Severity};
use proc_macro2::{TokenStream, TokenTree};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

/// Random files checked.
const CASES: u32 = 512;
/// Accepted random files compiled.
const COMPILED: usize = 24;

// ---------------------------------------------------------------------------------------------
// Loading and generating, as `registers!` does
// ---------------------------------------------------------------------------------------------

/// The hand-written shipped definitions (name, text): what the random files extend. The
/// imported CPU models are left out (they take most of the load time and give the layouts
/// of `intel-v4` no other home).
fn base_files() -> &'static [(String, String)] {
    static FILES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let defs = pmu_defs::defs_dir();
        let mut out = Vec::new();
        for dir in ["intel", "amd"] {
            let mut paths: Vec<PathBuf> = fs::read_dir(defs.join(dir))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
                .collect();
            paths.sort();
            for p in paths {
                let name = format!("pmu-defs/defs/{dir}/{}", p.file_name().unwrap().display());
                out.push((name, fs::read_to_string(&p).unwrap()));
            }
        }
        out
    })
}

/// Loads `files` on top of the base; returns the load and the id of the first of `files`.
fn load(files: &[(String, String)]) -> (Loaded, usize) {
    let mut loader = Loader::new();
    for (name, text) in base_files() {
        loader.add_str(name.clone(), text.clone());
    }
    let first = loader.sources().len();
    for (name, text) in files {
        loader.add_str(name.clone(), text.clone());
    }
    (loader.finish(), first)
}

/// The code `registers!` emits for the generations of files `first..`.
fn generate_user(loaded: &Loaded, first: usize) -> TokenStream {
    let only = loaded
        .model
        .generations
        .iter()
        .filter(|g| g.span.file >= first)
        .map(|g| g.id.clone())
        .collect();
    let opts = Options {
        only: Some(only),
        runtime: true,
        ..Options::external()
    };
    generate(&loaded.model, &opts)
}

// ---------------------------------------------------------------------------------------------
// The vocabulary: names the generated code uses
// ---------------------------------------------------------------------------------------------

/// A small generation using every kind of item the generator emits: an extended event select,
/// a register family with one-bit, named-value, whole-byte, split and arrayed fields and a
/// constraint, write-1-to-clear and write-1-to-set registers, a read-only one, a CPUID leaf
/// with named values, architectural and model events.
const VOCABULARY_FIXTURE: &str = r#"generation: zz-vocabulary
extends: intel-v4
registers:
  - name: IA32_PERFEVTSEL
    fields:
      - { name: KIND, bits: 49:48, values: [{ name: ONE, value: 1 }] }
  - name: VOCABULARY_RW
    msr: { base: 0x5000, count: 2 }
    reset: 0
    fields:
      - { name: FLAG, bits: 0 }
      - { name: BYTE, bits: 15:8, values: [{ name: LOW, value: 1 }] }
      - { name: WORD, bits: 31:16 }
      - { name: SPLIT, bits: [35:32, 39:36] }
      - { name: EN, bits: 40, array: { count: 2, stride: 1 } }
      - { name: LEVEL, bits: 45:44, array: { count: 2, stride: 2 } }
  - name: VOCABULARY_STATUS
    msr: 0x5010
    access: write-1-to-clear
    fields:
      - { name: CLR_OVF, bits: 0, array: { count: 2, stride: 1 } }
  - name: VOCABULARY_SET
    msr: 0x5011
    access: write-1-to-set
    fields:
      - { name: SET_OVF, bits: 0 }
  - name: VOCABULARY_RO
    msr: 0x5012
    access: read-only
    fields:
      - { name: STATE, bits: 3:0 }
cpuid:
  - name: VOCABULARY_LEAF
    leaf: 0x40000100
    subleaf: 0
    eax:
      - { name: NUMBER, bits: 7:0, values: [{ name: NONE_YET, value: 0 }] }
events:
  - { name: VOCABULARY_ARCH, event: 0x10, cpuid-bit: 1 }
  - { name: VOCABULARY.MODEL, event: 0x11 }
constraints:
  - { id: vocabulary, register: VOCABULARY_RW, when: { FLAG: 1, BYTE: 0 }, message: m }
"#;

/// Names of tock-registers' own items that the generated tock-registers code names or
/// implements (`FieldValue`, `TryFromValue::try_from_value`, ...).
const TOCK_WORDS: &[&str] = &[
    "SET",
    "CLEAR",
    "Value",
    "Field",
    "FieldValue",
    "TryFromValue",
    "RegisterDebugInfo",
    "FieldValueEnumTypes",
    "EnumType",
    "try_from_value",
    "name",
    "field_names",
    "fields",
    "v",
    "x",
];

/// The words names are drawn from.
struct Vocabulary {
    /// Every identifier of the code generated for [`VOCABULARY_FIXTURE`] that the fixture did
    /// not name, tock-registers' own, and the keywords: what a field's methods, values and
    /// variants can clash with.
    all: Vec<String>,
    /// Those that scope lookup can find ([`scoped_idents`]), tock-registers' and the keywords:
    /// what a module or type (a register, a CPUID leaf, a generation) can clash with.
    scoped: Vec<String>,
}

fn vocabulary() -> &'static Vocabulary {
    static WORDS: OnceLock<Vocabulary> = OnceLock::new();
    WORDS.get_or_init(|| {
        let file = (
            "vocabulary.yaml".to_string(),
            VOCABULARY_FIXTURE.to_string(),
        );
        let (loaded, first) = load(&[file]);
        assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
        let code = generate_user(&loaded, first);
        let finish = |mut words: BTreeSet<String>| -> Vec<String> {
            words.retain(|w| !w.contains("VOCABULARY") && !w.contains("Vocabulary"));
            words.extend(TOCK_WORDS.iter().map(|w| w.to_string()));
            words.extend(KEYWORDS.iter().map(|w| w.to_string()));
            words.into_iter().collect()
        };
        let (mut all, mut scoped) = (BTreeSet::new(), BTreeSet::new());
        idents(code.clone(), &mut all);
        scoped_idents(code, false, &mut scoped);
        Vocabulary {
            all: finish(all),
            scoped: finish(scoped),
        }
    })
}

fn ident_text(i: &proc_macro2::Ident) -> String {
    let s = i.to_string();
    s.strip_prefix("r#").unwrap_or(&s).to_owned()
}

fn idents(tokens: TokenStream, out: &mut BTreeSet<String>) {
    for t in tokens {
        match t {
            TokenTree::Ident(i) => {
                out.insert(ident_text(&i));
            }
            TokenTree::Group(g) => idents(g.stream(), out),
            _ => {}
        }
    }
}

fn is_punct(t: Option<&TokenTree>, c: char) -> bool {
    matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

/// The identifiers scope lookup can resolve, roughly: not after `.` (a method or field), not
/// after `::` (a path segment), not in an attribute, and not the name of an associated item
/// (`fn`, `const`, `type` at the top of an `impl` body, `in_impl`).
fn scoped_idents(tokens: TokenStream, in_impl: bool, out: &mut BTreeSet<String>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut impl_header = false;
    for (i, t) in tokens.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| &tokens[j]);
        let prev2 = i.checked_sub(2).map(|j| &tokens[j]);
        match t {
            TokenTree::Ident(id) => {
                let s = ident_text(id);
                let assoc = in_impl
                    && matches!(prev, Some(TokenTree::Ident(k))
                        if matches!(k.to_string().as_str(), "fn" | "const" | "type"));
                let path = is_punct(prev, ':') && is_punct(prev2, ':');
                if s == "impl" {
                    impl_header = true;
                }
                if !is_punct(prev, '.') && !path && !assoc {
                    out.insert(s);
                }
            }
            TokenTree::Group(g) => {
                let attribute =
                    is_punct(prev, '#') || (is_punct(prev, '!') && is_punct(prev2, '#'));
                if attribute {
                    continue;
                }
                let body = impl_header && g.delimiter() == proc_macro2::Delimiter::Brace;
                if body {
                    impl_header = false;
                }
                scoped_idents(g.stream(), body, out);
            }
            TokenTree::Punct(p) if p.as_char() == ';' => impl_header = false,
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Random files
// ---------------------------------------------------------------------------------------------

/// A word of the vocabulary in one of four spellings: as is, upper, lower, capitalised.
fn word() -> impl Strategy<Value = String> {
    (0..vocabulary().all.len(), 0..4u8).prop_map(|(i, case)| {
        let w = &vocabulary().all[i];
        match case {
            0 => w.clone(),
            1 => w.to_ascii_uppercase(),
            2 => w.to_ascii_lowercase(),
            _ => {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_ascii_uppercase().to_string() + &c.as_str().to_ascii_lowercase())
                    .unwrap_or_default()
            }
        }
    })
}

/// Characters names are built from besides words: letters, digits and `_` the loader takes in
/// every name, `.`, `:` and `=` it takes in event names only, `-` and `é` nowhere.
const CHARS: &[&str] = &[
    "a", "b", "x", "Q", "Z", "0", "1", "9", "_", "_", "-", ".", ":", "=", "é",
];

/// A random name: mostly a word, or words and characters run together.
fn name() -> BoxedStrategy<String> {
    let atom = prop_oneof![
        3 => word(),
        2 => proptest::sample::select(&CHARS[..10]).prop_map(str::to_owned),
        1 => proptest::sample::select(CHARS).prop_map(str::to_owned),
    ];
    prop_oneof![
        12 => word(),
        4 => (word(), proptest::sample::select(&CHARS[..10]), word())
            .prop_map(|(a, c, b)| format!("{a}{c}{b}")),
        1 => proptest::collection::vec(atom, 1..=3).prop_map(|v| v.concat()),
    ]
    .boxed()
}

/// A random event name: a name, or names joined by `.`, or with a `:c=1`-style suffix.
fn event_name() -> BoxedStrategy<String> {
    prop_oneof![
        2 => name(),
        2 => (name(), name()).prop_map(|(a, b)| format!("{a}.{b}")),
        1 => (name(), proptest::sample::select(&["c", "e", "i"][..]), 0..3u8)
            .prop_map(|(a, m, n)| format!("{a}:{m}={n}")),
    ]
    .boxed()
}

/// A generation id: `zz-<suffix>` or the suffix alone, mostly lowercase.
fn generation_id() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        3 => word().prop_map(|w| w.to_ascii_lowercase()),
        2 => proptest::sample::select(&["a", "1", "-", "_", "x"][..]).prop_map(str::to_owned),
    ];
    (
        any::<bool>(),
        proptest::collection::vec(part, 1..=2).prop_map(|v| v.concat()),
    )
        .prop_map(|(vendor, suffix)| {
            if vendor {
                format!("zz-{suffix}")
            } else {
                suffix
            }
        })
}

#[derive(Clone, Debug)]
struct RField {
    name: String,
    width: u32,
    array: bool,
    values: Vec<String>,
}

#[derive(Clone, Debug)]
struct RRegister {
    name: String,
    access: &'static str,
    family: bool,
    fields: Vec<RField>,
}

#[derive(Clone, Debug)]
struct RLeaf {
    name: String,
    fields: Vec<RField>,
}

#[derive(Clone, Debug)]
struct RCase {
    id: String,
    select_fields: Vec<RField>,
    registers: Vec<RRegister>,
    leaves: Vec<RLeaf>,
    events: Vec<(String, bool)>,
}

fn field() -> impl Strategy<Value = RField> {
    (
        name(),
        1..=4u32,
        proptest::bool::weighted(0.2),
        proptest::collection::vec(name(), 0..=2),
    )
        .prop_map(|(name, width, array, values)| RField {
            name,
            width,
            array,
            values,
        })
}

fn case() -> impl Strategy<Value = RCase> {
    let access = proptest::sample::select(
        &[
            "read-write",
            "read-write",
            "read-write",
            "read-only",
            "write-only",
            "write-1-to-clear",
            "write-1-to-set",
        ][..],
    );
    let register = (
        name(),
        access,
        any::<bool>(),
        proptest::collection::vec(field(), 0..=4),
    )
        .prop_map(|(name, access, family, fields)| RRegister {
            name,
            access,
            family,
            fields,
        });
    let leaf = (name(), proptest::collection::vec(field(), 0..=3))
        .prop_map(|(name, fields)| RLeaf { name, fields });
    (
        generation_id(),
        proptest::collection::vec(field(), 0..=2),
        proptest::collection::vec(register, 0..=3),
        proptest::collection::vec(leaf, 0..=2),
        proptest::collection::vec((event_name(), any::<bool>()), 0..=4),
    )
        .prop_map(|(id, select_fields, registers, leaves, events)| RCase {
            id,
            select_fields,
            registers,
            leaves,
            events,
        })
}

/// A YAML single-quoted scalar.
fn q(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// `{ name: .., bits: .., array: .., values: [..] }` at bit `*lsb`, which it advances.
fn field_yaml(f: &RField, lsb: &mut u32) -> String {
    let bits = if f.width == 1 {
        format!("{lsb}")
    } else {
        format!("{}:{lsb}", *lsb + f.width - 1)
    };
    let mut out = format!("{{ name: {}, bits: {bits}", q(&f.name));
    let count = if f.array { 2 } else { 1 };
    if f.array {
        write!(out, ", array: {{ count: 2, stride: {} }}", f.width).unwrap();
    }
    *lsb += f.width * count;
    // Values that fit the field.
    let values: Vec<String> = f
        .values
        .iter()
        .take(1 << f.width)
        .enumerate()
        .map(|(i, v)| format!("{{ name: {}, value: {i} }}", q(v)))
        .collect();
    if !values.is_empty() {
        write!(out, ", values: [{}]", values.join(", ")).unwrap();
    }
    out.push_str(" }");
    out
}

impl RCase {
    fn yaml(&self) -> String {
        let mut y = format!("generation: {}\nextends: intel-v4\n", q(&self.id));
        if !self.select_fields.is_empty() || !self.registers.is_empty() {
            y.push_str("registers:\n");
        }
        if !self.select_fields.is_empty() {
            // Bits 48 to 63 of the event select are free in intel-v4.
            y.push_str("  - name: IA32_PERFEVTSEL\n    fields:\n");
            let mut lsb = 48;
            for f in &self.select_fields {
                writeln!(y, "      - {}", field_yaml(f, &mut lsb)).unwrap();
            }
        }
        for (i, r) in self.registers.iter().enumerate() {
            let base = 0x5000 + 0x10 * i;
            let msr = if r.family {
                format!("{{ base: {base:#x}, count: 2 }}")
            } else {
                format!("{base:#x}")
            };
            writeln!(
                y,
                "  - name: {}\n    msr: {msr}\n    access: {}",
                q(&r.name),
                r.access
            )
            .unwrap();
            if !r.fields.is_empty() {
                y.push_str("    fields:\n");
                let mut lsb = 0;
                for f in &r.fields {
                    writeln!(y, "      - {}", field_yaml(f, &mut lsb)).unwrap();
                }
            }
        }
        if !self.leaves.is_empty() {
            y.push_str("cpuid:\n");
        }
        for (i, l) in self.leaves.iter().enumerate() {
            writeln!(
                y,
                "  - name: {}\n    leaf: {:#x}",
                q(&l.name),
                0x4000_0010 + i
            )
            .unwrap();
            if !l.fields.is_empty() {
                y.push_str("    eax:\n");
                let mut lsb = 0;
                for f in &l.fields {
                    writeln!(y, "      - {}", field_yaml(f, &mut lsb)).unwrap();
                }
            }
        }
        if !self.events.is_empty() {
            y.push_str("events:\n");
        }
        for (i, (name, arch)) in self.events.iter().enumerate() {
            // Intel's architectural events name a bit of CPUID.0AH:EBX: 0 to 6 in intel-v4.
            let bit = if *arch {
                format!(", cpuid-bit: {}", i % 7)
            } else {
                String::new()
            };
            writeln!(
                y,
                "  - {{ name: {}, event: {:#x}{bit} }}",
                q(name),
                0x10 + i
            )
            .unwrap();
        }
        y
    }
}

/// What a random file came to.
enum Outcome {
    /// Refused, with the codes of the errors located in the file.
    Rejected(Vec<&'static str>),
    /// Accepted, generated and parsed.
    Accepted,
}

/// Loads, validates and (when accepted) generates and parses one file: never a panic, an
/// error located in the file, or code that parses.
fn check(yaml: &str) -> Result<Outcome, String> {
    let file = ("case.yaml".to_string(), yaml.to_string());
    let (loaded, first) = catch_unwind(AssertUnwindSafe(|| load(&[file])))
        .map_err(|p| format!("the loader panicked: {}", panic_text(&p)))?;
    if loaded.has_errors() {
        let (shown, _) = loaded.split_from(first);
        let located: Vec<&'static str> = shown
            .iter()
            .filter(|d| d.severity == Severity::Error && d.span().file >= first)
            .map(|d| d.code)
            .collect();
        if located.is_empty() {
            return Err(format!(
                "refused without an error located in the file:\n{}",
                loaded.render_diagnostics()
            ));
        }
        return Ok(Outcome::Rejected(located));
    }
    let code = catch_unwind(AssertUnwindSafe(|| generate_user(&loaded, first)))
        .map_err(|p| format!("the generator panicked: {}", panic_text(&p)))?;
    syn::parse2::<syn::File>(code)
        .map_err(|e| format!("the generated code does not parse: {e}"))?;
    Ok(Outcome::Accepted)
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// Runs [`CASES`] random files with a fixed seed; returns the accepted ones in order.
fn random_files() -> Vec<String> {
    let config = Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[11; 32]);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let accepted = std::cell::RefCell::new(Vec::new());
    let rejected = std::cell::RefCell::new(BTreeMap::<&'static str, usize>::new());
    let result = runner.run(&case(), |c| {
        let yaml = c.yaml();
        match check(&yaml) {
            Ok(Outcome::Accepted) => accepted.borrow_mut().push(yaml),
            Ok(Outcome::Rejected(codes)) => {
                for code in codes {
                    *rejected.borrow_mut().entry(code).or_default() += 1;
                }
            }
            Err(e) => return Err(TestCaseError::fail(format!("{e}\n--- file:\n{yaml}"))),
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let accepted = accepted.into_inner();
    eprintln!(
        "names: {} of {CASES} random files accepted; errors in the refused ones: {:?}",
        accepted.len(),
        rejected.into_inner()
    );
    accepted
}

// ---------------------------------------------------------------------------------------------
// Sweeps: every word in every place
// ---------------------------------------------------------------------------------------------

/// Sweep files: name, text, and the line of each swept word (line -> (kind, word)).
type Sweep = Vec<(String, String, BTreeMap<usize, (usize, String)>)>;

/// The places a word is swept through, indexes of `words` in [`sweep_files`].
const KINDS: [&str; 7] = [
    "register",
    "field",
    "value",
    "leaf",
    "cpuid-field",
    "event",
    "generation",
];

/// The sweep files for the words still in the running (`words[kind]`, see [`KINDS`]): one
/// file per kind but the generation ids, which have a file each. Each word sits on a line of
/// its own, so an error's line names the word it refuses.
fn sweep_files(words: &[Vec<String>]) -> Sweep {
    let mut files = Sweep::new();
    let mut lines: BTreeMap<usize, (usize, String)> = BTreeMap::new();
    // Registers: a family, with a named-value field and a one-bit field.
    let mut y = String::from("generation: zz-sweep-registers\nextends: intel-v4\nregisters:\n");
    for (i, w) in words[0].iter().enumerate() {
        lines.insert(y.lines().count() + 1, (0, w.clone()));
        writeln!(
            y,
            "  - {{ name: {}, msr: {{ base: {:#x}, count: 2 }}, fields: [{{ name: MODE_F, bits: 7:0, values: [{{ name: ON_V, value: 1 }}] }}, {{ name: FLAG_F, bits: 8 }}] }}",
            q(w),
            0x6000 + 4 * i
        )
        .unwrap();
    }
    files.push(("registers.yaml".into(), y, std::mem::take(&mut lines)));
    // Fields: eight-bit fields with a named value, seven to a register.
    let mut y = String::from("generation: zz-sweep-fields\nextends: intel-v4\nregisters:\n");
    for (i, w) in words[1].iter().enumerate() {
        if i % 7 == 0 {
            writeln!(
                y,
                "  - name: SWEEP_FIELDS_{}\n    msr: {:#x}\n    fields:",
                i / 7,
                0x7000 + i / 7
            )
            .unwrap();
        }
        lines.insert(y.lines().count() + 1, (1, w.clone()));
        writeln!(
            y,
            "      - {{ name: {}, bits: {}:{}, values: [{{ name: ON_V, value: 1 }}] }}",
            q(w),
            8 * (i % 7) + 7,
            8 * (i % 7)
        )
        .unwrap();
    }
    files.push(("fields.yaml".into(), y, std::mem::take(&mut lines)));
    // Values of one sixteen-bit field.
    let mut y = String::from(
        "generation: zz-sweep-values\nextends: intel-v4\nregisters:\n  - name: SWEEP_VALUES\n    msr: 0x7800\n    fields:\n      - name: VALS\n        bits: 15:0\n        values:\n",
    );
    for (i, w) in words[2].iter().enumerate() {
        lines.insert(y.lines().count() + 1, (2, w.clone()));
        writeln!(y, "          - {{ name: {}, value: {i} }}", q(w)).unwrap();
    }
    files.push(("values.yaml".into(), y, std::mem::take(&mut lines)));
    // CPUID leaves, and CPUID fields (with a named value) four to an output register.
    let mut y = String::from("generation: zz-sweep-cpuid\nextends: intel-v4\ncpuid:\n");
    for (i, w) in words[3].iter().enumerate() {
        lines.insert(y.lines().count() + 1, (3, w.clone()));
        writeln!(
            y,
            "  - {{ name: {}, leaf: {:#x}, eax: [{{ name: NUMBER_F, bits: 7:0, values: [{{ name: ON_V, value: 1 }}] }}] }}",
            q(w),
            0x4000_0000 + i
        )
        .unwrap();
    }
    for (i, w) in words[4].iter().enumerate() {
        if i % 4 == 0 {
            writeln!(
                y,
                "  - name: SWEEP_LEAF_{}\n    leaf: {:#x}\n    ebx:",
                i / 4,
                0x5000_0000 + i / 4
            )
            .unwrap();
        }
        lines.insert(y.lines().count() + 1, (4, w.clone()));
        writeln!(
            y,
            "      - {{ name: {}, bits: {}:{}, values: [{{ name: ON_V, value: 1 }}] }}",
            q(w),
            8 * (i % 4) + 7,
            8 * (i % 4)
        )
        .unwrap();
    }
    files.push(("cpuid.yaml".into(), y, std::mem::take(&mut lines)));
    // Events: architectural (a CPUID bit) and model events.
    let mut y = String::from("generation: zz-sweep-events\nextends: intel-v4\nevents:\n");
    for (i, w) in words[5].iter().enumerate() {
        for arch in [true, false] {
            lines.insert(y.lines().count() + 1, (5, w.clone()));
            let bit = if arch {
                format!(", cpuid-bit: {}", i % 7)
            } else {
                String::new()
            };
            let name = if arch { w.clone() } else { format!("{w}.M") };
            writeln!(y, "  - {{ name: {}, event: 0x20{bit} }}", q(&name)).unwrap();
        }
    }
    files.push(("events.yaml".into(), y, std::mem::take(&mut lines)));
    // Generation ids, lowercase, without a vendor part (modules at the crate root): a file
    // each, extending the smallest generation with a marker type.
    for w in &words[6] {
        let id = w.to_ascii_lowercase().replace('_', "-");
        let mut lines = BTreeMap::new();
        lines.insert(1, (6, w.clone()));
        let text = format!("generation: {}\nextends: intel-v1\n", q(&id));
        files.push((format!("ids/{id}.yaml"), text, lines));
    }
    files
}

/// The sweep the validator accepts: each word refused in a place (an error at its line) is
/// dropped from that place, until none is. Returns the accepted files and how many words
/// each place kept.
fn sweep() -> (Vec<(String, String)>, Vec<usize>) {
    // Modules and types take the words scope lookup can find; methods, values and variants
    // every word.
    let v = vocabulary();
    let mut words: Vec<Vec<String>> = [
        &v.scoped, &v.all, &v.all, &v.scoped, &v.all, &v.all, &v.scoped,
    ]
    .iter()
    .map(|w| w.to_vec())
    .collect();
    // A register, CPUID leaf or event named like one of intel-v4 would change that one.
    let (base, _) = load(&[]);
    let v4 = base.model.generation("intel-v4").unwrap();
    words[0].retain(|w| v4.register(w).is_none());
    words[3].retain(|w| v4.cpuid_leaf(w).is_none());
    words[5].retain(|w| v4.event(w).is_none());
    for round in 0.. {
        assert!(round < 60, "the sweep does not settle");
        let files = sweep_files(&words);
        let plain: Vec<(String, String)> = files
            .iter()
            .map(|(n, t, _)| (format!("sweep/{n}"), t.clone()))
            .collect();
        let (loaded, first) = load(&plain);
        if !loaded.has_errors() {
            let code = generate_user(&loaded, first);
            syn::parse2::<syn::File>(code).expect("the sweep's code parses");
            return (plain, words.iter().map(Vec::len).collect());
        }
        let mut refused: BTreeSet<(usize, String)> = BTreeSet::new();
        for d in loaded
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
        {
            let span = d.span();
            let at = span.file.checked_sub(first).and_then(|i| files.get(i));
            let Some((name, text, lines)) = at else {
                panic!(
                    "an error of the sweep is not in a sweep file:\n{}",
                    loaded.render_diagnostics()
                );
            };
            let line = text[..span.start].matches('\n').count() + 1;
            match lines.get(&line) {
                Some(w) => {
                    refused.insert(w.clone());
                }
                None => panic!(
                    "an error of the sweep is at {name}:{line}, which holds no swept word:\n{}",
                    loaded.render_diagnostics()
                ),
            }
        }
        for (kind, w) in refused {
            words[kind].retain(|x| *x != w);
        }
    }
    unreachable!()
}

// ---------------------------------------------------------------------------------------------
// Regression files: the names that made `registers!` panic or emit code that did not compile
// ---------------------------------------------------------------------------------------------

const REGRESSIONS: &[(&str, &str)] = &[
    (
        // Keywords as register, field, value and CPUID names (`gen`, `async`, `Self`); events
        // with `.`, `:` and `=` in their names, architectural ones included (their variants
        // used to be `format_ident!` of the name in CamelCase: a panic).
        "keywords.yaml",
        r#"generation: x-gen
extends: intel-v4
registers:
  - name: IA32_PERFEVTSEL
    fields:
      - { name: gen, bits: 48 }
      - { name: async, bits: 51:49, values: [{ name: Self, value: 1 }, { name: gen, value: 2 }] }
  - name: gen
    msr: 0x5000
    fields:
      - { name: self, bits: 1:0, values: [{ name: async, value: 0 }, { name: Self, value: 1 }] }
      - { name: async, bits: 2 }
      - { name: dyn, bits: 10:3 }
      - { name: try, bits: 11, array: { count: 2, stride: 1 } }
  - { name: async, msr: { base: 0x5010, count: 2 }, access: write-1-to-clear, fields: [{ name: type, bits: 0 }] }
  - { name: dyn, msr: 0x5020, access: read-only, fields: [{ name: Self, bits: 3:0 }] }
  - { name: try, msr: 0x5030 }
cpuid:
  - { name: gen, leaf: 0x40000010, eax: [{ name: async, bits: 3:0, values: [{ name: Self, value: 1 }] }] }
events:
  - { name: EV_B.SUB, event: 0x10, cpuid-bit: 0 }
  - { name: "Ev:c=1", event: 0x11, cpuid-bit: 1 }
  - { name: Self.gen, event: 0x12 }
  - { name: "A:c=1", event: 0x13 }
"#,
    ),
    ("ids/async.yaml", "generation: x-async\nextends: intel-v4\n"),
    ("ids/dyn.yaml", "generation: x-dyn\nextends: intel-v4\n"),
    ("ids/try.yaml", "generation: x-try\nextends: intel-v4\n"),
    ("ids/gen.yaml", "generation: gen\nextends: intel-v4\n"),
    ("ids/self.yaml", "generation: self-gen\nextends: intel-v4\n"),
    ("ids/digit.yaml", "generation: x-1\nextends: intel-v4\n"),
];

// ---------------------------------------------------------------------------------------------
// The scratch crate
// ---------------------------------------------------------------------------------------------

/// Writes `contents` to `path` unless it already holds exactly that (so cargo, which compares
/// modification times, rebuilds only what changed).
fn put(path: &Path, contents: &str) {
    if fs::read_to_string(path).is_ok_and(|old| old == contents) {
        return;
    }
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, contents).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}

fn cargo() -> Command {
    let mut c = Command::new(env!("CARGO"));
    // The outer `cargo test` describes the `tests` package to this process; the inner cargo
    // builds the scratch crate, with its own target directory.
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

/// Builds a crate with one `registers!` per file set and asserts it compiles.
fn compile(random: &[String], sweep: &[(String, String)]) {
    let ws = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("names");
    let src = dir.join("src");
    let manifest = format!(
        r#"[package]
name = "names-scratch"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
pmu-regs = {{ path = "{0}/pmu-regs" }}
pmu-macros = {{ path = "{0}/pmu-macros" }}

[workspace]

# As in the workspace: registers! loads the shipped definitions once per call.
[profile.dev.package.saphyr-parser]
opt-level = 2
[profile.dev.package.pmu-defs]
opt-level = 2
"#,
        ws.display()
    );
    put(&dir.join("Cargo.toml"), &manifest);
    put(
        &dir.join("Cargo.lock"),
        &fs::read_to_string(ws.join("Cargo.lock")).unwrap(),
    );
    let mut lib = String::from(
        "//! Generated by tests/tests/names.rs: every file set the validator accepted, expanded.\n\
         #![allow(dead_code, unused_imports)]\n\n",
    );
    let mut wanted: BTreeSet<PathBuf> = BTreeSet::new();
    let mut file = |rel: &str, text: &str| {
        put(&src.join(rel), text);
        wanted.insert(src.join(rel));
    };
    for (i, yaml) in random.iter().enumerate() {
        file(&format!("case{i}.yaml"), yaml);
        writeln!(
            lib,
            "pub mod case{i} {{\n    pmu_macros::registers!(\"case{i}.yaml\");\n}}"
        )
        .unwrap();
    }
    for (name, text) in sweep {
        file(name, text);
    }
    writeln!(
        lib,
        "pub mod sweep {{\n    pmu_macros::registers!(\"sweep\");\n}}"
    )
    .unwrap();
    for (name, text) in REGRESSIONS {
        file(&format!("regressions/{name}"), text);
    }
    writeln!(
        lib,
        "pub mod regressions {{\n    pmu_macros::registers!(\"regressions\");\n}}"
    )
    .unwrap();
    // Files of earlier runs that are no longer wanted would be read by `registers!("sweep")`.
    remove_others(&src, &wanted);
    put(&src.join("lib.rs"), &lib);
    let start = Instant::now();
    let out = cargo()
        .args(["build", "--quiet"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", env!("CARGO")));
    eprintln!(
        "names: scratch crate built in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    assert!(
        out.status.success(),
        "the scratch crate in {} does not compile:\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Removes the YAML files below `dir` that are not in `keep`.
fn remove_others(dir: &Path, keep: &BTreeSet<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            remove_others(&p, keep);
        } else if p.extension().is_some_and(|e| e == "yaml") && !keep.contains(&p) {
            fs::remove_file(&p).unwrap();
        }
    }
}

#[test]
fn any_name_is_refused_at_its_line_or_compiles() {
    let start = Instant::now();
    let accepted = random_files();
    assert!(
        accepted.len() >= COMPILED,
        "only {} of {CASES} random files were accepted",
        accepted.len()
    );
    let (sweep, kept) = sweep();
    eprintln!(
        "names: {} words ({} scoped); the sweep keeps {:?} ({:?}) in {:.1} s",
        vocabulary().all.len(),
        vocabulary().scoped.len(),
        kept,
        KINDS,
        start.elapsed().as_secs_f64()
    );
    compile(&accepted[..COMPILED], &sweep);
}

// ---------------------------------------------------------------------------------------------
// The reserved tables list every item the generator emits
// ---------------------------------------------------------------------------------------------

/// The names items in `items` define (a `use` by its last segment or rename; a macro call
/// defines none that syn can see).
fn item_names(items: &[syn::Item]) -> Vec<(String, &syn::Item)> {
    fn use_names(t: &syn::UseTree, out: &mut Vec<String>) {
        match t {
            syn::UseTree::Path(p) => use_names(&p.tree, out),
            syn::UseTree::Name(n) => out.push(ident_text(&n.ident)),
            syn::UseTree::Rename(r) => out.push(ident_text(&r.rename)),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_names(t, out)),
            syn::UseTree::Glob(_) => {}
        }
    }
    let mut out = Vec::new();
    for item in items {
        let name = match item {
            syn::Item::Mod(m) => Some(&m.ident),
            syn::Item::Struct(s) => Some(&s.ident),
            syn::Item::Enum(e) => Some(&e.ident),
            syn::Item::Type(t) => Some(&t.ident),
            syn::Item::Const(c) => Some(&c.ident),
            syn::Item::Static(s) => Some(&s.ident),
            syn::Item::Fn(f) => Some(&f.sig.ident),
            syn::Item::Trait(t) => Some(&t.ident),
            syn::Item::Use(u) => {
                let mut names = Vec::new();
                use_names(&u.tree, &mut names);
                out.extend(names.into_iter().map(|n| (n, item)));
                None
            }
            _ => None,
        };
        if let Some(n) = name {
            out.push((ident_text(n), item));
        }
    }
    out
}

fn reserved(tables: &[&[pmu_defs::model::names::Reserved]], name: &str) -> bool {
    tables.iter().any(|t| t.iter().any(|(n, _, _)| *n == name))
}

fn content(m: &syn::ItemMod) -> &[syn::Item] {
    m.content.as_ref().map_or(&[], |(_, items)| items)
}

/// The inherent methods and associated constants of `ty` in `items`, and whether each is
/// hidden (`#[doc(hidden)]`: a stub for a field another layout has).
fn inherent(items: &[syn::Item], ty: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for item in items {
        let syn::Item::Impl(i) = item else { continue };
        let syn::Type::Path(p) = &*i.self_ty else {
            continue;
        };
        if i.trait_.is_some() || !p.path.is_ident(ty) {
            continue;
        }
        for it in &i.items {
            let (name, attrs) = match it {
                syn::ImplItem::Fn(f) => (&f.sig.ident, &f.attrs),
                syn::ImplItem::Const(c) => (&c.ident, &c.attrs),
                _ => continue,
            };
            let hidden = attrs.iter().any(|a| {
                a.path().is_ident("doc")
                    && matches!(&a.meta, syn::Meta::List(l) if l.tokens.to_string() == "hidden")
            });
            out.push((ident_text(name), hidden));
        }
    }
    out
}

/// Every item the generator emits for the shipped generations is derived from a YAML name by
/// `pmu_defs::model::names` or listed in one of its `RESERVED_*` tables, so a generator that starts
/// emitting a new item cannot leave the validator unaware of it: the vendor and generation
/// modules, the register modules and `Value` methods, the CPUID leaf modules and output
/// register methods.
#[test]
fn the_reserved_tables_list_every_generated_item() {
    use pmu_defs::model::names::{self, *};
    let (loaded, _) = load(&[]);
    let code = generate(&loaded.model, &Options::internal());
    let file: syn::File = syn::parse2(code).expect("the generated code parses");
    let mut unknown: Vec<String> = Vec::new();
    let mut check = |ok: bool, what: String| {
        if !ok {
            unknown.push(what);
        }
    };
    for g in &loaded.model.generations {
        let path = names::module_path(&g.id);
        // The generation's module, below the crate root.
        let mut items: &[syn::Item] = &file.items;
        let mut found = None;
        for seg in &path {
            found = items.iter().find_map(|i| match i {
                syn::Item::Mod(m) if ident_text(&m.ident) == *seg => Some(m),
                _ => None,
            });
            items = found.map_or(&[], content);
        }
        assert!(found.is_some(), "no module {path:?} for {}", g.id);
        for (name, item) in item_names(items) {
            let derived = name == names::marker_type(&g.id)
                || g.registers.iter().any(|r| {
                    name == names::register_module(&r.name)
                        || name == names::register_alias(&r.name)
                });
            check(
                derived || reserved(&[RESERVED_GENERATION], &name),
                format!("{}: `{name}`", g.id),
            );
            // A register module emitted here.
            let (syn::Item::Mod(m), Some(r)) = (
                item,
                g.registers
                    .iter()
                    .find(|r| names::register_module(&r.name) == name),
            ) else {
                continue;
            };
            let inner = content(m);
            for (n, _) in item_names(inner) {
                // A hidden stub marker names a field a later layout of the register adds.
                let later_field = || {
                    loaded.model.generations.iter().any(|d| {
                        d.register(&r.name).is_some_and(|r2| {
                            r2.fields
                                .iter()
                                .any(|f| names::element_names(f).contains(&n))
                        })
                    })
                };
                let derived = n == names::register_module(&r.name)
                    || r.fields.iter().any(|f| {
                        n == names::value_enum(&f.name)
                            || names::field_markers(f)
                                .iter()
                                .any(|m| names::escape(m) == n)
                            || names::element_names(f)
                                .iter()
                                .any(|e| names::tock_names(e, f.bits.len()).contains(&n))
                    })
                    || later_field();
                check(
                    derived || reserved(&[RESERVED_REGISTER], &n),
                    format!("{}::{}: `{n}`", g.id, r.name),
                );
            }
            // The fields are read and written through the generic `Value`: no method per
            // field, so no inherent `impl Value` in a register module.
            check(
                inherent(inner, "Value").is_empty(),
                format!("{}::{}: an inherent `impl Value`", g.id, r.name),
            );
        }
        // CPUID leaves defined here.
        let cpuid = items.iter().find_map(|i| match i {
            syn::Item::Mod(m) if m.ident == "cpuid" => Some(content(m)),
            _ => None,
        });
        for c in g.cpuid.iter().filter(|c| c.defined_in == g.id) {
            let leaf = cpuid.into_iter().flatten().find_map(|i| match i {
                syn::Item::Mod(m) if ident_text(&m.ident) == names::cpuid_leaf_module(&c.name) => {
                    Some(content(m))
                }
                _ => None,
            });
            let leaf = leaf.unwrap_or_else(|| panic!("no module for CPUID leaf {}", c.name));
            for (n, _) in item_names(leaf) {
                let derived = c.registers.iter().any(|reg| {
                    reg.fields
                        .iter()
                        .any(|f| n == names::cpuid_value_enum(&reg.register, &f.name))
                });
                check(
                    derived || reserved(&[RESERVED_CPUID_LEAF], &n),
                    format!("{}: cpuid::{}: `{n}`", g.id, c.name),
                );
            }
            for reg in &c.registers {
                let ty = names::cpuid_register_type(&reg.register);
                for (n, _) in inherent(leaf, &ty) {
                    let derived = reg.fields.iter().any(|f| {
                        names::element_names(f)
                            .iter()
                            .any(|e| names::cpuid_getters(f, e).iter().any(|(_, m)| *m == n))
                    });
                    check(
                        derived || reserved(&[RESERVED_CPUID_METHODS], &n),
                        format!("{}: cpuid::{}::{ty}: `{n}`", g.id, c.name),
                    );
                }
            }
        }
    }
    // The crate root of pmu-regs, where the generated modules are re-exported.
    let lib =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../pmu-regs/src/lib.rs"))
            .unwrap();
    let lib: syn::File = syn::parse_str(&lib).expect("pmu-regs/src/lib.rs parses");
    for (n, _) in item_names(&lib.items) {
        // Only lowercase names can be generation or vendor modules.
        if n.starts_with(|c: char| c.is_ascii_lowercase()) {
            check(
                reserved(&[RESERVED_CRATE_ROOT], &n),
                format!("pmu_regs::{n}"),
            );
        }
    }
    assert!(
        unknown.is_empty(),
        "generated items neither derived by pmu_defs::model::names nor in its RESERVED_* tables: {unknown:#?}"
    );
}
