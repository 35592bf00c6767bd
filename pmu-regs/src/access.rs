//! Typed MSR access: the traits every generated register implements, and the minimal backend
//! interface (`RawMsr`) that typed reads, writes and read-modify-writes are built on.
//!
//! Each generated register module has an `Instance` type naming one MSR of that register
//! (`IA32_PERF_GLOBAL_CTRL::MSR`, or `IA32_PERFEVTSEL::try_msr(3)` for a family), and a family
//! an `Indexed<N>` with the index in its type (`IA32_PERFEVTSEL::msr::<3>()`): aliases of
//! [`Instance`] and [`Indexed`] here over the register's marker type. Whether one may be read
//! or written is a trait bound, so writing a read-only register (IA32_PERF_GLOBAL_STATUS,
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

use core::marker::PhantomData;

pub use crate::reg::{
    AnyCounter, Counter, MsrDef, Placed, PlacedAt, ReadAccess, Unplaced, WriteAccess,
};

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

/// One MSR of register `R`, its address known at run time: a register module's `Instance`
/// (`IA32_PERF_GLOBAL_CTRL::MSR`, `IA32_PERFEVTSEL::try_msr(3)`), for typed access through
/// [`MsrExt`]. Readable and writable as the register is.
pub struct Instance<R> {
    address: u32,
    register: PhantomData<R>,
}

impl<R: MsrDef> Instance<R> {
    /// The instance at `address`, which the caller (generated code) has checked is one of
    /// `R`'s. Not public API.
    #[doc(hidden)]
    pub const fn __at(address: u32) -> Self {
        Self {
            address,
            register: PhantomData,
        }
    }

    /// The MSR address.
    pub const fn address(self) -> u32 {
        self.address
    }

    /// True when this is the instance's alias address (`alias-msr:`, perfmon v6's
    /// `IA32_PMCn` at `0x1900 + 4n`); false for a register without one.
    pub const fn is_alias(self) -> bool {
        let d = self.address.wrapping_sub(R::ALIAS_BASE_ADDRESS);
        R::HAS_ALIAS
            && d.is_multiple_of(R::ALIAS_ADDRESS_STRIDE)
            && d / R::ALIAS_ADDRESS_STRIDE < R::INSTANCES
    }

    /// Index within the family (0 for a register that is not one).
    pub const fn index(self) -> u32 {
        if self.is_alias() {
            (self.address - R::ALIAS_BASE_ADDRESS) / R::ALIAS_ADDRESS_STRIDE
        } else {
            (self.address - R::BASE_ADDRESS) / R::ADDRESS_STRIDE
        }
    }
}

/// Instance `N` of register family `R` as a typed MSR, `N` in its type: a register module's
/// `Indexed<N>`, what its `msr::<N>()` returns (a zero-sized type: the address is a constant).
/// A value placed on another instance (`Placed<M>`) cannot be written to it.
pub struct Indexed<R, const N: u32>(PhantomData<R>);

impl<R: MsrDef, const N: u32> Indexed<R, N> {
    /// Instance `N`, which the caller (generated code) has checked is in range. Not public
    /// API.
    #[doc(hidden)]
    pub const fn __new() -> Self {
        Self(PhantomData)
    }

    /// The MSR address.
    #[track_caller]
    pub const fn address(self) -> u32 {
        // The `if` fails first in a `const` item, at the caller (`#[track_caller]`); the
        // `const` block of `check_index` makes an out-of-range `N` a compile error in other
        // code too.
        if N >= R::INSTANCES {
            crate::__private::index_out_of_range(R::NAME, "instances", R::INSTANCES, N)
        }
        check_index::<R, N>();
        R::BASE_ADDRESS + N * R::ADDRESS_STRIDE
    }

    /// Index within the family: `N`.
    pub const fn index(self) -> u32 {
        N
    }

    /// The same MSR as an [`Instance`], its index known at run time only.
    #[track_caller]
    pub const fn instance(self) -> Instance<R> {
        Instance::__at(self.address())
    }
}

/// The compile-time check of [`Indexed::address`], in a function of its own: a `const` block
/// is evaluated before the body of the function holding it runs, so in a `const` item the
/// `if` there (which reports the caller's line) would never get to fail first.
#[inline(always)]
const fn check_index<R: MsrDef, const N: u32>() {
    const {
        if N >= R::INSTANCES {
            crate::__private::index_out_of_range(R::NAME, "instances", R::INSTANCES, N)
        }
    }
}

impl<R: MsrDef, const N: u32> From<Indexed<R, N>> for Instance<R> {
    fn from(m: Indexed<R, N>) -> Instance<R> {
        m.instance()
    }
}

impl<R: MsrDef> Msr for Instance<R> {
    type Value = crate::reg::Value<R>;
    fn address(self) -> u32 {
        self.address
    }
}

