//! The crate-wide run-time tables: the facilities, which models have each event, the table of
//! all models, and the CPUID fields the run-time layer reads by role.

use super::*;

/// Whether `g` is a facility: a generation outside the core PMU's chain (no counter and
/// event-select roles) with a `detect:` condition of its own (architectural LBRs, AMD's L3
/// counters, ...).
pub(super) fn is_facility(g: &Generation) -> bool {
    !has_runtime(g) && g.detect.is_some()
}

/// The `Facility` enum: every facility generation, with its `detect:` condition as a
/// `DetectSpec` (`pmu_regs::detect::facilities` evaluates them).
pub(super) fn facilities(
    krate: &TokenStream,
    model: &Model,
    cfg: impl Fn(&Generation) -> TokenStream,
) -> TokenStream {
    let gens: Vec<&Generation> = model
        .generations
        .iter()
        .filter(|g| is_facility(g))
        .collect();
    assert!(gens.len() <= 64, "more than 64 facility generations");
    let variants = gens.iter().map(|g| {
        let v = marker_name(g);
        let doc = format!("`{}`: {}.", g.id, escape_doc(&g.title));
        quote! { #[doc = #doc] #v, }
    });
    let names: Vec<Ident> = gens.iter().map(|g| marker_name(g)).collect();
    let ids = gens.iter().map(|g| &g.id);
    let titles = gens.iter().map(|g| &g.title);
    let modules = gens
        .iter()
        .map(|g| format!("pmu_regs::{}", module_path(&g.id).join("::")));
    let specs = gens.iter().map(|g| detect_spec(krate, g));
    let tables = gens.iter().map(|g| {
        let (v, c) = (marker_name(g), cfg(g));
        let path: Vec<Ident> = module_path(&g.id).iter().map(|s| ident(s)).collect();
        let module = quote!(crate::#(#path)::*::);
        let entries = g.registers.iter().map(|r| reg_info(krate, &module, g, r));
        let n = g.registers.len();
        quote! {
            #c Facility::#v => {
                static REGISTERS: [#krate::arch::RegInfo; #n] = [#(#entries),*];
                &REGISTERS
            }
        }
    });
    quote! {
        /// A facility: a generation outside the core PMU's chain (no counters for `Pmu`)
        /// whose definitions say how to detect it (`detect:`), such as architectural LBRs or
        /// AMD's L3 cache counters. `pmu_regs::detect::facilities` lists those a CPU has.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Facility {
            #(#variants)*
        }

        impl Facility {
            /// Every facility, parents before children (the definitions' order).
            pub const ALL: &'static [Facility] = &[#(Facility::#names),*];

            /// The generation id used by the YAML (`generation:`).
            pub const fn id(self) -> &'static str {
                match self { #(Facility::#names => #ids,)* }
            }

            /// The generation's title.
            pub const fn title(self) -> &'static str {
                match self { #(Facility::#names => #titles,)* }
            }

            /// The generated module with its registers.
            pub const fn module(self) -> &'static str {
                match self { #(Facility::#names => #modules,)* }
            }

            /// Its `detect:` condition.
            pub const fn detect(self) -> #krate::arch::DetectSpec {
                match self { #(Facility::#names => #specs,)* }
            }

            /// Every register of the facility with its role, as
            /// [`Arch::registers`](crate::arch::Arch::registers) gives a generation's: what
            /// run-time code and the mock backend find its registers by. Empty when the
            /// facility's registers are not compiled (its Cargo feature is off).
            pub fn registers(self) -> &'static [#krate::arch::RegInfo] {
                #[allow(unreachable_patterns)]
                match self {
                    #(#tables)*
                    _ => &[],
                }
            }
        }

        impl core::fmt::Display for Facility {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.id())
            }
        }
    }
}

