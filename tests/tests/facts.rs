//! Hardware facts the resolved model must hold.
//!
//! Every expectation here was written from the vendors' manuals, not from the YAML:
//!
//! * Intel SDM Vol. 3B "Performance Monitoring" (architectural performance monitoring
//!   versions 1-6, Figure 18-6 "Layout of IA32_PERFEVTSELx MSRs", the fixed-counter control
//!   layout, IA32_PERF_GLOBAL_* registers, Table 18-1 of the architectural events and the
//!   association of fixed counters with them), Vol. 2A CPUID leaves 0AH and 23H, and Vol. 4
//!   Table 2-2 "IA-32 Architectural MSRs" for the addresses.
//! * AMD Athlon Processor x86 Code Optimization Guide (22007), appendix D "Performance
//!   Counter Usage" for the K7 event select, AMD64 APM Vol. 2 §13.2 for the core counter
//!   extensions and PerfMonV2, and APM Vol. 3 for CPUID Fn8000_0022.
//!
//! Names are the model's (they are API); bit positions, addresses, counts and values are
//! the manuals'. Where a lookup can be done by position instead of name, it is.

use pmu_defs::model::{
    Access, CpuidLeaf, CpuidRegister, Field, Generation, Register, RegisterRole, Severity, Vendor,
};
use pmu_defs::{Loaded, Loader, Model};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// The architectural performance monitoring versions the Intel SDM defines (Vol. 3B,
/// "Architectural Performance Monitoring", versions 1 to 6).
const SDM_VERSIONS: u64 = 6;

fn loaded() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(|| {
        let loaded = Loader::new().with_defaults().finish();
        assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
        loaded
    })
}

fn model() -> &'static Model {
    &loaded().model
}

fn generation(id: &str) -> &'static Generation {
    model()
        .generation(id)
        .unwrap_or_else(|| panic!("generation `{id}` is missing"))
}

/// The generation of Intel architectural performance monitoring version `n`, found the way a
/// CPU finds it: the architectural (not CPU-model) generation whose `detect` condition is
/// CPUID.0AH:EAX[7:0] (the version ID) >= `n`. Never a hand-kept list of ids.
fn intel_version(n: u64) -> &'static Generation {
    let found: Vec<&Generation> = model()
        .generations
        .iter()
        .filter(|g| g.vendor == Vendor::Intel && !is_core_model(g))
        .filter(|g| {
            g.detect
                .as_ref()
                .and_then(|d| d.cpuid.as_ref())
                .is_some_and(|c| {
                    c.field == "VERSION"
                        && c.register == "eax"
                        && c.at_least == n
                        && g.cpuid_leaf(&c.leaf).is_some_and(|l| l.leaf == 0x0A)
                })
        })
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one architectural generation is detected from CPUID.0AH version {n}"
    );
    found[0]
}

/// The generations of the SDM's versions `from..=6`.
fn intel_from(from: u64) -> impl Iterator<Item = &'static Generation> {
    (from..=SDM_VERSIONS).map(intel_version)
}

/// The generations of the SDM's versions before `until` (exclusive).
fn intel_before(until: u64) -> impl Iterator<Item = &'static Generation> {
    (1..until).map(intel_version)
}

/// The AMD generation the APM's enumeration picks: the architectural generation whose
/// `detect` condition is the CPUID field `field` of leaf `leaf` (Fn8000_0001_ECX
/// PerfCtrExtCore: the core counter extension; Fn8000_0022_EAX PerfMonV2).
fn amd_detected_by(leaf: u32, field: &str) -> &'static Generation {
    let found: Vec<&Generation> = amd_generations()
        .into_iter()
        .filter(|g| {
            g.detect
                .as_ref()
                .and_then(|d| d.cpuid.as_ref())
                .is_some_and(|c| {
                    c.field == field && g.cpuid_leaf(&c.leaf).is_some_and(|l| l.leaf == leaf)
                })
        })
        .collect();
    assert_eq!(found.len(), 1, "one AMD generation is detected by {field}");
    found[0]
}

/// The AMD generation detected by the CPU family alone, from family `family` on.
fn amd_from_family(family: u32) -> &'static Generation {
    let found: Vec<&Generation> = amd_generations()
        .into_iter()
        .filter(|g| {
            g.detect
                .as_ref()
                .is_some_and(|d| d.cpuid.is_none() && d.family_at_least == Some(family))
        })
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one AMD generation is detected from family {family:#x}"
    );
    found[0]
}

/// AMD's legacy K7 counters (Athlon guide 22007, appendix D): from family 6 (K7).
fn amd_k7() -> &'static Generation {
    amd_from_family(6)
}

/// The legacy counters with the AMD64 layout (BKDG for family 10h, pub. 31116,
/// MSRC001_00[03:00]): from family 10h.
fn amd_fam10h() -> &'static Generation {
    amd_from_family(0x10)
}

/// The AMD64 core performance counter extension (APM Vol. 2, 13.2.1).
fn amd_core() -> &'static Generation {
    amd_detected_by(0x8000_0001, "PERF_CTR_EXT_CORE")
}

/// PerfMonV2 (APM Vol. 2, 13.2.2).
fn amd_v2() -> &'static Generation {
    amd_detected_by(0x8000_0022, "PERFMON_V2")
}

/// The AMD facility (a generation without counters) detected by the CPUID bit `bit` of
/// `register` in leaf `leaf`.
fn amd_facility_detected_by(leaf: u32, register: &str, bit: u32) -> &'static Generation {
    let found: Vec<&Generation> = (model().generations.iter())
        .filter(|g| g.vendor == Vendor::Amd)
        .filter(|g| {
            let Some(c) = g.detect.as_ref().and_then(|d| d.cpuid.as_ref()) else {
                return false;
            };
            g.cpuid_leaf(&c.leaf)
                .filter(|l| l.leaf == leaf)
                .and_then(|l| cpuid_field(l, register, bit, bit))
                .is_some_and(|f| f.name == c.field)
        })
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one AMD generation is detected by {leaf:#x} {register}[{bit}]"
    );
    assert!(
        found[0].register_with_role(RegisterRole::Counter).is_none(),
        "{} is a facility, not a counter generation",
        found[0].id
    );
    found[0]
}

/// AMD Instruction-Based Sampling (APM Vol. 2, 13.3), detected by CPUID Fn8000_0001_ECX[IBS]
/// (bit 10). Family 10h has IBS without the core counter extension, and a hypervisor may
/// offer that extension without IBS, so it is not part of the core chain.
fn amd_ibs() -> &'static Generation {
    amd_facility_detected_by(0x8000_0001, "ecx", 10)
}

/// AMD's LBR v2 stack, detected by CPUID Fn8000_0022_EAX[LbrExtV2] (bit 1), beside PerfMonV2
/// (bit 0): a KVM guest on Zen 4 has PerfMonV2 without it.
fn amd_lbr() -> &'static Generation {
    amd_facility_detected_by(0x8000_0022, "eax", 1)
}

/// AMD's architectural (not CPU-model) core-PMU generations, parents first: those with a
/// general counter family (the `counter` role). The uncore facilities (L3, Data Fabric) are
/// generations of their own without counter roles.
fn amd_generations() -> Vec<&'static Generation> {
    let mut out: Vec<&Generation> = model()
        .generations
        .iter()
        .filter(|g| g.vendor == Vendor::Amd && !is_core_model(g))
        .filter(|g| g.register_with_role(RegisterRole::Counter).is_some())
        .collect();
    out.sort_by_key(|g| g.ancestors.len());
    out
}

fn reg<'a>(g: &'a Generation, name: &str) -> &'a Register {
    g.register(name)
        .unwrap_or_else(|| panic!("{}: register `{name}` is missing", g.id))
}

fn field<'a>(r: &'a Register, name: &str) -> &'a Field {
    r.field(name)
        .unwrap_or_else(|| panic!("register `{}`: field `{name}` is missing", r.name))
}

/// The single bit range of a field, as the manuals write it: `(msb, lsb)`.
fn bits(f: &Field) -> (u32, u32) {
    assert_eq!(f.bits.len(), 1, "field `{}` is split: {:?}", f.name, f.bits);
    (f.bits[0].msb, f.bits[0].lsb)
}

/// The field (and element index) that covers register bit `bit`, if any.
fn field_at(r: &Register, bit: u32) -> Option<(&Field, u32)> {
    r.fields.iter().find_map(|f| {
        (0..f.count())
            .find(|&i| f.element_mask(i) & (1u64 << bit) != 0)
            .map(|i| (f, i))
    })
}

/// Every bit some field of the register covers.
fn covered(r: &Register) -> u64 {
    r.fields.iter().fold(0, |m, f| m | f.full_mask())
}

/// Mask of bits `msb:lsb`.
fn span(msb: u32, lsb: u32) -> u64 {
    let ones = if msb - lsb == 63 {
        u64::MAX
    } else {
        (1u64 << (msb - lsb + 1)) - 1
    };
    ones << lsb
}

/// A per-counter array field: bit `lsb` of element 0, `count` elements at `stride`.
fn assert_array(f: &Field, lsb: u32, width: u32, count: u32, stride: u32) {
    assert_eq!(f.bits.len(), 1, "field `{}` is split", f.name);
    assert_eq!(f.bits[0].lsb, lsb, "field `{}` lsb", f.name);
    assert_eq!(f.width, width, "field `{}` width", f.name);
    let a = f
        .array
        .unwrap_or_else(|| panic!("field `{}` is not an array", f.name));
    assert_eq!(
        (a.count, a.stride),
        (count, stride),
        "field `{}` array",
        f.name
    );
}

fn leaf(g: &Generation, leaf: u32, subleaf: Option<u32>) -> Option<&CpuidLeaf> {
    g.cpuid
        .iter()
        .find(|c| c.leaf == leaf && c.subleaf == subleaf)
}

fn cpuid_reg<'a>(l: &'a CpuidLeaf, name: &str) -> Option<&'a CpuidRegister> {
    l.registers.iter().find(|r| r.register == name)
}

/// The CPUID field occupying exactly bits `msb:lsb` of output register `r`.
fn cpuid_field<'a>(l: &'a CpuidLeaf, r: &str, msb: u32, lsb: u32) -> Option<&'a Field> {
    cpuid_reg(l, r)?
        .fields
        .iter()
        .find(|f| f.bits.len() == 1 && f.bits[0].msb == msb && f.bits[0].lsb == lsb)
}

fn values(f: &Field) -> BTreeMap<&str, u64> {
    f.values
        .iter()
        .map(|v| (v.name.as_str(), v.value))
        .collect()
}

// ---------------------------------------------------------------------------------------
// The shipped files
// ---------------------------------------------------------------------------------------

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("defs dir readable") {
        let p = entry.expect("dir entry").path();
        if p.is_dir() {
            yaml_files(&p, out);
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")) {
            out.push(p);
        }
    }
}

fn shipped_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    yaml_files(&pmu_defs::defs_dir(), &mut files);
    files.sort();
    files
}

/// The file a generation is written in.
fn file_of(g: &Generation) -> PathBuf {
    let name = loaded().sources.name(g.span.file);
    std::fs::canonicalize(name).unwrap_or_else(|e| panic!("{}: `{name}`: {e}", g.id))
}

/// The CPU-model generations (imported from Intel's perfmon lists, or written by hand).
fn is_core_model(g: &Generation) -> bool {
    !g.cpus.is_empty()
}

/// The core models `cargo xtask import-perfmon` wrote (their file says so in its first
/// line); a vendor's hand-written model is a core model too, but not Intel's data.
fn is_imported(g: &Generation) -> bool {
    is_core_model(g)
        && loaded()
            .sources
            .text(g.span.file)
            .starts_with("# @generated by `cargo xtask import-perfmon`")
}

/// The core models imported from Intel's perfmon lists (the others come from Linux perf's AMD
/// lists).
fn is_intel_imported(g: &Generation) -> bool {
    is_imported(g) && g.vendor == Vendor::Intel
}

/// Asserts a load has no diagnostic except the warnings Intel's own lists cause in the
/// imported core models: a PEBS, PDist or PDIR counter outside the event's counters
/// (`counter-not-in-event`; docs/commands.md, "pmu validate") or an auxiliary-MSR value setting a
/// bit Linux's mask for the core reserves (`aux-msr-reserved`), each reviewed and acknowledged
/// by an `allow:` the importer writes from `pmu-defs/import/reviewed.yaml`.
#[track_caller]
fn assert_clean_but_intel_data(l: &Loaded, what: &str) {
    for d in &l.diagnostics {
        let file = l.sources.name(d.span().file).replace('\\', "/");
        assert!(
            d.severity == pmu_defs::Severity::Warning
                && matches!(d.code, "counter-not-in-event" | "aux-msr-reserved")
                && d.acknowledged.is_some()
                && file.contains("intel/models/"),
            "{what}: only Intel's data may warn, only counter-not-in-event or aux-msr-reserved, and acknowledged:\n{}",
            l.render_diagnostics_verbose()
        );
    }
}

#[test]
fn shipped_definitions_load_without_any_diagnostic() {
    let loaded = loaded();
    assert_clean_but_intel_data(loaded, "the shipped definitions");
    // The architectural generations the manuals define are all there (a vendor may add more);
    // every core model has its CPUs and source and extends one of them.
    // Each lookup asserts that exactly one generation is found.
    for n in 1..=SDM_VERSIONS {
        intel_version(n);
    }
    for g in [amd_k7(), amd_core(), amd_v2()] {
        assert!(!is_core_model(g), "{}", g.id);
    }
    let models: Vec<&Generation> = model()
        .generations
        .iter()
        .filter(|g| is_intel_imported(g))
        .collect();
    assert!(
        !models.is_empty(),
        "core models imported from Intel's perfmon lists"
    );
    for g in models {
        assert!(g.id.starts_with("intel-"), "{}", g.id);
        assert!(
            g.source.as_deref().is_some_and(|s| s.ends_with(".json")),
            "{}",
            g.id
        );
        assert!(
            g.ancestors.iter().any(|a| !is_core_model(generation(a))),
            "{} extends an architectural generation",
            g.id
        );
        assert!(file_of(g).starts_with(
            std::fs::canonicalize(pmu_defs::defs_dir().join("intel/models")).unwrap()
        ));
    }
    // The Zen models from Linux perf's lists: source a perf directory, extending an AMD
    // architectural generation, in defs/amd/models.
    let amd_dir = std::fs::canonicalize(pmu_defs::defs_dir().join("amd/models")).unwrap();
    for g in model()
        .generations
        .iter()
        .filter(|g| is_imported(g) && g.vendor == Vendor::Amd)
    {
        assert!(g.id.starts_with("amd-"), "{}", g.id);
        assert!(
            g.source.as_deref().is_some_and(|s| !s.contains('.')),
            "{}",
            g.id
        );
        assert!(g.ancestors.contains(&amd_core().id), "{}", g.id);
        assert!(file_of(g).starts_with(&amd_dir), "{}", g.id);
    }
}

#[test]
fn each_file_under_defs_is_one_generation() {
    let files = shipped_files();
    assert_eq!(
        files.len(),
        model().generations.len(),
        "one generation per file: {files:?}"
    );
    let root = std::fs::canonicalize(pmu_defs::defs_dir()).unwrap();
    let mut seen = BTreeMap::new();
    for g in &model().generations {
        let file = file_of(g);
        if let Some(other) = seen.insert(file.clone(), g.id.clone()) {
            panic!(
                "{} and {other} are both written in {}",
                g.id,
                file.display()
            );
        }
        // The file name says which generation it holds: `intel/v3.yaml` is `intel-v3`,
        // `intel/models/skylake.yaml` is `intel-skylake`.
        let rel = file.strip_prefix(&root).unwrap();
        let vendor_dir = rel.components().next().unwrap().as_os_str();
        let stem = file.file_stem().unwrap();
        let expect = format!(
            "{}-{}",
            vendor_dir.to_string_lossy(),
            stem.to_string_lossy()
        );
        assert_eq!(g.id, expect, "{}", file.display());
    }
    let canon: BTreeSet<PathBuf> = files
        .iter()
        .map(|f| std::fs::canonicalize(f).unwrap())
        .collect();
    assert_eq!(canon, seen.keys().cloned().collect());
}

#[test]
fn each_file_validates_with_only_its_ancestors() {
    for g in &model().generations {
        let mut loader = Loader::new();
        loader.add_path(&file_of(g));
        for a in &g.ancestors {
            loader.add_path(&file_of(generation(a)));
        }
        let alone = loader.finish();
        if is_core_model(g) {
            assert_clean_but_intel_data(&alone, &g.id);
        } else {
            assert!(
                alone.diagnostics.is_empty(),
                "{} with its ancestors {:?}:\n{}",
                g.id,
                g.ancestors,
                alone.render_diagnostics()
            );
        }
        assert_eq!(alone.model.generations.len(), g.ancestors.len() + 1);
        assert!(alone.model.generation(&g.id).is_some());
    }
}

// ---------------------------------------------------------------------------------------
// Intel: general-purpose counters and event select
// ---------------------------------------------------------------------------------------

#[test]
fn intel_general_counter_addresses() {
    for g in intel_from(1) {
        let pmc = reg(g, "IA32_PMC");
        assert_eq!(pmc.msr.base, 0xC1, "{}", g.id);
        assert_eq!((pmc.msr.count, pmc.msr.stride), (8, 1), "{}", g.id);
        assert!(pmc.msr.indexed);
        assert_eq!(pmc.addresses, (0xC1..=0xC8).collect::<Vec<u32>>());
        assert_eq!(pmc.width, 64);
        assert_eq!(pmc.access, Access::ReadWrite);

        let sel = reg(g, "IA32_PERFEVTSEL");
        assert_eq!(sel.addresses, (0x186..=0x18D).collect::<Vec<u32>>());
        assert!(sel.msr.indexed);
        assert_eq!(sel.access, Access::ReadWrite);

        let apmc = reg(g, "IA32_A_PMC");
        assert_eq!(apmc.addresses, (0x4C1..=0x4C8).collect::<Vec<u32>>());

        assert_eq!(g.general_counters(), 8, "{}", g.id);
        let general = g.pmu.general.as_ref().expect("pmu.general");
        assert_eq!(general.select, "IA32_PERFEVTSEL");
        assert_eq!(general.counter, "IA32_PMC");
    }
}

