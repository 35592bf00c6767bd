// IN_TXCP on a value placed on IA32_PERFEVTSEL2; with the counter chosen at run time the
// fallible setter checks it.
use pmu_regs::intel::v4::{ArchEvent, IA32_PERFEVTSEL};
use pmu_regs::FieldError;

const SEL: IA32_PERFEVTSEL::Placed<2> = IA32_PERFEVTSEL::event_on::<2>(ArchEvent::LlcMisses.desc())
    .with_bit::<IA32_PERFEVTSEL::IN_TXCP>(true)
    .with_bit::<IA32_PERFEVTSEL::EN>(true)
    .build();
const BY_FIELDS: IA32_PERFEVTSEL::Placed<2> = IA32_PERFEVTSEL::Value::new()
    .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0x3C>()
    .at::<2>()
    .with_bit::<IA32_PERFEVTSEL::IN_TXCP>(true)
    .build();

fn main() {
    assert!(SEL.unplaced().is_set::<IA32_PERFEVTSEL::IN_TXCP>());
    assert_eq!(BY_FIELDS.bits(), 0x2_0000_003C);
    let on = |n| IA32_PERFEVTSEL::try_event_on(n, ArchEvent::LlcMisses.desc()).unwrap();
    assert!(on(2).try_with::<IA32_PERFEVTSEL::IN_TXCP>(1).is_ok());
    assert_eq!(
        on(1).try_with::<IA32_PERFEVTSEL::IN_TXCP>(1).unwrap_err(),
        FieldError::NotOnInstance { field: "IN_TXCP", instance: 1 }
    );
}
