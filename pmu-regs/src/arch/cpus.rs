//! Finding a CPU by the name its user knows, from the tables compiled in: [`find_cpu`] reads a
//! generation id (`intel-sapphirerapids`, or `sapphirerapids` without its vendor), a CPU name
//! or abbreviation of the definitions' CPU-name file ("Sapphire Rapids", "SPR", "Zen 4",
//! [`CPU_NAMES`](crate::arch::CPU_NAMES)) or a family/model (`06_8F`, `GenuineIntel-6-8F`,
//! `19h/11h`), whatever the Cargo features, without allocating and without the YAML.
//!
//! It reads a query as `pmu_defs::Model::find_cpu` does over loaded definitions (both spell
//! names and family/models through `pmu_vocab::cpu`; a test checks that they agree on every
//! name, id and CPU model of the shipped definitions).
//!
//! ```
//! use pmu_regs::arch::{CpuQuery, find_cpu};
//! let spr = find_cpu("SPR").unwrap();
//! assert!(matches!(spr.read_as, CpuQuery::Name(n) if n.name == "Sapphire Rapids"));
//! assert_eq!(spr.generations().collect::<Vec<_>>(), ["intel-sapphirerapids"]);
//! let f = find_cpu("06_8F").unwrap();
//! assert!(f.generations().any(|id| id == "intel-sapphirerapids"));
//! assert!(find_cpu("Pentium 4").is_none());
//! ```

use super::{CpuModel, Generation, MODEL_SPECS, ModelSpec, Vendor};
use pmu_vocab::cpu::{FamilyModel, same_name};

/// A name of a CPU from the definitions' CPU-name files (`cpu-names:`), compiled in
/// ([`CPU_NAMES`](crate::arch::CPU_NAMES)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuName {
    /// The name as people write it (`Sapphire Rapids`).
    pub name: &'static str,
    /// Other spellings (`SPR`).
    pub also: &'static [&'static str],
    /// What the name stands for.
    pub target: CpuNameTarget,
}

/// What a [`CpuName`] stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuNameTarget {
    /// Whole generations, by id (several: a hybrid part's core types).
    Generations(&'static [&'static str]),
    /// Some CPU models, as `cpus:` writes them (`GenuineIntel-6-B7`).
    FamilyModels(&'static [&'static str]),
}

impl CpuName {
    /// True when `query` is this name or one of its other spellings (case, spaces, `-` and
    /// `_` aside).
    pub fn is_named(&self, query: &str) -> bool {
        same_name(self.name, query) || self.also.iter().any(|a| same_name(a, query))
    }
}

/// How [`find_cpu`] read a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuQuery {
    /// A generation id, compiled in or not (`intel-v5`, `intel-sapphirerapids`).
    Generation(&'static str),
    /// A CPU name or one of its other spellings.
    Name(&'static CpuName),
    /// A family and model.
    FamilyModel {
        /// The vendor the query named (`GenuineIntel-6-8F`), if it named one.
        vendor: Option<Vendor>,
        /// The display family.
        family: u32,
        /// The display model.
        model: u32,
    },
}

impl core::fmt::Display for CpuQuery {
    /// How the query was read: `generation intel-skylake`, `CPU name "Sapphire Rapids"`,
    /// `family 06h model 8Fh`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CpuQuery::Generation(id) => write!(f, "generation `{id}`"),
            CpuQuery::Name(n) => write!(f, "CPU name \"{}\"", n.name),
            CpuQuery::FamilyModel { family, model, .. } => {
                write!(f, "family {family:02X}h model {model:02X}h")
            }
        }
    }
}

/// What [`find_cpu`] found: how it read the query, and the generations it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FoundCpu {
    /// How the query was read.
    pub read_as: CpuQuery,
}

fn vendor_string(v: Vendor) -> &'static str {
    match v {
        Vendor::Intel => "GenuineIntel",
        Vendor::Amd => "AuthenticAMD",
    }
}

