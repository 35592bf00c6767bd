// A path that exists neither beside this file nor below CARGO_MANIFEST_DIR.
pmu_macros::registers!("no_such_cpu.yaml");

fn main() {}
