const PATH: &str = "overlap.yaml";
pmu_macros::registers!(PATH);

fn main() {}
