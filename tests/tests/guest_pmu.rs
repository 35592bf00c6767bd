//! `pmu_regs::guest::GuestPmu`: the PMU MSRs a guest has and the bits it may write, on the real
//! guest dumps (`tests/test_data/cpuid-dumps/`), on hand-written guests
//! (`tests/test_data/guest-cpuid/`) and on CPUID tables built here; then against KVM.
//!
//! # The differential test
//!
//! `kvm_intel` and `kvm_amd` restate, as facts, the rules KVM applies to a guest's PMU MSRs
//! (Linux `arch/x86/kvm/vmx/pmu_intel.c` at torvalds/linux 0033fa35, `intel_pmu_refresh` and
//! `intel_pmu_set_msr`; `arch/x86/kvm/svm/pmu.c` at 02918f00, `amd_pmu_refresh` and
//! `amd_pmu_set_msr`; `arch/x86/kvm/pmu.c` for the global registers), with the host offering
//! every counter and feature. Random guest CPUIDs (Intel versions 1-6, 1-8 general counters,
//! 0-4 fixed counters with and without a bitmap, TSX, AnyThread deprecation, leaf 23H, PDCM,
//! FW_WRITE, PEBS_BASELINE and a PEBS format; AMD with and without PerfCtrExtCore and
//! PerfMonV2, 1-8 counters) get `GuestPmu`'s MSRs and masks, which must equal KVM's except
//! where listed below; `every_listed_difference_is_needed` shows each is. `GuestPmu` follows
//! the manuals through the definitions; KVM implements a subset, or chooses otherwise:
//!
//! - `anythread`: KVM reserves AnyThread (IA32_PERFEVTSELx bit 21, IA32_FIXED_CTR_CTRL bit
//!   4i+2) always; the SDM defines it from version 3 (Vol. 3B §18.2.3) until CPUID.0AH:EDX\[15\]
//!   deprecates it (§18.2.5, version 5).
//! - `early_tsx`: KVM allows IN_TX/IN_TXCP with TSX whatever the version; the definitions add
//!   them with version 3's event select (SDM Vol. 3B §18.3.6.5, Intel TSX performance
//!   monitoring, on processors that report version 3 or later).
//! - `adaptive`: KVM allows ADAPTIVE_RECORD (IA32_PERFEVTSELx bit 34, IA32_FIXED_CTR_CTRL bit
//!   32+4i) when PEBS_BASELINE and a PEBS record format are set; the definitions gate it on
//!   IA32_PERF_CAPABILITIES.PEBS_BASELINE\[14\] alone (SDM Vol. 3B, "Adaptive PEBS"), from
//!   version 5.
//! - `leaf_23h`: KVM (at that commit) knows neither UMASK2 (bits 47:40) nor EQ (bit 36);
//!   the SDM enables them by CPUID.23H.0:EBX\[0\] and \[1\] (version 6).
//! - `fixed_counters`: KVM gives min(CPUID.0AH:EDX\[4:0\], 3) fixed counters and ignores the
//!   bitmap; the SDM has fixed counter i when ECX\[i\] is set or EDX\[4:0\] > i (§18.2.5), and
//!   version 5 defines four.
//! - `status_bits`: KVM's IA32_PERF_GLOBAL_OVF_CTRL takes counter bits, OVF_BUF and
//!   COND_CHGD only; the SDM adds OVF_UNCORE (version 3), TRACE_TOPA_PMI, LBR_FRZ, CTR_FRZ and
//!   ASCI (version 4, §18.2.4).
//! - `perf_metrics`: KVM (at that commit) does not emulate PERF_METRICS; from version 5 with
//!   IA32_PERF_CAPABILITIES.PERF_METRICS_AVAILABLE\[15\] the SDM adds EN_PERF_METRICS and
//!   the OVF_PERF_METRICS bits (bit 48; Vol. 3B, "Performance Metrics").
//! - `status_set_in_use`: IA32_PERF_GLOBAL_STATUS_SET and IA32_PERF_GLOBAL_INUSE (version 4,
//!   SDM §18.2.4) are not emulated by KVM (a guest access faults).
//! - `v6_aliases`: the version 6 second addresses (19xxH) are not emulated by KVM at that
//!   commit.
//! - `fixed_counter_writes`: KVM truncates a fixed-counter write to the counter's width; under
//!   `Policy::Vendor` bits above it fault on Intel, as WRMSR does for reserved bits (SDM
//!   Vol. 2, WRMSR).
//! - `host_guest_only`: KVM reserves HostOnly/GuestOnly (PerfEvtSel bits 41:40); the APM
//!   defines them (Vol. 2 §13.2.1).
//! - `perfmon_v2_without_core`: for a guest reporting PerfMonV2 but not PerfCtrExtCore, KVM
//!   offers no core-extension MSRs; detection takes the deepest generation whose condition
//!   holds (`amd-perfmon-v2`, which extends `amd-core`), so `GuestPmu` offers them.
//!
//! - `pebs_enable`: KVM offers IA32_PEBS_ENABLE when IA32_PERF_CAPABILITIES reports a PEBS
//!   record format; `GuestPmu` does not list it: its bits are per counter (one per general
//!   counter, and per fixed counter with PEBS_BASELINE, SDM Vol. 3B "Adaptive PEBS") and
//!   before version 5 the SDM calls bits 3:1 "reserved or model specific" (§18.6.3.4), and
//!   the run-time field tables do not say which counter a field belongs to.
//! - `pebs_data_cfg`: KVM offers MSR_PEBS_DATA_CFG with PEBS_BASELINE and a PEBS format above
//!   3, whatever the version; the definitions from version 5 with PEBS_BASELINE (SDM Vol. 3B,
//!   "Adaptive PEBS", Ice Lake and later).
//!
//! IA32_PERF_CAPABILITIES is left out: KVM emulates it outside the code compared.

