//! Writing a core model generation: the facts of one perfmon file translated to the
//! generation that extends its architectural version.

use crate::defs::parent_generation;
use crate::emit::{
    Count, FieldArray, ModelYaml, RegisterOverride, comment, cpus, events_yaml, write_model,
};
use crate::findings::Reviewed;
use crate::intel::arch::{ArchVersion, arch_version};
use crate::intel::event::{PerfmonEvent, PerfmonFile};
use crate::mapfile::MapRow;
use crate::outcome::{CoreModel, HEADER, INTEL_SOURCE_LINE, Provenance, vendor_dir};
use crate::report::{Issue, Level};
use pmu_defs::model::{CounterKind, Generation, Register, RegisterRole};
use serde_saphyr::{FlowMap, LitString};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The problems the validator found in imported models, each at the JSON file and event it
/// comes from (`file.json:LINE: event `NAME`: message`), for the diagnostics located on an
/// event line of a model's YAML; the others (a problem with the model as a whole) are `None`
/// and keep their YAML location. `loaded` is [`check_models`](crate::check_models)'s result for `models`.
pub fn json_locations(
    models: &[CoreModel],
    loaded: &pmu_defs::Loaded,
) -> Vec<(pmu_defs::diag::Diagnostic, Option<Issue>)> {
    let by_file: BTreeMap<String, &CoreModel> = models
        .iter()
        .map(|m| (format!("{}/models/{}", vendor_dir(m), m.file_name), m))
        .collect();
    let mut out = Vec::new();
    for d in &loaded.diagnostics {
        let issue = d.labels.first().and_then(|l| {
            let m = by_file.get(loaded.sources.name(l.span.file))?;
            let line = loaded.sources.line_col(l.span).line;
            let i = m.origins.partition_point(|o| o.yaml_line < line);
            let o = m.origins.get(i).filter(|o| o.yaml_line == line)?;
            let level = d.severity;
            let named = format!("event `{}`", o.name);
            let message = if d.message.starts_with(&named) {
                format!("{} [{}]", d.message, d.code)
            } else {
                format!("{named}: {} [{}]", d.message, d.code)
            };
            Some(Issue::new(
                level,
                &m.json_file,
                Some((o.json_line, 1)),
                message,
            ))
        });
        out.push((d.clone(), issue));
    }
    out
}

/// `alderlake_goldencove_core.json` → `alderlake-goldencove`: lowercase, `_core` dropped,
/// every run of other characters a `-`.
pub fn model_name(file_name: &str) -> String {
    let stem = file_name.strip_suffix(".json").unwrap_or(file_name);
    let lower = stem.to_ascii_lowercase();
    let stem = lower.strip_suffix("_core").unwrap_or(&lower);
    let mut out = String::new();
    for c in stem.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() {
        out.push_str("unnamed");
    }
    out
}

/// The counter counts of an architectural generation: its general-purpose counter family
/// (role `counter`) and its fixed-counter family (role `fixed-counter`, 0 when it has none).
pub(crate) fn arch_counts(arch: &Generation) -> (u32, u32) {
    let count = |role| arch.register_with_role(role).map_or(0, |r| r.msr.count);
    (
        count(RegisterRole::Counter),
        count(RegisterRole::FixedCounter),
    )
}

/// Which counter family a register's family belongs to, for the registers a core with more
/// counters extends: the counters, their full-width aliases and event selects (general),
/// the fixed counters (fixed).
pub(crate) fn family_kind(r: &Register) -> Option<CounterKind> {
    if r.per_counter.is_some() {
        return r.per_counter;
    }
    match r.role? {
        RegisterRole::Counter | RegisterRole::FullWidthCounter | RegisterRole::EventSelect => {
            Some(CounterKind::General)
        }
        RegisterRole::FixedCounter => Some(CounterKind::Fixed),
        _ => None,
    }
}

