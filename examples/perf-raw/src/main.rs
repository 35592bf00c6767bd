//! Counts an architectural event with `perf_event_open(2)`, using the raw config produced by
//! the `pmu-regs` encoder.
//!
//! ```text
//! perf-raw [--event NAME] [--list]
//! perf-raw --event-select 0xc0 [--umask 0x00]    # any encoding, AMD included
//! ```
//!
//! For `PERF_TYPE_RAW`, Linux takes `perf_event_attr.config` in the layout of the event-select
//! register with the bits perf owns left out (USR, OS, INT, EN: perf sets them from
//! `exclude_user`/`exclude_kernel` and sampling). `pmu_regs::arch::Arch::encode_raw_config` produces exactly
//! that from the generated encoder (`try_event_on` without filters): for LLC misses on Intel,
//! `0x412e` (event 2EH | umask 41H << 8).
//!
//! The counter measures user-mode events of this process while it walks a buffer larger than
//! the last-level cache. Exit status: 0 on success; 1 when the CPU has no architectural event
//! table or the event is unknown or unavailable; 2 when perf_event_open is not supported here
//! (no PMU, e.g. a VM without a virtual PMU); 3 when it is not permitted.

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
mod linux {
    use clap::Parser;
    use perf_event::Builder;
    use perf_event::events::Raw;
    use pmu_regs::EventDesc;
    use pmu_regs::arch::{Arch, ArchVisitor, Vendor};
    use pmu_regs::detect::{PmuInfo, detect_live};
    use std::hint::black_box;
    use std::process::ExitCode;

    /// Count an architectural event with perf_event_open and our raw encoding.
    #[derive(Parser, Debug)]
    #[command(name = "perf-raw")]
    struct Args {
        /// Architectural event name (see --list).
        #[arg(long, default_value = "LLC_MISSES")]
        event: String,
        /// List the events of this CPU's generation and exit.
        #[arg(long)]
        list: bool,
        /// Encode this event select instead of a named event (hex or decimal; 12 bits on AMD).
        #[arg(long, value_parser = parse_num::<u16>)]
        event_select: Option<u16>,
        /// Unit mask for --event-select.
        #[arg(long, value_parser = parse_num::<u8>, default_value = "0")]
        umask: u8,
    }

    fn parse_num<T: TryFrom<u64>>(s: &str) -> Result<T, String> {
        let v = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => s.parse(),
        }
        .map_err(|e| format!("`{s}` is not a number: {e}"))?;
        T::try_from(v).map_err(|_| format!("{s} is too large"))
    }

    /// The raw config of a hand-given encoding, through the generation's encoder.
    struct EncodeCustom(EventDesc);

    impl ArchVisitor for EncodeCustom {
        type Output = Result<(&'static str, u64), String>;

        fn visit<A: Arch>(self) -> Self::Output {
            A::encode_raw_config(&self.0)
                .map(|c| (self.0.name, c))
                .map_err(|e| e.to_string())
        }
    }

    /// The raw config of the named event, or why there is none.
    struct Encode<'a> {
        name: &'a str,
        info: &'a PmuInfo,
        list: bool,
    }

    impl ArchVisitor for Encode<'_> {
        type Output = Result<(&'static str, u64), String>;

        fn visit<A: Arch>(self) -> Self::Output {
            let events = A::arch_events();
            if self.list {
                for e in events {
                    let cfg = A::encode_raw_config(&e.desc);
                    match cfg {
                        Ok(c) => println!("{:<28} config {c:#x}", e.name),
                        Err(err) => println!("{:<28} ({err})", e.name),
                    }
                }
                return Err(String::new());
            }
            let Some(e) = events
                .iter()
                .find(|e| e.name.eq_ignore_ascii_case(self.name))
            else {
                let names: Vec<&str> = events.iter().map(|e| e.name).collect();
                return Err(format!(
                    "unknown event `{}` for {}; known: {}",
                    self.name,
                    A::ID,
                    names.join(", ")
                ));
            };
            if e.cpuid_bit < 32 && self.info.counters.unavailable_events & (1 << e.cpuid_bit) != 0 {
                return Err(format!(
                    "{} is not available on this CPU (CPUID.0AH:EBX[{}])",
                    e.name, e.cpuid_bit
                ));
            }
            let config =
                A::encode_raw_config(&e.desc).map_err(|err| format!("{}: {err}", e.name))?;
            Ok((e.name, config))
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
        let Some(generation) = info.generation else {
            eprintln!(
                "error: this CPU ({}) has no PMU the definitions describe; nothing to encode",
                info.vendor
            );
            return ExitCode::from(1);
        };
        let encoded = match args.event_select {
            Some(event) => generation.visit(EncodeCustom(EventDesc::new("RAW", event, args.umask))),
            None if generation.vendor() != Vendor::Intel => Err(format!(
                "{generation} has no architectural event table in the definitions; give an encoding with --event-select"
            )),
            None => generation.visit(Encode {
                name: &args.event,
                info: &info,
                list: args.list,
            }),
        };
        let (name, config) = match encoded {
            Ok(x) => x,
            Err(msg) if msg.is_empty() => return ExitCode::SUCCESS,
            Err(msg) => {
                eprintln!("error: {msg}");
                return ExitCode::from(1);
            }
        };
        println!("{name} on {generation}: PERF_TYPE_RAW config = {config:#x}");

        let mut counter = match Builder::new(Raw::new(config)).build() {
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
