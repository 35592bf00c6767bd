//! The diagnostics suite: one test per diagnostic class (`code`), each with a small inline
//! fixture, asserting the code, the message and the `file:line:col` location (and the
//! secondary label where a diagnostic has one); then the "every error at once" and
//! "a parent's fault once" guarantees, the rustc-style rendering, and a deterministic
//! mutation test proving that no input makes the loader panic.
//!
//! Fixtures are written indented inside the test and de-indented by [`dedent`]; line 1 is the
//! line after the opening `r#"`. Columns count characters, as editors and rustc do.
//!
//! Tests marked `` assert the correct behaviour of a known loader bug;
//! run them with `cargo test -p tests --test diagnostics -- --ignored`.

use pmu_defs::diag::Label;
use pmu_defs::{Diagnostic, Limits, Loaded, Loader, Severity};
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// Removes the first newline and the indentation common to every non-blank line.
fn dedent(text: &str) -> String {
    let text = text.strip_prefix('\n').unwrap_or(text);
    let indent = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out = String::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            out.push('\n');
        } else {
            out.push_str(&line[indent..]);
            out.push('\n');
        }
    }
    // The line holding the closing `"#` leaves one blank line; drop trailing blank lines.
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// Loads in-memory files (de-indented) with the given limits.
fn load_with(limits: Limits, files: &[(&str, &str)]) -> Loaded {
    let mut loader = Loader::new().with_limits(limits);
    for (name, text) in files {
        loader.add_str(*name, dedent(text));
    }
    loader.finish()
}

/// Loads in-memory files (de-indented) with the default limits.
fn load(files: &[(&str, &str)]) -> Loaded {
    load_with(Limits::default(), files)
}

/// Loads [`BASE`] as `base.yaml` and `child` as `c.yaml`.
fn child(text: &str) -> Loaded {
    load(&[("base.yaml", BASE), ("c.yaml", text)])
}

/// Loads files exactly as given (no de-indenting).
fn load_raw(files: &[(&str, &str)]) -> Loaded {
    let mut loader = Loader::new();
    for (name, text) in files {
        loader.add_str(*name, *text);
    }
    loader.finish()
}

/// Every diagnostic with `code`.
fn all<'a>(loaded: &'a Loaded, code: &str) -> Vec<&'a Diagnostic> {
    loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .collect()
}

/// The one diagnostic with `code`; fails, showing every diagnostic, when there is not exactly one.
#[track_caller]
fn only<'a>(loaded: &'a Loaded, code: &str) -> &'a Diagnostic {
    let found = all(loaded, code);
    assert_eq!(
        found.len(),
        1,
        "expected exactly one `{code}` diagnostic, found {}:\n{}",
        found.len(),
        loaded.render_diagnostics()
    );
    found[0]
}

/// The one diagnostic with `code` whose message contains `needle`.
#[track_caller]
fn find<'a>(loaded: &'a Loaded, code: &str, needle: &str) -> &'a Diagnostic {
    let found: Vec<_> = all(loaded, code)
        .into_iter()
        .filter(|d| d.message.contains(needle))
        .collect();
    assert_eq!(
        found.len(),
        1,
        "expected exactly one `{code}` diagnostic mentioning {needle:?}, found {}:\n{}",
        found.len(),
        loaded.render_diagnostics()
    );
    found[0]
}

/// `file:line:col` of the primary span.
fn loc(loaded: &Loaded, d: &Diagnostic) -> String {
    loaded.sources.location(d.span())
}

/// The secondary labels of a diagnostic.
fn secondary(d: &Diagnostic) -> Vec<&Label> {
    d.labels.iter().filter(|l| !l.primary).collect()
}

/// `file:line:col` of the one secondary label.
#[track_caller]
fn loc2(loaded: &Loaded, d: &Diagnostic) -> String {
    let s = secondary(d);
    assert_eq!(s.len(), 1, "expected one secondary label: {d:#?}");
    loaded.sources.location(s[0].span)
}

/// The text the primary span covers.
fn spanned_text<'a>(loaded: &'a Loaded, d: &Diagnostic) -> &'a str {
    let s = d.span();
    &loaded.sources.text(s.file)[s.start..s.end]
}

/// The codes of every diagnostic, in reported order.
fn codes(loaded: &Loaded) -> Vec<&'static str> {
    loaded.diagnostics.iter().map(|d| d.code).collect()
}

/// Asserts the full list of codes (so no stray or cascading diagnostic slips in).
#[track_caller]
fn assert_codes(loaded: &Loaded, expected: &[&str]) {
    assert_eq!(
        codes(loaded),
        expected,
        "unexpected diagnostics:\n{}",
        loaded.render_diagnostics()
    );
}

/// Asserts a note (or `help:` line) is present.
#[track_caller]
fn assert_note(d: &Diagnostic, note: &str) {
    assert!(
        d.notes.iter().any(|n| n == note),
        "note {note:?} missing from {:?}",
        d.notes
    );
}

/// Asserts a load produced no diagnostics at all.
#[track_caller]
fn assert_clean(loaded: &Loaded) {
    assert!(
        loaded.diagnostics.is_empty(),
        "expected no diagnostics:\n{}",
        loaded.render_diagnostics()
    );
}

/// Asserts a load of shipped files has no diagnostic but the `counter-not-in-event` and
/// `aux-msr-reserved` warnings that Intel's own lists cause in the imported core models
/// (`intel/models/`), each acknowledged (reviewed in `pmu-defs/import/reviewed.yaml`, written as an `allow:`).
#[track_caller]
fn assert_shipped_clean(loaded: &Loaded) {
    for d in &loaded.diagnostics {
        let file = loaded.sources.name(d.span().file).replace('\\', "/");
        assert!(
            d.severity == Severity::Warning
                && matches!(d.code, "counter-not-in-event" | "aux-msr-reserved")
                && d.acknowledged.is_some()
                && file.contains("models/"),
            "expected no diagnostics but Intel's acknowledged counter-not-in-event and aux-msr-reserved warnings:\n{}",
            loaded.render_diagnostics_verbose()
        );
    }
    // Past the per-code cap, only acknowledged warnings of those codes may be left out.
    assert!(
        loaded.omitted.iter().all(|o| o.acknowledged
            && o.severity == Severity::Warning
            && matches!(o.code, "counter-not-in-event" | "aux-msr-reserved")),
        "{:?}",
        loaded.omitted
    );
}

/// A self-contained generation the other fixtures extend: eight general counters, three
/// fixed counters, an encoding without `edge`/`any`/`umask2`, one CPUID leaf, one constraint
/// and one event. Line numbers are referred to by the tests (`SEL` is `base.yaml:12:11`).
const BASE: &str = r#"
generation: base
vendor: intel
# The counter sets are the registers with the roles event-select, counter and
# fixed-counter.
pmu:
  encoding:
    event: EVENT
    umask: UMASK
    inv: INV
    cmask: CMASK
registers:
  - name: SEL
    msr: { base: 0x186, count: 8 }
    fields:
      - { name: EVENT, bits: 7:0 }
      - { name: UMASK, bits: 15:8 }
      - { name: INV, bits: 23 }
      - { name: CMASK, bits: 31:24 }
    role: event-select
  - name: CTR
    msr: { base: 0xC1, count: 8 }
    role: counter
    fields:
      - { name: COUNT, bits: 47:0 }
  - name: FIXED
    msr: { base: 0x309, count: 3 }
    role: fixed-counter
    fields:
      - { name: COUNT, bits: 47:0 }
cpuid:
  - name: ARCH
    leaf: 0x0A
    ebx:
      - { name: CYCLES_UNAVAILABLE, bits: 0 }
constraints:
  - id: inv-needs-cmask
    register: SEL
    when: { INV: 1, CMASK: 0 }
    message: INV has no effect while CMASK is 0
events:
  - { name: CYCLES, event: 0x3C, cpuid-bit: 0 }
"#;

#[test]
fn fixtures_are_clean() {
    let loaded = load(&[("base.yaml", BASE)]);
    assert_clean(&loaded);
    let base = loaded.model.generation("base").unwrap();
    assert_eq!(base.general_counters(), 8);
    assert_eq!(base.fixed_counters(), 3);
    assert_eq!(base.register("SEL").unwrap().msr.base, 0x186);
    // The line numbers the tests rely on.
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

/// Every diagnostic code the loader can emit, read from its sources (`src/**/*.rs`): the
/// string literal that follows `error(` or `warning(`.
fn codes_in_loader_sources() -> Vec<String> {
    let src = pmu_defs::defs_dir().parent().unwrap().join("src");
    let mut found = Vec::new();
    let mut paths = Vec::new();
    let mut dirs = vec![src];
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
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        for call in ["error(", "warning("] {
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
                    found.push(code.to_owned());
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn every_diagnostic_code_has_a_test() {
    let codes = codes_in_loader_sources();
    assert!(codes.len() >= 30, "found only {codes:?}");
    let this = include_str!("diagnostics.rs");
    let untested: Vec<_> = codes
        .iter()
        .filter(|c| !this.contains(&format!("\"{c}\"")))
        .collect();
    assert!(untested.is_empty(), "codes without a test: {untested:?}");
}

// ---------------------------------------------------------------------------------------------
// Schema: keys
// ---------------------------------------------------------------------------------------------

#[test]
fn unknown_key_with_did_you_mean() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: SEL
            fileds: []
        "#,
    );
    assert_codes(&loaded, &["unknown-key"]);
    let d = only(&loaded, "unknown-key");
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.message, "unknown key `fileds` in register");
    assert_eq!(loc(&loaded, d), "c.yaml:5:5");
    assert_eq!(spanned_text(&loaded, d), "fileds");
    assert_note(d, "help: did you mean `fields`?");
}

#[test]
fn unknown_key_in_every_kind_of_mapping() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        pmu: { encodng: { event: EVENT } }
        registers:
          - name: NEW
            msr: { base: 0x500, cuont: 2 }
            fields:
              - { name: A, bits: 3, acess: read-only }
        events:
          - { name: CYCLES, umsak: 1 }
        cpuid:
          - { name: ARCH, subleef: 1 }
        constraints:
          - { id: inv-needs-cmask, mesage: hi }
        remove: { register: [CTR] }
        "#,
    );
    let expect = [
        ("encodng", "pmu", "encoding", "c.yaml:3:8"),
        ("cuont", "msr family", "count", "c.yaml:6:25"),
        ("acess", "field", "access", "c.yaml:8:29"),
        ("umsak", "event", "umask", "c.yaml:10:21"),
        ("subleef", "CPUID leaf", "subleaf", "c.yaml:12:19"),
        ("mesage", "constraint", "message", "c.yaml:14:28"),
        ("register", "remove", "registers", "c.yaml:15:11"),
    ];
    for (key, what, suggestion, at) in expect {
        let d = find(&loaded, "unknown-key", &format!("`{key}`"));
        assert_eq!(d.message, format!("unknown key `{key}` in {what}"));
        assert_eq!(loc(&loaded, d), at, "{key}");
        assert_note(d, &format!("help: did you mean `{suggestion}`?"));
    }
}

#[test]
fn unknown_key_without_suggestion_lists_the_keys() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        zzz: 1
        "#,
    );
    assert_codes(&loaded, &["unknown-key"]);
    let d = only(&loaded, "unknown-key");
    assert_eq!(d.message, "unknown key `zzz` in generation file");
    assert_eq!(loc(&loaded, d), "c.yaml:3:1");
    assert_note(
        d,
        "expected one of: generation, vendor, title, manual, doc, extends, pmu, registers, \
         cpuid, events, constraints, remove, source, cpus, detect, perfmon-cores",
    );
}

#[test]
fn duplicate_key_reports_both_spans() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        title: one
        title: two
        registers:
          - { name: SEL, width: 32, width: 16 }
        "#,
    );
    let d = find(&loaded, "duplicate-key", "`title`");
    assert_eq!(d.message, "duplicate key `title`");
    assert_eq!(loc(&loaded, d), "c.yaml:4:1");
    assert_eq!(d.labels[0].message, "second definition");
    assert_eq!(loc2(&loaded, d), "c.yaml:3:1");
    assert_eq!(secondary(d)[0].message, "first defined here");
    assert_note(
        d,
        "help: YAML mappings take each key once; remove or rename one of them",
    );

    let d = find(&loaded, "duplicate-key", "`width`");
    assert_eq!(loc(&loaded, d), "c.yaml:6:29");
    assert_eq!(loc2(&loaded, d), "c.yaml:6:18");
    // The first value wins.
    let sel = loaded
        .model
        .generation("child")
        .unwrap()
        .register("SEL")
        .unwrap();
    assert_eq!(sel.width, 32);
    assert_eq!(loaded.model.generation("child").unwrap().title, "one");
    assert_codes(&loaded, &["duplicate-key", "duplicate-key"]);
}

#[test]
fn missing_key_for_new_entries() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: NEW
            width: 32
          - name: SEL
            fields:
              - { name: NEWFIELD, doc: no bits }
              - { name: UMASK, doc: an override needs no bits }
        events:
          - { name: NEW_EVENT, umask: 1 }
        cpuid:
          - { name: NEW_LEAF, subleaf: 1 }
        constraints:
          - { id: new-constraint, register: SEL, when: { INV: 1 } }
        "#,
    );
    let expect = [
        (
            "new register `NEW` needs `msr`",
            "c.yaml:4:11",
            "register",
            "msr",
        ),
        (
            "new field `NEWFIELD` needs `bits`",
            "c.yaml:8:17",
            "field",
            "bits",
        ),
        (
            "new event `NEW_EVENT` needs `event`",
            "c.yaml:11:13",
            "event",
            "event",
        ),
        (
            "new CPUID leaf `NEW_LEAF` needs `leaf`",
            "c.yaml:13:13",
            "CPUID leaf",
            "leaf",
        ),
        (
            "new constraint `new-constraint` needs `message`",
            "c.yaml:15:11",
            "constraint",
            "message",
        ),
    ];
    for (message, at, what, key) in expect {
        let d = find(&loaded, "missing-key", message);
        assert_eq!(d.message, message);
        assert_eq!(loc(&loaded, d), at, "{message}");
        assert_eq!(
            d.labels[0].message,
            format!("not inherited, so `{key}` must be given")
        );
        assert_note(
            d,
            &format!("only an entry that overrides an inherited {what} may leave out `{key}`"),
        );
    }
    assert_eq!(all(&loaded, "missing-key").len(), 5);
    assert_eq!(codes(&loaded).len(), 5, "{}", loaded.render_diagnostics());
}

#[test]
fn missing_key_in_the_schema() {
    // No `generation:` at all.
    let loaded = load(&[("a.yaml", "vendor: intel\n")]);
    assert_codes(&loaded, &["missing-key"]);
    let d = only(&loaded, "missing-key");
    assert_eq!(
        d.message,
        "generation file is missing required key `generation`"
    );
    assert_eq!(loc(&loaded, d), "a.yaml:1:1");

    // Neither `vendor` nor `extends`.
    let loaded = load(&[("a.yaml", "generation: a\n")]);
    let d = only(&loaded, "missing-key");
    assert_eq!(
        d.message,
        "generation without `extends` is missing required key `vendor`"
    );
    assert_eq!(loc(&loaded, d), "a.yaml:1:1");

    // A register without a name; a new msr family without a count, another without a base
    // (an override of an inherited family may leave both out: `SEL` keeps its base).
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { msr: 0x500 }
          - name: NEW_SEL
            msr: { base: 0x600 }
          - name: NEW_CTR
            msr: { count: 2 }
          - name: SEL
            msr: { count: 8 }
        "#,
    );
    assert_codes(&loaded, &["missing-key", "missing-key", "missing-key"]);
    let d = find(&loaded, "missing-key", "register is missing");
    assert_eq!(d.message, "register is missing required key `name`");
    assert_eq!(loc(&loaded, d), "c.yaml:4:5");
    assert_eq!(d.labels[0].message, "this register needs `name`");
    let d = find(&loaded, "missing-key", "`count`");
    assert_eq!(d.message, "msr family is missing required key `count`");
    assert_eq!(loc(&loaded, d), "c.yaml:6:10");
    assert_note(
        d,
        "only an entry that overrides an inherited register may leave out `count`",
    );
    let d = find(&loaded, "missing-key", "`base`");
    assert_eq!(d.message, "msr family is missing required key `base`");
    assert_eq!(loc(&loaded, d), "c.yaml:8:10");

    // A new field array without a stride; an override of an inherited array may leave it out.
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: FIXED_CTRL
            msr: 0x38D
            fields:
              - { name: EN, bits: 1:0, array: { count: 3 } }
              - { name: PMI, bits: 3, array: { stride: 4 } }
              - { name: ANY, bits: 2, array: {} }
        "#,
    );
    assert_codes(&loaded, &["missing-key", "missing-key", "missing-key"]);
    let d = find(&loaded, "missing-key", "`stride`");
    assert_eq!(d.message, "field array is missing required key `stride`");
    assert_eq!(loc(&loaded, d), "c.yaml:7:39");
    let counts: Vec<_> = all(&loaded, "missing-key")
        .into_iter()
        .filter(|d| d.message == "field array is missing required key `count`")
        .map(|d| loc(&loaded, d))
        .collect();
    assert_eq!(counts, ["c.yaml:8:38", "c.yaml:9:38"]);
}

