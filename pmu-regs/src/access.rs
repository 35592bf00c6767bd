//! Typed MSR access: the traits every generated register implements, and the minimal backend
//! interface (`RawMsr`) that typed reads, writes and read-modify-writes are built on.
//!
//! Each generated register module has an `Instance` type naming one MSR of that register
//! (`IA32_PERF_GLOBAL_CTRL::MSR`, or `IA32_PERFEVTSEL::msr::<3>()` for a family). Whether it may
//! be read or written is a trait bound, so writing a read-only register (IA32_PERF_GLOBAL_STATUS,
//! IA32_PERF_GLOBAL_INUSE, ...) does not compile:
//!
//! ```compile_fail
//! use pmu_regs::access::{MsrExt, RawMsr};
//! use pmu_regs::intel::v4::IA32_PERF_GLOBAL_STATUS;
//!
//! fn clear_all<B: RawMsr>(b: &mut B, v: IA32_PERF_GLOBAL_STATUS::Value) {
//!     b.write(IA32_PERF_GLOBAL_STATUS::MSR, v); // error: read-only register
//! }
//! ```

/// A value of some register: its raw bits and which of them are reserved.
pub trait RegisterValue: Copy {
    /// Register name, as in the manuals.
    const NAME: &'static str;
    /// Bits no field covers. The generated API never sets them; a write through
    /// [`MsrExt::modify`] writes them back exactly as read.
    const RESERVED_MASK: u64;
    /// The raw bits.
    fn bits(self) -> u64;
}

/// One MSR: its address and the type of its values.
pub trait Msr: Copy {
    /// The register's value type.
    type Value: RegisterValue;
    /// The MSR address (the ECX operand of `rdmsr`/`wrmsr`).
    fn address(self) -> u32;
}

/// An MSR that may be read.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read: the register is write-only",
    label = "write-only register",
    note = "write-only (write-1-to-clear / write-1-to-set) registers return nothing meaningful when read"
)]
pub trait Readable: Msr {
    /// The value read from the MSR; reserved bits are kept as read.
    fn from_read(bits: u64) -> Self::Value;
}

/// An MSR that may be written.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is read-only: it cannot be written",
    label = "read-only register",
    note = "writing a read-only MSR faults (#GP); read it with `MsrExt::read` (overflow status is cleared through the PMU's reset/clear register, where it has one)"
)]
pub trait Writable: Msr {}

/// A value that [`MsrExt::write`] may write to the MSR `M`: every register's `Value` to its
/// own MSRs, and a value placed on instance `N` of a family (`Placed<N>`, `PlacedAt`) only to
/// that instance. The generator implements it; the untyped escape hatch, for a value whose
/// placement you vouch for, is `placed.unplaced()` (a `Value`, written to any instance) or
/// [`RawMsr::write_raw`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written to `{M}`",
    label = "a value for another register or another counter",
    note = "a value placed on counter N (`event_on::<N>`, `Builder::at::<N>()`) is written only to that counter's MSR, `msr::<N>()`; for a counter chosen at run time use `try_event_on(n, ..)` or `try_msr(n)`, which refuse a mismatch with `PlacementError`"
)]
pub trait WriteTo<M: Msr>: Copy {
    /// The bits to write to `msr`, or why this value may not be written there.
    fn bits_for(self, msr: M) -> Result<u64, crate::PlacementError>;
}

/// Placement of a [`Builder`](crate::intel::v4::IA32_PERFEVTSEL::Builder) of an event select
/// (or of a family with per-instance fields): not tied to an instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unplaced;

/// Placement of a builder: instance (counter) `N`, known at compile time (`event_on::<N>`,
/// `at::<N>()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Counter<const N: u32>;

/// Placement of a builder: an instance chosen at run time (`try_event_on`, `try_at`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AnyCounter;

/// Raw MSR access: what a backend (ring 0 `rdmsr`/`wrmsr`, `/dev/cpu/N/msr`, a mock) provides.
pub trait RawMsr {
    /// Why an access failed.
    type Error;
    /// Reads the MSR at `address`.
    fn read_raw(&mut self, address: u32) -> Result<u64, Self::Error>;
    /// Writes `value` to the MSR at `address`.
    fn write_raw(&mut self, address: u32, value: u64) -> Result<(), Self::Error>;
}

/// The auxiliary MSR an event needs programmed with its event select (off-core response,
/// load-latency threshold, front-end qualifier), typed as a value of that register: a model's
/// generated `events::Aux`, which `events::Event::aux()` gives. Its values never set a
/// reserved bit of their register (the generator leaves out a value that would, and builds
/// each through `try_from_bits` in a constant).
pub trait AuxValue: Copy {
    /// The register's MSR address.
    fn address(self) -> u32;
    /// The bits to write.
    fn bits(self) -> u64;
    /// Writes the value to its register ([`MsrExt::write`] of the register's `Value`).
    fn write_to<B: RawMsr + ?Sized>(self, backend: &mut B) -> Result<(), WriteError<B::Error>>;
}

/// Typed reads and writes through any [`RawMsr`] backend.
pub trait MsrExt: RawMsr {
    /// Reads a register.
    fn read<M: Readable>(&mut self, msr: M) -> Result<M::Value, Self::Error> {
        self.read_raw(msr.address()).map(M::from_read)
    }

