//! `pmu guest-masks`: the PMU MSRs a guest with a given CPUID has and the bits it may write in
//! each, from `pmu_regs::guest::GuestPmu`, for hypervisor authors to compare with their own.

use pmu_regs::detect::{CpuidEntry, CpuidTable, parse_cpuid_dump};
use pmu_regs::guest::{GuestPmu, Policy};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The arguments of `pmu guest-masks`.
#[derive(clap::Args, Debug)]
pub struct GuestMasksArgs {
    /// The guest's CPUID, in the format of `cpuid -r` (`LEAF SUBLEAF: eax=.. ebx=.. ecx=..
    /// edx=..`, the first CPU); leaves not listed read as zero.
    #[arg(long = "cpuid", value_name = "FILE")]
    pub cpuid: PathBuf,
    /// The value the guest's IA32_PERF_CAPABILITIES reads, in hex (`0x6400`); used only when
    /// the CPUID gives the guest the MSR (CPUID.01H:ECX.PDCM), 0 otherwise.
    #[arg(long = "perf-capabilities", value_name = "HEX", value_parser = parse_hex)]
    pub perf_capabilities: Option<u64>,
    /// What a write with reserved bits does: `vendor` (Intel faults; AMD's event selects and
    /// counters drop them, as KVM does), `strict` (every reserved bit faults) or `lenient`
    /// (event selects and counters drop them on both vendors).
    #[arg(long, value_name = "POLICY", default_value = "vendor", value_parser = parse_policy)]
    pub policy: Policy,
    /// Print a JSON array: `[{"msr": "0x186", "name": "IA32_PERFEVTSEL0", "write_mask":
    /// "0x...", "policy": "fault"}]`; a facility's register (IBS, an LBR stack) also has
    /// `"facility": "amd-ibs"`.
    #[arg(long)]
    pub json: bool,
}

fn parse_hex(s: &str) -> Result<u64, String> {
    let digits = s.strip_prefix("0x").or(s.strip_prefix("0X")).unwrap_or(s);
    u64::from_str_radix(&digits.replace('_', ""), 16)
        .map_err(|e| format!("`{s}` is not a 64-bit hexadecimal number: {e}"))
}

fn parse_policy(s: &str) -> Result<Policy, String> {
    match s {
        "vendor" => Ok(Policy::Vendor),
        "strict" => Ok(Policy::Strict),
        "lenient" => Ok(Policy::Lenient),
        _ => Err(format!(
            "unknown policy `{s}`: expected `vendor`, `strict` or `lenient`"
        )),
    }
}

/// Runs `pmu guest-masks`.
pub fn run(args: GuestMasksArgs) -> ExitCode {
    match masks(&args.cpuid, args.perf_capabilities, args.policy, args.json) {
        Ok(text) => {
            crate::out(&text);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// The output of `pmu guest-masks` for the CPUID dump `file`; an error names the file, line
/// and column.
pub fn masks(
    file: &Path,
    perf_capabilities: Option<u64>,
    policy: Policy,
    json: bool,
) -> Result<String, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    // Far more than any CPU's leaves and subleaves (a dump of a recent Xeon has about 70).
    let mut room = vec![CpuidEntry::new(0, 0, [0; 4]); 4096];
    let entries =
        parse_cpuid_dump(&text, &mut room).map_err(|e| format!("{}: {e}", file.display()))?;
    let guest =
        GuestPmu::from_cpuid(&mut CpuidTable::new(entries), perf_capabilities).with_policy(policy);
    Ok(if json {
        to_json(&guest)
    } else {
        report(&guest)
    })
}

/// One row of `pmu guest-masks --json`, its keys in this order.
#[derive(serde::Serialize)]
struct Row {
    msr: String,
    name: String,
    write_mask: String,
    policy: &'static str,
    /// The facility whose register it is (IBS, an LBR stack), absent for the core PMU's.
    #[serde(skip_serializing_if = "Option::is_none")]
    facility: Option<&'static str>,
}

fn to_json(guest: &GuestPmu) -> String {
    let rows: Vec<Row> = guest
        .msrs()
        .map(|m| Row {
            msr: format!("{:#x}", m.address),
            name: m.name().to_string(),
            write_mask: format!("{:#x}", m.write_mask),
            policy: m.action.as_str(),
            facility: m.facility.map(|f| f.id()),
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&rows).unwrap_or_default();
    s.push('\n');
    s
}

fn report(guest: &GuestPmu) -> String {
    let mut s = String::new();
    let info = guest.info();
    let Some(g) = guest.generation() else {
        let _ = writeln!(s, "the guest has no PMU: no PMU MSR exists for it");
        for n in info.notes() {
            let _ = writeln!(s, "note: {n}");
        }
        return s;
    };
    let c = &info.counters;
    let _ = writeln!(
        s,
        "guest PMU: {g}, {} general counters ({} bits), {} fixed counters; IA32_PERF_CAPABILITIES {:#x}",
        c.gp.count_ones(),
        c.gp_width,
        c.fixed.count_ones(),
        guest.perf_capabilities()
    );
    let _ = writeln!(s, "facilities: {}", guest.facilities());
    let _ = writeln!(
        s,
        "{:<12} {:<30} {:<20} policy",
        "MSR", "name", "write mask"
    );
    for m in guest.msrs() {
        let _ = writeln!(
            s,
            "{:<12} {:<30} {:<20} {}",
            format!("{:#x}", m.address),
            m.name().to_string(),
            format!("{:#x}", m.write_mask),
            m.action.as_str()
        );
    }
    s
}
