//! Compile errors in the user's terms for fields a register's layout lacks: for each writable
//! field element that a later generation's layout of the same register adds, a hidden marker
//! type whose `Field` impl carries the reason (`MISSING`), which every generic accessor checks
//! first, in a `const` block.

use super::fields::{elems, w1_verb, writable};
use super::util::{ident, join_and};
use super::{Cx, is_model};
use pmu_defs::model::{Generation, Register};
use proc_macro2::TokenStream;
use quote::quote;

impl Cx<'_> {
    /// For each writable field element that a later generation's layout of `r` has and `r`
    /// lacks (AnyThread before Intel v3, UMASK2 and EQ before v6, ...): a hidden marker type
    /// of that name, so that `with::<ANY, 1>()` on this layout fails to compile with a
    /// message naming the generation that added the field, instead of rustc's "cannot find
    /// type `ANY`". `all_users` are the generations whose layout of this register is this
    /// one.
    pub(super) fn unavailable(&self, r: &Register, all_users: &[&Generation]) -> TokenStream {
        let mut out = TokenStream::new();
        if !r.access.writable() {
            return out;
        }
        let krate = &self.krate;
        let mut have: Vec<String> = r.fields.iter().flat_map(elems).map(|e| e.name).collect();
        have.extend((r.fields.iter().filter(|f| f.array.is_some())).map(|f| f.name.clone()));
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
        let users_text = join_and(&users);
        for (ename, since) in self.missing_fields(r, &have) {
            let m = ident(&ename);
            let message = format!(
                "`{}` of {users_text} has no field `{ename}`: it was added in {since}; use `{}` \
                 of {since} (or of a later generation that has `{ename}`) on processors that \
                 implement it",
                r.name, r.name
            );
            out.extend(quote! {
                #[doc(hidden)]
                pub enum #m {}
                impl #krate::reg::Field<Register> for #m {
                    const INDEX: usize = 0;
                    const MISSING: &'static str = #message;
                }
            });
        }
        out
    }

    /// The writable field elements (not write-1) that a later generation's layout of `r`
    /// has and `r` lacks (`have`), earliest generation first: (element name, the generation).
    fn missing_fields(&self, r: &Register, have: &[String]) -> Vec<(String, &str)> {
        let mut missing: Vec<(String, &str)> = Vec::new();
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
                    missing.push((e.name, d.id.as_str()));
                }
            }
        }
        missing
    }
}
