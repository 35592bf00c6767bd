// A CPU model's event (Skylake, architectural version 4) on the event select of intel-v1:
// that layout belongs to generations that do not have the model's events.
use pmu_regs::intel::skylake::events::Event;
use pmu_regs::intel::v1::IA32_PERFEVTSEL;

fn main() {
    let sel = IA32_PERFEVTSEL::try_event_on(0, Event::BrInstRetired_AllBranches.desc());
    let _ = sel;
}
