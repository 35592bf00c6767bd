//! The documentation site (`cargo xtask gen-docs`): well-formed pages, diagrams that put
//! every field at its bits, escaping, determinism, scale, the generation diffs and writing
//! to disk. The browser side (the decoder) is tested in `docs_e2e.rs`.

mod support;

use pmu_defs::model::{Access, Field, Generation};
use std::collections::{BTreeMap, BTreeSet};
use support::{Element, model, parse_xml, site};
use xtask::docs::{self, diff};

fn reg_page(g: &str, r: &str) -> String {
    format!("gen/{g}/reg/{r}.html")
}

// ---------------------------------------------------------------------------------------
// Well-formed markup
// ---------------------------------------------------------------------------------------

#[test]
fn every_page_and_svg_is_well_formed_xml() {
    let mut checked = 0;
    for (path, text) in site().files() {
        if path.ends_with(".html") || path.ends_with(".svg") {
            let root = parse_xml(path, text).unwrap_or_else(|e| panic!("{e}"));
            let want = if path.ends_with(".svg") {
                "svg"
            } else {
                "html"
            };
            assert_eq!(root.name, want, "{path}: root element");
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} pages checked");
}

#[test]
fn every_page_parses_as_html5_without_errors() {
    for (path, text) in site().files() {
        if path.ends_with(".html") {
            let doc = scraper::Html::parse_document(text);
            assert!(
                doc.errors.is_empty(),
                "{path}: HTML parse errors: {:?}",
                doc.errors
            );
        }
    }
}

#[test]
fn pages_link_only_to_files_of_the_site() {
    let files = site().files();
    for (path, text) in files {
        if !path.ends_with(".html") {
            continue;
        }
        let root = parse_xml(path, text).unwrap();
        let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
        for e in root.descendants() {
            let target = match (e.name.as_str(), e.attr("href"), e.attr("src")) {
                ("a" | "link", Some(h), _) => h,
                ("script", _, Some(s)) => s,
                _ => continue,
            };
            let target = target.split('#').next().unwrap_or_default();
            if target.is_empty() || target.starts_with("http") {
                continue;
            }
            let resolved = resolve(dir, target);
            // Markdown is linked from the index as a directory entry point.
            assert!(
                files.contains_key(&resolved),
                "{path}: link to {target} ({resolved}) has no file"
            );
        }
    }
}

fn resolve(dir: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for seg in rel.split('/') {
        match seg {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            s => parts.push(s),
        }
    }
    parts.join("/")
}

#[test]
fn scripts_are_external_files_only() {
    // file:// pages load their data with <script src>, never inline code or fetch/XHR.
    for (path, text) in site().files() {
        if path.ends_with(".html") {
            let root = parse_xml(path, text).unwrap();
            for s in root.find_all("script") {
                assert!(s.attr("src").is_some(), "{path}: inline <script>");
                assert!(s.text().trim().is_empty(), "{path}: script with a body");
            }
        }
        if path.ends_with(".js") {
            for forbidden in ["fetch(", "XMLHttpRequest", "innerHTML", "eval("] {
                assert!(!text.contains(forbidden), "{path} uses {forbidden}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Diagrams
// ---------------------------------------------------------------------------------------

fn num(e: &Element, attr: &str) -> u32 {
    e.attr(attr)
        .unwrap_or_else(|| panic!("<{}> without {attr}", e.name))
        .parse()
        .unwrap_or_else(|_| panic!("{attr} of <{}> is not a number", e.name))
}

fn range_mask(lsb: u32, msb: u32) -> u64 {
    (lsb..=msb).fold(0, |m, b| m | 1u64 << b)
}

/// The register bits of element `i`, computed here from `bits` and `array` (split parts
/// low first, arrays shifted by `stride * i`).
fn expected_mask(f: &Field, i: u32) -> u64 {
    let shift = f.array.map_or(0, |a| a.stride * i);
    f.bits
        .iter()
        .fold(0, |m, b| m | range_mask(b.lsb + shift, b.msb + shift))
}

/// Checks one diagram against the fields it draws.
fn check_diagram(what: &str, svg: &Element, width: u32, fields: &[Field], reserved: u64) {
    let cell = num(svg, "data-cell");
    let origin = num(svg, "data-origin");
    let row_bits = num(svg, "data-row-bits");
    assert_eq!(num(svg, "data-width"), width, "{what}: data-width");
    assert_eq!(row_bits, 32, "{what}: rows of 32 bits");

    // Accessibility: the title and description the svg points at exist and say something.
    let ids: Vec<&str> = svg.attr("aria-labelledby").unwrap().split(' ').collect();
    for id in &ids {
        let e = svg
            .descendants()
            .into_iter()
            .find(|e| e.attr("id") == Some(id))
            .unwrap_or_else(|| panic!("{what}: aria-labelledby {id} not found"));
        assert!(!e.text().trim().is_empty(), "{what}: empty {}", e.name);
    }
    assert_eq!(svg.attr("role"), Some("img"));

    let rows: Vec<&Element> = svg
        .find_all("g")
        .into_iter()
        .filter(|g| g.attr("class") == Some("row"))
        .collect();
    assert_eq!(rows.len() as u32, width.div_ceil(32), "{what}: rows");

    let mut covered = 0u64;
    let mut drawn: BTreeMap<(String, Option<u32>), u64> = BTreeMap::new();
    let mut drawn_reserved = 0u64;
    let mut texts: BTreeSet<String> = BTreeSet::new();
    for row in &rows {
        let row_lsb = num(row, "data-row-lsb");
        let row_msb = num(row, "data-row-msb");
        let y = num(row, "data-y");
        for t in row.find_all("text") {
            texts.insert(t.text());
        }
        for rect in row.find_all("rect") {
            if rect.attr("data-lsb").is_none() {
                continue;
            }
            let (lsb, msb) = (num(rect, "data-lsb"), num(rect, "data-msb"));
            assert!(
                row_lsb <= lsb && lsb <= msb && msb <= row_msb,
                "{what}: box {msb}:{lsb} outside its row {row_msb}:{row_lsb}"
            );
            // Geometry: most significant bit on the left.
            assert_eq!(
                num(rect, "x"),
                origin + (row_bits - 1 - msb % row_bits) * cell,
                "{what}: x of box {msb}:{lsb}"
            );
            assert_eq!(
                num(rect, "width"),
                (msb - lsb + 1) * cell,
                "{what}: width of box {msb}:{lsb}"
            );
            assert_eq!(num(rect, "y"), y, "{what}: y of box {msb}:{lsb}");
            let mask = range_mask(lsb, msb);
            assert_eq!(covered & mask, 0, "{what}: boxes overlap at {msb}:{lsb}");
            covered |= mask;
            if rect.attr("data-reserved") == Some("true") {
                drawn_reserved |= mask;
                assert!(rect.attr("class").unwrap().contains("rsv"));
            } else {
                let field = rect
                    .attr("data-field")
                    .expect("field box without data-field");
                let index = rect.attr("data-index").map(|i| i.parse::<u32>().unwrap());
                *drawn.entry((field.to_owned(), index)).or_default() |= mask;
                // A split field's part says which logical bits it holds.
                let f = fields.iter().find(|f| f.name == field).unwrap();
                if f.bits.len() > 1 {
                    let part = rect
                        .attr("data-part")
                        .expect("split field box without data-part");
                    let shift = f.array.map_or(0, |a| a.stride * index.unwrap_or(0));
                    let mut logical = 0;
                    let mut found = false;
                    for b in &f.bits {
                        let text = if b.width() == 1 {
                            logical.to_string()
                        } else {
                            format!("{}:{}", logical + b.width() - 1, logical)
                        };
                        if text == part {
                            assert!(
                                b.lsb + shift <= lsb && msb <= b.msb + shift,
                                "{what}: {field} part {part} drawn at {msb}:{lsb}"
                            );
                            found = true;
                        }
                        logical += b.width();
                    }
                    assert!(found, "{what}: {field} has no part {part}");
                }
            }
        }
    }
    let all = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    assert_eq!(covered, all, "{what}: every bit is drawn exactly once");
    assert_eq!(drawn_reserved, reserved, "{what}: reserved bits");

    let mut want: BTreeMap<(String, Option<u32>), u64> = BTreeMap::new();
    for f in fields {
        for i in 0..f.array.map_or(1, |a| a.count) {
            want.insert(
                (f.name.clone(), f.array.map(|_| i)),
                expected_mask(f, i) & all,
            );
        }
        // Every field is named somewhere in the drawing (in its box or called out).
        assert!(
            texts.iter().any(|t| t.starts_with(&f.name)),
            "{what}: no label for {}",
            f.name
        );
    }
    assert_eq!(drawn, want, "{what}: field boxes");
}

fn the_svg<'a>(root: &'a Element, register: &str) -> &'a Element {
    let svgs: Vec<&Element> = root
        .find_all("svg")
        .into_iter()
        .filter(|s| s.attr("data-register") == Some(register))
        .collect();
    assert_eq!(svgs.len(), 1, "one diagram of {register}");
    svgs[0]
}

#[test]
fn every_register_diagram_puts_every_field_at_its_bits() {
    let mut n = 0;
    for g in &model().generations {
        for r in &g.registers {
            let path = reg_page(&g.id, &r.name);
            let text = site()
                .get(&path)
                .unwrap_or_else(|| panic!("no page {path}"));
            let root = parse_xml(&path, text).unwrap();
            let svg = the_svg(&root, &r.name);
            check_diagram(&path, svg, r.width, &r.fields, r.reserved_mask);
            n += 1;
        }
    }
    assert!(n >= 60, "{n} registers checked");
}

#[test]
fn every_cpuid_diagram_puts_every_field_at_its_bits() {
    for g in &model().generations {
        let path = format!("gen/{}/index.html", g.id);
        let root = parse_xml(&path, site().get(&path).unwrap()).unwrap();
        for c in &g.cpuid {
            for r in &c.registers {
                let name = format!("{}.{}", c.name, r.register.to_uppercase());
                let svg = the_svg(&root, &name);
                check_diagram(
                    &format!("{path} {name}"),
                    svg,
                    32,
                    &r.fields,
                    u64::from(r.reserved_mask),
                );
            }
        }
    }
}

#[test]
fn standalone_diagrams_match_the_model_too() {
    // The Markdown's SVG files: shared between generations with one definition.
    for g in &model().generations {
        let md = site().get(&format!("md/{}/README.md", g.id)).unwrap();
        for r in &g.registers {
            let marker = format!("![{} bit layout](../", r.name.replace('_', "\\_"));
            let start = md
                .find(&marker)
                .unwrap_or_else(|| panic!("{}: no diagram for {}", g.id, r.name))
                + marker.len();
            let file = &md[start..start + md[start..].find(')').unwrap()];
            let path = format!("md/{file}");
            let text = site().get(&path).unwrap_or_else(|| panic!("no {path}"));
            let svg = parse_xml(&path, text).unwrap();
            assert!(svg.find_all("style").len() == 1, "{path}: own styles");
            check_diagram(&path, &svg, r.width, &r.fields, r.reserved_mask);
        }
    }
}

#[test]
fn split_and_array_fields_are_drawn_per_part_and_element() {
    // AMD's 12-bit event select: two boxes. Intel's fixed-counter control: one box per counter.
    let g = model().generation("amd-core").unwrap();
    let sel = g.pmu.general.as_ref().unwrap().select.clone();
    let path = reg_page("amd-core", &sel);
    let root = parse_xml(&path, site().get(&path).unwrap()).unwrap();
    let mut parts: Vec<(String, u32, u32)> = the_svg(&root, &sel)
        .find_all("rect")
        .into_iter()
        .filter(|r| r.attr("data-field") == Some("EVENT_SELECT"))
        .map(|r| {
            (
                r.attr("data-part").unwrap().to_owned(),
                num(r, "data-lsb"),
                num(r, "data-msb"),
            )
        })
        .collect();
    parts.sort_by_key(|p| p.1);
    assert_eq!(
        parts,
        vec![("7:0".to_owned(), 0, 7), ("11:8".to_owned(), 32, 35)]
    );

    let v5 = model().generation("intel-v5").unwrap();
    let ctrl = v5.pmu.fixed.as_ref().unwrap().control.clone().unwrap();
    let path = reg_page("intel-v5", &ctrl);
    let root = parse_xml(&path, site().get(&path).unwrap()).unwrap();
    let mut enable: Vec<(u32, u32, u32)> = the_svg(&root, &ctrl)
        .find_all("rect")
        .into_iter()
        .filter(|r| r.attr("data-field") == Some("ENABLE"))
        .map(|r| (num(r, "data-index"), num(r, "data-lsb"), num(r, "data-msb")))
        .collect();
    enable.sort_unstable();
    // SDM: ENABLE for fixed counter i is bits 4i+1:4i.
    assert_eq!(enable, vec![(0, 0, 1), (1, 4, 5), (2, 8, 9), (3, 12, 13)]);
}

// ---------------------------------------------------------------------------------------
// Content
// ---------------------------------------------------------------------------------------

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
        for r in &g.registers {
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
                let doc: String = f.doc.split_whitespace().collect::<Vec<_>>().join(" ");
                let row: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
                assert!(row.contains(&doc), "{path}: {} doc", f.name);
            }
        }
    }
}

fn generation(id: &str) -> &'static Generation {
    model().generation(id).unwrap()
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
fn register_pages_say_what_changed_from_the_parent() {
    let text = site()
        .get(&reg_page("intel-v6", "IA32_PERFEVTSEL"))
        .unwrap();
    let root = parse_xml("reg", text).unwrap();
    let changes = root.text();
    assert!(changes.contains("Changes from intel-v5"));
    assert!(changes.contains("UMASK2") && changes.contains("47:40"));
    let text = site().get(&reg_page("intel-v6", "IA32_A_PMC")).unwrap();
    assert!(text.contains("None: the register is as in the parent generation."));
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
    assert!(text.contains("pmu_regs::intel::v6::IA32_PMC::alias_msr::&lt;N&gt;()"));
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

/// The JSON value assigned after `prefix` in a generated data file.
fn js_value(js: &str, prefix: &str) -> serde_json::Value {
    let start = js.find(prefix).unwrap_or_else(|| panic!("no {prefix}")) + prefix.len();
    let end = js[start..].find(";\n").unwrap() + start;
    serde_json::from_str(&js[start..end]).unwrap()
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
}

// ---------------------------------------------------------------------------------------
// The YAML reference (yaml.html, md/yaml.md), rendered from the JSON Schema
// ---------------------------------------------------------------------------------------

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
        Access::Write1ToClear,
        Access::Write1ToSet,
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

// ---------------------------------------------------------------------------------------
// Escaping
// ---------------------------------------------------------------------------------------

const NASTY: &str =
    r#"<script>alert("x")</script> & 'single' "double" | *star* [l](javascript:x) </textarea>"#;

fn nasty_model() -> pmu_defs::Model {
    let q = serde_json::to_string(NASTY).unwrap(); // a valid YAML double-quoted scalar
    let yaml = format!(
        r#"generation: evil-base
vendor: intel
title: {q}
manual: {q}
doc: {q}
pmu:
  encoding: {{ event: EVENT_SELECT, umask: UMASK }}
registers:
  - name: EVIL_SEL
    doc: {q}
    manual: {q}
    msr: {{ base: 0x100, count: 2, stride: 1 }}
    role: event-select
    fields:
      - name: EVENT_SELECT
        bits: 7:0
        doc: {q}
        requires: {q}
        values:
          - {{ name: V1, value: 1, doc: {q} }}
      - name: UMASK
        bits: 15:8
        doc: {q}
        deprecated: {{ since: evil-base, when: {q}, doc: {q} }}
  - name: EVIL_CTR
    msr: {{ base: 0x200, count: 2, stride: 1 }}
    role: counter
    fields:
      - {{ name: COUNT, bits: 47:0, doc: {q} }}
cpuid:
  - name: EVIL_LEAF
    leaf: 0x0A
    doc: {q}
    manual: {q}
    eax:
      - {{ name: X, bits: 7:0, doc: {q} }}
constraints:
  - id: evil-constraint
    register: EVIL_SEL
    when: {{ UMASK: 1 }}
    severity: warning
    message: {q}
    manual: {q}
events:
  - {{ name: EVIL.EVENT, event: 0x2E, umask: 0x41, doc: {q}, counters: [1], pebs-counters: [0], allow: [{{ code: counter-not-in-event, reason: {q} }}] }}
"#
    );
    let child = r#"generation: evil-child
extends: evil-base
title: child
manual: m
doc: d
registers:
  - name: EVIL_SEL
    fields:
      - { name: EVENT_SELECT, doc: "changed </del><script>alert(9)</script>" }
"#;
    let mut loader = pmu_defs::Loader::new();
    loader.add_str("evil.yaml", yaml);
    loader.add_str("child.yaml", child);
    let loaded = loader.finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    loaded.model
}

#[test]
fn text_from_yaml_is_escaped_in_html_svg_markdown_and_js() {
    let model = nasty_model();
    let site = docs::build(&model);
    for (path, text) in site.files() {
        if path.starts_with("assets/") {
            continue;
        }
        for raw in [
            "<script>alert",
            "</script> &",
            "</textarea>",
            "</del><script>",
        ] {
            assert!(!text.contains(raw), "{path} contains raw {raw:?}");
        }
        if path.ends_with(".html") || path.ends_with(".svg") {
            let root = parse_xml(path, text).unwrap_or_else(|e| panic!("{e}"));
            for s in root.find_all("script") {
                assert!(
                    s.attr("src").is_some() && s.text().is_empty(),
                    "{path}: injected script"
                );
            }
        }
        if path.ends_with(".html") {
            assert!(
                scraper::Html::parse_document(text).errors.is_empty(),
                "{path}"
            );
        }
    }

    // The text survives unchanged (escaped once, not twice) in each context.
    let page = site.get("gen/evil-base/reg/EVIL_SEL.html").unwrap();
    let root = parse_xml("page", page).unwrap();
    assert!(root.text().contains(NASTY), "text content");
    let titles: Vec<String> = root
        .descendants()
        .into_iter()
        .filter_map(|e| e.attr("title").map(str::to_owned))
        .collect();
    assert!(
        titles.iter().any(|t| t == NASTY),
        "attribute value: {titles:?}"
    );
    let svg = parse_xml("svg", site.get("md/svg/evil-base/EVIL_SEL.svg").unwrap()).unwrap();
    assert_eq!(svg.attr("data-register"), Some("EVIL_SEL"));

    let js = site.get("data/events/evil-base.js").unwrap();
    let table = js_value(js, "PMU.events[\"evil-base\"] = ");
    let doc_col = table["columns"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["key"] == "doc")
        .unwrap();
    assert_eq!(table["rows"][0][doc_col], NASTY);
    let data = js_value(
        site.get("data/gen/evil-base.js").unwrap(),
        "PMU.gen[\"evil-base\"] = ",
    );
    assert_eq!(data["title"], NASTY);

    let allow_col = table["columns"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["key"] == "allow")
        .unwrap();
    assert_eq!(table["rows"][0][allow_col][0]["reason"], NASTY);
    let findings = parse_xml("findings", site.get("findings.html").unwrap()).unwrap();
    assert!(findings.text().contains(NASTY), "findings page");
    let md = site.get("md/findings.md").unwrap();
    assert!(
        md.contains("&lt;script&gt;alert(\"x\")&lt;/script&gt; &amp; 'single'"),
        "{md}"
    );
    let md = site.get("md/evil-base/README.md").unwrap();
    assert!(md.contains("&lt;script&gt;alert(\"x\")&lt;/script&gt; &amp; 'single'"));
    assert!(md.contains("\\| \\*star\\* \\[l\\]"));
    let diff = site.get("gen/evil-child/diff.html").unwrap();
    assert!(
        parse_xml("diff", diff)
            .unwrap()
            .text()
            .contains("changed </del><script>alert(9)</script>")
    );
}

// ---------------------------------------------------------------------------------------
// Determinism and writing
// ---------------------------------------------------------------------------------------

#[test]
fn output_is_deterministic() {
    let a = docs::build(model());
    let b = docs::build(model());
    assert!(a == b, "two builds differ");
    // From a second, independent load too.
    let again = pmu_defs::Loader::new().with_defaults().finish().model;
    assert!(
        docs::build(&again) == a,
        "a fresh load builds a different site"
    );

    let d1 = tempfile::tempdir().unwrap();
    let d2 = tempfile::tempdir().unwrap();
    a.write(d1.path()).unwrap();
    b.write(d2.path()).unwrap();
    for rel in a.files().keys() {
        let x = std::fs::read(d1.path().join(rel)).unwrap();
        let y = std::fs::read(d2.path().join(rel)).unwrap();
        assert!(x == y, "{rel} differs between runs");
    }
    let again = a.write(d1.path()).unwrap();
    assert_eq!((again.written, again.unchanged), (0, a.files().len()));
    for text in a.files().values() {
        assert!(!text.contains("\r\n"));
    }
}

#[test]
fn writing_replaces_stale_pages_and_refuses_foreign_directories() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let big = docs::build(&nasty_model());
    big.write(&out).unwrap();
    assert!(out.join("gen/evil-child/diff.html").is_file());

    // A model without evil-child: its pages go, nothing else is touched.
    std::fs::write(out.join("mine.txt"), "not generated").unwrap();
    let small = docs::build(model());
    let s = small.write(&out).unwrap();
    assert!(s.removed > 0);
    assert!(!out.join("gen/evil-child").exists());
    assert!(out.join("mine.txt").is_file());
    assert!(out.join("gen/intel-v3/reg/IA32_PERFEVTSEL.html").is_file());

    // A non-empty directory that gen-docs did not write is refused.
    let foreign = dir.path().join("foreign");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "x").unwrap();
    let err = small.write(&foreign).unwrap_err();
    assert!(
        err.contains("not written by `cargo xtask gen-docs`"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&foreign).unwrap().count(), 1);
}