#[test]
fn missing_role() {
    let loaded = load(&[(
        "a.yaml",
        r#"
        generation: a
        vendor: intel
        registers:
          - { name: SEL, msr: 0x186, role: event-select }
          - { name: CTL, msr: 0x38D, role: fixed-control }
          - name: STATUS
            msr: 0x38E
            fields: [{ name: OVF, bits: 0, array: { count: 2, stride: 1 }, per-counter: general }]
        "#,
    )]);
    assert_codes(&loaded, &["missing-role", "missing-role", "missing-role"]);
    let d = find(&loaded, "missing-role", "`SEL`");
    assert_eq!(
        d.message,
        "`SEL` has role `event-select` but no register of `a` has role `counter`"
    );
    assert_eq!(loc(&loaded, d), "a.yaml:4:36");
    assert_note(d, "help: give the matching register `role: counter`");
    let d = find(&loaded, "missing-role", "`CTL`");
    assert_eq!(
        d.message,
        "`CTL` has role `fixed-control` but no register of `a` has role `fixed-counter`"
    );
    let d = find(&loaded, "missing-role", "`OVF`");
    assert_eq!(
        d.message,
        "field `OVF` of `STATUS` is `per-counter: general`, but no register of `a` has role `counter`"
    );
    assert_eq!(loc(&loaded, d), "a.yaml:8:81");
}

#[test]
fn duplicate_role() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { name: CTR2, msr: { base: 0x4C1, count: 8 }, role: counter }
          - name: STATUS
            msr: 0x38E
            role: global-status
            fields:
              - { name: FRZ, bits: 59, role: frozen }
              - { name: FRZ2, bits: 60, role: frozen }
        "#,
    );
    assert_codes(&loaded, &["duplicate-role", "duplicate-role"]);
    let d = find(&loaded, "duplicate-role", "`CTR2`");
    assert_eq!(
        d.message,
        "`CTR` and `CTR2` both have role `counter` in `child`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:57");
    assert_eq!(loc2(&loaded, d), "base.yaml:22:11");
    let d = find(&loaded, "duplicate-role", "`FRZ2`");
    assert_eq!(
        d.message,
        "fields `FRZ` and `FRZ2` of `STATUS` both have role `frozen`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:10:39");
}

#[test]
fn misplaced_role() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: CTL
            msr: 0x38F
            role: global-control
            fields:
              - { name: PMI, bits: 3, role: pmi }
              - { name: EN, bits: 0, per-counter: general }
        cpuid:
          - name: ARCH
            ebx:
              - { name: CYCLES_UNAVAILABLE, role: frozen }
        "#,
    );
    assert_codes(
        &loaded,
        &["misplaced-role", "misplaced-role", "misplaced-role"],
    );
    let d = find(&loaded, "misplaced-role", "`pmi`");
    assert_eq!(
        d.message,
        "field role `pmi` belongs to a register with role `fixed-control`, but `CTL` has role `global-control`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:8:37");
    let d = find(&loaded, "misplaced-role", "not an array");
    assert_eq!(
        d.message,
        "field `EN` of `CTL` is `per-counter: general` but is not an array"
    );
    let d = find(&loaded, "misplaced-role", "CPUID");
    assert_eq!(
        d.message,
        "field `CYCLES_UNAVAILABLE` of CPUID leaf `ARCH` has an MSR field's role; CPUID fields take CPUID roles (general-count, fixed-width, ...)"
    );
}

#[test]
fn role_values() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: CTL
            msr: 0x38D
            role: fixed-control
            fields:
              - name: ENABLE
                bits: 1:0
                array: { count: 3, stride: 4 }
                per-counter: fixed
                role: privilege
                values: [{ name: OS, value: 1 }, { name: USR, value: 2 }]
        "#,
    );
    assert_codes(&loaded, &["role-values"]);
    let d = find(&loaded, "role-values", "ENABLE");
    assert_eq!(
        d.message,
        "field `ENABLE` of `CTL` has role `privilege` but no named values `DISABLED`, `ALL`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:12:15");
}

#[test]
fn type_mismatch() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        title: [a, b]
        registers: { name: X }
        events:
          - { name: CYCLES, umask: "0x1" }
          - { name: CYCLES2, event: 1, inv: yes, edge: 1 }
        constraints:
          - { id: inv-needs-cmask, when: [] }
        "#,
    );
    let expect = [
        ("c.yaml:3:8", "expected a string, found a sequence"),
        (
            "c.yaml:4:12",
            "expected a sequence of registers, found a mapping",
        ),
        ("c.yaml:6:28", "expected a number, found the string \"0x1\""),
        ("c.yaml:7:37", "`yes` is not a boolean here"),
        (
            "c.yaml:7:48",
            "expected `true` or `false`, found a plain scalar",
        ),
        (
            "c.yaml:9:34",
            "`when` maps field names to the values that trigger it",
        ),
    ];
    let found: Vec<_> = all(&loaded, "type-mismatch")
        .into_iter()
        .map(|d| (loc(&loaded, d), d.message.clone()))
        .collect();
    let expect: Vec<_> = expect
        .iter()
        .map(|(a, m)| (a.to_string(), m.to_string()))
        .collect();
    assert_eq!(found, expect, "{}", loaded.render_diagnostics());
    assert_note(
        find(&loaded, "type-mismatch", "found the string"),
        "help: write numbers without quotes",
    );
    assert_note(
        find(&loaded, "type-mismatch", "`yes`"),
        "help: write `true` or `false`",
    );
    assert_eq!(codes(&loaded).len(), 6, "{}", loaded.render_diagnostics());

    // `counters:` is a list, or the word `all`.
    let loaded = child(
        r#"
        generation: child
        extends: base
        events:
          - { name: SOME, event: 0x3C, counters: some }
        "#,
    );
    assert_codes(&loaded, &["type-mismatch"]);
    let d = only(&loaded, "type-mismatch");
    assert_eq!(
        d.message,
        "expected a sequence of counter numbers (or `all`), found a plain scalar"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:42");

    // The document itself must be a mapping.
    let loaded = load(&[("a.yaml", "- generation: a\n")]);
    assert_codes(&loaded, &["type-mismatch"]);
    let d = only(&loaded, "type-mismatch");
    assert_eq!(
        d.message,
        "expected a mapping (generation file), found a sequence"
    );
    assert_eq!(loc(&loaded, d), "a.yaml:1:1");
}

// ---------------------------------------------------------------------------------------------
// Schema: values and names
// ---------------------------------------------------------------------------------------------

#[test]
fn invalid_bits() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: R
            msr: 0x500
            fields:
              - { name: A, bits: 0:7 }
              - { name: B, bits: 64 }
              - { name: C, bits: 70:60 }
              - { name: D, bits: x:1 }
              - { name: E, bits: [] }
              - { name: F, bits: [7:0, 35:32] }
        "#,
    );
    let expect = [
        ("c.yaml:7:26", "bit range `0:7` is written low:high", "0:7"),
        ("c.yaml:8:26", "bit 64 is past bit 63", "64"),
        ("c.yaml:9:26", "bit range `70:60` goes past bit 63", "70:60"),
        ("c.yaml:10:26", "`x:1` is not a bit range", "x:1"),
        (
            "c.yaml:11:26",
            "a split field needs at least one bit range",
            "[]",
        ),
    ];
    let found = all(&loaded, "invalid-bits");
    assert_eq!(found.len(), expect.len(), "{}", loaded.render_diagnostics());
    for (d, (at, message, text)) in found.iter().zip(expect) {
        assert_eq!(d.message, message);
        assert_eq!(loc(&loaded, d), at, "{message}");
        // (A flow sequence's span also takes the space after its `]`.)
        assert_eq!(spanned_text(&loaded, d).trim_end(), text);
    }
    assert_note(
        found[0],
        "help: write the high bit first, as the manuals do: `7:0`",
    );
    assert_note(
        found[3],
        "help: write one bit (`19`) or a range high:low (`31:24`)",
    );
    // The split field (AMD's EVENT_SELECT shape) is accepted: 12 bits, low part first.
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

#[test]

fn invalid_value_does_not_cascade_into_missing_key() {
    // One fault, one diagnostic: the key is there, only its value is wrong.
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: REG
            msr: 0x500
            fields:
              - { name: A, bits: 0:7 }
          - { name: S, msr: 0x1_0000_0000 }
          - { name: T, msr: { base: 1, count: 0 } }
        events:
          - { name: E, event: "0x3C" }
          - { name: F, event: -1 }
        "#,
    );
    assert_codes(
        &loaded,
        &[
            "invalid-bits",
            "out-of-range",
            "out-of-range",
            "type-mismatch",
            "invalid-number",
        ],
    );
}

#[test]
fn invalid_number() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        events:
          - { name: CYCLES, umask: -1 }
          - { name: CYCLES2, event: 1, cmask: 12a }
          - { name: CYCLES3, event: 1, umask: 0x1_0000_0000_0000_0000 }
        "#,
    );
    let expect = [
        (
            "c.yaml:4:28",
            "`-1` is negative; only unsigned numbers are allowed here",
        ),
        (
            "c.yaml:5:39",
            "`12a` is not a number (decimal, 0x hex or 0b binary, up to 64 bits)",
        ),
        (
            "c.yaml:6:39",
            "`0x1_0000_0000_0000_0000` is not a number (decimal, 0x hex or 0b binary, up to 64 bits)",
        ),
    ];
    let found = all(&loaded, "invalid-number");
    assert_eq!(found.len(), 3, "{}", loaded.render_diagnostics());
    for (d, (at, message)) in found.iter().zip(expect) {
        assert_eq!(d.message, message);
        assert_eq!(loc(&loaded, d), at);
    }
}

#[test]
fn invalid_value() {
    let loaded = load(&[(
        "a.yaml",
        r#"
        generation: a
        vendor: intell
        registers:
          - { name: R, msr: 1, access: read-onyl }
        constraints:
          - { id: c, register: R, when: { X: 1 }, message: m, severity: fatal }
        events:
          - { name: E, event: 1, counters: [3-1] }
        "#,
    )]);
    let d = find(&loaded, "invalid-value", "vendor");
    assert_eq!(d.message, "`intell` is not a valid vendor");
    assert_eq!(loc(&loaded, d), "a.yaml:2:9");
    assert_eq!(d.labels[0].message, "expected one of: intel, amd");
    assert_note(d, "help: did you mean `intel`?");

    let d = find(&loaded, "invalid-value", "access");
    assert_eq!(d.message, "`read-onyl` is not a valid access");
    assert_eq!(loc(&loaded, d), "a.yaml:4:32");
    assert_note(d, "help: did you mean `read-only`?");

    let d = find(&loaded, "invalid-value", "severity");
    assert_eq!(d.message, "`fatal` is not a valid severity");
    assert_eq!(loc(&loaded, d), "a.yaml:6:65");

    let d = find(&loaded, "invalid-value", "counter range");
    assert_eq!(d.message, "`3-1` is not a counter range");
    assert_eq!(loc(&loaded, d), "a.yaml:8:37");
    assert_note(d, "help: write a number or a range low-high such as `0-3`");
}

#[test]
fn invalid_name() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { name: 1REG, msr: 0x500 }
          - { name: SEL, fields: [{ name: BAD-NAME, bits: 40 }] }
        events:
          - { name: "BAD EVENT", event: 1 }
        constraints:
          - { id: Bad_Id, register: SEL, when: { INV: 1 }, message: m }
        "#,
    );
    let expect = [
        (
            "c.yaml:4:13",
            "`1REG` is not a valid register name",
            "a register name starts with a letter and holds only letters, digits and `_`",
        ),
        (
            "c.yaml:5:35",
            "`BAD-NAME` is not a valid field name",
            "a field name starts with a letter and holds only letters, digits and `_`",
        ),
        (
            "c.yaml:7:13",
            "`BAD EVENT` is not a valid event name",
            "a event name starts with a letter and holds only letters, digits, `_`, `.`, `:` and `=`",
        ),
        (
            "c.yaml:9:11",
            "`Bad_Id` is not a valid constraint id",
            "a constraint id starts with a lowercase letter and holds only lowercase letters, digits and `-`",
        ),
    ];
    assert_eq!(all(&loaded, "invalid-name").len(), 4);
    for (at, message, label) in expect {
        let d = find(&loaded, "invalid-name", message);
        assert_eq!(loc(&loaded, d), at, "{message}");
        assert_eq!(d.labels[0].message, label);
    }

    let loaded = load(&[("a.yaml", "generation: Intel-V9\nvendor: intel\n")]);
    assert_codes(&loaded, &["invalid-name"]);
    let d = only(&loaded, "invalid-name");
    assert_eq!(d.message, "`Intel-V9` is not a valid generation id");
    assert_eq!(loc(&loaded, d), "a.yaml:1:13");
}

#[test]
fn out_of_range() {
    let loaded = load(&[(
        "a.yaml",
        r#"
        generation: a
        vendor: intel
        registers:
          - { name: A, msr: 0x1_0000_0000 }
          - { name: B, msr: { base: 0xFFFFFFFF, count: 2 } }
          - { name: C, msr: { base: 0x10, count: 0 } }
          - { name: D, msr: { base: 0x20, count: 257 } }
          - { name: E, msr: { base: 0x30, count: 2, stride: 0x10001 } }
          - { name: F, msr: 0x40, width: 65 }
          - { name: G, msr: 0x41, width: 0 }
          - { name: H, msr: 0x42, fields: [{ name: X, bits: 0, array: { count: 0, stride: 1 } }] }
          - { name: I, msr: 0x43, fields: [{ name: X, bits: 0, array: { count: 65, stride: 1 } }] }
        cpuid:
          - { name: L, leaf: 0x1_0000_0000 }
        events:
          - { name: EV, event: 1, cpuid-bit: 32 }
        "#,
    )]);
    let expect = [
        (
            "a.yaml:4:21",
            "MSR address 4294967296 is larger than the maximum 4294967295",
        ),
        (
            "a.yaml:5:21",
            "the register family runs past MSR address 0xFFFFFFFF",
        ),
        (
            "a.yaml:6:42",
            "a register family needs at least one register",
        ),
        (
            "a.yaml:7:42",
            "register count 257 is larger than the maximum 256",
        ),
        (
            "a.yaml:8:53",
            "stride 65537 is larger than the maximum 65536",
        ),
        ("a.yaml:9:34", "register width 65 is not between 1 and 64"),
        ("a.yaml:10:34", "register width 0 is not between 1 and 64"),
        (
            "a.yaml:11:63",
            "a field array needs a count and a stride of at least 1",
        ),
        (
            "a.yaml:12:72",
            "array count 65 is larger than the maximum 64",
        ),
        (
            "a.yaml:14:22",
            "CPUID leaf 4294967296 is larger than the maximum 4294967295",
        ),
        ("a.yaml:16:38", "CPUID bit 32 is larger than the maximum 31"),
    ];
    let found: Vec<_> = all(&loaded, "out-of-range")
        .into_iter()
        .map(|d| (loc(&loaded, d), d.message.clone()))
        .collect();
    let expect: Vec<_> = expect
        .iter()
        .map(|(a, m)| (a.to_string(), m.to_string()))
        .collect();
    assert_eq!(found, expect, "{}", loaded.render_diagnostics());
}

