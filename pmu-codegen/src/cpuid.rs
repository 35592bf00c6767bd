//! The CPUID pass: a generation's `cpuid` module, with one module per leaf (`LEAF`,
//! `SUBLEAF`, one read-only value type per output register that has fields, and `Leaf`
//! holding them all); leaves a parent defines are re-exported.

use super::Cx;
use super::doc::escape_doc;
use super::fields::elems;
use super::util::{bits_text, ident, lit_u32, value_type};
use super::value::value_enum;
use pmu_defs::model::names::{self, Method};
use pmu_defs::model::{CpuidLeaf, CpuidRegister, Generation};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

impl Cx<'_> {
    /// The `cpuid` module of `g` (nothing when it has no leaves); `depth` is the depth of the
    /// generation's module.
    pub(super) fn cpuid_module(&self, g: &Generation, depth: usize) -> TokenStream {
        if g.cpuid.is_empty() {
            return quote!();
        }
        let mut leaves = Vec::new();
        for c in &g.cpuid {
            let defined_here =
                c.defined_in == g.id || self.model.generation(&c.defined_in).is_none();
            if defined_here {
                leaves.push(cpuid_leaf(&self.krate, c));
            } else {
                let from = self.generation_path(depth + 1, &c.defined_in);
                let name = ident(&c.name);
                leaves.push(quote! { pub use #from::cpuid::#name; });
            }
        }
        let cdoc = format!(
            "CPUID leaves of `{}`: output layouts with named fields.",
            g.id
        );
        quote! {
            #[doc = #cdoc]
            pub mod cpuid {
                #(#leaves)*
            }
        }
    }
}

/// A CPUID leaf: `LEAF`/`SUBLEAF`, one read-only value type per output register that has
/// fields, and `Leaf` holding all of them.
fn cpuid_leaf(krate: &TokenStream, c: &CpuidLeaf) -> TokenStream {
    let name = ident(&c.name);
    let leaf = lit_u32(c.leaf);
    let subleaf = match c.subleaf {
        Some(s) => {
            let s = lit_u32(s);
            quote!(Some(#s))
        }
        None => quote!(None),
    };
    let input = match c.subleaf {
        Some(s) => format!("EAX={:#X}H, ECX={s}", c.leaf),
        None => format!("EAX={:#X}H", c.leaf),
    };
    let doc = format!(
        "{}\n\n- CPUID input: {input}\n- Defined in: `{}`\n- Manual: {}",
        escape_doc(c.doc.trim_end()),
        c.defined_in,
        escape_doc(&c.manual)
    );
    let mut types = Vec::new();
    let mut members = Vec::new();
    for reg in &c.registers {
        let tname = ident(&names::cpuid_register_type(&reg.register));
        let member = format_ident!("{}", reg.register);
        members.push((member, tname.clone(), reg.register.clone()));
        types.push(output_register(c, reg, &input));
    }
    let fields = members.iter().map(|(m, t, _)| quote! { pub #m: #t });
    let all = ["eax", "ebx", "ecx", "edx"];
    let params = all.iter().map(|r| {
        if members.iter().any(|(_, _, n)| n == r) {
            format_ident!("{}", r)
        } else {
            format_ident!("_{}", r)
        }
    });
    let inits = members
        .iter()
        .map(|(m, t, _)| quote! { #m: #t::from_raw(#m) });
    let field_docs = members
        .iter()
        .map(|(_, _, n)| format!("CPUID.{input}:{}.", n.to_uppercase()));
    let fields = fields
        .zip(field_docs)
        .map(|(f, d)| quote! { #[doc = #d] #f });
    quote! {
        #[doc = #doc]
        #[allow(non_snake_case, clippy::identity_op, clippy::unnecessary_cast)]
        pub mod #name {
            /// CPUID input EAX.
            pub const LEAF: u32 = #leaf;
            use #krate::__private::field;
            /// CPUID input ECX, for leaves with subleaves.
            pub const SUBLEAF: Option<u32> = #subleaf;
            #(#types)*
            /// The leaf's output registers that carry fields.
            #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
            pub struct Leaf {
                #(#fields,)*
            }
            impl Leaf {
                /// Decodes the four output registers of `cpuid`.
                pub const fn from_regs(#(#params: u32),*) -> Self {
                    Leaf { #(#inits),* }
                }
            }
        }
    }
}

/// The read-only value type of one output register of leaf `c` (CPUID input `input`), with
/// the enums of its fields' named values.
fn output_register(c: &CpuidLeaf, reg: &CpuidRegister, input: &str) -> TokenStream {
    let tname = ident(&names::cpuid_register_type(&reg.register));
    let reserved = lit_u32(reg.reserved_mask);
    let mut getters = Vec::new();
    let mut infos = Vec::new();
    let mut enums = Vec::new();
    let field = quote!(field);
    for f in &reg.fields {
        let vt = value_type(f.width);
        let enum_ident =
            (!f.values.is_empty()).then(|| ident(&names::cpuid_value_enum(&reg.register, &f.name)));
        if let Some(en) = &enum_ident {
            let edoc = format!(
                "Named values of CPUID {} field `{}`.",
                reg.register.to_uppercase(),
                f.name
            );
            enums.push(value_enum(en, f, &edoc, None));
        }
        for e in elems(f) {
            // The field's value, read through its `FIELDS` entry (no arithmetic here).
            let i = infos.len();
            infos.push(super::value::field_info(&field, f, &e));
            let exb = quote!(Self::FIELDS[#i].get(self.0));
            let fdoc = format!(
                "{}\n\n{}\\[{}\\]{}, {} bit{}.",
                escape_doc(f.doc.trim_end()),
                reg.register.to_uppercase(),
                bits_text(f),
                match f.array {
                    Some(a) => format!(" (element {} of {}, +{} each)", e.index, a.count, a.stride),
                    None => String::new(),
                },
                f.width,
                if f.width == 1 { "" } else { "s" }
            );
            for (kind, name) in names::cpuid_getters(f, &e.name) {
                let m = ident(&name);
                match (kind, &enum_ident) {
                    (Method::EnumGetter, Some(en)) => getters.push(quote! {
                        #[doc = #fdoc]
                        pub const fn #m(self) -> Option<#en> { #en::from_value(#exb) }
                    }),
                    _ => {
                        let body = if f.width == 1 {
                            quote!(#exb != 0)
                        } else {
                            quote!(#exb as #vt)
                        };
                        getters.push(quote! {
                            #[doc = #fdoc]
                            pub const fn #m(self) -> #vt { #body }
                        });
                    }
                }
            }
        }
    }
    let tdoc = format!(
        "CPUID.{input}:{} as returned by the processor (read-only). Reserved bits: `{:#010X}`.",
        reg.register.to_uppercase(),
        reg.reserved_mask
    );
    let dname = format!("{}.{}", c.name, reg.register.to_uppercase());
    // CPUID outputs show no reserved bits (they are what the processor returned).
    let debug_body = quote! { #field::debug(f, #dname, Self::FIELDS, self.0, 0) };
    quote! {
        #(#enums)*
        #[doc = #tdoc]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub struct #tname(u64);
        impl #tname {
            /// Bits no field covers.
            pub const RESERVED_MASK: u32 = #reserved;
            /// Every field (each element of a field array), in bit order: what the getters
            /// and `Debug` read.
            pub const FIELDS: &'static [#field::Info] = &[#(#infos),*];
            /// The register as returned by `cpuid`.
            pub const fn from_raw(bits: u32) -> Self { Self(bits as u64) }
            /// The raw register.
            pub const fn bits(self) -> u32 { self.0 as u32 }
            #(#getters)*
        }
        impl ::core::fmt::Debug for #tname {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                #debug_body
            }
        }
    }
}
