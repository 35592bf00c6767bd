//! `event_on::<N>(&EventDesc)` and `try_event_on` on the event-select register of the
//! general-purpose counters: thin wrappers over `pmu_regs::__private::place` (the placement
//! checks and the encoding, written once), given the register's `SelectSpec` (which field
//! `pmu.encoding` maps each event attribute to).

use super::Cx;
use super::fields::writable;
use super::util::join_and;
use pmu_defs::model::{Field, Generation, Register};
use pmu_vocab::select::Attr;
use proc_macro2::TokenStream;
use quote::quote;

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
        let layout = Attr::ALL.map(|attr| match encoding_field(owner, r, attr) {
            Some(f) => {
                let (fname, runs) = (
                    &f.name,
                    f.bits.iter().map(|b| {
                        let (lsb, width) = (b.lsb, b.width());
                        quote!(#krate::__private::Run::new(#lsb, #width))
                    }),
                );
                quote!(Some(#krate::__private::FieldRuns::new(#fname, &[#(#runs),*])))
            }
            None => quote!(None),
        });
        let (doc, raw_doc) = event_on_docs(name_str, krate);
        let b = quote!(Builder::<#krate::access::Unplaced>);
        quote! {
            #countable
            #[doc = #doc]
            #[inline]
            #[track_caller]
            pub const fn event_on<const N: u32>(event: #krate::EventRef<impl Countable>) -> Builder<#krate::access::Counter<N>> {
                #b::event_on::<N>(&event.get())
            }
            /// As [`event_on`](event_on), with the counter chosen at run time: the problem is returned.
            #[inline]
            pub const fn try_event_on(
                counter: u32,
                event: #krate::EventRef<impl Countable>,
            ) -> Result<Builder<#krate::access::AnyCounter>, #krate::PlacementError> {
                #b::try_event_on(counter, &event.get())
            }
            #[doc = #raw_doc]
            #[inline]
            #[track_caller]
            pub const fn event_on_raw<const N: u32>(event: &#krate::EventDesc) -> Builder<#krate::access::Counter<N>> {
                #b::event_on::<N>(event)
            }
            /// As [`try_event_on`](try_event_on), for a hand-built `EventDesc` (see
            /// [`event_on_raw`](event_on_raw)).
            #[inline]
            pub const fn try_event_on_raw(
                counter: u32,
                event: &#krate::EventDesc,
            ) -> Result<Builder<#krate::access::AnyCounter>, #krate::PlacementError> {
                #b::try_event_on(counter, event)
            }
            impl #krate::reg::Select for Register {
                const SELECT: #krate::__private::SelectSpec = #krate::__private::SelectSpec {
                    register: #name_str,
                    instances: INSTANCES,
                    layout: #krate::__private::SelectLayout { fields: [#(#layout),*] },
                };
            }
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

/// The field of `r` that `owner`'s `pmu.encoding` maps `attr` to, when it is writable and not
/// an array (only such a field can take an event's value).
fn encoding_field<'r>(owner: &Generation, r: &'r Register, attr: Attr) -> Option<&'r Field> {
    owner
        .pmu
        .encoding_field(attr.key())
        .and_then(|f| r.field(f))
        .filter(|f| writable(r, f) && f.array.is_none())
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