#[test]
fn yaml11_boolean_in_a_name_position() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: yes
            msr: 0x500
          - name: no
            msr: 0x501
          - name: 'yes'
            msr: 0x502
          - name: "no"
            msr: 0x503
        "#,
    );
    assert_codes(&loaded, &["yaml11-boolean", "yaml11-boolean"]);
    let [yes, no] = all(&loaded, "yaml11-boolean")[..] else {
        unreachable!()
    };
    assert_eq!(
        yes.message,
        "`yes` is a boolean in YAML 1.1, not a register name"
    );
    assert_eq!(loc(&loaded, yes), "c.yaml:4:11");
    assert_eq!(
        yes.labels[0].message,
        "YAML 1.1 tools read this as true/false"
    );
    assert_note(yes, "help: quote it to keep it a name: 'yes'");
    assert_eq!(
        no.message,
        "`no` is a boolean in YAML 1.1, not a register name"
    );
    assert_eq!(loc(&loaded, no), "c.yaml:6:11");
    assert_note(no, "help: quote it to keep it a name: 'no'");
    // Quoted, they are names (`yes`, not `On`: a register `On` would clash with its own
    // CamelCase type alias `On`).
    let g = loaded.model.generation("child").unwrap();
    assert_eq!(g.register("yes").unwrap().msr.base, 0x502);
    assert_eq!(g.register("no").unwrap().msr.base, 0x503);

    // A generation id too.
    let loaded = load(&[("a.yaml", "generation: off\nvendor: intel\n")]);
    assert_codes(&loaded, &["yaml11-boolean"]);
    let d = only(&loaded, "yaml11-boolean");
    assert_eq!(
        d.message,
        "`off` is a boolean in YAML 1.1, not a generation id"
    );
    assert_eq!(loc(&loaded, d), "a.yaml:1:13");
    assert_clean(&load(&[("a.yaml", "generation: 'off'\nvendor: intel\n")]));
}

// ---------------------------------------------------------------------------------------------
// Resolution (`extends`)
// ---------------------------------------------------------------------------------------------

#[test]
fn duplicate_name_register_listed_twice() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: NEW
            msr: 0x500
          - name: NEW
            width: 32
        "#,
    );
    assert_codes(&loaded, &["duplicate-name"]);
    let d = only(&loaded, "duplicate-name");
    assert_eq!(d.message, "register `NEW` is listed twice");
    assert_eq!(loc(&loaded, d), "c.yaml:6:11");
    assert_eq!(d.labels[0].message, "second definition");
    assert_eq!(loc2(&loaded, d), "c.yaml:4:11");
    assert_eq!(secondary(d)[0].message, "first defined here");
    assert_note(
        d,
        "help: to change an inherited register, list it once with the keys that change",
    );
}

#[test]
fn duplicate_name_generation_defined_twice() {
    let loaded = load(&[
        ("a.yaml", "generation: dup\nvendor: intel\n"),
        (
            "b.yaml",
            "# the same id again\ngeneration: dup\nvendor: amd\n",
        ),
    ]);
    assert_codes(&loaded, &["duplicate-name"]);
    let d = only(&loaded, "duplicate-name");
    assert_eq!(d.message, "generation `dup` is defined twice");
    assert_eq!(loc(&loaded, d), "b.yaml:2:13");
    assert_eq!(loc2(&loaded, d), "a.yaml:1:13");
    assert_eq!(secondary(d)[0].message, "first defined here");
    // The first definition is the one kept.
    assert_eq!(loaded.model.generations.len(), 1);
}

#[test]
fn duplicate_name_in_every_list() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: REG
            msr: 0x500
            fields:
              - { name: q, bits: 0, values: [{ name: V, value: 0 }, { name: V, value: 1 }] }
              - { name: q, doc: again }
        cpuid:
          - { name: L, leaf: 1 }
          - { name: L, leaf: 2 }
        events:
          - { name: E, event: 1 }
          - { name: E, event: 2 }
        constraints:
          - { id: k, register: REG, when: { q: 1 }, message: m }
          - { id: k, register: REG, when: { q: 0 }, message: m }
        "#,
    );
    let expect = [
        ("value `V` is listed twice", "c.yaml:7:69", "c.yaml:7:46"),
        ("field `q` is listed twice", "c.yaml:8:17", "c.yaml:7:17"),
        (
            "CPUID leaf `L` is listed twice",
            "c.yaml:11:13",
            "c.yaml:10:13",
        ),
        ("event `E` is listed twice", "c.yaml:14:13", "c.yaml:13:13"),
        (
            "constraint `k` is listed twice",
            "c.yaml:17:11",
            "c.yaml:16:11",
        ),
    ];
    assert_eq!(all(&loaded, "duplicate-name").len(), expect.len());
    for (message, at, first) in expect {
        let d = find(&loaded, "duplicate-name", message);
        assert_eq!(d.message, message);
        assert_eq!(loc(&loaded, d), at, "{message}");
        assert_eq!(loc2(&loaded, d), first, "{message}");
    }
    assert_eq!(codes(&loaded).len(), 5, "{}", loaded.render_diagnostics());
}

#[test]
fn duplicate_name_rename_to_a_taken_name() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { name: FIXED, renames: CTR }
        "#,
    );
    let d = find(&loaded, "duplicate-name", "rename");
    assert_eq!(
        d.message,
        "cannot rename `CTR` to `FIXED`: that name is taken"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:13");
}

#[test]
fn unknown_generation_with_did_you_mean() {
    let loaded = child(
        r#"
        generation: child
        extends: bsae
        "#,
    );
    assert_codes(&loaded, &["unknown-generation"]);
    let d = only(&loaded, "unknown-generation");
    assert_eq!(
        d.message,
        "generation `child` extends `bsae`, which is not defined"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:2:10");
    assert_eq!(d.labels[0].message, "no generation has this id");
    assert_note(d, "help: did you mean `base`?");
    assert!(loaded.model.generation("child").is_none());
    assert!(loaded.model.generation("base").is_some());
}

#[test]
fn unknown_generation_mentions_unreadable_files() {
    let loaded = load(&[
        (
            "a.yaml",
            "generation: a\nvendor: intel\ntitle: 'unterminated\n",
        ),
        ("b.yaml", "generation: b\nextends: a\n"),
    ]);
    assert_codes(&loaded, &["yaml-syntax", "unknown-generation"]);
    let d = only(&loaded, "unknown-generation");
    assert_eq!(loc(&loaded, d), "b.yaml:2:10");
    assert_note(
        d,
        "1 file(s) could not be read; fix those errors first, `a` may be defined there",
    );
}

#[test]
fn extends_cycle() {
    let loaded = load(&[
        ("a.yaml", "generation: a\nextends: b\n"),
        ("b.yaml", "generation: b\nextends: a\n"),
        // A child of the cycle is skipped without a diagnostic of its own (no cascade).
        ("c.yaml", "generation: c\nextends: a\n"),
    ]);
    assert_codes(&loaded, &["extends-cycle"]);
    let d = only(&loaded, "extends-cycle");
    assert_eq!(d.message, "`extends` forms a cycle: a -> b -> a");
    assert_eq!(loc(&loaded, d), "b.yaml:2:10");
    assert_eq!(d.labels[0].message, "this closes the cycle");
    assert_note(
        d,
        "a generation cannot inherit from itself, directly or through others",
    );
    assert!(loaded.model.generations.is_empty());

    let loaded = load(&[("self.yaml", "generation: s\nextends: s\n")]);
    let d = only(&loaded, "extends-cycle");
    assert_eq!(d.message, "`extends` forms a cycle: s -> s");
    assert_eq!(loc(&loaded, d), "self.yaml:2:10");
}

#[test]
fn vendor_mismatch() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        vendor: amd
        "#,
    );
    assert_codes(&loaded, &["vendor-mismatch"]);
    let d = only(&loaded, "vendor-mismatch");
    assert_eq!(d.message, "`child` extends a generation of another vendor");
    assert_eq!(loc(&loaded, d), "c.yaml:3:9");
    assert_eq!(d.labels[0].message, "the parent `base` is Intel");
}

#[test]
fn vendor_mismatch_of_a_cpu_model() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        cpus:
          - { family-model: GenuineIntel-6-4E }
          - { family-model: AuthenticAMD-25-21 }
        "#,
    );
    assert_codes(&loaded, &["vendor-mismatch"]);
    let d = only(&loaded, "vendor-mismatch");
    assert_eq!(
        d.message,
        "CPU model `AuthenticAMD-25-21` identifies as `AuthenticAMD`, but `child` is an Intel generation"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:5:21");
    assert_eq!(d.labels[0].message, "Intel CPUs identify as `GenuineIntel`");
    // The other entry is kept.
    let g = loaded.model.generation("child").unwrap();
    assert_eq!(g.cpus.len(), 1);
}

#[test]
fn cpu_models_malformed_repeated_or_empty() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        source: X/events/x_core.json
        cpus:
          - { family-model: GenuineIntel-6-4E, version: V59 }
          - { family-model: GenuineIntel-6, version: V1 }
          - { family-model: "GenuineIntel-6-55-[0x]" }
          - { family-model: GenuineIntel-6-4e }
          - { family-model: GenuineIntel-6-97, core-type: 0x20 }
          - { family-model: GenuineIntel-6-97, core-type: 0x40 }
          - { family-model: GenuineIntel-6-97, core-type: 0x100 }
          - { version: V2 }
          - { family-model: GenuineIntel-6-9A, cores: 2 }
        "#,
    );
    assert_codes(
        &loaded,
        &[
            "invalid-value",
            "invalid-value",
            "duplicate-name",
            "out-of-range",
            "missing-key",
            "unknown-key",
        ],
    );
    let bad = all(&loaded, "invalid-value");
    assert_eq!(
        bad[0].message,
        "`GenuineIntel-6` is not a CPUID family-model"
    );
    assert_eq!(loc(&loaded, bad[0]), "c.yaml:6:21");
    assert_eq!(
        bad[0].labels[0].message,
        "expected vendor-family-model, family and model in hex"
    );
    assert_note(
        bad[0],
        "help: write it as Intel's mapfile.csv does: `GenuineIntel-6-4E`, optionally with a stepping or a set of them: `GenuineIntel-6-55-4`, `GenuineIntel-6-55-[01234]`",
    );
    assert_eq!(
        bad[1].message,
        "`GenuineIntel-6-55-[0x]` is not a CPUID family-model"
    );
    // The same model (hex case aside) twice; the same model with two core types is fine.
    let d = only(&loaded, "duplicate-name");
    assert_eq!(d.message, "CPU model `GenuineIntel-6-4e` is listed twice");
    assert_eq!(loc(&loaded, d), "c.yaml:8:21");
    assert_eq!(loc2(&loaded, d), "c.yaml:5:21");
    let d = only(&loaded, "out-of-range");
    assert_eq!(d.message, "core type 256 is larger than the maximum 255");
    assert_eq!(loc(&loaded, d), "c.yaml:11:51");
    let d = only(&loaded, "missing-key");
    assert_eq!(
        d.message,
        "CPU model is missing required key `family-model`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:12:5");
    let d = only(&loaded, "unknown-key");
    assert_eq!(d.message, "unknown key `cores` in CPU model");
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

    let loaded = child("generation: child\nextends: base\ncpus: []\n");
    let d = only(&loaded, "invalid-value");
    assert_eq!(d.message, "an empty list of CPU models");
    assert_eq!(loc(&loaded, d), "c.yaml:3:7");
    assert_note(d, "help: list at least one, or leave `cpus` out");
    let loaded = child("generation: child\nextends: base\ncpus: GenuineIntel-6-4E\n");
    assert_codes(&loaded, &["type-mismatch"]);
}

#[test]
fn unknown_name_remove_of_a_missing_entry() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { name: SEL, remove-fields: [UMASKK] }
        remove:
          registers: [CTRL]
          cpuid: [NOPE]
          events: [CYCLE]
          constraints: [inv-needs-cmaks]
        "#,
    );
    let expect = [
        ("cannot remove field `UMASKK`", "c.yaml:4:34", Some("UMASK")),
        ("cannot remove register `CTRL`", "c.yaml:6:15", Some("CTR")),
        ("cannot remove CPUID leaf `NOPE`", "c.yaml:7:11", None),
        ("cannot remove event `CYCLE`", "c.yaml:8:12", Some("CYCLES")),
        (
            "cannot remove constraint `inv-needs-cmaks`",
            "c.yaml:9:17",
            Some("inv-needs-cmask"),
        ),
    ];
    assert_eq!(all(&loaded, "unknown-name").len(), expect.len());
    for (start, at, suggestion) in expect {
        let d = find(&loaded, "unknown-name", start);
        assert_eq!(
            d.message,
            format!("{start}: the parent generation has none by that name")
        );
        assert_eq!(loc(&loaded, d), at, "{start}");
        match suggestion {
            Some(s) => assert_note(d, &format!("help: did you mean `{s}`?")),
            None => assert!(d.notes.is_empty(), "{:?}", d.notes),
        }
    }
    assert_eq!(codes(&loaded).len(), 5, "{}", loaded.render_diagnostics());
}

#[test]
fn unknown_name_rename_of_a_missing_register() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { name: NEWSEL, renames: SELL }
        "#,
    );
    assert_codes(&loaded, &["unknown-name"]);
    let d = only(&loaded, "unknown-name");
    assert_eq!(
        d.message,
        "cannot rename register `SELL`: the parent generation has none by that name"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:30");
    assert_note(d, "help: did you mean `SEL`?");
}

#[test]
fn unknown_name_constraint_field_and_register() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        constraints:
          - id: bad-field
            register: SEL
            when: { INVV: 1 }
            message: m
          - id: bad-register
            register: SELL
            when: { INV: 1 }
            message: m
        "#,
    );
    assert_codes(&loaded, &["unknown-name", "unknown-name"]);
    let d = find(&loaded, "unknown-name", "names field");
    assert_eq!(
        d.message,
        "constraint `bad-field` names field `INVV`, which `SEL` does not have in `child`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:9");
    assert_note(d, "help: did you mean `INV`?");
    let d = find(&loaded, "unknown-name", "names register");
    assert_eq!(
        d.message,
        "constraint `bad-register` names register `SELL`, which `child` does not have"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:8:9");
    assert_note(d, "help: did you mean `SEL`?");
}

#[test]
fn unknown_name_cpuid_bit() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        events:
          - { name: REFS, event: 0x2E, cpuid-bit: 5 }
        "#,
    );
    assert_codes(&loaded, &["unknown-name"]);
    let d = only(&loaded, "unknown-name");
    assert_eq!(
        d.message,
        "event `REFS` names CPUID.0AH:EBX bit 5, which the `ARCH` layout of `child` does not define"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:13");
}

#[test]
fn unknown_name_in_pmu() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        pmu:
          encoding: { edge: EDGE, umask: UMASKK }
        "#,
    );
    let d = find(&loaded, "unknown-name", "encoding.edge");
    assert_eq!(
        d.message,
        "`pmu.encoding.edge` names field `EDGE`, which `SEL` does not have in `child`"
    );
    let d = find(&loaded, "unknown-name", "encoding.umask");
    assert_note(d, "help: did you mean `UMASK`?");
    assert_codes(&loaded, &["unknown-name", "unknown-name"]);
}

#[test]

