//! `cargo xtask gen-docs`: a static documentation site for the resolved model.
//!
//! [`build`] turns a [`Model`] into a [`Site`] (relative path → contents, sorted) without
//! touching the disk; [`Site::write`] puts it in a directory. The site works from `file://`:
//! pages load their data as `<script src>` files (`data/…js`), never with fetch/XHR.
//!
//! ```text
//! index.html                 generations (the extends tree), what is where
//! decoder.html               paste a register value, see every field, reserved bits, the event
//! yaml.html                  writing definitions: every YAML key, rendered from the JSON Schema
//! findings.html              known findings: every warning acknowledged by an `allow:`, with its reason
//! gen/<id>/index.html        a generation: PMU, registers, CPUID leaves with diagrams, constraints
//! gen/<id>/reg/<REG>.html    a register: SVG bit layout, field table, changes from the parent,
//!                            its Rust path and a snippet (rust.rs)
//! gen/<id>/diff.html         what changed from the parent generation
//! gen/<id>/events.html       searchable event table (rows come from data/events/<id>.js)
//! data/index.js              generation list for the decoder
//! data/gen/<id>.js           registers and CPUID outputs of one generation, for the decoder
//! data/events/<id>.js        events of one generation (one file per generation), with each
//!                            event's perf string and value from pmu_defs::encode
//! data/search.js             the site-wide search index (search.rs), loaded on first use
//! assets/                    style.css, site.js, events.js, decoder.js
//! schema/generation.schema.json  the JSON Schema itself, downloadable from yaml.html
//! md/                        the same content as Markdown, with standalone SVG diagrams
//!                            (md/yaml.md: the YAML reference, md/findings.md: known findings)
//! ```
//!
//! Output is deterministic: everything is ordered by the model's order or by name, and
//! nothing depends on time or the machine.

pub mod diff;
pub mod escape;
pub mod format;
pub mod svg;

mod data;
pub mod events;
pub mod findings;
mod layout;
mod markdown;
mod pages;
mod rust;
pub mod search;
mod yaml;

use pmu_defs::Model;
use pmu_defs::model::Generation;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::ExitCode;

use escape::slug;

/// The generation the decoder opens with when the page address names none: the first
/// version with AnyThread and the TSX filters, whose event select is the classic example.
/// This is a user-interface default, not a hardware fact; when the model has no such
/// generation the decoder opens the first one with a general-purpose event select.
pub const DEFAULT_DECODER_GENERATION: &str = "intel-v3";

/// The name of the file that marks a directory as written by `gen-docs`; it lists every
/// file written, so the next run removes pages that no longer exist and nothing else.
pub const MANIFEST: &str = ".pmu-docs-manifest";

/// The generated files: relative path (`/`-separated) → contents, in path order.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Site {
    files: BTreeMap<String, String>,
}

impl Site {
    /// Every file, in path order.
    pub fn files(&self) -> &BTreeMap<String, String> {
        &self.files
    }

    /// One file's contents.
    pub fn get(&self, path: &str) -> Option<&str> {
        self.files.get(path).map(String::as_str)
    }

    fn add(&mut self, path: String, contents: String) {
        self.files.insert(path, contents);
    }

    /// Writes the site below `out`, creating it when needed. A directory that exists, is not
    /// empty and was not written by `gen-docs` (no manifest) is refused rather than mixed
    /// into; files a previous run wrote that this run does not are removed.
    pub fn write(&self, out: &Path) -> Result<WriteSummary, String> {
        let manifest_path = out.join(MANIFEST);
        let previous: BTreeSet<String> = if out.is_dir() {
            match std::fs::read_to_string(&manifest_path) {
                Ok(text) => text.lines().map(str::to_owned).collect(),
                Err(_) => {
                    let mut entries = std::fs::read_dir(out)
                        .map_err(|e| format!("cannot read {}: {e}", out.display()))?;
                    if entries.next().is_some() {
                        return Err(format!(
                            "{} exists, is not empty and was not written by `cargo xtask gen-docs` \
                             (no {MANIFEST}); choose a new or empty directory with --out",
                            out.display()
                        ));
                    }
                    BTreeSet::new()
                }
            }
        } else if out.exists() {
            return Err(format!("{} exists and is not a directory", out.display()));
        } else {
            BTreeSet::new()
        };
        let mut written = 0;
        let mut unchanged = 0;
        for (rel, contents) in &self.files {
            let path = out.join(rel);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            if std::fs::read(&path).is_ok_and(|old| old == contents.as_bytes()) {
                unchanged += 1;
                continue;
            }
            std::fs::write(&path, contents)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            written += 1;
        }
        let mut removed = 0;
        for rel in previous.difference(&self.files.keys().cloned().collect()) {
            // Only plain relative paths a previous run could have written.
            if rel.is_empty()
                || rel.starts_with('/')
                || rel
                    .split('/')
                    .any(|c| c.is_empty() || c == "." || c == "..")
            {
                continue;
            }
            let path = out.join(rel);
            if path.is_file() {
                std::fs::remove_file(&path)
                    .map_err(|e| format!("cannot remove stale {}: {e}", path.display()))?;
                removed += 1;
                // Drop directories the removal emptied (never `out` itself).
                let mut dir = path.parent();
                while let Some(d) = dir {
                    if d == out || std::fs::remove_dir(d).is_err() {
                        break;
                    }
                    dir = d.parent();
                }
            }
        }
        let list: String = self.files.keys().map(|k| format!("{k}\n")).collect();
        std::fs::write(&manifest_path, list)
            .map_err(|e| format!("cannot write {}: {e}", manifest_path.display()))?;
        Ok(WriteSummary {
            files: self.files.len(),
            written,
            unchanged,
            removed,
        })
    }
}

