//! Deprecated fields (`deprecated:`, AnyThread from Intel v5): the field's marker type carries
//! `#[deprecated(note = ...)]` with the manual's reason, so naming it warns. (Fields valid only
//! on some instances, `instances:`, are checked by the generic setters from `FIELDS`.)

use pmu_defs::model::Field;
use proc_macro2::TokenStream;
use quote::quote;

/// `#[deprecated(note = ...)]` for the setters of a field its layout deprecates: since when,
/// under which enumeration, and the manual's reason.
pub(super) fn deprecated_attr(f: &Field) -> Option<TokenStream> {
    let d = f.deprecated.as_ref()?;
    let mut note = format!("`{}` is deprecated since {}", f.name, d.since);
    if let Some(w) = &d.when {
        note.push_str(&format!(" (where `{}`)", w.trim()));
    }
    let reason = d.doc.trim();
    if reason.is_empty() {
        note.push_str(": software must not set it there");
    } else {
        let words: Vec<String> = reason.split_whitespace().map(code_span).collect();
        note.push_str(&format!(": {}", words.join(" ")));
    }
    Some(quote! { #[deprecated(note = #note)] })
}

/// A word of the manual's prose with brackets (`CPUID.0AH:EDX[15]`) as a code span, so that
/// rustdoc, which renders the note as Markdown, reads no link in it, and the compiler's warning
/// shows it as written; trailing punctuation stays outside.
fn code_span(word: &str) -> String {
    if !word.contains(['[', ']']) || word.contains('`') {
        return word.to_owned();
    }
    let body = word.trim_end_matches(['.', ',', ';', ':', ')']);
    format!("`{body}`{}", &word[body.len()..])
}