/// `Generation::model_event` (a model's events by name, the model chosen at run time),
/// `Generation::models_with_event` and its iterator `ModelsWithEvent` (which compiled-in
/// models have an event name). With the `all-models` feature the latter is one lookup in a
/// generated table over every model's names, each with the set of models having it; without
/// it, one lookup per compiled-in model.
pub(super) fn event_models(
    krate: &TokenStream,
    gens: &[&Generation],
    cfg: impl Fn(&Generation) -> TokenStream,
) -> TokenStream {
    let models: Vec<(&Generation, Vec<(String, usize)>)> = gens
        .iter()
        .map(|g| (*g, lookup_keys(&model_events_of(g))))
        .filter(|(g, keys)| crate::is_model(g) && !keys.is_empty())
        .collect();
    let mask_ty = if models.len() <= 64 {
        quote!(u64)
    } else {
        assert!(models.len() <= 128, "more than 128 model generations");
        quote!(u128)
    };
    let mut list = Vec::new();
    let mut arms = Vec::new();
    let mut desc_arms = Vec::new();
    for (g, _) in &models {
        let v = marker_name(g);
        let c = cfg(g);
        let path: Vec<Ident> = module_path(&g.id).iter().map(|s| ident(s)).collect();
        list.push(quote! { #c Generation::#v, });
        arms.push(quote! {
            #c Generation::#v => crate::#(#path)::*::events::Event::from_name(name)
                .map(|e| e.desc().get()),
        });
        desc_arms.push(quote! { #c Generation::#v => *crate::#(#path)::*::events::Event::TABLE, });
    }
    let all_models = all_models_table(krate, &models, &mask_ty);
    let iter = models_with_event_iter(&mask_ty);
    quote! {
        /// The model generations with an `events` table, compiled in, in definition order.
        const MODELS: &[Generation] = &[#(#list)*];

        impl Generation {
            /// The model-specific event of this generation named `name` (its
            /// `events::Event::from_name`: ASCII case-insensitive, perf's spellings accepted),
            /// for a generation chosen at run time; `None` for a generation without a model
            /// event table (the architectural ones).
            pub fn model_event(self, name: &str) -> Option<#krate::EventDesc> {
                match self {
                    #(#arms)*
                    _ => {
                        let _ = name;
                        None
                    }
                }
            }

            /// Every model-specific event of this generation (its `events::Event::TABLE`,
            /// in name order); empty for a generation without a model event table.
            pub fn model_events(self) -> #krate::EventTable {
                match self {
                    #(#desc_arms)*
                    _ => #krate::EventTable::EMPTY,
                }
            }

            /// The compiled-in model generations whose event tables have `name` (as
            /// [`Generation::model_event`](Generation::model_event) finds it), in definition order.
            pub fn models_with_event(name: &str) -> ModelsWithEvent {
                #[cfg(feature = "all-models")]
                let mask = __all_models::with_event(name);
                #[cfg(not(feature = "all-models"))]
                let mask = MODELS
                    .iter()
                    .enumerate()
                    .filter(|(_, g)| g.model_event(name).is_some())
                    .fold(0, |m, (i, _)| m | 1 << i);
                ModelsWithEvent { mask }
            }
        }

        #iter
        #all_models
    }
}

/// `ModelsWithEvent`, the iterator over a mask of `MODELS` (bit `i`: `MODELS[i]`).
pub(super) fn models_with_event_iter(mask_ty: &TokenStream) -> TokenStream {
    quote! {
        /// The model generations that have an event name, in definition order
        /// ([`Generation::models_with_event`](Generation::models_with_event)).
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct ModelsWithEvent {
            /// Bit `i`: `MODELS[i]`.
            mask: #mask_ty,
        }

        impl Iterator for ModelsWithEvent {
            type Item = Generation;
            fn next(&mut self) -> Option<Generation> {
                if self.mask == 0 {
                    return None;
                }
                let i = self.mask.trailing_zeros() as usize;
                self.mask &= self.mask - 1;
                MODELS.get(i).copied()
            }
            fn size_hint(&self) -> (usize, Option<usize>) {
                let n = self.mask.count_ones() as usize;
                (n, Some(n))
            }
        }

        impl ExactSizeIterator for ModelsWithEvent {}
        impl core::iter::FusedIterator for ModelsWithEvent {}
    }
}

/// `__all_models` (compiled with `all-models` only): one perfect-hash table over every
/// model's names (perf spellings included), folded, in first-seen order, and per name the
/// set of models having it, each distinct set stored once.
pub(super) fn all_models_table(
    krate: &TokenStream,
    models: &[(&Generation, Vec<(String, usize)>)],
    mask_ty: &TokenStream,
) -> TokenStream {
    let mut names: Vec<(&str, u128)> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    for (bit, (_, keys)) in models.iter().enumerate() {
        for (name, _) in keys {
            match at.entry(name.to_ascii_uppercase()) {
                Entry::Occupied(o) => names[*o.get()].1 |= 1 << bit,
                Entry::Vacant(v) => {
                    v.insert(names.len());
                    names.push((name, 1 << bit));
                }
            }
        }
    }
    let refs: Vec<&str> = names.iter().map(|n| n.0).collect();
    let index = name_index(krate, &crate::phash::build(&refs));
    let count = proc_macro2::Literal::usize_unsuffixed(names.len());
    let mut sets: Vec<u128> = Vec::new();
    let mut set_of: HashMap<u128, usize> = HashMap::new();
    let name_sets: Vec<proc_macro2::Literal> = names
        .iter()
        .map(|n| {
            let i = *set_of.entry(n.1).or_insert_with(|| {
                sets.push(n.1);
                sets.len() - 1
            });
            proc_macro2::Literal::usize_unsuffixed(i)
        })
        .collect();
    let set_count = proc_macro2::Literal::usize_unsuffixed(sets.len());
    let sets = sets
        .iter()
        .map(|m| TokenStream::from_str(&format!("{m:#x}")).unwrap_or_default());
    let all_names = names.iter().map(|n| n.0);
    quote! {
        /// Every model's event names in one table (`all-models` only).
        #[cfg(feature = "all-models")]
        mod __all_models {
            static INDEX: #krate::__private::NameIndex = #index;
            /// The distinct sets of models having a name (bit `i`: `MODELS[i]`).
            static SETS: [#mask_ty; #set_count] = [#(#sets),*];
            /// Per name of `INDEX`: its set in `SETS`.
            static SET_OF: [u16; #count] = [#(#name_sets),*];
            /// The names of `INDEX`.
            static NAMES: [&str; #count] = [#(#all_names),*];

            /// The models having `name`, as a `ModelsWithEvent` mask.
            pub(super) fn with_event(name: &str) -> #mask_ty {
                INDEX
                    .find(name, |i| NAMES[i])
                    .map_or(0, |i| SETS[usize::from(SET_OF[i])])
            }
        }
    }
}

pub(super) fn cpuid_field(
    krate: &TokenStream,
    leaf: &CpuidLeaf,
    register: &str,
    f: &Field,
) -> TokenStream {
    let name = &f.name;
    let l = lit_u32(leaf.leaf);
    let subleaf = leaf.subleaf.unwrap_or(0);
    let has_subleaf = leaf.subleaf.is_some();
    let reg = pmu_defs::load::raw::CPUID_REGS
        .iter()
        .position(|r| *r == register)
        .unwrap_or(0) as u8;
    let lsb = f.bits.first().map_or(0, |b| b.lsb);
    let width = f.width;
    quote! {
        #krate::arch::CpuidField {
            name: #name, leaf: #l, subleaf: #subleaf, has_subleaf: #has_subleaf,
            register: #reg, lsb: #lsb, width: #width,
        }
    }
}

/// The CPUID field playing `role` in `g`, as a `CpuidField`.
pub(super) fn cpuid_role(krate: &TokenStream, g: &Generation, role: FieldRole) -> TokenStream {
    for leaf in &g.cpuid {
        for reg in &leaf.registers {
            if let Some(f) = reg.fields.iter().find(|f| f.role == Some(role)) {
                let t = cpuid_field(krate, leaf, &reg.register, f);
                return quote!(Some(#t));
            }
        }
    }
    quote!(None)
}
