use pmu_regs::access::{MsrExt, RawMsr};
use pmu_regs::intel::v4::IA32_PERF_GLOBAL_STATUS;

fn clear_overflow<B: RawMsr>(msrs: &mut B) -> Result<(), B::Error> {
    let status = msrs.read(IA32_PERF_GLOBAL_STATUS::MSR)?;
    msrs.write(IA32_PERF_GLOBAL_STATUS::MSR, status)
}

fn main() {}
