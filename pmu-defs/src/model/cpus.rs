//! Finding a CPU in the model by the name its user knows: [`Model::find_cpu`] reads a
//! generation id, a CPU name from the CPU-name files ([`crate::load::cpu_names`]) or a
//! family/model, and [`Model::names_of`] lists the names a generation is known by.

use super::{Generation, Model};
use crate::load::cpu_names::{CpuName, FamilyModel, Target, fold};

/// What a query found: the generations, and how the query was read.
#[derive(Clone, Debug)]
pub struct Found<'m> {
    /// The generations the query names (several for a hybrid part's core types, or a name
    /// such as "Alder Lake").
    pub generations: Vec<&'m Generation>,
    /// How the query was read: `generation id`, `CPU name "Sapphire Rapids"`,
    /// `family/model 06_8F`.
    pub read_as: String,
}

impl Model {
    /// The generations a user's query names (see the module docs); `None` when nothing
    /// matches.
    pub fn find_cpu(&self, query: &str) -> Option<Found<'_>> {
        let q = query.trim();
        if let Some(g) = self.generation(q).or_else(|| {
            self.generations
                .iter()
                .find(|g| g.id.split_once('-').is_some_and(|(_, rest)| rest == q))
        }) {
            return Some(Found {
                generations: vec![g],
                read_as: format!("generation `{}`", g.id),
            });
        }
        let folded = fold(q);
        if let Some(n) = self
            .cpu_names
            .iter()
            .find(|n| fold(&n.name) == folded || n.also.iter().any(|a| fold(a) == folded))
        {
            let generations = match &n.target {
                Target::Generations(ids) => {
                    ids.iter().filter_map(|id| self.generation(id)).collect()
                }
                Target::FamilyModels(fms) => self.listing(|c| {
                    fms.iter()
                        .filter_map(|fm| FamilyModel::parse(fm))
                        .any(|fm| fm.matches(c))
                }),
            };
            return (!generations.is_empty()).then(|| Found {
                generations,
                read_as: format!("CPU name \"{}\"", n.name),
            });
        }
        let fm = FamilyModel::parse(q)?;
        let generations = self.listing(|c| fm.matches(c));
        (!generations.is_empty()).then(|| Found {
            generations,
            read_as: format!("family {:02X}h model {:02X}h", fm.family, fm.model),
        })
    }

    /// The names given to a generation: those standing for it whole, then those standing
    /// for some of its CPU models.
    pub fn names_of(&self, g: &Generation) -> Vec<&CpuName> {
        let mut whole: Vec<&CpuName> = Vec::new();
        let mut some: Vec<&CpuName> = Vec::new();
        for n in &self.cpu_names {
            match &n.target {
                Target::Generations(ids) if ids.contains(&g.id) => whole.push(n),
                Target::FamilyModels(fms)
                    if g.cpus.iter().any(|c| {
                        fms.iter()
                            .filter_map(|fm| FamilyModel::parse(fm))
                            .any(|fm| fm.matches(&c.family_model))
                    }) =>
                {
                    some.push(n)
                }
                _ => {}
            }
        }
        whole.extend(some);
        whole
    }

    /// The generations listing a CPU model for which `hit` holds, in model order.
    pub(crate) fn listing(&self, hit: impl Fn(&str) -> bool) -> Vec<&Generation> {
        self.generations
            .iter()
            .filter(|g| g.cpus.iter().any(|c| hit(&c.family_model)))
            .collect()
    }
}