/// SDM Figure 18-6: bits 31:0 of IA32_PERFEVTSELx (bit 21 is AnyThread, version 3 on).
const PERFEVTSEL_LOW: [(&str, u32, u32); 10] = [
    ("EVENT_SELECT", 7, 0),
    ("UMASK", 15, 8),
    ("USR", 16, 16),
    ("OS", 17, 17),
    ("EDGE", 18, 18),
    ("PC", 19, 19),
    ("INT", 20, 20),
    ("EN", 22, 22),
    ("INV", 23, 23),
    ("CMASK", 31, 24),
];

#[test]
fn intel_perfevtsel_has_every_bit_of_figure_18_6() {
    for g in intel_from(1) {
        let sel = reg(g, "IA32_PERFEVTSEL");
        for (name, msb, lsb) in PERFEVTSEL_LOW {
            let f = field(sel, name);
            assert_eq!(bits(f), (msb, lsb), "{} {name}", g.id);
            assert_eq!(f.width, msb - lsb + 1, "{} {name}", g.id);
            assert_eq!(f.mask, span(msb, lsb), "{} {name}", g.id);
            assert_eq!(f.access, Access::ReadWrite, "{} {name}", g.id);
            assert!(f.array.is_none());
        }
    }
}

#[test]
fn intel_anythread_bit_21_from_v3_deprecated_from_v5() {
    for g in intel_before(3) {
        let sel = reg(g, "IA32_PERFEVTSEL");
        assert!(
            sel.field("ANY").is_none(),
            "{}: no AnyThread before v3",
            g.id
        );
        assert!(field_at(sel, 21).is_none(), "{}: bit 21 reserved", g.id);
        assert_ne!(sel.reserved_mask & (1 << 21), 0, "{}", g.id);
        assert_eq!(g.pmu.encoding_field("any"), None, "{}", g.id);
    }
    for version in 3..=SDM_VERSIONS {
        let g = intel_version(version);
        let sel = reg(g, "IA32_PERFEVTSEL");
        let any = field(sel, "ANY");
        assert_eq!(bits(any), (21, 21), "{}", g.id);
        assert_eq!(any.since, intel_version(3).id);
        assert_eq!(sel.reserved_mask & (1 << 21), 0, "{}", g.id);
        assert_eq!(g.pmu.encoding_field("any"), Some("ANY"), "{}", g.id);
        if version < 5 {
            assert!(any.deprecated.is_none(), "{}", g.id);
            continue;
        }
        let dep = any.deprecated.as_ref().expect("AnyThread deprecation");
        assert_eq!(dep.since, intel_version(5).id);
        let when = dep.when.as_deref().expect("deprecation condition");
        assert!(
            when.contains("0AH") && when.contains("EDX[15]"),
            "deprecation must name CPUID.0AH:EDX[15], got `{when}`"
        );
    }
}

#[test]
fn intel_perfevtsel_upper_bits_by_generation() {
    // IN_TX (32) and IN_TXCP (33): Intel TSX, Haswell = version 3.
    for g in intel_before(3) {
        let sel = reg(g, "IA32_PERFEVTSEL");
        assert!(field_at(sel, 32).is_none() && field_at(sel, 33).is_none());
    }
    for g in intel_from(3) {
        let sel = reg(g, "IA32_PERFEVTSEL");
        assert_eq!(bits(field(sel, "IN_TX")), (32, 32), "{}", g.id);
        assert_eq!(bits(field(sel, "IN_TXCP")), (33, 33), "{}", g.id);
    }
    // Adaptive PEBS record (34): version 5.
    for g in intel_before(5) {
        assert!(
            field_at(reg(g, "IA32_PERFEVTSEL"), 34).is_none(),
            "{}",
            g.id
        );
    }
    for g in intel_from(5) {
        let (f, _) = field_at(reg(g, "IA32_PERFEVTSEL"), 34).expect("bit 34 in v5+");
        assert_eq!(bits(f), (34, 34), "{}", g.id);
    }
    // EQ (36) and UMASK2 (47:40): version 6 only.
    for g in intel_before(6) {
        let sel = reg(g, "IA32_PERFEVTSEL");
        assert!(sel.field("EQ").is_none() && sel.field("UMASK2").is_none());
        assert!(field_at(sel, 36).is_none(), "{}", g.id);
        assert!((40..=47).all(|b| field_at(sel, b).is_none()), "{}", g.id);
        assert_eq!(g.pmu.encoding_field("umask2"), None);
        assert_eq!(g.pmu.encoding_field("eq"), None);
    }
    let v6 = generation("intel-v6");
    let sel = reg(v6, "IA32_PERFEVTSEL");
    assert_eq!(bits(field(sel, "EQ")), (36, 36));
    assert_eq!(bits(field(sel, "UMASK2")), (47, 40));
    assert_eq!(field(sel, "UMASK2").since, "intel-v6");
    assert_eq!(field(sel, "EQ").since, "intel-v6");
    assert_eq!(v6.pmu.encoding_field("umask2"), Some("UMASK2"));
    assert_eq!(v6.pmu.encoding_field("eq"), Some("EQ"));
}

#[test]
fn intel_perfevtsel_reserved_bits_are_derived() {
    let reserved = |id| reg(generation(id), "IA32_PERFEVTSEL").reserved_mask;
    // v1/v2: bit 21 and 63:32 reserved.
    assert_eq!(reserved("intel-v1"), !0xFFFF_FFFFu64 | (1 << 21));
    assert_eq!(reserved("intel-v2"), !0xFFFF_FFFFu64 | (1 << 21));
    // v3/v4: AnyThread, IN_TX, IN_TXCP defined.
    assert_eq!(reserved("intel-v3"), !0x3_FFFF_FFFFu64);
    assert_eq!(reserved("intel-v4"), !0x3_FFFF_FFFFu64);
    // v5: adaptive PEBS record bit 34.
    assert_eq!(reserved("intel-v5"), !0x7_FFFF_FFFFu64);
    // v6: 63:48 and 39:37 stay reserved; EQ and UMASK2 are not.
    let v6 = reserved("intel-v6");
    assert_eq!(v6 & span(63, 48), span(63, 48));
    assert_eq!(v6 & span(39, 37), span(39, 37));
    assert_eq!(v6 & (span(47, 40) | (1 << 36) | span(34, 0)), 0);
    // Reserved is exactly what no field covers.
    for g in model().generations.iter() {
        for r in &g.registers {
            let width_mask = span(r.width - 1, 0);
            assert_eq!(
                r.reserved_mask,
                width_mask & !covered(r),
                "{} {}",
                g.id,
                r.name
            );
        }
    }
}

#[test]
fn pc_flag_polarity_intel_vs_amd() {
    // Intel SDM: PC set -> PMi pins toggle on each increment; clear -> on overflow.
    for g in intel_from(1) {
        let pc = field(reg(g, "IA32_PERFEVTSEL"), "PC");
        assert_eq!(bits(pc), (19, 19));
        assert_eq!(
            values(pc),
            BTreeMap::from([("TOGGLE_ON_OVERFLOW", 0), ("TOGGLE_ON_INCREMENT", 1)]),
            "{}",
            g.id
        );
    }
    // AMD Athlon guide (22007E, p. 163): PC set -> pins toggle when the counter overflows;
    // clear -> pins toggle on every increment.
    let pc = field(reg(generation("amd-k7"), "PERF_EVT_SEL"), "PC");
    assert_eq!(bits(pc), (19, 19));
    assert_eq!(
        values(pc),
        BTreeMap::from([("TOGGLE_ON_INCREMENT", 0), ("TOGGLE_ON_OVERFLOW", 1)])
    );
}

// ---------------------------------------------------------------------------------------
// Intel: fixed counters
// ---------------------------------------------------------------------------------------

#[test]
fn intel_fixed_counters() {
    let v1 = generation("intel-v1");
    assert!(v1.register("IA32_FIXED_CTR").is_none());
    assert!(v1.register("IA32_FIXED_CTR_CTRL").is_none());
    assert!(v1.pmu.fixed.is_none());
    assert_eq!(v1.fixed_counters(), 0);
    for (g, n) in intel_from(2).zip([3, 3, 3, 4, 4]) {
        let ctr = reg(g, "IA32_FIXED_CTR");
        assert_eq!(ctr.msr.base, 0x309, "{}", g.id);
        assert_eq!(ctr.msr.stride, 1);
        assert!(ctr.msr.indexed);
        assert_eq!(ctr.addresses, (0x309..0x309 + n).collect::<Vec<u32>>());
        assert_eq!(g.fixed_counters(), n, "{}", g.id);
        let fixed = g.pmu.fixed.as_ref().expect("pmu.fixed");
        assert_eq!(fixed.counter, "IA32_FIXED_CTR");
        assert_eq!(fixed.control.as_deref(), Some("IA32_FIXED_CTR_CTRL"));
    }
    // IA32_FIXED_CTR3 (top-down slots) at 30CH from version 5.
    assert!(
        !reg(generation("intel-v4"), "IA32_FIXED_CTR")
            .addresses
            .contains(&0x30C)
    );
    assert_eq!(
        reg(generation("intel-v5"), "IA32_FIXED_CTR").msr.address(3),
        0x30C
    );
}

/// IA32_PERF_METRICS (329H; Linux arch/x86/include/asm/msr-index.h `MSR_PERF_METRICS
/// 0x00000329`): eight 8-bit metrics, byte i being the metric Linux's
/// arch/x86/include/asm/perf_event.h numbers 0x80 + i (`INTEL_TD_METRIC_RETIRING 0x8000`,
/// `BAD_SPEC 0x8100`, `FE_BOUND 0x8200`, `BE_BOUND 0x8300`, `HEAVY_OPS 0x8400`,
/// `BR_MISPREDICT 0x8500`, `FETCH_LAT 0x8600`, `MEM_BOUND 0x8700`), from version 5 (Ice Lake),
/// enabled by GLOBAL_CTRL bit 48 and reported by GLOBAL_STATUS bit 48.
#[test]
fn intel_perf_metrics() {
    for g in intel_before(5) {
        assert!(g.register("IA32_PERF_METRICS").is_none(), "{}", g.id);
    }
    let by_linux_number = [
        "RETIRING",
        "BAD_SPECULATION",
        "FRONTEND_BOUND",
        "BACKEND_BOUND",
        "HEAVY_OPERATIONS",
        "BRANCH_MISPREDICTS",
        "FETCH_LATENCY",
        "MEMORY_BOUND",
    ];
    for g in intel_from(5) {
        let r = reg(g, "IA32_PERF_METRICS");
        assert_eq!(r.addresses, vec![0x329], "{}", g.id);
        assert_eq!(r.reserved_mask, 0, "{}: every byte is a metric", g.id);
        for (i, name) in by_linux_number.iter().enumerate() {
            let lo = 8 * i as u32;
            assert_eq!(bits(field(r, name)), (lo + 7, lo), "{}: {name}", g.id);
        }
        assert!(field(r, "HEAVY_OPERATIONS").requires.is_some(), "level 2");
        assert_eq!(
            bits(field(reg(g, "IA32_PERF_GLOBAL_CTRL"), "EN_PERF_METRICS")),
            (48, 48)
        );
        assert_eq!(
            bits(field(reg(g, "IA32_PERF_GLOBAL_STATUS"), "OVF_PERF_METRICS")),
            (48, 48)
        );
    }
}

#[test]
fn intel_fixed_ctr_ctrl_blocks() {
    for ((g, n), version) in intel_from(2).zip([3, 3, 3, 4, 4]).zip(2..) {
        let ctl = reg(g, "IA32_FIXED_CTR_CTRL");
        assert_eq!(ctl.msr.base, 0x38D, "{}", g.id);
        assert_eq!(ctl.addresses, vec![0x38D]);
        assert!(!ctl.msr.indexed);
        assert_eq!(ctl.access, Access::ReadWrite);

        let en = field(ctl, "ENABLE");
        assert_array(en, 0, 2, n, 4);
        assert_eq!(
            values(en),
            BTreeMap::from([("DISABLED", 0), ("OS", 1), ("USR", 2), ("ALL", 3)]),
            "{}",
            g.id
        );
        let pmi = field(ctl, "PMI");
        assert_array(pmi, 3, 1, n, 4);

        // Counter 2's block is bits 11:8.
        assert_eq!(en.element_mask(2), 0x300);
        assert_eq!(pmi.element_mask(2), 0x800);
        assert_eq!(en.insert(2, 3), 0x300);
        assert_eq!(en.insert(2, 2), 0x200);
        assert_eq!(en.extract(2, 0x100), 1);
        assert_eq!(en.extract(1, 0x300), 0);
        if n == 4 {
            assert_eq!(en.element_mask(3), 0x3000);
        }

        if version == 2 {
            assert!(ctl.field("ANY").is_none());
            assert!((0..n).all(|i| field_at(ctl, 4 * i + 2).is_none()));
        } else {
            let any = field(ctl, "ANY");
            assert_array(any, 2, 1, n, 4);
            assert_eq!(any.element_mask(2), 0x400);
            assert_eq!(
                en.element_mask(2) | any.element_mask(2) | pmi.element_mask(2),
                0xF00
            );
            // Deprecated from version 5 (SDM §18.2.5), stated by version 5 itself.
            match &any.deprecated {
                Some(dep) => {
                    assert!(version >= 5, "{}", g.id);
                    assert_eq!(dep.since, intel_version(5).id);
                }
                None => assert!(version < 5, "{}: fixed AnyThread deprecation", g.id),
            }
        }
    }
    // Adaptive PEBS for fixed counter i: bit 32 + 4i (version 5).
    for g in intel_before(5).skip(1) {
        assert!(field_at(reg(g, "IA32_FIXED_CTR_CTRL"), 32).is_none());
    }
    for g in intel_from(5) {
        let ctl = reg(g, "IA32_FIXED_CTR_CTRL");
        let (f, i) = field_at(ctl, 32).expect("adaptive record of fixed counter 0");
        assert_eq!(i, 0);
        assert_array(f, 32, 1, 4, 4);
        assert_eq!(f.element_mask(3), 1 << 44);
    }
}

// ---------------------------------------------------------------------------------------
// Intel: global control and status
// ---------------------------------------------------------------------------------------

/// The bits IA32_PERF_GLOBAL_STATUS defines in each Intel generation (index = version).
fn global_status_bits(version: usize) -> u64 {
    let fixed = if version >= 5 { 0xF } else { 0x7 };
    let mut m = 0xFF | (fixed << 32) | (1 << 62) | (1 << 63);
    if version >= 3 {
        m |= 1 << 61; // Ovf_Uncore
    }
    if version >= 4 {
        m |= (1 << 55) | (1 << 58) | (1 << 59) | (1 << 60); // ToPA PMI, LBR_Frz, CTR_Frz, ASCI
    }
    if version >= 5 {
        m |= 1 << 48; // PERF_METRICS overflow
    }
    m
}

#[test]
fn intel_global_status() {
    for g in intel_before(2) {
        assert!(g.register("IA32_PERF_GLOBAL_STATUS").is_none());
        assert!(g.register("IA32_PERF_GLOBAL_CTRL").is_none());
    }
    for (v, g) in (2..).zip(intel_from(2)) {
        let st = reg(g, "IA32_PERF_GLOBAL_STATUS");
        assert_eq!(st.addresses, vec![0x38E], "{}", g.id);
        assert_eq!(st.access, Access::ReadOnly);
        assert!(st.fields.iter().all(|f| f.access == Access::ReadOnly));
        assert_eq!(covered(st), global_status_bits(v), "{}", g.id);

        let n_fixed = g.fixed_counters();
        let (pmc, i) = field_at(st, 0).unwrap();
        assert_eq!(i, 0);
        assert_array(pmc, 0, 1, 8, 1);
        let (fx, i) = field_at(st, 32).unwrap();
        assert_eq!(i, 0);
        assert_array(fx, 32, 1, n_fixed, 1);
        assert_eq!(bits(field(st, "OVF_BUF")), (62, 62));
        assert_eq!(bits(field(st, "COND_CHGD")), (63, 63));
    }
}

#[test]
fn intel_global_ctrl() {
    for g in intel_from(2) {
        let ctl = reg(g, "IA32_PERF_GLOBAL_CTRL");
        assert_eq!(ctl.addresses, vec![0x38F], "{}", g.id);
        assert_eq!(ctl.access, Access::ReadWrite);
        let fixed = if g.fixed_counters() == 4 { 0xF } else { 0x7 };
        let mut want = 0xFF | (fixed << 32);
        if intel_from(5).any(|v| v.id == g.id) {
            want |= 1 << 48; // EN_PERF_METRICS
        }
        assert_eq!(covered(ctl), want, "{}", g.id);
        // SDM Vol. 3A Table "Processor States Following Power-up, Reset, or INIT":
        // IA32_PERF_GLOBAL_CTRL sets bits n-1:0 (n = number of GP counters) after reset.
        // That depends on the processor, so the model must not claim a reset value of 0.
        assert_ne!(ctl.reset, Some(0), "{}", g.id);
    }
}

