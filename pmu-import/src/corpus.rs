//! Files and directories: importing one file, a corpus with its mapfile, or a folder of
//! lists, and checking the result against the hand-written definitions.

use crate::convert::{CoreModel, HEADER, INTEL_SOURCE_LINE, Provenance, convert, convert_reviewed};
use crate::emit::check_sizes;
use crate::findings::Reviewed;
use crate::intel::json::parse_file_within;
use crate::mapfile::{MapRow, parse_mapfile};
use crate::report::{Doc, Issue, Level};
use pmu_defs::model::Generation;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The outcome of an import.
#[derive(Clone, Debug, Default)]
pub struct Import {
    /// One generation per core file, sorted by file name.
    pub models: Vec<CoreModel>,
    /// Every problem, in the order found.
    pub issues: Vec<Issue>,
    /// JSON files read.
    pub files_read: usize,
    /// Mapfile rows of other event types (uncore, offcore, metrics, ...), skipped.
    pub skipped_rows: usize,
    /// Core files the mapfile names that are missing.
    pub missing_files: usize,
    /// One line per model on what its source had that is not imported (AMD: events of other
    /// PMUs, metrics).
    pub notes: Vec<String>,
    /// When the input is a whole corpus (a directory with its mapfile): its kind and every
    /// source its mapfile lists. `None` for a file, or a directory without a mapfile.
    pub corpus: Option<Corpus>,
}

/// Where generated models come from: which importer wrote them (the first line of the file
/// says it, after [`HEADER`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CorpusKind {
    /// Intel's perfmon lists (`mapfile.csv` and `<PLATFORM>/events/*_core.json`).
    IntelPerfmon,
    /// Linux perf's AMD lists (`mapfile.csv` rows naming `amdzenN` directories).
    LinuxPerfAmd,
}

impl CorpusKind {
    /// The kind named by a generated file's first line, or `None` when `text` does not start
    /// with the importer's header (a hand-written file) or names no known source.
    pub fn of_generated(text: &str) -> Option<CorpusKind> {
        let first = text.lines().next()?.strip_prefix(HEADER)?.trim_start();
        if first.starts_with(INTEL_SOURCE_LINE) {
            Some(CorpusKind::IntelPerfmon)
        } else if first.starts_with(crate::amd::SOURCE_LINE) {
            Some(CorpusKind::LinuxPerfAmd)
        } else {
            None
        }
    }

    /// What the kind is, for messages: `Intel perfmon`, `Linux perf's AMD lists`.
    pub fn describe(self) -> &'static str {
        match self {
            CorpusKind::IntelPerfmon => "Intel perfmon",
            CorpusKind::LinuxPerfAmd => "Linux perf's AMD lists",
        }
    }
}

/// A whole corpus an import read: its kind, its mapfile and the sources the mapfile lists
/// (core files for Intel, `amdzenN` directories for AMD), as the models' `source:` names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Corpus {
    /// Intel or AMD.
    pub kind: CorpusKind,
    /// The mapfile, as issues name it.
    pub mapfile: String,
    /// Every source the mapfile lists (its core rows), present or not.
    pub listed: BTreeSet<String>,
}

/// The `source:` a generated model names (the path of its JSON file relative to the corpus,
/// or AMD's `amdzenN` directory), read from the line the importer writes; `None` when there
/// is none.
pub fn generated_source(text: &str) -> Option<String> {
    let value = text
        .lines()
        .find_map(|l| l.strip_prefix("source: "))?
        .trim();
    if value.starts_with('"') {
        serde_json::from_str(value).ok()
    } else {
        Some(value.to_owned())
    }
}

impl Import {
    /// True when any issue is an error.
    pub fn has_errors(&self) -> bool {
        self.issues.iter().any(|i| i.level == Level::Error)
    }

    /// Events written, over all models.
    pub fn events(&self) -> usize {
        self.models.iter().map(|m| m.events).sum()
    }
}

