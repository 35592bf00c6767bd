//! The event table at 1366 px (its values visible, sorting, filters, permalinks with the Rust
//! path, a large table drawn in parts), the sidebar's tree, and every kind of page at 390 px.

use super::driver::*;
use super::support;
use pmu_defs::model::{Event, Generation};

fn spr() -> &'static Generation {
    support::model().generation("intel-sapphirerapids").unwrap()
}

/// Sapphire Rapids' parent (`intel-goldencove-family`) and the first register it defines, with
/// its page (Sapphire Rapids defines none: its registers are rows of its page).
fn family_register() -> (&'static Generation, &'static str, String) {
    let m = support::model();
    let g = m.generation(spr().extends.as_deref().unwrap()).unwrap();
    let r = (g.registers.iter()).find(|r| r.defined_in == g.id).unwrap();
    (g, &r.name, format!("gen/{}/reg/{}.html", g.id, r.name))
}

/// The row ids (`ev-NAME`) a step returned.
fn names(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().trim_start_matches("ev-").to_owned())
        .collect()
}

fn code_key(e: &Event) -> (u32, u32, u32) {
    (e.event, e.umask, e.umask2.unwrap_or(0))
}

const VISIBLE_IDS: &str = "return Array.from(document.querySelectorAll('#ev-body tr[id]')).filter(function (t) { return !t.hidden; }).map(function (t) { return t.id; });";

#[test]
fn events_table_fits_1366px_and_sorts_and_filters_by_its_headers_and_boxes() {
    let g = spr();
    let steps = [
        // 0: the table fits: MEM_LOAD_RETIRED.L3_MISS's perf string and value are on screen.
        "var r = $('#ev-MEM_LOAD_RETIRED\\\\.L3_MISS'); var right = function (css) { return r.querySelector(css).getBoundingClientRect().right; }; \
         return [innerWidth, document.documentElement.scrollWidth, right('td.c-perf code'), right('td.c-value code'), right('td.c-value button.copy'), r.querySelector('td.c-perf code').textContent, r.querySelector('td.c-value code').textContent];",
        // 1, 2: sort by code, then the other way.
        "click($('th.c-code button.sort')); return $('th.c-code').getAttribute('aria-sort');",
        VISIBLE_IDS,
        "click($('th.c-code button.sort')); return [$('th.c-code').getAttribute('aria-sort'), $('th.c-name').getAttribute('aria-sort')];",
        VISIBLE_IDS,
        // 5: precise events only.
        "click($('#ev-facets input[data-tag=\"precise\"]')); return null;",
        VISIBLE_IDS,
        // 7: and counted by general-purpose counter 0.
        "var s = $('#ev-counter'); s.value = 'g0'; s.dispatchEvent(new Event('change', { bubbles: true })); return [location.hash, $('#ev-count').textContent];",
        VISIBLE_IDS,
    ];
    let (_, log) = drive_with(
        site_dir(),
        "gen/intel-sapphirerapids/events.html",
        &steps,
        Viewport::Window(1366, 900),
    );
    let fit = &log[0];
    let width = fit[0].as_f64().unwrap();
    assert!(fit[1].as_f64().unwrap() <= width, "page scrolls: {fit}");
    for i in 2..5 {
        assert!(fit[i].as_f64().unwrap() <= width, "off screen: {fit}");
    }
    let e = g
        .events
        .iter()
        .find(|e| e.name == "MEM_LOAD_RETIRED.L3_MISS")
        .unwrap();
    let enc = pmu_defs::encode::Encoder::new(support::model())
        .encode_in(g, &pmu_defs::encode::Request::new(e.name.clone()))
        .unwrap();
    assert_eq!(fit[5], enc.perf.as_str());
    assert_eq!(fit[6], format!("0x{:X}", enc.value).as_str());

    // Sorted by event code, unit mask (and second unit mask); ties keep the model's order.
    assert_eq!(log[1], "ascending");
    let mut up: Vec<&Event> = g.events.iter().collect();
    up.sort_by_key(|e| code_key(e));
    let want: Vec<&str> = up.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names(&log[2]), want);
    assert_eq!(log[3][0], "descending");
    assert!(log[3][1].is_null(), "one column sorted at a time");
    let mut down: Vec<&Event> = g.events.iter().collect();
    down.sort_by_key(|e| std::cmp::Reverse(code_key(e)));
    let down_names: Vec<&str> = down.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names(&log[4]), down_names);

    // The filters keep the rows whose tags have each one, in the sorted order.
    let has = |e: &Event, t: &str| pmu_site::events::filter_tags(e).iter().any(|x| x == t);
    let precise: Vec<&str> = down
        .iter()
        .filter(|e| has(e, "precise"))
        .map(|e| e.name.as_str())
        .collect();
    assert!(!precise.is_empty());
    assert_eq!(names(&log[6]), precise);
    let hash = log[7][0].as_str().unwrap();
    for part in ["only=precise", "counter=g0", "sort=-code"] {
        assert!(hash.contains(part), "{hash}");
    }
    let on_g0: Vec<&str> = down
        .iter()
        .filter(|e| has(e, "precise") && e.counters.contains(&0))
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(names(&log[8]), on_g0);
    assert!(
        log[7][1].as_str().unwrap().contains(&format!(
            "Showing {} of {}",
            on_g0.len(),
            g.events.len()
        )),
        "{}",
        log[7][1]
    );
}

