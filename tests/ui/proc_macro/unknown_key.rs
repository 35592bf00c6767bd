// The YAML is looked up beside this file; the error must point into it (file:line:col).
pmu_macros::registers!("unknown_key.yaml");

fn main() {}