/// The `commit <hex>` the corpus README names.
pub(crate) fn readme_commit(root: &Path) -> Option<String> {
    let root = if root.as_os_str().is_empty() {
        Path::new(".")
    } else {
        root
    };
    // Like every file the importer reads, only when it lies below the corpus.
    let readme = pmu_defs::load::walk::confined(root, "README.md").ok()?;
    let text = std::fs::read_to_string(readme).ok()?;
    let mut words = text.split_whitespace();
    while let Some(w) = words.next() {
        if w == "commit"
            && let Some(next) = words.next()
        {
            let hex: String = next
                .trim_start_matches('`')
                .chars()
                .take_while(|c| c.is_ascii_hexdigit())
                .collect();
            if hex.len() >= 7 {
                return Some(hex);
            }
        }
    }
    None
}

pub(crate) fn display(p: &Path) -> String {
    p.display().to_string()
}

/// `path` relative to `root` with `/` separators.
pub(crate) fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Every `.json` file below the corpus directory `root` (sorted, depth first), through
/// [`pmu_defs::walk`]: each directory read once (symbolic-link cycles cut), and nothing outside
/// `root`. What the walk skipped is reported by [`report_skipped`].
pub(crate) fn json_files(root: &Path) -> pmu_defs::load::walk::Walk {
    pmu_defs::load::walk::walk(root, true, &|p: &Path| {
        p.extension().and_then(|e| e.to_str()) == Some("json")
    })
}

/// Reports the entries a walk of the corpus skipped: a link leading out of the corpus is an
/// error, a second way into a directory (a cycle) a warning. Paths under `reported` (core
/// files the mapfile names, already refused at their mapfile line) are not reported twice.
pub(crate) fn report_skipped(
    root: &Path,
    walk: &pmu_defs::load::walk::Walk,
    reported: &BTreeSet<String>,
    issues: &mut Vec<Issue>,
) {
    for s in &walk.skipped {
        let rel = relative(root, &s.path);
        let covered = reported.iter().any(|f| {
            *f == rel
                || f.strip_prefix(rel.as_str())
                    .is_some_and(|r| r.starts_with('/'))
        });
        if covered {
            continue;
        }
        let (level, message) = match &s.reason {
            pmu_defs::load::walk::Skip::Again { .. } => (Level::Warning, s.describe()),
            pmu_defs::load::walk::Skip::Outside { target } => (
                Level::Error,
                format!(
                    "resolves to `{}`, outside the corpus directory; not read (the importer reads only files below the corpus)",
                    target.display()
                ),
            ),
            pmu_defs::load::walk::Skip::Unreadable(_) => (Level::Error, s.describe()),
        };
        issues.push(Issue::new(level, &display(&s.path), None, message));
    }
}

pub(crate) fn read_text(path: &Path, issues: &mut Vec<Issue>) -> Option<String> {
    match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(t) => Some(t),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(e.as_bytes());
                let pos = Doc::new("", &text, &mut Vec::new()).pos(at);
                issues.push(Issue::new(
                    Level::Error,
                    &display(path),
                    Some(pos),
                    format!("not valid UTF-8 (byte offset {at})"),
                ));
                None
            }
        },
        Err(e) => {
            issues.push(Issue::new(
                Level::Error,
                &display(path),
                None,
                format!("cannot read: {e}"),
            ));
            None
        }
    }
}

/// Imports a perfmon JSON file, or a directory: with `mapfile.csv` in it, every core file the
/// mapfile names (missing ones reported with the mapfile line) plus `*_core.json` files it
/// does not name; without one, every `.json` file below it.
pub fn import_path(path: &Path) -> Import {
    import_path_reviewed(path, &Reviewed::default())
}

