//! `pmu_regs::arch::find_cpu` (the compiled-in tables, no YAML) reads every query as
//! `pmu_defs::Model::find_cpu` (the loaded definitions) does: every generation id and its
//! short form, every CPU name and other spelling, every CPU model of every `cpus:` list in the
//! forms users type, and queries that name nothing.

use pmu_defs::Loader;
use pmu_defs::model::Model;
use pmu_regs::arch::{CpuQuery, Generation, MODEL_SPECS, find_cpu};
use std::sync::OnceLock;

fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        let loaded = Loader::new().with_defaults().finish();
        assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
        loaded.model
    })
}

/// The generation ids one side found, and how it read the query.
type Found = Option<(Vec<String>, String)>;

/// The generation ids each side finds for `query`, and how each read it.
fn both(query: &str) -> (Found, Found) {
    let ours = find_cpu(query).map(|f| {
        (
            f.generations().map(str::to_owned).collect(),
            f.read_as.to_string(),
        )
    });
    let theirs = model().find_cpu(query).map(|f| {
        (
            f.generations.iter().map(|g| g.id.clone()).collect(),
            f.read_as,
        )
    });
    (ours, theirs)
}

/// True when the compiled tables know the generation `id` in this build: compiled in, or a
/// model generation (whose `cpus:` detection knows whatever the features).
fn known(id: &str) -> bool {
    Generation::from_id(id).is_some() || MODEL_SPECS.iter().any(|m| m.id == id)
}

#[test]
fn every_generation_id_and_short_id_reads_alike() {
    let mut checked = 0;
    for g in &model().generations {
        if !known(&g.id) {
            // A family generation (no `cpus:`) whose feature this build leaves out.
            assert!(
                g.cpus.is_empty(),
                "{} has CPUs but no compiled-in spec",
                g.id
            );
            assert!(find_cpu(&g.id).is_none(), "{}", g.id);
            continue;
        }
        let (ours, theirs) = both(&g.id);
        assert_eq!(ours, theirs, "{}", g.id);
        let short = g.id.split_once('-').map(|(_, rest)| rest).unwrap();
        if model()
            .generations
            .iter()
            .filter(|o| o.id.ends_with(&format!("-{short}")))
            .all(|o| known(&o.id))
        {
            assert_eq!(both(short).0, both(short).1, "{short}");
        }
        checked += 1;
    }
    assert!(checked > 60, "only {checked} generations checked");
}

#[test]
fn every_cpu_name_and_spelling_reads_alike() {
    let names = &model().cpu_names;
    assert_eq!(names.len(), pmu_regs::arch::CPU_NAMES.len());
    for n in names {
        for spelling in std::iter::once(&n.name).chain(&n.also) {
            for q in [
                spelling.clone(),
                spelling.to_lowercase(),
                spelling.replace(' ', "-"),
                spelling.to_uppercase().replace(' ', ""),
            ] {
                let (ours, theirs) = both(&q);
                assert!(ours.is_some(), "{q}");
                assert_eq!(ours, theirs, "{q}");
            }
        }
    }
}

#[test]
fn every_listed_cpu_model_reads_alike_in_each_form() {
    let mut checked = 0;
    for g in &model().generations {
        for c in &g.cpus {
            let fm = pmu_vocab::cpu::FamilyModel::parse(&c.family_model).unwrap();
            let (f, m) = (fm.family, fm.model);
            for q in [
                format!("{f:02X}_{m:02X}"),
                format!("{f:x}h/{m:x}h"),
                format!("0x{f:x}/0x{m:x}"),
                c.family_model.clone(),
                format!("{}-{f:X}-{m:X}", fm.vendor.unwrap()),
            ] {
                let (ours, theirs) = both(&q);
                assert!(ours.is_some(), "{q}");
                assert_eq!(ours, theirs, "{q}");
                checked += 1;
            }
        }
    }
    assert!(checked > 300, "only {checked} queries");
}

#[test]
fn queries_naming_nothing_find_nothing_on_both_sides() {
    for q in [
        "",
        "Pentium 4",
        "06_FF",
        "GenuineIntel-6-FF",
        "AuthenticAMD-6-8F",
        "HygonGenuine-18-0",
        "sapphire",
        "intel-",
        "v99",
        "12345_1",
    ] {
        let (ours, theirs) = both(q);
        assert_eq!(ours, None, "{q:?}");
        assert_eq!(theirs, None, "{q:?}");
    }
}

#[test]
fn a_name_reads_as_a_name_and_a_hybrid_part_names_its_core_types() {
    let adl = find_cpu("Alder Lake").unwrap();
    assert!(matches!(adl.read_as, CpuQuery::Name(n) if n.also.contains(&"ADL")));
    let listed = model()
        .cpu_names
        .iter()
        .find(|n| n.name == "Alder Lake")
        .map(|n| n.target.clone());
    let Some(pmu_defs::load::cpu_names::Target::Generations(ids)) = listed else {
        panic!("Alder Lake names whole generations in cpu-names.yaml")
    };
    assert_eq!(ids.len(), 2, "a core type each: {ids:?}");
    assert_eq!(adl.generations().collect::<Vec<_>>(), ids);
    // The tests crate compiles Gracemont (a workspace build may add Golden Cove).
    let compiled: Vec<&str> = adl.compiled().map(Generation::id).collect();
    assert!(
        compiled.contains(&"intel-alderlake-gracemont"),
        "{compiled:?}"
    );
    assert!(
        compiled
            .iter()
            .all(|id| adl.generations().any(|g| g == *id))
    );
    let zen4 = find_cpu("zen 4").unwrap();
    assert!(zen4.generations().any(|id| id == "amd-zen4"));
    assert_eq!(
        find_cpu("intel-v5").unwrap().read_as,
        CpuQuery::Generation("intel-v5")
    );
    assert_eq!(
        find_cpu("v5").unwrap().read_as,
        CpuQuery::Generation("intel-v5")
    );
}
