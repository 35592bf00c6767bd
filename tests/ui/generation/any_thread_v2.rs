use pmu_regs::intel::v2::IA32_PERFEVTSEL;

const SEL: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::new()
    .with_event_select::<0x3C>()
    .with_any(true)
    .build();

fn main() {
    let _ = SEL;
}