/// The register overrides for `general` general-purpose and `fixed` fixed counters on top of
/// the architectural generation `arch` (none when its own counts suffice), read from the
/// definitions: every counter family grows to the count, and so does every per-counter field
/// array (`per-counter:`), in the order the generation lists them. With them, the comment
/// lines the header gives them.
pub(crate) fn register_overrides(
    arch: &Generation,
    general: u32,
    fixed: u32,
) -> (String, Vec<FlowMap<RegisterOverride>>) {
    let want = |kind| match kind {
        CounterKind::General => general,
        CounterKind::Fixed => fixed,
    };
    let (arch_general, arch_fixed) = arch_counts(arch);
    let more_general = general > arch_general;
    let more_fixed = fixed > arch_fixed;
    let mut notes = String::new();
    let mut out = Vec::new();
    if !more_general && !more_fixed {
        return (notes, out);
    }
    if more_general {
        let _ = writeln!(
            notes,
            "# {general} general-purpose counters: the register families (`registers:`) continue\n\
             # from counter {arch_general} (see intel/v6.yaml, SDM Vol. 4 Table 2-2)."
        );
    }
    if more_fixed {
        let _ = writeln!(
            notes,
            "# {fixed} fixed counters: IA32_FIXED_CTR{arch_fixed} and up continue the family (see\n\
             # intel/v6.yaml); each per-counter block and bit array has one element per counter."
        );
    }
    let count = |r: &Register| family_kind(r).map(want).filter(|&n| n > r.msr.count);
    let fields = |r: &Register| -> Vec<FlowMap<FieldArray>> {
        r.fields
            .iter()
            .filter_map(|f| Some((f, want(f.per_counter?))))
            .filter(|(f, n)| *n > f.count())
            .map(|(f, n)| {
                FlowMap(FieldArray {
                    name: f.name.clone(),
                    array: FlowMap(Count { count: n }),
                })
            })
            .collect()
    };
    // Count-only overrides first, then the registers whose field arrays grow (with their own
    // count, for a per-counter family such as CFG_B: one entry per register).
    for r in arch.registers.iter().filter(|r| fields(r).is_empty()) {
        if let Some(n) = count(r) {
            out.push(FlowMap(RegisterOverride {
                name: r.name.clone(),
                msr: Some(FlowMap(Count { count: n })),
                fields: Vec::new(),
            }));
        }
    }
    for r in &arch.registers {
        let fields = fields(r);
        if !fields.is_empty() {
            out.push(FlowMap(RegisterOverride {
                name: r.name.clone(),
                msr: count(r).map(|n| FlowMap(Count { count: n })),
                fields,
            }));
        }
    }
    (notes, out)
}

/// Builds the generation file for one perfmon file. `source` is its path relative to the
/// corpus; `cpus` the mapfile rows naming it. Errors go to `issues` (and give `None`).
pub fn convert(
    file: &PerfmonFile,
    source: &str,
    cpus: &[&MapRow],
    provenance: &Provenance,
    issues: &mut Vec<Issue>,
) -> Option<CoreModel> {
    convert_reviewed(file, source, cpus, provenance, &Reviewed::default(), issues)
}

/// [`convert`], writing an `allow:` on each event `reviewed` names for this generation.
pub fn convert_reviewed(
    file: &PerfmonFile,
    source: &str,
    cpus_rows: &[&MapRow],
    provenance: &Provenance,
    reviewed: &Reviewed,
    issues: &mut Vec<Issue>,
) -> Option<CoreModel> {
    let file_stem = source
        .rsplit('/')
        .next()
        .unwrap_or(source)
        .strip_suffix(".json")
        .unwrap_or(source);
    let name = model_name(source.rsplit('/').next().unwrap_or(source));
    let id = format!("intel-{name}");
    let arch = arch_version(file_stem, file, issues);
    let v = arch.version;
    let errors_before = issues.iter().filter(|i| i.level == Level::Error).count();
    let arch_gen = parent_generation(file_stem, v, &file.name, issues)?;
    let parent = arch_gen.id.clone();

    let (general, fixed) = counters_used(file, &arch, arch_counts(arch_gen), issues);
    if general > 32 || fixed > 16 {
        issues.push(Issue::new(
            Level::Error,
            &file.name,
            None,
            format!("the list names general counter {} or fixed counter {}; the global control registers have room for 32 general and 16 fixed counters", general - 1, fixed.saturating_sub(1)),
        ));
    }
    if issues.iter().filter(|i| i.level == Level::Error).count() > errors_before {
        return None;
    }

    let mut events: Vec<&PerfmonEvent> = file.events.iter().collect();
    events.sort_by(|a, b| a.facts.name.cmp(&b.facts.name));

    let (notes, registers) = register_overrides(arch_gen, general, fixed);
    let mut header = model_header(file, source, provenance);
    header.push_str(&notes);
    let allows = reviewed.allows(&id);
    let model = ModelYaml {
        generation: &id,
        extends: &parent,
        title: format!(
            "Core events of {} (Intel perfmon)",
            source.rsplit('/').next().unwrap_or(source)
        ),
        manual: format!(
            "Intel perfmon {source}{}; {}",
            file.version
                .as_ref()
                .map(|v| format!(" (event list version {v})"))
                .unwrap_or_default(),
            arch.basis
        ),
        doc: LitString(model_doc(file, &parent, &arch)),
        source,
        cpus: cpus(cpus_rows),
        registers,
        events: events_yaml(&events, v, &allows),
    };
    let names = events.iter().map(|e| (e.facts.name.clone(), e.line));
    let (y, origins) = match write_model(&header, &model, names) {
        Ok(written) => written,
        Err(why) => {
            issues.push(Issue::new(
                Level::Error,
                &file.name,
                None,
                format!("its model cannot be written as YAML: {why}"),
            ));
            return None;
        }
    };
    Some(CoreModel {
        json_file: file.name.clone(),
        origins,
        id,
        file_name: format!("{name}.yaml"),
        source: source.to_owned(),
        arch,
        counters: (general, fixed),
        events: events.len(),
        json_events: file.entries,
        yaml: y,
    })
}

