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
        .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0x2E>()
        .with::<IA32_PERFEVTSEL::UMASK, 0x41>()
        .with_bit::<IA32_PERFEVTSEL::USR>(true)
        .with_bit::<IA32_PERFEVTSEL::OS>(true)
        .with_bit::<IA32_PERFEVTSEL::EN>(true)
        .build()
        .bits()
}

/// The same through the architectural event table and counter placement: 0x0043_412E.
#[unsafe(no_mangle)]
pub fn asm_llc_misses_event_on() -> u64 {
    IA32_PERFEVTSEL::event_on::<3>(ArchEvent::LlcMisses.desc())
        .with_bit::<IA32_PERFEVTSEL::USR>(true)
        .with_bit::<IA32_PERFEVTSEL::OS>(true)
        .with_bit::<IA32_PERFEVTSEL::EN>(true)
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
        .with_value::<IA32_FIXED_CTR_CTRL::ENABLE0>(IA32_FIXED_CTR_CTRL::Enable::All)
        .with_value::<IA32_FIXED_CTR_CTRL::ENABLE1>(IA32_FIXED_CTR_CTRL::Enable::All)
        .with::<IA32_FIXED_CTR_CTRL::ENABLE2, 3>()
        .with_bit::<IA32_FIXED_CTR_CTRL::PMI1>(true)
        .build()
        .bits()
}

/// General counters 0-3 and fixed counters 0-2 enabled: 0x7_0000_000F.
#[unsafe(no_mangle)]
pub fn asm_global_ctrl() -> u64 {
    IA32_PERF_GLOBAL_CTRL::Value::new()
        .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC0>(true)
        .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC1>(true)
        .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC2>(true)
        .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC3>(true)
        .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_FIXED_CTR0>(true)
        .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_FIXED_CTR1>(true)
        .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_FIXED_CTR2>(true)
        .build()
        .bits()
}

/// A Skylake model event placed on counter 1 at run time from its descriptor, user + kernel,
/// enabled: LONGEST_LAT_CACHE.MISS is 0x2E/0x41, so 0x0043_412E.
#[unsafe(no_mangle)]
pub fn asm_model_event_on() -> u64 {
    pmu_regs::intel::skylake::IA32_PERFEVTSEL::event_on::<1>(
        pmu_regs::intel::skylake::events::Event::LongestLatCache_Miss.desc(),
    )
    .with_bit::<pmu_regs::intel::skylake::IA32_PERFEVTSEL::USR>(true)
    .with_bit::<pmu_regs::intel::skylake::IA32_PERFEVTSEL::OS>(true)
    .with_bit::<pmu_regs::intel::skylake::IA32_PERFEVTSEL::EN>(true)
    .build()
    .bits()
}

/// Generated: element `i` of FIXED_CTR_CTRL's 2-bit ENABLE blocks (4 bits apart) set to `v`.
#[unsafe(no_mangle)]
pub fn gen_fixed_enable_at(bits: u64, i: u32, v: u64) -> u64 {
    match IA32_FIXED_CTR_CTRL::Value::from_raw_read(bits)
        .try_with_at::<IA32_FIXED_CTR_CTRL::ENABLE>(i, v)
    {
        Ok(x) => x.bits(),
        Err(_) => 0,
    }
}

/// Hand-written: the same (2-bit enable blocks 4 bits apart, Intel SDM Vol. 3B Figure 21-8).
#[unsafe(no_mangle)]
pub fn hand_fixed_enable_at(bits: u64, i: u32, v: u64) -> u64 {
    if v > 3 || i >= 3 {
        return 0;
    }
    let shift = 4 * i;
    (bits & !(3 << shift)) | (v << shift)
}

// Generated vs hand-written, one pair per kind of register access, with run-time operands (so
// nothing folds away); `tests/tests/asm.rs` compares their instruction counts. The
// hand-written side does what a careful programmer would: the same checks, shifts and masks.

/// Generated: a plain field (UMASK of IA32_PERFEVTSEL, 8 bits at 15:8) set at run time.
#[unsafe(no_mangle)]
pub fn gen_plain_umask(bits: u64, v: u64) -> u64 {
    match IA32_PERFEVTSEL::Value::from_raw_read(bits).try_with::<IA32_PERFEVTSEL::UMASK>(v) {
        Ok(x) => x.bits(),
        Err(_) => 0,
    }
}

/// Hand-written: the same (UMASK is bits 15:8, Intel SDM Vol. 3B Figure 21-6).
#[unsafe(no_mangle)]
pub fn hand_plain_umask(bits: u64, v: u64) -> u64 {
    if v > 0xFF {
        return 0;
    }
    (bits & !0xFF00) | (v << 8)
}

/// Generated: AMD's split 12-bit event select (bits 7:0 and 35:32) set at run time.
#[unsafe(no_mangle)]
pub fn gen_split_event_select(bits: u64, v: u64) -> u64 {
    match pmu_regs::amd::core::PERF_EVT_SEL_CORE::Value::from_raw_read(bits)
        .try_with::<pmu_regs::amd::core::PERF_EVT_SEL_CORE::EVENT_SELECT>(v)
    {
        Ok(x) => x.bits(),
        Err(_) => 0,
    }
}

/// Hand-written: the same (EventSelect bits 7:0 at 7:0, bits 11:8 at 35:32, AMD64 APM Vol. 2
/// Figure 13-7).
#[unsafe(no_mangle)]
pub fn hand_split_event_select(bits: u64, v: u64) -> u64 {
    if v > 0xFFF {
        return 0;
    }
    (bits & !0xF_0000_00FF) | (v & 0xFF) | ((v >> 8) << 32)
}

/// Generated: the address of instance `n` of the PerfEvtSel family, or 0 when out of range.
#[unsafe(no_mangle)]
pub fn gen_family_address(n: u32) -> u32 {
    match IA32_PERFEVTSEL::try_msr(n) {
        Some(m) => m.address(),
        None => 0,
    }
}

/// Hand-written: the same, from the family's base address and instance count.
#[unsafe(no_mangle)]
pub fn hand_family_address(n: u32) -> u32 {
    if n < IA32_PERFEVTSEL::INSTANCES {
        IA32_PERFEVTSEL::BASE_ADDRESS + n
    } else {
        0
    }
}
