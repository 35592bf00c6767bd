//! The part of `pmu check` that talks to the kernel (Linux on x86-64 only): is there a PMU
//! ([`probe`]), does a loop of known length count what it should ([`counts`]), and does the
//! kernel take every event the library encodes ([`open_all`]).
//!
//! Every counter counts this thread in user mode only (`exclude_kernel`, `exclude_hv`), so
//! `kernel.perf_event_paranoid` up to 2 allows it, and is closed when its `Counter` drops:
//! none is left open.

use super::Library;
use super::compare::{Expect, Verdict, judge};
use super::report::{CountLine, Opened, Refusal};
use perf_event::Builder;
use perf_event::events::{Hardware, Raw};
use pmu_regs::pmu::Presence;
use std::io;

/// Iterations of the loop [`probe`] counts: enough to tell a counter from a stub, short
/// enough to take well under a millisecond.
const PROBE_ITERATIONS: u64 = 100_000;

/// Runs a `dec; jnz` loop of `n` iterations (`n` ≥ 1; 0 does nothing): its body retires
/// exactly `2 * n` instructions and `n` branches (taken `n - 1` times). What a counter sees
/// beyond that is the fixed overhead around it: the return from the `ioctl` that enabled the
/// counter, this call, and the way into the `ioctl` that disables it (a few hundred
/// instructions at most, which [`Expect`] allows).
#[inline(never)]
pub fn spin(n: u64) {
    if n == 0 {
        return;
    }
    // SAFETY: the asm only decrements the register holding `n` (an input the asm consumes,
    // declared clobbered with `=> _`) and branches back within itself until it reaches zero,
    // which it does after `n` ≥ 1 iterations; it reads and writes no memory and no stack
    // (`nomem`, `nostack`), and the flags it changes are clobbered by default.
    unsafe {
        core::arch::asm!(
            "2:",
            "dec {n}",
            "jnz 2b",
            n = inout(reg) n => _,
            options(nomem, nostack),
        );
    }
}

/// What [`probe`] found: whether the PMU counts, and why it says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserProbe {
    /// Real (counted the loop), partial (opened but did not count it right) or absent.
    pub presence: Presence,
    /// Why: the error, or what was counted.
    pub reason: String,
    /// perf_event_open was not permitted (EACCES/EPERM): the PMU may well be there.
    pub denied: bool,
}

/// Opens `PERF_TYPE_HARDWARE` instructions on this thread, counts a loop of known length with
/// it and closes it: [`Presence::Real`] when the count is what the loop retires,
/// [`Presence::Partial`] when the counter opens but counts nothing or something else,
/// [`Presence::Absent`] when it does not open.
pub fn probe() -> UserProbe {
    let expect = Expect::per_iteration(2, PROBE_ITERATIONS);
    let what = "perf_event_open(PERF_TYPE_HARDWARE, instructions)";
    let mut builder = Builder::new(Hardware::INSTRUCTIONS);
    user_only(&mut builder);
    let (presence, reason) = match count_with(&builder, PROBE_ITERATIONS) {
        Err(e) => {
            let denied = matches!(e.raw_os_error(), Some(libc::EACCES | libc::EPERM));
            let reason = format!("{what} failed: {}", os_text(&e));
            return UserProbe {
                presence: Presence::Absent,
                reason,
                denied,
            };
        }
        Ok(Counted { got: None, note }) => (Presence::Partial, format!("{what} opened, {note}")),
        Ok(Counted { got: Some(n), .. }) => match judge(expect, Some(n)) {
            Verdict::Agree => (
                Presence::Real,
                format!("counted {n} instructions in {expect}"),
            ),
            _ if n == 0 => (
                Presence::Partial,
                format!(
                    "{what} opened but counted 0: the counter does not count (an emulated PMU?)"
                ),
            ),
            _ => (
                Presence::Partial,
                format!("counted {n} instructions, expected {expect}"),
            ),
        },
    };
    UserProbe {
        presence,
        reason,
        denied: false,
    }
}

/// Counts this thread in user mode only.
fn user_only(builder: &mut Builder<'_>) {
    builder
        .exclude_user(false)
        .exclude_kernel(true)
        .exclude_hv(true);
}

/// A count, or why there is none (the counter never ran), with what to know about it.
struct Counted {
    got: Option<u64>,
    note: String,
}

/// Opens `builder`'s counter, counts [`spin`]`(iterations)` and closes it.
fn count_with(builder: &Builder<'_>, iterations: u64) -> io::Result<Counted> {
    let mut counter = builder.build()?;
    counter.enable()?;
    spin(iterations);
    counter.disable()?;
    let data = counter.read_full()?;
    let enabled = data.time_enabled().map_or(0, |d| d.as_nanos());
    let running = data.time_running().map_or(enabled, |d| d.as_nanos());
    Ok(if running == 0 && enabled > 0 {
        Counted {
            got: None,
            note: "but it never ran on a counter (time_running 0: the counters are busy?)"
                .to_owned(),
        }
    } else if running < enabled {
        Counted {
            got: Some(data.count()),
            note: format!("multiplexed: on a counter {running} of {enabled} ns"),
        }
    } else {
        Counted {
            got: Some(data.count()),
            note: String::new(),
        }
    })
}

