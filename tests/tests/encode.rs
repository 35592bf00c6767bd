//! `pmu_defs::encode`: perf's spelling, modifiers, every error class, decoding, and
//! encode -> decode round trips over every shipped event.
//!
//! The fixture models below hold real events with their real codes (names and numbers are
//! facts, taken from Intel's perfmon lists; no descriptions). The expected perf strings are
//! what perf builds for them: Linux `tools/perf/pmu-events/jevents.py` applied to perf's
//! JSON (`tools/perf/pmu-events/arch/x86/<model>/*.json`), minus the `period=` term.

use pmu_defs::encode::{Counter, Encoder, Encoding, Error, ErrorKind, RegisterRef, Request};
use pmu_defs::model::{Field, Generation};
use pmu_defs::{Loaded, Loader};
use std::sync::OnceLock;

/// A Skylake-like client core on architectural version 4 (events from Intel's
/// SKL/events/skylake_core.json, plus one Haswell event Intel defines with INV and no CMASK).
const SKL: &str = r#"
generation: intel-fixture-skl
extends: intel-v4
title: Fixture model (Skylake events)
manual: Intel perfmon SKL/events/skylake_core.json
cpus:
  - { family-model: GenuineIntel-6-4E }
events:
  - { name: UOPS_ISSUED.STALL_CYCLES, event: 0x0E, umask: 0x01, cmask: 1, inv: true, counters: [0-3] }
  - { name: UOPS_ISSUED.ANY, event: 0x0E, umask: 0x01, counters: [0-3] }
  - { name: LONGEST_LAT_CACHE.MISS, event: 0x2E, umask: 0x41, counters: [0-3] }
  - { name: L2_RQSTS.MISS, event: 0x24, umask: 0x3F, counters: [0-3] }
  - { name: CYCLE_ACTIVITY.STALLS_TOTAL, event: 0xA3, umask: 0x04, cmask: 4, counters: [0-3] }
  - { name: MACHINE_CLEARS.COUNT, event: 0xC3, umask: 0x01, cmask: 1, edge: true, counters: [0-3] }
  - { name: CPU_CLK_UNHALTED.THREAD_P_ANY, event: 0x3C, umask: 0x00, any: true, counters: [0-3] }
  - { name: MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4, event: 0xCD, umask: 0x01, counters: [0-3], msr: { index: 0x3F6, value: 0x4 } }
  - { name: FRONTEND_RETIRED.DSB_MISS, event: 0xC6, umask: 0x01, counters: [0-3], msr: { index: 0x3F7, value: 0x11 } }
  - name: OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_MISS.ANY_SNOOP
    event: [0xB7, 0xBB]
    umask: 0x01
    counters: [0-3]
    msr: { index: [0x1A6, 0x1A7], value: 0x3FFC400001 }
  - { name: UOPS_EXECUTED.CORE_CYCLES_NONE, event: 0xB1, umask: 0x02, inv: true, counters: [0-3] }
  - { name: INST_RETIRED.ANY, event: 0x00, umask: 0x01, fixed: 0 }
  - { name: CPU_CLK_UNHALTED.THREAD, event: 0x00, umask: 0x02, fixed: 1 }
  - { name: CPU_CLK_UNHALTED.THREAD_ANY, event: 0x00, umask: 0x02, any: true, fixed: 1 }
  - { name: CPU_CLK_UNHALTED.REF_TSC, event: 0x00, umask: 0x03, fixed: 2 }
  - { name: CPU_CLK_UNHALTED.REF, event: 0x00, umask: 0x00, fixed: 2 }
"#;

/// A Lion Cove-like core on architectural version 6 (events from Intel's
/// LNL/events/lunarlake_lioncove_core.json, which uses UMaskExt).
const LNC: &str = r#"
generation: intel-fixture-lnc
extends: intel-v6
title: Fixture model (Lion Cove events)
manual: Intel perfmon LNL/events/lunarlake_lioncove_core.json
cpus:
  - { family-model: GenuineIntel-6-BD, core-type: 0x40, core-role: Core }
events:
  - { name: ARITH.DIV_ACTIVE, event: 0xB0, umask: 0x09, cmask: 1 }
  - { name: BR_INST_RETIRED.COND, event: 0xC4, umask: 0x11, umask2: 0x01 }
  - { name: MEM_LOAD_RETIRED.L1_HIT_L1, event: 0xD1, umask: 0x00, umask2: 0x01, counters: [0-3] }
"#;

/// A Gracemont-like list that serves hybrid parts (Atom cores) and one non-hybrid part, as
/// Intel's alderlake_gracemont_core.json serves Alder Lake and Alder Lake N.
const GRT: &str = r#"
generation: intel-fixture-grt
extends: intel-v5
title: Fixture model (Gracemont events)
manual: Intel perfmon ADL/events/alderlake_gracemont_core.json
cpus:
  - { family-model: GenuineIntel-6-97, core-type: 0x20, core-role: Atom }
  - { family-model: GenuineIntel-6-BE }
events:
  - { name: ARITH.DIV_ACTIVE, event: 0xCD, umask: 0x03, cmask: 1, counters: [0-5] }
"#;

/// A low-power Atom core of a three-core-type part (Arrow Lake H's Crestmont).
const CMT: &str = r#"
generation: intel-fixture-cmt
extends: intel-v5
title: Fixture model (low-power Crestmont events)
manual: Intel perfmon ARL/events/arrowlake_crestmont_core.json
cpus:
  - { family-model: GenuineIntel-6-C5, core-type: 0x20, core-role: LowPower_Atom }
events:
  - { name: ARITH.DIV_ACTIVE, event: 0xCD, umask: 0x03, cmask: 1, counters: [0-7] }
