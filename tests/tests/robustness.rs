//! Bounded work on pathological input (issue "Robustness"): each case is generated at the
//! size that used to take seconds to minutes or run out of memory, and must now give a
//! located, truthful message with bounded output. No test here measures time (the project
//! has no timed tests): each asserts the size of what is printed, and simply completes.
//! Times measured by hand are in docs/robustness.md.

// What the fuzz targets run (`fuzz/`), so each finding below goes through the same code.
#[allow(dead_code)]
#[path = "../../fuzz/src/harness.rs"]
mod harness;

use pmu_defs::diag::{MAX_LINE_CHARS, MAX_PER_CODE, Omitted};
use pmu_defs::encode::{Encoder, Error, ErrorKind, Request};
use pmu_defs::{Loaded, Loader, Severity};
use std::fmt::Write as _;

/// A generation with one 64-bit register whose fields are given (one YAML line each).
fn one_register(id: &str, fields: &str) -> String {
    format!(
        "generation: {id}\nvendor: intel\ntitle: t\nregisters:\n  - name: REG\n    msr: {{ base: 0x10, count: 1 }}\n    width: 64\n    access: read-write\n    fields:\n{fields}"
    )
}

fn load(files: &[(&str, &str)]) -> Loaded {
    let mut loader = Loader::new();
    for (name, text) in files {
        loader.add_str(*name, *text);
    }
    loader.finish()
}

fn count(loaded: &Loaded, code: &str) -> usize {
    loaded.diagnostics.iter().filter(|d| d.code == code).count()
}

