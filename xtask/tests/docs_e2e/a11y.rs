//! An accessibility pass with axe-core (Deque's rules engine: alternative texts, labelled
//! controls, contrast, landmarks, heading order, ARIA, ...) over every kind of page at 1920,
//! 1366 and 390 px, and at 1366 px in the dark colour scheme: no finding of impact "serious"
//! or "critical". axe-core is installed by
//! `scripts/install-axe.sh` (pinned, `npm ci` into target/a11y-tools); where it cannot be
//! installed (no node or no network) the test says so and passes without checking.

use super::driver::*;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// axe.min.js, or why it is not there.
fn axe() -> Result<&'static PathBuf, &'static str> {
    static AXE: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    AXE.get_or_init(|| {
        let out = Command::new("bash")
            .arg(workspace_root().join("scripts/install-axe.sh"))
            .output()
            .map_err(|e| format!("cannot run scripts/install-axe.sh: {e}"))?;
        let said = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        match out.status.code() {
            Some(0) => {
                Ok(workspace_root().join("target/a11y-tools/node_modules/axe-core/axe.min.js"))
            }
            Some(2) => Err(said),
            _ => panic!("scripts/install-axe.sh failed:\n{said}"),
        }
    })
    .as_ref()
    .map_err(String::as_str)
}

/// Every kind of page: the index, a CPU, a generation (its inherited registers rows of it),
/// a register, an event table with a row open, a diff, the decoder with a value, the YAML
/// reference and the findings.
const PAGES: &[&str] = &[
    "index.html",
    "cpus/sapphire-rapids.html",
    "gen/intel-sapphirerapids/index.html",
    "gen/intel-v5/reg/IA32_PERFEVTSEL.html",
    "gen/intel-sapphirerapids/events.html#ev-MEM_LOAD_RETIRED.L3_MISS",
    "gen/intel-v6/diff.html",
    "decoder.html#gen=intel-sapphirerapids&reg=IA32_PERFEVTSEL&value=0x4301D1",
    "yaml.html",
    "findings.html",
];

/// Starts axe on the page; the next steps wait for its result.
/// The result: the number of rules that passed, then each finding (impact, rule, help, how
/// many elements, the first three).
const RUN: &str = "window.__axe = null; axe.run(document, { resultTypes: ['violations'] }).then(function (r) { \
    window.__axe = [r.passes.length].concat(r.violations.map(function (v) { return [v.impact, v.id, v.help, v.nodes.length, v.nodes.slice(0, 3).map(function (n) { return n.target.join(' '); })]; })); \
    }, function (e) { window.__axe = 'error: ' + e; }); return null;";
const WAIT: &str = "return window.__axe ? 'done' : null;";
const RESULT: &str = "return window.__axe;";

#[test]
fn no_serious_accessibility_findings_at_1920_1366_and_390px() {
    let axe = match axe() {
        Ok(p) => p,
        Err(why) => {
            eprintln!(
                "note: the accessibility pass is skipped: axe-core is not installed here.\n{why}"
            );
            return;
        }
    };
    let site = site_dir();
    std::fs::copy(axe, site.join("axe.min.js")).unwrap();
    let mut steps = vec![RUN];
    steps.extend(std::iter::repeat_n(WAIT, 12));
    steps.push(RESULT);
    let mut serious = Vec::new();
    for page in PAGES {
        let (file, frag) = page.split_once('#').map_or((*page, ""), |(f, h)| (f, h));
        let root = "../".repeat(file.matches('/').count());
        let src = std::fs::read_to_string(site.join(file)).unwrap();
        let name = format!("{}.axe-{}.html", file.trim_end_matches(".html"), unique());
        std::fs::write(
            site.join(&name),
            src.replacen(
                "</body>",
                &format!("<script src=\"{root}axe.min.js\"></script>\n</body>"),
                1,
            ),
        )
        .unwrap();
        let with_frag = if frag.is_empty() {
            name.clone()
        } else {
            format!("{name}#{frag}")
        };
        for (label, viewport) in [
            ("1920", Viewport::Window(1920, 1080)),
            ("1366", Viewport::Window(1366, 900)),
            ("390", Viewport::Frame(390, 844)),
            ("1366 dark", Viewport::Dark(1366, 900)),
        ] {
            let (_, log) = drive_with(site, &with_frag, &steps, viewport);
            let result = log.last().unwrap();
            let found = result
                .as_array()
                .unwrap_or_else(|| panic!("{page} at {label} px: axe gave {result}"));
            let passed = found.first().and_then(|p| p.as_u64()).unwrap_or(0);
            assert!(
                passed > 10,
                "{page} at {label} px: axe checked nothing: {result}"
            );
            eprintln!(
                "axe {page} at {label} px: {passed} rules passed, {} findings",
                found.len() - 1
            );
            for v in &found[1..] {
                eprintln!("axe {page} at {label} px: {v}");
                if v[0] == "serious" || v[0] == "critical" {
                    serious.push(format!("{page} at {label} px: {v}"));
                }
            }
        }
        let _ = std::fs::remove_file(site.join(&name));
    }
    assert!(
        serious.is_empty(),
        "serious findings:\n{}",
        serious.join("\n")
    );
}
