// An event that needs AnyThread, placed on a v1 counter.
use pmu_regs::EventDesc;
use pmu_regs::intel::v1::IA32_PERFEVTSEL;

const CORE_CYCLES: EventDesc =
    EventDesc::new("CPU_CLK_UNHALTED.THREAD_ANY", 0x3C, 0).with_any(true);
const SEL: IA32_PERFEVTSEL::Placed<0> = IA32_PERFEVTSEL::event_on_raw::<0>(&CORE_CYCLES).build();

fn main() {
    let _ = SEL;
}
