//! Register bit-layout diagrams in the spirit of SDM Figure 18-6: rows of 32 bits, most
//! significant bit on the left, one box per field (each element of a field array and each
//! part of a split field separately), reserved bits shaded, bit numbers above the field
//! boundaries, and names that do not fit in their box called out below the row.
//!
//! Every field box carries `data-field`, `data-lsb`, `data-msb` (register bit numbers) and,
//! where they apply, `data-index` (array element) and `data-part` (logical bits of a split
//! field); reserved boxes carry `data-reserved`. The root carries the grid geometry
//! (`data-cell`, `data-origin`) so tests can check every box against the model.

use crate::escape::html;
use crate::format;
use pmu_defs::model::Field;
use std::fmt::Write;

/// Width of one bit cell.
pub const CELL: u32 = 22;
/// Left and right margin; bit 31 (and 63) starts here.
pub const MARGIN: u32 = 12;
/// Bits per row.
pub const ROW_BITS: u32 = 32;
/// Total drawing width.
pub const WIDTH: u32 = 2 * MARGIN + ROW_BITS * CELL;

const TICK_H: u32 = 16;
const ROW_H: u32 = 34;
const LANE_H: u32 = 15;
const FIRST_LANE: u32 = 15;
const ROW_GAP: u32 = 12;
/// Advance of one character of the 11px monospace label font (0.6 em, with a little slack).
const CHAR_W: f64 = 6.8;
const LABEL_PAD: f64 = 6.0;
/// Number of field colours in the palette (`c0` … `c5`).
pub const COLOURS: usize = 6;

/// What a box in the diagram shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// (A part of) a field element.
    Field {
        /// Field name.
        name: String,
        /// Position of the field in the register's field list (for its colour).
        ordinal: usize,
        /// Array element, for field arrays.
        index: Option<u32>,
        /// Logical bits `(lsb, msb)` of this part, for split fields.
        part: Option<(u32, u32)>,
    },
    /// Bits no field covers.
    Reserved,
}

/// One box: contiguous bits of one row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Lowest register bit.
    pub lsb: u32,
    /// Highest register bit.
    pub msb: u32,
    /// Contents.
    pub kind: Kind,
}

impl Segment {
    /// The text drawn for the box.
    pub fn label(&self) -> String {
        match &self.kind {
            Kind::Reserved => "Reserved".to_owned(),
            Kind::Field {
                name, index, part, ..
            } => {
                let mut s = name.clone();
                if let Some(i) = index {
                    let _ = write!(s, "{i}");
                }
                if let Some((lo, hi)) = part {
                    if lo == hi {
                        let _ = write!(s, "[{lo}]");
                    } else {
                        let _ = write!(s, "[{hi}:{lo}]");
                    }
                }
                s
            }
        }
    }

    fn bits(&self) -> String {
        if self.lsb == self.msb {
            format!("bit {}", self.lsb)
        } else {
            format!("bits {}:{}", self.msb, self.lsb)
        }
    }
}

/// The boxes of a register of `width` bits (at most 64): every field element part and every
/// reserved run, split at row boundaries, ordered by lowest bit. Bits past the width are
/// dropped, never wrapped; overlapping fields (an invalid model) are drawn over each other
/// rather than rejected.
pub fn segments(width: u32, fields: &[Field]) -> Vec<Segment> {
    let width = width.clamp(1, 64);
    let mut covered = 0u64;
    let mut out = Vec::new();
    for (ordinal, f) in fields.iter().enumerate() {
        for i in 0..f.count() {
            let shift = f.array.map_or(0, |a| u64::from(a.stride) * u64::from(i));
            let mut consumed = 0u32;
            for b in &f.bits {
                let lsb = u64::from(b.lsb) + shift;
                let msb = (u64::from(b.msb) + shift).min(u64::from(width) - 1);
                let part = (f.bits.len() > 1).then(|| (consumed, consumed + b.width() - 1));
                consumed += b.width();
                if lsb > msb {
                    continue;
                }
                let (lsb, msb) = (lsb as u32, msb as u32);
                for bit in lsb..=msb {
                    covered |= 1 << bit;
                }
                out.push(Segment {
                    lsb,
                    msb,
                    kind: Kind::Field {
                        name: f.name.clone(),
                        ordinal,
                        index: f.array.map(|_| i),
                        part,
                    },
                });
            }
        }
    }
    let mut bit = 0;
    while bit < width {
        if covered >> bit & 1 == 0 {
            let lsb = bit;
            while bit < width && covered >> bit & 1 == 0 {
                bit += 1;
            }
            out.push(Segment {
                lsb,
                msb: bit - 1,
                kind: Kind::Reserved,
            });
        } else {
            bit += 1;
        }
    }
    // Split at row boundaries.
    let mut split = Vec::with_capacity(out.len());
    for s in out {
        let mut lo = s.lsb;
        while lo <= s.msb {
            let row_top = (lo / ROW_BITS) * ROW_BITS + ROW_BITS - 1;
            let hi = s.msb.min(row_top);
            split.push(Segment {
                lsb: lo,
                msb: hi,
                kind: s.kind.clone(),
            });
            lo = hi + 1;
        }
    }
    split.sort_by_key(|s| (s.lsb, s.msb));
    split
}

