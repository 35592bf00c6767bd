//! `pmu check`: does this machine's PMU count, and do the library's encodings agree with the
//! kernel's?
//!
//! 1. A probe ([`count::probe`]): open `PERF_TYPE_HARDWARE` instructions, count a loop, close
//!    it. No PMU (a VM without a virtual PMU, not Linux) or not permitted
//!    (`perf_event_paranoid`): the check is skipped, with the reason, and exits 0.
//! 2. A `dec; jnz` loop of known length ([`count::spin`]) counted as `instructions` and
//!    `branches`, with the library's encoding (`PerfConfig`, raw on the PMU's sysfs `type`)
//!    and with perf's generic hardware events, each against the range the loop allows.
//! 3. Every event of the detected model (or generation) opened, and closed, with the
//!    library's encoding: what the kernel refuses, with its errno.
//! 4. sysfs' `format/*` against the library's event-select fields, and sysfs' `events/*`
//!    against what the library resolves for the same names ([`compare`]); `--sysfs DIR`
//!    reads a recorded tree instead of `/sys` for this part.
//!
//! The kernel-facing code is thin (`count`, [`sysfs::SysfsPmu::read`]); the comparisons are
//! plain functions over data, tested with recorded sysfs trees. Exit status: 0 ok or skipped,
//! 1 a mismatch, 2 a usage error.

pub mod compare;
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
pub mod count;
pub mod report;
pub mod sysfs;

use clap::Args;
use compare::{Resolution, compare_events, compare_formats};
use pmu_regs::arch::{Arch, ArchVisitor, FieldInfo, Generation, Role};
use pmu_regs::detect::PmuInfo;
use pmu_regs::perf::{PerfConfig, PerfError};
use report::{PmuLine, Report, Status};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use sysfs::{LIVE_ROOT, SysfsPmu};

/// `pmu check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Iterations of the counted `dec; jnz` loop (2 instructions and 1 branch each).
    #[arg(long, default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: u64,
    /// Compare this recorded sysfs tree (laid out as /sys/bus/event_source/devices: DIR/cpu/type,
    /// DIR/cpu/format/*, DIR/cpu/events/*) with the library instead of /sys. The counting
    /// still runs on this machine.
    #[arg(long, value_name = "DIR")]
    pub sysfs: Option<PathBuf>,
    /// Compare with this CPU's definitions instead of the detected CPU's: a generation id
    /// (`intel-skylake`, `skylake`), a name ("Sapphire Rapids", "Zen 4") or a family/model.
    #[arg(long, visible_aliases = ["model", "generation"], value_name = "CPU")]
    pub cpu: Option<String>,
    /// Print one JSON object (status, reason, pmu, counts, events, format, sysfs_events).
    #[arg(long)]
    pub json: bool,
}

/// The library's side of the check: the generation (or CPU model) compared against, its perf
/// PMU, and how names resolve (as detected, or for a named generation).
#[derive(Clone, Copy, Debug)]
pub struct Library {
    /// The generation or CPU model whose tables are used.
    pub generation: Generation,
    /// Its perf PMU (`cpu`, `cpu_core`, ...).
    pub pmu: &'static str,
    /// Detection's result, when the generation is this machine's.
    detected: Option<PmuInfo>,
}

impl Library {
    /// This machine's, as detection found it (`None` when it found no PMU the definitions
    /// describe).
    pub fn detected(info: PmuInfo) -> Option<Library> {
        Some(Library {
            generation: info.model.or(info.generation)?,
            pmu: PerfConfig::detected_pmu(&info),
            detected: Some(info),
        })
    }

    /// A generation named on the command line (or in a test).
    pub fn named(generation: Generation) -> Library {
        Library {
            generation,
            pmu: PerfConfig::pmu_of(generation),
            detected: None,
        }
    }

    /// The library's `perf_event_attr` for `input` (a name, perf string or raw config).
    pub fn resolve(&self, input: &str) -> Result<PerfConfig, PerfError> {
        match &self.detected {
            Some(info) => PerfConfig::parse_detected(info, input),
            None => PerfConfig::parse(self.generation, input),
        }
    }

