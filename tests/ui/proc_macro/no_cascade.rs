// One mistake in the YAML is one error: the code below uses the generation the file would
// have defined (an inherited register, the new one, its Arch marker) from another module,
// and none of those uses adds a `cannot find` error after the located YAML error.
mod cpu {
    pmu_macros::registers!("no_cascade.yaml");
}

use cpu::amd::zen5_cascade::{PERF_CTR_CORE, ZEN5_CTL};

fn main() {
    let _ = PERF_CTR_CORE::Value::new();
    let _ = ZEN5_CTL::Value::new().with_enable(true);
    let _ = <cpu::amd::zen5_cascade::AmdZen5Cascade as pmu_regs::arch::Arch>::ID;
}
