//! The static documentation site for the resolved model, behind `cargo xtask gen-docs`.
//!
//! [`build`] turns a [`Model`] into a [`Site`] (relative path → contents, sorted) without
//! touching the disk; [`Site::write`] puts it in a directory. The site works from `file://`:
//! pages load their data as `<script src>` files (`data/…js`), never with fetch/XHR.
//!
//! ```text
//! index.html                 generations (the extends tree), what is where
//! decoder.html               paste a register value, see every field, reserved bits, the event
//! yaml.html                  writing definitions: every YAML key, rendered from the JSON Schema
//! findings.html              known findings: every warning acknowledged by an `allow:`, with its reason
//! cpus/index.html            every CPU name: abbreviations, vendor, family/models, generations
//! cpus/<name>.html           a CPU (`sapphire-rapids`): family/models, core types, and each
//!                            generation it is with its ancestors, counters, events, registers
//! gen/<id>/index.html        a generation: PMU, registers (an inherited one a row, #reg-<REG>,
//!                            with its Rust path), CPUID leaves with diagrams, constraints
//! gen/<id>/reg/<REG>.html    a register the generation defines: SVG bit layout, field table,
//!                            changes from the parent, its Rust path and a snippet (rust.rs)
//! gen/<id>/diff.html         what changed from the parent generation
//! gen/<id>/events.html       searchable event table (rows come from data/events/<id>.js)
//! data/index.js              generation list for the decoder
//! data/gen/<id>.js           registers and CPUID outputs of one generation, for the decoder
//! data/events/<id>.js        events of one generation (one file per generation), with each
//!                            event's perf string and value from pmu_defs::encode
//! data/search.js             the site-wide search index (search.rs), loaded on first use
//! assets/                    style.css, site.js, events.js, decoder.js
//! schema/generation.schema.json  the JSON Schema itself, downloadable from yaml.html
//! md/                        the same content as Markdown, with standalone SVG diagrams
//!                            (md/yaml.md: the YAML reference, md/findings.md: known findings)
//! ```
//!
//! Output is deterministic: everything is ordered by the model's order or by name, and
//! nothing depends on time or the machine.

pub mod descriptions;
pub mod diff;
pub mod escape;
pub mod format;
pub mod svg;

mod context;
mod cpus;
mod data;
pub mod events;
pub mod findings;
mod html;
mod layout;
mod markdown;
mod pages;
mod rust;
pub mod search;
mod site;
mod yaml;

use pmu_defs::Model;

use context::Ctx;
pub use context::DEFAULT_DECODER_GENERATION;
pub use descriptions::Descriptions;
pub use site::{MANIFEST, Site, WriteSummary};

/// Builds every page, data file, asset and Markdown file for the model.
pub fn build(model: &Model) -> Site {
    build_with(model, None)
}

/// [`build`], with the vendors' event descriptions merged into the event tables (see
/// [`descriptions`]).
pub fn build_with(model: &Model, descriptions: Option<&Descriptions>) -> Site {
    let mut cx = Ctx::new(model);
    cx.descriptions = descriptions;
    let mut site = Site::default();
    for (path, text) in ASSETS {
        site.add(path.to_string(), text.to_string());
    }
    site.add(
        "assets/style.css".to_owned(),
        format!(
            "{STYLE}\n/* Register diagrams */\n{}",
            include_str!("assets/diagram.css")
        ),
    );
    site.add(layout::NAV_DATA.to_owned(), layout::nav_data(&cx));
    pages::all(&cx, &mut site);
    events::all(&cx, &mut site);
    data::all(&cx, &mut site);
    diff::all(&cx, &mut site);
    markdown::all(&cx, &mut site);
    yaml::all(&cx, &mut site);
    findings::all(&cx, &mut site);
    search::all(&cx, &mut site);
    site
}

const STYLE: &str = include_str!("assets/style.css");
const ASSETS: [(&str, &str); 3] = [
    ("assets/site.js", include_str!("assets/site.js")),
    ("assets/events.js", include_str!("assets/events.js")),
    ("assets/decoder.js", include_str!("assets/decoder.js")),
];
