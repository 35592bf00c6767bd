//! The identifier rule, checked: every Rust name the generator derives from a YAML name
//! ([`crate::model::names`]) is computed here per Rust scope, and three mistakes are reported at the
//! YAML name:
//!
//! - `invalid-name`: the name is no Rust identifier (a generation id ending in `-` gives an
//!   empty module name);
//! - `reserved-name`: the generated code already uses the name in that scope (its own items,
//!   the prelude and primitive names it writes unqualified, its local variables);
//! - `name-collision`: two YAML names give one Rust name (after case conversion and escaping),
//!   or one YAML name gives two items of one name; the error is at the later name in source
//!   order, with a label at the earlier.
//!
//! Keywords are not errors: [`names::escape`] writes them raw (`r#gen`) or with a trailing `_`
//! (`self_`), and the escaped names take part in the collision checks (`self` and `self_`).

use crate::diag::{Diagnostic, Diagnostics};
use crate::model::names::{self, BOTH, Ns, PRELUDE, PRIMITIVES, Reserved, TYPE, VALUE};
use crate::model::{CpuidLeaf, Event, Field, Generation, Model, Register};
use crate::source::Span;
use std::collections::{BTreeMap, HashMap, HashSet};

/// What kind of YAML name a Rust name comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Generation,
    Register,
    Field,
    Value,
    Event,
    CpuidLeaf,
    CpuidField,
}

impl Kind {
    fn one(self) -> &'static str {
        match self {
            Kind::Generation => "generation id",
            Kind::Register => "register",
            Kind::Field => "field",
            Kind::Value => "value",
            Kind::Event => "event",
            Kind::CpuidLeaf => "CPUID leaf",
            Kind::CpuidField => "CPUID field",
        }
    }

    fn many(self) -> &'static str {
        match self {
            Kind::Generation => "generation ids",
            Kind::Register => "registers",
            Kind::Field => "fields",
            Kind::Value => "values",
            Kind::Event => "events",
            Kind::CpuidLeaf => "CPUID leaves",
            Kind::CpuidField => "CPUID fields",
        }
    }
}

/// A YAML name and where it is written.
#[derive(Clone, Copy, Debug)]
struct Origin<'a> {
    kind: Kind,
    name: &'a str,
    span: Span,
}

impl<'a> Origin<'a> {
    fn new(kind: Kind, name: &'a str, span: Span) -> Self {
        Origin { kind, name, span }
    }
}

/// One Rust item a YAML name gives.
#[derive(Clone, Debug)]
struct Item<'a> {
    origin: Origin<'a>,
    /// What the item is: "module", "getter", "type alias", ...
    role: &'static str,
    /// Its escaped name.
    rust: String,
    ns: &'static [Ns],
    /// A vendor module: every generation of the vendor shares it.
    shared: bool,
}

/// Who has a name in a scope.
enum Owner<'a> {
    Reserved(&'static str),
    Item(Item<'a>),
}

/// The names of one Rust scope: reserved ones, then the items added in source order.
struct Scope<'a> {
    /// "in the module of register `SEL`".
    what: String,
    reserved: Vec<Reserved>,
    items: Vec<Item<'a>>,
}

impl<'a> Scope<'a> {
    fn new(what: impl Into<String>, reserved: &[&[Reserved]]) -> Self {
        Scope {
            what: what.into(),
            reserved: reserved.iter().flat_map(|r| r.iter().copied()).collect(),
            items: Vec::new(),
        }
    }

    /// Reserves the primitive type names too.
    fn with_primitives(mut self) -> Self {
        self.reserved
            .extend(PRIMITIVES.iter().map(|p| (*p, TYPE, "a primitive type")));
        self
    }

    fn add(&mut self, origin: Origin<'a>, role: &'static str, rust: String, ns: &'static [Ns]) {
        self.items.push(Item {
            origin,
            role,
            rust,
            ns,
            shared: false,
        });
    }

