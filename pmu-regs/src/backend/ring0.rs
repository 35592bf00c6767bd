//! Ring-0 MSR access with the `rdmsr` and `wrmsr` instructions, for `no_std` kernels.
//!
//! This is the only module of the crate that contains `unsafe` code. The instructions have no
//! way to report failure: an access to an MSR the processor does not implement, a write that
//! sets a reserved bit, or any access outside privilege level 0 raises a general-protection
//! exception (#GP) in the caller. [`Ring0::new`] is therefore `unsafe`, and its caller takes on
//! the contract below; [`crate::pmu::Pmu`] with a [`CounterSet`](crate::detect::CounterSet)
//! from [`crate::detect`] keeps every access within it.

use crate::access::RawMsr;
use core::arch::asm;
use core::convert::Infallible;
use core::marker::PhantomData;

/// `rdmsr`/`wrmsr` on the processor the code runs on.
///
/// The handle is neither `Send` nor `Sync`: MSRs belong to the logical processor that executes
/// the instruction, so a handle carried to another thread would silently address another CPU.
#[derive(Debug)]
pub struct Ring0 {
    _per_cpu: PhantomData<*mut ()>,
}

impl Ring0 {
    /// A handle for the current processor.
    ///
    /// # Safety
    ///
    /// For as long as the handle (or anything it is moved into) is used:
    ///
    /// - The code runs at current privilege level 0. `rdmsr`/`wrmsr` raise #GP at any other
    ///   level.
    /// - Every address read or written names an MSR this processor implements, and every value
    ///   written is valid for it (no reserved bit set; for example no IA32_A_PMCx write unless
    ///   IA32_PERF_CAPABILITIES.FW_WRITE = 1). Otherwise the instruction raises #GP, which this
    ///   backend cannot turn into an error. Addresses and values built by the generated API and
    ///   [`crate::pmu::Pmu`] with a [`CounterSet`](crate::detect::CounterSet) from
    ///   [`crate::detect`] satisfy this.
    /// - The handle is used only for performance-monitoring MSRs. `write_raw` is a safe method;
    ///   writing other MSRs (EFER, LSTAR, the APIC base, ...) through it could break memory
    ///   safety, and by creating the handle the caller promises it will not happen.
    /// - Where a sequence of accesses must reach the registers of one logical processor (read,
    ///   modify, write of a global control; programming then enabling a counter), the caller
    ///   keeps the code on that processor (preemption or migration disabled).
    pub const unsafe fn new() -> Self {
        Ring0 {
            _per_cpu: PhantomData,
        }
    }
}

impl RawMsr for Ring0 {
    type Error = Infallible;

    fn read_raw(&mut self, address: u32) -> Result<u64, Infallible> {
        let lo: u32;
        let hi: u32;
        // SAFETY: `Ring0::new`'s contract: CPL 0 and an implemented MSR. `rdmsr` reads ECX,
        // writes EDX:EAX and touches neither memory, the stack nor flags.
        unsafe {
            asm!(
                "rdmsr",
                in("ecx") address,
                out("eax") lo,
                out("edx") hi,
                options(nostack, preserves_flags),
            );
        }
        Ok(((hi as u64) << 32) | lo as u64)
    }

    fn write_raw(&mut self, address: u32, value: u64) -> Result<(), Infallible> {
        // SAFETY: `Ring0::new`'s contract: CPL 0, an implemented performance-monitoring MSR and
        // a value without reserved bits. `wrmsr` reads ECX and EDX:EAX and touches neither the
        // stack nor flags; it is not `nomem` so that the compiler keeps memory accesses ordered
        // around it.
        unsafe {
            asm!(
                "wrmsr",
                in("ecx") address,
                in("eax") value as u32,
                in("edx") (value >> 32) as u32,
                options(nostack, preserves_flags),
            );
        }
        Ok(())
    }
}
