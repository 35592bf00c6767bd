//! `event_on::<N>(&EventDesc)` and `try_event_on` on the event-select register of the
//! general-purpose counters: placement checks, then each event attribute through the field
//! `pmu.encoding` maps it to.

use super::Cx;
use super::fields::writable;
use super::util::ident;
use crate::model::{Generation, Register};
use crate::names::{self, Method};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

impl Cx<'_> {
    /// `event_on::<N>(&EventDesc)` / `try_event_on(n, &EventDesc)` for the event-select register
    /// of the general-purpose counters, using the owning generation's `pmu.encoding`.
    pub(super) fn event_on(&self, g: &Generation, r: &Register) -> TokenStream {
        let owner = self.model.generation(&r.defined_in).unwrap_or(g);
        let is_select = owner
            .pmu
            .general
            .as_ref()
            .is_some_and(|gc| gc.select == r.name);
        if !is_select || !r.access.writable() || !r.msr.indexed {
            return quote!();
        }
        let krate = &self.krate;
        let name_str = &r.name;
        // (attribute, EventDesc member, label for errors)
        let attrs: [(&str, &str, &str); 8] = [
            ("event", "event", "EVENT_SELECT"),
            ("umask", "umask", "UMASK"),
            ("umask2", "umask2", "UMASK2"),
            ("eq", "eq", "EQ"),
            ("cmask", "cmask", "CMASK"),
            ("inv", "inv", "INV"),
            ("edge", "edge", "EDGE"),
            ("any", "any", "ANY (AnyThread)"),
        ];
        let mut steps = Vec::new();
        for (attr, member, label) in attrs {
            let m = format_ident!("{}", member);
            // The setter the attribute goes through: `with_x(bool)` for one bit,
            // `try_set_x(v)` for more.
            let field = owner
                .pmu
                .encoding_field(attr)
                .and_then(|f| r.field(f))
                .filter(|f| writable(r, f) && f.array.is_none())
                .and_then(|f| {
                    let want = if f.width == 1 {
                        Method::WithBool
                    } else {
                        Method::TrySet
                    };
                    let (_, setter) = names::element_methods(r, f, &f.name)
                        .into_iter()
                        .find(|(m, _)| *m == want)?;
                    Some((f, ident(&setter)))
                });
            let one_bit = matches!(attr, "eq" | "inv" | "edge" | "any");
            let is_set = if one_bit {
                quote! { event.#m }
            } else {
                quote! { event.#m != 0 }
            };
            match field {
                None => steps.push(quote! {
                    if #is_set {
                        return Err(#krate::PlacementError::Unsupported {
                            event: event.name, field: #label, register: #name_str,
                        });
                    }
                }),
                Some((f, setter)) => {
                    let fname = &f.name;
                    let width = f.width;
                    if f.width == 1 {
                        let w = setter;
                        let v = if one_bit {
                            quote!(event.#m)
                        } else {
                            quote!(event.#m != 0)
                        };
                        if one_bit {
                            steps.push(quote! { let b = b.#w(#v); });
                        } else {
                            steps.push(quote! {
                                if event.#m as u64 > 1 {
                                    return Err(#krate::PlacementError::TooWide {
                                        event: event.name, field: #fname, width: 1, value: event.#m as u64,
                                    });
                                }
                                let b = b.#w(#v);
                            });
                        }
                    } else {
                        let t = setter;
                        let v = quote!(event.#m as u64);
                        steps.push(quote! {
                            let b = match b.#t(#v) {
                                Ok(b) => b,
                                Err(_) => return Err(#krate::PlacementError::TooWide {
                                    event: event.name, field: #fname, width: #width, value: #v,
                                }),
                            };
                        });
                    }
                }
            }
        }
        let doc = format!(
            "A [`Builder`](Builder) for `{name_str}N` counting `event`: its encoding fields (event select, \
             unit masks, CMASK, INV, EDGE, AnyThread) are set, the rest is zero. Add the privilege \
             filters and the enable bit, then `build()`.\n\nFails to compile, in a `const`, when \
             `N` is out of range, when only a fixed counter counts the event, when the event is \
             restricted to other counters, or when it needs a field this generation lacks."
        );
        quote! {
            #[doc = #doc]
            #[track_caller]
            pub const fn event_on<const N: u32>(event: &#krate::EventDesc) -> Builder {
                if N >= INSTANCES {
                    #krate::__private::index_out_of_range(#name_str, "counters", INSTANCES, N)
                }
                __check_counter::<N>();
                match try_event_on(N, event) {
                    Ok(b) => b,
                    Err(e) => e.fail(),
                }
            }
            #[inline(always)]
            const fn __check_counter<const N: u32>() {
                const {
                    if N >= INSTANCES {
                        #krate::__private::index_out_of_range(#name_str, "counters", INSTANCES, N)
                    }
                }
            }
            /// As [`event_on`](event_on), with the counter chosen at run time: the problem is returned.
            #[inline]
            pub const fn try_event_on(
                counter: u32,
                event: &#krate::EventDesc,
            ) -> Result<Builder, #krate::PlacementError> {
                if counter >= INSTANCES {
                    return Err(#krate::PlacementError::CounterOutOfRange {
                        register: #name_str, count: INSTANCES, counter,
                    });
                }
                if let (0, Some(fixed)) = (event.counters, event.fixed) {
                    return Err(#krate::PlacementError::FixedOnly { event: event.name, fixed, counter });
                }
                if !event.allows_counter(counter) {
                    return Err(#krate::PlacementError::NotOnCounter {
                        event: event.name, allowed: event.counters, counter,
                    });
                }
                let b = Value::new();
                #(#steps)*
                Ok(b)
            }
        }
    }
}
