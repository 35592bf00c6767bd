//! Robustness: the shipped files load clean, and a deterministic set of truncations and
//! random edits of them never makes the loader panic.

use super::assert_shipped_clean;
use pmu_defs::Loader;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// xorshift64: deterministic, no dependencies.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// FNV-1a, to give each file its own fixed seed.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// A shipped definitions file.
pub(crate) struct Shipped {
    /// Path relative to `defs_dir()`, as the file is named in the loads.
    pub(crate) name: String,
    pub(crate) text: String,
    pub(crate) id: Option<String>,
    pub(crate) extends: Option<String>,
}

pub(crate) fn top_level_value(text: &str, key: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .map(|v| v.trim().to_owned())
}

pub(crate) fn shipped_files() -> Vec<Shipped> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")) {
                out.push(p);
            }
        }
    }
    let root = pmu_defs::defs_dir();
    let mut paths = Vec::new();
    walk(&root, &mut paths);
    // The core models generated from Intel's perfmon lists (`intel/models/`, 42 files of
    // thousands of lines, all written by one program) are represented by the smallest.
    let (models, mut paths): (Vec<PathBuf>, Vec<PathBuf>) = paths
        .into_iter()
        .partition(|p| p.parent().and_then(Path::file_name) == Some("models".as_ref()));
    if let Some(small) = models
        .iter()
        .min_by_key(|p| std::fs::metadata(p).map_or(u64::MAX, |m| m.len()))
    {
        paths.push(small.clone());
    }
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            Shipped {
                name: p.strip_prefix(&root).unwrap().display().to_string(),
                id: top_level_value(&text, "generation"),
                extends: top_level_value(&text, "extends"),
                text,
            }
        })
        .collect()
}

/// The unmodified ancestors of `file`, root first, so a mutated child still resolves and
/// validates against its real parents.
pub(crate) fn ancestors<'a>(files: &'a [Shipped], file: &Shipped) -> Vec<&'a Shipped> {
    let mut chain = Vec::new();
    let mut next = file.extends.clone();
    while let Some(id) = next {
        let Some(p) = files.iter().find(|f| f.id.as_deref() == Some(id.as_str())) else {
            break;
        };
        if chain.iter().any(|c: &&Shipped| c.name == p.name) {
            break;
        }
        chain.push(p);
        next = p.extends.clone();
    }
    chain.reverse();
    chain
}

/// One input of the robustness tests: what was done, and the resulting text.
type Input = (String, String);

/// `text` with its generation id given a suffix, so several variants of one file can be
/// loaded side by side, each resolving against the same (unmodified) ancestors.
fn with_id_suffix(file: &Shipped, text: &str, suffix: &str) -> String {
    match &file.id {
        // Where the file names itself (`since:` of a deprecation it states), the copy
        // names itself too.
        Some(id) => text
            .replacen(
                &format!("generation: {id}\n"),
                &format!("generation: {id}-{suffix}\n"),
                1,
            )
            .replace(
                &format!("since: {id}\n"),
                &format!("since: {id}-{suffix}\n"),
            ),
        None => text.to_owned(),
    }
}

/// Loads the ancestors then every input (as a variant of `file`), and renders the
/// diagnostics; returns how many variants resolved into generations, or the panic message
/// if anything panicked.
fn survives(parents: &[&Shipped], file: &Shipped, inputs: &[&Input]) -> Result<usize, String> {
    catch_unwind(AssertUnwindSafe(|| {
        let mut loader = Loader::new();
        for p in parents {
            loader.add_str(p.name.clone(), p.text.clone());
        }
        for (i, (_, text)) in inputs.iter().enumerate() {
            loader.add_str(format!("{}~{i}", file.name), text.clone());
        }
        let loaded = loader.finish();
        let _ = loaded.render_diagnostics();
        for d in &loaded.diagnostics {
            let _ = d.short(&loaded.sources);
        }
        loaded.model.generations.len().saturating_sub(parents.len())
    }))
    .map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "<non-string panic>".to_owned())
    })
}

/// Inputs per load: the ancestors are parsed once per batch, not once per input.
const BATCH: usize = 16;

/// Runs `inputs` in batches; when a batch panics, runs its inputs one by one to find which.
/// Returns how many inputs still resolved into a generation (so reached validation).
fn check_all(
    parents: &[&Shipped],
    file: &Shipped,
    inputs: &[Input],
    failures: &mut Vec<(String, String, String)>,
) -> usize {
    let mut resolved = 0;
    for batch in inputs.chunks(BATCH) {
        let all: Vec<&Input> = batch.iter().collect();
        if let Ok(n) = survives(parents, file, &all) {
            resolved += n;
            continue;
        }
        for input in batch {
            if let Err(msg) = survives(parents, file, &[input]) {
                failures.push((input.0.clone(), msg, input.1.clone()));
            }
        }
    }
    resolved
}

