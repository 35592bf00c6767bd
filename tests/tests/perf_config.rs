//! `pmu_regs::perf::PerfConfig`: names, perf strings and raw configs to `perf_event_attr`
//! fields at run time, the fixed-counter pseudo-encodings, auxiliary MSRs, and an error that
//! says what is wrong for every refusal. (Every event of every model against the tools'
//! encoder: `pmu-cli/tests/perf_config.rs`.)

use pmu_regs::arch::Generation;
use pmu_regs::detect::{CpuidEntry, CpuidTable, PmuInfo, detect};
use pmu_regs::perf::{PerfConfig, PerfError};
use pmu_vocab::perf::{ErrorKind, SyntaxError};

fn gen_(id: &str) -> Generation {
    Generation::from_id(id).unwrap()
}

fn parse(id: &str, text: &str) -> PerfConfig {
    PerfConfig::parse(gen_(id), text).unwrap_or_else(|e| panic!("{id} {text}: {e}"))
}

fn refuse(id: &str, text: &str) -> PerfError {
    PerfConfig::parse(gen_(id), text).unwrap_err()
}

#[test]
fn names_modifiers_and_the_perf_string_back() {
    let c = parse("intel-skylake", "MEM_LOAD_RETIRED.L3_MISS:k");
    assert_eq!((c.pmu, c.config, c.config1), ("cpu", 0x20D1, 0));
    assert_eq!((c.exclude_user, c.exclude_kernel), (true, false));
    assert_eq!(c.name, Some("MEM_LOAD_RETIRED.L3_MISS"));
    assert_eq!(c.to_string(), "cpu/event=0xd1,umask=0x20/k");
    // Case-insensitive, and modifiers override the event's own fields.
    let c = parse("intel-skylake", "mem_load_retired.l3_miss:cmask=2:inv:u");
    assert_eq!(c.config, 0x0280_20D1);
    assert_eq!(c.to_string(), "cpu/event=0xd1,cmask=2,inv=1,umask=0x20/u");
    assert_eq!(parse("intel-skylake", &c.to_string()), c);
    // Both levels: no letter.
    let both = parse("intel-skylake", "MEM_LOAD_RETIRED.L3_MISS:u:k");
    assert_eq!((both.exclude_user, both.exclude_kernel), (false, false));
    assert_eq!(both.to_string(), "cpu/event=0xd1,umask=0x20/");
    // An architectural event of an architectural generation.
    let c = parse("intel-v3", "BRANCH_MISSES_RETIRED");
    assert_eq!(c.config, 0xC5);
}

#[test]
fn fixed_counter_events_use_perfs_encodings() {
    // jevents.py's own spellings.
    let c = parse("intel-skylake", "INST_RETIRED.ANY");
    assert_eq!(
        (c.config, c.to_string().as_str()),
        (0xC0, "cpu/event=0xc0/")
    );
    let c = parse("intel-skylake", "CPU_CLK_UNHALTED.THREAD:u");
    assert_eq!(
        (c.config, c.to_string().as_str()),
        (0x3C, "cpu/event=0x3c/u")
    );
    // Linux's pseudo-encoding: event 0, the unit mask Intel gives the event.
    let c = parse("intel-skylake", "CPU_CLK_UNHALTED.REF_TSC");
    assert_eq!(
        (c.config, c.to_string().as_str()),
        (0x0300, "cpu/event=0,umask=3/")
    );
    assert_eq!(parse("intel-skylake", &c.to_string()), c);
    assert_eq!(
        refuse("intel-skylake", "CPU_CLK_UNHALTED.REF_TSC:cmask=1"),
        PerfError::FixedOnly {
            event: "CPU_CLK_UNHALTED.REF_TSC"
        }
    );
}