"#;

fn loaded() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(|| {
        let mut loader = Loader::new().with_defaults();
        loader.add_str("fixture-skl.yaml", SKL);
        loader.add_str("fixture-lnc.yaml", LNC);
        loader.add_str("fixture-grt.yaml", GRT);
        loader.add_str("fixture-cmt.yaml", CMT);
        let loaded = loader.finish();
        assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
        loaded
    })
}

fn encoder() -> Encoder<'static> {
    Encoder::new(&loaded().model)
}

fn enc(target: &str, spec: &str) -> Encoding {
    let req = Request::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    encoder()
        .encode(target, &req)
        .unwrap_or_else(|e| panic!("{target} {spec}: {e}"))
}

fn enc_on(target: &str, spec: &str, counter: Counter) -> Result<Encoding, Error> {
    encoder().encode(target, &Request::parse(spec)?.on(counter))
}

fn err(target: &str, spec: &str) -> Error {
    let req = match Request::parse(spec) {
        Ok(r) => r,
        Err(e) => return e,
    };
    match encoder().encode(target, &req) {
        Ok(e) => panic!("{target} {spec}: expected an error, got {}", e.perf),
        Err(e) => e,
    }
}

fn perf(target: &str, spec: &str) -> String {
    enc(target, spec).perf
}

/// The event select's AnyThread field (the `any` attribute's), if the generation has one.
fn any_thread(g: &Generation) -> Option<&Field> {
    let select = g.register(&g.pmu.general.as_ref()?.select)?;
    let name = g.pmu.encoding_field("any")?;
    select.fields.iter().find(|f| f.name == name)
}

/// Every generation of the model, the shipped ones and the fixtures (never a hand-kept list).
fn generations() -> impl Iterator<Item = &'static Generation> {
    loaded().model.generations.iter()
}

const SKLF: &str = "intel-fixture-skl";
const LNCF: &str = "intel-fixture-lnc";

// ---------------------------------------------------------------------------------------
// Spelling: each rule
// ---------------------------------------------------------------------------------------

#[test]
fn the_issue_example() {
    // perf: skylake/pipeline.json UOPS_ISSUED.STALL_CYCLES.
    let e = enc(SKLF, "UOPS_ISSUED.STALL_CYCLES");
    assert_eq!(e.perf, "cpu/event=0xe,cmask=1,inv=1,umask=1/");
    // EVENT_SELECT 0x0E, UMASK 1, USR, OS, INV, CMASK 1 (SDM Figure 18-6).
    assert_eq!(e.value, 0x0183_010E);
    assert_eq!(e.register, "IA32_PERFEVTSEL");
    assert_eq!(e.pmu, "cpu");
}

#[test]
fn small_numbers_are_decimal_larger_ones_lowercase_hex() {
    assert_eq!(perf(SKLF, "event=9"), "cpu/event=9/");
    assert_eq!(perf(SKLF, "event=10"), "cpu/event=0xa/");
    assert_eq!(
        perf(SKLF, "event=0xA,umask=0xAB"),
        "cpu/event=0xa,umask=0xab/"
    );
    // L2_RQSTS.MISS: UMask 0x3F is written 0x3f.
    assert_eq!(perf(SKLF, "L2_RQSTS.MISS"), "cpu/event=0x24,umask=0x3f/");
    // CPU_CLK_UNHALTED.REF_TSC: EventCode 0x00 is llx(0) = "0".
    assert_eq!(
        perf(SKLF, "CPU_CLK_UNHALTED.REF_TSC"),
        "cpu/event=0,umask=3/"
    );
}

#[test]
fn cmask_stays_decimal() {
    assert_eq!(
        perf(SKLF, "CYCLE_ACTIVITY.STALLS_TOTAL"),
        "cpu/event=0xa3,cmask=4,umask=4/"
    );
    assert_eq!(
        perf(SKLF, "L2_RQSTS.MISS:cmask=16"),
        "cpu/event=0x24,cmask=16,umask=0x3f/"
    );
    assert_eq!(
        perf(SKLF, "L2_RQSTS.MISS:cmask=0xff"),
        "cpu/event=0x24,cmask=255,umask=0x3f/"
    );
}

#[test]
fn zero_terms_are_left_out() {
    // perf: skylake/pipeline.json CPU_CLK_UNHALTED.THREAD_P_ANY (UMask 0x00 is dropped).
    assert_eq!(
        perf(SKLF, "CPU_CLK_UNHALTED.THREAD_P_ANY"),
        "cpu/event=0x3c,any=1/"
    );
    assert_eq!(perf("intel-v1", "UNHALTED_CORE_CYCLES"), "cpu/event=0x3c/");
}

#[test]
fn terms_follow_jevents_order() {
    // event, any, cmask, edge, eq, inv, umask, then the auxiliary MSR.
    assert_eq!(
        perf(SKLF, "MACHINE_CLEARS.COUNT"),
        "cpu/event=0xc3,cmask=1,edge=1,umask=1/"
    );
    assert_eq!(
        perf(SKLF, "MACHINE_CLEARS.COUNT:inv:any"),
        "cpu/event=0xc3,any=1,cmask=1,edge=1,inv=1,umask=1/"
    );
    assert_eq!(
        perf("intel-v6", "LLC_MISSES:eq:cmask=2:edge"),
        "cpu/event=0x2e,cmask=2,edge=1,eq=1,umask=0x41/"
    );
}

