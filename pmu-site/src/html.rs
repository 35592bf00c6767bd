//! HTML fragments every kind of page uses: paragraphs and one-line cells from doc strings,
//! access badges, links to a generation, a register or the decoder, and a vendor's name.

use crate::context::paths;
use crate::escape::{html, url};
use crate::format;
use pmu_defs::model::{Access, Generation};
use std::fmt::Write;

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
    html(&format::one_line(doc)).to_string()
}

pub fn access_badge(a: Access) -> String {
    let class = match a {
        Access::ReadWrite => "rw",
        Access::ReadOnly => "ro",
        Access::WriteOnly => "wo",
        Access::WriteOneToClear => "w1c",
        Access::WriteOneToSet => "w1s",
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

pub fn vendor(g: &Generation) -> &'static str {
    match g.vendor {
        pmu_defs::model::Vendor::Intel => "Intel",
        pmu_defs::model::Vendor::Amd => "AMD",
    }
}
