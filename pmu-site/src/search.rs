//! The site-wide search index, `data/search.js`: every register definition, every field of
//! one, every event (all generations, one entry per name and encoding with the generations
//! that have it), every CPU name and every generation, with the words a search matches. `site.js` loads it with a `<script>` tag
//! the first time the search box is used (so it works from `file://`, no fetch) and matches
//! in the browser.
//!
//! Matching, in `site.js`: every word of the query must start a word of the entry (any
//! order); an entry's words are those of its name, the other term of every search alias of
//! the definitions ([`pmu_defs::load::aliases`]: `LLC` finds `LONGEST_LAT_CACHE.MISS`), its MSR
//! addresses (`0x38f`) and, for events, the code and unit mask (`0x2e`, `2e.41`). A CPU's
//! words are its name's, its abbreviations' (`spr`, standing for the whole name) and each
//! family/model it covers as `06_8f` (what `site.js` makes of `06_8F`, `6-8F`, `06-8F` and
//! `GenuineIntel-6-8F`) and as the model alone (`0x8f`), with its vendor.
//!
//! Shape (kept small: the shipped corpus has about 7,000 entries):
//! `PMU.search = { gens: [id, ...], slugs: [dir, ...], kinds: [...], entries: [[kind, name,
//! home, gens, words, note], ...] }`: `home` indexes `gens` (the generation whose page the
//! entry opens: a register's or field's defining generation, an event's first), `gens` is a
//! index into `gens` when one generation has the entry, else a hexadecimal bit set over
//! `gens` (bit i: generation i), `words` the extra search words
//! (aliases as `word` or `word:share`, the share of the name's words an alias word stands
//! for; addresses), space-separated, and `note` what the result shows beside the name
//! (an address, a field's bits, an event's `code.umask`, from which the browser derives the
//! event's words `0x2e` and `2e.41`). The browser builds each URL as `docs::paths` does:
//! `gen/<slug>/reg/<NAME>.html`, `…#field-<FIELD>`, `gen/<slug>/events.html#q=…&open=…`
//! (register names are their own slugs; the index test checks every URL exists). CPU and
//! generation entries (kinds 3 and 4, after the three above, so older entries read the same)
//! carry a seventh element, their page (`cpus/sapphire-rapids.html`, `gen/<id>/index.html`);
//! a CPU's `gens` are the generations its name stands for and its note its vendor and
//! family/models, a generation's note its title (`Ctx::title_of`).
//!
//! An indexed register family's words end with `#n`, the most instances it has on its
//! generations: `site.js` derives the instance names from it as the definitions make them
//! (`IA32_PERFEVTSEL0`, and `perfevtsel3` for `PERF_EVT_SEL`, AMD's `PerfEvtSel3`). A
//! generation's words are its id without the vendor's word (`sapphirerapids:2`), so the id
//! names it as a CPU's name does, unless another generation's id ends the same way.
//!
//! A query naming a CPU (or a generation) in full and something else ("SPR IA32_PERFEVTSEL") is matched against
//! the entries whose `gens` have one of the CPU's generations, each hit opening the item on
//! that generation: `gen/<slug>/reg/<NAME>.html` when it defines the register (the entry's
//! `home`), else the register's row on its page, `gen/<slug>/index.html#reg-<NAME>`;
//! `gen/<slug>/events.html#ev-<NAME>` (the row's permalink). A hexadecimal value
//! ("decode 0x004301d1 spr") offers the decoder, `decoder.html#gen=<id>&value=<value>`. On a
//! generation's pages (a CPU's page: `<main data-gens>`) that generation's items come first,
//! opening there.

use crate::context::{Ctx, paths};
use crate::escape::json_for_js;
use crate::format;
use crate::site::Site;
use pmu_defs::load::aliases::Keyword;
use serde::Serialize;
use std::collections::BTreeMap;

/// Where the index goes.
pub const PATH: &str = "data/search.js";

/// Entry kinds, as `entries[i][0]` indexes them.
pub const KINDS: [&str; 5] = ["register", "field", "event", "cpu", "generation"];
/// The kinds' indexes.
const REGISTER: usize = 0;
const FIELD: usize = 1;
const EVENT: usize = 2;
const CPU: usize = 3;
const GENERATION: usize = 4;

