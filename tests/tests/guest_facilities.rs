//! `pmu_regs::guest::GuestPmu` and a guest's facilities: IBS, AMD's LBR v2 stack and
//! Intel's architectural LBRs are the guest's when its CPUID enumerates them, register by
//! register (`requires:`) and record by record (`count-from:`), on the hand-written guests
//! of `tests/test_data/guest-cpuid/` with the facility bits added here.

use pmu_regs::arch::Facility;
use pmu_regs::detect::{CpuidEntry, CpuidTable, parse_cpuid_dump};
use pmu_regs::guest::{Action, GuestFault, GuestPmu, Policy};

const INTEL_V5: &str = include_str!("../test_data/guest-cpuid/intel-v5-guest.txt");
const AMD_V2: &str = include_str!("../test_data/guest-cpuid/amd-perfmonv2-guest.txt");

fn entries(text: &str) -> Vec<CpuidEntry> {
    let mut room = vec![CpuidEntry::new(0, 0, [0; 4]); 512];
    parse_cpuid_dump(text, &mut room).expect("dump").to_vec()
}

/// `e` with leaf `leaf`/`subleaf` set to `regs` (EAX, EBX, ECX, EDX), added if missing.
fn set(mut e: Vec<CpuidEntry>, leaf: u32, subleaf: u32, regs: [u32; 4]) -> Vec<CpuidEntry> {
    e.retain(|x| (x.leaf, x.subleaf) != (leaf, subleaf));
    e.push(CpuidEntry::new(leaf, subleaf, regs));
    e
}

/// `e` with `bits` set in output register `reg` (0 EAX .. 3 EDX) of `leaf`/`subleaf`.
fn or(e: Vec<CpuidEntry>, leaf: u32, subleaf: u32, reg: usize, bits: u32) -> Vec<CpuidEntry> {
    let old = e.iter().find(|x| (x.leaf, x.subleaf) == (leaf, subleaf));
    let mut regs = old.map_or([0; 4], |x| [x.regs.eax, x.regs.ebx, x.regs.ecx, x.regs.edx]);
    regs[reg] |= bits;
    set(e, leaf, subleaf, regs)
}

fn guest(entries: &[CpuidEntry]) -> GuestPmu<'static> {
    GuestPmu::from_cpuid(&mut CpuidTable::new(entries), None)
}

/// The AMD PerfMonV2 guest with IBS (CPUID Fn8000_0001_ECX bit 10), `ibs_id` in
/// Fn8000_001B_EAX, LbrExtV2 (Fn8000_0022_EAX bit 1) and an LBR stack of `lbr` entries
/// (Fn8000_0022_EBX\[9:4\]).
fn amd_with_ibs_and_lbr(ibs_id: u32, lbr: u32) -> Vec<CpuidEntry> {
    let e = or(entries(AMD_V2), 0x8000_0001, 0, 2, 1 << 10);
    let e = set(
        e,
        0x8000_0000,
        0,
        [0x8000_0022, 0x6874_7541, 0x444D_4163, 0x6974_6E65],
    );
    let e = set(e, 0x8000_001B, 0, [ibs_id, 0, 0, 0]);
    or(e, 0x8000_0022, 0, 0, 1 << 1) // LbrExtV2
        .into_iter()
        .map(|mut x| {
            if x.leaf == 0x8000_0022 {
                x.regs.ebx = (x.regs.ebx & !0x3F0) | (lbr << 4);
            }
            x
        })
        .collect()
}

#[test]
fn a_guest_without_the_facility_bits_has_no_facility_msrs() {
    let g = guest(&entries(AMD_V2));
    assert!(g.facilities().is_empty(), "{}", g.facilities());
    assert!(g.msrs().all(|m| m.facility.is_none()));
    for msr in [0xC001_1030, 0xC001_103A, 0xC001_0300, 0xC000_010F] {
        assert_eq!(
            g.check_read(msr).unwrap_err(),
            GuestFault::NoSuchMsr { msr }
        );
    }
    let g = guest(&entries(INTEL_V5));
    assert!(g.msr(0x14CE).is_none() && g.msr(0x1500).is_none());
}

