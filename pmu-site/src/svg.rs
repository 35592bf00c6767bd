//! Register bit-layout diagrams in the spirit of SDM Figure 18-6: rows of 32 bits, most
//! significant bit on the left, one box per field (each element of a field array and each
//! part of a split field separately), reserved bits shaded, bit numbers above the field
//! boundaries, and names that do not fit in their box called out below the row.
//!
//! Every field box carries `data-field`, `data-lsb`, `data-msb` (register bit numbers) and,
//! where they apply, `data-index` (array element) and `data-part` (logical bits of a split
//! field); reserved boxes carry `data-reserved`. The root carries the grid geometry
//! (`data-cell`, `data-origin`) so tests can check every box against the model.

use crate::format;
use crate::svg;
use askama::Template;
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

/// The drawing (`templates/diagram.svg`); a standalone one includes `src/assets/diagram.css`
/// (inline diagrams use the page's stylesheet).
#[derive(Template)]
#[template(path = "diagram.svg", escape = "html")]
struct Svg<'a> {
    standalone: bool,
    min_x: i64,
    view_w: i64,
    height: u32,
    id: &'a str,
    name: &'a str,
    width: u32,
    /// Every box in words (the accessible description).
    desc: String,
    /// `img`, or `group` when the fields are links (an image holds no controls).
    role: &'static str,
    /// Most significant row first.
    rows: Vec<Row>,
}

/// One row of 32 bits: bit numbers, boxes, outline and the names called out below.
struct Row {
    lsb: u32,
    msb: u32,
    /// Top and bottom of the boxes.
    y: u32,
    bottom: u32,
    ticks: Vec<Tick>,
    boxes: Vec<SegBox>,
    outline_x: u32,
    outline_w: u32,
    callouts: Vec<CalloutText>,
}

/// A bit number above a box boundary.
struct Tick {
    x: u32,
    y: u32,
    bit: u32,
}

/// One segment's box.
struct SegBox {
    /// The field to link to (`#field-NAME`).
    link: Option<String>,
    /// Tooltip.
    tip: String,
    class: String,
    /// `None` for reserved bits.
    field: Option<FieldData>,
    lsb: u32,
    msb: u32,
    x: u32,
    w: u32,
    /// Left edges of the bit grid's ticks inside the box.
    grid: Vec<u32>,
    /// The name inside the box, when it fits.
    label: Option<BoxLabel>,
}

/// The `data-` attributes of a field's box.
struct FieldData {
    name: String,
    index: Option<u32>,
    part: Option<(u32, u32)>,
}

struct BoxLabel {
    class: &'static str,
    x: u32,
    y: u32,
    text: String,
}

/// A name called out below its row, with its leader line.
struct CalloutText {
    x: i64,
    lead_end: u32,
    tx: i64,
    y: u32,
    anchor: &'static str,
    label: String,
}

/// Renders the diagram.
pub fn render(d: &Diagram<'_>) -> String {
    let width = d.width.clamp(1, 64);
    let segs = segments(width, d.fields);
    let rows = width.div_ceil(ROW_BITS);
    let mut y = 4u32;
    // Horizontal extent, beyond 0..WIDTH when callouts need it.
    let mut min_x: i64 = 0;
    let mut max_x: i64 = i64::from(WIDTH);
    let mut drawn = Vec::new();
    for row in (0..rows).rev() {
        let row_lo = row * ROW_BITS;
        let row_hi = (row_lo + ROW_BITS - 1).min(width - 1);
        let row_segs: Vec<&Segment> = segs
            .iter()
            .filter(|s| s.lsb >= row_lo && s.msb <= row_hi)
            .collect();
        let (r, next_y) = draw_row(d, row_lo, row_hi, &row_segs, y, &mut min_x, &mut max_x);
        drawn.push(r);
        y = next_y;
    }
    Svg {
        standalone: d.standalone,
        min_x,
        view_w: max_x - min_x,
        height: y,
        id: d.id,
        name: d.name,
        width,
        desc: describe(width, &segs),
        role: if d.link_fields { "group" } else { "img" },
        rows: drawn,
    }
    .render()
    .unwrap_or_default()
}

