// IN_TXCP is valid only on IA32_PERFEVTSEL2 (it faults elsewhere): on a value placed on
// counter 0 it fails to compile.
use pmu_regs::intel::v4::{ArchEvent, IA32_PERFEVTSEL};

const SEL: IA32_PERFEVTSEL::Placed<0> = IA32_PERFEVTSEL::event_on::<0>(ArchEvent::LlcMisses.desc())
    .with_bit::<IA32_PERFEVTSEL::IN_TXCP>(true)
    .with_bit::<IA32_PERFEVTSEL::EN>(true)
    .build();

fn main() {
    let _ = SEL;
}
