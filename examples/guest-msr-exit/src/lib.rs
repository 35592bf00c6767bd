//! A toy hypervisor's handler of a guest's trapped WRMSR and RDMSR of PMU MSRs, `no_std`.
//!
//! Every access goes through [`GuestPmu`] first: an MSR the guest does not have, a write of a
//! bit reserved for it or of a read-only register, or a read of a write-only one becomes the
//! #GP to inject ([`Exit::Inject`]). Writes the guest may make are kept in [`VirtualPmu`]'s
//! shadow of its registers, so the guest reads back what it wrote, and passed to the host's
//! PMU (one guest counter on the same host counter: a toy's mapping); an event select for an
//! event the [`EventFilter`](pmu_regs::guest::EventFilter) denies reaches the host as 0, so
//! its counter does not count. Counters and status registers are read from the host.
//!
//! The host side is any [`RawMsr`] backend: the ring-0 one in a hypervisor, the mock in the
//! tests (`tests/scripted_guest.rs`).

#![no_std]
#![deny(unsafe_code)]

use core::fmt;
use pmu_regs::access::RawMsr;
use pmu_regs::arch::Role;
use pmu_regs::guest::{GuestFault, GuestMsr, GuestPmu};

/// How many guest MSRs the shadow holds: more than any generation's PMU MSRs.
pub const SHADOW_SLOTS: usize = 96;

/// What a trapped access ends in, when not in a value or a completed write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit<E> {
    /// Inject #GP into the guest.
    Inject(GuestFault),
    /// The host's MSR access failed.
    Host(E),
    /// The shadow is full (more guest MSRs written than [`SHADOW_SLOTS`]).
    ShadowFull {
        /// The MSR that did not fit.
        msr: u32,
    },
}

impl<E: fmt::Debug> fmt::Display for Exit<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exit::Inject(fault) => write!(f, "inject #GP: {fault}"),
            Exit::Host(e) => write!(f, "the host's MSR access failed: {e:?}"),
            Exit::ShadowFull { msr } => {
                write!(f, "MSR {msr:#x}: the shadow of {SHADOW_SLOTS} MSRs is full")
            }
        }
    }
}

/// The guest's virtual PMU: its [`GuestPmu`], the host PMU behind it and the shadow of the
/// guest's registers.
#[derive(Debug)]
pub struct VirtualPmu<'f, H: RawMsr> {
    guest: GuestPmu<'f>,
    host: H,
    shadow: [(u32, u64); SHADOW_SLOTS],
    used: usize,
}

impl<'f, H: RawMsr> VirtualPmu<'f, H> {
    /// A virtual PMU for `guest` on the host PMU `host`, every register 0.
    pub fn new(guest: GuestPmu<'f>, host: H) -> Self {
        VirtualPmu {
            guest,
            host,
            shadow: [(0, 0); SHADOW_SLOTS],
            used: 0,
        }
    }

    /// The guest's PMU.
    pub fn guest(&self) -> &GuestPmu<'f> {
        &self.guest
    }

    /// The guest's WRMSR of `value` to `msr`.
    pub fn wrmsr(&mut self, msr: u32, value: u64) -> Result<(), Exit<H::Error>> {
        let w = self.guest.check_write(msr, value).map_err(Exit::Inject)?;
        let host = if w.filtered { 0 } else { w.value };
        if kept(&w.msr) {
            self.keep(msr, w.value)?;
        }
        self.host.write_raw(msr, host).map_err(Exit::Host)
    }

    /// The guest's RDMSR of `msr`.
    pub fn rdmsr(&mut self, msr: u32) -> Result<u64, Exit<H::Error>> {
        let m = self.guest.check_read(msr).map_err(Exit::Inject)?;
        if kept(&m) {
            return Ok(self.shadowed(msr));
        }
        self.host.read_raw(msr).map_err(Exit::Host)
    }

    fn shadowed(&self, msr: u32) -> u64 {
        self.shadow[..self.used]
            .iter()
            .find(|(a, _)| *a == msr)
            .map_or(0, |&(_, v)| v)
    }

    fn keep(&mut self, msr: u32, value: u64) -> Result<(), Exit<H::Error>> {
        if let Some(slot) = self.shadow[..self.used].iter_mut().find(|(a, _)| *a == msr) {
            slot.1 = value;
            return Ok(());
        }
        let slot = self
            .shadow
            .get_mut(self.used)
            .ok_or(Exit::ShadowFull { msr })?;
        *slot = (msr, value);
        self.used += 1;
        Ok(())
    }
}

/// Control registers the guest reads back from the shadow; counters and status come from the
/// host, which counts and sets overflow bits.
fn kept(m: &GuestMsr) -> bool {
    matches!(
        m.role(),
        Some(
            Role::EventSelect | Role::LegacyEventSelect | Role::FixedControl | Role::GlobalControl
        )
    )
}
