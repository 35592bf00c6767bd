use pmu_regs::intel::v3::IA32_PERFEVTSEL;

const SEL: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::new()
    .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0x2E>()
    .with::<IA32_PERFEVTSEL::UMASK, 0x41>()
    .with_bit::<IA32_PERFEVTSEL::INV>(true)
    .with_bit::<IA32_PERFEVTSEL::EN>(true)
    .build();

fn main() {
    let _ = SEL;
}
