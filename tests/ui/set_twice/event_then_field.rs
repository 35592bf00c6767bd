// event_on sets the event's encoding; changing it afterwards is a second value.
use pmu_regs::intel::v4::{ArchEvent, IA32_PERFEVTSEL};

const SEL: IA32_PERFEVTSEL::Placed<0> = IA32_PERFEVTSEL::event_on::<0>(ArchEvent::LlcMisses.desc())
    .with::<IA32_PERFEVTSEL::UMASK, 0x4F>()
    .build();

fn main() {
    let _ = SEL;
}
