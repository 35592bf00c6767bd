use pmu_regs::intel::v3::IA32_FIXED_CTR_CTRL;

const CTRL: IA32_FIXED_CTR_CTRL::Value = IA32_FIXED_CTR_CTRL::Value::new()
    .with_enable1::<4>()
    .build();

fn main() {
    let _ = CTRL;
}
