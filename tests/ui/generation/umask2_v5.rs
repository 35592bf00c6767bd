// UMASK2 (IA32_PERFEVTSELx bits 47:40) arrived with architectural performance monitoring v6.
use pmu_regs::intel::v5::IA32_PERFEVTSEL;

const SEL: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::new()
    .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0xD0>()
    .with::<IA32_PERFEVTSEL::UMASK2, 0x02>()
    .build();

fn main() {
    let _ = SEL;
}
