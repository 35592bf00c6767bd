//! What the schema can say: extends semantics, field arrays, split fields, availability,
//! constraints and events, on small fixtures written for these tests.

use pmu_defs::model::{Access, Severity};
use pmu_defs::{Loaded, Loader};

fn load(files: &[(&str, &str)]) -> Loaded {
    let mut l = Loader::new();
    for (name, text) in files {
        l.add_str(*name, *text);
    }
    l.finish()
}

fn ok(files: &[(&str, &str)]) -> Loaded {
    let loaded = load(files);
    assert!(
        loaded.diagnostics.is_empty(),
        "{}",
        loaded.render_diagnostics()
    );
    loaded
}

/// A loader with the hand-written architectural generations only: the generated core models
/// in `defs/intel/models/` carry warnings about Intel's own data, which these tests are not
/// about.
fn architectural() -> Loader {
    let mut l = Loader::new();
    for vendor in ["intel", "amd"] {
        let mut files: Vec<_> = std::fs::read_dir(pmu_defs::defs_dir().join(vendor))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        files.sort();
        for f in files {
            l.add_file(&f);
        }
    }
    l
}

const BASE: &str = r#"
generation: base
vendor: intel
pmu:
  encoding: { event: EVENT, umask: UMASK, cmask: CMASK, edge: EDGE, inv: INV }
registers:
  - name: CTR
    msr: { base: 0x10, count: 4 }
    role: counter
    fields: [ { name: COUNT, bits: 47:0 } ]
  - name: SEL
    doc: Select.
    msr: { base: 0x20, count: 4, stride: 2 }
    role: event-select
    reset: 0
    fields:
      - { name: EVENT, bits: [7:0, 35:32] }
      - { name: UMASK, bits: 15:8 }
      - { name: EDGE, bits: 18 }
      - { name: INV, bits: 23 }
      - { name: CMASK, bits: 31:24 }
      - { name: PC, bits: 19 }
  - name: OLD_CLR
    msr: 0x30
    access: write-1-to-clear
    fields: [ { name: CLR, bits: 0, array: { count: 4, stride: 1 } } ]
  - name: GONE
    msr: 0x40
    fields: [ { name: X, bits: 0 } ]
events:
  - { name: ANYWHERE, event: 0x1, umask: 0x2 }
  - { name: LOW_ONLY, event: 0x3, counters: [0-1] }
constraints:
  - id: edge-needs-cmask
    register: SEL
    when: { EDGE: 1, CMASK: 0 }
    severity: warning
    message: edge detect with CMASK 0 counts nothing on models that require CMASK >= 1
"#;

const CHILD: &str = r#"
generation: child
extends: base
registers:
  - name: CTR
    msr: { base: 0x10, count: 6 }
  - name: SEL
    msr: { count: 6 }           # base and stride inherited
    remove-fields: [PC]
    fields:
      - { name: UMASK, doc: Now documented. }
      - { name: ANY, bits: 21, deprecated: { since: child, when: "CPUID.0AH:EDX[15] = 1" } }
  - name: NEW_CLR
    renames: OLD_CLR
    fields: [ { name: CLR_EXTRA, bits: 63 } ]
remove:
  registers: [GONE]
  events: [LOW_ONLY]
"#;

#[test]
fn extends_overrides_only_the_keys_given() {
    let l = ok(&[("base.yaml", BASE), ("child.yaml", CHILD)]);
    let base = l.model.generation("base").unwrap();
    let child = l.model.generation("child").unwrap();
    assert_eq!(child.ancestors, ["base"]);
    assert_eq!(child.vendor, base.vendor);

    let sel = child.register("SEL").unwrap();
    // Kept from the parent: base and stride of the address family (only `count` is given),
    // reset, doc, other fields.
    assert_eq!((sel.msr.base, sel.msr.count, sel.msr.stride), (0x20, 6, 2));
    assert_eq!(sel.addresses, [0x20, 0x22, 0x24, 0x26, 0x28, 0x2A]);
    assert_eq!(sel.reset, Some(0));
    assert_eq!(sel.doc, "Select.");
    let umask = sel.field("UMASK").unwrap();
    assert_eq!(umask.mask, 0xFF00, "bits inherited");
    assert_eq!(umask.doc, "Now documented.");
    assert_eq!(umask.since, "base");
    // Removed and added.
    assert!(sel.field("PC").is_none());
    let any = sel.field("ANY").unwrap();
    assert_eq!((any.since.as_str(), any.mask), ("child", 1 << 21));
    assert_eq!(
        any.deprecated.as_ref().unwrap().when.as_deref(),
        Some("CPUID.0AH:EDX[15] = 1")
    );
    // Reserved bits are derived: PC (19) became reserved, ANY (21) is not.
    assert_ne!(sel.reserved_mask & (1 << 19), 0);
    assert_eq!(sel.reserved_mask & (1 << 21), 0);
    assert_eq!(sel.defined_in, "child");
    assert_eq!(base.register("SEL").unwrap().defined_in, "base");
}

