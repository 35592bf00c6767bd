//! Which CPU a command is about: the one `--cpu` names (a generation id, a CPU name from
//! `cpu-names.yaml`, or a family/model, through [`pmu_defs::Model::find_cpu`]), else the CPU
//! this command runs on, as `pmu_regs::detect::detect_live` finds it.

use pmu_defs::Model;
use pmu_defs::model::Generation;
#[cfg(feature = "detect")]
use pmu_regs::detect::{CpuVendor, PmuInfo};

/// The generations a command works on, and how they were chosen.
#[derive(Debug)]
pub struct Chosen<'m> {
    /// One generation, or several (a hybrid part's core types, or a name covering several
    /// event lists).
    pub generations: Vec<&'m Generation>,
    /// How they were chosen, for the header a command prints.
    pub how: String,
}

/// The generations for `--cpu` (or this machine's when `None`); the error says what was
/// tried and what to do.
pub fn choose<'m>(model: &'m Model, cpu: Option<&str>) -> Result<Chosen<'m>, String> {
    match cpu {
        Some(q) => model
            .find_cpu(q)
            .map(|f| Chosen {
                generations: f.generations,
                how: f.read_as,
            })
            .ok_or_else(|| not_found(q)),
        None => this_machine(model),
    }
}

/// The error for a `--cpu` that names nothing: what was tried and what to do.
pub fn not_found(q: &str) -> String {
    format!(
        "no generation, CPU name or family/model matches `{q}` (try an id such as \
         `intel-skylake` or `skylake`, a name such as \"Sapphire Rapids\" or \"Zen 4\", or a \
         family/model such as 06_8F; `pmu cpus` lists the names)"
    )
}

/// The error for a `--cpu` (read as `how`) that names several generations where a command
/// takes one.
pub fn several(how: &str, ids: &[&str]) -> String {
    format!(
        "{how} names {} generations ({}); give one of them with --cpu",
        ids.len(),
        ids.join(", ")
    )
}

/// Like [`choose`], but exactly one generation: a name covering several asks for one of them.
pub fn choose_one<'m>(model: &'m Model, cpu: Option<&str>) -> Result<&'m Generation, String> {
    let c = choose(model, cpu)?;
    match c.generations.as_slice() {
        [g] => Ok(g),
        many => Err(several(
            &c.how,
            &many.iter().map(|g| g.id.as_str()).collect::<Vec<_>>(),
        )),
    }
}

/// Set by [`without_detection`]: the running CPU is never detected.
static NO_DETECTION: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// From now on, commands never detect the running CPU and ask for `--cpu` instead, whatever
/// the build's features (`xtask` calls it: in a workspace build, Cargo turns on `detect` for
/// every user of this crate).
pub fn without_detection() {
    NO_DETECTION.store(true, std::sync::atomic::Ordering::Relaxed);
}

fn no_detection() -> Result<Chosen<'static>, String> {
    Err("name a CPU with --cpu (this build has no CPU detection)".to_owned())
}

/// Without detection, a CPU must be named.
#[cfg(not(feature = "detect"))]
fn this_machine(_: &Model) -> Result<Chosen<'_>, String> {
    no_detection()
}

/// The running CPU's generations: the model detection names (its `cpus:` and core type),
/// else the generations listing its family/model, else the architectural generation CPUID
/// reports.
#[cfg(feature = "detect")]
fn this_machine(model: &Model) -> Result<Chosen<'_>, String> {
    if NO_DETECTION.load(std::sync::atomic::Ordering::Relaxed) {
        return no_detection();
    }
    let info = pmu_regs::detect::detect_live();
    let cpu = describe(&info);
    if let Some(g) = info.model_id.and_then(|m| model.generation(m)) {
        return Ok(Chosen {
            generations: vec![g],
            how: format!("this machine ({cpu}): `{}`", g.id),
        });
    }
    // CPUID wins over the family/model: a generation CPUID reports, without the model the
    // family/model names (a guest whose hypervisor hides part of the PMU), is what counts.
    if let Some(g) = info.generation.and_then(|g| model.generation(g.id())) {
        return Ok(Chosen {
            generations: vec![g],
            how: format!(
                "this machine ({cpu}): no CPU model CPUID backs, architectural `{}`",
                g.id
            ),
        });
    }
    // No PMU at all (leaf 0AH zeroed): the events of the family/model, to encode for it.
    if let Some(f) = vendor_string(info.vendor)
        .and_then(|v| model.find_cpu(&format!("{v}-{:X}-{:X}", info.family(), info.model())))
    {
        return Ok(Chosen {
            generations: f.generations,
            how: format!("this machine ({cpu}), whose CPUID reports no PMU: its family/model"),
        });
    }
    Err(format!(
        "this machine ({cpu}) has no PMU the definitions describe{}; name a CPU with --cpu \
         (`pmu info` says what detection found)",
        if info.hypervisor {
            " (it runs under a hypervisor, which may hide the PMU)"
        } else {
            ""
        }
    ))
}

/// `GenuineIntel family 6h model 8Fh stepping 8`.
#[cfg(feature = "detect")]
pub fn describe(info: &PmuInfo) -> String {
    format!(
        "{} family {:X}h model {:02X}h stepping {}",
        vendor_string(info.vendor).unwrap_or("unknown vendor"),
        info.family(),
        info.model(),
        info.stepping()
    )
}

#[cfg(feature = "detect")]
fn vendor_string(v: CpuVendor) -> Option<&'static str> {
    match v {
        CpuVendor::Intel => Some("GenuineIntel"),
        CpuVendor::Amd => Some("AuthenticAMD"),
        CpuVendor::Hygon => Some("HygonGenuine"),
        CpuVendor::Other(_) => None,
    }
}
