//! [`RawMsr`](crate::access::RawMsr) backends.
//!
//! | backend | where | errors |
//! |---|---|---|
//! | [`ring0::Ring0`] | ring 0 (`rdmsr`/`wrmsr`), `no_std` | none: a fault is a #GP exception in the caller's kernel |
//! | [`linux::DevMsr`] (feature `std`, Linux) | user space, `/dev/cpu/N/msr` | [`linux::DevMsrError`]: device missing, permission denied, faulting access (EIO), other I/O |
//! | [`mock::Mock`] (feature `mock`) | tests | [`mock::MockFault`]: unknown MSR, reserved bit, read-only register, ... like #GP |
//!
//! Typed access (`read`, `write`, `modify`) comes with every backend through
//! [`MsrExt`](crate::access::MsrExt); counter programming through [`crate::pmu::Pmu`].

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[allow(unsafe_code)]
pub mod ring0;

#[cfg(all(feature = "std", target_os = "linux"))]
pub mod linux;

#[cfg(feature = "mock")]
pub mod mock;