#[test]
fn auxiliary_msr_terms() {
    // perf: skylake/memory.json (ldlat), frontend.json (frontend), cache.json (offcore_rsp).
    assert_eq!(
        perf(SKLF, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4"),
        "cpu/event=0xcd,umask=1,ldlat=0x4/"
    );
    assert_eq!(
        perf(SKLF, "FRONTEND_RETIRED.DSB_MISS"),
        "cpu/event=0xc6,umask=1,frontend=0x11/"
    );
    // perf copies Intel's MSRValue text ("0x3FFC400001"); the number is printed in
    // lowercase here (see pmu_defs::encode::perf).
    let e = enc(SKLF, "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_MISS.ANY_SNOOP");
    assert_eq!(e.perf, "cpu/event=0xb7,umask=1,offcore_rsp=0x3ffc400001/");
    assert_eq!(e.aux.len(), 1);
    assert_eq!(e.aux[0].index, 0x1A6);
    assert_eq!(e.aux[0].value, 0x3F_FC40_0001);
    assert_eq!(e.aux[0].perf_term, Some("offcore_rsp"));
    // The second code 0xBB pairs with MSR_OFFCORE_RSP_1.
    assert_eq!(e.alternatives.len(), 1);
    assert_eq!(e.alternatives[0].event, 0xBB);
    assert_eq!(e.alternatives[0].msr_index, Some(0x1A7));
    assert_eq!(e.alternatives[0].value, e.value - 0xB7 + 0xBB);
}

/// A perf event string encodes as the event it spells, through the parser the run-time
/// resolver uses; its PMU must be the generation's.
#[test]
fn perf_strings_encode_as_the_event_they_spell() {
    let by_name = enc(SKLF, "LONGEST_LAT_CACHE.MISS:u");
    let by_terms = enc(SKLF, "cpu/event=0x2e,umask=0x41/u");
    assert_eq!(by_terms.value, by_name.value);
    assert_eq!(by_terms.perf, by_name.perf);
    let both = enc(SKLF, "cpu/event=0x2e,umask=0x41,cmask=2,inv/");
    assert_eq!(both.value & 0xFF80_0000, 0x0280_0000, "CMASK 2 and INV");
    let refuse = |spec: &str| match Request::parse(spec) {
        Ok(req) => encoder().encode(SKLF, &req).unwrap_err().to_string(),
        Err(e) => e.to_string(),
    };
    let pmu = refuse("cpu_atom/event=0x2e,umask=0x41/");
    assert!(pmu.contains("on PMU `cpu`, not `cpu_atom`"), "{pmu}");
    let twice = refuse("cpu/event=0x2e,event=0x2e/");
    assert!(twice.contains("term given twice"), "{twice}");
    let config = refuse("cpu/config=0x412e/");
    assert!(config.contains("`pmu decode` reads one"), "{config}");
}

/// `ldlat=N` and `offcore_rsp=N` replace the value of the event's own auxiliary MSR; an event
/// without that MSR, or a value with a reserved bit of it, is refused.
#[test]
fn aux_modifiers_replace_the_events_own_msr_value() {
    let e = enc(SKLF, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=128");
    assert_eq!(e.perf, "cpu/event=0xcd,umask=1,ldlat=0x80/");
    assert_eq!((e.aux[0].index, e.aux[0].value), (0x3F6, 0x80));
    let e = enc(
        SKLF,
        "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_MISS.ANY_SNOOP:offcore_rsp=0x10001:u",
    );
    assert_eq!(e.perf, "cpu/event=0xb7,umask=1,offcore_rsp=0x10001/u");
    let refuse = |spec: &str| {
        let req = Request::parse(spec).unwrap();
        encoder().encode(SKLF, &req).unwrap_err().to_string()
    };
    let wrong_event = refuse("LONGEST_LAT_CACHE.MISS:ldlat=4");
    assert!(
        wrong_event.contains("programs no ldlat MSR"),
        "{wrong_event}"
    );
    let wrong_msr = refuse("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:offcore_rsp=1");
    assert!(
        wrong_msr.contains("programs no offcore_rsp MSR"),
        "{wrong_msr}"
    );
    let twice = refuse("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=4:ldlat=8");
    assert!(twice.contains("`ldlat` is given more than once"), "{twice}");
}

#[test]
fn umask2_is_folded_into_umask() {
    // perf: lunarlake/pipeline.json BR_INST_RETIRED.COND, "UMask": "0x111", Unit cpu_core.
    let e = enc(LNCF, "BR_INST_RETIRED.COND");
    assert_eq!(e.perf, "cpu_core/event=0xc4,umask=0x111/");
    // UMASK 0x11 at 15:8, UMASK2 0x01 at 47:40 (SDM, version 6 IA32_PERFEVTSELx).
    assert_eq!(e.value, (1 << 40) | 0x0003_11C4);
    let e = enc(LNCF, "MEM_LOAD_RETIRED.L1_HIT_L1");
    assert_eq!(e.perf, "cpu_core/event=0xd1,umask=0x100/");
    assert_eq!(e.value, (1 << 40) | 0x0003_00D1);
    // Raw terms: umask above 8 bits goes to UMASK2, as perf's umask format does.
    assert_eq!(
        enc(LNCF, "event=0xc4,umask=0x111").value,
        enc(LNCF, "BR_INST_RETIRED.COND").value
    );
}

#[test]
fn perfs_own_spelling_of_six_events() {
    // jevents.py real_event().
    let e = enc(SKLF, "INST_RETIRED.ANY");
    assert_eq!(e.perf, "cpu/event=0xc0/");
    assert!(
        e.notes.iter().any(|n| n.contains("real_event")),
        "{:?}",
        e.notes
    );
    assert_eq!(perf(SKLF, "CPU_CLK_UNHALTED.THREAD"), "cpu/event=0x3c/");
    assert_eq!(
        perf(SKLF, "CPU_CLK_UNHALTED.THREAD_ANY"),
        "cpu/event=0x3c,any=1/"
    );
    assert_eq!(
        perf(SKLF, "CPU_CLK_UNHALTED.REF"),
        "cpu/event=0x0,umask=0x03/"
    );
    // Case does not matter to jevents.
    assert_eq!(perf(SKLF, "inst_retired.any"), "cpu/event=0xc0/");
}

#[test]
fn hybrid_pmu_names() {
    // perf: lunarlake/pipeline.json ARITH.DIV_ACTIVE, Unit cpu_core (0xb0/0x9) and cpu_atom
    // (0xcd/0x3); arrowlake JSON uses cpu_lowpower for the low-power Atom cores.
    let e = enc(LNCF, "ARITH.DIV_ACTIVE");
    assert_eq!(e.perf, "cpu_core/event=0xb0,cmask=1,umask=9/");
    assert_eq!(e.pmu, "cpu_core");
    let e = enc("intel-fixture-grt", "ARITH.DIV_ACTIVE:u");
    assert_eq!(e.perf, "cpu_atom/event=0xcd,cmask=1,umask=3/u");
    // The same list serves a non-hybrid part, where perf's PMU is `cpu`.
    assert!(
        e.notes
            .iter()
            .any(|n| n == "GenuineIntel-6-BE is not hybrid: there the PMU is `cpu` (cpu/event=0xcd,cmask=1,umask=3/u)"),
        "{:?}",
        e.notes
    );
    assert_eq!(
        perf("intel-fixture-cmt", "ARITH.DIV_ACTIVE"),
        "cpu_lowpower/event=0xcd,cmask=1,umask=3/"
    );
    assert_eq!(enc(SKLF, "L2_RQSTS.MISS").pmu, "cpu");
    assert_eq!(enc("intel-v6", "LLC_MISSES").pmu, "cpu");
}

#[test]
fn privilege_modifiers_after_the_slash() {
    assert_eq!(
        perf("intel-v1", "LLC_MISSES:u"),
        "cpu/event=0x2e,umask=0x41/u"
    );
    assert_eq!(
        perf("intel-v1", "LLC_MISSES:k"),
        "cpu/event=0x2e,umask=0x41/k"
    );
    assert_eq!(
        perf("intel-v1", "LLC_MISSES:u:k"),
        "cpu/event=0x2e,umask=0x41/uk"
    );
    assert_eq!(perf("intel-v1", "LLC_MISSES"), "cpu/event=0x2e,umask=0x41/");
}

// ---------------------------------------------------------------------------------------
// Modifiers
// ---------------------------------------------------------------------------------------

#[test]
fn privilege_levels_default_to_both() {
    let v = |spec| enc("intel-v1", spec).value;
    let usr = 1 << 16;
    let os = 1 << 17;
    assert_eq!(v("LLC_MISSES") & (usr | os), usr | os);
    assert_eq!(v("LLC_MISSES:u") & (usr | os), usr);
    assert_eq!(v("LLC_MISSES:k") & (usr | os), os);
    assert_eq!(v("LLC_MISSES:u:k") & (usr | os), usr | os);
    let e = enc("intel-v1", "LLC_MISSES:u=0");
    assert_eq!(e.value & (usr | os), 0);
    assert!(e.notes.iter().any(|n| n.contains("counts nothing")));
}

#[test]
fn int_and_en_set_bits_but_no_perf_term() {
    let e = enc("intel-v3", "LLC_MISSES:int:en");
    assert_eq!(e.value, 0x0053_412E);
    assert_eq!(e.perf, "cpu/event=0x2e,umask=0x41/");
    assert!(e.notes.iter().any(|n| n.contains("no perf term")));
    assert_eq!(enc("intel-v3", "LLC_MISSES:en").value, 0x0043_412E);
}

#[test]
fn modifiers_override_the_events_values() {
    let e = enc(SKLF, "UOPS_ISSUED.STALL_CYCLES:cmask=2");
    assert_eq!(e.perf, "cpu/event=0xe,cmask=2,inv=1,umask=1/");
    assert_eq!(e.value >> 24 & 0xFF, 2);
    // Clearing INV removes its term and its bit.
    let e = enc(SKLF, "UOPS_ISSUED.STALL_CYCLES:inv=0");
    assert_eq!(e.perf, "cpu/event=0xe,cmask=1,umask=1/");
    assert_eq!(e.value & (1 << 23), 0);
    let e = enc(SKLF, "UOPS_ISSUED.ANY:edge:cmask=1:any");
    assert_eq!(e.value, 0x0127_010E);
    assert_eq!(e.perf, "cpu/event=0xe,any=1,cmask=1,edge=1,umask=1/");
}

#[test]
fn every_field_set_is_reported_in_bit_order() {
    let e = enc("intel-v3", "LLC_MISSES:u:en");
    let names: Vec<&str> = e.fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "EVENT_SELECT",
            "UMASK",
            "USR",
            "OS",
            "EDGE",
            "INT",
            "ANY",
            "EN",
            "INV",
            "CMASK"
        ]
    );
    let umask = &e.fields[1];
    assert_eq!((umask.bits.as_str(), umask.value), ("15:8", 0x41));
}

