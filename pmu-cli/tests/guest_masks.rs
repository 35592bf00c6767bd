//! `pmu guest-masks` on the real guest dumps (`tests/test_data/cpuid-dumps/`) and on the
//! hand-written version 5 and PerfMonV2 guests (`tests/test_data/guest-cpuid/`), and one
//! with IBS and an LBR stack.

mod common;
use common::{pmu, text};

use serde_json::Value;
use std::path::PathBuf;

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/test_data")
        .join(path)
}

/// `pmu guest-masks --json` on `file` with `extra` arguments: the rows as
/// (msr, name, write_mask, policy).
fn rows(file: &str, extra: &[&str]) -> Vec<(String, String, String, String)> {
    let path = data(file);
    let mut args = vec!["guest-masks", "--cpuid", path.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    let out = pmu(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let field = |r: &Value, k: &str| {
        r[k].as_str()
            .unwrap_or_else(|| panic!("{k}: {r}"))
            .to_owned()
    };
    v.as_array()
        .expect("an array")
        .iter()
        .map(|r| {
            let keys = if r.get("facility").is_some() { 5 } else { 4 };
            assert_eq!(r.as_object().map(|o| o.len()), Some(keys), "{r}");
            (
                field(r, "msr"),
                field(r, "name"),
                field(r, "write_mask"),
                field(r, "policy"),
            )
        })
        .collect()
}

fn row<'a>(
    rows: &'a [(String, String, String, String)],
    msr: &str,
) -> &'a (String, String, String, String) {
    rows.iter()
        .find(|r| r.0 == msr)
        .unwrap_or_else(|| panic!("no MSR {msr} in {rows:?}"))
}

#[test]
fn the_intel_dump_guest_has_no_pmu_msrs() {
    assert!(rows("cpuid-dumps/intel-xeon-06cf-guest.txt", &[]).is_empty());
    let path = data("cpuid-dumps/intel-xeon-06cf-guest.txt");
    let out = pmu(&["guest-masks", "--cpuid", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.starts_with("the guest has no PMU"), "{s}");
}

#[test]
fn the_amd_dump_guest_has_the_legacy_msrs() {
    let r = rows("cpuid-dumps/amd-epyc-19h-01h-guest.txt", &[]);
    let msrs: Vec<&str> = r.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(
        msrs,
        [
            "0xc0010000",
            "0xc0010001",
            "0xc0010002",
            "0xc0010003",
            "0xc0010004",
            "0xc0010005",
            "0xc0010006",
            "0xc0010007"
        ]
    );
    let sel = row(&r, "0xc0010000");
    assert_eq!(
        (sel.1.as_str(), sel.2.as_str(), sel.3.as_str()),
        ("PERF_EVT_SEL0", "0x30fffd7ffff", "mask")
    );
    let strict = rows(
        "cpuid-dumps/amd-epyc-19h-01h-guest.txt",
        &["--policy", "strict"],
    );
    assert_eq!(row(&strict, "0xc0010000").3, "fault");
    assert_eq!(row(&r, "0xc0010004").2, "0xffffffffffff");
}

#[test]
fn the_v5_guest_depends_on_its_capabilities() {
    let r = rows("guest-cpuid/intel-v5-guest.txt", &[]);
    assert_eq!(row(&r, "0x186").1, "IA32_PERFEVTSEL0");
    assert_eq!(row(&r, "0x186").2, "0x1ffdfffff");
    assert_eq!(row(&r, "0x186").3, "fault");
    assert_eq!(row(&r, "0x38d").2, "0xbbb");
    assert_eq!(row(&r, "0x38f").2, "0x70000000f");
    assert_eq!(row(&r, "0xc1").3, "sign-extend");
    assert!(!r.iter().any(|x| x.0 == "0x4c1"), "no FW_WRITE");
    let r = rows(
        "guest-cpuid/intel-v5-guest.txt",
        &["--perf-capabilities", "0x6400"],
    );
    assert_eq!(row(&r, "0x4c1").1, "IA32_A_PMC0");
    assert_eq!(row(&r, "0x186").2, "0x5ffdfffff");
    assert_eq!(row(&r, "0x38d").2, "0x11100000bbb");
}

#[test]
fn the_perfmonv2_guest_has_the_global_msrs() {
    let r = rows("guest-cpuid/amd-perfmonv2-guest.txt", &[]);
    assert_eq!(r.len(), 8 + 12 + 4);
    let ctl = row(&r, "0xc0000301");
    assert_eq!(
        (ctl.1.as_str(), ctl.2.as_str(), ctl.3.as_str()),
        ("PERF_CNTR_GLOBAL_CTL", "0x3f", "fault")
    );
    assert_eq!(
        row(&r, "0xc0000300").2,
        "0x0",
        "PerfCntrGlobalStatus is read-only"
    );
    assert_eq!(row(&r, "0xc001020a").1, "PERF_EVT_SEL_CORE5");
}

#[test]
fn bad_input_is_an_error_that_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "   0x00000000 0x00: eax=0x1 ebx=zz ecx=0x0 edx=0x0\n").unwrap();
    let out = pmu(&["guest-masks", "--cpuid", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let e = text(&out.stderr);
    assert!(e.contains("bad.txt: line 1, column"), "{e}");
    let path = data("guest-cpuid/intel-v5-guest.txt");
    let out = pmu(&[
        "guest-masks",
        "--cpuid",
        path.to_str().unwrap(),
        "--perf-capabilities",
        "xyz",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not a 64-bit hexadecimal number"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_guest_with_ibs_and_an_lbr_stack_gets_their_registers_marked_with_the_facility() {
    let path = data("guest-cpuid/amd-ibs-lbr-guest.txt");
    let out = pmu(&["guest-masks", "--cpuid", path.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let facility = |msr: &str| {
        let rows = v.as_array().expect("an array");
        let r = rows.iter().find(|r| r["msr"] == msr);
        r.map(|r| r["facility"].as_str().unwrap_or("core").to_owned())
    };
    assert_eq!(facility("0xc0010200").as_deref(), Some("core"));
    assert_eq!(facility("0xc0011033").as_deref(), Some("amd-ibs"));
    // IbsBrTarget with BrnTrgt; no IbsOpData4 without its bit.
    assert_eq!(facility("0xc001103b").as_deref(), Some("amd-ibs"));
    assert_eq!(facility("0xc001103d"), None);
    // Sixteen LBR records: From at 0xC0010300 + 2n, To at + 1.
    assert_eq!(facility("0xc001031f").as_deref(), Some("amd-lbr-v2"));
    assert_eq!(facility("0xc0010320"), None);
    let rows = rows("guest-cpuid/amd-ibs-lbr-guest.txt", &[]);
    // IbsOpCtl: no L3-miss filter (bit 16), no count extension (26:20, 58:52), no load
    // latency (63:59); a reserved bit faults.
    let ctl = row(&rows, "0xc0011033");
    assert_eq!((ctl.1.as_str(), ctl.3.as_str()), ("IBS_OP_CTL", "fault"));
    let mask = u64::from_str_radix(ctl.2.trim_start_matches("0x"), 16).unwrap();
    assert_eq!(mask & (1 << 16 | 0x7F << 20 | 0xFFF << 52), 0, "{mask:#x}");

    let report = pmu(&["guest-masks", "--cpuid", path.to_str().unwrap()]);
    assert!(text(&report.stdout).contains("facilities: amd-ibs, amd-lbr-v2"));
}
