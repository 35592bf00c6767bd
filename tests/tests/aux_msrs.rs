//! Intel's auxiliary event MSRs (off-core response, load-latency threshold, front-end
//! qualifier) checked against independent sources: their addresses against Linux
//! `arch/x86/include/asm/msr-index.h`, their non-reserved bits against the valid masks Linux
//! `arch/x86/events/intel/core.c` gives each CPU model (`INTEL_UEVENT_EXTRA_REG(..., <msr>,
//! <valid mask>, ...)` in the `intel_*_extra_regs` tables, and
//! `INTEL_UEVENT_PEBS_LDLAT_EXTRA_REG`, mask 0xffff, from `arch/x86/events/perf_event.h`), and
//! the front-end qualifier's fields against the Intel SDM Vol. 3B, "FrontEnd_Retired Event"
//! (MSR_PEBS_FRONTEND: EVTSEL 7:0, IDQ_Bubble_Length 19:8, IDQ_Bubble_Width 22:20).
//!
//! The generations are found the way a CPU finds them: the imported core model whose `cpus:`
//! lists the CPU model Linux keys its table on (`intel-family.h`), never by a list of ids.

use pmu_defs::model::{Generation, Register};
use pmu_defs::{Loaded, Loader, Model};
use std::sync::OnceLock;

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

/// msr-index.h: `MSR_OFFCORE_RSP_0 0x000001a6`, `MSR_OFFCORE_RSP_1 0x000001a7`,
/// `MSR_PEBS_LD_LAT_THRESHOLD 0x000003f6`, `MSR_PEBS_FRONTEND 0x000003f7`.
const MSR_INDEX_H: [(&str, u32); 4] = [
    ("MSR_OFFCORE_RSP_0", 0x1A6),
    ("MSR_OFFCORE_RSP_1", 0x1A7),
    ("MSR_PEBS_LD_LAT_THRESHOLD", 0x3F6),
    ("MSR_PEBS_FRONTEND", 0x3F7),
];

/// The core model generation whose `cpus:` lists `family_model` (for a hybrid part, the core
/// of `core_type`): exactly one.
fn model_of(family_model: &str, core_type: Option<u8>) -> &'static Generation {
    let found: Vec<&Generation> = model()
        .generations
        .iter()
        .filter(|g| {
            g.cpus
                .iter()
                .any(|c| c.family_model == family_model && c.core_type == core_type)
        })
        .collect();
    assert_eq!(
        found.len(),
        1,
        "{family_model} {core_type:?}: {:?}",
        found.iter().map(|g| &g.id).collect::<Vec<_>>()
    );
    found[0]
}

fn at(g: &Generation, address: u32) -> &Register {
    g.register_at(address)
        .unwrap_or_else(|| panic!("{}: no register at {address:#x}", g.id))
}

/// The bits a register leaves to its fields (not reserved).
fn valid(r: &Register) -> u64 {
    let width = if r.width >= 64 {
        !0
    } else {
        (1u64 << r.width) - 1
    };
    width & !r.reserved_mask
}

#[test]
fn addresses_match_msr_index_h() {
    for (name, address) in MSR_INDEX_H {
        let mut seen = 0;
        for g in &model().generations {
            if let Some(r) = g.register(name) {
                assert_eq!(r.addresses, [address], "{}: {name}", g.id);
                seen += 1;
            }
            if let Some(r) = g.register_at(address) {
                assert_eq!(r.name, name, "{}: the register at {address:#x}", g.id);
            }
        }
        assert!(seen > 0, "no generation defines {name}");
    }
}

/// One CPU model's table in core.c: the valid masks of MSR_OFFCORE_RSP_0 / _1, of
/// MSR_PEBS_LD_LAT_THRESHOLD and of MSR_PEBS_FRONTEND (`None`: the table has no entry).
struct Linux {
    cpu: &'static str,
    core_type: Option<u8>,
    table: &'static str,
    rsp: [Option<u64>; 2],
    ldlat: Option<u64>,
    frontend: Option<u64>,
}

