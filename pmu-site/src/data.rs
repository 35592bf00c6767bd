//! Data files for the decoder, loaded with `<script src>` so the site works from `file://`:
//! `data/index.js` (the generations) and `data/gen/<id>.js` (one generation's registers and
//! CPUID outputs with every field, its event encoding and its constraints). Masks and values
//! are `0x…` strings: JavaScript numbers cannot hold 64 bits, the decoder uses BigInt.

use crate::context::{Ctx, paths};
use crate::escape::json_for_js;
use crate::format;
use crate::site::Site;
use pmu_defs::model::{Field, Generation};
use serde::Serialize;

#[derive(Serialize)]
struct Index<'a> {
    default: Option<Default<'a>>,
    generations: Vec<GenSummary<'a>>,
}

#[derive(Serialize)]
struct Default<'a> {
    generation: &'a str,
    target: String,
}

#[derive(Serialize)]
struct GenSummary<'a> {
    id: &'a str,
    /// What the decoder's picker shows beside the id: the CPU names of a model generation
    /// ("Sapphire Rapids"), the generation's title otherwise.
    title: String,
    vendor: pmu_defs::model::Vendor,
    /// `Intel`, `AMD`: how the decoder groups generations.
    vendor_name: &'static str,
    extends: Option<&'a str>,
    data: String,
    events_data: Option<String>,
}

#[derive(Serialize)]
struct GenData<'a> {
    id: &'a str,
    title: &'a str,
    /// Event attribute → select-register field, in definition order.
    encoding: Vec<[&'a str; 2]>,
    /// The general-purpose event select, whose values encode events.
    select: Option<&'a str>,
    targets: Vec<Target<'a>>,
}

#[derive(Serialize)]
struct Target<'a> {
    /// `IA32_PERFEVTSEL` for an MSR, `cpuid:ARCH_PERFMON:eax` for a CPUID output.
    key: String,
    kind: &'static str,
    name: String,
    label: String,
    width: u32,
    /// Addresses of the instances (one for a single MSR, none for CPUID).
    addresses: Vec<String>,
    reserved: String,
    /// Register page, relative to the site root.
    page: Option<String>,
    fields: Vec<FieldData<'a>>,
    constraints: Vec<ConstraintData<'a>>,
}

#[derive(Serialize)]
struct FieldData<'a> {
    name: &'a str,
    doc: &'a str,
    /// `[lsb, msb]` of each part, low part first.
    bits: Vec<[u32; 2]>,
    width: u32,
    access: &'static str,
    /// `[count, stride]`.
    array: Option<[u32; 2]>,
    values: Vec<ValueData<'a>>,
    since: &'a str,
    deprecated: Option<DeprecationData<'a>>,
    requires: Option<&'a str>,
}

#[derive(Serialize)]
struct ValueData<'a> {
    name: &'a str,
    value: String,
    doc: &'a str,
}

#[derive(Serialize)]
struct DeprecationData<'a> {
    since: &'a str,
    when: Option<&'a str>,
    doc: &'a str,
}

#[derive(Serialize)]
struct ConstraintData<'a> {
    id: &'a str,
    severity: pmu_defs::model::Severity,
    message: &'a str,
    manual: &'a str,
    /// `[field, value]`: all must hold.
    when: Vec<(&'a str, String)>,
}

fn fields(fs: &[Field]) -> Vec<FieldData<'_>> {
    fs.iter()
        .map(|f| FieldData {
            name: &f.name,
            doc: &f.doc,
            bits: f.bits.iter().map(|b| [b.lsb, b.msb]).collect(),
            width: f.width,
            access: f.access.as_str(),
            array: f.array.map(|a| [a.count, a.stride]),
            values: f
                .values
                .iter()
                .map(|v| ValueData {
                    name: &v.name,
                    value: format::hex(v.value),
                    doc: &v.doc,
                })
                .collect(),
            since: &f.since,
            deprecated: f.deprecated.as_ref().map(|d| DeprecationData {
                since: &d.since,
                when: d.when.as_deref(),
                doc: &d.doc,
            }),
            requires: f.requires.as_deref(),
        })
        .collect()
}