#[test]
fn split_event_select_on_amd() {
    // AMD64 APM Vol. 2 §13.2.1: EventSelect[11:8] lives in bits 35:32.
    let e = enc("amd-core", "event=0x1c0,umask=0x2:u");
    assert_eq!(e.value, (1 << 32) | (1 << 16) | 0x02C0);
    assert_eq!(e.perf, "cpu/event=0x1c0,umask=2/u");
    assert_eq!(e.register, "PERF_EVT_SEL_CORE");
    let f = e.fields.iter().find(|f| f.name == "EVENT_SELECT").unwrap();
    assert_eq!((f.bits.as_str(), f.value), ("7:0,35:32", 0x1C0));
    // On K7 the event select is 8 bits.
    assert_eq!(err("amd-k7", "event=0x1c0").kind(), ErrorKind::AttrVal);
}

#[test]
fn counters_and_addresses() {
    let e = enc_on(SKLF, "UOPS_ISSUED.ANY", Counter::General(2)).unwrap();
    assert_eq!(e.address, Some(0x188));
    assert_eq!(
        e.counter_register,
        Some(RegisterRef {
            name: "IA32_PMC2".into(),
            address: 0xC3
        })
    );
    assert_eq!(e.counter, Some(Counter::General(2)));
    let e = enc(SKLF, "UOPS_ISSUED.ANY");
    assert_eq!((e.address, e.counter), (None, None));
    // AMD core counters are interleaved with a stride of 2.
    let e = enc_on("amd-core", "event=0x76", Counter::General(3)).unwrap();
    assert_eq!(e.address, Some(0xC001_0206));
    assert_eq!(
        e.counter_register,
        Some(RegisterRef {
            name: "PERF_CTR_CORE3".into(),
            address: 0xC001_0207
        })
    );
}

