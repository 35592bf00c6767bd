//! Loader, validator and resolved model for the pmu-regs YAML definitions.
//!
//! The YAML files under `pmu-defs/defs/` are the source of truth for every register, field,
//! CPUID layout and event this project knows. This crate reads them and reports every problem
//! at once, each with `file:line:col` and the offending span, rendered like rustc:
//!
//! ```text
//! error[field-overlap]: fields `UMASK` and `EDGE` of register `IA32_PERFEVTSEL` overlap at bit 18
//!   ┌─ defs/intel/v1.yaml:40:15
//! ```
//!
//! Data flow, one folder per phase: [`load`] ([`load::yaml`]: the located tree, then
//! [`load::raw`]: the schema, every value spanned) → [`resolve`] (`extends` chains applied,
//! giving the [`model`]'s types) → [`validate`] (semantic checks) → [`model::Model`].
//! [`diag`] and [`source`] are what every phase reports problems with, [`Loader`] runs the
//! phases in order; [`encode`] and `schema` (a feature) use the finished model, and so does
//! the code generator, the `pmu-codegen` crate.
//!
//! ```
//! let loaded = pmu_defs::Loader::new().with_defaults().finish();
//! assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
//! let v3 = loaded.model.generation("intel-v3").unwrap();
//! let sel = v3.register("IA32_PERFEVTSEL").unwrap();
//! assert_eq!(sel.msr.base, 0x186);
//! assert_eq!(sel.field("ANY").unwrap().mask, 1 << 21);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod diag;
pub mod source;
pub mod vocab;

pub mod load;
pub mod model;
pub mod resolve;
pub mod validate;

pub mod encode;
#[cfg(feature = "schema")]
pub mod schema;

pub use diag::{Diagnostic, Diagnostics, Severity};
pub use load::yaml::Limits;
pub use model::Model;
pub use source::{FileId, Sources, Span};

use load::{aliases, cpu_names, de::Cx, raw};

use std::path::{Path, PathBuf};

/// The directory holding the canonical definitions shipped with this crate.
pub fn defs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("defs")
}

/// The shipped CPU names ([`load::cpu_names`]), beside [`defs_dir`].
pub fn cpu_names_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("cpu-names.yaml")
}

/// The shipped search aliases ([`load::aliases`]), beside [`defs_dir`].
pub fn aliases_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("aliases.yaml")
}

/// Collects definition files, then resolves and validates them together.
#[derive(Debug, Default)]
pub struct Loader {
    sources: Sources,
    diags: Diagnostics,
    raws: Vec<raw::RawGeneration>,
    aliases: Vec<aliases::Alias>,
    cpu_names: Vec<cpu_names::CpuName>,
    unreadable: usize,
    limits: Limits,
    /// Files read from disk, for build systems that rebuild when they change.
    paths: Vec<PathBuf>,
}

/// The outcome of a load.
#[derive(Debug)]
pub struct Loaded {
    /// Every file read, for rendering diagnostics.
    pub sources: Sources,
    /// The resolved generations (those that could be resolved).
    pub model: Model,
    /// Every problem, sorted by location, repeats removed.
    pub diagnostics: Vec<Diagnostic>,
    /// Files read from disk.
    pub paths: Vec<PathBuf>,
    /// Diagnostics counted but not kept: at most [`diag::MAX_PER_CODE`] of each code are.
    pub omitted: Vec<diag::Omitted>,
    /// The generation id each file that parsed declares, whether or not it resolved (a
    /// generation whose parent is unknown is declared but not in [`Loaded::model`]).
    pub declared: Vec<(FileId, String)>,
}

