//! `pmu encode` and `pmu decode`: an event to its select-register value and perf string, and
//! a register value back to its fields and the event it selects.
//!
//! Exit codes: 0 success, 1 an invalid request (unknown event, bad modifier, value too big,
//! definitions that do not load, ...), 2 a usage error (clap's, e.g. a missing argument or
//! a value that is not a number).

use clap::Args;
use pmu_defs::encode::{
    Counter, Decoded, Encoder, Encoding, Error, ErrorKind, Request, parse_number,
};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// `pmu encode`.
#[derive(Args, Debug)]
pub struct EncodeArgs {
    /// The CPU: a generation id (`intel-v3`, `v3`, `skylake`, `amd-core`), a name ("Sapphire
    /// Rapids", SPR, "Zen 4") or a family/model (06_8F, 19h/11h). Default: this machine's.
    #[arg(long, visible_aliases = ["model", "generation"], value_name = "CPU")]
    cpu: Option<String>,
    /// Events: a name or raw terms (`event=0x2e,umask=0x41`), each optionally followed by
    /// `:modifier`s (`UOPS_ISSUED.STALL_CYCLES:u:cmask=2`), or a perf event string
    /// (`cpu/event=0x2e,umask=0x41/u`).
    #[arg(required = true, value_name = "EVENT[:MOD...]")]
    events: Vec<String>,
    /// Modifiers applied to every event: u, k, edge, inv, cmask=N, any, eq, int, en,
    /// ldlat=N, offcore_rsp=N (comma- or colon-separated).
    #[arg(long, short, value_name = "LIST")]
    modifiers: Option<String>,
    /// The counter to program: a number (general counter) or `fixedN`.
    #[arg(long, short, value_name = "N|fixedN", value_parser = parse_counter)]
    counter: Option<Counter>,
    /// Print JSON (an array, one entry per event) instead of a table.
    #[arg(long)]
    json: bool,
    /// Definition files or directories (default: pmu-defs/defs).
    #[arg(long = "defs", value_name = "PATH")]
    paths: Vec<PathBuf>,
}

/// `pmu decode`.
#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// The CPU, as for `encode`. Default: this machine's.
    #[arg(long, visible_aliases = ["model", "generation"], value_name = "CPU")]
    cpu: Option<String>,
    /// `[REGISTER] VALUE`: the MSR address (`0x186`) or register name (`IA32_PERFEVTSEL0`,
    /// `IA32_FIXED_CTR_CTRL`; default: the first general counter's event select), then the
    /// value (decimal, `0x` hex or `0b` binary).
    #[arg(value_name = "[REGISTER] VALUE", num_args = 1..=2, required = true)]
    operands: Vec<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Definition files or directories (default: pmu-defs/defs).
    #[arg(long = "defs", value_name = "PATH")]
    paths: Vec<PathBuf>,
}

fn parse_counter(s: &str) -> Result<Counter, String> {
    s.parse::<Counter>().map_err(|e| e.to_string())
}

fn parse_value(s: &str) -> Result<u64, String> {
    parse_number(s)
        .ok_or_else(|| format!("`{s}` is not a 64-bit number (decimal, 0x hex or 0b binary)"))
}

use crate::defs::load_for_use as load;

/// The one generation `cpu` names (this machine's when `None`): by [`crate::cpu`]'s forms,
/// else as the encoder reads ids (whose error suggests the nearest).
fn generation<'m>(
    encoder: &Encoder<'m>,
    cpu: Option<&str>,
) -> Result<&'m pmu_defs::model::Generation, String> {
    match cpu {
        Some(q) if encoder.model().find_cpu(q).is_none() => {
            encoder.generation(q).map_err(|e| e.to_string())
        }
        _ => crate::cpu::choose_one(encoder.model(), cpu),
    }
}

