//! End to end: the generated decoder page, opened from `file://` in headless Chromium,
//! shows the right fields, reserved-bit errors, constraint messages and the encoded event.
//!
//! Chromium is Debian's `chromium` package. When `/usr/bin/chromium` is missing, the first
//! test to need it runs `scripts/install-chromium.sh` (once per process, and under a lock
//! file across processes); if that fails the tests fail with the script's output. Each page
//! is loaded with `--dump-dom` and a URL whose fragment or query carries the value, so no
//! WebDriver is needed.
//!
//! `driver.rs` has the harness (Chromium, the site, loading and driving a page); `tables.rs`
//! the event table's sorting, filters and fit at 1366 px, and every page at 390 px; `timing.rs`
//! the load times of the heaviest pages (printed); `two_steps.rs` the user tasks of issue 29,
//! each two steps from the home page (a query, then its first hit); `search_context.rs` what the
//! search reads besides names: the page's generation, generation ids, instance names, bare
//! addresses, event codes and perf strings.

#[path = "../../../pmu-site/tests/support/mod.rs"]
mod support;

mod a11y;
mod driver;
mod search_context;
mod tables;
mod timing;
mod two_steps;

use driver::*;
use scraper::Html;
use std::path::Path;
use std::process::Command;

#[test]
fn decoder_shows_fields_and_event_for_llc_misses() {
    // Intel SDM Vol. 3B Table 18-1: LLC Misses is event 2EH, umask 41H. 0x0043412E also sets
    // USR (16), OS (17) and EN (22). No generation or register in the address: the decoder
    // opens intel-v3's IA32_PERFEVTSEL by default.
    let doc = dump_dom("decoder.html#value=0x0043412E");
    let out = one(&doc, "#d-out");
    assert_eq!(out.value().attr("data-gen"), Some("intel-v3"));
    assert_eq!(out.value().attr("data-reg"), Some("IA32_PERFEVTSEL"));

    assert_eq!(field(&doc, "EVENT_SELECT"), "0x2E");
    assert_eq!(field(&doc, "UMASK"), "0x41");
    for set in ["USR", "OS", "EN"] {
        assert_eq!(field(&doc, set), "0x1", "{set}");
    }
    for clear in [
        "EDGE", "PC", "INT", "ANY", "INV", "CMASK", "IN_TX", "IN_TXCP",
    ] {
        assert_eq!(field(&doc, clear), "0x0", "{clear}");
    }
    let event = one(&doc, "#d-event");
    assert_eq!(event.value().attr("data-match"), Some("exact"));
    let names: Vec<&str> = select(&doc, "#d-event a[data-event]")
        .iter()
        .map(|a| a.value().attr("data-event").unwrap())
        .collect();
    assert_eq!(names, ["LLC_MISSES"]);
    assert!(select(&doc, "#d-reserved").is_empty());
    assert!(select(&doc, "#d-error").is_empty());
    assert!(select(&doc, "[data-constraint]").is_empty());
    assert_eq!(text(one(&doc, "#d-hex")), "0x0000_0000_0043_412E");
}

#[test]
fn decoder_flags_reserved_bits_and_constraints() {
    // Bit 63 is reserved in IA32_PERFEVTSELx (v3); INV (23) without CMASK is rejected.
    let doc = dump_dom("decoder.html?gen=intel-v3&reg=IA32_PERFEVTSEL&value=0x80000000_00C3412E");
    let reserved = one(&doc, "#d-reserved");
    assert_eq!(
        reserved.value().attr("data-mask"),
        Some("0x8000000000000000")
    );
    assert!(text(reserved).contains("bit 63"));
    assert!(reserved.value().classes().any(|c| c == "error"));
    let bad: Vec<_> = select(&doc, ".bitgrid .b.bad");
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0].value().attr("title"), Some("bit 63: reserved"));
    one(&doc, r#"[data-constraint="inv-without-cmask"]"#);
    assert_eq!(field(&doc, "INV"), "0x1");
    // Same event and umask, but with INV: LLC_MISSES plus a modifier, not an exact match.
    let event = one(&doc, "#d-event");
    assert_eq!(event.value().attr("data-match"), Some("base"));
    assert!(text(event).contains("INV"));
}

