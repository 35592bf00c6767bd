//! Diagrams: every register and CPUID diagram puts every field at its bits, split and array fields
//! included.

use super::*;

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
    // An image, or a group when its fields are links (an image holds no controls).
    let linked = !svg.find_all("a").is_empty();
    assert_eq!(
        svg.attr("role"),
        Some(if linked { "group" } else { "img" }),
        "{what}"
    );

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
        // The diagram is on the page of the generation defining the register.
        for r in g.registers.iter().filter(|r| r.defined_in == g.id) {
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
        // Drawn on the page of the generation defining the leaf.
        for c in g.cpuid.iter().filter(|c| c.defined_in == g.id) {
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
