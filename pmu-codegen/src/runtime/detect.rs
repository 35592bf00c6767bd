//! The detection rule of each generation (`detect:` and `cpus:`) as the run-time layer's
//! `DetectSpec`.

use super::*;

/// `family-model` of `cpus:` (`GenuineIntel-6-4E`, `GenuineIntel-6-55-[01234]`) as numbers.
pub(super) fn cpu_model(family_model: &str) -> Option<(u32, u32, u16)> {
    let mut parts = family_model.split('-').skip(1);
    let family = u32::from_str_radix(parts.next()?, 16).ok()?;
    let model = u32::from_str_radix(parts.next()?, 16).ok()?;
    let steppings = match parts.next() {
        None => u16::MAX,
        Some(s) => {
            let digits = s.trim_start_matches('[').trim_end_matches(']');
            let mut mask = 0u16;
            for c in digits.chars() {
                mask |= 1 << c.to_digit(16)?;
            }
            mask
        }
    };
    Some((family, model, steppings))
}

/// The `CpuModel`s of `cpus:`, consecutive models with the same steppings and core type
/// merged into one entry (`model..=model_last`).
pub(super) fn cpu_models(krate: &TokenStream, g: &Generation) -> Vec<TokenStream> {
    type Key = (u32, u16, Option<u8>, Option<u32>);
    let mut runs: Vec<(Key, u32, u32)> = Vec::new();
    for c in &g.cpus {
        let Some((family, model, steppings)) = cpu_model(&c.family_model) else {
            continue;
        };
        let key = (family, steppings, c.core_type, c.native_model_id);
        match runs.last_mut() {
            Some((k, _, last)) if *k == key && model == *last + 1 => *last = model,
            _ => runs.push((key, model, model)),
        }
    }
    runs.into_iter()
        .map(|((family, steppings, core_type, native), model, model_last)| {
            let core_type = opt(core_type, |t| quote!(#t));
            let native = opt(native, |n| quote!(#n));
            quote! {
                #krate::arch::CpuModel {
                    family: #family, model: #model, model_last: #model_last, steppings: #steppings,
                    core_type: #core_type, native_model_id: #native,
                }
            }
        })
        .collect()
}

/// `MODEL_SPECS`: every model generation's id, feature, vendor, ancestors and `cpus:`, compiled
/// whatever the features, so detection names a model that is not compiled in.
pub(super) fn model_specs(krate: &TokenStream, model: &Model, gens: &[&Generation]) -> TokenStream {
    let specs = gens.iter().filter(|g| !g.cpus.is_empty()).map(|g| {
        let id = &g.id;
        let feature = if crate::is_gated(model, g) {
            id.as_str()
        } else {
            ""
        };
        let vendor = format_ident!("{}", camel(&format!("{:?}", g.vendor)));
        let ancestors = &g.ancestors;
        let cpus = cpu_models(krate, g);
        let role = g.cpus.iter().find_map(|c| c.core_role.as_deref());
        let perf_pmu = role.map_or("cpu", pmu_vocab::perf::pmu_for_core_role);
        quote! {
            #krate::arch::ModelSpec {
                id: #id,
                feature: #feature,
                vendor: #krate::arch::Vendor::#vendor,
                ancestors: &[#(#ancestors),*],
                cpus: &[#(#cpus),*],
                perf_pmu: #perf_pmu,
            },
        }
    });
    quote! {
        /// Every CPU model generation of the definitions, compiled in or not: detection names
        /// the model of a CPU from this table, whatever the Cargo features.
        pub const MODEL_SPECS: &[#krate::arch::ModelSpec] = &[#(#specs)*];
    }
}

/// `GENERIC_EVENTS`: what perf's generic hardware events count on every generation that maps
/// them (`generic-events:`), compiled whatever the features, like [`model_specs`].
pub(super) fn generic_events(krate: &TokenStream, gens: &[&Generation]) -> TokenStream {
    let specs = gens
        .iter()
        .filter(|g| !g.generic_events.is_empty())
        .map(|g| {
            let id = &g.id;
            let names = g.generic_events.iter().map(|e| &e.name);
            let terms = g.generic_events.iter().map(|e| &e.terms);
            quote! {
                #krate::arch::GenericEvents { id: #id, events: &[#((#names, #terms)),*] },
            }
        });
    quote! {
        /// What perf's generic hardware events (`cpu-cycles`, `instructions`, ...) count on
        /// each generation, as the Linux kernel maps them (the definitions'
        /// `generic-events:`), compiled whatever the features.
        pub const GENERIC_EVENTS: &[#krate::arch::GenericEvents] = &[#(#specs)*];
    }
}

/// `CPU_NAMES`: the definitions' CPU names (`cpu-names:`), compiled whatever the features, so
/// `pmu_regs::arch::find_cpu` takes "Sapphire Rapids" or "SPR" without the YAML.
pub(super) fn cpu_names(krate: &TokenStream, model: &Model) -> TokenStream {
    use pmu_defs::load::cpu_names::Target;
    let names = model.cpu_names.iter().map(|n| {
        let name = &n.name;
        let also = &n.also;
        let target = match &n.target {
            Target::Generations(ids) => {
                quote!(#krate::arch::CpuNameTarget::Generations(&[#(#ids),*]))
            }
            Target::FamilyModels(fms) => {
                quote!(#krate::arch::CpuNameTarget::FamilyModels(&[#(#fms),*]))
            }
        };
        quote! {
            #krate::arch::CpuName { name: #name, also: &[#(#also),*], target: #target },
        }
    });
    quote! {
        /// What people call each CPU ("Sapphire Rapids", "SPR", "Zen 4") and the generations
        /// or CPU models the name stands for (the definitions' `cpu-names:`), compiled
        /// whatever the features; `find_cpu` reads a query through it.
        pub const CPU_NAMES: &[#krate::arch::CpuName] = &[#(#names)*];
    }
}

/// `const DETECT`: the `detect:` condition, the CPU models and the enumeration roles.
pub(super) fn detect_spec(krate: &TokenStream, g: &Generation) -> TokenStream {
    let vendor = format_ident!("{}", camel(&format!("{:?}", g.vendor)));
    let depth = g.ancestors.len() as u32;
    let ancestors = &g.ancestors;
    let condition = g
        .detect
        .as_ref()
        .and_then(|d| d.cpuid.as_ref())
        .and_then(|c| {
            let leaf = g.cpuid_leaf(&c.leaf)?;
            let reg = leaf.registers.iter().find(|r| r.register == c.register)?;
            let f = reg.fields.iter().find(|f| f.name == c.field)?;
            let field = cpuid_field(krate, leaf, &reg.register, f);
            let at_least = c.at_least as u32;
            Some(quote!(Some((#field, #at_least))))
        });
    let condition = condition.unwrap_or(quote!(None));
    let family = opt(
        g.detect.as_ref().and_then(|d| d.family_at_least),
        |f| quote!(#f),
    );
    let cpus = cpu_models(krate, g);
    let r = |role| cpuid_role(krate, g, role);
    let (gc, gw, fc, fw) = (
        r(FieldRole::GeneralCount),
        r(FieldRole::GeneralWidth),
        r(FieldRole::FixedCount),
        r(FieldRole::FixedWidth),
    );
    let (fb, gp, fp, el) = (
        r(FieldRole::FixedBitmap),
        r(FieldRole::GeneralPresent),
        r(FieldRole::FixedPresent),
        r(FieldRole::EventsLength),
    );
    let (ad, u2, eq, sb) = (
        r(FieldRole::AnythreadDeprecated),
        r(FieldRole::Umask2Supported),
        r(FieldRole::EqSupported),
        r(FieldRole::SubleafBitmap),
    );
    quote! {
        #krate::arch::DetectSpec {
            vendor: #krate::arch::Vendor::#vendor,
            depth: #depth,
            ancestors: &[#(#ancestors),*],
            cpuid: #condition,
            family_at_least: #family,
            cpus: &[#(#cpus),*],
            enumeration: #krate::arch::EnumerationSpec {
                general_count: #gc, general_width: #gw, fixed_count: #fc, fixed_width: #fw,
                fixed_bitmap: #fb, general_present: #gp, fixed_present: #fp,
                events_length: #el, anythread_deprecated: #ad, umask2_supported: #u2,
                eq_supported: #eq, subleaf_bitmap: #sb,
            },
        }
    }
}