use pmu_regs::arch::Generation;
use pmu_regs::detect::{CpuidEntry, CpuidTable, parse_cpuid_dump};
use pmu_regs::guest::{Action, EventFilter, EventMatch, GuestFault, GuestMsr, GuestPmu, Policy};
use proptest::prelude::*;
use std::collections::BTreeMap;

const XEON: &str = include_str!("../test_data/cpuid-dumps/intel-xeon-06cf-guest.txt");
const EPYC: &str = include_str!("../test_data/cpuid-dumps/amd-epyc-19h-01h-guest.txt");
const INTEL_V5: &str = include_str!("../test_data/guest-cpuid/intel-v5-guest.txt");
const AMD_V2: &str = include_str!("../test_data/guest-cpuid/amd-perfmonv2-guest.txt");

fn entries(text: &str) -> Vec<CpuidEntry> {
    let mut room = vec![CpuidEntry::new(0, 0, [0; 4]); 512];
    parse_cpuid_dump(text, &mut room).expect("dump").to_vec()
}

fn guest(entries: &[CpuidEntry], caps: Option<u64>) -> GuestPmu<'static> {
    GuestPmu::from_cpuid(&mut CpuidTable::new(entries), caps)
}

fn mask(g: &GuestPmu, msr: u32) -> u64 {
    g.msr(msr)
        .unwrap_or_else(|| panic!("the guest has no MSR {msr:#x}"))
        .write_mask
}

fn addresses(g: &GuestPmu) -> Vec<u32> {
    g.msrs().map(|m| m.address).collect()
}

#[test]
fn a_guest_without_a_pmu_has_no_pmu_msrs() {
    // Leaf 0AH all zero, and no PDCM.
    let g = guest(&entries(XEON), Some(1 << 13));
    assert_eq!(g.generation(), None);
    assert_eq!(g.msrs().count(), 0);
    assert_eq!(
        g.perf_capabilities(),
        0,
        "no PDCM: no IA32_PERF_CAPABILITIES"
    );
    assert_eq!(
        g.check_read(0x186).unwrap_err(),
        GuestFault::NoSuchMsr { msr: 0x186 }
    );
    assert_eq!(
        g.check_write(0x38F, 0).unwrap_err(),
        GuestFault::NoSuchMsr { msr: 0x38F }
    );
}

#[test]
fn the_epyc_guest_has_the_four_legacy_counters_only() {
    // PerfCtrExtCore clear: the four K7 event selects and counters (AMD APM Vol. 2 §13.2.1).
    let g = guest(&entries(EPYC), None);
    assert_eq!(g.generation(), Some(Generation::AmdFam10h));
    let want: Vec<u32> = (0xC001_0000..=0xC001_0007).collect();
    assert_eq!(addresses(&g), want);
    assert!(g.msr(0xC001_0200).is_none(), "no core-extension MSRs");
    assert!(g.msr(0xC000_0301).is_none(), "no PerfMonV2 global control");
    // Bits 19 and 21 and 63:42 and 39:36 are reserved in PerfEvtSel; the policy masks them.
    let sel = g.msr(0xC001_0000).unwrap();
    assert_eq!(sel.write_mask, 0x0000_030F_FFD7_FFFF);
    assert_eq!(sel.action, Action::Mask);
    let w = g.check_write(0xC001_0000, (1 << 21) | 0x4300C0).unwrap();
    assert_eq!((w.value, w.dropped), (0x4300C0, 1 << 21));
    let strict = g.with_policy(Policy::Strict);
    assert!(matches!(
        strict.check_write(0xC001_0000, 1 << 21),
        Err(GuestFault::Reserved { reserved, .. }) if reserved == 1 << 21
    ));
    // Counters are 48 bits; the rest is dropped.
    let w = g.check_write(0xC001_0004, u64::MAX).unwrap();
    assert_eq!(w.value, (1 << 48) - 1);
}