fn unknown_name_in_pmu_points_at_the_name() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        pmu:
          encoding: { edge: EDGE }
        "#,
    );
    let d = find(&loaded, "unknown-name", "encoding");
    assert_eq!(loc(&loaded, d), "c.yaml:4:21");
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

#[test]
fn field_overlap_names_both_fields() {
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
    assert_codes(&loaded, &["field-overlap"]);
    let d = only(&loaded, "field-overlap");
    assert_eq!(
        d.message,
        "fields `LOW` and `HIGH` of register `REG` overlap at bit 4"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:8:17");
    assert_eq!(d.labels[0].message, "`HIGH` covers bits 15:4");
    assert_eq!(loc2(&loaded, d), "c.yaml:7:17");
    assert_eq!(secondary(d)[0].message, "`LOW` covers bits 7:0");
}

#[test]
fn field_overlap_with_an_inherited_field_points_into_the_parent() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: SEL
            fields:
              - { name: GUEST, bits: [40, 9] }
        "#,
    );
    assert_codes(&loaded, &["field-overlap"]);
    let d = only(&loaded, "field-overlap");
    assert_eq!(
        d.message,
        "fields `UMASK` and `GUEST` of register `SEL` overlap at bit 9"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:6:17");
    assert_eq!(d.labels[0].message, "`GUEST` covers bits 40 and 9");
    assert_eq!(loc2(&loaded, d), "base.yaml:16:17");
}

#[test]
fn field_overlap_within_a_split_field_and_an_array() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: REG
            msr: 0x500
            fields:
              - { name: SPLIT, bits: [3:0, 2:1] }
              - { name: ARR, bits: 10:8, array: { count: 4, stride: 2 } }
        "#,
    );
    let d = find(&loaded, "field-overlap", "parts");
    assert_eq!(d.message, "the parts of field `SPLIT` overlap");
    assert_eq!(loc(&loaded, d), "c.yaml:7:36");
    assert_eq!(loc2(&loaded, d), "c.yaml:7:31");
    let d = find(&loaded, "field-overlap", "elements");
    assert_eq!(
        d.message,
        "elements of field array `ARR` overlap: stride 2 is less than its 3 bits"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:8:17");
    assert_codes(&loaded, &["field-overlap", "field-overlap"]);
}

#[test]
fn field_past_width() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: REG
            msr: 0x500
            width: 32
            fields:
              - { name: A, bits: 39:36 }
              - { name: B, bits: 0, array: { count: 5, stride: 8 } }
        cpuid:
          - { name: ARCH, eax: [{ name: WIDE, bits: 40 }] }
        "#,
    );
    assert_codes(
        &loaded,
        &["field-past-width", "field-past-width", "field-past-width"],
    );
    let d = find(&loaded, "field-past-width", "`A`");
    assert_eq!(
        d.message,
        "field `A` (bits 39:36) reaches bit 39, past the 32-bit width of register `REG`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:8:17");
    assert_eq!(d.labels[0].message, "register `REG` has bits 0 to 31");
    let d = find(&loaded, "field-past-width", "`B`");
    assert_eq!(
        d.message,
        "field array `B` reaches bit 32 (last element), past the 32-bit width of register `REG`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:9:17");
    let d = find(&loaded, "field-past-width", "`WIDE`");
    assert_eq!(
        d.message,
        "field `WIDE` (bits 40) reaches bit 40, past the 32-bit width of CPUID leaf `ARCH` EAX"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:11:33");
}

#[test]
fn field_instances() {
    // `instances:` needs a register family, a one-bit field and instances of the family.
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: ONE
            msr: 0x500
            fields:
              - { name: A, bits: 0, instances: [0] }
          - name: FAM
            msr: { base: 0x510, count: 4 }
            fields:
              - { name: BIT1, bits: 1, instances: [4] }
              - { name: C, bits: 3:2, instances: [1] }
              - { name: D, bits: 4, instances: [] }
              - { name: E, bits: 5, instances: [0-1, 3] }
        "#,
    );
    assert_codes(
        &loaded,
        &[
            "field-instances",
            "field-instances",
            "field-instances",
            "field-instances",
        ],
    );
    let d = find(&loaded, "field-instances", "field `A`");
    assert_eq!(
        d.message,
        "`ONE` is one MSR, not a family: field `A` cannot be limited to instances"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:7:40");
    let d = find(&loaded, "field-instances", "field `BIT1`");
    assert_eq!(
        d.message,
        "instance 4 of field `BIT1` is out of range: `FAM` has 4 instances (0..=3)"
    );
    assert_eq!(d.labels[1].message, "the register");
    let d = find(&loaded, "field-instances", "field `C`");
    assert!(d.message.contains("is not one bit"), "{}", d.message);
    let d = find(&loaded, "field-instances", "field `D`");
    assert_eq!(
        d.message,
        "field `D` of `FAM` is valid on no instance: list at least one"
    );
}

#[test]
fn value_too_wide_enum_value() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: REG
            msr: 0x500
            fields:
              - name: MODE
                bits: 1:0
                values:
                  - { name: NONE, value: 0 }
                  - { name: HUGE, value: 4 }
        "#,
    );
    assert_codes(&loaded, &["value-too-wide"]);
    let d = only(&loaded, "value-too-wide");
    assert_eq!(
        d.message,
        "value `HUGE` = 0x4 does not fit the 2-bit field `MODE`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:7:15");
    assert_eq!(d.labels[0].message, "values of this field are at most 0x3");
}

#[test]
fn value_too_wide_event_umask() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        events:
          - { name: WIDE, event: 0x3C, umask: 0x1FF }
        "#,
    );
    assert_codes(&loaded, &["value-too-wide"]);
    let d = only(&loaded, "value-too-wide");
    assert_eq!(
        d.message,
        "event `WIDE`: umask 0x1ff does not fit the 8-bit field `UMASK`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:13");
    assert_eq!(d.labels[0].message, "umask is at most 0xff in `child`");
}

#[test]
fn value_too_wide_constraint_and_32_bit_values() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        constraints:
          - { id: inv-needs-cmask, when: { INV: 2 } }
        events:
          - { name: HUGE, event: 0x1_0000_0000 }
        "#,
    );
    let d = find(&loaded, "value-too-wide", "constraint");
    assert_eq!(
        d.message,
        "constraint `inv-needs-cmask`: 2 does not fit the 1-bit field `INV`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:11");
    let d = find(&loaded, "value-too-wide", "32 bits");
    assert_eq!(d.message, "event select 0x100000000 does not fit 32 bits");
    assert_eq!(loc(&loaded, d), "c.yaml:6:26");
    assert_codes(&loaded, &["value-too-wide", "value-too-wide"]);
}

#[test]
fn duplicate_value() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: REG
            msr: 0x500
            fields:
              - { name: MODE, bits: 1:0, values: [{ name: A, value: 1 }, { name: B, value: 1 }] }
        "#,
    );
    assert_codes(&loaded, &["duplicate-value"]);
    let d = only(&loaded, "duplicate-value");
    assert_eq!(d.message, "values `A` and `B` of field `MODE` are both 0x1");
    assert_eq!(loc(&loaded, d), "c.yaml:7:17");
}

#[test]
fn duplicate_address() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { name: ALIAS, msr: 0x187 }
          - { name: ONE, msr: 0x500 }
          - { name: TWO, msr: 0x500 }
        "#,
    );
    assert_codes(&loaded, &["duplicate-address", "duplicate-address"]);
    let d = find(&loaded, "duplicate-address", "`ALIAS`");
    assert_eq!(
        d.message,
        "`SEL1` and `ALIAS` are both at MSR 0x187 in generation `child`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:13");
    assert_eq!(loc2(&loaded, d), "base.yaml:12:11");
    assert_eq!(secondary(d)[0].message, "`SEL` is here");
    let d = find(&loaded, "duplicate-address", "`TWO`");
    assert_eq!(
        d.message,
        "`ONE` and `TWO` are both at MSR 0x500 in generation `child`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:6:13");
    assert_eq!(loc2(&loaded, d), "c.yaml:5:13");
}

#[test]
fn counter_out_of_range() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        events:
          - { name: NINTH, event: 0x3C, counters: [9] }
          - { name: RANGE, event: 0x3C, counters: [0-9] }
          - { name: FIXED5, event: 0x3C, fixed: 5 }
        "#,
    );
    assert_codes(
        &loaded,
        &[
            "counter-out-of-range",
            "counter-out-of-range",
            "counter-out-of-range",
        ],
    );
    let d = find(&loaded, "counter-out-of-range", "`NINTH`");
    assert_eq!(
        d.message,
        "event `NINTH` names general counter 9, but `child` has 8 (0 to 7)"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:13");
    assert_eq!(d.labels[0].message, "counter number out of range");
    let d = find(&loaded, "counter-out-of-range", "`RANGE`");
    assert_eq!(
        d.message,
        "event `RANGE` names general counter 8, but `child` has 8 (0 to 7)"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:5:13");
    let d = find(&loaded, "counter-out-of-range", "`FIXED5`");
    assert_eq!(
        d.message,
        "event `FIXED5` names fixed counter 5, but `child` has 3 (0 to 2)"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:6:13");
    assert_eq!(d.labels[0].message, "fixed counter number out of range");
}

#[test]

fn counter_out_of_range_without_counters_names_no_range() {
    let loaded = load(&[(
        "a.yaml",
        r#"
        generation: a
        vendor: intel
        events:
          - { name: E, event: 0, counters: [0] }
        "#,
    )]);
    let d = only(&loaded, "counter-out-of-range");
    assert_eq!(loc(&loaded, d), "a.yaml:4:13");
    assert!(
        !d.message.contains("(0 to 0)"),
        "a generation with no counters has no counter 0: {}",
        d.message
    );
}

#[test]
fn access_conflict() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: STATUS
            msr: 0x500
            access: read-only
            fields:
              - { name: READY, bits: 0 }
              - { name: CLEAR, bits: 1, access: write-1-to-clear }
        "#,
    );
    assert_codes(&loaded, &["access-conflict"]);
    let d = only(&loaded, "access-conflict");
    assert_eq!(
        d.message,
        "field `CLEAR` is write-1-to-clear in read-only register `STATUS`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:9:17");
    assert_eq!(loc2(&loaded, d), "c.yaml:4:11");
    assert_eq!(secondary(d)[0].message, "register is read-only");
}

#[test]
fn reset_reserved() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: CTL
            msr: 0x500
            reset: 0x101
            fields:
              - { name: EN, bits: 0 }
        "#,
    );
    assert_codes(&loaded, &["reset-reserved"]);
    let d = only(&loaded, "reset-reserved");
    assert_eq!(
        d.message,
        "reset value 0x101 of `CTL` sets reserved bits 0x100"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:11");
    assert_note(d, "reserved bits are the bits no field covers");
}

#[test]
fn unsupported_attribute() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        events:
          - { name: ANY_THREAD, event: 0x3C, any: true }
          - { name: SECOND_MASK, event: 0x3C, umask2: 1 }
          - { name: NOT_SET, event: 0x3C, any: false, edge: false }
        "#,
    );
    assert_codes(&loaded, &["unsupported-attribute", "unsupported-attribute"]);
    let d = find(&loaded, "unsupported-attribute", "`ANY_THREAD`");
    assert_eq!(
        d.message,
        "event `ANY_THREAD` sets any, which generation `child` has no field for"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:13");
    assert_note(d, "`pmu.encoding` of `child` maps no field to `any`");
    let d = find(&loaded, "unsupported-attribute", "`SECOND_MASK`");
    assert_eq!(
        d.message,
        "event `SECOND_MASK` sets umask2, which generation `child` has no field for"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:5:13");
}

#[test]
fn no_counter() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        events:
          - { name: NOWHERE, event: 0x3C, counters: [] }
          - { name: FIXED_ONLY, event: 0x3C, fixed: 0 }
          - { name: BOTH, event: 0x3C, counters: all, fixed: 1 }
        "#,
    );
    assert_codes(&loaded, &["no-counter"]);
    let g = loaded.model.generation("child").unwrap();
    assert_eq!(g.event("FIXED_ONLY").unwrap().counters, Vec::<u32>::new());
    let both = g.event("BOTH").unwrap();
    assert_eq!(both.counters, (0..8).collect::<Vec<u32>>());
    assert_eq!(both.fixed, Some(1));
    let d = only(&loaded, "no-counter");
    assert_eq!(
        d.message,
        "event `NOWHERE` can be counted by no counter of `child`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:13");
}

