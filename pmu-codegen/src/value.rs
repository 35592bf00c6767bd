//! The value pass: what a register's fields are, as data. Per field element a marker type
//! (`UMASK`) implementing `pmu_regs::reg::Field` (its row of `FIELDS`) and `Named` when it
//! has named values; per field array a marker implementing
//! `Array`; the named-value enums; the `FIELDS` table; and the register's `Layout` (name,
//! access, reserved bits, reset value, constraints). Reading and writing a field is the
//! generic `pmu_regs::reg::Value` and `Builder`, written once.

use super::Cx;
use super::doc::escape_doc;
use super::fields::{Elem, elems};
use super::util::{bits_text, ident, lit_u64};
use pmu_defs::model::names;
use pmu_defs::model::{Access, CounterKind, Field, Generation, Register, Severity};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::str::FromStr;

/// What the value pass emits for one register.
pub(super) struct ValueItems {
    /// The field markers and their trait impls, the array markers, the named-value enums.
    pub(super) items: TokenStream,
    /// The `FIELDS` entry of every element, in order (a marker's `INDEX` is its position).
    pub(super) infos: Vec<TokenStream>,
    /// `impl Layout for Register`.
    pub(super) layout: TokenStream,
    /// The constraints' doc lines (for the register's doc), empty without constraints.
    pub(super) constraints_doc: String,
}

