//! Diagnostics as data: each folder of `tests/test_data/diagnostics/<group>/<case>/` holds
//! the YAML files of one fixture and `expected.txt`, the diagnostics the loader gives for
//! them ([`describe`]); [`every_case_gives_its_expected_diagnostics`] loads every folder and
//! compares. The group says what a case is loaded on top of: nothing (`standalone`), the
//! shared `on-base/base.yaml` (`on-base`), or the shipped files of its `extends:` chain
//! (`on-defs`). `tests/test_data/diagnostics/README.md` tells how to add a case.
//!
//! The comparison is [`expect_test::expect_file!`], rust-analyzer's snapshot crate: small
//! (two dependencies), a plain-text file per expectation that the diff shows as written, and
//! `UPDATE_EXPECT=1` rewrites the files of the cases that differ. `insta` would do as well
//! but keeps its snapshots in its own format with a header, wants `cargo insta` to review
//! them, and its glob runner is behind a feature; a folder walk plus `expect_file!` needs
//! neither. Blessed output is generated from the current loader: read the diff before
//! committing it, as the expectations are the specification.
//!
//! The second half of this module asserts what some of those fixtures leave in the model
//! (the first definition kept, the rest of a rejected mapping kept, ...).

use super::robustness::{Shipped, ancestors, shipped_files, top_level_value};
use super::{base, data_dir};
use pmu_defs::{Loaded, Loader, Severity};
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// The groups of cases, by what they are loaded on top of.
const GROUPS: [&str; 3] = ["standalone", "on-base", "on-defs"];

/// The file of a case that holds its expected diagnostics.
const EXPECTED: &str = "expected.txt";

/// Every case folder, sorted.
fn case_dirs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for group in GROUPS {
        for e in std::fs::read_dir(data_dir().join(group)).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The YAML files of a case, sorted by name.
fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    out.sort();
    out
}

/// Loads the case in `dir`: what its group puts first, then its YAML files in name order,
/// each named by its file name.
fn load_dir(dir: &Path) -> Loaded {
    let group = dir.parent().unwrap().file_name().unwrap().to_str().unwrap();
    let files: Vec<(String, String)> = yaml_files(dir)
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_str().unwrap().to_owned();
            (name, std::fs::read_to_string(p).unwrap())
        })
        .collect();
    let mut loader = Loader::new();
    match group {
        "standalone" => {}
        "on-base" => {
            loader.add_str("base.yaml", base());
        }
        "on-defs" => {
            let shipped = shipped_files();
            let mut names: Vec<&str> = Vec::new();
            for (name, text) in &files {
                let me = Shipped {
                    name: name.clone(),
                    text: text.clone(),
                    id: top_level_value(text, "generation"),
                    extends: top_level_value(text, "extends"),
                };
                for p in ancestors(&shipped, &me) {
                    if !names.contains(&p.name.as_str()) {
                        names.push(&p.name);
                        // `intel/v6.yaml` on every system, as the expected output has it.
                        loader.add_str(p.name.replace('\\', "/"), p.text.clone());
                    }
                }
            }
        }
        _ => panic!("unknown group {group}"),
    }
    for (name, text) in files {
        loader.add_str(name, text);
    }
    loader.finish()
}

/// Loads the case `group/name`, for the tests that look at the model.
fn case(group_and_name: &str) -> Loaded {
    let dir = data_dir().join(group_and_name);
    assert!(dir.is_dir(), "no case {}", dir.display());
    load_dir(&dir)
}

