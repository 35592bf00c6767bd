//! CPU names: what people call a CPU ("Sapphire Rapids", "SPR", "Zen 4", "Genoa") and the
//! generations that describe it, so a tool can take a CPU by the name its user knows. They
//! live in the definitions, in a file whose top-level key is `cpu-names:` (the shipped one is
//! `pmu-defs/cpu-names.yaml`, loaded by [`Loader::with_defaults`](crate::Loader::with_defaults)):
//!
//! ```yaml
//! cpu-names:
//!   - { name: Sapphire Rapids, also: [SPR], generation: intel-sapphirerapids }
//!   - { name: Raptor Lake, also: [RPL], family-model: [GenuineIntel-6-B7, GenuineIntel-6-BA] }
//! ```
//!
//! A name stands either for whole generations (`generation:`, one id or a list: a hybrid
//! part's core types) or for some of the CPU models a generation lists in its `cpus:`
//! (`family-model:`), when the name covers fewer CPUs than the event list does. A generation
//! or family/model no generation lists, and a name (or spelling in `also:`) given twice, are
//! `invalid-cpu-name` errors at their place ([`crate::validate::cpu_names::check`]). Names
//! are matched without regard to case, spaces, `-` and `_`.
//!
//! [`Model::find_cpu`](crate::model::Model::find_cpu) takes a query in any of the forms
//! users type: a generation id (`intel-skylake`, or `skylake` without its vendor), a name from
//! these files, or a family/model (`06_8F` as Intel writes it, `GenuineIntel-6-8F` as its
//! mapfile does, `19h/11h`).

use crate::diag::Diagnostic;
use crate::load::de::{Cx, Spanned};
use crate::load::yaml::{Kind, Node};
use crate::source::Span;
use serde::Serialize;

/// Keys of a CPU-name file.
pub const FILE_KEYS: &[&str] = &["cpu-names"];
/// Keys of one entry.
pub const NAME_KEYS: &[&str] = &["name", "also", "generation", "family-model"];

/// One name of a CPU.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct CpuName {
    /// The name as people write it (`Sapphire Rapids`).
    pub name: String,
    /// Other spellings (`SPR`).
    pub also: Vec<String>,
    /// What the name stands for.
    pub target: Target,
    /// Where the entry is written.
    #[serde(skip)]
    pub span: Span,
}

/// What a [`CpuName`] stands for.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// Whole generations, by id.
    Generations(Vec<String>),
    /// CPU models, as `cpus:` writes them (`GenuineIntel-6-B7`).
    FamilyModels(Vec<String>),
}

/// True when `root` is a CPU-name file: a mapping with `cpu-names:` and no `generation:`.
pub fn is_cpu_name_file(root: &Node) -> bool {
    match &root.kind {
        Kind::Map(entries) => {
            entries.iter().any(|(k, _)| k.name == "cpu-names")
                && !entries.iter().any(|(k, _)| k.name == "generation")
        }
        _ => false,
    }
}

/// A name folded for matching: lower case, without spaces, `-` and `_`
/// ([`pmu_vocab::cpu::folded`]).
pub fn fold(name: &str) -> String {
    pmu_vocab::cpu::folded(name).collect()
}

pub use pmu_vocab::cpu::FamilyModel;

impl Cx<'_> {
    /// Reads a CPU-name file (see the module docs).
    pub fn cpu_names(&mut self, root: &Node) -> Vec<CpuName> {
        let Some(m) = self.map(root, "CPU-name file", FILE_KEYS) else {
            return Vec::new();
        };
        let Some(items) = m.get("cpu-names").and_then(|n| self.seq(n, "CPU names")) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in items {
            let Some(m) = self.map(item, "CPU name", NAME_KEYS) else {
                continue;
            };
            let name = self.req(&m, "name", "CPU name", Self::text);
            let also = self.opt(&m, "also", Self::texts).unwrap_or_default();
            let generations = self.opt(&m, "generation", Self::texts);
            let family_models = self.opt(&m, "family-model", Self::texts);
            let target = match (generations, family_models) {
                (Some(g), None) => Target::Generations(g.into_iter().map(|s| s.value).collect()),
                (None, Some(f)) => Target::FamilyModels(f.into_iter().map(|s| s.value).collect()),
                _ => {
                    self.push(
                        Diagnostic::error(
                            "invalid-cpu-name",
                            "a CPU name needs exactly one of `generation` and `family-model`",
                            item.span,
                        )
                        .with_label("this entry")
                        .with_help(
                            "`generation:` for whole generations, `family-model:` for some of \
                             the CPU models one lists",
                        ),
                    );
                    continue;
                }
            };
            let Some(name) = name else { continue };
            out.push((
                CpuName {
                    name: name.value.clone(),
                    also: also.iter().map(|s| s.value.clone()).collect(),
                    target,
                    span: item.span,
                },
                std::iter::once(name).chain(also).collect::<Vec<_>>(),
            ));
        }
        self.no_name_twice(&out);
        out.into_iter().map(|(n, _)| n).collect()
    }

    /// One string or a sequence of strings.
    fn texts(&mut self, node: &Node) -> Option<Vec<Spanned<String>>> {
        match &node.kind {
            Kind::Seq(items) => Some(items.iter().filter_map(|n| self.text(n)).collect()),
            _ => self.text(node).map(|t| vec![t]),
        }
    }

    fn no_name_twice(&mut self, names: &[(CpuName, Vec<Spanned<String>>)]) {
        let mut seen: Vec<(String, Span)> = Vec::new();
        for spelling in names.iter().flat_map(|(_, s)| s) {
            let key = fold(&spelling.value);
            if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
                self.push(
                    Diagnostic::error(
                        "invalid-cpu-name",
                        format!("the CPU name `{}` is given twice", spelling.value),
                        spelling.span,
                    )
                    .with_label("second time")
                    .with_secondary(*first, "first time")
                    .with_help("a name (case, spaces, `-` and `_` aside) names one thing"),
                );
            } else {
                seen.push((key, spelling.span));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding() {
        assert_eq!(fold("Sapphire Rapids"), "sapphirerapids");
        assert_eq!(fold("Zen-4"), fold("zen 4"));
        assert_eq!(fold("Ice_Lake-SP"), "icelakesp");
    }
}