#[test]
fn the_v5_guest_masks_follow_its_cpuid_and_capabilities() {
    let e = entries(INTEL_V5);
    let g = guest(&e, None);
    assert_eq!(g.generation(), Some(Generation::IntelV5));
    // Event select: bits 20:0, EN/INV/CMASK (31:22) and IN_TX (32, TSX); AnyThread (21) is
    // deprecated by CPUID.0AH:EDX[15]; IN_TXCP (33) only on IA32_PERFEVTSEL2; ADAPTIVE_RECORD
    // (34) needs PEBS_BASELINE.
    assert_eq!(mask(&g, 0x186), 0x1_FFDF_FFFF);
    assert_eq!(mask(&g, 0x188), 0x3_FFDF_FFFF);
    // Four general counters: no IA32_PERFEVTSEL4, no IA32_PMC4.
    assert!(g.msr(0x18A).is_none() && g.msr(0xC5).is_none());
    // Fixed counters 0-2: ENABLE and PMI of each (AnyThread deprecated).
    assert_eq!(mask(&g, 0x38D), 0xBBB);
    assert!(
        g.msr(0x30C).is_none(),
        "fixed counter 3 is not in the bitmap"
    );
    // Global control: EN_PMC0-3, EN_FIXED_CTR0-2.
    assert_eq!(mask(&g, 0x38F), 0x7_0000_000F);
    assert_eq!(mask(&g, 0x38E), 0, "IA32_PERF_GLOBAL_STATUS is read-only");
    // No FW_WRITE: no full-width aliases.
    assert!(g.msr(0x4C1).is_none());

    // FW_WRITE (13), PEBS_BASELINE (14), PEBS format 4.
    let g = guest(&e, Some(0x6400));
    assert_eq!(mask(&g, 0x4C1), (1 << 48) - 1);
    assert!(g.msr(0x4C5).is_none());
    assert_eq!(mask(&g, 0x186), 0x5_FFDF_FFFF);
    assert_eq!(mask(&g, 0x38D), 0x111_0000_0BBB);
    assert_eq!(mask(&g, 0x390) & (1 << 48), 0, "no PERF_METRICS");

    // PERF_METRICS_AVAILABLE (15): EN_PERF_METRICS and its overflow bit (48).
    let g = guest(&e, Some(1 << 15));
    assert_eq!(mask(&g, 0x38F), 0x1_0007_0000_000F);
    assert_eq!(mask(&g, 0x390) & (1 << 48), 1 << 48);
    assert_eq!(mask(&g, 0x391) & (1 << 48), 1 << 48);
}

#[test]
fn intel_writes_fault_on_reserved_bits_and_missing_msrs() {
    let g = guest(&entries(INTEL_V5), None);
    let fault = g.check_write(0x186, 0x53_003C | 1 << 21).unwrap_err();
    assert_eq!(
        fault,
        GuestFault::Reserved {
            msr: 0x186,
            name: g.msr(0x186).unwrap().name(),
            value: 0x53_003C | 1 << 21,
            reserved: 1 << 21,
        }
    );
    assert_eq!(
        fault.to_string(),
        "MSR 0x186 (IA32_PERFEVTSEL0): 0x73003c sets bits 0x200000, reserved for this guest (#GP)"
    );
    // IN_TXCP: only on IA32_PERFEVTSEL2.
    assert!(g.check_write(0x186, 1 << 33).is_err());
    assert_eq!(g.check_write(0x188, 1 << 33).unwrap().value, 1 << 33);
    // A read-only register.
    assert!(matches!(
        g.check_write(0x38E, 0),
        Err(GuestFault::ReadOnly { msr: 0x38E, .. })
    ));
    assert_eq!(g.check_read(0x38E).unwrap().address, 0x38E);
    // Legacy counter writes take bits 31:0, sign-extended to the counter's 48 bits.
    let w = g.check_write(0xC1, 0xDEAD_0000_8000_0000).unwrap();
    assert_eq!(w.msr.action, Action::SignExtend32);
    assert_eq!(w.value, 0xFFFF_8000_0000);
    // A fixed counter: bits above its 48 bits fault.
    assert!(g.check_write(0x309, 1 << 48).is_err());
    assert!(matches!(
        g.check_write(0xC5, 0),
        Err(GuestFault::NoSuchMsr { msr: 0xC5 })
    ));
}

/// An AMD guest with PerfCtrExtCore and PerfMonV2 reporting `counters` core counters.
fn amd_v2(counters: u32) -> Vec<CpuidEntry> {
    let mut e = entries(AMD_V2);
    for x in &mut e {
        if x.leaf == 0x8000_0022 {
            x.regs.ebx = counters;
        }
    }
    e
}

#[test]
fn the_perfmonv2_guest_has_core_and_global_msrs_for_its_counters() {
    let g = guest(&entries(AMD_V2), None);
    assert_eq!(g.generation(), Some(Generation::AmdPerfmonV2));
    let mut want: Vec<u32> = (0xC001_0000..=0xC001_0007).collect();
    want.extend((0..6).map(|n| 0xC001_0200 + 2 * n));
    want.extend((0..6).map(|n| 0xC001_0201 + 2 * n));
    want.extend(0xC000_0300..=0xC000_0303);
    assert_eq!(addresses(&g), want);
    assert_eq!(mask(&g, 0xC000_0301), 0x3F);
    assert_eq!(mask(&g, 0xC000_0302), 0x3F);
    // Global registers fault on reserved bits whatever the policy.
    let lenient = g.with_policy(Policy::Lenient);
    assert!(lenient.check_write(0xC000_0301, 1 << 6).is_err());
    assert!(matches!(
        g.check_write(0xC000_0300, 0),
        Err(GuestFault::ReadOnly { .. })
    ));

    // Three counters: the fourth legacy pair and the upper core pairs are gone, and so are
    // their global bits.
    let g = guest(&amd_v2(3), None);
    assert!(g.msr(0xC001_0003).is_none() && g.msr(0xC001_0007).is_none());
    assert!(g.msr(0xC001_0206).is_none());
    assert_eq!(mask(&g, 0xC000_0301), 0x7);
    assert!(g.check_write(0xC000_0301, 0x8).is_err());
}

