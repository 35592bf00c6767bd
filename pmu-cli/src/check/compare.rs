//! The comparisons of `pmu check`, over plain data (no file or system call here):
//!
//! * [`compare_formats`]: sysfs' `format/*` (where the kernel puts each perf term) against
//!   the event-select register's fields in the library ([`FieldInfo`]);
//! * [`compare_events`]: sysfs' `events/*` (the kernel's own encodings of `cpu-cycles`,
//!   `instructions`, `ref-cycles`, `mem-loads`, ...) against what the library resolves for the
//!   same name;
//! * [`Expect`] and [`judge`]: a count against the range a loop of known length allows.

use super::sysfs::{Format, SysfsPmu, encode_terms, merge, parse_terms};
use pmu_regs::arch::FieldInfo;
use pmu_vocab::perf::Term;
use serde::Serialize;
use std::fmt;

/// The outcome of one comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The kernel and the library agree (a count within its range).
    Agree,
    /// They disagree (a count outside its range): `pmu check` exits 1.
    Differ,
    /// Nothing to compare: the library does not know the name, or the kernel's file does not
    /// say (see the line's note).
    Unknown,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Agree => "agree",
            Verdict::Differ => "DIFFER",
            Verdict::Unknown => "unknown",
        })
    }
}

/// One `format/<term>` file against the library's field for that term.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FormatLine {
    /// The perf term (`event`, `umask`, `ldlat`).
    pub term: String,
    /// What sysfs says (`config:0-7,32-35`), or the file's text when it does not parse.
    pub sysfs: String,
    /// The library's field and bits (`EVENT_SELECT config:0-7,32-35`), or what it has instead.
    pub library: String,
    /// Agree, differ or unknown.
    pub verdict: Verdict,
    /// Why, when it is not plain agreement.
    pub note: String,
}

/// Perf's term names and the names of the event-select field that holds each in the
/// definitions (their `pmu: encoding:` and field names).
const TERM_FIELDS: &[(&str, &[&str])] = &[
    ("event", &["EVENT_SELECT"]),
    ("umask", &["UMASK"]),
    ("umask2", &["UMASK2"]),
    ("edge", &["EDGE"]),
    ("pc", &["PC"]),
    ("inv", &["INV"]),
    ("cmask", &["CMASK"]),
    ("any", &["ANY", "ANYTHREAD"]),
    ("eq", &["EQ"]),
    ("in_tx", &["IN_TX"]),
    ("in_tx_cp", &["IN_TXCP"]),
];

/// The field of `fields` that holds perf term `term`, if the term is one [`TERM_FIELDS`]
/// knows: `Some(None)` for a known term the library has no field for.
fn field_for<'f>(term: &str, fields: &'f [FieldInfo]) -> Option<Option<&'f FieldInfo>> {
    let (_, names) = TERM_FIELDS.iter().find(|(t, _)| *t == term)?;
    Some(fields.iter().find(|f| names.contains(&f.name)))
}

/// A field's bits as `config:lo-hi,...` ranges, ascending and merged.
fn field_ranges(field: &FieldInfo) -> Vec<(u32, u32)> {
    let mut r: Vec<(u32, u32)> = (field.runs.iter())
        .filter(|run| run.width > 0)
        .map(|run| (run.lsb, run.lsb + run.width - 1))
        .collect();
    r.sort_unstable();
    merge(r)
}

/// Every format of `pmu` against `fields`, the library's event-select fields (an empty slice
/// when the library has no event select for the CPU): a term that holds an event-select
/// attribute must be in `config` at the bits of its field; an auxiliary-MSR term (`ldlat`,
/// `offcore_rsp`, `frontend`) in `config1`, where the library puts its value; other terms are
/// reported as unknown to the library.
pub fn compare_formats(pmu: &SysfsPmu, fields: &[FieldInfo]) -> Vec<FormatLine> {
    let mut out = Vec::new();
    for (term, text) in &pmu.formats {
        let line = match Format::parse(text) {
            Ok(format) => format_line(term, &format, fields),
            Err(why) => FormatLine {
                term: term.clone(),
                sysfs: text.clone(),
                library: String::new(),
                verdict: Verdict::Unknown,
                note: format!("{}: {why}", pmu.file("format", term).display()),
            },
        };
        out.push(line);
    }
    out
}

/// One parsed format against the library.
fn format_line(term: &str, format: &Format, fields: &[FieldInfo]) -> FormatLine {
    let mut line = FormatLine {
        term: term.to_owned(),
        sysfs: format.to_string(),
        library: String::new(),
        verdict: Verdict::Unknown,
        note: String::new(),
    };
    if let Some(aux) = Term::from_key(term).filter(|t| t.is_aux()) {
        line.library = "config1 (auxiliary MSR)".to_owned();
        (line.verdict, line.note) = if format.word == 1 {
            (Verdict::Agree, String::new())
        } else {
            let why = format!("the library passes `{}=` in config1", aux.key());
            (Verdict::Differ, why)
        };
        return line;
    }
    match field_for(term, fields) {
        None => line.note = overlap_note(format, fields),
        Some(None) => {
            line.verdict = Verdict::Differ;
            line.library = "no field".to_owned();
            line.note = "the kernel has this term, the library's event select has no field for it"
                .to_owned();
        }
        Some(Some(field)) => {
            let ours = Format {
                word: 0,
                ranges: field_ranges(field),
            };
            line.library = format!("{} {ours}", field.name);
            line.verdict = if format.word == 0 && format.runs() == ours.ranges {
                Verdict::Agree
            } else {
                Verdict::Differ
            };
        }
    }
    line
}

