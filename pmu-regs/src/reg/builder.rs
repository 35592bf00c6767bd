//! [`Builder`]: a write of register `R` assembled field by field, each field set once, and
//! placed on an instance of a family where the value is valid on one only.

use super::{
    AnyCounter, Array, Counter, Field, Layout, Named, NamedValue, Placement, Select, Unplaced,
    Value, check,
};
use super::{MsrDef, Placed, PlacedAt};
use crate::{ConstraintError, EventDesc, FieldError, PlacementError, field};
use core::marker::PhantomData;

/// Builds a write of register `R` from named fields (from `Value::new()`, `event_on::<N>`,
/// `at::<N>()`). `P` is where the value goes: [`Unplaced`] (`build()` gives a [`Value`]),
/// instance `N` ([`Counter<N>`]: `build()` gives a [`Placed<R, N>`](Placed), written only to
/// `msr::<N>()`) or an instance chosen at run time ([`AnyCounter`]: a [`PlacedAt`]).
///
/// Each field may be given one value: `build()` refuses a field given two different values
/// (a compile error in a `const`), then checks the manual's constraints.
#[must_use = "a Builder does nothing until `build()` turns it into a value"]
pub struct Builder<R, P = Unplaced> {
    bits: u64,
    set: u64,
    conflict: u64,
    index: u32,
    marker: PhantomData<(R, P)>,
}

impl<R, P> Clone for Builder<R, P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R, P> Copy for Builder<R, P> {}

impl<R, P> PartialEq for Builder<R, P> {
    fn eq(&self, o: &Self) -> bool {
        (self.bits, self.set, self.conflict, self.index) == (o.bits, o.set, o.conflict, o.index)
    }
}

impl<R, P> Eq for Builder<R, P> {}

impl<R: Layout, P> core::fmt::Debug for Builder<R, P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Builder")
            .field("value", &Value::<R>::raw(self.bits))
            .field("set", &format_args!("{:#x}", self.set))
            .field("index", &self.index)
            .finish()
    }
}

impl<R: Layout + super::WriteAccess> Default for Builder<R, Unplaced> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<R: Layout, P: Placement> Builder<R, P> {
    /// No field set.
    pub(crate) const EMPTY: Self = Builder {
        bits: 0,
        set: 0,
        conflict: 0,
        index: 0,
        marker: PhantomData,
    };

    /// Records that the bits of field row `info` were assigned `next`.
    #[inline(always)]
    const fn track(self, mask: u64, next: u64) -> Self {
        let (set, conflict) = field::track(self.set, self.conflict, self.bits, next, mask);
        Builder {
            bits: next,
            set,
            conflict,
            ..self
        }
    }

    /// The value so far, unchecked (a field set twice keeps its last value).
    #[inline]
    pub const fn peek(&self) -> Value<R> {
        Value::raw(self.bits)
    }

    /// Sets field `F` to the constant `V`: see [`Value::with`].
    #[inline(always)]
    #[track_caller]
    pub const fn with<F: Field<R>, const V: u64>(self) -> Self {
        check::settable::<R, F, P>();
        check::fits::<R, F>(V);
        check::settable_ct::<R, F, P>();
        check::fits_ct::<R, F, V>();
        let f = check::info::<R, F>();
        self.track(f.mask(), f.put(self.bits, V))
    }

    /// Sets the one-bit field `F` to `on`.
    #[inline(always)]
    #[track_caller]
    pub const fn with_bit<F: Field<R>>(self, on: bool) -> Self {
        check::settable::<R, F, P>();
        check::one_bit::<R, F>();
        check::settable_ct::<R, F, P>();
        check::one_bit_ct::<R, F>();
        let f = check::info::<R, F>();
        self.track(f.mask(), f.put(self.bits, on as u64))
    }

    /// Sets field `F` to the named value `v`.
    #[inline]
    #[track_caller]
    pub fn with_value<F: Named<R>>(self, v: F::Value) -> Self {
        check::settable::<R, F, P>();
        check::settable_ct::<R, F, P>();
        let f = check::info::<R, F>();
        self.track(f.mask(), f.put(self.bits, v.bits()))
    }

