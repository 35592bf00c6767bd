//! [`RawMsr`](crate::access::RawMsr) backends.
//!
//! | backend | where | errors |
//! |---|---|---|
// Each row links its backend only when the backend is compiled in (a link to a module this
// build leaves out is a broken intra-doc link); otherwise it names it as code.
#![cfg_attr(
    any(target_arch = "x86", target_arch = "x86_64"),
    doc = "| [`ring0::Ring0`] | ring 0 (`rdmsr`/`wrmsr`), `no_std` | none: a fault is a #GP exception in the caller's kernel |"
)]
#![cfg_attr(
    not(any(target_arch = "x86", target_arch = "x86_64")),
    doc = "| `ring0::Ring0` (x86 and x86-64 only) | ring 0 (`rdmsr`/`wrmsr`), `no_std` | none: a fault is a #GP exception in the caller's kernel |"
)]
#![cfg_attr(
    all(feature = "std", target_os = "linux"),
    doc = "| [`linux::DevMsr`] (feature `std`, Linux) | user space, `/dev/cpu/N/msr` | [`linux::DevMsrError`]: device missing, permission denied, faulting access (EIO), other I/O |"
)]
#![cfg_attr(
    not(all(feature = "std", target_os = "linux")),
    doc = "| `linux::DevMsr` (feature `std`, Linux) | user space, `/dev/cpu/N/msr` | `linux::DevMsrError`: device missing, permission denied, faulting access (EIO), other I/O |"
)]
#![cfg_attr(
    feature = "mock",
    doc = "| [`mock::Mock`] (feature `mock`) | tests | [`mock::MockFault`]: unknown MSR, reserved bit, read-only register, ... like #GP |"
)]
#![cfg_attr(
    not(feature = "mock"),
    doc = "| `mock::Mock` (feature `mock`) | tests | `mock::MockFault`: unknown MSR, reserved bit, read-only register, ... like #GP |"
)]
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