/// The general and fixed counters the model has: the architectural generation's `counts`, or
/// more when an event names a higher counter. An event using what the architectural version
/// lacks (a second unit mask, AnyThread, a fixed counter) is an error in `issues`.
pub(crate) fn counters_used(
    file: &PerfmonFile,
    arch: &ArchVersion,
    counts: (u32, u32),
    issues: &mut Vec<Issue>,
) -> (u32, u32) {
    let (mut general, mut fixed) = counts;
    let v = arch.version;
    for e in &file.events {
        let at = Some((e.line, 1));
        let sets = [
            Some(&e.counters),
            e.counters_ht_off.as_ref(),
            e.pebs_counters.as_ref(),
            e.pdist_counters.as_ref(),
            e.pdir_counters.as_ref(),
        ];
        for s in sets.into_iter().flatten() {
            if let Some(&g) = s.general.last() {
                general = general.max(g + 1);
            }
            if let Some(&f) = s.fixed.last() {
                fixed = fixed.max(f + 1);
            }
        }
        let mut need = |min: u8, what: &str| {
            if v < min {
                issues.push(Issue::new(
                    Level::Error,
                    &file.name,
                    at,
                    format!(
                        "event `{}` uses {what}, which architectural perfmon version {v} does not have (it needs version {min}); the version comes from: {}",
                        e.facts.name, arch.basis
                    ),
                ));
            }
        };
        if e.facts.umask2.is_some_and(|u| u != 0) {
            need(6, "a second unit mask (UMaskExt)");
        }
        if e.facts.eq {
            need(6, "the Equal flag");
        }
        if e.facts.any {
            need(3, "AnyThread");
        }
        if !e.counters.fixed.is_empty() {
            need(2, "a fixed counter");
        }
    }
    (general, fixed)
}

/// The model file's header comment (text: a comment block is not YAML structure).
pub(crate) fn model_header(file: &PerfmonFile, source: &str, provenance: &Provenance) -> String {
    let mut y = String::new();
    let _ = writeln!(y, "{HEADER} {INTEL_SOURCE_LINE}");
    let _ = writeln!(
        y,
        "# Source: {}, intel/perfmon commit {}{}{}.",
        comment(source),
        comment(provenance.commit.as_deref().unwrap_or("unknown")),
        file.version
            .as_ref()
            .map(|v| format!(", event list version {}", comment(v)))
            .unwrap_or_default(),
        file.date
            .as_ref()
            .map(|d| format!(" ({})", comment(d)))
            .unwrap_or_default(),
    );
    let _ = writeln!(
        y,
        "# Intel's data is under the BSD 3-Clause license{}.",
        file.copyright
            .as_ref()
            .map(|c| format!(" ({})", comment(c.trim_end_matches('.'))))
            .unwrap_or_default()
    );
    let _ = writeln!(
        y,
        "# Facts only (names, codes, counters, flags, MSR values, errata, sampling periods): no\n\
         # description text is copied. Refresh with `cargo xtask import-perfmon` (CONTRIBUTING.md)."
    );
    y
}

/// The model's `doc:`, one line break at the end (a `|` block).
pub(crate) fn model_doc(file: &PerfmonFile, parent: &str, arch: &ArchVersion) -> String {
    let v = arch.version;
    let mut doc = format!(
        "Every core event Intel's perfmon list gives for the CPUs in `cpus`: names, codes,\n\
         counters, flags, auxiliary MSR values, errata and sampling periods. Extends\n\
         architectural performance monitoring version {v} ({}).",
        if arch.from_table {
            "from the importer's table of cores"
        } else {
            "guessed from the list; not in the importer's table"
        }
    );
    if parent != format!("intel-v{v}") {
        let _ = write!(
            doc,
            "\nThe microarchitecture's model-specific registers come from `{parent}`, which\n\
             names this list in its `perfmon-cores:`."
        );
    }
    if file.fixed_from_one {
        doc.push_str(
            "\nIntel's list numbers the fixed counters from 1 (INST_RETIRED.ANY is \"Fixed counter 1\");\n\
             here they are numbered from 0, as in the SDM.",
        );
    }
    doc.push('\n');
    doc
}
