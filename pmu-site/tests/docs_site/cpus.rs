//! The CPU pages: a page per entry of the CPU-name files, the list of CPUs, and the model
//! generations' pages named after their CPUs. The expected CPUs, family/models and core types
//! are read from the model (`cpu_names`, each generation's `cpus:`), except the examples a
//! user looks for, which the test names.

use super::*;
use pmu_defs::load::cpu_names::Target;

/// The page of the CPU named `name` (its entry must exist), parsed.
fn cpu_page(name: &str) -> (String, Element) {
    let list = parse_xml("cpus/index.html", site().get("cpus/index.html").unwrap()).unwrap();
    let a = list
        .find_all("a")
        .into_iter()
        .find(|a| a.text() == name)
        .unwrap_or_else(|| panic!("no link to {name} in cpus/index.html"));
    // Links go through the site root, as on every page.
    let href = a.attr("href").unwrap();
    let path = href.strip_prefix("../").unwrap_or(href).to_owned();
    let text = site()
        .get(&path)
        .unwrap_or_else(|| panic!("{name}: no page {path}"));
    let root = parse_xml(&path, text).unwrap();
    (path, root)
}

/// The `href`s of the links in `root`.
fn hrefs(root: &Element) -> Vec<&str> {
    root.find_all("a")
        .into_iter()
        .filter_map(|a| a.attr("href"))
        .collect()
}

fn title(root: &Element) -> String {
    root.find_all("title")[0].text()
}

