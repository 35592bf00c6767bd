//! Auxiliary MSRs of a model's events, typed: the `events::Aux` enum (one variant per register
//! of the generation that an event programs, holding that register's `Value`), a constant
//! table of each event's value and `Event::aux()`, which `MsrExt::write_event` writes together
//! with the event select.
//!
//! Each value is checked here against the register's reserved bits (the validator reports a
//! value that sets one, `aux-msr-reserved`); such an event gets no typed value, and the table
//! builds every value through `try_from_bits` in a constant, so a reserved bit could not reach
//! the table even if this check were wrong: the crate would not compile.

use super::util::{ident, lit_u64};
use crate::model::{Event, Generation, Register};
use crate::names;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use std::collections::BTreeSet;

/// The register and value an event's primary encoding programs, when the generation has the
/// register, it may be written, and the value sets no reserved bit and fits its width.
pub(super) fn aux_of<'g>(g: &'g Generation, e: &Event) -> Option<(&'g Register, u64)> {
    let m = e.msr.as_ref()?;
    let r = g.register_at(m.index)?;
    let outside = if r.width < 64 { !0u64 << r.width } else { 0 };
    (r.access.writable() && m.value & (r.reserved_mask | outside) == 0).then_some((r, m.value))
}

/// The `Aux` enum, its `AuxValue` impl and the `AUX` table for `evs` (in table order), and
/// `Event::aux`; nothing when no event of `g` has a typed auxiliary value.
pub(super) fn aux_items(krate: &TokenStream, g: &Generation, evs: &[&Event]) -> TokenStream {
    let values: Vec<Option<(&Register, u64)>> = evs.iter().map(|e| aux_of(g, e)).collect();
    let regs: BTreeSet<&str> = values
        .iter()
        .flatten()
        .map(|(r, _)| r.name.as_str())
        .collect();
    if regs.is_empty() {
        return quote!();
    }
    let variant = |name: &str| ident(&names::register_module(name));
    let helper = |name: &str| format_ident!("__aux_{}", names::register_module(name));
    let variants: Vec<Ident> = regs.iter().map(|n| variant(n)).collect();
    let modules: Vec<Ident> = regs.iter().map(|n| variant(n)).collect();
    let helpers: Vec<Ident> = regs.iter().map(|n| helper(n)).collect();
    let docs = regs.iter().map(|n| format!("A value of `{n}`."));
    let entries = values.iter().map(|v| match v {
        Some((r, bits)) => {
            let (v, h, b) = (variant(&r.name), helper(&r.name), lit_u64(*bits));
            quote!(Some(Aux::#v(#h(#b))))
        }
        None => quote!(None),
    });
    let count = proc_macro2::Literal::usize_unsuffixed(evs.len());
    let doc = format!(
        "The auxiliary MSR an event of `{}` needs programmed with its event select (off-core \
         response, load-latency threshold, front-end qualifier), as a value of that register: \
         [`Event::aux`](Event::aux) gives it, and `MsrExt::write_event` writes it before the \
         event select.",
        g.id
    );
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[allow(non_camel_case_types)]
        pub enum Aux {
            #(#[doc = #docs] #variants(super::#modules::Value),)*
        }
        impl #krate::access::AuxValue for Aux {
            fn address(self) -> u32 {
                match self { #(Aux::#variants(_) => super::#modules::ADDRESS,)* }
            }
            fn bits(self) -> u64 {
                match self { #(Aux::#variants(v) => v.bits(),)* }
            }
            fn write_to<B: #krate::access::RawMsr + ?Sized>(
                self,
                backend: &mut B,
            ) -> Result<(), #krate::access::WriteError<B::Error>> {
                use #krate::access::MsrExt;
                match self { #(Aux::#variants(v) => backend.write(super::#modules::MSR, v),)* }
            }
        }
        #(
            #[allow(non_snake_case)]
            const fn #helpers(bits: u64) -> super::#modules::Value {
                match super::#modules::Value::try_from_bits(bits) {
                    Ok(v) => v,
                    Err(_) => panic!("an auxiliary MSR value sets a reserved bit"),
                }
            }
        )*
        const AUX: [Option<Aux>; #count] = [#(#entries),*];
        impl Event {
            /// The auxiliary MSR this event programs (its primary encoding's), typed as that
            /// register's value; `None` when it has none, or when the value sets a bit the
            /// register reserves (the definitions acknowledge it: `aux-msr-reserved`).
            pub const fn aux(self) -> Option<Aux> {
                AUX[self as usize]
            }
        }
    }
}
