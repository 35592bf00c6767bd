use pmu_regs::intel::v3::IA32_FIXED_CTR_CTRL;

// v3 has three fixed counters: bits 63:12 are reserved.
fn main() {
    let _ = IA32_FIXED_CTR_CTRL::Value::from_bits::<0x1333>();
}
