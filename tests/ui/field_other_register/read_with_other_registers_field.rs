// A tock-registers field of IA32_PERFEVTSEL read from a copy of IA32_FIXED_CTR_CTRL.
use pmu_regs::intel::v3::{IA32_FIXED_CTR_CTRL, IA32_PERFEVTSEL};

fn main() {
    let fixed = IA32_FIXED_CTR_CTRL::Value::new()
        .with::<IA32_FIXED_CTR_CTRL::ENABLE0, 3>()
        .build();
    let _ = fixed.to_local().read(IA32_PERFEVTSEL::UMASK);
}