#[test]
fn fixed_counter_encoding() {
    // Fixed-only events go to their block of IA32_FIXED_CTR_CTRL (SDM §18.2.2).
    let e = enc(SKLF, "INST_RETIRED.ANY");
    assert_eq!(e.register, "IA32_FIXED_CTR_CTRL");
    assert_eq!(e.counter, Some(Counter::Fixed(0)));
    assert_eq!(e.address, Some(0x38D));
    assert_eq!(e.value, 0x3);
    assert_eq!(e.mask, 0xF);
    let e = enc(SKLF, "CPU_CLK_UNHALTED.THREAD_ANY:u:int");
    assert_eq!((e.value, e.mask), (0xE0, 0xF0)); // USR (2) | ANY | PMI in block 1
    let e = enc(SKLF, "CPU_CLK_UNHALTED.REF_TSC:k");
    assert_eq!((e.value, e.mask), (0x100, 0xF00));
    assert_eq!(
        e.counter_register,
        Some(RegisterRef {
            name: "IA32_FIXED_CTR2".into(),
            address: 0x30B
        })
    );
    // Events that may also use general counters go to a general counter unless a fixed
    // one is asked for.
    let e = enc("intel-v2", "INSTRUCTIONS_RETIRED");
    assert_eq!(e.register, "IA32_PERFEVTSEL");
    let e = enc_on("intel-v5", "TOPDOWN_SLOTS", Counter::Fixed(3)).unwrap();
    assert_eq!((e.value, e.mask), (0x3000, 0xF000));
    assert_eq!(e.perf, "cpu/event=0xa4,umask=1/");
}

// ---------------------------------------------------------------------------------------
// Errors: each class
// ---------------------------------------------------------------------------------------

#[test]
fn error_cmask_over_255() {
    let e = err("intel-v3", "LLC_MISSES:cmask=256");
    assert_eq!(e.kind(), ErrorKind::AttrVal);
    assert_eq!(
        e.to_string(),
        "invalid event attribute value: cmask=256 is too big for CMASK of IA32_PERFEVTSEL (8 bits, maximum 255)"
    );
}

#[test]
fn error_umask_too_big() {
    let e = err("intel-v4", "event=0x2e,umask=0x141");
    assert_eq!(e.kind(), ErrorKind::Umask);
    assert!(
        e.to_string()
            .starts_with("invalid or missing unit mask: umask=321"),
        "{e}"
    );
    // On version 6 the same value fills UMASK2.
    assert_eq!(enc("intel-v6", "event=0x2e,umask=0x141").value >> 40, 1);
}

#[test]
fn error_any_thread_where_the_generation_lacks_it() {
    let lacking: Vec<&str> = generations()
        .filter(|g| any_thread(g).is_none())
        .map(|g| g.id.as_str())
        .collect();
    assert!(lacking.len() >= 4, "{lacking:?}");
    for g in lacking {
        let e = err(g, "LLC_MISSES:any");
        let e = if matches!(e, Error::UnknownEvent { .. }) {
            err(g, "event=0x76:any")
        } else {
            e
        };
        assert_eq!(e.kind(), ErrorKind::Attr, "{g}: {e}");
        assert!(matches!(e, Error::Unsupported { .. }), "{g}: {e}");
    }
    assert_eq!(
        err("intel-v2", "LLC_MISSES:any").to_string(),
        "invalid event attribute: `any` is not supported by intel-v2: IA32_PERFEVTSEL has no \
         AnyThread (Intel added it in architectural performance monitoring version 3)"
    );
    // Versions 3 and 4 have it.
    assert_eq!(enc("intel-v3", "LLC_MISSES:any").value & (1 << 21), 1 << 21);
    assert_eq!(enc("intel-v4", "LLC_MISSES:any").value & (1 << 21), 1 << 21);
}