/// The diagnostics of a load, as `expected.txt` holds them: for each diagnostic its level,
/// code, primary location and message; each label with its `file:line:col`, the text it
/// covers and its message; each note; the reason of an `allow:` that acknowledges it. Then
/// `Loaded::render_diagnostics`, the rustc-style text users see (lines trimmed at the end).
fn describe(loaded: &Loaded) -> String {
    let sources = &loaded.sources;
    let mut out = String::new();
    for (i, d) in loaded.diagnostics.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let at = sources.location(d.span());
        writeln!(out, "{level}[{}] {at}: {}", d.code, d.message).unwrap();
        for l in &d.labels {
            let kind = if l.primary { "primary" } else { "secondary" };
            let text = &sources.text(l.span.file)[l.span.start..l.span.end];
            // A span over several lines (a mapping) is shown by its first line.
            let text = match text.split_once('\n') {
                Some((first, _)) => format!("{first:?}…"),
                None => format!("{text:?}"),
            };
            let at = sources.location(l.span);
            write!(out, "  {kind} {at} {text}").unwrap();
            if !l.message.is_empty() {
                write!(out, ": {}", l.message).unwrap();
            }
            out.push('\n');
        }
        for n in &d.notes {
            writeln!(out, "  = {n}").unwrap();
        }
        if let Some(reason) = &d.acknowledged {
            writeln!(out, "  = acknowledged (`allow:`): {reason}").unwrap();
        }
    }
    for o in &loaded.omitted {
        writeln!(out, "omitted: {}", o.line()).unwrap();
    }
    if out.is_empty() {
        out.push_str("no diagnostics\n");
    }
    let rendered = loaded.render_diagnostics();
    if !rendered.is_empty() {
        out.push_str("\n--- rendered ---\n");
        // Without trailing blanks (the rendering's empty gutter lines), which editors strip.
        for line in rendered.lines() {
            writeln!(out, "{}", line.trim_end()).unwrap();
        }
    }
    out
}

#[test]
fn every_case_gives_its_expected_diagnostics() {
    let dirs = case_dirs();
    assert!(dirs.len() >= 100, "found only {} cases", dirs.len());
    let updating = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failed = Vec::new();
    for dir in &dirs {
        let name = dir.strip_prefix(data_dir()).unwrap().display().to_string();
        assert!(!yaml_files(dir).is_empty(), "{name} has no YAML file");
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let known = p.extension().is_some_and(|e| e == "yaml") || p.ends_with(EXPECTED);
            assert!(
                known,
                "{}: a case holds YAML files and {EXPECTED}",
                p.display()
            );
        }
        let expected = dir.join(EXPECTED);
        if !updating && !expected.is_file() {
            failed.push(format!("{name} (no {EXPECTED}: run with UPDATE_EXPECT=1)"));
            continue;
        }
        let actual = describe(&load_dir(dir));
        let check = catch_unwind(AssertUnwindSafe(|| {
            expect_test::expect_file![&expected].assert_eq(&actual);
        }));
        if check.is_err() {
            failed.push(name);
        }
    }
    assert!(
        failed.is_empty(),
        "{} case(s) differ from their {EXPECTED} (diffs above); if the new output is right, \
         rerun with UPDATE_EXPECT=1 and review `git diff`:\n  {}",
        failed.len(),
        failed.join("\n  ")
    );
}

// ---------------------------------------------------------------------------------------------
// What some of the cases leave in the model
// ---------------------------------------------------------------------------------------------

/// Of a key given twice, the first value wins.
#[test]
fn duplicate_key_keeps_the_first_value() {
    let loaded = case("on-base/duplicate_key_reports_both_spans");
    let child = loaded.model.generation("child").unwrap();
    assert_eq!(child.register("SEL").unwrap().width, 32);
    assert_eq!(child.title, "one");
}

/// The split field (AMD's EVENT_SELECT shape) is accepted: 12 bits, low part first.
#[test]
fn invalid_bits_beside_a_split_field() {
    let loaded = case("on-base/invalid_bits");
    let r = loaded
        .model
        .generation("child")
        .unwrap()
        .register("R")
        .unwrap();
    let f = r.field("F").unwrap();
    assert_eq!(f.width, 12);
    assert_eq!(f.mask, 0xF_0000_00FF);
    assert_eq!(f.insert(0, 0xABC), 0xA_0000_00BC);
}

/// Quoted, YAML 1.1 booleans are names (`yes`, not `On`: a register `On` would clash with
/// its own CamelCase type alias `On`).
#[test]
fn yaml11_booleans_quoted_are_names() {
    let loaded = case("on-base/yaml11_boolean_in_a_name_position");
    let g = loaded.model.generation("child").unwrap();
    assert_eq!(g.register("yes").unwrap().msr.base, 0x502);
    assert_eq!(g.register("no").unwrap().msr.base, 0x503);
}

/// Of a generation defined twice, the first definition is the one kept.
#[test]
fn a_generation_defined_twice_keeps_the_first() {
    let loaded = case("standalone/duplicate_name_generation_defined_twice");
    assert_eq!(loaded.model.generations.len(), 1);
}

