//! The harness of the end-to-end tests: Chromium (installed when missing), the sites they
//! load, a page's DOM after its scripts ran, and the driver that clicks and types.

use super::support;
use scraper::{Html, Selector};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub const CHROMIUM: &str = "/usr/bin/chromium";
/// Longest a single page load may take before the test fails.
pub const PAGE_TIMEOUT: Duration = Duration::from_secs(25);

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// The Chromium binary, installed by the project's script when missing.
pub fn chromium() -> &'static Path {
    static BIN: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match BIN.get_or_init(install_chromium) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    }
}

pub fn tail(bytes: &[u8], lines: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

pub fn install_chromium() -> Result<PathBuf, String> {
    let bin = PathBuf::from(CHROMIUM);
    if bin.is_file() {
        return Ok(bin);
    }
    // Other test processes may be installing at the same moment: one at a time.
    let lock_path = std::env::temp_dir().join("pmu-regs-install-chromium.lock");
    let lock = std::fs::File::create(&lock_path)
        .map_err(|e| format!("cannot create {}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
    if bin.is_file() {
        return Ok(bin);
    }
    let script = workspace_root().join("scripts/install-chromium.sh");
    eprintln!(
        "{CHROMIUM} is missing: running {} (one time)",
        script.display()
    );
    let out = Command::new("bash")
        .arg(&script)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if !out.status.success() || !bin.is_file() {
        return Err(format!(
            "the end-to-end test needs Chromium at {CHROMIUM}, and {} could not install it ({}).\n\
             Install Debian's `chromium` package (apt-get install chromium) and run the tests again.\n\
             --- script output (last lines) ---\n{}\n{}",
            script.display(),
            out.status,
            tail(&out.stdout, 20),
            tail(&out.stderr, 20)
        ));
    }
    Ok(bin)
}

/// The site for the shipped definitions, written once per test process.
pub fn site_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("docs-e2e");
        support::site()
            .write(&dir)
            .unwrap_or_else(|e| panic!("writing the site: {e}"));
        std::fs::canonicalize(&dir).unwrap()
    })
}

/// A generation whose events differ only in their modifiers (a fixture written for this
/// test; the names and codes are made up).
pub const FIXTURE: &str = r#"generation: fixture-model
extends: intel-v3
title: Fixture model
manual: test fixture
doc: Events that differ only in their modifiers.
events:
  - { name: CYCLES.ACTIVE, event: 0xA3, umask: 0x04 }
  - { name: CYCLES.STALLED, event: 0xA3, umask: 0x04, cmask: 4 }
  - { name: CYCLES.STALLED_EDGE, event: 0xA3, umask: 0x04, cmask: 4, edge: true }
  - { name: CYCLES.NONE, event: 0xA3, umask: 0x04, cmask: 1, inv: true }
"#;

/// The shipped definitions plus [`FIXTURE`], written once per test process.
pub fn fixture_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let mut loader = pmu_defs::Loader::new().with_defaults();
        loader.add_str("fixture-model.yaml", FIXTURE);
        let loaded = loader.finish();
        assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("docs-e2e-fixture");
        pmu_site::build(&loaded.model)
            .write(&dir)
            .unwrap_or_else(|e| panic!("writing the site: {e}"));
        std::fs::canonicalize(&dir).unwrap()
    })
}

/// Loads `page` (relative to the site, with its query or fragment) and returns the DOM.
pub fn dump_dom(page: &str) -> Html {
    dump_dom_in(site_dir(), page)
}

pub fn dump_dom_in(site: &Path, page: &str) -> Html {
    dump_dom_budget(site, page, 10_000)
}

/// Loads `page` with `budget` milliseconds of virtual time for the page's own work.
pub fn dump_dom_budget(site: &Path, page: &str, budget: u32) -> Html {
    Html::parse_document(&chromium_run(
        site,
        page,
        &[
            format!("--virtual-time-budget={budget}"),
            "--dump-dom".into(),
        ],
    ))
}