/// Every rendered line (gutter included) is at most this long: clipped source lines and cut
/// messages leave room for the gutter, `…` and a caret line.
fn longest_line(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

#[test]
fn overlapping_fields_give_one_error_each_capped_per_class() {
    for n in [2_000usize, 20_000] {
        let mut fields = String::new();
        for i in 0..n {
            writeln!(fields, "      - {{ name: F{i}, bits: 7:0 }}").unwrap();
        }
        let loaded = load(&[("overlap.yaml", &one_register("t", &fields))]);
        // n fields on the same bits: each overlaps the first (n - 1 errors), not n²/2.
        assert_eq!(count(&loaded, "field-overlap"), MAX_PER_CODE);
        let omitted = n - 1 - MAX_PER_CODE;
        assert_eq!(
            loaded.omitted,
            [Omitted {
                code: "field-overlap",
                severity: Severity::Error,
                count: omitted,
                acknowledged: false,
            }]
        );
        // The ones shown are the first by position: F1, F2, …, each against F0.
        let first = &loaded.diagnostics[0];
        assert_eq!(
            first.message,
            "fields `F0` and `F1` of register `REG` overlap at bit 0"
        );
        assert_eq!(loaded.sources.location(first.span()), "overlap.yaml:11:17");
        let out = loaded.render_diagnostics();
        let summary = format!(
            "note: and {} more field-overlap errors (the first {MAX_PER_CODE} are shown)\n{} errors, 0 warnings\n",
            pmu_defs::diag::thousands(omitted),
            pmu_defs::diag::thousands(n - 1),
        );
        assert!(out.ends_with(&summary), "{}", &out[out.len() - 300..]);
        assert!(out.len() < 40_000, "{} bytes", out.len());
    }
}

#[test]
fn repeats_of_one_diagnostic_are_counted_once() {
    // A fault found again (the same diagnostic pushed twice) is one fault, shown or not.
    let mut sink = pmu_defs::Diagnostics::new();
    let mut sources = pmu_defs::Sources::new();
    let file = sources.add("x.yaml", "a\n".repeat(100));
    for _ in 0..2 {
        for i in 0..100 {
            sink.push(pmu_defs::Diagnostic::error(
                "x",
                format!("problem {i:03}"),
                pmu_defs::Span::new(file, i * 2, i * 2 + 1),
            ));
        }
    }
    assert_eq!(sink.sorted().len(), MAX_PER_CODE);
    assert_eq!(sink.omitted()[0].count, 100 - MAX_PER_CODE);
    assert_eq!(sink.error_count(), 200);
    assert!(sink.render(&sources).ends_with("100 errors, 0 warnings\n"));
}

/// One field whose values (12,000, on one 325 KB line) share a number: the line is shown once
/// per error shown, as a window of at most MAX_LINE_CHARS characters.
#[test]
fn a_long_line_is_shown_clipped() {
    let mut values = String::new();
    for i in 0..12_000 {
        write!(
            values,
            "{{ name: V{i}, value: {} }}, ",
            if i < 300 { 0 } else { i }
        )
        .unwrap();
    }
    let yaml = one_register(
        "t",
        &format!("      - {{ name: F, bits: 63:0, values: [ {values}] }}\n"),
    );
    assert!(yaml.len() > 300_000);
    let loaded = load(&[("line.yaml", &yaml)]);
    assert_eq!(count(&loaded, "duplicate-value"), MAX_PER_CODE);
    assert_eq!(loaded.omitted[0].count, 299 - MAX_PER_CODE);
    let out = loaded.render_diagnostics();
    assert!(out.len() < 30_000, "{} bytes", out.len());
    assert!(
        longest_line(&out) < MAX_LINE_CHARS + 20,
        "{}",
        longest_line(&out)
    );
    assert!(out.contains("line.yaml:10:17"), "{out}");
    assert!(out.contains("10 │       - { name: F, bits: 63:0, values: [ { name: V0, value: 0 },"));
    assert!(out.contains("value: 0 },…\n"), "the cut is marked: {out}");

    // A label far into a long line: the window is around it, the column is the real one.
    let name = "A".repeat(20_000);
    let yaml = format!(
        "generation: t\nvendor: intel\ntitle: t\npmu:\n  encoding: {{ event: {name}Z, umask: {name}W }}\n\
         registers:\n  - {{ name: SEL, msr: 0x186, role: event-select, fields: [{{ name: E, bits: 7:0 }}] }}\n\
         \x20 - {{ name: CTR, msr: 0xC1, role: counter }}\n"
    );
    let loaded = load(&[("far.yaml", &yaml)]);
    let d = loaded
        .diagnostics
        .iter()
        .find(|d| d.message.starts_with("`pmu.encoding.umask`"))
        .expect("the umask error");
    assert_eq!(loaded.sources.location(d.span()), "far.yaml:5:20032");
    let one = d.render(&loaded.sources);
    assert!(one.contains("┌─ far.yaml:5:20032"), "{one}");
    assert!(
        one.contains("5 │ …") && one.contains("AZ, umask: AAAA"),
        "{one}"
    );
    // The message names the register, cut, saying how much is left out.
    assert!(one.contains("AAA… (19,670 more characters)\n"), "{one}");
    assert!(one.len() < 2_000, "{} bytes", one.len());
}

/// 20 KB names: no suggestion is computed for them (each comparison is quadratic), the error
/// is still there.
#[test]
fn twenty_kilobyte_names_get_errors_without_suggestions() {
    let a = "A".repeat(20_000);
    let reg = |name: &str, base: u32| {
        format!(
            "  - name: {name}\n    msr: {{ base: {base:#x}, count: 1 }}\n    width: 64\n    access: read-write\n    fields:\n      - {{ name: F, bits: 7:0 }}\n"
        )
    };
    let yaml = format!(
        "generation: t\nvendor: intel\ntitle: t\npmu:\n  encoding: {{ event: {a}Z, umask: {a}W }}\nregisters:\n\
         \x20 - {{ name: SEL, msr: 0x186, role: event-select, fields: [{{ name: E, bits: 7:0 }}] }}\n\
         \x20 - {{ name: CTR, msr: 0xC1, role: counter }}\n{}{}",
        reg(&format!("{a}X"), 0x10),
        reg(&format!("{a}Y"), 0x11)
    );
    let loaded = load(&[("long.yaml", &yaml)]);
    assert_eq!(count(&loaded, "unknown-name"), 2);
    assert!(loaded.diagnostics.iter().all(|d| d.notes.is_empty()));
    let out = loaded.render_diagnostics();
    assert!(out.len() < 4_000, "{} bytes", out.len());
}

/// 50,000 events in one generation: resolved (merge by name through an index) and validated;
/// listed twice, the duplicates are one error each, capped.
#[test]
fn fifty_thousand_events_resolve_and_validate() {
    let v1 = std::fs::read_to_string(pmu_defs::defs_dir().join("intel/v1.yaml")).unwrap();
    let mut events = String::new();
    for i in 0..50_000 {
        writeln!(
            events,
            "  - {{ name: EV_{i}.X, event: {:#x}, umask: {:#x}, counters: [0-1] }}",
            i % 256,
            (i / 256) % 256
        )
        .unwrap();
    }
    let model = format!("generation: intel-big\nextends: intel-v1\ntitle: big\nevents:\n{events}");
    let loaded = load(&[("v1.yaml", &v1), ("big.yaml", &model)]);
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    assert_eq!(
        loaded.model.generation("intel-big").unwrap().events.len(),
        50_007
    );

    let twice = format!("{model}{events}");
    let loaded = load(&[("v1.yaml", &v1), ("big.yaml", &twice)]);
    assert_eq!(count(&loaded, "duplicate-name"), MAX_PER_CODE);
    assert_eq!(loaded.omitted[0].count, 50_000 - MAX_PER_CODE);
    assert_eq!(
        loaded.model.generation("intel-big").unwrap().events.len(),
        50_007
    );
    let out = loaded.render_diagnostics();
    let summary = format!(
        "note: and {} more duplicate-name errors (the first {MAX_PER_CODE} are shown)\n50,000 errors, 0 warnings\n",
        pmu_defs::diag::thousands(50_000 - MAX_PER_CODE)
    );
    assert!(out.ends_with(&summary), "{}", &out[out.len() - 300..]);
    assert!(out.len() < 40_000, "{} bytes", out.len());
}

/// The importer on one 50,000-event JSON file: parsed, converted and loaded on the
/// architectural generations without an error.
#[test]
fn importing_fifty_thousand_events() {
    let mut json = String::from("{ \"Header\": { \"Version\": \"1\" }, \"Events\": [\n");
    for i in 0..50_000 {
        if i > 0 {
            json.push_str(",\n");
        }
        write!(
            json,
            "{{ \"EventCode\": \"{:#04x}\", \"UMask\": \"{:#04x}\", \"EventName\": \"EV_{i}.X\", \"Counter\": \"0,1\", \"SampleAfterValue\": \"100003\" }}",
            i % 256,
            (i / 256) % 256
        )
        .unwrap();
    }
    json.push_str("\n] }\n");
    let mut issues = Vec::new();
    let file = pmu_import::parse_file("big_core.json", &json, &mut issues).expect("parsed");
    assert_eq!(file.events.len(), 50_000);
    let model = pmu_import::convert(
        &file,
        "BIG/events/big_core.json",
        &[],
        &Default::default(),
        &mut issues,
    )
    .expect("converted");
    assert!(
        issues.iter().all(|i| i.level == pmu_import::Level::Warning),
        "{issues:#?}"
    );
    let loaded = pmu_import::check_models(&[model]);
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    assert!(loaded.model.generation("intel-big").unwrap().events.len() >= 50_000);
}

/// `encode` with a 30 KB event name or generation id: not found, no suggestion computed
/// against the thousands of event names of every shipped model.
#[test]
fn encode_a_thirty_kilobyte_name() {
    let loaded = Loader::new().with_defaults().finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let enc = Encoder::new(&loaded.model);
    let name = "LLC_MISSES".repeat(3_000);
    let mut tried = 0;
    for g in &loaded.model.generations {
        let e = enc
            .encode(&g.id, &Request::new(name.as_str()))
            .expect_err("no such event");
        assert_eq!(e.kind(), ErrorKind::NotFound, "{}: {e}", g.id);
        assert!(
            matches!(
                &e,
                Error::UnknownEvent {
                    suggestion: None,
                    ..
                }
            ),
            "{}: {e:?}",
            g.id
        );
        tried += 1;
    }
    assert!(tried > 40, "{tried}");
    let e = enc
        .encode(&"intel-v".repeat(4_000), &Request::new("LLC_MISSES"))
        .expect_err("no such generation");
    assert!(
        matches!(
            &e,
            Error::UnknownGeneration {
                suggestion: None,
                ..
            }
        ),
        "{e:?}"
    );
    // A near miss of normal length still gets its suggestion.
    let e = enc
        .encode("intel-v3", &Request::new("LLC_MISES"))
        .expect_err("typo");
    assert!(e.to_string().contains("did you mean `LLC_MISSES`?"), "{e}");
}

/// Misleading messages (issue "Robustness", item 4): one error at the real cause, none about
/// its consequences.
#[test]
fn one_error_at_the_real_cause() {
    // An invalid vendor is not also a missing one.
    let loaded = load(&[(
        "via.yaml",
        "generation: acme-x3\nvendor: via\ntitle: t\nmanual: none\n",
    )]);
    let codes: Vec<&str> = loaded.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["invalid-value"], "{}", loaded.render_diagnostics());
    // Bits written low:high: one error, no "unknown field" for the field later.
    let loaded = load(&[(
        "bits.yaml",
        &one_register(
            "acme-x4",
            "      - { name: EVENT, bits: 0:7 }\n      - { name: UMASK, bits: 15:8 }\n",
        ),
    )]);
    let codes: Vec<&str> = loaded.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["invalid-bits"], "{}", loaded.render_diagnostics());
    // A register listed twice: one duplicate-name error, no overlaps between the copies.
    let twice = "generation: acme-x5\nvendor: intel\ntitle: t\nmanual: none\nregisters:\n\
                 \x20 - { name: REG, msr: 0x10, fields: [{ name: A, bits: 7:0 }] }\n\
                 \x20 - { name: REG, msr: 0x11, fields: [{ name: A, bits: 7:0 }] }\n";
    let loaded = load(&[("twice.yaml", twice)]);
    let codes: Vec<&str> = loaded.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["duplicate-name"], "{}", loaded.render_diagnostics());
}

