use pmu_regs::intel::v3::IA32_PERFEVTSEL;

const SEL8: u32 = IA32_PERFEVTSEL::address::<8>();

fn main() {
    let _ = SEL8;
}