/// Runs `pmu encode`.
pub fn run_encode(args: EncodeArgs) -> ExitCode {
    let Some(loaded) = load(&args.paths) else {
        return ExitCode::FAILURE;
    };
    let encoder = Encoder::new(&loaded.model);
    let generation = match generation(&encoder, args.cpu.as_deref()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut results: Vec<Result<Encoding, Error>> = Vec::new();
    for spec in &args.events {
        let request = Request::parse(spec).and_then(|r| match &args.modifiers {
            Some(m) => r.with_modifiers(m),
            None => Ok(r),
        });
        let request = request.map(|r| match args.counter {
            Some(c) => r.on(c),
            None => r,
        });
        results.push(request.and_then(|r| encoder.encode_in(generation, &r)));
    }
    let ok = results.iter().all(Result::is_ok);
    if args.json {
        let items: Vec<JsonItem<'_>> = args
            .events
            .iter()
            .zip(&results)
            .map(|(spec, r)| match r {
                Ok(e) => JsonItem::Ok(e),
                Err(e) => JsonItem::Err(ErrorJson::new(spec, e)),
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&items).unwrap_or_default()
        );
    } else {
        let mut printed = false;
        for (spec, r) in args.events.iter().zip(&results) {
            match r {
                Ok(e) => {
                    if printed {
                        println!();
                    }
                    printed = true;
                    print!("{}", encoding_table(e));
                }
                Err(e) => eprintln!("error: {}: {e}", pmu_defs::diag::clip_text(spec)),
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Runs `pmu decode`.
pub fn run_decode(args: DecodeArgs) -> ExitCode {
    let (register, value) = match args.operands.as_slice() {
        [v] => (None, v),
        [r, v] => (Some(r.as_str()), v),
        _ => unreachable!("clap takes one or two operands"),
    };
    let value = match parse_value(value) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(loaded) = load(&args.paths) else {
        return ExitCode::FAILURE;
    };
    let encoder = Encoder::new(&loaded.model);
    let g = match generation(&encoder, args.cpu.as_deref()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let select = g.pmu.general.as_ref().map(|c| format!("{}0", c.select));
    let Some(register) = register.or(select.as_deref()) else {
        eprintln!(
            "error: {} has no general counters: name the register (`pmu decode REGISTER VALUE`)",
            g.id
        );
        return ExitCode::FAILURE;
    };
    let result = (|| {
        let address = match parse_number(register) {
            Some(a) => u32::try_from(a).map_err(|_| Error::UnknownRegister {
                generation: g.id.clone(),
                what: format!("MSR {a:#x} (wider than 32 bits)"),
                elsewhere: Vec::new(),
            })?,
            None => encoder.register_address(g, register)?,
        };
        encoder.decode_in(g, address, value)
    })();
    match result {
        Ok(d) => {
            if args.json {
                println!("{}", serde_json::to_string_pretty(&d).unwrap_or_default());
            } else {
                print!("{}", decoded_table(&d));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            if args.json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&ErrorJson::new(register, &e)).unwrap_or_default()
                );
            }
            fail(&e)
        }
    }
}

fn fail(e: &Error) -> ExitCode {
    eprintln!("error: {e}");
    ExitCode::FAILURE
}

/// One entry of `encode --json`: the encoding, or the error in its place.
#[derive(Serialize)]
#[serde(untagged)]
enum JsonItem<'a> {
    Ok(&'a Encoding),
    Err(ErrorJson<'a>),
}

/// `{"request": ..., "error": {"kind": ..., "message": ...}}`.
#[derive(Serialize)]
struct ErrorJson<'a> {
    request: &'a str,
    error: ErrorBody,
}

#[derive(Serialize)]
struct ErrorBody {
    kind: ErrorKind,
    message: String,
}

impl<'a> ErrorJson<'a> {
    fn new(request: &'a str, e: &Error) -> Self {
        ErrorJson {
            request,
            error: ErrorBody {
                kind: e.kind(),
                message: e.to_string(),
            },
        }
    }
}

/// The table `encode` prints.
pub fn encoding_table(e: &Encoding) -> String {
    let mut out = String::new();
    let since = e
        .event_since
        .as_deref()
        .filter(|s| *s != e.generation)
        .map(|s| format!(", since {s}"))
        .unwrap_or_default();
    let _ = writeln!(out, "{} ({}{since})", e.event, e.generation);
    let place = match (e.counter, e.address) {
        (Some(Counter::Fixed(n)), Some(a)) => format!(
            "{} (MSR {a:#x}), block of fixed counter {n}: merge under mask {:#x}",
            e.register, e.mask
        ),
        (Some(c), Some(a)) => format!("{}{} (MSR {a:#x}) for {c}", e.register, index_of(c)),
        _ => format!("{} (the event may use {})", e.register, e.allowed),
    };
    let _ = writeln!(out, "  register  {place}");
    if let Some(r) = &e.counter_register {
        let _ = writeln!(out, "  counter   {} (MSR {:#x})", r.name, r.address);
    }
    let _ = writeln!(out, "  value     {:#018x}", e.value);
    let _ = writeln!(out, "  perf      {}", e.perf);
    for a in &e.aux {
        let reg = a
            .register
            .as_deref()
            .map(|r| format!("{r} "))
            .unwrap_or_default();
        let _ = writeln!(out, "  aux MSR   {reg}{:#x} = {:#x}", a.index, a.value);
    }
    for alt in &e.alternatives {
        let msr = alt
            .msr_index
            .map(|m| format!(" with MSR {m:#x}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  also      event {:#x} umask {:#x}{msr}: value {:#018x}",
            alt.event, alt.umask, alt.value
        );
    }
    let _ = writeln!(out);
    let rows: Vec<[String; 3]> = e
        .fields
        .iter()
        .map(|f| {
            [
                element_name(&f.name, f.element),
                f.bits.clone(),
                format!("{:#x}", f.value),
            ]
        })
        .collect();
    out.push_str(&table(["field", "bits", "value"], &rows));
    for n in &e.notes {
        let _ = writeln!(out, "  note: {n}");
    }
    out
}

/// The table `decode` prints.
pub fn decoded_table(d: &Decoded) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} (MSR {:#x}) in {}",
        d.register_instance(),
        d.address,
        d.generation
    );
    let _ = writeln!(out, "  value     {:#018x}", d.value);
    let _ = writeln!(out);
    let rows: Vec<[String; 4]> = d
        .fields
        .iter()
        .map(|f| {
            [
                element_name(f.name, f.element),
                f.bits.clone(),
                format!("{:#x}", f.value),
                f.meaning.unwrap_or_default().to_owned(),
            ]
        })
        .collect();
    out.push_str(&table(["field", "bits", "value", ""], &rows));
    let _ = writeln!(out);
    if d.reserved_set == 0 {
        let _ = writeln!(out, "  reserved bits set: none");
    } else {
        let bits: Vec<String> = d.reserved_bits.iter().map(u32::to_string).collect();
        let _ = writeln!(
            out,
            "  reserved bits set: {:#x} (bit {})",
            d.reserved_set,
            bits.join(", ")
        );
    }
    for m in &d.events {
        let _ = writeln!(out, "  event: {} ({}, since {})", m.name, m.kind, m.since);
    }
    if d.events.is_empty() && !d.similar.is_empty() {
        let _ = writeln!(out, "  event: none matches exactly");
    }
    for m in d.similar.iter().take(8) {
        let _ = writeln!(
            out,
            "  similar: {} differs in {}",
            m.name,
            m.differs
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if d.similar.len() > 8 {
        let _ = writeln!(out, "  similar: ... {} more", d.similar.len() - 8);
    }
    for f in &d.fixed {
        let names: Vec<&str> = f.events.iter().map(|m| m.name).collect();
        let _ = writeln!(
            out,
            "  fixed counter {}: {}{}",
            f.counter,
            if f.enabled { "enabled" } else { "disabled" },
            if names.is_empty() {
                String::new()
            } else {
                format!(", counts {}", names.join(", "))
            }
        );
    }
    for w in &d.warnings {
        let _ = writeln!(out, "  warning: {w}");
    }
    out
}

fn index_of(c: Counter) -> u32 {
    match c {
        Counter::General(n) | Counter::Fixed(n) => n,
    }
}

fn element_name(name: &str, element: Option<u32>) -> String {
    match element {
        Some(i) => format!("{name}[{i}]"),
        None => name.to_string(),
    }
}

/// Left-aligned columns, two spaces apart, indented by two.
fn table<const N: usize>(header: [&str; N], rows: &[[String; N]]) -> String {
    let mut width = header.map(str::len);
    for r in rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.len());
        }
    }
    let mut out = String::new();
    let mut line = |cells: &[&str]| {
        let mut l = String::from(" ");
        for (c, w) in cells.iter().zip(width) {
            let _ = write!(l, " {c:<w$}");
        }
        let _ = writeln!(out, "{}", l.trim_end());
    };
    line(&header);
    for r in rows {
        line(&r.each_ref().map(String::as_str));
    }
    out
}