/// Left edge of a bit's cell.
pub fn bit_x(bit: u32) -> u32 {
    MARGIN + (ROW_BITS - 1 - bit % ROW_BITS) * CELL
}

/// What to draw.
#[derive(Debug)]
pub struct Diagram<'a> {
    /// Prefix for element ids; unique within the page.
    pub id: &'a str,
    /// Register (or CPUID output register) name for the title.
    pub name: &'a str,
    /// Register width in bits.
    pub width: u32,
    /// Fields.
    pub fields: &'a [Field],
    /// Link each field box to `#field-NAME` on the same page.
    pub link_fields: bool,
    /// A standalone `.svg` file (namespace declaration and its own styles) rather than an
    /// inline element of an HTML page.
    pub standalone: bool,
}

struct Callout {
    x: i64,
    label: String,
    text_w: i64,
    right: bool,
    lane: u32,
}

impl Callout {
    fn span(&self) -> (i64, i64) {
        if self.right {
            (self.x, self.x + 4 + self.text_w)
        } else {
            (self.x - 4 - self.text_w, self.x)
        }
    }
}

fn overlaps(a: (i64, i64), b: (i64, i64)) -> bool {
    a.0 <= b.1 + 3 && b.0 <= a.1 + 3
}

fn inside(x: i64, span: (i64, i64)) -> bool {
    x + 3 >= span.0 && x <= span.1 + 3
}

/// Lane assignment for names called out below a row: a label's text must not overlap
/// another label in its lane, and no leader line may cross a label's text. Labels written to
/// the right of their line are placed from the right edge inwards (a label further left goes
/// deeper), then those written to the left from the left edge inwards, which satisfies both
/// rules for each group; should the two groups block each other, the label goes below all
/// others and only the overlap rule is kept.
fn place(callouts: &mut [Callout]) {
    let mut order: Vec<usize> = (0..callouts.len()).collect();
    order.sort_by_key(|&i| {
        let c = &callouts[i];
        if c.right { (0, -c.x) } else { (1, c.x) }
    });
    let mut placed: Vec<usize> = Vec::new();
    for &i in &order {
        let span = callouts[i].span();
        let x = callouts[i].x;
        let conflict = |lane: u32, strict: bool, placed: &[usize], cs: &[Callout]| {
            placed.iter().any(|&j| {
                let q = &cs[j];
                (q.lane == lane && overlaps(span, q.span()))
                    || (strict && q.lane > lane && inside(q.x, span))
                    || (strict && q.lane < lane && inside(x, q.span()))
            })
        };
        let limit = placed.len() as u32 + 1;
        let lane = (0..=limit)
            .find(|&l| !conflict(l, true, &placed, callouts))
            .unwrap_or_else(|| {
                let below = placed
                    .iter()
                    .map(|&j| callouts[j].lane + 1)
                    .max()
                    .unwrap_or(0);
                (0..=below)
                    .find(|&l| !conflict(l, false, &placed, callouts))
                    .unwrap_or(below)
            });
        callouts[i].lane = lane;
        placed.push(i);
    }
}

fn text_width(s: &str) -> i64 {
    (s.chars().count() as f64 * CHAR_W).ceil() as i64
}

/// Styles of a standalone SVG (inline diagrams use the page's stylesheet).
const STANDALONE_STYLE: &str = include_str!("assets/diagram.css");

