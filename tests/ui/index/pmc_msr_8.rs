use pmu_regs::intel::v4::IA32_PMC;

fn main() {
    let _ = IA32_PMC::msr::<8>();
}
