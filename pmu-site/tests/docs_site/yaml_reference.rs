//! The YAML reference (`yaml.html`, `md/yaml.md`), rendered from the JSON Schema.

use super::*;

fn schema_definitions() -> serde_json::Map<String, serde_json::Value> {
    pmu_defs::schema::schema()["definitions"]
        .as_object()
        .expect("the schema has definitions")
        .clone()
}

/// The reference page's elements by `id`.
fn yaml_ids(root: &Element) -> BTreeMap<String, &Element> {
    let mut ids = BTreeMap::new();
    for e in root.descendants() {
        if let Some(id) = e.attr("id") {
            assert!(
                ids.insert(id.to_owned(), e).is_none(),
                "yaml.html: id {id} twice"
            );
        }
    }
    ids
}

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn yaml_reference_lists_every_key_of_every_definition() {
    let page = site().get("yaml.html").expect("yaml.html");
    let root = parse_xml("yaml.html", page).unwrap();
    let ids = yaml_ids(&root);
    let defs = schema_definitions();
    let mut keys = 0;
    for (def, d) in &defs {
        let section = ids
            .get(def.as_str())
            .unwrap_or_else(|| panic!("yaml.html: no section for definition `{def}`"));
        assert_eq!(section.name, "section", "#{def}");
        // Definitions reached through `allOf` carry their description as `$comment`.
        if let Some(desc) = d["description"].as_str().or(d["$comment"].as_str()) {
            let text = squeeze(&section.text());
            let want = squeeze(&desc.replace('`', ""));
            assert!(text.contains(&want), "#{def}: description {want:?}");
        }
        let required: Vec<&str> = d["required"]
            .as_array()
            .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
            .unwrap_or_default();
        for (key, p) in d["properties"].as_object().into_iter().flatten() {
            let anchor = format!("{def}.{key}");
            let row = ids
                .get(anchor.as_str())
                .unwrap_or_else(|| panic!("yaml.html: no anchor #{anchor}"));
            assert_eq!(row.name, "tr", "#{anchor}");
            let cells = row.find_all("td");
            assert_eq!(cells.len(), 4, "#{anchor}: key, value, required, meaning");
            assert_eq!(cells[0].text(), *key, "#{anchor}: key cell");
            // The key links to itself, so it can be copied.
            let own = format!("#{anchor}");
            assert_eq!(cells[0].find_all("a")[0].attr("href"), Some(own.as_str()));
            assert!(!cells[1].text().trim().is_empty(), "#{anchor}: no value");
            assert_eq!(
                cells[2].text().contains("required"),
                required.contains(&key.as_str()) || (def == "generation" && key == "vendor"),
                "#{anchor}: required column"
            );
            let meaning = squeeze(&cells[3].text());
            let desc = squeeze(&p["description"].as_str().unwrap().replace('`', ""));
            assert!(meaning.contains(&desc), "#{anchor}: meaning {meaning:?}");
            keys += 1;
        }
        // Its section holds exactly its keys.
        let rows = section
            .find_all("tr")
            .into_iter()
            .filter(|tr| tr.attr("id").is_some())
            .count();
        assert_eq!(
            rows,
            d["properties"].as_object().map_or(0, |p| p.len()),
            "#{def}: rows"
        );
    }
    assert!(keys > 100, "only {keys} keys");
    // Sections follow the reading order: the file first.
    let sections: Vec<&str> = root
        .find_all("section")
        .into_iter()
        .filter_map(|s| s.attr("id"))
        .collect();
    assert_eq!(sections.len(), defs.len(), "one section per definition");
    assert_eq!(sections[0], "generation");
    assert_eq!(sections[1], "register");
}

/// The text of the value column of `#def.key`.
fn yaml_value(root: &Element, anchor: &str) -> (String, Vec<String>) {
    let row = root
        .descendants()
        .into_iter()
        .find(|e| e.attr("id") == Some(anchor))
        .unwrap_or_else(|| panic!("no #{anchor}"));
    let cell = row.find_all("td")[1];
    let links = cell
        .find_all("a")
        .into_iter()
        .filter_map(|a| a.attr("href").map(str::to_owned))
        .collect();
    (squeeze(&cell.text()), links)
}

