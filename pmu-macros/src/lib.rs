//! Proc-macro front end of the pmu-regs code generator.
//!
//! `pmu_macros::registers!("defs/my_cpu.yaml")` loads the file (relative to the invoking
//! crate's `CARGO_MANIFEST_DIR`) with [`pmu_defs::Loader`] and expands to the same code
//! `cargo xtask gen` checks into `pmu-regs`, with paths through `::pmu_regs` (the invoking
//! crate must depend on `pmu-regs`). Definition errors become one `compile_error!` carrying
//! the rendered validator message with `file:line:col`.

use proc_macro::TokenStream;
use proc_macro2::{TokenStream as TokenStream2, TokenTree};
use quote::quote;
use std::path::PathBuf;

/// Expands the registers, events and generations described by a YAML definition file (or a
/// directory of them).
#[proc_macro]
pub fn registers(input: TokenStream) -> TokenStream {
    match expand(input.into()) {
        Ok(t) => t.into(),
        Err(msg) => quote! { ::core::compile_error!(#msg); }.into(),
    }
}

fn expand(input: TokenStream2) -> Result<TokenStream2, String> {
    let rel = parse_path(input)?;
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .ok_or("registers!: CARGO_MANIFEST_DIR is not set")?;
    let mut loader = pmu_defs::Loader::new();
    loader.add_path(&dir.join(&rel));
    let loaded = loader.finish();
    if loaded.has_errors() {
        return Err(loaded.render_diagnostics());
    }
    let code = pmu_defs::codegen::generate(&loaded.model, &pmu_defs::codegen::Options::external());
    let deps = loaded.paths.iter().map(|p| {
        let abs = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
        let s = abs.display().to_string();
        quote! { const _: &[u8] = include_bytes!(#s); }
    });
    Ok(quote! { #(#deps)* #code })
}

/// The single string-literal argument (plain or raw string, no escapes).
fn parse_path(input: TokenStream2) -> Result<String, String> {
    let mut it = input.into_iter();
    let (Some(TokenTree::Literal(lit)), None) = (it.next(), it.next()) else {
        return Err(usage());
    };
    let s = lit.to_string();
    let inner = if let Some(rest) = s.strip_prefix('r') {
        let hashes = rest.len() - rest.trim_start_matches('#').len();
        let body = &rest[hashes..rest.len() - hashes];
        body.strip_prefix('"').and_then(|b| b.strip_suffix('"'))
    } else {
        s.strip_prefix('"')
            .and_then(|b| b.strip_suffix('"'))
            .filter(|b| !b.contains('\\'))
    };
    inner.map(str::to_string).ok_or_else(usage)
}

fn usage() -> String {
    "registers!: expected one string literal, the path of a YAML definition file relative to \
     CARGO_MANIFEST_DIR, e.g. `pmu_macros::registers!(\"defs/my_cpu.yaml\");`"
        .to_string()
}