/// The known loop's counts: `instructions` (2 per iteration) and `branches` (1 per iteration),
/// each opened with the library's encoding (`PERF_TYPE_RAW`-like, on the PMU's sysfs `type`)
/// and with perf's generic `PERF_TYPE_HARDWARE` event, which the kernel maps itself.
pub fn counts(library: Option<&Library>, pmu_type: Option<u32>, iterations: u64) -> Vec<CountLine> {
    let events = [
        (
            "instructions",
            2,
            Hardware::INSTRUCTIONS,
            "PERF_COUNT_HW_INSTRUCTIONS",
        ),
        (
            "branches",
            1,
            Hardware::BRANCH_INSTRUCTIONS,
            "PERF_COUNT_HW_BRANCH_INSTRUCTIONS",
        ),
    ];
    let mut out = Vec::new();
    for (name, per, hardware, hw_name) in events {
        let expected = Expect::per_iteration(per, iterations);
        out.push(library_count(library, pmu_type, name, expected, iterations));
        let mut builder = Builder::new(hardware);
        user_only(&mut builder);
        out.push(count_line(
            name,
            "kernel",
            hw_name.to_owned(),
            expected,
            &builder,
            iterations,
        ));
    }
    out
}

/// `name` counted with the library's encoding, or why it cannot be.
fn library_count(
    library: Option<&Library>,
    pmu_type: Option<u32>,
    name: &str,
    expected: Expect,
    iterations: u64,
) -> CountLine {
    let missing = |note: String| CountLine {
        event: name.to_owned(),
        via: "library".to_owned(),
        encoding: String::new(),
        expected,
        got: None,
        verdict: Verdict::Unknown,
        note,
    };
    let Some(library) = library else {
        return missing("the library describes no PMU for this CPU".to_owned());
    };
    let config = match library.resolve(name) {
        Ok(c) => c,
        Err(e) => return missing(format!("library has no encoding: {e}")),
    };
    let Some(type_) = pmu_type else {
        return missing(format!("no `type` for PMU {} in sysfs", config.pmu));
    };
    let encoding = format!("{config} (type {type_}, config {:#x})", config.config);
    let mut builder = raw_builder(type_, config.config, config.config1);
    user_only(&mut builder);
    count_line(name, "library", encoding, expected, &builder, iterations)
}

/// A builder for `config`/`config1` on the PMU of type `type_` (`PERF_TYPE_RAW` is the core
/// PMU's type on a part that is not hybrid).
fn raw_builder(type_: u32, config: u64, config1: u64) -> Builder<'static> {
    let mut builder = Builder::new(Raw::new(config).config1(config1));
    builder.attrs_mut().type_ = type_;
    builder
}

/// One count line: `builder`'s counter over the loop, judged against `expected`.
fn count_line(
    event: &str,
    via: &str,
    encoding: String,
    expected: Expect,
    builder: &Builder<'_>,
    iterations: u64,
) -> CountLine {
    let (got, note) = match count_with(builder, iterations) {
        Ok(c) => (c.got, c.note),
        Err(e) => (None, format!("perf_event_open failed: {}", os_text(&e))),
    };
    CountLine {
        event: event.to_owned(),
        via: via.to_owned(),
        encoding,
        expected,
        got,
        verdict: judge(expected, got),
        note,
    }
}

/// Opens (and at once closes) every event of the library's generation with its encoding, on
/// the PMU of type `type_`, user mode only.
pub fn open_all(library: &Library, type_: u32) -> Opened {
    let names = library.event_names();
    let mut opened = Opened {
        total: names.len(),
        ..Opened::default()
    };
    for name in names {
        let config = match library.resolve(name) {
            Ok(c) => c,
            Err(e) => {
                opened.unresolved.push(Refusal {
                    name: name.to_owned(),
                    encoding: String::new(),
                    why: e.to_string(),
                    permission: false,
                });
                continue;
            }
        };
        let mut builder = raw_builder(type_, config.config, config.config1);
        user_only(&mut builder);
        match builder.build() {
            Ok(counter) => {
                drop(counter);
                opened.opened += 1;
            }
            Err(e) => opened.refused.push(Refusal {
                name: name.to_owned(),
                encoding: config.to_string(),
                why: os_text(&e),
                permission: matches!(e.raw_os_error(), Some(libc::EACCES | libc::EPERM)),
            }),
        }
    }
    opened
}

/// An OS error as `ENOENT: No such file or directory`.
pub fn os_text(e: &io::Error) -> String {
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text).to_owned();
    let name = match e.raw_os_error() {
        Some(libc::ENOENT) => "ENOENT",
        Some(libc::ENODEV) => "ENODEV",
        Some(libc::EOPNOTSUPP) => "EOPNOTSUPP",
        Some(libc::EACCES) => "EACCES",
        Some(libc::EPERM) => "EPERM",
        Some(libc::EINVAL) => "EINVAL",
        Some(libc::EBUSY) => "EBUSY",
        Some(libc::ENOSPC) => "ENOSPC",
        Some(libc::E2BIG) => "E2BIG",
        Some(libc::ENOSYS) => "ENOSYS",
        Some(libc::EMFILE) => "EMFILE",
        Some(n) => return format!("errno {n}: {text}"),
        None => return text,
    };
    format!("{name}: {text}")
}

/// `kernel.perf_event_paranoid`, or `unknown`.
pub fn paranoid() -> String {
    std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
        .map(|s| s.trim().to_owned())
        .unwrap_or_else(|_| "unknown".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loop_ends_for_any_count() {
        spin(0);
        spin(1);
        spin(1000);
    }

    #[test]
    fn os_errors_name_their_errno() {
        let e = io::Error::from_raw_os_error(libc::ENOENT);
        assert_eq!(os_text(&e), "ENOENT: No such file or directory");
    }
}