/// Inputs that used to be accepted although they are wrong (issue "Robustness").
#[test]
fn wrong_accepts_are_errors() {
    let codes = |files: &[(&str, &str)]| -> Vec<&'static str> {
        let loaded = load(files);
        loaded.diagnostics.iter().map(|d| d.code).collect()
    };
    let head = "generation: acme-w1\nvendor: intel\ntitle: t\nmanual: none\n";
    // Two CPUID entries for one leaf.
    let two_leaves = format!(
        "{head}cpuid:\n  - {{ name: L1, leaf: 0x0A, eax: [{{ name: V, bits: 7:0 }}] }}\n  - {{ name: L2, leaf: 0x0A, eax: [{{ name: W, bits: 7:0 }}] }}\n"
    );
    assert_eq!(codes(&[("a.yaml", &two_leaves)]), ["duplicate-leaf"]);
    // `remove:` with nothing inherited.
    let remove = format!("{head}remove: {{ registers: [R] }}\n");
    assert_eq!(codes(&[("b.yaml", &remove)]), ["remove-without-parent"]);
    // A deprecation since an unknown generation, and since one off the chain.
    let since = |id: &str| {
        format!(
            "{head}registers:\n  - name: REG\n    msr: 0x10\n    fields:\n      - {{ name: A, bits: 7:0, deprecated: {{ since: {id} }} }}\n"
        )
    };
    assert_eq!(
        codes(&[("c.yaml", &since("acme-w9"))]),
        ["unknown-generation"]
    );
    let other = "generation: acme-w2\nvendor: intel\ntitle: t\nmanual: none\n";
    assert_eq!(
        codes(&[("c.yaml", &since("acme-w2")), ("d.yaml", other)]),
        ["deprecated-since"]
    );
    assert!(codes(&[("c.yaml", &since("acme-w1"))]).is_empty());
    // `!!str 0x10` is a string, as `'0x10'` is; a tag of another schema is refused.
    let tagged = format!("{head}registers:\n  - {{ name: REG, msr: !!str 0x10 }}\n");
    assert_eq!(codes(&[("e.yaml", &tagged)]), ["type-mismatch"]);
    let quoted = format!("{head}registers:\n  - {{ name: REG, msr: '0x10' }}\n");
    assert_eq!(codes(&[("e.yaml", &quoted)]), ["type-mismatch"]);
    let custom = "generation: acme-w3\nvendor: intel\ntitle: !custom t\nmanual: none\n";
    assert_eq!(codes(&[("f.yaml", custom)]), ["yaml-tag"]);
}

