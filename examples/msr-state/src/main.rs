//! Reads and decodes the live PMU state of one CPU through `/dev/cpu/N/msr`.
//!
//! ```text
//! msr-state [--cpu N]
//! ```
//!
//! Detects the PMU generation with CPUID, prints the capability report, then reads every
//! readable PMU register of that generation that CPUID says exists and prints it field by
//! field (the generated `Debug` of each register's value type); then the same for each
//! facility CPUID reports (IBS, LBR v2, architectural LBRs, the uncore counters, ...: their
//! registers, `Facility::registers()`).
//!
//! Exit status: 0 on success; 1 when the CPU has no PMU the definitions describe or on
//! another error; 2 when `/dev/cpu/N/msr` does not exist (the `msr` driver is not loaded, or
//! the CPU is absent); 3 when access is not permitted (not root).

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
mod linux {
    use clap::Parser;
    use pmu_regs::access::RawMsr;
    use pmu_regs::arch::{Arch, ArchVisitor, RegInfo, Role};
    use pmu_regs::backend::linux::{DevMsr, DevMsrError};
    use pmu_regs::detect::{LiveCpuid, PmuInfo, detect_live, facilities};
    use std::process::ExitCode;

    /// Read and decode the live PMU state of one CPU through /dev/cpu/N/msr.
    #[derive(Parser, Debug)]
    #[command(name = "msr-state")]
    struct Args {
        /// The CPU to read.
        #[arg(long, default_value_t = 0)]
        cpu: u32,
    }

    fn exit_code(e: &DevMsrError) -> ExitCode {
        match e {
            DevMsrError::DeviceMissing { .. } => ExitCode::from(2),
            DevMsrError::PermissionDenied { .. } => ExitCode::from(3),
            _ => ExitCode::from(1),
        }
    }

    struct Dump<'a> {
        dev: &'a mut DevMsr,
        info: &'a PmuInfo,
    }

    impl ArchVisitor for Dump<'_> {
        type Output = Result<(), DevMsrError>;

        fn visit<A: Arch>(self) -> Result<(), DevMsrError> {
            let Dump { dev, info } = self;
            let c = &info.counters;
            // IA32_A_PMCx exist only with IA32_PERF_CAPABILITIES.FW_WRITE.
            let mut full_width = false;
            if let (true, Some(caps)) = (info.perf_capabilities_msr, A::perf_capabilities())
                && let Ok(bits) = dev.read_raw(caps)
            {
                full_width = A::caps_full_width_write(bits);
            }
            println!("\nPMU registers of CPU {} ({}):", dev.cpu(), A::ID);
            for reg in A::registers() {
                if !reg.access.readable() {
                    continue;
                }
                for (i, &address) in reg.addresses.iter().enumerate() {
                    let i = i as u32;
                    let present = match reg.role {
                        Some(Role::EventSelect | Role::Counter) => c.has_gp(i),
                        Some(Role::FullWidthCounter) => full_width && c.has_gp(i),
                        // Aliases of the core registers: shown once, under the core names.
                        Some(Role::LegacyEventSelect | Role::LegacyCounter) => false,
                        Some(Role::FixedCounter) => c.has_fixed(i),
                        Some(Role::Capabilities) => info.perf_capabilities_msr,
                        _ => true,
                    };
                    if present {
                        print_register(dev, reg, i, address)?;
                    }
                }
            }
            Ok(())
        }
    }

    /// Reads instance `i` of `reg` at `address` and prints it decoded; a fault is printed, not
    /// returned.
    fn print_register(
        dev: &mut DevMsr,
        reg: &RegInfo,
        i: u32,
        address: u32,
    ) -> Result<(), DevMsrError> {
        let name = reg.instance_name(i).to_string();
        match dev.read_raw(address) {
            Ok(bits) => println!(
                "  {name:<30} {address:#010x} = {bits:#018x}  {}",
                reg.decoded(bits)
            ),
            Err(e @ DevMsrError::Faulted { .. }) => {
                println!("  {name:<30} {address:#010x}   {e}")
            }
            Err(e) => return Err(e),
        }
        Ok(())
    }

    /// Every readable register of each facility CPUID reports.
    fn dump_facilities(dev: &mut DevMsr) -> Result<(), DevMsrError> {
        for f in facilities(&mut LiveCpuid).iter() {
            println!("\n{f} registers of CPU {} ({}):", dev.cpu(), f.title());
            for reg in f.registers().iter().filter(|r| r.access.readable()) {
                for (i, &address) in reg.addresses.iter().enumerate() {
                    print_register(dev, reg, i as u32, address)?;
                }
            }
        }
        Ok(())
    }

    pub fn main() -> ExitCode {
        let args = Args::parse();
        let info = detect_live();
        print!("{info}");
        let Some(generation) = info.generation else {
            eprintln!(
                "error: this CPU has no PMU the definitions describe; there is nothing to read"
            );
            return ExitCode::from(1);
        };
        let mut dev = match DevMsr::open_read_only(args.cpu) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("error: {e}");
                return exit_code(&e);
            }
        };
        let dump = generation.visit(Dump {
            dev: &mut dev,
            info: &info,
        });
        match dump.and_then(|()| dump_facilities(&mut dev)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                exit_code(&e)
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
    eprintln!("error: msr-state needs Linux (/dev/cpu/N/msr) on an x86-64 CPU");
    std::process::ExitCode::from(1)
}
