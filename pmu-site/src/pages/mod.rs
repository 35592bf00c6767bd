//! HTML pages: the index, the CPUs (their list and a page each), one page per generation, one
//! per register definition, and the decoder shell (its data comes from `data/`, see `data.rs`).

use crate::context::Ctx;
use crate::diff;
use crate::site::Site;

mod cpu;
mod generation;
mod index;
mod parts;
mod register;

use generation::generation;
use index::{decoder, index};
use register::register;

pub fn all(cx: &Ctx<'_>, site: &mut Site) {
    index(cx, site);
    decoder(cx, site);
    cpu::all(cx, site);
    for g in &cx.model.generations {
        generation(cx, g, site);
        let changes = cx.parent(g).map(|p| diff::registers(p, g));
        // Inherited registers are rows of the generation's page, not pages.
        for r in g.registers.iter().filter(|r| r.defined_in == g.id) {
            let change = changes
                .as_ref()
                .map(|(list, _)| list.iter().find(|d| d.new_name() == Some(r.name.as_str())));
            register(cx, g, r, change, site);
        }
    }
}
