// The shipped generations are known to registers!, so the only error is the unknown parent,
// located in the user's file; the shipped files' diagnostics stay out of the message.
pmu_macros::registers!("extends_unknown.yaml");

fn main() {}
