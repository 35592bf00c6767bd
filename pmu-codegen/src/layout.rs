//! The layout pass: which register definitions emit the same module, and where that one copy
//! lives.
//!
//! Generations often define a register with exactly the layout another generation has: CPU
//! models that widen the same counters the same way (Arrow Lake and Lunar Lake Lion Cove,
//! Skymont and Clearwater Forest). Two definitions have one layout when the register pass
//! emits the same tokens for them, leaving out the two texts that name the generations using
//! the layout (the "Defined in" line and the unavailable-field messages, which list all of
//! them). Each layout is emitted once, in its *home*, and `pub use`d by every other
//! generation that has it:
//!
//! - a generation that is always compiled (not behind a Cargo feature, see
//!   [`is_gated`](super::is_gated)) when one uses the layout, the first in model order
//!   (usually the one defining it, as before);
//! - else a user that every other user extends (a microarchitecture generation and its CPU
//!   models: their features turn on its own), or the one user when only one has it;
//! - otherwise `<vendor>::shared::<first user>`: a module that `pmu-regs` compiles when any
//!   of the users' Cargo features is enabled.
//!
//! With [`Options::only`](super::Options::only), only the emitted generations' registers are
//! grouped. A register an emitted generation inherits from a built-in one has the layout
//! `pmu-regs` emitted for it, at its home there ([`Layout::builtin`]), and is never emitted
//! again; the emitted generations' own definitions are grouped among themselves.

use super::util::module_path;
use super::{Cx, is_gated};
use pmu_defs::model::{Generation, Model, Register};
use std::collections::BTreeMap;

pub(super) use pmu_defs::model::names::SHARED_MODULE as SHARED;

/// One distinct register layout: a register module the generator emits once.
pub(super) struct Layout<'a> {
    /// The generation of the first definition in model order.
    pub(super) generation: &'a Generation,
    /// That definition: what the register pass reads.
    pub(super) register: &'a Register,
    /// The generations whose own definition has this layout, in model order.
    pub(super) definers: Vec<&'a str>,
    /// Every generation with this layout (definers and generations inheriting it), in model
    /// order.
    pub(super) users: Vec<&'a Generation>,
    /// The module path of the copy: a user's (`["intel", "v3"]`) or a shared module
    /// (`["intel", "shared", "arrowlake_lioncove"]`).
    pub(super) home: Vec<String>,
    /// True when `home` is a shared module (emitted here).
    pub(super) shared: bool,
    /// True when `home` is a module of `pmu-regs` (a built-in generation's layout, see
    /// [`Options::only`](super::Options::only)): never emitted, reached at
    /// `{crate_path}::<home>`.
    pub(super) builtin: bool,
}

/// Every layout of the model, and which one each generation's register has.
pub(super) struct Layouts<'a> {
    /// In model order of their first definition.
    pub(super) all: Vec<Layout<'a>>,
    /// (generation id, register name) -> index into `all`.
    of: BTreeMap<(&'a str, &'a str), usize>,
}

impl<'a> Layouts<'a> {
    /// The layout of register `r` of generation `g`.
    pub(super) fn of(&self, g: &Generation, r: &Register) -> &Layout<'a> {
        &self.all[self.of[&(g.id.as_str(), r.name.as_str())]]
    }

    /// The shared modules, by module path, with the layouts each holds (in model order).
    pub(super) fn shared(&self) -> BTreeMap<&[String], Vec<&Layout<'a>>> {
        let mut out: BTreeMap<&[String], Vec<&Layout<'a>>> = BTreeMap::new();
        for l in self.all.iter().filter(|l| l.shared) {
            out.entry(l.home.as_slice()).or_default().push(l);
        }
        out
    }
}