fn gen_data(g: &Generation) -> GenData<'_> {
    let mut targets = Vec::new();
    for r in &g.registers {
        let label = if r.msr.indexed {
            format!("{} ({})", r.name, format::address(&r.msr))
        } else {
            format!("{} ({})", r.name, format::hex(u64::from(r.msr.base)))
        };
        targets.push(Target {
            key: r.name.clone(),
            kind: "msr",
            name: r.name.clone(),
            label,
            width: r.width,
            addresses: r
                .addresses
                .iter()
                .map(|a| format::hex(u64::from(*a)))
                .collect(),
            reserved: format::hex(r.reserved_mask),
            page: Some(paths::register_in(g, &r.name)),
            fields: fields(&r.fields),
            constraints: g
                .constraints
                .iter()
                .filter(|c| c.register == r.name)
                .map(|c| ConstraintData {
                    id: &c.id,
                    severity: c.severity,
                    message: &c.message,
                    manual: &c.manual,
                    when: c
                        .when
                        .iter()
                        .map(|w| (w.field.as_str(), format::hex(w.value)))
                        .collect(),
                })
                .collect(),
        });
    }
    for c in &g.cpuid {
        for r in &c.registers {
            let leaf = match c.subleaf {
                Some(s) => format!("CPUID.(EAX={:02X}H,ECX={s})", c.leaf),
                None => format!("CPUID.{:02X}H", c.leaf),
            };
            targets.push(Target {
                key: format!("cpuid:{}:{}", c.name, r.register),
                kind: "cpuid",
                name: format!("{}.{}", c.name, r.register.to_uppercase()),
                label: format!("{leaf}:{} ({})", r.register.to_uppercase(), c.name),
                width: 32,
                addresses: Vec::new(),
                reserved: format::hex(u64::from(r.reserved_mask)),
                page: Some(format!("{}#cpuid-{}", paths::generation(&g.id), c.name)),
                fields: fields(&r.fields),
                constraints: Vec::new(),
            });
        }
    }
    GenData {
        id: &g.id,
        title: &g.title,
        encoding: g
            .pmu
            .encoding
            .iter()
            .map(|(a, f)| [a.as_str(), f.as_str()])
            .collect(),
        select: g.pmu.general.as_ref().map(|s| s.select.as_str()),
        targets,
    }
}

pub fn all(cx: &Ctx<'_>, site: &mut Site) {
    let index = Index {
        default: cx.decoder_default().map(|(g, target)| Default {
            generation: &g.id,
            target,
        }),
        generations: cx
            .model
            .generations
            .iter()
            .map(|g| GenSummary {
                id: &g.id,
                title: {
                    let names: Vec<&str> = (cx.cpus_of(g).iter())
                        .map(|c| c.name.name.as_str())
                        .collect();
                    if names.is_empty() {
                        g.title.clone()
                    } else {
                        names.join(", ")
                    }
                },
                vendor: g.vendor,
                vendor_name: crate::html::vendor(g),
                extends: g.extends.as_deref(),
                data: paths::data_gen(&g.id),
                events_data: (!g.events.is_empty()).then(|| paths::data_events(&g.id)),
            })
            .collect(),
    };
    site.add(
        "data/index.js".to_owned(),
        format!(
            "/* Generations: generated by cargo xtask gen-docs. */\nwindow.PMU = window.PMU || {{}};\nPMU.index = {};\n",
            json_for_js(&index)
        ),
    );
    for g in &cx.model.generations {
        site.add(
            paths::data_gen(&g.id),
            format!(
                "/* Registers of one generation: generated by cargo xtask gen-docs. */\nwindow.PMU = window.PMU || {{}};\nPMU.gen = PMU.gen || {{}};\nPMU.gen[{}] = {};\n",
                json_for_js(&g.id),
                json_for_js(&gen_data(g))
            ),
        );
    }
}
