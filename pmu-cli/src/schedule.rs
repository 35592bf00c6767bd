//! `pmu schedule`: can these events be counted together? Each event on a counter (and the
//! auxiliary MSR values to program), or the events that cannot share the PMU and why; with
//! `--groups`, the fewest groups that each fit. A name's `p`, `pp`, `ppp` ask for a PEBS or
//! PDist counter. Through `pmu_regs::schedule`, on the counters
//! the generation defines (`--cpu`) or those CPUID reports on this machine.
//!
//! Exit codes: 0 when everything fits (in one set, or in the groups), 1 when a conflict or an
//! unknown event is reported, 2 a usage error.

use clap::Args;
use pmu_regs::EventDesc;
use pmu_regs::arch::Generation;
use pmu_regs::schedule::{self, Conflict, Schedule, Target, counter_label};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// `pmu schedule`.
#[derive(Args, Debug)]
pub struct ScheduleArgs {
    /// The CPU: a generation id (`skylake`, `intel-icelake`), a name ("Sapphire Rapids",
    /// "Zen 4") or a family/model (06_8F). Default: this machine's, on the counters CPUID
    /// reports.
    #[arg(long, visible_aliases = ["model", "generation"], value_name = "CPU")]
    cpu: Option<String>,
    /// Events: a name with `:modifier`s (`MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:u:ldlat=16`),
    /// a perf event string or a raw config. `{A,B}` keeps A and B in one group.
    #[arg(required = true, value_name = "EVENT")]
    events: Vec<String>,
    /// Split the events into the fewest groups that each fit, instead of asking whether all
    /// fit together.
    #[arg(long)]
    groups: bool,
    /// Print JSON: `{"groups": [[{"event", "counter", "aux"}]], "conflicts": [..]}`.
    #[arg(long)]
    json: bool,
    /// Schedule events Intel's lists say count alone (`TakenAlone`: load latency, front-end
    /// retired) beside others on general-purpose counters, as Linux does; their counts may
    /// then be off.
    #[arg(long)]
    share_alone: bool,
    /// Each core runs one thread (Hyper-Threading off): events may use the counters Intel
    /// lists for that case (Sandy Bridge to Cascade Lake: eight general counters a thread
    /// instead of four). Detection on this machine finds it without the flag.
    #[arg(long)]
    ht_off: bool,
    /// Definition files or directories, to find the CPU (default: the shipped definitions).
    #[arg(long = "defs", value_name = "PATH")]
    paths: Vec<PathBuf>,
}

/// One placement, as JSON.
#[derive(Serialize)]
struct Placed {
    event: String,
    counter: String,
    aux: Option<Aux>,
}

#[derive(Serialize)]
struct Aux {
    msr: String,
    value: String,
}

#[derive(Serialize)]
struct ConflictJson {
    events: Vec<String>,
    message: String,
}

#[derive(Serialize)]
struct Output {
    generation: &'static str,
    groups: Vec<Vec<Placed>>,
    conflicts: Vec<ConflictJson>,
    /// False when `--groups` placed the events first-fit (past the exact search's size).
    exact: bool,
}

/// Splits the arguments into events and user groups: `{A,B}` is one group (commas inside a
/// perf string's `/.../` do not split it).
fn parse_args(args: &[String]) -> Result<(Vec<String>, Vec<u8>), String> {
    let mut texts = Vec::new();
    let mut groups = Vec::new();
    for (k, a) in args.iter().enumerate() {
        let label = u8::try_from(k).map_err(|_| "at most 256 arguments".to_owned())?;
        let a = a.trim();
        let inner = match a.strip_prefix('{') {
            Some(rest) => rest
                .strip_suffix('}')
                .ok_or_else(|| format!("`{a}`: a group is `{{A,B,...}}`"))?,
            None => {
                texts.push(a.to_owned());
                groups.push(label);
                continue;
            }
        };
        let mut depth = false;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '/' => depth = !depth,
                ',' if !depth => {
                    texts.push(inner[start..i].trim().to_owned());
                    groups.push(label);
                    start = i + 1;
                }
                _ => {}
            }
        }
        texts.push(inner[start..].trim().to_owned());
        groups.push(label);
    }
    if texts.iter().any(String::is_empty) {
        return Err("an empty event in the arguments (`{A,,B}`?)".to_owned());
    }
    Ok((texts, groups))
}

