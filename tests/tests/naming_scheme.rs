//! The one naming scheme of the generated register API (ARCHITECTURE.md "One naming scheme", the table in
//! `pmu_defs::model::names::element_methods`), checked on every register of every shipped
//! generation: the public methods of each generated `Value` and `Builder` are exactly the
//! ones the table gives for the register's fields, computed here from the model by the
//! table's rules, so no register deviates and no thing has two spellings.
//!
//! | what | method |
//! | --- | --- |
//! | read a field | `x()` (`get_x()` for a write-1 bit) |
//! | read its named value | `x_value()` |
//! | set a compile-time constant | `with_x::<V>()` |
//! | set a run-time value, typed | `with_x(bool)`, `with_x_value(X::Y)` |
//! | set a run-time value, checked | `try_with_x(v)` |
//! | write 1 to a write-1 bit | `clear_x()` / `set_x()` |
//! | element `i` of an array | `x_at(i)`, `try_with_x_at(i, v)` / `try_clear_x_at(i)` |
//!
//! Besides: `Value` constructors and `build`, `Builder::at::<N>()` / `try_at(i)` on a family
//! with placement, and a field valid only on some instances has its setter only on a placed
//! `Builder`.

use pmu_codegen::{Options, generate};
use pmu_defs::Loader;
use pmu_defs::model::names;
use pmu_defs::model::{Access, Field, Generation, Register};
use std::collections::BTreeSet;

/// The methods of `Value` that are not a field's.
const VALUE_BASICS: &[&str] = &[
    "new",
    "from_bits",
    "try_from_bits",
    "from_raw_read",
    "bits",
    "to_local",
    "build",
    "try_build",
    "RESET",
    "RESERVED_MASK",
];
/// The methods of `Builder` that are not a field's setter.
const BUILDER_BASICS: &[&str] = &["build", "try_build", "at", "try_at"];

/// What the table gives for register `r`: (`Value` methods, `Builder` methods).
fn expected(r: &Register) -> (BTreeSet<String>, BTreeSet<String>) {
    let reg_writable = r.access.writable();
    let (mut value, mut builder) = (BTreeSet::new(), BTreeSet::new());
    for f in &r.fields {
        let writable = reg_writable && f.access.writable();
        let w1 = matches!(f.access, Access::WriteOneToClear | Access::WriteOneToSet);
        for e in names::element_names(f) {
            let x = names::escape(&names::stem(&e));
            value.insert(if w1 { format!("get_{x}") } else { x.clone() });
            if !f.values.is_empty() {
                value.insert(format!("{x}_value"));
            }
            if !writable || w1 {
                continue;
            }
            let mut setters = vec![format!("with_{x}")];
            if f.width > 1 {
                setters.push(format!("try_with_{x}"));
                if !f.values.is_empty() {
                    setters.push(format!("with_{x}_value"));
                }
            }
            // A field valid only on some instances (`instances:`) is set only on a placed
            // `Builder` (on `Value` its setter is a hidden stub that fails to compile).
            if f.instances.is_none() {
                value.extend(setters.iter().cloned());
            }
            builder.extend(setters);
        }
        if f.array.is_some() {
            let x = f.name.to_ascii_lowercase();
            value.insert(if w1 {
                format!("get_{x}_at")
            } else {
                format!("{x}_at")
            });
            if writable && !w1 {
                value.insert(format!("try_with_{x}_at"));
                builder.insert(format!("try_with_{x}_at"));
            }
        }
    }
    (value, builder)
}

/// Write-1 setters are verbs (`clear_x`, `set_x`, `try_clear_x_at`): the only `set_` names.
fn write1_setter(r: &Register, name: &str) -> bool {
    let w1: Vec<&Field> = r
        .fields
        .iter()
        .filter(|f| matches!(f.access, Access::WriteOneToClear | Access::WriteOneToSet))
        .collect();
    !w1.is_empty()
        && ["clear_", "set_", "try_clear_", "try_set_"]
            .iter()
            .any(|p| name.starts_with(p))
}

