//! The site-wide search index, and the Rust path each register page names.

use super::*;

/// The URL `site.js` builds for a search entry (see `docs::search`), relative to the root.
fn search_url(index: &serde_json::Value, e: &serde_json::Value) -> (String, Option<String>) {
    // CPU and generation entries name their page.
    if let Some(page) = e.get(6).and_then(|p| p.as_str()) {
        return (page.to_owned(), None);
    }
    let dir = index["slugs"][e[2].as_u64().unwrap() as usize]
        .as_str()
        .unwrap();
    let name = e[1].as_str().unwrap();
    match e[0].as_u64().unwrap() {
        0 => (format!("{dir}/reg/{name}.html"), None),
        1 => {
            let (reg, field) = name.split_once('.').unwrap();
            (
                format!("{dir}/reg/{reg}.html"),
                Some(format!("field-{field}")),
            )
        }
        _ => (format!("{dir}/events.html"), None),
    }
}

#[test]
fn search_index_covers_every_name_and_every_result_opens_a_page() {
    let js = site().get(docs::search::PATH).unwrap();
    let index = js_value(js, "PMU.search = ");
    let entries = index["entries"].as_array().unwrap();
    let gens: Vec<&str> = index["gens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_str().unwrap())
        .collect();
    let ids: Vec<&str> = model().generations.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(gens, ids);
    let mut names: BTreeSet<(u64, &str)> = BTreeSet::new();
    for e in entries {
        let (page, anchor) = search_url(&index, e);
        let html = site()
            .get(&page)
            .unwrap_or_else(|| panic!("{e}: no page {page}"));
        if let Some(a) = anchor {
            assert!(
                html.contains(&format!(r#"id="{a}""#)),
                "{e}: no #{a} in {page}"
            );
        }
        names.insert((e[0].as_u64().unwrap(), e[1].as_str().unwrap()));
    }
    for g in &model().generations {
        for r in &g.registers {
            assert!(names.contains(&(0, r.name.as_str())), "{}", r.name);
            for f in &r.fields {
                let n = format!("{}.{}", r.name, f.name);
                assert!(names.contains(&(1, n.as_str())), "{n}");
            }
        }
        for ev in &g.events {
            assert!(names.contains(&(2, ev.name.as_str())), "{}", ev.name);
        }
    }
    // A register is found by each address of its alias range (`alias-msr:`) as by its own.
    for g in &model().generations {
        for r in g.registers.iter().filter(|r| r.defined_in == g.id) {
            let words = entries
                .iter()
                .filter(|e| e[0] == 0 && e[1] == r.name.as_str())
                .map(|e| e[4].as_str().unwrap())
                .collect::<Vec<_>>()
                .join(" ");
            for a in r.addresses.iter().chain(&r.alias_addresses) {
                let w = format!("0x{a:x}");
                assert!(
                    words.split(' ').any(|x| x == w),
                    "{} ({}): {w}",
                    r.name,
                    g.id
                );
            }
        }
    }
    // An event entry's generations are exactly those with that event and encoding.
    let llc = entries
        .iter()
        .find(|e| e[1] == "LONGEST_LAT_CACHE.MISS" && e[5] == "2E.41")
        .unwrap();
    let bits = match &llc[3] {
        serde_json::Value::String(s) => u128::from_str_radix(s, 16).unwrap(),
        n => 1 << n.as_u64().unwrap(),
    };
    for (i, g) in model().generations.iter().enumerate() {
        let has = g
            .events
            .iter()
            .any(|e| e.name == "LONGEST_LAT_CACHE.MISS" && e.event == 0x2E && e.umask == 0x41);
        assert_eq!(bits >> i & 1 == 1, has, "{}", g.id);
    }
    // The aliases of the definitions give the other term's words, never a hard-coded list.
    let words = llc[4].as_str().unwrap();
    // `llc:3`: the word stands for the three words of LONGEST_LAT_CACHE.
    assert!(words.split(' ').any(|w| w == "llc:3"), "{words}");
    let ctrl = entries
        .iter()
        .find(|e| e[0] == 0 && e[1] == "IA32_PERF_GLOBAL_CTRL")
        .unwrap();
    assert!(ctrl[4].as_str().unwrap().split(' ').any(|w| w == "0x38f"));
    // Every page has the search box.
    for (path, text) in site().files() {
        if path.ends_with(".html") {
            assert!(text.contains(r#"id="site-q""#), "{path}");
        }
    }
}

/// Each register page names its module in `pmu-regs` as the generator's layout pass places
/// it, and links every other generation with the same type; a register a generation inherits
/// has its path in its row of the generation's page.
#[test]
fn register_pages_show_their_rust_path_and_the_generations_sharing_the_type() {
    for p in pmu_codegen::register_paths(model()) {
        let r = generation(&p.generation).register(&p.register).unwrap();
        let defined = r.defined_in == p.generation;
        let page = if defined {
            reg_page(&p.generation, &p.register)
        } else {
            format!("gen/{}/index.html", p.generation)
        };
        let text = site().get(&page).unwrap();
        let text = if defined {
            text
        } else {
            let row = text
                .split(&format!(r#"<tr id="reg-{}">"#, r.name))
                .nth(1)
                .unwrap_or_else(|| panic!("{page}: no row of {}", r.name));
            &row[..row.find("</tr>").unwrap()]
        };
        // The path links to its module's rustdoc on docs.rs.
        let doc = format!(
            "https://docs.rs/pmu-regs/{}/{}/index.html",
            env!("CARGO_PKG_VERSION"),
            p.path.replace("::", "/")
        );
        assert!(
            text.contains(&format!(
                r#"<a class="rustdoc" href="{doc}" title="Its documentation on docs.rs"><code class="rust-path">{}</code></a>"#,
                p.path
            )),
            "{page}: {doc}"
        );
        if !defined {
            continue;
        }
        assert_eq!(
            text.contains(r#"<code class="rust-home">"#),
            p.home != p.path,
            "{page}"
        );
        for u in p.users.iter().filter(|u| **u != p.generation) {
            assert!(
                text.contains(&format!("gen/{u}/index.html")),
                "{page}: {u} shares the type"
            );
        }
    }
    let v3 = site()
        .get(&reg_page("intel-v3", "IA32_PERFEVTSEL"))
        .unwrap();
    assert!(v3.contains("pmu_regs::intel::v3::IA32_PERFEVTSEL"));
}

/// Every CPU name is an entry opening its page, found by its name, each abbreviation and each
/// family/model it covers (the word `site.js` makes of `06_8F`, `6-8F`, `GenuineIntel-6-8F`),
/// with the generations it stands for; every generation is an entry opening its page.
#[test]
fn search_index_finds_cpus_by_name_abbreviation_and_family_model() {
    let js = site().get(docs::search::PATH).unwrap();
    let index = js_value(js, "PMU.search = ");
    let kinds = index["kinds"].as_array().unwrap();
    let kind = |k: &str| kinds.iter().position(|x| x == k).unwrap() as u64;
    let entries = index["entries"].as_array().unwrap();
    let cpus: Vec<&serde_json::Value> = entries.iter().filter(|e| e[0] == kind("cpu")).collect();
    assert_eq!(cpus.len(), model().cpu_names.len());
    let words = |e: &serde_json::Value| -> Vec<String> {
        e[4].as_str()
            .unwrap()
            .split(' ')
            .map(|w| w.split(':').next().unwrap().to_owned())
            .collect()
    };
    // The entry a word (or a name) finds, by its page.
    let found_by = |word: &str| -> Vec<&str> {
        cpus.iter()
            .filter(|e| {
                words(e).iter().any(|w| w == word)
                    || e[1].as_str().unwrap().eq_ignore_ascii_case(word)
            })
            .map(|e| e[6].as_str().unwrap())
            .collect()
    };
    assert_eq!(found_by("spr"), ["cpus/sapphire-rapids.html"]);
    assert_eq!(found_by("06_8f"), ["cpus/sapphire-rapids.html"]);
    assert_eq!(found_by("Zen 4"), ["cpus/zen-4.html"]);
    assert_eq!(found_by("Genoa"), ["cpus/genoa.html"]);
    // An abbreviation stands for the whole name (`spr:2`), a family/model too.
    let spr = cpus.iter().find(|e| e[1] == "Sapphire Rapids").unwrap();
    let spr_words = spr[4].as_str().unwrap().split(' ').collect::<Vec<_>>();
    for w in ["spr:2", "06_8f:2", "0x8f"] {
        assert!(spr_words.contains(&w), "{w} in {spr_words:?}");
    }
    // Its generations are the ones the name stands for, and its note says the family/model.
    let gens: Vec<&str> = index["gens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_str().unwrap())
        .collect();
    assert_eq!(
        gens[spr[3].as_u64().unwrap() as usize],
        "intel-sapphirerapids"
    );
    assert_eq!(spr[5], "Intel 06_8F");
    for n in &model().cpu_names {
        let Some(e) = cpus.iter().find(|e| e[1] == n.name.as_str()) else {
            panic!("no entry for {}", n.name)
        };
        for a in &n.also {
            let first = a.to_lowercase();
            let first = first
                .split(|c: char| !c.is_ascii_alphanumeric())
                .find(|w| !w.is_empty())
                .unwrap()
                .to_owned();
            assert!(words(e).contains(&first), "{}: {a}", n.name);
        }
    }
    let generations = entries
        .iter()
        .filter(|e| e[0] == kind("generation"))
        .count();
    assert_eq!(generations, model().generations.len());
}

/// A query naming a CPU opens each register, field or event on the CPU's generation (`site.js`
/// builds `gen/<id>/reg/<NAME>.html` on the generation defining it, else
/// `gen/<id>/index.html#reg-<NAME>`, and `gen/<id>/events.html#ev-<NAME>` for each generation
/// an entry has): every generation of every entry has that page or row, and that event row.
#[test]
fn search_entries_open_on_each_of_their_generations() {
    let js = site().get(docs::search::PATH).unwrap();
    let index = js_value(js, "PMU.search = ");
    let slugs: Vec<&str> = (index["slugs"].as_array().unwrap().iter())
        .map(|s| s.as_str().unwrap())
        .collect();
    let rows: Vec<BTreeSet<String>> = (model().generations.iter())
        .map(|g| {
            let Some(js) = site().get(&format!("data/events/{}.js", g.id)) else {
                return BTreeSet::new();
            };
            let t = js_value(js, &format!("PMU.events[\"{}\"] = ", g.id));
            let name = (t["columns"].as_array().unwrap().iter())
                .position(|c| c["key"] == "name")
                .unwrap();
            (t["rows"].as_array().unwrap().iter())
                .map(|r| r[name].as_str().unwrap().to_owned())
                .collect()
        })
        .collect();
    let mut checked = 0;
    for e in index["entries"].as_array().unwrap() {
        let kind = e[0].as_u64().unwrap();
        if kind > 2 {
            continue;
        }
        let name = e[1].as_str().unwrap();
        let on: Vec<usize> = match &e[3] {
            serde_json::Value::String(s) => {
                let bits = u128::from_str_radix(s, 16).unwrap();
                (0..slugs.len()).filter(|i| bits >> i & 1 == 1).collect()
            }
            n => vec![n.as_u64().unwrap() as usize],
        };
        for i in on {
            if kind == 2 {
                assert!(rows[i].contains(name), "{name}: no row in {}", slugs[i]);
            } else {
                // Its page on the generation defining it (the entry's home), else its row.
                let reg = name.split('.').next().unwrap();
                let page = if i as u64 == e[2].as_u64().unwrap() {
                    format!("{}/reg/{reg}.html", slugs[i])
                } else {
                    format!("{}/index.html#reg-{reg}", slugs[i])
                };
                assert!(resolves(&page), "{name}: no {page}");
            }
            checked += 1;
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// An indexed register family's entry ends with `#n`, the most instances it has on its
/// generations (from which `site.js` names them, `IA32_PERFEVTSEL0`), and lists every address
/// of every one of them; a generation's entry has its id without the vendor's word, standing
/// for the whole id, unless another generation's id ends the same way.
#[test]
fn search_index_gives_instance_counts_and_generation_words() {
    let js = site().get(docs::search::PATH).unwrap();
    let index = js_value(js, "PMU.search = ");
    let entries = index["entries"].as_array().unwrap();
    let words = |e: &serde_json::Value| -> Vec<String> {
        e[4].as_str()
            .unwrap()
            .split(' ')
            .map(str::to_owned)
            .collect()
    };
    let has = |e: &serde_json::Value, i: usize| match &e[3] {
        serde_json::Value::String(s) => u128::from_str_radix(s, 16).unwrap() >> i & 1 == 1,
        n => n.as_u64() == Some(i as u64),
    };
    let mut families = 0;
    for (i, g) in model().generations.iter().enumerate() {
        for r in g.registers.iter().filter(|r| r.msr.indexed) {
            let e = (entries.iter())
                .find(|e| e[0] == 0 && e[1] == r.name.as_str() && has(e, i))
                .unwrap_or_else(|| panic!("{}: no entry for {}", g.id, r.name));
            let w = words(e);
            let n: u32 = (w.last().and_then(|l| l.strip_prefix('#')))
                .unwrap_or_else(|| panic!("{}: {w:?}", r.name))
                .parse()
                .unwrap();
            assert!(n >= r.msr.count, "{} on {}: #{n}", r.name, g.id);
            for a in &r.addresses {
                assert!(
                    w.contains(&format!("0x{a:x}")),
                    "{} on {}: {a:#x}",
                    r.name,
                    g.id
                );
            }
            families += 1;
        }
    }
    assert!(families > 100, "{families}");
    // A single register has no count.
    let ctrl = entries
        .iter()
        .find(|e| e[0] == 0 && e[1] == "IA32_PERF_GLOBAL_CTRL")
        .unwrap();
    assert!(!ctrl[4].as_str().unwrap().contains('#'));

    let gens = entries.iter().filter(|e| e[0] == 4);
    let rest = |id: &str| id.split_once('-').map(|(_, r)| r.to_owned());
    let ids: Vec<&str> = model().generations.iter().map(|g| g.id.as_str()).collect();
    for e in gens {
        let id = e[1].as_str().unwrap();
        let w = e[4].as_str().unwrap();
        let shared = ids.iter().filter(|i| rest(i) == rest(id)).count() > 1;
        match rest(id) {
            Some(r) if !shared => {
                let own = id.split('-').count();
                let parts: Vec<&str> = r.split('-').collect();
                for p in &parts {
                    let share = own as f64 / parts.len() as f64;
                    let share = (share * 100.0).round() / 100.0;
                    assert!(
                        w.split(' ').any(|x| x == format!("{p}:{share}")),
                        "{id}: {w}"
                    );
                }
            }
            _ => assert_eq!(w, "", "{id}"),
        }
    }
    // The shipped ids: Sapphire Rapids' stands for its generation without `intel-`.
    let spr = (entries.iter())
        .find(|e| e[0] == 4 && e[1] == "intel-sapphirerapids")
        .unwrap();
    assert_eq!(spr[4], "sapphirerapids:2");
}
