//! The runtime layer: the per-generation register tables agree with the model, the mock
//! behaves like the hardware, and `Pmu` programs, counts, overflows, clears, freezes and
//! refuses bad input without writing anything.

use pmu_defs::Loader;
use pmu_regs::EventDesc;
use pmu_regs::access::{MsrExt, RawMsr};
use pmu_regs::arch::{
    Access, AmdCore, AmdPerfmonV2, Arch, ArchVisitor, Counter, EncodeError, Facility, Filter,
    FixedMode, Generation, IntelV1, IntelV2, IntelV3, IntelV4, IntelV5, IntelV6, RegInfo, Ring,
    Role,
};
use pmu_regs::backend::mock::{Mock, MockConfig, MockFault};
use pmu_regs::detect::{CounterSet, Facilities};
use pmu_regs::pmu::{Error, Pmu};
use pmu_regs::{PlacementError, intel};
use std::collections::BTreeSet;

// ---------------------------------------------------------------------------------------
// The tables the runtime uses are the model's
// ---------------------------------------------------------------------------------------

/// An architectural generation the run-time layer programs: not a CPU model, and with the
/// counter and event-select roles (the rule `pmu-codegen/src/runtime.rs` applies).
fn is_pmu_generation(g: &pmu_defs::model::Generation) -> bool {
    use pmu_defs::model::RegisterRole;
    g.cpus.is_empty()
        && g.register_with_role(RegisterRole::Counter).is_some()
        && g.register_with_role(RegisterRole::EventSelect).is_some()
}

#[test]
fn register_tables_match_the_model() {
    let loaded = Loader::new().with_defaults().finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let model = &loaded.model;
    let gated = |id: &str| {
        model
            .generation(id)
            .is_some_and(|g| pmu_codegen::is_gated(model, g))
    };
    let ids: BTreeSet<&str> = (model.generations.iter())
        .filter(|g| is_pmu_generation(g))
        .map(|g| g.id.as_str())
        .filter(|id| !gated(id))
        .collect();
    // Generations behind a Cargo feature (CPU models, microarchitectures) are compared below.
    let compiled: BTreeSet<&str> = Generation::ALL.iter().map(|g| g.id()).collect();
    let ours: BTreeSet<&str> = compiled.iter().copied().filter(|id| !gated(id)).collect();
    assert_eq!(
        ids, ours,
        "every architectural generation with counters has a Generation and vice versa \
         (CPU-model generations use their architectural parent's; facilities without \
         counters, such as architectural LBR, have registers but no Generation)"
    );
    // The test build enables CPU models' features (`intel-skylake`, and what other workspace
    // members ask for); each turns on its microarchitecture's, and nothing else turns one on.
    let models: Vec<&pmu_defs::model::Generation> = (compiled.iter())
        .filter_map(|id| model.generation(id))
        .filter(|g| !g.cpus.is_empty())
        .collect();
    assert!(models.iter().any(|g| g.id == "intel-skylake"));
    for m in &models {
        for a in m.ancestors.iter().filter(|a| gated(a)) {
            assert!(compiled.contains(a.as_str()), "{a}: turned on by {}", m.id);
        }
    }
    for id in compiled.iter().filter(|id| gated(id)) {
        let g = model.generation(id).expect("a Generation is a definition");
        assert!(
            !g.cpus.is_empty() || models.iter().any(|m| m.ancestors.contains(&g.id)),
            "{id} is compiled in, but no compiled model extends it"
        );
    }
    for g in loaded
        .model
        .generations
        .iter()
        .filter(|g| is_pmu_generation(g) && compiled.contains(g.id.as_str()))
    {
        let gen_ = Generation::from_id(&g.id).unwrap();
        assert_table_matches(g, gen_.registers());
        let general = g.pmu.general.as_ref().unwrap();
        // Counts, widths and architectural events.
        struct Facts;
        impl ArchVisitor for Facts {
            type Output = (u32, u32, u32, Vec<(String, u32)>);
            fn visit<A: Arch>(self) -> Self::Output {
                (
                    A::GP_INSTANCES,
                    A::FIXED_INSTANCES,
                    A::GP_MODEL_WIDTH,
                    A::arch_events()
                        .iter()
                        .map(|e| (e.name.to_string(), e.cpuid_bit))
                        .collect(),
                )
            }
        }
        let (gp, fixed, width, events) = gen_.visit(Facts);
        assert_eq!(gp, g.general_counters(), "{}", g.id);
        assert_eq!(fixed, g.fixed_counters(), "{}", g.id);
        let counter = g.register(&general.counter).unwrap();
        let count = counter
            .fields
            .iter()
            .map(|f| f.bits[0].msb + 1)
            .max()
            .unwrap();
        assert_eq!(width, count, "{}", g.id);
        let want_events: Vec<(String, u32)> = g
            .events
            .iter()
            .filter_map(|e| e.cpuid_bit.map(|b| (e.name.clone(), b)))
            .collect();
        assert_eq!(events, want_events, "{}", g.id);
    }
}

/// A register table as the generated `registers()` gives it, or as the definition `g` states
/// it: (name, addresses, reserved bits, access, role, fields) of each register.
type TableRow = (String, Vec<u32>, u64, String, Option<String>, Vec<FieldRow>);

/// One field element: (name, runs as (lsb, width), access, requires, instances).
type FieldRow = (String, Vec<(u32, u32)>, String, Option<String>, Vec<u32>);

/// The field elements of `r` as the definitions state them: each element of an array at its
/// own bits, stride apart.
fn definition_fields(r: &pmu_defs::model::Register) -> Vec<FieldRow> {
    let mut rows = Vec::new();
    for f in &r.fields {
        let names = pmu_defs::model::names::element_names(f);
        for (i, name) in names.into_iter().enumerate() {
            let shift = f.array.map_or(0, |a| a.stride * i as u32);
            let runs = f.bits.iter().map(|b| (b.lsb + shift, b.width())).collect();
            let instances = f.instances.clone().unwrap_or_default();
            let access = f.access.as_str().to_string();
            rows.push((name, runs, access, f.requires.clone(), instances));
        }
    }
    rows
}