fn ident_text(i: &proc_macro2::Ident) -> String {
    let s = i.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

/// The public, documented (not `#[doc(hidden)]`) inherent items of `ty` in `items`.
fn public(items: &[syn::Item], ty: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for item in items {
        let syn::Item::Impl(i) = item else { continue };
        let syn::Type::Path(p) = &*i.self_ty else {
            continue;
        };
        if i.trait_.is_some() || p.path.segments.last().is_none_or(|s| s.ident != ty) {
            continue;
        }
        for it in &i.items {
            let (name, attrs, vis) = match it {
                syn::ImplItem::Fn(f) => (&f.sig.ident, &f.attrs, &f.vis),
                syn::ImplItem::Const(c) => (&c.ident, &c.attrs, &c.vis),
                _ => continue,
            };
            let hidden = attrs.iter().any(|a| {
                a.path().is_ident("doc")
                    && matches!(&a.meta, syn::Meta::List(l) if l.tokens.to_string() == "hidden")
            });
            if matches!(vis, syn::Visibility::Public(_)) && !hidden {
                out.insert(ident_text(name));
            }
        }
    }
    out
}

/// Every register module of the generated code: (module path, its items).
fn register_modules<'a>(
    items: &'a [syn::Item],
    path: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, &'a [syn::Item])>,
) {
    for item in items {
        let syn::Item::Mod(m) = item else { continue };
        let Some((_, inner)) = &m.content else {
            continue;
        };
        path.push(ident_text(&m.ident));
        let has_value = inner
            .iter()
            .any(|i| matches!(i, syn::Item::Struct(s) if s.ident == "Value"));
        if has_value {
            out.push((path.clone(), inner));
        } else {
            register_modules(inner, path, out);
        }
        path.pop();
    }
}

/// The register a module at `path` (`intel::v3::IA32_PERFEVTSEL`, or a shared layout
/// `intel::shared::arrowlake_lioncove::IA32_PMC`) holds: the first generation of that module
/// path, or of the shared module's first user, with that register.
fn register_of<'a>(gens: &'a [Generation], path: &[String]) -> Option<&'a Register> {
    let (reg, module) = path.split_last()?;
    let module: Vec<String> = module
        .iter()
        .filter(|s| *s != names::SHARED_MODULE)
        .cloned()
        .collect();
    gens.iter()
        .filter(|g| names::module_path(&g.id) == module)
        .find_map(|g| {
            g.registers
                .iter()
                .find(|r| names::register_module(&r.name) == *reg)
        })
}

#[test]
fn every_register_follows_the_naming_scheme() {
    let loaded = Loader::new().with_defaults().finish();
    let code = generate(&loaded.model, &Options::internal());
    let file: syn::File = syn::parse2(code).expect("the generated code parses");
    let mut modules = Vec::new();
    register_modules(&file.items, &mut Vec::new(), &mut modules);
    let mut deviations = Vec::new();
    let mut checked = 0;
    for (path, items) in &modules {
        let r = register_of(&loaded.model.generations, path)
            .unwrap_or_else(|| panic!("no register in the model for module {path:?}"));
        checked += 1;
        let (value, builder) = expected(r);
        let where_ = path.join("::");
        for name in public(items, "Value") {
            let ok = value.contains(&name)
                || VALUE_BASICS.contains(&name.as_str())
                || write1_setter(r, &name);
            if !ok {
                deviations.push(format!("{where_}::Value::{name}"));
            }
        }
        for name in &value {
            if !public(items, "Value").contains(name) {
                deviations.push(format!("{where_}::Value: missing `{name}`"));
            }
        }
        for name in public(items, "Builder") {
            let ok = builder.contains(&name)
                || BUILDER_BASICS.contains(&name.as_str())
                || write1_setter(r, &name);
            if !ok {
                deviations.push(format!("{where_}::Builder::{name}"));
            }
        }
        // No second spelling of a setter survives anywhere.
        for name in public(items, "Value")
            .iter()
            .chain(&public(items, "Builder"))
        {
            if name.starts_with("try_set_") && !write1_setter(r, name) {
                deviations.push(format!("{where_}: second spelling `{name}`"));
            }
        }
    }
    // Every distinct layout of the shipped definitions (55 when this was written).
    assert!(checked >= 50, "only {checked} register modules found");
    assert!(
        deviations.is_empty(),
        "generated methods that deviate from the naming scheme:\n{}",
        deviations.join("\n")
    );
}