#[test]
fn the_filter_marks_denied_event_selects() {
    let deny = [EventMatch::exact(0x2E, 0x41), EventMatch::any_umask(0x1C0)];
    let e = entries(INTEL_V5);
    let g = guest(&e, None).with_filter(EventFilter::deny(&deny));
    let w = g.check_write(0x186, 0x43_412E).unwrap();
    assert!(w.filtered, "LLC misses are denied");
    assert_eq!(w.value, 0x43_412E, "the guest reads back what it wrote");
    assert!(!g.check_write(0x186, 0x43_4F2E).unwrap().filtered);
    assert!(
        !g.check_write(0x38F, 1).unwrap().filtered,
        "not an event select"
    );

    // AMD's 12-bit event select: bits 7:0 and 35:32.
    let g = guest(&entries(AMD_V2), None).with_filter(EventFilter::deny(&deny));
    assert!(g.check_write(0xC001_0200, 0x1_0043_00C0).unwrap().filtered);
    assert!(!g.check_write(0xC001_0200, 0x43_00C0).unwrap().filtered);
    let allow = [EventMatch::exact(0xC0, 0)];
    let g = g.with_filter(EventFilter::allow(&allow));
    assert!(!g.check_write(0xC001_0000, 0x43_00C0).unwrap().filtered);
    assert!(g.check_write(0xC001_0000, 0x43_0076).unwrap().filtered);
}

/// An Intel guest: `version`, `gp` general counters of 48 bits, `fixed` fixed counters (count
/// in EDX\[4:0\]; `bitmap` in ECX from version 5), leaf 07H EBX, leaf 23H EBX (with
/// ArchPerfmonExt when `Some`), PDCM, AnyThread deprecated.
#[allow(clippy::too_many_arguments)]
fn intel(
    version: u32,
    gp: u32,
    fixed: u32,
    bitmap: u32,
    leaf7_ebx: u32,
    leaf23_ebx: Option<u32>,
    pdcm: bool,
    anythread_deprecated: bool,
) -> Vec<CpuidEntry> {
    let ext = leaf23_ebx.is_some();
    vec![
        CpuidEntry::new(0, 0, [0x23, 0x756E_6547, 0x6C65_746E, 0x4965_6E69]),
        CpuidEntry::new(1, 0, [0x0000_0611, 0, (1 << 31) | ((pdcm as u32) << 15), 0]),
        CpuidEntry::new(7, 0, [ext as u32, leaf7_ebx, 0, 0]),
        CpuidEntry::new(7, 1, [(ext as u32) << 8, 0, 0, 0]),
        CpuidEntry::new(
            0xA,
            0,
            [
                version | gp << 8 | 48 << 16 | 7 << 24,
                0,
                bitmap,
                fixed | 48 << 5 | (anythread_deprecated as u32) << 15,
            ],
        ),
        CpuidEntry::new(0x23, 0, [1, leaf23_ebx.unwrap_or(0), 0, 0]),
    ]
}

#[test]
fn version_6_adds_the_alias_range_and_leaf_23h_fields() {
    let g = guest(&intel(6, 2, 3, 0x7, 0, Some(0b11), true, true), None);
    assert_eq!(g.generation(), Some(Generation::IntelV6));
    // UMASK2 (47:40) and EQ (36) with CPUID.23H.0:EBX[0] and [1].
    assert_eq!(mask(&g, 0x186), 0xFF10_FFDF_FFFF);
    let alias = g.msr(0x1901).expect("IA32_PERFEVTSEL0 at 1901H");
    assert_eq!(alias.name().to_string(), "IA32_PERFEVTSEL0");
    assert_eq!(alias.write_mask, mask(&g, 0x186));
    assert!(g.msr(0x1909).is_none(), "no third counter");
    // Without ArchPerfmonExt, leaf 23H is not enumerated: both are reserved.
    let g = guest(&intel(6, 2, 3, 0x7, 0, None, true, true), None);
    assert_eq!(mask(&g, 0x186), 0xFFDF_FFFF);
    let only_eq = guest(&intel(6, 2, 3, 0x7, 0, Some(0b10), true, true), None);
    assert_eq!(mask(&only_eq, 0x186), 0x10_FFDF_FFFF);
}

#[test]
fn capabilities_are_read_only_and_present_with_pdcm() {
    let with = guest(&intel(4, 4, 3, 0, 0, None, true, false), Some(1 << 13));
    let caps: &GuestMsr = &with.msr(0x345).expect("PDCM: IA32_PERF_CAPABILITIES");
    assert_eq!(caps.write_mask, 0);
    assert!(with.check_write(0x345, 0).is_err());
    assert!(with.msr(0x4C4).is_some(), "FW_WRITE: IA32_A_PMC3");
    // Version 4 keeps AnyThread.
    assert_eq!(mask(&with, 0x186) & (1 << 21), 1 << 21);
    assert_eq!(mask(&with, 0x38D), 0xFFF);
    let without = guest(&intel(4, 4, 3, 0, 0, None, false, false), Some(1 << 13));
    assert!(without.msr(0x345).is_none() && without.msr(0x4C1).is_none());
}

// ---------------------------------------------------------------------------------------
// The differential test: KVM's rules against `GuestPmu`.
// ---------------------------------------------------------------------------------------

