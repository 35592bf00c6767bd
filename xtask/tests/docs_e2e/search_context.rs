//! What the site search reads besides names (issue 29, "What to build" 2): on a generation's
//! or a CPU's page that generation's items come first; a generation id names a generation as a
//! CPU's name does; instance names (`IA32_PERFEVTSEL0`, `PerfEvtSel3`), bare and AMD-style
//! addresses (`186`, `C0010200`, `MSRC001_0200`), Intel's `D1H` and perf's terms find their
//! register or event. Every query is typed in the page's search box; what it must find is
//! read from the definitions.

use super::support;
use super::two_steps::first_hits_on;
use pmu_defs::encode::{Encoder, Request};
use pmu_defs::model::{Generation, Register};
use pmu_defs::vocab::RegisterRole;

const SPR: &str = "intel-sapphirerapids";
const ZEN4: &str = "amd-zen4";
const L3_MISS: &str = "MEM_LOAD_RETIRED.L3_MISS";

fn generation(id: &str) -> &'static Generation {
    support::model().generation(id).unwrap()
}

fn register(g: &Generation, role: RegisterRole) -> &Register {
    (g.registers.iter())
        .find(|r| r.role == Some(role))
        .unwrap_or_else(|| panic!("{}: no {role:?}", g.id))
}

/// The first hit is `kind` `name` on generation `on` (`None`: the entry's own pages), its link
/// ending in `href`.
fn assert_first(q: &str, hit: &serde_json::Value, kind: &str, name: &str, on: Option<&str>) {
    assert_eq!(hit[0], kind, "{q}: {hit}");
    assert_eq!(hit[1], name, "{q}: {hit}");
    assert_eq!(hit[2].as_str(), on, "{q}: {hit}");
    // The hit says which generation it is on.
    let note = hit[4].as_str().unwrap();
    if let Some(g) = on {
        assert!(note.ends_with(g), "{q}: {hit}");
        // A register's page where the generation defines it, else its row on its page.
        let page = match kind {
            "event" => format!("gen/{g}/events.html#ev-{name}"),
            _ if generation(g).register(name).unwrap().defined_in == g => {
                format!("gen/{g}/reg/{name}.html")
            }
            _ => format!("gen/{g}/index.html#reg-{name}"),
        };
        assert!(hit[3].as_str().unwrap().ends_with(&page), "{q}: {hit}");
    }
}

/// On Sapphire Rapids' pages (its own, its event table, its CPU page) a plain name opens
/// Sapphire Rapids' own register or event, which the home page ranks among the others.
#[test]
fn search_ranks_the_pages_generation_first() {
    let g = generation(SPR);
    let select = &register(g, RegisterRole::EventSelect).name;
    for page in [
        format!("gen/{SPR}/index.html"),
        format!("gen/{SPR}/events.html"),
        "cpus/sapphire-rapids.html".to_owned(),
    ] {
        let hits = first_hits_on(&page, &[select, L3_MISS, "0x004301d1"]);
        assert_first(select, &hits[0], "register", select, Some(SPR));
        assert_first(L3_MISS, &hits[1], "event", L3_MISS, Some(SPR));
        assert_eq!(
            hits[0][6], SPR,
            "{page}: the page's generation is listed first"
        );
        // A value is decoded as an event of the page's generation.
        assert_eq!(hits[2][0], "decode", "{page}: {}", hits[2]);
        assert_eq!(hits[2][2], SPR, "{page}: {}", hits[2]);
    }
    // The home page has no generation of its own: the same query opens the entry's own page.
    let home = first_hits_on("index.html", &[select]);
    assert!(home[0][2].is_null() && home[0][6].is_null(), "{}", home[0]);
}

/// A generation's id, whole or without its vendor's word, names it as a CPU's name does; a
/// word of a register's name that is also a generation's (`core` of `amd-core`) does not.
#[test]
fn search_reads_a_generation_id_as_a_cpu() {
    let short = |id: &'static str| id.split_once('-').unwrap().1;
    let spr_select = register(generation(SPR), RegisterRole::EventSelect)
        .name
        .clone();
    let zen4_select = register(generation(ZEN4), RegisterRole::EventSelect)
        .name
        .clone();
    let ex_ret = "ex_ret_instr";
    assert!(generation(ZEN4).events.iter().any(|e| e.name == ex_ret));
    let queries = [
        format!("{} {spr_select}", short(SPR)),
        format!("{SPR} {spr_select}"),
        format!("{} {ex_ret}", short(ZEN4)),
        format!("{ex_ret} {ZEN4}"),
        zen4_select.clone(),
        short(SPR).to_owned(),
        format!("decode 0x004301d1 {}", short(SPR)),
    ];
    let q: Vec<&str> = queries.iter().map(String::as_str).collect();
    let hits = first_hits_on("index.html", &q);
    for i in 0..2 {
        assert_first(q[i], &hits[i], "register", &spr_select, Some(SPR));
        assert_eq!(hits[i][5], SPR, "{}: {}", q[i], hits[i]);
    }
    for i in 2..4 {
        assert_first(q[i], &hits[i], "event", ex_ret, Some(ZEN4));
        assert_eq!(hits[i][5], ZEN4, "{}: {}", q[i], hits[i]);
    }
    assert_first(q[4], &hits[4], "register", &zen4_select, None);
    assert!(hits[4][5].is_null(), "{}: {}", q[4], hits[4]);
    // The id alone finds the generation's page.
    assert_eq!(hits[5][0], "generation", "{}", hits[5]);
    assert_eq!(hits[5][1], SPR, "{}", hits[5]);
    // A value with a generation's id is decoded on that generation.
    assert_eq!(hits[6][0], "decode", "{}", hits[6]);
    assert_eq!(hits[6][2], SPR, "{}", hits[6]);
}

