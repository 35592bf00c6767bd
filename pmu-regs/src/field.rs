//! Field access written once: every generated getter and setter is one call here, given the
//! field's tock-registers [`Field`] constants (one per part, low bits first: two for AMD's split
//! event select) and, for an element of a field array, the element's distance from element 0.
//!
//! A field is data (`Field { mask, shift }`, the constants the register module declares for
//! tock-registers users anyway); the shifting and masking are here. The functions are `const`
//! and `#[inline(always)]`, so with the constants known they fold to the instructions a
//! hand-written accessor has (`tests/tests/asm.rs` compares them).

use crate::FieldError;
pub use crate::arch::{Access, FieldInfo as Info, Run};
use tock_registers::RegisterLongName;
use tock_registers::fields::Field;

/// The field's width: the bits of all its parts.
#[inline(always)]
pub const fn width<R: RegisterLongName>(parts: &[Field<u64, R>]) -> u32 {
    let (mut w, mut i) = (0, 0);
    while i < parts.len() {
        w += parts[i].mask.count_ones();
        i += 1;
    }
    w
}

/// The register bits of the field, moved up `shift` bits (an element of an array).
#[inline(always)]
pub const fn mask<R: RegisterLongName>(parts: &[Field<u64, R>], shift: u32) -> u64 {
    let (mut m, mut i) = (0, 0);
    while i < parts.len() {
        m |= parts[i].mask << (parts[i].shift as u32 + shift);
        i += 1;
    }
    m
}

/// The field's value in `bits` (its element `shift` bits above the constants).
#[inline(always)]
pub const fn get<R: RegisterLongName>(bits: u64, parts: &[Field<u64, R>], shift: u32) -> u64 {
    let (mut v, mut at, mut i) = (0, 0, 0);
    while i < parts.len() {
        let p = &parts[i];
        v |= ((bits >> (p.shift as u32 + shift)) & p.mask) << at;
        at += p.mask.count_ones();
        i += 1;
    }
    v
}

/// `bits` with the field set to `v`, other bits unchanged. `v` must fit (the callers check, at
/// compile time or with [`try_put`]); bits of `v` above the field are dropped.
#[inline(always)]
pub const fn put<R: RegisterLongName>(
    bits: u64,
    parts: &[Field<u64, R>],
    shift: u32,
    v: u64,
) -> u64 {
    let (mut out, mut at, mut i) = (bits, 0, 0);
    while i < parts.len() {
        let p = &parts[i];
        let s = p.shift as u32 + shift;
        out = (out & !(p.mask << s)) | (((v >> at) & p.mask) << s);
        at += p.mask.count_ones();
        i += 1;
    }
    out
}

/// Fails (a compile error in a `const`, and in the inline `const` of a const-generic setter)
/// when `v` is wider than the field `name` of `register`.
#[inline(always)]
#[track_caller]
pub const fn check<R: RegisterLongName>(
    register: &str,
    name: &str,
    parts: &[Field<u64, R>],
    v: u64,
) {
    let w = width(parts);
    if w < 64 && v >> w != 0 {
        crate::__private::too_wide(register, name, w, v)
    }
}

/// Fails (a compile error: the caller is the inline `const` of a const-generic setter) when
/// `v` is wider than `field` of `register`: the check of `with_x::<V>()`, reading the
/// register's `FIELDS` table.
#[inline(always)]
#[track_caller]
pub const fn check_info(register: &str, field: &Info, v: u64) {
    let w = field.width();
    if w < 64 && v >> w != 0 {
        crate::__private::too_wide(register, field.name, w, v)
    }
}

/// `Debug` of a register value from its `FIELDS` table: `NAME { FIELD: value, .. }`, a
/// one-bit field as a `bool` and a wider one in hex, then `reserved` when any reserved bit is
/// set. One function for every register (and for [`RegInfo::decoded`]).
///
/// [`RegInfo::decoded`]: crate::arch::RegInfo::decoded
pub fn debug(
    f: &mut core::fmt::Formatter<'_>,
    name: &str,
    fields: &[Info],
    bits: u64,
    reserved: u64,
) -> core::fmt::Result {
    let mut d = f.debug_struct(name);
    for field in fields {
        let v = field.get(bits);
        if field.width() == 1 {
            d.field(field.name, &(v != 0));
        } else {
            d.field(field.name, &format_args!("{v:#x}"));
        }
    }
    if bits & reserved != 0 {
        d.field("reserved", &format_args!("{:#x}", bits & reserved));
    }
    d.finish()
}