impl Cx<'_> {
    /// The field markers, enums, `FIELDS` rows and `Layout` impl of `r` (a register of `g`'s
    /// layout).
    pub(super) fn value_items(&self, g: &Generation, r: &Register) -> ValueItems {
        let (tock, krate) = (&self.tock, &self.krate);
        let mut items = TokenStream::new();
        let mut infos = Vec::new();
        for f in &r.fields {
            let es = elems(f);
            let base_doc = format!(
                "{}\n\nBits {}{}, {}, {} bit{} wide.",
                escape_doc(f.doc.trim_end()),
                bits_text(f),
                match f.array {
                    Some(a) => format!(" (+{} per element, {} elements)", a.stride, a.count),
                    None => String::new(),
                },
                f.access.as_str(),
                f.width,
                if f.width == 1 { "" } else { "s" }
            );
            let en = (!f.values.is_empty()).then(|| ident(&names::value_enum(&f.name)));
            if let Some(en) = &en {
                let edoc = format!("Named values of field `{}` of `{}`.", f.name, r.name);
                items.extend(value_enum(en, f, &edoc, Some((tock, krate))));
            }
            let deprecated = super::restrictions::deprecated_attr(f);
            let first = infos.len();
            for e in &es {
                let edoc = match f.array {
                    Some(a) => element_doc(f, e, a.count),
                    None => base_doc.clone(),
                };
                items.extend(self.marker(e, infos.len(), &edoc, en.as_ref(), deprecated.as_ref()));
                infos.push(field_info(&quote!(field), f, e));
            }
            if let Some(a) = f.array {
                let (m, name) = (ident(&f.name), &f.name);
                let doc = format!(
                    "The field array `{name}` of `{}` ({} elements), for access by an index \
                     chosen at run time: `get_at::<{name}>(i)`, `try_with_at::<{name}>(i, v)`.\n\n{}",
                    r.name,
                    es.len(),
                    escape_doc(f.doc.trim_end())
                );
                let (stride, count) = (a.stride, a.count);
                items.extend(quote! {
                    #[doc = #doc]
                    pub enum #m {}
                    impl #krate::reg::Array<Register> for #m {
                        const NAME: &'static str = #name;
                        const FIRST: usize = #first;
                        const STRIDE: u32 = #stride;
                        const COUNT: u32 = #count;
                    }
                });
            }
        }
        let (constraints, constraints_doc) = self.constraints(g, r);
        let layout = self.layout_impl(r, constraints);
        ValueItems {
            items,
            infos,
            layout,
            constraints_doc,
        }
    }

    /// The marker of element `e` of `f` (row `index` of `FIELDS`) and its impls.
    fn marker(
        &self,
        e: &Elem,
        index: usize,
        doc: &str,
        en: Option<&Ident>,
        deprecated: Option<&TokenStream>,
    ) -> TokenStream {
        let krate = &self.krate;
        let m = ident(&e.name);
        let named =
            en.map(|en| quote! { impl #krate::reg::Named<Register> for #m { type Value = #en; } });
        quote! {
            #[doc = #doc]
            #deprecated
            pub enum #m {}
            impl #krate::reg::Field<Register> for #m { const INDEX: usize = #index; }
            #named
        }
    }

    /// `impl Layout for Register`.
    fn layout_impl(&self, r: &Register, constraints: Option<TokenStream>) -> TokenStream {
        let krate = &self.krate;
        let name = &r.name;
        let access = ident(match r.access {
            Access::ReadWrite => "ReadWrite",
            Access::ReadOnly => "ReadOnly",
            Access::WriteOnly => "WriteOnly",
            Access::WriteOneToClear => "WriteOneToClear",
            Access::WriteOneToSet => "WriteOneToSet",
        });
        let reserved = lit_u64(r.reserved_mask);
        let reset = r.reset.map(|v| {
            let v = lit_u64(v);
            quote!(const RESET: Option<u64> = Some(#v);)
        });
        let constraints =
            constraints.map(|c| quote!(const CONSTRAINTS: &'static [field::Constraint] = #c;));
        let instances = r.msr.indexed.then(|| {
            quote!(
                const INSTANCES: u32 = INSTANCES;
            )
        });
        quote! {
            impl #krate::reg::Layout for Register {
                const NAME: &'static str = #name;
                const ACCESS: field::Access = field::Access::#access;
                const RESERVED_MASK: u64 = #reserved;
                #reset
                const FIELDS: &'static [field::Info] = FIELDS;
                #constraints
                #instances
            }
        }
    }

    /// The constraints on `r` of the generation that defines it, as `&[field::Constraint]`
    /// (`None` without any), and their doc lines.
    fn constraints(&self, g: &Generation, r: &Register) -> (Option<TokenStream>, String) {
        let owner = self.model.generation(&r.defined_in).unwrap_or(g);
        let mut rows = Vec::new();
        let mut doc = String::new();
        let cons = (owner.constraints.iter())
            .filter(|c| c.register == r.name && c.severity == Severity::Error);
        for c in cons {
            // All conditions as one test: the named fields' bits (`mask`) equal to the
            // values in place (`value`).
            let (mut mask, mut value, mut n) = (0u64, 0u64, 0);
            for cond in &c.when {
                if let Some(f) = r.field(&cond.field) {
                    mask |= f.mask;
                    value |= f.insert(0, cond.value);
                    n += 1;
                }
            }
            if n == 0 {
                continue;
            }
            let (id, msg) = (&c.id, &c.message);
            let (mask, value) = (lit_u64(mask), lit_u64(value));
            doc.push_str(&format!(
                "\n- `{id}`: {} ({})",
                escape_doc(msg),
                escape_doc(&c.manual)
            ));
            rows.push(quote! {
                field::Constraint { id: #id, message: #msg, mask: #mask, value: #value }
            });
        }
        ((!rows.is_empty()).then(|| quote!(&[#(#rows),*])), doc)
    }
}

/// The `FIELDS` entry of element `e` of `f`: `field::Info::new("NAME", &[runs])`, then its
/// access, the enumeration it requires and its instances where they are not the default.
/// `field` is the path of `pmu_regs::__private::field` where the entry is written.
pub(super) fn field_info(field: &TokenStream, f: &Field, e: &Elem) -> TokenStream {
    let name = &e.name;
    let lit = proc_macro2::Literal::u32_unsuffixed;
    let runs = (e.parts.iter()).map(|&(lsb, w)| {
        let (lsb, w) = (lit(lsb), lit(w));
        quote!(#field::Run::new(#lsb, #w))
    });
    let mut info = quote! { #field::Info::new(#name, &[#(#runs),*]) };
    let access = match f.access {
        Access::ReadWrite => None,
        Access::ReadOnly => Some(quote!(ReadOnly)),
        Access::WriteOnly => Some(quote!(WriteOnly)),
        Access::WriteOneToClear => Some(quote!(WriteOneToClear)),
        Access::WriteOneToSet => Some(quote!(WriteOneToSet)),
    };
    if let Some(a) = access {
        info = quote! { #info.access(#field::Access::#a) };
    }
    if let Some(req) = &f.requires {
        info = quote! { #info.requires(#req) };
    }
    if let Some(inst) = &f.instances {
        info = quote! { #info.instances(&[#(#inst),*]) };
    }
    info
}

/// The enum of a field's named values (`#[repr(u64)]`, `value`, `from_value`); with `tock`
/// (a register's field, not a CPUID leaf's), also tock-registers' `TryFromValue`, so that
/// `LocalRegisterCopy::read_as_enum` decodes to it, and `pmu_regs::reg::NamedValue`, for
/// `Value::named` and `with_value`.
pub(super) fn value_enum(
    en: &Ident,
    f: &Field,
    doc: &str,
    tock: Option<(&TokenStream, &TokenStream)>,
) -> TokenStream {
    let vars = f.values.iter().map(|v| {
        let vn = ident(&names::value_variant(&v.name));
        let vv = TokenStream::from_str(&v.value.to_string()).unwrap();
        let vd = format!("{} (`{}` = {:#x})", escape_doc(&v.doc), v.name, v.value);
        quote! { #[doc = #vd] #vn = #vv }
    });
    let froms = f.values.iter().map(|v| {
        let vn = ident(&names::value_variant(&v.name));
        let vv = lit_u64(v.value);
        quote! { #vv => Some(Self::#vn), }
    });
    let try_from = tock.map(|(tock, krate)| {
        quote! {
            impl #tock::fields::TryFromValue<u64> for #en {
                type EnumType = #en;
                fn try_from_value(v: u64) -> Option<#en> { #en::from_value(v) }
            }
            impl #krate::reg::NamedValue for #en {
                fn bits(self) -> u64 { self as u64 }
                fn from_bits(bits: u64) -> Option<Self> { Self::from_value(bits) }
            }
        }
    });
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u64)]
        pub enum #en { #(#vars),* }
        impl #en {
            /// The field value.
            pub const fn value(self) -> u64 { self as u64 }
            /// The named value for `v`, if it has a name.
            pub const fn from_value(v: u64) -> Option<Self> {
                match v { #(#froms)* _ => None }
            }
        }
        #try_from
    }
}

/// The doc of one element of a field array, exact for that element: its own bits, and the
/// counter it belongs to when the array is per counter (`ENABLE` element 1: bits 5:4, fixed
/// counter 1), then the field's doc.
fn element_doc(f: &Field, e: &Elem, count: u32) -> String {
    let bits = e
        .parts
        .iter()
        .map(|&(lsb, width)| {
            if width == 1 {
                format!("{lsb}")
            } else {
                format!("{}:{lsb}", lsb + width - 1)
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    let counter = match f.per_counter {
        Some(CounterKind::General) => format!(", general-purpose counter {}", e.index),
        Some(CounterKind::Fixed) => format!(", fixed counter {}", e.index),
        None => String::new(),
    };
    let one_bit = e.parts.len() == 1 && e.parts[0].1 == 1;
    format!(
        "`{}` element {} of {count}{counter}: {} {bits}, {}, {} bit{} wide.\n\n{}",
        f.name,
        e.index,
        if one_bit { "bit" } else { "bits" },
        f.access.as_str(),
        f.width,
        if f.width == 1 { "" } else { "s" },
        escape_doc(f.doc.trim_end()),
    )
}