impl Loaded {
    /// True when any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// The diagnostics of files loaded on top of a base (file ids from `first` on, as
    /// `Sources::len` was before the first of them was added), and the base's own. A
    /// diagnostic naming any place in those files is theirs, even when it also names a base
    /// place (an inherited array too short for the file's wider counter family).
    pub fn split_from(&self, first: FileId) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
        self.diagnostics
            .iter()
            .cloned()
            .partition(|d| d.labels.iter().any(|l| l.span.file >= first))
    }

    /// All diagnostics rendered like rustc, a line per class with more than
    /// [`diag::MAX_PER_CODE`], and a summary line; the acknowledged warnings (an `allow:` in
    /// the definitions) are counted in one line ([`diag::render`]).
    pub fn render_diagnostics(&self) -> String {
        diag::render(&self.diagnostics, &self.omitted, &self.sources)
    }

    /// [`Loaded::render_diagnostics`] with the acknowledged warnings in full, each with its
    /// reason ([`diag::render_verbose`]).
    pub fn render_diagnostics_verbose(&self) -> String {
        diag::render_verbose(&self.diagnostics, &self.omitted, &self.sources)
    }

    /// The acknowledged warnings, those left out by the cap included.
    pub fn acknowledged(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.acknowledged.is_some())
            .count()
            + self
                .omitted
                .iter()
                .filter(|o| o.acknowledged)
                .map(|o| o.count)
                .sum::<usize>()
    }
}

impl Loader {
    /// An empty loader with the default [`Limits`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Replaces the input limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Over a diagnostic code's cap ([`diag::MAX_PER_CODE`]), keeps the findings in files
    /// added from now on (file ids `first` and later, `first` being [`Loader::sources`]'
    /// length now) before those of the files added so far: for a vendor's files loaded on
    /// top of the shipped definitions.
    pub fn prefer_diagnostics_from_here(&mut self) {
        self.diags.prefer_from(self.sources.len());
    }

    /// Adds the canonical definitions shipped in [`defs_dir`], the search aliases of
    /// [`aliases_file`] and the CPU names of [`cpu_names_file`].
    pub fn with_defaults(mut self) -> Self {
        self.add_path(&defs_dir());
        self.add_file(&aliases_file());
        self.add_file(&cpu_names_file());
        self
    }

    /// Adds a file, or every `.yaml`/`.yml` file below a directory (sorted, so the result
    /// does not depend on directory order).
    pub fn add_path(&mut self, path: &Path) -> &mut Self {
        if path.is_dir() {
            let mut files = Vec::new();
            collect_yaml(path, &mut files, &mut self.diags, &mut self.sources);
            files.sort();
            self.add_files(&files);
        } else {
            self.add_file(path);
        }
        self
    }

    /// Adds one file from disk.
    pub fn add_file(&mut self, path: &Path) -> &mut Self {
        if let Some(file) = self.read_file(path) {
            self.parse_added(&[file]);
        }
        self
    }

    /// Adds files from disk, as [`add_file`](Self::add_file) on each in turn would: each is
    /// read here, then parsed on every core (most of loading the shipped definitions), the
    /// results taken in the files' order.
    pub fn add_files(&mut self, paths: &[PathBuf]) -> &mut Self {
        let files: Vec<FileId> = paths.iter().filter_map(|p| self.read_file(p)).collect();
        self.parse_added(&files);
        self
    }