#[test]
fn decoder_joins_split_fields_and_shows_the_instance_address() {
    // AMD APM Vol. 2 Figure 13-7: EventSelect[7:0] in bits 7:0, EventSelect[11:8] in bits
    // 35:32; PerfEvtSel2 of the extended set is at C001_0204h.
    let doc = dump_dom("decoder.html#gen=amd-core&reg=PERF_EVT_SEL_CORE&i=2&value=0x100430076");
    assert_eq!(field(&doc, "EVENT_SELECT"), "0x176");
    assert_eq!(field(&doc, "UMASK"), "0x0");
    assert_eq!(field(&doc, "EN"), "0x1");
    assert_eq!(field(&doc, "HOST_ONLY"), "0x0");
    let out = one(&doc, "#d-out");
    assert_eq!(out.value().attr("data-instance"), Some("2"));
    assert!(text(out).contains("0xC0010204"));
    assert!(select(&doc, "#d-reserved").is_empty());
    // This generation lists no events: nothing to match.
    assert!(select(&doc, "#d-event").is_empty());
}

#[test]
fn decoder_shows_every_element_of_a_field_array() {
    // IA32_FIXED_CTR_CTRL, version 5: four 4-bit blocks; ENABLE is bits 4i+1:4i.
    let doc = dump_dom("decoder.html#gen=intel-v5&reg=IA32_FIXED_CTR_CTRL&value=0x3231");
    let rows = select(&doc, r#"#d-fields tr[data-field="ENABLE"]"#);
    let got: Vec<(String, String)> = rows
        .iter()
        .map(|r| {
            (
                r.value().attr("data-index").unwrap().to_owned(),
                r.value().attr("data-value").unwrap().to_owned(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = [("0", "0x1"), ("1", "0x3"), ("2", "0x2"), ("3", "0x3")]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn events_page_filters_by_name_and_code() {
    let doc = dump_dom("gen/intel-v6/events.html#q=2e.41");
    let visible: Vec<String> = select(&doc, "#ev-body tr:not([hidden])")
        .iter()
        .map(|r| r.value().attr("id").unwrap().to_owned())
        .collect();
    assert_eq!(visible, ["ev-LLC_MISSES"]);
    let all = select(&doc, "#ev-body tr").len();
    let g = support::model().generation("intel-v6").unwrap();
    assert_eq!(all, g.events.len());
    assert!(text(one(&doc, "#ev-count")).contains(&format!("1 of {all}")));
}

fn event_names(doc: &Html, css: &str) -> Vec<String> {
    select(doc, css)
        .iter()
        .map(|a| a.value().attr("data-event").unwrap().to_owned())
        .collect()
}

#[test]
fn decoder_matches_cmask_inv_and_edge() {
    let site = fixture_dir();
    // CMASK 4 with EDGE (18), plus USR, OS, EN: only the edge-detecting variant matches.
    let doc = dump_dom_in(site, "decoder.html#gen=fixture-model&value=0x044704A3");
    assert_eq!(
        one(&doc, "#d-event").value().attr("data-match"),
        Some("exact")
    );
    assert_eq!(
        event_names(&doc, "#d-event > a[data-event]"),
        ["CYCLES.STALLED_EDGE"]
    );
    assert_eq!(field(&doc, "CMASK"), "0x4");
    assert_eq!(field(&doc, "EDGE"), "0x1");

    // CMASK 2: no event has it; the plain event plus the modifier, and the variants listed.
    let doc = dump_dom_in(site, "decoder.html#gen=fixture-model&value=0x024304A3");
    let event = one(&doc, "#d-event");
    assert_eq!(event.value().attr("data-match"), Some("base"));
    assert_eq!(
        event_names(&doc, "#d-event > a[data-event]"),
        ["CYCLES.ACTIVE"]
    );
    assert!(text(event).contains("CMASK = 0x2"), "{}", text(event));
    assert_eq!(
        event_names(&doc, "#d-related a[data-event]"),
        ["CYCLES.STALLED", "CYCLES.STALLED_EDGE", "CYCLES.NONE"]
    );
}

#[test]
fn decoder_composes_a_value_from_bits_and_fields() {
    // Intel SDM Vol. 3B Figure 18-6 (IA32_PERFEVTSELx, version 3): EN is bit 22, UMASK bits
    // 15:8, event select bits 7:0, CMASK bits 31:24 (8 bits); bit 63 is reserved.
    let (doc, log) = drive(
        site_dir(),
        "decoder.html#gen=intel-v3&reg=IA32_PERFEVTSEL",
        &[
            r#"click($('.bitgrid button[data-bit="22"]')); return $('#d-val').value;"#,
            r#"type($('input.fedit[data-field="UMASK"]'), '0x41'); return $('#d-val').value;"#,
            r#"type($('input.fedit[data-field="EVENT_SELECT"]'), '2E'); return $('#d-val').value;"#,
            r#"type($('input.fedit[data-field="CMASK"]'), '0x1FF'); return [$('#d-val').value, $('.ferr') ? $('.ferr').textContent : null];"#,
            r#"click($('.bitgrid button[data-bit="63"]')); return [$('#d-val').value, $('.bitgrid button[data-bit="63"]').disabled];"#,
            r#"return [location.hash, document.activeElement.getAttribute('data-field')];"#,
        ],
    );
    assert_eq!(log[0], "0x400000");
    assert_eq!(log[1], "0x404100");
    assert_eq!(log[2], "0x40412E");
    // Too wide for CMASK: refused, said so, the value kept.
    assert_eq!(log[3][0], "0x40412E");
    let err = log[3][1].as_str().unwrap();
    assert!(err.contains("CMASK is 8 bits wide (at most 0xFF)"), "{err}");
    // A reserved bit cannot be selected.
    assert_eq!(log[4][0], "0x40412E");
    assert_eq!(log[4][1], true);
    // The address keeps the state.
    let hash = log[5][0].as_str().unwrap();
    assert!(hash.contains("value=0x40412E"), "{hash}");
    // The composed value decodes: LLC misses.
    assert_eq!(field(&doc, "EVENT_SELECT"), "0x2E");
    assert_eq!(field(&doc, "UMASK"), "0x41");
    assert_eq!(field(&doc, "EN"), "0x1");
    assert_eq!(
        event_names(&doc, "#d-event > a[data-event]"),
        ["LLC_MISSES"]
    );
    assert!(select(&doc, "#d-reserved").is_empty());
}

// ---------------------------------------------------------------------------------------
// Search, the table expander, copy buttons, decoder vs. `cargo xtask decode`, screenshots
// ---------------------------------------------------------------------------------------

/// The names of the search results shown, in order, and the results box.
fn hits(doc: &Html) -> Vec<(String, String)> {
    select(doc, "#site-results a.hit")
        .iter()
        .map(|a| {
            (
                a.value().attr("data-kind").unwrap().to_owned(),
                a.value().attr("data-name").unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn search_finds_registers_fields_events_addresses_and_codes() {
    // From a page two levels down, through the address (?search=) and by typing.
    let doc = dump_dom("gen/intel-v3/reg/IA32_PERFEVTSEL.html?search=llc+miss");
    let found = hits(&doc);
    let results = one(&doc, "#site-results");
    eprintln!(
        "search `llc miss`: {} results, first shown after {} ms (index loaded), one search {} ms",
        results.value().attr("data-total").unwrap(),
        results.value().attr("data-first-ms").unwrap(),
        results.value().attr("data-search-ms").unwrap()
    );
    // Word order and the definitions' alias LLC ~ LONGEST_LAT_CACHE.
    for want in ["LONGEST_LAT_CACHE.MISS", "LLC_MISSES"] {
        assert!(
            found[..3].contains(&("event".into(), want.into())),
            "{found:?}"
        );
    }
    // The result opens the event in its table, details shown.
    let link = select(
        &doc,
        r#"#site-results a[data-name="LONGEST_LAT_CACHE.MISS"]"#,
    )[0];
    let href = link.value().attr("href").unwrap();
    assert!(
        href.starts_with("../../../gen/")
            && href.contains("/events.html#q=LONGEST_LAT_CACHE.MISS&open="),
        "{href}"
    );

    let (_, log) = drive(
        site_dir(),
        "index.html",
        &[
            r#"type($('#site-q'), 'cache miss longest'); return null;"#,
            r#"return Array.from(document.querySelectorAll('#site-results a.hit')).map(a => a.getAttribute('data-name'));"#,
            r#"type($('#site-q'), '0x38F'); return null;"#,
            r#"return Array.from(document.querySelectorAll('#site-results a.hit')).map(a => [a.getAttribute('data-kind'), a.getAttribute('data-name'), a.getAttribute('href')]);"#,
            r#"type($('#site-q'), 'UMASK2'); return null;"#,
            r#"return Array.from(document.querySelectorAll('#site-results a.hit')).map(a => a.getAttribute('data-name'));"#,
            r#"type($('#site-q'), '2E.41'); return null;"#,
            r#"return Array.from(document.querySelectorAll('#site-results a.hit')).map(a => a.getAttribute('data-name'));"#,
            r#"type($('#site-q'), 'PEBS'); return null;"#,
            r#"return Array.from(document.querySelectorAll('#site-results a.hit')).map(a => a.getAttribute('data-kind'));"#,
        ],
    );
    let names = |i: usize| -> Vec<String> {
        log[i]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap_or_default().to_owned())
            .collect()
    };
    // Names the query accounts for entirely come first: both names of LLC misses.
    for want in ["LONGEST_LAT_CACHE.MISS", "LLC_MISSES"] {
        assert!(names(1)[..2].iter().any(|n| n == want), "{:?}", names(1));
    }
    // IA32_PERF_GLOBAL_CTRL is at 38FH (Intel SDM Vol. 4, Table 2-2).
    let by_address = log[3].as_array().unwrap();
    assert!(!by_address.is_empty());
    for hit in by_address {
        assert_eq!(hit[0], "register");
        assert_eq!(hit[1], "IA32_PERF_GLOBAL_CTRL");
        assert!(
            hit[2]
                .as_str()
                .unwrap()
                .ends_with("/reg/IA32_PERF_GLOBAL_CTRL.html")
        );
    }
    assert!(
        names(5).iter().all(|n| n == "IA32_PERFEVTSEL.UMASK2"),
        "{:?}",
        names(5)
    );
    assert!(!names(5).is_empty());
    // Event 2EH, umask 41H: LLC misses (SDM Table 18-1) and the models' names for it.
    for want in ["LLC_MISSES", "LONGEST_LAT_CACHE.MISS"] {
        assert!(names(7).iter().any(|n| n == want), "{want}: {:?}", names(7));
    }
    assert!(names(9).iter().any(|k| k == "field"), "{:?}", names(9));
}

/// A CPU is found by what its user knows: its family/model in each spelling, its name or an
/// abbreviation; the first hit opens the CPU's page and names its generations.
#[test]
fn search_finds_a_cpu_by_family_model_name_and_abbreviation() {
    let queries = [
        ("06_8F", "Sapphire Rapids"),
        ("6-8F", "Sapphire Rapids"),
        ("GenuineIntel-6-8F", "Sapphire Rapids"),
        ("Sapphire Rapids", "Sapphire Rapids"),
        ("SPR", "Sapphire Rapids"),
        ("Zen 4", "Zen 4"),
        ("Genoa", "Genoa"),
    ];
    let mut steps = Vec::new();
    for (q, _) in queries {
        steps.push(format!("type($('#site-q'), '{q}'); return null;"));
        steps.push(
            "const a = document.querySelector('#site-results a.hit'); \
             return a && [a.getAttribute('data-kind'), a.getAttribute('data-name'), \
             a.getAttribute('href'), a.querySelector('.note').textContent];"
                .to_owned(),
        );
    }
    let steps: Vec<&str> = steps.iter().map(String::as_str).collect();
    let (_, log) = drive(site_dir(), "index.html", &steps);
    for (i, (q, want)) in queries.iter().enumerate() {
        let hit = &log[2 * i + 1];
        assert_eq!(hit[0], "cpu", "{q}: {hit}");
        assert_eq!(hit[1], *want, "{q}: {hit}");
        let page = hit[2].as_str().unwrap();
        assert!(
            page.starts_with("cpus/") && page.ends_with(".html"),
            "{q}: {page}"
        );
        assert!(site_dir().join(page).is_file(), "{q}: {page}");
    }
    // The hit says which generation the CPU is.
    assert!(
        log[1][3].as_str().unwrap().contains("intel-sapphirerapids"),
        "{}",
        log[1]
    );
}

#[test]
fn events_table_expands_a_row_and_copies_perf_string_and_value() {
    let g = support::model().generation("intel-skylake").unwrap();
    let e = g
        .events
        .iter()
        .find(|e| e.name == "LONGEST_LAT_CACHE.MISS")
        .unwrap();
    let (doc, log) = drive(
        site_dir(),
        "gen/intel-skylake/events.html#q=2e.41",
        &[
            r#"click($('#ev-LONGEST_LAT_CACHE\\.MISS button.more')); return location.hash;"#,
            r#"click($('#ev-LONGEST_LAT_CACHE\\.MISS td.c-perf button.copy')); return null;"#,
            r#"click($('#ev-LONGEST_LAT_CACHE\\.MISS td.c-value button.copy')); return null;"#,
        ],
    );
    let hash = log[0].as_str().unwrap();
    assert!(hash.contains("open=LONGEST_LAT_CACHE.MISS"), "{hash}");
    // The details row follows its row, shows the rest of the attributes in words.
    let details = one(&doc, "#ev-LONGEST_LAT_CACHE\\.MISS + tr.details");
    assert!(details.value().attr("hidden").is_none());
    let errata: String = text(one_in(details, r#"dd[data-key="errata"]"#));
    assert_eq!(errata, e.errata.join(", "));
    let button = one(&doc, "#ev-LONGEST_LAT_CACHE\\.MISS button.more");
    assert_eq!(button.value().attr("aria-expanded"), Some("true"));
    // What `cargo xtask encode --model intel-skylake LONGEST_LAT_CACHE.MISS` gives.
    let enc = pmu_defs::encode::Encoder::new(support::model())
        .encode_in(g, &pmu_defs::encode::Request::new(e.name.clone()))
        .unwrap();
    let copied = |css: &str| {
        one(&doc, css)
            .value()
            .attr("data-copied")
            .unwrap_or_else(|| panic!("{css} copied nothing"))
            .to_owned()
    };
    assert_eq!(
        copied("#ev-LONGEST_LAT_CACHE\\.MISS td.c-perf button.copy"),
        enc.perf
    );
    assert_eq!(
        copied("#ev-LONGEST_LAT_CACHE\\.MISS td.c-value button.copy"),
        format!("0x{:X}", enc.value)
    );
    // The filter still applies: 2E.41 rows only, the details row with its row.
    let visible: Vec<&str> = select(&doc, "#ev-body tr[id]:not([hidden])")
        .iter()
        .map(|r| r.value().attr("id").unwrap())
        .collect();
    assert!(
        visible.contains(&"ev-LONGEST_LAT_CACHE.MISS"),
        "{visible:?}"
    );
}

#[test]
fn register_page_copies_its_rust_snippet() {
    let (doc, _) = drive(
        site_dir(),
        "gen/intel-v3/reg/IA32_PERFEVTSEL.html",
        &[r#"click($('.snippet button.copy')); return null;"#],
    );
    let snippet = text(one(&doc, "#rust-snippet"));
    assert!(snippet.contains("use pmu_regs::intel::v3::IA32_PERFEVTSEL;"));
    let button = one(&doc, ".snippet button.copy");
    assert_eq!(button.value().attr("data-copied"), Some(snippet.as_str()));
}

/// For one event of every generation with events, the decoder (in the browser) names the
/// same exact matches for the value `cargo xtask encode` gives as `cargo xtask decode` does.
#[test]
fn decoder_agrees_with_cargo_xtask_decode_for_every_generation() {
    let m = support::model();
    let enc = pmu_defs::encode::Encoder::new(m);
    let mut cases: Vec<(String, String, u64)> = Vec::new();
    for g in m.generations.iter().filter(|g| !g.events.is_empty()) {
        let Some(select) = g.pmu.general.as_ref().map(|s| s.select.clone()) else {
            continue;
        };
        let Some(value) = g
            .events
            .iter()
            .skip(g.events.len() / 2)
            .chain(&g.events)
            .filter(|e| !e.counters.is_empty())
            .find_map(|e| {
                enc.encode_in(g, &pmu_defs::encode::Request::new(e.name.clone()))
                    .ok()
                    .filter(|x| x.register == select)
                    .map(|x| x.value)
            })
        else {
            continue;
        };
        cases.push((g.id.clone(), select, value));
    }
    assert!(cases.len() > 10, "{}", cases.len());
    let mut steps: Vec<String> = Vec::new();
    for (id, _, value) in &cases {
        steps.push(format!(
            "var s = $('#d-gen'); s.value = {id:?}; s.dispatchEvent(new Event('change')); return null;"
        ));
        steps.push(format!(
            "type($('#d-val'), '0x{value:X}'); var m = $('#d-event'); return [$('#d-out').getAttribute('data-gen'), m ? m.getAttribute('data-match') : null, Array.from(document.querySelectorAll('#d-event > a[data-event]')).map(a => a.getAttribute('data-event')).sort()];"
        ));
    }
    let refs: Vec<&str> = steps.iter().map(String::as_str).collect();
    let (_, log) = drive(site_dir(), "decoder.html", &refs);
    for (i, (id, select, value)) in cases.iter().enumerate() {
        let page = &log[2 * i + 1];
        assert_eq!(page[0], id.as_str(), "{id}: the decoder shows {page}");
        let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args([
                "decode",
                "--json",
                "--model",
                id,
                select,
                &format!("0x{value:X}"),
            ])
            .current_dir(workspace_root())
            .output()
            .unwrap();
        let decoded: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{id}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        let mut exact: Vec<String> = decoded["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["differs"].as_array().is_some_and(|d| d.is_empty()))
            .map(|e| e["name"].as_str().unwrap().to_owned())
            .collect();
        exact.sort();
        let shown: Vec<String> = page[2]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect();
        assert!(
            !exact.is_empty(),
            "{id} 0x{value:X}: decode matched nothing"
        );
        assert_eq!(page[1], "exact", "{id} 0x{value:X}");
        assert_eq!(shown, exact, "{id} 0x{value:X}");
    }
}

/// One screenshot of each kind of page (and of the search results), for CI to keep as
/// artifacts: `target/docs-screenshots/<kind>.png`.
#[test]
fn screenshots_of_every_page_kind() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("docs-screenshots");
    std::fs::create_dir_all(&out).unwrap();
    let pages = [
        ("index", "index.html"),
        ("generation", "gen/intel-v3/index.html"),
        ("cpu", "cpus/alder-lake.html"),
        ("register", "gen/intel-v3/reg/IA32_PERFEVTSEL.html"),
        ("diff", "gen/intel-v6/diff.html"),
        (
            "events",
            "gen/intel-skylake/events.html#q=2e.41&open=LONGEST_LAT_CACHE.MISS",
        ),
        (
            "decoder",
            "decoder.html#gen=intel-v3&reg=IA32_PERFEVTSEL&value=0x43412E",
        ),
        ("search", "gen/intel-v3/index.html?search=llc+miss"),
        ("yaml", "yaml.html"),
        ("findings", "findings.html"),
    ];
    for (kind, page) in pages {
        let file = out.join(format!("{kind}.png"));
        let _ = std::fs::remove_file(&file);
        chromium_run(
            site_dir(),
            page,
            &[
                "--virtual-time-budget=5000".into(),
                "--window-size=1280,1000".into(),
                "--hide-scrollbars".into(),
                format!("--screenshot={}", file.display()),
            ],
        );
        let png = std::fs::read(&file).unwrap_or_else(|e| panic!("{kind}: {e}"));
        assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000, "{kind}");
    }
    eprintln!("screenshots in {}", out.display());
}