#[derive(Serialize)]
struct Index<'a> {
    gens: Vec<&'a str>,
    slugs: Vec<String>,
    kinds: [&'static str; 5],
    entries: Vec<Row>,
}

/// One entry as written: `[kind, name, home, gens, words, note]`, and the page for entries
/// that are not found under their generation's directory.
#[derive(Serialize)]
#[serde(untagged)]
enum Row {
    Six(usize, String, usize, Gens, String, String),
    Seven(usize, String, usize, Gens, String, String, String),
}

/// One entry being collected: the generations are a bit set.
struct Entry {
    kind: usize,
    name: String,
    home: usize,
    gens: Vec<bool>,
    words: Vec<String>,
    note: String,
    /// The page, for CPU and generation entries.
    page: Option<String>,
    /// The most instances an indexed register family has on its generations (0 otherwise):
    /// written as the word `#n`, from which `site.js` derives the instance names.
    instances: u32,
}

impl Entry {
    fn new(kind: usize, name: String, home: usize, n: usize) -> Self {
        Entry {
            kind,
            name,
            home,
            gens: vec![false; n],
            words: Vec::new(),
            note: String::new(),
            page: None,
            instances: 0,
        }
    }
}

/// The generations of an entry: one index, or a bit set for several.
#[derive(Serialize)]
#[serde(untagged)]
enum Gens {
    One(usize),
    Set(String),
}

fn gens(set: &[bool]) -> Gens {
    let mut on = set.iter().enumerate().filter(|(_, b)| **b).map(|(i, _)| i);
    match (on.next(), on.next()) {
        (Some(i), None) => Gens::One(i),
        _ => Gens::Set(bitset(set)),
    }
}

/// Bit `i` set for each true `gens[i]`, as hexadecimal (most significant digit first).
fn bitset(gens: &[bool]) -> String {
    let digits = gens.len().div_ceil(4).max(1);
    (0..digits)
        .rev()
        .map(|d| {
            let nibble = (0..4)
                .filter(|b| gens.get(d * 4 + b).copied().unwrap_or(false))
                .fold(0u32, |acc, b| acc | (1 << b));
            char::from_digit(nibble, 16).unwrap_or('0')
        })
        .collect::<String>()
        .trim_start_matches('0')
        .to_owned()
}

/// A name's alias words for the index: `word`, or `word:share` when it stands for other
/// than one word of the name (`llc:3`, `lat:0.33`).
fn keywords(aliases: &[pmu_defs::load::aliases::Alias], name: &str) -> Vec<String> {
    pmu_defs::load::aliases::keywords(aliases, name)
        .into_iter()
        .map(|Keyword { word, covers }| {
            if (covers - 1.0).abs() < 1e-9 {
                word
            } else {
                format!("{word}:{}", (covers * 100.0).round() / 100.0)
            }
        })
        .collect()
}

fn push_word(words: &mut Vec<String>, w: String) {
    if !words.contains(&w) {
        words.push(w);
    }
}

/// The entry for `key`, created by `make` the first time.
fn slot<K: Ord>(
    all: &mut Vec<Entry>,
    map: &mut BTreeMap<K, usize>,
    key: K,
    make: impl FnOnce() -> Entry,
) -> usize {
    *map.entry(key).or_insert_with(|| {
        all.push(make());
        all.len() - 1
    })
}

/// A register's addresses on one more generation as words (a family's count may follow the
/// generation's counters), and its instance count.
fn add_addresses(e: &mut Entry, r: &pmu_defs::model::Register) {
    for a in r.addresses.iter().chain(&r.alias_addresses) {
        push_word(&mut e.words, format!("0x{a:x}"));
    }
    if r.msr.indexed {
        e.instances = e.instances.max(r.msr.count);
    }
}

impl From<Entry> for Row {
    fn from(mut e: Entry) -> Row {
        if e.instances > 0 {
            e.words.push(format!("#{}", e.instances));
        }
        let (kind, name, home, gens, words) =
            (e.kind, e.name, e.home, gens(&e.gens), e.words.join(" "));
        match e.page {
            None => Row::Six(kind, name, home, gens, words, e.note),
            Some(page) => Row::Seven(kind, name, home, gens, words, e.note, page),
        }
    }
}

