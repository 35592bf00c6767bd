use pmu_regs::intel::v2::IA32_PERFEVTSEL;

const SEL: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::new()
    .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0x3C>()
    .with_bit::<IA32_PERFEVTSEL::ANY>(true)
    .build();

fn main() {
    let _ = SEL;
}
