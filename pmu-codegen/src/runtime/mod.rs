//! The run-time tables: for every generation whose registers have the `counter` and
//! `event-select` roles, a marker type implementing `pmu_regs::arch::Arch` (its `Spec` of
//! addresses and bit positions by role, the register table, the architectural events, the
//! event encoding through the generated `try_event_on`), and the `Generation` enum over all of
//! them. The behaviour over this data is hand-written once in `pmu_regs::arch`; nothing there
//! names a generation, a register or a bit.

use super::doc::escape_doc;
use super::events::{lookup_keys, model_events_of, name_index};
use super::util::{camel, ident, lit_u32, lit_u64, module_path};
use pmu_defs::model::{
    Access, CounterKind, CpuidLeaf, Field, FieldRole, Generation, Model, PRIVILEGE_VALUES,
    Register, RegisterRole,
};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::str::FromStr;

mod detect;
mod guest;
mod tables;

use detect::*;
use guest::guest_masks;
use tables::*;

/// True for a generation that gets an `Arch` impl: it has general-purpose counters.
pub fn has_runtime(g: &Generation) -> bool {
    g.register_with_role(RegisterRole::Counter).is_some()
        && g.register_with_role(RegisterRole::EventSelect).is_some()
}

/// The marker type's name: the generation id in CamelCase (`intel-v4` -> `IntelV4`).
pub fn marker_name(g: &Generation) -> Ident {
    ident(&pmu_defs::model::names::marker_type(&g.id))
}

/// The parent whose registers `g` inherits unchanged, all of them, when it has a run-time
/// view: `g`'s `Spec` and register table are then the parent's (a CPU-model generation that
/// only adds events costs no second copy).
fn same_registers_as<'m>(
    model: &'m Model,
    only: Option<&[String]>,
    g: &Generation,
) -> Option<&'m Generation> {
    let parent = model.generation(g.extends.as_deref()?)?;
    // A parent emitted beside `g` (outside `pmu-regs`) has no absolute path to name it by,
    // and a model parent sits behind its own Cargo feature, which `g`'s does not turn on.
    if only.is_some_and(|o| o.contains(&parent.id)) || super::is_model(parent) {
        return None;
    }
    let same = parent.registers.len() == g.registers.len()
        && g.registers
            .iter()
            .zip(&parent.registers)
            .all(|(r, p)| r.name == p.name && r.defined_in == p.defined_in && r.role == p.role);
    (same && has_runtime(parent)).then_some(parent)
}

/// The marker type and its `Arch` impl, emitted inside the generation's module.
pub fn marker(
    krate: &TokenStream,
    model: &Model,
    only: Option<&[String]>,
    g: &Generation,
) -> TokenStream {
    if !has_runtime(g) {
        return quote!();
    }
    let name = marker_name(g);
    let doc = format!(
        "The run-time view of `{}` ([`Arch`]({krate}::arch::Arch)), generated from the roles \
         its definitions give its registers and fields.",
        g.id,
        krate = krate.to_string().replace(' ', "")
    );
    let id = &g.id;
    let (spec, guest_masks, registers) = match same_registers_as(model, only, g) {
        Some(p) => {
            let segs: Vec<Ident> = module_path(&p.id).iter().map(|s| ident(s)).collect();
            let parent = marker_name(p);
            let path = quote!(#krate::#(#segs)::*::#parent);
            (
                quote!(<#path as #krate::arch::Arch>::SPEC),
                quote!(<#path as #krate::arch::Arch>::GUEST_MASKS),
                quote! {
                    fn registers() -> &'static [#krate::arch::RegInfo] {
                        <#path as #krate::arch::Arch>::registers()
                    }
                },
            )
        }
        None => (
            spec(krate, g),
            guest_masks(krate, g),
            register_table(krate, g),
        ),
    };
    let detect = detect_spec(krate, g);
    let events = arch_events(krate, g);
    let select = ident(
        g.register_with_role(RegisterRole::EventSelect)
            .map_or("", |r| &r.name),
    );
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct #name;

        impl #krate::arch::Arch for #name {
            const ID: &'static str = #id;
            const SPEC: #krate::arch::Spec = #spec;
            const DETECT: #krate::arch::DetectSpec = #detect;
            const GUEST_MASKS: #krate::guest::GuestMasks = #guest_masks;
            #registers
            #events
            #[inline]
            fn select_event(
                n: u32,
                event: &#krate::EventDesc,
            ) -> Result<u64, #krate::arch::EncodeError> {
                Ok(#select::try_event_on_raw(n, event)?.try_build()?.bits())
            }
            #[inline]
            fn place_event(
                n: u32,
                event: &#krate::EventDesc,
            ) -> Result<u64, #krate::PlacementError> {
                match #krate::__private::place(&<#select::Register as #krate::reg::Select>::SELECT, n, event) {
                    Ok(e) => Ok(e.bits),
                    Err(e) => Err(e),
                }
            }
        }
    }
}

