//! `pmu`: the events and registers of x86 performance-monitoring hardware, for the CPU this
//! runs on or any CPU by name, from the pmu-regs definitions.

use clap::{Parser, Subcommand};
use pmu_cli::{encode, list, validate};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "pmu",
    version,
    about = "x86 PMU events and registers, for this machine or any CPU by name",
    after_help = "A CPU is named by generation id (intel-skylake, skylake), by name (\"Sapphire \
                  Rapids\", SPR, \"Zen 4\", Genoa) or by family/model (06_8F, 19h/11h); \
                  without --cpu, the CPU this runs on."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// This machine's PMU, as CPUID reports it: the generation, the CPU model, the counters,
    /// and what detection points out.
    Info {
        /// Definition files or directories (default: the shipped definitions).
        #[arg(long = "defs", value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Detect from a recorded CPUID dump in the format of `cpuid -r` (`LEAF SUBLEAF:
        /// eax=.. ebx=.. ecx=.. edx=..`, the first CPU) instead of this machine's CPUID.
        #[arg(long = "cpuid", value_name = "FILE")]
        cpuid: Option<PathBuf>,
        /// Print one JSON object (generation, model, counters, facilities, notes).
        #[arg(long)]
        json: bool,
    },
    /// The events of a CPU, with the perf event string of each.
    List(list::ListArgs),
    /// The CPU names the definitions know, and the generations each stands for.
    Cpus(list::CpusArgs),
    /// Encode events: the event-select value and the Linux perf event string.
    Encode(encode::EncodeArgs),
    /// Decode an MSR value: every field, the event it selects, reserved bits set.
    Decode(encode::DecodeArgs),
    /// Load and check definition files; print every problem with file:line:col.
    Validate(validate::ValidateArgs),
    /// Print the fully resolved model (after `extends`).
    Dump(validate::DumpArgs),
    /// Does this machine's PMU count, and do the library's encodings agree with the kernel?
    /// Counts a loop of known length, opens every event of the CPU, and compares sysfs'
    /// formats and events with the definitions; skipped (exit 0) without a PMU.
    #[cfg(feature = "detect")]
    Check(pmu_cli::check::CheckArgs),
    /// Can these events be counted together? Each event on a counter with the auxiliary MSR
    /// values, or the events that cannot share the PMU and why; `--groups` splits them into
    /// the fewest groups that each fit.
    #[cfg(feature = "detect")]
    Schedule(pmu_cli::schedule::ScheduleArgs),
    /// For hypervisors: every PMU MSR a guest with this CPUID has, with the bits it may write
    /// and what a write of other bits does.
    #[cfg(feature = "detect")]
    GuestMasks(pmu_cli::guest::GuestMasksArgs),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        #[cfg(feature = "detect")]
        Command::Info { paths, cpuid, json } => pmu_cli::info::run(&paths, cpuid.as_deref(), json),
        #[cfg(not(feature = "detect"))]
        Command::Info { .. } => {
            eprintln!(
                "error: this `pmu` was built without the `detect` feature (pmu-regs' detection): \
                 rebuild with default features for `pmu info`"
            );
            ExitCode::from(2)
        }
        Command::List(args) => list::run(args),
        Command::Cpus(args) => list::run_cpus(args),
        Command::Encode(args) => encode::run_encode(args),
        Command::Decode(args) => encode::run_decode(args),
        Command::Validate(args) => validate::run_validate(args),
        Command::Dump(args) => validate::run_dump(args),
        #[cfg(feature = "detect")]
        Command::Check(args) => pmu_cli::check::run(args),
        #[cfg(feature = "detect")]
        Command::Schedule(args) => pmu_cli::schedule::run(args),
        #[cfg(feature = "detect")]
        Command::GuestMasks(args) => pmu_cli::guest::run(args),
    }
}