#[test]
fn auxiliary_msrs_go_in_config1() {
    let c = parse("intel-skylake", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4");
    assert_eq!((c.config, c.config1), (0x01CD, 4));
    assert_eq!(c.to_string(), "cpu/event=0xcd,umask=1,ldlat=0x4/");
    let c = parse(
        "intel-skylake",
        "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=128",
    );
    assert_eq!(c.config1, 128);
    assert_eq!(parse("intel-skylake", &c.to_string()), c);
    assert_eq!(
        refuse("intel-skylake", "MEM_LOAD_RETIRED.L3_MISS:ldlat=4"),
        PerfError::AuxMsr { term: "ldlat" }
    );
    let raw = parse(
        "intel-skylake",
        "cpu/event=0xb7,umask=1,offcore_rsp=0x10001/",
    );
    assert_eq!((raw.config, raw.config1), (0x01B7, 0x10001));
    assert_eq!(
        refuse(
            "intel-skylake",
            "cpu/event=0xb7,umask=1,offcore_rsp=1,ldlat=3/"
        ),
        PerfError::AuxMsr { term: "ldlat" }
    );
}

#[test]
fn perf_strings_and_raw_configs() {
    let c = parse("intel-v4", "cpu/event=0x2e,umask=0x41,period=100003/u");
    assert_eq!((c.config, c.exclude_kernel), (0x412E, true));
    let raw = parse("intel-v4", "r412e");
    assert_eq!(
        raw,
        parse("intel-v4", "LLC_MISSES"),
        "the same counter, however spelled"
    );
    assert_eq!(raw.to_string(), "cpu/config=0x412e/");
    assert_eq!(parse("intel-v4", &raw.to_string()), raw);
    // AMD's 12-bit event select: bits 11:8 at 35:32.
    let amd = parse("amd-core", "cpu/event=0x1c0,umask=1/");
    assert_eq!(amd.config, 0x1_0000_01C0);
    assert_eq!(amd.to_string(), "cpu/event=0x1c0,umask=1/");
    assert_eq!(
        refuse("intel-v4", "r10000000000"),
        PerfError::Reserved { bits: 1 << 40 }
    );
    assert_eq!(
        refuse("intel-v4", "cpu/config=0x412e,umask=1/"),
        PerfError::ConfigAndTerms
    );
    assert_eq!(refuse("intel-v4", "cpu/umask=1/"), PerfError::NoEvent);
    assert_eq!(
        refuse("intel-v4", "cpu/event=0x2e,inv=2/"),
        PerfError::TooWide {
            term: "inv",
            value: 2
        }
    );
    // UMASK2 (umask above 8 bits) exists from perfmon v6 only.
    assert!(matches!(
        refuse("intel-v4", "cpu/event=0x2e,umask=0x141/"),
        PerfError::Encode(_)
    ));
    // A combination the manual rules out, asked for: refused; Intel's own events that way
    // (UOPS_EXECUTED.CORE_CYCLES_NONE) are opened as defined (the corpus test).
    assert!(matches!(
        refuse("intel-v4", "cpu/event=0x2e,umask=0x41,inv=1/"),
        PerfError::Encode(_)
    ));
}

#[test]
fn every_refusal_says_what_is_wrong() {
    let e = refuse("intel-skylake", "MEM_LOAD_RETIRED.L3_MIS");
    assert_eq!(
        e.to_string(),
        "unknown event for intel-skylake (did you mean MEM_LOAD_RETIRED.L3_MISS?)"
    );
    assert_eq!(
        refuse("intel-skylake", "NO_SUCH_THING_AT_ALL"),
        PerfError::UnknownEvent {
            generation: "intel-skylake",
            suggestion: None
        }
    );
    assert_eq!(
        refuse("intel-skylake", "cpu_core/event=0xd1/"),
        PerfError::WrongPmu { expected: "cpu" }
    );
    assert_eq!(
        refuse("intel-skylake", "MEM_LOAD_RETIRED.L3_MISS:u:u"),
        PerfError::Syntax(SyntaxError {
            at: 27,
            kind: ErrorKind::ModifierTwice
        })
    );
    assert_eq!(
        refuse("intel-skylake", "MEM_LOAD_RETIRED.L3_MISS:int"),
        PerfError::KernelOwned
    );
    assert_eq!(
        refuse("intel-skylake", "MEM_LOAD_RETIRED.L3_MISS:u=0:k=0"),
        PerfError::NothingCounted
    );
    assert!(matches!(refuse("intel-skylake", ""), PerfError::Syntax(_)));
}

/// A megabyte of modifiers ends at the first repeated one: the answer does not depend on
/// what follows it (its cost is a benchmark's to show, not a timed test's).
#[test]
fn a_repeated_modifier_ends_the_parse() {
    let text = format!("LLC_MISSES{}", ":u".repeat(500_000));
    assert_eq!(
        PerfConfig::parse(gen_("intel-v4"), &text),
        Err(PerfError::Syntax(SyntaxError {
            at: 13,
            kind: ErrorKind::ModifierTwice
        }))
    );
}

/// An Arrow Lake-H core (family 6 model C5H, perfmon v6) whose leaf 1AH EAX is `leaf_1a`.
/// The tests build none of its models: the generation is intel-v6, and the PMU comes from the
/// model detection names (compiled or not) and the core type.
fn arrow_lake_core(leaf_1a: u32) -> PmuInfo {
    detect(&mut CpuidTable::new(&[
        CpuidEntry::new(0, 0, [0x23, 0x756E_6547, 0x6C65_746E, 0x4965_6E69]),
        CpuidEntry::new(0x1, 0, [0x000C_0652, 0, 0, 0]),
        CpuidEntry::new(0xA, 0, [0x0830_0806, 0, 0xF, 0x0000_8604]),
        CpuidEntry::new(0x1A, 0, [leaf_1a, 0, 0, 0]),
    ]))
}

#[test]
fn the_detected_core_chooses_the_pmu() {
    for (leaf_1a, pmu) in [
        (0x4000_0003, "cpu_core"),     // Lion Cove
        (0x2000_0003, "cpu_atom"),     // Skymont
        (0x2000_0002, "cpu_lowpower"), // Crestmont, the low-power E-cores
        (0x2000_0007, "cpu_atom"),     // an Atom core no list names: by its core type
    ] {
        let info = arrow_lake_core(leaf_1a);
        assert_eq!(info.generation, Some(Generation::IntelV6));
        assert_eq!(info.core_type, Some((leaf_1a >> 24) as u8));
        let c = PerfConfig::parse_detected(&info, "INSTRUCTIONS_RETIRED:u").unwrap();
        assert_eq!((c.pmu, c.config), (pmu, 0xC0), "{leaf_1a:#x}");
        assert!(c.to_string().starts_with(&format!("{pmu}/")), "{c}");
        assert_eq!(
            PerfConfig::parse_detected(&info, "cpu/event=0xc0/"),
            Err(PerfError::WrongPmu { expected: pmu })
        );
    }
    // Not hybrid (leaf 1AH zero): `cpu`.
    let plain = arrow_lake_core(0);
    assert_eq!(plain.core_type, None);
    assert_eq!(
        PerfConfig::parse_detected(&plain, "r412e").unwrap().pmu,
        "cpu"
    );
    // No PMU at all (a guest whose leaf 0AH is zero): said so.
    let none = detect(&mut CpuidTable::new(&[CpuidEntry::new(
        0,
        0,
        [0x1, 0x756E_6547, 0x6C65_746E, 0x4965_6E69],
    )]));
    assert_eq!(
        PerfConfig::parse_detected(&none, "r412e"),
        Err(PerfError::NoPmu)
    );
}

/// Linux arch/x86/events/intel/core.c, intel_perfmon_event_map.
const INTEL_MAP: [(&str, u64); 8] = [
    ("cpu-cycles", 0x003c),
    ("instructions", 0x00c0),
    ("cache-references", 0x4f2e),
    ("cache-misses", 0x412e),
    ("branch-instructions", 0x00c4),
    ("branch-misses", 0x00c5),
    ("bus-cycles", 0x013c),
    ("ref-cycles", 0x0300),
];

/// Linux arch/x86/events/amd/core.c, amd_perfmon_event_map (every AMD core before Zen).
const AMD_MAP: [(&str, u64); 8] = [
    ("cycles", 0x0076),
    ("instructions", 0x00c0),
    ("cache-references", 0x077d),
    ("cache-misses", 0x077e),
    ("branches", 0x00c2),
    ("branch-misses", 0x00c3),
    ("stalled-cycles-frontend", 0x00d0),
    ("stalled-cycles-backend", 0x00d1),
];

/// perf's generic events resolve as the kernel maps them on every architectural generation
/// compiled here: Intel's table (`ref-cycles`, fixed counter 2's pseudo-encoding, from
/// version 2, which has the fixed counters) and AMD's legacy table. (Every model against the
/// kernel's per-model choices: `pmu-cli/tests/perf_config.rs`.)
#[test]
fn generic_events_follow_the_kernels_architectural_tables() {
    use pmu_regs::arch::{MODEL_SPECS, Role, Vendor};
    let is_model = |g: Generation| MODEL_SPECS.iter().any(|m| m.id == g.id());
    let architectural = Generation::ALL
        .iter()
        .filter(|&&g| !is_model(g) && !g.id().contains("family"));
    let mut checked = 0;
    for &g in architectural {
        let id = g.id();
        let (table, kernel_has) = match g.vendor() {
            Vendor::Intel => (
                INTEL_MAP,
                ["stalled-cycles-frontend", "stalled-cycles-backend"],
            ),
            Vendor::Amd => (AMD_MAP, ["ref-cycles", "bus-cycles"]),
        };
        let fixed = g
            .registers()
            .iter()
            .any(|r| r.role == Some(Role::FixedCounter));
        for (name, config) in table {
            if name == "ref-cycles" && !fixed {
                assert_eq!(
                    refuse(id, name).to_string(),
                    format!("the kernel maps perf's `ref-cycles` to no event on {id}")
                );
                continue;
            }
            let c = parse(id, name);
            assert_eq!(
                (c.pmu, c.config, c.config1),
                ("cpu", config, 0),
                "{id} {name}"
            );
            assert_eq!(c.generic, pmu_regs::perf::GenericEvent::from_name(name));
            assert_eq!(parse(id, &c.to_string()), c, "{id} {name}: {c}");
            checked += 1;
        }
        for name in kernel_has {
            assert!(
                matches!(refuse(id, name), PerfError::NoGenericEvent { event, .. } if event == name),
                "{id} {name}"
            );
        }
    }
    assert!(checked >= 40, "{checked}");
}

/// Aliases, modifiers, and the name of the model's own event with the kernel's encoding.
#[test]
fn generic_events_take_aliases_and_modifiers() {
    let c = parse("intel-skylake", "cycles:u");
    assert_eq!(
        (c.config, c.exclude_kernel, c.exclude_user),
        (0x3c, true, false)
    );
    assert_eq!(c.generic.map(|g| g.hw_id()), Some(0));
    assert_eq!(parse("intel-skylake", "branches").config, 0xc4);
    assert_eq!(
        parse("intel-skylake", "CYCLES:cmask=1:inv").config,
        0x0180_003c
    );
    // Skylake maps no stalled-cycles event (Linux sets them for Nehalem to Ivy Bridge).
    assert_eq!(
        refuse("intel-skylake", "stalled-cycles-frontend"),
        PerfError::NoGenericEvent {
            event: "stalled-cycles-frontend",
            generation: "intel-skylake",
        }
    );
    // The generation's own event of that encoding names it; ref-cycles stays fixed-only.
    assert_eq!(
        parse("intel-v3", "instructions").name,
        Some("INSTRUCTIONS_RETIRED")
    );
    assert_eq!(
        refuse("intel-skylake", "ref-cycles:cmask=1"),
        PerfError::FixedOnly {
            event: "CPU_CLK_UNHALTED.REF_TSC"
        }
    );
}

const EPYC_GUEST: &str = include_str!("../test_data/cpuid-dumps/amd-epyc-19h-01h-guest.txt");

fn dump(text: &str, edit: impl Fn(u32, &mut [u32; 4])) -> PmuInfo {
    let mut room = vec![CpuidEntry::new(0, 0, [0; 4]); 256];
    let read = pmu_regs::detect::parse_cpuid_dump(text, &mut room).unwrap();
    let entries: Vec<CpuidEntry> = (read.iter())
        .map(|e| {
            let mut r = [e.regs.eax, e.regs.ebx, e.regs.ecx, e.regs.edx];
            edit(e.leaf, &mut r);
            CpuidEntry::new(e.leaf, e.subleaf, r)
        })
        .collect();
    detect(&mut CpuidTable::new(&entries))
}

/// A Zen 3 guest without PerfCtrExtCore counts on the legacy counters, but the kernel still
/// maps generic events by the CPU's family (`amd_zen2_perfmon_event_map` on family 19h):
/// so does `parse_detected`, through the model the family/model names.
#[test]
fn a_zen_3_guest_gets_the_zen_table_on_the_legacy_counters() {
    let info = dump(EPYC_GUEST, |_, _| {});
    assert_eq!(info.generation, Some(Generation::AmdFam10h));
    let g = PerfConfig::detected_generic(&info).unwrap();
    assert_eq!(g.id, "amd-zen3");
    let c = PerfConfig::parse_detected(&info, "cache-references").unwrap();
    assert_eq!((c.pmu, c.config), ("cpu", 0xff60));
    assert_eq!(
        PerfConfig::parse_detected(&info, "cache-misses")
            .unwrap()
            .config,
        0x0964
    );
    assert_eq!(
        PerfConfig::parse_detected(&info, "stalled-cycles-frontend")
            .unwrap()
            .config,
        0x00a9
    );
    assert_eq!(
        PerfConfig::parse_detected(&info, "stalled-cycles-backend"),
        Err(PerfError::NoGenericEvent {
            event: "stalled-cycles-backend",
            generation: "amd-zen3",
        })
    );
}

/// An architectural event CPUID.0AH:EBX marks unavailable makes its generic event refused,
/// as the kernel's `intel_arch_events_quirk` drops it.
#[test]
fn an_unavailable_architectural_event_refuses_its_generic_event() {
    let v4 = |ebx: u32| {
        detect(&mut CpuidTable::new(&[
            CpuidEntry::new(0, 0, [0xA, 0x756E_6547, 0x6C65_746E, 0x4965_6E69]),
            CpuidEntry::new(0x1, 0, [0x0005_06E3, 0, 0, 0]),
            CpuidEntry::new(0xA, 0, [0x0730_0804, ebx, 0, 0x0000_0603]),
        ]))
    };
    let all = v4(0);
    assert_eq!(
        PerfConfig::parse_detected(&all, "branch-misses")
            .unwrap()
            .config,
        0xc5
    );
    // EBX bit 6: Branch Misses Retired is not available.
    let info = v4(1 << 6);
    assert_eq!(
        PerfConfig::parse_detected(&info, "branch-misses"),
        Err(PerfError::Unavailable {
            event: "branch-misses",
            arch_event: "BRANCH_MISSES_RETIRED",
        })
    );
    assert_eq!(
        PerfConfig::parse_detected(&info, "branches")
            .unwrap()
            .config,
        0xc4
    );
}