/// The target: `--cpu`'s generation with every counter it defines, or this machine's
/// counters as CPUID reports them.
fn target(args: &ScheduleArgs) -> Result<(Target, String), String> {
    match &args.cpu {
        // The shipped definitions are compiled into pmu-regs: read the CPU from its tables
        // (microseconds) instead of loading the YAML (most of a second).
        Some(q) if args.paths.is_empty() => {
            let found = pmu_regs::arch::find_cpu(q).ok_or_else(|| crate::cpu::not_found(q))?;
            let ids: Vec<&str> = found.generations().collect();
            let id = match ids.as_slice() {
                [id] => *id,
                many => return Err(crate::cpu::several(&found.read_as.to_string(), many)),
            };
            let rg = Generation::from_id(id)
                .ok_or_else(|| format!("`{id}` has no run-time tables in this build"))?;
            Ok((Target::of(rg), id.to_owned()))
        }
        Some(q) => {
            let loaded = crate::defs::load_for_use(&args.paths)
                .ok_or_else(|| "the definitions do not load".to_owned())?;
            let g = crate::cpu::choose_one(&loaded.model, Some(q))?;
            let rg = Generation::from_id(&g.id)
                .ok_or_else(|| format!("`{}` has no run-time tables in this build", g.id))?;
            Ok((Target::of(rg), g.id.clone()))
        }
        None => {
            let info = pmu_regs::detect::detect_live();
            let t = Target::detected(&info).ok_or_else(|| {
                "this machine has no PMU the definitions describe; name a CPU with --cpu \
                 (`pmu info` says what detection found)"
                    .to_owned()
            })?;
            Ok((t, format!("{} (this machine)", t.generation.id())))
        }
    }
}

fn placed(texts: &[String], s: &Schedule<'_>) -> Vec<Placed> {
    s.iter()
        .map(|p| Placed {
            event: texts[p.index].clone(),
            counter: counter_label(p.counter).to_string(),
            aux: p.event.msr.map(|m| Aux {
                msr: format!("{:#x}", m.index),
                value: format!("{:#x}", m.value),
            }),
        })
        .collect()
}

fn conflict_json(texts: &[String], c: &Conflict<'_>) -> ConflictJson {
    let labels: Vec<&str> = texts.iter().map(String::as_str).collect();
    ConflictJson {
        events: c.indexes().map(|i| texts[i].clone()).collect(),
        message: c.labelled(&labels).to_string(),
    }
}

