//! Content: the promised pages, field tables, generation diffs, event tables, known findings and
//! the decoder data.

use super::*;

#[test]
fn site_has_the_promised_pages() {
    let files = site().files();
    for p in [
        "index.html",
        "decoder.html",
        "yaml.html",
        "schema/generation.schema.json",
        "data/index.js",
        "md/README.md",
        "md/yaml.md",
        "findings.html",
        "md/findings.md",
    ] {
        assert!(files.contains_key(p), "{p}");
    }
    for g in &model().generations {
        assert!(files.contains_key(&format!("gen/{}/index.html", g.id)));
        assert!(files.contains_key(&format!("data/gen/{}.js", g.id)));
        assert!(files.contains_key(&format!("md/{}/README.md", g.id)));
        assert_eq!(
            files.contains_key(&format!("gen/{}/diff.html", g.id)),
            g.extends.is_some()
        );
        assert_eq!(
            files.contains_key(&format!("gen/{}/events.html", g.id)),
            !g.events.is_empty()
        );
        assert_eq!(
            files.contains_key(&format!("data/events/{}.js", g.id)),
            !g.events.is_empty()
        );
    }
}

fn field_rows(root: &Element) -> BTreeMap<String, Element> {
    root.find_all("tr")
        .into_iter()
        .filter_map(|tr| {
            tr.attr("id")
                .and_then(|id| id.strip_prefix("field-"))
                .map(|n| (n.to_owned(), tr.clone()))
        })
        .collect()
}

#[test]
fn field_tables_show_bits_access_and_availability() {
    for g in &model().generations {
        // The table is on the page of the generation defining the register.
        for r in g.registers.iter().filter(|r| r.defined_in == g.id) {
            let path = reg_page(&g.id, &r.name);
            let root = parse_xml(&path, site().get(&path).unwrap()).unwrap();
            let rows = field_rows(&root);
            assert_eq!(rows.len(), r.fields.len(), "{path}: one row per field");
            for f in &r.fields {
                let text = rows[&f.name].text();
                let bits: Vec<String> = f
                    .bits
                    .iter()
                    .map(|b| {
                        if b.lsb == b.msb {
                            b.lsb.to_string()
                        } else {
                            format!("{}:{}", b.msb, b.lsb)
                        }
                    })
                    .collect();
                for b in &bits {
                    assert!(text.contains(b.as_str()), "{path}: {} bits {b}", f.name);
                }
                assert!(
                    text.contains(f.access.as_str()),
                    "{path}: {} access",
                    f.name
                );
                assert!(
                    text.contains(&format!("since {}", f.since)),
                    "{path}: {}",
                    f.name
                );
                if let Some(d) = &f.deprecated {
                    assert!(text.contains("deprecated"), "{path}: {}", f.name);
                    assert!(text.contains(&d.since));
                }
                if let Some(req) = &f.requires {
                    assert!(text.contains(req.as_str()), "{path}: {} requires", f.name);
                }
                // The doc's text, its Markdown code spans shown as code (without backticks).
                let doc: String = f.doc.split_whitespace().collect::<Vec<_>>().join(" ");
                let doc = doc.replace('`', "");
                let row: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
                assert!(row.contains(&doc), "{path}: {} doc", f.name);
            }
        }
    }
}

