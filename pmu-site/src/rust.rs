//! The bridge from a register page to the code: the register's path in `pmu-regs`
//! ([`pmu_codegen::register_paths`], the layout pass `cargo xtask gen` runs), the
//! generations sharing its type, the Cargo feature, and a snippet that builds a constant
//! value and reads / modifies / writes the register, every method name from
//! [`pmu_defs::model::names`] (the field markers), never spelled here.
//!
//! `pmu-site/tests/docs_snippets.rs` compiles the snippets of every register page against
//! `pmu-regs`.

use crate::html;
use askama::Template;
use pmu_codegen::RegisterPath;
use pmu_defs::model::names;
use pmu_defs::model::{Event, Field, Generation, Register};
use std::fmt::Write;

/// Where the site's Rust paths link: `pmu-regs`' documentation on docs.rs, of the version
/// the site is built from (docs.rs builds it with every feature, so every model's module
/// is there). Not a `cargo doc` output shipped beside the site: with every model and
/// facility that is about 690 MB (55,000 files), and without them it has no model module.
pub const RUSTDOC: &str = concat!("https://docs.rs/pmu-regs/", env!("CARGO_PKG_VERSION"), "/");

/// The segments of a Rust path as rustdoc names its files (no `r#`).
fn doc_segments(path: &str) -> Vec<&str> {
    path.split("::")
        .map(|s| s.strip_prefix("r#").unwrap_or(s))
        .collect()
}

/// The rustdoc page of a module (`pmu_regs::intel::v3::IA32_PERFEVTSEL`): its `index.html`.
pub fn module_doc(path: &str) -> String {
    format!("{RUSTDOC}{}/index.html", doc_segments(path).join("/"))
}

/// One setter call per kind the register offers (`with::<F, 1>()` for a wide field,
/// `with_bit::<F>(true)` for a one-bit one), on fields no constraint of the generation
/// mentions, valid on every instance and not deprecated (so the constant builds, warning-free).
fn setters(g: &Generation, r: &Register, module: &str) -> Vec<String> {
    let constrained = |f: &Field| {
        g.constraints
            .iter()
            .any(|c| c.register == r.name && c.when.iter().any(|w| w.field == f.name))
    };
    let usable = |f: &&Field| {
        names::writable(r, f) && !constrained(f) && f.instances.is_none() && f.deprecated.is_none()
    };
    let (mut wide, mut bit) = (None, None);
    for f in r.fields.iter().filter(usable) {
        let Some(element) = names::element_names(f).into_iter().next() else {
            continue;
        };
        let marker = names::escape(&element);
        if f.width == 1 {
            bit.get_or_insert_with(|| format!(".with_bit::<{module}::{marker}>(true)"));
        } else {
            wide.get_or_insert_with(|| format!(".with::<{module}::{marker}, 1>()"));
        }
    }
    wide.into_iter().chain(bit).collect()
}

/// The first field of the register read from a value (`get::<EVENT_SELECT>()`, or
/// `is_set::<F>()` for one bit): the variable name and the call.
fn getter(r: &Register, module: &str) -> Option<(String, String)> {
    let f = r.fields.first()?;
    let element = names::element_names(f).into_iter().next()?;
    let marker = names::escape(&element);
    let call = if f.width == 1 {
        format!("is_set::<{module}::{marker}>()")
    } else {
        format!("get::<{module}::{marker}>()")
    };
    Some((element.to_ascii_lowercase(), call))
}

