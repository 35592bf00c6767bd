//! One event of a packed event table: [`LEN`] bytes, little-endian multi-byte fields at the
//! offsets below. The generator writes the records as one byte string per model
//! (rustc reads a byte string at once, where an array of structs is one constant evaluation
//! per field); `pmu_regs::EventTable` reads them back.

/// Bytes per event.
pub const LEN: usize = 33;
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

// The fields tile the record: each starts where the one before ends.
const _: () = assert!(NAME_LEN == NAME_OFFSET + 4 && EVENT == NAME_LEN + 1);
const _: () = assert!(UMASK == EVENT + 2 && UMASK2 == UMASK + 1 && CMASK == UMASK2 + 1);
const _: () = assert!(FLAGS == CMASK + 1 && FIXED == FLAGS + 1 && COUNTERS == FIXED + 1);
const _: () = assert!(PEBS == COUNTERS + 4 && AUX == PEBS + 1 && ALT_START == AUX + 1);
const _: () = assert!(ALT_LEN == ALT_START + 2 && MSR_INDEX == ALT_LEN + 1);
const _: () = assert!(MSR_VALUE == MSR_INDEX + 4 && LEN == MSR_VALUE + 8);
