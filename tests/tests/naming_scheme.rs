//! The one register API (ARCHITECTURE.md "One register API"), checked on every register
//! of every shipped generation: a register module holds data, not methods. Each field element
//! is a marker type of the element's name (`UMASK`, `EN_PMC0`) implementing
//! `pmu_regs::reg::Field` with its row of `FIELDS` as `INDEX`, and `Named` exactly when it has named values; each field array a marker of the
//! array's name implementing `Array`; `Value` and `Builder` are aliases of the generic
//! `pmu_regs::reg` types, and no register module has an inherent `impl`, so no field has a
//! method of its own and nothing has two spellings.
//!
//! | what | spelling |
//! | --- | --- |
//! | read a field | `get::<F>()`, `is_set::<F>()` (one bit), `named::<F>()` |
//! | set a compile-time constant | `with::<F, V>()` |
//! | set a run-time value | `with_bit::<F>(bool)`, `with_value::<F>(X::Y)`, `try_with::<F>(v)` |
//! | element `i` of an array | `get_at::<A>(i)`, `try_with_at::<A>(i, v)` |

use pmu_codegen::{Options, generate};
use pmu_defs::Loader;
use pmu_defs::model::names;
use pmu_defs::model::{Generation, Register};
use std::collections::{BTreeMap, BTreeSet};

/// The field traits a marker must implement, by marker name: what the model says of `r`.
fn expected(r: &Register) -> BTreeMap<String, BTreeSet<&'static str>> {
    let mut out = BTreeMap::new();
    let mut index = 0usize;
    for f in &r.fields {
        for e in names::element_names(f) {
            let mut traits = BTreeSet::from(["Field"]);
            if !f.values.is_empty() {
                traits.insert("Named");
            }
            out.insert(format!("{}#{index}", names::escape(&e)), traits);
            index += 1;
        }
        if f.array.is_some() {
            out.insert(names::escape(&f.name), BTreeSet::from(["Array"]));
        }
    }
    out
}

/// The `pmu_regs::reg` traits each type of a register module implements (`Field` with its
/// `INDEX` as `NAME#INDEX`), leaving out the hidden stubs (`MISSING`).
fn implemented(items: &[syn::Item]) -> BTreeMap<String, BTreeSet<&'static str>> {
    let mut out: BTreeMap<String, BTreeSet<&'static str>> = BTreeMap::new();
    let mut index: BTreeMap<String, String> = BTreeMap::new();
    let mut stubs = BTreeSet::new();
    for item in items {
        let syn::Item::Impl(i) = item else { continue };
        let (Some((tr, _)), syn::Type::Path(p)) = (&i.trait_, &*i.self_ty) else {
            continue;
        };
        let Some(ty) = p.path.get_ident().map(ident_text) else {
            continue;
        };
        let Some(last) = tr.segments.last() else {
            continue;
        };
        let name = match last.ident.to_string().as_str() {
            "Field" => "Field",
            "Named" => "Named",
            "Array" => "Array",
            _ => continue,
        };
        if name == "Field" {
            for it in &i.items {
                let syn::ImplItem::Const(c) = it else {
                    continue;
                };
                let value = match &c.expr {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Int(n),
                        ..
                    }) => n.base10_digits().to_owned(),
                    _ => String::new(),
                };
                match c.ident.to_string().as_str() {
                    "INDEX" => {
                        index.insert(ty.clone(), value);
                    }
                    "MISSING" => {
                        stubs.insert(ty.clone());
                    }
                    _ => {}
                }
            }
        }
        out.entry(ty).or_default().insert(name);
    }
    out.into_iter()
        .filter(|(ty, _)| !stubs.contains(ty))
        .map(|(ty, traits)| match index.get(&ty) {
            Some(i) => (format!("{ty}#{i}"), traits),
            None => (ty, traits),
        })
        .collect()
}

fn ident_text(i: &proc_macro2::Ident) -> String {
    let s = i.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

/// Whether `items` has an inherent `impl` of a type other than a named-value enum (whose
/// `value()` / `from_value()` are the enum's own) or the alias-address MSR type
/// (`AliasIndexed`, addressing, not a field).
fn has_inherent_impl(items: &[syn::Item]) -> bool {
    let mut own: BTreeSet<String> = (items.iter())
        .filter_map(|i| match i {
            syn::Item::Enum(e) if !e.variants.is_empty() => Some(ident_text(&e.ident)),
            _ => None,
        })
        .collect();
    own.insert("AliasIndexed".to_owned());
    items.iter().any(|i| match i {
        syn::Item::Impl(i) if i.trait_.is_none() => match &*i.self_ty {
            syn::Type::Path(p) => p
                .path
                .segments
                .last()
                .is_none_or(|t| !own.contains(&ident_text(&t.ident))),
            _ => true,
        },
        _ => false,
    })
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
            .any(|i| matches!(i, syn::Item::Type(t) if t.ident == "Value"));
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
fn every_register_is_data_over_the_one_api() {
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
        let where_ = path.join("::");
        let (want, have) = (expected(r), implemented(items));
        for (marker, traits) in &want {
            match have.get(marker) {
                Some(t) if t == traits => {}
                Some(t) => {
                    deviations.push(format!("{where_}::{marker}: {t:?}, expected {traits:?}"))
                }
                None => deviations.push(format!("{where_}: no marker {marker} ({traits:?})")),
            }
        }
        for marker in have.keys().filter(|m| !want.contains_key(*m)) {
            deviations.push(format!("{where_}: marker {marker} not in the model"));
        }
        if has_inherent_impl(items) {
            deviations.push(format!("{where_}: an inherent impl (a method of its own)"));
        }
    }
    // Every distinct layout of the shipped definitions (55 when this was written).
    assert!(checked >= 50, "only {checked} register modules found");
    assert!(
        deviations.is_empty(),
        "register modules that deviate from the one register API:\n{}",
        deviations.join("\n")
    );
}
