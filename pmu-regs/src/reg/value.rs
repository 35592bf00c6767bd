//! [`Value`]: a value of register `R`, its fields read and set through `R`'s field markers.

use super::{Array, Builder, Field, Layout, Named, NamedValue, Unplaced, check};
use super::{ReadAccess, WriteAccess};
use crate::{ConstraintError, FieldError, ReservedBitsError, field};
use core::marker::PhantomData;

/// A value of register `R` (`IA32_PERFEVTSEL::Value` is `Value<IA32_PERFEVTSEL::Register>`).
///
/// Its setters never touch a reserved bit: a value built with this API, from
/// [`new`](Value::new) or [`from_bits`](Value::from_bits), has none set. One read from the
/// MSR ([`from_raw_read`](Value::from_raw_read)) keeps them as read, so that
/// `MsrExt::modify` writes them back unchanged, and `MsrExt::write` refuses it.
#[repr(transparent)]
pub struct Value<R>(u64, PhantomData<R>);

impl<R: Layout + WriteAccess> Value<R> {
    /// A [`Builder`] with every field zero (no reserved bit set): the starting point for a
    /// write. Each field may be given one value; `build()` rejects a field given two
    /// different values (a compile error in a `const`).
    #[inline]
    #[allow(clippy::new_ret_no_self)] // `Value::new()` starts a write: the API users know
    pub const fn new() -> Builder<R, Unplaced> {
        Builder::EMPTY
    }

    /// The value with exactly the bits `B`, which must not include a reserved bit: a `B` with
    /// a reserved bit set fails to compile.
    #[inline]
    #[track_caller]
    pub const fn from_bits<const B: u64>() -> Self {
        check::no_reserved::<R>(B);
        check::no_reserved_ct::<R, B>();
        Self::raw(B)
    }

    /// The value with exactly these bits, or [`ReservedBitsError`] when one of them is
    /// reserved.
    #[inline]
    pub const fn try_from_bits(bits: u64) -> Result<Self, ReservedBitsError> {
        match field::try_reserved_clear(R::NAME, R::RESERVED_MASK, bits) {
            Ok(bits) => Ok(Self::raw(bits)),
            Err(e) => Err(e),
        }
    }
}

impl<R: Layout + ReadAccess> Value<R> {
    /// The value as read from the MSR, reserved bits kept as read: for decoding, and for a
    /// read-modify-write through `MsrExt::modify`, which writes them back unchanged.
    /// `MsrExt::write` refuses a value that sets a reserved bit.
    #[inline]
    pub const fn from_raw_read(bits: u64) -> Self {
        Self::raw(bits)
    }
}

impl<R: Layout> Value<R> {
    /// Bits no field covers; this API never sets them.
    pub const RESERVED_MASK: u64 = R::RESERVED_MASK;

    /// The value with these bits, unchecked: for this crate and the generated code.
    #[inline(always)]
    pub(crate) const fn raw(bits: u64) -> Self {
        Value(bits, PhantomData)
    }

    /// The value after reset, when the manual states one.
    #[inline]
    pub const fn reset() -> Option<Self> {
        match R::RESET {
            Some(bits) => Some(Self::raw(bits)),
            None => None,
        }
    }

    /// The raw value (reserved bits as read, for a value from
    /// [`from_raw_read`](Value::from_raw_read)).
    #[inline(always)]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The value as a tock-registers local copy.
    #[inline]
    pub const fn to_local(self) -> tock_registers::LocalRegisterCopy<u64, R> {
        tock_registers::LocalRegisterCopy::new(self.0)
    }

    /// Field `F`'s value (`get::<UMASK>()`).
    #[inline(always)]
    #[track_caller]
    pub const fn get<F: Field<R>>(self) -> u64 {
        check::present::<R, F>();
        check::present_ct::<R, F>();
        check::info::<R, F>().get(self.0)
    }

    /// Whether the one-bit field `F` is set (`is_set::<EN>()`); a wider field fails to compile.
    #[inline(always)]
    #[track_caller]
    pub const fn is_set<F: Field<R>>(self) -> bool {
        check::present::<R, F>();
        check::one_bit::<R, F>();
        check::present_ct::<R, F>();
        check::one_bit_ct::<R, F>();
        check::info::<R, F>().get(self.0) != 0
    }