/// What one guest MSR accepts: the bits it may write, and what a write of others does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rule {
    mask: u64,
    action: Action,
}

type Rules = BTreeMap<u32, Rule>;

const fn rule(mask: u64, action: Action) -> Rule {
    Rule { mask, action }
}

const WIDTH: u64 = (1 << 48) - 1;

/// An Intel guest as the proptest draws it.
#[derive(Clone, Copy, Debug)]
struct IntelGuest {
    version: u32,
    gp: u32,
    /// CPUID.0AH:EDX\[4:0\].
    fixed: u32,
    /// CPUID.0AH:ECX (read from version 5 on).
    bitmap: u32,
    tsx: bool,
    anythread_deprecated: bool,
    /// CPUID.23H.0:EBX with ArchPerfmonExt, or no leaf 23H.
    leaf23: Option<u32>,
    pdcm: bool,
    fw_write: bool,
    pebs_baseline: bool,
    /// IA32_PERF_CAPABILITIES.PEBS_REC_FMT non-zero.
    pebs_format: bool,
    /// IA32_PERF_CAPABILITIES.PERF_METRICS_AVAILABLE.
    perf_metrics: bool,
    /// CPUID.01H:EDX.DS\[21\] (the debug store).
    ds: bool,
}

impl IntelGuest {
    fn cpuid(&self) -> Vec<CpuidEntry> {
        let tsx = if self.tsx { (1 << 4) | (1 << 11) } else { 0 };
        let mut e = intel(
            self.version,
            self.gp,
            self.fixed,
            self.bitmap,
            tsx,
            self.leaf23,
            self.pdcm,
            self.anythread_deprecated,
        );
        if let Some(leaf1) = e.iter_mut().find(|x| x.leaf == 1) {
            leaf1.regs.edx |= (self.ds as u32) << 21;
        }
        e
    }

    fn caps(&self) -> u64 {
        (self.fw_write as u64) << 13
            | (self.pebs_baseline as u64) << 14
            | (self.pebs_format as u64) << 10
            | (self.perf_metrics as u64) << 15
    }
}

/// The places where `GuestPmu` (the SDM, through the definitions) and KVM differ, each on its
/// own so that a test can show it is needed. See the module documentation for the reasons.
#[derive(Clone, Copy, Debug, Default)]
struct Differences {
    anythread: bool,
    early_tsx: bool,
    adaptive: bool,
    leaf_23h: bool,
    fixed_counters: bool,
    status_bits: bool,
    perf_metrics: bool,
    status_set_in_use: bool,
    v6_aliases: bool,
    fixed_counter_writes: bool,
    host_guest_only: bool,
    perfmon_v2_without_core: bool,
    pebs_enable: bool,
    pebs_data_cfg: bool,
}

const ALL: Differences = Differences {
    anythread: true,
    early_tsx: true,
    adaptive: true,
    leaf_23h: true,
    fixed_counters: true,
    status_bits: true,
    perf_metrics: true,
    status_set_in_use: true,
    v6_aliases: true,
    fixed_counter_writes: true,
    host_guest_only: true,
    perfmon_v2_without_core: true,
    pebs_enable: true,
    pebs_data_cfg: true,
};