#[test]
fn intel_global_ovf_ctrl_becomes_status_reset_in_v4() {
    for g in [generation("intel-v2"), generation("intel-v3")] {
        assert!(g.register("IA32_PERF_GLOBAL_STATUS_RESET").is_none());
        let r = reg(g, "IA32_PERF_GLOBAL_OVF_CTRL");
        assert_eq!(r.addresses, vec![0x390], "{}", g.id);
        assert_eq!(r.access, Access::WriteOneToClear);
        assert!(r.fields.iter().all(|f| f.access == Access::WriteOneToClear));
    }
    for g in intel_from(4) {
        assert!(
            g.register("IA32_PERF_GLOBAL_OVF_CTRL").is_none(),
            "{}",
            g.id
        );
        let r = reg(g, "IA32_PERF_GLOBAL_STATUS_RESET");
        assert_eq!(r.addresses, vec![0x390], "{}", g.id);
        assert_eq!(r.access, Access::WriteOneToClear);
        assert!(r.fields.iter().all(|f| f.access == Access::WriteOneToClear));
    }
    // Every status bit can be cleared by writing 1 at the same position.
    for (v, g) in (2..).zip(intel_from(2)) {
        let r = g
            .register("IA32_PERF_GLOBAL_STATUS_RESET")
            .or_else(|| g.register("IA32_PERF_GLOBAL_OVF_CTRL"))
            .unwrap();
        assert_eq!(covered(r), global_status_bits(v), "{}", g.id);
    }
}

#[test]
fn intel_global_status_set_and_inuse_from_v4() {
    for g in intel_before(4) {
        assert!(g.register("IA32_PERF_GLOBAL_STATUS_SET").is_none());
        assert!(g.register("IA32_PERF_GLOBAL_INUSE").is_none());
    }
    for (v, g) in (4..).zip(intel_from(4)) {
        let set = reg(g, "IA32_PERF_GLOBAL_STATUS_SET");
        assert_eq!(set.addresses, vec![0x391], "{}", g.id);
        assert_eq!(set.access, Access::WriteOneToSet);
        assert!(set.fields.iter().all(|f| f.access == Access::WriteOneToSet));
        // Every status bit except CondChgd (63) can be set.
        assert_eq!(covered(set), global_status_bits(v) & !(1 << 63), "{}", g.id);

        let inuse = reg(g, "IA32_PERF_GLOBAL_INUSE");
        assert_eq!(inuse.addresses, vec![0x392], "{}", g.id);
        assert_eq!(inuse.access, Access::ReadOnly);
        assert!(inuse.fields.iter().all(|f| f.access == Access::ReadOnly));
        let fixed = if v >= 5 { 0xF } else { 0x7 };
        assert_eq!(covered(inuse), 0xFF | (fixed << 32) | (1 << 63), "{}", g.id);
    }
}

#[test]
fn intel_perf_capabilities() {
    for g in intel_from(1) {
        let cap = reg(g, "IA32_PERF_CAPABILITIES");
        assert_eq!(cap.addresses, vec![0x345], "{}", g.id);
        assert_eq!(cap.access, Access::ReadOnly);
        assert!(cap.fields.iter().all(|f| f.access == Access::ReadOnly));
        for (name, msb, lsb) in [
            ("LBR_FMT", 5, 0),
            ("PEBS_TRAP", 6, 6),
            ("PEBS_ARCH_REG", 7, 7),
            ("PEBS_REC_FMT", 11, 8),
            ("SMM_FREEZE", 12, 12),
            ("FW_WRITE", 13, 13),
        ] {
            assert_eq!(bits(field(cap, name)), (msb, lsb), "{} {name}", g.id);
        }
    }
    for g in intel_from(5) {
        let cap = reg(g, "IA32_PERF_CAPABILITIES");
        assert_eq!(bits(field(cap, "PEBS_BASELINE")), (14, 14));
        assert_eq!(bits(field(cap, "PERF_METRICS_AVAILABLE")), (15, 15));
    }
}

#[test]
fn intel_debugctl_freeze_bits_from_v2() {
    let v1 = reg(generation("intel-v1"), "IA32_DEBUGCTL");
    assert!(field_at(v1, 11).is_none() && field_at(v1, 12).is_none());
    for g in intel_from(1) {
        let dbg = reg(g, "IA32_DEBUGCTL");
        assert_eq!(dbg.addresses, vec![0x1D9], "{}", g.id);
        for (name, bit) in [
            ("LBR", 0),
            ("BTF", 1),
            ("TR", 6),
            ("BTS", 7),
            ("BTINT", 8),
            ("BTS_OFF_OS", 9),
            ("BTS_OFF_USR", 10),
            ("FREEZE_WHILE_SMM", 14),
        ] {
            assert_eq!(bits(field(dbg, name)), (bit, bit), "{} {name}", g.id);
        }
    }
    for g in intel_from(2) {
        let dbg = reg(g, "IA32_DEBUGCTL");
        let lbrs = field(dbg, "FREEZE_LBRS_ON_PMI");
        let perf = field(dbg, "FREEZE_PERFMON_ON_PMI");
        assert_eq!(bits(lbrs), (11, 11), "{}", g.id);
        assert_eq!(bits(perf), (12, 12), "{}", g.id);
        assert_eq!(lbrs.since, "intel-v2");
        assert_eq!(perf.since, "intel-v2");
    }
}

// ---------------------------------------------------------------------------------------
// Intel: CPUID
// ---------------------------------------------------------------------------------------

#[test]
fn intel_cpuid_0ah_layout() {
    for (v, g) in (1..).zip(intel_from(1)) {
        let l = leaf(g, 0x0A, None).expect("CPUID leaf 0AH");
        assert_eq!(l.name, "ARCH_PERFMON");
        assert!(g.cpuid_leaf("ARCH_PERFMON").is_some());
        // EAX: version 7:0, GP counters 15:8, GP width 23:16, EBX length 31:24.
        for (msb, lsb) in [(7, 0), (15, 8), (23, 16), (31, 24)] {
            assert!(
                cpuid_field(l, "eax", msb, lsb).is_some(),
                "{}: EAX[{msb}:{lsb}]",
                g.id
            );
        }
        assert_eq!(cpuid_reg(l, "eax").unwrap().reserved_mask, 0);
        // EBX: one "event unavailable" bit per architectural event.
        let n_events = match v {
            1..=4 => 7,
            5 => 8,
            _ => 13,
        };
        let ebx = cpuid_reg(l, "ebx").expect("EBX");
        for b in 0..n_events {
            assert!(cpuid_field(l, "ebx", b, b).is_some(), "{}: EBX[{b}]", g.id);
        }
        assert_eq!(ebx.reserved_mask, !((1u32 << n_events) - 1), "{}", g.id);
        // EDX: fixed counters 4:0 and their width 12:5 (version 2), AnyThread deprecation
        // bit 15 (version 5).
        if v == 1 {
            assert!(cpuid_reg(l, "edx").is_none_or(|r| r.fields.is_empty()));
        } else {
            let count = cpuid_field(l, "edx", 4, 0).expect("EDX[4:0]");
            let width = cpuid_field(l, "edx", 12, 5).expect("EDX[12:5]");
            assert_eq!(count.name, "FIXED_COUNTERS");
            assert_eq!(width.name, "FIXED_WIDTH");
            assert_eq!(cpuid_field(l, "edx", 15, 15).is_some(), v >= 5, "{}", g.id);
        }
        // ECX: bitmap of supported fixed counters (version 5).
        assert_eq!(
            cpuid_field(l, "ecx", 31, 0).is_some(),
            v >= 5,
            "{}: ECX fixed-counter bitmap",
            g.id
        );
    }
    let l = leaf(generation("intel-v1"), 0x0A, None).unwrap();
    let names: Vec<&str> = cpuid_reg(l, "eax")
        .unwrap()
        .fields
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(names, ["VERSION", "GP_COUNTERS", "GP_WIDTH", "EBX_LENGTH"]);
}

#[test]
fn intel_cpuid_23h_in_v6_only() {
    for g in intel_before(6) {
        assert!(g.cpuid.iter().all(|c| c.leaf != 0x23), "{}", g.id);
    }
    let v6 = generation("intel-v6");
    let main = leaf(v6, 0x23, Some(0)).expect("CPUID 23H subleaf 0");
    let umask2 = cpuid_field(main, "ebx", 0, 0).expect("23H EBX[0]");
    let eq = cpuid_field(main, "ebx", 1, 1).expect("23H EBX[1]");
    assert_eq!(umask2.name, "UMASK2");
    assert_eq!(eq.name, "EQ");
    assert!(cpuid_field(main, "eax", 31, 0).is_some(), "subleaf bitmap");
    let counters = leaf(v6, 0x23, Some(1)).expect("CPUID 23H subleaf 1");
    assert!(
        cpuid_field(counters, "eax", 31, 0).is_some(),
        "GP counter bitmap"
    );
    assert!(
        cpuid_field(counters, "ebx", 31, 0).is_some(),
        "fixed counter bitmap"
    );
}

// ---------------------------------------------------------------------------------------
// Intel: architectural events (SDM Table 18-1)
// ---------------------------------------------------------------------------------------

/// (event select, umask, CPUID.0AH:EBX bit), in bit order.
const ARCH_EVENTS: [(u32, u32, u32); 13] = [
    (0x3C, 0x00, 0),  // UnHalted Core Cycles
    (0xC0, 0x00, 1),  // Instructions Retired
    (0x3C, 0x01, 2),  // UnHalted Reference Cycles
    (0x2E, 0x4F, 3),  // LLC References
    (0x2E, 0x41, 4),  // LLC Misses
    (0xC4, 0x00, 5),  // Branch Instructions Retired
    (0xC5, 0x00, 6),  // Branch Misses Retired
    (0xA4, 0x01, 7),  // Topdown Slots
    (0xA4, 0x02, 8),  // Topdown Backend Bound
    (0x73, 0x00, 9),  // Topdown Bad Speculation
    (0x9C, 0x01, 10), // Topdown Frontend Bound
    (0xC2, 0x02, 11), // Topdown Retiring
    (0xE4, 0x01, 12), // LBR Inserts
];

fn encodings(g: &Generation) -> BTreeSet<(u32, u32, u32)> {
    g.events
        .iter()
        .map(|e| {
            let bit = e.cpuid_bit.unwrap_or_else(|| {
                panic!("{}: architectural event {} has no CPUID bit", g.id, e.name)
            });
            (e.event, e.umask, bit)
        })
        .collect()
}

#[test]
fn intel_architectural_events() {
    let v6 = generation("intel-v6");
    assert_eq!(v6.events.len(), 13);
    assert_eq!(encodings(v6), ARCH_EVENTS.into_iter().collect());
    for g in intel_before(5) {
        assert_eq!(
            encodings(g),
            ARCH_EVENTS[..7].iter().copied().collect(),
            "{}: the version 1 set is the first seven",
            g.id
        );
    }
    let v5 = encodings(generation("intel-v5"));
    assert!(
        ARCH_EVENTS[..8].iter().all(|e| v5.contains(e)),
        "v5 adds Topdown Slots"
    );

    for g in intel_from(1) {
        let l = leaf(g, 0x0A, None).unwrap();
        for e in &g.events {
            // The event's "unavailable" bit is described in CPUID.0AH:EBX.
            let bit = e.cpuid_bit.unwrap();
            assert!(
                cpuid_field(l, "ebx", bit, bit).is_some(),
                "{} {}",
                g.id,
                e.name
            );
            // Architectural events count on any general-purpose counter.
            assert_eq!(
                e.counters,
                (0..8).collect::<Vec<u32>>(),
                "{} {}",
                g.id,
                e.name
            );
            assert_eq!((e.cmask, e.inv, e.edge, e.any), (0, false, false, false));
            assert_eq!(e.umask2, None);
            // The encoding fits the select register's fields.
            let sel = reg(g, "IA32_PERFEVTSEL");
            let ev = field(sel, g.pmu.encoding_field("event").unwrap());
            let um = field(sel, g.pmu.encoding_field("umask").unwrap());
            let raw = ev.insert(0, e.event.into()) | um.insert(0, e.umask.into());
            assert_eq!(raw, u64::from(e.event) | u64::from(e.umask) << 8);
            assert_eq!(ev.extract(0, raw), u64::from(e.event));
            assert_eq!(um.extract(0, raw), u64::from(e.umask));
        }
    }
    // A few by name, for readers of the generated API.
    let llc = v6.event("LLC_MISSES").expect("LLC_MISSES");
    assert_eq!((llc.event, llc.umask, llc.cpuid_bit), (0x2E, 0x41, Some(4)));
    let slots = v6.event("TOPDOWN_SLOTS").expect("TOPDOWN_SLOTS");
    assert_eq!(
        (slots.event, slots.umask, slots.cpuid_bit),
        (0xA4, 0x01, Some(7))
    );
    assert_eq!(slots.since, "intel-v5");
}

/// SDM "Association of Fixed-Function Performance Counters with Architectural Performance
/// Events": IA32_FIXED_CTR0 counts Instructions Retired, CTR1 UnHalted Core Cycles, CTR2
/// UnHalted Reference Cycles, CTR3 (version 5) Topdown Slots. The events stay countable on
/// every general-purpose counter as well.
#[test]
fn intel_fixed_counters_count_architectural_events() {
    for g in intel_from(2) {
        for (event, umask, fixed) in [
            (0xC0, 0x00, 0),
            (0x3C, 0x00, 1),
            (0x3C, 0x01, 2),
            (0xA4, 0x01, 3),
        ] {
            let Some(e) = g
                .events
                .iter()
                .find(|e| (e.event, e.umask) == (event, umask))
            else {
                continue;
            };
            if fixed >= g.fixed_counters() {
                continue;
            }
            assert_eq!(e.fixed, Some(fixed), "{} {}", g.id, e.name);
            assert_eq!(
                e.counters,
                (0..8).collect::<Vec<u32>>(),
                "{} {}",
                g.id,
                e.name
            );
        }
    }
}

#[test]
fn inv_without_cmask_is_an_error() {
    for g in intel_from(1) {
        let c = g
            .constraints
            .iter()
            .find(|c| c.id == "inv-without-cmask")
            .unwrap_or_else(|| panic!("{}: inv-without-cmask", g.id));
        assert_eq!(c.register, "IA32_PERFEVTSEL");
        assert_eq!(c.severity, Severity::Error);
        let when: BTreeMap<&str, u64> =
            c.when.iter().map(|w| (w.field.as_str(), w.value)).collect();
        assert_eq!(when, BTreeMap::from([("INV", 1), ("CMASK", 0)]));
    }
}

#[test]
fn unchanged_registers_keep_their_definition() {
    let v6 = generation("intel-v6");
    // IA32_PMC and IA32_FIXED_CTR gain their v6 alias range (`alias-msr:`) in intel-v6: one
    // definition there, reachable at both addresses; IA32_A_PMC is unchanged.
    for (name, defined_in, since) in [
        ("IA32_PMC", "intel-v6", "intel-v1"),
        ("IA32_A_PMC", "intel-v1", "intel-v1"),
        ("IA32_PERFEVTSEL", "intel-v6", "intel-v1"),
        ("IA32_FIXED_CTR", "intel-v6", "intel-v2"),
        ("IA32_PERF_GLOBAL_INUSE", "intel-v5", "intel-v4"),
    ] {
        let r = reg(v6, name);
        assert_eq!(
            (r.defined_in.as_str(), r.since.as_str()),
            (defined_in, since),
            "{name}"
        );
    }
    assert_eq!(
        reg(generation("intel-v4"), "IA32_PMC").defined_in,
        "intel-v1"
    );
    assert_eq!(
        reg(generation("intel-v2"), "IA32_PERFEVTSEL").defined_in,
        "intel-v1"
    );
    assert_eq!(
        reg(generation("intel-v5"), "IA32_PERFEVTSEL").defined_in,
        "intel-v5"
    );
    assert_eq!(
        leaf(generation("intel-v4"), 0x0A, None).unwrap().defined_in,
        "intel-v2"
    );
    assert_eq!(
        reg(generation("amd-perfmon-v2"), "PERF_CTR").defined_in,
        "amd-k7"
    );
    assert_eq!(
        reg(generation("amd-perfmon-v2"), "PERF_CTR_CORE").defined_in,
        "amd-core"
    );
    // Each version extends the one before it; PerfMonV2 extends the core extension, which
    // extends the family 10h layout of the legacy counters, which extends K7's.
    let older: Vec<&str> = (1..SDM_VERSIONS)
        .rev()
        .map(|n| intel_version(n).id.as_str())
        .collect();
    assert_eq!(intel_version(SDM_VERSIONS).ancestors, older);
    assert_eq!(
        amd_v2().ancestors,
        [
            amd_core().id.as_str(),
            amd_fam10h().id.as_str(),
            amd_k7().id.as_str()
        ]
    );
}

// ---------------------------------------------------------------------------------------
// AMD
// ---------------------------------------------------------------------------------------

#[test]
fn amd_k7_legacy_counters() {
    for g in amd_generations() {
        let id = &g.id;
        let sel = reg(g, "PERF_EVT_SEL");
        assert_eq!(
            sel.addresses,
            (0xC001_0000..=0xC001_0003).collect::<Vec<u32>>()
        );
        let ctr = reg(g, "PERF_CTR");
        assert_eq!(
            ctr.addresses,
            (0xC001_0004..=0xC001_0007).collect::<Vec<u32>>()
        );
        assert_eq!(bits(field(ctr, "COUNT")), (47, 0), "{id}: 48-bit counters");
    }
    let k7 = generation("amd-k7");
    assert_eq!(k7.general_counters(), 4);
    let sel = reg(k7, "PERF_EVT_SEL");
    // Same layout as Intel's bits 31:0, bit 21 reserved, 63:32 reserved.
    for (name, msb, lsb) in PERFEVTSEL_LOW {
        assert_eq!(bits(field(sel, name)), (msb, lsb), "{name}");
    }
    assert_eq!(sel.reserved_mask, !0xFFFF_FFFFu64 | (1 << 21));
    assert!(k7.vendor == pmu_defs::model::Vendor::Amd);
    let c = k7
        .constraints
        .iter()
        .find(|c| c.register == "PERF_EVT_SEL")
        .expect("INV without CMASK on AMD too");
    assert_eq!(c.severity, Severity::Error);
}

