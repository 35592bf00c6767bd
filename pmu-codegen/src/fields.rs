//! Fields as the passes see them: every element of a field array and every part of a split
//! field ([`Elem`]), and the tock-registers items of a register.

use super::Cx;
use super::doc::escape_doc;
use super::util::{ident, lit_u64, max_of};
use pmu_defs::model::names;
use pmu_defs::model::{Field, Register};
use proc_macro2::TokenStream;
use quote::quote;

/// One element of a (possibly arrayed, possibly split) field, flattened for emission.
pub(super) struct Elem {
    /// Index within the array (0 for plain fields).
    pub(super) index: u32,
    /// Upper-case display name: `EN_PMC3` or `UMASK`.
    pub(super) name: String,
    /// Register bit offset of each part, low part first.
    pub(super) parts: Vec<(u32, u32)>, // (lsb, width)
}

/// The elements of `f`, in index order, with their names (`EN_PMC3`).
pub(super) fn elems(f: &Field) -> Vec<Elem> {
    names::element_names(f)
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let i = i as u32;
            let shift = f.array.map_or(0, |a| a.stride * i);
            Elem {
                index: i,
                name,
                parts: f.bits.iter().map(|b| (b.lsb + shift, b.width())).collect(),
            }
        })
        .collect()
}

/// Tock field names for an element ([`names::tock_names`]: `_LO`/`_HI` for two parts), with
/// each part's offset and width.
pub(super) fn tock_parts(e: &Elem) -> Vec<(String, u32, u32)> {
    names::tock_names(&e.name, e.parts.len())
        .into_iter()
        .zip(&e.parts)
        .map(|(n, &(lsb, w))| (n, lsb, w))
        .collect()
}

pub(super) use pmu_defs::model::names::{w1_verb, writable};

impl Cx<'_> {
    /// The tock-registers items of `r`: per element and split part, a `Field` constant (in
    /// the value namespace, beside the element's marker type of the same name), for reading
    /// through `Value::to_local()` (`LocalRegisterCopy::read`, `is_set`, `read_as_enum` with
    /// the field's value enum).
    /// tock-registers' write surface (`SET`, `CLEAR`, `FieldValue`s) is not generated:
    /// `Field::val` truncates silently and a `LocalRegisterCopy` knows no reserved bits, so
    /// writes go through `Value` and `Builder`. Empty for a register without fields.
    pub(super) fn tock_block(&self, r: &Register) -> TokenStream {
        let mut items = Vec::new();
        for f in &r.fields {
            for e in elems(f) {
                for (tname, lsb, w) in tock_parts(&e) {
                    let tid = ident(&tname);
                    let doc = tock_doc(f, &e, lsb, w);
                    let mask = lit_u64(max_of(w));
                    let lsb_lit = proc_macro2::Literal::usize_unsuffixed(lsb as usize);
                    items.push(quote! {
                        #[doc = #doc]
                        pub const #tid: Field<u64, Register> = Field::new(#mask, #lsb_lit);
                    });
                }
            }
        }
        quote! { #(#items)* }
    }
}

/// The doc of one tock-registers field: the field's doc, its bits, its access.
fn tock_doc(f: &Field, e: &Elem, lsb: u32, w: u32) -> String {
    format!(
        "{} (bits {}{}, {})",
        escape_doc(f.doc.trim_end()),
        if w == 1 {
            format!("{lsb}")
        } else {
            format!("{}:{}", lsb + w - 1, lsb)
        },
        if e.parts.len() > 1 {
            format!(", part of logical field {}", e.name)
        } else {
            String::new()
        },
        f.access.as_str()
    )
}
