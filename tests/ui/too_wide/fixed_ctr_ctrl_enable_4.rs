use pmu_regs::intel::v3::IA32_FIXED_CTR_CTRL;

const CTRL: IA32_FIXED_CTR_CTRL::Value = IA32_FIXED_CTR_CTRL::Value::new()
    .with::<IA32_FIXED_CTR_CTRL::ENABLE1, 4>()
    .build();

fn main() {
    let _ = CTRL;
}
