//! Importing one file, a corpus with its mapfile, or a folder of lists, and checking the
//! result against the hand-written definitions.

use crate::convert::{convert, convert_reviewed};
use crate::defs::hand_written_files;
use crate::emit::check_sizes;
use crate::files::{display, json_files, read_text, readme_commit, relative, report_skipped};
use crate::findings::Reviewed;
use crate::intel::json::parse_file_within;
use crate::mapfile::{MapRow, parse_mapfile};
use crate::outcome::{CoreModel, Corpus, CorpusKind, Import, Provenance, vendor_dir};
use crate::report::{Issue, Level};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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