#[test]
fn ibs_registers_follow_the_ibs_id_leaf() {
    // IBSFFV, FetchSam, OpSam, RdWrOpCnt, OpCnt, BrnTrgt (Fn8000_001B_EAX bits 0-5); no
    // OpCntExt, no IbsOpData4, no L3-miss filtering, no load latency.
    let g = guest(&amd_with_ibs_and_lbr(0x3F, 16));
    assert!(g.facilities().contains(Facility::AmdIbs));
    let ctl = g.msr(0xC001_1033).expect("IbsOpCtl");
    assert_eq!(ctl.facility, Some(Facility::AmdIbs));
    assert_eq!(ctl.name().to_string(), "IBS_OP_CTL");
    assert_eq!(ctl.action, Action::Fault);
    // IBS_OP_MAX_CNT 15:0, IBS_OP_EN 17, IBS_OP_VAL 18, IBS_OP_CNT_CTL 19 (OpCnt) and
    // IBS_OP_CUR_CNT 51:32 (RdWrOpCnt); not IBS_OP_L3_MISS_ONLY (16), the count extensions
    // (26:20, 58:52) or the load-latency filter (63:59).
    assert_eq!(ctl.write_mask & (1 << 16), 0);
    assert_eq!(ctl.write_mask & (0x7F << 20), 0);
    assert_eq!(ctl.write_mask >> 52, 0);
    assert_ne!(ctl.write_mask & (1 << 19), 0);
    assert_ne!(ctl.write_mask & (0xF_FFFF << 32), 0);
    assert!(matches!(
        g.check_write(0xC001_1033, 1 << 63),
        Err(GuestFault::Reserved { reserved, .. }) if reserved == 1 << 63
    ));
    // Even the lenient policy drops no bit of a facility register: it faults.
    assert!(
        g.with_policy(Policy::Lenient)
            .check_write(0xC001_1033, 1 << 63)
            .is_err()
    );
    // IbsBrTarget exists with BrnTrgt; IbsOpData4 needs IbsOpData4 (bit 10).
    assert!(g.msr(0xC001_103B).is_some());
    assert!(g.msr(0xC001_103D).is_none());

    let without = guest(&amd_with_ibs_and_lbr(0x1F, 16));
    assert!(
        without.msr(0xC001_103B).is_none(),
        "no BrnTrgt: no IbsBrTarget"
    );
    let with_data4 = guest(&amd_with_ibs_and_lbr(0x3F | 1 << 10 | 1 << 12, 16));
    assert!(with_data4.msr(0xC001_103D).is_some());
    let ctl = with_data4.msr(0xC001_1033).unwrap();
    assert_eq!(
        ctl.write_mask >> 59,
        0x1F,
        "load-latency filter with IbsOpLdLat"
    );
}

#[test]
fn the_amd_lbr_stack_has_as_many_records_as_cpuid_says() {
    let g = guest(&amd_with_ibs_and_lbr(0x3F, 8));
    assert!(g.facilities().contains(Facility::AmdLbrV2));
    let from: Vec<u32> = g
        .msrs()
        .filter(|m| m.info.name == "LBR_FROM")
        .map(|m| m.address)
        .collect();
    assert_eq!(
        from,
        (0..8).map(|n| 0xC001_0300 + 2 * n).collect::<Vec<_>>()
    );
    assert!(g.msr(0xC001_030F).is_some(), "LBR_TO 7");
    assert!(
        g.msr(0xC001_0310).is_none(),
        "LBR_FROM 8: the stack has 8 records"
    );
    assert!(g.msr(0xC000_010E).is_some(), "LBR_SELECT");
    assert_eq!(
        g.msr(0xC000_010F).unwrap().write_mask & 0b10,
        0,
        "DBG_EXTN_CFG bit 1"
    );
    // Sixteen records: all of them.
    let g = guest(&amd_with_ibs_and_lbr(0x3F, 16));
    assert_eq!(g.msrs().filter(|m| m.info.name == "LBR_TO").count(), 16);
}

