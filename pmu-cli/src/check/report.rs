//! What `pmu check` found, as one [`Report`]: its `--json` shape (`Serialize`), its text, and
//! its [`Status`].

use super::compare::{EventLine, Expect, FormatLine, Verdict};
use serde::Serialize;
use std::fmt::Write as _;

/// The outcome of the whole check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Everything compared agreed (exit 0).
    Ok,
    /// Something differed: a count out of range, an event the kernel refused, a format or
    /// event the kernel encodes otherwise (exit 1).
    Mismatch,
    /// Nothing could be checked on this machine (no PMU, not permitted, not Linux); the
    /// reason says why (exit 0).
    Skipped,
}

/// The PMU checked.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PmuLine {
    /// The perf PMU (`cpu`, `cpu_core`).
    pub name: String,
    /// Its `type` from sysfs, when read.
    #[serde(rename = "type")]
    pub type_: Option<u32>,
    /// The library's generation (or CPU model) compared against, when there is one.
    pub generation: Option<String>,
    /// The sysfs directory read for the comparisons, when there was one.
    pub sysfs: Option<String>,
}

/// One count of the known loop.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CountLine {
    /// The generic event (`instructions`, `branches`).
    pub event: String,
    /// How it was opened: `library` (PERF_TYPE_RAW with the library's config) or `kernel`
    /// (PERF_TYPE_HARDWARE, the kernel's own mapping).
    pub via: String,
    /// The encoding opened (`cpu/event=0xc0/ config 0xc0`, `PERF_COUNT_HW_INSTRUCTIONS`).
    pub encoding: String,
    /// The range the loop allows.
    pub expected: Expect,
    /// The count, when there is one.
    pub got: Option<u64>,
    /// Within the range (agree), outside (differ), or not counted (unknown).
    pub verdict: Verdict,
    /// Why there is no count, or what to know about it.
    pub note: String,
}

/// An event that did not open: its name and why (the kernel's errno, or the library's error).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// The event.
    pub name: String,
    /// The library's perf string for it, when it resolved.
    pub encoding: String,
    /// Why.
    pub why: String,
    /// The kernel refused for want of permission (EACCES, EPERM: an AnyThread event under
    /// `perf_event_paranoid` > 0 without CAP_PERFMON), not for the encoding: not a mismatch.
    pub permission: bool,
}

/// Opening every event of the generation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Opened {
    /// Events tried.
    pub total: usize,
    /// Events the kernel opened.
    pub opened: usize,
    /// Events the kernel refused, with its errno (a mismatch unless only for permission).
    pub refused: Vec<Refusal>,
    /// Events the library could not resolve.
    pub unresolved: Vec<Refusal>,
}

/// Everything `pmu check` found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// ok, mismatch or skipped ([`Report::status`] once the parts are in).
    pub status: Status,
    /// Why a part was skipped (no PMU, not permitted, ...), when one was.
    pub reason: Option<String>,
    /// The PMU checked.
    pub pmu: PmuLine,
    /// The known loop's counts.
    pub counts: Vec<CountLine>,
    /// Opening every event (`None`: not tried).
    pub events: Option<Opened>,
    /// sysfs `format/*` against the library's event select.
    pub format: Vec<FormatLine>,
    /// sysfs `events/*` against the library.
    pub sysfs_events: Vec<EventLine>,
    /// Other things to know (a part that could not run and why).
    pub notes: Vec<String>,
}

