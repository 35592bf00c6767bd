//! The alias pass: a register's second address range (`alias-msr:`, perfmon v6's
//! `IA32_PMCn` at `0x1900 + 4n` beside `0xC1 + n`). The alias addresses reach the *same*
//! register module: the same `Value`, `Builder` and `Placed<N>`, so a value built for counter
//! `N` is written through either address and no second type exists for one hardware counter.
//! A family gets `ALIAS_BASE_ADDRESS` / `ALIAS_ADDRESS_STRIDE` / `ALIAS_ADDRESSES`,
//! const-checked `alias_address::<N>()` and `alias_msr::<N>()` (an `AliasIndexed<N>`, the
//! alias twin of `Indexed<N>`), `try_alias_address` / `try_alias_msr` (an `Instance` at the
//! alias address); a single register gets `ALIAS_ADDRESS` and `ALIAS_MSR`. The register's
//! `MsrDef` impl (`register.rs`) carries the alias range, from which the generic
//! `Instance::is_alias` and `Instance::index` tell the two addresses apart.

use super::Cx;
use super::util::lit_u32;
use pmu_defs::model::Register;
use proc_macro2::TokenStream;
use quote::quote;

impl Cx<'_> {
    /// The alias address constants and typed MSRs of `r` (nothing without `alias-msr:`).
    pub(super) fn alias_items(&self, r: &Register, placed: bool) -> TokenStream {
        let Some(alias) = r.alias_msr else {
            return quote!();
        };
        if !r.msr.indexed {
            let a = lit_u32(alias.base);
            return quote! {
                /// The alias MSR address (`alias-msr:`): the same register as [`ADDRESS`](ADDRESS).
                pub const ALIAS_ADDRESS: u32 = #a;
                /// The register as a typed MSR at its alias address: the same [`Value`](Value).
                pub const ALIAS_MSR: Instance = Instance::__at(ALIAS_ADDRESS);
            };
        }
        let name_str = &r.name;
        let base = lit_u32(alias.base);
        let stride = alias.stride;
        let addrs = r.alias_addresses.iter().copied().map(lit_u32);
        let adoc = format!(
            "Alias address of `{name_str}N` (`alias-msr:`), the same instance as \
             [`address::<N>()`](address). `N` out of 0..{} fails to compile.",
            r.msr.count
        );
        let mdoc = format!(
            "`{name_str}N` at its alias address as a typed MSR, `N` in its type: the same \
             register as [`msr::<N>()`](msr), with the same [`Value`](Value); a value placed on \
             another instance cannot be written to it."
        );
        let indexed = self.alias_indexed(r, placed);
        quote! {
            /// Alias MSR address of instance 0 (`alias-msr:`).
            pub const ALIAS_BASE_ADDRESS: u32 = #base;
            /// Alias address step between instances.
            pub const ALIAS_ADDRESS_STRIDE: u32 = #stride;
            /// Every alias address of the family, by index.
            pub const ALIAS_ADDRESSES: [u32; INSTANCES as usize] = [#(#addrs),*];
            #[doc = #adoc]
            #[track_caller]
            pub const fn alias_address<const N: u32>() -> u32 {
                let _ = address::<N>();
                ALIAS_BASE_ADDRESS + N * ALIAS_ADDRESS_STRIDE
            }
            /// Alias address of instance `index`, or `None` when out of range.
            pub const fn try_alias_address(index: u32) -> Option<u32> {
                if index < INSTANCES { Some(ALIAS_BASE_ADDRESS + index * ALIAS_ADDRESS_STRIDE) } else { None }
            }
            #[doc = #mdoc]
            #[track_caller]
            pub const fn alias_msr<const N: u32>() -> AliasIndexed<N> {
                let _ = address::<N>();
                AliasIndexed
            }
            /// Instance `index` at its alias address as a typed MSR, or `None` when out of
            /// range.
            pub const fn try_alias_msr(index: u32) -> Option<Instance> {
                match try_alias_address(index) {
                    Some(a) => Some(Instance::__at(a)),
                    None => None,
                }
            }
            impl<const N: u32> From<AliasIndexed<N>> for Instance {
                fn from(m: AliasIndexed<N>) -> Instance { m.instance() }
            }
            #indexed
        }
    }

    /// `AliasIndexed<N>` with the access traits the register's access allows, and, for a
    /// placed register, where `Placed<N>` / `PlacedAt` may be written through it.
    fn alias_indexed(&self, r: &Register, placed: bool) -> TokenStream {
        let krate = &self.krate;
        let name_str = &r.name;
        let doc = format!(
            "`{name_str}N` at its alias address as a typed MSR, `N` in its type: what \
             [`alias_msr::<N>()`](alias_msr) returns. It holds the same [`Value`](Value) as \
             [`Indexed<N>`](Indexed)."
        );
        let read = r.access.readable().then(|| {
            quote! {
                impl<const N: u32> #krate::access::Readable for AliasIndexed<N> {
                    fn from_read(bits: u64) -> Value { Value::from_raw_read(bits) }
                }
            }
        });
        let writable = r.access.writable().then(|| {
            quote! { impl<const N: u32> #krate::access::Writable for AliasIndexed<N> {} }
        });
        let placed = (placed && r.access.writable()).then(|| {
            let wrong = quote! {
                Err(#krate::PlacementError::WrongCounter { register: #name_str, placed, counter })
            };
            quote! {
                impl<const N: u32> #krate::access::WriteTo<AliasIndexed<N>> for Placed<N> {
                    fn bits_for(self, _: AliasIndexed<N>) -> Result<u64, #krate::PlacementError> {
                        Ok(self.bits())
                    }
                }
                impl<const N: u32> #krate::access::WriteTo<AliasIndexed<N>> for PlacedAt {
                    fn bits_for(self, _: AliasIndexed<N>) -> Result<u64, #krate::PlacementError> {
                        let (placed, counter) = (self.index(), N);
                        if placed == counter { Ok(self.bits()) } else { #wrong }
                    }
                }
            }
        });
        quote! {
            #[doc = #doc]
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            pub struct AliasIndexed<const N: u32>;
            impl<const N: u32> AliasIndexed<N> {
                /// The alias MSR address.
                #[track_caller]
                pub const fn address(self) -> u32 { alias_address::<N>() }
                /// Index within the family: `N`.
                pub const fn index(self) -> u32 { N }
                /// The same MSR as an [`Instance`](Instance), its index known at run time only.
                #[track_caller]
                pub const fn instance(self) -> Instance { Instance::__at(alias_address::<N>()) }
                /// The same instance at its own (non-alias) address.
                pub const fn unaliased(self) -> Indexed<N> { Indexed::<N>::__new() }
            }
            impl<const N: u32> #krate::access::Msr for AliasIndexed<N> {
                type Value = Value;
                fn address(self) -> u32 { alias_address::<N>() }
            }
            impl<const N: u32> #krate::access::WriteTo<AliasIndexed<N>> for Value {
                fn bits_for(self, _: AliasIndexed<N>) -> Result<u64, #krate::PlacementError> {
                    Ok(self.bits())
                }
            }
            #read
            #writable
            #placed
        }
    }
}
