//! The navigation tree: one data file (`data/nav.js`) that every page loads, instead of the
//! tree repeated in each page; without JavaScript a page still links to the index.

use super::*;

fn nav() -> Vec<serde_json::Value> {
    js_value(site().get("data/nav.js").unwrap(), "PMU.nav = ")
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn the_tree_is_one_data_file_with_every_generation_and_its_pages() {
    let nav = nav();
    let gens = &model().generations;
    assert_eq!(nav.len(), gens.len());
    for (entry, g) in nav.iter().zip(gens) {
        assert_eq!(entry["id"], g.id.as_str());
        // The parent is the generation it extends, by its index in the list.
        match g.extends.as_deref().and_then(|p| model().generation(p)) {
            Some(p) => assert_eq!(
                nav[entry["parent"].as_u64().unwrap() as usize]["id"],
                p.id.as_str()
            ),
            None => assert!(entry["parent"].is_null(), "{}", g.id),
        }
        // Every link of the tree is a page of the site.
        let mut links = vec![entry["href"].as_str().unwrap()];
        links.extend(entry["diff"].get(0).and_then(|d| d.as_str()));
        links.extend(entry["events"].get(0).and_then(|d| d.as_str()));
        let regs = entry["regs"].as_array().unwrap();
        assert_eq!(regs.len(), g.registers.len(), "{}", g.id);
        links.extend(regs.iter().map(|r| r[1].as_str().unwrap()));
        // A register the generation inherits is its row on the generation's page.
        for (r, reg) in regs.iter().zip(&g.registers) {
            assert_eq!(r[1], reg_href(&g.id, &reg.name).as_str());
        }
        for l in links {
            assert!(resolves(l), "{}: {l}", g.id);
        }
        assert_eq!(entry["diff"].is_null(), g.extends.is_none(), "{}", g.id);
        assert_eq!(entry["events"].is_null(), g.events.is_empty(), "{}", g.id);
    }
}

#[test]
fn every_page_loads_the_tree_and_links_the_index_without_javascript() {
    for (path, text) in site().files() {
        if !path.ends_with(".html") {
            continue;
        }
        let root = parse_xml(path, text).unwrap();
        let back = "../".repeat(path.matches('/').count());
        let scripts: Vec<&str> = root
            .find_all("script")
            .into_iter()
            .filter_map(|s| s.attr("src"))
            .collect();
        // The tree's data before the script that draws it.
        let nav_js = format!("{back}data/nav.js");
        let site_js = format!("{back}assets/site.js");
        assert_eq!(scripts[..2], [nav_js.as_str(), site_js.as_str()], "{path}");
        // The page holds none of the tree: only the fallback link to the index's list.
        let tree = root
            .find_all("ul")
            .into_iter()
            .find(|u| u.attr("id") == Some("nav-tree"))
            .unwrap_or_else(|| panic!("{path}: no tree"));
        let links: Vec<&str> = tree
            .find_all("a")
            .iter()
            .map(|a| a.attr("href").unwrap())
            .collect();
        assert_eq!(links, [format!("{back}index.html#generations")], "{path}");
        assert!(
            !text.contains("<li class=\"gen"),
            "{path}: a generation entry in the page"
        );
    }
    let index = site().get("index.html").unwrap();
    assert!(index.contains("<h2 id=\"generations\">"));
}

#[test]
fn a_page_tells_the_tree_where_it_is() {
    let cases = [
        (
            "gen/intel-v1/reg/IA32_PMC.html",
            Some("intel-v1"),
            "reg:IA32_PMC",
        ),
        ("gen/intel-v3/diff.html", Some("intel-v3"), "diff"),
        (
            "gen/intel-skylake/events.html",
            Some("intel-skylake"),
            "events",
        ),
        ("gen/intel-v3/index.html", Some("intel-v3"), "index"),
        ("decoder.html", None, "index"),
    ];
    for (path, current, item) in cases {
        let root = parse_xml(path, site().get(path).unwrap()).unwrap();
        let tree = root
            .find_all("ul")
            .into_iter()
            .find(|u| u.attr("id") == Some("nav-tree"))
            .unwrap();
        assert_eq!(tree.attr("data-gen"), current, "{path}");
        assert_eq!(tree.attr("data-item"), Some(item), "{path}");
    }
}
