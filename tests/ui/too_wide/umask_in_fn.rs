// Outside a `const` item the width check still happens at compile time (when the generic
// setter is monomorphized), not at run time.
use pmu_regs::intel::v3::IA32_PERFEVTSEL;

fn program() -> IA32_PERFEVTSEL::Value {
    IA32_PERFEVTSEL::Value::new().with::<IA32_PERFEVTSEL::UMASK, 0x100>().build()
}

fn main() {
    let _ = program();
}
