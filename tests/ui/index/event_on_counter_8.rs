use pmu_regs::intel::v4::{ArchEvent, IA32_PERFEVTSEL};

const SEL: IA32_PERFEVTSEL::Placed<8> =
    IA32_PERFEVTSEL::event_on::<8>(ArchEvent::LlcMisses.desc()).build();

fn main() {
    let _ = SEL;
}
