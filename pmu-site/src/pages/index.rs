//! The index page (generations as the `extends` tree, what is where) and the decoder's shell
//! (its data comes from `data/`, see `data.rs`).

use crate::context::{Ctx, paths};
use crate::escape::html;
use crate::format;
use crate::html::vendor;
use crate::layout::{self, Nav, Page};
use crate::site::Site;
use pmu_defs::model::Generation;
use std::fmt::Write;

// ---------------------------------------------------------------------------------------
// Index
// ---------------------------------------------------------------------------------------

pub(crate) fn index(cx: &Ctx<'_>, site: &mut Site) {
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
    let findings = crate::findings::collect(cx.model).len();
    let _ = writeln!(
        b,
        r#"<li><a href="{}">Known findings</a>: {} about the definitions, reviewed and acknowledged with an <code>allow:</code>, each with its reason.</li>
</ul>"#,
        crate::findings::PAGE,
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

pub(crate) fn index_rows(cx: &Ctx<'_>, g: &Generation, depth: usize, b: &mut String) {
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

// ---------------------------------------------------------------------------------------

pub(crate) fn decoder(cx: &Ctx<'_>, site: &mut Site) {
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
