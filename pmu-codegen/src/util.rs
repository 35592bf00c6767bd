//! Names, literals and paths shared by the passes: Rust identifiers from YAML names, hex
//! literals, module paths of generations.

use pmu_defs::model::Field;
use pmu_defs::model::names;
pub(super) use pmu_defs::model::names::module_path;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use std::str::FromStr;

/// A path from [`Options`](super::Options) (`crate`, `::pmu_regs`) as tokens.
pub(super) fn path(s: &str) -> TokenStream {
    TokenStream::from_str(s).unwrap_or_else(|_| panic!("invalid path in codegen::Options: {s}"))
}

/// The Rust identifier for a name from [`pmu_defs::model::names`] (or a YAML name used as it is):
/// escaped by [`names::escape`] (`_1x`, `self_`), and raw when it is a keyword (`r#gen`).
pub(super) fn ident(s: &str) -> Ident {
    let s = names::escape(s);
    if names::is_raw(&s) {
        Ident::new_raw(&s, Span::call_site())
    } else {
        Ident::new(&s, Span::call_site())
    }
}

/// `IA32_PERF_GLOBAL_CTRL` -> `Ia32PerfGlobalCtrl` (type aliases, enum and variant names).
pub(super) fn camel(s: &str) -> String {
    pmu_defs::model::names::camel(s)
}

/// `0x..._u64`.
pub(super) fn lit_u64(v: u64) -> TokenStream {
    TokenStream::from_str(&format!("{v:#x}_u64")).unwrap()
}

/// `0x..._u32`.
pub(super) fn lit_u32(v: u32) -> TokenStream {
    TokenStream::from_str(&format!("{v:#x}_u32")).unwrap()
}

/// A field's bits as the manuals write them: `7:0`, `35:32, 7:0` for a split field.
pub(super) fn bits_text(f: &Field) -> String {
    f.bits
        .iter()
        .map(|b| {
            if b.msb == b.lsb {
                format!("{}", b.lsb)
            } else {
                format!("{}:{}", b.msb, b.lsb)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The smallest unsigned type holding `width` bits (bool for one bit).
pub(super) fn value_type(width: u32) -> TokenStream {
    match width {
        1 => quote!(bool),
        2..=8 => quote!(u8),
        9..=16 => quote!(u16),
        17..=32 => quote!(u32),
        _ => quote!(u64),
    }
}

/// The largest value of `width` bits.
pub(super) fn max_of(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// `super::super::intel::v1` from a module at `depth`.
pub(super) fn relative(depth: usize, id: &str) -> TokenStream {
    relative_path(depth, &module_path(id))
}

/// The path of the module `segs` (`["intel", "shared", "x"]`) from a module at `depth`.
pub(super) fn relative_path(depth: usize, segs: &[String]) -> TokenStream {
    let supers = (0..depth).map(|_| quote!(super));
    let segs = segs.iter().map(|s| ident(s));
    quote! { #(#supers::)* #(#segs)::* }
}

/// `{krate}::a::b` for the module `segs` (`["a", "b"]`) of the crate at `krate`.
pub(super) fn absolute(krate: &TokenStream, segs: &[String]) -> TokenStream {
    let segs = segs.iter().map(|s| ident(s));
    quote! { #krate #(::#segs)* }
}

/// `a`, `a and b`, `a, b and c`.
pub(super) fn join_and<S: std::borrow::Borrow<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.borrow().to_string(),
        [rest @ .., last] => format!("{} and {}", rest.join(", "), last.borrow()),
    }
}
