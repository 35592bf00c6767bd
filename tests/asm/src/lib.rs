//! Functions built from constants through the generated API, in ordinary (non-`const`)
//! functions, so the optimizer, not const evaluation, must fold them. `tests/tests/asm.rs`
//! compiles this crate with `--release --emit asm` and checks that each one is a single `mov`
//! of the expected immediate followed by `ret`.
//!
//! `#[unsafe(no_mangle)]` keeps the symbol names readable in the assembly.

use pmu_regs::intel::v4::{ArchEvent, IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL, IA32_PERFEVTSEL};

/// LLC misses, user + kernel, enabled: 0x0043_412E.
#[unsafe(no_mangle)]
pub fn asm_llc_misses_sel() -> u64 {
    IA32_PERFEVTSEL::Value::new()
        .with_event_select::<0x2E>()
        .with_umask::<0x41>()
        .with_usr(true)
        .with_os(true)
        .with_en(true)
        .build()
        .bits()
}

/// The same through the architectural event table and counter placement: 0x0043_412E.
#[unsafe(no_mangle)]
pub fn asm_llc_misses_event_on() -> u64 {
    IA32_PERFEVTSEL::event_on::<3>(ArchEvent::LlcMisses.desc())
        .with_usr(true)
        .with_os(true)
        .with_en(true)
        .build()
        .bits()
}

/// The MSR address of IA32_PERFEVTSEL3: 0x189.
#[unsafe(no_mangle)]
pub fn asm_perfevtsel3_address() -> u32 {
    IA32_PERFEVTSEL::msr::<3>().address()
}

/// Fixed counters 0-2 counting at every privilege level, PMI on counter 1: 0x0333 | 1 << 7.
#[unsafe(no_mangle)]
pub fn asm_fixed_ctr_ctrl() -> u64 {
    IA32_FIXED_CTR_CTRL::Value::new()
        .with_enable0_value(IA32_FIXED_CTR_CTRL::Enable::All)
        .with_enable1_value(IA32_FIXED_CTR_CTRL::Enable::All)
        .with_enable2::<3>()
        .with_pmi1(true)
        .build()
        .bits()
}

/// General counters 0-3 and fixed counters 0-2 enabled: 0x7_0000_000F.
#[unsafe(no_mangle)]
pub fn asm_global_ctrl() -> u64 {
    IA32_PERF_GLOBAL_CTRL::Value::new()
        .with_en_pmc0(true)
        .with_en_pmc1(true)
        .with_en_pmc2(true)
        .with_en_pmc3(true)
        .with_en_fixed_ctr0(true)
        .with_en_fixed_ctr1(true)
        .with_en_fixed_ctr2(true)
        .build()
        .bits()
}