/// `INTEL_UEVENT_PEBS_LDLAT_EXTRA_REG(c)`: perf_event.h, mask 0xffff.
const LDLAT: Option<u64> = Some(0xffff);

const LINUX: &[Linux] = &[
    // INTEL_FAM6_NEHALEM_EP (1AH): RSP_0 only, 0xffff. (Westmere added RSP_1; the
    // microarchitecture generation has it for Westmere, so RSP_1 is not checked here.)
    Linux {
        cpu: "GenuineIntel-6-1A",
        core_type: None,
        table: "intel_nehalem_extra_regs",
        rsp: [Some(0xffff), None],
        ldlat: LDLAT,
        frontend: None,
    },
    // INTEL_FAM6_WESTMERE_EP (2CH).
    Linux {
        cpu: "GenuineIntel-6-2C",
        core_type: None,
        table: "intel_westmere_extra_regs",
        rsp: [Some(0xffff), Some(0xffff)],
        ldlat: LDLAT,
        frontend: None,
    },
    // INTEL_FAM6_SANDYBRIDGE_X (2DH).
    Linux {
        cpu: "GenuineIntel-6-2D",
        core_type: None,
        table: "intel_snbep_extra_regs",
        rsp: [Some(0x3fffff8fff), Some(0x3fffff8fff)],
        ldlat: LDLAT,
        frontend: None,
    },
    // INTEL_FAM6_HASWELL (3CH): intel_pmu_init gives Haswell the Sandy Bridge EP table.
    Linux {
        cpu: "GenuineIntel-6-3C",
        core_type: None,
        table: "intel_snbep_extra_regs",
        rsp: [Some(0x3fffff8fff), Some(0x3fffff8fff)],
        ldlat: LDLAT,
        frontend: None,
    },
    // INTEL_FAM6_SKYLAKE (5EH).
    Linux {
        cpu: "GenuineIntel-6-5E",
        core_type: None,
        table: "intel_skl_extra_regs",
        rsp: [Some(0x3fffff8fff), Some(0x3fffff8fff)],
        ldlat: LDLAT,
        frontend: Some(0x7fff17),
    },
    // INTEL_FAM6_ICELAKE_L (7EH).
    Linux {
        cpu: "GenuineIntel-6-7E",
        core_type: None,
        table: "intel_icl_extra_regs",
        rsp: [Some(0x3fffffbfff), Some(0x3fffffbfff)],
        ldlat: LDLAT,
        frontend: Some(0x7fff17),
    },
    // INTEL_FAM6_SAPPHIRERAPIDS_X (8FH): 0x7fff17 for C6.01, 0x7 for AD.40, 0x8 for C2.04.
    Linux {
        cpu: "GenuineIntel-6-8F",
        core_type: None,
        table: "intel_spr_extra_regs",
        rsp: [Some(0x3fffffffff), Some(0x3fffffffff)],
        ldlat: LDLAT,
        frontend: Some(0x7fff1f),
    },
    // INTEL_FAM6_LUNARLAKE_M (BDH), the Lion Cove core (core type 40H): 0x9, 0x7fff1f, 0xf, 0x8.
    Linux {
        cpu: "GenuineIntel-6-BD",
        core_type: Some(0x40),
        table: "intel_lnc_extra_regs",
        rsp: [Some(0xfffffffffff), Some(0xfffffffffff)],
        ldlat: LDLAT,
        frontend: Some(0x7fff1f),
    },
    // INTEL_FAM6_ATOM_SILVERMONT (37H).
    Linux {
        cpu: "GenuineIntel-6-37",
        core_type: None,
        table: "intel_slm_extra_regs",
        rsp: [Some(0x768005ffff), Some(0x368005ffff)],
        ldlat: None,
        frontend: None,
    },
    // INTEL_FAM6_ATOM_GOLDMONT (5CH).
    Linux {
        cpu: "GenuineIntel-6-5C",
        core_type: None,
        table: "intel_glm_extra_regs",
        rsp: [Some(0x760005ffbf), Some(0x360005ffbf)],
        ldlat: None,
        frontend: None,
    },
    // INTEL_FAM6_XEON_PHI_KNL (57H).
    Linux {
        cpu: "GenuineIntel-6-57",
        core_type: None,
        table: "intel_knl_extra_regs",
        rsp: [Some(0x799ffbb6e7), Some(0x399ffbffe7)],
        ldlat: None,
        frontend: None,
    },
    // INTEL_FAM6_ATOM_TREMONT_D (86H, Snow Ridge).
    Linux {
        cpu: "GenuineIntel-6-86",
        core_type: None,
        table: "intel_tnt_extra_regs",
        rsp: [Some(0x800ff0ffffff9fff), Some(0xff0ffffff9fff)],
        ldlat: None,
        frontend: None,
    },
    // INTEL_FAM6_ATOM_CRESTMONT_X (AFH, Sierra Forest).
    Linux {
        cpu: "GenuineIntel-6-AF",
        core_type: None,
        table: "intel_cmt_extra_regs",
        rsp: [Some(0x800ff3ffffffffff), Some(0xff3ffffffffff)],
        ldlat: LDLAT,
        frontend: None,
    },
];