impl<R: ReadAccess> Readable for Instance<R> {
    fn from_read(bits: u64) -> crate::reg::Value<R> {
        crate::reg::Value::raw(bits)
    }
}

impl<R: WriteAccess> Writable for Instance<R> {}

impl<R: MsrDef, const N: u32> Msr for Indexed<R, N> {
    type Value = crate::reg::Value<R>;
    fn address(self) -> u32 {
        Indexed::address(self)
    }
}

impl<R: ReadAccess, const N: u32> Readable for Indexed<R, N> {
    fn from_read(bits: u64) -> crate::reg::Value<R> {
        crate::reg::Value::raw(bits)
    }
}

impl<R: WriteAccess, const N: u32> Writable for Indexed<R, N> {}

// The derives would bound `R` (a marker type without `PartialEq` or `Hash`); these do not.
impl<R> Clone for Instance<R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R> Copy for Instance<R> {}
impl<R> PartialEq for Instance<R> {
    fn eq(&self, other: &Self) -> bool {
        self.address == other.address
    }
}
impl<R> Eq for Instance<R> {}
impl<R> core::hash::Hash for Instance<R> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.address.hash(state)
    }
}
impl<R: MsrDef> core::fmt::Debug for Instance<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}::Instance({:#x})", R::NAME, self.address)
    }
}
impl<R, const N: u32> Clone for Indexed<R, N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R, const N: u32> Copy for Indexed<R, N> {}
impl<R, const N: u32> PartialEq for Indexed<R, N> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<R, const N: u32> Eq for Indexed<R, N> {}
impl<R, const N: u32> core::hash::Hash for Indexed<R, N> {
    fn hash<H: core::hash::Hasher>(&self, _: &mut H) {}
}
impl<R: MsrDef, const N: u32> core::fmt::Debug for Indexed<R, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}::Indexed<{N}>", R::NAME)
    }
}

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
    ///     let sel = IA32_PERFEVTSEL::event_on::<0>(e.desc()).with_bit::<IA32_PERFEVTSEL::USR>(true).with_bit::<IA32_PERFEVTSEL::EN>(true).build();
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

impl<R: MsrDef, const N: u32> Placed<R, N> {
    /// The MSR it is written to.
    pub const fn msr(self) -> Indexed<R, N> {
        Indexed::__new()
    }
}

impl<R: MsrDef> PlacedAt<R> {
    /// The MSR it is written to.
    pub const fn msr(self) -> Instance<R> {
        Instance::__at(R::BASE_ADDRESS + self.index() * R::ADDRESS_STRIDE)
    }
}

/// The bits of a value placed on `placed`, for instance `counter` of `R`.
fn placed_on<R: MsrDef>(
    bits: u64,
    placed: u32,
    counter: u32,
) -> Result<u64, crate::PlacementError> {
    if placed == counter {
        Ok(bits)
    } else {
        Err(crate::PlacementError::WrongCounter {
            register: R::NAME,
            placed,
            counter,
        })
    }
}

impl<R: crate::reg::Layout> RegisterValue for crate::reg::Value<R> {
    const NAME: &'static str = R::NAME;
    const RESERVED_MASK: u64 = R::RESERVED_MASK;
    fn bits(self) -> u64 {
        self.bits()
    }
}

impl<R: MsrDef> WriteTo<Instance<R>> for crate::reg::Value<R> {
    fn bits_for(self, _: Instance<R>) -> Result<u64, crate::PlacementError> {
        Ok(self.bits())
    }
}

impl<R: MsrDef, const N: u32> WriteTo<Indexed<R, N>> for crate::reg::Value<R> {
    fn bits_for(self, _: Indexed<R, N>) -> Result<u64, crate::PlacementError> {
        Ok(self.bits())
    }
}

impl<R: MsrDef, const N: u32> WriteTo<Indexed<R, N>> for Placed<R, N> {
    fn bits_for(self, _: Indexed<R, N>) -> Result<u64, crate::PlacementError> {
        Ok(self.bits())
    }
}

impl<R: MsrDef, const N: u32> WriteTo<Instance<R>> for Placed<R, N> {
    fn bits_for(self, m: Instance<R>) -> Result<u64, crate::PlacementError> {
        placed_on::<R>(self.bits(), N, m.index())
    }
}

impl<R: MsrDef> WriteTo<Instance<R>> for PlacedAt<R> {
    fn bits_for(self, m: Instance<R>) -> Result<u64, crate::PlacementError> {
        placed_on::<R>(self.bits(), self.index(), m.index())
    }
}

impl<R: MsrDef, const N: u32> WriteTo<Indexed<R, N>> for PlacedAt<R> {
    fn bits_for(self, _: Indexed<R, N>) -> Result<u64, crate::PlacementError> {
        placed_on::<R>(self.bits(), self.index(), N)
    }
}
