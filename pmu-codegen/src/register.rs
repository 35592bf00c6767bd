//! The register pass: one module per register (`IA32_PERFEVTSEL`) with its docs, its marker
//! type, the tock-registers fields, the field markers and `Layout` of the
//! [value](super::value) pass, the MSR address(es), `Value` and `Builder` (aliases of
//! `pmu_regs::reg`'s generic types), `event_on`, and the typed `Instance` implementing
//! `access::Msr` / `Readable` / `Writable` as its access allows.

use super::Cx;
use super::doc::escape_doc;
use super::layout::Layout;
use super::util::{ident, join_and, lit_u32};
use pmu_defs::model::{Generation, Register};
use proc_macro2::TokenStream;
use quote::quote;

impl Cx<'_> {
    /// The module of the register with layout `l`, and its `Ia32Perfevtsel`-style alias of the
    /// value type.
    pub(super) fn register(&self, l: &Layout<'_>) -> TokenStream {
        let (g, r) = (l.generation, l.register);
        let tock = &self.tock;
        let krate = &self.krate;
        let name = ident(&r.name);
        let alias = ident(&pmu_defs::model::names::register_alias(&r.name));
        // Each definer's manual citation (the layout is one; where it is documented differs).
        let definers: Vec<(&str, &str)> = (l.definers.iter())
            .map(|d| {
                let own = (self.model.generation(d)).and_then(|g| g.register(&r.name));
                (*d, own.map_or(r.manual.as_str(), |x| x.manual.as_str()))
            })
            .collect();
        let tock_block = self.tock_block(r);
        let address = self.address_items(r);
        let v = self.value_items(g, r);
        let mut doc = register_doc(r, &definers);
        if !v.constraints_doc.is_empty() {
            doc.push_str("\n\n`build()` checks the manual's constraints on field combinations:\n");
            doc.push_str(&v.constraints_doc);
        }
        // Fields that later generations add: markers that fail with a clear message.
        let unavailable = self.unavailable(r, &l.users);
        let event_on = self.event_on(g, r, &l.home, &l.users);
        let instance = self.instance_items(r, self.placement(g, r));
        let (items, infos, layout) = (&v.items, &v.infos, &v.layout);
        let vdoc = format!(
            "A value of `{}`: its fields are the marker types of this module (`get::<F>()`, \
             `with::<F, V>()`, ...); setters never touch reserved bits (`{:#018X}`).",
            r.name, r.reserved_mask
        );
        let builder = r.access.writable().then(|| {
            let bdoc = format!(
                "Builds a write of `{}` field by field: from [`Value::new`](Value), \
                 `event_on::<N>` or `at::<N>()`.",
                r.name
            );
            quote! {
                #[doc = #bdoc]
                pub type Builder<P = #krate::access::Unplaced> = #krate::reg::Builder<Register, P>;
            }
        });
        let adoc = format!("The value type of [`{0}`]({0}).", r.name);
        quote! {
            #[doc = #doc]
            #[allow(non_snake_case, non_upper_case_globals, non_camel_case_types, missing_docs, missing_debug_implementations, deprecated)]
            pub mod #name {
                /// The register's marker type, also named [`Register`](Register): its
                /// `Layout` (fields, reserved bits) and addresses. It carries the register's
                /// name, so that a field of another register is reported as "not a field of
                /// `IA32_X`".
                #[derive(Clone, Copy, Debug)]
                pub struct #name;
                /// The register's marker type.
                pub type Register = #name;
                impl #tock::RegisterLongName for Register {}
                use #krate::__private::field;
                use #tock::fields::Field;
                #tock_block
                #items
                #unavailable
                /// Every field (each element of a field array), in bit order: what the
                /// generic accessors, `Debug` and the builder's set-twice reports read.
                pub const FIELDS: &[field::Info] = &[#(#infos),*];
                #layout
                #address
                #[doc = #vdoc]
                pub type Value = #krate::reg::Value<Register>;
                #builder
                #event_on
                #instance
            }
            #[doc = #adoc]
            pub type #alias = #name::Value;
        }
    }

    /// Whether values of `r` (a register of `g`'s layout) are placed on an instance: the event
    /// select of the general-purpose counters, and a family with a field valid only on some
    /// instances. Such a register gets `Placed<N>` and `PlacedAt`.
    pub(super) fn placement(&self, g: &Generation, r: &Register) -> bool {
        self.has_event_on(g, r)
            || (r.msr.indexed
                && r.access.writable()
                && r.fields.iter().any(|f| f.instances.is_some()))
    }

    /// `ADDRESS`, or for a family `BASE_ADDRESS`, `INSTANCES`, `ADDRESS_STRIDE`,
    /// `ADDRESSES` and the const-checked `address::<N>()` / `try_address`.
    fn address_items(&self, r: &Register) -> TokenStream {
        let name_str = &r.name;
        if r.msr.indexed {
            let base = lit_u32(r.msr.base);
            let count = r.msr.count;
            let stride = r.msr.stride;
            let addrs = r.msr.addresses().map(lit_u32);
            let idoc = format!("Address of `{name_str}N`. `N` out of 0..{count} fails to compile.");
            quote! {
                /// MSR address of instance 0.
                pub const BASE_ADDRESS: u32 = #base;
                /// Number of instances of this register family.
                pub const INSTANCES: u32 = #count;
                /// Address step between instances.
                pub const ADDRESS_STRIDE: u32 = #stride;
                /// Every address of the family, by index.
                pub const ADDRESSES: [u32; #count as usize] = [#(#addrs),*];
                #[doc = #idoc]
                #[track_caller]
                pub const fn address<const N: u32>() -> u32 {
                    Indexed::<N>::__new().address()
                }
                /// Address of instance `index`, or `None` when out of range.
                pub const fn try_address(index: u32) -> Option<u32> {
                    if index < INSTANCES { Some(BASE_ADDRESS + index * ADDRESS_STRIDE) } else { None }
                }
            }
        } else {
            let a = lit_u32(r.msr.base);
            quote! {
                /// MSR address.
                pub const ADDRESS: u32 = #a;
            }
        }
    }

    /// The typed MSR: `Instance`, `MSR` or `msr::<N>()` / `try_msr`. Both typed MSRs are the
    /// generic ones of `pmu_regs::access` (`Instance<Register>`, `Indexed<Register, N>`),
    /// which read the register's `MsrDef` impl; its `ReadAccess` / `WriteAccess` impls
    /// give them the access traits the register's access allows.
    fn instance_items(&self, r: &Register, placed: bool) -> TokenStream {
        let krate = &self.krate;
        let name_str = &r.name;
        let msr_def = self.msr_def(r);
        let access = [
            r.access
                .readable()
                .then(|| quote!(impl #krate::access::ReadAccess for Register {})),
            r.access
                .writable()
                .then(|| quote!(impl #krate::access::WriteAccess for Register {})),
        ];
        let instance = self.instance_constructors(r);
        // `WriteTo` is implemented whatever the access: writing a read-only register is
        // refused by the missing `Writable` alone, with its own message, not by a second
        // error about the value.
        let indexed = r.msr.indexed.then(|| {
            let doc = format!(
                "`{name_str}N` as a typed MSR, `N` in its type: what [`msr::<N>()`](msr) returns. \
                 A value placed on another instance (`Placed<M>`) cannot be written to it."
            );
            quote! {
                #[doc = #doc]
                pub type Indexed<const N: u32> = #krate::access::Indexed<Register, N>;
            }
        });
        let alias = self.alias_items(r, placed);
        let placed_items = (placed && r.access.writable()).then(|| self.placed_items(r));
        let inst_doc = format!(
            "One `{name_str}` MSR, for typed access through [`MsrExt`]({}::access::MsrExt) ({}).",
            self.krate.to_string().replace(' ', ""),
            r.access.as_str()
        );
        quote! {
            #msr_def
            #(#access)*
            #[doc = #inst_doc]
            pub type Instance = #krate::access::Instance<Register>;
            #instance
            #indexed
            #placed_items
            #alias
        }
    }

    /// `impl MsrDef for Register`: where the generic `Instance` and `Indexed` find it.
    fn msr_def(&self, r: &Register) -> TokenStream {
        let krate = &self.krate;
        let (base, stride) = if r.msr.indexed {
            (
                quote!(BASE_ADDRESS),
                Some(quote!(
                    const ADDRESS_STRIDE: u32 = ADDRESS_STRIDE;
                )),
            )
        } else {
            (quote!(ADDRESS), None)
        };
        let alias = r.alias_msr.map(|a| {
            let (abase, astride) = (lit_u32(a.base), lit_u32(a.stride.max(1)));
            quote! {
                const HAS_ALIAS: bool = true;
                const ALIAS_BASE_ADDRESS: u32 = #abase;
                const ALIAS_ADDRESS_STRIDE: u32 = #astride;
            }
        });
        quote! {
            impl #krate::access::MsrDef for Register {
                const BASE_ADDRESS: u32 = #base;
                #stride
                #alias
            }
        }
    }

    /// How the typed MSR is named: `msr::<N>()` and `try_msr(index)` for a family, `MSR` for a
    /// single register.
    fn instance_constructors(&self, r: &Register) -> TokenStream {
        let name_str = &r.name;
        if r.msr.indexed {
            let count = r.msr.count;
            let mdoc = format!(
                "`{name_str}N` as a typed MSR whose index is part of its type (a value placed \
                 on another instance cannot be written to it). `N` out of 0..{count} fails to \
                 compile."
            );
            quote! {
                #[doc = #mdoc]
                #[track_caller]
                pub const fn msr<const N: u32>() -> Indexed<N> {
                    let _ = address::<N>();
                    Indexed::<N>::__new()
                }
                /// Instance `index` as a typed MSR, or `None` when out of range.
                pub const fn try_msr(index: u32) -> Option<Instance> {
                    match try_address(index) {
                        Some(a) => Some(Instance::__at(a)),
                        None => None,
                    }
                }
            }
        } else {
            quote! {
                /// The register as a typed MSR.
                pub const MSR: Instance = Instance::__at(ADDRESS);
            }
        }
    }

    /// `Placed<N>` and `PlacedAt`, the values of a register whose builder carries the instance
    /// (see [`placement`](Cx::placement)), and where `MsrExt::write` takes them: `Placed<N>`
    /// to `Indexed<N>` only (another `Indexed<M>` does not compile), either to the
    /// `Instance` or `Indexed` of its own index (checked at run time).
    fn placed_items(&self, r: &Register) -> TokenStream {
        let krate = &self.krate;
        let name_str = &r.name;
        let pdoc = format!(
            "A value of `{name_str}` for instance `N` (from `event_on::<N>` or \
             [`Builder::at::<N>()`](Builder::at)): `MsrExt::write` writes it to \
             [`msr::<N>()`](msr) and to no other instance. [`bits`](Placed::bits) gives the raw \
             value, [`unplaced`](Placed::unplaced) the `Value` to read its fields (the untyped \
             escape hatch: a `Value` may be written to any instance)."
        );
        let adoc = format!(
            "A value of `{name_str}` for an instance chosen at run time (from `try_event_on` or \
             [`Builder::try_at`](Builder::try_at)): `MsrExt::write` writes it to that instance \
             and refuses any other with `PlacementError::WrongCounter`."
        );
        quote! {
            #[doc = #pdoc]
            pub type Placed<const N: u32> = #krate::access::Placed<Register, N>;
            #[doc = #adoc]
            pub type PlacedAt = #krate::access::PlacedAt<Register>;
        }
    }
}

/// The register's doc: its own text, then MSR, access, width, reset value, reserved bits,
/// the generations defining this layout (`definers`) and the manual section.
/// `definers`: (generation, its manual citation) of each generation defining the layout; none
/// for the layout pass's key, which must not depend on them.
fn register_doc(r: &Register, definers: &[(&str, &str)]) -> String {
    let addr_text = if r.msr.indexed {
        format!(
            "`{:#X}` + {} × n for n in 0..{} (`{}0`..`{}{}`)",
            r.msr.base,
            r.msr.stride,
            r.msr.count,
            r.name,
            r.name,
            r.msr.count - 1
        )
    } else {
        format!("`{:#X}`", r.msr.base)
    };
    let mut doc = format!("{}\n\n", escape_doc(r.doc.trim_end()));
    doc.push_str(&format!("- MSR: {addr_text}\n"));
    if let Some(a) = r.alias_msr {
        let alias_text = if a.indexed {
            format!(
                "`{:#X}` + {} × n, the same instances (`alias_msr::<N>()`)",
                a.base, a.stride
            )
        } else {
            format!("`{:#X}`, the same register (`ALIAS_MSR`)", a.base)
        };
        doc.push_str(&format!("- Alias MSR: {alias_text}\n"));
    }
    doc.push_str(&format!("- Access: {}\n", r.access.as_str()));
    doc.push_str(&format!("- Width: {} bits\n", r.width));
    if let Some(reset) = r.reset {
        doc.push_str(&format!("- Reset value: `{reset:#X}`\n"));
    }
    doc.push_str(&format!("- Reserved bits: `{:#018X}`\n", r.reserved_mask));
    // With several definers (generations of different chains defining the same layout, such
    // as the Skylake-type LBR stack of Skylake, Goldmont, Ice Lake and Tremont), where the
    // register first appears differs per chain: the list of definers says it, and leaving
    // `since` out keeps their layouts one (the layout pass compares these tokens).
    // Generations of different chains can define one layout, each citing its own manual
    // section (Silvermont's, Bonnell's and Knights Landing's LBR TOS): one line each, when
    // they differ.
    let defined_in = match definers {
        [(one, _)] => format!("`{one}` (register present since `{}`)", r.since),
        _ => format!(
            "{}, one layout emitted once",
            join_and(
                &definers
                    .iter()
                    .map(|(d, _)| format!("`{d}`"))
                    .collect::<Vec<_>>()
            ),
        ),
    };
    doc.push_str(&format!("- Defined in: {defined_in}\n"));
    let mut manuals: Vec<(&str, &str)> = Vec::new();
    for &(d, m) in definers {
        if !manuals.iter().any(|(_, x)| *x == m) {
            manuals.push((d, m));
        }
    }
    match manuals.as_slice() {
        [] => {}
        [(_, m)] => doc.push_str(&format!("- Manual: {}\n", escape_doc(m))),
        _ => {
            doc.push_str("- Manual:\n");
            for (d, m) in &manuals {
                doc.push_str(&format!("  - `{d}`: {}\n", escape_doc(m)));
            }
        }
    }
    doc.push_str("\nThe value type is [`Value`](");
    doc.push_str(&format!("{}::Value).", r.name));
    doc
}