    /// A vendor module of generation `origin`: the generations of one vendor share it, and
    /// each clashes with whatever else has its name.
    fn add_vendor(&mut self, origin: Origin<'a>, rust: String) {
        self.items.push(Item {
            origin,
            role: "vendor module",
            rust,
            ns: TYPE,
            shared: true,
        });
    }

    /// Checks the scope: each item against the reserved names and the items before it in
    /// source order.
    fn check(mut self, pass: &mut Pass<'_>) {
        self.items.sort_by_key(|i| i.origin.span);
        let mut taken: HashMap<(Ns, &str), Owner<'_>> = HashMap::new();
        for (name, ns, why) in &self.reserved {
            for n in *ns {
                taken.insert((*n, name), Owner::Reserved(why));
            }
        }
        for item in &self.items {
            if !names::is_identifier(&item.rust) {
                pass.invalid(item, &self.what);
                continue;
            }
            let clash = item
                .ns
                .iter()
                .find_map(|n| taken.get(&(*n, item.rust.as_str())));
            match clash {
                Some(Owner::Reserved(why)) => pass.reserved(item, &self.what, why),
                Some(Owner::Item(first)) if first.shared && item.shared => {}
                Some(Owner::Item(first)) => pass.collision(first, item, &self.what),
                None => {
                    for n in item.ns {
                        taken.insert((*n, item.rust.as_str()), Owner::Item(item.clone()));
                    }
                }
            }
        }
    }
}

/// The diagnostics sink, and the YAML names already reported (one error per name).
struct Pass<'d> {
    diags: &'d mut Diagnostics,
    reported: HashSet<Span>,
}

impl Pass<'_> {
    fn first_report(&mut self, span: Span) -> bool {
        self.reported.insert(span)
    }

    fn invalid(&mut self, item: &Item<'_>, scope: &str) {
        let o = item.origin;
        if !self.first_report(o.span) {
            return;
        }
        let message = if item.rust.is_empty() {
            format!(
                "{} `{}` gives an empty Rust name for its {} {scope}",
                o.kind.one(),
                o.name,
                item.role
            )
        } else {
            format!(
                "{} `{}` gives the Rust name `{}` for its {} {scope}, which is not an identifier",
                o.kind.one(),
                o.name,
                item.rust,
                item.role
            )
        };
        let label = if item.rust.is_empty() {
            format!("its {} would have no name", item.role)
        } else {
            format!("its {} would be `{}`", item.role, item.rust)
        };
        let mut d = Diagnostic::error("invalid-name", message, o.span).with_label(label);
        if o.kind == Kind::Generation {
            d = d.with_help(
                "the part after the first `-` is the generation's module inside its \
                 vendor's (`intel-v4` is `intel::v4`): end the id with a letter or digit",
            );
        }
        self.diags.push(d);
    }

    fn reserved(&mut self, item: &Item<'_>, scope: &str, why: &str) {
        let o = item.origin;
        if !self.first_report(o.span) {
            return;
        }
        self.diags.push(
            Diagnostic::error(
                "reserved-name",
                format!(
                    "{} `{}` gives the Rust name `{}` for its {} {scope}, where the generated \
                     code uses it for {why}",
                    o.kind.one(),
                    o.name,
                    item.rust,
                    item.role
                ),
                o.span,
            )
            .with_label("reserved name")
            .with_help(format!("rename the {}", o.kind.one())),
        );
    }

    fn collision(&mut self, first: &Item<'_>, second: &Item<'_>, scope: &str) {
        let (a, b) = (first.origin, second.origin);
        // One name listed twice is a `duplicate-name`, reported where lists are merged.
        if a.kind == b.kind && a.name == b.name && a.span != b.span {
            return;
        }
        if !self.first_report(b.span) {
            return;
        }
        let rust = &second.rust;
        let same = a.span == b.span && a.name == b.name;
        let d = if same {
            Diagnostic::error(
                "name-collision",
                format!(
                    "{} `{}` gives the Rust name `{rust}` twice {scope}: for its {} and its {}",
                    b.kind.one(),
                    b.name,
                    first.role,
                    second.role
                ),
                b.span,
            )
            .with_label(format!(
                "its {} and its {} are both `{rust}`",
                first.role, second.role
            ))
            .with_help(format!(
                "rename the {} (its {} is written as in the YAML, its {} in CamelCase)",
                b.kind.one(),
                first.role,
                second.role
            ))
        } else {
            let both = if a.kind == b.kind {
                format!("{} `{}` and `{}`", a.kind.many(), a.name, b.name)
            } else {
                format!(
                    "{} `{}` and {} `{}`",
                    a.kind.one(),
                    a.name,
                    b.kind.one(),
                    b.name
                )
            };
            let roles = if first.role == second.role {
                format!("a {} each", first.role)
            } else {
                format!(
                    "the {} of `{}`, the {} of `{}`",
                    first.role, a.name, second.role, b.name
                )
            };
            Diagnostic::error(
                "name-collision",
                format!("{both} both give the Rust name `{rust}` {scope} ({roles})"),
                b.span,
            )
            .with_label(format!("its {} is `{rust}`", second.role))
            .with_secondary(a.span, format!("its {} is `{rust}` too", first.role))
            .with_note(
                "Rust names are derived from YAML names: CamelCase for types and variants, \
                 lower case for methods, keywords escaped (`self_`, `r#gen`)",
            )
        };
        self.diags.push(d);
    }
}