#[test]
fn error_any_thread_deprecated_from_v5() {
    // Every generation where the model deprecates it: versions 5 and 6 and the core models
    // built on them.
    let deprecated: Vec<&str> = generations()
        .filter(|g| {
            any_thread(g)
                .and_then(|f| f.deprecated.as_ref())
                .is_some_and(|d| d.since == g.id || g.ancestors.contains(&d.since))
        })
        .map(|g| g.id.as_str())
        .collect();
    assert!(deprecated.len() >= 2, "{deprecated:?}");
    for g in deprecated {
        let e = err(g, "LLC_MISSES:any");
        assert!(matches!(e, Error::Deprecated { .. }), "{g}: {e}");
        assert_eq!(e.kind(), ErrorKind::Attr);
        assert!(e.to_string().contains("CPUID.0AH:EDX[15] = 1"), "{e}");
    }
    // The fixed-counter AnyThread bit too.
    let e = enc_on("intel-v5", "UNHALTED_CORE_CYCLES:any", Counter::Fixed(1)).unwrap_err();
    assert!(matches!(e, Error::Deprecated { .. }), "{e}");
    assert_eq!(
        err("intel-v5", "LLC_MISSES:any").to_string(),
        "invalid event attribute: `any` (ANY) is deprecated from intel-v5 on: where \
         CPUID.0AH:EDX[15] = 1 the processor does not support it and it must not be set"
    );
    assert_eq!(
        err("intel-v6", "LLC_MISSES:any").to_string(),
        "invalid event attribute: `any` (ANY) is deprecated from intel-v5 on (intel-v6 extends \
         it): where CPUID.0AH:EDX[15] = 1 the processor does not support it and it must not be set"
    );
}

#[test]
fn error_eq_and_umask2_before_v6() {
    let e = err("intel-v5", "LLC_MISSES:eq");
    assert!(matches!(e, Error::Unsupported { .. }), "{e}");
    assert!(e.to_string().contains("version 6"), "{e}");
    let e = err("amd-perfmon-v2", "event=0x76:eq");
    assert!(matches!(e, Error::Unsupported { .. }), "{e}");
}

#[test]
fn error_unknown_modifier() {
    let e = err("intel-v3", "LLC_MISSES:kernal");
    assert_eq!(e.kind(), ErrorKind::Attr);
    assert!(
        e.to_string()
            .starts_with("invalid event attribute: unknown modifier `kernal` (did you mean `k`?)"),
        "{e}"
    );
    let e = err("intel-v3", "LLC_MISSES:cmsk=1");
    assert!(e.to_string().contains("did you mean `cmask`?"), "{e}");
}

#[test]
fn error_bad_modifier_value_and_twice() {
    assert_eq!(
        err("intel-v3", "LLC_MISSES:inv=yes").kind(),
        ErrorKind::AttrVal
    );
    assert_eq!(
        err("intel-v3", "LLC_MISSES:cmask").kind(),
        ErrorKind::AttrVal
    );
    let e = err("intel-v3", "LLC_MISSES:u:user");
    assert_eq!(e.kind(), ErrorKind::AttrSet);
    assert_eq!(
        e.to_string(),
        "attribute value already set: `u` is given more than once"
    );
}

#[test]
fn error_unknown_event_with_did_you_mean() {
    let e = err(SKLF, "UOPS_ISSUED.STALL_CYCLE");
    assert_eq!(e.kind(), ErrorKind::NotFound);
    assert_eq!(
        e.to_string(),
        "event not found: no event `UOPS_ISSUED.STALL_CYCLE` in intel-fixture-skl \
         (did you mean `UOPS_ISSUED.STALL_CYCLES`?)"
    );
    let e = err(SKLF, "ZZZZ");
    assert!(
        matches!(
            e,
            Error::UnknownEvent {
                suggestion: None,
                ..
            }
        ),
        "{e}"
    );
    // Names match case-insensitively.
    assert_eq!(
        enc(SKLF, "uops_issued.stall_cycles").event,
        "UOPS_ISSUED.STALL_CYCLES"
    );
}

#[test]
fn error_unknown_generation() {
    // A version after every shipped one (whatever a vendor adds, this stays unknown).
    let e = encoder().generation("intel-v99").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotFound);
    assert!(e.to_string().contains("(did you mean `intel-v"), "{e}");
    let e = encoder().generation("fixture-skk").unwrap_err();
    assert!(
        e.to_string()
            .ends_with("(did you mean `intel-fixture-skl`?)"),
        "{e}"
    );
    // The vendor prefix may be left out.
    assert_eq!(encoder().generation("v3").unwrap().id, "intel-v3");
    assert_eq!(encoder().generation("K7").unwrap().id, "amd-k7");
    assert_eq!(encoder().generation("fixture-skl").unwrap().id, SKLF);
}

#[test]
fn error_fixed_counter_event_on_a_general_counter() {
    let e = enc_on(SKLF, "INST_RETIRED.ANY", Counter::General(1)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotSupp);
    assert_eq!(
        e.to_string(),
        "not supported: INST_RETIRED.ANY counts only on fixed counter 0, not on general \
         counter 1 (use --counter fixed0, or no counter)"
    );
}

#[test]
fn error_counter_the_event_may_not_use() {
    let e = enc_on(SKLF, "UOPS_ISSUED.ANY", Counter::General(5)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "not supported: UOPS_ISSUED.ANY cannot count on general counter 5; it may use general counters 0-3"
    );
    let e = enc_on(SKLF, "UOPS_ISSUED.ANY", Counter::Fixed(1)).unwrap_err();
    assert!(matches!(e, Error::CounterNotAllowed { .. }), "{e}");
    let e = enc_on(SKLF, "INST_RETIRED.ANY", Counter::Fixed(1)).unwrap_err();
    assert!(e.to_string().ends_with("it may use fixed counter 0"), "{e}");
    let e = enc_on(SKLF, "UOPS_ISSUED.ANY", Counter::General(8)).unwrap_err();
    assert!(matches!(e, Error::NoSuchCounter { count: 8, .. }), "{e}");
    let e = enc_on("intel-v4", "LLC_MISSES", Counter::Fixed(3)).unwrap_err();
    assert!(matches!(e, Error::NoSuchCounter { count: 3, .. }), "{e}");
    let e = enc_on("intel-v1", "LLC_MISSES", Counter::Fixed(0)).unwrap_err();
    assert!(matches!(e, Error::NoSuchCounter { count: 0, .. }), "{e}");
}

