// Before v5, AnyThread is not deprecated: no warning, even under `deny(deprecated)`.
#![deny(deprecated)]
use pmu_regs::intel::v4::{IA32_FIXED_CTR_CTRL, IA32_PERFEVTSEL};

fn main() {
    let sel = IA32_PERFEVTSEL::Value::new().with_bit::<IA32_PERFEVTSEL::ANY>(true).build();
    let fixed = IA32_FIXED_CTR_CTRL::Value::new().with_bit::<IA32_FIXED_CTR_CTRL::ANY0>(true).build();
    assert_eq!((sel.bits(), fixed.bits()), (1 << 21, 1 << 2));
}
