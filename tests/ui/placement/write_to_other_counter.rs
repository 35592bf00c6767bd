// A value built for counter 0 written to counter 5's MSR: the counter is part of both types,
// so the write does not compile (an event restricted to some counters would otherwise end up
// on one that does not count it).
use pmu_regs::access::{MsrExt, RawMsr};
use pmu_regs::intel::v4::{ArchEvent, IA32_PERFEVTSEL};

const SEL: IA32_PERFEVTSEL::Placed<0> = IA32_PERFEVTSEL::event_on::<0>(ArchEvent::LlcMisses.desc())
    .with_bit::<IA32_PERFEVTSEL::EN>(true)
    .build();

pub fn program<B: RawMsr>(b: &mut B) {
    let _ = b.write(IA32_PERFEVTSEL::msr::<5>(), SEL);
}

fn main() {}
