//! Number, bit-range and address formatting shared by the HTML, Markdown and data writers.

use pmu_defs::model::{BitRange, Field, Msr, Register};

/// `0x2E`: hexadecimal with upper-case digits.
pub fn hex(v: u64) -> String {
    format!("0x{v:X}")
}

/// A mask padded to the register width: `0xFFFFFFFC00000000` for 64 bits.
pub fn hex_width(v: u64, width: u32) -> String {
    let digits = width.div_ceil(4).max(1) as usize;
    format!("0x{v:0digits$X}")
}

/// `7:0`, or `19` for one bit.
pub fn range(r: &BitRange) -> String {
    if r.lsb == r.msb {
        r.lsb.to_string()
    } else {
        format!("{}:{}", r.msb, r.lsb)
    }
}

/// Bits of element 0: `7:0`, or `7:0 and 35:32` for a split field (low part first).
pub fn field_bits(f: &Field) -> String {
    f.bits.iter().map(range).collect::<Vec<_>>().join(" and ")
}

/// Every element of a field array spelt out, `1:0, 5:4, 9:8`; `None` for a plain field.
pub fn element_bits(f: &Field) -> Option<String> {
    let a = f.array?;
    let parts: Vec<String> = (0..a.count)
        .map(|i| {
            let shift = u64::from(a.stride) * u64::from(i);
            f.bits
                .iter()
                .map(|b| {
                    let lsb = u64::from(b.lsb) + shift;
                    let msb = u64::from(b.msb) + shift;
                    if lsb == msb {
                        lsb.to_string()
                    } else {
                        format!("{msb}:{lsb}")
                    }
                })
                .collect::<Vec<_>>()
                .join("+")
        })
        .collect();
    Some(parts.join(", "))
}

/// The array shape in words: `×4, every 4 bits`.
pub fn array_shape(f: &Field) -> Option<String> {
    f.array.map(|a| {
        format!(
            "×{}, every {} bit{}",
            a.count,
            a.stride,
            if a.stride == 1 { "" } else { "s" }
        )
    })
}

/// The set bits of a mask as ranges, highest first: `63:35, 21`.
pub fn mask_ranges(mask: u64) -> String {
    let mut out = Vec::new();
    let mut bit: i32 = 63;
    while bit >= 0 {
        if mask >> bit & 1 == 1 {
            let msb = bit;
            while bit >= 0 && mask >> bit & 1 == 1 {
                bit -= 1;
            }
            let lsb = bit + 1;
            out.push(if lsb == msb {
                msb.to_string()
            } else {
                format!("{msb}:{lsb}")
            });
        } else {
            bit -= 1;
        }
    }
    out.join(", ")
}

/// Where a register lives: `0x38D`, `0x186–0x18D` (eight consecutive) or
/// `0xC0010200, 0xC0010202, … 0xC001020A`.
pub fn address(msr: &Msr) -> String {
    if !msr.indexed || msr.count <= 1 {
        return hex(u64::from(msr.base));
    }
    let last = u64::from(msr.base) + u64::from(msr.stride) * u64::from(msr.count - 1);
    if msr.stride == 1 {
        format!("{}–{}", hex(u64::from(msr.base)), hex(last))
    } else {
        format!(
            "{}, {}, … {} (every {})",
            hex(u64::from(msr.base)),
            hex(u64::from(msr.base) + u64::from(msr.stride)),
            hex(last),
            msr.stride
        )
    }
}

/// Number of instances in words: `8 registers, IA32_PERFEVTSEL0–7`, or empty for one.
pub fn instances(r: &Register) -> String {
    if !r.msr.indexed {
        return String::new();
    }
    let n = r.msr.count;
    format!(
        "{n} register{}, {}0–{}",
        if n == 1 { "" } else { "s" },
        r.name,
        n.saturating_sub(1)
    )
}

/// Counter numbers as ranges: `0–3, 5`.
pub fn number_ranges(nums: &[u32]) -> String {
    let mut sorted = nums.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut out = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}–{end}")
        });
        i += 1;
    }
    out.join(", ")
}

/// `1 event`, `2 events`, `1,507 events`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// A number with thousands separators: `17,204`.
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Text folded to one line: runs of whitespace, line breaks included, become one space.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_ranges() {
        assert_eq!(mask_ranges(0xFFFF_FFFC_0020_0000), "63:34, 21");
        assert_eq!(mask_ranges(0), "");
        assert_eq!(mask_ranges(1), "0");
        assert_eq!(mask_ranges(u64::MAX), "63:0");
        assert_eq!(number_ranges(&[5, 0, 1, 2, 3]), "0–3, 5");
        assert_eq!(hex_width(0x2E, 64), "0x000000000000002E");
        assert_eq!(thousands(17204), "17,204");
        assert_eq!(thousands(999), "999");
    }
}
