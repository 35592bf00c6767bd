use pmu_regs::access::{MsrExt, RawMsr, WriteError};
use pmu_regs::intel::v4::IA32_PERF_GLOBAL_STATUS;

fn clear_overflow<B: RawMsr>(msrs: &mut B) -> Result<(), WriteError<B::Error>> {
    let status = msrs.read(IA32_PERF_GLOBAL_STATUS::MSR).map_err(WriteError::Backend)?;
    msrs.write(IA32_PERF_GLOBAL_STATUS::MSR, status)
}

fn main() {}
