// Read-modify-write needs a writable register too.
use pmu_regs::access::{MsrExt, RawMsr};
use pmu_regs::intel::v5::IA32_PERF_GLOBAL_STATUS;

fn touch<B: RawMsr>(msrs: &mut B) -> Result<(), B::Error> {
    msrs.modify(IA32_PERF_GLOBAL_STATUS::MSR, |v| v)?;
    Ok(())
}

fn main() {}