#[test]
fn renames_continue_a_register_and_remove_drops_one() {
    let l = ok(&[("base.yaml", BASE), ("child.yaml", CHILD)]);
    let child = l.model.generation("child").unwrap();
    assert!(child.register("OLD_CLR").is_none());
    assert!(child.register("GONE").is_none());
    let clr = child.register("NEW_CLR").unwrap();
    assert_eq!(clr.msr.base, 0x30);
    assert_eq!(clr.access, Access::WriteOneToClear);
    assert_eq!(clr.since, "base");
    let names: Vec<_> = clr.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["CLR", "CLR_EXTRA"]);
    // A register the child does not mention keeps the parent's definition.
    let base = l.model.generation("base").unwrap();
    assert!(base.register("GONE").is_some());
}

#[test]
fn default_counters_follow_the_child_and_restrictions_stay() {
    let l = ok(&[("base.yaml", BASE), ("child.yaml", CHILD)]);
    let base = l.model.generation("base").unwrap();
    let child = l.model.generation("child").unwrap();
    assert_eq!(base.event("ANYWHERE").unwrap().counters, [0, 1, 2, 3]);
    assert_eq!(
        child.event("ANYWHERE").unwrap().counters,
        [0, 1, 2, 3, 4, 5]
    );
    assert_eq!(base.event("LOW_ONLY").unwrap().counters, [0, 1]);
    assert!(child.event("LOW_ONLY").is_none());
}

#[test]
fn split_fields_and_arrays_place_bits() {
    let l = ok(&[("base.yaml", BASE)]);
    let g = l.model.generation("base").unwrap();
    let ev = g.register("SEL").unwrap().field("EVENT").unwrap();
    assert_eq!(ev.width, 12);
    assert_eq!(ev.full_mask(), 0xF_0000_00FF);
    assert_eq!(ev.insert(0, 0xABC), 0xA_0000_00BC);
    assert_eq!(ev.extract(0, 0xA_0000_00BC), 0xABC);
    let clr = g.register("OLD_CLR").unwrap().field("CLR").unwrap();
    assert_eq!(clr.element_mask(3), 1 << 3);
    assert_eq!(clr.full_mask(), 0xF);
}

#[test]
fn constraints_carry_severity_and_message() {
    let l = ok(&[("base.yaml", BASE)]);
    let c = &l.model.generation("base").unwrap().constraints[0];
    assert_eq!(c.severity, Severity::Warning);
    assert_eq!(c.register, "SEL");
    let when: Vec<_> = c.when.iter().map(|w| (w.field.as_str(), w.value)).collect();
    assert_eq!(when, [("EDGE", 1), ("CMASK", 0)]);
    assert!(c.message.contains("CMASK >= 1"));
}

