//! Unit tests of the JSON reading helpers (names, numbers, and positions in characters) and
//! of how the YAML writer spells values.

use crate::emit::{Hex, hex, ranges, to_yaml};
use crate::files::parse_number;
use crate::report::{Doc, Level};
use crate::{model_name, parse_file};

#[test]
fn names_and_numbers() {
    assert_eq!(
        model_name("alderlake_goldencove_core.json"),
        "alderlake-goldencove"
    );
    assert_eq!(model_name("WestmereEP-DP_core.json"), "westmereep-dp");
    assert_eq!(model_name("Jaketown_core.json"), "jaketown");
    assert_eq!(model_name("x__y.json"), "x-y");
    assert_eq!(parse_number("0x1a6"), Some(0x1A6));
    assert_eq!(parse_number("0X1A6"), Some(0x1A6));
    assert_eq!(parse_number("0x00"), Some(0));
    assert_eq!(parse_number("0x"), None);
    assert_eq!(parse_number("-1"), None);
}

/// One flow mapping `{name: .., code: ..}`, as an event line writes its values.
fn flow_line(name: &str, code: Hex) -> String {
    #[derive(serde::Serialize)]
    struct Line<'a> {
        name: &'a str,
        code: Hex,
    }
    to_yaml(&serde_saphyr::FlowMap(Line { name, code })).expect("serializes")
}

#[test]
fn the_writer_spells_values_as_the_loader_reads_them() {
    assert_eq!(
        to_yaml(&ranges(&[0, 1, 2, 3, 5, 7, 8])).unwrap(),
        "[0-3, 5, 7-8]\n"
    );
    assert_eq!(to_yaml(&ranges(&[])).unwrap(), "[]\n");
    // Codes in hex, plain (a quoted "0x14" would be a string to the loader).
    assert_eq!(flow_line("A", hex(0x14)), "{name: A, code: 0x14}\n");
    assert_eq!(flow_line("A", hex(0x1)), "{name: A, code: 0x01}\n");
    let wide = Hex {
        value: 0x10003C0001,
        digits: 1,
    };
    assert_eq!(flow_line("A", wide), "{name: A, code: 0x10003C0001}\n");
    // Names YAML would misread are quoted: YAML 1.1 booleans and null, a flow indicator,
    // a number; `:` not followed by a space stays plain (YAML 1.2 flow scalars allow it).
    let name = |n: &str| {
        let line = flow_line(n, hex(0));
        line["{name: ".len()..line.len() - ", code: 0x00}\n".len()].to_owned()
    };
    assert_eq!(
        name("GenuineIntel-6-55-[01234]"),
        "\"GenuineIntel-6-55-[01234]\""
    );
    assert_eq!(name("UOPS.ANY:c1"), "UOPS.ANY:c1");
    assert_eq!(name("No"), "\"No\"");
    assert_eq!(name("y"), "\"y\"");
    assert_eq!(name("on"), "\"on\"");
    assert_eq!(name("null"), "\"null\"");
    assert_eq!(name("a: b"), "\"a: b\"");
    assert_eq!(name("0x14"), "\"0x14\"");
    // Control characters and the characters YAML 1.1 takes as line breaks are escaped.
    assert_eq!(name("a\u{1}b"), "\"a\\x01b\"");
    assert_eq!(name("a\nb"), "\"a\\nb\"");
    assert_eq!(name("a\u{2028}b"), "\"a\\Lb\"");
    assert_eq!(name("\u{FEFF}a"), "\"\\uFEFFa\"");
}

#[test]
fn text_holding_the_hex_mark_is_refused_not_corrupted() {
    #[derive(serde::Serialize)]
    struct Line<'a> {
        name: &'a str,
    }
    let err = to_yaml(&Line {
        name: "a\u{E000}0x1",
    })
    .unwrap_err();
    assert!(err.contains("U+E000"), "{err}");
}

#[test]
fn positions_count_characters() {
    let mut issues = Vec::new();
    let doc = Doc::new("f", "ab\ncé d", &mut issues);
    assert_eq!(doc.pos(0), (1, 1));
    assert_eq!(doc.pos(3), (2, 1));
    assert_eq!(doc.pos(7), (2, 4));
    // Backwards on the same line, then forwards again: the same answers.
    assert_eq!(doc.pos(4), (2, 2));
    assert_eq!(doc.pos(7), (2, 4));
    // Inside a character: column 1, as before.
    assert_eq!(doc.pos(5), (2, 1));
}

/// A one-line (minified) file of many events: each issue's column costs the distance from
/// the previous one, so the columns of n issues in file order scan the line once.
#[test]
fn columns_on_one_long_line_scan_it_once() {
    let n = 5_000;
    let events: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"EventName":"E{i}.X","EventCode":"0x01","UMask":"0x00","Counter":"0","SampleAfterValue":"0","Extra{}":"é"}}"#,
                i % 3
            )
        })
        .collect();
    let text = format!("[{}]", events.join(","));
    let mut issues = Vec::new();
    let file = parse_file("one-line.json", &text, &mut issues).expect("parses");
    assert_eq!(file.events.len(), n);
    // One warning per event (a sampling period of 0) and one per unknown key.
    let warnings: Vec<_> = issues
        .iter()
        .filter(|i| i.level == Level::Warning)
        .collect();
    assert_eq!(warnings.len(), n + 3, "{:?}", &issues[..3]);
    assert!(issues.iter().all(|i| i.line == Some(1)));
    // The last event's warning is at its own column (characters, `é` is one).
    let last = &warnings[n - 1];
    let at = text.rfind(r#""0","Extra"#).expect("last event");
    assert_eq!(last.column, Some(text[..at].chars().count() + 1));

    let mut issues = Vec::new();
    let doc = Doc::new("one-line.json", &text, &mut issues);
    let mut at = 0;
    while let Some(i) = text[at..].find("SampleAfterValue") {
        at += i + 1;
        doc.pos(at);
    }
    assert!(
        doc.scanned.get() <= text.len(),
        "{} bytes scanned for columns in a {}-byte line",
        doc.scanned.get(),
        text.len()
    );
}
