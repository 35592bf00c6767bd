//! The shape of the repository, checked: every crate meant for crates.io can be published
//! (metadata, versioned path dependencies, a package under crates.io's size limit), no file
//! name breaks a clone on Windows, and hand-written Rust files stay short enough to read.
//!
//! `.ci/run` also runs `cargo publish --dry-run --workspace`, which builds each packaged crate
//! against the others as crates.io would; these tests say which rule broke, and run with the
//! README's test command.

use pmu_defs::model::Vendor;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.current_dir(root());
    c
}

/// `cargo metadata` of the workspace (no dependencies resolved: only the members matter).
fn metadata() -> Value {
    let out = cargo()
        .args(["metadata", "--format-version=1", "--no-deps", "--offline"])
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

/// The workspace members that may be published (`publish` not `false`).
fn publishable(meta: &Value) -> Vec<&Value> {
    meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["publish"].as_array().is_none_or(|r| !r.is_empty()))
        .collect()
}

fn git_files() -> Vec<String> {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root())
        .output()
        .expect("git ls-files runs");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .split('\0')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Device names Windows reserves in every folder, with any extension (`aux.rs` included):
/// a checkout holding one fails there, and cargo refuses to package it.
fn windows_reserved(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    matches!(stem.as_str(), "con" | "prn" | "aux" | "nul")
        || ((stem.starts_with("com") || stem.starts_with("lpt"))
            && stem.len() == 4
            && stem.as_bytes()[3].is_ascii_digit()
            && stem.as_bytes()[3] != b'0')
}

#[test]
fn no_file_name_windows_reserves() {
    let bad: Vec<String> = git_files()
        .into_iter()
        .filter(|f| f.split('/').any(windows_reserved))
        .collect();
    assert!(bad.is_empty(), "names Windows reserves: {bad:?}");
}

#[test]
fn the_reserved_name_check_sees_what_it_looks_for() {
    for name in ["aux.rs", "AUX", "con.yaml", "nul", "com1.txt", "LPT9"] {
        assert!(windows_reserved(name), "{name}");
    }
    for name in [
        "aux_msrs.rs",
        "auxiliary.rs",
        "com0",
        "com10",
        "console.rs",
        "null.rs",
    ] {
        assert!(!windows_reserved(name), "{name}");
    }
}

#[test]
fn every_publishable_crate_has_the_metadata_crates_io_shows() {
    let meta = metadata();
    let crates = publishable(&meta);
    assert!(
        crates.iter().any(|p| p["name"] == "pmu-regs"),
        "pmu-regs is publishable"
    );
    let mut missing = BTreeMap::new();
    for p in &crates {
        let name = p["name"].as_str().unwrap();
        let mut m = Vec::new();
        for key in ["description", "license", "repository", "readme"] {
            if p[key].as_str().is_none_or(str::is_empty) {
                m.push(key.to_owned());
            }
        }
        for key in ["keywords", "categories"] {
            if p[key].as_array().is_none_or(Vec::is_empty) {
                m.push(key.to_owned());
            }
        }
        for dep in p["dependencies"].as_array().unwrap() {
            // A path dependency without a version cannot be published; dev-dependencies'
            // are dropped from the package.
            if dep["path"].is_string() && dep["kind"].is_null() && dep["req"] == "*" {
                m.push(format!("a version on the path dependency {}", dep["name"]));
            }
        }
        if !m.is_empty() {
            missing.insert(name.to_owned(), m);
        }
    }
    assert!(missing.is_empty(), "missing: {missing:#?}");
}

/// crates.io refuses a `.crate` file over 10 MiB.
const CRATES_IO_LIMIT: u64 = 10 * 1024 * 1024;