/// `pmu schedule`.
pub fn run(args: ScheduleArgs) -> ExitCode {
    match answer(&args) {
        Ok(a) => {
            crate::out(&a.text);
            if a.fits {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What `pmu schedule` prints, and whether everything fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The text (or JSON) for stdout.
    pub text: String,
    /// True when no conflict was reported (exit code 0).
    pub fits: bool,
}

/// The command's answer without printing it (the benchmark times this); an error for an
/// unknown CPU or event, or more events than one call takes.
pub fn answer(args: &ScheduleArgs) -> Result<Answer, String> {
    let (texts, labels) = parse_args(&args.events)?;
    let (target, how) = target(args)?;
    let mut target = target.with_taken_alone(!args.share_alone);
    if args.ht_off {
        target = target.with_ht_off(true);
    }
    let mut events: Vec<EventDesc> = Vec::new();
    for t in &texts {
        events.push(schedule::resolve(target.generation, t).map_err(|e| format!("`{t}`: {e}"))?);
    }
    if events.len() > schedule::MAX_EVENTS {
        return Err(format!(
            "{} events; `pmu schedule` takes at most {}",
            events.len(),
            schedule::MAX_EVENTS
        ));
    }
    let mut out = Output {
        generation: target.generation.id(),
        groups: Vec::new(),
        conflicts: Vec::new(),
        exact: true,
    };
    // The events still to place (indexes into `texts`): user groups that cannot fit are
    // reported and taken out, and the rest split again.
    let mut keep: Vec<usize> = (0..events.len()).collect();
    if args.groups {
        loop {
            let evs: Vec<EventDesc> = keep.iter().map(|&i| events[i]).collect();
            let labs: Vec<u8> = keep.iter().map(|&i| labels[i]).collect();
            let names: Vec<String> = keep.iter().map(|&i| texts[i].clone()).collect();
            match schedule::split_grouped(&target, &evs, &labs) {
                Ok(sp) => {
                    out.exact = sp.exact();
                    for g in sp.groups() {
                        out.groups.push(placed(&names, &g));
                    }
                    break;
                }
                Err(schedule::Error::Conflict(c)) => {
                    out.conflicts.push(conflict_json(&names, &c));
                    let bad: Vec<u8> = c.indexes().map(|i| labs[i]).collect();
                    keep.retain(|&i| !bad.contains(&labels[i]));
                }
                Err(e) => return Err(e.to_string()),
            }
        }
    } else {
        match schedule::schedule(&target, &events) {
            Ok(s) => out.groups.push(placed(&texts, &s)),
            Err(schedule::Error::Conflict(c)) => out.conflicts.push(conflict_json(&texts, &c)),
            Err(e) => return Err(e.to_string()),
        }
    }
    let text = if args.json {
        format!(
            "{}\n",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        )
    } else {
        let mut t = text(&out, &how, &target, args.groups);
        if let Some(note) = ht_note(args, &target, &events, &out) {
            t.push_str(note);
        }
        t
    };
    Ok(Answer {
        text,
        fits: out.conflicts.is_empty(),
    })
}

/// A note under a conflict on a CPU named with `--cpu`: the counters stated are a thread's
/// with Hyper-Threading on, and some of the events would have more with it off.
fn ht_note(
    args: &ScheduleArgs,
    target: &Target,
    events: &[EventDesc],
    out: &Output,
) -> Option<&'static str> {
    let wider = |e: &EventDesc| e.counters_ht_off.is_some_and(|h| h & !e.counters != 0);
    (!out.conflicts.is_empty() && args.cpu.is_some() && !target.ht_off && events.iter().any(wider))
        .then_some(
            "note: the counters above are a thread's with Hyper-Threading on; with it off \
             (--ht-off) a thread has more\n",
        )
}

fn text(out: &Output, how: &str, target: &Target, groups: bool) -> String {
    let mut s = String::new();
    let n = out.groups.len();
    match (groups, n) {
        (false, 0) => {
            let _ = writeln!(s, "{how}: these events cannot be counted together");
        }
        (false, _) => {
            let _ = writeln!(s, "{how}: these events can be counted together");
        }
        (true, _) => {
            let plural = if n == 1 { "" } else { "s" };
            let how_split = if out.exact {
                ""
            } else {
                " (first-fit: not proven fewest)"
            };
            let _ = writeln!(s, "{how}: {n} group{plural}{how_split}");
        }
    }
    for (k, g) in out.groups.iter().enumerate() {
        if groups {
            let _ = writeln!(s, "group {}", k + 1);
        }
        for p in g {
            let _ = write!(s, "  {:<8} {}", p.counter, p.event);
            if let Some(a) = &p.aux {
                let address = u32::from_str_radix(a.msr.trim_start_matches("0x"), 16).ok();
                match address.and_then(|m| target.msr_name(m)) {
                    Some(name) => {
                        let _ = write!(s, "  ({name} = {})", a.value);
                    }
                    None => {
                        let _ = write!(s, "  (MSR {} = {})", a.msr, a.value);
                    }
                }
            }
            s.push('\n');
        }
    }
    for c in &out.conflicts {
        let _ = writeln!(s, "conflict: {}", c.message);
    }
    s
}