/// One row, starting at `y`; widens `min_x..max_x` for its callouts and returns where the
/// next row starts.
fn draw_row(
    d: &Diagram<'_>,
    row_lo: u32,
    row_hi: u32,
    row_segs: &[&Segment],
    y: u32,
    min_x: &mut i64,
    max_x: &mut i64,
) -> (Row, u32) {
    let row_y = y + TICK_H;
    // Bit numbers at every box boundary.
    let mut ticks: Vec<u32> = Vec::new();
    for s in row_segs {
        ticks.push(s.msb);
        ticks.push(s.lsb);
    }
    ticks.sort_unstable();
    ticks.dedup();
    let mut callouts = Vec::new();
    let boxes = row_segs
        .iter()
        .rev()
        .map(|s| seg_box(d, s, row_y, &mut callouts))
        .collect();
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
        *min_x = (*min_x).min(a - 4);
        *max_x = (*max_x).max(b + 4);
    }
    let lanes = callouts.iter().map(|c| c.lane + 1).max().unwrap_or(0);
    let bottom = row_y + ROW_H;
    let row = Row {
        lsb: row_lo,
        msb: row_hi,
        y: row_y,
        bottom,
        ticks: ticks
            .iter()
            .rev()
            .map(|&bit| Tick {
                x: bit_x(bit) + CELL / 2,
                y: y + 12,
                bit,
            })
            .collect(),
        boxes,
        outline_x: bit_x(row_hi),
        outline_w: (row_hi - row_lo + 1) * CELL,
        callouts: callouts
            .into_iter()
            .map(|c| {
                let ly = bottom + FIRST_LANE + c.lane * LANE_H;
                let (tx, anchor) = if c.right {
                    (c.x + 3, "start")
                } else {
                    (c.x - 3, "end")
                };
                CalloutText {
                    x: c.x,
                    lead_end: ly - 4,
                    tx,
                    y: ly,
                    anchor,
                    label: c.label,
                }
            })
            .collect(),
    };
    let next = bottom + lanes * LANE_H + if lanes > 0 { FIRST_LANE } else { 0 } + ROW_GAP;
    (row, next)
}

/// The box of one segment; a field name that does not fit goes to `callouts`.
fn seg_box(d: &Diagram<'_>, s: &Segment, row_y: u32, callouts: &mut Vec<Callout>) -> SegBox {
    let x = bit_x(s.msb);
    let w = (s.msb - s.lsb + 1) * CELL;
    let label = s.label();
    let fits = (label.chars().count() as f64 * CHAR_W + LABEL_PAD) <= f64::from(w);
    let (class, field, tip) = match &s.kind {
        Kind::Reserved => ("rsv".to_owned(), None, format!("Reserved, {}", s.bits())),
        Kind::Field {
            name,
            ordinal,
            index,
            part,
        } => (
            format!("fld c{}", ordinal % COLOURS),
            Some(FieldData {
                name: name.clone(),
                index: *index,
                part: *part,
            }),
            format!("{label}, {}", s.bits()),
        ),
    };
    let link = match (&s.kind, d.link_fields) {
        (Kind::Field { name, .. }, true) => Some(name.clone()),
        _ => None,
    };
    let reserved = s.kind == Kind::Reserved;
    let mut inside = None;
    if fits {
        inside = Some(BoxLabel {
            class: if reserved { "lbl rl" } else { "lbl" },
            x: x + w / 2,
            y: row_y + ROW_H / 2 + 4,
            text: label,
        });
    } else if !reserved {
        let text_w = text_width(&label);
        callouts.push(Callout {
            x: i64::from(x + w / 2),
            label,
            text_w,
            right: true,
            lane: 0,
        });
    }
    SegBox {
        link,
        tip,
        class,
        field,
        lsb: s.lsb,
        msb: s.msb,
        x,
        w,
        // Bit grid inside wide boxes.
        grid: (s.lsb + 1..=s.msb).map(|b| bit_x(b) + CELL).collect(),
        label: inside,
    }
}

/// Accessible description: every box in words.
fn describe(width: u32, segs: &[Segment]) -> String {
    let mut desc = format!("{}-bit register.", width);
    for s in segs {
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
    desc
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
