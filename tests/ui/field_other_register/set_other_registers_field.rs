// IA32_PERFEVTSEL's UMASK set on, and read from, a value of IA32_FIXED_CTR_CTRL: a field's
// marker type is a field of its own register only.
use pmu_regs::intel::v3::{IA32_FIXED_CTR_CTRL, IA32_PERFEVTSEL};

fn main() {
    let fixed = IA32_FIXED_CTR_CTRL::Value::new()
        .with::<IA32_PERFEVTSEL::UMASK, 1>()
        .build();
    let _ = fixed.get::<IA32_PERFEVTSEL::EN>();
}
