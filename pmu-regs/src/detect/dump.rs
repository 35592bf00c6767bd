//! Reading a recorded CPUID dump in the text format of `cpuid -r` (one line per leaf and
//! subleaf: `0x0000000a 0x00: eax=0x07300404 ebx=0x00000000 ecx=0x00000000 edx=0x00000603`),
//! without allocating: the entries go into a slice the caller provides.
//!
//! ```
//! use pmu_regs::detect::{detect, parse_cpuid_dump, CpuidEntry, CpuidTable};
//!
//! // A Kaby Lake: the four leaves detection reads.
//! let text = "\
//! CPU 0:
//!    0x00000000 0x00: eax=0x00000016 ebx=0x756e6547 ecx=0x6c65746e edx=0x49656e69
//!    0x00000001 0x00: eax=0x000906e9 ebx=0x00100800 ecx=0x4ffaebbf edx=0xbfebfbff
//!    0x00000007 0x00: eax=0x00000000 ebx=0x02946687 ecx=0x00000000 edx=0x00000000
//!    0x0000000a 0x00: eax=0x07300404 ebx=0x00000000 ecx=0x00000000 edx=0x00000603
//! ";
//! let mut room = [CpuidEntry::new(0, 0, [0; 4]); 64];
//! let entries = parse_cpuid_dump(text, &mut room)?;
//! assert_eq!(entries.len(), 4);
//! let info = detect(&mut CpuidTable::new(entries));
//! assert_eq!(info.counters.gp, 0b1111);
//! # Ok::<(), pmu_regs::detect::DumpError>(())
//! ```

use super::CpuidEntry;
use core::fmt;

/// Why a CPUID dump could not be read, and where (1-based line and column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DumpError {
    /// The line, from 1.
    pub line: usize,
    /// The column (in bytes), from 1.
    pub column: usize,
    /// What is wrong there.
    pub kind: DumpErrorKind,
}

/// What is wrong with a CPUID dump.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DumpErrorKind {
    /// The line is not `LEAF SUBLEAF: eax=.. ebx=.. ecx=.. edx=..`; `expected` says what was
    /// expected at the column.
    Syntax {
        /// What the reader expected.
        expected: &'static str,
    },
    /// A number is not a hexadecimal `0x` value of at most 32 bits.
    BadNumber,
    /// The same leaf and subleaf are given twice with different values.
    Conflict {
        /// The leaf.
        leaf: u32,
        /// The subleaf.
        subleaf: u32,
    },
    /// More entries than the slice given to hold them.
    TooMany {
        /// The slice's length.
        room: usize,
    },
    /// No entry at all (or no leaf 0, without which nothing can be detected).
    NoLeaf0,
}

impl fmt::Display for DumpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        match self.kind {
            DumpErrorKind::Syntax { expected } => write!(
                f,
                "expected {expected} (lines read `LEAF SUBLEAF: eax=.. ebx=.. ecx=.. edx=..`, as `cpuid -r` writes them)"
            ),
            DumpErrorKind::BadNumber => {
                f.write_str("not a hexadecimal number of at most 32 bits (`0x` and 1 to 8 digits)")
            }
            DumpErrorKind::Conflict { leaf, subleaf } => write!(
                f,
                "leaf {leaf:#x} subleaf {subleaf:#x} is given twice with different values"
            ),
            DumpErrorKind::TooMany { room } => {
                write!(
                    f,
                    "more than {room} entries; give a larger slice to hold them"
                )
            }
            DumpErrorKind::NoLeaf0 => f.write_str(
                "the dump has no leaf 0 (vendor and highest leaf): nothing can be detected",
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DumpError {}

/// Reads the first CPU of a `cpuid -r` dump into `room` and returns the entries read, in the
/// order written. Blank lines, `#` comments and a `CPU 0:` header are skipped; a second
/// `CPU n:` header ends the first CPU. Leaves that are not listed read as zero through
/// [`CpuidTable`](super::CpuidTable).
pub fn parse_cpuid_dump<'r>(
    text: &str,
    room: &'r mut [CpuidEntry],
) -> Result<&'r [CpuidEntry], DumpError> {
    let mut n = 0;
    let mut cpus = 0;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if trimmed.starts_with("CPU ") && trimmed.trim_end().ends_with(':') {
            cpus += 1;
            if cpus > 1 {
                break;
            }
            continue;
        }
        let at = |column: usize, kind| DumpError {
            line: i + 1,
            column: indent + column + 1,
            kind,
        };
        let entry = parse_line(trimmed).map_err(|(col, kind)| at(col, kind))?;
        let same = room[..n]
            .iter()
            .find(|e| e.leaf == entry.leaf && e.subleaf == entry.subleaf);
        match same {
            Some(e) if e.regs == entry.regs => continue,
            Some(_) => {
                let kind = DumpErrorKind::Conflict {
                    leaf: entry.leaf,
                    subleaf: entry.subleaf,
                };
                return Err(at(0, kind));
            }
            None => {}
        }
        let Some(slot) = room.get_mut(n) else {
            let room = room.len();
            return Err(at(0, DumpErrorKind::TooMany { room }));
        };
        *slot = entry;
        n += 1;
    }
    let entries = &room[..n];
    if !entries.iter().any(|e| e.leaf == 0 && e.subleaf == 0) {
        let kind = DumpErrorKind::NoLeaf0;
        let line = text.lines().count().max(1);
        return Err(DumpError {
            line,
            column: 1,
            kind,
        });
    }
    Ok(entries)
}

