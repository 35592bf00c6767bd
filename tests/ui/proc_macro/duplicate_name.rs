// The YAML is looked up beside this file; the error must point into it (file:line:col).
pmu_macros::registers!("duplicate_name.yaml");

fn main() {}