/// KVM's Intel rules (`arch/x86/kvm/vmx/pmu_intel.c` at torvalds/linux 0033fa35:
/// `intel_pmu_refresh`, `intel_pmu_set_msr`, `intel_is_valid_msr`; `arch/x86/kvm/pmu.c`
/// `kvm_pmu_set_msr` for the global registers), with the host assumed to offer everything,
/// and the differences `d` applied.
fn kvm_intel(g: &IntelGuest, d: Differences) -> Rules {
    let mut r = Rules::new();
    let v = g.version;
    let gp = g.gp.min(8);
    // KVM: no fixed counters in version 1, else min(EDX[4:0], 3) (its table of fixed-counter
    // events has three entries); the version 5 bitmap is not read.
    let fixed_set = if v == 1 {
        0
    } else if d.fixed_counters {
        let defined = if v >= 5 { 4 } else { 3 };
        let bitmap = if v >= 5 { g.bitmap } else { 0 };
        (((1u32 << g.fixed.min(defined)) - 1) | bitmap) & ((1 << defined) - 1)
    } else {
        (1u32 << g.fixed.min(3)) - 1
    };
    let caps = if g.pdcm { g.caps() } else { 0 };
    let baseline = caps & (1 << 14) != 0;
    // KVM: reserved 0xFFFFFFFF00200000; TSX clears IN_TX, and IN_TXCP on counter 2;
    // PEBS_BASELINE with a PEBS format clears ADAPTIVE (bit 34).
    let mut select = !0xFFFF_FFFF_0020_0000u64;
    let tsx = g.tsx && !(d.early_tsx && v < 3);
    if tsx {
        select |= 1 << 32;
    }
    let adaptive = if d.adaptive {
        baseline && v >= 5
    } else {
        baseline && caps & (0xF << 8) != 0
    };
    if adaptive {
        select |= 1 << 34;
    }
    // KVM reserves AnyThread (bit 21) always. CPUID.0AH:EDX[15] deprecates it from version 5
    // (the bit is reserved before).
    let anythread = d.anythread && v >= 3 && !(v >= 5 && g.anythread_deprecated);
    if anythread {
        select |= 1 << 21;
    }
    if d.leaf_23h && v >= 6 {
        let ebx = g.leaf23.unwrap_or(0);
        if ebx & 1 != 0 {
            select |= 0xFF << 40;
        }
        if ebx & 2 != 0 {
            select |= 1 << 36;
        }
    }
    let fixed_action = if d.fixed_counter_writes {
        Action::Fault
    } else {
        Action::Mask
    };
    let fw = caps & (1 << 13) != 0;
    for i in 0..gp {
        let sel = if i == 2 && tsx {
            select | 1 << 33
        } else {
            select
        };
        r.insert(0xC1 + i, rule(WIDTH, Action::SignExtend32));
        r.insert(0x186 + i, rule(sel, Action::Fault));
        if fw {
            r.insert(0x4C1 + i, rule(WIDTH, Action::Fault));
        }
        if d.v6_aliases && v >= 6 {
            r.insert(0x1900 + 4 * i, rule(WIDTH, Action::SignExtend32));
            r.insert(0x1901 + 4 * i, rule(sel, Action::Fault));
        }
    }
    let (mut ctrl, mut fixed_ctrl) = (u64::from((1u32 << gp) - 1), 0);
    for i in (0..4).filter(|i| fixed_set & (1 << i) != 0) {
        r.insert(0x309 + i, rule(WIDTH, fixed_action));
        if d.v6_aliases && v >= 6 {
            r.insert(0x1980 + 4 * i, rule(WIDTH, fixed_action));
        }
        ctrl |= 1 << (32 + i);
        fixed_ctrl |= 0xB << (4 * i);
        if anythread {
            fixed_ctrl |= 1 << (4 * i + 2);
        }
        if adaptive {
            fixed_ctrl |= 1 << (32 + 4 * i);
        }
    }
    if v > 1 {
        // OVF_BUF (62) and COND_CHGD (63) besides the counters.
        let mut status = ctrl | 3 << 62;
        if d.status_bits {
            if v >= 3 {
                status |= 1 << 61;
            }
            if v >= 4 {
                status |= (1 << 55) | (0b111 << 58);
            }
        }
        if d.perf_metrics && v >= 5 && caps & (1 << 15) != 0 {
            ctrl |= 1 << 48;
            status |= 1 << 48;
        }
        r.insert(0x38D, rule(fixed_ctrl, Action::Fault));
        r.insert(0x38E, rule(0, Action::Fault));
        r.insert(0x38F, rule(ctrl, Action::Fault));
        r.insert(0x390, rule(status, Action::Fault));
        if d.status_set_in_use && v >= 4 {
            r.insert(0x391, rule(status & !(1 << 63), Action::Fault));
            r.insert(0x392, rule(0, Action::Fault));
        }
    }
    pebs(&mut r, g, d, caps, gp);
    r
}

/// KVM's PEBS and debug-store MSRs (`intel_is_valid_msr`, `intel_pmu_set_msr`,
/// `intel_pmu_refresh`): IA32_DS_AREA with CPUID DS (any canonical address); IA32_PEBS_ENABLE
/// with a PEBS record format, a bit per general counter, and per fixed counter (32 + i) with
/// PEBS_BASELINE; MSR_PEBS_DATA_CFG with PEBS_BASELINE and a format above 3, bits 3:0 and
/// 31:24. With the differences `d`, the definitions' presence and masks instead.
fn pebs(r: &mut Rules, g: &IntelGuest, d: Differences, caps: u64, gp: u32) {
    let v = g.version;
    let (format, baseline) = (caps & (0xF << 8), caps & (1 << 14) != 0);
    let gp_bits = (1u64 << gp) - 1;
    if g.ds {
        r.insert(0x600, rule(!0, Action::Fault));
    }
    let fixed_kvm = if v == 1 {
        0
    } else {
        (1u64 << g.fixed.min(3)) - 1
    };
    let enable = if d.pebs_enable {
        None
    } else {
        (format != 0).then_some(if baseline {
            fixed_kvm << 32 | gp_bits
        } else {
            gp_bits
        })
    };
    if let Some(mask) = enable {
        r.insert(0x3F1, rule(mask, Action::Fault));
    }
    let data_cfg = if d.pebs_data_cfg {
        baseline && v >= 5
    } else {
        baseline && format > 3 << 8
    };
    if data_cfg {
        r.insert(0x3F2, rule(0xFF00_000F, Action::Fault));
    }
}

/// An AMD guest as the proptest draws it.
#[derive(Clone, Copy, Debug)]
struct AmdGuest {
    /// Fn8000_0001_ECX\[23\] PerfCtrExtCore.
    core: bool,
    /// Fn8000_0022_EAX\[0\] PerfMonV2, with Fn8000_0022_EBX\[3:0\] counters.
    v2: Option<u32>,
}

impl AmdGuest {
    fn cpuid(&self) -> Vec<CpuidEntry> {
        vec![
            CpuidEntry::new(0, 0, [0x10, 0x6874_7541, 0x444D_4163, 0x6974_6E65]),
            CpuidEntry::new(1, 0, [0x00A1_0F11, 0, 1 << 31, 0]),
            CpuidEntry::new(0x8000_0000, 0, [0x8000_0022, 0, 0, 0]),
            CpuidEntry::new(0x8000_0001, 0, [0, 0, (self.core as u32) << 23, 0]),
            CpuidEntry::new(
                0x8000_0022,
                0,
                [self.v2.is_some() as u32, self.v2.unwrap_or(0), 0, 0],
            ),
        ]
    }
}

