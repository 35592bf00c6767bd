//! One register API, written once: the generic [`Value`] and [`Builder`] of every generated
//! register, driven by the constants the generator emits.
//!
//! A generated register module is data: its marker type (`IA32_PERFEVTSEL::Register`, which
//! implements [`Layout`]: name, access, reserved bits, the [`FieldInfo`] table), one marker
//! type per field (`IA32_PERFEVTSEL::UMASK`, implementing [`Field`]: its row in that table),
//! its named-value enums, and its addresses. Everything done with a value is here, once:
//!
//! ```
//! use pmu_regs::intel::v3::IA32_PERFEVTSEL as SEL;
//!
//! // LLC misses, user + kernel mode, enabled; checked entirely at compile time.
//! const LLC_MISSES: SEL::Value = SEL::Value::new()
//!     .with::<SEL::EVENT_SELECT, 0x2E>()
//!     .with::<SEL::UMASK, 0x41>()
//!     .with_bit::<SEL::USR>(true)
//!     .with_bit::<SEL::OS>(true)
//!     .with_bit::<SEL::EN>(true)
//!     .build();
//! assert_eq!(LLC_MISSES.bits(), 0x0043_412E);
//! assert_eq!(LLC_MISSES.get::<SEL::UMASK>(), 0x41);
//! assert!(LLC_MISSES.is_set::<SEL::EN>());
//! ```
//!
//! | what | spelling |
//! | --- | --- |
//! | read a field | `get::<F>()` (`u64`), `is_set::<F>()` (`bool`), `named::<F>()` (its enum) |
//! | set a compile-time constant | `with::<F, V>()`: too wide, read-only, another register's field, a field the generation lacks: compile errors |
//! | set a run-time value | `with_bit::<F>(bool)` (one bit), `with_value::<F>(X::Y)` (named values), `try_with::<F>(v)` → `Result` |
//! | an element of a field array | `get_at::<A>(i)`, `try_with_at::<A>(i, v)` |
//! | placement | `at::<N>()`, `try_at(i)`, the register's `event_on::<N>` / `try_event_on` |
//!
//! Why marker types with associated constants: the generic code lives in this crate once and
//! is instantiated only for the fields a program uses, so a register costs the compiler its
//! constants, not a method per field (svd2rust's `generic.rs` model); `registers!` emits the
//! same markers in a user's crate, which may implement this crate's traits for its own types;
//! and the checks stay `const` (trait bounds and associated constants are allowed in a `const
//! fn` on stable Rust, inline `const { }` blocks make them compile errors also outside a
//! `const`). The accessors fold to a hand-written mask and shift (`tests/tests/asm.rs`).

mod builder;
mod check;
mod placed;
mod value;

pub use crate::field::Constraint;
pub use crate::field::{Access, FieldInfo};
pub use builder::Builder;
pub use placed::{AnyCounter, Counter, Placed, PlacedAt, Unplaced};
pub use value::Value;

/// What the generator knows of a register layout, implemented by the register's marker type
/// (`IA32_PERFEVTSEL::Register`). Not for hand-written code: the generator implements it.
pub trait Layout: tock_registers::RegisterLongName + Copy + 'static {
    /// Register name, as in the manuals.
    const NAME: &'static str;
    /// How software may access the register.
    const ACCESS: Access;
    /// Bits no field covers: the API never sets them.
    const RESERVED_MASK: u64;
    /// The value after reset, when the manual states one.
    const RESET: Option<u64> = None;
    /// Every field (each element of a field array), in bit order.
    const FIELDS: &'static [FieldInfo];
    /// The manual's constraints on field combinations.
    const CONSTRAINTS: &'static [Constraint] = &[];
    /// Instances of the register family (1 for a single register).
    const INSTANCES: u32 = 1;
}

