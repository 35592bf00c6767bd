//! `impl pmu_regs::pmu::EventOf<Marker> for <events type>`: which events types the run-time
//! layer's [`Pmu`](../../../pmu_regs/pmu/struct.Pmu.html) of a generation takes. A generation
//! counts its own events and those of every generation it extends: the `ArchEvent` of itself
//! and of each ancestor (one impl per distinct defining generation; a set shared by
//! re-export is one type) and, for a CPU model, its `events::Event`. An Intel event given to
//! an AMD `Pmu`, or a model's event to another model's, does not compile.

use super::Cx;
use super::events::model_events_of;
use super::runtime::{has_runtime, marker_name};
use pmu_defs::model::Generation;
use proc_macro2::TokenStream;
use quote::quote;

impl Cx<'_> {
    /// The impls for generation `g`'s marker, emitted in `g`'s module at `depth`.
    pub(super) fn event_of_impls(&self, g: &Generation, depth: usize) -> TokenStream {
        if !self.runtime || !has_runtime(g) {
            return TokenStream::new();
        }
        let krate = &self.krate;
        let marker = marker_name(g);
        self.countable_types(g, depth)
            .into_iter()
            .map(|ty| quote! { impl #krate::pmu::EventOf<#marker> for #ty {} })
            .collect()
    }

    /// Paths (from `g`'s module at `depth`) of the events types a `Pmu` of `g` counts.
    fn countable_types(&self, g: &Generation, depth: usize) -> Vec<TokenStream> {
        let lineage =
            std::iter::once(g).chain(g.ancestors.iter().filter_map(|a| self.model.generation(a)));
        let mut owners: Vec<String> = Vec::new();
        let mut types = Vec::new();
        for h in lineage {
            if let Some(o) = self.arch_events_owner(h)
                && !owners.contains(&o)
            {
                let path = self.generation_path(depth, &o);
                types.push(quote!(#path::ArchEvent));
                owners.push(o);
            }
            if !model_events_of(h).is_empty() {
                let path = self.generation_path(depth, &h.id);
                types.push(quote!(#path::events::Event));
            }
        }
        types
    }
}