#[test]
fn amd_fam10h_legacy_counters_have_the_amd64_layout() {
    let g = amd_fam10h();
    assert_eq!(g.ancestors, [amd_k7().id.as_str()]);
    assert_eq!(g.general_counters(), 4);
    let general = g.pmu.general.as_ref().unwrap();
    assert_eq!(general.select, "PERF_EVT_SEL");
    assert_eq!(general.counter, "PERF_CTR");
    let sel = reg(g, "PERF_EVT_SEL");
    assert_eq!(sel.defined_in, "amd-fam10h");
    // BKDG 31116 MSRC001_00[03:00]: EventSelect[11:8] at 35:32, GuestOnly 40, HostOnly 41;
    // bits 19 (K7's pin control) and 21 reserved, 39:36 and 63:42 reserved.
    let ev = field(sel, "EVENT_SELECT");
    let ranges: Vec<(u32, u32)> = ev.bits.iter().map(|b| (b.msb, b.lsb)).collect();
    assert_eq!(ranges, [(7, 0), (35, 32)]);
    assert!(
        sel.field("PC").is_none(),
        "bit 19 is reserved from family 10h on"
    );
    assert_eq!(bits(field(sel, "GUEST_ONLY")), (40, 40));
    assert_eq!(bits(field(sel, "HOST_ONLY")), (41, 41));
    let defined = (0xFFFF_FFFFu64 & !(1 << 19) & !(1 << 21)) | span(35, 32) | span(41, 40);
    assert_eq!(sel.reserved_mask, !defined);
    assert_eq!(g.pmu.encoding_field("event"), Some("EVENT_SELECT"));
    // Detected by family alone: a guest without PerfCtrExtCore has these counters.
    let d = g.detect.as_ref().unwrap();
    assert_eq!((d.family_at_least, d.cpuid.is_none()), (Some(0x10), true));
}

#[test]
fn amd_core_counters() {
    for g in [amd_core(), amd_v2()] {
        let id = &g.id;
        assert_eq!(g.general_counters(), 6, "{id}");
        let general = g.pmu.general.as_ref().unwrap();
        assert_eq!(general.select, "PERF_EVT_SEL_CORE");
        assert_eq!(general.counter, "PERF_CTR_CORE");

        let sel = reg(g, "PERF_EVT_SEL_CORE");
        assert_eq!(
            (sel.msr.base, sel.msr.count, sel.msr.stride),
            (0xC001_0200, 6, 2)
        );
        assert_eq!(
            sel.addresses,
            [
                0xC001_0200,
                0xC001_0202,
                0xC001_0204,
                0xC001_0206,
                0xC001_0208,
                0xC001_020A
            ]
        );
        let ctr = reg(g, "PERF_CTR_CORE");
        assert_eq!(
            (ctr.msr.base, ctr.msr.count, ctr.msr.stride),
            (0xC001_0201, 6, 2)
        );
        assert_eq!(ctr.msr.address(5), 0xC001_020B);

        // EventSelect[11:8] lives in bits 35:32.
        for r in [sel, reg(g, "PERF_EVT_SEL")] {
            let ev = field(r, "EVENT_SELECT");
            let ranges: Vec<(u32, u32)> = ev.bits.iter().map(|b| (b.msb, b.lsb)).collect();
            assert_eq!(ranges, [(7, 0), (35, 32)], "{id} {}", r.name);
            assert_eq!(ev.width, 12);
            assert_eq!(ev.mask, 0xF_0000_00FF);
            assert_eq!(ev.insert(0, 0x1AB), 0x1_0000_00AB);
            for v in [0, 0x76, 0xC0, 0x1AB, 0xFFF] {
                assert_eq!(ev.extract(0, ev.insert(0, v)), v, "{v:#x}");
            }
            assert_eq!(ev.extract(0, 0xF_FFFF_FF00), 0xF00);
            assert_eq!(bits(field(r, "GUEST_ONLY")), (40, 40));
            assert_eq!(bits(field(r, "HOST_ONLY")), (41, 41));
        }
        for (name, msb, lsb) in PERFEVTSEL_LOW
            .iter()
            .filter(|f| f.0 != "PC" && f.0 != "EVENT_SELECT")
        {
            assert_eq!(bits(field(sel, name)), (*msb, *lsb), "{id} {name}");
        }
        assert_eq!(g.pmu.encoding_field("event"), Some("EVENT_SELECT"));
        // APM Figure 13-7: bits 19 and 21 reserved, 39:36 reserved, 63:42 reserved.
        let defined = (0xFFFF_FFFFu64 & !(1 << 19) & !(1 << 21)) | span(35, 32) | span(41, 40);
        assert_eq!(sel.reserved_mask, !defined, "{id}");
    }
}

#[test]
fn amd_perfmon_v2_global_registers() {
    for g in [amd_k7(), amd_core()] {
        assert!(g.register("PERF_CNTR_GLOBAL_STATUS").is_none());
        assert!(leaf(g, 0x8000_0022, None).is_none());
    }
    let g = amd_v2();
    for (name, addr, access) in [
        ("PERF_CNTR_GLOBAL_STATUS", 0xC000_0300, Access::ReadOnly),
        ("PERF_CNTR_GLOBAL_CTL", 0xC000_0301, Access::ReadWrite),
        (
            "PERF_CNTR_GLOBAL_STATUS_CLR",
            0xC000_0302,
            Access::WriteOneToClear,
        ),
        (
            "PERF_CNTR_GLOBAL_STATUS_SET",
            0xC000_0303,
            Access::WriteOneToSet,
        ),
    ] {
        let r = reg(g, name);
        assert_eq!(r.addresses, vec![addr], "{name}");
        assert_eq!(r.access, access, "{name}");
        assert!(r.fields.iter().all(|f| f.access == access), "{name}");
        // One bit per core counter.
        let (f, i) = field_at(r, 0).expect("counter 0 bit");
        assert_eq!(i, 0);
        assert_array(f, 0, 1, 6, 1);
    }
    // Like Intel's, PerfCntrGlobalCtl enables the counters after reset; never claim 0.
    assert_ne!(reg(g, "PERF_CNTR_GLOBAL_CTL").reset, Some(0));
    // Bit 58 of the status and of its clear/set registers is the LBR freeze flag where
    // CPUID Fn8000_0022_EAX[LbrAndPmcFreeze] (bit 2) is 1: Linux's
    // arch/x86/include/asm/perf_event.h has `GLOBAL_STATUS_LBRS_FROZEN_BIT 58`, and
    // arch/x86/events/amd/core.c (amd_pmu_v2_handle_irq) reads the branch records, then
    // acknowledges the bit through PerfCntrGlobalStatusClr, so it must not be reserved
    // there. Only the counter control has no such bit.
    for name in [
        "PERF_CNTR_GLOBAL_STATUS",
        "PERF_CNTR_GLOBAL_STATUS_CLR",
        "PERF_CNTR_GLOBAL_STATUS_SET",
    ] {
        let r = reg(g, name);
        let (f, _) = field_at(r, 58).unwrap_or_else(|| panic!("{name}: bit 58"));
        assert_eq!(bits(f), (58, 58), "{name}");
        assert!(f.name.contains("LBR_FROZEN"), "{name}: {}", f.name);
        let requires = f.requires.as_deref().unwrap_or_default();
        assert!(
            requires.contains("Fn8000_0022_EAX") && requires.contains("bit 2"),
            "{name}: {requires}"
        );
        assert_eq!(r.reserved_mask & (1 << 58), 0, "{name}");
        // Bits 57:6 and 63:59 stay reserved.
        assert_eq!(r.reserved_mask & (0b11_1111 | (1 << 58)), 0, "{name}");
        assert_eq!(
            r.reserved_mask | 0b11_1111 | (1 << 58),
            u64::MAX,
            "{name}: only the counter bits and bit 58"
        );
    }
    assert!(field_at(reg(g, "PERF_CNTR_GLOBAL_CTL"), 58).is_none());
}

#[test]
fn amd_cpuid_8000_0022() {
    let g = generation("amd-perfmon-v2");
    let l = leaf(g, 0x8000_0022, None).expect("CPUID Fn8000_0022");
    assert!(cpuid_field(l, "eax", 0, 0).is_some(), "EAX[0] PerfMonV2");
    assert!(cpuid_field(l, "eax", 1, 1).is_some(), "EAX[1] LbrStack");
    assert!(
        cpuid_field(l, "eax", 2, 2).is_some(),
        "EAX[2] LbrAndPmcFreeze"
    );
    assert!(
        cpuid_field(l, "ebx", 3, 0).is_some(),
        "EBX[3:0] NumPerfCtrCore"
    );
    assert!(
        cpuid_field(l, "ebx", 9, 4).is_some(),
        "EBX[9:4] LbrV2StackSize"
    );
    assert!(
        cpuid_field(l, "ebx", 15, 10).is_some(),
        "EBX[15:10] NumPerfCtrNB"
    );
    assert!(
        cpuid_field(l, "ebx", 21, 16).is_some(),
        "EBX[21:16] NumPerfCtrUmc"
    );
}

/// The mask of a field's bits in its register.
fn mask_of(g: &Generation, register: &str, f: &str) -> u64 {
    field(reg(g, register), f).full_mask()
}

/// IBS (AMD64 APM Vol. 2 §13.3). Addresses: Linux arch/x86/include/asm/msr-index.h
/// (MSR_AMD64_IBSFETCHCTL 0xc0011030 ... MSR_AMD64_IBSBRTARGET 0xc001103b,
/// MSR_AMD64_IBSOPDATA4 0xc001103d). Control bits:
/// arch/x86/include/asm/perf_event.h (IBS_FETCH_*, IBS_OP_*, IBSCTL_LVT_OFFSET_*). Data
/// layouts: arch/x86/include/asm/amd/ibs.h (unions ibs_fetch_ctl, ibs_op_ctl, ibs_op_data,
/// ibs_op_data2, ibs_op_data3; PPR for family 19h model 01h).
#[test]
fn amd_ibs_registers() {
    let g = amd_ibs();
    for core in amd_generations() {
        assert!(
            [RegisterRole::IbsFetchControl, RegisterRole::IbsOpControl]
                .iter()
                .all(|&role| core.register_with_role(role).is_none()),
            "{}: IBS is a facility of its own",
            core.id
        );
    }
    let addresses = [
        ("IBS_FETCH_CTL", 0xc001_1030),
        ("IBS_FETCH_LIN_AD", 0xc001_1031),
        ("IBS_FETCH_PHYS_AD", 0xc001_1032),
        ("IBS_OP_CTL", 0xc001_1033),
        ("IBS_OP_RIP", 0xc001_1034),
        ("IBS_OP_DATA", 0xc001_1035),
        ("IBS_OP_DATA2", 0xc001_1036),
        ("IBS_OP_DATA3", 0xc001_1037),
        ("IBS_DC_LIN_AD", 0xc001_1038),
        ("IBS_DC_PHYS_AD", 0xc001_1039),
        ("IBS_CTL", 0xc001_103a),
        ("IBS_BR_TARGET", 0xc001_103b),
        ("IBS_OP_DATA4", 0xc001_103d), // MSR_AMD64_IBSOPDATA4
    ];
    for (name, address) in addresses {
        assert_eq!(reg(g, name).addresses, [address], "{name}");
    }
    let fetch = |f| mask_of(g, "IBS_FETCH_CTL", f);
    assert_eq!(fetch("IBS_FETCH_MAX_CNT"), 0x0000_FFFF); // IBS_FETCH_MAX_CNT
    assert_eq!(fetch("IBS_FETCH_CNT"), 0xFFFF_0000); // IBS_FETCH_CNT
    assert_eq!(fetch("IBS_FETCH_LAT"), span(47, 32)); // fetch_lat:16
    assert_eq!(fetch("IBS_FETCH_EN"), 1 << 48); // IBS_FETCH_ENABLE
    assert_eq!(fetch("IBS_FETCH_VAL"), 1 << 49); // IBS_FETCH_VAL
    assert_eq!(fetch("IBS_FETCH_COMP"), 1 << 50);
    assert_eq!(fetch("IBS_IC_MISS"), 1 << 51);
    assert_eq!(fetch("IBS_PHY_ADDR_VALID"), 1 << 52);
    assert_eq!(fetch("IBS_L1_TLB_PG_SZ"), span(54, 53));
    assert_eq!(fetch("IBS_L1_TLB_MISS"), 1 << 55);
    assert_eq!(fetch("IBS_L2_TLB_MISS"), 1 << 56);
    assert_eq!(fetch("IBS_RAND_EN"), 1 << 57); // IBS_FETCH_RAND_EN
    assert_eq!(fetch("IBS_FETCH_L2_MISS"), 1 << 58);
    assert_eq!(fetch("IBS_L3_MISS_ONLY"), 1 << 59); // IBS_FETCH_L3MISSONLY
    assert_eq!(fetch("IBS_OC_MISS"), 1 << 60);
    assert_eq!(fetch("IBS_FETCH_L3_MISS"), 1 << 61);
    assert_eq!(reg(g, "IBS_FETCH_CTL").reserved_mask, span(63, 62));

    let op = |f| mask_of(g, "IBS_OP_CTL", f);
    assert_eq!(op("IBS_OP_MAX_CNT"), 0x0000_FFFF); // IBS_OP_MAX_CNT
    assert_eq!(op("IBS_OP_L3_MISS_ONLY"), 1 << 16); // IBS_OP_L3MISSONLY
    assert_eq!(op("IBS_OP_EN"), 1 << 17); // IBS_OP_ENABLE
    assert_eq!(op("IBS_OP_VAL"), 1 << 18); // IBS_OP_VAL
    assert_eq!(op("IBS_OP_CNT_CTL"), 1 << 19); // IBS_OP_CNT_CTL
    assert_eq!(op("IBS_OP_MAX_CNT_EXT"), 0x7F << 20); // IBS_OP_MAX_CNT_EXT_MASK
    // IBS_OP_CUR_CNT | IBS_OP_CUR_CNT_RAND, then IBS_OP_CUR_CNT_EXT_MASK.
    assert_eq!(op("IBS_OP_CUR_CNT"), (0xFFF80 << 32) | (0x7F << 32));
    assert_eq!(op("IBS_OP_CUR_CNT_EXT"), 0x7F << 52);
    assert_eq!(op("IBS_OP_LDLAT_THRSH"), 0xF << 59); // IBS_OP_LDLAT_THRSH
    assert_eq!(op("IBS_OP_LDLAT_EN"), 1 << 63); // IBS_OP_LDLAT_EN
    assert_eq!(reg(g, "IBS_OP_CTL").reserved_mask, span(31, 27)); // reserved0:5

    let data = |f| mask_of(g, "IBS_OP_DATA", f);
    assert_eq!(data("IBS_COMP_TO_RET_CTR"), span(15, 0));
    assert_eq!(data("IBS_TAG_TO_RET_CTR"), span(31, 16));
    assert_eq!(data("IBS_OP_RETURN"), 1 << 34);
    assert_eq!(data("IBS_OP_BRN_TAKEN"), 1 << 35);
    assert_eq!(data("IBS_OP_BRN_MISP"), 1 << 36);
    assert_eq!(data("IBS_OP_BRN_RET"), 1 << 37);
    assert_eq!(data("IBS_RIP_INVALID"), 1 << 38); // IBS_RIP_INVALID
    assert_eq!(data("IBS_OP_BRN_FUSE"), 1 << 39);
    assert_eq!(data("IBS_OP_MICROCODE"), 1 << 40);
    assert_eq!(
        reg(g, "IBS_OP_DATA").reserved_mask,
        span(33, 32) | span(63, 41)
    );

    let data2 = |f| mask_of(g, "IBS_OP_DATA2", f);
    assert_eq!(data2("DATA_SRC_LO"), 0b111);
    assert_eq!(data2("RMT_NODE"), 1 << 4);
    assert_eq!(data2("CACHE_HIT_ST"), 1 << 5);
    assert_eq!(data2("DATA_SRC_HI"), 0b11 << 6);
    assert_eq!(data2("STRM_ST"), 1 << 8);
    assert_eq!(data2("RMT_SOCKET"), 1 << 9);

    let data3 = reg(g, "IBS_OP_DATA3");
    let one_bit = [
        ("IBS_LD_OP", 0),
        ("IBS_ST_OP", 1),
        ("IBS_DC_L1_TLB_MISS", 2),
        ("IBS_DC_L2_TLB_MISS", 3),
        ("IBS_DC_L1_TLB_HIT_2M", 4),
        ("IBS_DC_L1_TLB_HIT_1G", 5),
        ("IBS_DC_L2_TLB_HIT_2M", 6),
        ("IBS_DC_MISS", 7),
        ("IBS_DC_MIS_ACC", 8),
        ("IBS_DC_WC_MEM_ACC", 13),
        ("IBS_DC_UC_MEM_ACC", 14),
        ("IBS_DC_LOCKED_OP", 15),
        ("IBS_DC_MISS_NO_MAB_ALLOC", 16),
        ("IBS_DC_LIN_ADDR_VALID", 17),
        ("IBS_DC_PHY_ADDR_VALID", 18),
        ("IBS_DC_L2_TLB_HIT_1G", 19),
        ("IBS_L2_MISS", 20),
        ("IBS_SW_PF", 21),
    ];
    for (name, bit) in one_bit {
        assert_eq!(bits(field(data3, name)), (bit, bit), "{name}");
    }
    assert_eq!(bits(field(data3, "IBS_OP_MEM_WIDTH")), (25, 22));
    assert_eq!(bits(field(data3, "IBS_OP_DC_MISS_OPEN_MEM_REQS")), (31, 26));
    assert_eq!(bits(field(data3, "IBS_DC_MISS_LAT")), (47, 32));
    assert_eq!(bits(field(data3, "IBS_TLB_REFILL_LAT")), (63, 48));
    assert_eq!(data3.reserved_mask, span(12, 9));

    // IBSCTL_LVT_OFFSET_MASK and IBSCTL_LVT_OFFSET_VALID; the MSR is read-only.
    let ctl = reg(g, "IBS_CTL");
    assert_eq!(mask_of(g, "IBS_CTL", "LVT_OFFSET"), 0x0F);
    assert_eq!(mask_of(g, "IBS_CTL", "LVT_OFFSET_VAL"), 1 << 8);
    assert_eq!(ctl.access, Access::ReadOnly);
    // IbsOpData4: Linux decodes no field of it; AMD's IBS toolkit
    // (jlgreathouse/AMD_IBS_Toolkit, include/ibs-msr-index.h) defines MSR_IBS_OP_DATA4
    // 0xc001103d with IBS_OP_LD_RESYNC = bit 0 ("CZ, ST only"), and nothing else.
    let data4 = reg(g, "IBS_OP_DATA4");
    assert_eq!(mask_of(g, "IBS_OP_DATA4", "IBS_OP_LD_RESYNC"), 1);
    assert_eq!(data4.reserved_mask, span(63, 1));
    for (name, msb) in [
        ("IBS_OP_RIP", 63),
        ("IBS_DC_LIN_AD", 63),
        ("IBS_FETCH_LIN_AD", 63),
        ("IBS_BR_TARGET", 63),
        ("IBS_DC_PHYS_AD", 51),
        ("IBS_FETCH_PHYS_AD", 51),
    ] {
        assert_eq!(covered(reg(g, name)), span(msb, 0), "{name}");
    }
}