/// `table` (a generated run-time register table) lists exactly the registers of the
/// definition `g`, with their addresses, reserved bits, access, role and fields; each
/// register's fields and reserved bits cover its 64 bits once.
fn assert_table_matches(g: &pmu_defs::model::Generation, table: &[RegInfo]) {
    let want: BTreeSet<TableRow> = (g.registers.iter())
        .map(|r| {
            let role = r.role.map(pmu_defs::validate::register_role_word);
            let access = r.access.as_str().to_string();
            let name = r.name.clone();
            (
                name,
                r.addresses.clone(),
                r.reserved_mask,
                access,
                role.map(String::from),
                definition_fields(r),
            )
        })
        .collect();
    let have: BTreeSet<TableRow> = (table.iter())
        .map(|r| {
            let role = r.role.map(|x| x.as_str().to_string());
            let access = r.access.as_str().to_string();
            let fields = (r.fields.iter())
                .map(|f| {
                    (
                        f.name.to_string(),
                        f.runs.iter().map(|r| (r.lsb, r.width)).collect(),
                        f.access.as_str().to_string(),
                        f.requires.map(String::from),
                        f.instances.to_vec(),
                    )
                })
                .collect();
            (
                r.name.to_string(),
                r.addresses.to_vec(),
                r.reserved_mask,
                access,
                role,
                fields,
            )
        })
        .collect();
    assert_eq!(have, want, "{}", g.id);
    for r in table {
        let mut covered = r.reserved_mask;
        for f in r.fields {
            assert_eq!(
                covered & f.mask(),
                0,
                "{} {}: {} overlaps",
                g.id,
                r.name,
                f.name
            );
            covered |= f.mask();
        }
        assert_eq!(
            covered,
            u64::MAX,
            "{} {}: fields and reserved bits",
            g.id,
            r.name
        );
    }
}

/// A register value decodes field by field from the run-time table (no per-register code):
/// what a tool prints for an MSR it has only the address of.
#[test]
fn a_register_decodes_from_its_field_table() {
    let g = Generation::from_id("intel-v3").unwrap();
    let sel = (g.registers().iter())
        .find(|r| r.index_of(0x187).is_some())
        .unwrap();
    assert_eq!(sel.name, "IA32_PERFEVTSEL");
    let text = sel.decoded(0x0043_412E | (1 << 40)).to_string();
    assert!(
        text.starts_with("IA32_PERFEVTSEL { EVENT_SELECT: 0x2e, UMASK: 0x41, USR: true, OS: true"),
        "{text}"
    );
    assert!(text.ends_with("reserved: 0x10000000000 }"), "{text}");
    let status = (g.registers().iter())
        .find(|r| r.name == "IA32_PERF_GLOBAL_OVF_CTRL")
        .unwrap();
    assert_eq!(
        status.decoded(3).to_string(),
        "0x3",
        "a write-only register is not decoded"
    );
}