/// Builds the index of the whole model.
pub(crate) fn index(cx: &Ctx<'_>) -> String {
    let model = cx.model;
    let n = model.generations.len();
    let aliases = &model.aliases;
    let mut all: Vec<Entry> = Vec::new();
    let mut registers: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut fields: BTreeMap<(&str, &str, &str), usize> = BTreeMap::new();
    let mut events: BTreeMap<(&str, u32, u32), usize> = BTreeMap::new();
    let position = |id: &str| model.generations.iter().position(|g| g.id == id);
    for (gi, g) in model.generations.iter().enumerate() {
        for r in &g.registers {
            let home = position(&r.defined_in).unwrap_or(gi);
            let i = slot(&mut all, &mut registers, (&r.name, &r.defined_in), || {
                let mut e = Entry::new(REGISTER, r.name.clone(), home, n);
                e.words = keywords(aliases, &r.name);
                e.note = format::address(&r.msr);
                e
            });
            all[i].gens[gi] = true;
            add_addresses(&mut all[i], r);
            for f in &r.fields {
                let key = (r.name.as_str(), r.defined_in.as_str(), f.name.as_str());
                let i = slot(&mut all, &mut fields, key, || {
                    let name = format!("{}.{}", r.name, f.name);
                    let mut e = Entry::new(FIELD, name, home, n);
                    e.words = keywords(aliases, &e.name);
                    e.note = format!("bits {}", format::field_bits(f));
                    e
                });
                all[i].gens[gi] = true;
            }
        }
        for ev in &g.events {
            let i = slot(
                &mut all,
                &mut events,
                (&ev.name, ev.event, ev.umask),
                || {
                    let mut e = Entry::new(EVENT, ev.name.clone(), gi, n);
                    e.words = keywords(aliases, &ev.name);
                    e.note = format!("{:02X}.{:02X}", ev.event, ev.umask);
                    e
                },
            );
            all[i].gens[gi] = true;
        }
    }
    all.extend(cpu_entries(cx));
    all.extend(generation_entries(cx));
    let entries = all.into_iter().map(Row::from).collect();
    let idx = Index {
        gens: model.generations.iter().map(|g| g.id.as_str()).collect(),
        slugs: model
            .generations
            .iter()
            .map(|g| paths::gen_dir(&g.id))
            .collect(),
        kinds: KINDS,
        entries,
    };
    format!(
        "/* Search index: generated by cargo xtask gen-docs. */\nwindow.PMU = window.PMU || {{}};\nPMU.search = {};\n",
        json_for_js(&idx)
    )
}

/// One entry per CPU name: found by its name, its abbreviations and its family/models.
fn cpu_entries(cx: &Ctx<'_>) -> Vec<Entry> {
    let model = cx.model;
    let n = model.generations.len();
    let position = |id: &str| model.generations.iter().position(|g| g.id == id);
    let mut out = Vec::new();
    for c in &cx.cpus {
        let at: Vec<usize> = c
            .generations
            .iter()
            .filter_map(|g| position(&g.id))
            .collect();
        let mut e = Entry::new(
            CPU,
            c.name.name.clone(),
            at.first().copied().unwrap_or(0),
            n,
        );
        for i in at {
            e.gens[i] = true;
        }
        e.words = cpu_words(c);
        let fms: Vec<String> = c.family_models().into_iter().map(|l| l.display).collect();
        e.note = format!("{} {}", crate::html::cpu_vendor(c), shorten(&fms));
        e.page = Some(paths::cpu(&c.slug));
        out.push(e);
    }
    out
}