    /// [`Library::resolve`] as [`compare::compare_events`] takes it.
    pub fn resolution(&self, name: &str) -> Resolution {
        match self.resolve(name) {
            Ok(c) => Resolution::Config {
                config: c.config,
                config1: c.config1,
                spelling: c.to_string(),
            },
            Err(e @ PerfError::UnknownEvent { .. }) => Resolution::Unknown(e.to_string()),
            Err(e) => Resolution::Error(e.to_string()),
        }
    }

    /// Every event of the generation by name: its model events, then its architectural ones
    /// (each name once).
    pub fn event_names(&self) -> Vec<&'static str> {
        let table = self.generation.model_events();
        let mut names: Vec<&'static str> = (0..table.len()).map(|i| table.name(i)).collect();
        for n in self.generation.visit(ArchNames) {
            if !names.iter().any(|m| m.eq_ignore_ascii_case(n)) {
                names.push(n);
            }
        }
        names
    }

    /// The fields of the generation's event-select register (empty without one).
    pub fn select_fields(&self) -> &'static [FieldInfo] {
        (self.generation.registers().iter())
            .find(|r| r.role == Some(Role::EventSelect))
            .map_or(&[], |r| r.fields)
    }
}

/// The names of a generation's architectural events.
struct ArchNames;

impl ArchVisitor for ArchNames {
    type Output = Vec<&'static str>;

    fn visit<A: Arch>(self) -> Self::Output {
        A::arch_events().iter().map(|e| e.name).collect()
    }
}

/// Runs `pmu check`: prints the report (text or JSON) and exits 0 (ok, skipped), 1 (a
/// mismatch) or 2 (a usage error: an unknown `--cpu`, a `--sysfs` tree without the PMU).
pub fn run(args: CheckArgs) -> ExitCode {
    let live = Library::detected(pmu_regs::detect::detect_live());
    let report = named_library(args.cpu.as_deref()).and_then(|named| {
        let libraries = Libraries {
            live: live.as_ref(),
            compared: named.as_ref().or(live.as_ref()),
        };
        check(&args, libraries)
    });
    let report = match report {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if args.json {
        let json = serde_json::to_string_pretty(&report).unwrap_or_default();
        crate::out(&format!("{json}\n"));
    } else {
        crate::out(&report.text());
    }
    match report.status {
        Status::Ok | Status::Skipped => ExitCode::SUCCESS,
        Status::Mismatch => ExitCode::FAILURE,
    }
}

/// The CPU `--cpu` names, if it names one.
fn named_library(cpu: Option<&str>) -> Result<Option<Library>, String> {
    let Some(query) = cpu else {
        return Ok(None);
    };
    let loaded = crate::defs::load_for_use(&[]).ok_or("the definitions do not load")?;
    let g = crate::cpu::choose_one(&loaded.model, Some(query))?;
    let generation = Generation::from_id(&g.id)
        .ok_or_else(|| format!("{} has no run-time tables in this build of pmu", g.id))?;
    Ok(Some(Library::named(generation)))
}

/// The library's two roles in a check.
#[derive(Clone, Copy, Debug)]
pub struct Libraries<'a> {
    /// This machine's, as detected: what the counting uses (`None`: detection found no PMU
    /// the definitions describe).
    pub live: Option<&'a Library>,
    /// What sysfs is compared with: `--cpu`'s, else this machine's.
    pub compared: Option<&'a Library>,
}

/// Every part of the check, into one report (see the [module](self) docs); an error only for
/// a `--sysfs` tree that cannot be read.
pub fn check(args: &CheckArgs, libraries: Libraries<'_>) -> Result<Report, String> {
    let compared = libraries.compared;
    let mut report = Report::new(PmuLine {
        name: compared.map_or("cpu", |l| l.pmu).to_owned(),
        generation: compared.map(|l| l.generation.id().to_owned()),
        ..PmuLine::default()
    });
    if compared.is_none() {
        report.notes.push(
            "the library describes no PMU for this CPU (see `pmu info`): name one with --cpu"
                .to_owned(),
        );
    }
    live(&mut report, libraries.live, args.iterations);
    compare_sysfs(&mut report, compared, args.sysfs.as_deref())?;
    report.status = report.compute_status();
    Ok(report)
}

