//! Auxiliary MSRs of a model's events, typed: the `events::Aux` enum (one variant per register
//! of the generation that an event programs, holding that register's `Value`) and
//! `Event::aux()`, which `MsrExt::write_event` writes together with the event select. Which
//! variant an event has is a byte of its event-table record (`event_table.rs`); the value is
//! its `EventDesc`'s MSR value.
//!
//! Each value is checked here against the register's reserved bits (the validator reports a
//! value that sets one, `aux-msr-reserved`); such an event gets no typed value, and `aux()`
//! builds every value through `try_from_bits`, so a reserved bit could not reach the register
//! even if this check were wrong (the event would have no typed value).

use super::util::ident;
use pmu_defs::model::names;
use pmu_defs::model::{Event, Generation, Register};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::BTreeSet;

/// The register an event programs: its name and, for an indexed family (Nova Lake's
/// `MSR_OMR_0..3`), the instance at the event's address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct AuxReg<'g> {
    name: &'g str,
    instance: Option<u32>,
}

/// The register and value an event's primary encoding programs, when the generation has the
/// register, it may be written, and the value sets no reserved bit and fits its width.
pub(super) fn aux_of<'g>(g: &'g Generation, e: &Event) -> Option<(AuxReg<'g>, u64)> {
    let m = e.msr.as_ref()?;
    let r: &Register = g.register_at(m.index)?;
    let outside = if r.width < 64 { !0u64 << r.width } else { 0 };
    let instance = if r.msr.indexed {
        Some(r.index_at(m.index)?)
    } else {
        None
    };
    let reg = AuxReg {
        name: r.name.as_str(),
        instance,
    };
    (r.access.writable() && m.value & (r.reserved_mask | outside) == 0).then_some((reg, m.value))
}

/// The registers the events of `evs` program with a typed value, in name (then instance)
/// order: the `events::Aux` variants, event-table aux kind `i + 1` for the `i`th.
pub(super) fn aux_registers<'g>(g: &'g Generation, evs: &[&Event]) -> Vec<AuxReg<'g>> {
    let regs: BTreeSet<AuxReg<'g>> = evs
        .iter()
        .filter_map(|e| aux_of(g, e))
        .map(|(r, _)| r)
        .collect();
    regs.into_iter().collect()
}

/// `e`'s aux kind in its event-table record: 1 + its register's index in `regs`, 0 for none.
pub(super) fn aux_kind(g: &Generation, e: &Event, regs: &[AuxReg<'_>]) -> u8 {
    aux_of(g, e)
        .and_then(|(r, _)| regs.iter().position(|n| *n == r))
        .and_then(|i| u8::try_from(i + 1).ok())
        .unwrap_or(0)
}

/// The `Aux` enum over `regs` ([`aux_registers`]), its `AuxValue` impl and `Event::aux`;
/// nothing when no event of `g` has a typed auxiliary value.
pub(super) fn aux_items(krate: &TokenStream, g: &Generation, regs: &[AuxReg<'_>]) -> TokenStream {
    if regs.is_empty() {
        return quote!();
    }
    let module = |r: &AuxReg<'_>| ident(&names::register_module(r.name));
    // One variant per register, or per instance of an indexed family (`MSR_OMR_0`).
    let variants: Vec<Ident> = regs
        .iter()
        .map(|r| match r.instance {
            None => module(r),
            Some(i) => ident(&format!("{}_{i}", names::register_module(r.name))),
        })
        .collect();
    let modules: Vec<Ident> = regs.iter().map(module).collect();
    let addresses: Vec<TokenStream> = regs
        .iter()
        .map(|r| {
            let m = module(r);
            match r.instance {
                None => quote!(super::#m::ADDRESS),
                Some(i) => quote!(super::#m::address::<#i>()),
            }
        })
        .collect();
    let msrs: Vec<TokenStream> = regs
        .iter()
        .map(|r| {
            let m = module(r);
            match r.instance {
                None => quote!(super::#m::MSR),
                Some(i) => quote!(super::#m::msr::<#i>()),
            }
        })
        .collect();
    let kinds = (1..=regs.len()).map(proc_macro2::Literal::usize_unsuffixed);
    let docs = regs.iter().map(|r| match r.instance {
        None => format!("A value of `{}`.", r.name),
        Some(i) => format!("A value of `{}` instance {i}.", r.name),
    });
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
                match self { #(Aux::#variants(_) => #addresses,)* }
            }
            fn bits(self) -> u64 {
                match self { #(Aux::#variants(v) => v.bits(),)* }
            }
            fn write_to<B: #krate::access::RawMsr + ?Sized>(
                self,
                backend: &mut B,
            ) -> Result<(), #krate::access::WriteError<B::Error>> {
                use #krate::access::MsrExt;
                match self { #(Aux::#variants(v) => backend.write(#msrs, v),)* }
            }
        }
        impl Event {
            /// The auxiliary MSR this event programs (its primary encoding's), typed as that
            /// register's value; `None` when it has none, or when the value sets a bit the
            /// register reserves (the definitions acknowledge it: `aux-msr-reserved`).
            pub const fn aux(self) -> Option<Aux> {
                let i = self as usize;
                // Most events have none: the kind byte first, the whole record only then.
                let kind = TABLE.__aux_kind(i);
                if kind == 0 {
                    return None;
                }
                let bits = match TABLE.desc(i).msr {
                    Some(m) => m.value,
                    None => return None,
                };
                match kind {
                    #(#kinds => match super::#modules::Value::try_from_bits(bits) {
                        Ok(v) => Some(Aux::#variants(v)),
                        Err(_) => None,
                    },)*
                    _ => None,
                }
            }
        }
    }
}
