use pmu_regs::EventDesc;
use pmu_regs::intel::v4::IA32_PERFEVTSEL;

// An event that only counters 0-3 may count.
const LOW_ONLY: EventDesc =
    EventDesc::new("L1D_PEND_MISS.PENDING", 0x48, 0x01).with_counters(0b1111);

const SEL: IA32_PERFEVTSEL::Placed<5> = IA32_PERFEVTSEL::event_on_raw::<5>(&LOW_ONLY)
    .with_bit::<IA32_PERFEVTSEL::EN>(true)
    .build();

fn main() {
    let _ = SEL;
}
