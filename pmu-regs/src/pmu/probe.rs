//! Is the PMU real? [`Pmu::probe`] checks that the counters CPUID reports hold what is written
//! to them, as Linux's `check_hw_exists()` (`arch/x86/events/core.c`) does before it trusts
//! a PMU: in a virtual machine CPUID may advertise counters whose MSRs fault, or that read 0
//! and drop writes, and a profiler that exports such a counter reports a live-but-wrong count.
//!
//! For each counter: its control is read first, and a counter some other software has
//! enabled is left alone ([`CounterProbe::busy`]); otherwise its value is read, a test value
//! written, read back, and the old value written back. No event select or control register is
//! ever written, so no counter is left programmed.
//!
//! With the ring-0 backend ([`crate::backend::ring0::Ring0`]) a counter MSR that does not exist
//! raises #GP in the caller; probe with a backend that turns the fault into an error (a
//! kernel's exception-table-safe `rdmsr`, or `/dev/cpu/N/msr` through
//! [`crate::backend::linux`], which reports it as `EIO`).

use super::*;

/// What [`Pmu::probe`] found, for one kind of counter (bit n = counter n of that kind).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CounterProbe {
    /// Counters that held the test value.
    pub working: u32,
    /// Counters whose access faulted or that did not hold the test value.
    pub failed: u32,
    /// Counters another user had enabled: not tested, left as they were.
    pub busy: u32,
    /// Working counters whose old value could not be written back exactly: without
    /// full-width writes an Intel counter takes only the sign extension of bits 31:0, so
    /// the bits above were lost (the counter was not enabled, so nobody was counting on it).
    pub not_restored: u32,
}

/// Whether the PMU counts, from [`Probe::presence`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// Every counter tested holds what is written (or is in use by other software).
    Real,
    /// Some counters work and some do not: use only [`Probe::gp`]/[`Probe::fixed`]'s
    /// `working` ones.
    Partial,
    /// No counter works, or CPUID reports none: count nothing on this machine.
    Absent,
}

impl fmt::Display for Presence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Presence::Real => "real",
            Presence::Partial => "partial",
            Presence::Absent => "absent",
        })
    }
}

/// Why a counter failed the probe. `E` is the backend's error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeFailure<E> {
    /// Reading or writing the counter or its control failed (a #GP on hardware).
    Access(Error<E>),
    /// The counter did not hold the value written: the MSR exists but does not count (a
    /// hypervisor's stub reads 0 and drops writes).
    NotHeld {
        /// The value written.
        wrote: u64,
        /// The value read back.
        read: u64,
    },
}

impl<E: fmt::Display> fmt::Display for ProbeFailure<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeFailure::Access(e) => write!(f, "access failed: {e}"),
            ProbeFailure::NotHeld { wrote, read } => write!(
                f,
                "wrote {wrote:#x}, read back {read:#x}: the MSR does not hold a count"
            ),
        }
    }
}

/// The result of [`Pmu::probe`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe<E> {
    /// The general-purpose counters.
    pub gp: CounterProbe,
    /// The fixed counters.
    pub fixed: CounterProbe,
    /// The first counter that failed, and why.
    pub first_failure: Option<(Counter, ProbeFailure<E>)>,
}

impl<E> Probe<E> {
    /// Real, partial or absent (see [`Presence`]).
    pub fn presence(&self) -> Presence {
        let working = self.gp.working | self.fixed.working | self.gp.busy | self.fixed.busy;
        let failed = self.gp.failed | self.fixed.failed;
        match (working != 0, failed != 0) {
            (true, false) => Presence::Real,
            (true, true) => Presence::Partial,
            (false, _) => Presence::Absent,
        }
    }
}

