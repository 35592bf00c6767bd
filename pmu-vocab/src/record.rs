//! One event of a packed event table: [`LEN`] bytes, little-endian multi-byte fields at the
//! offsets below. The generator writes the records as one byte string per model
//! (rustc reads a byte string at once, where an array of structs is one constant evaluation
//! per field); `pmu_regs::EventTable` reads them back.

/// Bytes per event.
pub const LEN: usize = 48;
/// Where the name starts in the table's string of names (`u32`).
pub const NAME_OFFSET: usize = 0;
/// The name's length in bytes (`u8`).
pub const NAME_LEN: usize = 4;
/// Event select code (`u16`: AMD's are 12 bits).
pub const EVENT: usize = 5;
/// Unit mask (`u8`).
pub const UMASK: usize = 7;
/// Second unit mask (`u8`, 0 when none).
pub const UMASK2: usize = 8;
/// Counter mask (`u8`).
pub const CMASK: usize = 9;
/// The flag bits below (`u8`).
pub const FLAGS: usize = 10;
/// The fixed counter, when [`HAS_FIXED`] (`u8`).
pub const FIXED: usize = 11;
/// Bitmap of the general counters that may count the event (`u32`).
pub const COUNTERS: usize = 12;
/// PEBS support: 0 none, 1 PEBS, 2 with precise distribution (`u8`).
pub const PEBS: usize = 16;
/// The auxiliary-MSR kind, counted from 1 (`u8`, 0 when none).
pub const AUX: usize = 17;
/// First of the event's further encodings in the table's alternatives (`u16`).
pub const ALT_START: usize = 18;
/// How many further encodings (`u8`).
pub const ALT_LEN: usize = 20;
/// The auxiliary MSR's index, when [`HAS_MSR`] (`u32`).
pub const MSR_INDEX: usize = 21;
/// The value to program into it (`u64`).
pub const MSR_VALUE: usize = 25;
/// The second flag bits below ([`TAKEN_ALONE`] ...) (`u8`).
pub const FLAGS2: usize = 33;
/// The general counters that may sample the event with PEBS, when [`HAS_PEBS_COUNTERS`]
/// (`u32`, bit n = counter n).
pub const PEBS_GP: usize = 34;
/// The fixed counters that may, likewise (`u8`).
pub const PEBS_FIXED: usize = 38;
/// The general counters with precise distribution (PDist) for the event, when
/// [`HAS_PDIST_COUNTERS`] (`u32`).
pub const PDIST_GP: usize = 39;
/// The fixed counters with it (`u8`).
pub const PDIST_FIXED: usize = 43;
/// The general counters that may count the event while its core runs one thread
/// (Hyper-Threading off: Intel's `CounterHTOff`), when [`HAS_COUNTERS_HT_OFF`] (`u32`).
pub const COUNTERS_HT_OFF: usize = 44;

/// Flag: the equal-compare bit (Intel v6).
pub const EQ: u8 = 1;
/// Flag: invert.
pub const INV: u8 = 2;
/// Flag: edge detect.
pub const EDGE: u8 = 4;
/// Flag: AnyThread.
pub const ANY: u8 = 8;
/// Flag: deprecated by the vendor.
pub const DEPRECATED: u8 = 16;
/// Flag: counted by the fixed counter at [`FIXED`].
pub const HAS_FIXED: u8 = 32;
/// Flag: programs the auxiliary MSR at [`MSR_INDEX`].
pub const HAS_MSR: u8 = 64;

/// Second flag: the event must count alone (no other event on a general counter meanwhile).
pub const TAKEN_ALONE: u8 = 1;
/// Second flag: the definitions state the PEBS counters ([`PEBS_GP`], [`PEBS_FIXED`]).
pub const HAS_PEBS_COUNTERS: u8 = 2;
/// Second flag: the definitions state the PDist counters ([`PDIST_GP`], [`PDIST_FIXED`]).
pub const HAS_PDIST_COUNTERS: u8 = 4;
/// Second flag: the definitions state the counters with Hyper-Threading off
/// ([`COUNTERS_HT_OFF`]).
pub const HAS_COUNTERS_HT_OFF: u8 = 8;

// The fields tile the record: each starts where the one before ends.
const _: () = assert!(NAME_LEN == NAME_OFFSET + 4 && EVENT == NAME_LEN + 1);
const _: () = assert!(UMASK == EVENT + 2 && UMASK2 == UMASK + 1 && CMASK == UMASK2 + 1);
const _: () = assert!(FLAGS == CMASK + 1 && FIXED == FLAGS + 1 && COUNTERS == FIXED + 1);
const _: () = assert!(PEBS == COUNTERS + 4 && AUX == PEBS + 1 && ALT_START == AUX + 1);
const _: () = assert!(ALT_LEN == ALT_START + 2 && MSR_INDEX == ALT_LEN + 1);
const _: () = assert!(MSR_VALUE == MSR_INDEX + 4 && FLAGS2 == MSR_VALUE + 8);
const _: () = assert!(PEBS_GP == FLAGS2 + 1 && PEBS_FIXED == PEBS_GP + 4);
const _: () = assert!(PDIST_GP == PEBS_FIXED + 1 && PDIST_FIXED == PDIST_GP + 4);
const _: () = assert!(COUNTERS_HT_OFF == PDIST_FIXED + 1 && LEN == COUNTERS_HT_OFF + 4);