/// The version 5 guest with architectural LBRs (CPUID.(EAX=07H,ECX=0):EDX\[19\]) and leaf
/// 1CH `leaf_1c` (EAX, EBX, ECX).
fn intel_with_arch_lbr(leaf_1c: [u32; 3]) -> Vec<CpuidEntry> {
    let e = or(entries(INTEL_V5), 0x7, 0, 3, 1 << 19);
    let [a, b, c] = leaf_1c;
    set(e, 0x1C, 0, [a, b, c, 0])
}

#[test]
fn architectural_lbr_records_stop_at_the_deepest_depth_cpuid_lists() {
    // Depths 8 and 16 (EAX[1:0]); the call-stack mode missing (EBX[2] clear), the branch
    // filter present (EBX[1]); mispredict flags (ECX[0]) but no cycle counts (ECX[1]).
    let g = guest(&intel_with_arch_lbr([0b11, 0b010, 0b001]));
    assert!(g.facilities().contains(Facility::IntelArchLbr));
    for (base, name) in [(0x1500, "FROM_IP"), (0x1600, "TO_IP"), (0x1200, "INFO")] {
        assert!(g.msr(base + 15).is_some(), "IA32_LBR_15_{name}");
        assert!(g.msr(base + 16).is_none(), "IA32_LBR_16_{name}");
    }
    let ctl = g.msr(0x14CE).unwrap();
    assert_eq!(
        ctl.write_mask & (1 << 3),
        0,
        "CALL_STACK needs CPUID.1CH:EBX[2]"
    );
    assert_ne!(ctl.write_mask & (1 << 16), 0, "COND with the branch filter");
    let info = g.msr(0x1200).unwrap().write_mask;
    assert_ne!(info & (1 << 63), 0, "MISPRED with CPUID.1CH:ECX[0]");
    assert_eq!(info & 0xFFFF, 0, "CYC_CNT needs CPUID.1CH:ECX[1]");
    assert!(matches!(
        g.check_write(0x14CE, 1 << 3),
        Err(GuestFault::Reserved { reserved: 8, .. })
    ));

    // The deepest depth counts: 8 and 32 listed, 32 records.
    let g = guest(&intel_with_arch_lbr([0b1001, 0, 0]));
    assert!(g.msr(0x151F).is_some() && g.msr(0x1520).is_none());
    // No depth listed: no records, the control registers still there.
    let g = guest(&intel_with_arch_lbr([0, 0, 0]));
    assert!(g.msr(0x1500).is_none() && g.msr(0x14CE).is_some());
}

#[test]
fn the_full_featured_guest_of_a_generation_has_no_facility() {
    let g = GuestPmu::for_generation(pmu_regs::arch::Generation::AmdPerfmonV2);
    assert!(g.facilities().is_empty());
    assert!(g.msr(0xC001_1033).is_none());
}

#[test]
fn the_debug_store_and_pebs_data_cfg_follow_cpuid_and_capabilities() {
    let v5 = entries(INTEL_V5);
    let without_ds = {
        let mut e = v5.clone();
        for x in e.iter_mut().filter(|x| x.leaf == 1) {
            x.regs.edx &= !(1 << 21);
        }
        e
    };
    // PEBS_BASELINE (14), a PEBS format (10), FW_WRITE (13).
    let g = GuestPmu::from_cpuid(&mut CpuidTable::new(&without_ds), Some(0x6400));
    let cfg = g.msr(0x3F2).expect("MSR_PEBS_DATA_CFG with PEBS_BASELINE");
    assert_eq!(
        (cfg.write_mask, cfg.facility, cfg.action),
        (0xFF00_000F, None, Action::Fault)
    );
    assert!(g.msr(0x600).is_none(), "no DS: no IA32_DS_AREA");
    assert!(
        g.msr(0x3F1).is_none(),
        "IA32_PEBS_ENABLE is not listed (per-counter bits)"
    );
    let g = GuestPmu::from_cpuid(&mut CpuidTable::new(&without_ds), Some(0x2000));
    assert!(
        g.msr(0x3F2).is_none(),
        "no PEBS_BASELINE: no MSR_PEBS_DATA_CFG"
    );
    let with_ds = or(without_ds, 1, 0, 3, 1 << 21);
    let g = GuestPmu::from_cpuid(&mut CpuidTable::new(&with_ds), None);
    assert_eq!(g.msr(0x600).map(|m| m.write_mask), Some(u64::MAX));
}