/// True when the `cpus:` entry `c` of a generation of `vendor` covers `fm`.
fn covers(fm: &FamilyModel<'_>, vendor: Vendor, c: &CpuModel) -> bool {
    c.models()
        .any(|model| fm.is(Some(vendor_string(vendor)), c.family, model))
}

impl FoundCpu {
    /// The ids of the generations the query names, compiled in or not ([`Generation::from_id`]
    /// says which are): one for an id, the name's generations, or every model generation
    /// listing the CPU model (in the definitions' order).
    pub fn generations(&self) -> impl Iterator<Item = &'static str> + use<> {
        let (one, ids, names_models) = match self.read_as {
            CpuQuery::Generation(id) => (Some(id), &[][..], None),
            CpuQuery::Name(CpuName {
                target: CpuNameTarget::Generations(ids),
                ..
            }) => (None, *ids, None),
            CpuQuery::Name(CpuName {
                target: CpuNameTarget::FamilyModels(fms),
                ..
            }) => (None, &[][..], Some(Listed::Models(fms))),
            CpuQuery::FamilyModel {
                vendor,
                family,
                model,
            } => (
                None,
                &[][..],
                Some(Listed::One {
                    vendor,
                    family,
                    model,
                }),
            ),
        };
        one.into_iter().chain(ids.iter().copied()).chain(
            MODEL_SPECS
                .iter()
                .filter(move |spec| names_models.is_some_and(|l| l.lists(spec)))
                .map(|spec| spec.id),
        )
    }

    /// The generations the query names that this build compiles in.
    pub fn compiled(&self) -> impl Iterator<Item = Generation> + use<> {
        self.generations().filter_map(Generation::from_id)
    }
}

/// The CPU models a query stands for.
#[derive(Clone, Copy)]
enum Listed {
    Models(&'static [&'static str]),
    One {
        vendor: Option<Vendor>,
        family: u32,
        model: u32,
    },
}

impl Listed {
    /// True when the model generation `spec` lists one of these CPU models.
    fn lists(&self, spec: &ModelSpec) -> bool {
        spec.cpus.iter().any(|c| match *self {
            Listed::Models(fms) => fms
                .iter()
                .filter_map(|s| FamilyModel::parse(s))
                .any(|fm| covers(&fm, spec.vendor, c)),
            Listed::One {
                vendor,
                family,
                model,
            } => {
                let fm = FamilyModel {
                    vendor: vendor.map(vendor_string),
                    family,
                    model,
                };
                covers(&fm, spec.vendor, c)
            }
        })
    }
}

/// The generation ids compiled in and those of every model generation, compiled in or not.
fn all_ids() -> impl Iterator<Item = &'static str> {
    Generation::ALL
        .iter()
        .map(|g| g.id())
        .chain(MODEL_SPECS.iter().map(|m| m.id))
}

/// The generations a user's query names (see the module docs); `None` when nothing matches
/// (or a name's CPU models are listed by no generation).
pub fn find_cpu(query: &str) -> Option<FoundCpu> {
    let q = query.trim();
    let id = all_ids()
        .find(|id| *id == q)
        .or_else(|| all_ids().find(|id| id.split_once('-').is_some_and(|(_, rest)| rest == q)));
    if let Some(id) = id {
        return Some(FoundCpu {
            read_as: CpuQuery::Generation(id),
        });
    }
    if let Some(n) = super::CPU_NAMES.iter().find(|n| n.is_named(q)) {
        let found = FoundCpu {
            read_as: CpuQuery::Name(n),
        };
        return found.generations().next().is_some().then_some(found);
    }
    let fm = FamilyModel::parse(q)?;
    let vendor = match fm.vendor {
        None => None,
        Some(v) if v == vendor_string(Vendor::Intel) => Some(Vendor::Intel),
        Some(v) if v == vendor_string(Vendor::Amd) => Some(Vendor::Amd),
        // A vendor no generation is written for (Hygon's parts are listed as AMD's).
        Some(_) => return None,
    };
    let found = FoundCpu {
        read_as: CpuQuery::FamilyModel {
            vendor,
            family: fm.family,
            model: fm.model,
        },
    };
    found.generations().next().is_some().then_some(found)
}
