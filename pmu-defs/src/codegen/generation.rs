//! The generation pass: a module per generation inside its vendor module, registers emitted
//! where they are defined and re-exported by the generations that inherit them, and (for
//! `pmu-regs`) each model generation split off into its own file behind its Cargo feature.

use super::doc::escape_doc;
use super::util::{camel, ident, module_path, relative};
use super::{Cx, FileTokens, is_model};
use crate::model::Generation;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeMap;

impl Cx<'_> {
    /// Every generation's module, inside its vendor module (`intel::v3`); with `split`, each
    /// model generation's body goes to a file of its own, declared behind its feature.
    pub(super) fn generations(&self, mut split: Option<&mut Vec<FileTokens>>) -> TokenStream {
        // vendor module -> [(generation module, tokens)]; BTreeMap for a stable order.
        let mut top: BTreeMap<String, Vec<(String, TokenStream)>> = BTreeMap::new();
        let mut flat: Vec<(String, TokenStream)> = Vec::new();
        for g in &self.model.generations {
            let segs = module_path(&g.id);
            let mut body = self.generation(g);
            if let (Some(files), true) = (split.as_deref_mut(), is_model(g)) {
                let feature = &g.id;
                let m = ident(segs.last().map_or("", |s| s.as_str()));
                files.push(FileTokens {
                    path: format!("generated/{}.rs", segs.join("/")),
                    tokens: body,
                });
                body = quote! { #[cfg(feature = #feature)] pub mod #m; };
            } else {
                let m = ident(segs.last().map_or("", |s| s.as_str()));
                body = quote! { pub mod #m { #body } };
            }
            match segs.as_slice() {
                [m] => flat.push((m.clone(), body)),
                [v, m] => top.entry(v.clone()).or_default().push((m.clone(), body)),
                _ => unreachable!(),
            }
        }
        let mut out = TokenStream::new();
        for (vendor, mut gens) in top {
            gens.sort_by(|a, b| a.0.cmp(&b.0));
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

    /// The body of the module of generation `g`: its doc, each register it defines (or a
    /// `pub use` of the one it inherits), `ArchEvent`, model events and the `cpuid` module.
    fn generation(&self, g: &Generation) -> TokenStream {
        let depth = module_path(&g.id).len();
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
            let defined_here =
                r.defined_in == g.id || self.model.generation(&r.defined_in).is_none();
            if defined_here {
                out.extend(self.register(g, r));
            } else {
                let from = relative(depth, &r.defined_in);
                let name = ident(&r.name);
                let alias = format_ident!("{}", camel(&r.name));
                out.extend(quote! { pub use #from::{#name, #alias}; });
            }
        }
        out.extend(self.arch_events(g, depth));
        out.extend(self.model_events(g));
        out.extend(self.cpuid_module(g, depth));
        out
    }
}