#[test]
fn every_publishable_crate_packages_under_the_size_limit() {
    let meta = metadata();
    let names: Vec<String> = publishable(&meta)
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = cargo();
    cmd.args(["package", "--no-verify", "--allow-dirty", "--offline"])
        .arg("--target-dir")
        .arg(dir.path());
    for n in &names {
        cmd.args(["-p", n]);
    }
    let out = cmd.output().expect("cargo package runs");
    assert!(
        out.status.success(),
        "cargo package failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for n in &names {
        let file = dir
            .path()
            .join("package")
            .join(format!("{n}-{}.crate", env!("CARGO_PKG_VERSION")));
        let size = std::fs::metadata(&file)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
            .len();
        assert!(
            size < CRATES_IO_LIMIT,
            "{n} packages to {size} bytes, over crates.io's limit of {CRATES_IO_LIMIT}"
        );
    }
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// crates.io and GitHub show the README first: it stays a page of usage, the reference lives
/// in `docs/` and the documentation site.
#[test]
fn the_readme_and_architecture_stay_short() {
    for (file, limit) in [("README.md", 15 * 1024), ("ARCHITECTURE.md", 25 * 1024)] {
        let len = read(file).len();
        assert!(
            len <= limit,
            "{file} is {len} bytes, over {limit}: move reference material to docs/"
        );
    }
}

/// Every count the README states is the definitions' count now.
#[test]
fn the_readmes_numbers_are_the_definitions() {
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let model = &loaded.model;
    let grouped = |n: usize| {
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    // CPU-model generations (those with `cpus:`) of a vendor, and the events they list
    // themselves (not those they inherit).
    let models = |vendor: Vendor| {
        let gens: Vec<_> = model
            .generations
            .iter()
            .filter(|g| g.vendor == vendor && !g.cpus.is_empty())
            .collect();
        let events: usize = gens
            .iter()
            .map(|g| g.events.iter().filter(|e| e.since == g.id).count())
            .sum();
        (gens.len(), events)
    };
    let (intel, intel_events) = models(Vendor::Intel);
    let (amd, amd_events) = models(Vendor::Amd);
    let readme = read("README.md")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for phrase in [
        format!(
            "{intel} core types from Nehalem to Nova Lake with {} events",
            grouped(intel_events)
        ),
        format!("{amd} Zen generations with {} events", grouped(amd_events)),
        format!("That is {} generations in all.", model.generations.len()),
    ] {
        assert!(
            readme.contains(&phrase),
            "README.md should say \"{phrase}\" (the definitions' count now)"
        );
    }
}

// ---------------------------------------------------------------------------------------
// The import graph: no circles, and no phase of the loader reaching into a later one.
// ---------------------------------------------------------------------------------------

/// The phases of `pmu-defs`, in the order a definition file goes through them: a module may
/// import its own phase's modules and earlier phases', never a later phase's. The crate root
/// (`Loader`, which runs them all) is not a phase.
const PMU_DEFS_PHASES: &[(&str, &[&str])] = &[
    ("foundation", &["source", "diag", "vocab"]),
    ("load", &["load"]),
    ("model", &["model"]),
    ("resolve", &["resolve"]),
    ("validate", &["validate"]),
    ("products", &["encode", "schema", "perfmon"]),
];

/// The crates whose module graphs are checked (folder below the workspace root).
const GRAPH_CRATES: &[&str] = &[
    "pmu-vocab",
    "pmu-defs",
    "pmu-codegen",
    "pmu-import",
    "pmu-macros",
    "pmu-regs",
    "pmu-cli",
    "pmu-site",
    "xtask",
];

/// A crate's modules, `a::b` (the root is `""`) to file, test modules left out.
fn crate_modules(src: &Path) -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, src: &Path, out: &mut BTreeMap<String, PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, src, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let rel = p.strip_prefix(src).unwrap().with_extension("");
                let mut segs: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if matches!(segs.last().map(String::as_str), Some("mod")) {
                    segs.pop();
                }
                if segs.len() == 1 && matches!(segs[0].as_str(), "lib" | "main") {
                    segs.clear();
                }
                if segs.iter().any(|s| s == "tests") {
                    continue;
                }
                out.insert(segs.join("::"), p);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    out
}

/// Rust source with comments removed and the insides of string and char literals blanked,
/// so only code is left to read paths from.
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r'
            && matches!(next, Some('#' | '"'))
            && !ident_char(b.get(i.wrapping_sub(1)))
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{..}'), or a lifetime ('a).
            if next == Some('\\') {
                i += 2;
                while i < b.len() && b[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            } else if b.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push_str("' '");
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_char(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || *c == '_')
}

