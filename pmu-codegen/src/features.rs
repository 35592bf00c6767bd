//! The Cargo features a crate's own generations (`registers!`) need of `pmu-regs`: a
//! generation extending a microarchitecture or a CPU model reaches its registers in a module
//! that `pmu-regs` compiles only with that generation's feature
//! ([`is_gated`](super::is_gated)). Without the feature the user would see "could not find
//! `skylake_family` in `intel`"; instead `pmu-regs` has one marker trait per gated
//! generation, implemented for `()` only when the feature is on, whose message names the
//! feature, and the macro's output requires it.

use super::runtime::marker_name;
use super::{Cx, is_gated};
use pmu_defs::model::Generation;
use proc_macro2::TokenStream;
use quote::quote;

/// The module of `pmu-regs` that holds the marker traits.
const MODULE: &str = "__features";

impl Cx<'_> {
    /// `pmu-regs`' `__features` module: a trait per gated generation, implemented for `()`
    /// when its feature is on (always, without `split`: every generation is compiled then).
    pub(super) fn feature_traits(&self, split: bool) -> TokenStream {
        let traits = (self.model.generations.iter())
            .filter(|g| is_gated(self.model, g))
            .map(|g| {
                let name = marker_name(g);
                let id = &g.id;
                let module = pmu_defs::model::names::module_path(id).join("::");
                let message = format!(
                    "pmu-regs is built without its Cargo feature `{id}`, which `{module}` needs"
                );
                let label = format!("this definition extends `{id}`");
                // A microarchitecture's feature comes with any of its CPU models' too.
                let model = (self.model.generations.iter())
                    .find(|m| super::is_model(m) && m.ancestors.contains(id));
                let note = match model {
                    Some(m) if !super::is_model(g) => format!(
                        "add `features = [\"{id}\"]` to the pmu-regs dependency, or the \
                         feature of a CPU model extending it, such as `{}`",
                        m.id
                    ),
                    _ => format!("add `features = [\"{id}\"]` to the pmu-regs dependency"),
                };
                let cfg = if split {
                    quote!(#[cfg(feature = #id)])
                } else {
                    quote!()
                };
                quote! {
                    #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
                    pub trait #name {}
                    #cfg
                    impl #name for () {}
                }
            });
        let m = super::util::ident(MODULE);
        quote! {
            /// Which gated generations this build of `pmu-regs` has (the code `registers!`
            /// emits checks it). Not public API.
            #[doc(hidden)]
            pub mod #m { #(#traits)* }
        }
    }

    /// With [`Options::only`](super::Options::only): for each built-in gated generation that an
    /// emitted one extends, a check that `pmu-regs` has its feature.
    pub(super) fn feature_checks(&self) -> TokenStream {
        let krate = &self.krate;
        let m = super::util::ident(MODULE);
        let mut needed: Vec<&Generation> = Vec::new();
        for g in self.model.generations.iter().filter(|g| self.emits(&g.id)) {
            for a in g.ancestors.iter().filter_map(|a| self.model.generation(a)) {
                if !self.emits(&a.id)
                    && is_gated(self.model, a)
                    && !needed.iter().any(|n| n.id == a.id)
                {
                    needed.push(a);
                }
            }
        }
        needed
            .iter()
            .map(|g| {
                let name = marker_name(g);
                quote! {
                    const _: () = {
                        const fn __needs_feature<T: #krate::#m::#name>() {}
                        __needs_feature::<()>()
                    };
                }
            })
            .collect()
    }
}