    /// Sets field `F` to `v`, or [`FieldError::TooWide`].
    /// On a value whose instance is chosen at run time (`try_at`, `try_event_on`), a field
    /// valid only on some instances is checked against it: [`FieldError::NotOnInstance`].
    #[track_caller]
    pub const fn try_with<F: Field<R>>(self, v: u64) -> Result<Self, FieldError> {
        check::settable_fallible::<R, F, P>();
        check::settable_fallible_ct::<R, F, P>();
        let f = check::info::<R, F>();
        if P::RUNTIME && !check::on_instance(f, self.index) {
            return Err(FieldError::NotOnInstance {
                field: f.name,
                instance: self.index,
            });
        }
        match f.try_put(self.bits, v) {
            Ok(next) => Ok(self.track(f.mask(), next)),
            Err(e) => Err(e),
        }
    }

    /// Sets element `index` of the field array `A` to `v`, or why not
    /// ([`FieldError::TooWide`], [`FieldError::IndexOutOfRange`]).
    #[inline]
    pub const fn try_with_at<A: Array<R>>(self, index: u32, v: u64) -> Result<Self, FieldError> {
        match put_at::<R, A>(self.bits, index, v) {
            Ok(next) => Ok(self.track(R::FIELDS[A::FIRST].mask() << (index * A::STRIDE), next)),
            Err(e) => Err(e),
        }
    }

    /// The same fields with another placement.
    #[inline(always)]
    const fn place<Q>(self, index: u32) -> Builder<R, Q> {
        Builder {
            bits: self.bits,
            set: self.set,
            conflict: self.conflict,
            index,
            marker: PhantomData,
        }
    }

    /// The value, or the first problem: a field given two different values
    /// (`field-set-twice`), then the manual's constraints ([`Value::try_build`]).
    #[inline]
    const fn checked(self) -> Result<Value<R>, ConstraintError> {
        if self.conflict != 0 {
            return Err(crate::__private::set_twice_error(self.conflict, R::FIELDS));
        }
        Value::raw(self.bits).try_build()
    }

    /// As [`checked`](Self::checked), panicking (a compile error in a `const`).
    #[inline]
    #[track_caller]
    const fn finish(self) -> Value<R> {
        if self.conflict != 0 {
            crate::__private::set_twice_in(R::NAME, self.conflict, R::FIELDS)
        }
        Value::raw(self.bits).build()
    }
}

impl<R: Layout> Builder<R, Unplaced> {
    /// The value, or the first problem: a field given two different values
    /// (`field-set-twice`), then the manual's constraints.
    #[inline]
    pub const fn try_build(self) -> Result<Value<R>, ConstraintError> {
        self.checked()
    }

    /// The value; panics on a field given two different values or a violated constraint (in
    /// a `const`, a compile error).
    #[inline]
    #[track_caller]
    pub const fn build(self) -> Value<R> {
        self.finish()
    }
}

impl<R: Layout + MsrDef> Builder<R, Unplaced> {
    /// The same fields, for instance `N` of the family: `build()` gives a
    /// [`Placed<R, N>`](Placed), which `MsrExt::write` writes only to `msr::<N>()`. `N` out
    /// of range fails to compile.
    #[inline]
    #[track_caller]
    pub const fn at<const N: u32>(self) -> Builder<R, Counter<N>> {
        in_range::<R>(N, "instances");
        in_range_ct::<R, N, false>();
        self.place(N)
    }

    /// The same fields, for instance `index` chosen at run time: `build()` gives a
    /// [`PlacedAt`], which `MsrExt::write` writes only to that instance.
    #[inline]
    pub const fn try_at(self, index: u32) -> Result<Builder<R, AnyCounter>, PlacementError> {
        if index >= R::INSTANCES {
            return Err(PlacementError::CounterOutOfRange {
                register: R::NAME,
                count: R::INSTANCES,
                counter: index,
            });
        }
        Ok(self.place(index))
    }
}

impl<R: Layout + MsrDef, const N: u32> Builder<R, Counter<N>> {
    /// The placed value, or the first problem (see [`Builder::<R>::try_build`](Builder::try_build)).
    #[inline]
    pub const fn try_build(self) -> Result<Placed<R, N>, ConstraintError> {
        match self.checked() {
            Ok(v) => Ok(Placed::__new(v.bits())),
            Err(e) => Err(e),
        }
    }