/// `text` without the bracketed part following each place `start` occurs (the body of a
/// `quote!` invocation, a `#[cfg(test)] mod tests { .. }`): generated code's paths and test
/// modules' imports are not the crate's imports.
fn without_blocks(text: &str, start: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(start) {
        out.push_str(&rest[..at]);
        let after = &rest[at + start.len()..];
        let Some(open) = after.find(['{', '(', '[', ';']) else {
            rest = after;
            continue;
        };
        if after.as_bytes()[open] == b';' {
            rest = &after[open + 1..];
            continue;
        }
        let mut depth = 0usize;
        let mut end = after.len();
        for (k, ch) in after[open..].char_indices() {
            match ch {
                '{' | '(' | '[' => depth += 1,
                '}' | ')' | ']' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Every path a module names through `crate::`, `super::` or `self::`, in `use` trees
/// (braces expanded) and in code, as segment lists.
fn named_paths(code: &str) -> Vec<Vec<String>> {
    fn tokens(s: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur = String::new();
        for ch in s.chars() {
            if ch.is_alphanumeric() || ch == '_' {
                cur.push(ch);
            } else {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                if !ch.is_whitespace() {
                    out.push(ch.to_string());
                }
            }
        }
        if !cur.is_empty() {
            out.push(cur);
        }
        out
    }
    // A use tree from `t[*i]`: its leaf paths, each prefixed with `prefix`.
    fn tree(t: &[String], i: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let mut path = prefix.to_vec();
        while *i < t.len() {
            match t[*i].as_str() {
                "{" => {
                    *i += 1;
                    while *i < t.len() && t[*i] != "}" {
                        tree(t, i, &path, out);
                        match t.get(*i).map(String::as_str) {
                            Some(",") => *i += 1,
                            Some("}") | None => {}
                            // Not a use tree (a path in code followed by a block:
                            // `super::X.find(..) { let a = ..; }`): stop here.
                            Some(_) => return,
                        }
                    }
                    *i += 1;
                    return;
                }
                ":" => *i += 1,
                "," | "}" | ";" => break,
                "as" => *i += 2,
                "*" => *i += 1,
                seg => {
                    path.push(seg.to_owned());
                    *i += 1;
                }
            }
        }
        out.push(path);
    }
    let t = tokens(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        if t[i] == "use" {
            i += 1;
            tree(&t, &mut i, &[], &mut out);
        } else if matches!(t[i].as_str(), "crate" | "super" | "self")
            && t.get(i + 1).is_some_and(|s| s == ":")
            && (i == 0 || t[i - 1] != ":")
        {
            let mut path = vec![t[i].clone()];
            i += 1;
            while t.get(i).is_some_and(|s| s == ":") && t.get(i + 1).is_some_and(|s| s == ":") {
                match t.get(i + 2) {
                    Some(seg) if seg.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                        path.push(seg.clone());
                        i += 3;
                    }
                    _ => break,
                }
            }
            out.push(path);
        } else {
            i += 1;
        }
    }
    out
}

/// The module a path names, from module `from`: the longest known module its segments lead
/// to (`None` for a path into another crate).
fn target_module(
    from: &str,
    path: &[String],
    modules: &BTreeMap<String, PathBuf>,
) -> Option<String> {
    let mut at: Vec<&str> = if from.is_empty() {
        Vec::new()
    } else {
        from.split("::").collect()
    };
    let mut segs = path.iter().map(String::as_str).peekable();
    match segs.peek().copied() {
        Some("crate") => {
            at.clear();
            segs.next();
        }
        Some("super") => {
            while segs.peek() == Some(&"super") {
                at.pop()?;
                segs.next();
            }
        }
        Some("self") => {
            segs.next();
        }
        // A `use` of a child module by its bare name (`use load::raw;` in the crate root).
        Some(first) => {
            let child = if at.is_empty() {
                first.to_owned()
            } else {
                format!("{}::{first}", at.join("::"))
            };
            if !modules.contains_key(&child) {
                return None;
            }
        }
        None => return None,
    }
    let mut best = at.join("::");
    for seg in segs {
        at.push(seg);
        let name = at.join("::");
        if modules.contains_key(&name) {
            best = name;
        } else {
            break;
        }
    }
    Some(best)
}

/// True when one module is the other or contains it: a folder's `mod.rs` and its files are
/// one unit (the children use the parent's shared types, the parent calls the children).
fn related(a: &str, b: &str) -> bool {
    let inside = |x: &str, y: &str| y.is_empty() || x == y || x.starts_with(&format!("{y}::"));
    inside(a, b) || inside(b, a)
}

/// The import graph of the crate in `dir`: module to the modules it imports (none of its
/// own folder's), with the file of each module.
fn import_graph(
    dir: &str,
) -> (
    BTreeMap<String, std::collections::BTreeSet<String>>,
    BTreeMap<String, PathBuf>,
) {
    let src = root().join(dir).join("src");
    let modules = crate_modules(&src);
    let mut graph = BTreeMap::new();
    for (name, file) in &modules {
        let text = std::fs::read_to_string(file).unwrap();
        let mut code = code_only(&text);
        for block in ["#[cfg(test)]", "quote!", "quote_spanned!"] {
            code = without_blocks(&code, block);
        }
        let mut to = std::collections::BTreeSet::new();
        for path in named_paths(&code) {
            if let Some(t) = target_module(name, &path, &modules)
                && !related(name, &t)
            {
                to.insert(t);
            }
        }
        graph.insert(name.clone(), to);
    }
    (graph, modules)
}

/// Every circle in `graph`, each once, as `a -> b -> a`.
fn cycles(graph: &BTreeMap<String, std::collections::BTreeSet<String>>) -> Vec<String> {
    // Tarjan's strongly connected components; a component of more than one module holds a
    // circle, shown as the shortest one through its first module.
    struct T<'g> {
        g: &'g BTreeMap<String, std::collections::BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on: std::collections::BTreeSet<&'g str>,
        out: Vec<Vec<&'g str>>,
    }
    impl<'g> T<'g> {
        fn visit(&mut self, v: &'g str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on.insert(v);
            for w in self.g.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let l = self.low[w].min(self.low[v]);
                    self.low.insert(v, l);
                } else if self.on.contains(w) {
                    let l = self.index[w].min(self.low[v]);
                    self.low.insert(v, l);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = T {
        g: graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: Default::default(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out
        .iter()
        .map(|comp| {
            // Breadth-first from the component's first module back to itself.
            let start = comp[0];
            let mut prev: BTreeMap<&str, &str> = BTreeMap::new();
            let mut queue = std::collections::VecDeque::from([start]);
            let mut end = None;
            'search: while let Some(v) = queue.pop_front() {
                for w in graph.get(v).into_iter().flatten() {
                    let w = w.as_str();
                    if w == start {
                        end = Some(v);
                        break 'search;
                    }
                    if comp.contains(&w) && !prev.contains_key(w) {
                        prev.insert(w, v);
                        queue.push_back(w);
                    }
                }
            }
            let mut path = vec![start];
            let mut v = end.unwrap();
            while v != start {
                path.push(v);
                v = prev[v];
            }
            path.push(start);
            let n = path.len();
            path[1..n - 1].reverse();
            path.join(" -> ")
        })
        .collect()
}

#[test]
fn the_import_graphs_have_no_circles() {
    let mut found = Vec::new();
    for dir in GRAPH_CRATES {
        if !root().join(dir).join("src").is_dir() {
            continue;
        }
        let (graph, _) = import_graph(dir);
        found.extend(cycles(&graph).into_iter().map(|c| format!("{dir}: {c}")));
    }
    assert!(
        found.is_empty(),
        "import circles (a module and the folder it is in count as one; move what both \
         need into a module both import):\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn no_loader_phase_imports_a_later_one() {
    let phase = |module: &str| {
        let top = module.split("::").next().unwrap();
        PMU_DEFS_PHASES
            .iter()
            .position(|(_, tops)| tops.contains(&top))
    };
    let (graph, modules) = import_graph("pmu-defs");
    // Every module of the crate (bar the root) is in a phase.
    let unplaced: Vec<&String> = modules
        .keys()
        .filter(|m| !m.is_empty() && phase(m).is_none())
        .collect();
    assert!(
        unplaced.is_empty(),
        "modules in no phase of PMU_DEFS_PHASES: {unplaced:?}"
    );
    let mut bad = Vec::new();
    for (from, tos) in &graph {
        let Some(p) = phase(from) else { continue };
        for to in tos {
            if let Some(q) = phase(to).filter(|&q| q > p) {
                bad.push(format!(
                    "{from} ({}) imports {to} ({}), a later phase",
                    PMU_DEFS_PHASES[p].0, PMU_DEFS_PHASES[q].0
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_import_graph_reader_sees_what_it_looks_for() {
    let code = code_only(
        "use crate::{a::{b, c as d}, e};\n// use crate::f;\nlet s = \"crate::g::h\";\n\
         fn x() { super::i::j(); crate::k::L; }\nquote! { crate::m::n }",
    );
    let code = without_blocks(&code, "quote!");
    let paths: Vec<String> = named_paths(&code).iter().map(|p| p.join("::")).collect();
    assert_eq!(
        paths,
        [
            "crate::a::b",
            "crate::a::c",
            "crate::e",
            "super::i::j",
            "crate::k::L"
        ]
    );
    let mut g = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        g.entry(a.to_owned())
            .or_insert_with(std::collections::BTreeSet::new)
            .insert(b.to_owned());
    }
    assert_eq!(cycles(&g), ["a -> b -> c -> a"]);
}

/// Hand-written Rust files of these folders stay under [`MAX_LINES`] lines, their test
/// modules aside.
const SHORT_FILE_DIRS: &[&str] = &[
    "pmu-vocab/src/",
    "pmu-defs/src/",
    "pmu-codegen/src/",
    "pmu-import/src/",
    "pmu-macros/src/",
    "pmu-regs/src/",
    "pmu-cli/src/",
    "pmu-site/src/",
    "xtask/src/",
];

/// Files allowed to be longer (data tables); none today.
const LONG_FILES_ALLOWED: &[&str] = &[];

const MAX_LINES: usize = 800;

#[test]
fn hand_written_files_stay_short() {
    let mut long = Vec::new();
    for f in git_files() {
        if !f.ends_with(".rs")
            || !SHORT_FILE_DIRS.iter().any(|d| f.starts_with(d))
            || LONG_FILES_ALLOWED.contains(&f.as_str())
        {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(root().join(&f)) else {
            continue;
        };
        if text.starts_with("// @generated") {
            continue;
        }
        let lines = text
            .lines()
            .take_while(|l| !l.starts_with("#[cfg(test)]"))
            .count();
        if lines > MAX_LINES {
            long.push(format!("{f}: {lines} lines"));
        }
    }
    assert!(
        long.is_empty(),
        "hand-written files over {MAX_LINES} lines (split them by concern into a folder):\n  {}",
        long.join("\n  ")
    );
}
