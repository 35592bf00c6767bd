use pmu_regs::access::{MsrExt, RawMsr, WriteError};
use pmu_regs::intel::v4::IA32_PERF_GLOBAL_INUSE;

fn release_all<B: RawMsr>(msrs: &mut B) -> Result<(), WriteError<B::Error>> {
    let inuse = IA32_PERF_GLOBAL_INUSE::Value::from_raw_read(0);
    msrs.write(IA32_PERF_GLOBAL_INUSE::MSR, inuse)
}

fn main() {}
