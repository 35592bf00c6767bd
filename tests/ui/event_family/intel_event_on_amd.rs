// An Intel architectural event placed on AMD's core event select: the event type says which
// generations it belongs to, and AMD's `PERF_EVT_SEL_CORE` takes only AMD's events.
use pmu_regs::amd::core::PERF_EVT_SEL_CORE;
use pmu_regs::intel::v4::ArchEvent;

const SEL: PERF_EVT_SEL_CORE::Placed<0> = PERF_EVT_SEL_CORE::event_on::<0>(ArchEvent::LlcMisses.desc())
    .with_bit::<PERF_EVT_SEL_CORE::EN>(true)
    .build();

fn main() {
    let _ = SEL;
}