    /// Reads `path` into the sources: its id when it is UTF-8 text to parse, `None` (with the
    /// error recorded) when it cannot be read.
    fn read_file(&mut self, path: &Path) -> Option<FileId> {
        let name = display_name(path);
        self.paths.push(path.to_path_buf());
        match std::fs::read(path) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => Some(self.sources.add(name, text)),
                Err(e) => {
                    let at = e.utf8_error().valid_up_to();
                    let bad = e.as_bytes()[at];
                    let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                    let file = self.sources.add(name, text);
                    self.unreadable += 1;
                    self.diags.push(
                        Diagnostic::error(
                            "not-utf8",
                            format!("file is not valid UTF-8: byte 0x{bad:02X} at offset {at}"),
                            Span::new(file, at, at + 1),
                        )
                        .with_label("invalid byte here")
                        .with_help("definition files must be UTF-8 encoded"),
                    );
                    None
                }
            },
            Err(e) => {
                let file = self.sources.add(name, String::new());
                self.diags.push(Diagnostic::error(
                    "io",
                    format!("cannot read file: {e}"),
                    Span::new(file, 0, 0),
                ));
                self.unreadable += 1;
                None
            }
        }
    }

    /// Adds files from memory, `(name, text)`, as [`add_str`](Self::add_str) on each in turn
    /// would, parsed on every core; their ids in the same order.
    pub fn add_strs(&mut self, files: impl IntoIterator<Item = (String, String)>) -> Vec<FileId> {
        let ids: Vec<FileId> = files
            .into_iter()
            .map(|(name, text)| self.sources.add(name, text))
            .collect();
        self.parse_added(&ids);
        ids
    }

    /// Parses files already in the sources (in parallel when there are several) and takes in
    /// what each holds, in the order given.
    fn parse_added(&mut self, files: &[FileId]) {
        let (sources, limits) = (&self.sources, self.limits);
        let parsed = load::par::map(files, &|&file| parse_file(file, sources.text(file), limits));
        for (content, diags) in parsed {
            self.diags.absorb(diags);
            match content {
                Parsed::Aliases(found) => self.aliases.extend(found),
                Parsed::CpuNames(found) => self.cpu_names.extend(found),
                Parsed::Generation(g) => self.raws.push(*g),
                Parsed::Nothing => self.unreadable += 1,
            }
        }
    }

    /// The files added so far (read or not): the next file added gets id `sources().len()`.
    pub fn sources(&self) -> &Sources {
        &self.sources
    }

    /// Adds a file from memory under `name`.
    pub fn add_str(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        let file = self.sources.add(name, text.into());
        self.parse_added(&[file]);
        file
    }

    /// Resolves `extends`, validates, and returns the model with every diagnostic.
    pub fn finish(mut self) -> Loaded {
        let mut model = resolve::resolve(&self.raws, self.unreadable, &mut self.diags);
        validate::validate(&model, &mut self.diags);
        validate::aliases::check_used(&model, &self.aliases, &mut self.diags);
        model.aliases = self.aliases;
        validate::cpu_names::check(&model, &self.cpu_names, &mut self.diags);
        model.cpu_names = self.cpu_names;
        let declared = self
            .raws
            .iter()
            .map(|g| (g.file, g.id.value.clone()))
            .collect();
        Loaded {
            declared,
            sources: self.sources,
            model,
            omitted: self.diags.omitted(),
            diagnostics: self.diags.into_vec(),
            paths: self.paths,
        }
    }
}

/// What one definition file holds.
enum Parsed {
    Aliases(Vec<aliases::Alias>),
    CpuNames(Vec<cpu_names::CpuName>),
    Generation(Box<raw::RawGeneration>),
    /// Not YAML, or not a generation nor an alias file (the errors say why).
    Nothing,
}

/// Parses one file on its own (any thread): what it holds and what was wrong with it, in a
/// sink of its own (unbounded: the loader's sink applies its cap when it takes them in).
fn parse_file(file: FileId, text: &str, limits: Limits) -> (Parsed, Diagnostics) {
    let mut diags = Diagnostics::unbounded();
    let content = match load::yaml::parse(file, text, limits, &mut diags) {
        Some(root) => {
            let mut cx = Cx { diags: &mut diags };
            if aliases::is_alias_file(&root) {
                Parsed::Aliases(cx.aliases(&root))
            } else if cpu_names::is_cpu_name_file(&root) {
                Parsed::CpuNames(cx.cpu_names(&root))
            } else {
                cx.generation(file, &root)
                    .map_or(Parsed::Nothing, |g| Parsed::Generation(Box::new(g)))
            }
        }
        None => Parsed::Nothing,
    };
    (content, diags)
}

/// The path as diagnostics print it: relative to the current directory when below it.
fn display_name(path: &Path) -> String {
    let rel = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(&cwd).ok().map(Path::to_path_buf));
    rel.unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}

/// Every `.yaml`/`.yml` file below `dir` (sorted), through [`load::walk::walk`]: a directory
/// reached again through a symbolic link (a cycle, or a second link) is read once and
/// reported as a warning, an unreadable one as an error.
fn collect_yaml(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    diags: &mut Diagnostics,
    sources: &mut Sources,
) {
    let found = load::walk::walk(dir, false, &|p: &Path| {
        matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
    });
    for s in &found.skipped {
        let file = sources.add(s.path.display().to_string(), String::new());
        let span = Span::new(file, 0, 0);
        diags.push(match &s.reason {
            load::walk::Skip::Unreadable(e) => {
                Diagnostic::error("io", format!("cannot read directory: {e}"), span)
            }
            _ => Diagnostic::warning("repeated-directory", s.describe(), span)
                .with_note("each directory is read once, however many links lead to it"),
        });
    }
    out.extend(found.files);
}