fn bits(krate: &TokenStream, f: &Field) -> TokenStream {
    let name = &f.name;
    let lsb = f.bits.first().map_or(0, |b| b.lsb);
    let width = f.width;
    let stride = f.array.map_or(0, |a| a.stride);
    let count = f.count();
    quote! {
        #krate::arch::Bits { name: #name, lsb: #lsb, width: #width, stride: #stride, count: #count }
    }
}

fn opt<T>(v: Option<T>, f: impl FnOnce(T) -> TokenStream) -> TokenStream {
    match v {
        Some(x) => {
            let t = f(x);
            quote!(Some(#t))
        }
        None => quote!(None),
    }
}

fn addresses(r: Option<&Register>) -> TokenStream {
    let a = r.map(|r| r.addresses.iter().map(|&a| lit_u32(a)).collect::<Vec<_>>());
    let a = a.unwrap_or_default();
    quote!(&[#(#a),*])
}

fn counter_width(r: &Register) -> u32 {
    if r.reserved_mask == 0 {
        64
    } else {
        r.reserved_mask.trailing_zeros()
    }
}

fn spec(krate: &TokenStream, g: &Generation) -> TokenStream {
    let role = |r: RegisterRole| g.register_with_role(r);
    let general = general(krate, g);
    let fixed = opt(role(RegisterRole::FixedCounter), |c| fixed(krate, g, c));
    let per = |r: RegisterRole, flag: Option<FieldRole>| {
        opt(role(r), |reg| per_counter(krate, reg, flag))
    };
    let global_control = per(RegisterRole::GlobalControl, None);
    let global_status = per(RegisterRole::GlobalStatus, Some(FieldRole::Frozen));
    let global_status_reset = per(RegisterRole::GlobalStatusReset, Some(FieldRole::Frozen));
    let global_status_set = per(RegisterRole::GlobalStatusSet, Some(FieldRole::Frozen));
    let global_in_use = per(RegisterRole::GlobalInUse, Some(FieldRole::PmiInUse));
    let flag = |r: RegisterRole, fr: FieldRole| {
        opt(role(r), |reg| {
            let address = lit_u32(reg.msr.base);
            let flag = opt(field_with_role(reg, fr), |f| bits(krate, f));
            quote!(#krate::arch::FlagSpec { address: #address, flag: #flag })
        })
    };
    let debug_control = flag(RegisterRole::DebugControl, FieldRole::FreezeOnPmi);
    let capabilities = flag(RegisterRole::Capabilities, FieldRole::FullWidthWrite);
    quote! {
        #krate::arch::Spec {
            general: #general,
            fixed: #fixed,
            global_control: #global_control,
            global_status: #global_status,
            global_status_reset: #global_status_reset,
            global_status_set: #global_status_set,
            global_in_use: #global_in_use,
            debug_control: #debug_control,
            capabilities: #capabilities,
        }
    }
}

fn field_with_role(r: &Register, role: FieldRole) -> Option<&Field> {
    r.fields.iter().find(|f| f.role == Some(role))
}

fn general(krate: &TokenStream, g: &Generation) -> TokenStream {
    let ctr = g.register_with_role(RegisterRole::Counter);
    let sel = g.register_with_role(RegisterRole::EventSelect);
    let counters = addresses(ctr);
    let selects = addresses(sel);
    let full_width = addresses(g.register_with_role(RegisterRole::FullWidthCounter));
    let width = ctr.map_or(0, counter_width);
    let enc = |attr: &str| {
        let f = g
            .pmu
            .encoding_field(attr)
            .and_then(|name| sel.and_then(|s| s.field(name)));
        opt(f, |f| bits(krate, f))
    };
    let (en, usr, os, int) = (enc("en"), enc("usr"), enc("os"), enc("int"));
    let event_mask = g
        .pmu
        .encoding_field("event")
        .and_then(|name| sel.and_then(|s| s.field(name)))
        .map_or(0, |f| f.mask);
    let event_mask = lit_u64(event_mask);
    quote! {
        #krate::arch::GeneralSpec {
            counters: #counters,
            selects: #selects,
            full_width: #full_width,
            counter_width: #width,
            en: #en,
            usr: #usr,
            os: #os,
            int: #int,
            event_mask: #event_mask,
        }
    }
}

fn fixed(krate: &TokenStream, g: &Generation, counters: &Register) -> TokenStream {
    let addrs = addresses(Some(counters));
    let width = counter_width(counters);
    let control = opt(g.register_with_role(RegisterRole::FixedControl), |c| {
        fixed_control(krate, c)
    });
    quote! {
        #krate::arch::FixedSpec { counters: #addrs, counter_width: #width, control: #control }
    }
}

fn fixed_control(krate: &TokenStream, c: &Register) -> TokenStream {
    let address = lit_u32(c.msr.base);
    let privilege = field_with_role(c, FieldRole::Privilege);
    let values = PRIVILEGE_VALUES.map(|name| {
        let v = privilege
            .and_then(|f| f.values.iter().find(|v| v.name == name))
            .map_or(0, |v| v.value);
        lit_u64(v)
    });
    let privilege = privilege.map_or_else(
        || quote!(#krate::arch::Bits { name: "", lsb: 0, width: 0, stride: 0, count: 0 }),
        |f| bits(krate, f),
    );
    let pmi = opt(field_with_role(c, FieldRole::Pmi), |f| bits(krate, f));
    let others: Vec<TokenStream> = c
        .fields
        .iter()
        .filter(|f| f.per_counter == Some(CounterKind::Fixed))
        .filter(|f| !matches!(f.role, Some(FieldRole::Privilege | FieldRole::Pmi)))
        .map(|f| bits(krate, f))
        .collect();
    quote! {
        #krate::arch::FixedControlSpec {
            address: #address,
            privilege: #privilege,
            privilege_values: [#(#values),*],
            pmi: #pmi,
            others: &[#(#others),*],
        }
    }
}

fn per_counter(krate: &TokenStream, r: &Register, flag: Option<FieldRole>) -> TokenStream {
    let address = lit_u32(r.msr.base);
    let reserved = lit_u64(r.reserved_mask);
    let kind = |k: CounterKind| {
        opt(r.fields.iter().find(|f| f.per_counter == Some(k)), |f| {
            bits(krate, f)
        })
    };
    let general = kind(CounterKind::General);
    let fixed = kind(CounterKind::Fixed);
    let flag = opt(flag.and_then(|fr| field_with_role(r, fr)), |f| {
        bits(krate, f)
    });
    quote! {
        #krate::arch::PerCounterSpec {
            address: #address,
            reserved: #reserved,
            general: #general,
            fixed: #fixed,
            flag: #flag,
        }
    }
}

/// `registers()`: every register of the generation, with its role. Access is checked against
/// the generated `Instance` type's traits.
fn register_table(krate: &TokenStream, g: &Generation) -> TokenStream {
    let entries: Vec<TokenStream> = (g.registers.iter())
        .map(|r| reg_info(krate, &quote!(), g, r))
        .collect();
    let n = entries.len();
    quote! {
        fn registers() -> &'static [#krate::arch::RegInfo] {
            static REGISTERS: [#krate::arch::RegInfo; #n] = [#(#entries),*];
            &REGISTERS
        }
    }
}

/// One `RegInfo` entry; `module` is the path (with its trailing `::`) from where the entry is
/// written to the generation's module, empty inside it.
fn reg_info(
    krate: &TokenStream,
    module: &TokenStream,
    g: &Generation,
    r: &Register,
) -> TokenStream {
    let m = ident(&r.name);
    let m = quote!(#module #m);
    let name = &r.name;
    let addrs = r.addresses.iter().map(|&a| lit_u32(a));
    let alias = r.alias_addresses.iter().map(|&a| lit_u32(a));
    let reserved = lit_u64(r.reserved_mask);
    let check = match r.access {
        Access::ReadWrite => quote!(rw),
        Access::ReadOnly => quote!(ro),
        Access::WriteOnly => quote!(wo),
        Access::WriteOneToClear => quote!(w1c),
        Access::WriteOneToSet => quote!(w1s),
    };
    let role = opt(r.role, |role| {
        let v = format_ident!("{}", camel(pmu_defs::validate::register_role_word(role)));
        quote!(#krate::arch::Role::#v)
    });
    let requires = opt(r.requires.as_ref(), |t| quote!(#t));
    let count_from = opt(
        r.count_from.as_ref().and_then(|c| count_from(krate, g, c)),
        |t| t,
    );
    quote! {
        #krate::arch::RegInfo {
            name: #name,
            addresses: &[#(#addrs),*],
            alias_addresses: &[#(#alias),*],
            reserved_mask: #reserved,
            access: #krate::arch::__access::#check::<#m::Instance>(),
            role: #role,
            requires: #requires,
            count_from: #count_from,
            fields: #m::FIELDS,
        }
    }
}

/// A register's `count-from:` as a `CountFrom` (the validator checked that the field exists).
fn count_from(
    krate: &TokenStream,
    g: &Generation,
    c: &pmu_defs::model::CountFrom,
) -> Option<TokenStream> {
    let leaf = g.cpuid_leaf(&c.leaf)?;
    let reg = leaf.registers.iter().find(|x| x.register == c.register)?;
    let f = reg.fields.iter().find(|f| f.name == c.field)?;
    let field = tables::cpuid_field(krate, leaf, &reg.register, f);
    let form = format_ident!("{}", camel(c.form.as_str()));
    Some(quote! {
        #krate::arch::CountFrom { field: #field, form: #krate::arch::CountForm::#form }
    })
}

/// `arch_events()` and `arch_event_available()` over the module's `ArchEvent`, when it has
/// one (the events with a `cpuid-bit`).
fn arch_events(krate: &TokenStream, g: &Generation) -> TokenStream {
    if !g.events.iter().any(|e| e.cpuid_bit.is_some()) {
        return quote! {
            fn arch_events() -> &'static [#krate::arch::ArchEventInfo] {
                &[]
            }
            fn arch_event_available(_index: usize, _eax: u32, _ebx: u32) -> bool {
                false
            }
        };
    }
    quote! {
        fn arch_events() -> &'static [#krate::arch::ArchEventInfo] {
            static EVENTS: [#krate::arch::ArchEventInfo; ArchEvent::ALL.len()] = {
                let all = ArchEvent::ALL;
                let mut out = [#krate::arch::ArchEventInfo {
                    name: "",
                    cpuid_bit: 0,
                    desc: #krate::EventDesc::new("", 0, 0),
                }; ArchEvent::ALL.len()];
                let mut i = 0;
                while i < all.len() {
                    out[i] = #krate::arch::ArchEventInfo {
                        name: all[i].name(),
                        cpuid_bit: all[i].cpuid_bit(),
                        desc: all[i].desc().get(),
                    };
                    i += 1;
                }
                out
            };
            &EVENTS
        }
        fn arch_event_available(index: usize, eax: u32, ebx: u32) -> bool {
            ArchEvent::ALL
                .get(index)
                .is_some_and(|e| e.is_available(eax, ebx))
        }
    }
}

/// The `Generation` enum over every generation with a marker, and the markers re-exported
/// beside it (`pmu_regs::arch` re-exports this module). A gated generation's variant and
/// marker (a CPU model's, a microarchitecture's) exist only with its Cargo feature (`split`:
/// the `pmu-regs` layout).
pub fn generations(krate: &TokenStream, model: &Model, split: bool) -> TokenStream {
    let gens: Vec<&Generation> = model
        .generations
        .iter()
        .filter(|g| has_runtime(g))
        .collect();
    let cfg = |g: &Generation| {
        if split && super::is_gated(model, g) {
            let f = &g.id;
            quote!(#[cfg(feature = #f)])
        } else {
            quote!()
        }
    };
    let mut variants = Vec::new();
    let mut uses = Vec::new();
    let mut all = Vec::new();
    let mut ids = Vec::new();
    let mut modules = Vec::new();
    let mut vendors = Vec::new();
    let mut visits = Vec::new();
    for g in &gens {
        let v = marker_name(g);
        let c = cfg(g);
        let segs = module_path(&g.id);
        let path: Vec<Ident> = segs.iter().map(|s| ident(s)).collect();
        let module = format!("pmu_regs::{}", segs.join("::"));
        let doc = format!(
            "`{}`: {} ([`{}`](crate::{})).",
            g.id,
            escape_doc(&g.title),
            module,
            segs.join("::")
        );
        let id = &g.id;
        let vendor = format_ident!("{}", camel(&format!("{:?}", g.vendor)));
        variants.push(quote! { #[doc = #doc] #c #v, });
        uses.push(quote! { #c pub use crate::#(#path)::*::#v; });
        all.push(quote! { #c Generation::#v, });
        ids.push(quote! { #c Generation::#v => #id, });
        modules.push(quote! { #c Generation::#v => #module, });
        vendors.push(quote! { #c Generation::#v => #krate::arch::Vendor::#vendor, });
        visits.push(quote! { #c Generation::#v => visitor.visit::<#v>(), });
    }
    let event_models = event_models(krate, &gens, cfg);
    let facilities = facilities(krate, model, cfg);
    let model_specs = model_specs(krate, model, &gens);
    let generic_events = generic_events(krate, &gens);
    let cpu_names = cpu_names(krate, model);
    quote! {
        /// The generations with a run-time view, and their marker types. Generated from the
        /// definitions; `pmu_regs::arch` re-exports everything here.
        #[doc(hidden)]
        pub mod __generations {
            #(#uses)*

            /// A PMU generation with a run-time view: one generated module, one YAML file in
            /// `pmu-defs/defs` whose registers have the `counter` and `event-select` roles.
            /// Model generations exist only with their Cargo feature.
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum Generation {
                #(#variants)*
            }

            impl Generation {
                /// Every generation, parents before children (the definitions' order).
                pub const ALL: &'static [Generation] = &[#(#all)*];

                /// The generation id used by the YAML (`generation:`).
                pub const fn id(self) -> &'static str {
                    match self { #(#ids)* }
                }

                /// The generated module path.
                pub const fn module(self) -> &'static str {
                    match self { #(#modules)* }
                }

                /// The vendor whose manuals define the generation.
                pub const fn vendor(self) -> #krate::arch::Vendor {
                    match self { #(#vendors)* }
                }

                /// The generation with this id, if any.
                pub fn from_id(id: &str) -> Option<Generation> {
                    Generation::ALL.iter().copied().find(|g| g.id() == id)
                }

                /// Calls `visitor.visit::<A>()` with the `Arch` type of this generation.
                pub fn visit<V: #krate::arch::ArchVisitor>(self, visitor: V) -> V::Output {
                    match self { #(#visits)* }
                }

                /// The MSRs of the generation, with their roles.
                pub fn registers(self) -> &'static [#krate::arch::RegInfo] {
                    struct Regs;
                    impl #krate::arch::ArchVisitor for Regs {
                        type Output = &'static [#krate::arch::RegInfo];
                        fn visit<A: #krate::arch::Arch>(self) -> &'static [#krate::arch::RegInfo] {
                            A::registers()
                        }
                    }
                    self.visit(Regs)
                }
            }

            impl core::fmt::Display for Generation {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.write_str(self.id())
                }
            }

            #event_models

            #facilities

            #model_specs

            #generic_events

            #cpu_names
        }
    }
}