/// `bits` with the field `name` set to `v`, or [`FieldError::TooWide`].
#[inline(always)]
pub const fn try_put<R: RegisterLongName>(
    bits: u64,
    name: &'static str,
    parts: &[Field<u64, R>],
    shift: u32,
    v: u64,
) -> Result<u64, FieldError> {
    match fits(name, parts, v) {
        Ok(()) => Ok(put(bits, parts, shift, v)),
        Err(e) => Err(e),
    }
}

/// [`FieldError::TooWide`] when `v` is wider than the field `name`.
#[inline(always)]
const fn fits<R: RegisterLongName>(
    name: &'static str,
    parts: &[Field<u64, R>],
    v: u64,
) -> Result<(), FieldError> {
    let w = width(parts);
    if w < 64 && v >> w != 0 {
        return Err(FieldError::TooWide {
            field: name,
            width: w,
            value: v,
        });
    }
    Ok(())
}

/// Element `index` of an array of `count` elements `stride` bits apart, whose element 0 is
/// `parts`; `None` when out of range.
#[inline(always)]
pub const fn get_at<R: RegisterLongName>(
    bits: u64,
    parts: &[Field<u64, R>],
    stride: u32,
    count: u32,
    index: u32,
) -> Option<u64> {
    if index < count {
        Some(get(bits, parts, index * stride))
    } else {
        None
    }
}

/// `bits` with element `index` of the array `name` (see [`get_at`]) set to `v`, or why not:
/// [`FieldError::TooWide`], then [`FieldError::IndexOutOfRange`].
#[inline(always)]
pub const fn try_put_at<R: RegisterLongName>(
    bits: u64,
    name: &'static str,
    parts: &[Field<u64, R>],
    (stride, count): (u32, u32),
    index: u32,
    v: u64,
) -> Result<u64, FieldError> {
    if let Err(e) = fits(name, parts, v) {
        return Err(e);
    }
    if index >= count {
        return Err(FieldError::IndexOutOfRange {
            field: name,
            count,
            index,
        });
    }
    Ok(put(bits, parts, index * stride, v))
}

/// The bits of element `index` of the array (see [`get_at`]), 0 when out of range.
#[inline(always)]
pub const fn mask_at<R: RegisterLongName>(
    parts: &[Field<u64, R>],
    stride: u32,
    count: u32,
    index: u32,
) -> u64 {
    if index < count {
        mask(parts, index * stride)
    } else {
        0
    }
}

/// A builder's record after assigning the bits `mask` (from `old` to `new`): `set` gains
/// them, and `conflict` too when they were assigned before with a different value. Returns
/// `(set, conflict)`.
#[inline(always)]
pub const fn track(set: u64, conflict: u64, old: u64, new: u64, mask: u64) -> (u64, u64) {
    let clash = if set & mask != 0 && (old ^ new) & mask != 0 {
        mask
    } else {
        0
    };
    (set | mask, conflict | clash)
}

/// Fails (a compile error in a `const`, at the caller's line) when `bits` sets a bit of
/// `reserved`, the reserved bits of `register`.
#[inline(always)]
#[track_caller]
pub const fn reserved_clear(register: &str, reserved: u64, bits: u64) {
    if bits & reserved != 0 {
        crate::__private::reserved_bits(register, bits & reserved, reserved)
    }
}

/// `bits`, or [`ReservedBitsError`](crate::ReservedBitsError) when it sets a bit of
/// `reserved`, the reserved bits of `register`.
#[inline(always)]
pub const fn try_reserved_clear(
    register: &'static str,
    reserved: u64,
    bits: u64,
) -> Result<u64, crate::ReservedBitsError> {
    if bits & reserved != 0 {
        return Err(crate::ReservedBitsError {
            register,
            bits: bits & reserved,
            reserved_mask: reserved,
        });
    }
    Ok(bits)
}

/// A compile error (also outside a `const`, when the caller is monomorphized) when the
/// constant `B` sets a reserved bit of `R`: the check of `Value::from_bits::<B>()`, in a
/// function of its own so that in a `const` item the caller's own test fails first, at the
/// caller's line.
#[inline(always)]
pub const fn reserved_ok<R: crate::access::RegisterValue, const B: u64>() {
    const {
        if B & R::RESERVED_MASK != 0 {
            crate::__private::reserved_bits(R::NAME, B & R::RESERVED_MASK, R::RESERVED_MASK)
        }
    }
}

