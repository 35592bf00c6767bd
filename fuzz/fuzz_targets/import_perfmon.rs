#![no_main]
//! See `pmu_defs_fuzz::harness::import_perfmon`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| pmu_defs_fuzz::harness::import_perfmon(data));