// ---------------------------------------------------------------------------------------
// Fuzzing (`fuzz/`, `scripts/fuzz.sh`): each target's harness on a small input here, then
// every finding, reduced by hand, with what it must give now.
// ---------------------------------------------------------------------------------------

/// The harnesses on a valid input each: they build on stable and do what the fuzzer does
/// (`load_gen` reaches the code generator, `encode` and `decode` their checks).
#[test]
fn fuzz_harnesses_run_on_valid_input() {
    harness::load_gen(
        b"generation: intel-fuzz\nextends: intel-v3\ntitle: F\nevents:\n  - { name: E.F, event: 0x3C, umask: 0x01 }\n",
    );
    harness::load_gen(b"generation: [unclosed\n");
    harness::import_perfmon(
        b"skylake_core.json\n[{ \"EventCode\": \"0x3C\", \"UMask\": \"0x00\", \"EventName\": \"CYC.P\", \"Counter\": \"0,1,2,3\" }]",
    );
    harness::encode(b"intel-v3\nLLC_MISSES:u:k\ncmask=1\n1\n");
    harness::encode(b"amd-k7\nevent=0x1c0,umask=0x1:u\n");
    let mut decode = 0x0043_412E_u64.to_le_bytes().to_vec();
    decode.extend(0x186_u32.to_le_bytes());
    decode.extend(b"intel-v3");
    harness::decode(&decode);
}

