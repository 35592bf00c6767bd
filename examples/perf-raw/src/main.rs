//! Counts an event with `perf_event_open(2)`, using the raw config `pmu-regs` resolves for the
//! CPU it runs on.
//!
//! ```text
//! perf-raw [--event EVENT] [--list]
//! perf-raw --event MEM_LOAD_RETIRED.L3_MISS:u      # a model event, by name
//! perf-raw --event 'cpu/event=0x2e,umask=0x41/'   # a perf string
//! perf-raw --event r412e                          # a raw config (AMD included)
//! perf-raw --event branch-misses:u                 # perf's generic events, as the kernel maps them
//! ```
//!
//! For `PERF_TYPE_RAW`, Linux takes `perf_event_attr.config` in the layout of the event-select
//! register with the bits perf owns left out (USR, OS, INT, EN: perf sets them from
//! `exclude_user`/`exclude_kernel` and sampling), and an auxiliary MSR's value in `config1`.
//! `pmu_regs::perf::PerfConfig` gives exactly those for the CPU's model (its event table, with
//! the feature `all-models`) or, without one, its architectural generation: for LLC misses on
//! Intel, `0x412e` (event 2EH | umask 41H << 8).
//!
//! The counter measures events of this process while it walks a buffer larger than the
//! last-level cache. Exit status: 0 on success; 1 when the event is unknown or cannot be
//! encoded here; 2 when perf_event_open is not supported here (no PMU, e.g. a VM without a
//! virtual PMU); 3 when it is not permitted.

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
mod linux {
    use clap::Parser;
    use perf_event::Builder;
    use perf_event::events::Raw;
    use pmu_regs::arch::{ArchVisitor, Generation};
    use pmu_regs::detect::{PmuInfo, detect_live};
    use pmu_regs::perf::{GenericEvent, PerfConfig};
    use std::hint::black_box;
    use std::process::ExitCode;

    /// Count an event with perf_event_open and the raw config pmu-regs resolves.
    #[derive(Parser, Debug)]
    #[command(name = "perf-raw")]
    struct Args {
        /// The event: a name with modifiers (`LLC_MISSES:u`), a perf string
        /// (`cpu/event=0x2e,umask=0x41/`) or a raw config (`r412e`). See --list.
        #[arg(long, default_value = "LLC_MISSES")]
        event: String,
        /// List the events of this CPU's model (or generation) with their perf strings, and
        /// exit.
        #[arg(long)]
        list: bool,
    }

    /// Every event of the generation, by name: its model events, then its architectural ones.
    struct Names;

    impl ArchVisitor for Names {
        type Output = Vec<&'static str>;

        fn visit<A: pmu_regs::arch::Arch>(self) -> Self::Output {
            A::arch_events().iter().map(|e| e.name).collect()
        }
    }

    fn list(g: Generation, info: &PmuInfo) {
        // perf's generic events first (as the kernel maps them on this CPU), then the
        // model's events and the architectural ones.
        let generic = GenericEvent::ALL.iter().map(|e| e.name());
        let table = g.model_events();
        let model = (0..table.len()).map(|i| table.name(i));
        let names: Vec<&str> = generic.chain(model).chain(g.visit(Names)).collect();
        if names.is_empty() {
            println!(
                "{g} has no named events in the definitions: give a perf string \
                 (`cpu/event=0x76/`) or a raw config (`r76`)"
            );
        }
        for name in names {
            match PerfConfig::parse_detected(info, name) {
                Ok(c) => println!("{name:<48} {c}"),
                Err(e) => println!("{name:<48} ({e})"),
            }
        }
    }

    fn paranoid() -> String {
        std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|_| "unknown".into())
    }

    /// Walks a 64 MiB buffer with a cache-line stride: mostly last-level-cache misses.
    fn workload() -> u64 {
        let mut buf = vec![1u8; 64 << 20];
        let mut sum = 0u64;
        for round in 0..4u8 {
            for i in (0..buf.len()).step_by(64) {
                buf[i] = buf[i].wrapping_add(round);
                sum = sum.wrapping_add(buf[i] as u64);
            }
        }
        black_box(sum)
    }

    pub fn main() -> ExitCode {
        let args = Args::parse();
        let info = detect_live();
        // The model when its tables are compiled in (they are: `all-models`), else the
        // generation CPUID reports.
        let Some(generation) = info.model.or(info.generation) else {
            eprintln!(
                "error: this CPU ({}) has no PMU the definitions describe; nothing to encode",
                info.vendor
            );
            return ExitCode::from(1);
        };
        if args.list {
            list(generation, &info);
            return ExitCode::SUCCESS;
        }
        let perf = match PerfConfig::parse_detected(&info, &args.event) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: {}: {e}", args.event);
                return ExitCode::from(1);
            }
        };
        let (name, config) = (perf.name.unwrap_or(args.event.as_str()), perf.config);
        println!(
            "{name} on {generation}: {perf} (PERF_TYPE_RAW config {config:#x}, config1 {:#x})",
            perf.config1
        );
        if let Some(msr) = perf.unprogrammed_msr {
            eprintln!(
                "note: the event also needs MSR {:#x} = {:#x}, which perf does not program",
                msr.index, msr.value
            );
        }

        let raw = Raw::new(config).config1(perf.config1);
        let mut builder = Builder::new(raw);
        builder
            .exclude_user(perf.exclude_user)
            .exclude_kernel(perf.exclude_kernel);
        let mut counter = match builder.build() {
            Ok(c) => c,
            Err(e) => {
                let code = e.raw_os_error();
                let (why, exit) = match code {
                    Some(libc::ENOENT | libc::ENODEV | libc::EOPNOTSUPP) => (
                        "the kernel has no hardware PMU for this event here (for example a VM without a virtual PMU)"
                            .to_string(),
                        2,
                    ),
                    Some(libc::ENOSYS) => ("the kernel has no perf_event_open".to_string(), 2),
                    Some(libc::EACCES | libc::EPERM) => (
                        format!(
                            "not permitted: kernel.perf_event_paranoid is {}; lower it or run with CAP_PERFMON",
                            paranoid()
                        ),
                        3,
                    ),
                    Some(libc::EINVAL) => (
                        "the kernel rejected the raw config for this PMU".to_string(),
                        2,
                    ),
                    _ => ("unexpected error".to_string(), 1),
                };
                eprintln!(
                    "error: perf_event_open(PERF_TYPE_RAW, config {config:#x}) failed: {e}: {why}"
                );
                return ExitCode::from(exit);
            }
        };
        let mut run = || -> std::io::Result<(u64, u64, u64)> {
            counter.enable()?;
            workload();
            counter.disable()?;
            let data = counter.read_full()?;
            Ok((
                data.count(),
                data.time_enabled().map_or(0, |d| d.as_nanos() as u64),
                data.time_running().map_or(0, |d| d.as_nanos() as u64),
            ))
        };
        match run() {
            Ok((count, enabled, running)) => {
                println!("{name}: {count} (enabled {enabled} ns, running {running} ns)");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: reading the counter failed: {e}");
                ExitCode::from(1)
            }
        }
    }
}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
fn main() -> std::process::ExitCode {
    linux::main()
}

#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
fn main() -> std::process::ExitCode {
    eprintln!("error: perf-raw needs Linux (perf_event_open) on an x86-64 CPU");
    std::process::ExitCode::from(1)
}