#[test]
fn fixed_only_events_and_auxiliary_msrs() {
    let text = r#"
generation: fx
vendor: intel
pmu:
  encoding: { event: EVENT, umask: UMASK }
registers:
  - { name: CTR, msr: { base: 0x10, count: 2 }, role: counter, fields: [ { name: C, bits: 47:0 } ] }
  - { name: FIX, msr: { base: 0x18, count: 3 }, role: fixed-counter, fields: [ { name: C, bits: 47:0 } ] }
  - name: SEL
    role: event-select
    msr: { base: 0x20, count: 2 }
    fields: [ { name: EVENT, bits: 7:0 }, { name: UMASK, bits: 15:8 } ]
  - { name: RSP, msr: 0x1A6, fields: [ { name: R, bits: 37:0 } ] }
events:
  - { name: "INST_RETIRED.ANY", event: 0x00, umask: 0x01, fixed: 0 }
  - { name: "OFFCORE.X", event: 0xB7, umask: 0x01, msr: { index: 0x1A6, value: 0x10001 } }
  - { name: "BOTH", event: 0xC0, counters: [0], fixed: 0 }
"#;
    let l = ok(&[("fx.yaml", text)]);
    let g = l.model.generation("fx").unwrap();
    let fixed = g.event("INST_RETIRED.ANY").unwrap();
    assert!(fixed.counters.is_empty());
    assert_eq!(fixed.fixed, Some(0));
    let off = g.event("OFFCORE.X").unwrap().msr.as_ref().unwrap();
    assert_eq!((off.index, off.value), (0x1A6, 0x10001));
    assert_eq!(g.event("BOTH").unwrap().counters, [0]);
    assert_eq!(g.event("BOTH").unwrap().fixed, Some(0));
}

#[test]
fn counters_all_keeps_general_counters_beside_a_fixed_one() {
    let l = ok(&[("base.yaml", BASE), ("child.yaml", CHILD)]);
    let g = l.model.generation("base").unwrap();
    assert!(g.event("ANYWHERE").unwrap().fixed.is_none());
    let text = r#"
generation: kid
extends: base
registers:
  - { name: FIX, msr: { base: 0x50, count: 2 }, role: fixed-counter, fields: [ { name: C, bits: 47:0 } ] }
events:
  - { name: ANYWHERE, counters: all, fixed: 1 }
"#;
    let l = ok(&[("base.yaml", BASE), ("kid.yaml", text)]);
    let e = l
        .model
        .generation("kid")
        .unwrap()
        .event("ANYWHERE")
        .unwrap()
        .clone();
    assert_eq!(e.counters, [0, 1, 2, 3]);
    assert_eq!(e.fixed, Some(1));
}

#[test]
fn a_constraint_added_to_an_inherited_register_redefines_it() {
    let text = r#"
generation: strict
extends: base
constraints:
  - id: pc-forbidden
    register: SEL
    when: { PC: 1 }
    message: PC is not writable on this part
"#;
    let l = ok(&[("base.yaml", BASE), ("strict.yaml", text)]);
    let g = l.model.generation("strict").unwrap();
    assert_eq!(g.register("SEL").unwrap().defined_in, "strict");
    assert_eq!(g.register("CTR").unwrap().defined_in, "base");
    assert_eq!(g.constraints.len(), 2);
}