/// The model-wide scopes: the crate root and the vendor modules (generation modules), and
/// the marker types re-exported beside `Generation`.
pub(super) fn model(model: &Model, diags: &mut Diagnostics) {
    let mut pass = Pass {
        diags,
        reported: HashSet::new(),
    };
    let mut root = Scope::new("at the crate root", &[names::RESERVED_CRATE_ROOT]);
    let mut vendors: BTreeMap<String, Scope<'_>> = BTreeMap::new();
    let mut markers = Scope::new(
        "among the generations' marker types",
        &[names::RESERVED_MARKERS],
    );
    let mut gens: Vec<&Generation> = model.generations.iter().collect();
    gens.sort_by_key(|g| g.span);
    for g in gens {
        let o = Origin::new(Kind::Generation, &g.id, g.span);
        let path = names::module_path(&g.id);
        match path.as_slice() {
            [vendor, module] => {
                root.add_vendor(o, vendor.clone());
                vendors
                    .entry(vendor.clone())
                    .or_insert_with(|| {
                        Scope::new(format!("in module `{vendor}`"), &[names::RESERVED_VENDOR])
                    })
                    .add(o, "module", module.clone(), TYPE);
            }
            _ => root.add(o, "module", path.join("::"), TYPE),
        }
        markers.add(o, "marker type", names::marker_type(&g.id), BOTH);
    }
    root.check(&mut pass);
    for (_, s) in vendors {
        s.check(&mut pass);
    }
    markers.check(&mut pass);
}

/// The scopes of one generation: its module, each register's module and `Value` methods,
/// the tock-registers field modules and value enums, the CPUID modules and the event enums.
pub(super) fn generation(g: &Generation, diags: &mut Diagnostics) {
    let mut pass = Pass {
        diags,
        reported: HashSet::new(),
    };
    let gen_o = Origin::new(Kind::Generation, &g.id, g.span);
    let mut module = Scope::new(
        format!("in the module of generation `{}`", g.id),
        &[names::RESERVED_GENERATION, PRELUDE],
    )
    .with_primitives();
    module.add(gen_o, "marker type", names::marker_type(&g.id), BOTH);
    for r in &g.registers {
        let o = Origin::new(Kind::Register, &r.name, r.span);
        module.add(o, "module", names::register_module(&r.name), TYPE);
        module.add(o, "type alias", names::register_alias(&r.name), TYPE);
    }
    module.check(&mut pass);
    for r in &g.registers {
        register(r, &mut pass);
    }
    cpuid(g, &mut pass);
    events(g, &mut pass);
}

