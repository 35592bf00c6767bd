//! `pmu info`: what this machine's PMU is, as `pmu_regs::detect::detect_live` finds it from
//! CPUID: the CPU, the architectural generation, the CPU model whose registers and events
//! describe this core, the counters CPUID reports, and every note detection makes (a
//! hypervisor hiding the PMU, a newer version than the definitions know, ...).

use crate::cpu::describe;
use pmu_regs::detect::{
    CpuidEntry, CpuidTable, Facilities, LiveCpuid, PmuInfo, detect, facilities, parse_cpuid_dump,
};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What `pmu info` reports: detection's result and the facilities found.
#[derive(Clone, Copy, Debug)]
pub struct Detected {
    /// What [`pmu_regs::detect::detect`] found.
    pub info: PmuInfo,
    /// What [`pmu_regs::detect::facilities`] found.
    pub facilities: Facilities,
}

/// Runs `pmu info` on this machine, or on the CPUID dump `cpuid` (`cpuid -r` format); `defs`
/// adds the CPU names the definitions give the model; `json` prints one JSON object.
pub fn run(paths: &[PathBuf], cpuid: Option<&Path>, json: bool) -> ExitCode {
    let found = match cpuid {
        None => live(),
        Some(file) => match from_dump(file) {
            Ok(found) => found,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let loaded = crate::defs::load_for_use(paths);
    let names: Vec<String> = loaded
        .as_ref()
        .and_then(|l| {
            let id = found.info.model_id?;
            let g = l.model.generation(id)?;
            Some(l.model.names_of(g).iter().map(|n| n.name.clone()).collect())
        })
        .unwrap_or_default();
    if json {
        println!("{}", to_json(&found, &names));
    } else {
        print!("{}", report(&found.info, &names));
    }
    ExitCode::SUCCESS
}

/// Detection on this machine's CPUID.
pub fn live() -> Detected {
    Detected {
        info: pmu_regs::detect::detect_live(),
        facilities: facilities(&mut LiveCpuid),
    }
}

/// Detection on the CPUID values a `cpuid -r` dump records; an error names the file, line
/// and column.
pub fn from_dump(file: &Path) -> Result<Detected, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    // Far more than any CPU's leaves and subleaves (a dump of a recent Xeon has about 70).
    let mut room = vec![CpuidEntry::new(0, 0, [0; 4]); 4096];
    let entries =
        parse_cpuid_dump(&text, &mut room).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(Detected {
        info: detect(&mut CpuidTable::new(entries)),
        facilities: facilities(&mut CpuidTable::new(entries)),
    })
}

/// The counters of a mask, as indices.
fn indices(mask: u32) -> Vec<u32> {
    (0..32).filter(|i| mask & (1 << i) != 0).collect()
}

/// `pmu info --json`: one object with `cpu`, `hypervisor`, `generation`, `model` (its id, or
/// null), `model_names`, `perf_pmu` (the Linux perf PMU of this core, or null without a PMU),
/// `gp_counters` and `fixed_counters` (indices: counters need not be contiguous), `gp_width`,
/// `fixed_width`, `facilities` and `notes`.
pub fn to_json(found: &Detected, names: &[String]) -> serde_json::Value {
    let info = &found.info;
    let c = &info.counters;
    serde_json::json!({
        "cpu": {
            "vendor": info.vendor.to_string(),
            "family": info.family(),
            "model": info.model(),
            "stepping": info.stepping(),
        },
        "hypervisor": info.hypervisor,
        "generation": info.generation.map(|g| g.id()),
        "model": info.model_id,
        "model_names": names,
        "perf_pmu": info.generation.map(|_| pmu_regs::perf::PerfConfig::detected_pmu(info)),
        "gp_counters": indices(c.gp),
        "gp_width": c.gp_width,
        "fixed_counters": indices(c.fixed),
        "fixed_width": c.fixed_width,
        "facilities": found.facilities.iter().map(|f| f.id()).collect::<Vec<_>>(),
        "notes": info.notes().map(|n| n.to_string()).collect::<Vec<_>>(),
    })
}

/// The text `pmu info` prints for a detection result.
pub fn report(info: &PmuInfo, names: &[String]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "cpu         {}", describe(info));
    let _ = writeln!(
        out,
        "hypervisor  {}",
        if info.hypervisor { "yes" } else { "no" }
    );
    let _ = writeln!(
        out,
        "generation  {}",
        info.generation.map_or("none", |g| g.id())
    );
    let model = match info.model_id {
        Some(m) if names.is_empty() => m.to_owned(),
        Some(m) => format!("{m} ({})", names.join(", ")),
        None => "none".to_owned(),
    };
    let _ = writeln!(out, "model       {model}");
    if info.generation.is_some() {
        let pmu = pmu_regs::perf::PerfConfig::detected_pmu(info);
        let _ = writeln!(out, "perf PMU    {pmu}");
    }
    let c = &info.counters;
    let _ = writeln!(
        out,
        "counters    {} general ({} bits, mask {:#x}), {} fixed ({} bits, mask {:#x})",
        c.gp.count_ones(),
        c.gp_width,
        c.gp,
        c.fixed.count_ones(),
        c.fixed_width,
        c.fixed
    );
    if let Some(v) = info.enumeration.condition {
        let _ = writeln!(
            out,
            "detect      {v} (the generation's `detect:` field: Intel's version)"
        );
    }
    for n in info.notes() {
        let _ = writeln!(out, "note: {n}");
    }
    out
}
