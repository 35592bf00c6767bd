//! Event tables: `ArchEvent` (the architectural events, with `desc()`), re-exported from the
//! nearest ancestor with the same set, and a model generation's `events` module (a `u16`
//! enum and its table in `pmu_regs::EventTable`'s encoding, `event_table.rs`).

use super::Cx;
use super::doc::escape_doc;
use super::event_variant;
use super::phash;
use super::util::{ident, lit_u32, lit_u64};
use pmu_defs::encode::perf::perf_name;
use pmu_defs::model::{Event, Generation};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use std::collections::{BTreeMap, HashSet};
use std::str::FromStr;

impl Cx<'_> {
    /// `ArchEvent` of `g` (module depth `depth`): the enum with names, encodings, CPUID bits
    /// and `desc()`, or a `pub use` of the nearest ancestor's when the set is the same.
    pub(super) fn arch_events(&self, g: &Generation, depth: usize) -> TokenStream {
        let evs = arch_events(g);
        let Some(owner) = self.arch_events_owner(g) else {
            return quote!();
        };
        if owner != g.id {
            let from = self.generation_path(depth, &owner);
            return quote! { pub use #from::ArchEvent; };
        }
        let krate = &self.krate;
        let variants: Vec<Ident> = evs.iter().map(|e| ident(&event_variant(&e.name))).collect();
        let docs = evs.iter().map(|e| {
            format!(
                "{}\n\nEvent select `{:#04X}`, umask `{:#04X}`; CPUID.0AH:EBX bit {} (set = unavailable); since `{}`.",
                escape_doc(e.doc.trim_end()),
                e.event,
                e.umask,
                e.cpuid_bit.unwrap_or(0),
                e.since
            )
        });
        let names: Vec<&str> = evs.iter().map(|e| e.name.as_str()).collect();
        let sel_t = if evs.iter().all(|e| e.event <= 0xFF) {
            quote!(u8)
        } else {
            quote!(u16)
        };
        let sels = evs
            .iter()
            .map(|e| TokenStream::from_str(&format!("{:#04x}", e.event)).unwrap());
        let umasks = evs
            .iter()
            .map(|e| TokenStream::from_str(&format!("{:#04x}", e.umask)).unwrap());
        let bits = evs.iter().map(|e| e.cpuid_bit.unwrap_or(0));
        let fixed = evs.iter().map(|e| match e.fixed {
            Some(f) => quote!(Some(#f)),
            None => quote!(None),
        });
        let count = evs.len();
        let descs = evs.iter().map(|e| event_desc(krate, e));
        let desc_names: Vec<Ident> = (0..evs.len()).map(|i| format_ident!("D{}", i)).collect();
        let doc = self.arch_events_doc(g);
        let as_event = self.as_event(&quote!(ArchEvent), &quote!(self.desc().get()));
        quote! {
            #[doc = #doc]
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum ArchEvent {
                #(#[doc = #docs] #variants,)*
            }
            impl ArchEvent {
                /// Every architectural event, in CPUID bit order.
                pub const ALL: &'static [ArchEvent; #count] = &[#(ArchEvent::#variants),*];
                /// Canonical name, as in the manual's tables.
                pub const fn name(self) -> &'static str {
                    match self { #(ArchEvent::#variants => #names,)* }
                }
                /// Event select code.
                pub const fn event_select(self) -> #sel_t {
                    match self { #(ArchEvent::#variants => #sels,)* }
                }
                /// Unit mask.
                pub const fn umask(self) -> u8 {
                    match self { #(ArchEvent::#variants => #umasks,)* }
                }
                /// The CPUID.0AH:EBX bit that, when set, says the event is unavailable.
                pub const fn cpuid_bit(self) -> u32 {
                    match self { #(ArchEvent::#variants => #bits,)* }
                }
                /// The full encoding, and the counters that may count it, typed as an
                /// event of this `ArchEvent`, for the `event_on` / `try_event_on` of the
                /// event selects of the generations that have it.
                pub const fn desc(self) -> #krate::EventRef<ArchEvent> {
                    // One named constant per event, so that a constant event folds into an
                    // immediate where the call is inlined.
                    #(const #desc_names: #krate::EventDesc = #descs;)*
                    #krate::EventRef::__new(match self { #(ArchEvent::#variants => #desc_names,)* })
                }
                /// The fixed counter that counts this event, if any.
                pub const fn fixed_counter(self) -> Option<u32> {
                    match self { #(ArchEvent::#variants => #fixed,)* }
                }
                /// True when CPUID.0AH reports the event available: its EBX bit is clear and
                /// below the bit-vector length in EAX\[31:24\].
                pub const fn is_available(self, cpuid_0a_eax: u32, cpuid_0a_ebx: u32) -> bool {
                    let len = (cpuid_0a_eax >> 24) & 0xFF;
                    let bit = self.cpuid_bit();
                    bit < len && cpuid_0a_ebx & (1 << bit) == 0
                }
            }
            impl ::core::fmt::Display for ArchEvent {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str(self.name())
                }
            }
            impl ::core::str::FromStr for ArchEvent {
                type Err = #krate::UnknownEvent;
                /// Parses the canonical name (ASCII case-insensitive).
                fn from_str(s: &str) -> Result<Self, Self::Err> {
                    for e in Self::ALL {
                        if e.name().eq_ignore_ascii_case(s) {
                            return Ok(*e);
                        }
                    }
                    Err(#krate::UnknownEvent)
                }
            }
            #as_event
        }
    }

    /// The generation whose `ArchEvent` `g` has: the nearest ancestor (or `g`) with the same
    /// set of architectural events; `None` without architectural events.
    pub(super) fn arch_events_owner(&self, g: &Generation) -> Option<String> {
        let evs = arch_events(g);
        if evs.is_empty() {
            return None;
        }
        let key = events_key(&evs);
        let mut owner = g;
        for a in &g.ancestors {
            match self.model.generation(a) {
                Some(p) if events_key(&arch_events(p)) == key => owner = p,
                _ => break,
            }
        }
        Some(owner.id.clone())
    }

    /// The doc of the `ArchEvent` `g` defines: every generation that has this set (it is
    /// re-exported there), architectural ones by name and CPU models counted, and the rule
    /// that makes an event architectural.
    fn arch_events_doc(&self, g: &Generation) -> String {
        let users: Vec<&Generation> = self
            .model
            .generations
            .iter()
            .filter(|u| self.arch_events_owner(u).as_deref() == Some(g.id.as_str()))
            .collect();
        let arch: Vec<String> = users
            .iter()
            .filter(|u| !super::is_model(u))
            .map(|u| format!("`{}`", u.id))
            .collect();
        let models = users.iter().filter(|u| super::is_model(u)).count();
        let mut who = super::util::join_and(&arch);
        if models > 0 {
            who.push_str(&format!(
                ", and of the {models} CPU model generation{} extending {}",
                if models == 1 { "" } else { "s" },
                if arch.len() == 1 { "it" } else { "them" }
            ));
        }
        let shared = if users.len() > 1 {
            format!(
                " One set, defined here in `{}` and re-exported by the others.",
                g.id
            )
        } else {
            String::new()
        };
        format!(
            "The architectural events of {who}.{shared} CPUID.0AH:EBX enumerates their availability \
             ([`is_available`](ArchEvent::is_available)).\n\nAn event is architectural when \
             its definition has a `cpuid-bit` (its CPUID.0AH:EBX bit); every other event of a \
             generation is model-specific and lives in that CPU model's `events::Event`. Variants \
             are the names in CamelCase, each `.`-separated part on its own \
             (`LONGEST_LAT_CACHE.MISS` is `LongestLatCache_Miss`)."
        )
    }

    /// With the run-time layer, `impl pmu_regs::pmu::AsEvent for #ty` through `desc` (an
    /// expression of `self: &#ty` giving the `EventDesc`). Which `Pmu` takes the type is said
    /// separately, by the `EventOf` impls of `event_of.rs`.
    fn as_event(&self, ty: &TokenStream, desc: &TokenStream) -> TokenStream {
        if !self.runtime {
            return quote!();
        }
        let krate = &self.krate;
        quote! {
            impl #krate::pmu::AsEvent for #ty {
                fn event_desc(&self) -> #krate::EventDesc {
                    #desc
                }
            }
        }
    }

    /// The generation's own (non-architectural) events: an `events` module with a `u16` enum in
    /// name order and its table as byte and string literals (`event_table.rs`) that
    /// `EventTable` decodes by index. No per-variant `match` and no array of `EventDesc`
    /// values: literals keep compile time low for thousands of events.
    pub(super) fn model_events(&self, g: &Generation) -> TokenStream {
        let evs = model_events_of(g);
        if evs.is_empty() {
            return quote!();
        }
        let krate = &self.krate;
        let count = evs.len();
        let variants = model_variants(&evs);
        let docs = evs.iter().map(|e| model_event_doc(e));
        let aux_regs = super::aux_msrs::aux_registers(g, &evs);
        let table = match super::event_table::literals(krate, &evs, |i| {
            super::aux_msrs::aux_kind(g, evs[i], &aux_regs)
        }) {
            Ok(t) => t,
            Err(msg) => return quote! { compile_error!(#msg); },
        };
        let (records, names, alternatives) = (table.records, table.names, table.alternatives);
        let alt_count = proc_macro2::Literal::usize_unsuffixed(alternatives.len());
        let doc = format!(
            "The {count} model-specific events of `{}`, by name.\n\nLook one up with \
             [`Event::from_name`](Event::from_name) or `str::parse`, and program it with \
             `IA32_PERFEVTSEL::event_on::<N>(Event::X.desc())`.",
            g.id
        );
        let count_lit = proc_macro2::Literal::usize_unsuffixed(count);
        let as_event = self.as_event(&quote!(Event), &quote!(TABLE.desc(*self as usize)));
        let lookup = name_lookup(krate, &evs);
        let aux = super::aux_msrs::aux_items(krate, g, &aux_regs);
        let countable = match self.select_of(g) {
            Some(sel) => {
                let sel = ident(&sel.name);
                quote! { impl super::#sel::Countable for Event {} }
            }
            None => quote!(),
        };
        quote! {
            pub mod events {
                // Inner, so that `Event` in the text resolves inside the module.
                #![doc = #doc]
                #[doc = #doc]
                #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
                #[repr(u16)]
                #[allow(non_camel_case_types)]
                pub enum Event {
                    #(#[doc = #docs] #variants,)*
                }
                // The table in `EventTable`'s encoding (pmu-regs' `event/table.rs`): a record of
                // bytes per event, the names end to end, and the alternative encodings.
                // `TABLE_CONST` is what `Event::desc` reads, so that a constant event folds
                // into its fields in the caller (a `static` of another crate is opaque to the
                // optimizer); everything else reads the static, so that the bytes are in
                // pmu-regs once. Comments in `quote!` are not emitted.
                const RECORDS: &[u8] = #records;
                const NAMES: &str = #names;
                static ALTERNATIVES: [#krate::EventAlt; #alt_count] = [#(#alternatives),*];
                const TABLE_CONST: #krate::EventTable =
                    #krate::EventTable::__new(RECORDS, NAMES, &ALTERNATIVES);
                static TABLE: #krate::EventTable = TABLE_CONST;
                static ALL: [Event; #count_lit] = [#(Event::#variants),*];
                impl Event {
                    /// Number of events.
                    pub const COUNT: usize = #count_lit;
                    /// Every event, in name order.
                    pub const ALL: &'static [Event] = &ALL;
                    /// Every event's encoding, in name order: `TABLE.desc(i)` equals
                    /// `*ALL[i].desc()`.
                    pub const TABLE: &'static #krate::EventTable = &TABLE;
                    /// The encoding and counters, typed as an event of this model, for the
                    /// `event_on` of its event select. With a constant event
                    /// (`Event::X.desc()`) the optimizer folds it: placing a model event costs
                    /// what placing an architectural one does.
                    #[inline(always)]
                    pub const fn desc(self) -> #krate::EventRef<Event> {
                        #krate::EventRef::__new(TABLE_CONST.desc(self as usize))
                    }
                    /// Intel's name for the event.
                    pub const fn name(self) -> &'static str {
                        TABLE.name(self as usize)
                    }
                }
                #lookup
                impl ::core::fmt::Debug for Event {
                    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str(self.name())
                    }
                }
                impl ::core::fmt::Display for Event {
                    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        f.write_str(self.name())
                    }
                }
                impl ::core::str::FromStr for Event {
                    type Err = #krate::UnknownEvent;
                    fn from_str(s: &str) -> Result<Self, Self::Err> {
                        Self::from_name(s).ok_or(#krate::UnknownEvent)
                    }
                }
                #as_event
                #countable
                #aux
            }
        }
    }
}

/// The variants of a model's `Event`, in the events' order: each name in CamelCase, a second
/// one of the same spelling suffixed `_2` (the validator rejects colliding names; the output
/// stays compilable regardless).
fn model_variants(evs: &[&Event]) -> Vec<Ident> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    evs.iter()
        .map(|e| {
            let mut v = event_variant(&e.name);
            let n = seen.entry(v.clone()).or_insert(0);
            *n += 1;
            if *n > 1 {
                v.push_str(&format!("_{n}"));
            }
            ident(&v)
        })
        .collect()
}

/// The doc of a model event's variant: its name and encoding, fixed counter, counters.
fn model_event_doc(e: &Event) -> String {
    let mut d = format!(
        "`{}`: event `{:#04X}`, umask `{:#04X}`",
        e.name, e.event, e.umask
    );
    if e.cmask != 0 {
        d.push_str(&format!(", cmask {}", e.cmask));
    }
    if e.inv {
        d.push_str(", inv");
    }
    if e.edge {
        d.push_str(", edge");
    }
    if e.any {
        d.push_str(", any-thread");
    }
    if let Some(f) = e.fixed {
        d.push_str(&format!("; fixed counter {f}"));
    }
    if !e.counters.is_empty() {
        d.push_str(&format!("; counters {}", counter_list(&e.counters)));
    }
    if e.deprecated {
        d.push_str(" (deprecated)");
    }
    d
}

impl Cx<'_> {
    /// The event select of `g` that has `event_on`, if any.
    pub(super) fn select_of<'g>(&self, g: &'g Generation) -> Option<&'g pmu_defs::model::Register> {
        let sel = g.pmu.general.as_ref()?;
        let r = g.register(&sel.select)?;
        self.has_event_on(g, r).then_some(r)
    }
}