/// A register's module, the methods of its `Value`, its fields' tock-registers modules and
/// value enums.
fn register(r: &Register, pass: &mut Pass<'_>) {
    let ro = Origin::new(Kind::Register, &r.name, r.span);
    let mut module = Scope::new(
        format!("in the module of register `{}`", r.name),
        &[names::RESERVED_REGISTER, PRELUDE],
    )
    .with_primitives();
    module.add(ro, "marker type", names::register_module(&r.name), BOTH);
    for f in &r.fields {
        let o = Origin::new(Kind::Field, &f.name, f.span);
        for m in names::field_markers(f) {
            module.add(o, "field marker type", names::escape(&m), TYPE);
        }
        if !f.values.is_empty() {
            module.add(o, "value enum", names::value_enum(&f.name), TYPE);
            values(f, &names::value_enum(&f.name), pass, |v| {
                names::value_variant(v)
            });
        }
        for e in names::element_names(f) {
            for t in names::tock_names(&e, f.bits.len()) {
                module.add(o, "tock-registers field", t, VALUE);
            }
        }
    }
    module.check(pass);
}

/// The variants of the enum `enum_name` of field `f`'s named values.
fn values(f: &Field, enum_name: &str, pass: &mut Pass<'_>, variant: impl Fn(&str) -> String) {
    let mut scope = Scope::new(format!("in the enum `{enum_name}` of `{}`", f.name), &[]);
    for v in &f.values {
        let o = Origin::new(Kind::Value, &v.name, v.span);
        scope.add(o, "variant", variant(&v.name), VALUE);
    }
    scope.check(pass);
}

/// The `cpuid` module: a module per leaf, and in each its value types, enums and getters.
fn cpuid(g: &Generation, pass: &mut Pass<'_>) {
    let mut module = Scope::new(format!("in the `cpuid` module of `{}`", g.id), &[]);
    for c in &g.cpuid {
        let o = Origin::new(Kind::CpuidLeaf, &c.name, c.span);
        module.add(o, "module", names::cpuid_leaf_module(&c.name), TYPE);
        leaf(c, pass);
    }
    module.check(pass);
}

fn leaf(c: &CpuidLeaf, pass: &mut Pass<'_>) {
    let mut module = Scope::new(
        format!("in the module of CPUID leaf `{}`", c.name),
        &[names::RESERVED_CPUID_LEAF],
    );
    for reg in &c.registers {
        let ty = names::cpuid_register_type(&reg.register);
        let mut methods = Scope::new(
            format!("among the methods of `{}::{ty}`", c.name),
            &[names::RESERVED_CPUID_METHODS],
        );
        for f in &reg.fields {
            let o = Origin::new(Kind::CpuidField, &f.name, f.span);
            if !f.values.is_empty() {
                let en = names::cpuid_value_enum(&reg.register, &f.name);
                module.add(o, "value enum", en.clone(), TYPE);
                values(f, &en, pass, names::value_variant);
            }
            for e in names::element_names(f) {
                for (m, name) in names::cpuid_getters(f, &e) {
                    methods.add(o, m.role(), name, VALUE);
                }
            }
        }
        methods.check(pass);
    }
    module.check(pass);
}

/// The variants of `ArchEvent` (events with a CPUID bit) and of the model's `Event`.
fn events(g: &Generation, pass: &mut Pass<'_>) {
    let mut arch = Scope::new(
        format!("in `ArchEvent` of `{}`", g.id),
        &[names::RESERVED_EVENT_VARIANTS],
    );
    let mut model = Scope::new(
        format!("in the `Event` enum of `{}`", g.id),
        &[names::RESERVED_EVENT_VARIANTS],
    );
    for e in &g.events {
        let o = Origin::new(Kind::Event, &e.name, e.span);
        let scope = if is_arch(e) { &mut arch } else { &mut model };
        scope.add(o, "variant", names::event_variant(&e.name), VALUE);
    }
    arch.check(pass);
    model.check(pass);
}

fn is_arch(e: &Event) -> bool {
    e.cpuid_bit.is_some()
}