/// `0x0000000a 0x00: eax=0x07300404 ebx=0x00000000 ecx=0x00000000 edx=0x00000603`, trimmed
/// at the start; on error, the byte offset in `s` and what is wrong.
fn parse_line(s: &str) -> Result<CpuidEntry, (usize, DumpErrorKind)> {
    let mut rest = Cursor { s, pos: 0 };
    let leaf = rest.hex("the leaf (`0x0000000a`)")?;
    rest.spaces();
    let subleaf = rest.hex("the subleaf (`0x00`)")?;
    rest.expect(":", "`:` after the subleaf")?;
    let mut regs = [0u32; 4];
    for (r, name) in regs.iter_mut().zip(["eax=", "ebx=", "ecx=", "edx="]) {
        rest.spaces();
        rest.expect(name, name)?;
        *r = rest.hex("a hexadecimal value")?;
    }
    rest.spaces();
    if rest.pos < s.len() {
        return Err((
            rest.pos,
            DumpErrorKind::Syntax {
                expected: "the end of the line after edx",
            },
        ));
    }
    Ok(CpuidEntry::new(leaf, subleaf, regs))
}

struct Cursor<'s> {
    s: &'s str,
    pos: usize,
}

impl Cursor<'_> {
    fn spaces(&mut self) {
        let rest = &self.s[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn expect(&mut self, word: &str, what: &'static str) -> Result<(), (usize, DumpErrorKind)> {
        if self.s[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err((self.pos, DumpErrorKind::Syntax { expected: what }))
        }
    }

    fn hex(&mut self, what: &'static str) -> Result<u32, (usize, DumpErrorKind)> {
        let start = self.pos;
        let rest = &self.s[start..];
        let Some(digits) = rest.strip_prefix("0x").or_else(|| rest.strip_prefix("0X")) else {
            return Err((start, DumpErrorKind::Syntax { expected: what }));
        };
        let len = digits
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(digits.len());
        let word = &digits[..len];
        if word.is_empty() || word.len() > 8 {
            return Err((start, DumpErrorKind::BadNumber));
        }
        let v = u32::from_str_radix(word, 16).map_err(|_| (start, DumpErrorKind::BadNumber))?;
        self.pos = start + 2 + len;
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::format;
    use std::string::{String, ToString};

    fn parse(text: &str) -> Result<usize, DumpError> {
        let mut room = [CpuidEntry::new(0, 0, [0; 4]); 8];
        parse_cpuid_dump(text, &mut room).map(<[_]>::len)
    }

    const LEAF0: &str =
        "   0x00000000 0x00: eax=0x00000010 ebx=0x68747541 ecx=0x444d4163 edx=0x69746e65\n";

    #[test]
    fn reads_the_first_cpu_and_skips_comments() {
        let text = format!(
            "# c\nCPU 0:\n{LEAF0}\n   0x00000001 0x00: eax=0x1 ebx=0x2 ecx=0x3 edx=0x4\nCPU 1:\n{LEAF0}"
        );
        let mut room = [CpuidEntry::new(0, 0, [0; 4]); 8];
        let e = parse_cpuid_dump(&text, &mut room).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[1], CpuidEntry::new(1, 0, [1, 2, 3, 4]));
    }

    #[test]
    fn errors_say_where_and_why() {
        let err = |t: &str| parse(t).unwrap_err();
        let e = err(&format!(
            "{LEAF0}   0x00000001 0x00: eax=0x1 ebx=0x2 ecx=0x3\n"
        ));
        assert_eq!((e.line, e.column), (2, 44));
        assert_eq!(e.kind, DumpErrorKind::Syntax { expected: "edx=" });
        let e = err(&format!(
            "{LEAF0}0x1 0x0: eax=0x123456789 ebx=0 ecx=0 edx=0\n"
        ));
        assert_eq!(
            (e.line, e.column, e.kind),
            (2, 14, DumpErrorKind::BadNumber)
        );
        let e = err(&format!(
            "{LEAF0}0x0 0x0: eax=0x1 ebx=0x0 ecx=0x0 edx=0x0\n"
        ));
        assert_eq!(
            e.kind,
            DumpErrorKind::Conflict {
                leaf: 0,
                subleaf: 0
            }
        );
        let e = err("0x1 0x0: eax=0x1 ebx=0x0 ecx=0x0 edx=0x0 extra\n");
        assert_eq!(e.column, 42);
        assert_eq!(err("# nothing\n").kind, DumpErrorKind::NoLeaf0);
        let many: String = (0..9)
            .map(|i| format!("0x{i:x} 0x0: eax=0x0 ebx=0x0 ecx=0x0 edx=0x0\n"))
            .collect();
        assert_eq!(err(&many).kind, DumpErrorKind::TooMany { room: 8 });
        assert!(
            err(&many)
                .to_string()
                .starts_with("line 9, column 1: more than 8 entries")
        );
    }

    #[test]
    fn a_repeated_identical_entry_is_read_once() {
        assert_eq!(parse(&format!("{LEAF0}{LEAF0}")).unwrap(), 1);
    }
}
