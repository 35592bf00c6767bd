//! Compile errors in the user's terms for fields a register's layout lacks: for each writable
//! field element that a later generation's layout of the same register adds, a hidden trait
//! with `#[diagnostic::on_unimplemented]` and hidden `with_*` stubs bound by it.

use super::fields::{elems, w1_verb, writable};
use super::util::{ident, join_and, refused_setter};
use super::{Cx, is_model};
use pmu_defs::model::names::{self, Method};
use pmu_defs::model::{Generation, Register};
use proc_macro2::TokenStream;
use quote::format_ident;
use std::collections::HashSet;

impl Cx<'_> {
    /// For each writable field element that a later generation's layout of `r` has and `r`
    /// lacks (AnyThread before Intel v3, UMASK2 and EQ before v6, ...): a hidden, never
    /// implemented trait whose `on_unimplemented` message says so, and hidden `with_*` stubs on
    /// `Value` and `Builder` bound by it. Calling one is then a compile error naming the
    /// generation that added the field, instead of rustc's "no method named `with_any`" with a
    /// "similar name" suggestion (`with_en`) that would silently program something else.
    /// `all_users` are the generations whose layout of this register is this one.
    pub(super) fn unavailable(
        &self,
        r: &Register,
        all_users: &[&Generation],
    ) -> (TokenStream, Vec<TokenStream>, Vec<TokenStream>) {
        let (mut traits, mut vstubs, mut bstubs) = (TokenStream::new(), Vec::new(), Vec::new());
        if !r.access.writable() {
            return (traits, vstubs, bstubs);
        }
        let krate = &self.krate;
        let have: Vec<String> = r.fields.iter().flat_map(elems).map(|e| e.name).collect();
        // Name the architectural generations; CPU models that share the layout inherit it.
        let arch_users: Vec<&str> = all_users
            .iter()
            .filter(|g| !is_model(g))
            .map(|g| g.id.as_str())
            .collect();
        let users: Vec<&str> = if arch_users.is_empty() {
            all_users.iter().map(|g| g.id.as_str()).collect()
        } else {
            arch_users
        };
        let missing = self.missing_fields(r, &have);
        let users_text = join_and(&users);
        // A stub never takes a method name this layout has (`with_inv` of `INV` when a later
        // layout adds `inv`), nor one another stub took.
        let mut taken = own_methods(r);
        for (ename, method, width, since) in missing {
            if !taken.insert(method.clone()) {
                continue;
            }
            let tr = format_ident!("__Unavailable_{}", ename);
            let m = ident(&method);
            let message = format!(
                "`{}` of {users_text} has no field `{ename}`: it was added in {since}",
                r.name
            );
            let label = format!("`{ename}` is not part of this layout of `{}`", r.name);
            let note = format!(
                "use `{}` of {since} (or of a later generation that has `{ename}`) on processors \
                 that implement it",
                r.name
            );
            let (refusal, stub) = refused_setter(krate, &tr, &m, width, (&message, &label, &note));
            traits.extend(refusal);
            vstubs.push(stub.clone());
            bstubs.push(stub);
        }
        (traits, vstubs, bstubs)
    }

    /// The writable field elements (not write-1) that a later generation's layout of `r`
    /// has and `r` lacks (`have`), earliest generation first: (element name, its setter
    /// there, `with_x(bool)` or `with_x::<V>()`, the field's width, the generation).
    fn missing_fields(&self, r: &Register, have: &[String]) -> Vec<(String, String, u32, &str)> {
        let mut missing: Vec<(String, String, u32, &str)> = Vec::new();
        let later = (self.model.generations.iter())
            .filter(|d| d.ancestors.contains(&r.defined_in))
            .filter_map(|d| Some((d, d.register(&r.name)?)))
            .filter(|(_, r2)| r2.defined_in != r.defined_in);
        for (d, r2) in later {
            for f2 in &r2.fields {
                if !writable(r2, f2) || w1_verb(f2).is_some() {
                    continue;
                }
                for e in elems(f2) {
                    if have.contains(&e.name) || missing.iter().any(|m| m.0 == e.name) {
                        continue;
                    }
                    let setter = names::element_methods(r2, f2, &e.name)
                        .into_iter()
                        .find(|(m, _)| matches!(m, Method::WithBool | Method::WithConst));
                    if let Some((_, setter)) = setter {
                        missing.push((e.name, setter, f2.width, d.id.as_str()));
                    }
                }
            }
        }
        missing
    }
}

/// Every method name `r`'s own fields give its `Value` (element methods, and the array
/// accessors of a field array).
fn own_methods(r: &Register) -> HashSet<String> {
    r.fields
        .iter()
        .flat_map(|f| {
            let mut m: Vec<String> = names::element_names(f)
                .iter()
                .flat_map(|e| names::element_methods(r, f, e))
                .map(|(_, n)| n)
                .collect();
            if f.array.is_some() {
                let (get, set) = names::array_methods(r, f);
                m.push(get);
                m.extend(set);
            }
            m
        })
        .collect()
}
