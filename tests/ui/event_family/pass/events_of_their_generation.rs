// Each event type is placed on the event selects of the generations that have it: Intel's
// architectural events on Intel's, a CPU model's events on the model's (which is version 4's
// layout), AMD's 12-bit events through the raw escape hatch on AMD's.
use pmu_regs::amd::core::PERF_EVT_SEL_CORE;
use pmu_regs::intel::{skylake, v1, v4};
use pmu_regs::EventDesc;

const LLC_V1: v1::IA32_PERFEVTSEL::Placed<0> =
    v1::IA32_PERFEVTSEL::event_on::<0>(v1::ArchEvent::LlcMisses.desc()).build();
const LLC_V4: v4::IA32_PERFEVTSEL::Placed<1> =
    v4::IA32_PERFEVTSEL::event_on::<1>(v4::ArchEvent::LlcMisses.desc()).build();
const BRANCHES: skylake::IA32_PERFEVTSEL::Placed<2> = skylake::IA32_PERFEVTSEL::event_on::<2>(
    skylake::events::Event::BrInstRetired_AllBranches.desc(),
)
.build();
const AMD_RAW: PERF_EVT_SEL_CORE::Placed<0> =
    PERF_EVT_SEL_CORE::event_on_raw::<0>(&EventDesc::new("RETIRED_UOPS", 0xC1, 0)).build();

fn main() {
    assert_eq!(LLC_V1.bits(), 0x412E);
    assert_eq!(LLC_V4.bits(), 0x412E);
    // The model's ArchEvent is version 4's, so it fits the model's register too.
    let on_model = skylake::IA32_PERFEVTSEL::try_event_on(3, skylake::ArchEvent::LlcMisses.desc());
    assert_eq!(on_model.unwrap().build().bits(), 0x412E);
    assert_eq!(BRANCHES.unplaced().get::<skylake::IA32_PERFEVTSEL::EVENT_SELECT>(), 0xC4);
    assert_eq!(AMD_RAW.bits(), 0xC1);
}
