// A value built for counter 0 written to counter 5's perfmon v6 alias address (0x1915): the
// alias address reaches the same typed counter as IA32_PERFEVTSEL5, so the write does not
// compile, as at the legacy address.
use pmu_regs::access::{MsrExt, RawMsr};
use pmu_regs::intel::v6::{ArchEvent, IA32_PERFEVTSEL};

const SEL: IA32_PERFEVTSEL::Placed<0> = IA32_PERFEVTSEL::event_on::<0>(ArchEvent::LlcMisses.desc())
    .with_bit::<IA32_PERFEVTSEL::EN>(true)
    .build();

pub fn program<B: RawMsr>(b: &mut B) {
    let _ = b.write(IA32_PERFEVTSEL::alias_msr::<5>(), SEL);
}

fn main() {}