/// [`import_path`], writing the `allow:` entries of `reviewed` into the models. An entry
/// naming an event the imported generation does not have is a warning at the entry; so is,
/// when `path` is a directory (a whole corpus), an entry for a generation the import does not
/// write. Entries for other generations are left alone by a single-file import.
pub fn import_path_reviewed(path: &Path, reviewed: &Reviewed) -> Import {
    import_path_within(path, reviewed, &pmu_defs::Limits::default())
}

/// [`import_path_reviewed`] for models the loader is to read under `limits` (the loader's
/// default for the shipped models): a list with more events than such a model can hold
/// ([`max_events`](crate::max_events)) is refused before its events are read, and a model whose YAML is larger
/// than `limits.max_bytes` (less [`MODELINE_ROOM`](crate::MODELINE_ROOM)) once written, before it is validated;
/// both are errors at the JSON file saying the sizes.
pub fn import_path_within(path: &Path, reviewed: &Reviewed, limits: &pmu_defs::Limits) -> Import {
    let mut imp = import_path_with(path, reviewed, limits);
    check_sizes(&mut imp, limits);
    if !imp.models.is_empty() {
        reviewed.check(&imp.models, path.is_dir(), &mut imp.issues);
    }
    imp
}

pub(crate) fn import_path_with(
    path: &Path,
    reviewed: &Reviewed,
    limits: &pmu_defs::Limits,
) -> Import {
    let mut imp = Import::default();
    if !path.exists() {
        imp.issues.push(Issue::new(
            Level::Error,
            &display(path),
            None,
            "no such file or directory".into(),
        ));
        return imp;
    }
    if path.is_dir() && crate::amd::is_perf_layout(path) {
        crate::amd::import_corpus(path, &mut imp);
        return imp;
    }
    // (absolute path, path relative to the corpus)
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    let mut rows: Vec<MapRow> = Vec::new();
    let root: PathBuf;
    if path.is_dir() {
        root = path.to_path_buf();
        import_dir(&root, &mut files, &mut rows, &mut imp);
        if !rows.is_empty() {
            imp.corpus = Some(Corpus {
                kind: CorpusKind::IntelPerfmon,
                mapfile: display(&root.join("mapfile.csv")),
                listed: rows
                    .iter()
                    .filter(|r| r.is_core())
                    .map(|r| r.file.clone())
                    .collect(),
            });
        }
    } else {
        // A single file: its corpus root is the closest ancestor holding mapfile.csv.
        let mut corpus = None;
        let mut dir = path.parent();
        for _ in 0..3 {
            let Some(d) = dir else { break };
            if d.join("mapfile.csv").is_file() {
                corpus = Some(d.to_path_buf());
                break;
            }
            dir = d.parent();
        }
        match &corpus {
            Some(c) => {
                let map = c.join("mapfile.csv");
                if let Some(text) = read_text(&map, &mut imp.issues) {
                    rows = parse_mapfile(&display(&map), &text, &mut imp.issues);
                }
                root = c.clone();
            }
            None => {
                imp.issues.push(Issue::new(
                    Level::Warning,
                    &display(path),
                    None,
                    "no mapfile.csv beside this file or above it: imported without `cpus`".into(),
                ));
                root = path.parent().map(Path::to_path_buf).unwrap_or_default();
            }
        }
        let rel = relative(&root, path);
        if corpus.is_some() && !rows.iter().any(|r| r.file == rel) {
            imp.issues.push(Issue::new(
                Level::Warning,
                &display(path),
                None,
                "mapfile.csv does not name this file: imported without `cpus`".into(),
            ));
        }
        files.push((path.to_path_buf(), rel));
    }

    if files.is_empty() && imp.has_errors() {
        // Nothing to read, and the error says why; no further noise.
        return imp;
    }
    let provenance = Provenance {
        commit: readme_commit(&root),
    };
    if provenance.commit.is_none() && path.is_dir() {
        imp.issues.push(Issue::new(
            Level::Warning,
            &display(&root.join("README.md")),
            None,
            "no `commit <hash>` found in the corpus README; the headers say `unknown`".into(),
        ));
    }
    // Core rows by file name, so each file finds its CPUs without a scan of the mapfile.
    let mut rows_of: BTreeMap<&str, Vec<&MapRow>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.is_core()) {
        rows_of.entry(r.file.as_str()).or_default().push(r);
    }
    let files_named = files.len();
    // Each file read, parsed and converted on its own (on every core); the results taken in
    // the files' order, so issues and models come out as a sequential loop gives them.
    let converted = pmu_defs::load::par::map(&files, &|(p, rel)| {
        let mut issues = Vec::new();
        let Some(text) = read_text(p, &mut issues) else {
            return (false, issues, None);
        };
        let name = display(p);
        let model = parse_file_within(&name, &text, limits, &mut issues).and_then(|file| {
            let cpus: &[&MapRow] = rows_of.get(rel.as_str()).map_or(&[], Vec::as_slice);
            convert_reviewed(&file, rel, cpus, &provenance, reviewed, &mut issues)
        });
        (true, issues, model.map(|m| (name, m)))
    });
    let mut by_id: BTreeMap<String, String> = BTreeMap::new();
    for ((_, rel), (read, issues, model)) in files.iter().zip(converted) {
        imp.files_read += usize::from(read);
        imp.issues.extend(issues);
        let Some((name, model)) = model else {
            continue;
        };
        if let Some(other) = by_id.get(&model.id) {
            imp.issues.push(Issue::new(
                Level::Error,
                &name,
                None,
                format!(
                    "generation id `{}` (from the file name) is also that of `{other}`; rename one of the files",
                    model.id
                ),
            ));
            continue;
        }
        by_id.insert(model.id.clone(), rel.clone());
        imp.models.push(model);
    }
    imp.models.sort_by(|a, b| a.file_name.cmp(&b.file_name));
    // An import that produced nothing must not look like a successful one: a caller that
    // writes the result would otherwise replace a directory of models with nothing.
    if imp.models.is_empty() && !imp.has_errors() {
        imp.issues.push(Issue::new(
            Level::Error,
            &display(path),
            None,
            format!("nothing to import: no core model came out of the {files_named} file(s) read"),
        ));
    }
    imp
}

