// A typed (enum) setter and a const setter giving the same field different values.
use IA32_FIXED_CTR_CTRL::Enable;
use pmu_regs::intel::v3::IA32_FIXED_CTR_CTRL;

const CTRL: IA32_FIXED_CTR_CTRL::Value = IA32_FIXED_CTR_CTRL::Value::new()
    .with_enable0_value(Enable::Os)
    .with_pmi0(true)
    .with_enable0::<3>()
    .build();

fn main() {
    let _ = CTRL;
}
