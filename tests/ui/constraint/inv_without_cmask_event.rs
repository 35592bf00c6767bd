// The same constraint through an event description with INV and no CMASK.
use pmu_regs::EventDesc;
use pmu_regs::intel::v4::IA32_PERFEVTSEL;

const BAD: EventDesc = EventDesc::new("BAD_INV", 0x3C, 0).with_inv(true);
const SEL: IA32_PERFEVTSEL::Placed<0> = IA32_PERFEVTSEL::event_on_raw::<0>(&BAD).with_bit::<IA32_PERFEVTSEL::EN>(true).build();

fn main() {
    let _ = SEL;
}