/// What [`Site::write`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteSummary {
    /// Files in the site.
    pub files: usize,
    /// Files created or changed.
    pub written: usize,
    /// Files already up to date.
    pub unchanged: usize,
    /// Stale files from a previous run removed.
    pub removed: usize,
}

/// Builds the site and writes it to `out`; prints where to open it.
pub fn run(model: &Model, out: &Path) -> ExitCode {
    let site = build(model);
    match site.write(out) {
        Ok(s) => {
            // Output may go to a closed pipe (`| head`): not worth a panic.
            use std::io::Write as _;
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(
                stdout,
                "wrote the documentation site to {} ({} files: {} written, {} unchanged, {} stale removed)",
                out.display(),
                s.files,
                s.written,
                s.unchanged,
                s.removed
            );
            let index = out.join("index.html");
            let shown = std::fs::canonicalize(&index).unwrap_or(index);
            let _ = writeln!(stdout, "open file://{}", shown.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Builds every page, data file, asset and Markdown file for the model.
pub fn build(model: &Model) -> Site {
    let cx = Ctx::new(model);
    let mut site = Site::default();
    for (path, text) in ASSETS {
        site.add(path.to_string(), text.to_string());
    }
    site.add(
        "assets/style.css".to_owned(),
        format!(
            "{STYLE}\n/* Register diagrams */\n{}",
            include_str!("assets/diagram.css")
        ),
    );
    pages::all(&cx, &mut site);
    events::all(&cx, &mut site);
    data::all(&cx, &mut site);
    diff::all(&cx, &mut site);
    markdown::all(&cx, &mut site);
    yaml::all(&cx, &mut site);
    findings::all(&cx, &mut site);
    search::all(&cx, &mut site);
    site
}

const STYLE: &str = include_str!("assets/style.css");
const ASSETS: [(&str, &str); 3] = [
    ("assets/site.js", include_str!("assets/site.js")),
    ("assets/events.js", include_str!("assets/events.js")),
    ("assets/decoder.js", include_str!("assets/decoder.js")),
];

/// Model-wide lookups shared by every page.
pub(crate) struct Ctx<'m> {
    pub model: &'m Model,
    /// Direct children of each generation, in model order.
    pub children: BTreeMap<&'m str, Vec<&'m Generation>>,
    /// (generation, register) → where `pmu-regs` has it.
    pub rust: BTreeMap<(String, String), pmu_codegen::RegisterPath>,
}

impl<'m> Ctx<'m> {
    fn new(model: &'m Model) -> Self {
        let mut children: BTreeMap<&str, Vec<&Generation>> = BTreeMap::new();
        for g in &model.generations {
            if let Some(p) = &g.extends {
                children.entry(p.as_str()).or_default().push(g);
            }
        }
        let rust = pmu_codegen::register_paths(model)
            .into_iter()
            .map(|p| ((p.generation.clone(), p.register.clone()), p))
            .collect();
        Ctx {
            model,
            children,
            rust,
        }
    }

    /// Top-level generations (no parent in the model), in model order.
    pub fn roots(&self) -> impl Iterator<Item = &'m Generation> + '_ {
        self.model.generations.iter().filter(|g| {
            g.extends
                .as_ref()
                .is_none_or(|p| self.model.generation(p).is_none())
        })
    }

    pub fn parent(&self, g: &Generation) -> Option<&'m Generation> {
        g.extends.as_ref().and_then(|p| self.model.generation(p))
    }

    pub fn children_of(&self, id: &str) -> &[&'m Generation] {
        self.children.get(id).map_or(&[], Vec::as_slice)
    }

    /// The decoder's opening generation and register key.
    pub fn decoder_default(&self) -> Option<(&'m Generation, String)> {
        let with_select = |g: &&Generation| {
            g.pmu
                .general
                .as_ref()
                .is_some_and(|s| g.register(&s.select).is_some())
        };
        let g = self
            .model
            .generation(DEFAULT_DECODER_GENERATION)
            .filter(with_select)
            .or_else(|| self.model.generations.iter().find(with_select))
            .or_else(|| self.model.generations.first())?;
        let reg = g
            .pmu
            .general
            .as_ref()
            .map(|s| s.select.clone())
            .filter(|s| g.register(s).is_some())
            .or_else(|| g.registers.first().map(|r| r.name.clone()))
            .unwrap_or_default();
        Some((g, reg))
    }
}

/// Site paths, all relative to the site root.
pub(crate) mod paths {
    use super::slug;

    pub fn gen_dir(id: &str) -> String {
        format!("gen/{}", slug(id))
    }
    pub fn generation(id: &str) -> String {
        format!("{}/index.html", gen_dir(id))
    }
    pub fn register(id: &str, reg: &str) -> String {
        format!("{}/reg/{}.html", gen_dir(id), slug(reg))
    }
    pub fn diff(id: &str) -> String {
        format!("{}/diff.html", gen_dir(id))
    }
    pub fn events(id: &str) -> String {
        format!("{}/events.html", gen_dir(id))
    }
    pub fn data_gen(id: &str) -> String {
        format!("data/gen/{}.js", slug(id))
    }
    pub fn data_events(id: &str) -> String {
        format!("data/events/{}.js", slug(id))
    }
    pub fn md_gen(id: &str) -> String {
        format!("md/{}/README.md", slug(id))
    }
    pub fn md_diff(id: &str) -> String {
        format!("md/{}/diff.md", slug(id))
    }
    pub fn md_events(id: &str) -> String {
        format!("md/{}/events.md", slug(id))
    }
    /// `../../` for `gen/x/index.html`: the way back to the site root.
    pub fn root_of(path: &str) -> String {
        "../".repeat(path.matches('/').count())
    }
}