    /// The placed value; panics on a problem (in a `const`, a compile error).
    #[inline]
    #[track_caller]
    pub const fn build(self) -> Placed<R, N> {
        Placed::__new(self.finish().bits())
    }
}

impl<R: Layout + MsrDef> Builder<R, AnyCounter> {
    /// The placed value, or the first problem (see [`Builder::<R>::try_build`](Builder::try_build)).
    #[inline]
    pub const fn try_build(self) -> Result<PlacedAt<R>, ConstraintError> {
        match self.checked() {
            Ok(v) => Ok(PlacedAt::__new(v.bits(), self.index)),
            Err(e) => Err(e),
        }
    }

    /// The placed value; panics on a problem (in a `const`, a compile error).
    #[inline]
    #[track_caller]
    pub const fn build(self) -> PlacedAt<R> {
        PlacedAt::__new(self.finish().bits(), self.index)
    }
}

impl<R: Layout + Select> Builder<R, Unplaced> {
    /// A builder for instance `N` counting `event`: its encoding fields (event select, unit
    /// masks, CMASK, INV, EDGE, AnyThread) set, the rest zero. Fails to compile (in a `const`,
    /// or for `N` anywhere) when `N` is out of range, when only a fixed counter counts the
    /// event, when the event is restricted to other counters, or when it needs a field this
    /// register lacks. The register module's `event_on` is this, with the event's type
    /// checked against the register's generations.
    #[inline]
    #[track_caller]
    pub const fn event_on<const N: u32>(event: &EventDesc) -> Builder<R, Counter<N>> {
        in_range::<R>(N, "counters");
        in_range_ct::<R, N, true>();
        match Self::placed(N, event) {
            Ok(b) => b.place(N),
            Err(e) => e.fail(),
        }
    }

    /// As [`event_on`](Self::event_on), with the instance chosen at run time: the problem is
    /// returned.
    #[inline]
    pub const fn try_event_on(
        counter: u32,
        event: &EventDesc,
    ) -> Result<Builder<R, AnyCounter>, PlacementError> {
        match Self::placed(counter, event) {
            Ok(b) => Ok(b.place(counter)),
            Err(e) => Err(e),
        }
    }

    /// The event's bits on `counter`, through the one placement function.
    #[inline(always)]
    const fn placed(counter: u32, event: &EventDesc) -> Result<Self, PlacementError> {
        match crate::place::place(&R::SELECT, counter, event) {
            Ok(e) => Ok(Builder {
                bits: e.bits,
                set: e.set,
                ..Self::EMPTY
            }),
            Err(e) => Err(e),
        }
    }
}

/// `N` is an instance of `R`.
#[track_caller]
const fn in_range<R: Layout>(n: u32, unit: &str) {
    if n >= R::INSTANCES {
        crate::__private::index_out_of_range(R::NAME, unit, R::INSTANCES, n)
    }
}

/// [`in_range`] in an inline `const` block (see `check.rs`).
#[inline(always)]
const fn in_range_ct<R: Layout, const N: u32, const COUNTERS: bool>() {
    const { in_range::<R>(N, if COUNTERS { "counters" } else { "instances" }) }
}

/// `bits` with element `index` of the array `A` set to `v`, or why not: the width first, as
/// for any field, then the index. Element `index` is element 0 moved up `index * STRIDE` bits.
#[inline(always)]
pub(super) const fn put_at<R: Layout, A: Array<R>>(
    bits: u64,
    index: u32,
    v: u64,
) -> Result<u64, FieldError> {
    let first = &R::FIELDS[A::FIRST];
    let w = first.width();
    if w < 64 && v >> w != 0 {
        return Err(FieldError::TooWide {
            field: A::NAME,
            width: w,
            value: v,
        });
    }
    if index >= A::COUNT {
        return Err(FieldError::IndexOutOfRange {
            field: A::NAME,
            count: A::COUNT,
            index,
        });
    }
    let shift = index * A::STRIDE;
    Ok((bits & !(first.mask() << shift)) | (first.put(0, v) << shift))
}