#[test]
fn valid_bits_match_linux_core_c() {
    for l in LINUX {
        let g = model_of(l.cpu, l.core_type);
        let checks = [
            (0x1A6, l.rsp[0]),
            (0x1A7, l.rsp[1]),
            (0x3F6, l.ldlat),
            (0x3F7, l.frontend),
        ];
        for (address, mask) in checks {
            let Some(mask) = mask else { continue };
            let r = at(g, address);
            assert_eq!(
                valid(r),
                mask,
                "{} ({}): `{}` against core.c {} valid mask",
                l.cpu,
                g.id,
                r.name,
                l.table
            );
        }
    }
}

/// Every MSR_PEBS_FRONTEND: the SDM's bubble fields, the event type inside EVTSEL (7:0), and
/// nothing at or above bit 23 (reserved, 63:23).
#[test]
fn frontend_layout_matches_the_sdm() {
    let mut seen = 0;
    for g in &model().generations {
        let Some(r) = g.register_at(0x3F7) else {
            continue;
        };
        seen += 1;
        let bits = |name: &str| {
            let f = r
                .fields
                .iter()
                .find(|f| f.name == name)
                .unwrap_or_else(|| panic!("{}: no {name}", g.id));
            f.full_mask()
        };
        assert_eq!(bits("IDQ_BUBBLE_LENGTH"), 0xf_ff00, "{}: bits 19:8", g.id);
        assert_eq!(bits("IDQ_BUBBLE_WIDTH"), 0x70_0000, "{}: bits 22:20", g.id);
        let evtsel = valid(r) & 0xff;
        assert_eq!(evtsel & 0b111, 0b111, "{}: EVTSEL bits 2:0", g.id);
        assert_eq!(valid(r) & !0x7f_ffff, 0, "{}: bits 63:23 reserved", g.id);
    }
    assert!(seen > 0);
}

/// Every event's auxiliary MSR is a register of its generation, so it can be written typed;
/// a value setting a reserved bit is one the definitions acknowledge (`aux-msr-reserved`).
#[test]
fn every_auxiliary_msr_is_a_register() {
    let mut events = 0;
    for g in &model().generations {
        for e in &g.events {
            let Some(m) = &e.msr else { continue };
            events += 1;
            for &index in std::iter::once(&m.index).chain(&m.alt_indexes) {
                let r = at(g, index);
                if m.value & r.reserved_mask != 0 {
                    assert!(
                        e.allow.iter().any(|a| a.code == "aux-msr-reserved"),
                        "{}: {} sets reserved bits {:#x} of {}",
                        g.id,
                        e.name,
                        m.value & r.reserved_mask,
                        r.name
                    );
                }
            }
        }
    }
    assert!(events > 5000, "{events}");
}

// ---------------------------------------------------------------------------------------
// The typed call: `Event::aux()` and `MsrExt::write_event` on the mock, with Skylake
// (`pmu_regs::intel::skylake`, feature `intel-skylake`) as the subject.
// ---------------------------------------------------------------------------------------

