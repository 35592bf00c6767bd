//! The generation pass: a module per generation inside its vendor module, each register
//! layout emitted once (see the [layout pass](super::layout)) and re-exported by the other
//! generations that have it, and (for `pmu-regs`) each model generation and each shared
//! layout module split off into its own file behind the Cargo features that need it.

use super::doc::escape_doc;
use super::layout::{Layout, Layouts, SHARED};
use super::util::{absolute, ident, join_and, module_path, relative_path};
use super::{Cx, FileTokens, is_gated, is_model};
use pmu_defs::model::Generation;
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeMap;

/// Modules by parent: a vendor's modules (`"intel"` -> `[("v3", tokens), ...]`), and those
/// without a vendor (key `""`). BTreeMap for a stable order.
type Modules = BTreeMap<String, Vec<(String, TokenStream)>>;

impl Cx<'_> {
    /// Every generation's module inside its vendor module (`intel::v3`), and the shared layout
    /// modules (`intel::shared::arrowlake_lioncove`). With `split`, each gated generation's
    /// body, and each shared module's, goes to a file of its own, declared behind the
    /// features that need it.
    pub(super) fn generations(&self, mut split: Option<&mut Vec<FileTokens>>) -> TokenStream {
        let split_mode = split.is_some();
        let layouts = self.layouts();
        let mut modules = self.generation_modules(&layouts, split.as_deref_mut());
        for (parent, decl) in self.shared_modules(&layouts, split) {
            modules
                .entry(parent)
                .or_default()
                .push((SHARED.to_string(), decl));
        }
        let mut out = self.vendor_modules(modules);
        // The `Generation` enum lives in `pmu-regs`: only code generated for it (every
        // generation, no `only`) has it; generations emitted elsewhere get their marker types.
        if self.runtime && self.only.is_none() {
            out.extend(super::runtime::generations(
                &self.krate,
                self.model,
                split_mode,
            ));
            out.extend(self.feature_traits(split_mode));
        }
        if self.only.is_some() {
            out.extend(self.feature_checks());
        }
        out
    }

    /// Each emitted generation's module declaration, by parent. Split off, a gated generation's
    /// module is a file of its own: generated on every core, as text (most of the generator's
    /// work).
    fn generation_modules(
        &self,
        layouts: &Layouts<'_>,
        mut split: Option<&mut Vec<FileTokens>>,
    ) -> Modules {
        let mut modules = Modules::new();
        let emitted: Vec<&Generation> = (self.model.generations.iter())
            .filter(|g| self.emits(&g.id))
            .collect();
        let own_files: Vec<&Generation> = (emitted.iter().copied())
            .filter(|g| split.is_some() && is_gated(self.model, g))
            .collect();
        let texts = (self.seed()).map(&own_files, &|g, cx| cx.generation(g, layouts).to_string());
        let mut texts: BTreeMap<&str, String> =
            own_files.iter().map(|g| g.id.as_str()).zip(texts).collect();
        for g in emitted {
            let segs = module_path(&g.id);
            let features = if is_gated(self.model, g) {
                vec![g.id.clone()]
            } else {
                Vec::new()
            };
            let decl = match (texts.remove(g.id.as_str()), split.as_deref_mut()) {
                (Some(text), Some(files)) => file_module(&segs, text, features, files),
                _ => {
                    let body = self.generation(g, layouts);
                    module(&segs, body, features, split.as_deref_mut())
                }
            };
            place(&mut modules, &segs, decl);
        }
        modules
    }

    /// The `shared` module of each vendor that has one, `(vendor, declaration)`: the layouts
    /// several generations define alike, each module compiled with any of its users' features
    /// (a user whose ancestor is a user too is left out: its feature turns the ancestor's on).
    fn shared_modules(
        &self,
        layouts: &Layouts<'_>,
        mut split: Option<&mut Vec<FileTokens>>,
    ) -> Vec<(String, TokenStream)> {
        let mut by_parent = Modules::new();
        for (home, ls) in layouts.shared() {
            let mut users: Vec<String> = Vec::new();
            for u in ls.iter().flat_map(|l| &l.users) {
                if !users.contains(&u.id) {
                    users.push(u.id.clone());
                }
            }
            let body = self.shared_module(&ls, &users);
            let gates: Vec<String> = (users.iter())
                .filter(|u| {
                    (self.model.generation(u))
                        .is_none_or(|g| !g.ancestors.iter().any(|a| users.contains(a)))
                })
                .cloned()
                .collect();
            let decl = module(home, body, gates, split.as_deref_mut());
            let (m, parent) = home.split_last().expect("a shared module has a path");
            (by_parent.entry(parent[..parent.len() - 1].join("::")))
                .or_default()
                .push((m.clone(), decl));
        }
        let doc = "Register layouts that several generations define identically, each emitted \
                   once: one module per first generation using them. Each generation \
                   re-exports its registers from here.";
        let m = ident(SHARED);
        (by_parent.into_iter())
            .map(|(parent, inner)| {
                let inner = inner.into_iter().map(|(_, decl)| decl);
                (parent, quote! { #[doc = #doc] pub mod #m { #(#inner)* } })
            })
            .collect()
    }

    /// The vendor modules holding `modules`, then the modules without a vendor. Parents before
    /// children (by `extends` depth), CPU models after every other generation, `shared` last:
    /// rustc names a type by the first path to it it finds walking the modules in this order,
    /// so a layout is named by the generation defining it (`intel::v3::IA32_PERFEVTSEL`), which
    /// is shallower than any generation inheriting it, not by a microarchitecture generation or
    /// CPU model re-exporting it.
    fn vendor_modules(&self, mut modules: Modules) -> TokenStream {
        let mut out = TokenStream::new();
        let mut flat = modules.remove("").unwrap_or_default();
        let order: BTreeMap<String, (bool, usize)> = (self.model.generations.iter())
            .map(|g| {
                let path = module_path(&g.id).join("::");
                (path, (is_model(g), g.ancestors.len()))
            })
            .collect();
        for (vendor, mut gens) in modules {
            gens.sort_by_key(|(m, _)| {
                let rank = order.get(&format!("{vendor}::{m}")).copied();
                (m == SHARED, rank, m.clone())
            });
            let vendor_ident = ident(&vendor);
            let doc = format!("Generations of `{vendor}` PMU hardware.");
            let inner = gens.into_iter().map(|(_, body)| body);
            out.extend(quote! {
                #[doc = #doc]
                pub mod #vendor_ident { #(#inner)* }
            });
        }
        flat.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, body) in flat {
            out.extend(body);
        }
        out
    }

    /// The body of a shared module: its doc and the layouts it holds; `users` are the
    /// generations using them.
    fn shared_module(&self, ls: &[&Layout<'_>], users: &[String]) -> TokenStream {
        let names: Vec<String> = users.iter().map(|u| format!("`{u}`")).collect();
        let doc = format!(
            "Register layouts that {} define identically: each is emitted once, here, and \
             re-exported by every generation that has it.",
            join_and(&names)
        );
        let registers = ls.iter().map(|l| self.register(l));
        quote! {
            #![doc = #doc]
            #(#registers)*
        }
    }

    /// The body of the module of generation `g`: its doc, each register it defines (or a
    /// `pub use` of its layout's home), `ArchEvent`, model events and the `cpuid` module.
    fn generation(&self, g: &Generation, layouts: &Layouts<'_>) -> TokenStream {
        let own = module_path(&g.id);
        let depth = own.len();
        let mut doc = format!(
            "{}\n\n{}",
            escape_doc(&g.title),
            escape_doc(g.doc.trim_end())
        );
        doc.push_str(&format!("\n\nGeneration `{}`", g.id));
        if let Some(p) = &g.extends {
            doc.push_str(&format!(", extends `{p}`"));
        }
        doc.push_str(&format!(". Manual: {}.", escape_doc(&g.manual)));
        let mut out = quote! { #![doc = #doc] };
        for r in &g.registers {
            let l = layouts.of(g, r);
            if l.home == own && !l.builtin {
                out.extend(self.register(l));
            } else {
                let from = if l.builtin {
                    absolute(&self.krate, &l.home)
                } else {
                    relative_path(depth, &l.home)
                };
                let name = ident(&r.name);
                let alias = ident(&pmu_defs::model::names::register_alias(&r.name));
                out.extend(quote! { pub use #from::{#name, #alias}; });
            }
        }
        out.extend(self.arch_events(g, depth));
        out.extend(self.builtin_countable(g, layouts));
        if self.runtime {
            out.extend(super::runtime::marker(
                &self.krate,
                self.model,
                self.only,
                g,
            ));
            out.extend(self.event_of_impls(g, depth));
        }
        out.extend(self.model_events(g));
        out.extend(self.cpuid_module(g, depth));
        out
    }
}

impl Cx<'_> {
    /// With [`Options::only`](super::Options::only): when `g` defines its `ArchEvent` and an
    /// emitted generation having it uses a built-in event select (whose module, in
    /// `pmu-regs`, cannot name this `ArchEvent`), `impl <built-in select>::Countable for
    /// ArchEvent` here, once per select.
    fn builtin_countable(&self, g: &Generation, layouts: &Layouts<'_>) -> TokenStream {
        if self.only.is_none() || self.arch_events_owner(g).as_deref() != Some(g.id.as_str()) {
            return TokenStream::new();
        }
        let mut homes: Vec<(&[String], &str)> = Vec::new();
        for u in self.model.generations.iter().filter(|u| self.emits(&u.id)) {
            if self.arch_events_owner(u).as_deref() != Some(g.id.as_str()) {
                continue;
            }
            let Some(sel) = self.select_of(u) else {
                continue;
            };
            let l = layouts.of(u, sel);
            let key = (l.home.as_slice(), sel.name.as_str());
            if l.builtin && !homes.contains(&key) {
                homes.push(key);
            }
        }
        let impls = homes.iter().map(|(h, sel)| {
            let path = absolute(&self.krate, h);
            let sel = ident(sel);
            quote! { impl #path::#sel::Countable for ArchEvent {} }
        });
        quote! { #(#impls)* }
    }
}

/// The declaration of module `segs` in its parent: `pub mod m { body }`, or with `split` and
/// features, `#[cfg(feature = "a")] pub mod m;` (`any(..)` for several) with the body in a file
/// of its own.
fn module(
    segs: &[String],
    body: TokenStream,
    features: Vec<String>,
    split: Option<&mut Vec<FileTokens>>,
) -> TokenStream {
    match split {
        Some(files) if !features.is_empty() => file_module(segs, body.to_string(), features, files),
        _ => {
            let m = ident(segs.last().map_or("", |s| s.as_str()));
            quote! { pub mod #m { #body } }
        }
    }
}

/// The declaration of module `segs` whose body (as text) goes to a file of its own, compiled
/// when any of `features` is enabled.
fn file_module(
    segs: &[String],
    text: String,
    features: Vec<String>,
    files: &mut Vec<FileTokens>,
) -> TokenStream {
    let m = ident(segs.last().map_or("", |s| s.as_str()));
    let cfg = match features.as_slice() {
        [one] => quote!(feature = #one),
        all => quote!(any(#(feature = #all),*)),
    };
    files.push(FileTokens {
        path: format!("generated/{}.rs", segs.join("/")),
        features,
        text,
    });
    quote! { #[cfg(#cfg)] pub mod #m; }
}

/// Puts the declaration of module `segs` into its parent's list.
fn place(modules: &mut Modules, segs: &[String], decl: TokenStream) {
    let (m, parent) = segs.split_last().expect("a module path has a segment");
    modules
        .entry(parent.join("::"))
        .or_default()
        .push((m.clone(), decl));
}