/// A generation's own (non-architectural) events in name order: its `events::Event`.
pub(super) fn model_events_of(g: &Generation) -> Vec<&Event> {
    let mut evs: Vec<&Event> = g.events.iter().filter(|e| e.cpuid_bit.is_none()).collect();
    evs.sort_by(|a, b| a.name.cmp(&b.name));
    evs
}

/// The names `Event::from_name` finds, in the order of its table's indexes, each with its
/// event (an index into `evs`): the event names, then perf's spellings of some of them
/// (`encode::perf::perf_name`) that are not a name already.
pub(super) fn lookup_keys(evs: &[&Event]) -> Vec<(String, usize)> {
    let mut keys: Vec<(String, usize)> = evs
        .iter()
        .enumerate()
        .map(|(i, e)| (e.name.clone(), i))
        .collect();
    let mut seen: HashSet<String> = keys.iter().map(|k| k.0.to_ascii_uppercase()).collect();
    for (i, e) in evs.iter().enumerate() {
        if let Some(p) = perf_name(&e.name)
            && seen.insert(p.to_ascii_uppercase())
        {
            keys.push((p, i));
        }
    }
    keys
}

/// `Event::from_name` and what it reads: the generation's [`phash`](super::phash) table
/// over [`lookup_keys`] (the names in `TABLE` order, then `PERF_NAMES`), and `key`, the name
/// behind a table index.
fn name_lookup(krate: &TokenStream, evs: &[&Event]) -> TokenStream {
    let keys = lookup_keys(evs);
    let refs: Vec<&str> = keys.iter().map(|k| k.0.as_str()).collect();
    let index = name_index(krate, &phash::build(&refs));
    let perf = &keys[evs.len()..];
    let doc = "The event with this name, ASCII case-insensitively; perf's spelling of an \
               offcore-response name (`OFFCORE_RESPONSE.X` for `OFFCORE_RESPONSE_0.X`) is \
               accepted too. One hash and one comparison, for a miss as for a hit.";
    if perf.is_empty() {
        return quote! {
            static INDEX: #krate::__private::NameIndex = #index;
            impl Event {
                #[doc = #doc]
                pub fn from_name(name: &str) -> Option<Self> {
                    INDEX.find(name, key).map(|k| ALL[k])
                }
            }
            /// The name behind index `k` of `INDEX`.
            fn key(k: usize) -> &'static str {
                TABLE.name(k)
            }
        };
    }
    let n = proc_macro2::Literal::usize_unsuffixed(perf.len());
    let spellings = perf.iter().map(|(p, _)| p);
    let events = perf
        .iter()
        .map(|&(_, i)| proc_macro2::Literal::usize_unsuffixed(i));
    quote! {
        static INDEX: #krate::__private::NameIndex = #index;
        /// perf's spellings of some names (create_perf_json.py `fix_name`) with the events
        /// they name, after the names in `INDEX`.
        static PERF_NAMES: [(&str, usize); #n] = [#((#spellings, #events)),*];
        impl Event {
            #[doc = #doc]
            pub fn from_name(name: &str) -> Option<Self> {
                INDEX.find(name, key).map(|k| match ALL.get(k) {
                    Some(e) => *e,
                    None => ALL[PERF_NAMES[k - ALL.len()].1],
                })
            }
        }
        /// The name behind index `k` of `INDEX`.
        fn key(k: usize) -> &'static str {
            if k < TABLE.len() {
                TABLE.name(k)
            } else {
                PERF_NAMES[k - TABLE.len()].0
            }
        }
    }
}