/// A snippet using register `r` of generation `g` through `path`: it compiles against
/// `pmu-regs` with `path.features` enabled.
pub fn snippet(g: &Generation, r: &Register, path: &RegisterPath) -> String {
    let module = names::register_module(&r.name);
    let (parent, _) = path
        .path
        .rsplit_once("::")
        .unwrap_or((path.path.as_str(), ""));
    let reg = if r.msr.indexed {
        format!("{module}::msr::<0>()")
    } else {
        format!("{module}::MSR")
    };
    let mut out = String::new();
    let readable = r.access.readable();
    let writable = r.access.writable();
    let set = if writable {
        setters(g, r, &module)
    } else {
        Vec::new()
    };
    let mut uses = vec!["RawMsr"];
    if readable || writable {
        uses.insert(0, "MsrExt");
    }
    if writable && !readable {
        uses.push("WriteError");
    }
    let _ = writeln!(out, "use pmu_regs::access::{{{}}};", uses.join(", "));
    let _ = writeln!(out, "use {parent}::{module};");
    if writable {
        let _ = writeln!(
            out,
            "\n// A value built at compile time: each setter checks its field, reserved bits stay clear."
        );
        let _ = write!(out, "const VALUE: {module}::Value = {module}::Value::new()");
        for s in &set {
            let _ = write!(out, "\n    {s}");
        }
        out.push_str("\n    .build();\n");
    }
    let _ = writeln!(
        out,
        "\n// Through any backend implementing RawMsr (pmu_regs::backend, or your own)."
    );
    if readable && writable {
        let _ = writeln!(
            out,
            "fn example<M: RawMsr>(msr: &mut M) -> Result<(), M::Error> {{\n    let reg = {reg};"
        );
        if let Some((var, get)) = getter(r, &module) {
            let _ = writeln!(out, "    let {var} = msr.read(reg)?.{get};");
            let _ = writeln!(out, "    let _ = {var};");
        }
        match set.first() {
            Some(s) => {
                let _ = writeln!(
                    out,
                    "    // Changes one field; reserved bits are written back as read.\n    msr.modify(reg, |v| v{s})?;"
                );
            }
            None => {
                let _ = writeln!(out, "    msr.modify(reg, |_| VALUE)?;");
            }
        }
        out.push_str("    Ok(())\n}\n");
    } else if readable {
        let _ = writeln!(
            out,
            "fn example<M: RawMsr>(msr: &mut M) -> Result<(), M::Error> {{\n    let value = msr.read({reg})?;"
        );
        if let Some((_, get)) = getter(r, &module) {
            let _ = writeln!(out, "    let _ = value.{get};");
        } else {
            let _ = writeln!(out, "    let _ = value;");
        }
        out.push_str("    Ok(())\n}\n");
    } else {
        let _ = writeln!(
            out,
            "fn example<M: RawMsr>(msr: &mut M) -> Result<(), WriteError<M::Error>> {{\n    msr.write({reg}, VALUE)\n}}"
        );
    }
    out
}

/// The "In Rust" section of a register page (`templates/rust.html`).
#[derive(Template)]
#[template(path = "rust.html")]
struct Section<'a> {
    root: &'a str,
    path: &'a RegisterPath,
    /// The other generations with the same type.
    others: Vec<&'a str>,
    /// The path of the alias address, when the register has one.
    alias: Option<String>,
    /// The feature that turns on every generation of the kind.
    all: &'static str,
    /// The rustdoc pages of the module and of the module defining the type.
    doc: String,
    home_doc: String,
    code: String,
}

/// The "In Rust" section of a register page.
pub fn section(root: &str, g: &Generation, r: &Register, path: &RegisterPath) -> String {
    Section {
        root,
        path,
        others: path
            .users
            .iter()
            .map(String::as_str)
            .filter(|u| *u != g.id)
            .collect(),
        alias: r.alias_msr.as_ref().map(|_| {
            if r.msr.indexed {
                format!("{}::alias_msr::<N>()", path.path)
            } else {
                format!("{}::ALIAS_MSR", path.path)
            }
        }),
        all: if pmu_codegen::is_facility(g) {
            "all-facilities"
        } else {
            "all-models"
        },
        doc: module_doc(&path.path),
        home_doc: module_doc(&path.home),
        code: snippet(g, r, path),
    }
    .render()
    .unwrap_or_default()
}

/// Where `pmu-regs` has an event of generation `g`: an event with a CPUID.0AH:EBX bit is
/// architectural, a variant of the generation module's `ArchEvent` (defined there or re-exported
/// from the ancestor with the same set); every other event is a variant of the module's
/// `events::Event` (`pmu_regs::intel::sapphirerapids::events::Event::MemLoadRetired_L3Miss`).
/// The split is the generator's (`pmu-codegen/src/events.rs`) and the validator's (each enum's
/// variants are checked unique there); module and variant names come from
/// [`names::module_path`] and [`names::event_variant`].
pub fn event_path(g: &Generation, e: &Event) -> String {
    let raw = |s: String| {
        if names::is_raw(&s) {
            format!("r#{s}")
        } else {
            s
        }
    };
    let mut p = String::from("pmu_regs");
    for seg in names::module_path(&g.id) {
        p.push_str("::");
        p.push_str(&raw(seg));
    }
    let enum_path = if e.cpuid_bit.is_some() {
        "ArchEvent"
    } else {
        "events::Event"
    };
    format!("{p}::{enum_path}::{}", raw(names::event_variant(&e.name)))
}
