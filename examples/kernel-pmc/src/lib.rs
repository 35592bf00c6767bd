//! A `no_std` kernel-style user of `pmu-regs`: count last-level-cache misses on general-purpose
//! counter 0 and turn on every fixed counter, through the ring-0 (`rdmsr`/`wrmsr`) backend.
//!
//! The logic is generic over the backend so the same code runs against the mock in tests;
//! a kernel calls [`start_on_this_cpu`] (with preemption disabled) and later
//! [`sample_on_this_cpu`]:
//!
//! ```ignore
//! // In a kernel, at CPL 0, on the CPU to monitor:
//! let started = unsafe { kernel_pmc::start_on_this_cpu() }?;
//! // ... run the workload ...
//! let sample = unsafe { kernel_pmc::sample_on_this_cpu() }?;
//! ```
//!
//! CI builds this crate for `x86_64-unknown-none`.

#![no_std]
#![deny(unsafe_code)]

use core::convert::Infallible;
use core::fmt;
use pmu_regs::access::RawMsr;
use pmu_regs::arch::{Arch, ArchVisitor, Counter, Filter, FixedMode, Generation, Vendor};
use pmu_regs::detect::PmuInfo;
use pmu_regs::pmu::{Error as PmuError, Pmu};

/// The architectural event this crate counts on counter 0.
pub const EVENT: &str = "LLC_MISSES";

/// What [`start`] programmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Started {
    /// The PMU generation used.
    pub generation: Generation,
    /// The IA32_PERFEVTSEL0 value written.
    pub select: u64,
    /// Fixed counters enabled (bit n = IA32_FIXED_CTRn).
    pub fixed: u32,
}

/// Counter values read by [`sample`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Sample {
    /// IA32_PMC0: LLC misses.
    pub llc_misses: u64,
    /// IA32_FIXED_CTRn, for the counters that exist.
    pub fixed: [Option<u64>; 4],
}

/// Why the counters could not be started or read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartError<E> {
    /// The CPU has no Intel architectural PMU (AMD, or none at all).
    NoIntelPmu {
        /// What detection found.
        found: Option<Generation>,
    },
    /// The generation has no LLC-misses architectural event.
    NoEvent(Generation),
    /// Programming failed (counter 0 missing, event unavailable per CPUID.0AH:EBX, backend).
    Pmu(PmuError<E>),
}

impl<E> From<PmuError<E>> for StartError<E> {
    fn from(e: PmuError<E>) -> Self {
        StartError::Pmu(e)
    }
}

impl<E: fmt::Display> fmt::Display for StartError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::NoIntelPmu { found: Some(g) } => {
                write!(f, "{g} is not an Intel architectural PMU")
            }
            StartError::NoIntelPmu { found: None } => f.write_str("no PMU detected"),
            StartError::NoEvent(g) => write!(f, "{g} has no {EVENT} event"),
            StartError::Pmu(e) => e.fmt(f),
        }
    }
}

fn intel_generation<E>(info: &PmuInfo) -> Result<Generation, StartError<E>> {
    match info.generation {
        Some(g) if g.vendor() == Vendor::Intel => Ok(g),
        found => Err(StartError::NoIntelPmu { found }),
    }
}

struct StartOn<'a, B> {
    backend: B,
    info: &'a PmuInfo,
    generation: Generation,
}

impl<B: RawMsr> ArchVisitor for StartOn<'_, B> {
    type Output = Result<Started, StartError<B::Error>>;

    fn visit<A: Arch>(self) -> Self::Output {
        let mut pmu = Pmu::<A, B>::new(self.backend, self.info)?;
        let event = A::arch_events()
            .iter()
            .find(|e| e.name == EVENT)
            .ok_or(StartError::NoEvent(self.generation))?;
        let select = pmu.program_raw(0, &event.desc, Filter::ALL)?;
        let fixed = if pmu.counters().fixed != 0 {
            pmu.enable_fixed_counters(FixedMode::All, false)?
        } else {
            0
        };
        Ok(Started {
            generation: self.generation,
            select,
            fixed,
        })
    }
}

/// Programs LLC misses on PMC0 (user and kernel mode) and enables every fixed counter CPUID
/// reports, counting at every privilege level, on the CPU `backend` reaches.
pub fn start<B: RawMsr>(backend: B, info: &PmuInfo) -> Result<Started, StartError<B::Error>> {
    let generation = intel_generation(info)?;
    generation.visit(StartOn {
        backend,
        info,
        generation,
    })
}

struct SampleOn<'a, B> {
    backend: B,
    info: &'a PmuInfo,
}

impl<B: RawMsr> ArchVisitor for SampleOn<'_, B> {
    type Output = Result<Sample, StartError<B::Error>>;

    fn visit<A: Arch>(self) -> Self::Output {
        let mut pmu = Pmu::<A, B>::new(self.backend, self.info)?;
        let mut s = Sample {
            llc_misses: pmu.read(Counter::Gp(0))?,
            ..Sample::default()
        };
        for (n, slot) in s.fixed.iter_mut().enumerate() {
            if pmu.counters().has_fixed(n as u32) {
                *slot = Some(pmu.read(Counter::Fixed(n as u32))?);
            }
        }
        Ok(s)
    }
}

/// Reads PMC0 and the fixed counters.
pub fn sample<B: RawMsr>(backend: B, info: &PmuInfo) -> Result<Sample, StartError<B::Error>> {
    intel_generation(info)?.visit(SampleOn { backend, info })
}

/// [`start`] on the running CPU, detected with CPUID, through `rdmsr`/`wrmsr`.
///
/// # Safety
///
/// The contract of [`pmu_regs::backend::ring0::Ring0::new`]: the caller runs at CPL 0 and
/// stays on this CPU for the duration of the call (preemption disabled). The MSRs accessed are
/// those CPUID reports (detection and `Pmu` keep to them), so no access faults.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub unsafe fn start_on_this_cpu() -> Result<Started, StartError<Infallible>> {
    let info = pmu_regs::detect::detect_live();
    // SAFETY: forwarded to our caller (CPL 0, pinned to this CPU); only PMU MSRs that CPUID
    // enumerates are accessed.
    let backend = unsafe { pmu_regs::backend::ring0::Ring0::new() };
    start(backend, &info)
}

/// [`sample`] on the running CPU.
///
/// # Safety
///
/// As for [`start_on_this_cpu`].
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub unsafe fn sample_on_this_cpu() -> Result<Sample, StartError<Infallible>> {
    let info = pmu_regs::detect::detect_live();
    // SAFETY: as in `start_on_this_cpu`.
    let backend = unsafe { pmu_regs::backend::ring0::Ring0::new() };
    sample(backend, &info)
}
