//! A field as data, and what is done with fields written once: [`FieldInfo`] (a row of a
//! register's `FIELDS`: name, bit runs, access, requirement, instances) with its `get`, `put`
//! and `try_put`, which the generic `reg::Value` and `Builder` call; the reserved-bit checks,
//! builder tracking and the manual's constraints, as data; `Debug` of a register value. The
//! functions are `const` and `#[inline(always)]`, so with the constants known they fold to the
//! instructions a hand-written accessor has (`tests/tests/asm.rs` compares them).

pub use FieldInfo as Info;
pub use pmu_vocab::Access;
pub use pmu_vocab::select::Run;

/// One field of a register (one element of a field array: `EN0`, `EN1`, ...), as data: the
/// table every generated register module holds as `FIELDS` and [`RegInfo::fields`](crate::arch::RegInfo::fields) lists.
/// The register's `Debug`, its builder's set-twice reports and the compile-time width checks
/// read it; tools print and compare layouts from it without per-register code.
///
/// ```
/// use pmu_regs::intel::v3::IA32_PERFEVTSEL;
///
/// let umask = IA32_PERFEVTSEL::FIELDS.iter().find(|f| f.name == "UMASK").unwrap();
/// assert_eq!((umask.mask(), umask.width()), (0xFF00, 8));
/// assert_eq!(umask.get(0x0043_412E), 0x41);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldInfo {
    /// The field's name in the definitions (`UMASK`; an array element's own name, `EN0`).
    pub name: &'static str,
    /// Its bits, low part of the value first (two runs for AMD's split event select).
    pub runs: &'static [Run],
    /// How software may access it.
    pub access: Access,
    /// The CPUID enumeration it needs to exist (`requires:` in the definitions), as the
    /// manual states it; `None` when the register's presence is enough.
    pub requires: Option<&'static str>,
    /// The instances of the register family it is valid on (`instances:`, IN_TXCP on
    /// counter 2 only); empty: every instance.
    pub instances: &'static [u32],
}

impl FieldInfo {
    /// A read-write field valid on every instance, with no enumeration of its own.
    pub const fn new(name: &'static str, runs: &'static [Run]) -> Self {
        FieldInfo {
            name,
            runs,
            access: Access::ReadWrite,
            requires: None,
            instances: &[],
        }
    }

    /// The same field with access `access`.
    pub const fn access(self, access: Access) -> Self {
        FieldInfo { access, ..self }
    }

    /// The same field, present only when `requires` (a CPUID enumeration) holds.
    pub const fn requires(self, requires: &'static str) -> Self {
        FieldInfo {
            requires: Some(requires),
            ..self
        }
    }

    /// The same field, valid on `instances` of the family only.
    pub const fn instances(self, instances: &'static [u32]) -> Self {
        FieldInfo { instances, ..self }
    }

    /// Its name and runs, for the field code shared with the encoder
    /// (`pmu_vocab::select::FieldRuns`).
    #[inline(always)]
    const fn field_runs(&self) -> pmu_vocab::select::FieldRuns<'static> {
        pmu_vocab::select::FieldRuns::new(self.name, self.runs)
    }

    /// Its width: the bits of all its runs.
    #[inline(always)]
    pub const fn width(&self) -> u32 {
        self.field_runs().width()
    }

    /// The register bits it covers.
    #[inline(always)]
    pub const fn mask(&self) -> u64 {
        self.field_runs().mask()
    }

    /// Its value in the register value `bits`.
    #[inline(always)]
    pub const fn get(&self, bits: u64) -> u64 {
        self.field_runs().extract(bits)
    }

    /// `bits` with the field set to `v`, other bits unchanged; bits of `v` above the field
    /// are dropped (the callers check the width first, at compile time or with
    /// [`try_put`](Self::try_put)).
    #[inline(always)]
    pub const fn put(&self, bits: u64, v: u64) -> u64 {
        let w = self.width();
        let v = if w < 64 { v & ((1 << w) - 1) } else { v };
        match self.field_runs().insert(bits, v) {
            Some(out) => out,
            None => bits,
        }
    }

    /// `bits` with the field set to `v`, or [`FieldError::TooWide`](crate::FieldError).
    #[inline(always)]
    pub const fn try_put(&self, bits: u64, v: u64) -> Result<u64, crate::FieldError> {
        match self.field_runs().insert(bits, v) {
            Some(out) => Ok(out),
            None => Err(crate::FieldError::TooWide {
                field: self.name,
                width: self.width(),
                value: v,
            }),
        }
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

    /// AMD's split event select: bits 7:0, then 35:32.
    const SPLIT: FieldInfo = FieldInfo::new("EVENT_SELECT", &[Run::new(0, 8), Run::new(32, 4)]);

    #[test]
    fn a_split_field_round_trips_every_value() {
        assert_eq!(SPLIT.width(), 12);
        assert_eq!(SPLIT.mask(), 0xF_0000_00FF);
        for v in 0..0x1000 {
            let bits = SPLIT.put(u64::MAX, v);
            assert_eq!(SPLIT.get(bits), v);
            assert_eq!(bits | SPLIT.mask(), u64::MAX, "other bits kept");
        }
        assert_eq!(
            SPLIT.try_put(0, 0x1000),
            Err(crate::FieldError::TooWide {
                field: "EVENT_SELECT",
                width: 12,
                value: 0x1000
            })
        );
    }

    #[test]
    fn a_full_width_field_takes_every_value() {
        const ALL: FieldInfo = FieldInfo::new("COUNT", &[Run::new(0, 64)]);
        assert_eq!(ALL.try_put(0, u64::MAX), Ok(u64::MAX));
        assert_eq!(ALL.get(u64::MAX), u64::MAX);
        assert_eq!(ALL.put(0, u64::MAX), u64::MAX);
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
}
