// In an ordinary function the index is checked when the call is monomorphized (cargo build).
use pmu_regs::intel::v3::IA32_PERFEVTSEL;

fn main() {
    let sel = IA32_PERFEVTSEL::msr::<8>();
    let _ = sel.address();
}
