//! The CPUs of the site: one per entry of the CPU-name files (`pmu-defs/cpu-names.yaml`,
//! [`pmu_defs::load::cpu_names`]), with the generations the name stands for and the CPU
//! models (the generations' `cpus:` entries) it covers. Nothing here knows a CPU: a name's
//! facts come from its entry and from the `cpus:` lists of the generations it names, so a
//! name added to the YAML gets its page, its index row and its search entry.
//!
//! A name stands for whole generations (`generation:`, every `cpus:` entry of each) or for
//! some family/models (`family-model:`, the matching `cpus:` entries of every generation
//! listing one of them: "Raptor Lake" is the Alder Lake core types' `06_B7`, `06_BA`, `06_BF`).

use pmu_defs::Model;
use pmu_defs::load::cpu_names::{CpuName, FamilyModel, Target};
use pmu_defs::model::{Cpu, Generation};

/// One CPU name, resolved against the model.
pub(crate) struct SiteCpu<'m> {
    /// The entry of the CPU-name file.
    pub name: &'m CpuName,
    /// The page's file name without `.html`, from the name (`sapphire-rapids`), unique.
    pub slug: String,
    /// The generations the name stands for, in model order.
    pub generations: Vec<&'m Generation>,
    /// Each `cpus:` entry the name covers, with its generation, in model order.
    pub models: Vec<(&'m Generation, &'m Cpu)>,
}

impl SiteCpu<'_> {
    /// The distinct family/models covered, in the order first met: `06_8F` with the `cpus:`
    /// spelling (a stepping suffix kept).
    pub fn family_models(&self) -> Vec<FamilyModelLabel> {
        let mut out: Vec<FamilyModelLabel> = Vec::new();
        for (_, c) in &self.models {
            let label = FamilyModelLabel::of(&c.family_model);
            if !out.iter().any(|l| l.cpus == label.cpus) {
                out.push(label);
            }
        }
        out
    }

    /// True when the name covers some CPU model of `g`.
    pub fn covers(&self, g: &Generation) -> bool {
        self.generations.iter().any(|x| x.id == g.id)
    }
}

/// A family/model as Intel writes it (`06_8F`, the family and model in hex, two digits at
/// least) and as `cpus:` does (`GenuineIntel-6-8F`, `GenuineIntel-6-55-[01234]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FamilyModelLabel {
    /// `06_8F`; the `cpus:` string when it cannot be read.
    pub display: String,
    /// The stepping part of the `cpus:` string (`[01234]`), if any.
    pub stepping: Option<String>,
    /// The `cpus:` string.
    pub cpus: String,
    /// The model alone, `0x8F`.
    pub model: Option<String>,
}

impl FamilyModelLabel {
    pub fn of(cpus: &str) -> Self {
        let stepping = cpus.splitn(4, '-').nth(3).map(str::to_owned);
        match FamilyModel::parse(cpus) {
            Some(fm) => FamilyModelLabel {
                display: format!("{:02X}_{:02X}", fm.family, fm.model),
                stepping,
                cpus: cpus.to_owned(),
                model: Some(format!("0x{:02X}", fm.model)),
            },
            None => FamilyModelLabel {
                display: cpus.to_owned(),
                stepping,
                cpus: cpus.to_owned(),
                model: None,
            },
        }
    }
}

/// Every CPU name of the model, in the order of the CPU-name files; a name whose generations
/// are all missing (the loader reports it) is left out.
pub(crate) fn collect(model: &Model) -> Vec<SiteCpu<'_>> {
    let mut out: Vec<SiteCpu<'_>> = Vec::new();
    for n in &model.cpu_names {
        let models = covered(model, n);
        let mut generations: Vec<&Generation> = match &n.target {
            Target::Generations(ids) => ids.iter().filter_map(|id| model.generation(id)).collect(),
            Target::FamilyModels(_) => models.iter().map(|(g, _)| *g).collect(),
        };
        generations.dedup_by(|a, b| a.id == b.id);
        if generations.is_empty() {
            continue;
        }
        let base = slug(&n.name);
        let mut slug = base.clone();
        let mut k = 2;
        while out.iter().any(|c| c.slug == slug) {
            slug = format!("{base}-{k}");
            k += 1;
        }
        out.push(SiteCpu {
            name: n,
            slug,
            generations,
            models,
        });
    }
    out
}

/// The `cpus:` entries a name covers, with their generations, in model order.
fn covered<'m>(model: &'m Model, n: &CpuName) -> Vec<(&'m Generation, &'m Cpu)> {
    let hit = |g: &Generation, c: &Cpu| match &n.target {
        Target::Generations(ids) => ids.contains(&g.id),
        Target::FamilyModels(fms) => fms
            .iter()
            .filter_map(|fm| FamilyModel::parse(fm))
            .any(|fm| fm.matches(&c.family_model)),
    };
    model
        .generations
        .iter()
        .flat_map(|g| g.cpus.iter().map(move |c| (g, c)))
        .filter(|(g, c)| hit(g, c))
        .collect()
}

/// A page name from a CPU name: lower-case ASCII letters and digits, other runs as one `-`
/// (`Westmere-EP SP` → `westmere-ep-sp`, `Zen 4` → `zen-4`).
pub(crate) fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_owned();
    if out.is_empty() {
        "cpu".to_owned()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_and_family_model_labels() {
        assert_eq!(slug("Sapphire Rapids"), "sapphire-rapids");
        assert_eq!(slug("Westmere-EP SP"), "westmere-ep-sp");
        assert_eq!(slug("Zen+"), "zen");
        assert_eq!(slug("++"), "cpu");
        let l = FamilyModelLabel::of("GenuineIntel-6-55-[01234]");
        assert_eq!(l.display, "06_55");
        assert_eq!(l.stepping.as_deref(), Some("[01234]"));
        assert_eq!(l.model.as_deref(), Some("0x55"));
        let amd = FamilyModelLabel::of("AuthenticAMD-1A-02");
        assert_eq!((amd.display.as_str(), amd.stepping), ("1A_02", None));
    }
}