impl<A: Arch, B: RawMsr> Pmu<A, B> {
    /// Is the PMU real? Checks that each counter this PMU uses holds what is written to it,
    /// as Linux's `check_hw_exists()` does: in a virtual machine CPUID may advertise counters
    /// whose MSRs fault, or that read 0 and drop writes.
    ///
    /// For each counter its control is read first, and a counter some other software (or this
    /// object) has enabled is left alone ([`CounterProbe::busy`]); otherwise its value is
    /// read, a test value written and read back, and the old value written back. No event
    /// select or control register is written, so no counter is left programmed. With the
    /// ring-0 backend a counter MSR that does not exist raises #GP in the caller: probe with a
    /// backend that turns the fault into an error (an exception-table-safe `rdmsr`, or
    /// `/dev/cpu/N/msr`, which reports it as `EIO`).
    ///
    /// ```
    /// # #[cfg(feature = "mock")] {
    /// use pmu_regs::arch::IntelV4;
    /// use pmu_regs::backend::mock::{Mock, MockConfig};
    /// use pmu_regs::detect::CounterSet;
    /// use pmu_regs::pmu::{Pmu, Presence};
    ///
    /// // A guest whose hypervisor stubs general counters 2 and 3: they read 0, drop writes.
    /// let mock = Mock::<IntelV4>::new(MockConfig::full::<IntelV4>(1).with_inert_counters(0b1100, 0));
    /// let mut pmu = Pmu::<IntelV4, _>::with_counters(mock.cpu(0), CounterSet::full::<IntelV4>());
    /// let probe = pmu.probe();
    /// assert_eq!(probe.presence(), Presence::Partial);
    /// assert_eq!(probe.gp.failed, 0b1100);
    /// assert_eq!(probe.gp.working & 0b1111, 0b0011);
    /// assert!(mock.faults().is_empty());
    /// # }
    /// ```
    pub fn probe(&mut self) -> Probe<B::Error> {
        let mut probe = Probe {
            gp: CounterProbe::default(),
            fixed: CounterProbe::default(),
            first_failure: None,
        };
        // The fixed counters' control, read once; its error is reported once (`take`).
        let (mut ctrl, mut ctrl_err) = (None, None);
        if self.counters.fixed != 0
            && let Some(c) = A::fixed_ctrl()
        {
            match self.msr_read(c) {
                Ok(bits) => ctrl = Some(bits),
                Err(e) => ctrl_err = Some(e),
            }
        }
        let ctrl_failed = ctrl_err.is_some();
        for n in 0..32 {
            if self.counters.has_gp(n) {
                let busy = self.gp_busy(n).map_err(Some);
                self.probe_one(Counter::Gp(n), busy, &mut probe);
            }
        }
        for n in 0..32 {
            if self.counters.has_fixed(n) {
                let busy = match ctrl {
                    _ if ctrl_failed => Err(ctrl_err.take()),
                    Some(bits) => Ok(A::fixed_state(bits, n).is_some_and(|s| s.mode.is_some())),
                    None => Ok(false),
                };
                self.probe_one(Counter::Fixed(n), busy, &mut probe);
            }
        }
        probe
    }

    /// Whether general-purpose counter `n` is enabled (by anyone).
    fn gp_busy(&mut self, n: u32) -> Result<bool, Error<B::Error>> {
        if self.active_gp & (1 << n) != 0 {
            return Ok(true);
        }
        match A::gp_select(n) {
            Some(select) => Ok(A::select_state(self.msr_read(select)?).enabled),
            None => Ok(false),
        }
    }

    /// Probes `counter` (whose control says `busy`, or could not be read: `Err`, with the
    /// error unless it was reported already) and records the outcome in `probe`.
    fn probe_one(
        &mut self,
        counter: Counter,
        busy: Result<bool, Option<Error<B::Error>>>,
        probe: &mut Probe<B::Error>,
    ) {
        let (kind, n) = match counter {
            Counter::Gp(n) => (&mut probe.gp, n),
            Counter::Fixed(n) => (&mut probe.fixed, n),
        };
        let bit = 1 << n;
        let outcome = match busy {
            Ok(true) => {
                kind.busy |= bit;
                return;
            }
            Ok(false) => self.write_and_read_back(counter).map_err(Some),
            Err(e) => Err(e.map(ProbeFailure::Access)),
        };
        match outcome {
            Ok(restored) => {
                kind.working |= bit;
                if !restored {
                    kind.not_restored |= bit;
                }
            }
            Err(why) => {
                kind.failed |= bit;
                if let (None, Some(why)) = (&probe.first_failure, why) {
                    probe.first_failure = Some((counter, why));
                }
            }
        }
    }

    /// Reads `counter`, writes a test value, reads it back and writes the old value back.
    /// `Ok(true)`: it held the value and was restored exactly; `Ok(false)`: it held the value
    /// and the old value's bits above 31 could not be written back.
    fn write_and_read_back(&mut self, counter: Counter) -> Result<bool, ProbeFailure<B::Error>> {
        let old = self.read(counter).map_err(ProbeFailure::Access)?;
        // Bits 15:0 flipped, as Linux does, within bits 30:0: a value every counter takes,
        // sign-extending or not, and one that differs from what it held.
        let test = (old ^ 0xFFFF) & 0x7FFF_FFFF & width_mask(self.width(counter));
        self.write_counter(counter, test)
            .map_err(ProbeFailure::Access)?;
        let read = self.read(counter).map_err(ProbeFailure::Access)?;
        if read != test {
            return Err(ProbeFailure::NotHeld { wrote: test, read });
        }
        match self.write_counter(counter, old) {
            Ok(()) => Ok(true),
            Err(Error::NeedsFullWidthWrite { .. }) => {
                (self.write_counter(counter, old & 0x7FFF_FFFF)).map_err(ProbeFailure::Access)?;
                Ok(false)
            }
            Err(e) => Err(ProbeFailure::Access(e)),
        }
    }
}