/// `msr-per-umask` (Intel's `ProgrammingRestriction: MSRIndex-UMask`) needs an `msr`, and
/// with a list of unit masks an index per unit mask; each umask then goes with its MSR.
#[test]
fn msr_per_umask() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { name: OMR, msr: { base: 0x3E0, count: 4 }, fields: [{ name: REQ, bits: 15:0 }] }
        events:
          - { name: OK.PAIRED, event: 0xD6, umask: [1, 2, 4, 8], msr: { index: [0x3E0, 0x3E1, 0x3E2, 0x3E3], value: 1 }, msr-per-umask: true }
          - { name: OK.SINGLE, event: 0xAD, umask: 0x40, msr: { index: 0x3E0, value: 1 }, msr-per-umask: true }
          - { name: NO_MSR, event: 0xAD, umask: 0x40, msr-per-umask: true }
          - { name: ONE_FOR_ALL, event: 0xD6, umask: [1, 2], msr: { index: 0x3E0, value: 1 }, msr-per-umask: true }
        "#,
    );
    assert_codes(&loaded, &["alternatives-mismatch", "alternatives-mismatch"]);
    let d = find(&loaded, "alternatives-mismatch", "`NO_MSR`");
    assert_eq!(
        d.message,
        "event `NO_MSR` is `msr-per-umask` but has no `msr`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:8:13");
    let d = find(&loaded, "alternatives-mismatch", "`ONE_FOR_ALL`");
    assert_eq!(
        d.message,
        "event `ONE_FOR_ALL` is `msr-per-umask` but lists 1 MSR indexes for 2 unit masks"
    );
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
fn alternatives_mismatch() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { name: RSP, msr: { base: 0x1A6, count: 3 }, fields: [{ name: REQ, bits: 15:0 }] }
        events:
          - { name: OK.CODES, event: [0xB7, 0xBB], msr: { index: [0x1A6, 0x1A7], value: 1 } }
          - { name: OK.UMASKS, event: 0xB7, umask: [1, 2], msr: { index: [0x1A6, 0x1A7], value: 1 } }
          - { name: OK.ONE_MSR, event: 0xB7, umask: [1, 2], msr: { index: 0x1A6, value: 1 } }
          - { name: BOTH, event: [0xB7, 0xBB, 0xBC], umask: [1, 2] }
          - { name: INDEXES, event: [0xB7, 0xBB], msr: { index: [0x1A6, 0x1A7, 0x1A8], value: 1 } }
          - { name: NO_ALTS, event: 0xB7, msr: { index: [0x1A6, 0x1A7], value: 1 } }
          - { name: TWICE, event: [0xB7, 0xB7] }
          - { name: WIDE, event: [0xB7, 0x1BB], umask: [1, 0x100] }
        "#,
    );
    assert_codes(
        &loaded,
        &[
            "alternatives-mismatch",
            "alternatives-mismatch",
            "alternatives-mismatch",
            "alternatives-mismatch",
            "value-too-wide",
            "value-too-wide",
        ],
    );
    let d = find(&loaded, "alternatives-mismatch", "`BOTH`");
    assert_eq!(
        d.message,
        "event `BOTH` lists 3 event codes and 2 unit masks"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:9:13");
    assert_note(
        d,
        "codes and unit masks pair up by position: give one of each, or lists of the same length",
    );
    let d = find(&loaded, "alternatives-mismatch", "`INDEXES`");
    assert_eq!(
        d.message,
        "event `INDEXES` lists 3 MSR indexes for 2 encodings"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:10:13");
    let d = find(&loaded, "alternatives-mismatch", "`NO_ALTS`");
    assert_eq!(
        d.message,
        "event `NO_ALTS` lists 2 MSR indexes for 1 encoding"
    );
    let d = find(&loaded, "alternatives-mismatch", "`TWICE`");
    assert_eq!(
        d.message,
        "event `TWICE` lists encoding 2 (event 0xb7, umask 0x0) twice, as entries 1 and 2"
    );
    // Alternative codes and unit masks are checked against the select fields like the first.
    let d = find(&loaded, "value-too-wide", "event 0x1bb");
    assert_eq!(
        d.message,
        "event `WIDE`: event 0x1bb does not fit the 8-bit field `EVENT`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:13:13");
    find(&loaded, "value-too-wide", "umask 0x100");

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

/// An auxiliary MSR names a register of the generation, and its value fits that register.
#[test]
fn aux_msr_unknown_and_reserved() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: RSP
            msr: 0x1A6
            fields:
              - { name: REQUEST, bits: 15:0 }
              - { name: SNOOP, bits: 37:31 }
          - { name: NARROW, msr: 0x3F6, width: 16, fields: [{ name: T, bits: 15:0 }] }
        events:
          - { name: OK, event: 0xB7, msr: { index: 0x1A6, value: 0x8000FFFF } }
          - { name: GAP, event: 0xB7, msr: { index: 0x1A6, value: 0x70001 } }
          - { name: HIGH, event: 0xB7, umask: [1, 2], msr: { index: [0x1A6, 0x1A6], value: 0x8000000000000001 } }
          - { name: NOWHERE, event: 0xBB, msr: { index: 0x1A7, value: 1 } }
          - { name: ALT_NOWHERE, event: [0xB7, 0xBB], msr: { index: [0x1A6, 0x1A8], value: 1 } }
          - { name: WIDE, event: 0xCD, msr: { index: 0x3F6, value: 0x10004 } }
        "#,
    );
    assert_codes(
        &loaded,
        &[
            "aux-msr-reserved",
            "aux-msr-reserved",
            "unknown-aux-msr",
            "unknown-aux-msr",
            "aux-msr-reserved",
        ],
    );
    assert!(!loaded.has_errors());
    let d = find(&loaded, "aux-msr-reserved", "`GAP`");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(
        d.message,
        "event `GAP` writes 0x70001 to `RSP` (0x1a6), setting reserved bits 18:16"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:12:13");
    assert_eq!(loc2(&loaded, d), "c.yaml:4:11");
    let d = find(&loaded, "aux-msr-reserved", "`HIGH`");
    assert_eq!(
        d.message,
        "event `HIGH` writes 0x8000000000000001 to `RSP` (0x1a6), setting reserved bit 63"
    );
    // A value wider than a narrow register.
    let d = find(&loaded, "aux-msr-reserved", "`WIDE`");
    assert_eq!(
        d.message,
        "event `WIDE` writes 0x10004 to `NARROW` (0x3f6), setting reserved bit 16"
    );
    let d = find(&loaded, "unknown-aux-msr", "`NOWHERE`");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(
        d.message,
        "event `NOWHERE` programs auxiliary MSR 0x1a7, but no register of `child` is at that address"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:14:13");
    // An alternative's MSR is checked like the first.
    let d = find(&loaded, "unknown-aux-msr", "`ALT_NOWHERE`");
    assert!(d.message.contains("MSR 0x1a8"), "{}", d.message);
}

/// `aux-msr-reserved` is acknowledged by an `allow:` on the event, like `counter-not-in-event`.
#[test]
fn aux_msr_reserved_can_be_acknowledged() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { name: RSP, msr: 0x1A6, fields: [{ name: REQUEST, bits: 15:0 }] }
        events:
          - name: GAP
            event: 0xB7
            msr: { index: 0x1A6, value: 0x10001 }
            allow:
              - { code: aux-msr-reserved, reason: "The vendor sets bit 16, kept as given." }
        "#,
    );
    let d = only(&loaded, "aux-msr-reserved");
    assert_eq!(
        d.acknowledged.as_deref(),
        Some("The vendor sets bit 16, kept as given.")
    );
}

#[test]
fn counter_sets_out_of_range_and_not_in_event() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        events:
          - name: GOOD
            event: 0xC0
            counters: [0-3]
            counters-ht-off: [0-7]
            pebs-counters: [0-3]
            pdist-counters: [0]
          - { name: HT_OFF_9, event: 0xC0, counters-ht-off: [0-9] }
          - { name: PEBS_FIXED_3, event: 0xC0, fixed: 0, pebs-counters: { fixed: [3] } }
          - { name: PDIST_STRAY, event: 0xCD, counters: [1-7], pdist-counters: [0] }
          - { name: PEBS_OTHER_FIXED, event: 0xC0, fixed: 0, pebs-counters: { fixed: [1] } }
          - { name: PDIR_OK, event: 0xC0, fixed: 0, counters: [0], pdir-counters: { general: [0], fixed: [0] } }
        "#,
    );
    assert_codes(
        &loaded,
        &[
            "counter-out-of-range",
            "counter-out-of-range",
            "counter-not-in-event",
            "counter-not-in-event",
        ],
    );
    let d = find(&loaded, "counter-out-of-range", "`HT_OFF_9`");
    assert_eq!(
        d.message,
        "event `HT_OFF_9`: `counters-ht-off` names general counter 8, but `child` has 8 (0 to 7)"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:10:13");
    let d = find(&loaded, "counter-out-of-range", "`PEBS_FIXED_3`");
    assert_eq!(
        d.message,
        "event `PEBS_FIXED_3`: `pebs-counters` names fixed counter 3, but `child` has 3 (0 to 2)"
    );
    // Sampling on a counter the event cannot use: a warning (Intel's own lists have a few).
    let d = find(&loaded, "counter-not-in-event", "`PDIST_STRAY`");
    assert_eq!(d.severity, pmu_defs::diag::Severity::Warning);
    assert_eq!(
        d.message,
        "event `PDIST_STRAY`: `pdist-counters` names general counter 0, which is not one of the counters that count it"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:12:13");
    assert_note(d, "it counts on general counters 1, 2, 3, 4, 5, 6, 7");
    let d = find(&loaded, "counter-not-in-event", "`PEBS_OTHER_FIXED`");
    assert_eq!(
        d.message,
        "event `PEBS_OTHER_FIXED`: `pebs-counters` names fixed counter 1, which is not one of the counters that count it"
    );
    assert_note(d, "it counts on fixed counter 0");

    let g = loaded.model.generation("child").unwrap();
    let good = g.event("GOOD").unwrap();
    let ht = good.counters_ht_off.as_ref().unwrap();
    assert_eq!((ht.general.len(), ht.fixed.len()), (8, 0));
    assert_eq!(good.pdist_counters.as_ref().unwrap().general, [0]);
    assert!(good.pdir_counters.is_none());
    let pdir = g.event("PDIR_OK").unwrap().pdir_counters.clone().unwrap();
    assert_eq!((pdir.general, pdir.fixed), (vec![0], vec![0]));
}

// ---------------------------------------------------------------------------------------------
// Acknowledged warnings (`allow:`)
// ---------------------------------------------------------------------------------------------

/// An event whose PDist counter is not one of its counters, acknowledged; and the same warning
/// on another event, not acknowledged.
const ALLOWED: &str = r#"
generation: child
extends: base
events:
  - name: PDIST_STRAY
    event: 0xCD
    counters: [1-7]
    pdist-counters: [0]
    allow:
      - code: counter-not-in-event
        reason: The vendor lists PDist counter 0, kept as given.
  - { name: PDIST_NEW, event: 0xCE, counters: [1-7], pdist-counters: [0] }
"#;

#[test]
fn allow_acknowledges_the_warning_about_its_event() {
    let loaded = child(ALLOWED);
    assert_codes(&loaded, &["counter-not-in-event", "counter-not-in-event"]);
    assert!(!loaded.has_errors());
    let d = find(&loaded, "counter-not-in-event", "`PDIST_STRAY`");
    assert_eq!(
        d.acknowledged.as_deref(),
        Some("The vendor lists PDist counter 0, kept as given.")
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:11");
    let new = find(&loaded, "counter-not-in-event", "`PDIST_NEW`");
    assert_eq!(new.acknowledged, None);
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

    // Rendered: the acknowledged warning is one line, the other in full.
    let out = loaded.render_diagnostics();
    assert!(!out.contains("PDIST_STRAY"), "{out}");
    assert_eq!(
        out.matches("warning[counter-not-in-event]").count(),
        1,
        "{out}"
    );
    assert!(out.contains("event `PDIST_NEW`"), "{out}");
    assert!(
        out.ends_with(
            "note: 1 acknowledged warning in the definitions (allow:), not shown; --verbose lists them\n\
             0 errors, 1 warning\n"
        ),
        "{out}"
    );
    // Verbose: both in full, the acknowledged one with its reason.
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

    // With every warning acknowledged, the one line is all.
    let quiet = child(&ALLOWED.replace(
        "  - { name: PDIST_NEW, event: 0xCE, counters: [1-7], pdist-counters: [0] }\n",
        "",
    ));
    assert_eq!(
        quiet.render_diagnostics(),
        "note: 1 acknowledged warning in the definitions (allow:), not shown; --verbose lists them\n"
    );
}

#[test]
fn allow_is_inherited_and_an_override_may_replace_it() {
    // A child overriding the event (another sampling period) finds the warning again at its
    // own entry: the inherited `allow:` acknowledges it there too, and is used.
    let mut loader = Loader::new();
    loader.add_str("base.yaml", dedent(BASE));
    loader.add_str("c.yaml", dedent(ALLOWED));
    loader.add_str(
        "d.yaml",
        "generation: grandchild\nextends: child\nevents:\n  - { name: PDIST_STRAY, sample-after: 7 }\n",
    );
    let loaded = loader.finish();
    let stray: Vec<_> = all(&loaded, "counter-not-in-event")
        .into_iter()
        .filter(|d| d.message.contains("PDIST_STRAY"))
        .collect();
    assert_eq!(stray.len(), 2, "{}", loaded.render_diagnostics_verbose());
    assert!(stray.iter().all(|d| d.acknowledged.is_some()));
    assert!(all(&loaded, "unused-allow").is_empty());

    // An override's `allow: []` drops the acknowledgement.
    let mut loader = Loader::new();
    loader.add_str("base.yaml", dedent(BASE));
    loader.add_str("c.yaml", dedent(ALLOWED));
    loader.add_str(
        "d.yaml",
        "generation: grandchild\nextends: child\nevents:\n  - { name: PDIST_STRAY, sample-after: 7, allow: [] }\n",
    );
    let loaded = loader.finish();
    let d = all(&loaded, "counter-not-in-event")
        .into_iter()
        .find(|d| {
            d.message.contains("PDIST_STRAY") && loaded.sources.name(d.span().file) == "d.yaml"
        })
        .expect("the grandchild's warning");
    assert_eq!(d.acknowledged, None);
}

#[test]
fn unused_allow() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        events:
          - name: FINE
            event: 0xC0
            counters: [0-3]
            pebs-counters: [0-3]
            allow: [{ code: counter-not-in-event, reason: was wrong once }]
        "#,
    );
    assert_codes(&loaded, &["unused-allow"]);
    let d = only(&loaded, "unused-allow");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(
        d.message,
        "event `FINE` acknowledges `counter-not-in-event`, but it has no such warning"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:8:21");
    assert_eq!(spanned_text(&loaded, d), "counter-not-in-event");
    assert_note(
        d,
        "help: remove the entry: the finding it acknowledged is gone",
    );
    // It is itself never acknowledged, so it shows.
    assert!(
        loaded
            .render_diagnostics()
            .contains("warning[unused-allow]")
    );
}

#[test]
fn allow_refuses_unknown_codes_errors_and_other_warnings() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        events:
          - name: EV
            event: 0xC0
            allow:
              - { code: counter-not-in-evnt, reason: typo }
              - { code: field-overlap, reason: an error }
              - { code: repeated-directory, reason: not about an event }
              - { code: unused-allow, reason: not about an event either }
              - { code: counter-not-in-event, reason: "  " }
              - { code: counter-not-in-event }
              - { code: [counter-not-in-event], reason: a list }
        "#,
    );
    assert_codes(
        &loaded,
        &[
            "invalid-allow",
            "invalid-allow",
            "invalid-allow",
            "invalid-allow",
            "invalid-allow",
            "missing-key",
            "type-mismatch",
        ],
    );
    let d = find(&loaded, "invalid-allow", "counter-not-in-evnt");
    assert_eq!(d.message, "`counter-not-in-evnt` is not a diagnostic code");
    assert_eq!(loc(&loaded, d), "c.yaml:7:17");
    assert_note(d, "help: did you mean `counter-not-in-event`?");
    assert_note(
        d,
        "an event's `allow:` may acknowledge: aux-msr-reserved, counter-not-in-event, unknown-aux-msr",
    );
    let d = find(&loaded, "invalid-allow", "field-overlap");
    assert_eq!(
        d.message,
        "`field-overlap` is an error: only warnings can be acknowledged"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:8:17");
    for code in ["repeated-directory", "unused-allow"] {
        let d = find(&loaded, "invalid-allow", &format!("`{code}` is never"));
        assert_eq!(
            d.message,
            format!(
                "`{code}` is never reported about an event: an event's `allow:` cannot acknowledge it"
            )
        );
    }
    let d = find(&loaded, "invalid-allow", "empty reason");
    assert_eq!(d.message, "an `allow:` entry with an empty reason");
    assert_eq!(loc(&loaded, d), "c.yaml:11:47");
    let d = only(&loaded, "missing-key");
    assert_eq!(d.message, "allow entry is missing required key `reason`");
    // The event itself is kept; no entry was taken.
    let e = loaded
        .model
        .generation("child")
        .unwrap()
        .event("EV")
        .unwrap();
    assert!(e.allow.is_empty());

    // A code given twice on one event.
    let loaded = child(
        r#"
        generation: child
        extends: base
        events:
          - name: EV
            event: 0xC0
            pdist-counters: [0]
            counters: [1]
            allow:
              - { code: counter-not-in-event, reason: one }
              - { code: counter-not-in-event, reason: two }
        "#,
    );
    let d = only(&loaded, "invalid-allow");
    assert_eq!(
        d.message,
        "`counter-not-in-event` is acknowledged twice on this event"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:10:17");
    assert_eq!(loc2(&loaded, d), "c.yaml:9:17");
    // The first entry stands.
    let w = only(&loaded, "counter-not-in-event");
    assert_eq!(w.acknowledged.as_deref(), Some("one"));
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
    let loaded = load_raw(&[("base.yaml", &dedent(BASE)), ("c.yaml", &text)]);
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
    let src = pmu_defs::defs_dir().parent().unwrap().join("src");
    let mut found: BTreeMap<String, Severity> = BTreeMap::new();
    let mut dirs = vec![src];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
                continue;
            }
            if p.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let text = text.split("\n#[cfg(test)]").next().unwrap();
            for (call, severity) in [("error(", Severity::Error), ("warning(", Severity::Warning)] {
                for (at, _) in text.match_indices(call) {
                    let rest = text[at + call.len()..].trim_start();
                    let Some(lit) = rest.strip_prefix('"') else {
                        continue;
                    };
                    let code = &lit[..lit.find('"').unwrap()];
                    if code.is_empty()
                        || !code
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                    {
                        continue;
                    }
                    let before = found.insert(code.to_owned(), severity);
                    assert!(
                        before.is_none_or(|b| b == severity),
                        "`{code}` is reported both as an error and as a warning"
                    );
                }
            }
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

#[test]
fn counter_count_mismatch() {
    let loaded = load(&[
        ("base.yaml", BASE),
        (
            "c.yaml",
            r#"
            generation: child
            extends: base
            registers:
              - name: CTR
                msr: { count: 10 }
              - name: FIXED_CTRL
                msr: 0x38D
                role: fixed-control
                fields:
                  - { name: EN, bits: 1:0, array: { count: 3, stride: 4 }, per-counter: fixed }
                  - { name: PMI, bits: 3, array: { count: 2, stride: 4 }, per-counter: fixed }
            "#,
        ),
    ]);
    assert_codes(
        &loaded,
        &["counter-count-mismatch", "counter-count-mismatch"],
    );
    let d = find(&loaded, "counter-count-mismatch", "event selects");
    assert_eq!(
        d.message,
        "`CTR` has 10 counters but `SEL` has 8 event selects in `child`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:11");
    assert_eq!(loc2(&loaded, d), "base.yaml:12:11");
    assert_note(
        d,
        "event select i programs counter i: give both families the same `count`",
    );
    let d = find(&loaded, "counter-count-mismatch", "`PMI`");
    assert_eq!(
        d.message,
        "field array `PMI` of `FIXED_CTRL` has 2 elements but `FIXED` has 3 fixed counters in `child`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:11:17");
    assert_note(
        d,
        "help: override it with `- { name: PMI, array: { count: 3 } }` in `child`'s entry for `FIXED_CTRL`",
    );
}

#[test]
fn event_facts_that_are_rejected_when_read() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        events:
          - { name: PEBS3, event: 0xC0, pebs: 3 }
          - { name: RECORD4, event: 0xC0, collect-pebs-record: 4 }
          - { name: PERIOD0, event: 0xC0, sample-after: 0 }
          - { name: NO_CODES, event: [] }
          - { name: BAD_SET, event: 0xC0, pebs-counters: { general: [0], gp: [1] } }
          - { name: BAD_FLAG, event: 0xC0, precise: yes }
          - { name: ERRATA, event: 0xC0, errata: [SKL057, SKL057, "no"] }
        "#,
    );
    assert_codes(
        &loaded,
        &[
            "out-of-range",
            "out-of-range",
            "out-of-range",
            "invalid-value",
            "unknown-key",
            "type-mismatch",
            "duplicate-name",
        ],
    );
    let msgs: Vec<_> = all(&loaded, "out-of-range")
        .into_iter()
        .map(|d| (loc(&loaded, d), d.message.clone()))
        .collect();
    assert_eq!(
        msgs,
        [
            (
                "c.yaml:4:39".to_owned(),
                "PEBS level 3 is larger than the maximum 2".to_owned()
            ),
            (
                "c.yaml:5:56".to_owned(),
                "PEBS record level 4 is larger than the maximum 3".to_owned()
            ),
            (
                "c.yaml:6:49".to_owned(),
                "a sample-after period of 0".to_owned()
            ),
        ]
    );
    let d = only(&loaded, "invalid-value");
    assert_eq!(d.message, "an empty list of event codes");
    assert_eq!(loc(&loaded, d), "c.yaml:7:30");
    let d = only(&loaded, "duplicate-name");
    assert_eq!(d.message, "erratum `SKL057` is listed twice");
    // The quoted "no" is a valid erratum id (an unquoted one would be a YAML 1.1 boolean).
    let g = loaded.model.generation("child").unwrap();
    assert_eq!(g.event("ERRATA").unwrap().errata, ["SKL057", "no"]);
    // An entry whose value was rejected is dropped whole, not kept with the key missing; an
    // unknown key is reported and the rest of the mapping kept, as everywhere.
    assert!(g.event("NO_CODES").is_none());
    let set = g.event("BAD_SET").unwrap().pebs_counters.clone().unwrap();
    assert_eq!((set.general, set.fixed), (vec![0], vec![]));
    assert!(g.event("BAD_FLAG").unwrap().precise.is_none());
}

