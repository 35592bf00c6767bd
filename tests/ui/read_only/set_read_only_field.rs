// A read-only register's fields have no setters: calling one says the field is read-only
// (a one-bit field and a wider one), instead of rustc's "no method named `with_...`".
use pmu_regs::intel::v4::{IA32_PERF_CAPABILITIES, IA32_PERF_GLOBAL_STATUS};

fn main() {
    let status = IA32_PERF_GLOBAL_STATUS::Value::from_raw_read(0).with_bit::<IA32_PERF_GLOBAL_STATUS::OVF_PMC0>(true);
    let caps = IA32_PERF_CAPABILITIES::Value::from_raw_read(0).with::<IA32_PERF_CAPABILITIES::LBR_FMT, 5>();
    let _ = (status, caps);
}