/// KVM's AMD rules (`arch/x86/kvm/svm/pmu.c` at torvalds/linux 02918f00: `amd_pmu_refresh`,
/// `get_gp_pmc_amd`, `amd_is_valid_msr`, `amd_pmu_set_msr`; `arch/x86/kvm/pmu.c` for the
/// global registers), with the host assumed to offer six counters, and the differences `d`.
fn kvm_amd(g: &AmdGuest, d: Differences) -> Rules {
    let mut r = Rules::new();
    // PerfMonV2: Fn8000_0022_EBX[3:0] counters; else six with PerfCtrExtCore, else four.
    let gp = match (g.v2, g.core) {
        (Some(n), _) => n.min(6),
        (None, true) => 6,
        (None, false) => 4,
    };
    // Reserved 0xFFFFFFF000280000, masked rather than faulting.
    let mut select = !0xFFFF_FFF0_0028_0000u64;
    if d.host_guest_only {
        select |= 0b11 << 40;
    }
    let core = g.core || (d.perfmon_v2_without_core && g.v2.is_some());
    for i in 0..gp {
        if i < 4 {
            r.insert(0xC001_0000 + i, rule(select, Action::Mask));
            r.insert(0xC001_0004 + i, rule(WIDTH, Action::Mask));
        }
        if core {
            r.insert(0xC001_0200 + 2 * i, rule(select, Action::Mask));
            r.insert(0xC001_0201 + 2 * i, rule(WIDTH, Action::Mask));
        }
    }
    if g.v2.is_some() {
        let counters = (1u64 << gp) - 1;
        r.insert(0xC000_0300, rule(0, Action::Fault));
        r.insert(0xC000_0301, rule(counters, Action::Fault));
        r.insert(0xC000_0302, rule(counters, Action::Fault));
        r.insert(0xC000_0303, rule(counters, Action::Fault));
    }
    r
}

/// `GuestPmu`'s rules, IA32_PERF_CAPABILITIES aside (KVM emulates it outside the PMU code
/// compared here).
fn guest_rules(entries: &[CpuidEntry], caps: Option<u64>) -> Rules {
    guest(entries, caps)
        .msrs()
        .filter(|m| m.address != 0x345)
        .map(|m| (m.address, rule(m.write_mask, m.action)))
        .collect()
}

fn intel_guests() -> impl Strategy<Value = IntelGuest> {
    let counters = (
        1..=6u32,
        1..=8u32,
        0..=4u32,
        prop_oneof![Just(0u32), 0..=0xFu32],
    );
    let features = (
        any::<bool>(),
        any::<bool>(),
        prop::option::of(0..=3u32),
        any::<bool>(),
    );
    let caps = (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    );
    (counters, features, caps).prop_map(
        |((version, gp, fixed, bitmap), (tsx, anythread_deprecated, leaf23, ds), caps)| {
            IntelGuest {
                version,
                gp,
                fixed,
                bitmap,
                tsx,
                anythread_deprecated,
                leaf23,
                pdcm: caps.0,
                fw_write: caps.1,
                pebs_baseline: caps.2,
                pebs_format: caps.3,
                perf_metrics: caps.4,
                ds,
            }
        },
    )
}

fn amd_guests() -> impl Strategy<Value = AmdGuest> {
    (any::<bool>(), prop::option::of(1..=8u32)).prop_map(|(core, v2)| AmdGuest { core, v2 })
}