/// One random edit of `text`.
fn mutate(rng: &mut Rng, text: &str) -> (String, &'static str) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    match rng.below(5) {
        0 => {
            let i = rng.below(lines.len());
            let mut out = lines.clone();
            out.remove(i);
            (out.concat(), "delete a line")
        }
        1 => {
            let i = rng.below(lines.len());
            let mut out = lines.clone();
            out.insert(i, lines[i]);
            (out.concat(), "duplicate a line")
        }
        2 => {
            let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
            let mut out = lines.clone();
            out.swap(i, j);
            (out.concat(), "swap two lines")
        }
        3 => {
            const PUNCT: &[char] = &[
                ':', '-', '{', '}', '[', ']', '&', '*', '!', '|', '>', '\'', '"', '#',
            ];
            let (at, c) = chars[rng.below(chars.len())];
            let mut out = String::with_capacity(text.len() + 1);
            out.push_str(&text[..at]);
            out.push(PUNCT[rng.below(PUNCT.len())]);
            out.push_str(&text[at + c.len_utf8()..]);
            (out, "replace a character")
        }
        _ => {
            let at = chars[rng.below(chars.len())].0;
            let mut out = text.to_owned();
            out.insert(at, '\t');
            (out, "insert a tab")
        }
    }
}

/// Mutations per shipped file.
const MUTATIONS: usize = 300;
/// Distance between truncation points, in bytes.
const TRUNCATION_STRIDE: usize = 7;

/// Reports every input that panicked, the first in full.
#[track_caller]
fn assert_no_panics(failures: &[(String, String, String)]) {
    if let Some((what, msg, input)) = failures.first() {
        let list: Vec<_> = failures
            .iter()
            .map(|(w, m, _)| format!("  {w}: {m}"))
            .collect();
        panic!(
            "{} input(s) panicked:\n{}\n\nfirst input ({what}: {msg}):\n-----\n{input}\n-----",
            failures.len(),
            list.join("\n")
        );
    }
}

/// `text` with `-<suffix>` after each entry of a one-line `perfmon-cores: [...]`.
fn suffix_perfmon_cores(text: &str, suffix: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        match line
            .trim_end()
            .strip_prefix("perfmon-cores: [")
            .and_then(|l| l.strip_suffix(']'))
        {
            Some(list) => {
                let items: Vec<String> =
                    list.split(", ").map(|c| format!("{c}-{suffix}")).collect();
                out.push_str(&format!("perfmon-cores: [{}]\n", items.join(", ")));
            }
            None => out.push_str(line),
        }
    }
    out
}

#[test]
fn shipped_files_are_clean_and_found() {
    let files = shipped_files();
    assert!(files.len() >= 9, "found {} files", files.len());
    for f in &files {
        let parents = ancestors(&files, f);
        let mut loader = Loader::new();
        for p in &parents {
            loader.add_str(p.name.clone(), p.text.clone());
        }
        loader.add_str(f.name.clone(), f.text.clone());
        let loaded = loader.finish();
        assert_shipped_clean(&loaded);
        assert_eq!(
            parents.len() + 1,
            loaded.model.generations.len(),
            "{}",
            f.name
        );
        // Variants with a suffixed id (and suffixed perfmon lists, which may be claimed once)
        // load side by side without clashing.
        let variant = (
            String::new(),
            suffix_perfmon_cores(&with_id_suffix(f, &f.text, "x"), "x"),
        );
        assert_ne!(variant.1, f.text, "{}", f.name);
        let mut loader = Loader::new();
        for p in &parents {
            loader.add_str(p.name.clone(), p.text.clone());
        }
        loader.add_str(format!("{}~a", f.name), f.text.clone());
        loader.add_str(format!("{}~b", f.name), variant.1);
        assert_shipped_clean(&loader.finish());
    }
}

#[test]
fn no_truncation_of_a_shipped_file_panics() {
    let files = shipped_files();
    let mut failures = Vec::new();
    let (mut count, mut resolved) = (0, 0);
    for f in &files {
        let parents = ancestors(&files, f);
        let inputs: Vec<Input> = (0..f.text.len())
            .step_by(TRUNCATION_STRIDE)
            .enumerate()
            .map(|(n, at)| {
                let text = with_id_suffix(f, &f.text, &format!("t{n}"));
                let cut = text.floor_char_boundary(at);
                (
                    format!("{} cut at byte {cut}", f.name),
                    text[..cut].to_owned(),
                )
            })
            .collect();
        count += inputs.len();
        resolved += check_all(&parents, f, &inputs, &mut failures);
    }
    assert!(count > 1000, "only {count} truncations");
    // Most truncations keep the `generation:` header, so they reach resolution and validation.
    assert!(
        resolved * 4 > count,
        "only {resolved} of {count} truncations resolved"
    );
    assert_no_panics(&failures);
}

#[test]
fn no_mutation_of_a_shipped_file_panics() {
    let files = shipped_files();
    let mut failures = Vec::new();
    // Tally per kind, so a change that stops a kind from being generated is noticed.
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut resolved = 0;
    for f in &files {
        let parents = ancestors(&files, f);
        let mut rng = Rng::new(0x005e_ed0f_d1a9 ^ fnv(&f.name));
        let mut inputs: Vec<Input> = Vec::new();
        for n in 0..MUTATIONS {
            // One to three edits on top of each other.
            let mut text = with_id_suffix(f, &f.text, &format!("m{n}"));
            let mut what = Vec::new();
            for _ in 0..1 + rng.below(3) {
                let (t, kind) = mutate(&mut rng, &text);
                *kinds.entry(kind).or_default() += 1;
                what.push(kind);
                text = t;
            }
            inputs.push((
                format!("{} mutation {n} ({})", f.name, what.join(", ")),
                text,
            ));
        }
        resolved += check_all(&parents, f, &inputs, &mut failures);
    }
    assert_eq!(kinds.len(), 5, "{kinds:?}");
    let count = files.len() * MUTATIONS;
    assert!(
        resolved * 4 > count,
        "only {resolved} of {count} mutations resolved"
    );
    assert_no_panics(&failures);
}