#[test]
fn error_invalid_combinations() {
    // inv-without-cmask (SDM §18.2.1.1) is an error when the request causes it...
    let e = err("intel-v3", "LLC_MISSES:inv");
    assert_eq!(e.kind(), ErrorKind::FeatComb);
    assert!(e.to_string().contains("inv-without-cmask"), "{e}");
    let e = err(SKLF, "UOPS_ISSUED.STALL_CYCLES:cmask=0");
    assert!(e.to_string().contains("inv-without-cmask"), "{e}");
    // ...and a note when Intel defines the event that way.
    let e = enc(SKLF, "UOPS_EXECUTED.CORE_CYCLES_NONE");
    assert_eq!(e.perf, "cpu/event=0xb1,inv=1,umask=2/");
    assert!(
        e.notes.iter().any(|n| n.contains("inv-without-cmask")),
        "{:?}",
        e.notes
    );
    // A fixed counter has no counter mask, edge, invert or equal-compare.
    let e = enc_on(
        "intel-v2",
        "INSTRUCTIONS_RETIRED:cmask=1",
        Counter::Fixed(0),
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::FeatComb);
    let e = err(SKLF, "INST_RETIRED.ANY:edge");
    assert!(e.to_string().contains("fixed counter 0"), "{e}");
}

#[test]
fn error_bad_requests() {
    assert_eq!(err(SKLF, ":u").kind(), ErrorKind::Inval);
    assert_eq!(err(SKLF, "umask=1").kind(), ErrorKind::Inval);
    assert_eq!(err(SKLF, "event=1,bogus=2").kind(), ErrorKind::Inval);
    assert!(encoder().encode("nope", &Request::new("X")).is_err());
}

// ---------------------------------------------------------------------------------------
// Decode
// ---------------------------------------------------------------------------------------

#[test]
fn decode_every_field_and_the_event() {
    let d = encoder().decode("intel-v3", 0x187, 0x0043_412E).unwrap();
    assert_eq!((d.register, d.instance), ("IA32_PERFEVTSEL", Some(1)));
    assert_eq!(d.register_instance(), "IA32_PERFEVTSEL1");
    let reg = loaded()
        .model
        .generation("intel-v3")
        .unwrap()
        .register("IA32_PERFEVTSEL")
        .unwrap();
    assert_eq!(d.fields.len(), reg.fields.len());
    let get = |n: &str| d.fields.iter().find(|f| f.name == n).unwrap().value;
    assert_eq!(get("EVENT_SELECT"), 0x2E);
    assert_eq!(get("UMASK"), 0x41);
    assert_eq!(get("EN"), 1);
    assert_eq!(get("INT"), 0);
    let names: Vec<&str> = d.events.iter().map(|m| m.name).collect();
    assert_eq!(names, ["LLC_MISSES"]);
    assert_eq!(d.events[0].kind, "architectural");
    assert!(d.warnings.is_empty(), "{:?}", d.warnings);
    // A field's named value is reported.
    let pc = d.fields.iter().find(|f| f.name == "PC").unwrap();
    assert_eq!(pc.meaning, Some("TOGGLE_ON_OVERFLOW"));
}

#[test]
fn decode_reports_architectural_and_model_events() {
    let d = encoder().decode(SKLF, 0x186, 0x0043_412E).unwrap();
    let mut names: Vec<&str> = d.events.iter().map(|m| m.name).collect();
    names.sort();
    assert_eq!(names, ["LLC_MISSES", "LONGEST_LAT_CACHE.MISS"]);
    let get = |n: &str| d.events.iter().find(|m| m.name == n).unwrap();
    assert_eq!(
        (get("LLC_MISSES").since, get("LLC_MISSES").kind),
        ("intel-v1", "architectural")
    );
    assert_eq!(
        (
            get("LONGEST_LAT_CACHE.MISS").since,
            get("LONGEST_LAT_CACHE.MISS").kind
        ),
        (SKLF, "model")
    );
}

/// The decoder finds an event by its alternative code as well as its primary one (the
/// offcore-response pair 0xB7 / 0xBB), and only once.
#[test]
fn decode_finds_events_by_alternative_codes() {
    let e = enc(SKLF, "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_MISS.ANY_SNOOP");
    for value in [e.value, e.alternatives[0].value] {
        let d = encoder().decode(SKLF, 0x186, value).unwrap();
        let found = d
            .events
            .iter()
            .filter(|m| m.name == "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_MISS.ANY_SNOOP")
            .count();
        assert_eq!(found, 1, "{value:#x}: {:?}", d.events);
    }
}

#[test]
fn decode_near_misses() {
    // UOPS_ISSUED.ANY's code with CMASK 1 and no INV: STALL_CYCLES needs inv=1.
    let d = encoder().decode(SKLF, 0x186, 0x0103_010E).unwrap();
    assert!(d.events.is_empty(), "{:?}", d.events);
    let names: Vec<&str> = d.similar.iter().map(|m| m.name).collect();
    assert!(names.contains(&"UOPS_ISSUED.STALL_CYCLES"), "{names:?}");
    let s = d
        .similar
        .iter()
        .find(|m| m.name == "UOPS_ISSUED.STALL_CYCLES")
        .unwrap();
    let differs: Vec<String> = s.differs.iter().map(ToString::to_string).collect();
    assert_eq!(differs, ["inv=1 (value has 0)"]);
}