/// The counting part, on this machine, with `library`, this machine's: skipped (with the
/// reason) without a PMU or permission.
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn live(report: &mut Report, library: Option<&Library>, iterations: u64) {
    use pmu_regs::pmu::Presence;
    let probe = count::probe();
    if probe.denied {
        report.reason = Some(format!(
            "{}: not permitted (kernel.perf_event_paranoid is {}); lower it to 2 or less \
             (sysctl kernel.perf_event_paranoid=2) or give pmu CAP_PERFMON",
            probe.reason,
            count::paranoid()
        ));
        return;
    }
    if probe.presence == Presence::Absent {
        let present = sysfs::core_pmus(Path::new(LIVE_ROOT));
        report.reason = Some(no_pmu_reason(&present, &probe.reason));
        return;
    }
    if probe.presence == Presence::Partial {
        report
            .notes
            .push(format!("the PMU is partial: {}", probe.reason));
    }
    let pmu = library.map_or("cpu", |l| l.pmu);
    let type_ = live_type(report, pmu);
    if pmu == report.pmu.name {
        report.pmu.type_ = type_;
    }
    report.counts = count::counts(library, type_, iterations);
    if let (Some(l), Some(t)) = (library, type_) {
        report.events = Some(count::open_all(l, t));
    }
}

/// Without Linux on x86-64 there is no perf_event_open (or no loop of known length).
#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
fn live(report: &mut Report, _: Option<&Library>, _: u64) {
    report.reason = Some("counting needs Linux (perf_event_open) on x86-64".to_owned());
}

/// The PMU's type from the live sysfs: its `type` file, or `PERF_TYPE_RAW` (4) for `cpu`
/// when sysfs does not say (with a note).
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn live_type(report: &mut Report, pmu: &str) -> Option<u32> {
    const PERF_TYPE_RAW: u32 = 4;
    match SysfsPmu::read(Path::new(LIVE_ROOT), pmu) {
        Ok(p) => Some(p.type_),
        Err(e) if pmu == "cpu" => {
            report.notes.push(format!("{e}: using PERF_TYPE_RAW"));
            Some(PERF_TYPE_RAW)
        }
        Err(e) => {
            report.notes.push(e.to_string());
            None
        }
    }
}

/// Why there is nothing to count: which core PMUs sysfs lists (none, usually) and what
/// perf_event_open said.
pub fn no_pmu_reason(present: &[&str], open_error: &str) -> String {
    if present.is_empty() {
        format!(
            "no core PMU in {LIVE_ROOT} (no cpu, cpu_core or cpu_atom) and {open_error}; \
             this machine (a VM?) exposes no PMU"
        )
    } else {
        format!(
            "{LIVE_ROOT} lists {} but {open_error}; the PMU does not count here",
            present.join(", ")
        )
    }
}

/// The sysfs part: `format/*` and `events/*` of the library's PMU, from `dir` (`--sysfs`) or
/// the live sysfs, against the library.
fn compare_sysfs(
    report: &mut Report,
    library: Option<&Library>,
    dir: Option<&Path>,
) -> Result<(), String> {
    let root = dir.unwrap_or(Path::new(LIVE_ROOT));
    let name = report.pmu.name.clone();
    let pmu = match SysfsPmu::read(root, &name) {
        Ok(p) => p,
        Err(e) if dir.is_some() => {
            return Err(format!(
                "--sysfs: {e} (the PMU `{name}` of the library's CPU)"
            ));
        }
        Err(e) => {
            if report.reason.is_none() {
                report
                    .notes
                    .push(format!("nothing to compare with sysfs: {e}"));
            }
            return Ok(());
        }
    };
    report.pmu.sysfs = Some(pmu.dir.display().to_string());
    report.pmu.type_ = report.pmu.type_.or(Some(pmu.type_));
    let Some(library) = library else {
        return Ok(());
    };
    report.format = compare_formats(&pmu, library.select_fields());
    report.sysfs_events = compare_events(&pmu, &|n| library.resolution(n));
    Ok(())
}
