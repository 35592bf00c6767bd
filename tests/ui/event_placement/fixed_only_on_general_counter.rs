use pmu_regs::EventDesc;
use pmu_regs::intel::v4::IA32_PERFEVTSEL;

// Counted by fixed counter 0 only (no general-purpose counter).
const INST_RETIRED_ANY: EventDesc = EventDesc::new("INST_RETIRED.ANY", 0xC0, 0)
    .with_counters(0)
    .with_fixed(0);

const SEL: IA32_PERFEVTSEL::Placed<1> = IA32_PERFEVTSEL::event_on_raw::<1>(&INST_RETIRED_ANY)
    .with_bit::<IA32_PERFEVTSEL::USR>(true)
    .with_bit::<IA32_PERFEVTSEL::EN>(true)
    .build();

fn main() {
    let _ = SEL;
}