#[test]
fn an_event_permalink_opens_its_row_with_the_rust_path_to_copy() {
    let (doc, log) = drive(
        site_dir(),
        "gen/intel-sapphirerapids/events.html#ev-MEM_LOAD_RETIRED.L3_MISS",
        &[
            "var b = $('#ev-MEM_LOAD_RETIRED\\\\.L3_MISS + tr.details dd[data-key=\"rust\"] button.copy'); click(b); return b.getAttribute('data-copied');",
            "return $('#ev-MEM_LOAD_RETIRED\\\\.L3_MISS td.c-name a.permalink').getAttribute('href');",
        ],
    );
    let path = "pmu_regs::intel::sapphirerapids::events::Event::MemLoadRetired_L3Miss";
    assert_eq!(log[0], path);
    assert_eq!(log[1], "#ev-MEM_LOAD_RETIRED.L3_MISS");
    let details = one(&doc, "#ev-MEM_LOAD_RETIRED\\.L3_MISS + tr.details");
    assert!(details.value().attr("hidden").is_none());
    assert_eq!(text(one_in(details, r#"dd[data-key="rust"] code"#)), path);
    // The path links to the variant's rustdoc on docs.rs.
    let link = one_in(details, r#"dd[data-key="rust"] a.rustdoc"#);
    assert_eq!(
        link.value().attr("href"),
        Some(
            format!(
                "https://docs.rs/pmu-regs/{}/pmu_regs/intel/sapphirerapids/events/enum.Event.html#variant.MemLoadRetired_L3Miss",
                env!("CARGO_PKG_VERSION")
            )
            .as_str()
        )
    );
}

#[test]
fn the_sidebar_tree_opens_the_current_branch_and_toggles() {
    let m = support::model();
    let (g, reg, page) = family_register();
    let has_kids = |id: &str| {
        m.generations
            .iter()
            .any(|x| x.extends.as_deref() == Some(id))
    };
    let mut open: Vec<&str> = g
        .ancestors
        .iter()
        .map(String::as_str)
        .chain([g.id.as_str()])
        .filter(|id| has_kids(id))
        .collect();
    open.sort_unstable();
    let closed = m
        .generations
        .iter()
        .find(|x| has_kids(&x.id) && !open.contains(&x.id.as_str()))
        .unwrap();
    let (_, log) = drive(
        site_dir(),
        &page,
        &[
            "return Array.from(document.querySelectorAll('#nav-tree li.gen')).filter(function (li) { var b = li.querySelector(':scope > .row > button.twisty'); return b && b.getAttribute('aria-expanded') === 'true'; }).map(function (li) { return li.getAttribute('data-gen'); }).sort();",
            "return Array.from(document.querySelectorAll('#nav-tree [aria-current=\"page\"]')).map(function (a) { return a.textContent; });",
            &format!(
                "var li = $('#nav-tree li.gen[data-gen=\"{}\"]'); var before = li.querySelector(':scope > ul').hidden; click(li.querySelector(':scope > .row > button.twisty')); return [before, li.querySelector(':scope > ul').hidden];",
                closed.id
            ),
        ],
    );
    let expanded: Vec<String> = log[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(expanded, open);
    assert_eq!(log[1], serde_json::json!([reg]));
    assert_eq!(log[2], serde_json::json!([true, false]), "{}", closed.id);
}

/// At 390 px the sidebar's links and tree fold behind a button, closed at first (the page
/// starts near the top); opened, the current generation's branch is open and the current
/// page marked. At 1366 px there is no button and the tree shows.
#[test]
fn the_sidebar_folds_behind_a_button_on_a_phone() {
    let state = "var b = $('.sidebar .navtoggle'), t = $('#nav-tree [aria-current=\"page\"]');         return [getComputedStyle($('#nav-body')).display, getComputedStyle(b).display, b.getAttribute('aria-expanded'),         Math.round($('#main').getBoundingClientRect().top), t ? t.getBoundingClientRect().height > 0 : null,         Array.from(document.querySelectorAll('#nav-tree li.gen')).filter(function (li) { var x = li.querySelector(':scope > .row > button.twisty'); return x && x.getAttribute('aria-expanded') === 'true'; }).map(function (li) { return li.getAttribute('data-gen'); }).indexOf('GEN') !== -1];";
    let click = "click($('.sidebar .navtoggle')); return null;";
    let (g, _, page) = family_register();
    let state = state.replace("GEN", &g.id);
    let state = state.as_str();
    let (_, log) = drive_with(
        site_dir(),
        &page,
        &[state, click, state, click, state],
        Viewport::Frame(390, 844),
    );
    // Closed: no links, the page's heading within the first screen's top third.
    assert_eq!(log[0][0], "none", "{}", log[0]);
    assert_eq!(log[0][1], "block", "{}", log[0]);
    assert_eq!(log[0][2], "false", "{}", log[0]);
    assert!(log[0][3].as_i64().unwrap() < 280, "{}", log[0]);
    // Open: the current page shown, its generation's branch open.
    assert_eq!(log[2][0], "block", "{}", log[2]);
    assert_eq!(log[2][2], "true", "{}", log[2]);
    assert_eq!(log[2][4], true, "{}", log[2]);
    assert_eq!(log[2][5], true, "{}", log[2]);
    // Closed again.
    assert_eq!(log[4][0], "none", "{}", log[4]);
    assert_eq!(log[4][2], "false", "{}", log[4]);

    let (_, wide) = drive_with(site_dir(), &page, &[state], Viewport::Window(1366, 900));
    assert_eq!(wide[0][0], "block", "{}", wide[0]);
    assert_eq!(wide[0][1], "none", "{}", wide[0]);
    assert_eq!(wide[0][4], true, "{}", wide[0]);
}

/// What sticks out of the viewport and is not inside a box that scrolls on its own.
const OVERFLOW: &str = "var W = document.documentElement.clientWidth, bad = []; \
    function scroller(e) { for (var p = e.parentElement; p; p = p.parentElement) { var o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll' || o === 'hidden') return p; } return null; } \
    document.querySelectorAll('body *').forEach(function (e) { var r = e.getBoundingClientRect(); if (r.width === 0 || r.right <= W + 1) return; var s = scroller(e); if (s && s.getBoundingClientRect().right <= W + 1) return; \
      bad.push(e.tagName + '.' + (typeof e.className === 'string' ? e.className : '') + ' ' + Math.round(r.right)); }); \
    return [W, document.documentElement.scrollWidth, bad.slice(0, 10)];";

#[test]
fn every_kind_of_page_fits_390px() {
    let pages = [
        "index.html",
        "cpus/sapphire-rapids.html",
        "gen/intel-sapphirerapids/index.html",
        "gen/intel-v5/reg/IA32_PERFEVTSEL.html",
        "gen/intel-sapphirerapids/events.html#ev-MEM_LOAD_RETIRED.L3_MISS",
        "gen/intel-v5/diff.html",
        "decoder.html#gen=intel-sapphirerapids&reg=IA32_PERFEVTSEL&value=0x4301D1",
        "yaml.html",
    ];
    for page in pages {
        let (_, log) = drive_with(site_dir(), page, &[OVERFLOW], Viewport::Frame(390, 844));
        assert_eq!(log[0][0], 390, "{page}");
        assert_eq!(log[0][1], 390, "{page} scrolls sideways: {}", log[0]);
        assert_eq!(log[0][2], serde_json::json!([]), "{page}");
    }
}

#[test]
fn the_decoders_event_field_finds_an_event_by_name() {
    let g = spr();
    let e = g
        .events
        .iter()
        .find(|e| e.name == "MEM_LOAD_RETIRED.L3_MISS")
        .unwrap();
    let enc = pmu_defs::encode::Encoder::new(support::model())
        .encode_in(g, &pmu_defs::encode::Request::new(e.name.clone()))
        .unwrap();
    let (doc, log) = drive_with(
        site_dir(),
        "decoder.html#gen=intel-sapphirerapids&reg=IA32_PERFEVTSEL",
        &[
            "return [$('#d-ev').tagName, $('#d-ev').getAttribute('list'), document.querySelectorAll('#d-ev-list option').length];",
            "type($('#d-ev'), 'mem_load_retired.l3_mis'); return $('#d-val').value;",
            "type($('#d-ev'), 'MEM_LOAD_RETIRED.L3_MISS'); return $('#d-val').value;",
        ],
        Viewport::Frame(390, 844),
    );
    assert_eq!(
        log[0],
        serde_json::json!(["INPUT", "d-ev-list", g.events.len()])
    );
    // Part of a name fills nothing; the whole name fills the value `cargo xtask encode` gives.
    assert_eq!(log[1], "");
    let shown = log[2].as_str().unwrap().trim_start_matches("0x");
    assert_eq!(u64::from_str_radix(shown, 16).unwrap(), enc.value);
    let _ = doc;
}

/// Cascade Lake X's 2,351 events: the page shows its first rows before drawing the rest in
/// parts (the table busy meanwhile); a filter typed before then covers every row; in the end
/// every row is there, in the model's order.
#[test]
fn a_large_event_table_draws_its_first_rows_at_once_and_the_rest_in_parts() {
    let g = support::model().generation("intel-cascadelakex").unwrap();
    let site = site_dir();
    let page = "gen/intel-cascadelakex/events.html";
    // What the page has when its scripts have run, before any later task.
    let probe = "<script>window.__atLoad = [document.querySelectorAll('#ev-body tr[id]').length, \
         document.getElementById('ev-table').getAttribute('aria-busy')];\n\
         var q = document.getElementById('ev-q'); q.value = 'l2_rqsts';\n\
         q.dispatchEvent(new Event('input', { bubbles: true }));\n\
         window.__filtered = document.querySelectorAll('#ev-body tr[id]:not([hidden])').length;</script>\n</body>";
    let src = std::fs::read_to_string(site.join(page)).unwrap();
    let copy = format!("gen/intel-cascadelakex/events.parts-{}.html", unique());
    std::fs::write(site.join(&copy), src.replacen("</body>", probe, 1)).unwrap();
    let (_, log) = drive(
        site,
        &copy,
        &[
            "return [window.__atLoad, window.__filtered, document.querySelectorAll('#ev-body tr[id]').length, $('#ev-table').getAttribute('aria-busy')];",
            "type($('#ev-q'), ''); return null;",
            VISIBLE_IDS,
        ],
    );
    let _ = std::fs::remove_file(site.join(&copy));
    let first = log[0][0][0].as_u64().unwrap() as usize;
    assert!(first > 0 && first < g.events.len() / 4, "{}", log[0]);
    assert_eq!(log[0][0][1], "true", "{}", log[0]);
    let l2 = g
        .events
        .iter()
        .filter(|e| e.name.to_lowercase().contains("l2_rqsts"))
        .count();
    assert!(l2 > 0);
    assert_eq!(log[0][1], l2, "{}", log[0]);
    assert_eq!(log[0][2], g.events.len(), "{}", log[0]);
    assert!(log[0][3].is_null(), "{}", log[0]);
    let want: Vec<&str> = g.events.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names(&log[2]), want);
}
