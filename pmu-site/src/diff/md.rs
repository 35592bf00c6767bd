//! The Markdown diff page (`md/<id>/diff.md`): the same content as the HTML page.

use super::compute::*;
use crate::escape::{md, md_cell, md_code};
use crate::format;
use std::fmt::Write;

pub(crate) fn md_changes(changes: &[Change], out: &mut String) {
    out.push_str("| What | Before | After |\n|---|---|---|\n");
    for c in changes {
        let cell = |s: &str| {
            if s.is_empty() {
                "—".to_owned()
            } else {
                md_cell(s)
            }
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            md_cell(&c.what),
            cell(&c.old),
            cell(&c.new)
        );
    }
    out.push('\n');
}

pub(crate) fn md_fields(diffs: &[FieldDiff<'_>], out: &mut String) {
    out.push_str("| Field | | What | Before | After |\n|---|---|---|---|---|\n");
    for d in diffs {
        match d {
            FieldDiff::Added(f) => {
                let _ = writeln!(
                    out,
                    "| {} | added | bits | — | {} |",
                    md_code(&f.name),
                    md_cell(&bits_with_array(f))
                );
            }
            FieldDiff::Removed(f) => {
                let _ = writeln!(
                    out,
                    "| {} | removed | bits | {} | — |",
                    md_code(&f.name),
                    md_cell(&bits_with_array(f))
                );
            }
            FieldDiff::Changed { field, changes } => {
                for c in changes {
                    let cell = |s: &str| {
                        if s.is_empty() {
                            "—".to_owned()
                        } else {
                            md_cell(s)
                        }
                    };
                    let _ = writeln!(
                        out,
                        "| {} | changed | {} | {} | {} |",
                        md_code(&field.name),
                        md_cell(&c.what),
                        cell(&c.old),
                        cell(&c.new)
                    );
                }
            }
        }
    }
    out.push('\n');
}

pub(crate) fn page_md(d: &Diff<'_>) -> String {
    let mut out = format!(
        "# Changes from `{}` to `{}`\n\n[← {}](README.md) · [parent: {}](../{}/README.md)\n\n",
        d.from.id,
        d.to.id,
        md(&d.to.id),
        md(&d.from.id),
        crate::escape::slug(&d.from.id)
    );
    if d.is_empty() {
        out.push_str("No differences.\n");
        return out;
    }
    if !d.pmu.is_empty() {
        out.push_str("## Performance-monitoring unit\n\n");
        md_changes(&d.pmu, &mut out);
    }
    if !d.registers.is_empty() {
        registers_md(d, &mut out);
    }
    if !d.cpuid.is_empty() {
        cpuid_md(d, &mut out);
    }
    if !d.events.is_empty() {
        events_md(d, &mut out);
    }
    if !d.constraints.is_empty() {
        constraints_md(d, &mut out);
    }
    out
}

/// The registers section: each added, removed or changed register, then the unchanged.
fn registers_md(d: &Diff<'_>, out: &mut String) {
    out.push_str("## Registers\n\n");
    for r in &d.registers {
        match r {
            RegDiff::Added(x) => {
                let _ = writeln!(
                    out,
                    "### Added: {}\n\nAt {} with {}.\n",
                    md_code(&x.name),
                    md_code(&format::address(&x.msr)),
                    format::plural(x.fields.len(), "field", "fields")
                );
            }
            RegDiff::Removed(x) => {
                let _ = writeln!(out, "### Removed: {}\n", md_code(&x.name));
            }
            RegDiff::Changed {
                old,
                new,
                changes,
                fields,
            } => {
                let _ = writeln!(out, "### Changed: {}\n", md_code(&new.name));
                if old.name != new.name {
                    let _ = writeln!(out, "Renamed from {}.\n", md_code(&old.name));
                }
                if !changes.is_empty() {
                    md_changes(changes, out);
                }
                if !fields.is_empty() {
                    md_fields(fields, out);
                }
            }
        }
    }
    if !d.unchanged.is_empty() {
        let list: Vec<String> = d.unchanged.iter().map(|n| md_code(n)).collect();
        let _ = writeln!(out, "Unchanged: {}.\n", list.join(", "));
    }
}

/// The CPUID leaves section.
fn cpuid_md(d: &Diff<'_>, out: &mut String) {
    out.push_str("## CPUID leaves\n\n");
    for c in &d.cpuid {
        match c {
            LeafDiff::Added(l) => {
                let _ = writeln!(out, "- Added: {}", md_code(&l.name));
            }
            LeafDiff::Removed(l) => {
                let _ = writeln!(out, "- Removed: {}", md_code(&l.name));
            }
            LeafDiff::Changed {
                leaf,
                changes,
                registers,
            } => {
                let _ = writeln!(out, "\n### Changed: {}\n", md_code(&leaf.name));
                if !changes.is_empty() {
                    md_changes(changes, out);
                }
                for (reg, fd) in registers {
                    let _ = writeln!(out, "{}:\n", md_code(&reg.to_uppercase()));
                    md_fields(fd, out);
                }
            }
        }
    }
    out.push('\n');
}

/// The events section: added and removed names (a link to the table when many), then changes.
fn events_md(d: &Diff<'_>, out: &mut String) {
    out.push_str("## Events\n\n");
    let mut added = Vec::new();
    let mut removed = Vec::new();
    for e in &d.events {
        match e {
            EventDiff::Added(x) => added.push(md_code(&x.name)),
            EventDiff::Removed(x) => removed.push(md_code(&x.name)),
            EventDiff::Changed { .. } => {}
        }
    }
    if added.len() > super::html::LONG_LIST {
        let _ = writeln!(
            out,
            "Added ({}): the [event table](events.md) lists them.\n",
            format::thousands(added.len())
        );
    } else if !added.is_empty() {
        let _ = writeln!(
            out,
            "Added ({}): {}.\n",
            format::thousands(added.len()),
            added.join(", ")
        );
    }
    if !removed.is_empty() {
        let _ = writeln!(
            out,
            "Removed ({}): {}.\n",
            format::thousands(removed.len()),
            removed.join(", ")
        );
    }
    for e in &d.events {
        if let EventDiff::Changed { event, changes } = e {
            let _ = writeln!(out, "### Changed: {}\n", md_code(&event.name));
            md_changes(changes, out);
        }
    }
}

/// The constraints section.
fn constraints_md(d: &Diff<'_>, out: &mut String) {
    out.push_str("## Constraints\n\n");
    for c in &d.constraints {
        match c {
            ConstraintDiff::Added(x) => {
                let _ = writeln!(
                    out,
                    "- Added: {} on {}: when {}, {}",
                    md_code(&x.id),
                    md_code(&x.register),
                    md_code(&when(x)),
                    md_cell(&x.message)
                );
            }
            ConstraintDiff::Removed(x) => {
                let _ = writeln!(out, "- Removed: {}", md_code(&x.id));
            }
            ConstraintDiff::Changed {
                constraint,
                changes,
            } => {
                let _ = writeln!(out, "\n### Changed: {}\n", md_code(&constraint.id));
                md_changes(changes, out);
            }
        }
    }
    out.push('\n');
}