/// A `NameIndex` literal.
pub(super) fn name_index(krate: &TokenStream, t: &phash::Table) -> TokenStream {
    let seed = TokenStream::from_str(&format!("{:#018x}", t.seed)).unwrap_or_default();
    let max_len = proc_macro2::Literal::usize_unsuffixed(t.max_len);
    let pilots = t
        .pilots
        .iter()
        .map(|&p| proc_macro2::Literal::u16_unsuffixed(p));
    let slots = t
        .slots
        .iter()
        .map(|&p| proc_macro2::Literal::u16_unsuffixed(p));
    quote! {
        #krate::__private::NameIndex {
            seed: #seed,
            max_len: #max_len,
            pilots: &[#(#pilots),*],
            slots: &[#(#slots),*],
        }
    }
}

/// `EventDesc::new(..).with_..(..)` for one event: only the non-default parts are spelled.
fn event_desc(krate: &TokenStream, e: &Event) -> TokenStream {
    let name = &e.name;
    let ev = TokenStream::from_str(&format!("{:#04x}", e.event)).unwrap_or_default();
    let um = TokenStream::from_str(&format!("{:#04x}", e.umask)).unwrap_or_default();
    let mut t = quote! { #krate::EventDesc::new(#name, #ev, #um) };
    let mask: u32 = e
        .counters
        .iter()
        .filter(|&&c| c < 32)
        .fold(0, |m, &c| m | (1 << c));
    if mask != u32::MAX {
        let m = TokenStream::from_str(&format!("{mask:#x}")).unwrap_or_default();
        t = quote! { #t.with_counters(#m) };
    }
    if let Some(f) = e.fixed {
        let f = proc_macro2::Literal::u8_unsuffixed(f as u8);
        t = quote! { #t.with_fixed(#f) };
    }
    if e.cmask != 0 {
        let c = proc_macro2::Literal::u8_unsuffixed(e.cmask as u8);
        t = quote! { #t.with_cmask(#c) };
    }
    if e.inv {
        t = quote! { #t.with_inv(true) };
    }
    if e.edge {
        t = quote! { #t.with_edge(true) };
    }
    if e.any {
        t = quote! { #t.with_any(true) };
    }
    if let Some(u2) = e.umask2.filter(|&u| u != 0) {
        let u2 = TokenStream::from_str(&format!("{u2:#04x}")).unwrap_or_default();
        t = quote! { #t.with_umask2(#u2) };
    }
    if e.eq {
        t = quote! { #t.with_eq(true) };
    }
    if let Some(m) = &e.msr {
        let i = lit_u32(m.index);
        let v = lit_u64(m.value);
        t = quote! { #t.with_msr(#i, #v) };
    }
    let alts = e.alternatives();
    if alts.len() > 1 {
        let items = alts[1..]
            .iter()
            .map(|a| super::event_table::event_alt(krate, a));
        t = quote! { #t.with_alternatives(&[#(#items),*]) };
    }
    if let Some(p) = e.pebs.filter(|&p| p != 0) {
        let p = proc_macro2::Literal::u8_unsuffixed(p);
        t = quote! { #t.with_pebs(#p) };
    }
    if e.deprecated {
        t = quote! { #t.with_deprecated(true) };
    }
    if e.taken_alone {
        t = quote! { #t.with_taken_alone(true) };
    }
    if let Some((gp, _)) = e
        .counters_ht_off
        .as_ref()
        .and_then(super::event_table::counter_masks)
    {
        let gp = TokenStream::from_str(&format!("{gp:#x}")).unwrap_or_default();
        t = quote! { #t.with_counters_ht_off(#gp) };
    }
    let sets = [
        (&e.pebs_counters, quote!(with_pebs_counters)),
        (&e.pdist_counters, quote!(with_pdist_counters)),
    ];
    for (set, with) in sets {
        if let Some((gp, fixed)) = set.as_ref().and_then(super::event_table::counter_masks) {
            let gp = TokenStream::from_str(&format!("{gp:#x}")).unwrap_or_default();
            let fixed = TokenStream::from_str(&format!("{fixed:#x}")).unwrap_or_default();
            t = quote! { #t.#with(#gp, #fixed) };
        }
    }
    t
}

/// `0-3,5` for a sorted counter list.
fn counter_list(c: &[u32]) -> String {
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let mut j = i;
        while j + 1 < c.len() && c[j + 1] == c[j] + 1 {
            j += 1;
        }
        out.push(if j > i + 1 {
            format!("{}-{}", c[i], c[j])
        } else if j == i + 1 {
            format!("{},{}", c[i], c[j])
        } else {
            c[i].to_string()
        });
        i = j + 1;
    }
    out.join(",")
}

/// The architectural events of `g` (those with a CPUID bit), in CPUID bit order.
fn arch_events(g: &Generation) -> Vec<&Event> {
    let mut v: Vec<&Event> = g.events.iter().filter(|e| e.cpuid_bit.is_some()).collect();
    v.sort_by_key(|e| (e.cpuid_bit, e.name.clone()));
    v
}

/// What makes two `ArchEvent` enums the same: name, encoding, CPUID bit, fixed counter.
type EventKey = (String, u32, u32, Option<u32>, Option<u32>);

fn events_key(evs: &[&Event]) -> Vec<EventKey> {
    evs.iter()
        .map(|e| (e.name.clone(), e.event, e.umask, e.cpuid_bit, e.fixed))
        .collect()
}
