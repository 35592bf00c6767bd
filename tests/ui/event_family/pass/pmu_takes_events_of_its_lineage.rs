// `Pmu` of a CPU model takes the model's own events and the architectural events of every
// generation it extends (by value or as the `EventRef` that `desc()` gives); a hand-built
// `EventDesc` goes through `program_raw`, on any vendor.
use pmu_regs::arch::{AmdCore, Filter, IntelSkylake};
use pmu_regs::backend::mock::{Mock, MockConfig};
use pmu_regs::detect::CounterSet;
use pmu_regs::intel::{skylake, v1, v4};
use pmu_regs::pmu::Pmu;
use pmu_regs::EventDesc;

fn main() {
    let mock = Mock::<IntelSkylake>::new(MockConfig::full::<IntelSkylake>(1));
    let mut pmu = Pmu::<IntelSkylake, _>::with_counters(
        mock.cpu(0),
        CounterSet::full::<IntelSkylake>(),
    );
    let llc = pmu.program(0, &v4::ArchEvent::LlcMisses, Filter::ALL).unwrap();
    assert_eq!(llc & 0xFFFF, 0x412E);
    let cycles = pmu.program(1, &v1::ArchEvent::UnhaltedCoreCycles.desc(), Filter::ALL);
    assert_eq!(cycles.unwrap() & 0xFFFF, 0x003C);
    let branches = pmu.program(2, &skylake::events::Event::BrInstRetired_AllBranches, Filter::ALL);
    assert_eq!(branches.unwrap() & 0xFF, 0xC4);

    let amd = Mock::<AmdCore>::new(MockConfig::full::<AmdCore>(1));
    let mut pmu = Pmu::<AmdCore, _>::with_counters(amd.cpu(0), CounterSet::full::<AmdCore>());
    let raw = pmu.program_raw(0, &EventDesc::new("RETIRED_UOPS", 0xC1, 0), Filter::ALL);
    assert_eq!(raw.unwrap() & 0xFF, 0xC1);
}