/// AMD LBR v2 (Zen 4): Linux arch/x86/include/asm/msr-index.h (MSR_AMD64_LBR_SELECT
/// 0xc000010e, MSR_AMD_DBG_EXTN_CFG 0xc000010f, DBG_EXTN_CFG_LBRV2EN BIT_ULL(6),
/// MSR_AMD_SAMP_BR_FROM 0xc0010300) and arch/x86/events/amd/lbr.c (To of entry n at
/// MSR_AMD_SAMP_BR_FROM + 2n + 1; LBR_SELECT_MASK 0x1ff with LBR_SELECT_KERNEL 0 ...
/// LBR_SELECT_FAR_BRANCH 8; struct branch_entry: from ip:58, ip_sign_ext:5, mispredict:1;
/// to ip:58, ip_sign_ext:3, reserved:1, spec:1, valid:1).
#[test]
fn amd_lbr_v2() {
    let g = amd_lbr();
    assert_eq!(reg(g, "DBG_EXTN_CFG").addresses, [0xc000_010f]);
    assert_eq!(mask_of(g, "DBG_EXTN_CFG", "LBRV2EN"), 1 << 6);
    let select = reg(g, "LBR_SELECT");
    assert_eq!(select.addresses, [0xc000_010e]);
    assert_eq!(covered(select), 0x1ff);
    let order = [
        "SUPPRESS_KERNEL",
        "SUPPRESS_USER",
        "SUPPRESS_JCC",
        "SUPPRESS_CALL_NEAR_REL",
        "SUPPRESS_CALL_NEAR_IND",
        "SUPPRESS_RET_NEAR",
        "SUPPRESS_JMP_NEAR_IND",
        "SUPPRESS_JMP_NEAR_REL",
        "SUPPRESS_FAR_BRANCH",
    ];
    for (bit, name) in order.iter().enumerate() {
        assert_eq!(
            bits(field(select, name)),
            (bit as u32, bit as u32),
            "{name}"
        );
    }
    let from = reg(g, "LBR_FROM");
    let to = reg(g, "LBR_TO");
    let depth = from.addresses.len();
    assert_eq!(depth, 16, "Zen 4: Fn8000_0022_EBX[9:4] = 16");
    for n in 0..depth {
        assert_eq!(from.addresses[n], 0xc001_0300 + 2 * n as u32, "from {n}");
        assert_eq!(to.addresses[n], 0xc001_0300 + 2 * n as u32 + 1, "to {n}");
    }
    assert_eq!(mask_of(g, "LBR_FROM", "IP"), span(57, 0));
    assert_eq!(mask_of(g, "LBR_FROM", "IP_SIGN_EXT"), span(62, 58));
    assert_eq!(mask_of(g, "LBR_FROM", "MISPREDICT"), 1 << 63);
    assert_eq!(mask_of(g, "LBR_TO", "IP"), span(57, 0));
    assert_eq!(mask_of(g, "LBR_TO", "IP_SIGN_EXT"), span(60, 58));
    assert_eq!(mask_of(g, "LBR_TO", "SPEC"), 1 << 62);
    assert_eq!(mask_of(g, "LBR_TO", "VALID"), 1 << 63);
    assert_eq!(to.reserved_mask, 1 << 61);
    for core in amd_generations() {
        assert!(
            core.register("LBR_FROM").is_none(),
            "{}: LBR v2 is a facility of its own",
            core.id
        );
    }
    let size = leaf(g, 0x8000_0022, None).and_then(|l| cpuid_field(l, "ebx", 9, 4));
    assert_eq!(size.map(|f| f.name.as_str()), Some("LBR_V2_STACK_SIZE"));
}