/// For a term the library has no name for: the fields whose bits it shares, if any.
fn overlap_note(format: &Format, fields: &[FieldInfo]) -> String {
    let shared: Vec<&str> = (fields.iter())
        .filter(|f| format.word == 0 && f.mask() & format.mask() != 0)
        .map(|f| f.name)
        .collect();
    if shared.is_empty() {
        "a term the library has no event-select field for".to_owned()
    } else {
        format!(
            "a term the library has no name for, on the bits of {}",
            shared.join(", ")
        )
    }
}

/// What the library resolves for a name: its `config` and `config1` and how it spells them,
/// or why not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// Resolved.
    Config {
        /// `perf_event_attr.config`.
        config: u64,
        /// `perf_event_attr.config1`.
        config1: u64,
        /// The perf string (`cpu/event=0x3c/`).
        spelling: String,
    },
    /// The library has no event of that name (its message).
    Unknown(String),
    /// The library knows the name but cannot encode it (its message).
    Error(String),
}

/// One `events/<name>` file against the library's encoding of that name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EventLine {
    /// The sysfs name (`cpu-cycles`).
    pub name: String,
    /// The name asked of the library (`cycles`).
    pub library_name: String,
    /// The file's text (`event=0x3c`).
    pub sysfs: String,
    /// The kernel's `config` from the file and the formats, when it encodes.
    pub kernel_config: Option<u64>,
    /// The kernel's `config1`, likewise.
    pub kernel_config1: Option<u64>,
    /// The library's perf string, or why there is none.
    pub library: String,
    /// Agree, differ, or unknown to the library.
    pub verdict: Verdict,
    /// Why, when it is not plain agreement.
    pub note: String,
}

/// The name the library knows a sysfs event by: perf's generic names where sysfs spells them
/// otherwise (`cpu-cycles` is `cycles`, `branch-instructions` is `branches`), else the same.
pub fn library_name(sysfs_name: &str) -> &str {
    match sysfs_name {
        "cpu-cycles" => "cycles",
        "branch-instructions" => "branches",
        other => other,
    }
}

/// Every event of `pmu` against `resolve` (the library's resolution of a name): agree when the
/// library's `config` and `config1` are the kernel's (from the file's terms placed through
/// `format/*`), differ when not, unknown when the library does not know the name or the file
/// does not encode.
pub fn compare_events(pmu: &SysfsPmu, resolve: &dyn Fn(&str) -> Resolution) -> Vec<EventLine> {
    let (formats, _) = pmu.parsed_formats();
    let mut out = Vec::new();
    for (name, text) in &pmu.events {
        let kernel = parse_terms(text).and_then(|t| encode_terms(&formats, &t));
        let library_name = library_name(name);
        let mut line = EventLine {
            name: name.clone(),
            library_name: library_name.to_owned(),
            sysfs: text.clone(),
            kernel_config: kernel.as_ref().ok().map(|w| w[0]),
            kernel_config1: kernel.as_ref().ok().map(|w| w[1]),
            library: String::new(),
            verdict: Verdict::Unknown,
            note: String::new(),
        };
        match (kernel, resolve(library_name)) {
            (Err(why), _) => {
                line.note = format!("{}: {why}", pmu.file("events", name).display());
            }
            (Ok(_), Resolution::Unknown(why)) => {
                line.note = format!("unknown to the library: {why}")
            }
            (Ok(_), Resolution::Error(why)) => {
                line.note = format!("the library cannot encode it: {why}")
            }
            (
                Ok(w),
                Resolution::Config {
                    config,
                    config1,
                    spelling,
                },
            ) => {
                line.library = spelling;
                line.verdict = if (config, config1) == (w[0], w[1]) {
                    Verdict::Agree
                } else {
                    line.note = format!(
                        "kernel config {:#x} config1 {:#x}, library config {config:#x} config1 {config1:#x}",
                        w[0], w[1]
                    );
                    Verdict::Differ
                };
            }
        }
        out.push(line);
    }
    out
}

/// The counts a loop of known length allows: at least what its body retires, at most that
/// plus 1% and 10,000 for the instructions around it (enabling and disabling the counter,
/// the call into the loop).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Expect {
    /// The least count: what the loop body retires.
    pub low: u64,
    /// The greatest count accepted.
    pub high: u64,
}

impl Expect {
    /// `per_iteration` events in each of `iterations` iterations.
    pub fn per_iteration(per_iteration: u64, iterations: u64) -> Expect {
        let low = per_iteration.saturating_mul(iterations);
        Expect {
            low,
            high: low.saturating_add(low / 100).saturating_add(10_000),
        }
    }
}

impl fmt::Display for Expect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.low, self.high)
    }
}

/// A count against what the loop allows: within is agreement, outside a difference, no count
/// unknown.
pub fn judge(expect: Expect, got: Option<u64>) -> Verdict {
    match got {
        Some(n) if (expect.low..=expect.high).contains(&n) => Verdict::Agree,
        Some(_) => Verdict::Differ,
        None => Verdict::Unknown,
    }
}