/// A core model generation as the perfmon importer writes it: extends an architectural
/// generation, declares ten general and seven fixed counters (legacy addresses, overriding
/// only `count`), and lists events that use every event key. Event names and numbers are
/// facts from Intel's lists; nothing else of them is copied.
const MODEL: &str = r#"
generation: intel-fixture-core
extends: intel-v6
title: A core with ten general and seven fixed counters
registers:
  - { name: IA32_PMC, msr: { count: 10 } }
  - { name: IA32_A_PMC, msr: { count: 10 } }
  - { name: IA32_PERFEVTSEL, msr: { count: 10 } }
  - { name: IA32_FIXED_CTR, msr: { count: 7 } }
  - name: IA32_FIXED_CTR_CTRL
    fields:
      - { name: ENABLE, array: { count: 7 } }
      - { name: ANY, array: { count: 7 } }
      - { name: PMI, array: { count: 7 } }
      - { name: ADAPTIVE_RECORD, array: { count: 7 } }
  - name: IA32_PERF_GLOBAL_CTRL
    fields:
      - { name: EN_PMC, array: { count: 10 } }
      - { name: EN_FIXED_CTR, array: { count: 7 } }
  - name: IA32_PERF_GLOBAL_STATUS
    fields:
      - { name: OVF_PMC, array: { count: 10 } }
      - { name: OVF_FIXED_CTR, array: { count: 7 } }
  - name: IA32_PERF_GLOBAL_STATUS_RESET
    fields:
      - { name: CLR_OVF_PMC, array: { count: 10 } }
      - { name: CLR_OVF_FIXED_CTR, array: { count: 7 } }
  - name: IA32_PERF_GLOBAL_STATUS_SET
    fields:
      - { name: SET_OVF_PMC, array: { count: 10 } }
      - { name: SET_OVF_FIXED_CTR, array: { count: 7 } }
  - name: IA32_PERF_GLOBAL_INUSE
    fields:
      - { name: PERFEVTSEL_INUSE, array: { count: 10 } }
      - { name: FIXED_CTR_INUSE, array: { count: 7 } }
  - name: IA32_PEBS_ENABLE
    fields:
      - { name: PEBS_EN_PMC, array: { count: 10 } }
      - { name: PEBS_EN_FIXED, array: { count: 7 } }
  # The auxiliary MSRs the events program (`msr.index` names a register of the generation).
  - { name: OFFCORE_RSP, msr: { base: 0x1A6, count: 2 }, fields: [ { name: R, bits: 43:0 } ] }
  - { name: LD_LAT, msr: 0x3F6, fields: [ { name: THRESHOLD, bits: 15:0 } ] }
  - name: IA32_PMC_GP_CFG_B
    msr: { count: 10 }
    fields:
      - { name: RELOAD_ON_PMC, array: { count: 10 } }
      - { name: RELOAD_ON_FIXED_CTR, array: { count: 7 } }
  - { name: IA32_PMC_GP_CFG_C, msr: { count: 10 } }
  - name: IA32_PMC_FX_CFG_B
    msr: { count: 7 }
    fields:
      - { name: RELOAD_ON_PMC, array: { count: 10 } }
      - { name: RELOAD_ON_FIXED_CTR, array: { count: 7 } }
  - { name: IA32_PMC_FX_CFG_C, msr: { count: 7 } }
events:
  - name: OCR.DEMAND_DATA_RD.ANY_RESPONSE
    event: [0x2A, 0x2B]
    umask: 0x01
    counters: [0-9]
    msr: { index: [0x1A6, 0x1A7], value: 0x10001 }
    offcore: true
    precise: false
    speculative: true
    sample-after: 100003
  - name: OCR.DEMAND_RFO.ANY_RESPONSE
    event: 0xB7
    umask: [0x01, 0x02]
    counters: [0-7]
    msr: { index: [0x1A6, 0x1A7], value: 0x10002 }
    offcore: true
  - name: MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4
    event: 0xCD
    umask: 0x01
    counters: [2-9]
    pebs-counters: [2-9]
    pdist-counters: []
    msr: { index: 0x3F6, value: 0x4 }
    precise: true
    taken-alone: true
    data-la: true
    collect-pebs-record: 2
    sample-after: 100003
  - name: INST_RETIRED.ANY
    event: 0x00
    umask: 0x01
    fixed: 0
    pebs-counters: { fixed: [0] }
    pdist-counters: { fixed: [0] }
  - name: TOPDOWN_RETIRING.ALL
    event: 0x00
    umask: 0x07
    fixed: 6
  - name: BR_MISP_RETIRED.COND
    event: 0xC5
    umask: 0x11
    umask2: 0x01
    counters: all
    counters-ht-off: [0-9]
    pebs: 2
    pdir-counters: [0]
    deprecated: true
    l1-hit-indication: false
    ellc: false
    precise-store: false
    errata: [ARL010, ARL011]
"#;