#[test]
fn decode_split_fields_and_field_arrays() {
    let d = encoder()
        .decode("amd-core", 0xC001_0200, (1 << 32) | 0x0043_00C0)
        .unwrap();
    let f = d.fields.iter().find(|f| f.name == "EVENT_SELECT").unwrap();
    assert_eq!((f.bits.as_str(), f.value), ("7:0,35:32", 0x1C0));
    assert_eq!(d.instance, Some(0));
    let d = encoder().decode("intel-v3", 0x38D, 0x0B3).unwrap();
    let blocks: Vec<(&str, Option<u32>, u64)> = d
        .fields
        .iter()
        .map(|f| (f.name, f.element, f.value))
        .collect();
    assert!(blocks.contains(&("ENABLE", Some(0), 3)));
    assert!(blocks.contains(&("PMI", Some(1), 1)));
    assert!(blocks.contains(&("ENABLE", Some(2), 0)));
    assert_eq!(d.fixed.len(), 3);
    assert!(d.fixed[0].enabled && d.fixed[1].enabled && !d.fixed[2].enabled);
    assert_eq!(d.fixed[1].events[0].name, "UNHALTED_CORE_CYCLES");
    let ctrl = d
        .fields
        .iter()
        .find(|f| f.name == "ENABLE" && f.element == Some(0))
        .unwrap();
    assert_eq!(ctrl.meaning, Some("ALL"));
}

#[test]
fn decode_reserved_bits() {
    // Bit 34 is reserved before version 5 (ADAPTIVE_RECORD), bit 63 always.
    let d = encoder()
        .decode("intel-v3", 0x186, (1 << 63) | (1 << 34) | 0x0043_412E)
        .unwrap();
    assert_eq!(d.reserved_set, (1 << 63) | (1 << 34));
    assert_eq!(d.reserved_bits, [34, 63]);
    let d = encoder().decode("intel-v5", 0x186, 1 << 34).unwrap();
    assert_eq!(d.reserved_set, 0);
}

#[test]
fn decode_warnings() {
    // INV without CMASK, AnyThread on version 5, a restricted event on counter 5.
    let d = encoder().decode("intel-v3", 0x186, 0x0080_412E).unwrap();
    assert!(
        d.warnings.iter().any(|w| w.contains("inv-without-cmask")),
        "{:?}",
        d.warnings
    );
    let d = encoder().decode("intel-v5", 0x186, 0x0020_412E).unwrap();
    assert!(
        d.warnings
            .iter()
            .any(|w| w.contains("ANY is set but deprecated")),
        "{:?}",
        d.warnings
    );
    let d = encoder().decode(SKLF, 0x18B, 0x0003_010E).unwrap();
    assert!(
        d.warnings
            .iter()
            .any(|w| w.contains("UOPS_ISSUED.ANY may count only on general counters 0-3")),
        "{:?}",
        d.warnings
    );
}

#[test]
fn decode_errors() {
    let e = encoder().decode("intel-v1", 0x38D, 0).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotFound);
    assert_eq!(
        e.to_string(),
        "event not found: MSR 0x38d is no register of intel-v1 (it is IA32_FIXED_CTR_CTRL in intel-v2, \
         IA32_FIXED_CTR_CTRL in intel-v3, IA32_FIXED_CTR_CTRL in intel-v4)"
    );
    let e = encoder().decode("intel-v3", 0x1234, 0).unwrap_err();
    assert_eq!(
        e.to_string(),
        "event not found: MSR 0x1234 is no register of intel-v3"
    );
    let g = encoder().generation("intel-v3").unwrap();
    assert_eq!(
        encoder().register_address(g, "IA32_PERFEVTSEL3").unwrap(),
        0x189
    );
    assert_eq!(
        encoder()
            .register_address(g, "ia32_fixed_ctr_ctrl")
            .unwrap(),
        0x38D
    );
    assert!(encoder().register_address(g, "IA32_PERFEVTSEL8").is_err());
    assert!(encoder().register_address(g, "NOPE").is_err());
}

// ---------------------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------------------

/// Every event of every generation (the shipped architectural generations, every imported
/// core model, the fixtures): encode on its first general counter (or its fixed counter),
/// decode the value at that register, and find the event again.
#[test]
fn every_event_round_trips() {
    let enc = encoder();
    let mut checked = 0;
    for g in &loaded().model.generations {
        for ev in &g.events {
            let on = if let Some(&c) = ev.counters.first() {
                Counter::General(c)
            } else {
                Counter::Fixed(ev.fixed.expect("an event with no counter at all"))
            };
            let e = enc
                .encode_in(g, &Request::new(ev.name.clone()).on(on))
                .unwrap_or_else(|e| panic!("{} {}: {e}", g.id, ev.name));
            let address = e.address.expect("placed on a counter");
            let d = enc
                .decode_in(g, address, e.value)
                .unwrap_or_else(|e| panic!("{} {}: {e}", g.id, ev.name));
            assert_eq!(d.reserved_set, 0, "{} {}", g.id, ev.name);
            let found = match on {
                Counter::General(_) => d.events.iter().any(|m| m.name == ev.name),
                Counter::Fixed(n) => d.fixed.iter().any(|f| {
                    f.counter == n && f.enabled && f.events.iter().any(|m| m.name == ev.name)
                }),
            };
            assert!(
                found,
                "{} {}: decode of {:#x} found {:?}",
                g.id, ev.name, e.value, d.events
            );
            checked += 1;
        }
    }
    // With the imported models (pmu-defs/defs/intel/models) that is every Intel core event.
    let imported = loaded()
        .model
        .generations
        .iter()
        .any(|g| g.source.is_some());
    assert!(checked > if imported { 17_000 } else { 40 }, "{checked}");
    println!("round-tripped {checked} events");
}
