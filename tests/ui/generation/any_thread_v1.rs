// AnyThread (IA32_PERFEVTSELx bit 21) arrived with architectural performance monitoring v3.
use pmu_regs::intel::v1::IA32_PERFEVTSEL;

const SEL: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::new()
    .with_event_select::<0x3C>()
    .with_any(true)
    .build();

fn main() {
    let _ = SEL;
}