impl<'a> Cx<'a> {
    /// Groups every register definition of the model by the module it emits.
    pub(super) fn layouts(&self) -> Layouts<'a> {
        let mut all: Vec<Layout<'a>> = Vec::new();
        let mut of: BTreeMap<(&'a str, &'a str), usize> = BTreeMap::new();
        // Emitted tokens (without the users' names) -> index into `all`.
        let mut by_tokens: BTreeMap<String, usize> = BTreeMap::new();
        // Built-in layouts: (home in pmu-regs, register name) -> index into `all`.
        let mut builtin: BTreeMap<(&[String], &str), usize> = BTreeMap::new();
        let mut keys = self.own_definition_keys();
        // Parents come first, so an inherited register's definition is already known.
        for g in self.model.generations.iter().filter(|g| self.emits(&g.id)) {
            for r in &g.registers {
                let home = (!self.emits(&r.defined_in))
                    .then(|| {
                        self.builtin_homes
                            .get(&(r.defined_in.clone(), r.name.clone()))
                    })
                    .flatten();
                let inherited = (r.defined_in != g.id)
                    .then(|| of.get(&(r.defined_in.as_str(), r.name.as_str())).copied())
                    .flatten();
                let i = match (home, inherited) {
                    (Some(home), _) => {
                        let owner = self.model.generation(&r.defined_in).unwrap_or(g);
                        let register = owner.register(&r.name).unwrap_or(r);
                        *builtin
                            .entry((home.as_slice(), r.name.as_str()))
                            .or_insert_with(|| {
                                all.push(Layout {
                                    generation: owner,
                                    register,
                                    definers: vec![&owner.id],
                                    users: Vec::new(),
                                    home: home.clone(),
                                    shared: false,
                                    builtin: true,
                                });
                                all.len() - 1
                            })
                    }
                    (None, Some(i)) => i,
                    (None, None) => {
                        let l = Layout {
                            generation: g,
                            register: r,
                            definers: Vec::new(),
                            users: Vec::new(),
                            home: Vec::new(),
                            shared: false,
                            builtin: false,
                        };
                        let key = (keys.remove(&(g.id.as_str(), r.name.as_str())))
                            .unwrap_or_else(|| self.register(&l).to_string());
                        let i = *by_tokens.entry(key).or_insert_with(|| {
                            all.push(l);
                            all.len() - 1
                        });
                        all[i].definers.push(&g.id);
                        i
                    }
                };
                all[i].users.push(g);
                of.insert((g.id.as_str(), r.name.as_str()), i);
            }
        }
        for l in all.iter_mut().filter(|l| !l.builtin) {
            (l.home, l.shared) = home(self.model, &l.users);
        }
        Layouts { all, of }
    }
}

impl<'a> Cx<'a> {
    /// The key of every register a generation defines itself, (generation id, register name)
    /// -> the register pass's text for it with no users named: computed on every core, as
    /// most of the layout pass's work is this.
    fn own_definition_keys(&self) -> BTreeMap<(&'a str, &'a str), String> {
        let own: Vec<(&'a Generation, &'a Register)> = (self.model.generations.iter())
            .filter(|g| self.emits(&g.id))
            .flat_map(|g| g.registers.iter().map(move |r| (g, r)))
            .filter(|(g, r)| r.defined_in == g.id)
            .collect();
        let seed = self.seed();
        let keys = seed.map(&own, &|&(generation, register), cx| {
            let l = Layout {
                generation,
                register,
                definers: Vec::new(),
                users: Vec::new(),
                home: Vec::new(),
                shared: false,
                builtin: false,
            };
            cx.register(&l).to_string()
        });
        (own.iter().map(|(g, r)| (g.id.as_str(), r.name.as_str())))
            .zip(keys)
            .collect()
    }
}

/// Where a layout with these users (model order, at least one) is emitted, and whether that
/// is a shared module: the first user always compiled; else a user every other user extends
/// (whose Cargo feature theirs turn on); else a shared module compiled with any of theirs.
fn home(model: &Model, users: &[&Generation]) -> (Vec<String>, bool) {
    if let Some(g) = users.iter().find(|g| !is_gated(model, g)) {
        return (module_path(&g.id), false);
    }
    let first = module_path(&users[0].id);
    let under_first = |u: &&Generation| u.id == users[0].id || u.ancestors.contains(&users[0].id);
    if users.iter().all(under_first) {
        return (first, false);
    }
    let (last, parent) = first.split_last().expect("a module path has a segment");
    let mut home = parent.to_vec();
    home.push(SHARED.to_string());
    home.push(last.clone());
    (home, true)
}