    /// Field `F`'s named value, if its value has a name.
    #[inline]
    pub fn named<F: Named<R>>(self) -> Option<F::Value> {
        F::Value::from_bits(self.get::<F>())
    }

    /// Element `index` of the field array `A`, or `None` when out of range.
    #[inline]
    pub const fn get_at<A: Array<R>>(self, index: u32) -> Option<u64> {
        if index < A::COUNT {
            Some(R::FIELDS[A::FIRST].get(self.0 >> (index * A::STRIDE)))
        } else {
            None
        }
    }

    /// The value with field `F` set to the constant `V`. A `V` wider than the field, a
    /// read-only field, another register's field or one this generation lacks fail to
    /// compile.
    #[inline(always)]
    #[track_caller]
    pub const fn with<F: Field<R>, const V: u64>(self) -> Self {
        check::settable::<R, F, Unplaced>();
        check::fits::<R, F>(V);
        check::settable_ct::<R, F, Unplaced>();
        check::fits_ct::<R, F, V>();
        Self::raw(check::info::<R, F>().put(self.0, V))
    }

    /// The value with the one-bit field `F` set to `on`.
    #[inline(always)]
    #[track_caller]
    pub const fn with_bit<F: Field<R>>(self, on: bool) -> Self {
        check::settable::<R, F, Unplaced>();
        check::one_bit::<R, F>();
        check::settable_ct::<R, F, Unplaced>();
        check::one_bit_ct::<R, F>();
        Self::raw(check::info::<R, F>().put(self.0, on as u64))
    }

    /// The value with field `F` set to the named value `v`.
    #[inline]
    #[track_caller]
    pub fn with_value<F: Named<R>>(self, v: F::Value) -> Self {
        check::settable::<R, F, Unplaced>();
        check::settable_ct::<R, F, Unplaced>();
        Self::raw(check::info::<R, F>().put(self.0, v.bits()))
    }

    /// The value with field `F` set to `v`, or [`FieldError::TooWide`].
    #[inline]
    #[track_caller]
    pub const fn try_with<F: Field<R>>(self, v: u64) -> Result<Self, FieldError> {
        check::settable::<R, F, Unplaced>();
        check::settable_ct::<R, F, Unplaced>();
        match check::info::<R, F>().try_put(self.0, v) {
            Ok(bits) => Ok(Self::raw(bits)),
            Err(e) => Err(e),
        }
    }

    /// The value with element `index` of the field array `A` set to `v`, or why not
    /// ([`FieldError::TooWide`], [`FieldError::IndexOutOfRange`]).
    #[inline]
    pub const fn try_with_at<A: Array<R>>(self, index: u32, v: u64) -> Result<Self, FieldError> {
        match super::builder::put_at::<R, A>(self.0, index, v) {
            Ok(bits) => Ok(Self::raw(bits)),
            Err(e) => Err(e),
        }
    }

    /// The value unchanged, or the first constraint of the manual it violates (INV without
    /// CMASK, ...).
    #[inline]
    pub const fn try_build(self) -> Result<Self, ConstraintError> {
        match field::check_constraints(self.0, R::CONSTRAINTS) {
            Ok(()) => Ok(self),
            Err(e) => Err(e),
        }
    }

    /// The value unchanged; panics on a violated constraint of the manual (in a `const`, a
    /// compile error).
    #[inline]
    #[track_caller]
    pub const fn build(self) -> Self {
        field::enforce_constraints(self.0, R::CONSTRAINTS);
        self
    }
}

impl<R> Clone for Value<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Value<R> {}

impl<R> PartialEq for Value<R> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<R> Eq for Value<R> {}

impl<R> core::hash::Hash for Value<R> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}

impl<R: Layout> Default for Value<R> {
    /// All fields zero: no reserved bit set.
    fn default() -> Self {
        Self::raw(0)
    }
}

impl<R: Layout> core::fmt::Debug for Value<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        field::debug(f, R::NAME, R::FIELDS, self.0, R::RESERVED_MASK)
    }
}

impl<R> From<Value<R>> for u64 {
    fn from(v: Value<R>) -> u64 {
        v.0
    }
}
