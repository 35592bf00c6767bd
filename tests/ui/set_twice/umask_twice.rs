use pmu_regs::intel::v3::IA32_PERFEVTSEL;

const SEL: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::new()
    .with_event_select::<0x2E>()
    .with_umask::<0x41>()
    .with_usr(true)
    .with_umask::<0x4F>()
    .build();

fn main() {
    let _ = SEL;
}
