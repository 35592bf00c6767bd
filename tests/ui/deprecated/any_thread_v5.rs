// AnyThread is deprecated from architectural performance monitoring v5 on: setting it warns
// with the manual's reason (an error here, under `deny(deprecated)`).
#![deny(deprecated)]
use pmu_regs::intel::v5::{IA32_FIXED_CTR_CTRL, IA32_PERFEVTSEL};

fn main() {
    let sel = IA32_PERFEVTSEL::Value::new().with_bit::<IA32_PERFEVTSEL::ANY>(true).build();
    let fixed = IA32_FIXED_CTR_CTRL::Value::new().with_bit::<IA32_FIXED_CTR_CTRL::ANY0>(true).build();
    let _ = (sel, fixed);
}