#[test]
fn an_unknown_parent_leaves_the_child_out() {
    let loaded = case("on-base/unknown_generation_with_did_you_mean");
    assert!(loaded.model.generation("child").is_none());
    assert!(loaded.model.generation("base").is_some());
}

/// A cycle resolves nothing, and a child of the cycle is skipped without a diagnostic of its
/// own (no cascade: `expected.txt` has one).
#[test]
fn an_extends_cycle_resolves_nothing() {
    assert!(
        case("standalone/extends_cycle")
            .model
            .generations
            .is_empty()
    );
}

/// The CPU model of the other vendor is dropped, the other entry kept.
#[test]
fn a_cpu_model_of_another_vendor_is_dropped() {
    let loaded = case("on-base/vendor_mismatch_of_a_cpu_model");
    assert_eq!(loaded.model.generation("child").unwrap().cpus.len(), 1);
}

/// The same model (hex case aside) twice is refused; the same model with two core types is
/// fine.
#[test]
fn cpu_models_kept_beside_the_malformed_ones() {
    let loaded = case("on-base/cpu_models_malformed_or_repeated");
    let g = loaded.model.generation("child").unwrap();
    let kept: Vec<(&str, Option<u8>)> = g
        .cpus
        .iter()
        .map(|c| (c.family_model.as_str(), c.core_type))
        .collect();
    assert_eq!(
        kept,
        [
            ("GenuineIntel-6-4E", None),
            ("GenuineIntel-6-97", Some(0x20)),
            ("GenuineIntel-6-97", Some(0x40)),
            ("GenuineIntel-6-9A", None),
        ]
    );
    assert_eq!(g.source.as_deref(), Some("X/events/x_core.json"));
}

/// A fixed-only event counts on no general counter; `counters: all` is every one.
#[test]
fn no_counter_beside_fixed_and_all() {
    let loaded = case("on-base/no_counter");
    let g = loaded.model.generation("child").unwrap();
    assert_eq!(g.event("FIXED_ONLY").unwrap().counters, Vec::<u32>::new());
    let both = g.event("BOTH").unwrap();
    assert_eq!(both.counters, (0..8).collect::<Vec<u32>>());
    assert_eq!(both.fixed, Some(1));
}

/// `msr-per-umask` (Intel's `ProgrammingRestriction: MSRIndex-UMask`): each umask goes with
/// its MSR.
#[test]
fn msr_per_umask_pairs_each_umask_with_its_msr() {
    let loaded = case("on-base/msr_per_umask");
    let g = loaded.model.generation("child").unwrap();
    let paired = g.event("OK.PAIRED").unwrap();
    assert!(paired.msr_per_umask);
    let alts: Vec<(u32, Option<u32>)> = paired
        .alternatives()
        .iter()
        .map(|a| (a.umask, a.msr_index))
        .collect();
    assert_eq!(
        alts,
        [
            (1, Some(0x3E0)),
            (2, Some(0x3E1)),
            (4, Some(0x3E2)),
            (8, Some(0x3E3))
        ]
    );
    assert!(!g.event("OK.SINGLE").unwrap().offmodule);
}

#[test]
fn alternatives_pair_up_by_position() {
    let loaded = case("on-base/alternatives_mismatch");
    let g = loaded.model.generation("child").unwrap();
    let e = g.event("OK.CODES").unwrap();
    assert_eq!((e.event, e.alt_events.as_slice()), (0xB7, &[0xBB][..]));
    let m = e.msr.as_ref().unwrap();
    assert_eq!((m.index, m.alt_indexes.as_slice()), (0x1A6, &[0x1A7][..]));
    let alts = g.event("OK.UMASKS").unwrap().alternatives();
    let pairs: Vec<_> = alts
        .iter()
        .map(|a| (a.event, a.umask, a.msr_index))
        .collect();
    assert_eq!(pairs, [(0xB7, 1, Some(0x1A6)), (0xB7, 2, Some(0x1A7))]);
    let alts = g.event("OK.ONE_MSR").unwrap().alternatives();
    let pairs: Vec<_> = alts.iter().map(|a| (a.umask, a.msr_index)).collect();
    assert_eq!(pairs, [(1, Some(0x1A6)), (2, Some(0x1A6))]);
}

