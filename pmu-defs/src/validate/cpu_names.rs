//! The CPU names checked against the model: a generation id no generation has, or a
//! family/model no generation lists in `cpus:`, is an `invalid-cpu-name` error. The CPU-name
//! files are read by [`crate::load::cpu_names`].

use crate::diag::{Diagnostic, Diagnostics};
use crate::load::cpu_names::{CpuName, FamilyModel, Target};
use crate::model::Model;

/// Reports each generation id no generation has, and each family/model no generation lists
/// in `cpus:`, as `invalid-cpu-name`.
pub fn check(model: &Model, names: &[CpuName], diags: &mut Diagnostics) {
    for n in names {
        let unknown: Vec<&String> = match &n.target {
            Target::Generations(ids) => ids
                .iter()
                .filter(|id| model.generation(id).is_none())
                .collect(),
            Target::FamilyModels(fms) => fms
                .iter()
                .filter(|fm| {
                    FamilyModel::parse(fm)
                        .is_none_or(|fm| model.listing(|c| fm.matches(c)).is_empty())
                })
                .collect(),
        };
        for u in unknown {
            let what = match n.target {
                Target::Generations(_) => "no generation has the id",
                Target::FamilyModels(_) => "no generation lists the CPU model",
            };
            diags.push(
                Diagnostic::error(
                    "invalid-cpu-name",
                    format!("CPU name `{}`: {what} `{u}`", n.name),
                    n.span,
                )
                .with_label("names nothing")
                .with_help("check the spelling against the generations' ids and `cpus:` lists"),
            );
        }
    }
}

#[cfg(test)]
mod load_tests {
    use crate::{Loader, Severity};

    /// A names file on top of the shipped definitions: each fault is an `invalid-cpu-name`
    /// error at its place; the good entry resolves.
    #[test]
    fn faults_are_located_and_good_names_resolve() {
        let mut loader = Loader::new().with_defaults();
        loader.add_str(
            "names.yaml",
            "cpu-names:\n\
             \x20 - { name: Test Lake, also: [TL], generation: intel-skylake }\n\
             \x20 - { name: Nowhere, generation: intel-nowhere }\n\
             \x20 - { name: Odd Lake, family-model: [GenuineIntel-6-FFF] }\n\
             \x20 - { name: tl, generation: intel-skylake }\n\
             \x20 - { name: Both, generation: intel-skylake, family-model: [GenuineIntel-6-4E] }\n",
        );
        let loaded = loader.finish();
        let mine: Vec<String> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| {
                let at = loaded.sources.line_col(d.labels[0].span);
                let file = loaded.sources.name(d.labels[0].span.file);
                format!("{file}:{}:{} {}: {}", at.line, at.col, d.code, d.message)
            })
            .collect();
        assert_eq!(
            mine,
            [
                "names.yaml:3:5 invalid-cpu-name: CPU name `Nowhere`: no generation has the id `intel-nowhere`",
                "names.yaml:4:5 invalid-cpu-name: CPU name `Odd Lake`: no generation lists the CPU model `GenuineIntel-6-FFF`",
                "names.yaml:5:13 invalid-cpu-name: the CPU name `tl` is given twice",
                "names.yaml:6:5 invalid-cpu-name: a CPU name needs exactly one of `generation` and `family-model`",
            ],
            "{}",
            loaded.render_diagnostics()
        );
        let found = loaded.model.find_cpu("test lake").expect("found");
        assert_eq!(found.generations.len(), 1);
        assert_eq!(found.generations[0].id, "intel-skylake");
    }
}
