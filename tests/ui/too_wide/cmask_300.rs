use pmu_regs::intel::v3::IA32_PERFEVTSEL;

const SEL: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::new()
    .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0xC2>()
    .with::<IA32_PERFEVTSEL::CMASK, 300>()
    .build();

fn main() {
    let _ = SEL;
}