/// Renders the diagram.
pub fn render(d: &Diagram<'_>) -> String {
    let width = d.width.clamp(1, 64);
    let segs = segments(width, d.fields);
    let rows = width.div_ceil(ROW_BITS);
    let id = d.id;
    let mut body = String::new();
    let mut y = 4u32;
    // Horizontal extent, beyond 0..WIDTH when callouts need it.
    let mut min_x: i64 = 0;
    let mut max_x: i64 = i64::from(WIDTH);
    for row in (0..rows).rev() {
        let row_lo = row * ROW_BITS;
        let row_hi = (row_lo + ROW_BITS - 1).min(width - 1);
        let row_segs: Vec<&Segment> = segs
            .iter()
            .filter(|s| s.lsb >= row_lo && s.msb <= row_hi)
            .collect();
        let row_y = y + TICK_H;
        let _ = write!(
            body,
            r#"<g class="row" data-row-lsb="{row_lo}" data-row-msb="{row_hi}" data-y="{row_y}">"#
        );
        // Bit numbers at every box boundary.
        let mut ticks: Vec<u32> = Vec::new();
        for s in &row_segs {
            ticks.push(s.msb);
            ticks.push(s.lsb);
        }
        ticks.sort_unstable();
        ticks.dedup();
        for b in ticks.iter().rev() {
            let _ = write!(
                body,
                r#"<text class="bitno" x="{}" y="{}">{b}</text>"#,
                bit_x(*b) + CELL / 2,
                y + 12
            );
        }
        let mut callouts = Vec::new();
        for s in row_segs.iter().rev() {
            let x = bit_x(s.msb);
            let w = (s.msb - s.lsb + 1) * CELL;
            let label = s.label();
            let fits = (label.chars().count() as f64 * CHAR_W + LABEL_PAD) <= f64::from(w);
            let (class, data, tip) = match &s.kind {
                Kind::Reserved => (
                    "rsv".to_owned(),
                    r#" data-reserved="true""#.to_owned(),
                    format!("Reserved, {}", s.bits()),
                ),
                Kind::Field {
                    name,
                    ordinal,
                    index,
                    part,
                } => {
                    let mut data = format!(r#" data-field="{}""#, html(name));
                    if let Some(i) = index {
                        let _ = write!(data, r#" data-index="{i}""#);
                    }
                    if let Some((lo, hi)) = part {
                        let _ = write!(data, r#" data-part="{hi}:{lo}""#);
                    }
                    (
                        format!("fld c{}", ordinal % COLOURS),
                        data,
                        format!("{label}, {}", s.bits()),
                    )
                }
            };
            let link = match (&s.kind, d.link_fields) {
                (Kind::Field { name, .. }, true) => Some(format!("#field-{}", html(name))),
                _ => None,
            };
            if let Some(href) = &link {
                let _ = write!(body, r#"<a href="{href}">"#);
            }
            let _ = write!(
                body,
                r#"<g class="seg"><title>{}</title><rect class="{class}"{data} data-lsb="{}" data-msb="{}" x="{x}" y="{row_y}" width="{w}" height="{ROW_H}"/>"#,
                html(&tip),
                s.lsb,
                s.msb
            );
            // Bit grid inside wide boxes.
            for b in s.lsb + 1..=s.msb {
                let gx = bit_x(b) + CELL;
                let _ = write!(
                    body,
                    r#"<path class="grid" d="M{gx} {row_y}v4M{gx} {}v-4"/>"#,
                    row_y + ROW_H
                );
            }
            if fits {
                let class = if s.kind == Kind::Reserved {
                    "lbl rl"
                } else {
                    "lbl"
                };
                let _ = write!(
                    body,
                    r#"<text class="{class}" x="{}" y="{}">{}</text>"#,
                    x + w / 2,
                    row_y + ROW_H / 2 + 4,
                    html(&label)
                );
            } else if !fits && matches!(s.kind, Kind::Field { .. }) {
                let cx = x + w / 2;
                let text_w = text_width(&label);
                callouts.push(Callout {
                    x: i64::from(cx),
                    label,
                    text_w,
                    right: true,
                    lane: 0,
                });
            }
            body.push_str("</g>");
            if link.is_some() {
                body.push_str("</a>");
            }
        }
        // Row outline.
        let _ = write!(
            body,
            r#"<rect class="outline" x="{}" y="{row_y}" width="{}" height="{ROW_H}"/>"#,
            bit_x(row_hi),
            (row_hi - row_lo + 1) * CELL
        );
        // One direction per row (then no leader line crosses a label): the one that runs
        // less far past the drawing's edge; the view box grows to fit what still does.
        let right_over = callouts
            .iter()
            .map(|c| (c.x + 4 + c.text_w - i64::from(WIDTH)).max(0))
            .max()
            .unwrap_or(0);
        let left_over = callouts
            .iter()
            .map(|c| (c.text_w + 4 - c.x).max(0))
            .max()
            .unwrap_or(0);
        let right = right_over <= left_over;
        for c in &mut callouts {
            c.right = right;
        }
        place(&mut callouts);
        for c in &callouts {
            let (a, b) = c.span();
            min_x = min_x.min(a - 4);
            max_x = max_x.max(b + 4);
        }
        let lanes = callouts.iter().map(|c| c.lane + 1).max().unwrap_or(0);
        let bottom = row_y + ROW_H;
        for c in &callouts {
            let ly = bottom + FIRST_LANE + c.lane * LANE_H;
            let _ = write!(
                body,
                r#"<path class="lead" d="M{} {bottom}V{}"/>"#,
                c.x,
                ly - 4
            );
            let (tx, anchor) = if c.right {
                (c.x + 3, "start")
            } else {
                (c.x - 3, "end")
            };
            let _ = write!(
                body,
                r#"<text class="callout" x="{tx}" y="{ly}" text-anchor="{anchor}">{}</text>"#,
                html(&c.label)
            );
        }
        body.push_str("</g>");
        y = bottom + lanes * LANE_H + if lanes > 0 { FIRST_LANE } else { 0 } + ROW_GAP;
    }
    let height = y;
    let view_w = max_x - min_x;

    // Accessible description: every box in words.
    let mut desc = format!("{}-bit register.", width);
    for s in &segs {
        if let Kind::Field { .. } = s.kind {
            let _ = write!(desc, " {} {};", s.bits(), s.label());
        }
    }
    let reserved = segs
        .iter()
        .filter(|s| s.kind == Kind::Reserved)
        .fold(0u64, |m, s| m | (lsb_mask(s.msb + 1) & !lsb_mask(s.lsb)));
    if reserved != 0 {
        let _ = write!(desc, " reserved bits {}.", format::mask_ranges(reserved));
    } else {
        desc.push_str(" no reserved bits.");
    }

    let mut out = String::new();
    if d.standalone {
        out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    }
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="regsvg" viewBox="{min_x} 0 {view_w} {height}" width="{view_w}" height="{height}" role="img" aria-labelledby="{id}-t {id}-d" data-register="{}" data-width="{width}" data-cell="{CELL}" data-origin="{MARGIN}" data-row-bits="{ROW_BITS}">"#,
        html(d.name)
    );
    let _ = write!(
        out,
        r#"<title id="{id}-t">{} bit layout</title><desc id="{id}-d">{}</desc>"#,
        html(d.name),
        html(&desc)
    );
    if d.standalone {
        let _ = write!(out, "<style>{}</style>", STANDALONE_STYLE);
        let _ = write!(
            out,
            r#"<rect class="bg" x="{min_x}" y="0" width="{view_w}" height="{height}"/>"#
        );
    }
    out.push_str(&body);
    out.push_str("</svg>");
    if d.standalone {
        out.push('\n');
    }
    out
}

/// Bits below `bit` (exclusive) as a mask.
fn lsb_mask(bit: u32) -> u64 {
    if bit >= 64 {
        u64::MAX
    } else {
        (1u64 << bit) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callouts_never_collide() {
        let mut cs: Vec<Callout> = (0..12)
            .map(|i| Callout {
                x: 700 - i64::from(i) * 22,
                label: format!("ENABLE{i}"),
                text_w: text_width("ENABLE00"),
                right: false,
                lane: 0,
            })
            .collect();
        place(&mut cs);
        for (i, a) in cs.iter().enumerate() {
            for (j, b) in cs.iter().enumerate() {
                if i == j {
                    continue;
                }
                assert!(!(a.lane == b.lane && overlaps(a.span(), b.span())));
                if b.lane > a.lane {
                    assert!(!inside(b.x, a.span()), "line of {j} crosses text of {i}");
                }
            }
        }
    }

    #[test]
    fn lsb_masks() {
        assert_eq!(lsb_mask(0), 0);
        assert_eq!(lsb_mask(8), 0xFF);
        assert_eq!(lsb_mask(64), u64::MAX);
    }
}