/// Runs headless Chromium on `page` of `site` with `args` (after the common ones) and
/// returns its standard output.
pub fn chromium_run(site: &Path, page: &str, args: &[String]) -> String {
    let bin = chromium();
    let url = format!("file://{}/{page}", site.display());
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(&url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stderr.read_to_end(&mut s);
        s
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > PAGE_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "Chromium did not finish {url} within {PAGE_TIMEOUT:?}:\n{}",
                tail(&err_reader.join().unwrap_or_default(), 20)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let dom = out_reader.join().unwrap();
    let err = err_reader.join().unwrap_or_default();
    let dumping = args.iter().any(|a| a == "--dump-dom");
    assert!(
        status.success() && (!dumping || dom.contains("</html>")),
        "Chromium failed on {url} ({status}):\n{}",
        tail(&err, 20)
    );
    eprintln!("loaded {page} in {:?}", started.elapsed());
    dom
}

pub fn select<'a>(doc: &'a Html, css: &str) -> Vec<scraper::ElementRef<'a>> {
    let sel = Selector::parse(css).unwrap_or_else(|e| panic!("selector {css}: {e:?}"));
    doc.select(&sel).collect()
}

pub fn one<'a>(doc: &'a Html, css: &str) -> scraper::ElementRef<'a> {
    let found = select(doc, css);
    assert_eq!(found.len(), 1, "expected one {css}, found {}", found.len());
    found[0]
}

/// The decoded value of a field row, as the page shows it (`0x2E`).
pub fn field(doc: &Html, name: &str) -> String {
    let row = one(doc, &format!(r#"#d-fields tr[data-field="{name}"]"#));
    let shown: String = one_in(row, "td.val code").text().collect();
    assert_eq!(row.value().attr("data-value"), Some(shown.as_str()));
    shown
}

pub fn one_in<'a>(el: scraper::ElementRef<'a>, css: &str) -> scraper::ElementRef<'a> {
    let sel = Selector::parse(css).unwrap();
    el.select(&sel).next().unwrap_or_else(|| panic!("no {css}"))
}

pub fn text(el: scraper::ElementRef<'_>) -> String {
    el.text().collect::<String>()
}

// ---------------------------------------------------------------------------------------
// Driving a page: clicks and typing through the page's own event handlers
// ---------------------------------------------------------------------------------------

/// The driver: runs `steps` (JavaScript function bodies) one after another, 300 ms of the
/// page's (virtual) time apart, after the page's own scripts, and writes what each returns
/// as JSON into `<pre id="e2e-log">`. `$(css)` is `document.querySelector`; `type(el, text)`
/// sets a field and fires `input` and `change` as typing does; `click(el)` clicks.
pub const DRIVER: &str = r#"<script>
(function () {
  var steps = window.__steps || [];
  window.$ = function (css) { return document.querySelector(css); };
  window.type = function (el, text) {
    el.focus(); el.value = text;
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  };
  window.click = function (el) { el.click(); };
  var log = [];
  function next(i) {
    if (i >= steps.length) {
      var pre = document.createElement("pre");
      pre.id = "e2e-log";
      pre.textContent = JSON.stringify(log);
      document.body.appendChild(pre);
      return;
    }
    var out;
    try { out = steps[i](); } catch (e) { out = "error: " + e; }
    log.push(out === undefined ? null : out);
    setTimeout(function () { next(i + 1); }, 300);
  }
  setTimeout(function () { next(0); }, 500);
})();
</script>"#;

/// Loads `page` of `site` with `steps` run by [`DRIVER`] after it has loaded, and returns
/// the DOM and each step's result. The page is copied beside itself with the driver added,
/// so its relative links and scripts load as they do for the real page.
pub fn drive(site: &Path, page: &str, steps: &[&str]) -> (Html, Vec<serde_json::Value>) {
    drive_with(site, page, steps, Viewport::Default)
}

