// The per-fixed-counter AnyThread bits of IA32_FIXED_CTR_CTRL are also v3.
use pmu_regs::intel::v2::IA32_FIXED_CTR_CTRL;

const CTRL: IA32_FIXED_CTR_CTRL::Value = IA32_FIXED_CTR_CTRL::Value::new()
    .with_enable0::<3>()
    .with_any0(true)
    .build();

fn main() {
    let _ = CTRL;
}
