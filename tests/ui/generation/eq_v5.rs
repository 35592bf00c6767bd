// EQ (IA32_PERFEVTSELx bit 36, equal-compare with CMASK) arrived with version 6.
use pmu_regs::intel::v5::IA32_PERFEVTSEL;

const SEL: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::new()
    .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0xD0>()
    .with::<IA32_PERFEVTSEL::CMASK, 1>()
    .with_bit::<IA32_PERFEVTSEL::EQ>(true)
    .build();

fn main() {
    let _ = SEL;
}
