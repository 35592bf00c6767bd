#![no_main]
//! See `pmu_defs_fuzz::harness::decode`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| pmu_defs_fuzz::harness::decode(data));
