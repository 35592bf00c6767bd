//! Rendering diagnostics like rustc ([`render`], [`render_verbose`]), with a line per class over
//! the cap and a summary line.

use super::*;

/// The line that stands for the acknowledged warnings [`render`] leaves out.
pub fn acknowledged_line(count: usize) -> String {
    format!(
        "note: {} acknowledged warning{} in the definitions (allow:), not shown; --verbose lists them",
        thousands(count),
        if count == 1 { "" } else { "s" }
    )
}

/// Renders `list` like rustc, leaving out the acknowledged warnings, which one line counts
/// ([`acknowledged_line`]); then one line per [`Omitted`] class and the summary line
/// (counting those left out), when anything else was reported.
pub fn render(list: &[Diagnostic], omitted: &[Omitted], sources: &Sources) -> String {
    render_with(list, omitted, sources, false)
}

/// Renders every diagnostic of `list` like rustc, acknowledged warnings included (each with
/// its reason), then one line per [`Omitted`] class and the summary line, which says how many
/// warnings are acknowledged.
pub fn render_verbose(list: &[Diagnostic], omitted: &[Omitted], sources: &Sources) -> String {
    render_with(list, omitted, sources, true)
}

/// [`render`] or, with `verbose`, [`render_verbose`].
pub fn render_with(
    list: &[Diagnostic],
    omitted: &[Omitted],
    sources: &Sources,
    verbose: bool,
) -> String {
    let mut out = String::new();
    let shown = |acknowledged: bool| verbose || !acknowledged;
    for d in list.iter().filter(|d| shown(d.acknowledged.is_some())) {
        out.push_str(&d.render(sources));
    }
    for o in omitted.iter().filter(|o| shown(o.acknowledged)) {
        out.push_str(&format!("note: {}\n", o.line()));
    }
    let count = |s: Severity, acknowledged: bool| {
        list.iter()
            .filter(|d| d.severity == s && d.acknowledged.is_some() == acknowledged)
            .count()
            + omitted
                .iter()
                .filter(|o| o.severity == s && o.acknowledged == acknowledged)
                .map(|o| o.count)
                .sum::<usize>()
    };
    let acknowledged = count(Severity::Warning, true);
    // Errors are never acknowledged (`Diagnostic::acknowledge`).
    let (errors, warnings) = (
        count(Severity::Error, false),
        count(Severity::Warning, false),
    );
    if !verbose && acknowledged > 0 {
        out.push_str(&acknowledged_line(acknowledged));
        out.push('\n');
    }
    let warnings_shown = if verbose {
        warnings + acknowledged
    } else {
        warnings
    };
    if errors > 0 || warnings_shown > 0 {
        out.push_str(&format!(
            "{} error{}, {} warning{}",
            thousands(errors),
            if errors == 1 { "" } else { "s" },
            thousands(warnings_shown),
            if warnings_shown == 1 { "" } else { "s" }
        ));
        if verbose && acknowledged > 0 {
            out.push_str(&format!(" ({} acknowledged)", thousands(acknowledged)));
        }
        out.push('\n');
    }
    out
}