mod typed {
    use pmu_regs::access::{AuxValue, MsrExt, RawMsr, WriteError};
    use pmu_regs::arch::IntelSkylake;
    use pmu_regs::backend::mock::{Mock, MockConfig, MockCpu};
    use pmu_regs::intel::skylake::events::{Aux, Event};
    use pmu_regs::intel::skylake::{IA32_PERFEVTSEL, MSR_OFFCORE_RSP_0, MSR_PEBS_FRONTEND};

    /// A backend that logs every write (address, value) before handing it to the mock.
    struct Logged {
        cpu: MockCpu<IntelSkylake>,
        log: Vec<(u32, u64)>,
    }

    impl RawMsr for Logged {
        type Error = pmu_regs::backend::mock::MockFault;
        fn read_raw(&mut self, address: u32) -> Result<u64, Self::Error> {
            self.cpu.read_raw(address)
        }
        fn write_raw(&mut self, address: u32, value: u64) -> Result<(), Self::Error> {
            self.log.push((address, value));
            self.cpu.write_raw(address, value)
        }
    }

    fn backend() -> (Mock<IntelSkylake>, Logged) {
        let mock = Mock::<IntelSkylake>::new(MockConfig::full::<IntelSkylake>(1));
        let cpu = mock.cpu(0);
        (
            mock,
            Logged {
                cpu,
                log: Vec::new(),
            },
        )
    }

    fn event(name: &str) -> Event {
        Event::from_name(name).unwrap_or_else(|| panic!("{name}"))
    }

    /// FRONTEND_RETIRED.DSB_MISS: event C6H umask 01H with MSR_PEBS_FRONTEND EVTSEL 11H (SDM
    /// Vol. 3B, "FrontEnd_Retired Event", sub-event encodings: DSB_MISS 11H). The qualifier is
    /// written first, then the select; the mock holds both.
    #[test]
    fn the_qualifier_is_written_before_the_select() {
        let (mock, mut b) = backend();
        let e = event("FRONTEND_RETIRED.DSB_MISS");
        let aux = e.aux().expect("DSB_MISS programs MSR_PEBS_FRONTEND");
        assert_eq!(
            aux,
            Aux::MSR_PEBS_FRONTEND(MSR_PEBS_FRONTEND::Value::from_bits::<0x11>())
        );
        assert_eq!((aux.address(), aux.bits()), (0x3F7, 0x11));
        let sel = IA32_PERFEVTSEL::event_on::<2>(e.desc())
            .with_bit::<IA32_PERFEVTSEL::USR>(true)
            .with_bit::<IA32_PERFEVTSEL::EN>(true)
            .build();
        b.write_event(IA32_PERFEVTSEL::msr::<2>(), sel, e.aux())
            .unwrap();
        let select = IA32_PERFEVTSEL::address::<2>();
        assert_eq!(b.log, [(0x3F7, 0x11), (select, sel.bits())]);
        // Event C6H, umask 01H, USR (16), EN (22): SDM Vol. 3B, Figure "IA32_PERFEVTSELx".
        assert_eq!(sel.bits(), 0x0041_01C6);
        assert_eq!(mock.peek(0, 0x3F7), Some(0x11));
        assert_eq!(mock.peek(0, select), Some(0x0041_01C6));
    }

