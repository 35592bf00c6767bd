//! Where a value goes: the placement of a [`Builder`](super::Builder) ([`Unplaced`],
//! [`Counter<N>`], [`AnyCounter`]) and the values placed on an instance of a register family
//! ([`Placed`], [`PlacedAt`]), which `access::MsrExt::write` writes to that instance only.

use super::Layout;
use core::marker::PhantomData;

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

/// A value of register family `R` placed on instance `N` (from `event_on::<N>` or
/// `Builder::at::<N>()`): a register module's `Placed<N>`. `MsrExt::write` writes it to
/// instance `N` (`msr::<N>()`, or an `Instance` whose index is `N`) and to no other: to
/// another `Indexed<M>` it does not compile, to another `Instance` it is
/// `PlacementError::WrongCounter`.
pub struct Placed<R, const N: u32> {
    bits: u64,
    register: PhantomData<R>,
}

impl<R: Layout, const N: u32> Placed<R, N> {
    /// `bits` placed on instance `N`, which the caller (generated code) has checked. Not
    /// public API.
    #[doc(hidden)]
    #[inline(always)]
    pub const fn __new(bits: u64) -> Self {
        Self {
            bits,
            register: PhantomData,
        }
    }

    /// The raw value.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.bits
    }

    /// The instance it is for: `N`.
    pub const fn index(self) -> u32 {
        N
    }

    /// The value without its placement, to read its fields. This is the untyped escape
    /// hatch: `MsrExt::write` takes a `Value` for any instance.
    #[inline]
    pub const fn unplaced(self) -> crate::reg::Value<R> {
        crate::reg::Value::raw(self.bits)
    }
}

/// A value of register family `R` placed on an instance chosen at run time (from
/// `try_event_on` or `Builder::try_at`): a register module's `PlacedAt`. `MsrExt::write`
/// writes it to that instance and refuses any other with `PlacementError::WrongCounter`.
pub struct PlacedAt<R> {
    bits: u64,
    index: u32,
    register: PhantomData<R>,
}

impl<R: Layout> PlacedAt<R> {
    /// `bits` placed on instance `index`, which the caller (generated code) has checked. Not
    /// public API.
    #[doc(hidden)]
    #[inline(always)]
    pub const fn __new(bits: u64, index: u32) -> Self {
        Self {
            bits,
            index,
            register: PhantomData,
        }
    }

    /// The raw value.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.bits
    }

    /// The instance it is for.
    pub const fn index(self) -> u32 {
        self.index
    }

    /// The value without its placement, to read its fields. This is the untyped escape
    /// hatch: `MsrExt::write` takes a `Value` for any instance.
    #[inline]
    pub const fn unplaced(self) -> crate::reg::Value<R> {
        crate::reg::Value::raw(self.bits)
    }
}

// As for `Instance`: derives would bound the marker type `R`.
impl<R, const N: u32> Clone for Placed<R, N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R, const N: u32> Copy for Placed<R, N> {}
impl<R, const N: u32> PartialEq for Placed<R, N> {
    fn eq(&self, other: &Self) -> bool {
        self.bits == other.bits
    }
}
impl<R, const N: u32> Eq for Placed<R, N> {}
impl<R, const N: u32> core::hash::Hash for Placed<R, N> {
    fn hash<H: core::hash::Hasher>(&self, h: &mut H) {
        self.bits.hash(h)
    }
}
impl<R: Layout, const N: u32> core::fmt::Debug for Placed<R, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Placed")
            .field("index", &N)
            .field("value", &crate::reg::Value::<R>::raw(self.bits))
            .finish()
    }
}
impl<R> Clone for PlacedAt<R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R> Copy for PlacedAt<R> {}
impl<R> PartialEq for PlacedAt<R> {
    fn eq(&self, other: &Self) -> bool {
        (self.bits, self.index) == (other.bits, other.index)
    }
}
impl<R> Eq for PlacedAt<R> {}
impl<R> core::hash::Hash for PlacedAt<R> {
    fn hash<H: core::hash::Hasher>(&self, h: &mut H) {
        (self.bits, self.index).hash(h)
    }
}
impl<R: Layout> core::fmt::Debug for PlacedAt<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PlacedAt")
            .field("index", &self.index)
            .field("value", &crate::reg::Value::<R>::raw(self.bits))
            .finish()
    }
}