impl Report {
    /// An empty report about `pmu`.
    pub fn new(pmu: PmuLine) -> Report {
        Report {
            status: Status::Skipped,
            reason: None,
            pmu,
            counts: Vec::new(),
            events: None,
            format: Vec::new(),
            sysfs_events: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Mismatch when any line differs or the kernel refused an event; else ok when anything
    /// was compared; else skipped.
    pub fn compute_status(&self) -> Status {
        let verdicts = (self.counts.iter().map(|c| c.verdict))
            .chain(self.format.iter().map(|f| f.verdict))
            .chain(self.sysfs_events.iter().map(|e| e.verdict));
        let refused =
            (self.events.as_ref()).is_some_and(|o| o.refused.iter().any(|r| !r.permission));
        let mut compared = self.events.as_ref().is_some_and(|o| o.total > 0);
        for v in verdicts {
            match v {
                Verdict::Differ => return Status::Mismatch,
                Verdict::Agree => compared = true,
                Verdict::Unknown => {}
            }
        }
        match (refused, compared) {
            (true, _) => Status::Mismatch,
            (false, true) => Status::Ok,
            (false, false) => Status::Skipped,
        }
    }

    /// The text `pmu check` prints.
    pub fn text(&self) -> String {
        let mut out = String::new();
        if let Some(why) = &self.reason {
            // The whole check, or only the part on this machine's counters when a recorded
            // sysfs tree was still compared (`--sysfs`).
            let what = match self.status {
                Status::Skipped => "skipped",
                _ => "counting skipped",
            };
            let _ = writeln!(out, "{what}: {why}");
        }
        let nothing_else = self.counts.is_empty()
            && self.events.is_none()
            && self.format.is_empty()
            && self.sysfs_events.is_empty();
        if self.status == Status::Skipped && self.reason.is_some() && nothing_else {
            // One line says it all.
            return out;
        }
        self.text_pmu(&mut out);
        self.text_counts(&mut out);
        self.text_events(&mut out);
        self.text_format(&mut out);
        self.text_sysfs_events(&mut out);
        for n in &self.notes {
            let _ = writeln!(out, "note: {n}");
        }
        let _ = writeln!(out, "status: {}", status_word(self.status));
        out
    }

    fn text_pmu(&self, out: &mut String) {
        let p = &self.pmu;
        if p.name.is_empty() {
            return;
        }
        let _ = write!(out, "pmu {}", p.name);
        if let Some(t) = p.type_ {
            let _ = write!(out, " (type {t})");
        }
        if let Some(g) = &p.generation {
            let _ = write!(out, ", library: {g}");
        }
        if let Some(s) = &p.sysfs {
            let _ = write!(out, ", sysfs: {s}");
        }
        out.push('\n');
    }

    fn text_counts(&self, out: &mut String) {
        if self.counts.is_empty() {
            return;
        }
        let _ = writeln!(out, "\ncounts (user mode, a dec/jnz loop):");
        for c in &self.counts {
            let got = c.got.map_or("-".to_owned(), |n| n.to_string());
            let _ = writeln!(
                out,
                "  {:<13} {:<8} expected {:<26} got {:<12} {}  {}",
                c.event,
                c.via,
                c.expected.to_string(),
                got,
                c.verdict,
                c.encoding
            );
            if !c.note.is_empty() {
                let _ = writeln!(out, "      {}", c.note);
            }
        }
    }

    fn text_events(&self, out: &mut String) {
        let Some(o) = &self.events else { return };
        let _ = writeln!(
            out,
            "\nevents: {} of {} opened, {} refused by the kernel, {} not resolved by the library",
            o.opened,
            o.total,
            o.refused.len(),
            o.unresolved.len()
        );
        for r in &o.refused {
            let _ = writeln!(out, "  refused     {} {}: {}", r.name, r.encoding, r.why);
        }
        for r in &o.unresolved {
            let _ = writeln!(out, "  unresolved  {}: {}", r.name, r.why);
        }
    }

    fn text_format(&self, out: &mut String) {
        if self.format.is_empty() {
            return;
        }
        let _ = writeln!(out, "\nsysfs format (kernel) vs event select (library):");
        for f in &self.format {
            let _ = writeln!(
                out,
                "  {:<12} {:<20} {:<32} {}",
                f.term, f.sysfs, f.library, f.verdict
            );
            if !f.note.is_empty() {
                let _ = writeln!(out, "      {}", f.note);
            }
        }
    }

    fn text_sysfs_events(&self, out: &mut String) {
        if self.sysfs_events.is_empty() {
            return;
        }
        let _ = writeln!(out, "\nsysfs events (kernel) vs the library:");
        for e in &self.sysfs_events {
            let _ = writeln!(
                out,
                "  {:<22} {:<32} {:<32} {}",
                e.name, e.sysfs, e.library, e.verdict
            );
            if !e.note.is_empty() {
                let _ = writeln!(out, "      {}", e.note);
            }
        }
    }
}

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Ok => "ok",
        Status::Mismatch => "mismatch",
        Status::Skipped => "skipped",
    }
}
