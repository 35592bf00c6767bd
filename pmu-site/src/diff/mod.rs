//! What changed between two generations: registers and fields added, removed or changed
//! (bits, access, arrays, named values, availability, docs), renames, CPUID leaves, events,
//! constraints and the PMU description. [`compute`] works on any two generations; the site
//! has one page per generation against its parent (`gen/<id>/diff.html`, `md/<id>/diff.md`).

use crate::context::{Ctx, paths};
use crate::site::Site;

mod compute;
mod html;
mod md;

pub use compute::*;
use html::page_html;
pub use html::reg_diff_html;
use md::page_md;

/// Diff pages (HTML and Markdown) for every generation with a parent.
pub(crate) fn all(cx: &Ctx<'_>, site: &mut Site) {
    for g in &cx.model.generations {
        if let Some(p) = cx.parent(g) {
            let d = compute(p, g);
            site.add(paths::diff(&g.id), page_html(cx, &d));
            site.add(paths::md_diff(&g.id), page_md(&d));
        }
    }
}
