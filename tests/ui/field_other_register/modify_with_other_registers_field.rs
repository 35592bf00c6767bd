// A tock-registers field value of IA32_PERFEVTSEL written into a copy of IA32_PERF_GLOBAL_CTRL.
use pmu_regs::intel::v3::{IA32_PERF_GLOBAL_CTRL, IA32_PERFEVTSEL};

fn main() {
    let mut global = IA32_PERF_GLOBAL_CTRL::Value::new().build().to_local();
    global.modify(IA32_PERFEVTSEL::EN::SET);
}