// ---------------------------------------------------------------------------------------------
// YAML layer
// ---------------------------------------------------------------------------------------------

#[test]
fn yaml_syntax() {
    let loaded = load_raw(&[("a.yaml", "generation: a\nvendor: intel\ntitle: 'abc\n")]);
    assert_codes(&loaded, &["yaml-syntax"]);
    let d = only(&loaded, "yaml-syntax");
    assert!(
        d.message.starts_with("invalid YAML: ") && d.message.contains("quoted scalar"),
        "{}",
        d.message
    );
    assert_eq!(loc(&loaded, d), "a.yaml:3:8");
    assert_eq!(d.labels[0].message, "here");

    // A tab in block indentation.
    let loaded = load_raw(&[(
        "a.yaml",
        "generation: a\nvendor: intel\nregisters:\n\t- { name: X }\n",
    )]);
    let d = only(&loaded, "yaml-syntax");
    assert!(d.message.contains("tab"), "{}", d.message);
    assert_eq!(loc(&loaded, d), "a.yaml:4:2");

    // An alias inside its own anchor.
    let loaded = load_raw(&[("a.yaml", "generation: a\nvendor: intel\ndoc: &x [*x]\n")]);
    let d = only(&loaded, "yaml-syntax");
    assert_eq!(d.message, "alias to an unknown or unfinished anchor");
    assert_eq!(loc(&loaded, d), "a.yaml:3:10");
    assert_eq!(spanned_text(&loaded, d), "*x");
}

#[test]
fn yaml_multiple_documents() {
    let loaded = load_raw(&[(
        "a.yaml",
        "generation: a\nvendor: intel\n---\ngeneration: b\nvendor: intel\n",
    )]);
    assert_codes(&loaded, &["yaml-multiple-documents"]);
    let d = only(&loaded, "yaml-multiple-documents");
    assert_eq!(
        d.message,
        "a definitions file holds exactly one YAML document"
    );
    assert_eq!(loc(&loaded, d), "a.yaml:4:1");
    assert_eq!(d.labels[0].message, "second document starts here");
}

#[test]
fn yaml_complex_key() {
    let loaded = load_raw(&[("a.yaml", "generation: a\nvendor: intel\n? [a, b]\n: x\n")]);
    assert_codes(&loaded, &["yaml-complex-key"]);
    let d = only(&loaded, "yaml-complex-key");
    assert_eq!(
        d.message,
        "mapping keys must be plain text, found a sequence"
    );
    assert_eq!(loc(&loaded, d), "a.yaml:3:3");
}

#[test]
fn yaml_too_large_by_bytes() {
    let text = format!("generation: a\nvendor: intel\ndoc: {}\n", "x".repeat(200));
    assert_eq!(text.len(), 234);
    let loaded = load_with(
        Limits {
            max_bytes: 100,
            ..Default::default()
        },
        &[("big.yaml", &text)],
    );
    assert_codes(&loaded, &["yaml-too-large"]);
    let d = only(&loaded, "yaml-too-large");
    assert_eq!(
        d.message,
        "file is 234 bytes, more than the limit of 100 bytes"
    );
    assert_eq!(loc(&loaded, d), "big.yaml:1:1");
    assert_note(d, "split the definitions into several files");
    // At the limit is fine.
    let exact = load_with(
        Limits {
            max_bytes: text.len(),
            ..Default::default()
        },
        &[("big.yaml", &text)],
    );
    assert_clean(&exact);
}

/// A billion laughs: nine levels of nine aliases each (9^9 = 387 million scalars).
const ALIAS_BOMB: &str = "\
generation: a
vendor: intel
x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]
x1: &a1 [*a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0]
x2: &a2 [*a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1]
x3: &a3 [*a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2]
x4: &a4 [*a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3]
x5: &a5 [*a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4]
x6: &a6 [*a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5]
x7: &a7 [*a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6]
x8: &a8 [*a7, *a7, *a7, *a7, *a7, *a7, *a7, *a7, *a7]
";

#[test]
fn yaml_too_large_alias_bomb_ends_quickly() {
    // The test completing is the check (no timing assertion): the expansion stops at the
    // budget of a 500-byte file, 65,536 nodes, not at 387 million.
    let loaded = load_raw(&[("bomb.yaml", ALIAS_BOMB)]);
    assert_codes(&loaded, &["yaml-too-large"]);
    let d = only(&loaded, "yaml-too-large");
    assert_eq!(
        d.message,
        format!(
            "YAML expands to more than 65536 nodes, the limit for a file of {} bytes",
            ALIAS_BOMB.len()
        )
    );
    // x0..x3 hold 10 + 91 + 820 + 7,381 nodes; x4's aliases of `a3` (7,381 each) cross
    // 65,536 at the ninth (line 7).
    assert!(
        loc(&loaded, d).starts_with("bomb.yaml:7:"),
        "{}",
        loc(&loaded, d)
    );
    assert_eq!(spanned_text(&loaded, d), "*a3");
    assert_eq!(d.labels[0].message, "node limit reached here");
    assert_note(
        d,
        "aliases are expanded in place; nested aliases multiply (an \"alias bomb\")",
    );
    assert_note(
        d,
        "a file may have 65536 nodes plus 256 per KiB, at most 4000000",
    );
}

/// A large file without aliases gets the same limit, relative to its size, and a message
/// that does not talk about aliases.
#[test]
fn yaml_too_large_without_aliases() {
    let limits = Limits {
        min_nodes: 10,
        nodes_per_kib: 16,
        ..Default::default()
    };
    let items = vec!["0"; 1000].join(", ");
    let text = format!("generation: a\nvendor: intel\ndoc: [{items}]\n");
    let budget = 10 + text.len() / 1024 * 16;
    let loaded = load_with(limits, &[("flat.yaml", &text)]);
    let d = only(&loaded, "yaml-too-large");
    assert_eq!(
        d.message,
        format!(
            "YAML has more than {budget} nodes, the limit for a file of {} bytes",
            text.len()
        )
    );
    assert_note(d, "split the definitions into several files");
    assert!(
        d.notes.iter().all(|n| !n.contains("alias")),
        "{:?}",
        d.notes
    );
    // The same list is fine within the default budget.
    assert!(
        !load_raw(&[("flat.yaml", &text)])
            .diagnostics
            .iter()
            .any(|d| d.code == "yaml-too-large")
    );
}

#[test]
fn yaml_too_large_alias_bomb_small_limit() {
    let loaded = load_with(
        Limits {
            max_nodes: 100,
            ..Default::default()
        },
        &[("bomb.yaml", ALIAS_BOMB)],
    );
    let d = only(&loaded, "yaml-too-large");
    assert_eq!(
        d.message,
        format!(
            "YAML expands to more than 100 nodes, the limit for a file of {} bytes",
            ALIAS_BOMB.len()
        )
    );
    // 4 + 10 (x0) + 2 + 9 * 10 (x1) = 106 > 100: the ninth `*a0` crosses the limit.
    assert_eq!(loc(&loaded, d), "bomb.yaml:4:50");
    assert_eq!(spanned_text(&loaded, d), "*a0");
}

#[test]
fn yaml_too_deep() {
    let text = format!(
        "generation: a\nvendor: intel\ndoc: {}{}\n",
        "[".repeat(100),
        "]".repeat(100)
    );
    let loaded = load_raw(&[("deep.yaml", &text)]);
    assert_codes(&loaded, &["yaml-too-deep"]);
    let d = only(&loaded, "yaml-too-deep");
    assert_eq!(d.message, "YAML nests deeper than 64 levels");
    // The root mapping is level 1, so the 64th `[` (column 6 + 63) is level 65.
    assert_eq!(loc(&loaded, d), "deep.yaml:3:69");

    let loaded = load_with(
        Limits {
            max_depth: 3,
            ..Default::default()
        },
        &[(
            "deep.yaml",
            r#"
            generation: a
            vendor: intel
            registers:
              - name: R
                msr: 1
                fields:
                  - { name: F, bits: 0 }
            "#,
        )],
    );
    let d = only(&loaded, "yaml-too-deep");
    assert_eq!(d.message, "YAML nests deeper than 3 levels");
    // Root mapping, `registers`, the register: the `fields` sequence (its first `-`) is level 4.
    assert_eq!(loc(&loaded, d), "deep.yaml:7:7");
}

/// A scratch directory for files read from disk, unique to one test.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("diagnostics")
        .join(test);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn not_utf8() {
    let dir = scratch("not_utf8");
    let path = dir.join("bad-utf8.yaml");
    // 14 + 14 + 7 bytes precede the invalid byte: offset 35, line 3, column 8.
    std::fs::write(&path, b"generation: a\nvendor: intel\ndoc: ab\xFFcd\n").unwrap();
    let mut loader = Loader::new();
    loader.add_file(&path);
    let loaded = loader.finish();
    assert_codes(&loaded, &["not-utf8"]);
    let d = only(&loaded, "not-utf8");
    assert_eq!(d.message, "file is not valid UTF-8: byte 0xFF at offset 35");
    let at = loc(&loaded, d);
    assert!(at.ends_with("bad-utf8.yaml:3:8"), "{at}");
    assert_eq!(d.labels[0].message, "invalid byte here");
    assert_note(d, "help: definition files must be UTF-8 encoded");
    assert_eq!(loaded.paths, vec![path.clone()]);
    // Rendering shows the line with the byte replaced.
    let rendered = loaded.render_diagnostics();
    assert!(rendered.contains("doc: ab\u{FFFD}cd"), "{rendered}");

    // Columns count characters: `§` is two bytes, one column.
    let path = dir.join("bad-after-multibyte.yaml");
    std::fs::write(
        &path,
        "generation: a\nvendor: intel\ndoc: §\u{0}".as_bytes(),
    )
    .unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    *bytes.last_mut().unwrap() = 0xC0;
    std::fs::write(&path, &bytes).unwrap();
    let mut loader = Loader::new();
    loader.add_file(&path);
    let loaded = loader.finish();
    let d = only(&loaded, "not-utf8");
    assert_eq!(d.message, "file is not valid UTF-8: byte 0xC0 at offset 35");
    let at = loc(&loaded, d);
    assert!(at.ends_with("bad-after-multibyte.yaml:3:7"), "{at}");
}

#[test]
fn io_error_for_a_missing_file() {
    let path = scratch("io").join("does-not-exist.yaml");
    let mut loader = Loader::new();
    loader.add_file(&path);
    let loaded = loader.finish();
    assert_codes(&loaded, &["io"]);
    let d = only(&loaded, "io");
    assert!(d.message.starts_with("cannot read file: "), "{}", d.message);
    let at = loc(&loaded, d);
    assert!(at.ends_with("does-not-exist.yaml:1:1"), "{at}");
}

/// Two links to `.` and one to a parent: each directory is read once (not 2^depth paths), the
/// file once, and each link is one warning at its path.
#[cfg(unix)]
#[test]
fn repeated_directory_through_symbolic_links() {
    let dir = scratch("repeated_directory");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(
        dir.join("sub/a.yaml"),
        "generation: a\nvendor: intel\ntitle: A\n",
    )
    .unwrap();
    for (link, to) in [("l1", "."), ("l2", "."), ("sub/up", "..")] {
        std::os::unix::fs::symlink(to, dir.join(link)).unwrap();
    }
    let mut loader = Loader::new();
    loader.add_path(&dir);
    let loaded = loader.finish();
    assert_codes(
        &loaded,
        &[
            "repeated-directory",
            "repeated-directory",
            "repeated-directory",
        ],
    );
    assert_eq!(loaded.model.generations.len(), 1);
    assert_eq!(loaded.paths.len(), 1, "{:?}", loaded.paths);
    let d = &loaded.diagnostics[0];
    assert_eq!(d.severity, Severity::Warning);
    assert!(
        loc(&loaded, d).ends_with("repeated_directory/l1:1:1"),
        "{}",
        loc(&loaded, d)
    );
    assert!(
        d.message.starts_with("a symbolic link to `")
            && d.message
                .ends_with("a directory that contains it (a cycle); not read again"),
        "{}",
        d.message
    );
}

#[test]

fn empty_file_is_an_error() {
    for text in ["", "# nothing but a comment\n"] {
        let loaded = load_raw(&[("empty.yaml", text)]);
        assert!(loaded.has_errors(), "{text:?} loaded without an error");
        assert_eq!(
            loaded.diagnostics.len(),
            1,
            "{}",
            loaded.render_diagnostics()
        );
        assert_eq!(loc(&loaded, &loaded.diagnostics[0]), "empty.yaml:1:1");
        assert_eq!(loaded.diagnostics[0].code, "empty-file");
        assert_eq!(loaded.diagnostics[0].message, "definitions file is empty");
    }
}

