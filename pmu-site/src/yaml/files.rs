//! Where the reference and the schema go in the site, and the modelines that point an editor
//! at the schema.

use pmu_defs::schema as js;

/// The reference page.
pub const PAGE: &str = "yaml.html";

/// The reference as Markdown.
pub const MD_PAGE: &str = "md/yaml.md";

/// The schema copy the page links to, so the link works from `file://`.
pub const SCHEMA_FILE: &str = "schema/generation.schema.json";

pub(crate) fn in_tree_modeline() -> String {
    js::modeline("pmu-defs/defs/vendor/file.yaml")
}

/// A modeline for a file next to a downloaded copy of the schema.
pub(crate) fn beside_modeline() -> String {
    let file = SCHEMA_FILE.rsplit('/').next().unwrap_or(SCHEMA_FILE);
    format!("{}{file}", js::MODELINE_PREFIX)
}
