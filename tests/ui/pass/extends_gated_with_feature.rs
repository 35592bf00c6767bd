// `intel-skylake-family` sits behind its Cargo feature, which the test crate's `intel-skylake`
// turns on: a file extending it compiles, and inherits its types.
pmu_macros::registers!("extends_gated_with_feature.yaml");

fn pebs(v: pmu_regs::intel::skylake_family::IA32_PEBS_ENABLE::Value) -> u64 {
    v.bits()
}

fn main() {
    let v = intel::skylake_test::IA32_PEBS_ENABLE::Value::new()
        .with_bit::<intel::skylake_test::IA32_PEBS_ENABLE::PEBS_EN_PMC0>(true)
        .build();
    assert_eq!(pebs(v), 1);
}