/// Imports one perfmon JSON file held in memory: `source` is its path relative to the corpus
/// (`SKL/events/skylake_core.json`; its file name gives the generation id and the
/// architectural version), `text` its contents. There is no mapfile, so the model has no
/// `cpus`, and no README, so its header names no perfmon commit. Reads nothing from disk;
/// like [`import_path`], an input that gives no model is an error.
///
/// ```
/// let json = r#"[{ "EventCode": "0x3C", "UMask": "0x00", "EventName": "CPU_CLK_UNHALTED.THREAD_P", "Counter": "0,1,2,3" }]"#;
/// let import = pmu_import::import_str("SKL/events/skylake_core.json", json);
/// assert!(!import.has_errors(), "{:?}", import.issues);
/// assert_eq!(import.models[0].id, "intel-skylake");
/// ```
pub fn import_str(source: &str, text: &str) -> Import {
    let mut imp = Import {
        files_read: 1,
        ..Import::default()
    };
    let provenance = Provenance { commit: None };
    let limits = pmu_defs::Limits::default();
    if let Some(file) = parse_file_within(source, text, &limits, &mut imp.issues)
        && let Some(model) = convert(&file, source, &[], &provenance, &mut imp.issues)
    {
        imp.models.push(model);
    }
    check_sizes(&mut imp, &limits);
    if imp.models.is_empty() && !imp.has_errors() {
        imp.issues.push(Issue::new(
            Level::Error,
            source,
            None,
            "nothing to import: no core model came out of this file".into(),
        ));
    }
    imp
}

