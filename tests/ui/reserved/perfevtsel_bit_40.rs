use pmu_regs::intel::v3::IA32_PERFEVTSEL;

// Bit 40 is reserved in the v3 layout (bits 63:34).
const SEL: IA32_PERFEVTSEL::Value =
    IA32_PERFEVTSEL::Value::from_bits::<{ (1 << 40) | 0x0043_412E }>();

fn main() {
    let _ = SEL;
}
