// An event with a second unit mask, placed on a v5 counter.
use pmu_regs::EventDesc;
use pmu_regs::intel::v5::IA32_PERFEVTSEL;

const EV: EventDesc = EventDesc::new("MEM_UOPS_RETIRED.X", 0xD0, 0x21).with_umask2(0x02);
const SEL: IA32_PERFEVTSEL::Placed<0> = IA32_PERFEVTSEL::event_on_raw::<0>(&EV).build();

fn main() {
    let _ = SEL;
}