/// The size of the page's viewport: the window's, or an iframe's that narrow (a headless
/// Chromium window is at least 500 px wide).
#[derive(Clone, Copy, Debug)]
pub enum Viewport {
    /// Headless Chromium's default window.
    Default,
    Window(u32, u32),
    Frame(u32, u32),
    /// A window of the given size with the system's dark colour scheme
    /// (`prefers-color-scheme: dark`).
    Dark(u32, u32),
}

/// [`drive`] in a viewport of the given size.
pub fn drive_with(
    site: &Path,
    page: &str,
    steps: &[&str],
    viewport: Viewport,
) -> (Html, Vec<serde_json::Value>) {
    let (file, frag) = page.split_once('#').map_or((page, ""), |(f, h)| (f, h));
    let src = std::fs::read_to_string(site.join(file)).unwrap();
    let list: Vec<String> = steps
        .iter()
        .map(|s| format!("function () {{ {s} }}"))
        .collect();
    let script = format!(
        "<script>window.__steps = [{}];</script>\n{DRIVER}\n</body>",
        list.join(",\n")
    );
    let driven = src.replacen("</body>", &script, 1);
    let name = format!("{}.e2e-{}.html", file.trim_end_matches(".html"), unique());
    std::fs::write(site.join(&name), driven).unwrap();
    let with_frag = |n: &str| {
        if frag.is_empty() {
            n.to_owned()
        } else {
            format!("{n}#{frag}")
        }
    };
    // Each step gets 300 ms of the page's virtual time, after 500 ms for loading.
    let budget = (2_000 + 300 * u32::try_from(steps.len()).unwrap()).max(10_000);
    let mut args = vec![
        format!("--virtual-time-budget={budget}"),
        "--dump-dom".to_owned(),
    ];
    let mut frame_file = None;
    let url = match viewport {
        Viewport::Default => with_frag(&name),
        Viewport::Window(w, h) => {
            args.push(format!("--window-size={w},{h}"));
            with_frag(&name)
        }
        Viewport::Dark(w, h) => {
            args.push(format!("--window-size={w},{h}"));
            args.push("--force-dark-mode".to_owned());
            with_frag(&name)
        }
        Viewport::Frame(w, h) => {
            // A page holding the driven page in an iframe of that size, which copies the
            // driver's log out when it is written.
            let inner = with_frag(name.rsplit('/').next().unwrap());
            let wrapper = format!("{}.frame.html", name.trim_end_matches(".html"));
            std::fs::write(
                site.join(&wrapper),
                format!(
                    "<!DOCTYPE html><html><body style=\"margin:0\"><iframe id=\"f\" src=\"{inner}\" style=\"width:{w}px;height:{h}px;border:0\"></iframe><script>\n\
                     var t = setInterval(function () {{ var d = document.getElementById('f').contentDocument; var l = d && d.getElementById('e2e-log'); \
                     if (l) {{ clearInterval(t); var p = document.createElement('pre'); p.id = 'e2e-log'; p.textContent = l.textContent; document.body.appendChild(p); }} }}, 200);\n</script></body></html>"
                ),
            )
            .unwrap();
            args.push("--allow-file-access-from-files".to_owned());
            // A phone's scroll bars take no width.
            args.push("--hide-scrollbars".to_owned());
            args.push("--window-size=1000,1000".to_owned());
            frame_file = Some(wrapper.clone());
            wrapper
        }
    };
    let doc = Html::parse_document(&chromium_run(site, &url, &args));
    let _ = std::fs::remove_file(site.join(&name));
    if let Some(f) = frame_file {
        let _ = std::fs::remove_file(site.join(f));
    }
    let log = select(&doc, "#e2e-log")
        .first()
        .map(|e| text(*e))
        .unwrap_or_else(|| panic!("{page}: the driver did not finish"));
    let log: Vec<serde_json::Value> = serde_json::from_str(&log).unwrap();
    (doc, log)
}

pub fn unique() -> usize {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
