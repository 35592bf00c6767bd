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

const BASE: &str = r#"
generation: base
vendor: intel
pmu:
  general: { select: SEL, counter: CTR }
  encoding: { event: EVENT, umask: UMASK, cmask: CMASK, edge: EDGE, inv: INV }
registers:
  - name: CTR
    msr: { base: 0x10, count: 4 }
    fields: [ { name: COUNT, bits: 47:0 } ]
  - name: SEL
    doc: Select.
    msr: { base: 0x20, count: 4, stride: 2 }
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
    // Kept from the parent: address family, reset, doc, other fields.
    assert_eq!((sel.msr.base, sel.msr.count, sel.msr.stride), (0x20, 4, 2));
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
    assert_eq!(clr.access, Access::Write1ToClear);
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
  general: { select: SEL, counter: CTR }
  fixed: { counter: FIX }
  encoding: { event: EVENT, umask: UMASK }
registers:
  - { name: CTR, msr: { base: 0x10, count: 2 }, fields: [ { name: C, bits: 47:0 } ] }
  - { name: FIX, msr: { base: 0x18, count: 3 }, fields: [ { name: C, bits: 47:0 } ] }
  - name: SEL
    msr: { base: 0x20, count: 2 }
    fields: [ { name: EVENT, bits: 7:0 }, { name: UMASK, bits: 15:8 } ]
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
    let off = g.event("OFFCORE.X").unwrap().msr.unwrap();
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
pmu:
  fixed: { counter: FIX }
registers:
  - { name: FIX, msr: { base: 0x50, count: 2 }, fields: [ { name: C, bits: 47:0 } ] }
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