/// A field of register `R`: a marker type in the register's module (`IA32_PERFEVTSEL::UMASK`)
/// naming its row of `R::FIELDS`. The generator implements it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a field of `{R}`",
    label = "a field of another register",
    note = "a register's fields are the marker types in its own module, beside its `Value`"
)]
pub trait Field<R: Layout> {
    /// Its row in `R::FIELDS`.
    const INDEX: usize;
    /// For a field this layout lacks (a later generation adds it): why it cannot be used,
    /// reported as a compile error where it is. Empty for a real field.
    const MISSING: &'static str = "";
}

/// A field with named values (`values:` in the definitions): its enum.
pub trait Named<R: Layout>: Field<R> {
    /// The enum of its named values.
    type Value: NamedValue;
}

/// A named-value enum of a field.
pub trait NamedValue: Copy {
    /// The field value.
    fn bits(self) -> u64;
    /// The named value for `bits`, if it has a name.
    fn from_bits(bits: u64) -> Option<Self>;
}

/// A field array of register `R` (`ENABLE` of `IA32_FIXED_CTR_CTRL`: `ENABLE0`, `ENABLE1`,
/// ...), for access by an index chosen at run time. The generator implements it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a field array of `{R}`",
    label = "not an array of this register"
)]
pub trait Array<R: Layout> {
    /// The array's name.
    const NAME: &'static str;
    /// Element 0's row in `R::FIELDS`.
    const FIRST: usize;
    /// Bits between one element and the next.
    const STRIDE: u32;
    /// The number of elements.
    const COUNT: u32;
}

/// Where a [`Builder`]'s value goes: [`Unplaced`], instance `N` ([`Counter<N>`]) or an
/// instance chosen at run time ([`AnyCounter`]).
pub trait Placement: Copy {
    /// The instance, when it is known at compile time.
    const INDEX: Option<u32>;
    /// Whether the instance is known at run time only.
    const RUNTIME: bool = false;
}

impl Placement for Unplaced {
    const INDEX: Option<u32> = None;
}

impl<const N: u32> Placement for Counter<N> {
    const INDEX: Option<u32> = Some(N);
}

impl Placement for AnyCounter {
    const INDEX: Option<u32> = None;
    const RUNTIME: bool = true;
}

/// An event select: where [`Builder::event_on`] places an event. The generator implements it
/// for the event select of the general-purpose counters.
pub trait Select: MsrDef {
    /// Which field holds each event attribute.
    const SELECT: crate::place::SelectSpec;
}

/// Where the MSRs of one register (or register family) are, implemented by its marker type
/// (`IA32_PERFEVTSEL::Register`) beside its [`Layout`]: the addresses
/// that the typed MSRs `access::Instance` and `access::Indexed` need. One generic implementation of those
/// serves every register, so each register module costs the compiler a few constants. Not
/// public API: the generator implements it.
#[doc(hidden)]
pub trait MsrDef: Layout {
    /// Address of instance 0 (of the register, when it is not a family).
    const BASE_ADDRESS: u32;
    /// Address step between instances.
    const ADDRESS_STRIDE: u32 = 1;
    /// Whether the register has a second address range (`alias-msr:`).
    const HAS_ALIAS: bool = false;
    /// Alias address of instance 0.
    const ALIAS_BASE_ADDRESS: u32 = 0;
    /// Alias address step between instances.
    const ALIAS_ADDRESS_STRIDE: u32 = 1;
}

/// A register that may be read: what makes its typed MSRs `access::Readable`.
/// The generator implements it.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read: the register is write-only",
    label = "write-only register",
    note = "write-only (write-1-to-clear / write-1-to-set) registers return nothing meaningful when read"
)]
pub trait ReadAccess: MsrDef {}

/// A register that may be written: what makes its typed MSRs `access::Writable`.
/// The generator implements it.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is read-only: it cannot be written",
    label = "read-only register",
    note = "writing a read-only MSR faults (#GP); read it with `MsrExt::read` (overflow status is cleared through the PMU's reset/clear register, where it has one)"
)]
pub trait WriteAccess: MsrDef {}