/// The directory half of [`import_path`]: the files to read (confined to `root`) and the
/// mapfile rows, or an error saying why there is nothing to import.
pub(crate) fn import_dir(
    root: &Path,
    files: &mut Vec<(PathBuf, String)>,
    rows: &mut Vec<MapRow>,
    imp: &mut Import,
) {
    let walk = json_files(root);
    let mut refused = BTreeSet::new();
    import_mapped(root, walk.files.clone(), files, rows, &mut refused, imp);
    report_skipped(root, &walk, &refused, &mut imp.issues);
    if files.is_empty() && !imp.has_errors() {
        imp.issues.push(Issue::new(
            Level::Error,
            &display(root),
            None,
            "nothing to import: no core event file below this directory".into(),
        ));
    }
}

/// [`import_dir`] on the walk's `found` files: the mapfile, its rows and the files it names
/// (those refused go to `refused`), stray core files; or an error saying why there is
/// nothing to import.
pub(crate) fn import_mapped(
    root: &Path,
    found: Vec<PathBuf>,
    files: &mut Vec<(PathBuf, String)>,
    rows: &mut Vec<MapRow>,
    refused_files: &mut BTreeSet<String>,
    imp: &mut Import,
) {
    let map = root.join("mapfile.csv");
    if !map.is_file() {
        without_mapfile(root, found, files, imp);
        return;
    }
    let map_name = display(&map);
    let Some(read) = read_mapfile(root, &map, &map_name, imp) else {
        return;
    };
    *rows = read;
    let named = core_files_named(rows, imp);
    let Some(missing) = locate_core_files(root, &map_name, &named, files, refused_files, imp)
    else {
        return;
    };
    if !named.is_empty() && missing == named.len() {
        imp.issues.push(Issue::new(
            Level::Error,
            &map_name,
            None,
            format!(
                "nothing to import: none of the {} core file(s) mapfile.csv names is in the \
                 corpus (a partial checkout, or the wrong directory?)",
                named.len()
            ),
        ));
        return;
    }
    add_unlisted_core_files(root, found, files, imp);
    if files.is_empty() {
        imp.issues.push(Issue::new(
            Level::Error,
            &map_name,
            None,
            format!(
                "nothing to import: mapfile.csv names no core event file ({} row(s) of other \
                 event types) and no *_core.json file is below the corpus directory",
                imp.skipped_rows
            ),
        ));
    }
}

/// No mapfile.csv: every .json file found, without `cpus` (an error when there is none).
pub(crate) fn without_mapfile(
    root: &Path,
    found: Vec<PathBuf>,
    files: &mut Vec<(PathBuf, String)>,
    imp: &mut Import,
) {
    if found.is_empty() {
        imp.issues.push(Issue::new(
            Level::Error,
            &display(root),
            None,
            "nothing to import: no mapfile.csv and no .json file below this directory \
             (an uninitialised git submodule is an empty directory: \
             `git submodule update --init`)"
                .into(),
        ));
        return;
    }
    imp.issues.push(Issue::new(
        Level::Warning,
        &display(root),
        None,
        "no mapfile.csv here: importing every .json file below, without `cpus`".into(),
    ));
    for p in found {
        let rel = relative(root, &p);
        files.push((p, rel));
    }
}

/// mapfile.csv's rows; `None` (with an error) when it is outside the corpus, unreadable, has
/// a refused row (a mapfile is not imported in part) or has no rows.
pub(crate) fn read_mapfile(
    root: &Path,
    map: &Path,
    map_name: &str,
    imp: &mut Import,
) -> Option<Vec<MapRow>> {
    if let Err(why) = pmu_defs::load::walk::confined(root, "mapfile.csv") {
        imp.issues.push(Issue::new(
            Level::Error,
            map_name,
            None,
            format!("not read: {why}; the importer reads only files below the corpus directory"),
        ));
        return None;
    }
    let text = read_text(map, &mut imp.issues)?;
    let errors = |imp: &Import| {
        imp.issues
            .iter()
            .filter(|i| i.level == Level::Error)
            .count()
    };
    let errors_before = errors(imp);
    let rows = parse_mapfile(map_name, &text, &mut imp.issues);
    if errors(imp) > errors_before {
        return None;
    }
    if text.lines().skip(1).all(|l| l.trim().is_empty()) {
        imp.issues.push(Issue::new(
            Level::Error,
            map_name,
            Some((1, 1)),
            "nothing to import: mapfile.csv has its header and no rows (a truncated or \
             unfinished checkout?)"
                .into(),
        ));
        return None;
    }
    Some(rows)
}

