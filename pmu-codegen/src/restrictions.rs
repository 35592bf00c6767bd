//! Restrictions the definitions place on setting a field.
//!
//! - Fields valid only on some instances of a register family (`instances:`, IN_TXCP only on
//!   IA32_PERFEVTSEL2): their setter exists only on a `Builder` placed on an instance. On an
//!   unplaced `Value` or `Builder` it is a hidden stub whose `on_unimplemented` message says
//!   where the field is valid; on `Builder<Counter<N>>` an `N` it is not valid on fails to
//!   compile; on `Builder<AnyCounter>` the instance is checked at run time.
//! - Deprecated fields (`deprecated:`, AnyThread from Intel v5): every setter carries
//!   `#[deprecated(note = ...)]` with the manual's reason, so using one warns.

use super::Cx;
use super::fields::Elem;
use super::parts::ValueParts;
use super::util::{ident, join_and, lit_u64};
use pmu_defs::model::names::Method;
use pmu_defs::model::{Field, Register};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

impl Cx<'_> {
    /// The one-bit setter `m` (`with_in_txcp`) of element `e` of a field valid only on the
    /// instances `f.instances` of `r`: a private unchecked setter and a stub on `Value`, and
    /// the three `Builder` versions in `p.by_placement`.
    pub(super) fn instance_setter(
        &self,
        r: &Register,
        f: &Field,
        e: &Elem,
        edoc: &str,
        m: &Ident,
        p: &mut ValueParts,
    ) {
        let krate = &self.krate;
        let valid: Vec<u32> = f.instances.clone().unwrap_or_default();
        let valid_names: Vec<String> = valid.iter().map(|i| format!("{}{i}", r.name)).collect();
        let valid_text = join_and(&valid_names);
        let (reg, ename) = (&r.name, &e.name);
        let [tr, check, raw] =
            pmu_defs::model::names::instance_items(ename, &m.to_string()).map(|n| ident(&n));
        let insert_v = e.put(quote!(v));
        let emask = lit_u64(e.mask());
        let message = format!(
            "`{ename}` of `{reg}` is valid only on {valid_text}: it cannot be set on a value for \
             any instance"
        );
        let label = format!("valid only on {valid_text}");
        let first = valid.first().copied().unwrap_or(0);
        let note = format!(
            "place the value on a valid instance first: `event_on::<{first}>(..)` or \
             `Value::new().at::<{first}>()` (`try_event_on` / `try_at` for an instance chosen at \
             run time); on any other instance the processor faults (#GP)"
        );
        let cond = valid.iter().map(|i| quote!(#i));
        let cond2 = cond.clone();
        let cond3 = cond.clone();
        let doc = format!("{edoc}\n\nValid only on {valid_text}: any other `N` fails to compile.");
        let any_doc = format!(
            "{edoc}\n\nValid only on {valid_text}: on another instance this returns \
             `PlacementError::FieldNotOnCounter`."
        );
        p.checkers.push(quote! {
            #[doc(hidden)]
            #[allow(non_camel_case_types)]
            #[diagnostic::on_unimplemented(message = #message, label = #label, note = #note)]
            pub trait #tr {}
            #[inline(always)]
            const fn #check<const N: u32>() {
                const {
                    if !matches!(N, #(#cond)|*) {
                        #krate::__private::not_on_instance(#reg, #ename, #valid_text, N)
                    }
                }
            }
        });
        let stub = quote! {
            #[doc(hidden)]
            pub const fn #m<T: #tr>(self, on: T) -> Self {
                ::core::mem::forget(on);
                self
            }
        };
        p.methods.push(quote! {
            #stub
            #[inline]
            const fn #raw(self, on: bool) -> Self { let v = on as u64; #insert_v }
        });
        p.by_placement.unplaced.push(stub);
        p.by_placement.counter.push(quote! {
            #[doc = #doc]
            #[inline]
            #[track_caller]
            pub const fn #m(self, on: bool) -> Self {
                if !matches!(N, #(#cond2)|*) {
                    #krate::__private::not_on_instance(#reg, #ename, #valid_text, N)
                }
                #check::<N>();
                self.track(#emask, self.value.#raw(on))
            }
        });
        p.by_placement.any_counter.push(quote! {
            #[doc = #any_doc]
            #[inline]
            pub const fn #m(self, on: bool) -> Result<Self, #krate::PlacementError> {
                if !matches!(self.index, #(#cond3)|*) {
                    return Err(#krate::PlacementError::FieldNotOnCounter {
                        register: #reg, field: #ename, counter: self.index,
                    });
                }
                Ok(self.track(#emask, self.value.#raw(on)))
            }
        });
    }
}

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

/// Puts `attr` (from [`deprecated_attr`]) in front of the setters of kind `kind` pushed onto
/// `p` since `before` (the lengths of its methods and builder methods).
pub(super) fn deprecate(
    attr: Option<&TokenStream>,
    kind: Method,
    before: (usize, usize),
    p: &mut ValueParts,
) {
    let Some(attr) = attr else { return };
    if matches!(kind, Method::Getter | Method::EnumGetter | Method::ReadOnly) {
        return;
    }
    for item in p.methods[before.0..]
        .iter_mut()
        .chain(&mut p.bmethods[before.1..])
    {
        let mut t = attr.clone();
        t.extend(std::mem::take(item));
        *item = t;
    }
}
