// An Intel architectural event given to the run-time layer of an AMD generation: `Pmu`'s
// generation says which events types it counts, and AMD's core generation counts AMD's only.
use pmu_regs::access::RawMsr;
use pmu_regs::arch::{AmdCore, Filter};
use pmu_regs::intel::v4::ArchEvent;
use pmu_regs::pmu::Pmu;

fn start<B: RawMsr>(pmu: &mut Pmu<AmdCore, B>) {
    let _ = pmu.program(0, &ArchEvent::LlcMisses, Filter::ALL);
}

fn main() {
    let _ = start::<pmu_regs::backend::mock::MockCpu<AmdCore>>;
}
