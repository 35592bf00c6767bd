//! The value pass: a register's `Value` type (constructors, `RESERVED_MASK`, a getter per
//! field element, const-checked and `try_` setters, named-value enums, runtime-indexed access
//! to field arrays) and, for each setter, its [`Builder`](super::builder) wrapper.

use super::Cx;
use super::doc::escape_doc;
use super::fields::{Elem, elems, w1_verb};
use super::parts::ValueParts;
use super::util::{bits_text, ident, lit_u64, refused_setter, value_type};
use pmu_defs::model::names::{self, Method};
use pmu_defs::model::{Access, CounterKind, Field, FieldArray, Register};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::str::FromStr;

impl Cx<'_> {
    /// Walks the fields of `r` once and collects everything `Value` and `Builder` hold.
    pub(super) fn value_parts(&self, r: &Register) -> ValueParts {
        let mut p = ValueParts::default();
        self.value_basics(r, &mut p);
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
            let enum_ident = (!f.values.is_empty()).then(|| ident(&names::value_enum(&f.name)));
            if let Some(en) = &enum_ident {
                let edoc = format!("Named values of field `{}` of `{}`.", f.name, r.name);
                p.enums.push(value_enum(en, f, &edoc, Some(&self.tock)));
            }
            for e in &es {
                let edoc = match f.array {
                    Some(a) => element_doc(f, e, a.count),
                    None => base_doc.clone(),
                };
                self.elem_methods(r, f, e, &edoc, enum_ident.as_ref(), &mut p);
            }
            // runtime-indexed access to arrays
            if let Some(a) = f.array {
                self.array_accessors(r, f, a, &es, &mut p);
            }
        }
        if p.const_checked {
            let name_str = &r.name;
            p.checkers.push(quote! {
                /// Field `FIELDS[F]` takes `V`, or a compile error (also outside a `const`).
                #[inline(always)]
                const fn __check_field<const F: usize, const V: u64>() {
                    const { field::check_info(#name_str, &FIELDS[F], V) }
                }
            });
        }
        p
    }

    /// Constructors (`new`, `from_bits`, `try_from_bits`, `from_raw_read`), `RESET`,
    /// `RESERVED_MASK`, `bits` and `to_local`, as the register's access allows.
    fn value_basics(&self, r: &Register, p: &mut ValueParts) {
        let tock = &self.tock;
        let krate = &self.krate;
        let name_str = &r.name;
        let reserved = lit_u64(r.reserved_mask);
        let readable = r.access.readable();
        let reg_writable = r.access.writable();
        let krate_text = krate.to_string().replace(' ', "");
        let try_from_bits_doc = format!(
            "The value with exactly these bits, or [`ReservedBitsError`]({krate_text}::ReservedBitsError)\n\
             when one of them is reserved."
        );
        let bits_doc = if readable {
            "The raw value (reserved bits as read, when built from \
             [`Self::from_raw_read`](Self::from_raw_read))."
        } else {
            "The raw value."
        };
        if reg_writable {
            p.methods.push(quote! {
                /// A [`Builder`](Builder) with every field zero (no reserved bits set): the starting point
                /// for a write. Each field may be given one value; `build()` rejects a field
                /// given two different values (a compile error in a `const`).
                pub const fn new() -> Builder {
                    Builder::EMPTY
                }
                /// The value with exactly these bits, which must not include a reserved bit:
                /// a constant `B` with a reserved bit set fails to compile.
                #[track_caller]
                pub const fn from_bits<const B: u64>() -> Self {
                    field::reserved_clear(#name_str, Self::RESERVED_MASK, B);
                    field::reserved_ok::<Self, B>();
                    Self(B)
                }
                #[doc = #try_from_bits_doc]
                #[inline]
                pub const fn try_from_bits(bits: u64) -> Result<Self, #krate::ReservedBitsError> {
                    match field::try_reserved_clear(#name_str, Self::RESERVED_MASK, bits) {
                        Ok(bits) => Ok(Self(bits)),
                        Err(e) => Err(e),
                    }
                }
            });
        }
        if readable {
            p.methods.push(quote! {
                /// The value as read from the MSR, reserved bits kept as read: for decoding,
                /// and for a read-modify-write through `MsrExt::modify`, which writes them back
                /// unchanged. `MsrExt::write` refuses a value that sets a reserved bit.
                pub const fn from_raw_read(bits: u64) -> Self { Self(bits) }
            });
        }
        if let Some(reset) = r.reset {
            let rv = lit_u64(reset);
            p.methods.push(quote! {
                /// The value after reset.
                pub const RESET: Self = Self(#rv);
            });
        }
        p.methods.push(quote! {
            /// `Self` of a field write's result.
            #[inline(always)]
            #[allow(dead_code)]
            const fn __ok(value: Result<u64, #krate::FieldError>) -> Result<Self, #krate::FieldError> {
                match value {
                    Ok(bits) => Ok(Self(bits)),
                    Err(e) => Err(e),
                }
            }
            /// Bits no field covers; this API never sets them.
            pub const RESERVED_MASK: u64 = #reserved;
            #[doc = #bits_doc]
            #[inline]
            pub const fn bits(self) -> u64 { self.0 }
            /// The value as a tock-registers local copy, to read fields through their `Field` constants.
            pub const fn to_local(self) -> #tock::LocalRegisterCopy<u64, Register> {
                #tock::LocalRegisterCopy::new(self.0)
            }
        });
    }

    /// The methods of one element ([`names::element_methods`]): its getters, then, when it
    /// is writable, `with_x(bool)` or const-checked `with_x::<V>()` plus `try_with_x`,
    /// `with_x_value` for named values, `clear_x`/`set_x` for write-1 bits; each
    /// setter with its `Builder` wrapper. Also its line of `Debug`.
    fn elem_methods(
        &self,
        r: &Register,
        f: &Field,
        e: &Elem,
        edoc: &str,
        enum_ident: Option<&Ident>,
        p: &mut ValueParts,
    ) {
        let c = ElemCode::new(r, f, e, edoc);
        let exb = e.get();
        p.infos.push(field_info(&quote!(field), f, e));
        let deprecated = super::restrictions::deprecated_attr(f);
        for (kind, name) in names::element_methods(r, f, &e.name) {
            let m = ident(&name);
            if f.instances.is_some() && kind == Method::WithBool {
                self.instance_setter(r, f, e, edoc, &m, p);
                continue;
            }
            let before = (p.methods.len(), p.bmethods.len());
            match kind {
                Method::Getter => p.methods.push(c.getter(&m)),
                Method::EnumGetter => {
                    let en = enum_ident.expect("a field with named values has an enum");
                    p.methods.push(quote! {
                        #[doc = #edoc]
                        #[inline]
                        pub const fn #m(self) -> Option<#en> { #en::from_value(#exb) }
                    });
                }
                Method::Write1 => c.write1(f, &m, p),
                Method::WithBool => c.setter(&m, "on", quote!(bool), p),
                Method::WithConst => self.const_setter(r, e, &c, &m, p),
                Method::TrySet => self.try_setter(e, &c, &m, p),
                Method::SetEnum => {
                    let en = enum_ident.map_or_else(|| c.vt.clone(), |en| quote!(#en));
                    c.setter(&m, "value", en, p);
                }
                Method::ReadOnly => self.read_only_stub(r, e, f.width, &m, p),
            }
            super::restrictions::deprecate(deprecated.as_ref(), kind, before, p);
        }
    }

    /// `with_x::<V>()`, whose `V` wider than the field fails to compile, and its `Builder`
    /// wrapper.
    fn const_setter(&self, r: &Register, e: &Elem, c: &ElemCode, m: &Ident, p: &mut ValueParts) {
        let (name_str, ename, width, parts) = (&r.name, &e.name, c.width, e.parts());
        let (sdoc, emask) = (&c.sdoc, &c.emask);
        let cdoc = format!("{sdoc} A constant `V` wider than {width} bits fails to compile.");
        // In a `const` item the first check fails, at the caller's expression
        // (`#[track_caller]`); `__check_field`'s inline const makes the same value a compile
        // error in non-const code too (when it is monomorphized).
        let index = p.infos.len() - 1; // this element's `FIELDS` entry, pushed first
        p.const_checked = true;
        p.methods.push(quote! {
            #[doc = #cdoc]
            #[inline]
            #[track_caller]
            pub const fn #m<const V: u64>(self) -> Self {
                field::check(#name_str, #ename, #parts, V);
                __check_field::<#index, V>();
                Self(field::put(self.0, #parts, 0, V))
            }
        });
        p.bmethods.push(quote! {
            #[doc = #cdoc]
            #[inline]
            #[track_caller]
            pub const fn #m<const V: u64>(self) -> Self {
                self.track(#emask, self.value.#m::<V>())
            }
        });
    }

    /// `try_with_x(v)`, `FieldError::TooWide` for a `v` wider than the field, and its
    /// `Builder` wrapper.
    fn try_setter(&self, e: &Elem, c: &ElemCode, m: &Ident, p: &mut ValueParts) {
        let krate = &self.krate;
        let (ename, width, emask, parts) = (c.ename, c.width, &c.emask, e.parts());
        let tdoc = format!(
            "{} Fails with [`FieldError::TooWide`]({}::FieldError) when `v` exceeds {width} bits.",
            c.sdoc,
            krate.to_string().replace(' ', "")
        );
        p.methods.push(quote! {
            #[doc = #tdoc]
            #[inline]
            pub const fn #m(self, v: u64) -> Result<Self, #krate::FieldError> {
                Self::__ok(field::try_put(self.0, #ename, #parts, 0, v))
            }
        });
        p.bmethods.push(quote! {
            #[doc = #tdoc]
            #[inline]
            pub const fn #m(self, v: u64) -> Result<Self, #krate::FieldError> {
                self.__tracked(#emask, self.value.#m(v))
            }
        });
    }

    /// A hidden `with_x` on a read-only field element, bound by a never-implemented trait
    /// whose `on_unimplemented` message says the field is read-only: calling it is a compile
    /// error in the user's terms, not "no method named `with_x`".
    fn read_only_stub(&self, r: &Register, e: &Elem, width: u32, m: &Ident, p: &mut ValueParts) {
        let krate = &self.krate;
        let tr = ident(&format!("__ReadOnly_{}", e.name));
        let (message, note) = if r.access == pmu_defs::model::Access::ReadOnly {
            (
                format!(
                    "`{}` is read-only: its field `{}` cannot be set",
                    r.name, e.name
                ),
                format!(
                    "the processor reports `{}`; read it with `MsrExt::read` (writing `{}` faults: #GP)",
                    e.name, r.name
                ),
            )
        } else {
            (
                format!(
                    "field `{}` of `{}` is read-only: it cannot be set",
                    e.name, r.name
                ),
                format!(
                    "the processor reports `{}`; writes leave it unchanged (the typed API keeps it as read)",
                    e.name
                ),
            )
        };
        let label = format!("`{}` is read-only", e.name);
        let (refusal, stub) = refused_setter(krate, &tr, m, width, (&message, &label, &note));
        p.checkers.push(refusal);
        p.methods.push(stub.clone());
        if r.access.writable() {
            p.bmethods.push(stub);
        }
    }

    /// Runtime-indexed access to a field array: `x_at(index)` and, when writable,
    /// `try_with_x_at(index, v)` (or `try_clear_x_at(index)` for write-1 bits).
    fn array_accessors(
        &self,
        r: &Register,
        f: &Field,
        a: FieldArray,
        es: &[Elem],
        p: &mut ValueParts,
    ) {
        let krate = &self.krate;
        let width = f.width;
        let vt = value_type(width);
        let fname = &f.name;
        let (count, stride) = (a.count, a.stride);
        let (at, set_at) = names::array_methods(r, f);
        let at = ident(&at);
        // Elements are `stride` bits apart (`fields::elems`): element `index` is element 0
        // moved up by `index * stride`, computed by the generic field functions, not chosen
        // by a `match` (a jump table).
        let Some(e0) = es.first() else {
            return;
        };
        let parts = e0.parts();
        let got = if width == 1 {
            quote! { v != 0 }
        } else {
            quote! { v as #vt }
        };
        let adoc = format!("Element `index` of `{fname}`, or `None` when out of 0..{count}.");
        p.methods.push(quote! {
            #[doc = #adoc]
            #[inline]
            pub const fn #at(self, index: u32) -> Option<#vt> {
                match field::get_at(self.0, #parts, #stride, #count, index) {
                    Some(v) => Some(#got),
                    None => None,
                }
            }
        });
        let before = (p.methods.len(), p.bmethods.len());
        if let Some(set_at) = set_at {
            let m = ident(&set_at);
            let one = w1_verb(f).is_some() && width == 1;
            let mask_of = quote! { field::mask_at(#parts, #stride, #count, index) };
            let (mdoc, args, v) = if one {
                (
                    format!(
                        "Writes 1 to element `index` of `{fname}`, or fails when out of 0..{count}."
                    ),
                    quote!(index: u32),
                    quote!(1),
                )
            } else {
                (
                    format!(
                        "Sets element `index` of `{fname}`; fails when out of 0..{count} or wider than {width} bits."
                    ),
                    quote!(index: u32, v: u64),
                    quote!(v),
                )
            };
            let call_args = if one { quote!(index) } else { quote!(index, v) };
            p.methods.push(quote! {
                #[doc = #mdoc]
                #[inline]
                pub const fn #m(self, #args) -> Result<Self, #krate::FieldError> {
                    Self::__ok(field::try_put_at(self.0, #fname, #parts, (#stride, #count), index, #v))
                }
            });
            p.bmethods.push(quote! {
                #[doc = #mdoc]
                #[inline]
                pub const fn #m(self, #args) -> Result<Self, #krate::FieldError> {
                    self.__tracked(#mask_of, self.value.#m(#call_args))
                }
            });
        }
        let deprecated = super::restrictions::deprecated_attr(f);
        super::restrictions::deprecate(deprecated.as_ref(), Method::TrySet, before, p);
    }
}

/// The enum of a field's named values (`#[repr(u64)]`, `value`, `from_value`); with `tock`
/// (a register's field, not a CPUID leaf's), also tock-registers' `TryFromValue`, so that
/// `LocalRegisterCopy::read_as_enum` decodes to it (see [`Cx::tock_block`]).
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

pub(super) fn value_enum(
    en: &Ident,
    f: &Field,
    doc: &str,
    tock: Option<&TokenStream>,
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
    let try_from = tock.map(|tock| {
        quote! {
            impl #tock::fields::TryFromValue<u64> for #en {
                type EnumType = #en;
                fn try_from_value(v: u64) -> Option<#en> { #en::from_value(v) }
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

/// What the methods of one field element are written from: its name, doc and width, and
/// the expressions that read it, write `v: u64` into the value and mask its bits.
struct ElemCode<'a> {
    ename: &'a str,
    edoc: &'a str,
    /// The setters' doc: which field, its bits, the getter whose doc has the rest.
    sdoc: String,
    width: u32,
    /// The getter's type (`bool`, `u8`, ...).
    vt: TokenStream,
    /// The element's value, `u64`.
    get: TokenStream,
    /// `Self(..)` with the element replaced by `v: u64` (already range-checked).
    insert_v: TokenStream,
    emask: TokenStream,
}

impl<'a> ElemCode<'a> {
    fn new(r: &Register, f: &Field, e: &'a Elem, edoc: &'a str) -> Self {
        let getter = names::element_methods(r, f, &e.name)
            .into_iter()
            .find(|(m, _)| *m == Method::Getter)
            .map(|(_, name)| name);
        let bits = e
            .parts
            .iter()
            .map(|&(lsb, w)| match w {
                1 => format!("bit {lsb}"),
                _ => format!("bits {}:{lsb}", lsb + w - 1),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let sdoc = match getter {
            Some(g) => format!(
                "Sets `{}` ({bits}); its meaning: [`{g}`](Value::{g}).",
                e.name
            ),
            None => format!("Sets `{}` ({bits}).", e.name),
        };
        ElemCode {
            ename: &e.name,
            edoc,
            sdoc,
            width: f.width,
            vt: value_type(f.width),
            get: e.get(),
            insert_v: e.put(quote!(v)),
            emask: lit_u64(e.mask()),
        }
    }

    /// The getter: `bool` for one bit, the narrowest unsigned type otherwise.
    fn getter(&self, m: &Ident) -> TokenStream {
        let (edoc, vt, ex) = (self.edoc, &self.vt, &self.get);
        let body = if self.width == 1 {
            quote! { #ex != 0 }
        } else {
            quote! { #ex as #vt }
        };
        quote! {
            #[doc = #edoc]
            #[inline]
            pub const fn #m(self) -> #vt { #body }
        }
    }

    /// An infallible setter taking `arg: ty` (a `bool` or a value enum, as `u64` the new
    /// bits), and its `Builder` wrapper.
    fn setter(&self, m: &Ident, arg: &str, ty: TokenStream, p: &mut ValueParts) {
        let (doc, insert_v, emask) = (&self.sdoc, &self.insert_v, &self.emask);
        let arg = ident(arg);
        p.methods.push(quote! {
            #[doc = #doc]
            #[inline]
            pub const fn #m(self, #arg: #ty) -> Self { let v = #arg as u64; #insert_v }
        });
        p.bmethods.push(quote! {
            #[doc = #doc]
            #[inline]
            pub const fn #m(self, #arg: #ty) -> Self { self.track(#emask, self.value.#m(#arg)) }
        });
    }

    /// `set_x`/`clear_x` of a write-1 bit (writes 1), and its `Builder` wrapper.
    fn write1(&self, f: &Field, m: &Ident, p: &mut ValueParts) {
        let (verb, _) = w1_verb(f).expect("a write-1 field");
        let mdoc = format!(
            "Writes 1 to `{}` ({verb}s the corresponding status bit when written). {}",
            self.ename, self.sdoc
        );
        let (insert_v, emask) = (&self.insert_v, &self.emask);
        p.methods.push(quote! {
            #[doc = #mdoc]
            #[inline]
            pub const fn #m(self) -> Self { let v = 1u64; #insert_v }
        });
        p.bmethods.push(quote! {
            #[doc = #mdoc]
            #[inline]
            pub const fn #m(self) -> Self { self.track(#emask, self.value.#m()) }
        });
    }
}
