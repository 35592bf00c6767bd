//! Issue 29's user tasks, each in at most two steps from the home page: (1) type a query in
//! the home page's search box, (2) open its first hit (what Enter in the box opens). Each
//! hit's page is then loaded at 1366 px and what the task needs checked on screen.

use super::driver::*;
use super::support;
use pmu_defs::encode::{Encoder, Request};
use pmu_defs::model::Generation;

/// What one task types, and the first hit it must get: its kind, name, generation and page.
struct Task {
    query: &'static str,
    kind: &'static str,
    name: &'static str,
    generation: Option<&'static str>,
    page: &'static str,
}

const TASKS: [Task; 5] = [
    Task {
        query: "SPR IA32_PERFEVTSEL",
        kind: "register",
        name: "IA32_PERFEVTSEL",
        generation: Some("intel-sapphirerapids"),
        // Sapphire Rapids inherits its definition: the register is a row of its page.
        page: "gen/intel-sapphirerapids/index.html#reg-IA32_PERFEVTSEL",
    },
    Task {
        query: "MEM_LOAD_RETIRED.L3_MISS spr",
        kind: "event",
        name: "MEM_LOAD_RETIRED.L3_MISS",
        generation: Some("intel-sapphirerapids"),
        page: "gen/intel-sapphirerapids/events.html#ev-MEM_LOAD_RETIRED.L3_MISS",
    },
    Task {
        query: "zen 4 ex_ret_instr",
        kind: "event",
        name: "ex_ret_instr",
        generation: Some("amd-zen4"),
        page: "gen/amd-zen4/events.html#ev-ex_ret_instr",
    },
    Task {
        query: "06_8F",
        kind: "cpu",
        name: "Sapphire Rapids",
        generation: None,
        page: "cpus/sapphire-rapids.html",
    },
    Task {
        query: "decode 0x004301d1 spr",
        kind: "decode",
        name: "0x004301D1",
        generation: Some("intel-sapphirerapids"),
        page: "decoder.html#gen=intel-sapphirerapids&value=0x004301D1",
    },
];

/// Step 1 of every task: the first hit of each query typed on the home page, as
/// `[kind, name, generation, href, note]`.
fn first_hits(queries: &[&str]) -> Vec<serde_json::Value> {
    first_hits_on("index.html", queries)
}

/// The first hit of each query typed in the search box of `page`, as `[kind, name,
/// generation, href, note]`, then the results box's `data-cpu` and `data-here` (the CPU or
/// generation the query names, the page's generations listed first) and every hit's kind.
pub(super) fn first_hits_on(page: &str, queries: &[&str]) -> Vec<serde_json::Value> {
    let mut steps = Vec::new();
    for q in queries {
        steps.push(format!("type($('#site-q'), {q:?}); return null;"));
        steps.push(
            "var a = $('#site-results a.hit'), b = $('#site-results'); return a && \
             [a.getAttribute('data-kind'), a.getAttribute('data-name'), a.getAttribute('data-gen'), \
             a.getAttribute('href'), a.querySelector('.note').textContent, \
             b.getAttribute('data-cpu'), b.getAttribute('data-here'), \
             Array.from(b.querySelectorAll('a.hit')).map(h => h.getAttribute('data-kind'))];"
                .to_owned(),
        );
    }
    let steps: Vec<&str> = steps.iter().map(String::as_str).collect();
    let (_, log) = drive_with(site_dir(), page, &steps, Viewport::Window(1366, 900));
    (0..queries.len()).map(|i| log[2 * i + 1].clone()).collect()
}

/// Where an element is on screen: `[left, top, right, bottom]`, then the viewport's width and
/// height and the page's scroll width, for the element `css`.
const ON_SCREEN: &str = "var r = $(CSS).getBoundingClientRect(); \
    return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight, document.documentElement.scrollWidth, $(CSS).textContent];";

fn on_screen(css: &str) -> String {
    ON_SCREEN.replace("CSS", &format!("{css:?}"))
}

/// The element a step measured is entirely in the viewport, which does not scroll sideways.
fn assert_visible(what: &str, m: &serde_json::Value) {
    let n = |i: usize| m[i].as_f64().unwrap_or_else(|| panic!("{what}: {m}"));
    let (left, top, right, bottom, width, height, scroll) =
        (n(0), n(1), n(2), n(3), n(4), n(5), n(6));
    assert!(right > left && bottom > top, "{what} is not drawn: {m}");
    assert!(
        left >= 0.0 && right <= width && top >= 0.0 && bottom <= height,
        "{what} is off screen: {m}"
    );
    assert!(scroll <= width, "the page scrolls sideways: {m}");
}

fn spr() -> &'static Generation {
    support::model().generation("intel-sapphirerapids").unwrap()
}