/// Each register family is found by its instances' names as the definitions make them (name
/// and index; AMD's legacy selects also written as one word, `PerfEvtSel3`), and by any of its
/// addresses without `0x`, or in AMD's `MSRC001_0200` notation, before the decoder's hit.
#[test]
fn search_finds_registers_by_instance_name_and_bare_address() {
    let spr = generation(SPR);
    let zen4 = generation(ZEN4);
    let last = |r: &Register| r.msr.count - 1;
    let mut want: Vec<(String, String)> = Vec::new();
    for role in [
        RegisterRole::EventSelect,
        RegisterRole::Counter,
        RegisterRole::FixedCounter,
    ] {
        let r = register(spr, role);
        want.push((format!("{}{}", r.name, last(r)), r.name.clone()));
    }
    let legacy = register(zen4, RegisterRole::LegacyEventSelect);
    let one_word = pmu_defs::model::names::camel(&legacy.name);
    want.push((format!("{one_word}{}", last(legacy)), legacy.name.clone()));
    let core = register(zen4, RegisterRole::EventSelect);
    let (intel, amd) = (
        register(spr, RegisterRole::EventSelect).msr.base,
        core.msr.base,
    );
    let amd_style = format!("MSR{:04X}_{:04X}", amd >> 16, amd & 0xFFFF);
    let spr_select = register(spr, RegisterRole::EventSelect).name.clone();
    want.push((format!("{intel:X}"), spr_select.clone()));
    want.push((format!("{amd:X}"), core.name.clone()));
    want.push((amd_style, core.name.clone()));
    let q: Vec<&str> = want.iter().map(|(q, _)| q.as_str()).collect();
    let hits = first_hits_on("index.html", &q);
    for ((q, name), hit) in want.iter().zip(&hits) {
        assert_first(q, hit, "register", name, None);
    }
    // An instance's hit names the instance (`PerfEvtSel3` is `PERF_EVT_SEL3`).
    for ((q, name), hit) in want.iter().zip(&hits).take(4) {
        let index = &q[q.trim_end_matches(|c: char| c.is_ascii_digit()).len()..];
        let shown = format!("{name}{index} · ");
        assert!(hit[4].as_str().unwrap().starts_with(&shown), "{q}: {hit}");
    }
    // A bare value of five digits or more is also offered to the decoder, after the register.
    let kinds = hits[want.len() - 2][7].as_array().unwrap();
    assert_eq!(kinds.last().unwrap(), "decode", "{kinds:?}");
}

/// Intel's `D1H`, perf's `event=0xd1,umask=0x20` and a whole perf string find the events
/// with that code (and unit mask), the page's generation first, or the one the query names.
#[test]
fn search_finds_events_by_code_and_perf_terms() {
    let spr = generation(SPR);
    let e = spr.events.iter().find(|e| e.name == L3_MISS).unwrap();
    let perf = Encoder::new(support::model())
        .encode_in(spr, &Request::new(L3_MISS))
        .unwrap()
        .perf;
    let code = format!("{:02X}H", e.event);
    let terms = format!("event={:#x},umask={:#x}", e.event, e.umask);
    let note = format!("{:02X}.{:02X}", e.event, e.umask);
    let q = [code.as_str(), terms.as_str(), perf.as_str()];
    let hits = first_hits_on(&format!("gen/{SPR}/events.html"), &q);
    for (q, hit) in q.iter().zip(&hits) {
        assert_eq!(hit[0], "event", "{q}: {hit}");
        assert_eq!(hit[2], SPR, "{q}: {hit}");
        let shown = hit[4].as_str().unwrap();
        let want = if *q == code { &note[..2] } else { &note };
        assert!(shown.starts_with(want), "{q}: {hit}");
        if *q != code {
            // perf's terms name events only, never an address starting with the code.
            let kinds = hit[7].as_array().unwrap();
            assert!(kinds.iter().all(|k| k == "event"), "{q}: {kinds:?}");
        }
    }
    // Named with its CPU from the home page: the event on that generation.
    let named = format!("spr {perf}");
    let hits = first_hits_on("index.html", &[&named]);
    assert_first(&named, &hits[0], "event", L3_MISS, Some(SPR));
}