fn diff(kvm: &Rules, ours: &Rules) -> String {
    let keys: std::collections::BTreeSet<_> = kvm.keys().chain(ours.keys()).collect();
    keys.into_iter()
        .filter(|k| kvm.get(k) != ours.get(k))
        .map(|k| {
            format!(
                "{k:#x}: KVM {:x?}, GuestPmu {:x?}\n",
                kvm.get(k),
                ours.get(k)
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn intel_guests_get_kvms_masks_but_for_the_listed_differences(g in intel_guests()) {
        let ours = guest_rules(&g.cpuid(), Some(g.caps()));
        let kvm = kvm_intel(&g, ALL);
        prop_assert!(kvm == ours, "{g:?}\n{}", diff(&kvm, &ours));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn amd_guests_get_kvms_masks_but_for_the_listed_differences(g in amd_guests()) {
        let ours = guest_rules(&g.cpuid(), None);
        let kvm = kvm_amd(&g, ALL);
        prop_assert!(kvm == ours, "{g:?}\n{}", diff(&kvm, &ours));
    }
}

/// A difference's name, a guest it shows on, and how to leave it out.
type Case<G> = (&'static str, G, fn(&mut Differences));

/// Every listed difference is needed: for each, some guest's masks differ from KVM's without
/// it.
#[test]
fn every_listed_difference_is_needed() {
    let base = IntelGuest {
        version: 5,
        gp: 4,
        fixed: 3,
        bitmap: 0,
        tsx: false,
        anythread_deprecated: false,
        leaf23: None,
        pdcm: true,
        fw_write: false,
        pebs_baseline: false,
        pebs_format: false,
        perf_metrics: false,
        ds: false,
    };
    let intel_cases: [Case<IntelGuest>; 12] = [
        ("anythread", base, |d| d.anythread = false),
        (
            "early_tsx",
            IntelGuest {
                version: 2,
                tsx: true,
                ..base
            },
            |d| d.early_tsx = false,
        ),
        (
            "adaptive",
            IntelGuest {
                pebs_baseline: true,
                ..base
            },
            |d| d.adaptive = false,
        ),
        (
            "leaf_23h",
            IntelGuest {
                version: 6,
                leaf23: Some(3),
                ..base
            },
            |d| d.leaf_23h = false,
        ),
        (
            "fixed_counters",
            IntelGuest {
                bitmap: 0b1000,
                ..base
            },
            |d| d.fixed_counters = false,
        ),
        ("status_bits", base, |d| d.status_bits = false),
        (
            "perf_metrics",
            IntelGuest {
                perf_metrics: true,
                ..base
            },
            |d| d.perf_metrics = false,
        ),
        ("status_set_in_use", base, |d| d.status_set_in_use = false),
        ("v6_aliases", IntelGuest { version: 6, ..base }, |d| {
            d.v6_aliases = false
        }),
        ("fixed_counter_writes", base, |d| {
            d.fixed_counter_writes = false
        }),
        (
            "pebs_enable",
            IntelGuest {
                pebs_format: true,
                ..base
            },
            |d| d.pebs_enable = false,
        ),
        (
            "pebs_data_cfg",
            IntelGuest {
                version: 4,
                pebs_baseline: true,
                pebs_format: true,
                ..base
            },
            |d| d.pebs_data_cfg = false,
        ),
    ];
    for (name, g, off) in intel_cases {
        let ours = guest_rules(&g.cpuid(), Some(g.caps()));
        assert_eq!(kvm_intel(&g, ALL), ours, "{name}: {g:?}");
        let mut d = ALL;
        off(&mut d);
        assert_ne!(kvm_intel(&g, d), ours, "{name} changes nothing for {g:?}");
    }
    let amd_cases: [Case<AmdGuest>; 2] = [
        (
            "host_guest_only",
            AmdGuest {
                core: true,
                v2: None,
            },
            |d| d.host_guest_only = false,
        ),
        (
            "perfmon_v2_without_core",
            AmdGuest {
                core: false,
                v2: Some(6),
            },
            |d| d.perfmon_v2_without_core = false,
        ),
    ];
    for (name, g, off) in amd_cases {
        let ours = guest_rules(&g.cpuid(), None);
        assert_eq!(kvm_amd(&g, ALL), ours, "{name}: {g:?}");
        let mut d = ALL;
        off(&mut d);
        assert_ne!(kvm_amd(&g, d), ours, "{name} changes nothing for {g:?}");
    }
}

/// Any CPUID (the PMU leaves with random values, either vendor) and any IA32_PERF_CAPABILITIES:
/// nothing panics, and every write is refused or lets through only bits of its mask.
fn any_cpuid() -> impl Strategy<Value = (Vec<CpuidEntry>, u64)> {
    let regs = || any::<[u32; 4]>();
    let leaves = prop::collection::vec(regs(), 9);
    (any::<bool>(), 0..0x30u32, leaves, any::<u64>()).prop_map(|(amd, max, r, caps)| {
        let vendor = if amd {
            [0x6874_7541, 0x444D_4163, 0x6974_6E65]
        } else {
            [0x756E_6547, 0x6C65_746E, 0x4965_6E69]
        };
        let mut e = vec![CpuidEntry::new(
            0,
            0,
            [max, vendor[0], vendor[1], vendor[2]],
        )];
        let at = [
            (1, 0),
            (7, 0),
            (7, 1),
            (0xA, 0),
            (0x23, 0),
            (0x23, 1),
            (0x8000_0000, 0),
            (0x8000_0001, 0),
            (0x8000_0022, 0),
        ];
        for ((leaf, sub), regs) in at.into_iter().zip(r) {
            e.push(CpuidEntry::new(leaf, sub, regs));
        }
        (e, caps)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_guest_is_checked_without_panics(
        (entries, caps) in any_cpuid(),
        value in any::<u64>(),
        other in any::<u32>(),
        policy in prop_oneof![Just(Policy::Vendor), Just(Policy::Strict), Just(Policy::Lenient)],
    ) {
        let g = guest(&entries, Some(caps)).with_policy(policy);
        for m in g.msrs().chain(g.msr(other)) {
            prop_assert_eq!(g.msr(m.address).map(|x| x.address), Some(m.address));
            let _ = g.check_read(m.address);
            match g.check_write(m.address, value) {
                Ok(w) => {
                    prop_assert_eq!(w.value & !m.write_mask, 0, "{:?}", m);
                    if m.action == Action::Fault {
                        prop_assert_eq!(w.value, value);
                    }
                }
                Err(GuestFault::Reserved { reserved, .. }) => {
                    prop_assert_eq!(m.action, Action::Fault);
                    prop_assert_eq!(reserved, value & !m.write_mask);
                    prop_assert!(reserved != 0);
                }
                Err(GuestFault::ReadOnly { .. }) => {}
                Err(e) => prop_assert!(false, "{e} for a listed MSR"),
            }
        }
    }
}
