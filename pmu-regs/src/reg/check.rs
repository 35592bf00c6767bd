//! The compile-time checks of the generic accessors, with a message in the user's terms. An
//! accessor calls each twice: in its body, under `#[track_caller]` (in a `const` item this
//! fails first and is reported at the user's expression; at run time the calls test
//! constants and fold away), then through its `_ct` twin, whose inline `const { }` block makes
//! the misuse a compile error in ordinary code too.

use super::{Field, Layout, Placement};
use crate::field;
use crate::field::FieldInfo;

/// Field `F`'s row of `R::FIELDS`; fails when this layout lacks `F` (a stub of a field a later
/// generation adds).
#[inline(always)]
pub(super) const fn info<R: Layout, F: Field<R>>() -> &'static FieldInfo {
    &R::FIELDS[F::INDEX]
}

/// `F` is a field of this layout (not a stub of a later generation's field).
#[track_caller]
pub(super) const fn present<R: Layout, F: Field<R>>() {
    if !F::MISSING.is_empty() {
        panic!("{}", F::MISSING)
    }
}

/// `F` may be written to a value placed as `P`: present, writable, and, for a field valid only on some
/// instances (IN_TXCP on counter 2), the value placed on one of them at compile time.
#[track_caller]
pub(super) const fn settable<R: Layout, F: Field<R>, P: Placement>() {
    settable_in::<R, F, P>(false)
}

/// [`settable`], where a value placed at run time (`AnyCounter`) is checked at run time
/// ([`on_instance`]) by a fallible setter.
#[track_caller]
pub(super) const fn settable_fallible<R: Layout, F: Field<R>, P: Placement>() {
    settable_in::<R, F, P>(true)
}

/// Whether field row `f` may be set on instance `index`.
#[inline(always)]
pub(super) const fn on_instance(f: &FieldInfo, index: u32) -> bool {
    if f.instances.is_empty() {
        return true;
    }
    let mut i = 0;
    while i < f.instances.len() {
        if f.instances[i] == index {
            return true;
        }
        i += 1;
    }
    false
}

#[track_caller]
const fn settable_in<R: Layout, F: Field<R>, P: Placement>(run_time: bool) {
    present::<R, F>();
    let f = info::<R, F>();
    if !R::ACCESS.writable() || !f.access.writable() {
        crate::__private::read_only(R::NAME, f.name)
    }
    if f.instances.is_empty() || (run_time && P::RUNTIME) {
        return;
    }
    if let Some(n) = P::INDEX {
        let mut i = 0;
        while i < f.instances.len() {
            if f.instances[i] == n {
                return;
            }
            i += 1;
        }
    }
    crate::__private::not_on_instance(R::NAME, f.name, f.instances, P::INDEX)
}

/// `F` is one bit wide (for `with_bit` / `is_set`).
#[track_caller]
pub(super) const fn one_bit<R: Layout, F: Field<R>>() {
    let f = info::<R, F>();
    if f.width() != 1 {
        crate::__private::not_one_bit(R::NAME, f.name, f.width())
    }
}

/// The constant `v` fits field `F`.
#[track_caller]
pub(super) const fn fits<R: Layout, F: Field<R>>(v: u64) {
    field::check_info(R::NAME, info::<R, F>(), v)
}

/// The constant bits `b` set no reserved bit of `R`.
#[track_caller]
pub(super) const fn no_reserved<R: Layout>(b: u64) {
    field::reserved_clear(R::NAME, R::RESERVED_MASK, b)
}

// Each check again inside an inline `const { }` block, in a function of its own: called after
// the body's checks, so that in a `const` item the body's check fails first (at the user's
// expression), while ordinary code still fails to compile (when the accessor is instantiated).

#[inline(always)]
pub(super) const fn present_ct<R: Layout, F: Field<R>>() {
    const { present::<R, F>() }
}

#[inline(always)]
pub(super) const fn settable_ct<R: Layout, F: Field<R>, P: Placement>() {
    const { settable::<R, F, P>() }
}

#[inline(always)]
pub(super) const fn settable_fallible_ct<R: Layout, F: Field<R>, P: Placement>() {
    const { settable_fallible::<R, F, P>() }
}

#[inline(always)]
pub(super) const fn one_bit_ct<R: Layout, F: Field<R>>() {
    const { one_bit::<R, F>() }
}

#[inline(always)]
pub(super) const fn fits_ct<R: Layout, F: Field<R>, const V: u64>() {
    const { fits::<R, F>(V) }
}

#[inline(always)]
pub(super) const fn no_reserved_ct<R: Layout, const B: u64>() {
    const { no_reserved::<R>(B) }
}