    /// Writes a register. Values built with the generated API never set a reserved bit; a
    /// value that does (one read from the MSR, or from `from_raw_read`, whose reserved bits
    /// are kept as read) is refused with [`WriteError::Reserved`] before anything is
    /// written: writing a reserved bit faults (#GP). To change some fields of what the MSR
    /// holds, reserved bits included, use [`MsrExt::modify`].
    ///
    /// `value` is the register's `Value`, or a value placed on one instance of a family (an
    /// event select built by `event_on::<N>` or `Builder::at::<N>()`: `Placed<N>`, or by
    /// `try_event_on` / `Builder::try_at`: `PlacedAt`), which is written only to that
    /// instance's MSR: to `msr::<N>()` (another `msr::<M>()` does not compile, see
    /// [`WriteTo`]) or to the `Instance` of that index (another is refused with
    /// [`WriteError::Placement`], nothing written).
    fn write<M: Writable, V: WriteTo<M>>(
        &mut self,
        msr: M,
        value: V,
    ) -> Result<(), WriteError<Self::Error>> {
        let bits = checked_bits(msr, value)?;
        self.write_raw(msr.address(), bits)
            .map_err(WriteError::Backend)
    }

    /// Writes an event select and the auxiliary MSR its event needs, as one: the event's
    /// `aux()` (an `events::Aux` of its model) first, then the select, the order Linux follows
    /// (`arch/x86/events/perf_event.h` `__x86_pmu_enable_event` writes `extra_reg` before
    /// `config_base`), so the event never counts with a stale qualifier. `aux` `None` writes
    /// the select alone. The select is checked (placement, reserved bits) before anything is
    /// written; nothing is written when it is refused.
    ///
    /// ```
    /// # #[cfg(feature = "intel-skylake")]
    /// # mod m {
    /// use pmu_regs::access::{MsrExt, RawMsr, WriteError};
    /// use pmu_regs::intel::skylake::{IA32_PERFEVTSEL, events::Event};
    ///
    /// fn dsb_misses<B: RawMsr>(b: &mut B) -> Result<(), WriteError<B::Error>> {
    ///     let e = Event::FrontendRetired_DsbMiss;
    ///     let sel = IA32_PERFEVTSEL::event_on::<0>(e.desc()).with_usr(true).with_en(true).build();
    ///     // MSR_PEBS_FRONTEND (EVTSEL 11H), then IA32_PERFEVTSEL0.
    ///     b.write_event(IA32_PERFEVTSEL::msr::<0>(), sel, e.aux())
    /// }
    /// # }
    /// ```
    fn write_event<M: Writable, V: WriteTo<M>, A: AuxValue>(
        &mut self,
        msr: M,
        value: V,
        aux: Option<A>,
    ) -> Result<(), WriteError<Self::Error>> {
        let bits = checked_bits(msr, value)?;
        if let Some(a) = aux {
            a.write_to(self)?;
        }
        self.write_raw(msr.address(), bits)
            .map_err(WriteError::Backend)
    }

    /// Read-modify-write: reads, applies `f`, and writes the result back with the register's
    /// reserved bits exactly as read (whatever `f` returned for them). Returns the value
    /// written.
    fn modify<M: Readable + Writable>(
        &mut self,
        msr: M,
        f: impl FnOnce(M::Value) -> M::Value,
    ) -> Result<M::Value, Self::Error> {
        let old = self.read(msr)?;
        let new = f(old);
        let reserved = <M::Value as RegisterValue>::RESERVED_MASK;
        let bits = (new.bits() & !reserved) | (old.bits() & reserved);
        self.write_raw(msr.address(), bits)?;
        Ok(M::from_read(bits))
    }
}

impl<T: RawMsr + ?Sized> MsrExt for T {}

/// The bits [`MsrExt::write`] writes for `value` to `msr`, or why it writes nothing.
fn checked_bits<M: Writable, V: WriteTo<M>, E>(msr: M, value: V) -> Result<u64, WriteError<E>> {
    let reserved = <M::Value as RegisterValue>::RESERVED_MASK;
    let bits = value.bits_for(msr).map_err(WriteError::Placement)?;
    if bits & reserved != 0 {
        return Err(WriteError::Reserved(crate::ReservedBitsError {
            register: <M::Value as RegisterValue>::NAME,
            bits: bits & reserved,
            reserved_mask: reserved,
        }));
    }
    Ok(bits)
}

/// Why [`MsrExt::write`] wrote nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteError<E> {
    /// The value sets reserved bits of the register (it was read from the MSR or built
    /// from raw bits): writing them faults (#GP). [`MsrExt::modify`] changes fields and keeps
    /// the reserved bits exactly as the MSR holds them.
    Reserved(crate::ReservedBitsError),
    /// The value was placed on another instance of the family (`PlacementError::WrongCounter`).
    Placement(crate::PlacementError),
    /// The backend failed.
    Backend(E),
}

impl<E: core::fmt::Display> core::fmt::Display for WriteError<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            WriteError::Reserved(e) => write!(
                f,
                "{e}; nothing was written (use `MsrExt::modify` to change fields and keep the reserved bits as read)"
            ),
            WriteError::Placement(e) => write!(f, "{e}; nothing was written"),
            WriteError::Backend(e) => e.fmt(f),
        }
    }
}

impl<E: core::fmt::Debug + core::fmt::Display> core::error::Error for WriteError<E> {}