#[test]
fn yaml_reference_describes_values_in_words() {
    let root = parse_xml("yaml.html", site().get("yaml.html").unwrap()).unwrap();
    let (width, _) = yaml_value(&root, "register.width");
    assert_eq!(width, "number (1 to 64)");
    let (access, _) = yaml_value(&root, "register.access");
    assert!(access.starts_with("one of"), "{access}");
    for a in [
        Access::ReadWrite,
        Access::ReadOnly,
        Access::WriteOnly,
        Access::WriteOneToClear,
        Access::WriteOneToSet,
    ] {
        assert!(access.contains(a.as_str()), "register.access: {access}");
    }
    let (counters, _) = yaml_value(&root, "event.counters");
    assert!(counters.starts_with("all, or a list"), "{counters}");
    let (msr, links) = yaml_value(&root, "register.msr");
    assert_eq!(msr, "number ≤ 0xFFFFFFFF, or msr-family");
    assert_eq!(links, ["#msr-family"]);
    let (regs, links) = yaml_value(&root, "generation.registers");
    assert_eq!(
        (regs.as_str(), links.as_slice()),
        ("list of register", &["#register".to_owned()][..])
    );
    let (bits, _) = yaml_value(&root, "field.bits");
    assert!(
        bits.contains("high:low") && bits.contains("list of them"),
        "{bits}"
    );
    let (vendor, _) = yaml_value(&root, "generation.vendor");
    assert_eq!(vendor, "one of intel, amd");
    let (name, links) = yaml_value(&root, "register.name");
    assert_eq!(
        (name.as_str(), links.as_slice()),
        ("name", &["#ident".to_owned()][..])
    );

    // The top-level if/then in words, in the section and the required column.
    let text = squeeze(&root.text());
    assert!(text.contains("vendor is required unless extends is given."));
    let vendor_row = root
        .descendants()
        .into_iter()
        .find(|e| e.attr("id") == Some("generation.vendor"))
        .unwrap();
    assert!(squeeze(&vendor_row.find_all("td")[2].text()).contains("required unless extends"));
    // Examples from the schema.
    let msr_row = root
        .descendants()
        .into_iter()
        .find(|e| e.attr("id") == Some("register.msr"))
        .unwrap();
    assert!(
        msr_row
            .text()
            .contains("{ base: 0xC0010200, count: 6, stride: 2 }"),
        "{}",
        msr_row.text()
    );
}

#[test]
fn yaml_reference_links_resolve_and_the_site_links_to_it() {
    let page = site().get("yaml.html").unwrap();
    let root = parse_xml("yaml.html", page).unwrap();
    let ids = yaml_ids(&root);
    for a in root.find_all("a") {
        if let Some(frag) = a.attr("href").and_then(|h| h.strip_prefix('#')) {
            assert!(ids.contains_key(frag), "yaml.html: link to missing #{frag}");
        }
    }
    // The intro: the modeline and the download link.
    let modeline = pmu_defs::schema::modeline("pmu-defs/defs/intel/my-core.yaml");
    assert!(root.text().contains(&modeline), "{modeline}");
    assert!(root.text().contains("cargo xtask validate"));
    assert!(
        root.find_all("a")
            .iter()
            .any(|a| a.attr("href") == Some("schema/generation.schema.json"))
    );
    // Linked from the index and from every page's sidebar.
    let index = parse_xml("index.html", site().get("index.html").unwrap()).unwrap();
    let main = index.find_all("main")[0];
    assert!(
        main.find_all("a")
            .iter()
            .any(|a| a.attr("href") == Some("yaml.html"))
    );
    for (path, text) in site().files() {
        if path.ends_with(".html") {
            let root = parse_xml(path, text).unwrap();
            let nav = root.find_all("nav")[0];
            let want = format!("{}yaml.html", "../".repeat(path.matches('/').count()));
            assert!(
                nav.find_all("a")
                    .iter()
                    .any(|a| a.attr("href") == Some(want.as_str())),
                "{path}: no sidebar link to the YAML reference"
            );
        }
    }
    let current: Vec<_> = root
        .find_all("a")
        .into_iter()
        .filter(|a| a.attr("aria-current") == Some("page"))
        .collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0].attr("href"), Some("yaml.html"));
}

#[test]
fn downloadable_schema_is_the_rendered_schema() {
    assert_eq!(
        site().get("schema/generation.schema.json"),
        Some(pmu_defs::schema::render().as_str())
    );
}

#[test]
fn markdown_reference_has_every_key_anchor() {
    let md = site().get("md/yaml.md").expect("md/yaml.md");
    for (def, d) in schema_definitions() {
        assert!(md.contains(&format!("<a id=\"{def}\"></a>")), "md: #{def}");
        for key in d["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
        {
            assert!(
                md.contains(&format!("<a id=\"{def}.{key}\"></a>`{key}`")),
                "md: #{def}.{key}"
            );
        }
    }
    assert!(md.contains("`width` | number (1 to 64) |  |"), "{md}");
    assert!(md.contains("[`msr-family`](#msr-family)"));
    assert!(md.contains("](../schema/generation.schema.json)"));
    assert!(md.contains(&pmu_defs::schema::modeline("pmu-defs/defs/amd/x.yaml")));
    // Every in-page link has its anchor.
    let mut rest = md;
    while let Some(i) = rest.find("](#") {
        let tail = &rest[i + 3..];
        let end = tail.find(')').unwrap();
        let frag = &tail[..end];
        assert!(
            md.contains(&format!("<a id=\"{frag}\"></a>")),
            "md: link to #{frag}"
        );
        rest = &tail[end..];
    }
    assert!(site().get("md/README.md").unwrap().contains("](yaml.md)"));
}
