// `intel-goldmont-family` is compiled into pmu-regs only with its Cargo feature (or a Goldmont
// model's); the test crate has neither. The error names the feature to enable, at the call.
pmu_macros::registers!("extends_gated_without_feature.yaml");

fn main() {}