#[test]
fn diff_finds_renames_additions_and_changed_bits() {
    let d = diff::compute(generation("intel-v3"), generation("intel-v4"));
    let renamed = d
        .registers
        .iter()
        .find_map(|r| match r {
            diff::RegDiff::Changed { old, new, .. } if old.name != new.name => {
                Some((old.name.as_str(), new.name.as_str()))
            }
            _ => None,
        })
        .expect("a rename");
    assert_eq!(
        renamed,
        ("IA32_PERF_GLOBAL_OVF_CTRL", "IA32_PERF_GLOBAL_STATUS_RESET")
    );
    let added: Vec<&str> = d
        .registers
        .iter()
        .filter_map(|r| match r {
            diff::RegDiff::Added(x) => Some(x.name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        added,
        ["IA32_PERF_GLOBAL_STATUS_SET", "IA32_PERF_GLOBAL_INUSE"]
    );
    assert!(
        !d.registers
            .iter()
            .any(|r| matches!(r, diff::RegDiff::Removed(_))),
        "the renamed register is not also reported as removed"
    );
    let status = d
        .registers
        .iter()
        .find_map(|r| match r {
            diff::RegDiff::Changed { new, fields, .. } if new.name == "IA32_PERF_GLOBAL_STATUS" => {
                Some(fields)
            }
            _ => None,
        })
        .unwrap();
    let names: Vec<&str> = status
        .iter()
        .filter(|f| matches!(f, diff::FieldDiff::Added(_)))
        .map(|f| f.name())
        .collect();
    assert!(
        names.contains(&"CTR_FRZ") && names.contains(&"LBR_FRZ"),
        "{names:?}"
    );

    // v5: fixed-counter control gains a fourth block; the fixed counters a fourth register.
    let d = diff::compute(generation("intel-v4"), generation("intel-v5"));
    let ctrl = d
        .registers
        .iter()
        .find_map(|r| match r {
            diff::RegDiff::Changed { new, fields, .. } if new.name == "IA32_FIXED_CTR_CTRL" => {
                Some(fields)
            }
            _ => None,
        })
        .unwrap();
    let enable = ctrl
        .iter()
        .find_map(|f| match f {
            diff::FieldDiff::Changed { field, changes } if field.name == "ENABLE" => Some(changes),
            _ => None,
        })
        .unwrap();
    assert_eq!(enable[0].what, "bits");
    assert!(
        enable[0].old.contains("×3") && enable[0].new.contains("×4"),
        "{enable:?}"
    );
    let added_events: Vec<&str> = d
        .events
        .iter()
        .filter_map(|e| match e {
            diff::EventDiff::Added(x) => Some(x.name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(added_events, ["TOPDOWN_SLOTS"]);

    // AMD: the event select becomes split and loses the pin-control bit.
    let d = diff::compute(generation("amd-k7"), generation("amd-core"));
    let sel = d
        .registers
        .iter()
        .find_map(|r| match r {
            diff::RegDiff::Changed { new, fields, .. } if new.name == "PERF_EVT_SEL" => {
                Some(fields)
            }
            _ => None,
        })
        .unwrap();
    assert!(
        sel.iter()
            .any(|f| matches!(f, diff::FieldDiff::Removed(x) if x.name == "PC"))
    );
    let ev = sel
        .iter()
        .find_map(|f| match f {
            diff::FieldDiff::Changed { field, changes } if field.name == "EVENT_SELECT" => {
                changes.iter().find(|c| c.what == "bits")
            }
            _ => None,
        })
        .unwrap();
    assert_eq!((ev.old.as_str(), ev.new.as_str()), ("7:0", "7:0 and 35:32"));
}

#[test]
fn diff_pages_show_the_changes() {
    let text = site().get("gen/intel-v4/diff.html").unwrap();
    let root = parse_xml("diff", text).unwrap();
    let all = root.text();
    assert!(all.contains("Renamed from IA32_PERF_GLOBAL_OVF_CTRL"));
    assert!(all.contains("IA32_PERF_GLOBAL_STATUS_SET"));
    let md = site().get("md/intel-v6/diff.md").unwrap();
    assert!(md.contains("Added (5)"), "{md}");
    assert!(md.contains("`UMASK2` | added"));
    // Every generation with a parent has a diff page, and it names the parent.
    for g in &model().generations {
        if let Some(p) = &g.extends {
            let page = site().get(&format!("gen/{}/diff.html", g.id)).unwrap();
            let root = parse_xml("diff", page).unwrap();
            assert_eq!(root.find_all("main")[0].attr("data-from"), Some(p.as_str()));
        }
    }
}

#[test]
fn register_pages_say_when_a_cpu_has_the_register_and_how_many_instances() {
    let text = site().get(&reg_page("amd-ibs", "IBS_BR_TARGET")).unwrap();
    let facts = parse_xml("reg", text).unwrap().text();
    assert!(
        facts.contains("Presentonly when CPUID Fn8000_001B_EAX[BrnTrgt] (bit 5) = 1"),
        "{facts}"
    );
    let text = site()
        .get(&reg_page("intel-arch-lbr", "IA32_LBR_FROM_IP"))
        .unwrap();
    let facts = parse_xml("reg", text).unwrap().text();
    assert!(
        facts.contains("as many as the deepest depth ARCH_LBR_INFO.DEPTH_MASK lists"),
        "{facts}"
    );
    let text = site().get(&reg_page("amd-lbr-v2", "LBR_FROM")).unwrap();
    let facts = parse_xml("reg", text).unwrap().text();
    assert!(
        facts.contains("the first EXT_PERFMON_DEBUG.LBR_V2_STACK_SIZE"),
        "{facts}"
    );
}

#[test]
fn register_pages_say_what_changed_from_the_parent() {
    let text = site()
        .get(&reg_page("intel-v6", "IA32_PERFEVTSEL"))
        .unwrap();
    let root = parse_xml("reg", text).unwrap();
    let changes = root.text();
    assert!(changes.contains("Changes from intel-v5"));
    assert!(changes.contains("UMASK2") && changes.contains("47:40"));
    // IA32_A_PMC is as in an ancestor: no page of its own on intel-v6, a row of its page
    // that lists its fields with their bits and links to the page of the definition.
    let a_pmc = generation("intel-v6").register("IA32_A_PMC").unwrap();
    assert_ne!(a_pmc.defined_in, "intel-v6");
    assert!(site().get(&reg_page("intel-v6", "IA32_A_PMC")).is_none());
    let gen_page = site().get("gen/intel-v6/index.html").unwrap();
    let row = gen_page
        .split(r#"<tr id="reg-IA32_A_PMC">"#)
        .nth(1)
        .unwrap();
    let row = &row[..row.find("</tr>").unwrap()];
    let home = reg_page(&a_pmc.defined_in, "IA32_A_PMC");
    assert!(row.contains(&format!(r#"href="../../{home}""#)), "{row}");
    for f in &a_pmc.fields {
        assert!(row.contains(&format!("<code>{}</code>", f.name)), "{row}");
    }
    // IA32_PMC gains its perfmon v6 alias range: the change names it, and the page lists
    // both addresses of each counter.
    let text = site().get(&reg_page("intel-v6", "IA32_PMC")).unwrap();
    let changes = parse_xml("reg", text).unwrap().text();
    assert!(changes.contains("alias address"), "{changes}");
    assert!(
        changes.contains("0x1900, 0x1904, … 0x191C (every 4)"),
        "{changes}"
    );
    assert!(text.contains("<th scope=\"col\">Alias address</th>"));
    assert!(text.contains("<td><code>0xC4</code></td><td><code>0x190C</code></td>"));
    assert!(
        changes.contains("pmu_regs::intel::v6::IA32_PMC::alias_msr::<N>()"),
        "{changes}"
    );
}

#[test]
fn event_tables_carry_every_event_and_hide_default_columns() {
    for g in &model().generations {
        if g.events.is_empty() {
            continue;
        }
        let js = site().get(&format!("data/events/{}.js", g.id)).unwrap();
        let table = js_value(js, &format!("PMU.events[\"{}\"] = ", g.id));
        let cols = table["columns"].as_array().unwrap();
        let rows = table["rows"].as_array().unwrap();
        assert_eq!(rows.len(), g.events.len());
        let key = |k: &str| cols.iter().position(|c| c["key"] == k).unwrap();
        for (row, e) in rows.iter().zip(&g.events) {
            assert_eq!(row[key("name")], e.name.as_str());
            assert_eq!(row[key("event")], e.event);
            assert_eq!(row[key("umask")], e.umask);
        }
        let shown = |k: &str| cols[key(k)]["show"].as_bool().unwrap();
        assert!(shown("name") && shown("event") && shown("umask"));
        // A few main columns; every other attribute behind Details, with a full-word label
        // and a format that puts it in words (never JSON).
        let main: Vec<&str> = cols
            .iter()
            .filter(|c| c["place"] == "main")
            .map(|c| c["key"].as_str().unwrap())
            .collect();
        assert!(main.len() <= 6, "{}: {main:?}", g.id);
        for k in ["name", "code", "counters_text", "perf", "value"] {
            assert!(main.contains(&k), "{}: {k} is not a main column", g.id);
        }
        for c in cols {
            let k = c["key"].as_str().unwrap();
            assert!(
                docs::events::is_known(k),
                "{}: column {k} has no label",
                g.id
            );
            assert_ne!(c["kind"], "object", "{}: {k}", g.id);
            let kind = c["kind"].as_str().unwrap();
            for row in rows {
                let shown = docs::events::text(kind, &row[key(k)]);
                // Prose (descriptions, reasons) may hold brackets and quotes of its own.
                let syntax: &[char] = match kind {
                    "text" | "name" | "allow" => &['{'],
                    _ => &['{', '[', '"'],
                };
                assert!(!shown.contains(syntax), "{}: {k} shows {shown}", g.id);
            }
        }
        assert_eq!(shown("cmask"), g.events.iter().any(|e| e.cmask != 0));
        assert_eq!(shown("fixed"), g.events.iter().any(|e| e.fixed.is_some()));
        // The page holds no rows: they are built from the data file.
        let page = site().get(&format!("gen/{}/events.html", g.id)).unwrap();
        assert!(page.contains(&format!("data/events/{}.js", g.id)));
    }
}

/// "Known findings" lists every acknowledged warning once, with its generation, event, code and
/// reason, in model order; the index links to it and the event tables show the same entries.
#[test]
fn known_findings_list_every_acknowledged_warning() {
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    let expected: Vec<(String, String, String, String)> = docs::findings::collect(model())
        .into_iter()
        .map(|f| {
            (
                f.generation.to_owned(),
                f.event.to_owned(),
                f.code.to_owned(),
                f.reason.to_owned(),
            )
        })
        .collect();
    // Each acknowledged warning of a load has its row, and each row acknowledges one.
    assert_eq!(expected.len(), loaded.acknowledged());
    for d in loaded
        .diagnostics
        .iter()
        .filter(|d| d.acknowledged.is_some())
    {
        assert!(
            expected
                .iter()
                .any(|(_, e, c, r)| d.message.contains(&format!("`{e}`"))
                    && c == d.code
                    && Some(r.as_str()) == d.acknowledged.as_deref()),
            "{}",
            d.message
        );
    }
    let page = parse_xml("findings", site().get(docs::findings::PAGE).unwrap()).unwrap();
    let rows: Vec<(String, String, String, String)> = page
        .find_all("tbody")
        .into_iter()
        .flat_map(|t| t.find_all("tr"))
        .map(|tr| {
            let cells: Vec<String> = tr.find_all("td").iter().map(|td| td.text()).collect();
            (
                cells[0].clone(),
                cells[1].clone(),
                cells[2].clone(),
                cells[3].clone(),
            )
        })
        .collect();
    assert_eq!(rows, expected);
    assert!(
        page.text()
            .contains(&format!("{} acknowledged warnings in", expected.len())),
        "{}",
        page.text()
    );
    let md = site().get(docs::findings::MD_PAGE).unwrap();
    assert_eq!(md.matches("\n| [`").count(), expected.len(), "{md}");
    let index = site().get("index.html").unwrap();
    assert!(index.contains(r#"<a href="findings.html">Known findings</a>"#));
    assert!(
        site()
            .get("md/README.md")
            .unwrap()
            .contains("(findings.md)")
    );

    // The event tables show the entries of their generation's events.
    for g in &model().generations {
        let Some(js) = site().get(&format!("data/events/{}.js", g.id)) else {
            continue;
        };
        let table = js_value(js, &format!("PMU.events[\"{}\"] = ", g.id));
        let cols = table["columns"].as_array().unwrap();
        let col = cols.iter().position(|c| c["key"] == "allow").unwrap();
        assert_eq!(cols[col]["label"], "Acknowledged");
        assert_eq!(
            cols[col]["show"].as_bool(),
            Some(g.events.iter().any(|e| !e.allow.is_empty())),
            "{}",
            g.id
        );
        if cols[col]["show"] == true {
            let md = site().get(&format!("md/{}/events.md", g.id)).unwrap();
            assert!(md.contains("counter-not-in-event: "), "{}", g.id);
        }
    }
}

#[test]
fn decoder_data_lists_every_register_and_cpuid_output() {
    for g in &model().generations {
        let js = site().get(&format!("data/gen/{}.js", g.id)).unwrap();
        let data = js_value(js, &format!("PMU.gen[\"{}\"] = ", g.id));
        let targets = data["targets"].as_array().unwrap();
        let cpuid_outputs: usize = g.cpuid.iter().map(|c| c.registers.len()).sum();
        assert_eq!(targets.len(), g.registers.len() + cpuid_outputs);
        for r in &g.registers {
            let t = targets
                .iter()
                .find(|t| t["key"] == r.name.as_str())
                .unwrap();
            assert_eq!(t["reserved"], format!("0x{:X}", r.reserved_mask));
            assert_eq!(t["width"], r.width);
            assert_eq!(t["fields"].as_array().unwrap().len(), r.fields.len());
            assert_eq!(t["addresses"].as_array().unwrap().len(), r.addresses.len());
        }
    }
    let index = js_value(site().get("data/index.js").unwrap(), "PMU.index = ");
    assert_eq!(
        index["default"]["generation"],
        docs::DEFAULT_DECODER_GENERATION
    );
    assert_eq!(
        index["default"]["target"],
        generation(docs::DEFAULT_DECODER_GENERATION)
            .pmu
            .general
            .as_ref()
            .unwrap()
            .select
            .as_str()
    );
    // The decoder's picker names a model generation by its CPUs, not by its JSON file; an
    // architectural generation keeps its title.
    let title = |id: &str| {
        let gens = index["generations"].as_array().unwrap();
        let g = gens.iter().find(|g| g["id"] == id).unwrap();
        g["title"].as_str().unwrap().to_owned()
    };
    assert!(
        title("intel-sapphirerapids").contains("Sapphire Rapids"),
        "{}",
        title("intel-sapphirerapids")
    );
    assert!(!title("intel-sapphirerapids").contains(".json"));
    assert_eq!(title("intel-v3"), generation("intel-v3").title);
}
