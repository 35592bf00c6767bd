//! HTML pages: the index, one page per generation, one per register of each generation, and
//! the decoder shell (its data comes from `data/`, see `data.rs`).

use super::escape::{html, url};
use super::layout::{self, Nav, Page};
use super::svg::{self, Diagram};
use super::{Ctx, Site, diff, format, paths};
use pmu_defs::model::{Access, Constraint, CpuidLeaf, Field, Generation, Register};
use std::fmt::Write;

pub fn all(cx: &Ctx<'_>, site: &mut Site) {
    index(cx, site);
    decoder(cx, site);
    for g in &cx.model.generations {
        generation(cx, g, site);
        let changes = cx.parent(g).map(|p| diff::registers(p, g));
        for r in &g.registers {
            let change = changes
                .as_ref()
                .map(|(list, _)| list.iter().find(|d| d.new_name() == Some(r.name.as_str())));
            register(cx, g, r, change, site);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------

/// Paragraphs of a doc string: blank lines separate paragraphs, single line breaks are
/// wrapping.
pub fn prose(doc: &str) -> String {
    let mut out = String::new();
    for para in doc.split("\n\n") {
        let text: Vec<&str> = para.split_whitespace().collect();
        if !text.is_empty() {
            let _ = write!(out, "<p>{}</p>", html(&text.join(" ")));
        }
    }
    out
}

/// A doc string folded to one line (table cells).
pub fn inline(doc: &str) -> String {
    let text: Vec<&str> = doc.split_whitespace().collect();
    html(&text.join(" ")).to_string()
}

pub fn access_badge(a: Access) -> String {
    let class = match a {
        Access::ReadWrite => "rw",
        Access::ReadOnly => "ro",
        Access::WriteOnly => "wo",
        Access::Write1ToClear => "w1c",
        Access::Write1ToSet => "w1s",
    };
    format!(r#"<span class="acc acc-{class}">{}</span>"#, a.as_str())
}

pub fn gen_link(root: &str, id: &str) -> String {
    format!(
        r#"<a href="{root}{}"><code>{}</code></a>"#,
        html(&paths::generation(id)),
        html(id)
    )
}

pub fn reg_link(root: &str, gen_id: &str, reg: &str) -> String {
    format!(
        r#"<a href="{root}{}"><code>{}</code></a>"#,
        html(&paths::register(gen_id, reg)),
        html(reg)
    )
}

pub fn decoder_link(root: &str, gen_id: &str, key: &str) -> String {
    format!("{root}decoder.html#gen={}&reg={}", url(gen_id), url(key))
}

fn crumbs(root: &str, items: &[(Option<String>, String)]) -> String {
    let mut out = String::from(r#"<nav class="crumbs" aria-label="Breadcrumbs">"#);
    let _ = write!(out, r#"<a href="{root}index.html">Generations</a>"#);
    for (href, text) in items {
        out.push_str(r#"<span aria-hidden="true"> › </span>"#);
        match href {
            Some(h) => {
                let _ = write!(out, r#"<a href="{}">{}</a>"#, html(h), html(text));
            }
            None => {
                let _ = write!(out, r#"<span>{}</span>"#, html(text));
            }
        }
    }
    out.push_str("</nav>");
    out
}

/// `since`, `deprecated` and `requires` of a field.
fn availability(root: &str, f: &Field) -> String {
    let mut out = format!(r#"<div>since {}</div>"#, gen_link(root, &f.since));
    if let Some(d) = &f.deprecated {
        let _ = write!(
            out,
            r#"<div class="dep"><span class="tag tag-dep">deprecated</span> from {}"#,
            gen_link(root, &d.since)
        );
        if let Some(w) = &d.when {
            let _ = write!(out, " when <code>{}</code>", html(w));
        }
        out.push_str("</div>");
        if !d.doc.is_empty() {
            let _ = write!(out, r#"<div class="note">{}</div>"#, inline(&d.doc));
        }
    }
    if let Some(r) = &f.requires {
        let _ = write!(
            out,
            r#"<div class="req"><span class="tag tag-req">requires</span> <code>{}</code></div>"#,
            html(r)
        );
    }
    out
}

/// The bits column of a field table.
fn bits_cell(f: &Field) -> String {
    let mut out = format!("<code>{}</code>", html(&format::field_bits(f)));
    if f.bits.len() > 1 {
        out.push_str(r#"<div class="note">split field, low part first</div>"#);
    }
    if let (Some(shape), Some(elems)) = (format::array_shape(f), format::element_bits(f)) {
        let _ = write!(
            out,
            r#"<div class="note">{} <span class="elems">({})</span></div>"#,
            html(&shape),
            html(&elems)
        );
    }
    out
}

/// A field table (registers and CPUID outputs).
fn field_table(root: &str, fields: &[Field], reg_access: Option<Access>, anchors: bool) -> String {
    let mut out = String::from(
        r#"<div class="table-wrap"><table class="fields"><thead><tr><th scope="col">Bits</th><th scope="col">Field</th><th scope="col">Access</th><th scope="col">Availability</th><th scope="col">Description</th></tr></thead><tbody>"#,
    );
    for (i, f) in fields.iter().enumerate() {
        let id = if anchors {
            format!(r#" id="field-{}""#, html(&f.name))
        } else {
            String::new()
        };
        let acc = if reg_access == Some(f.access) {
            format!(r#"<span class="same">{}</span>"#, access_badge(f.access))
        } else {
            access_badge(f.access)
        };
        let _ = write!(
            out,
            r#"<tr{id}><td class="bits">{}</td><td class="fname"><span class="swatch c{}" aria-hidden="true"></span><code>{}</code></td><td>{acc}</td><td class="avail">{}</td><td class="doc">{}"#,
            bits_cell(f),
            i % svg::COLOURS,
            html(&f.name),
            availability(root, f),
            prose(&f.doc)
        );
        if !f.values.is_empty() {
            out.push_str(r#"<table class="values"><tbody>"#);
            for v in &f.values {
                let _ = write!(
                    out,
                    r#"<tr><td><code>{}</code></td><td><code>{}</code></td><td>{}</td></tr>"#,
                    html(&format::hex(v.value)),
                    html(&v.name),
                    inline(&v.doc)
                );
            }
            out.push_str("</tbody></table>");
        }
        out.push_str("</td></tr>");
    }
    out.push_str("</tbody></table></div>");
    out
}

fn constraints_table(cs: &[&Constraint], root: &str, gen_id: &str, with_register: bool) -> String {
    let mut out = String::from(
        r#"<div class="table-wrap"><table class="constraints"><thead><tr><th scope="col">Id</th>"#,
    );
    if with_register {
        out.push_str(r#"<th scope="col">Register</th>"#);
    }
    out.push_str(r#"<th scope="col">When</th><th scope="col">Severity</th><th scope="col">Message</th></tr></thead><tbody>"#);
    for c in cs {
        let when: Vec<String> = c
            .when
            .iter()
            .map(|w| format!("{} = {}", w.field, format::hex(w.value)))
            .collect();
        let sev = match c.severity {
            pmu_defs::model::Severity::Error => r#"<span class="tag tag-err">error</span>"#,
            pmu_defs::model::Severity::Warning => r#"<span class="tag tag-warn">warning</span>"#,
        };
        let _ = write!(out, r#"<tr><td><code>{}</code></td>"#, html(&c.id));
        if with_register {
            let _ = write!(out, "<td>{}</td>", reg_link(root, gen_id, &c.register));
        }
        let _ = write!(
            out,
            r#"<td><code>{}</code></td><td>{sev}</td><td>{}"#,
            html(&when.join(" and ")),
            inline(&c.message)
        );
        if !c.manual.is_empty() {
            let _ = write!(out, r#"<div class="note">{}</div>"#, inline(&c.manual));
        }
        out.push_str("</td></tr>");
    }
    out.push_str("</tbody></table></div>");
    out
}

// ---------------------------------------------------------------------------------------
// Index
// ---------------------------------------------------------------------------------------

fn index(cx: &Ctx<'_>, site: &mut Site) {
    let path = "index.html";
    let mut b = String::new();
    let total_events: usize = cx.model.generations.iter().map(|g| g.events.len()).sum();
    let _ = write!(
        b,
        r#"<h1>x86 performance-monitoring registers</h1>
<p class="lede">Every model-specific register, bitfield, CPUID leaf and event that the YAML definitions describe, generation by generation: bit layouts drawn like the manuals' figures, field tables with availability, what changed between generations, searchable event tables, and a decoder for register values.</p>
<div class="cards">
<a class="card" href="decoder.html"><strong>Decoder</strong><span>Paste a register value and see every field, reserved bits and the event it encodes.</span></a>
<a class="card" href="yaml.html"><strong>Writing definitions</strong><span>The YAML reference: every key of a definition file, its values and meaning, and the editor schema.</span></a>
"#
    );
    if let Some((g, reg)) = cx
        .decoder_default()
        .filter(|(g, reg)| g.pmu.general.as_ref().is_some_and(|s| &s.select == reg))
    {
        let _ = writeln!(
            b,
            r#"<a class="card" href="{}"><strong><code>{}</code></strong><span>The event select of <code>{}</code>: start here to read a bit layout.</span></a>"#,
            html(&paths::register(&g.id, &reg)),
            html(&reg),
            html(&g.id)
        );
    }
    let _ = write!(
        b,
        r#"<div class="card stat"><strong>{}</strong><span>{}, {}</span></div>
</div>
<h2>Generations</h2>
<p>Each generation either stands alone or <em>extends</em> another and lists only what differs. The tree below follows <code>extends</code>; every generation page links to its changes from the parent.</p>
<div class="table-wrap"><table class="gens"><thead><tr><th scope="col">Generation</th><th scope="col">Title</th><th scope="col" class="num">Registers</th><th scope="col" class="num">Events</th><th scope="col">Changes</th></tr></thead><tbody>
"#,
        format::plural(cx.model.generations.len(), "generation", "generations"),
        format::plural(
            cx.model.generations.iter().map(|g| g.registers.len()).sum(),
            "register entry",
            "register entries"
        ),
        format::plural(total_events, "event entry", "event entries")
    );
    for g in cx.roots() {
        index_rows(cx, g, 0, &mut b);
    }
    b.push_str("</tbody></table></div>\n");
    b.push_str(r#"<h2>Also here</h2>
<ul>
<li><a href="md/README.md">Markdown</a>: the same content as Markdown files with standalone SVG diagrams, for reading in a repository browser.</li>
<li><a href="yaml.html">Writing definitions</a>: the YAML reference, with the JSON Schema for your editor (<a href="schema/generation.schema.json">download</a>).</li>
<li>Register values can be linked: <code>decoder.html#gen=…&amp;reg=…&amp;value=…</code>.</li>
"#);
    let findings = super::findings::collect(cx.model).len();
    let _ = writeln!(
        b,
        r#"<li><a href="{}">Known findings</a>: {} about the definitions, reviewed and acknowledged with an <code>allow:</code>, each with its reason.</li>
</ul>"#,
        super::findings::PAGE,
        html(&format::plural(findings, "warning", "warnings"))
    );
    let page = Page {
        path,
        title: "Overview".to_owned(),
        nav: Nav::Home,
        body: b,
        scripts: vec![],
        main_attrs: String::new(),
    };
    site.add(path.to_owned(), layout::render(cx, &page));
}

fn index_rows(cx: &Ctx<'_>, g: &Generation, depth: usize, b: &mut String) {
    let events = if g.events.is_empty() {
        "<span class=\"muted\">none</span>".to_owned()
    } else {
        format!(
            r#"<a href="{}">{}</a>"#,
            html(&paths::events(&g.id)),
            format::thousands(g.events.len())
        )
    };
    let changes = match &g.extends {
        Some(p) => format!(
            r#"<a href="{}">from <code>{}</code></a>"#,
            html(&paths::diff(&g.id)),
            html(p)
        ),
        None => format!(
            r#"<span class="muted">stands alone ({})</span>"#,
            html(vendor(g))
        ),
    };
    let _ = writeln!(
        b,
        r#"<tr><td class="tree-cell" style="padding-left: {}em"><a href="{}"><code>{}</code></a></td><td>{}</td><td class="num">{}</td><td class="num">{events}</td><td>{changes}</td></tr>"#,
        0.75 + depth as f64 * 1.25,
        html(&paths::generation(&g.id)),
        html(&g.id),
        html(&g.title),
        g.registers.len()
    );
    for k in cx.children_of(&g.id) {
        index_rows(cx, k, depth + 1, b);
    }
}

pub fn vendor(g: &Generation) -> &'static str {
    match g.vendor {
        pmu_defs::model::Vendor::Intel => "Intel",
        pmu_defs::model::Vendor::Amd => "AMD",
    }
}

// ---------------------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------------------

/// How a register relates to the parent generation.
fn status(g: &Generation, r: &Register) -> String {
    if r.since == g.id {
        r#"<span class="tag tag-add">new</span>"#.to_owned()
    } else if r.defined_in == g.id {
        r#"<span class="tag tag-chg">changed</span>"#.to_owned()
    } else {
        r#"<span class="muted">inherited</span>"#.to_owned()
    }
}

fn generation(cx: &Ctx<'_>, g: &Generation, site: &mut Site) {
    let path = paths::generation(&g.id);
    let root = paths::root_of(&path);
    let mut b = crumbs(&root, &[(None, g.id.clone())]);
    let _ = write!(
        b,
        r#"<h1>{}</h1><p class="sub"><code>{}</code> · {}"#,
        html(&g.title),
        html(&g.id),
        vendor(g)
    );
    if let Some(p) = &g.extends {
        let _ = write!(b, " · extends {}", gen_link(&root, p));
    }
    b.push_str("</p>");
    b.push_str(&prose(&g.doc));
    b.push_str(r#"<dl class="facts">"#);
    let _ = write!(b, "<dt>Manual</dt><dd>{}</dd>", inline(&g.manual));
    if !g.ancestors.is_empty() {
        let chain: Vec<String> = g.ancestors.iter().map(|a| gen_link(&root, a)).collect();
        let _ = write!(b, "<dt>Ancestors</dt><dd>{}</dd>", chain.join(" → "));
    }
    let kids = cx.children_of(&g.id);
    if !kids.is_empty() {
        let list: Vec<String> = kids.iter().map(|k| gen_link(&root, &k.id)).collect();
        let _ = write!(b, "<dt>Extended by</dt><dd>{}</dd>", list.join(", "));
    }
    let _ = write!(
        b,
        "<dt>Counters</dt><dd>{} general-purpose, {} fixed-function</dd>",
        g.general_counters(),
        g.fixed_counters()
    );
    b.push_str("</dl>");

    b.push_str(r#"<div class="cards">"#);
    if let Some(p) = &g.extends {
        let _ = write!(
            b,
            r#"<a class="card" href="{root}{}"><strong>Changes</strong><span>What changed from <code>{}</code>.</span></a>"#,
            html(&paths::diff(&g.id)),
            html(p)
        );
    }
    if !g.events.is_empty() {
        let _ = write!(
            b,
            r#"<a class="card" href="{root}{}"><strong>Events</strong><span>{}, searchable by name and code.</span></a>"#,
            html(&paths::events(&g.id)),
            html(&format::plural(g.events.len(), "event", "events"))
        );
    }
    if let Some(sel) = &g.pmu.general {
        let _ = write!(
            b,
            r#"<a class="card" href="{}"><strong>Decoder</strong><span>Decode a <code>{}</code> value.</span></a>"#,
            html(&decoder_link(&root, &g.id, &sel.select)),
            html(&sel.select)
        );
    }
    b.push_str("</div>");

    // PMU.
    b.push_str(r#"<h2 id="pmu">Performance-monitoring unit</h2><div class="table-wrap"><table class="kv"><tbody>"#);
    match &g.pmu.general {
        Some(s) => {
            let _ = write!(
                b,
                "<tr><th scope=\"row\">General-purpose counters</th><td>{} selected by {} ({})</td></tr>",
                reg_link(&root, &g.id, &s.counter),
                reg_link(&root, &g.id, &s.select),
                format::plural(g.general_counters() as usize, "counter", "counters")
            );
        }
        None => b.push_str(
            "<tr><th scope=\"row\">General-purpose counters</th><td class=\"muted\">none</td></tr>",
        ),
    }
    match &g.pmu.fixed {
        Some(f) => {
            let _ = write!(
                b,
                "<tr><th scope=\"row\">Fixed-function counters</th><td>{}",
                reg_link(&root, &g.id, &f.counter)
            );
            if let Some(c) = &f.control {
                let _ = write!(b, " controlled by {}", reg_link(&root, &g.id, c));
            }
            let _ = write!(
                b,
                " ({})</td></tr>",
                format::plural(g.fixed_counters() as usize, "counter", "counters")
            );
        }
        None => b.push_str(
            "<tr><th scope=\"row\">Fixed-function counters</th><td class=\"muted\">none</td></tr>",
        ),
    }
    if !g.pmu.encoding.is_empty() {
        let sel = g.pmu.general.as_ref().map(|s| s.select.as_str());
        let enc: Vec<String> = g
            .pmu
            .encoding
            .iter()
            .map(|(attr, field)| {
                let target = match sel {
                    Some(s) => format!(
                        r#"<a href="{root}{}#field-{}"><code>{}</code></a>"#,
                        html(&paths::register(&g.id, s)),
                        html(field),
                        html(field)
                    ),
                    None => format!("<code>{}</code>", html(field)),
                };
                format!(
                    r#"<span class="pair"><code>{}</code> → {target}</span>"#,
                    html(attr)
                )
            })
            .collect();
        let _ = write!(
            b,
            "<tr><th scope=\"row\">Event encoding</th><td>{}</td></tr>",
            enc.join(" ")
        );
    }
    b.push_str("</tbody></table></div>");

    // Registers.
    if !g.registers.is_empty() {
        b.push_str(r#"<h2 id="registers">Registers</h2><div class="table-wrap"><table class="regs"><thead><tr><th scope="col">Register</th><th scope="col">Address</th><th scope="col">Access</th><th scope="col" class="num">Fields</th><th scope="col">Since</th><th scope="col">Here</th></tr></thead><tbody>"#);
        for r in &g.registers {
            let _ = write!(
                b,
                r#"<tr><td>{}<div class="note">{}</div></td><td><code>{}</code><div class="note">{}</div></td><td>{}</td><td class="num">{}</td><td>{}</td><td>{}</td></tr>"#,
                reg_link(&root, &g.id, &r.name),
                first_sentence(&r.doc),
                html(&format::address(&r.msr)),
                html(&format::instances(r)),
                access_badge(r.access),
                r.fields.len(),
                gen_link(&root, &r.since),
                status(g, r)
            );
        }
        b.push_str("</tbody></table></div>");
    }

    // CPUID.
    if !g.cpuid.is_empty() {
        b.push_str(r#"<h2 id="cpuid">CPUID leaves</h2>"#);
        for c in &g.cpuid {
            cpuid_section(&root, g, c, &mut b);
        }
    }

    // Constraints.
    if !g.constraints.is_empty() {
        b.push_str(r#"<h2 id="constraints">Constraints</h2><p>Field combinations the generated API rejects (errors) or flags (warnings); the decoder checks them too.</p>"#);
        let cs: Vec<&Constraint> = g.constraints.iter().collect();
        b.push_str(&constraints_table(&cs, &root, &g.id, true));
    }

    let page = Page {
        path: &path,
        title: g.title.clone(),
        nav: Nav::Overview(&g.id),
        body: b,
        scripts: vec![],
        main_attrs: format!(r#" data-gen="{}""#, html(&g.id)),
    };
    site.add(path.clone(), layout::render(cx, &page));
}

fn first_sentence(doc: &str) -> String {
    let text: Vec<&str> = doc.split_whitespace().collect();
    let text = text.join(" ");
    let end = text
        .match_indices(". ")
        .next()
        .map_or(text.len(), |(i, _)| i + 1);
    html(&text[..end]).to_string()
}

fn cpuid_title(c: &CpuidLeaf) -> String {
    match c.subleaf {
        Some(s) => format!("CPUID.(EAX={:02X}H,ECX={s}) {}", c.leaf, c.name),
        None => format!("CPUID.{:02X}H {}", c.leaf, c.name),
    }
}

fn cpuid_section(root: &str, g: &Generation, c: &CpuidLeaf, b: &mut String) {
    let anchor = format!("cpuid-{}", c.name);
    let _ = write!(
        b,
        r#"<section class="leaf" id="{}"><h3>{}</h3>"#,
        html(&anchor),
        html(&cpuid_title(c))
    );
    b.push_str(&prose(&c.doc));
    let _ = write!(
        b,
        r#"<p class="note">{} · defined in {}</p>"#,
        inline(&c.manual),
        gen_link(root, &c.defined_in)
    );
    for r in &c.registers {
        let id = format!("cpuid-{}-{}", c.name, r.register);
        let name = format!("{}.{}", c.name, r.register.to_uppercase());
        let _ = write!(
            b,
            r#"<h4><code>{}</code> <a class="small" href="{}">decode</a></h4><figure class="diagram">{}</figure>"#,
            html(&r.register.to_uppercase()),
            html(&decoder_link(
                root,
                &g.id,
                &format!("cpuid:{}:{}", c.name, r.register)
            )),
            svg::render(&Diagram {
                id: &id,
                name: &name,
                width: 32,
                fields: &r.fields,
                link_fields: false,
                standalone: false,
            })
        );
        b.push_str(&field_table(root, &r.fields, None, false));
    }
    b.push_str("</section>");
}

// ---------------------------------------------------------------------------------------
// Register
// ---------------------------------------------------------------------------------------

/// `change`: `None` without a parent; `Some(None)` when the register is as in the parent.
fn register(
    cx: &Ctx<'_>,
    g: &Generation,
    r: &Register,
    change: Option<Option<&diff::RegDiff<'_>>>,
    site: &mut Site,
) {
    let path = paths::register(&g.id, &r.name);
    let root = paths::root_of(&path);
    let mut b = crumbs(
        &root,
        &[
            (
                Some(format!("{root}{}", paths::generation(&g.id))),
                g.id.clone(),
            ),
            (None, r.name.clone()),
        ],
    );
    let _ = write!(b, r#"<h1><code>{}</code></h1>"#, html(&r.name));
    b.push_str(&prose(&r.doc));

    let roles = role_text(r);

    b.push_str(r#"<dl class="facts">"#);
    let _ = write!(
        b,
        "<dt>Address</dt><dd><code>{}</code>",
        html(&format::address(&r.msr))
    );
    if r.msr.indexed {
        let _ = write!(
            b,
            " <span class=\"muted\">{}</span>",
            html(&format::instances(r))
        );
    }
    b.push_str("</dd>");
    if let Some(a) = &r.alias_msr {
        let _ = write!(
            b,
            "<dt>Alias address</dt><dd><code>{}</code> <span class=\"muted\">the same {}, \
             the same value type</span></dd>",
            html(&format::address(a)),
            if r.msr.indexed {
                "instances"
            } else {
                "register"
            }
        );
    }
    let _ = write!(
        b,
        "<dt>Width</dt><dd>{} bits</dd><dt>Access</dt><dd>{}</dd>",
        r.width,
        access_badge(r.access)
    );
    if let Some(v) = r.reset {
        let _ = write!(b, "<dt>Reset</dt><dd><code>{}</code></dd>", format::hex(v));
    }
    let _ = write!(
        b,
        "<dt>Reserved</dt><dd>{}</dd>",
        if r.reserved_mask == 0 {
            "none".to_owned()
        } else {
            format!(
                "bits <code>{}</code> <span class=\"muted\">(mask <code>{}</code>): software must not set them</span>",
                format::mask_ranges(r.reserved_mask),
                format::hex_width(r.reserved_mask, r.width)
            )
        }
    );
    if !roles.is_empty() {
        let _ = write!(b, "<dt>Role</dt><dd>{roles}</dd>");
    }
    let _ = write!(
        b,
        "<dt>Since</dt><dd>{}</dd><dt>Definition</dt><dd>",
        gen_link(&root, &r.since)
    );
    if r.defined_in == g.id {
        if r.since == g.id {
            b.push_str("new in this generation");
        } else {
            b.push_str("changed in this generation (see below)");
        }
    } else {
        let _ = write!(
            b,
            "as in {} (unchanged here)",
            gen_link(&root, &r.defined_in)
        );
    }
    b.push_str("</dd>");
    let _ = write!(b, "<dt>Manual</dt><dd>{}</dd>", inline(&r.manual));
    b.push_str("</dl>");

    let _ = write!(
        b,
        r#"<p class="actions"><a class="button" href="{}">Decode a value</a>"#,
        html(&decoder_link(&root, &g.id, &r.name))
    );
    if g.pmu.general.as_ref().is_some_and(|s| s.select == r.name) && !g.events.is_empty() {
        let _ = write!(
            b,
            r#" <a class="button ghost" href="{root}{}">{}</a>"#,
            html(&paths::events(&g.id)),
            html(&format::plural(g.events.len(), "event", "events"))
        );
    }
    b.push_str("</p>");

    let _ = write!(
        b,
        r#"<h2 id="layout">Bit layout</h2><figure class="diagram">{}<figcaption>Most significant bit on the left; shaded boxes are reserved. Select a field to jump to its description.</figcaption></figure>"#,
        svg::render(&Diagram {
            id: "reg",
            name: &r.name,
            width: r.width,
            fields: &r.fields,
            link_fields: true,
            standalone: false,
        })
    );

    let _ = write!(
        b,
        r#"<h2 id="fields">Fields</h2>{}"#,
        field_table(&root, &r.fields, Some(r.access), true)
    );

    if let Some(p) = cx.rust.get(&(g.id.clone(), r.name.clone())) {
        b.push_str(&super::rust::section(&root, g, r, p));
    }

    let cs: Vec<&Constraint> = g
        .constraints
        .iter()
        .filter(|c| c.register == r.name)
        .collect();
    if !cs.is_empty() {
        b.push_str(r#"<h2 id="constraints">Constraints</h2>"#);
        b.push_str(&constraints_table(&cs, &root, &g.id, false));
    }

    if let (Some(parent), Some(change)) = (cx.parent(g), change) {
        let _ = write!(
            b,
            r#"<h2 id="changes">Changes from {}</h2>"#,
            gen_link(&root, &parent.id)
        );
        match change {
            None => b.push_str(
                "<p class=\"muted\">None: the register is as in the parent generation.</p>",
            ),
            Some(d) => b.push_str(&diff::reg_diff_html(d, true)),
        }
    }

    if r.msr.indexed && r.msr.count > 1 {
        b.push_str(&instances_table(r));
    }

    let page = Page {
        path: &path,
        title: format!("{} ({})", r.name, g.id),
        nav: Nav::Register(&g.id, &r.name),
        body: b,
        scripts: vec![],
        main_attrs: format!(
            r#" data-gen="{}" data-register="{}""#,
            html(&g.id),
            html(&r.name)
        ),
    };
    site.add(path.clone(), layout::render(cx, &page));
}

// ---------------------------------------------------------------------------------------
// Decoder shell
// ---------------------------------------------------------------------------------------

fn decoder(cx: &Ctx<'_>, site: &mut Site) {
    let path = "decoder.html";
    let b = r##"<h1>Register decoder</h1>
<p class="lede">Choose a generation and a register, then paste a value in hexadecimal (<code>0x…</code>) or decimal, or build one: select a bit of the grid to toggle it, or type a field's value in its box. Every field is shown by name; reserved bits cannot be set from the grid or a field's box, and set ones in a pasted value are errors; for an event select, the event the value encodes is looked up in the generation's event list. The address of this page keeps your choice, so it can be bookmarked or shared.</p>
<form class="decoder" id="decoder" autocomplete="off" action="#">
<div class="ctl"><label for="d-gen">Generation</label><select id="d-gen"></select></div>
<div class="ctl"><label for="d-reg">Register</label><select id="d-reg"></select></div>
<div class="ctl" id="d-inst-ctl"><label for="d-inst">Instance</label><select id="d-inst"></select></div>
<div class="ctl wide"><label for="d-val">Value</label><input id="d-val" type="text" spellcheck="false" placeholder="hexadecimal 0x… or decimal" /></div>
<div class="ctl wide" id="d-ev-ctl"><label for="d-ev">Or encode an event</label><select id="d-ev"></select></div>
</form>
<div id="d-out" class="decoded" aria-live="polite"><p class="muted" id="d-loading">Loading the register data…</p></div>
<noscript><p class="error">The decoder runs in the browser and needs JavaScript; the register pages describe every field without it.</p></noscript>
"##
    .to_owned();
    let page = Page {
        path,
        title: "Decoder".to_owned(),
        nav: Nav::Decoder,
        body: b,
        scripts: vec!["data/index.js".to_owned(), "assets/decoder.js".to_owned()],
        main_attrs: String::new(),
    };
    site.add(path.to_owned(), layout::render(cx, &page));
}

/// The register's run-time role (`role:`) and its fields' roles, in words with the YAML
/// spelling, as HTML; empty when it has none.
fn role_text(r: &pmu_defs::model::Register) -> String {
    use pmu_defs::validate::{counter_kind_word, field_role_word, register_role_word};
    let mut parts = Vec::new();
    if let Some(role) = r.role {
        parts.push(format!("<code>{}</code>", html(register_role_word(role))));
    }
    for f in &r.fields {
        let mut what = Vec::new();
        if let Some(k) = f.per_counter {
            what.push(format!("one element per {} counter", counter_kind_word(k)));
        }
        if let Some(fr) = f.role {
            what.push(format!("<code>{}</code>", html(field_role_word(fr))));
        }
        if !what.is_empty() {
            parts.push(format!(
                "<code>{}</code>: {}",
                html(&f.name),
                what.join(", ")
            ));
        }
    }
    parts.join("; ")
}

/// The instances of a register family, each with its address (and its alias address when the
/// register has an `alias-msr:` range).
fn instances_table(r: &Register) -> String {
    let alias = !r.alias_addresses.is_empty();
    let mut b = String::from(
        r#"<h2 id="instances">Instances</h2><div class="table-wrap"><table class="instances"><thead><tr><th scope="col">Register</th><th scope="col">Address</th>"#,
    );
    if alias {
        b.push_str(r#"<th scope="col">Alias address</th>"#);
    }
    b.push_str("</tr></thead><tbody>");
    for (i, a) in r.msr.addresses().enumerate() {
        let _ = write!(
            b,
            "<tr><td><code>{}{i}</code></td><td><code>{}</code></td>",
            html(&r.name),
            format::hex(u64::from(a))
        );
        if let Some(x) = r.alias_addresses.get(i) {
            let _ = write!(b, "<td><code>{}</code></td>", format::hex(u64::from(*x)));
        }
        b.push_str("</tr>");
    }
    b.push_str("</tbody></table></div>");
    b
}