    /// An off-core response event programs MSR_OFFCORE_RSP_0 with its whole value, and a
    /// load-latency event MSR_PEBS_LD_LAT_THRESHOLD with its threshold.
    #[test]
    fn offcore_and_load_latency_values_are_typed() {
        let e = event("OFFCORE_RESPONSE.DEMAND_CODE_RD.ANY_RESPONSE");
        let Some(Aux::MSR_OFFCORE_RSP_0(v)) = e.aux() else {
            panic!("{:?}", e.aux());
        };
        // Request bit 2 (demand code read), bit 16 (any response): SDM Vol. 3B, Skylake
        // "Off-core Response Performance Monitoring".
        assert_eq!(v.bits(), 0x1_0004);
        assert!(v.is_set::<MSR_OFFCORE_RSP_0::ANY_RESPONSE>());
        let (_, mut b) = backend();
        let sel = IA32_PERFEVTSEL::event_on::<0>(e.desc())
            .with_bit::<IA32_PERFEVTSEL::OS>(true)
            .build();
        b.write_event(IA32_PERFEVTSEL::msr::<0>(), sel, e.aux())
            .unwrap();
        assert_eq!(b.log[0], (0x1A6, 0x1_0004));
        assert_eq!(b.log.len(), 2);

        let ld = event("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4");
        let Some(Aux::MSR_PEBS_LD_LAT_THRESHOLD(t)) = ld.aux() else {
            panic!("{:?}", ld.aux());
        };
        assert_eq!(
            t.get::<pmu_regs::intel::skylake::MSR_PEBS_LD_LAT_THRESHOLD::THRESHOLD>(),
            4
        );
        let _: MSR_OFFCORE_RSP_0::Value = v;
    }

    /// An event without an auxiliary MSR writes the select alone; a select that is refused
    /// (placed on counter 1, written to counter 3's MSR) writes nothing, auxiliary MSR included.
    #[test]
    fn no_aux_writes_one_refused_select_writes_none() {
        let (_, mut b) = backend();
        let e = event("BR_INST_RETIRED.ALL_BRANCHES");
        assert_eq!(e.aux(), None);
        let sel = IA32_PERFEVTSEL::event_on::<1>(e.desc())
            .with_bit::<IA32_PERFEVTSEL::EN>(true)
            .build();
        b.write_event(IA32_PERFEVTSEL::msr::<1>(), sel, e.aux())
            .unwrap();
        assert_eq!(b.log.len(), 1);

        let (_, mut b) = backend();
        let fe = event("FRONTEND_RETIRED.DSB_MISS");
        let placed = IA32_PERFEVTSEL::try_event_on(1, fe.desc()).unwrap().build();
        let other = IA32_PERFEVTSEL::try_msr(3).unwrap();
        let err = b.write_event(other, placed, fe.aux()).unwrap_err();
        assert!(matches!(err, WriteError::Placement(_)), "{err:?}");
        assert!(b.log.is_empty(), "{:?}", b.log);
    }