#[test]
fn locations_count_characters_and_survive_crlf() {
    let loaded = load_raw(&[(
        "a.yaml",
        "generation: a\nvendor: intel\nregisters:\n  - { doc: \"§§ü\", name: X, msr: 1, bogus: 1 }\n",
    )]);
    let d = only(&loaded, "unknown-key");
    assert_eq!(loc(&loaded, d), "a.yaml:4:36");
    assert_eq!(spanned_text(&loaded, d), "bogus");

    let loaded = load_raw(&[("a.yaml", "generation: a\r\nvendor: intel\r\nbogus: 1\r\n")]);
    let d = only(&loaded, "unknown-key");
    assert_eq!(loc(&loaded, d), "a.yaml:3:1");
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
        ("base.yaml", BASE),
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

#[test]

fn invalid_counter_range_does_not_cascade_into_no_counter() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        events:
          - { name: E, event: 0x3C, counters: [3-1] }
        "#,
    );
    assert_codes(&loaded, &["invalid-value"]);
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

// ---------------------------------------------------------------------------------------------
// Robustness: no input panics
// ---------------------------------------------------------------------------------------------

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
struct Shipped {
    /// Path relative to `defs_dir()`, as the file is named in the loads.
    name: String,
    text: String,
    id: Option<String>,
    extends: Option<String>,
}

fn top_level_value(text: &str, key: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .map(|v| v.trim().to_owned())
}

fn shipped_files() -> Vec<Shipped> {
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
fn ancestors<'a>(files: &'a [Shipped], file: &Shipped) -> Vec<&'a Shipped> {
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

#[test]
fn reserved_name_field_named_like_generated_code() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: NEW
            msr: 0x500
            fields:
              - { name: MSR, bits: 3:0 }
        "#,
    );
    assert_codes(&loaded, &["reserved-name"]);
    let d = only(&loaded, "reserved-name");
    assert_eq!(
        d.message,
        "field `MSR` gives the Rust name `MSR` for its tock-registers field in the module of \
         register `NEW`, where the generated code uses it for the typed MSR constant"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:7:17");
    assert_eq!(d.labels[0].message, "reserved name");
}

#[test]
fn reserved_name_generation_module_shared() {
    let loaded = child(
        r#"
        generation: x-shared
        extends: base
        "#,
    );
    assert_codes(&loaded, &["reserved-name"]);
    let d = only(&loaded, "reserved-name");
    assert_eq!(
        d.message,
        "generation id `x-shared` gives the Rust name `shared` for its module in module `x`, \
         where the generated code uses it for the register layouts generations share"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:1:13");
    assert_eq!(d.labels[0].message, "reserved name");
}

#[test]
fn name_collision_array_element_and_field() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: NEW
            msr: 0x500
            fields:
              - { name: EN, bits: 0, array: { count: 2, stride: 1 } }
              - { name: EN1, bits: 8 }
        "#,
    );
    assert_codes(&loaded, &["name-collision"]);
    let d = only(&loaded, "name-collision");
    assert_eq!(
        d.message,
        "fields `EN` and `EN1` both give the Rust name `EN1` in the module of register `NEW` \
         (a tock-registers field each)"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:8:17");
    assert_eq!(loc2(&loaded, d), "c.yaml:7:17");
    assert_eq!(
        secondary(d)[0].message,
        "its tock-registers field is `EN1` too"
    );
}

#[test]
fn name_collision_event_variants() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        events:
          - { name: A.B_C, event: 0x10 }
          - { name: "A.B:C", event: 0x11 }
        "#,
    );
    assert_codes(&loaded, &["name-collision"]);
    let d = only(&loaded, "name-collision");
    assert_eq!(
        d.message,
        "events `A.B_C` and `A.B:C` both give the Rust name `A_BC` in the `Event` enum of \
         `child` (a variant each)"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:5:13");
    assert_eq!(loc2(&loaded, d), "c.yaml:4:13");
}

/// The mistake a vendor made adding `intel-v7` by YAML: six fixed counters, but the
/// per-counter arrays of the global registers left at four. Every array is reported, at the
/// array with the counter family as the second place.
#[test]
fn widened_fixed_counters_with_narrow_global_arrays_is_an_error() {
    let defs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../pmu-defs/defs/intel");
    let mut loader = Loader::new();
    for v in 1..=6 {
        loader.add_file(&defs.join(format!("v{v}.yaml")));
    }
    loader.add_str(
        "v7.yaml",
        "generation: intel-v7\nextends: intel-v6\nregisters:\n  - { name: IA32_FIXED_CTR, msr: { count: 6 } }\n  - name: IA32_FIXED_CTR_CTRL\n    fields:\n      - { name: ENABLE, array: { count: 6 } }\n      - { name: ANY, array: { count: 6 } }\n      - { name: PMI, array: { count: 6 } }\n      - { name: ADAPTIVE_RECORD, array: { count: 6 } }\n",
    );
    let loaded = loader.finish();
    let mismatches: Vec<String> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == "counter-count-mismatch")
        .map(|d| d.message.clone())
        .collect();
    let arrays = [
        ("EN_FIXED_CTR", "IA32_PERF_GLOBAL_CTRL"),
        ("OVF_FIXED_CTR", "IA32_PERF_GLOBAL_STATUS"),
        ("CLR_OVF_FIXED_CTR", "IA32_PERF_GLOBAL_STATUS_RESET"),
        ("SET_OVF_FIXED_CTR", "IA32_PERF_GLOBAL_STATUS_SET"),
        ("FIXED_CTR_INUSE", "IA32_PERF_GLOBAL_INUSE"),
        ("PEBS_EN_FIXED", "IA32_PEBS_ENABLE"),
        ("RELOAD_ON_FIXED_CTR", "IA32_PMC_GP_CFG_B"),
        ("RELOAD_ON_FIXED_CTR", "IA32_PMC_FX_CFG_B"),
    ];
    // The per-counter register families of v6 (CFG_B, CFG_C of the fixed counters).
    let families = ["IA32_PMC_FX_CFG_B", "IA32_PMC_FX_CFG_C"];
    let mut expected: Vec<String> = arrays
        .iter()
        .map(|(f, r)| {
            format!(
                "field array `{f}` of `{r}` has 4 elements but `IA32_FIXED_CTR` has 6 fixed counters in `intel-v7`"
            )
        })
        .chain(families.iter().map(|r| {
            format!(
                "register family `{r}` has 4 instances but `IA32_FIXED_CTR` has 6 counters in `intel-v7`"
            )
        }))
        .collect();
    let mut got = mismatches.clone();
    expected.sort();
    got.sort();
    assert_eq!(got, expected, "{}", loaded.render_diagnostics());
    let errors = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    assert_eq!(
        errors,
        arrays.len() + families.len(),
        "{}",
        loaded.render_diagnostics()
    );
}

/// A generation's marker type is its id in CamelCase: two ids giving one name, and a register
/// whose alias type is the marker's name, are collisions at the YAML.
#[test]
fn generation_type_name_collisions() {
    let loaded = load(&[
        ("base.yaml", BASE),
        ("a.yaml", "generation: x-1\nextends: base\n"),
        ("b.yaml", "generation: x1\nextends: base\n"),
        (
            "c.yaml",
            "generation: acme-y\nextends: base\nregisters:\n  - { name: ACME_Y, msr: 0x500 }\n",
        ),
    ]);
    assert_codes(&loaded, &["name-collision", "name-collision"]);
    let d = find(&loaded, "name-collision", "`x1`");
    assert_eq!(
        d.message,
        "generation ids `x-1` and `x1` both give the Rust name `X1` among the generations' \
         marker types (a marker type each)"
    );
    assert_eq!(loc(&loaded, d), "b.yaml:1:13");
    assert_eq!(loc2(&loaded, d), "a.yaml:1:13");
    let d = find(&loaded, "name-collision", "ACME_Y");
    assert_eq!(
        d.message,
        "generation id `acme-y` and register `ACME_Y` both give the Rust name `AcmeY` in the \
         module of generation `acme-y` (the marker type of `acme-y`, the type alias of `ACME_Y`)"
    );
}

#[test]
fn duplicate_leaf() {
    let loaded = load_raw(&[(
        "a.yaml",
        "generation: acme-l1\nvendor: intel\ntitle: t\nmanual: none\ncpuid:\n  - { name: L1, leaf: 0x0A, eax: [{ name: V, bits: 7:0 }] }\n  - { name: L2, leaf: 0x0A, eax: [{ name: W, bits: 7:0 }] }\n",
    )]);
    assert_codes(&loaded, &["duplicate-leaf"]);
    let d = only(&loaded, "duplicate-leaf");
    assert_eq!(
        d.message,
        "CPUID entries `L1` and `L2` both describe leaf 0xA in generation `acme-l1`"
    );
    assert_eq!(loc(&loaded, d), "a.yaml:7:13");
    assert_eq!(loc2(&loaded, d), "a.yaml:6:13");
}

#[test]
fn remove_without_parent() {
    let loaded = load_raw(&[(
        "a.yaml",
        "generation: acme-r1\nvendor: intel\ntitle: t\nmanual: none\nremove: { registers: [R] }\n",
    )]);
    assert_codes(&loaded, &["remove-without-parent"]);
    let d = only(&loaded, "remove-without-parent");
    assert_eq!(loc(&loaded, d), "a.yaml:5:1");
    assert_eq!(spanned_text(&loaded, d), "remove");
}

#[test]
fn deprecated_since_a_later_or_unrelated_generation() {
    let field = |id: &str, since: &str, extends: &str| {
        format!(
            "generation: {id}\n{extends}\ntitle: t\nmanual: none\nregisters:\n  - name: REG{id_}\n    msr: 0x1{n}\n    fields:\n      - {{ name: A, bits: 7:0, deprecated: {{ since: {since} }} }}\n",
            id_ = id.len(),
            n = id.len()
        )
    };
    // Version 3 cannot deprecate for version 5: version 5 says so itself.
    let base = field("acme-p1", "acme-p2", "vendor: intel");
    let later = "generation: acme-p2\nextends: acme-p1\ntitle: t\nmanual: none\n";
    let loaded = load_raw(&[("p1.yaml", &base), ("p2.yaml", later)]);
    assert_codes(&loaded, &["deprecated-since"]);
    let d = only(&loaded, "deprecated-since");
    assert_eq!(
        d.message,
        "field `A` of `REG7` is deprecated since `acme-p2`, which is not `acme-p1` or a generation it extends"
    );
    assert_eq!(loc(&loaded, d), "p1.yaml:9:52");
    assert_eq!(d.labels[0].message, "a later generation");
    assert!(
        d.notes.iter().any(|n| n.contains("`acme-p2`'s own file")),
        "{:?}",
        d.notes
    );
    // An unknown one.
    let loaded = load_raw(&[("p1.yaml", &field("acme-p1", "acme-p9", "vendor: intel"))]);
    assert_codes(&loaded, &["unknown-generation"]);
    // Itself, or a generation it extends: fine.
    let own = field("acme-p3", "acme-p1", "extends: acme-p1");
    let fine = field("acme-p1", "acme-p1", "vendor: intel");
    assert_codes(&load_raw(&[("p1.yaml", &fine), ("p3.yaml", &own)]), &[]);
}

#[test]
fn yaml_tag() {
    let loaded = load_raw(&[(
        "a.yaml",
        "generation: acme-t1\nvendor: intel\ntitle: !custom t\nmanual: none\n",
    )]);
    assert_codes(&loaded, &["yaml-tag"]);
    let d = only(&loaded, "yaml-tag");
    assert_eq!(d.message, "unsupported YAML tag `!custom`");
    assert_eq!(loc(&loaded, d), "a.yaml:3:8");
    // `!!str` makes a string: a number written so is refused like a quoted one.
    let loaded = load_raw(&[(
        "b.yaml",
        "generation: acme-t2\nvendor: intel\ntitle: t\nmanual: none\nregisters:\n  - { name: R, msr: !!str 0x10 }\n",
    )]);
    assert_codes(&loaded, &["type-mismatch"]);
}

// ---------------------------------------------------------------------------------------------
// The identifier rule (pmu_defs::names): names the generator could not turn into Rust
// ---------------------------------------------------------------------------------------------

/// A generation id whose module part is empty (`x-`) or `_` (`x--`) gives no identifier;
/// `registers!` used to panic on it (`"" is not a valid identifier`).
#[test]
fn invalid_name_generation_id_without_a_module_name() {
    let loaded = load(&[
        ("base.yaml", BASE),
        ("a.yaml", "generation: x-\nextends: base\n"),
        ("b.yaml", "generation: y--\nextends: base\n"),
    ]);
    assert_codes(&loaded, &["invalid-name", "invalid-name"]);
    let d = find(&loaded, "invalid-name", "`x-`");
    assert_eq!(
        d.message,
        "generation id `x-` gives an empty Rust name for its module in module `x`"
    );
    assert_eq!(loc(&loaded, d), "a.yaml:1:13");
    assert_eq!(d.labels[0].message, "its module would have no name");
    let d = find(&loaded, "invalid-name", "`y--`");
    assert_eq!(
        d.message,
        "generation id `y--` gives the Rust name `_` for its module in module `y`, which is not \
         an identifier"
    );
    assert_eq!(loc(&loaded, d), "b.yaml:1:13");
}

/// Names that escape to the same identifier: `x-1` and `x--1` are both `x::_1`, `x-self` and
/// `x-self-` both `x::self_` (a keyword that cannot be raw gets a `_`).
#[test]
fn name_collision_after_escaping_generation_modules() {
    let loaded = load(&[
        ("base.yaml", BASE),
        ("a.yaml", "generation: x-1\nextends: base\n"),
        ("b.yaml", "generation: x--1\nextends: base\n"),
        ("c.yaml", "generation: x-self\nextends: base\n"),
        ("d.yaml", "generation: x-self-\nextends: base\n"),
    ]);
    assert_codes(&loaded, &["name-collision", "name-collision"]);
    let d = find(&loaded, "name-collision", "`_1`");
    assert_eq!(
        d.message,
        "generation ids `x-1` and `x--1` both give the Rust name `_1` in module `x` (a module \
         each)"
    );
    assert_eq!(loc(&loaded, d), "b.yaml:1:13");
    assert_eq!(loc2(&loaded, d), "a.yaml:1:13");
    let d = find(&loaded, "name-collision", "`self_`");
    assert_eq!(loc(&loaded, d), "d.yaml:1:13");
    assert_eq!(loc2(&loaded, d), "c.yaml:1:13");
}

/// A generation without a vendor part is a module at the crate root, beside the vendor
/// modules and `pmu-regs`' own.
#[test]
fn name_collision_generation_module_and_vendor_module() {
    let loaded = load(&[
        ("base.yaml", BASE),
        ("a.yaml", "generation: base-v2\nextends: base\n"),
        ("b.yaml", "generation: arch\nextends: base\n"),
    ]);
    assert_codes(&loaded, &["name-collision", "reserved-name"]);
    let d = only(&loaded, "name-collision");
    assert_eq!(
        d.message,
        "generation ids `base` and `base-v2` both give the Rust name `base` at the crate root \
         (the module of `base`, the vendor module of `base-v2`)"
    );
    assert_eq!(loc(&loaded, d), "a.yaml:1:13");
    assert_eq!(loc2(&loaded, d), "base.yaml:1:13");
    let d = only(&loaded, "reserved-name");
    assert_eq!(
        d.message,
        "generation id `arch` gives the Rust name `arch` for its module at the crate root, where \
         the generated code uses it for the module `pmu_regs::arch`"
    );
}