/// CPUID Fn8000_0001_ECX[IBS] (Linux X86_FEATURE_IBS, word 6 bit 10) and Fn8000_001B_EAX
/// (Linux perf_event.h IBS_CAPS_AVAIL (bit 0) ... IBS_CAPS_OPLDLAT (bit 12)).
#[test]
fn amd_ibs_cpuid() {
    let g = amd_ibs();
    let ext = leaf(g, 0x8000_0001, None).expect("CPUID Fn8000_0001");
    assert_eq!(
        cpuid_field(ext, "ecx", 10, 10).map(|f| f.name.as_str()),
        Some("IBS")
    );
    let l = leaf(g, 0x8000_001B, None).expect("CPUID Fn8000_001B");
    let caps = [
        "IBSFFV",                // IBS_CAPS_AVAIL
        "FETCH_SAM",             // IBS_CAPS_FETCHSAM
        "OP_SAM",                // IBS_CAPS_OPSAM
        "RD_WR_OP_CNT",          // IBS_CAPS_RDWROPCNT
        "OP_CNT",                // IBS_CAPS_OPCNT
        "BRN_TRGT",              // IBS_CAPS_BRNTRGT
        "OP_CNT_EXT",            // IBS_CAPS_OPCNTEXT
        "RIP_INVALID_CHK",       // IBS_CAPS_RIPINVALIDCHK
        "OP_BRN_FUSE",           // IBS_CAPS_OPBRNFUSE
        "IBS_FETCH_CTL_EXTD",    // IBS_CAPS_FETCHCTLEXTD
        "IBS_OP_DATA4",          // IBS_CAPS_OPDATA4
        "IBS_L3_MISS_FILTERING", // IBS_CAPS_ZEN4
        "IBS_OP_LD_LAT",         // IBS_CAPS_OPLDLAT
    ];
    for (bit, name) in caps.iter().enumerate() {
        let bit = bit as u32;
        let f = cpuid_field(l, "eax", bit, bit).unwrap_or_else(|| panic!("EAX[{bit}]"));
        assert_eq!(f.name, *name, "EAX[{bit}]");
    }
    // Every optional part names the capability bit it needs.
    for (register, f, cap) in [
        ("IBS_OP_CTL", "IBS_OP_CNT_CTL", "bit 4"),
        ("IBS_OP_CTL", "IBS_OP_MAX_CNT_EXT", "bit 6"),
        ("IBS_OP_CTL", "IBS_OP_CUR_CNT", "bit 3"),
        ("IBS_OP_CTL", "IBS_OP_LDLAT_EN", "bit 12"),
        ("IBS_FETCH_CTL", "IBS_L3_MISS_ONLY", "bit 11"),
        ("IBS_OP_DATA", "IBS_RIP_INVALID", "bit 7"),
    ] {
        let requires = field(reg(g, register), f)
            .requires
            .clone()
            .unwrap_or_default();
        assert!(
            requires.contains("Fn8000_001B_EAX") && requires.contains(cap),
            "{register}.{f}: {requires}"
        );
    }
    // Two registers exist only with their bit: IbsBrTarget with BrnTrgt (APM Vol. 2
    // §13.3.2), IbsOpData4 with IbsOpData4.
    for (register, cap) in [("IBS_BR_TARGET", "bit 5"), ("IBS_OP_DATA4", "bit 10")] {
        let requires = reg(g, register).requires.clone().unwrap_or_default();
        assert!(
            requires.contains("Fn8000_001B_EAX") && requires.contains(cap),
            "{register}: {requires}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// AMD uncore: L3 cache and Data Fabric counters
// ---------------------------------------------------------------------------------------

/// The AMD uncore facility whose control family starts at `control` and which is detected
/// from CPU family `family` on: found by address and family, never by a hand-kept id.
fn amd_uncore(control: u32, family: u32) -> &'static Generation {
    let found: Vec<&Generation> = model()
        .generations
        .iter()
        .filter(|g| g.vendor == Vendor::Amd && !is_core_model(g))
        .filter(|g| g.detect.as_ref().and_then(|d| d.family_at_least) == Some(family))
        .filter(|g| {
            g.registers
                .iter()
                .any(|r| r.addresses.first() == Some(&control))
        })
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one AMD generation has its controls at {control:#x} from family {family:#x}"
    );
    found[0]
}

/// The register of `g` at `address`.
fn reg_at(g: &Generation, address: u32) -> &Register {
    g.registers
        .iter()
        .find(|r| r.addresses.first() == Some(&address))
        .unwrap_or_else(|| panic!("{}: no register at {address:#x}", g.id))
}

/// A control / counter pair family interleaved from `base` (control n at base + 2n, counter
/// n at base + 2n + 1, as arch/x86/events/amd/uncore.c amd_uncore_add computes
/// `config_base` and `event_base`), with 48-bit counters (uncore.c COUNTER_SHIFT 16), no
/// counter roles (a facility, not a core PMU), and the CPUID bit `feature` of Fn8000_0001_ECX
/// among its detection.
fn assert_uncore_pairs(g: &Generation, base: u32, count: usize) -> (&Register, &Register) {
    let ctl = reg_at(g, base);
    let ctr = reg_at(g, base + 1);
    let step = |r: &Register, first: u32| {
        assert_eq!(r.addresses.len(), count, "{}: {} registers", g.id, r.name);
        for (n, a) in r.addresses.iter().enumerate() {
            assert_eq!(*a, first + 2 * n as u32, "{}: {} {n}", g.id, r.name);
        }
        assert_eq!(r.access, Access::ReadWrite, "{}: {}", g.id, r.name);
    };
    step(ctl, base);
    step(ctr, base + 1);
    assert_eq!(covered(ctr), span(47, 0), "{}: 48-bit counters", g.id);
    assert_eq!(ctr.reserved_mask, !span(47, 0), "{}: counter", g.id);
    assert!(
        ctl.role.is_none() && ctr.role.is_none(),
        "{}: no roles",
        g.id
    );
    assert!(
        g.register_with_role(RegisterRole::Counter).is_none(),
        "{}: not a core PMU",
        g.id
    );
    // Enable: ARCH_PERFMON_EVENTSEL_ENABLE (bit 22), which amd_uncore_start sets.
    assert_eq!(mask_of(g, &ctl.name, "EN"), 1 << 22, "{}", g.id);
    (ctl, ctr)
}

/// The detection of an uncore facility: CPUID Fn8000_0001_ECX bit `bit` (Linux
/// arch/x86/include/asm/cpufeatures.h word 6) and the minimum family.
fn assert_ext_feature_detect(g: &Generation, bit: u32) {
    let d = g.detect.as_ref().expect("detected");
    let c = d.cpuid.as_ref().expect("by CPUID");
    let l = g.cpuid_leaf(&c.leaf).expect("the leaf is declared");
    assert_eq!((l.leaf, c.register.as_str()), (0x8000_0001, "ecx"));
    let f = cpuid_field(l, "ecx", bit, bit).expect("the detect bit");
    assert_eq!(f.name, c.field, "{}", g.id);
}

/// What every L3 layout shares: six pairs from C001_0230, the 8-bit event select and unit
/// mask (uncore.c event8 `config:0-7`, umask8 `config:8-15`), detection by
/// X86_FEATURE_PERFCTR_LLC (word 6 bit 28). Returns the control register.
fn assert_l3(g: &Generation) -> &Register {
    let (ctl, _) = assert_uncore_pairs(g, 0xC001_0230, 6);
    assert_ext_feature_detect(g, 28);
    assert_eq!(mask_of(g, &ctl.name, "EVENT_SELECT"), 0xFF, "{}", g.id);
    assert_eq!(mask_of(g, &ctl.name, "UMASK"), 0xFF00, "{}", g.id);
    ctl
}

/// L3 cache counters of family 17h (Zen 1, Zen 2). Linux arch/x86/include/asm/msr-index.h
/// `MSR_F16H_L2I_PERF_CTL 0xc0010230`, `MSR_F16H_L2I_PERF_CTR 0xc0010231`;
/// arch/x86/events/amd/uncore.c `NUM_COUNTERS_L3 6`, the family 17h/18h format attributes
/// (event8 `config:0-7`, umask8 `config:8-15`, slicemask `config:48-51`, threadmask8
/// `config:56-63`); arch/x86/include/asm/perf_event.h `AMD64_L3_SLICE_MASK (0xFULL << 48)`,
/// `AMD64_L3_THREAD_MASK (0xFFULL << 56)`; X86_FEATURE_PERFCTR_LLC (word 6 bit 28).
#[test]
fn amd_l3_family_17h() {
    let g = amd_uncore(0xC001_0230, 0x17);
    let ctl = assert_l3(g);
    assert_eq!(mask_of(g, &ctl.name, "SLICE_MASK"), 0xF << 48);
    assert_eq!(mask_of(g, &ctl.name, "THREAD_MASK"), 0xFF << 56);
    assert_eq!(
        ctl.reserved_mask,
        !(0xFFFF | 1 << 22 | 0xF << 48 | 0xFF << 56),
        "reserved bits are what no field covers"
    );
}

/// L3 cache counters of family 19h and later (Zen 3, Zen 4): uncore.c uses these fields for
/// `boot_cpu_data.x86 >= 0x19` (format attributes coreid `config:42-44`, enallslices
/// `config:46`, enallcores `config:47`, sliceid `config:48-50`, threadmask2 `config:56-57`);
/// perf_event.h `AMD64_L3_COREID_MASK (0x7ULL << 42)`, `AMD64_L3_EN_ALL_SLICES BIT_ULL(46)`,
/// `AMD64_L3_EN_ALL_CORES BIT_ULL(47)`, `AMD64_L3_SLICEID_MASK (0x7ULL << 48)`,
/// `AMD64_L3_F19H_THREAD_MASK (0x3ULL << 56)`. The layout changes with family 19h, between
/// Zen 2 and Zen 3.
#[test]
fn amd_l3_family_19h() {
    let g = amd_uncore(0xC001_0230, 0x19);
    let ctl = assert_l3(g);
    assert_eq!(mask_of(g, &ctl.name, "CORE_ID"), 0x7 << 42);
    assert_eq!(mask_of(g, &ctl.name, "EN_ALL_SLICES"), 1 << 46);
    assert_eq!(mask_of(g, &ctl.name, "EN_ALL_CORES"), 1 << 47);
    assert_eq!(mask_of(g, &ctl.name, "SLICE_ID"), 0x7 << 48);
    assert_eq!(mask_of(g, &ctl.name, "THREAD_MASK"), 0x3 << 56);
    assert!(
        field_at(ctl, 51).is_none() && field_at(ctl, 63).is_none(),
        "the family 17h slice and thread masks are gone"
    );
    let f17h = amd_uncore(0xC001_0230, 0x17);
    assert_eq!(
        reg_at(f17h, 0xC001_0230).name,
        ctl.name,
        "one register, two layouts"
    );
}

/// Data Fabric counters of family 17h and later without PerfMonV2. msr-index.h
/// `MSR_F15H_NB_PERF_CTL 0xc0010240`, `MSR_F15H_NB_PERF_CTR 0xc0010241`; uncore.c
/// `NUM_COUNTERS_NB 4`, format attributes event14 `config:0-7,32-35,59-60` (F17h+ DF) and
/// umask8 `config:8-15`; X86_FEATURE_PERFCTR_NB (word 6 bit 24).
#[test]
fn amd_data_fabric() {
    let g = amd_uncore(0xC001_0240, 0x17);
    let (ctl, _) = assert_uncore_pairs(g, 0xC001_0240, 4);
    assert_ext_feature_detect(g, 24);
    let event = field(ctl, "EVENT_SELECT");
    assert_eq!(event.full_mask(), 0xFF | 0xF << 32 | 0x3 << 59);
    // EventSelect[7:0] at 7:0, [11:8] at 35:32, [13:12] at 60:59.
    assert_eq!(event.insert(0, 0x3ABC), 0xBC | 0xA << 32 | 0x3 << 59);
    assert_eq!(event.extract(0, 0x1 << 59 | 0x2 << 32 | 0x07), 0x1207);
    assert_eq!(mask_of(g, &ctl.name, "UMASK"), 0xFF00);
}

/// Data Fabric counters with PerfMonV2. perf_event.h `AMD64_PERFMON_V2_EVENTSEL_EVENT_NB
/// (AMD64_EVENTSEL_EVENT | GENMASK_ULL(37, 36))` with `AMD64_EVENTSEL_EVENT
/// (ARCH_PERFMON_EVENTSEL_EVENT | (0x0FULL << 32))`, `AMD64_PERFMON_V2_EVENTSEL_UMASK_NB
/// (ARCH_PERFMON_EVENTSEL_UMASK | GENMASK_ULL(27, 24))`; uncore.c (pmu_version >= 2)
/// event14v2 `config:0-7,32-37`, umask12 `config:8-15,24-27`, the count from
/// `union cpuid_0x80000022_ebx` `num_df_pmc` (EBX[15:10]); 16 DF counters on EPYC 9004.
#[test]
fn amd_data_fabric_perfmon_v2() {
    let g = amd_uncore(0xC001_0240, 0x19);
    let (ctl, _) = assert_uncore_pairs(g, 0xC001_0240, 16);
    let event = field(ctl, "EVENT_SELECT");
    assert_eq!(event.full_mask(), 0xFF | 0xF << 32 | 0x3 << 36);
    assert_eq!(event.insert(0, 0x3ABC), 0xBC | 0xA << 32 | 0x3 << 36);
    let umask = field(ctl, "UMASK");
    assert_eq!(umask.full_mask(), 0xFF00 | 0xF << 24);
    assert_eq!(umask.insert(0, 0x5A5), 0xA500 | 0x5 << 24);
    let d = g.detect.as_ref().and_then(|d| d.cpuid.as_ref()).unwrap();
    let l = g.cpuid_leaf(&d.leaf).unwrap();
    assert_eq!(l.leaf, 0x8000_0022, "detected by PerfMonV2");
    assert_eq!(cpuid_field(l, "eax", 0, 0).unwrap().name, d.field);
    assert!(
        cpuid_field(l, "ebx", 15, 10).is_some(),
        "EBX[15:10] NumPerfCtrNB"
    );
    // Linux's union cpuid_0x80000022_ebx has no L3 count: core, LBR depth, DF, UMC.
    let v2 = amd_v2();
    let pmv2 = leaf(v2, 0x8000_0022, None).unwrap();
    let ebx = cpuid_reg(pmv2, "ebx").unwrap();
    assert_eq!(
        covered_cpuid(ebx),
        span(21, 0),
        "EBX[21:0] and nothing else"
    );
}

fn covered_cpuid(r: &CpuidRegister) -> u64 {
    r.fields.iter().fold(0, |m, f| m | f.full_mask())
}

// ---------------------------------------------------------------------------------------
// The JSON dump
// ---------------------------------------------------------------------------------------

#[test]
fn json_dump_has_registers_cpuid_and_events() {
    let json = serde_json::to_value(model()).expect("model serializes");
    let gens = json["generations"].as_array().expect("generations array");
    assert_eq!(gens.len(), model().generations.len());
    let accesses = [
        "read-write",
        "read-only",
        "write-only",
        "write-1-to-clear",
        "write-1-to-set",
    ];
    for g in gens {
        let id = g["id"].as_str().expect("id");
        assert!(g["vendor"].is_string(), "{id}");
        assert!(g["cpuid"].is_array(), "{id}: cpuid");
        assert!(g["events"].is_array(), "{id}: events");
        let regs = g["registers"].as_array().expect("registers");
        assert!(!regs.is_empty(), "{id}");
        for r in regs {
            let name = r["name"].as_str().unwrap();
            let addrs = r["addresses"].as_array().expect("addresses");
            assert!(
                !addrs.is_empty() && addrs.iter().all(|a| a.is_u64()),
                "{id} {name}"
            );
            assert!(r["width"].is_u64(), "{id} {name}");
            assert!(
                accesses.contains(&r["access"].as_str().unwrap()),
                "{id} {name}"
            );
            for f in r["fields"].as_array().expect("fields") {
                let bits = f["bits"].as_array().expect("bits");
                assert!(!bits.is_empty());
                assert!(bits.iter().all(|b| b["lsb"].is_u64() && b["msb"].is_u64()));
                assert!(accesses.contains(&f["access"].as_str().unwrap()));
                assert!(f["values"].is_array());
            }
        }
        for c in g["cpuid"].as_array().unwrap() {
            assert!(c["leaf"].is_u64());
            for r in c["registers"].as_array().unwrap() {
                assert!(["eax", "ebx", "ecx", "edx"].contains(&r["register"].as_str().unwrap()));
                assert!(r["fields"].is_array());
            }
        }
        for e in g["events"].as_array().unwrap() {
            assert!(e["event"].is_u64() && e["umask"].is_u64() && e["counters"].is_array());
        }
    }

    // Spot-check values against the manuals.
    let v1 = gens.iter().find(|g| g["id"] == "intel-v1").unwrap();
    let sel = v1["registers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "IA32_PERFEVTSEL")
        .unwrap();
    let addrs: Vec<u64> = sel["addresses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_u64().unwrap())
        .collect();
    assert_eq!(addrs, (0x186..=0x18D).collect::<Vec<u64>>());
    assert_eq!(sel["access"], "read-write");
    let pc = sel["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "PC")
        .unwrap();
    assert_eq!(pc["bits"], serde_json::json!([{ "lsb": 19, "msb": 19 }]));
    let inc = pc["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "TOGGLE_ON_INCREMENT")
        .unwrap();
    assert_eq!(inc["value"], 1);
    let v1_events = v1["events"].as_array().unwrap();
    assert_eq!(v1_events.len(), 7);
    let v1_leaf = &v1["cpuid"][0];
    assert_eq!(v1_leaf["leaf"], 0x0A);

    let v4 = gens.iter().find(|g| g["id"] == "intel-v4").unwrap();
    let status = v4["registers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "IA32_PERF_GLOBAL_STATUS")
        .unwrap();
    assert_eq!(status["access"], "read-only");
    assert_eq!(status["addresses"], serde_json::json!([0x38E]));
}

// ---------------------------------------------------------------------------------------
// Intel core models (imported from Intel's perfmon lists)
// ---------------------------------------------------------------------------------------

/// The fixed counters count fixed events: counter 0 instructions retired, 1 unhalted core
/// cycles, 2 unhalted reference cycles, 3 top-down slots (SDM Vol. 3B, "Association of
/// Fixed-Function Performance Counters with Architectural Performance Events", and §18.2.5
/// for counter 3). Intel's oldest lists number them from 1; the models must not.
#[test]
fn intel_core_models_put_fixed_events_on_the_sdm_fixed_counters() {
    let want: &[(&str, u32)] = &[
        ("INST_RETIRED.ANY", 0),
        ("CPU_CLK_UNHALTED.THREAD", 1),
        ("CPU_CLK_UNHALTED.CORE", 1),
        ("CPU_CLK_UNHALTED.REF_TSC", 2),
        ("CPU_CLK_UNHALTED.REF", 2),
        ("TOPDOWN.SLOTS", 3),
    ];
    let mut seen = 0;
    for g in model().generations.iter().filter(|g| is_intel_imported(g)) {
        for (name, fixed) in want {
            if let Some(e) = g.event(name).filter(|e| e.fixed.is_some()) {
                assert_eq!(e.fixed, Some(*fixed), "{} {name}", g.id);
                seen += 1;
            }
        }
        // Every model counts instructions retired on fixed counter 0.
        assert_eq!(
            g.event("INST_RETIRED.ANY").and_then(|e| e.fixed),
            Some(0),
            "{}",
            g.id
        );
    }
    assert!(seen > 42 * 3, "{seen}");
}

/// Architectural versions (SDM Vol. 3B, per microarchitecture) and counter counts of a few
/// well-documented cores.
#[test]
fn intel_core_models_extend_their_architectural_version() {
    for (id, parent) in [
        ("intel-nehalemep", "intel-v3"),
        ("intel-sandybridge", "intel-v3"),
        ("intel-haswell", "intel-v3"),
        ("intel-skylake", "intel-v4"),
        ("intel-icelake", "intel-v5"),
        ("intel-sapphirerapids", "intel-v5"),
        ("intel-lunarlake-lioncove", "intel-v6"),
    ] {
        // Directly, or through the microarchitecture generation naming its perfmon list.
        let g = generation(id);
        assert!(
            g.extends.as_deref() == Some(parent) || g.ancestors.iter().any(|a| a == parent),
            "{id} extends {:?}, ancestors {:?}",
            g.extends,
            g.ancestors
        );
    }
    // Lion Cove: general counters 0-9; IA32_PMC8/9 and IA32_PERFEVTSEL8/9 continue the
    // families (C9H-CAH, 18EH-18FH).
    let lnc = generation("intel-lunarlake-lioncove");
    assert_eq!((lnc.general_counters(), lnc.fixed_counters()), (10, 4));
    assert_eq!(reg(lnc, "IA32_PMC").addresses[8..], [0xC9, 0xCA]);
    assert_eq!(reg(lnc, "IA32_PERFEVTSEL").addresses[8..], [0x18E, 0x18F]);
    assert_eq!(
        field(reg(lnc, "IA32_PERF_GLOBAL_CTRL"), "EN_PMC").count(),
        10
    );
    // Skymont: fixed counters 0-2 and 4-6, so seven blocks in IA32_FIXED_CTR_CTRL.
    let skt = generation("intel-lunarlake-skymont");
    assert_eq!((skt.general_counters(), skt.fixed_counters()), (8, 7));
    assert_eq!(
        reg(skt, "IA32_FIXED_CTR").addresses[4..],
        [0x30D, 0x30E, 0x30F]
    );
    let ctl = reg(skt, "IA32_FIXED_CTR_CTRL");
    assert_eq!(field(ctl, "ENABLE").element_mask(6), 0b11 << 24);
    assert_eq!(
        field(reg(skt, "IA32_PERF_GLOBAL_STATUS"), "OVF_FIXED_CTR").element_mask(6),
        1 << 38
    );
    // Cores with at most 8 general and their version's fixed counters keep the
    // architectural registers as they are.
    let skl = generation("intel-skylake");
    assert_eq!(reg(skl, "IA32_PMC").defined_in, "intel-v1");
    assert_eq!(reg(skl, "IA32_FIXED_CTR_CTRL").defined_in, "intel-v3");
}

/// The newest cores (issue 25), from Linux `arch/x86/events/intel/core.c` and the lists:
/// Granite Rapids is a Redwood Cove server core (`glc_common`, intel_rwc_extra_regs: 8
/// general counters, 4 fixed, off-core response at 1A6H/1A7H); Panther Lake's Cougar Cove is
/// set up as Lion Cove (`lnl_common`, intel_pmu_init_lnc: 10 general counters) and its
/// Darkmont as Skymont (intel_pmu_init_skt: fixed counters 0-2 and 4-6); Nova Lake's Coyote
/// Cove as Panther Cove (intel_pmu_init_pnc) and Arctic Wolf by intel_pmu_init_arw, both
/// with the off-module response registers MSR_OMR_0..3 (msr-index.h 3E0H-3E3H) and no
/// off-core response registers (PMU_FL_HAS_RSP_1 cleared, none in their extra_regs).
#[test]
fn todays_intel_cores_have_their_counters_and_response_registers() {
    // (id, architectural version, microarchitecture, general and fixed counters, the valid
    // mask of MSR_OMR (Linux intel_pnc/arw_extra_regs) or None for off-core response at
    // 1A6H/1A7H (Linux masks 0x3fffffffff / 0xfffffffffff).
    let cases = [
        (
            "intel-graniterapids",
            "intel-v5",
            "intel-goldencove-family",
            8,
            4,
            None,
        ),
        (
            "intel-pantherlake-cougarcove",
            "intel-v6",
            "intel-lioncove-family",
            10,
            4,
            None,
        ),
        (
            "intel-pantherlake-darkmont",
            "intel-v6",
            "intel-skymont-family",
            8,
            7,
            None,
        ),
        (
            "intel-novalake-coyotecove",
            "intel-v6",
            "intel-panthercove-family",
            8,
            4,
            Some(0x40ff_ffff_0000_ffffu64),
        ),
        (
            "intel-novalake-arcticwolf",
            "intel-v6",
            "intel-arcticwolf-family",
            8,
            7,
            Some(0xc0ff_ffff_ffff_ffff),
        ),
    ];
    for (id, version, family, general, fixed, omr_mask) in cases {
        let g = generation(id);
        assert_eq!(g.extends.as_deref(), Some(family), "{id}");
        assert!(
            g.ancestors.iter().any(|a| a == version),
            "{id}: {:?}",
            g.ancestors
        );
        assert_eq!(
            (g.general_counters(), g.fixed_counters()),
            (general, fixed),
            "{id}"
        );
        // Every event of the list counts on counters the generation has.
        for e in &g.events {
            assert!(e.counters.iter().all(|&c| c < general), "{id} {}", e.name);
            assert!(e.fixed.is_none_or(|f| f < fixed), "{id} {}", e.name);
        }
        assert_eq!(
            reg(g, "MSR_PEBS_LD_LAT_THRESHOLD").addresses,
            [0x3F6],
            "{id}"
        );
        let Some(valid) = omr_mask else {
            let rsp = g.register_at(0x1A6).map(|r| r.name.as_str());
            assert_eq!(rsp, Some("MSR_OFFCORE_RSP_0"), "{id}");
            assert!(g.register("MSR_OMR").is_none(), "{id}");
            continue;
        };
        assert!(
            g.register_at(0x1A6).is_none() && g.register_at(0x1A7).is_none(),
            "{id}"
        );
        let omr = reg(g, "MSR_OMR");
        assert_eq!(omr.addresses, [0x3E0, 0x3E1, 0x3E2, 0x3E3], "{id}");
        // The writable bits are exactly Linux's valid mask.
        assert_eq!(!omr.reserved_mask, valid, "{id}");
    }
    // Coyote Cove qualifies front-end events (MSR_PEBS_FRONTEND, Linux mask 0x7fff1f);
    // Arctic Wolf has no such register in Linux's intel_arw_extra_regs.
    assert_eq!(
        !reg(generation("intel-novalake-coyotecove"), "MSR_PEBS_FRONTEND").reserved_mask,
        0x7f_ff1f
    );
    assert!(
        generation("intel-novalake-arcticwolf")
            .register_at(0x3F7)
            .is_none()
    );
    // Nova Lake's off-module events: unit mask i goes with MSR_OMR_i.
    let cyc = generation("intel-novalake-coyotecove");
    let l3 = cyc.event("MEM_LOAD_L2_MISS_RETIRED.L3_MISS").unwrap();
    assert!(l3.offmodule && l3.msr_per_umask);
    let pairs: Vec<(u32, Option<u32>)> = l3
        .alternatives()
        .iter()
        .map(|a| (a.umask, a.msr_index))
        .collect();
    assert_eq!(
        pairs,
        [
            (1, Some(0x3E0)),
            (2, Some(0x3E1)),
            (4, Some(0x3E2)),
            (8, Some(0x3E3))
        ]
    );
    // Nova Lake is family 18 (12H): mapfile GenuineIntel-18-1 and -18-3.
    let fm: Vec<&str> = cyc.cpus.iter().map(|c| c.family_model.as_str()).collect();
    assert_eq!(fm, ["GenuineIntel-12-1", "GenuineIntel-12-3"]);
}

/// Zen 5 (family 1Ah) keeps Zen 4's PerfMonV2 core PMU: six 48-bit core counters, and the
/// model lists every family 1Ah model (perf's `AuthenticAMD-26-[[:xdigit:]]+`).
#[test]
fn zen5_extends_perfmon_v2_for_family_1ah() {
    let z5 = generation("amd-zen5");
    assert_eq!(z5.extends.as_deref(), Some("amd-zen4-family"));
    assert_eq!(
        z5.ancestors.get(1).map(String::as_str),
        Some("amd-perfmon-v2")
    );
    assert_eq!(
        z5.general_counters(),
        generation("amd-zen4").general_counters()
    );
    assert_eq!(z5.general_counters(), 6);
    assert_eq!(z5.cpus.len(), 256);
    assert!(
        z5.cpus
            .iter()
            .all(|c| c.family_model.starts_with("AuthenticAMD-1A-"))
    );
    assert_eq!(z5.events.len(), 292);
    assert_eq!(z5.events.iter().filter(|e| e.deprecated).count(), 6);
}

// ---------------------------------------------------------------------------------------
// Sampling, branch records and energy (issue: every core PMU register a driver programs)
// ---------------------------------------------------------------------------------------

/// Every generation that is or extends `base` (its CPU models included).
fn extending(base: &'static Generation) -> impl Iterator<Item = &'static Generation> {
    model()
        .generations
        .iter()
        .filter(move |g| g.id == base.id || g.ancestors.contains(&base.id))
}

/// IA32_DS_AREA (Linux msr-index.h `MSR_IA32_DS_AREA 0x00000600`; SDM Vol. 4 Table 2-2,
/// 600H): one 64-bit linear address, read-write, on every Intel generation.
#[test]
fn intel_ds_area() {
    for g in intel_from(1) {
        let r = reg(g, "IA32_DS_AREA");
        assert_eq!(r.addresses, vec![0x600], "{}", g.id);
        assert_eq!(r.access, Access::ReadWrite);
        assert_eq!(r.reserved_mask, 0, "{}: all 64 bits are the address", g.id);
        assert_eq!(covered(r), u64::MAX);
    }
}

/// IA32_PEBS_ENABLE (Linux msr-index.h `MSR_IA32_PEBS_ENABLE 0x000003f1`): before version 2
/// there is none; versions 2-4 define only bit 0 (PEBS on IA32_PMC0, SDM Table 2-2: bits 3:1
/// and 35:32 are "reserved or model specific"); from version 5 (adaptive PEBS) bit i enables
/// general counter i and bit 32+i fixed counter i (Linux arch/x86/events/intel/ds.c,
/// `intel_pmu_pebs_enable`: `cpuc->pebs_enabled |= 1ULL << hwc->idx` with fixed counters at
/// index 32+i, load latency at 32+i only while `x86_pmu.version < 5`), for every counter the
/// generation has: a model with ten general or seven fixed counters has ten or seven bits.
#[test]
fn intel_pebs_enable() {
    assert!(intel_version(1).register("IA32_PEBS_ENABLE").is_none());
    for g in (2..5).map(intel_version) {
        let r = reg(g, "IA32_PEBS_ENABLE");
        assert_eq!(r.addresses, vec![0x3F1], "{}", g.id);
        assert_eq!(covered(r), 1, "{}: only PMC0's bit is architectural", g.id);
    }
    for g in extending(intel_version(5)) {
        let r = reg(g, "IA32_PEBS_ENABLE");
        assert_eq!(r.addresses, vec![0x3F1], "{}", g.id);
        let (general, fixed) = (g.general_counters(), g.fixed_counters());
        assert_array(field(r, "PEBS_EN_PMC"), 0, 1, general, 1);
        assert_array(field(r, "PEBS_EN_FIXED"), 32, 1, fixed, 1);
        let want = span(general - 1, 0) | span(32 + fixed - 1, 32);
        assert_eq!(covered(r), want, "{}", g.id);
        assert_eq!(r.reserved_mask, !want, "{}", g.id);
    }
}

/// IA32_PEBS_ENABLE before version 5, per CPU model (named by CPUID family 6 model number):
/// the SDM's "Layout of IA32_PEBS_ENABLE MSR" figures for Nehalem (PEBS_EN_PMC0-3 at bits
/// 3:0, LL_EN_PMC0-3 at 35:32) and Sandy Bridge (plus PS_EN, bit 63), and Linux
/// arch/x86/events/intel/ds.c: `intel_pmu_pebs_enable` sets `1ULL << hwc->idx`, load latency
/// `1ULL << (hwc->idx + 32)` while `x86_pmu.version < 5` and precise store (`PEBS_ST`, used
/// by `intel_snb_pebs_event_constraints` only: `INTEL_PST_CONSTRAINT(0x02cd, 0x8)`) `1ULL <<
/// 63`; the PEBS constraints of these cores name counters 0-3 (mask 0xf). Core 2, Bonnell,
/// Silvermont, Knights Landing and Goldmont sample on PMC0 only (constraint masks 0x1).
#[test]
fn intel_pebs_enable_per_model() {
    // (model, PEBS counters, load-latency bits, precise store)
    let linux = [
        ("1A", 4, true, false),         // Nehalem-EP
        ("2F", 4, true, false),         // Westmere-EX
        ("2A", 4, true, true),          // Sandy Bridge
        ("3E", 4, true, true),          // Ivy Bridge-EP
        ("3C", 4, true, false),         // Haswell
        ("4F", 4, true, false),         // Broadwell-X
        ("4E", 4, true, false),         // Skylake-L
        ("55-[01234]", 4, true, false), // Skylake-X (steppings 0-4)
        ("1C", 1, false, false),        // Bonnell
        ("37", 1, false, false),        // Silvermont
        ("57", 1, false, false),        // Knights Landing
        ("5C", 1, false, false),        // Goldmont: intel_glm_pebs_event_constraints, mask 0x1
    ];
    for (m, counters, load_latency, precise_store) in linux {
        let g = cpu_model(m);
        let what = format!("6-{m} ({})", g.id);
        let r = reg(g, "IA32_PEBS_ENABLE");
        assert_eq!(r.addresses, vec![0x3F1], "{what}");
        let mut want = span(counters - 1, 0);
        if counters > 1 {
            assert_array(field(r, "PEBS_EN_PMC"), 0, 1, counters, 1);
        }
        if load_latency {
            assert_array(field(r, "LL_EN_PMC"), 32, 1, counters, 1);
            want |= span(32 + counters - 1, 32);
        }
        if precise_store {
            assert_eq!(bits(field(r, "PS_EN")), (63, 63), "{what}");
            want |= 1 << 63;
        }
        assert_eq!(covered(r), want, "{what}");
        assert_eq!(
            r.reserved_mask, !want,
            "{what}: every other bit is reserved"
        );
    }
}

/// Goldmont Plus (CPUID family 6 model 7AH) samples with PEBS on every counter before
/// version 5: Linux arch/x86/events/intel/core.c gives `INTEL_ATOM_GOLDMONT_PLUS`
/// `pebs_capable = ~0ULL` and `PMU_FL_PEBS_ALL`, and ds.c `intel_pmu_pebs_enable` sets bit
/// `hwc->idx` (fixed counter i is index 32+i): PMC0-3 at bits 3:0, fixed counters 0-2 at
/// 34:32 (the SDM's Goldmont Plus PEBS section: all general-purpose and fixed counters).
#[test]
fn intel_pebs_enable_goldmont_plus() {
    let g = cpu_model("7A");
    let r = reg(g, "IA32_PEBS_ENABLE");
    assert_eq!(r.addresses, vec![0x3F1], "{}", g.id);
    // Four general-purpose and three fixed counters (SDM Vol. 3B, Goldmont Plus: "four
    // general-purpose counters and three fixed-function counters" per logical processor).
    let (general, fixed) = (4, 3);
    assert_array(field(r, "PEBS_EN_PMC"), 0, 1, general, 1);
    assert_array(field(r, "PEBS_EN_FIXED"), 32, 1, fixed, 1);
    let want = span(general - 1, 0) | span(32 + fixed - 1, 32);
    assert_eq!(covered(r), want, "{}", g.id);
    assert_eq!(r.reserved_mask, !want, "{}", g.id);
}

/// MSR_PEBS_DATA_CFG (Linux msr-index.h `MSR_PEBS_DATA_CFG 0x000003f2`; perf_event.h
/// `PEBS_DATACFG_MEMINFO BIT_ULL(0)`, `_GP BIT_ULL(1)`, `_XMMS BIT_ULL(2)`, `_LBRS
/// BIT_ULL(3)`, `PEBS_DATACFG_LBR_SHIFT 24`), from version 5 (adaptive PEBS).
#[test]
fn intel_pebs_data_cfg() {
    for g in intel_before(5) {
        assert!(g.register("MSR_PEBS_DATA_CFG").is_none(), "{}", g.id);
    }
    for g in intel_from(5) {
        let r = reg(g, "MSR_PEBS_DATA_CFG");
        assert_eq!(r.addresses, vec![0x3F2], "{}", g.id);
        for (name, bit) in [("MEMINFO", 0), ("GPRS", 1), ("XMMS", 2), ("LBRS", 3)] {
            assert_eq!(bits(field(r, name)), (bit, bit), "{}: {name}", g.id);
        }
        assert_eq!(bits(field(r, "LBR_ENTRIES")), (31, 24));
    }
}

/// IA32_PERF_CAPABILITIES, field by field as Linux's `union perf_capabilities`
/// (arch/x86/include/asm/perf_event.h) lays it out: lbr_format:6, pebs_trap:1,
/// pebs_arch_reg:1, pebs_format:4, smm_freeze:1, full_width_write:1 (bits 0-13, every
/// version), pebs_baseline:1, perf_metrics:1, pebs_output_pt_available:1, pebs_timing_info:1
/// (bits 14-17, from version 5), bit 18 reserved, rdpmc_metrics_clear:1 (bit 19, version 6).
#[test]
fn intel_perf_capabilities_layout() {
    let linux = [
        ("LBR_FMT", 5, 0),
        ("PEBS_TRAP", 6, 6),
        ("PEBS_ARCH_REG", 7, 7),
        ("PEBS_REC_FMT", 11, 8),
        ("SMM_FREEZE", 12, 12),
        ("FW_WRITE", 13, 13),
        ("PEBS_BASELINE", 14, 14),
        ("PERF_METRICS_AVAILABLE", 15, 15),
        ("PEBS_OUTPUT_PT_AVAIL", 16, 16),
        ("PEBS_TIMING_INFO", 17, 17),
        ("RDPMC_METRICS_CLEAR", 19, 19),
    ];
    for (v, g) in (1..).zip(intel_from(1)) {
        let r = reg(g, "IA32_PERF_CAPABILITIES");
        assert_eq!(r.addresses, vec![0x345]);
        assert_eq!(r.access, Access::ReadOnly);
        let since = |msb: u32| match msb {
            0..=13 => 1,
            14..=17 => 5,
            _ => 6,
        };
        let mut want = 0;
        for &(name, msb, lsb) in &linux {
            if v >= since(msb) {
                assert_eq!(bits(field(r, name)), (msb, lsb), "{}: {name}", g.id);
                want |= span(msb, lsb);
            } else {
                assert!(r.field(name).is_none(), "{}: {name} is later", g.id);
            }
        }
        assert_eq!(covered(r), want, "{}: no other bit is defined", g.id);
    }
}

/// The architectural-LBR generation, found as a CPU finds the facility: the generation
/// detected by CPUID.(EAX=07H,ECX=0):EDX[19].
fn arch_lbr() -> &'static Generation {
    let found: Vec<&Generation> = model()
        .generations
        .iter()
        .filter(|g| {
            g.detect
                .as_ref()
                .and_then(|d| d.cpuid.as_ref())
                .is_some_and(|c| {
                    g.cpuid_leaf(&c.leaf)
                        .is_some_and(|l| l.leaf == 0x07 && l.subleaf == Some(0))
                        && c.register == "edx"
                        && cpuid_reg(g.cpuid_leaf(&c.leaf).unwrap(), "edx")
                            .and_then(|r| r.fields.iter().find(|f| f.name == c.field))
                            .is_some_and(|f| bits(f) == (19, 19))
                })
        })
        .collect();
    assert_eq!(found.len(), 1, "one generation is detected by Arch LBR");
    found[0]
}

/// Architectural LBR (Linux msr-index.h `MSR_ARCH_LBR_CTL 0x000014ce`, `MSR_ARCH_LBR_DEPTH
/// 0x000014cf`, `MSR_ARCH_LBR_FROM_0 0x00001500`, `MSR_ARCH_LBR_TO_0 0x00001600`,
/// `MSR_ARCH_LBR_INFO_0 0x00001200`; arch/x86/events/intel/lbr.c `ARCH_LBR_KERNEL_BIT 1`,
/// `USER_BIT 2`, `CALL_STACK_BIT 3`, `JCC_BIT 16` .. `OTHER_BRANCH_BIT 22`, the
/// `ARCH_LBR_BR_TYPE_*` enum 0-5; msr-index.h `LBR_INFO_MISPRED BIT_ULL(63)`, `IN_TX 62`,
/// `ABORT 61`, `CYC_CNT_VALID 60`, `LBR_INFO_BR_TYPE (0xfull << 56)`, `LBR_INFO_CYCLES
/// 0xffff`), enumerated by CPUID leaf 1CH.
#[test]
fn intel_arch_lbr() {
    let g = arch_lbr();
    assert_eq!(g.vendor, Vendor::Intel);
    let ctl = reg(g, "IA32_LBR_CTL");
    assert_eq!(ctl.addresses, vec![0x14CE]);
    let linux_ctl = [
        ("LBREN", 0),
        ("OS", 1),
        ("USR", 2),
        ("CALL_STACK", 3),
        ("COND", 16),
        ("NEAR_REL_JMP", 17),
        ("NEAR_IND_JMP", 18),
        ("NEAR_REL_CALL", 19),
        ("NEAR_IND_CALL", 20),
        ("NEAR_RET", 21),
        ("OTHER_BRANCH", 22),
    ];
    for (name, bit) in linux_ctl {
        assert_eq!(bits(field(ctl, name)), (bit, bit), "{name}");
    }
    assert_eq!(covered(ctl), 0b1111 | span(22, 16));
    assert_eq!(reg(g, "IA32_LBR_DEPTH").addresses, vec![0x14CF]);
    for (name, base) in [
        ("IA32_LBR_FROM_IP", 0x1500),
        ("IA32_LBR_TO_IP", 0x1600),
        ("IA32_LBR_INFO", 0x1200),
    ] {
        let r = reg(g, name);
        assert_eq!(
            (r.msr.base, r.msr.stride, r.msr.count),
            (base, 1, 32),
            "{name}"
        );
    }
    let info = reg(g, "IA32_LBR_INFO");
    for (name, msb, lsb) in [
        ("CYC_CNT", 15, 0),
        ("BR_TYPE", 59, 56),
        ("CYC_CNT_VALID", 60, 60),
        ("TSX_ABORT", 61, 61),
        ("IN_TSX", 62, 62),
        ("MISPRED", 63, 63),
    ] {
        assert_eq!(bits(field(info, name)), (msb, lsb), "{name}");
    }
    assert_eq!(
        values(field(info, "BR_TYPE")),
        BTreeMap::from([
            ("COND", 0),
            ("NEAR_IND_JMP", 1),
            ("NEAR_REL_JMP", 2),
            ("NEAR_IND_CALL", 3),
            ("NEAR_REL_CALL", 4),
            ("NEAR_RET", 5),
        ])
    );
    // CPUID leaf 1CH as Linux's `union cpuid28_eax/ebx/ecx` reads it.
    let l = leaf(g, 0x1C, Some(0)).expect("CPUID leaf 1CH");
    assert!(cpuid_field(l, "eax", 7, 0).is_some(), "lbr_depth_mask:8");
    assert!(cpuid_field(l, "eax", 30, 30).is_some(), "lbr_deep_c_reset");
    assert!(cpuid_field(l, "eax", 31, 31).is_some(), "lbr_lip");
    for bit in 0..3 {
        assert!(cpuid_field(l, "ebx", bit, bit).is_some(), "ebx bit {bit}");
        assert!(cpuid_field(l, "ecx", bit, bit).is_some(), "ecx bit {bit}");
    }
}

/// RAPL energy counters of Linux perf's power PMU (msr-index.h `MSR_RAPL_POWER_UNIT
/// 0x00000606`, `MSR_PKG_ENERGY_STATUS 0x00000611`, `MSR_DRAM_ENERGY_STATUS 0x00000619`,
/// `MSR_PP0_ENERGY_STATUS 0x00000639`, `MSR_PP1_ENERGY_STATUS 0x00000641`;
/// `MSR_PLATFORM_ENERGY_STATUS 0x64d` from arch/x86/events/rapl.c; unit fields as
/// tools/power/x86/turbostat and the SDM's Figure "MSR_RAPL_POWER_UNIT Register": power
/// 3:0, energy 12:8, time 19:16), read-only 32-bit counters.
#[test]
fn intel_rapl_energy_counters() {
    let found: Vec<&Generation> = model()
        .generations
        .iter()
        .filter(|g| g.register("MSR_RAPL_POWER_UNIT").is_some() && g.vendor == Vendor::Intel)
        .collect();
    assert_eq!(found.len(), 1, "one Intel generation defines RAPL");
    let g = found[0];
    let unit = reg(g, "MSR_RAPL_POWER_UNIT");
    assert_eq!(unit.addresses, vec![0x606]);
    assert_eq!(bits(field(unit, "POWER_UNITS")), (3, 0));
    assert_eq!(bits(field(unit, "ENERGY_STATUS_UNITS")), (12, 8));
    assert_eq!(bits(field(unit, "TIME_UNITS")), (19, 16));
    for (name, address) in [
        ("MSR_PKG_ENERGY_STATUS", 0x611),
        ("MSR_DRAM_ENERGY_STATUS", 0x619),
        ("MSR_PP0_ENERGY_STATUS", 0x639),
        ("MSR_PP1_ENERGY_STATUS", 0x641),
        ("MSR_PLATFORM_ENERGY_STATUS", 0x64D),
    ] {
        let r = reg(g, name);
        assert_eq!(r.addresses, vec![address], "{name}");
        assert_eq!(r.access, Access::ReadOnly, "{name}");
        assert_eq!(covered(r), span(31, 0), "{name}: a 32-bit counter");
    }
}

/// The reload registers of PEBS output to Intel PT, Linux arch/x86/include/asm/msr-index.h
/// ("Auto-reload via MSR instead of DS area": `MSR_RELOAD_PMC0 0x000014c1`,
/// `MSR_RELOAD_FIXED_CTR0 0x00001309`) and arch/x86/events/intel/ds.c
/// (`intel_pmu_pebs_via_pt_enable` writes counter n's at `MSR_RELOAD_PMC0 + n`, fixed counter
/// n's at `MSR_RELOAD_FIXED_CTR0 + n`, the reset value `intel_pmu_pebs_enable` masks with
/// `cntval_mask`, the counter width). Enumerated by IA32_PERF_CAPABILITIES bit 16
/// (perf_event.h `union perf_capabilities`, pebs_output_pt_available), so from version 5,
/// whose capabilities have that bit; one per counter wherever counters are added.
#[test]
fn intel_pebs_via_pt_reload_registers() {
    let v5 = intel_version(5);
    let caps = reg(v5, "IA32_PERF_CAPABILITIES");
    let (pt_avail, _) = field_at(caps, 16).expect("IA32_PERF_CAPABILITIES bit 16");
    for g in intel_before(5) {
        assert!(g.register("MSR_RELOAD_PMC").is_none(), "{}", g.id);
        assert!(g.register("MSR_RELOAD_FIXED_CTR").is_none(), "{}", g.id);
    }
    let from_v5 =
        (model().generations.iter()).filter(|g| g.id == v5.id || g.ancestors.contains(&v5.id));
    for g in from_v5 {
        for (name, base, role) in [
            ("MSR_RELOAD_PMC", 0x14C1, RegisterRole::Counter),
            ("MSR_RELOAD_FIXED_CTR", 0x1309, RegisterRole::FixedCounter),
        ] {
            let r = reg(g, name);
            let counters = g.register_with_role(role).expect("counters");
            let want: Vec<u32> = (0..counters.msr.count).map(|n| base + n).collect();
            assert_eq!(r.addresses, want, "{}: {name}", g.id);
            assert_eq!(r.access, Access::ReadWrite, "{}: {name}", g.id);
            assert_eq!(covered(r), span(47, 0), "{}: {name}", g.id);
            assert_eq!(
                covered(r),
                covered(counters),
                "{}: {name} as wide as the counter",
                g.id
            );
            let requires = field(r, "RELOAD").requires.as_deref().unwrap_or_default();
            assert!(
                requires.contains(&format!("{}[16]", pt_avail.name)),
                "{}: {name} requires {requires:?}",
                g.id
            );
        }
    }
}

/// AMD's RAPL energy counters, a facility detected by CPUID Fn8000_0007_EDX bit 14 (Linux
/// arch/x86/kernel/cpu/amd.c early_init_amd sets X86_FEATURE_RAPL from bit 14 of
/// `x86_power`, CPUID 0x80000007 EDX; arch/x86/events/rapl.c matches AMD's power PMU on
/// that feature). Addresses: msr-index.h `MSR_AMD_RAPL_POWER_UNIT 0xc0010299`,
/// `MSR_AMD_CORE_ENERGY_STATUS 0xc001029a`, `MSR_AMD_PKG_ENERGY_STATUS 0xc001029b`. Units as
/// drivers/powercap/intel_rapl_common.c reads them on AMD (rapl_defaults_amd uses
/// rapl_check_unit_core: POWER_UNIT_MASK 0x0F, ENERGY_UNIT_MASK 0x1F00, TIME_UNIT_MASK
/// 0xF0000); read-only 32-bit counters (rapl.c RAPL_CNTR_WIDTH 32).
#[test]
fn amd_rapl_energy_counters() {
    let g = amd_facility_detected_by(0x8000_0007, "edx", 14);
    let unit = reg(g, "MSR_AMD_RAPL_POWER_UNIT");
    assert_eq!(unit.addresses, [0xc001_0299]);
    assert_eq!(unit.access, Access::ReadOnly);
    assert_eq!(mask_of(g, "MSR_AMD_RAPL_POWER_UNIT", "POWER_UNITS"), 0x0F);
    assert_eq!(
        mask_of(g, "MSR_AMD_RAPL_POWER_UNIT", "ENERGY_STATUS_UNITS"),
        0x1F00
    );
    assert_eq!(
        mask_of(g, "MSR_AMD_RAPL_POWER_UNIT", "TIME_UNITS"),
        0xF_0000
    );
    assert_eq!(covered(unit), 0xF_1F0F);
    for (name, address) in [
        ("MSR_AMD_CORE_ENERGY_STATUS", 0xc001_029a),
        ("MSR_AMD_PKG_ENERGY_STATUS", 0xc001_029b),
    ] {
        let r = reg(g, name);
        assert_eq!(r.addresses, [address], "{name}");
        assert_eq!(r.access, Access::ReadOnly, "{name}");
        assert_eq!(covered(r), span(31, 0), "{name}: a 32-bit counter");
    }
    // A facility of its own: no core PMU generation has the registers.
    for core in amd_generations() {
        assert!(
            core.register("MSR_AMD_RAPL_POWER_UNIT").is_none(),
            "{}",
            core.id
        );
    }
}

/// The CPU-model generation describing CPUID family 6 model `model` (its `cpus:`).
fn cpu_model(number: &str) -> &'static Generation {
    let fm = format!("GenuineIntel-6-{number}");
    let found: Vec<&Generation> = model()
        .generations
        .iter()
        .filter(|g| {
            g.cpus
                .iter()
                .any(|c| c.family_model.eq_ignore_ascii_case(&fm))
        })
        .collect();
    assert!(!found.is_empty(), "no generation describes {fm}");
    found[0]
}

/// The legacy (model-specific) LBR stack, per CPU model, as Linux's
/// arch/x86/events/intel/lbr.c programs it: `intel_pmu_lbr_init_nhm`/`_snb` (16 records,
/// `MSR_LBR_NHM_FROM 0x680`, `MSR_LBR_NHM_TO 0x6c0`, LBR_SELECT bits 8:0), `_hsw` (as
/// Sandy Bridge plus `LBR_CALL_STACK_BIT 9`), `_skl` (32 records and `MSR_LBR_INFO_0
/// 0xdc0`), `_atom` (8 records at `MSR_LBR_CORE_FROM 0x40` / `MSR_LBR_CORE_TO 0x60`, no
/// LBR_SELECT), `_slm` (as Atom with LBR_SELECT), `_knl` (8 records at 0x680/0x6c0), chosen
/// per model in arch/x86/events/intel/core.c (Goldmont, Tremont and Ice Lake take `_skl`);
/// `MSR_LBR_SELECT 0x1c8`, `MSR_LBR_TOS 0x1c9` (msr-index.h). Sapphire Rapids has
/// architectural LBRs instead. Models are named by CPUID family 6 model number.
#[test]
fn intel_legacy_lbr_per_model() {
    // (model, depth, FROM base, TO base, LBR_SELECT bits (0: none), INFO)
    let linux = [
        ("1A", 16, 0x680, 0x6C0, 9, false),  // Nehalem-EP: nhm
        ("2A", 16, 0x680, 0x6C0, 9, false),  // Sandy Bridge: snb
        ("3C", 16, 0x680, 0x6C0, 10, false), // Haswell: hsw
        ("4E", 32, 0x680, 0x6C0, 10, true),  // Skylake-L: skl
        ("7E", 32, 0x680, 0x6C0, 10, true),  // Ice Lake-L: skl
        ("1C", 8, 0x40, 0x60, 0, false),     // Bonnell: atom
        ("37", 8, 0x40, 0x60, 9, false),     // Silvermont: slm
        ("57", 8, 0x680, 0x6C0, 9, false),   // Knights Landing: knl
        ("5C", 32, 0x680, 0x6C0, 10, true),  // Goldmont: skl
        ("86", 32, 0x680, 0x6C0, 10, true),  // Tremont (Snow Ridge): skl
    ];
    for (m, depth, from, to, select_bits, info) in linux {
        let g = cpu_model(m);
        let what = format!("6-{m} ({})", g.id);
        let tos = reg(g, "MSR_LASTBRANCH_TOS");
        assert_eq!(tos.addresses, vec![0x1C9], "{what}");
        assert_eq!(
            covered(tos),
            u64::from(depth) - 1,
            "{what}: TOS counts 0..{depth}"
        );
        for (name, base) in [
            ("MSR_LASTBRANCH_FROM_IP", from),
            ("MSR_LASTBRANCH_TO_IP", to),
        ] {
            let r = reg(g, name);
            assert_eq!(
                (r.msr.base, r.msr.count, r.msr.stride),
                (base, depth, 1),
                "{what}: {name}"
            );
        }
        match g.register("MSR_LBR_SELECT") {
            Some(sel) => {
                assert_eq!(sel.addresses, vec![0x1C8], "{what}");
                assert_eq!(covered(sel), span(select_bits - 1, 0), "{what}: LBR_SELECT");
            }
            None => assert_eq!(select_bits, 0, "{what}: LBR_SELECT missing"),
        }
        match g.register("MSR_LBR_INFO") {
            Some(r) => {
                assert!(info, "{what}: no LBR_INFO on this model");
                assert_eq!((r.msr.base, r.msr.count), (0xDC0, 32), "{what}");
                assert_eq!(covered(r), span(15, 0) | span(63, 61), "{what}");
            }
            None => assert!(!info, "{what}: LBR_INFO missing"),
        }
        // The filter bits, as lbr.c's LBR_*_BIT numbers them.
        if let Some(sel) = g.register("MSR_LBR_SELECT") {
            for (name, bit) in [
                ("CPL_EQ_0", 0),
                ("JCC", 2),
                ("NEAR_RET", 5),
                ("FAR_BRANCH", 8),
            ] {
                assert_eq!(bits(field(sel, name)), (bit, bit), "{what}: {name}");
            }
        }
    }
    let spr = cpu_model("8F");
    assert!(
        spr.register("MSR_LASTBRANCH_FROM_IP").is_none(),
        "Sapphire Rapids: arch LBR"
    );
}

// ---------------------------------------------------------------------------------------
// Intel: perfmon v6 counter ranges, auto counter reload, architectural PEBS
// ---------------------------------------------------------------------------------------

/// Perfmon v6 reaches every counter at a second address (Linux
/// arch/x86/include/asm/msr-index.h: `MSR_IA32_PMC_V6_GP0_CTR 0x1900`,
/// `MSR_IA32_PMC_V6_GP0_CFG_A 0x1901`, `MSR_IA32_PMC_V6_GP0_CFG_B 0x1902`,
/// `MSR_IA32_PMC_V6_GP0_CFG_C 0x1903`, `MSR_IA32_PMC_V6_FX0_CTR 0x1980`,
/// `MSR_IA32_PMC_V6_FX0_CFG_B 0x1982`, `MSR_IA32_PMC_V6_FX0_CFG_C 0x1983`,
/// `MSR_IA32_PMC_V6_STEP 4`; commit 149fd4712bcd "perf/x86/intel: Support Perfmon MSRs
/// aliasing"). The counter and its event select are the legacy registers at a second
/// address (`alias-msr:`), never a second register; earlier versions have no alias.
#[test]
fn intel_v6_counter_ranges() {
    let v6 = intel_version(6);
    for (name, legacy, alias) in [
        ("IA32_PMC", 0xC1, 0x1900),
        ("IA32_PERFEVTSEL", 0x186, 0x1901),
        ("IA32_FIXED_CTR", 0x309, 0x1980),
    ] {
        let r = reg(v6, name);
        assert_eq!(r.msr.base, legacy, "{name}");
        let a = r
            .alias_msr
            .unwrap_or_else(|| panic!("{name} has no alias range"));
        assert_eq!(
            (a.base, a.stride, a.count),
            (alias, 4, r.msr.count),
            "{name}"
        );
        let want: Vec<u32> = (0..r.msr.count).map(|n| alias + 4 * n).collect();
        assert_eq!(r.alias_addresses, want, "{name}");
        for (n, &addr) in want.iter().enumerate() {
            assert_eq!(r.index_at(addr), Some(n as u32), "{name} at {addr:#x}");
            assert_eq!(r.index_at(r.addresses[n]), Some(n as u32), "{name}");
        }
    }
    // No register of v6 sits in the alias range under another name.
    for r in &v6.registers {
        let own = r.addresses.iter().filter(|a| (0x1900..0x1A00).contains(*a));
        let cfg = r.name.contains("_CFG_");
        assert!(
            cfg || own.count() == 0,
            "{} claims an alias address",
            r.name
        );
    }
    for g in intel_before(6) {
        assert!(
            g.registers.iter().all(|r| r.alias_msr.is_none()),
            "{}",
            g.id
        );
    }
    for (name, base, kind) in [
        ("IA32_PMC_GP_CFG_B", 0x1902, "IA32_PMC"),
        ("IA32_PMC_GP_CFG_C", 0x1903, "IA32_PMC"),
        ("IA32_PMC_FX_CFG_B", 0x1982, "IA32_FIXED_CTR"),
        ("IA32_PMC_FX_CFG_C", 0x1983, "IA32_FIXED_CTR"),
    ] {
        let r = reg(v6, name);
        let counters = reg(v6, kind).msr.count;
        assert_eq!(
            (r.msr.base, r.msr.stride, r.msr.count),
            (base, 4, counters),
            "{name}"
        );
        assert_eq!(r.access, Access::ReadWrite, "{name}");
    }
}

/// Auto counter reload (Linux arch/x86/events/intel/core.c `intel_pmu_config_acr`: CFG_B is
/// the mask of counter indexes whose overflow reloads the counter, general-purpose counters
/// from bit 0 and fixed counters from `INTEL_PMC_IDX_FIXED` 32; CFG_C takes the `u32`
/// reload value) and the architectural PEBS bits of CFG_C (msr-index.h
/// `ARCH_PEBS_RELOAD 0xffffffff`, `ARCH_PEBS_CNTR_ALLOW BIT_ULL(35)`, `ARCH_PEBS_CNTR_GP
/// BIT_ULL(36)`, `ARCH_PEBS_CNTR_FIXED BIT_ULL(37)`, `ARCH_PEBS_CNTR_METRICS BIT_ULL(38)`,
/// `ARCH_PEBS_LBR (0x3ull << 40)`, `ARCH_PEBS_VECR_XMM BIT_ULL(49)`, `ARCH_PEBS_GPR
/// BIT_ULL(61)`, `ARCH_PEBS_AUX BIT_ULL(62)`, `ARCH_PEBS_EN BIT_ULL(63)`).
#[test]
fn intel_v6_cfg_b_and_cfg_c_layouts() {
    let v6 = intel_version(6);
    let (general, fixed) = (
        reg(v6, "IA32_PMC").msr.count,
        reg(v6, "IA32_FIXED_CTR").msr.count,
    );
    for name in ["IA32_PMC_GP_CFG_B", "IA32_PMC_FX_CFG_B"] {
        let r = reg(v6, name);
        assert_array(field(r, "RELOAD_ON_PMC"), 0, 1, general, 1);
        assert_array(field(r, "RELOAD_ON_FIXED_CTR"), 32, 1, fixed, 1);
        assert_eq!(
            covered(r),
            span(general - 1, 0) | span(31 + fixed, 32),
            "{name}"
        );
    }
    let linux_cfg_c = [
        ("RELOAD", 31, 0),
        ("PEBS_CNTR_ALLOW", 35, 35),
        ("PEBS_CNTR_GP", 36, 36),
        ("PEBS_CNTR_FIXED", 37, 37),
        ("PEBS_CNTR_METRICS", 38, 38),
        ("PEBS_LBR", 41, 40),
        ("PEBS_XMM", 49, 49),
        ("PEBS_GPR", 61, 61),
        ("PEBS_AUX", 62, 62),
        ("PEBS_EN", 63, 63),
    ];
    for name in ["IA32_PMC_GP_CFG_C", "IA32_PMC_FX_CFG_C"] {
        let r = reg(v6, name);
        let mut want = 0;
        for (f, msb, lsb) in linux_cfg_c {
            assert_eq!(bits(field(r, f)), (msb, lsb), "{name}.{f}");
            want |= span(msb, lsb);
        }
        assert_eq!(covered(r), want, "{name}: no other bit is defined");
    }
    // CPUID.(EAX=23H,ECX=2) (perf_event.h `ARCH_PERFMON_ACR_LEAF 0x2`; core.c
    // `update_pmu_cap`: EAX/EBX the reloadable GP/fixed counters, ECX/EDX the ones that
    // cause a reload).
    let acr = leaf(v6, 0x23, Some(2)).expect("CPUID 23H subleaf 2");
    for r in ["eax", "ebx", "ecx", "edx"] {
        assert!(cpuid_field(acr, r, 31, 0).is_some(), "23H.2 {r}");
    }
}

/// The architectural-PEBS generation, found as a CPU finds the facility: the generation
/// detected by CPUID.(EAX=23H,ECX=0):EAX[4] (perf_event.h `union cpuid35_eax`:
/// `pebs_caps_subleaf` is bit 4, `pebs_cnts_subleaf` bit 5).
fn arch_pebs() -> &'static Generation {
    let found: Vec<&Generation> = model()
        .generations
        .iter()
        .filter(|g| {
            g.detect
                .as_ref()
                .and_then(|d| d.cpuid.as_ref())
                .is_some_and(|c| {
                    let l = g.cpuid_leaf(&c.leaf);
                    l.is_some_and(|l| l.leaf == 0x23 && l.subleaf == Some(0))
                        && c.register == "eax"
                        && l.and_then(|l| cpuid_reg(l, "eax"))
                            .and_then(|r| r.fields.iter().find(|f| f.name == c.field))
                            .is_some_and(|f| bits(f) == (4, 4))
                })
        })
        .collect();
    assert_eq!(found.len(), 1, "one generation is detected by arch PEBS");
    found[0]
}

/// Architectural PEBS (Linux msr-index.h `MSR_IA32_PEBS_BASE 0x000003f4`,
/// `MSR_IA32_PEBS_INDEX 0x000003f5`, `ARCH_PEBS_OFFSET_MASK 0x7fffff`,
/// `ARCH_PEBS_INDEX_WR_SHIFT 4`; perf_event.h `union arch_pebs_index { rsvd:4, wr:23,
/// rsvd2:4, full:1, en:1, rsvd3:3, thresh:23, rsvd4:5 }`; ds.c writes IA32_PEBS_BASE as the
/// 4 KiB-aligned physical address ORed with the size exponent; perf_event.h
/// `ARCH_PERFMON_PEBS_CAP_LEAF 0x4`, `ARCH_PERFMON_PEBS_COUNTER_LEAF 0x5`).
#[test]
fn intel_arch_pebs() {
    let g = arch_pebs();
    assert_eq!(g.vendor, Vendor::Intel);
    let base = reg(g, "IA32_PEBS_BASE");
    assert_eq!(base.addresses, vec![0x3F4]);
    assert_eq!(bits(field(base, "BASE")), (63, 12));
    assert_eq!(field(base, "SIZE").bits[0].lsb, 0);
    let index = reg(g, "IA32_PEBS_INDEX");
    assert_eq!(index.addresses, vec![0x3F5]);
    // wr:23 after rsvd:4; rsvd2:4; full; en; rsvd3:3; thresh:23.
    let wr = field(index, "WR");
    assert_eq!(bits(wr), (4 + 23 - 1, 4));
    assert_eq!(wr.mask >> 4, 0x7F_FFFF, "ARCH_PEBS_OFFSET_MASK");
    assert_eq!(bits(field(index, "FULL")), (31, 31));
    assert_eq!(bits(field(index, "EN")), (32, 32));
    assert_eq!(bits(field(index, "THRESH")), (36 + 23 - 1, 36));
    assert_eq!(
        covered(index),
        span(26, 4) | span(32, 31) | span(58, 36),
        "no other bit of IA32_PEBS_INDEX is defined"
    );
    let caps = leaf(g, 0x23, Some(4)).expect("CPUID 23H subleaf 4");
    assert!(cpuid_field(caps, "ebx", 31, 0).is_some(), "23H.4 EBX caps");
    let counters = leaf(g, 0x23, Some(5)).expect("CPUID 23H subleaf 5");
    for r in ["eax", "ebx", "ecx", "edx"] {
        assert!(cpuid_field(counters, r, 31, 0).is_some(), "23H.5 {r}");
    }
}
