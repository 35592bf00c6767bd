// A named value and another constant giving the same field different values.
use IA32_FIXED_CTR_CTRL::Enable;
use pmu_regs::intel::v3::IA32_FIXED_CTR_CTRL;

const CTRL: IA32_FIXED_CTR_CTRL::Value = IA32_FIXED_CTR_CTRL::Value::new()
    .with::<IA32_FIXED_CTR_CTRL::ENABLE0, { Enable::Os as u64 }>()
    .with_bit::<IA32_FIXED_CTR_CTRL::PMI0>(true)
    .with::<IA32_FIXED_CTR_CTRL::ENABLE0, 3>()
    .build();

fn main() {
    let _ = CTRL;
}