/// Fields whose methods coincide after case conversion or the `_field` suffix of names like
/// `new` and `eq`, and a setter equal to another field's getter.
#[test]
fn name_collision_field_methods() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: SEL
            fields:
              - { name: inv, bits: 40 }
          - name: FLAGS
            msr: 0x500
            fields:
              - { name: EQ, bits: 0 }
              - { name: EQ_FIELD, bits: 1 }
              - { name: NEW, bits: 2 }
              - { name: NEW_FIELD, bits: 3 }
              - { name: X, bits: 4 }
              - { name: WITH_X, bits: 5 }
        "#,
    );
    assert_codes(
        &loaded,
        &[
            "name-collision",
            "name-collision",
            "name-collision",
            "name-collision",
        ],
    );
    let d = find(&loaded, "name-collision", "`inv`");
    assert_eq!(
        d.message,
        "fields `INV` and `inv` both give the Rust name `inv` among the methods of `SEL::Value` \
         (a getter each)"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:6:17");
    assert_eq!(loc2(&loaded, d), "base.yaml:17:17");
    assert_eq!(d.labels[0].message, "its getter is `inv`");
    let d = find(&loaded, "name-collision", "`EQ_FIELD`");
    assert_eq!(
        d.message,
        "fields `EQ` and `EQ_FIELD` both give the Rust name `eq_field` among the methods of \
         `FLAGS::Value` (a getter each)"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:11:17");
    let d = find(&loaded, "name-collision", "`NEW_FIELD`");
    assert_eq!(loc(&loaded, d), "c.yaml:13:17");
    assert_eq!(loc2(&loaded, d), "c.yaml:12:17");
    let d = find(&loaded, "name-collision", "`WITH_X`");
    assert_eq!(
        d.message,
        "fields `X` and `WITH_X` both give the Rust name `with_x` among the methods of \
         `FLAGS::Value` (the setter of `X`, the getter of `WITH_X`)"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:15:17");
}

/// Named values whose CamelCase variants coincide, registers whose type aliases coincide.
#[test]
fn name_collision_values_and_registers_after_case_conversion() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: sel
            msr: 0x500
            fields:
              - name: MODE
                bits: 1:0
                values:
                  - { name: ON_X, value: 0 }
                  - { name: On_x, value: 1 }
        "#,
    );
    assert_codes(&loaded, &["name-collision", "name-collision"]);
    let d = find(&loaded, "name-collision", "`Sel`");
    assert_eq!(
        d.message,
        "registers `SEL` and `sel` both give the Rust name `Sel` in the module of generation \
         `child` (a type alias each)"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:11");
    assert_eq!(loc2(&loaded, d), "base.yaml:12:11");
    let d = find(&loaded, "name-collision", "`OnX`");
    assert_eq!(
        d.message,
        "values `ON_X` and `On_x` both give the Rust name `OnX` in the enum `Mode` of `MODE` (a \
         variant each)"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:11:21");
    assert_eq!(loc2(&loaded, d), "c.yaml:10:21");
}

/// Registers named like what the generator puts beside them (`cpuid`, `events`) or inside
/// their module (`Value`, `Register`), or whose module and CamelCase alias coincide.
#[test]
fn reserved_name_registers_named_like_generated_items() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { name: cpuid, msr: 0x500 }
          - { name: events, msr: 0x501 }
          - { name: Value, msr: 0x502 }
          - { name: Register, msr: 0x503 }
          - { name: Self, msr: 0x504 }
        "#,
    );
    assert_codes(
        &loaded,
        &[
            "reserved-name",
            "reserved-name",
            "name-collision",
            "name-collision",
            "name-collision",
        ],
    );
    let d = find(&loaded, "reserved-name", "`cpuid`");
    assert_eq!(
        d.message,
        "register `cpuid` gives the Rust name `cpuid` for its module in the module of generation \
         `child`, where the generated code uses it for the CPUID leaves"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:13");
    assert_eq!(d.labels[0].message, "reserved name");
    assert_note(d, "help: rename the register");
    let d = find(&loaded, "reserved-name", "`events`");
    assert_eq!(loc(&loaded, d), "c.yaml:5:13");
    let d = find(&loaded, "name-collision", "`Value`");
    assert_eq!(
        d.message,
        "register `Value` gives the Rust name `Value` twice in the module of generation `child`: \
         for its module and its type alias"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:6:13");
    let d = find(&loaded, "name-collision", "`Register`");
    assert_eq!(loc(&loaded, d), "c.yaml:7:13");
    // `Self` cannot be raw: module and alias are both `Self_`.
    let d = find(&loaded, "name-collision", "`Self_`");
    assert_eq!(loc(&loaded, d), "c.yaml:8:13");
}

/// Names the generated code uses in a register's module: a local variable (`v`), the
/// prelude (`Some`), a primitive type (`u64`), the register's own marker type (a field named
/// like its register).
#[test]
fn reserved_name_shadowing_what_the_generated_code_uses() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - name: NEW
            msr: 0x500
            fields:
              - { name: v, bits: 0 }
              - { name: Some, bits: 1 }
              - { name: u64, bits: 2 }
              - { name: NEW, bits: 3 }
        "#,
    );
    assert_codes(
        &loaded,
        &[
            "reserved-name",
            "reserved-name",
            "reserved-name",
            "name-collision",
        ],
    );
    let d = find(&loaded, "reserved-name", "`v`");
    assert_eq!(
        d.message,
        "field `v` gives the Rust name `v` for its tock-registers field in the module of \
         register `NEW`, where the generated code uses it for a local variable"
    );
    let d = find(&loaded, "reserved-name", "`Some`");
    assert!(d.message.ends_with("the prelude's `Some`"), "{}", d.message);
    let d = find(&loaded, "reserved-name", "`u64`");
    assert!(d.message.ends_with("a primitive type"), "{}", d.message);
    let d = only(&loaded, "name-collision");
    assert_eq!(
        d.message,
        "register `NEW` and field `NEW` both give the Rust name `NEW` in the module of register \
         `NEW` (the marker type of `NEW`, the tock-registers field of `NEW`)"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:10:17");
    assert_eq!(loc2(&loaded, d), "c.yaml:4:11");
}

/// Events whose variants coincide, architectural (with a `cpuid-bit`) and model events alike:
/// `EV_A` and `EV__A` are both `EvA`.
#[test]
fn name_collision_event_variants_architectural_and_model() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        events:
          - { name: EV_A, event: 0x10, cpuid-bit: 0 }
          - { name: EV__A, event: 0x11, cpuid-bit: 0 }
          - { name: M_A, event: 0x12 }
          - { name: M__A, event: 0x13 }
        "#,
    );
    assert_codes(&loaded, &["name-collision", "name-collision"]);
    let d = find(&loaded, "name-collision", "`EV__A`");
    assert_eq!(
        d.message,
        "events `EV_A` and `EV__A` both give the Rust name `EvA` in `ArchEvent` of `child` (a \
         variant each)"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:5:13");
    assert_eq!(loc2(&loaded, d), "c.yaml:4:13");
    let d = find(&loaded, "name-collision", "`M__A`");
    assert_eq!(loc(&loaded, d), "c.yaml:7:13");
}

/// Keywords of any edition and names with punctuation are not errors: the generator escapes
/// them (`r#gen`, `self_`, `Self_`; `EV_B.SUB` -> `EvB_Sub`). `registers!` used to panic on
/// the architectural events and emit modules named `gen` that do not compile; the code is
/// compiled in `tests/tests/names.rs`.
#[test]
fn keywords_and_punctuated_event_names_are_accepted() {
    let loaded = load(&[
        ("base.yaml", BASE),
        (
            "c.yaml",
            r#"generation: x-gen
extends: base
registers:
  - name: gen
    msr: 0x500
    fields:
      - { name: self, bits: 1:0, values: [{ name: async, value: 0 }, { name: Self, value: 1 }] }
      - { name: async, bits: 2 }
events:
  - { name: EV_B.SUB, event: 0x10, cpuid-bit: 0 }
  - { name: "Ev:c=1", event: 0x11, cpuid-bit: 0 }
"#,
        ),
        ("d.yaml", "generation: x-async\nextends: base\n"),
        ("e.yaml", "generation: x-dyn\nextends: base\n"),
        ("f.yaml", "generation: x-try\nextends: base\n"),
        ("g.yaml", "generation: self\nextends: base\n"),
    ]);
    assert_clean(&loaded);
}

/// `perfmon-cores:` names each Intel perfmon list once in all definitions (case does not
/// matter, as in the importer): a second claim is an error at it, with the first as a label.
#[test]
fn a_perfmon_core_list_claimed_twice() {
    let loaded = load(&[
        ("base.yaml", BASE),
        (
            "a.yaml",
            "generation: a\nextends: base\nperfmon-cores: [skylake_core]\n",
        ),
        (
            "b.yaml",
            "generation: b\nextends: base\nperfmon-cores: [other_core, Skylake_Core]\n",
        ),
    ]);
    let d = only(&loaded, "duplicate-perfmon-core");
    assert_eq!(loc(&loaded, d), "b.yaml:3:29");
    assert_eq!(spanned_text(&loaded, d), "Skylake_Core");
    assert!(
        d.message.contains("claimed by `b` and by `a`"),
        "{}",
        d.message
    );
    assert_eq!(d.labels.len(), 2, "the first claim is labelled");
}

/// Only a generation that is not itself a CPU model can be the parent of an imported list,
/// and a list name is a perfmon file name.
#[test]
fn a_perfmon_core_list_in_a_cpu_model_or_misspelt() {
    let loaded = load(&[
        ("base.yaml", BASE),
        (
            "m.yaml",
            "generation: m\nextends: base\ncpus: [{ family-model: GenuineIntel-6-4E }]\nperfmon-cores: [skylake_core]\n",
        ),
    ]);
    let d = only(&loaded, "perfmon-core-in-model");
    assert_eq!(loc(&loaded, d), "m.yaml:4:17");
    let loaded = load(&[
        ("base.yaml", BASE),
        (
            "a.yaml",
            "generation: a\nextends: base\nperfmon-cores: [\"sky lake\"]\n",
        ),
    ]);
    let d = only(&loaded, "invalid-name");
    assert!(d.message.contains("perfmon"), "{}", d.message);
}

// ---------------------------------------------------------------------------------------------
// Search aliases (pmu_defs::aliases)
// ---------------------------------------------------------------------------------------------

#[test]
fn aliases_are_read_and_bad_ones_located() {
    let loaded = load(&[
        ("base.yaml", BASE),
        (
            "aliases.yaml",
            r#"
            aliases:
              - { short: CTR, long: COUNTER, doc: counter registers }
              - { short: llc, long: LONGEST_LAT_CACHE }
              - { short: SEL, long: SEL }
              - { short: CTR, long: COUNTER }
              - { short: FIX, long: FIXED_FUNCTION, colour: blue }
            "#,
        ),
    ]);
    let bad = find(&loaded, "invalid-alias", "`llc` is not an alias term");
    assert_eq!(loc(&loaded, bad), "aliases.yaml:3:14");
    let same = find(&loaded, "invalid-alias", "alias `SEL` names itself");
    assert_eq!(loc(&loaded, same), "aliases.yaml:4:25");
    let twice = find(&loaded, "invalid-alias", "`CTR` = `COUNTER` is given twice");
    assert_eq!(loc(&loaded, twice), "aliases.yaml:5:14");
    assert_eq!(loc2(&loaded, twice), "aliases.yaml:2:5");
    let unknown = only(&loaded, "unknown-key");
    assert_eq!(loc(&loaded, unknown), "aliases.yaml:6:41");
    // FIX / FIXED_FUNCTION: FIXED is a register name, FIXED_FUNCTION and FIX are not.
    let unused = only(&loaded, "unused-alias");
    assert_eq!(loc(&loaded, unused), "aliases.yaml:6:5");
    assert!(unused.message.contains("`FIX`"), "{}", unused.message);
    // The good one reaches the model; the bad ones do not.
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

// ---------------------------------------------------------------------------------------------
// Alias address ranges (`alias-msr:`) and per-counter register families
// ---------------------------------------------------------------------------------------------

#[test]
fn alias_msr_follows_the_family_count() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { name: CTR, alias-msr: { base: 0x1900, stride: 4 } }
        "#,
    );
    assert_clean(&loaded);
    let grand = load(&[
        ("base.yaml", BASE),
        (
            "c.yaml",
            "generation: child\nextends: base\nregisters:\n  - { name: CTR, alias-msr: { base: 0x1900, stride: 4 } }\n  - { name: SEL, msr: { count: 8 } }\n",
        ),
        (
            "g.yaml",
            "generation: grand\nextends: child\nregisters:\n  - { name: CTR, msr: { count: 10 } }\n  - { name: SEL, msr: { count: 10 } }\n",
        ),
    ]);
    assert_clean(&grand);
    let ctr = grand
        .model
        .generation("grand")
        .unwrap()
        .register("CTR")
        .unwrap();
    let want: Vec<u32> = (0..10).map(|n| 0x1900 + 4 * n).collect();
    assert_eq!(
        ctr.alias_addresses, want,
        "the inherited alias grows with the count"
    );
    assert_eq!(ctr.index_at(0x1924), Some(9));
    assert_eq!(ctr.index_at(0xCA), Some(9));
}

#[test]
fn alias_overlap() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { name: CTR, alias-msr: { base: 0x18C, stride: 1 } }
          - { name: ONE, msr: 0x500, alias-msr: 0x500 }
        "#,
    );
    assert_codes(&loaded, &["alias-overlap", "alias-overlap"]);
    let d = find(&loaded, "alias-overlap", "`CTR0`");
    assert_eq!(
        d.message,
        "the alias address 0x18c of `CTR0` is already `SEL6` in generation `child`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:29");
    assert_eq!(loc2(&loaded, d), "base.yaml:12:11");
    assert_note(
        d,
        "an alias range (`alias-msr:`) must not overlap `SEL`'s addresses",
    );
    let d = find(&loaded, "alias-overlap", "`ONE`");
    assert_eq!(
        d.message,
        "the alias address 0x500 of `ONE` is already `ONE` in generation `child`"
    );
    assert_note(
        d,
        "an alias range (`alias-msr:`) must not overlap its own addresses",
    );
}

#[test]
fn alias_count_mismatch() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { name: CTR, alias-msr: { base: 0x1900, count: 4, stride: 4 } }
        "#,
    );
    assert_codes(&loaded, &["alias-count-mismatch"]);
    let d = only(&loaded, "alias-count-mismatch");
    assert_eq!(
        d.message,
        "`alias-msr:` of `CTR` has 4 addresses but the register has 8 instances"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:29");
    assert_eq!(loc2(&loaded, d), "c.yaml:4:13");
    assert_note(
        d,
        "help: leave `count` out: an alias range always has the register's count",
    );
}

#[test]
fn invalid_alias_msr() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { name: CTR, alias-msr: 0x1900 }
          - { name: ONE, msr: 0x500, alias-msr: { base: 0x1900, stride: 4 } }
        "#,
    );
    assert_codes(&loaded, &["invalid-alias-msr", "invalid-alias-msr"]);
    let d = find(&loaded, "invalid-alias-msr", "`CTR`");
    assert_eq!(
        d.message,
        "`CTR` is a register family: its `alias-msr:` must be `{ base, stride }`"
    );
    assert_eq!(spanned_text(&loaded, d), "0x1900");
    let d = find(&loaded, "invalid-alias-msr", "`ONE`");
    assert_eq!(
        d.message,
        "`ONE` is a single register: its `alias-msr:` must be one address"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:5:41");
}

#[test]
fn per_counter_register_family_count() {
    let loaded = child(
        r#"
        generation: child
        extends: base
        registers:
          - { name: CFG, msr: { base: 0x1902, count: 6, stride: 4 }, per-counter: general }
          - { name: FCFG, msr: { base: 0x1982, count: 3, stride: 4 }, per-counter: fixed }
        "#,
    );
    assert_codes(&loaded, &["counter-count-mismatch"]);
    let d = only(&loaded, "counter-count-mismatch");
    assert_eq!(
        d.message,
        "register family `CFG` has 6 instances but `CTR` has 8 counters in `child`"
    );
    assert_eq!(loc(&loaded, d), "c.yaml:4:13");
    assert_eq!(loc2(&loaded, d), "base.yaml:20:11");
}