#[test]
fn each_user_task_takes_at_most_two_steps_from_the_home_page() {
    let queries: Vec<&str> = TASKS.iter().map(|t| t.query).collect();
    let hits = first_hits(&queries);
    for (t, hit) in TASKS.iter().zip(&hits) {
        assert_eq!(hit[0], t.kind, "{}: {hit}", t.query);
        assert_eq!(hit[1], t.name, "{}: {hit}", t.query);
        assert_eq!(hit[2].as_str(), t.generation, "{}: {hit}", t.query);
        assert_eq!(hit[3], t.page, "{}: {hit}", t.query);
    }
    let open = |i: usize, steps: &[&str]| {
        let page = hits[i][3].as_str().unwrap();
        drive_with(site_dir(), page, steps, Viewport::Window(1366, 900))
    };

    // Sapphire Rapids' IA32_PERFEVTSEL, its row on Sapphire Rapids' page scrolled into view:
    // its name, its fields (its own bits: ADAPTIVE_RECORD, which intel-v3's lacks) and its
    // Rust path on screen, the name linking to the page of the definition.
    let row = "#reg-IA32_PERFEVTSEL";
    let (doc, log) = open(
        0,
        &[
            &on_screen(&format!("{row} td:first-child > a code")),
            &on_screen(&format!("{row} code.rust-path")),
        ],
    );
    assert_eq!(
        one(&doc, "main").value().attr("data-gen"),
        Some("intel-sapphirerapids")
    );
    assert_visible("the register's name", &log[0]);
    assert_visible("its Rust path", &log[1]);
    assert_eq!(log[0][7], "IA32_PERFEVTSEL");
    assert_eq!(
        log[1][7],
        "pmu_regs::intel::sapphirerapids::IA32_PERFEVTSEL"
    );
    let r = spr().register("IA32_PERFEVTSEL").unwrap();
    assert!(text(one(&doc, row)).contains("ADAPTIVE_RECORD"));
    let home = format!("../../gen/{}/reg/IA32_PERFEVTSEL.html", r.defined_in);
    assert_eq!(
        one(&doc, &format!("{row} td:first-child > a"))
            .value()
            .attr("href"),
        Some(home.as_str())
    );

    // MEM_LOAD_RETIRED.L3_MISS on Sapphire Rapids: its row open, its perf string and encoded
    // value on screen at 1366 px, the value `cargo xtask encode` gives.
    let row = r"#ev-MEM_LOAD_RETIRED\.L3_MISS";
    let (doc, log) = open(
        1,
        &[
            &on_screen(&format!("{row} td.c-name code")),
            &on_screen(&format!("{row} td.c-perf code")),
            &on_screen(&format!("{row} td.c-value code")),
        ],
    );
    for (what, m) in ["name", "perf string", "value"].iter().zip(&log) {
        assert_visible(what, m);
    }
    let e = Encoder::new(support::model())
        .encode_in(spr(), &Request::new("MEM_LOAD_RETIRED.L3_MISS"))
        .unwrap();
    assert_eq!(log[0][7], "MEM_LOAD_RETIRED.L3_MISS");
    assert_eq!(log[1][7], e.perf.as_str());
    assert_eq!(log[2][7], format!("0x{:X}", e.value).as_str());
    let details = one(&doc, &format!("{row} + tr.details"));
    assert!(details.value().attr("hidden").is_none());

    // Zen 4's ex_ret_instr: its row, open, on amd-zen4's table.
    let (doc, log) = open(2, &[&on_screen("#ev-ex_ret_instr td.c-name code")]);
    assert_eq!(one(&doc, "main").value().attr("data-gen"), Some("amd-zen4"));
    assert_visible("ex_ret_instr", &log[0]);
    assert_eq!(log[0][7], "ex_ret_instr");
    assert!(
        one(&doc, "#ev-ex_ret_instr + tr.details")
            .value()
            .attr("hidden")
            .is_none()
    );

    // The page of the CPU 06_8F: Sapphire Rapids, its family/model shown.
    let (doc, log) = open(3, &[&on_screen("h1")]);
    assert_visible("the CPU's name", &log[0]);
    assert_eq!(log[0][7], "Sapphire Rapids");
    assert!(text(one(&doc, "main")).contains("06_8F"));

    // 0x004301D1 decoded as a Sapphire Rapids event: the events that encode to it, named.
    let (doc, log) = open(4, &[&on_screen("#d-event")]);
    assert_visible("the decoded event", &log[0]);
    let out = one(&doc, "#d-out");
    assert_eq!(out.value().attr("data-gen"), Some("intel-sapphirerapids"));
    let evtsel = spr().pmu.general.as_ref().unwrap().select.clone();
    assert_eq!(out.value().attr("data-reg"), Some(evtsel.as_str()));
    // What `cargo xtask decode --model intel-sapphirerapids IA32_PERFEVTSEL 0x004301D1` names.
    let enc = Encoder::new(support::model());
    let address = enc.register_address(spr(), &evtsel).unwrap();
    let decoded = enc.decode_in(spr(), address, 0x0043_01D1).unwrap();
    let want: Vec<&str> = (decoded.events.iter())
        .filter(|e| e.differs.is_empty())
        .map(|e| e.name)
        .collect();
    assert!(!want.is_empty());
    let shown: Vec<&str> = select(&doc, "#d-event > a[data-event]")
        .iter()
        .map(|a| a.value().attr("data-event").unwrap())
        .collect();
    assert_eq!(
        one(&doc, "#d-event").value().attr("data-match"),
        Some("exact")
    );
    assert_eq!(shown, want);
}