/// Finding (import_perfmon): a NUL (or a line break) in the file name, or in the header's
/// version, date or copyright, went as it was into the header comment and `source:`, and the
/// importer wrote YAML its own loader refused (`found unprintable character`); a line break
/// would have put the rest of the name into the YAML. Comments now show such a character as
/// U+FFFD, scalars escape it, and the model loads.
#[test]
fn control_characters_in_names_and_headers_give_valid_yaml() {
    let name = "lion\u{0}c\nextends: x\u{FFFE}_core.json";
    let json = r#"{ "Header": { "Version": "1\u0000", "DatePublished": "2\n3", "Copyright": "c\r\u2028d\ufffe" },
        "Events": [{ "EventCode": "0x3C", "UMask": "0x00", "EventName": "CYC.P", "Counter": "0,1,2,3" }] }"#;
    harness::import_perfmon(format!("{name}\n{json}").as_bytes());
    let import = pmu_import::import_str(name, json);
    assert!(!import.has_errors(), "{:?}", import.issues);
    let yaml = &import.models[0].yaml;
    assert!(
        yaml.contains("# Source: lion\u{FFFD}c\u{FFFD}extends: x\u{FFFD}_core.json,"),
        "{yaml}"
    );
    assert!(
        yaml.contains("event list version 1\u{FFFD} (2\u{FFFD}3)"),
        "{yaml}"
    );
    assert!(
        yaml.contains("source: \"lion\\0c\\nextends: x\\uFFFE_core.json\""),
        "{yaml}"
    );
    assert!(
        yaml.contains(
            "title: \"Core events of lion\\0c\\nextends: x\\uFFFE_core.json (Intel perfmon)\""
        ),
        "{yaml}"
    );
    assert_eq!(pmu_import::generated_source(yaml).as_deref(), Some(name));
    let loaded = pmu_import::check_models(&import.models);
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let g = loaded
        .model
        .generation("intel-lion-c-extends-x")
        .expect("imported");
    assert_eq!(g.source.as_deref(), Some(name));
    // U+FFFE alone (not a control character) used to stay in the plain `title:`.
    let import = pmu_import::import_str("x\u{FFFE}_core.json", json);
    let loaded = pmu_import::check_models(&import.models);
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    assert_eq!(
        loaded.model.generation("intel-x").map(|g| g.title.as_str()),
        Some("Core events of x\u{FFFE}_core.json (Intel perfmon)")
    );
}