    /// `Pmu::program` writes an event's auxiliary MSR before its select, in one call. Two
    /// off-core response events with different values share Intel's two registers: the second
    /// takes its alternative encoding (event BBH with MSR_OFFCORE_RSP_1, as Linux's
    /// `intel_alt_er` does), a third with yet another value is refused while both are held,
    /// and goes through once a holder is disabled. A second event with the same value shares
    /// the register.
    #[test]
    fn pmu_program_writes_the_aux_msr_and_shares_offcore_registers() {
        use pmu_regs::arch::{Counter, Filter};
        use pmu_regs::detect::CounterSet;
        use pmu_regs::pmu::{Error, Pmu};

        let (mock, b) = backend();
        let mut pmu = Pmu::<IntelSkylake, _>::with_counters(b, CounterSet::full::<IntelSkylake>());
        let any = event("OFFCORE_RESPONSE.DEMAND_CODE_RD.ANY_RESPONSE");
        let l3 = event("OFFCORE_RESPONSE.DEMAND_CODE_RD.L3_HIT.ANY_SNOOP");
        let (any_v, l3_v) = (
            any.desc().get().msr.unwrap().value,
            l3.desc().get().msr.unwrap().value,
        );
        assert_ne!(any_v, l3_v);

        let sel0 = pmu.program(0, &any, Filter::ALL).unwrap();
        assert_eq!(sel0 & 0xFFFF, 0x01B7);
        let log = &pmu.backend().log;
        let rsp0 = log
            .iter()
            .position(|&w| w == (0x1A6, any_v))
            .expect("RSP_0 written");
        let select0 = IA32_PERFEVTSEL::address::<0>();
        let sel_at = log.iter().position(|&(a, _)| a == select0).unwrap();
        assert!(rsp0 < sel_at, "the auxiliary MSR first: {log:?}");

        // Same value on counter 1: shares MSR_OFFCORE_RSP_0, primary encoding.
        assert_eq!(pmu.program(1, &any, Filter::ALL).unwrap() & 0xFFFF, 0x01B7);
        // Another value: the alternative, event BBH with MSR_OFFCORE_RSP_1.
        assert_eq!(pmu.program(2, &l3, Filter::ALL).unwrap() & 0xFFFF, 0x01BB);
        assert_eq!(mock.peek(0, 0x1A6), Some(any_v));
        assert_eq!(mock.peek(0, 0x1A7), Some(l3_v));

        // A third value finds both registers held.
        let third = event("OFFCORE_RESPONSE.DEMAND_CODE_RD.L3_MISS.ANY_SNOOP");
        let third_v = third.desc().get().msr.unwrap().value;
        let err = pmu.program(3, &third, Filter::ALL).unwrap_err();
        assert!(
            matches!(err, Error::AuxMsrBusy { address: 0x1A6, held_by: Counter::Gp(0), held, wanted } if held == any_v && wanted == third_v),
            "{err:?}"
        );
        assert!(err.to_string().contains("MSR 0x1A6"), "{err}");
        assert_eq!(
            mock.peek(0, 0x1A6),
            Some(any_v),
            "a refused event writes nothing"
        );

        // Counter 2 gives MSR_OFFCORE_RSP_1 back; the third event takes it.
        pmu.disable(Counter::Gp(2)).unwrap();
        assert_eq!(
            pmu.program(3, &third, Filter::ALL).unwrap() & 0xFFFF,
            0x01BB
        );
        assert_eq!(mock.peek(0, 0x1A7), Some(third_v));
        // Reprogramming counters 0 and 1 with other events frees MSR_OFFCORE_RSP_0.
        let branches = event("BR_INST_RETIRED.ALL_BRANCHES");
        pmu.program(0, &branches, Filter::ALL).unwrap();
        pmu.program(1, &branches, Filter::ALL).unwrap();
        assert_eq!(pmu.program(2, &l3, Filter::ALL).unwrap() & 0xFFFF, 0x01B7);
        assert_eq!(mock.peek(0, 0x1A6), Some(l3_v));
        assert!(mock.faults().is_empty(), "{:?}", mock.faults());
    }

    /// `program_raw` checks a hand-built auxiliary value against the generation's register:
    /// a value setting a reserved bit, or an MSR the generation lacks, is refused before
    /// anything is written (the write would fault).
    #[test]
    fn pmu_refuses_an_aux_value_the_register_reserves() {
        use pmu_regs::arch::Filter;
        use pmu_regs::detect::CounterSet;
        use pmu_regs::pmu::{Error, Pmu};
        use pmu_regs::{EventDesc, EventMsr};

        let (_, b) = backend();
        let mut pmu = Pmu::<IntelSkylake, _>::with_counters(b, CounterSet::full::<IntelSkylake>());
        let mut e = EventDesc::new("HAND_BUILT", 0xC6, 0x01);
        // MSR_PEBS_FRONTEND: bits 22:0 are fields (SDM), bit 63 is not.
        e.msr = Some(EventMsr {
            index: 0x3F7,
            value: 1 << 63 | 0x11,
        });
        let err = pmu.program_raw(0, &e, Filter::ALL).unwrap_err();
        assert!(
            matches!(err, Error::AuxMsrRefused { address: 0x3F7, reserved, .. } if reserved == 1 << 63),
            "{err:?}"
        );
        e.msr = Some(EventMsr {
            index: 0x1AB,
            value: 1,
        });
        let err = pmu.program_raw(0, &e, Filter::ALL).unwrap_err();
        assert!(
            matches!(
                err,
                Error::AuxMsrRefused {
                    address: 0x1AB,
                    reserved: 0,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(err.to_string().contains("not a writable register"), "{err}");
        assert!(pmu.backend().log.is_empty(), "{:?}", pmu.backend().log);
    }
}
