use pmu_regs::intel::v3::IA32_PERFEVTSEL;

const SEL: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::new()
    .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0x2E>()
    .with::<IA32_PERFEVTSEL::UMASK, 0x1FF>()
    .build();

fn main() {
    let _ = SEL;
}
