//! `pmu info`: what this machine's PMU is, as `pmu_regs::detect::detect_live` finds it from
//! CPUID: the CPU, the architectural generation, the CPU model whose registers and events
//! describe this core, the counters CPUID reports, and every note detection makes (a
//! hypervisor hiding the PMU, a newer version than the definitions know, ...).

use crate::cpu::describe;
use pmu_regs::detect::PmuInfo;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Runs `pmu info`; `defs` adds the CPU names the definitions give this model.
pub fn run(paths: &[PathBuf]) -> ExitCode {
    let info = pmu_regs::detect::detect_live();
    let loaded = crate::defs::load_for_use(paths);
    let names: Vec<String> = loaded
        .as_ref()
        .and_then(|l| {
            let id = info.model?.id();
            let g = l.model.generation(id)?;
            Some(l.model.names_of(g).iter().map(|n| n.name.clone()).collect())
        })
        .unwrap_or_default();
    print!("{}", report(&info, &names));
    ExitCode::SUCCESS
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
    let model = match info.model {
        Some(m) if names.is_empty() => m.id().to_owned(),
        Some(m) => format!("{} ({})", m.id(), names.join(", ")),
        None => "none".to_owned(),
    };
    let _ = writeln!(out, "model       {model}");
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
