// A CPU model's event given to the run-time layer of the architectural version the model
// extends: version 4 does not have Skylake's model-specific events.
use pmu_regs::access::RawMsr;
use pmu_regs::arch::{Filter, IntelV4};
use pmu_regs::intel::skylake::events::Event;
use pmu_regs::pmu::Pmu;

fn start<B: RawMsr>(pmu: &mut Pmu<IntelV4, B>) {
    let _ = pmu.program(0, &Event::BrInstRetired_AllBranches, Filter::ALL);
}

fn main() {
    let _ = start::<pmu_regs::backend::mock::MockCpu<IntelV4>>;
}