#[test]
fn every_cpu_name_has_a_page_listed_in_the_cpu_index() {
    let index = site().get("cpus/index.html").expect("cpus/index.html");
    let home = site().get("index.html").unwrap();
    assert!(
        home.contains(r#"href="cpus/index.html""#),
        "home links the CPUs"
    );
    let decoder = site().get("decoder.html").unwrap();
    assert!(
        decoder.contains(r#"href="cpus/index.html""#),
        "the sidebar links the CPUs"
    );
    assert!(!model().cpu_names.is_empty());
    let mut paths = BTreeSet::new();
    for n in &model().cpu_names {
        let (path, root) = cpu_page(&n.name);
        assert!(paths.insert(path.clone()), "{path} twice");
        assert_eq!(title(&root), format!("{} · pmu-regs", n.name), "{path}");
        assert_eq!(root.find_all("h1")[0].text(), n.name, "{path}");
        let text = root.text();
        for a in &n.also {
            assert!(text.contains(a.as_str()), "{path}: {a}");
            assert!(index.contains(a.as_str()), "cpus/index.html: {a}");
        }
        // The search lists what the CPU's generations have first on its page.
        let main = &root.find_all("main")[0];
        let gens: Vec<&str> = main
            .attr("data-gens")
            .unwrap_or_default()
            .split(' ')
            .collect();
        if let Target::Generations(ids) = &n.target {
            for id in ids {
                assert!(
                    gens.contains(&id.as_str()),
                    "{path}: data-gens {gens:?}, {id}"
                );
                let link = format!("../gen/{id}/index.html");
                assert!(hrefs(&root).contains(&link.as_str()), "{path}: {id}");
                let cpus = &generation(id).cpus;
                for c in cpus {
                    assert!(text.contains(&c.family_model), "{path}: {}", c.family_model);
                }
            }
        }
    }
    assert_eq!(paths.len(), model().cpu_names.len());
}

#[test]
fn sapphire_rapids_page_names_its_model_generation_and_registers() {
    let (path, root) = cpu_page("Sapphire Rapids");
    assert_eq!(path, "cpus/sapphire-rapids.html");
    assert_eq!(title(&root), "Sapphire Rapids · pmu-regs");
    let text = root.text();
    for want in ["SPR", "Intel", "06_8F", "GenuineIntel-6-8F"] {
        assert!(text.contains(want), "{path}: {want}");
    }
    let g = generation("intel-sapphirerapids");
    let links = hrefs(&root);
    for want in [
        "../gen/intel-sapphirerapids/index.html".to_owned(),
        "../gen/intel-sapphirerapids/events.html".to_owned(),
        format!("../{}", reg_href("intel-sapphirerapids", "IA32_PERFEVTSEL")),
    ] {
        assert!(links.contains(&want.as_str()), "{path}: {want}");
    }
    // Every ancestor is linked, and every register.
    for a in &g.ancestors {
        let want = format!("../gen/{a}/index.html");
        assert!(links.contains(&want.as_str()), "{path}: {a}");
    }
    for r in &g.registers {
        let want = format!("../{}", reg_href(&g.id, &r.name));
        assert!(links.contains(&want.as_str()), "{path}: {}", r.name);
    }
    let counters = format!(
        "{} general-purpose, {} fixed-function",
        g.general_counters(),
        g.fixed_counters()
    );
    assert!(text.contains(&counters), "{path}: {counters}");
    assert!(text.contains(&format!("{} events", g.events.len())));
}

#[test]
fn hybrid_cpu_pages_list_each_core_type_with_its_perf_pmu() {
    for name in ["Alder Lake", "Arrow Lake"] {
        let (path, root) = cpu_page(name);
        let rows: Vec<Vec<String>> = root
            .find_all("table")
            .into_iter()
            .filter(|t| t.attr("class") == Some("cpu-models"))
            .flat_map(|t| t.find_all("tr"))
            .map(|tr| tr.find_all("td").iter().map(|td| td.text()).collect())
            .filter(|cells: &Vec<String>| !cells.is_empty())
            .collect();
        // One row per `cpus:` entry of the name's generations, each with its core type and
        // the PMU perf names for its role.
        let n = model().cpu_names.iter().find(|n| n.name == name).unwrap();
        let Target::Generations(ids) = &n.target else {
            panic!("{name} names generations")
        };
        let mut pmus = BTreeSet::new();
        for id in ids {
            for c in &generation(id).cpus {
                let row = rows
                    .iter()
                    .find(|r| r[1] == c.family_model && r[2] == *id)
                    .unwrap_or_else(|| panic!("{path}: no row {} {id}", c.family_model));
                if let (Some(t), Some(role)) = (c.core_type, &c.core_role) {
                    assert_eq!(row[3], format!("0x{t:02X}"), "{path}");
                    assert_eq!(&row[5], role, "{path}");
                    let pmu = pmu_vocab::perf::pmu_for_core_role(role);
                    assert_eq!(row[6], pmu, "{path}");
                    pmus.insert(pmu);
                }
            }
        }
        for want in ["cpu_core", "cpu_atom"] {
            assert!(pmus.contains(want), "{path}: {want} in {pmus:?}");
        }
    }
}

#[test]
fn model_generation_pages_and_sidebar_name_their_cpus() {
    let path = "gen/intel-sapphirerapids/index.html";
    let root = parse_xml(path, site().get(path).unwrap()).unwrap();
    assert_eq!(
        title(&root),
        "Sapphire Rapids — intel-sapphirerapids · pmu-regs"
    );
    let h1 = &root.find_all("h1")[0];
    assert_eq!(h1.text(), "Sapphire Rapids — intel-sapphirerapids");
    assert_eq!(
        h1.find_all("a")[0].attr("href"),
        Some("../../cpus/sapphire-rapids.html")
    );
    // The generation's own title stays on the page.
    assert!(
        root.text()
            .contains(&generation("intel-sapphirerapids").title)
    );
    // The sidebar entry (drawn from data/nav.js) says it too, and its filter finds the CPU's
    // names; the page tells the tree which generation and page it is.
    let nav = js_value(site().get("data/nav.js").unwrap(), "PMU.nav = ");
    let entry = nav
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "intel-sapphirerapids")
        .unwrap();
    assert_eq!(entry["title"], "Sapphire Rapids — intel-sapphirerapids");
    assert!(
        entry["filter"]
            .as_str()
            .unwrap()
            .contains("sapphire rapids spr")
    );
    let tree = root
        .find_all("ul")
        .into_iter()
        .find(|u| u.attr("id") == Some("nav-tree"))
        .unwrap();
    assert_eq!(tree.attr("data-gen"), Some("intel-sapphirerapids"));
    assert_eq!(tree.attr("data-item"), Some("index"));
    // A generation no CPU name covers keeps its title.
    let v3 = parse_xml("v3", site().get("gen/intel-v3/index.html").unwrap()).unwrap();
    assert_eq!(
        title(&v3),
        format!("{} · pmu-regs", generation("intel-v3").title)
    );
}