#[test]
fn counter_sets_reach_the_model() {
    let loaded = case("on-base/counter_sets_out_of_range_and_not_in_event");
    let g = loaded.model.generation("child").unwrap();
    let good = g.event("GOOD").unwrap();
    let ht = good.counters_ht_off.as_ref().unwrap();
    assert_eq!((ht.general.len(), ht.fixed.len()), (8, 0));
    assert_eq!(good.pdist_counters.as_ref().unwrap().general, [0]);
    assert!(good.pdir_counters.is_none());
    let pdir = g.event("PDIR_OK").unwrap().pdir_counters.clone().unwrap();
    assert_eq!((pdir.general, pdir.fixed), (vec![0], vec![0]));
}

/// The `allow:` reaches the model at its place; one warning is acknowledged, and the verbose
/// rendering shows it in full with its reason (the plain one, in `expected.txt`, counts it in
/// one line).
#[test]
fn allow_reaches_the_model_and_the_verbose_rendering() {
    let loaded = case("on-base/allow_acknowledges_the_warning_about_its_event");
    assert_eq!(loaded.acknowledged(), 1);
    let e = loaded
        .model
        .generation("child")
        .unwrap()
        .event("PDIST_STRAY")
        .unwrap();
    assert_eq!(e.allow.len(), 1);
    assert_eq!(e.allow[0].code, "counter-not-in-event");
    assert_eq!(loaded.sources.location(e.allow[0].span), "c.yaml:9:15");
    let out = loaded.render_diagnostics_verbose();
    assert_eq!(
        out.matches("warning[counter-not-in-event]").count(),
        2,
        "{out}"
    );
    assert!(
        out.contains("= acknowledged (`allow:`): The vendor lists PDist counter 0, kept as given."),
        "{out}"
    );
    assert!(!out.contains("not shown"), "{out}");
    assert!(
        out.ends_with("0 errors, 2 warnings (1 acknowledged)\n"),
        "{out}"
    );
}

/// The event of a refused `allow:` entry is kept; no entry was taken.
#[test]
fn refused_allow_entries_are_not_taken() {
    let loaded = case("on-base/allow_refuses_unknown_codes_errors_and_other_warnings");
    let e = loaded
        .model
        .generation("child")
        .unwrap()
        .event("EV")
        .unwrap();
    assert!(e.allow.is_empty());
}

/// An entry whose value was rejected is dropped whole, not kept with the key missing; an
/// unknown key is reported and the rest of the mapping kept, as everywhere.
#[test]
fn rejected_event_facts_leave_the_rest() {
    let loaded = case("on-base/event_facts_that_are_rejected_when_read");
    let g = loaded.model.generation("child").unwrap();
    // The quoted "no" is a valid erratum id (an unquoted one would be a YAML 1.1 boolean).
    assert_eq!(g.event("ERRATA").unwrap().errata, ["SKL057", "no"]);
    assert!(g.event("NO_CODES").is_none());
    let set = g.event("BAD_SET").unwrap().pebs_counters.clone().unwrap();
    assert_eq!((set.general, set.fixed), (vec![0], vec![]));
    assert!(g.event("BAD_FLAG").unwrap().precise.is_none());
}

/// The good aliases reach the model; the bad ones do not.
#[test]
fn good_aliases_reach_the_model() {
    let loaded = case("on-base/aliases_are_read_and_bad_ones_located");
    let pairs: Vec<(&str, &str)> = loaded
        .model
        .aliases
        .iter()
        .map(|a| (a.short.as_str(), a.long.as_str()))
        .collect();
    assert_eq!(pairs, [("CTR", "COUNTER"), ("FIX", "FIXED_FUNCTION")]);
    assert_eq!(loaded.model.aliases[0].doc, "counter registers");
}

#[test]
fn an_inherited_alias_range_grows_with_the_count() {
    let grand = case("on-base/alias_msr_follows_the_family_count");
    let ctr = grand
        .model
        .generation("grand")
        .unwrap()
        .register("CTR")
        .unwrap();
    let want: Vec<u32> = (0..10).map(|n| 0x1900 + 4 * n).collect();
    assert_eq!(ctr.alias_addresses, want);
    assert_eq!(ctr.index_at(0x1924), Some(9));
    assert_eq!(ctr.index_at(0xCA), Some(9));
}