/// The core files the rows name, in the order first named, each with every row naming it;
/// rows of other event types are counted in `imp.skipped_rows`.
pub(crate) fn core_files_named<'r>(
    rows: &'r [MapRow],
    imp: &mut Import,
) -> Vec<(&'r str, Vec<&'r MapRow>)> {
    let mut named: Vec<(&str, Vec<&MapRow>)> = Vec::new();
    let mut at: BTreeMap<&str, usize> = BTreeMap::new();
    for r in rows {
        if !r.is_core() {
            imp.skipped_rows += 1;
            continue;
        }
        let i = *at.entry(r.file.as_str()).or_insert_with(|| {
            named.push((r.file.as_str(), Vec::new()));
            named.len() - 1
        });
        named[i].1.push(r);
    }
    named
}

/// Each named core file that is in the corpus goes to `files`; one that is not gets a
/// warning; one outside the corpus directory an error (and `None`: nothing is imported).
/// Returns how many are missing.
pub(crate) fn locate_core_files(
    root: &Path,
    map_name: &str,
    named: &[(&str, Vec<&MapRow>)],
    files: &mut Vec<(PathBuf, String)>,
    refused_files: &mut BTreeSet<String>,
    imp: &mut Import,
) -> Option<usize> {
    let mut missing: Vec<(&str, &[&MapRow])> = Vec::new();
    let mut refused = false;
    for (f, rs) in named {
        match pmu_defs::load::walk::confined(root, f) {
            Ok(p) if p.is_file() => files.push((p, (*f).to_owned())),
            Ok(_) => missing.push((f, rs)),
            Err(why) => {
                refused = true;
                refused_files.insert((*f).to_owned());
                imp.issues.push(Issue::new(
                    Level::Error,
                    map_name,
                    Some((rs[0].line, 1)),
                    format!(
                        "core file `{f}` not read: {why}; the importer reads only files below the corpus directory"
                    ),
                ));
            }
        }
    }
    missing.sort_by_key(|(f, _)| *f);
    for (f, rs) in &missing {
        let lines: Vec<String> = rs.iter().map(|r| r.line.to_string()).collect();
        let cpus: BTreeSet<&str> = rs.iter().map(|r| r.family_model.as_str()).collect();
        imp.issues.push(Issue::new(
            Level::Warning,
            map_name,
            rs.first().map(|r| (r.line, 1)),
            format!(
                "core file `{f}` (for {}) is named on line{} {} but is not in the corpus; not imported",
                cpus.into_iter().collect::<Vec<_>>().join(", "),
                if lines.len() > 1 { "s" } else { "" },
                lines.join(", ")
            ),
        ));
    }
    imp.missing_files = missing.len();
    (!refused).then_some(missing.len())
}

/// The `*_core.json` files below the corpus that mapfile.csv does not name: imported without
/// `cpus`, each with a warning.
pub(crate) fn add_unlisted_core_files(
    root: &Path,
    found: Vec<PathBuf>,
    files: &mut Vec<(PathBuf, String)>,
    imp: &mut Import,
) {
    let listed: BTreeSet<String> = files.iter().map(|(_, r)| r.clone()).collect();
    for p in found {
        let rel = relative(root, &p);
        let is_core = p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.ends_with("_core.json"));
        if is_core && !listed.contains(&rel) {
            imp.issues.push(Issue::new(
                Level::Warning,
                &display(&p),
                None,
                "a core event file that mapfile.csv does not name; imported without `cpus`".into(),
            ));
            files.push((p, rel));
        }
    }
}

