// IA32_PERFEVTSEL's EN tested on a copy of IA32_PERF_GLOBAL_CTRL: the field's type names its
// register, so the mix-up does not compile.
use pmu_regs::intel::v3::{IA32_PERF_GLOBAL_CTRL, IA32_PERFEVTSEL};

fn main() {
    let global = IA32_PERF_GLOBAL_CTRL::Value::new().build().to_local();
    let _ = global.is_set(IA32_PERFEVTSEL::EN);
}