/// Every facility's run-time table lists its definition's registers (the tests crate compiles
/// every facility), and a mock has them exactly when it is configured with the facility.
#[test]
fn facility_tables_match_the_model_and_the_mock_has_them_when_configured() {
    let loaded = Loader::new().with_defaults().finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    assert!(!Facility::ALL.is_empty());
    for &f in Facility::ALL {
        let g = loaded
            .model
            .generation(f.id())
            .expect("a Facility is a definition");
        assert!(
            !f.registers().is_empty(),
            "{f}: compiled in the tests crate"
        );
        assert_table_matches(g, f.registers());
        let only: Facilities = [f].into_iter().collect();
        assert_eq!(only.iter().collect::<Vec<_>>(), [f]);
        let with = Mock::<IntelV4>::new(MockConfig::full::<IntelV4>(1).with_facilities(only));
        let without = v4_mock();
        for r in f.registers() {
            for &a in r.addresses {
                let at = format!("{f} {} {a:#x}", r.name);
                assert_eq!(with.peek(0, a), Some(0), "{at}");
                assert_eq!(without.peek(0, a), None, "{at}");
                // Access and reserved bits as for a generation's registers.
                let mut cpu = with.cpu(0);
                match r.access {
                    Access::ReadOnly => {
                        let e = cpu.write_raw(a, 0);
                        assert!(matches!(e, Err(MockFault::ReadOnly { .. })), "{at}: {e:?}");
                    }
                    _ if r.reserved_mask != 0 => {
                        let e = cpu.write_raw(a, r.reserved_mask);
                        assert!(
                            matches!(e, Err(MockFault::ReservedBits { .. })),
                            "{at}: {e:?}"
                        );
                    }
                    _ => {}
                }
                let e = without.cpu(0).write_raw(a, 0);
                assert!(
                    matches!(e, Err(MockFault::UnknownMsr { .. })),
                    "{at}: {e:?}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// The mock behaves like the hardware
// ---------------------------------------------------------------------------------------

fn v4_mock() -> Mock<IntelV4> {
    Mock::new(MockConfig::full::<IntelV4>(2))
}

#[test]
fn mock_faults_like_gp() {
    let mock = v4_mock();
    let mut cpu = mock.cpu(0);
    // An MSR the PMU does not have (IA32_TIME_STAMP_COUNTER is not a PMU register).
    assert_eq!(
        cpu.read_raw(0x10),
        Err(MockFault::UnknownMsr {
            cpu: 0,
            address: 0x10,
            write: false
        })
    );
    // A reserved bit of IA32_PERFEVTSEL0 (bit 40 is reserved in version 4).
    let sel0 = intel::v4::IA32_PERFEVTSEL::address::<0>();
    let err = cpu.write_raw(sel0, 1 << 40).unwrap_err();
    assert_eq!(
        err,
        MockFault::ReservedBits {
            cpu: 0,
            address: sel0,
            register: "IA32_PERFEVTSEL",
            bits: 1 << 40
        }
    );
    assert!(
        err.to_string().contains("reserved bits 0x10000000000"),
        "{err}"
    );
    // Read-only and write-only registers.
    let status = intel::v4::IA32_PERF_GLOBAL_STATUS::ADDRESS;
    assert!(matches!(
        cpu.write_raw(status, 1),
        Err(MockFault::ReadOnly { .. })
    ));
    let reset = intel::v4::IA32_PERF_GLOBAL_STATUS_RESET::ADDRESS;
    assert!(matches!(
        cpu.read_raw(reset),
        Err(MockFault::WriteOnly { .. })
    ));
    // A CPU that does not exist.
    assert_eq!(
        mock.cpu(5).read_raw(sel0),
        Err(MockFault::NoSuchCpu { cpu: 5 })
    );
    assert_eq!(mock.faults().len(), 5);
    assert_eq!(mock.writes(), 0);
    // Nothing was stored by the faulting write.
    assert_eq!(mock.peek(0, sel0), Some(0));
}

#[test]
fn mock_counters_beyond_the_configuration_do_not_exist() {
    let mut counters = CounterSet::full::<IntelV4>();
    counters.gp = 0xF;
    counters.gp_width = 40;
    counters.fixed_width = 40;
    let mock = Mock::<IntelV4>::new(MockConfig {
        cpus: 1,
        counters,
        full_width_writes: false,
        facilities: Default::default(),
        inert_gp: 0,
        inert_fixed: 0,
    });
    let mut cpu = mock.cpu(0);
    assert!(cpu.read_raw(intel::v4::IA32_PMC::address::<3>()).is_ok());
    assert!(matches!(
        cpu.read_raw(intel::v4::IA32_PMC::address::<4>()),
        Err(MockFault::UnknownMsr { .. })
    ));
    // Counter bits above the 40-bit width fault on a full-width fixed-counter write.
    let fixed0 = intel::v4::IA32_FIXED_CTR::address::<0>();
    assert!(cpu.write_raw(fixed0, (1 << 40) - 1).is_ok());
    assert!(matches!(
        cpu.write_raw(fixed0, 1 << 40),
        Err(MockFault::ReservedBits { bits, .. }) if bits == 1 << 40
    ));
    // No IA32_A_PMCx without FW_WRITE.
    assert!(matches!(
        cpu.read_raw(intel::v4::IA32_A_PMC::address::<0>()),
        Err(MockFault::UnknownMsr { .. })
    ));
}

#[test]
fn mock_pmc_writes_sign_extend_and_a_pmc_writes_are_full_width() {
    let mock = Mock::<IntelV4>::new(MockConfig::full::<IntelV4>(1).with_full_width_writes(true));
    let mut cpu = mock.cpu(0);
    let pmc0 = intel::v4::IA32_PMC::address::<0>();
    let a_pmc0 = intel::v4::IA32_A_PMC::address::<0>();
    cpu.write_raw(pmc0, 0x8000_0000).unwrap();
    assert_eq!(cpu.read_raw(pmc0).unwrap(), 0xFFFF_8000_0000);
    cpu.write_raw(a_pmc0, 0x8000_0000).unwrap();
    assert_eq!(
        cpu.read_raw(pmc0).unwrap(),
        0x8000_0000,
        "IA32_A_PMC0 aliases IA32_PMC0"
    );
    // FW_WRITE is visible in IA32_PERF_CAPABILITIES, through the generated getter.
    let caps = cpu.read(intel::v4::IA32_PERF_CAPABILITIES::MSR).unwrap();
    assert!(caps.is_set::<intel::v4::IA32_PERF_CAPABILITIES::FW_WRITE>());
}

/// A value with reserved bits set (from raw bits, or read back from hardware that returns
/// them set) is refused by the typed write before anything reaches the MSR; `modify` is the
/// way to change fields and keep the reserved bits as read.
#[test]
fn a_typed_write_refuses_reserved_bits() {
    use pmu_regs::access::WriteError;
    use pmu_regs::intel::v4::IA32_PERFEVTSEL;
    let mock = v4_mock();
    let mut cpu = mock.cpu(0);
    let sel = IA32_PERFEVTSEL::msr::<0>();
    let writes = mock.writes();
    let raw = IA32_PERFEVTSEL::Value::from_raw_read(u64::MAX);
    let err = cpu.write(sel, raw).unwrap_err();
    let WriteError::Reserved(e) = err else {
        panic!("expected a reserved-bits error, got {err:?}");
    };
    assert_eq!(e.bits, IA32_PERFEVTSEL::Value::RESERVED_MASK);
    assert_eq!(e.register, "IA32_PERFEVTSEL");
    assert!(
        err.to_string().contains("nothing was written") && err.to_string().contains("modify"),
        "{err}"
    );
    // Nothing reached the MSR, and the mock saw no fault.
    assert_eq!(mock.writes(), writes);
    assert_eq!(cpu.read_raw(sel.address()).unwrap(), 0);
    assert!(mock.faults().is_empty());
    // The same fields without the reserved bits are written.
    let clean =
        IA32_PERFEVTSEL::Value::try_from_bits(!IA32_PERFEVTSEL::Value::RESERVED_MASK).unwrap();
    cpu.write(sel, clean).unwrap();
    assert_eq!(cpu.read(sel).unwrap(), clean);
}

#[test]
fn mock_status_write_one_to_clear_and_to_set() {
    let mock = v4_mock();
    let mut cpu = mock.cpu(0);
    use intel::v4::{
        IA32_PERF_GLOBAL_STATUS, IA32_PERF_GLOBAL_STATUS_RESET, IA32_PERF_GLOBAL_STATUS_SET,
    };
    let set = IA32_PERF_GLOBAL_STATUS_SET::Value::new()
        .with_bit::<IA32_PERF_GLOBAL_STATUS_SET::SET_OVF_PMC0>(true)
        .with_bit::<IA32_PERF_GLOBAL_STATUS_SET::SET_OVF_PMC3>(true)
        .with_bit::<IA32_PERF_GLOBAL_STATUS_SET::SET_OVF_FIXED_CTR1>(true)
        .build();
    cpu.write(IA32_PERF_GLOBAL_STATUS_SET::MSR, set).unwrap();
    let st = cpu.read(IA32_PERF_GLOBAL_STATUS::MSR).unwrap();
    assert!(
        st.is_set::<IA32_PERF_GLOBAL_STATUS::OVF_PMC0>()
            && st.is_set::<IA32_PERF_GLOBAL_STATUS::OVF_PMC3>()
            && st.is_set::<IA32_PERF_GLOBAL_STATUS::OVF_FIXED_CTR1>()
            && !st.is_set::<IA32_PERF_GLOBAL_STATUS::OVF_PMC1>()
    );
    let clear = IA32_PERF_GLOBAL_STATUS_RESET::Value::new()
        .with_bit::<IA32_PERF_GLOBAL_STATUS_RESET::CLR_OVF_PMC3>(true)
        .with_bit::<IA32_PERF_GLOBAL_STATUS_RESET::CLR_OVF_PMC1>(true)
        .build();
    cpu.write(IA32_PERF_GLOBAL_STATUS_RESET::MSR, clear)
        .unwrap();
    let st = cpu.read(IA32_PERF_GLOBAL_STATUS::MSR).unwrap();
    assert!(
        st.is_set::<IA32_PERF_GLOBAL_STATUS::OVF_PMC0>()
            && !st.is_set::<IA32_PERF_GLOBAL_STATUS::OVF_PMC3>()
            && st.is_set::<IA32_PERF_GLOBAL_STATUS::OVF_FIXED_CTR1>()
    );
    // The other CPU is untouched: state is per CPU.
    assert_eq!(
        mock.cpu(1)
            .read_raw(IA32_PERF_GLOBAL_STATUS::ADDRESS)
            .unwrap(),
        0
    );
}

#[test]
fn mock_global_inuse_reflects_the_selects() {
    let mock = v4_mock();
    let mut pmu = Pmu::<IntelV4, _>::with_counters(mock.cpu(0), CounterSet::full::<IntelV4>());
    pmu.program(2, &intel::v4::ArchEvent::BranchMissesRetired, Filter::USER)
        .unwrap();
    pmu.program_fixed(1, FixedMode::Os, true).unwrap();
    let inuse = pmu
        .backend_mut()
        .read(intel::v4::IA32_PERF_GLOBAL_INUSE::MSR)
        .unwrap();
    assert!(
        inuse.is_set::<intel::v4::IA32_PERF_GLOBAL_INUSE::PERFEVTSEL_INUSE2>()
            && !inuse.is_set::<intel::v4::IA32_PERF_GLOBAL_INUSE::PERFEVTSEL_INUSE0>()
    );
    assert!(
        inuse.is_set::<intel::v4::IA32_PERF_GLOBAL_INUSE::FIXED_CTR_INUSE1>()
            && !inuse.is_set::<intel::v4::IA32_PERF_GLOBAL_INUSE::FIXED_CTR_INUSE0>()
    );
    assert!(
        inuse.is_set::<intel::v4::IA32_PERF_GLOBAL_INUSE::PMI_INUSE>(),
        "fixed counter 1 has PMI set"
    );
}

#[test]
fn mock_amd_legacy_registers_alias_the_core_counters() {
    let mock = Mock::<AmdCore>::new(MockConfig::full::<AmdCore>(1));
    let mut cpu = mock.cpu(0);
    use pmu_regs::amd::core::{PERF_CTR, PERF_CTR_CORE, PERF_EVT_SEL, PERF_EVT_SEL_CORE};
    cpu.write_raw(PERF_EVT_SEL::address::<1>(), 0x0043_0076)
        .unwrap();
    assert_eq!(
        cpu.read_raw(PERF_EVT_SEL_CORE::address::<1>()).unwrap(),
        0x0043_0076
    );
    cpu.write_raw(PERF_CTR_CORE::address::<3>(), 1234).unwrap();
    assert_eq!(cpu.read_raw(PERF_CTR::address::<3>()).unwrap(), 1234);
    // Core counter 5 exists; there is no legacy alias for it.
    assert!(cpu.read_raw(PERF_CTR_CORE::address::<5>()).is_ok());
    assert_eq!(PERF_CTR::try_address(4), None);
}

#[test]
fn typed_modify_through_the_mock_keeps_other_fields() {
    let mock = v4_mock();
    let mut cpu = mock.cpu(0);
    use intel::v4::IA32_PERF_GLOBAL_CTRL;
    cpu.write(
        IA32_PERF_GLOBAL_CTRL::MSR,
        IA32_PERF_GLOBAL_CTRL::Value::new()
            .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC1>(true)
            .build(),
    )
    .unwrap();
    let v = cpu
        .modify(IA32_PERF_GLOBAL_CTRL::MSR, |v| {
            v.with_bit::<IA32_PERF_GLOBAL_CTRL::EN_FIXED_CTR0>(true)
        })
        .unwrap();
    assert!(
        v.is_set::<IA32_PERF_GLOBAL_CTRL::EN_PMC1>()
            && v.is_set::<IA32_PERF_GLOBAL_CTRL::EN_FIXED_CTR0>()
    );
    assert_eq!(
        mock.peek(0, IA32_PERF_GLOBAL_CTRL::ADDRESS),
        Some((1 << 32) | 2)
    );
}

// ---------------------------------------------------------------------------------------
// The full cycle: program, count, overflow, clear
// ---------------------------------------------------------------------------------------

/// An event every generation can encode on counter 0: LLC misses for Intel, an arbitrary
/// encoding for AMD (the definitions have no AMD event table; the mock counts whatever is
/// programmed).
fn any_event<A: Arch>() -> EventDesc {
    A::arch_events()
        .iter()
        .find(|e| e.name == "LLC_MISSES")
        .map(|e| e.desc)
        .unwrap_or_else(|| EventDesc::new("TEST_EVENT_C0", 0xC0, 0))
}

fn full_cycle<A: Arch>() {
    let g = A::ID;
    let mock = Mock::<A>::new(MockConfig::full::<A>(2));
    let mut pmu = Pmu::<A, _>::with_counters(mock.cpu(1), CounterSet::full::<A>());
    let width = A::GP_MODEL_WIDTH;

    // Program: counter 0, user + kernel, PMI on overflow.
    let sel = pmu
        .program_raw(0, &any_event::<A>(), Filter::ALL.with_interrupt(true))
        .unwrap_or_else(|e| panic!("{g}: {e}"));
    let st = A::select_state(sel);
    assert!(st.enabled && st.usr && st.os && st.int, "{g}");
    assert_eq!(mock.peek(1, A::gp_select(0).unwrap()), Some(sel), "{g}");
    if let Some(gc) = A::global_ctrl() {
        assert!(
            A::global_ctrl_enabled(mock.peek(1, gc).unwrap(), Counter::Gp(0)),
            "{g}"
        );
    }

    // Count, on CPU 1 only.
    assert!(mock.tick(1, Counter::Gp(0), 100).unwrap().counted, "{g}");
    assert!(
        !mock.tick(0, Counter::Gp(0), 100).unwrap().counted,
        "{g}: CPU 0 not programmed"
    );
    assert_eq!(pmu.read(Counter::Gp(0)).unwrap(), 100, "{g}");

    // Overflow: preload 2^width - 10 (-10, which a plain sign-extending IA32_PMCx write can
    // produce) and count 15.
    let top = (1u64 << width) - 10;
    pmu.write_counter(Counter::Gp(0), top)
        .unwrap_or_else(|e| panic!("{g}: {e}"));
    assert_eq!(pmu.read(Counter::Gp(0)).unwrap(), top, "{g}");
    let t = mock.tick(1, Counter::Gp(0), 15).unwrap();
    assert!(t.counted && t.overflowed && t.pmi, "{g}: {t:?}");
    assert_eq!(
        pmu.read(Counter::Gp(0)).unwrap(),
        5,
        "{g}: wrapped at {width} bits"
    );
    assert_eq!(mock.pmis(1), 1, "{g}");

    if A::global_status().is_some() {
        let st = pmu.status().unwrap();
        assert_eq!((st.gp, st.fixed), (1, 0), "{g}");
        assert!(st.overflowed(Counter::Gp(0)));
        // Clear what was read; the status is clean and counting goes on.
        pmu.clear_overflow(&st).unwrap();
        assert!(pmu.status().unwrap().is_clear(), "{g}");
        mock.tick(1, Counter::Gp(0), 1).unwrap();
        assert_eq!(pmu.read(Counter::Gp(0)).unwrap(), 6, "{g}");
    } else {
        assert!(
            matches!(pmu.status(), Err(Error::Unsupported { .. })),
            "{g}"
        );
    }

    // Freeze and unfreeze.
    pmu.freeze().unwrap();
    assert!(
        !mock.tick(1, Counter::Gp(0), 1000).unwrap().counted,
        "{g}: frozen"
    );
    pmu.unfreeze().unwrap();
    mock.tick(1, Counter::Gp(0), 4).unwrap();
    let after = pmu.read(Counter::Gp(0)).unwrap();
    assert!(after == 10 || after == 9, "{g}: {after}");

    // Disable.
    pmu.disable(Counter::Gp(0)).unwrap();
    assert!(!mock.tick(1, Counter::Gp(0), 1).unwrap().counted, "{g}");
    assert!(!A::select_state(mock.peek(1, A::gp_select(0).unwrap()).unwrap()).enabled);
    assert!(mock.faults().is_empty(), "{g}: {:?}", mock.faults());
}

/// Every generation the definitions give a run-time view (whatever the YAML adds).
#[test]
fn full_cycle_on_every_generation() {
    struct FullCycle;
    impl ArchVisitor for FullCycle {
        type Output = ();
        fn visit<A: Arch>(self) {
            full_cycle::<A>();
        }
    }
    for &g in Generation::ALL {
        g.visit(FullCycle);
    }
}

#[test]
fn fixed_counters_program_count_overflow_and_clear() {
    let mock = Mock::<IntelV5>::new(MockConfig::full::<IntelV5>(1));
    let mut pmu = Pmu::<IntelV5, _>::with_counters(mock.cpu(0), CounterSet::full::<IntelV5>());
    assert_eq!(
        pmu.enable_fixed_counters(FixedMode::All, true).unwrap(),
        0xF
    );
    let ctrl = intel::v5::IA32_FIXED_CTR_CTRL::Value::from_raw_read(
        mock.peek(0, intel::v5::IA32_FIXED_CTR_CTRL::ADDRESS)
            .unwrap(),
    );
    for n in 0..4 {
        assert_eq!(
            ctrl.get_at::<intel::v5::IA32_FIXED_CTR_CTRL::ENABLE>(n),
            Some(intel::v5::IA32_FIXED_CTR_CTRL::Enable::All.value())
        );
        assert_eq!(
            ctrl.get_at::<intel::v5::IA32_FIXED_CTR_CTRL::PMI>(n),
            Some(1)
        );
    }
    let g = intel::v5::IA32_PERF_GLOBAL_CTRL::Value::from_raw_read(
        mock.peek(0, intel::v5::IA32_PERF_GLOBAL_CTRL::ADDRESS)
            .unwrap(),
    );
    assert!(
        (0..4).all(|n| g.get_at::<intel::v5::IA32_PERF_GLOBAL_CTRL::EN_FIXED_CTR>(n) == Some(1))
    );

    // Instructions retired on fixed counter 0, through its event.
    pmu.program_fixed_event(
        &intel::v5::ArchEvent::InstructionsRetired,
        FixedMode::Usr,
        false,
    )
    .unwrap();
    assert!(
        !mock
            .tick_at(0, Counter::Fixed(0), 5, Ring::Kernel)
            .unwrap()
            .counted
    );
    assert!(
        mock.tick_at(0, Counter::Fixed(0), 5, Ring::User)
            .unwrap()
            .counted
    );
    assert_eq!(pmu.read_fixed(0).unwrap(), 5);

    pmu.write_counter(Counter::Fixed(2), (1 << 48) - 1).unwrap();
    let t = mock.tick(0, Counter::Fixed(2), 2).unwrap();
    assert!(t.overflowed && t.pmi);
    let st = pmu.take_overflow().unwrap();
    assert_eq!((st.gp, st.fixed), (0, 1 << 2));
    assert!(pmu.status().unwrap().is_clear());
    assert!(mock.faults().is_empty());
}

#[test]
fn freeze_on_pmi_version_4_sets_ctr_frz_and_unfreeze_clears_it() {
    let mock = v4_mock();
    let mut pmu = Pmu::<IntelV4, _>::with_counters(mock.cpu(0), CounterSet::full::<IntelV4>());
    pmu.set_freeze_on_pmi(true).unwrap();
    let debugctl = intel::v4::IA32_DEBUGCTL::Value::from_raw_read(
        mock.peek(0, intel::v4::IA32_DEBUGCTL::ADDRESS).unwrap(),
    );
    assert!(debugctl.is_set::<intel::v4::IA32_DEBUGCTL::FREEZE_PERFMON_ON_PMI>());
    pmu.program(
        1,
        &intel::v4::ArchEvent::UnhaltedCoreCycles,
        Filter::ALL.with_interrupt(true),
    )
    .unwrap();
    pmu.program(
        2,
        &intel::v4::ArchEvent::BranchInstructionsRetired,
        Filter::ALL,
    )
    .unwrap();
    pmu.write_counter(Counter::Gp(1), 0xFFFF_FFFF_FFFF).unwrap();
    let gc_before = mock.peek(0, intel::v4::IA32_PERF_GLOBAL_CTRL::ADDRESS);
    assert!(mock.tick(0, Counter::Gp(1), 1).unwrap().pmi);
    let st = pmu.status().unwrap();
    assert!(st.frozen && st.gp == 0b10);
    // Version 4 freezes through CTR_FRZ: the global control is unchanged, nothing counts.
    assert_eq!(
        mock.peek(0, intel::v4::IA32_PERF_GLOBAL_CTRL::ADDRESS),
        gc_before
    );
    assert!(!mock.tick(0, Counter::Gp(2), 1).unwrap().counted);
    pmu.unfreeze().unwrap();
    assert!(!pmu.status().unwrap().frozen);
    assert!(mock.tick(0, Counter::Gp(2), 1).unwrap().counted);
}

#[test]
fn freeze_on_pmi_version_2_clears_global_ctrl_and_unfreeze_restores_it() {
    let mock = Mock::<IntelV2>::new(MockConfig::full::<IntelV2>(1));
    let mut pmu = Pmu::<IntelV2, _>::with_counters(mock.cpu(0), CounterSet::full::<IntelV2>());
    pmu.set_freeze_on_pmi(true).unwrap();
    pmu.program(
        0,
        &intel::v2::ArchEvent::LlcReferences,
        Filter::ALL.with_interrupt(true),
    )
    .unwrap();
    pmu.program_fixed(0, FixedMode::All, false).unwrap();
    let before = mock
        .peek(0, intel::v2::IA32_PERF_GLOBAL_CTRL::ADDRESS)
        .unwrap();
    assert_eq!(before, (1 << 32) | 1);
    pmu.write_counter(Counter::Gp(0), 0xFFFF_FFFF_FFFF).unwrap();
    assert!(mock.tick(0, Counter::Gp(0), 1).unwrap().pmi);
    assert_eq!(
        mock.peek(0, intel::v2::IA32_PERF_GLOBAL_CTRL::ADDRESS),
        Some(0)
    );
    assert!(!mock.tick(0, Counter::Fixed(0), 1).unwrap().counted);
    // Version 2 has no CTR_FRZ; the status reports no freeze.
    assert!(!pmu.status().unwrap().frozen);
    pmu.unfreeze().unwrap();
    assert_eq!(
        mock.peek(0, intel::v2::IA32_PERF_GLOBAL_CTRL::ADDRESS),
        Some(before)
    );
}

#[test]
fn freeze_twice_keeps_the_first_saved_state() {
    let mock = v4_mock();
    let mut pmu = Pmu::<IntelV4, _>::with_counters(mock.cpu(0), CounterSet::full::<IntelV4>());
    pmu.program(3, &intel::v4::ArchEvent::LlcMisses, Filter::ALL)
        .unwrap();
    let before = mock.peek(0, intel::v4::IA32_PERF_GLOBAL_CTRL::ADDRESS);
    pmu.freeze().unwrap();
    pmu.freeze().unwrap();
    assert!(pmu.is_frozen());
    assert_eq!(
        mock.peek(0, intel::v4::IA32_PERF_GLOBAL_CTRL::ADDRESS),
        Some(0)
    );
    pmu.unfreeze().unwrap();
    assert_eq!(
        mock.peek(0, intel::v4::IA32_PERF_GLOBAL_CTRL::ADDRESS),
        before
    );
}

#[test]
fn set_overflow_through_the_set_register() {
    let mock = Mock::<AmdPerfmonV2>::new(MockConfig::full::<AmdPerfmonV2>(1));
    let mut pmu =
        Pmu::<AmdPerfmonV2, _>::with_counters(mock.cpu(0), CounterSet::full::<AmdPerfmonV2>());
    pmu.set_overflow(0b100100, 0).unwrap();
    assert_eq!(pmu.status().unwrap().gp, 0b100100);
    assert!(matches!(
        pmu.set_overflow(0, 1),
        Err(Error::NoSuchCounter {
            counter: Counter::Fixed(0),
            ..
        })
    ));
    pmu.take_overflow().unwrap();
    assert_eq!(pmu.status().unwrap().gp, 0);
    // Version 2 Intel has no set register.
    let m2 = Mock::<IntelV2>::new(MockConfig::full::<IntelV2>(1));
    let mut p2 = Pmu::<IntelV2, _>::with_counters(m2.cpu(0), CounterSet::full::<IntelV2>());
    assert!(matches!(
        p2.set_overflow(1, 0),
        Err(Error::Unsupported { .. })
    ));
}

/// PerfMonV2's LBR freeze flag (status bit 58): set and cleared through the typed set and
/// clear registers as Linux's amd_pmu_v2_handle_irq acknowledges it, without a fault; the
/// counters' overflow bits are not touched by it.
#[test]
fn amd_lbr_freeze_flag_is_set_and_cleared() {
    use pmu_regs::amd::perfmon_v2::{
        PERF_CNTR_GLOBAL_STATUS, PERF_CNTR_GLOBAL_STATUS_CLR, PERF_CNTR_GLOBAL_STATUS_SET,
    };
    let mock = Mock::<AmdPerfmonV2>::new(MockConfig::full::<AmdPerfmonV2>(1));
    let mut cpu = mock.cpu(0);
    let set = PERF_CNTR_GLOBAL_STATUS_SET::Value::new()
        .with_bit::<PERF_CNTR_GLOBAL_STATUS_SET::SET_LBR_FROZEN>(true)
        .with_bit::<PERF_CNTR_GLOBAL_STATUS_SET::SET_OVF1>(true)
        .build();
    cpu.write(PERF_CNTR_GLOBAL_STATUS_SET::MSR, set).unwrap();
    let st = cpu.read(PERF_CNTR_GLOBAL_STATUS::MSR).unwrap();
    assert!(
        st.is_set::<PERF_CNTR_GLOBAL_STATUS::LBR_FROZEN>()
            && st.is_set::<PERF_CNTR_GLOBAL_STATUS::OVF1>()
    );
    let clr = PERF_CNTR_GLOBAL_STATUS_CLR::Value::new()
        .with_bit::<PERF_CNTR_GLOBAL_STATUS_CLR::CLR_LBR_FROZEN>(true)
        .build();
    cpu.write(PERF_CNTR_GLOBAL_STATUS_CLR::MSR, clr).unwrap();
    let st = cpu.read(PERF_CNTR_GLOBAL_STATUS::MSR).unwrap();
    assert!(
        !st.is_set::<PERF_CNTR_GLOBAL_STATUS::LBR_FROZEN>()
            && st.is_set::<PERF_CNTR_GLOBAL_STATUS::OVF1>()
    );
    assert!(mock.faults().is_empty(), "{:?}", mock.faults());
}

// ---------------------------------------------------------------------------------------
// Runtime-invalid input: an error, nothing written
// ---------------------------------------------------------------------------------------

#[test]
fn invalid_input_is_an_error_and_writes_nothing() {
    let mock = v4_mock();
    let mut counters = CounterSet::full::<IntelV4>();
    counters.gp = 0xF; // CPUID says four counters
    counters.unavailable_events = 1 << 4; // CPUID.0AH:EBX[4]: LLC misses unavailable
    counters.anythread_deprecated = true;
    counters.umask2 = false;
    let mut pmu = Pmu::<IntelV4, _>::with_counters(mock.cpu(0), counters);
    let ev = intel::v4::ArchEvent::BranchInstructionsRetired;

    // A counter beyond what CPUID reports, and beyond the definitions.
    for n in [4, 8, 31, 32, u32::MAX] {
        let err = pmu.program(n, &ev, Filter::ALL).unwrap_err();
        assert!(
            matches!(err, Error::NoSuchCounter { counter: Counter::Gp(m), available: 0xF } if m == n),
            "{n}: {err:?}"
        );
    }
    assert_eq!(
        pmu.program(4, &ev, Filter::ALL).unwrap_err().to_string(),
        "general-purpose counter 4 does not exist on this CPU (available: 0,1,2,3)"
    );
    assert!(matches!(
        pmu.read(Counter::Fixed(3)),
        Err(Error::NoSuchCounter { .. })
    ));

    // An event CPUID.0AH:EBX marks unavailable, by name or by encoding.
    assert_eq!(
        pmu.program(0, &intel::v4::ArchEvent::LlcMisses, Filter::ALL),
        Err(Error::EventUnavailable {
            event: "LLC_MISSES",
            cpuid_bit: 4
        })
    );
    let same = EventDesc::new("MY_LLC_MISS", 0x2E, 0x41);
    assert!(matches!(
        pmu.program_raw(1, &same, Filter::ALL),
        Err(Error::EventUnavailable { cpuid_bit: 4, .. })
    ));

    // Values too wide for the counter; values a plain IA32_PMCx write cannot produce.
    assert_eq!(
        pmu.write_counter(Counter::Gp(0), 1 << 48),
        Err(Error::TooWide {
            counter: Counter::Gp(0),
            width: 48,
            value: 1 << 48
        })
    );
    assert!(matches!(
        pmu.write_counter(Counter::Gp(0), 0x1_0000_0000),
        Err(Error::NeedsFullWidthWrite { .. })
    ));

    // Placement and constraints from the generated encoder.
    let fixed_only = EventDesc::new("REF_TSC", 0x00, 0x03)
        .with_counters(0)
        .with_fixed(2);
    assert!(matches!(
        pmu.program_raw(0, &fixed_only, Filter::ALL),
        Err(Error::Encode(EncodeError::Placement(
            PlacementError::FixedOnly { .. }
        )))
    ));
    let low = EventDesc::new("LOW_ONLY", 0x48, 0x01).with_counters(0b0011);
    assert!(matches!(
        pmu.program_raw(2, &low, Filter::ALL),
        Err(Error::Encode(EncodeError::Placement(
            PlacementError::NotOnCounter { .. }
        )))
    ));
    let inv = EventDesc::new("INV_NO_CMASK", 0xC0, 0).with_inv(true);
    let err = pmu.program_raw(0, &inv, Filter::ALL).unwrap_err();
    assert!(
        matches!(err, Error::Encode(EncodeError::Constraint(c)) if c.id == "inv-without-cmask"),
        "{err:?}"
    );
    let wide = EventDesc::new("WIDE", 0x1C0, 0);
    assert!(matches!(
        pmu.program_raw(0, &wide, Filter::ALL),
        Err(Error::Encode(EncodeError::Placement(
            PlacementError::TooWide {
                field: "EVENT_SELECT",
                ..
            }
        )))
    ));
    // Features CPUID denies.
    let any = EventDesc::new("ANY", 0x3C, 0).with_any(true);
    assert!(matches!(
        pmu.program_raw(0, &any, Filter::ALL),
        Err(Error::FeatureUnavailable { feature, .. }) if feature.starts_with("AnyThread")
    ));
    // Version 4 has no UMASK2 field at all.
    let u2 = EventDesc::new("U2", 0xC0, 0).with_umask2(1);
    let mut counters6 = counters;
    counters6.umask2 = true;
    let mut p4 = Pmu::<IntelV4, _>::with_counters(mock.cpu(0), counters6);
    assert!(matches!(
        p4.program_raw(0, &u2, Filter::ALL),
        Err(Error::Encode(EncodeError::Placement(
            PlacementError::Unsupported {
                field: "UMASK2",
                ..
            }
        )))
    ));
    // Version 6 has the field, but this CPU's CPUID.23H does not enumerate it.
    let m6 = Mock::<IntelV6>::new(MockConfig::full::<IntelV6>(1));
    let mut c6 = CounterSet::full::<IntelV6>();
    c6.umask2 = false;
    let mut p6 = Pmu::<IntelV6, _>::with_counters(m6.cpu(0), c6);
    assert!(matches!(
        p6.program_raw(0, &u2, Filter::ALL),
        Err(Error::FeatureUnavailable { feature, .. }) if feature.starts_with("UMASK2")
    ));

    // Facilities a generation does not have.
    let m1 = Mock::<IntelV1>::new(MockConfig::full::<IntelV1>(1));
    let mut p1 = Pmu::<IntelV1, _>::with_counters(m1.cpu(0), CounterSet::full::<IntelV1>());
    assert!(matches!(
        p1.program_fixed(0, FixedMode::All, false),
        Err(Error::NoSuchCounter { .. })
    ));
    assert!(matches!(
        p1.enable_fixed_counters(FixedMode::All, false),
        Err(Error::Unsupported { .. })
    ));
    assert!(matches!(
        p1.set_freeze_on_pmi(true),
        Err(Error::Unsupported { .. })
    ));
    assert_eq!(
        p1.status().unwrap_err().to_string(),
        "intel-v1 has no global overflow status"
    );

    assert_eq!(mock.writes(), 0, "no failed call wrote anything");
    assert_eq!(m1.writes() + m6.writes(), 0);
    assert!(mock.faults().is_empty() && m1.faults().is_empty() && m6.faults().is_empty());
}

#[test]
fn full_width_writes_when_fw_write_is_set() {
    let mock = Mock::<IntelV3>::new(MockConfig::full::<IntelV3>(1).with_full_width_writes(true));
    // Pmu::new reads IA32_PERF_CAPABILITIES when PDCM says it exists. Synthetic CPUID: a
    // version 3 leaf 0AH and only the PDCM bit in leaf 1 ECX.
    let mut info = pmu_regs::detect::detect(&mut pmu_regs::detect::CpuidTable::new(&[
        pmu_regs::detect::CpuidEntry::new(0, 0, [0xB, 0x756E_6547, 0x6C65_746E, 0x4965_6E69]),
        pmu_regs::detect::CpuidEntry::new(1, 0, [0x000106A2, 0, 1 << 15, 0]),
        pmu_regs::detect::CpuidEntry::new(0xA, 0, [0x0730_0403, 0, 0, 0x603]),
    ]));
    assert_eq!(info.generation, Some(Generation::IntelV3));
    let mut pmu = Pmu::<IntelV3, _>::new(mock.cpu(0), &info).unwrap();
    assert!(pmu.full_width_writes());
    pmu.write_counter(Counter::Gp(1), 0x1234_5678_9ABC).unwrap();
    assert_eq!(pmu.read_pmc(1).unwrap(), 0x1234_5678_9ABC);
    // The wrong generation is refused.
    info.generation = Some(Generation::IntelV4);
    info.id = info.generation.map(Generation::id);
    let err = Pmu::<IntelV3, _>::new(mock.cpu(0), &info).unwrap_err();
    assert_eq!(err.to_string(), "this CPU's PMU is intel-v4, not intel-v3");
}

#[test]
fn raw_config_is_the_event_encoding_without_filters() {
    use pmu_regs::arch::IntelV6;
    // LLC misses: event 2EH, umask 41H; no USR/OS/INT/EN (perf sets those).
    let llc = intel::v6::ArchEvent::LlcMisses.desc().get();
    assert_eq!(IntelV6::encode_raw_config(&llc).unwrap(), 0x412E);
    let e = EventDesc::new("E", 0xD0, 0x81)
        .with_cmask(2)
        .with_inv(true)
        .with_edge(true)
        .with_umask2(0x3);
    assert_eq!(
        IntelV6::encode_raw_config(&e).unwrap(),
        0xD0 | 0x81 << 8 | 1 << 18 | 1 << 23 | 2 << 24 | 0x3 << 40
    );
    // AMD's 12-bit event select is split over bits 7:0 and 35:32.
    let amd = EventDesc::new("AMD", 0x1C0, 0x01);
    assert_eq!(
        AmdCore::encode_raw_config(&amd).unwrap(),
        0xC0 | 0x01 << 8 | 1 << 32
    );
    // The counter restriction does not matter to perf; a fixed-only event cannot be encoded.
    let low = EventDesc::new("LOW_ONLY", 0x48, 0x01).with_counters(0b0100);
    assert_eq!(IntelV6::encode_raw_config(&low).unwrap(), 0x0148);
    let fixed_only = EventDesc::new("REF_TSC", 0, 3)
        .with_counters(0)
        .with_fixed(2);
    assert!(IntelV6::encode_raw_config(&fixed_only).is_err());
}

// ---------------------------------------------------------------------------------------
// /dev/cpu/N/msr errors
// ---------------------------------------------------------------------------------------

#[cfg(target_os = "linux")]
#[test]
fn dev_msr_errors_say_what_to_do() {
    use pmu_regs::backend::linux::{DevMsr, DevMsrError};
    // A CPU number no machine has.
    let err = DevMsr::open_read_only(1_000_000).unwrap_err();
    assert!(
        matches!(
            err,
            DevMsrError::DeviceMissing {
                cpu: 1_000_000,
                cpu_dir_exists: false,
                ..
            }
        ),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(
        msg.starts_with("/dev/cpu/1000000/msr does not exist") && msg.contains("modprobe msr"),
        "{msg}"
    );
    // CPU 0: what this machine has decides which error (if any) we get; each must be clear.
    match DevMsr::open_read_only(0) {
        Ok(mut dev) => {
            println!("note: /dev/cpu/0/msr is usable here; checking the read-only handle only");
            let err = dev.write_raw(0x38F, 0).unwrap_err();
            assert!(matches!(
                err,
                DevMsrError::ReadOnlyHandle {
                    cpu: 0,
                    address: 0x38F
                }
            ));
            assert!(err.to_string().contains("opened read-only"));
        }
        Err(e @ DevMsrError::DeviceMissing { cpu_dir_exists, .. }) => {
            let msg = e.to_string();
            assert!(msg.contains("modprobe msr"), "{msg}");
            if cpu_dir_exists {
                assert!(msg.contains("the msr driver is not loaded"), "{msg}");
            }
        }
        Err(e @ DevMsrError::PermissionDenied { .. }) => {
            assert!(e.to_string().contains("run as root"), "{e}");
        }
        Err(e) => panic!("unexpected error opening /dev/cpu/0/msr: {e}"),
    }
}

/// The run-time role vocabulary is the YAML's, word for word and in order.
#[test]
fn role_words_are_the_yaml_words() {
    let run_time: Vec<&str> = Role::ALL.iter().map(|r| r.as_str()).collect();
    let yaml: Vec<&str> = pmu_defs::load::raw::REGISTER_ROLE_WORDS
        .iter()
        .map(|(w, _)| *w)
        .collect();
    assert_eq!(run_time, yaml);
}