// ---------------------------------------------------------------------------------------
// Scale: ~40 model generations with ~17,000 events
// ---------------------------------------------------------------------------------------

#[test]
fn scales_to_forty_models_and_seventeen_thousand_events() {
    let mut loader = pmu_defs::Loader::new().with_defaults();
    let per_model = 425;
    for m in 0..40 {
        let mut yaml = format!(
            "generation: model-{m:02}\nextends: intel-v{}\ntitle: Synthetic model {m}\nmanual: none\ndoc: Synthetic.\nevents:\n",
            4 + m % 3
        );
        for i in 0..per_model {
            yaml.push_str(&format!(
                "  - {{ name: SYN{m}_EVENT_{i}.SUB, event: {}, umask: {}, cmask: {}, doc: Synthetic event number {i} of model {m} }}\n",
                i % 256,
                (i / 256) + 1,
                i % 3
            ));
        }
        loader.add_str(format!("model-{m:02}.yaml"), yaml);
    }
    let loaded = loader.finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let total: usize = loaded
        .model
        .generations
        .iter()
        .map(|g| g.events.len())
        .sum();
    assert!(total >= 17_000, "{total}");

    let started = std::time::Instant::now();
    let site = docs::build(&loaded.model);
    let took = started.elapsed();
    eprintln!(
        "built {} files for {total} events in {took:?}",
        site.files().len()
    );

    let biggest = site
        .files()
        .iter()
        .map(|(p, t)| (t.len(), p))
        .max()
        .unwrap();
    assert!(
        biggest.0 < 1_500_000,
        "largest file {} is {} bytes",
        biggest.1,
        biggest.0
    );
    for m in 0..40 {
        let id = format!("model-{m:02}");
        let page = site.get(&format!("gen/{id}/events.html")).unwrap();
        assert!(
            page.len() < 64_000,
            "{id}: events page has {} bytes",
            page.len()
        );
        assert!(!page.contains("SYN"), "{id}: rows are not in the page");
        let js = site.get(&format!("data/events/{id}.js")).unwrap();
        let table = js_value(js, &format!("PMU.events[\"{id}\"] = "));
        let g = loaded.model.generation(&id).unwrap();
        assert_eq!(table["rows"].as_array().unwrap().len(), g.events.len());
        // No other generation's events in this file.
        assert!(!js.contains(&format!("SYN{}_", (m + 1) % 40)));
    }
    let index = site.get("data/index.js").unwrap();
    assert!(index.len() < 64_000, "index.js has {} bytes", index.len());
}

// ---------------------------------------------------------------------------------------
// Site-wide search index
// ---------------------------------------------------------------------------------------

/// The URL `site.js` builds for a search entry (see `docs::search`), relative to the root.
fn search_url(index: &serde_json::Value, e: &serde_json::Value) -> (String, Option<String>) {
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
/// it, and links every other generation with the same type.
#[test]
fn register_pages_show_their_rust_path_and_the_generations_sharing_the_type() {
    for p in pmu_codegen::register_paths(model()) {
        let page = reg_page(&p.generation, &p.register);
        let text = site().get(&page).unwrap();
        assert!(
            text.contains(&format!(r#"<code class="rust-path">{}</code>"#, p.path)),
            "{page}: {}",
            p.path
        );
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
