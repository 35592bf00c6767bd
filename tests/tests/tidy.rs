//! Repo-wide tidy checks ("YAML is the only source"): hand-written Rust does not restate what
//! the definitions know.
//!
//! - The run-time layer (`pmu-regs/src` without the generated files) names no generation id,
//!   no register of the definitions and no MSR address: roles, addresses and counts reach it
//!   through the generated `Arch` tables only.
//! - No hand-written Rust keeps a list of generations (an array of two or more generation ids):
//!   a generation added by YAML alone would be missing from it. Tests that need "every
//!   generation" or "every generation with X" walk the model; a test about one generation
//!   names it as its subject.

use pmu_defs::{Loader, Model};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn model() -> Model {
    let loaded = Loader::new().with_defaults().finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    loaded.model
}

/// Hand-written `.rs` files below `dir` (relative to the root), skipping build output and
/// `cargo xtask gen`'s files.
fn rust_files(dir: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name();
            if p.is_dir() && name != "target" && name != "generated" {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") && name != "generated.rs" {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join(dir), &mut out);
    out.sort();
    out
}

/// The code of a file without its comments (line comments, doc comments included): prose may
/// cite a register or an address, code may not.
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Identifier-like words and hex literals of `code`.
fn words(code: &str) -> BTreeSet<String> {
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn hex_value(word: &str) -> Option<u64> {
    let digits = word
        .strip_prefix("0x")
        .or_else(|| word.strip_prefix("0X"))?;
    let digits: String = digits.chars().filter(|&c| c != '_').collect();
    let digits = ["u8", "u16", "u32", "u64", "usize", "i32", "i64"]
        .iter()
        .find_map(|t| digits.strip_suffix(t))
        .unwrap_or(&digits);
    u64::from_str_radix(digits, 16).ok()
}

#[test]
fn the_run_time_layer_restates_no_definition() {
    let model = model();
    let ids: BTreeSet<String> = model.generations.iter().map(|g| g.id.clone()).collect();
    let mut registers = BTreeSet::new();
    let mut addresses = BTreeSet::new();
    for g in &model.generations {
        for r in &g.registers {
            registers.insert(r.name.clone());
            addresses.extend(r.addresses.iter().map(|&a| u64::from(a)));
        }
    }
    let mut found = Vec::new();
    for path in rust_files("pmu-regs/src") {
        let text = fs::read_to_string(&path).unwrap();
        let code = code(&text);
        let rel = path.strip_prefix(root()).unwrap().display().to_string();
        for id in &ids {
            if code.contains(&format!("\"{id}\"")) {
                found.push(format!("{rel}: generation id `{id}`"));
            }
        }
        for w in words(&code) {
            if registers.contains(&w) {
                found.push(format!("{rel}: register `{w}`"));
            }
            if let Some(v) = hex_value(&w).filter(|v| addresses.contains(v)) {
                found.push(format!("{rel}: MSR address {w} ({v:#X})"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "hand-written run-time code restates the definitions (take it from the generated \
         Arch tables instead):\n{}",
        found.join("\n")
    );
}

/// Arrays of string literals in `code`: `["a", "b"]` -> `[a, b]`.
fn string_arrays(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while let Some(off) = code[i..].find('[') {
        let start = i + off + 1;
        let Some(len) = code[start..].find(']') else {
            break;
        };
        let inner = &code[start..start + len];
        let items: Vec<&str> = inner
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        let all_strings = !items.is_empty()
            && items
                .iter()
                .all(|s| s.len() >= 2 && s.starts_with('"') && s.ends_with('"'));
        if all_strings {
            out.push(
                items
                    .iter()
                    .map(|s| s[1..s.len() - 1].to_string())
                    .collect(),
            );
        }
        i = start;
        debug_assert!(i <= bytes.len());
    }
    out
}

#[test]
fn no_hand_kept_list_of_generations() {
    let model = model();
    let ids: BTreeSet<String> = model.generations.iter().map(|g| g.id.clone()).collect();
    let mut found = Vec::new();
    for dir in [
        "pmu-regs",
        "pmu-defs/src",
        "pmu-macros",
        "tests/tests",
        "pmu-site",
        "xtask",
        "examples",
    ] {
        for path in rust_files(dir) {
            let text = fs::read_to_string(&path).unwrap();
            let rel = path.strip_prefix(root()).unwrap().display().to_string();
            for items in string_arrays(&code(&text)) {
                let named = items.iter().filter(|s| ids.contains(*s)).count();
                if named >= 2 {
                    found.push(format!("{rel}: [{}]", items.join(", ")));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "hand-kept lists of generations (walk the model instead):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_checks_see_what_they_look_for() {
    assert_eq!(
        string_arrays(r#"for g in ["gen-a", "gen-b"] { x[0]; }"#),
        [vec!["gen-a".to_string(), "gen-b".to_string()]]
    );
    assert_eq!(code("let a = 1; // IA32_PMC 0x186"), "let a = 1; ");
    assert_eq!(hex_value("0x38F"), Some(0x38F));
    assert_eq!(hex_value("0xC001_0200u32"), Some(0xC001_0200));
    assert!(words("A::IA32_PMC::x").contains("IA32_PMC"));
}
