//! The search aliases checked against the model: a pair neither of whose terms occurs in any
//! register, field or event name finds nothing (`unused-alias`). The alias file itself is read
//! by [`crate::load::aliases`].

use crate::diag::{Diagnostic, Diagnostics};
use crate::load::aliases::{Alias, occurs, words};
use crate::model::Model;

/// Reports each alias neither of whose terms occurs in a register, field or event name of
/// the model as `unused-alias`.
pub fn check_used(model: &Model, aliases: &[Alias], diags: &mut Diagnostics) {
    if aliases.is_empty() {
        return;
    }
    let mut names: Vec<Vec<String>> = Vec::new();
    for g in &model.generations {
        for r in &g.registers {
            names.push(words(&r.name));
            names.extend(r.fields.iter().map(|f| words(&f.name)));
        }
        names.extend(g.events.iter().map(|e| words(&e.name)));
    }
    names.sort();
    names.dedup();
    for a in aliases {
        let used = names
            .iter()
            .any(|n| occurs(&a.short, n) || occurs(&a.long, n));
        if !used {
            diags.push(
                Diagnostic::warning(
                    "unused-alias",
                    format!(
                        "neither `{}` nor `{}` occurs in any register, field or event name",
                        a.short, a.long
                    ),
                    a.span,
                )
                .with_label("finds nothing")
                .with_help("remove the alias, or check the spelling of its terms"),
            );
        }
    }
}