/// The hand-written definition files of `vendor`: `defs/<vendor>/**/*.yaml` except the
/// imported models under `defs/<vendor>/models/`, sorted.
pub(crate) fn hand_written_files(vendor: &str) -> Vec<PathBuf> {
    let dir = pmu_defs::defs_dir().join(vendor);
    let models = dir.join("models");
    let found = pmu_defs::load::walk::walk(&dir, true, &|p: &Path| {
        p.extension().is_some_and(|e| e == "yaml") && !p.starts_with(&models)
    });
    found.files
}

/// The hand-written Intel definition files (architectural versions, microarchitecture
/// generations, facilities of their own).
pub(crate) fn architectural_files() -> Vec<PathBuf> {
    hand_written_files("intel")
}

/// The generation an imported list extends: the hand-written one naming `stem` in its
/// `perfmon-cores:` (which must extend architectural version `version`), else
/// `intel-v{version}` itself. `None` after an error in `issues`.
pub(crate) fn parent_generation(
    stem: &str,
    version: u8,
    file: &str,
    issues: &mut Vec<Issue>,
) -> Option<&'static Generation> {
    let model = &architectural().model;
    let arch = format!("intel-v{version}");
    let claimed = model
        .generations
        .iter()
        .find(|g| g.perfmon_cores.iter().any(|c| c.eq_ignore_ascii_case(stem)));
    let message = match claimed {
        Some(g) if g.id == arch || g.ancestors.contains(&arch) => return Some(g),
        Some(g) => format!(
            "`{}` names `{stem}` in its `perfmon-cores:` but does not extend `{arch}`, the \
             architectural version of `{stem}`",
            g.id
        ),
        None => match model.generation(&arch) {
            Some(g) => return Some(g),
            None => format!(
                "the architectural generation `{arch}` does not load from {} (run `cargo xtask validate`)",
                pmu_defs::defs_dir().join("intel").display()
            ),
        },
    };
    issues.push(Issue::new(Level::Error, file, None, message));
    None
}

/// The architectural Intel generations, loaded once: what a model extends, and so which
/// registers and per-counter arrays a core with more counters overrides.
pub(crate) fn architectural() -> &'static pmu_defs::Loaded {
    static ARCH: std::sync::OnceLock<pmu_defs::Loaded> = std::sync::OnceLock::new();
    ARCH.get_or_init(|| {
        let mut loader = pmu_defs::Loader::new();
        for p in architectural_files() {
            loader.add_file(&p);
        }
        loader.finish()
    })
}

/// The vendor directory of a generated model (`intel`, `amd`), from its id.
pub fn vendor_dir(model: &CoreModel) -> &str {
    model.id.split('-').next().unwrap_or("intel")
}

/// Loads the hand-written generations of each vendor the models belong to
/// (`defs/<vendor>/**/*.yaml` through `hand_written_files`, not the models below them) with `models` as
/// `<vendor>/models/<file>`, resolved and validated: the check every import must pass.
pub fn check_models(models: &[CoreModel]) -> pmu_defs::Loaded {
    let mut loader = pmu_defs::Loader::new();
    let mut vendors: Vec<&str> = models.iter().map(vendor_dir).collect();
    vendors.sort_unstable();
    vendors.dedup();
    if vendors.is_empty() {
        vendors.push("intel");
    }
    for vendor in vendors {
        loader.add_files(&hand_written_files(vendor));
    }
    loader.add_strs(models.iter().map(|m| {
        (
            format!("{}/models/{}", vendor_dir(m), m.file_name),
            m.yaml.clone(),
        )
    }));
    loader.finish()
}
