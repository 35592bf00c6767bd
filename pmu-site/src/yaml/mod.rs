//! "Writing definitions": the YAML reference (`yaml.html`, `md/yaml.md`) and a downloadable
//! copy of the JSON Schema (`schema/generation.schema.json`).
//!
//! Everything on the page comes from [`pmu_defs::schema::schema`]: one section per definition,
//! each mapping with a table of its keys (value in words, required or not, meaning and
//! examples). Nothing here lists keys: a key or definition the schema gains shows up by itself.
//! The only lists are presentational: [`ORDER`], the reading order of the definitions this
//! version knows (others follow, sorted), and [`NOUNS`], how a reference to a scalar
//! definition is worded.
//!
//! [`describe`] turns one property schema into words (`number (1 to 64)`,
//! `one of read-write, …`, `list of register`); its output is [`Inline`] runs, rendered as
//! HTML or Markdown.

use crate::context::Ctx;
use crate::site::Site;
use pmu_defs::schema as js;

mod describe;
mod files;
mod html;
mod inline;
mod md;
mod sections;
#[cfg(test)]
mod tests;

use files::{MD_PAGE, PAGE, SCHEMA_FILE};
use html::page_html;
use md::page_md;
use sections::sections;

pub fn all(cx: &Ctx<'_>, site: &mut Site) {
    let schema = js::schema();
    let secs = sections(&schema);
    site.add(SCHEMA_FILE.to_owned(), js::render());
    site.add(PAGE.to_owned(), page_html(cx, &schema, &secs));
    site.add(MD_PAGE.to_owned(), page_md(&schema, &secs));
}
