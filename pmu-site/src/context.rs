//! What every page is rendered from: the model with its lookups ([`Ctx`]: parents, children,
//! where `pmu-regs` has each register, the CPU names) and the site's paths ([`paths`]).

use crate::cpus::{self, SiteCpu};
use pmu_defs::Model;
use pmu_defs::load::cpu_names::Target;
use pmu_defs::model::Generation;
use std::collections::BTreeMap;

/// The generation the decoder opens with when the page address names none: the first
/// version with AnyThread and the TSX filters, whose event select is the classic example.
/// This is a user-interface default, not a hardware fact; when the model has no such
/// generation the decoder opens the first one with a general-purpose event select.
pub const DEFAULT_DECODER_GENERATION: &str = "intel-v3";

/// Model-wide lookups shared by every page.
pub(crate) struct Ctx<'m> {
    pub model: &'m Model,
    /// Direct children of each generation, in model order.
    pub children: BTreeMap<&'m str, Vec<&'m Generation>>,
    /// (generation, register) → where `pmu-regs` has it.
    pub rust: BTreeMap<(String, String), pmu_codegen::RegisterPath>,
    /// The vendors' event descriptions, when the site is built with them.
    pub descriptions: Option<&'m crate::Descriptions>,
    /// The CPU names with what they cover (`cpus.rs`), in the order of the CPU-name files.
    pub cpus: Vec<SiteCpu<'m>>,
}

impl<'m> Ctx<'m> {
    pub(crate) fn new(model: &'m Model) -> Self {
        let mut children: BTreeMap<&str, Vec<&Generation>> = BTreeMap::new();
        for g in &model.generations {
            if let Some(p) = &g.extends {
                children.entry(p.as_str()).or_default().push(g);
            }
        }
        let rust = pmu_codegen::register_paths(model)
            .into_iter()
            .map(|p| ((p.generation.clone(), p.register.clone()), p))
            .collect();
        Ctx {
            model,
            children,
            rust,
            descriptions: None,
            cpus: cpus::collect(model),
        }
    }

    /// The CPU names covering `g`: those standing for it whole first, then those standing
    /// for some of its CPU models (as [`Model::names_of`] orders them).
    pub fn cpus_of(&self, g: &Generation) -> Vec<&SiteCpu<'m>> {
        let whole = |c: &&SiteCpu<'_>| matches!(c.name.target, Target::Generations(_));
        let (mut first, rest): (Vec<_>, Vec<_>) =
            self.cpus.iter().filter(|c| c.covers(g)).partition(whole);
        first.extend(rest);
        first
    }

    /// What a generation's page, sidebar entry and search entry are called: the CPU names
    /// standing for it, then its id (`Sapphire Rapids — intel-sapphirerapids`); its own
    /// title when no CPU name covers it.
    pub fn title_of(&self, g: &Generation) -> String {
        let names: Vec<&str> = self
            .cpus_of(g)
            .iter()
            .map(|c| c.name.name.as_str())
            .collect();
        if names.is_empty() {
            g.title.clone()
        } else {
            format!("{} \u{2014} {}", names.join(", "), g.id)
        }
    }

    /// Top-level generations (no parent in the model), in model order.
    pub fn roots(&self) -> impl Iterator<Item = &'m Generation> + '_ {
        self.model.generations.iter().filter(|g| {
            g.extends
                .as_ref()
                .is_none_or(|p| self.model.generation(p).is_none())
        })
    }

    pub fn parent(&self, g: &Generation) -> Option<&'m Generation> {
        g.extends.as_ref().and_then(|p| self.model.generation(p))
    }

    pub fn children_of(&self, id: &str) -> &[&'m Generation] {
        self.children.get(id).map_or(&[], Vec::as_slice)
    }

    /// The decoder's opening generation and register key.
    pub fn decoder_default(&self) -> Option<(&'m Generation, String)> {
        let with_select = |g: &&Generation| {
            g.pmu
                .general
                .as_ref()
                .is_some_and(|s| g.register(&s.select).is_some())
        };
        let g = self
            .model
            .generation(DEFAULT_DECODER_GENERATION)
            .filter(with_select)
            .or_else(|| self.model.generations.iter().find(with_select))
            .or_else(|| self.model.generations.first())?;
        let reg = g
            .pmu
            .general
            .as_ref()
            .map(|s| s.select.clone())
            .filter(|s| g.register(s).is_some())
            .or_else(|| g.registers.first().map(|r| r.name.clone()))
            .unwrap_or_default();
        Some((g, reg))
    }
}

/// Site paths, all relative to the site root.
pub(crate) mod paths {
    use crate::escape::slug;

    pub fn gen_dir(id: &str) -> String {
        format!("gen/{}", slug(id))
    }
    pub fn generation(id: &str) -> String {
        format!("{}/index.html", gen_dir(id))
    }
    /// The page of a register defined in generation `id`.
    pub fn register(id: &str, reg: &str) -> String {
        format!("{}/reg/{}.html", gen_dir(id), slug(reg))
    }
    /// A register's row on its generation's page, where a register that generation inherits
    /// unchanged is shown (no page of its own: its definition's page has the rest).
    pub fn register_row(id: &str, reg: &str) -> String {
        format!("{}#reg-{}", generation(id), slug(reg))
    }
    /// Where generation `g` shows its register `reg`: the register's page when `g` defines
    /// it (or has no such register), else its row on `g`'s page.
    pub fn register_in(g: &pmu_defs::model::Generation, reg: &str) -> String {
        match g.register(reg) {
            Some(r) if r.defined_in != g.id => register_row(&g.id, reg),
            _ => register(&g.id, reg),
        }
    }
    pub fn diff(id: &str) -> String {
        format!("{}/diff.html", gen_dir(id))
    }
    pub fn events(id: &str) -> String {
        format!("{}/events.html", gen_dir(id))
    }
    /// The list of CPUs.
    pub const CPUS: &str = "cpus/index.html";
    /// A CPU's page, by its slug (`cpus.rs`).
    pub fn cpu(slug: &str) -> String {
        format!("cpus/{}.html", crate::escape::slug(slug))
    }
    pub fn data_gen(id: &str) -> String {
        format!("data/gen/{}.js", slug(id))
    }
    pub fn data_events(id: &str) -> String {
        format!("data/events/{}.js", slug(id))
    }
    pub fn md_gen(id: &str) -> String {
        format!("md/{}/README.md", slug(id))
    }
    pub fn md_diff(id: &str) -> String {
        format!("md/{}/diff.md", slug(id))
    }
    pub fn md_events(id: &str) -> String {
        format!("md/{}/events.md", slug(id))
    }
    /// `../../` for `gen/x/index.html`: the way back to the site root.
    pub fn root_of(path: &str) -> String {
        "../".repeat(path.matches('/').count())
    }
}
