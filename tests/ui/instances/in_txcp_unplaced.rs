// IN_TXCP on a value not placed on any counter: which instance it goes to is unknown, so the
// setter is not there; the message says where the field is valid.
use pmu_regs::intel::v4::IA32_PERFEVTSEL;

fn main() {
    let sel = IA32_PERFEVTSEL::Value::new()
        .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0x3C>()
        .with_bit::<IA32_PERFEVTSEL::IN_TXCP>(true)
        .build();
    let _ = sel;
}
