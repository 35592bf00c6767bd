//! The guarantees around the diagnostics: every error of a file set at once, a parent's
//! fault once, the rustc-style rendering, acknowledged warnings (`allow:`) rendered and capped
//! apart, and the code table: every code the loader reports is in `diag::CODES` and has a
//! case in `tests/test_data/diagnostics/`.

use super::{
    all, assert_clean, assert_codes, assert_shipped_clean, base, child, data_dir, dedent, load,
    load_raw, loc, only,
};
use pmu_defs::{Loader, Severity};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[test]
fn fixtures_are_clean() {
    let loaded = load(&[("base.yaml", base().as_str())]);
    assert_clean(&loaded);
    let base = loaded.model.generation("base").unwrap();
    assert_eq!(base.general_counters(), 8);
    assert_eq!(base.fixed_counters(), 3);
    assert_eq!(base.register("SEL").unwrap().msr.base, 0x186);
    // The line numbers the cases rely on.
    assert_eq!(
        loaded.sources.location(base.register("SEL").unwrap().span),
        "base.yaml:12:11"
    );
    assert_clean(&child("generation: child\nextends: base\n"));
    assert_shipped_clean(&Loader::new().with_defaults().finish());
}

#[test]
fn dedent_numbers_lines_from_the_line_after_the_quote() {
    assert_eq!(dedent("\n    a: 1\n      b: 2\n    "), "a: 1\n  b: 2\n");
    assert_eq!(dedent("a: 1\n"), "a: 1\n");
}