#[test]
fn a_model_generation_with_every_event_fact_loads_and_round_trips_through_json() {
    let mut loader = architectural();
    loader.add_str("fixture-core.yaml", MODEL);
    let l = loader.finish();
    assert!(l.diagnostics.is_empty(), "{}", l.render_diagnostics());
    let g = l.model.generation("intel-fixture-core").unwrap();
    assert_eq!((g.general_counters(), g.fixed_counters()), (10, 7));
    // Legacy addresses continue the architectural families (SDM Vol. 4 Table 2-2).
    let addr = |r: &str| g.register(r).unwrap().addresses.clone();
    assert_eq!(addr("IA32_PMC")[8..], [0xC9, 0xCA]);
    assert_eq!(addr("IA32_PERFEVTSEL")[8..], [0x18E, 0x18F]);
    assert_eq!(addr("IA32_FIXED_CTR")[4..], [0x30D, 0x30E, 0x30F]);
    let ctl = g.register("IA32_FIXED_CTR_CTRL").unwrap();
    assert_eq!(ctl.field("ENABLE").unwrap().element_mask(6), 0b11 << 24);
    // Inherited events follow the child's counter count.
    assert_eq!(
        g.event("LLC_MISSES").unwrap().counters,
        (0..10).collect::<Vec<_>>()
    );

    let json = serde_json::to_value(&l.model).unwrap();
    let gen_json = json["generations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == "intel-fixture-core")
        .unwrap();
    let ev = |name: &str| {
        gen_json["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .unwrap()
            .clone()
    };
    let ocr = ev("OCR.DEMAND_DATA_RD.ANY_RESPONSE");
    assert_eq!(ocr["event"], 0x2A);
    assert_eq!(ocr["alt_events"], serde_json::json!([0x2B]));
    assert_eq!(ocr["alt_umasks"], serde_json::json!([]));
    assert_eq!(
        ocr["msr"],
        serde_json::json!({ "index": 0x1A6, "alt_indexes": [0x1A7], "value": 0x10001 })
    );
    assert_eq!(
        ocr["counters"],
        serde_json::json!([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    );
    assert_eq!(ocr["offcore"], true);
    assert_eq!(ocr["precise"], false);
    assert_eq!(ocr["speculative"], true);
    assert_eq!(ocr["sample_after"], 100003);
    assert_eq!(ocr["pebs"], serde_json::Value::Null);
    assert_eq!(ocr["pebs_counters"], serde_json::Value::Null);

    let alt = ev("OCR.DEMAND_RFO.ANY_RESPONSE");
    assert_eq!(
        (alt["umask"].clone(), alt["alt_umasks"].clone()),
        (1.into(), serde_json::json!([2]))
    );

    let ll = ev("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4");
    assert_eq!(
        ll["pebs_counters"],
        serde_json::json!({ "general": [2, 3, 4, 5, 6, 7, 8, 9], "fixed": [] })
    );
    assert_eq!(
        ll["pdist_counters"],
        serde_json::json!({ "general": [], "fixed": [] })
    );
    assert_eq!(ll["msr"]["alt_indexes"], serde_json::json!([]));
    for (k, v) in [("precise", true), ("taken_alone", true), ("data_la", true)] {
        assert_eq!(ll[k], v, "{k}");
    }
    assert_eq!(ll["collect_pebs_record"], 2);

    let inst = ev("INST_RETIRED.ANY");
    assert_eq!(inst["counters"], serde_json::json!([]));
    assert_eq!(inst["fixed"], 0);
    assert_eq!(
        inst["pdist_counters"],
        serde_json::json!({ "general": [], "fixed": [0] })
    );
    assert_eq!(ev("TOPDOWN_RETIRING.ALL")["fixed"], 6);

    let br = ev("BR_MISP_RETIRED.COND");
    assert_eq!(br["umask2"], 1);
    assert_eq!(br["pebs"], 2);
    assert_eq!(br["deprecated"], true);
    assert_eq!(br["errata"], serde_json::json!(["ARL010", "ARL011"]));
    assert_eq!(br["pdir_counters"]["general"], serde_json::json!([0]));
    assert_eq!(
        br["counters_ht_off"]["general"].as_array().unwrap().len(),
        10
    );

    // Every event of an architectural generation has the new keys with their defaults.
    let v1 = json["generations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == "intel-v1")
        .unwrap();
    let arch = &v1["events"][0];
    assert_eq!(arch["alt_events"], serde_json::json!([]));
    assert_eq!(arch["deprecated"], false);
    assert_eq!(arch["errata"], serde_json::json!([]));
    assert_eq!(arch["sample_after"], serde_json::Value::Null);
    assert_eq!(arch["precise"], serde_json::Value::Null);
}

#[test]
fn v6_counters_keep_one_type_at_both_addresses() {
    // Architectural PMU v6 also exposes the counters at 1900H + 4n (counter), 1901H + 4n
    // (event select) and 1980H + 4n (fixed counter): intel-v6 gives those registers an
    // `alias-msr:` range, so a model with more counters extends both ranges with one count
    // override, and moving a register onto its own alias range is refused.
    let wide = r#"
generation: intel-fixture-v6-wide
extends: intel-v6
registers:
  - { name: IA32_PMC, msr: { count: 10 } }
"#;
    let mut loader = architectural();
    loader.add_str("v6-wide.yaml", wide);
    // Only the alias range is checked here: the other per-counter registers stay narrow, an
    // error the validator reports (`counter-count-mismatch`), not this test's subject.
    let l = loader.finish();
    let g = l.model.generation("intel-fixture-v6-wide").unwrap();
    let pmc = g.register("IA32_PMC").unwrap();
    assert_eq!((pmc.msr.count, pmc.addresses[9]), (10, 0xCA));
    assert_eq!(pmc.alias_addresses.len(), 10);
    assert_eq!(pmc.alias_addresses[9], 0x1900 + 4 * 9);
    let v6 = l.model.generation("intel-v6").unwrap();
    assert_eq!(
        v6.register("IA32_PERFEVTSEL").unwrap().alias_addresses[7],
        0x1901 + 4 * 7
    );
    assert_eq!(
        v6.register("IA32_FIXED_CTR").unwrap().alias_addresses[3],
        0x198C
    );
    assert_eq!(v6.register("IA32_FIXED_CTR_CTRL").unwrap().alias_msr, None);

    let moved = r#"
generation: intel-fixture-v6-layout
extends: intel-v6
registers:
  - { name: IA32_PMC, msr: { base: 0x1900, stride: 4 } }
"#;
    let mut loader = architectural();
    loader.add_str("v6-layout.yaml", moved);
    let l = loader.finish();
    let codes: Vec<&str> = l.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["alias-overlap"], "{}", l.render_diagnostics());
}

#[test]
fn cpus_and_source_say_which_cpu_models_a_generation_describes() {
    let model = r#"
generation: model
extends: base
source: FIX/events/fix_core.json
cpus:
  - { family-model: GenuineIntel-6-97, version: V1.40, core-type: 0x20, native-model-id: 0x000001, core-role: Atom }
  - { family-model: 'GenuineIntel-6-55-[01234]', version: V1.37 }
"#;
    let below = "generation: below\nextends: model\n";
    let l = ok(&[
        ("base.yaml", BASE),
        ("model.yaml", model),
        ("below.yaml", below),
    ]);
    let g = l.model.generation("model").unwrap();
    assert_eq!(g.source.as_deref(), Some("FIX/events/fix_core.json"));
    assert_eq!(g.cpus.len(), 2);
    assert_eq!(g.cpus[0].core_type, Some(0x20));
    assert_eq!(g.cpus[0].native_model_id, Some(1));
    assert_eq!(g.cpus[0].core_role.as_deref(), Some("Atom"));
    assert_eq!(g.cpus[1].family_model, "GenuineIntel-6-55-[01234]");
    assert_eq!(g.cpus[1].core_type, None);
    // The architectural generation describes no specific CPU, and a generation extending a
    // CPU model does not inherit its CPUs or its source.
    assert!(l.model.generation("base").unwrap().cpus.is_empty());
    let below = l.model.generation("below").unwrap();
    assert!(below.cpus.is_empty() && below.source.is_none());

    let json = serde_json::to_value(&l.model).unwrap();
    let gj = json["generations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == "model")
        .unwrap();
    assert_eq!(gj["source"], "FIX/events/fix_core.json");
    assert_eq!(
        gj["cpus"][0],
        serde_json::json!({
            "family_model": "GenuineIntel-6-97", "version": "V1.40", "core_type": 32,
            "native_model_id": 1, "core_role": "Atom"
        })
    );
    let base = json["generations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == "base")
        .unwrap();
    assert_eq!(base["cpus"], serde_json::json!([]));
    assert_eq!(base["source"], serde_json::Value::Null);
}
