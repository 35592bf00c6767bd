// The per-fixed-counter AnyThread bits of IA32_FIXED_CTR_CTRL are also v3.
use pmu_regs::intel::v2::IA32_FIXED_CTR_CTRL;

const CTRL: IA32_FIXED_CTR_CTRL::Value = IA32_FIXED_CTR_CTRL::Value::new()
    .with::<IA32_FIXED_CTR_CTRL::ENABLE0, 3>()
    .with_bit::<IA32_FIXED_CTR_CTRL::ANY0>(true)
    .build();

fn main() {
    let _ = CTRL;
}
