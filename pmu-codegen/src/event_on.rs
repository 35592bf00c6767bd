//! `event_on::<N>(&EventDesc)` and `try_event_on` on the event-select register of the
//! general-purpose counters: placement checks, then each event attribute through the field
//! `pmu.encoding` maps it to.

use super::Cx;
use super::fields::writable;
use super::util::{ident, join_and};
use pmu_defs::model::names::{self, Method};
use pmu_defs::model::{Field, Generation, Register};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

impl Cx<'_> {
    /// `event_on::<N>(&EventDesc)` / `try_event_on(n, &EventDesc)` for the event-select register
    /// of the general-purpose counters, using the owning generation's `pmu.encoding`.
    pub(super) fn event_on(
        &self,
        g: &Generation,
        r: &Register,
        home: &[String],
        users: &[&Generation],
    ) -> TokenStream {
        if !self.has_event_on(g, r) {
            return quote!();
        }
        let countable = self.countable(r, home, users);
        let owner = self.model.generation(&r.defined_in).unwrap_or(g);
        let krate = &self.krate;
        let name_str = &r.name;
        let steps = ENCODING_ATTRS
            .iter()
            .map(|&attr| self.encoding_step(owner, r, attr));
        let (doc, raw_doc) = event_on_docs(name_str, krate);
        quote! {
            #countable
            #[doc = #doc]
            #[track_caller]
            pub const fn event_on<const N: u32>(event: #krate::EventRef<impl Countable>) -> Builder<#krate::access::Counter<N>> {
                event_on_raw::<N>(&event.get())
            }
            /// As [`try_event_on`](try_event_on), for a hand-built `EventDesc` (see
            /// [`event_on_raw`](event_on_raw)).
            #[inline]
            pub const fn try_event_on_raw(
                counter: u32,
                event: &#krate::EventDesc,
            ) -> Result<Builder<#krate::access::AnyCounter>, #krate::PlacementError> {
                match try_event_on_impl(counter, event) {
                    Ok(b) => b.try_at(counter),
                    Err(e) => Err(e),
                }
            }
            /// As [`event_on`](event_on), with the counter chosen at run time: the problem is returned.
            #[inline]
            pub const fn try_event_on(
                counter: u32,
                event: #krate::EventRef<impl Countable>,
            ) -> Result<Builder<#krate::access::AnyCounter>, #krate::PlacementError> {
                try_event_on_raw(counter, &event.get())
            }
            #[doc = #raw_doc]
            #[track_caller]
            pub const fn event_on_raw<const N: u32>(event: &#krate::EventDesc) -> Builder<#krate::access::Counter<N>> {
                if N >= INSTANCES {
                    #krate::__private::index_out_of_range(#name_str, "counters", INSTANCES, N)
                }
                __check_counter::<N>();
                match try_event_on_impl(N, event) {
                    Ok(b) => b.at::<N>(),
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
            #[inline]
            const fn try_event_on_impl(
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

    /// One step of `try_event_on_impl`: the event attribute `member` through the setter of
    /// the field `pmu.encoding` maps `attr` to (`with_x(bool)` for one bit, `try_with_x(v)`
    /// for more), or, without such a field, `PlacementError::Unsupported` when the event sets
    /// the attribute.
    fn encoding_step(
        &self,
        owner: &Generation,
        r: &Register,
        (attr, member, label): (&str, &str, &str),
    ) -> TokenStream {
        let krate = &self.krate;
        let m = format_ident!("{}", member);
        let one_bit = matches!(attr, "eq" | "inv" | "edge" | "any");
        let Some((f, setter)) = encoding_setter(owner, r, attr) else {
            let name_str = &r.name;
            let is_set = if one_bit {
                quote! { event.#m }
            } else {
                quote! { event.#m != 0 }
            };
            return quote! {
                if #is_set {
                    return Err(#krate::PlacementError::Unsupported {
                        event: event.name, field: #label, register: #name_str,
                    });
                }
            };
        };
        let (fname, width) = (&f.name, f.width);
        if width > 1 {
            let v = quote!(event.#m as u64);
            return quote! {
                let b = match b.#setter(#v) {
                    Ok(b) => b,
                    Err(_) => return Err(#krate::PlacementError::TooWide {
                        event: event.name, field: #fname, width: #width, value: #v,
                    }),
                };
            };
        }
        if one_bit {
            return quote! { let b = b.#setter(event.#m); };
        }
        // A one-bit field for a wider attribute: only 0 and 1 fit.
        quote! {
            if event.#m as u64 > 1 {
                return Err(#krate::PlacementError::TooWide {
                    event: event.name, field: #fname, width: 1, value: event.#m as u64,
                });
            }
            let b = b.#setter(event.#m != 0);
        }
    }

    /// True when `r` (a register of `g`'s layout) is the event select of the general-purpose
    /// counters of the generation defining it, writable and indexed: it gets `event_on`.
    pub(super) fn has_event_on(&self, g: &Generation, r: &Register) -> bool {
        let owner = self.model.generation(&r.defined_in).unwrap_or(g);
        let is_select = owner
            .pmu
            .general
            .as_ref()
            .is_some_and(|gc| gc.select == r.name);
        is_select && r.access.writable() && r.msr.indexed
    }

    /// The `Countable` trait of an event-select register (the events types `event_on` takes)
    /// and its impls for the `ArchEvent` of each user (each model's `events::Event` implements
    /// it in its own module, [`model_events`](Cx::model_events)). `home` is the module the
    /// register's module is emitted in.
    fn countable(&self, r: &Register, home: &[String], users: &[&Generation]) -> TokenStream {
        let name = &r.name;
        let arch_users: Vec<&str> = users
            .iter()
            .filter(|g| !super::is_model(g))
            .map(|g| g.id.as_str())
            .collect();
        let named: Vec<&str> = if arch_users.is_empty() {
            users.iter().map(|g| g.id.as_str()).collect()
        } else {
            arch_users
        };
        let users_text = join_and(&named);
        let message = format!(
            "the events of `{{Self}}` cannot be placed on `{name}` of {users_text}: they are \
             another vendor's or generation's"
        );
        let label = format!("not an event of a generation using this `{name}`");
        let note = format!(
            "`event_on` takes the events of the generations whose event select this is ({users_text}): \
             their `ArchEvent` and, for CPU models, `events::Event`; a hand-built `EventDesc` goes \
             through `event_on_raw`"
        );
        let doc = format!(
            "The events types whose events [`event_on`](event_on) places on `{name}`: the \
             `ArchEvent` and model `events::Event` of the generations using this register \
             ({users_text}). Placing another generation's or vendor's event is a compile error."
        );
        let depth = home.len() + 1;
        let mut owners: Vec<String> = Vec::new();
        for u in users {
            if let Some(o) = self.arch_events_owner(u)
                && !owners.contains(&o)
            {
                owners.push(o);
            }
        }
        let impls = owners.iter().map(|o| {
            let path = self.generation_path(depth, o);
            quote! { impl Countable for #path::ArchEvent {} }
        });
        quote! {
            #[doc = #doc]
            #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
            pub trait Countable {}
            #(#impls)*
        }
    }
}

/// The event attributes `event_on` sets: (`pmu.encoding` attribute, `EventDesc` member,
/// label in errors).
const ENCODING_ATTRS: [(&str, &str, &str); 8] = [
    ("event", "event", "EVENT_SELECT"),
    ("umask", "umask", "UMASK"),
    ("umask2", "umask2", "UMASK2"),
    ("eq", "eq", "EQ"),
    ("cmask", "cmask", "CMASK"),
    ("inv", "inv", "INV"),
    ("edge", "edge", "EDGE"),
    ("any", "any", "ANY (AnyThread)"),
];

/// The field of `r` that `owner`'s `pmu.encoding` maps `attr` to, when it is writable and not
/// an array, with the setter an event value goes through: `with_x(bool)` for one bit,
/// `try_with_x(v)` for more.
fn encoding_setter<'r>(
    owner: &Generation,
    r: &'r Register,
    attr: &str,
) -> Option<(&'r Field, proc_macro2::Ident)> {
    let f = owner
        .pmu
        .encoding_field(attr)
        .and_then(|f| r.field(f))
        .filter(|f| writable(r, f) && f.array.is_none())?;
    let want = if f.width == 1 {
        Method::WithBool
    } else {
        Method::TrySet
    };
    let (_, setter) = names::element_methods(r, f, &f.name)
        .into_iter()
        .find(|(m, _)| *m == want)?;
    Some((f, ident(&setter)))
}

/// The docs of `event_on` and `event_on_raw` of the event select `name`.
fn event_on_docs(name: &str, krate: &TokenStream) -> (String, String) {
    let doc = format!(
        "A [`Builder`](Builder) for `{name}N` counting `event`: its encoding fields (event select, \
         unit masks, CMASK, INV, EDGE, AnyThread) are set, the rest is zero. Add the privilege \
         filters and the enable bit, then `build()`.\n\n`event` is an event of a generation \
         using this register (`ArchEvent::X.desc()`, `events::Event::X.desc()`: see \
         [`Countable`](Countable)); an event of another vendor or generation fails to compile. \
         Fails to compile, in a `const`, when \
         `N` is out of range, when only a fixed counter counts the event, when the event is \
         restricted to other counters, or when it needs a field this generation lacks."
    );
    let raw_doc = format!(
        "As [`event_on`](event_on), for a hand-built [`EventDesc`]({}::EventDesc) (the untyped \
         escape hatch: nothing ties it to a vendor or generation, so it is the caller's to \
         know that `{name}` counts it). The placement checks are the same.",
        krate.to_string().replace(' ', "")
    );
    (doc, raw_doc)
}