/// The `.rs` files of the loader's sources (`pmu-defs/src/**`) with their text, sorted.
fn loader_sources() -> Vec<(PathBuf, String)> {
    let mut paths = Vec::new();
    let mut dirs = vec![pmu_defs::defs_dir().parent().unwrap().join("src")];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                paths.push(p);
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// The diagnostic codes `text` reports: the string literal that follows `error(` or
/// `warning(`, with that severity.
fn reported_codes(text: &str) -> Vec<(String, Severity)> {
    let mut found = Vec::new();
    for (call, severity) in [("error(", Severity::Error), ("warning(", Severity::Warning)] {
        for (at, _) in text.match_indices(call) {
            let rest = text[at + call.len()..].trim_start();
            let Some(lit) = rest.strip_prefix('"') else {
                continue;
            };
            let code = &lit[..lit.find('"').unwrap()];
            if !code.is_empty()
                && code
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            {
                found.push((code.to_owned(), severity));
            }
        }
    }
    found
}

/// The text of every `expected.txt` below `tests/test_data/diagnostics`.
fn expected_outputs() -> String {
    let mut out = String::new();
    let mut dirs = vec![data_dir()];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.ends_with("expected.txt") {
                out.push_str(&std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    out
}

/// Every code the loader reports (`diag::CODES`, which
/// [`the_code_table_is_the_codes_the_loader_reports`] checks against the sources) has a case
/// whose expected output reports it (`error[code]`, `warning[code]`), or, for the codes only
/// files on disk or the limits give, a test in `limits.rs` naming it.
#[test]
fn every_diagnostic_code_has_a_test() {
    assert!(pmu_defs::diag::CODES.len() >= 30);
    let expected = expected_outputs();
    let limits = include_str!("limits.rs");
    let untested: Vec<_> = pmu_defs::diag::CODES
        .iter()
        .map(|(c, _)| c)
        .filter(|c| {
            !expected.contains(&format!("error[{c}]"))
                && !expected.contains(&format!("warning[{c}]"))
                && !limits.contains(&format!("\"{c}\""))
        })
        .collect();
    assert!(untested.is_empty(), "codes without a test: {untested:?}");
}
/// Acknowledged warnings are capped apart: many acknowledged findings never push an
/// unacknowledged warning of the same code out of what is shown.
#[test]
fn acknowledged_warnings_do_not_crowd_out_new_ones() {
    let mut text = String::from("generation: child\nextends: base\nevents:\n");
    for i in 0..60 {
        text.push_str(&format!(
            "  - {{ name: A{i:02}, event: 0xC0, counters: [1], pdist-counters: [0], allow: [{{ code: counter-not-in-event, reason: known }}] }}\n"
        ));
    }
    text.push_str("  - { name: Z_NEW, event: 0xC0, counters: [1], pdist-counters: [0] }\n");
    let loaded = load_raw(&[("base.yaml", base().as_str()), ("c.yaml", &text)]);
    let shown: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.acknowledged.is_none())
        .collect();
    assert_eq!(shown.len(), 1, "{}", loaded.render_diagnostics());
    assert!(shown[0].message.contains("Z_NEW"));
    assert_eq!(loaded.acknowledged(), 60);
    let out = loaded.render_diagnostics();
    assert!(
        out.contains("note: 60 acknowledged warnings in the definitions (allow:), not shown"),
        "{out}"
    );
    assert!(out.ends_with("0 errors, 1 warning\n"), "{out}");
    let out = loaded.render_diagnostics_verbose();
    assert!(
        out.contains(
            "note: and 10 more acknowledged counter-not-in-event warnings (the first 50 are shown)"
        ),
        "{out}"
    );
    assert!(
        out.ends_with("0 errors, 61 warnings (60 acknowledged)\n"),
        "{out}"
    );
}

/// [`pmu_defs::diag::CODES`] lists every code the loader's sources report (outside unit tests),
/// with the severity it is reported at, and nothing else.
#[test]
fn the_code_table_is_the_codes_the_loader_reports() {
    let mut found: BTreeMap<String, Severity> = BTreeMap::new();
    for (_, text) in loader_sources() {
        let text = text.split("\n#[cfg(test)]").next().unwrap();
        for (code, severity) in reported_codes(text) {
            let before = found.insert(code.clone(), severity);
            assert!(
                before.is_none_or(|b| b == severity),
                "`{code}` is reported both as an error and as a warning"
            );
        }
    }
    let table: BTreeMap<String, Severity> = pmu_defs::diag::CODES
        .iter()
        .map(|(c, s)| ((*c).to_owned(), *s))
        .collect();
    assert_eq!(table, found);
    // Sorted, for `severity_of`'s binary search.
    assert!(pmu_defs::diag::CODES.windows(2).all(|w| w[0].0 < w[1].0));
    for (code, severity) in pmu_defs::diag::CODES {
        assert_eq!(pmu_defs::diag::severity_of(code), Some(*severity));
    }
    assert_eq!(pmu_defs::diag::severity_of("no-such-code"), None);
    for code in pmu_defs::diag::EVENT_WARNINGS {
        assert_eq!(pmu_defs::diag::severity_of(code), Some(Severity::Warning));
    }
}

// ---------------------------------------------------------------------------------------------
// Every error at once; a parent's fault once
// ---------------------------------------------------------------------------------------------

#[test]
fn all_errors_in_a_file_set_are_reported_together() {
    // Three independent faults, one per stage: schema, resolution, validation.
    let loaded = child(
        r#"
        generation: child
        extends: base
        titel: typo
        remove:
          registers: [NOPE]
        events:
          - { name: NINTH, event: 0x3C, counters: [9] }
        "#,
    );
    assert_codes(
        &loaded,
        &["unknown-key", "unknown-name", "counter-out-of-range"],
    );
    // Sorted by location.
    let at: Vec<_> = loaded.diagnostics.iter().map(|d| loc(&loaded, d)).collect();
    assert_eq!(at, ["c.yaml:3:1", "c.yaml:5:15", "c.yaml:7:13"]);

    // Faults in several files, and several of one class, are all reported.
    let loaded = load(&[
        ("base.yaml", base().as_str()),
        (
            "c1.yaml",
            r#"
            generation: c1
            extends: base
            registers:
              - { name: A, msr: 0x600, fields: [{ name: X, bits: 0:7 }, { name: Y, bits: 99 }] }
            "#,
        ),
        (
            "c2.yaml",
            "generation: c2\nextends: base\nbogus: 1\nother: 2\n",
        ),
        ("c3.yaml", "generation: c3\nextends: nowhere\n"),
    ]);
    assert_eq!(all(&loaded, "invalid-bits").len(), 2);
    assert_eq!(all(&loaded, "unknown-key").len(), 2);
    assert_eq!(all(&loaded, "unknown-generation").len(), 1);
    assert!(loaded.model.generation("c1").is_some());
    assert!(loaded.model.generation("c2").is_some());
}

/// A parent with one fault of each validation class whose message does not name the
/// generation, and two children that inherit them.
const FAULTY_PARENT: &str = r#"
generation: p
vendor: intel
registers:
  - name: REG
    msr: 0x500
    width: 32
    reset: 0x100
    access: read-only
    fields:
      - { name: A, bits: 7:0 }
      - { name: BB, bits: 4, access: read-write }
      - { name: C, bits: 40 }
      - { name: DD, bits: 1:0, values: [{ name: ONE, value: 1 }, { name: UNO, value: 1 }, { name: NINE, value: 9 }] }
"#;

#[test]
fn a_fault_in_a_parent_is_reported_once() {
    let loaded = load(&[
        ("p.yaml", FAULTY_PARENT),
        ("c1.yaml", "generation: c1\nextends: p\n"),
        ("c2.yaml", "generation: c2\nextends: c1\n"),
        ("c3.yaml", "generation: c3\nextends: p\n"),
    ]);
    assert_eq!(loaded.model.generations.len(), 4);
    // `field-overlap` twice (A/B and A/D), each once.
    let overlaps = all(&loaded, "field-overlap");
    assert_eq!(overlaps.len(), 2, "{}", loaded.render_diagnostics());
    assert!(
        overlaps
            .iter()
            .all(|d| loc(&loaded, d).starts_with("p.yaml:"))
    );
    for code in [
        "field-past-width",
        "access-conflict",
        "reset-reserved",
        "value-too-wide",
        "duplicate-value",
    ] {
        let d = only(&loaded, code);
        assert!(
            loc(&loaded, d).starts_with("p.yaml:"),
            "{code} at {}",
            loc(&loaded, d)
        );
    }
    assert_eq!(
        loaded.diagnostics.len(),
        2 + 5,
        "{}",
        loaded.render_diagnostics()
    );
}

#[test]

fn an_event_or_address_fault_in_a_parent_is_reported_once() {
    let loaded = load(&[
        (
            "p.yaml",
            r#"
            generation: p
            vendor: intel
            pmu:
              # SEL and CTR are the event select and the counters (their roles)
              encoding: { event: EVENT, umask: UMASK }
            registers:
              - { name: SEL, msr: 0x186, role: event-select, fields: [{ name: EVENT, bits: 7:0 }, { name: UMASK, bits: 15:8 }] }
              - { name: CTR, msr: { base: 0xC1, count: 2 }, role: counter }
              - { name: DUP, msr: 0xC1 }
            events:
              - { name: OUT_OF_RANGE, event: 0x3C, counters: [5] }
              - { name: WIDE, event: 0x3C, umask: 0x100 }
              - { name: EDGY, event: 0x3C, edge: true }
              - { name: NOWHERE, event: 0x3C, counters: [] }
            "#,
        ),
        ("c1.yaml", "generation: c1\nextends: p\n"),
        ("c2.yaml", "generation: c2\nextends: p\n"),
    ]);
    for code in [
        "duplicate-address",
        "counter-out-of-range",
        "value-too-wide",
        "unsupported-attribute",
        "no-counter",
    ] {
        let d = only(&loaded, code);
        assert!(loc(&loaded, d).starts_with("p.yaml:"));
    }
}

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

#[test]
fn rendered_output_is_rustc_style() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: REG
            msr: 0x500
            fields:
              - { name: LOW, bits: 7:0 }
              - { name: HIGH, bits: 15:4 }
        "#,
    );
    let out = loaded.render_diagnostics();
    let expect_in_order = [
        "error[field-overlap]: fields `LOW` and `HIGH` of register `REG` overlap at bit 4",
        "┌─ c.yaml:8:17",
        "7 │       - { name: LOW, bits: 7:0 }",
        "`LOW` covers bits 7:0",
        "8 │       - { name: HIGH, bits: 15:4 }",
        "`HIGH` covers bits 15:4",
        "1 error, 0 warnings",
    ];
    let mut from = 0;
    for part in expect_in_order {
        match out[from..].find(part) {
            Some(i) => from += i + part.len(),
            None => panic!("{part:?} missing (or out of order) in:\n{out}"),
        }
    }
    assert!(out.ends_with("1 error, 0 warnings\n"), "{out}");
    // The primary span is underlined with `^`, under the field name.
    assert!(out.contains("^^^^ `HIGH` covers bits 15:4"), "{out}");

    // One diagnostic renders the same on its own, with `short` as a one-liner.
    let d = only(&loaded, "field-overlap");
    assert!(out.starts_with(&d.render(&loaded.sources)));
    assert_eq!(
        d.short(&loaded.sources),
        "c.yaml:8:17: error[field-overlap]: fields `LOW` and `HIGH` of register `REG` overlap at bit 4"
    );

    // Notes render as `= ...` lines; the count is pluralised.
    let loaded = child("generation: child\nextends: base\nregistres: []\ntitel: 2\n");
    let out = loaded.render_diagnostics();
    assert!(out.contains("= help: did you mean `registers`?"), "{out}");
    assert!(out.contains("= help: did you mean `title`?"), "{out}");
    assert!(out.ends_with("2 errors, 0 warnings\n"), "{out}");

    // Nothing to say, nothing rendered.
    assert_eq!(
        child("generation: child\nextends: base\n").render_diagnostics(),
        ""
    );
}

#[test]
fn shipped_aliases_are_all_used() {
    let loaded = Loader::new().with_defaults().finish();
    assert!(all(&loaded, "unused-alias").is_empty());
    assert!(all(&loaded, "invalid-alias").is_empty());
    assert!(
        loaded
            .model
            .aliases
            .iter()
            .any(|a| a.short == "LLC" && a.long == "LONGEST_LAT_CACHE")
    );
}