/// The words of a name or id, lower case (`Sapphire Rapids`: `sapphire`, `rapids`).
fn split(s: &str) -> Vec<String> {
    s.to_lowercase()
        .split(|ch: char| !ch.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// How many of a name's `whole` words each of `parts` words stands for, to two decimals.
fn share(whole: usize, parts: usize) -> f64 {
    ((whole as f64 / parts.max(1) as f64) * 100.0).round() / 100.0
}

/// A CPU's extra words: each word of an abbreviation, standing for its share of the name;
/// each family/model as `06_8f` and `0x8f`, standing for the whole name; the vendor
/// (`intel:0`, narrowing without counting for the name).
fn cpu_words(c: &crate::cpus::SiteCpu<'_>) -> Vec<String> {
    let own = split(&c.name.name).len().max(1);
    let mut words = Vec::new();
    for a in &c.name.also {
        let ws = split(a);
        let s = share(own, ws.len());
        for w in &ws {
            push_word(&mut words, format!("{w}:{s}"));
        }
    }
    for l in c.family_models() {
        push_word(&mut words, format!("{}:{own}", l.display.to_lowercase()));
        if let Some(m) = l.model {
            push_word(&mut words, m.to_lowercase());
        }
    }
    push_word(
        &mut words,
        format!("{}:0", crate::html::cpu_vendor(c).to_lowercase()),
    );
    words
}

/// `06_97, 06_9A, 06_B7 and 3 more`.
fn shorten(items: &[String]) -> String {
    match items.len() {
        0..=3 => items.join(", "),
        k => format!("{} and {} more", items[..3].join(", "), k - 3),
    }
}

/// One entry per generation, found by its id and opening its page.
fn generation_entries(cx: &Ctx<'_>) -> Vec<Entry> {
    let n = cx.model.generations.len();
    let ids: Vec<&str> = cx.model.generations.iter().map(|g| g.id.as_str()).collect();
    let mut words = generation_words(&ids).into_iter();
    (cx.model.generations.iter().enumerate())
        .map(|(i, g)| {
            let mut e = Entry::new(GENERATION, g.id.clone(), i, n);
            e.gens[i] = true;
            e.words = words.next().unwrap_or_default();
            let names: Vec<&str> = cx.cpus_of(g).iter().map(|c| c.name.name.as_str()).collect();
            e.note = if names.is_empty() {
                g.title.clone()
            } else {
                names.join(", ")
            };
            e.page = Some(paths::generation(&g.id));
            e
        })
        .collect()
}

/// Each generation's extra words, so its id without the vendor's word stands for it as a
/// CPU's name does (`sapphirerapids:2` in `intel-sapphirerapids`, `arch:1.5 lbr:1.5` in
/// `intel-arch-lbr`): each word after the first stands for its share of the whole id. A rest
/// that two ids share (`rapl` of `amd-rapl` and `intel-rapl`) stands for neither.
fn generation_words(ids: &[&str]) -> Vec<Vec<String>> {
    let all: Vec<Vec<String>> = ids.iter().map(|id| split(id)).collect();
    let rest = |ws: &[String]| ws.get(1..).unwrap_or_default().to_vec();
    let mut seen: BTreeMap<Vec<String>, usize> = BTreeMap::new();
    for ws in &all {
        *seen.entry(rest(ws)).or_default() += 1;
    }
    all.iter()
        .map(|ws| {
            let r = rest(ws);
            if r.is_empty() || seen[&r] > 1 {
                return Vec::new();
            }
            let share = share(ws.len(), r.len());
            r.iter().map(|w| format!("{w}:{share}")).collect()
        })
        .collect()
}

pub(crate) fn all(cx: &Ctx<'_>, site: &mut Site) {
    site.add(PATH.to_owned(), index(cx));
}

#[cfg(test)]
mod tests {
    use super::{bitset, generation_words};

    #[test]
    fn a_generation_is_found_by_its_id_without_the_vendor() {
        // Made-up ids: the rule reads their shape, not a list of generations.
        let ids = [
            "acme-fastlake",
            "acme-x1-family",
            "acme-x1",
            "other-x1-family",
            "solo",
        ];
        let words = generation_words(&ids);
        assert_eq!(words[0], ["fastlake:2"]);
        // `x1-family` is two generations' rest, `x1` one's.
        assert!(words[1].is_empty() && words[3].is_empty());
        assert_eq!(words[2], ["x1:2"]);
        assert!(words[4].is_empty());
        let three = generation_words(&["acme-arch-lbr"]);
        assert_eq!(three[0], ["arch:1.5", "lbr:1.5"]);
    }

    #[test]
    fn bit_sets_in_hex() {
        assert_eq!(bitset(&[true, false, false, false, true]), "11");
        assert_eq!(bitset(&[false, true]), "2");
        assert_eq!(bitset(&[false; 9]), "");
    }
}
