//! `pmu list [--cpu CPU] [PATTERN]`: the events of a CPU, each with the perf event string
//! that counts it, the counters it may use and its flags, like `perf list` and libpfm's
//! `showevtinfo`; `pmu cpus`: the CPU names the definitions know.

use crate::cpu;
use clap::Args;
use pmu_defs::encode::{Encoder, Request};
use pmu_defs::model::{Event, Generation};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// `pmu list`.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// The CPU: a generation id (`intel-skylake`, `skylake`), a name ("Sapphire Rapids",
    /// SPR, "Zen 4") or a family/model (06_8F, 19h/11h). Default: this machine's.
    #[arg(long, visible_aliases = ["model", "generation"], value_name = "CPU")]
    cpu: Option<String>,
    /// Only events whose name contains this (case-insensitive).
    #[arg(value_name = "PATTERN")]
    pattern: Option<String>,
    /// Leave out events the vendor deprecated.
    #[arg(long)]
    no_deprecated: bool,
    /// Print JSON (an array of generations, each with its events).
    #[arg(long)]
    json: bool,
    /// Definition files or directories (default: the shipped definitions).
    #[arg(long = "defs", value_name = "PATH")]
    paths: Vec<PathBuf>,
}

/// One event as `list` prints it.
#[derive(Serialize)]
struct Row<'a> {
    name: &'a str,
    /// The perf event string, or the error that says why there is none.
    perf: String,
    counters: String,
    flags: Vec<&'static str>,
}

#[derive(Serialize)]
struct Section<'a> {
    generation: &'a str,
    title: &'a str,
    events: Vec<Row<'a>>,
}

/// Runs `pmu list`.
pub fn run(args: ListArgs) -> ExitCode {
    let Some(loaded) = crate::defs::load_for_use(&args.paths) else {
        return ExitCode::FAILURE;
    };
    let chosen = match cpu::choose(&loaded.model, args.cpu.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let encoder = Encoder::new(&loaded.model);
    let pattern = args.pattern.as_deref().map(str::to_ascii_lowercase);
    let sections: Vec<Section<'_>> = chosen
        .generations
        .iter()
        .map(|g| Section {
            generation: &g.id,
            title: &g.title,
            events: g
                .events
                .iter()
                .filter(|e| !(args.no_deprecated && e.deprecated))
                .filter(|e| {
                    pattern
                        .as_deref()
                        .is_none_or(|p| e.name.to_ascii_lowercase().contains(p))
                })
                .map(|e| row(&encoder, g, e))
                .collect(),
        })
        .collect();
    if args.json {
        crate::out(&(serde_json::to_string_pretty(&sections).unwrap_or_default() + "\n"));
        return ExitCode::SUCCESS;
    }
    let mut text = format!("# {}\n", chosen.how);
    for s in &sections {
        let _ = writeln!(
            text,
            "\n{} — {} ({} events)",
            s.generation,
            s.title,
            s.events.len()
        );
        let width = s.events.iter().map(|r| r.name.len()).max().unwrap_or(0);
        for r in &s.events {
            let flags = if r.flags.is_empty() {
                String::new()
            } else {
                format!("  [{}]", r.flags.join(", "))
            };
            let _ = writeln!(
                text,
                "  {:<width$}  {}  {}{flags}",
                r.name, r.perf, r.counters
            );
        }
    }
    crate::out(&text);
    ExitCode::SUCCESS
}

fn row<'m>(encoder: &Encoder<'m>, g: &'m Generation, e: &'m Event) -> Row<'m> {
    let perf = match encoder.encode_in(g, &Request::new(e.name.clone())) {
        Ok(enc) => enc.perf,
        Err(err) => format!("(no perf string: {err})"),
    };
    Row {
        name: &e.name,
        perf,
        counters: counters(e),
        flags: flags(e),
    }
}

/// `counters 0-3`, `fixed 1`, `counters 0-7, fixed 0`, `counters 0-3 (HT off 0-7)`.
fn counters(e: &Event) -> String {
    let mut parts = Vec::new();
    if !e.counters.is_empty() {
        let mut c = format!("counters {}", ranges(&e.counters));
        if let Some(off) = e
            .counters_ht_off
            .as_ref()
            .filter(|s| s.general != e.counters)
        {
            c.push_str(&format!(" (HT off {})", ranges(&off.general)));
        }
        parts.push(c);
    }
    if let Some(f) = e.fixed {
        parts.push(format!("fixed {f}"));
    }
    parts.join(", ")
}

/// `0-3,5`.
fn ranges(v: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        out.push(if j > i {
            format!("{}-{}", v[i], v[j])
        } else {
            v[i].to_string()
        });
        i = j + 1;
    }
    out.join(",")
}

fn flags(e: &Event) -> Vec<&'static str> {
    let mut f = Vec::new();
    if e.precise == Some(true) {
        f.push("precise");
    }
    if e.taken_alone {
        f.push("alone");
    }
    if e.offcore {
        f.push("offcore");
    }
    if e.deprecated {
        f.push("deprecated");
    }
    f
}

/// `pmu cpus`.
#[derive(Args, Debug)]
pub struct CpusArgs {
    /// Definition files or directories (default: the shipped definitions).
    #[arg(long = "defs", value_name = "PATH")]
    paths: Vec<PathBuf>,
}

/// Runs `pmu cpus`: every CPU name with its spellings and the generations it stands for.
pub fn run_cpus(args: CpusArgs) -> ExitCode {
    let Some(loaded) = crate::defs::load_for_use(&args.paths) else {
        return ExitCode::FAILURE;
    };
    let m = &loaded.model;
    let width = m.cpu_names.iter().map(|n| n.name.len()).max().unwrap_or(0);
    let mut text = String::new();
    for n in &m.cpu_names {
        let ids: Vec<&str> = m
            .find_cpu(&n.name)
            .map(|f| f.generations.iter().map(|g| g.id.as_str()).collect())
            .unwrap_or_default();
        let also = if n.also.is_empty() {
            String::new()
        } else {
            format!(" ({})", n.also.join(", "))
        };
        let _ = writeln!(text, "{:<width$}  {}{also}", n.name, ids.join(", "));
    }
    crate::out(&text);
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    #[test]
    fn ranges() {
        assert_eq!(super::ranges(&[0, 1, 2, 3]), "0-3");
        assert_eq!(super::ranges(&[0, 1, 3, 5, 6]), "0-1,3,5-6");
        assert_eq!(super::ranges(&[]), "");
    }
}