/// A combination of field values the manual rules out, as data: it holds for a value `bits`
/// when `bits & mask == value` (each of its conditions, a field equal to a value, is that
/// field's bits in `mask` and the value in place in `value`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Constraint {
    /// The constraint's id in the definitions.
    pub id: &'static str,
    /// What is wrong and how to fix it.
    pub message: &'static str,
    /// The bits of every field the conditions name.
    pub mask: u64,
    /// Those fields' values, in place.
    pub value: u64,
}

/// The first of `constraints` that `bits` violates, as an error.
#[inline(always)]
pub const fn check_constraints(
    bits: u64,
    constraints: &[Constraint],
) -> Result<(), crate::ConstraintError> {
    let mut i = 0;
    while i < constraints.len() {
        let c = &constraints[i];
        if bits & c.mask == c.value {
            return Err(crate::ConstraintError {
                id: c.id,
                message: c.message,
                field: None,
            });
        }
        i += 1;
    }
    Ok(())
}

/// Panics with the message of the first of `constraints` that `bits` violates (in a `const`,
/// a compile error at the caller's expression).
#[inline(always)]
#[track_caller]
pub const fn enforce_constraints(bits: u64, constraints: &[Constraint]) {
    if let Err(e) = check_constraints(bits, constraints) {
        panic!("{}", e.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LO: Field<u64, ()> = Field::new(0xFF, 0);
    const HI: Field<u64, ()> = Field::new(0xF, 32);
    const EN0: Field<u64, ()> = Field::new(0x3, 0);

    #[test]
    fn a_split_field_round_trips_every_value() {
        assert_eq!(width(&[LO, HI]), 12);
        assert_eq!(mask(&[LO, HI], 0), 0xF_0000_00FF);
        for v in 0..0x1000 {
            let bits = put(u64::MAX, &[LO, HI], 0, v);
            assert_eq!(get(bits, &[LO, HI], 0), v);
            assert_eq!(bits | mask(&[LO, HI], 0), u64::MAX, "other bits kept");
        }
        assert_eq!(
            try_put(0, "EVENT_SELECT", &[LO, HI], 0, 0x1000),
            Err(FieldError::TooWide {
                field: "EVENT_SELECT",
                width: 12,
                value: 0x1000
            })
        );
    }

    #[test]
    fn array_elements_are_stride_apart_and_bounded() {
        let bits = try_put_at(0, "ENABLE", &[EN0], (4, 3), 2, 3).unwrap();
        assert_eq!(bits, 0x300);
        assert_eq!(get_at(bits, &[EN0], 4, 3, 2), Some(3));
        assert_eq!(get_at(bits, &[EN0], 4, 3, 3), None);
        assert_eq!(mask_at(&[EN0], 4, 3, 1), 0x30);
        assert_eq!(mask_at(&[EN0], 4, 3, 3), 0);
        assert_eq!(
            try_put_at(0, "ENABLE", &[EN0], (4, 3), 3, 1),
            Err(FieldError::IndexOutOfRange {
                field: "ENABLE",
                count: 3,
                index: 3
            })
        );
        assert!(matches!(
            try_put_at(0, "ENABLE", &[EN0], (4, 3), 0, 4),
            Err(FieldError::TooWide { width: 2, .. })
        ));
    }

    #[test]
    fn a_constraint_holds_when_every_condition_does() {
        // INV (bit 23) set and CMASK (31:24) zero.
        const C: [Constraint; 1] = [Constraint {
            id: "inv-without-cmask",
            message: "m",
            mask: 0xFF80_0000,
            value: 0x0080_0000,
        }];
        assert!(check_constraints(0x0080_0000, &C).is_err());
        assert!(check_constraints(0x0180_0000, &C).is_ok(), "CMASK set");
        assert!(check_constraints(0, &C).is_ok(), "INV clear");
        assert_eq!(
            check_constraints(0x0080_00FF, &C).unwrap_err().id,
            "inv-without-cmask"
        );
    }

    #[test]
    fn a_full_width_field_takes_every_value() {
        const ALL: Field<u64, ()> = Field::new(u64::MAX, 0);
        assert_eq!(try_put(0, "COUNT", &[ALL], 0, u64::MAX), Ok(u64::MAX));
        assert_eq!(get(u64::MAX, &[ALL], 0), u64::MAX);
    }
}
