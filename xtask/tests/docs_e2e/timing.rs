//! Load times of the heaviest pages (BENCHMARKS.md, "Weight of the documentation site"):
//! each page opened three times in headless Chromium from `file://`, its navigation timing
//! read at the `load` event (after the page's own scripts have drawn the tree, the event table
//! or the decoder). An event table draws its rows in parts, so its page also says when the
//! first rows were laid out (at the end of the page's scripts) and when every row was (the
//! page polled until the table has them all, then laid out). Virtual time lets Chromium wait
//! for that; `performance.now()` stays real time. Printed, never asserted: the machine is
//! shared. `PMU_TIMING_SITE=DIR` measures another build of the site (an older one, for
//! "before").

use super::driver::*;
use std::path::PathBuf;

/// The pages: the largest before the diet (the model diffs that listed every event, the
/// biggest event table), the largest after it, a register page, the decoder.
pub const PAGES: &[&str] = &[
    "gen/intel-cascadelakex/diff.html",
    "gen/intel-cascadelakex/events.html",
    "gen/intel-broadwell/events.html",
    "gen/intel-v6/index.html",
    "yaml.html",
    "cpus/zen-5.html",
    "gen/intel-v5/reg/IA32_PERFEVTSEL.html",
    "decoder.html",
];

const TIMING: &str = r#"<script>(function () {
  var body = document.getElementById("ev-body"), first = -1;
  if (body) { void document.body.offsetHeight; first = performance.now(); }
  addEventListener("load", function () {
    var n = performance.getEntriesByType("navigation")[0];
    function done(all) {
      var p = document.createElement("pre");
      p.id = "e2e-timing";
      p.textContent = JSON.stringify([n.responseEnd, n.domContentLoadedEventEnd, n.loadEventStart, first, all]);
      document.body.appendChild(p);
    }
    if (!body) { done(-1); return; }
    var want = PMU.events[document.getElementById("main").getAttribute("data-gen")].rows.length;
    (function poll() {
      if (body.querySelectorAll("tr[id]").length < want) { setTimeout(poll, 5); return; }
      void document.body.offsetHeight;
      done(performance.now());
    })();
  });
})();</script>
</body>"#;

#[test]
fn load_times_of_the_largest_pages() {
    let site: PathBuf = std::env::var_os("PMU_TIMING_SITE")
        .map(PathBuf::from)
        .unwrap_or_else(|| site_dir().to_path_buf());
    eprintln!("site: {}", site.display());
    for page in PAGES {
        let Ok(src) = std::fs::read_to_string(site.join(page)) else {
            eprintln!("{page}: not in this site");
            continue;
        };
        let name = format!(
            "{}.timing-{}.html",
            page.trim_end_matches(".html"),
            unique()
        );
        std::fs::write(site.join(&name), src.replacen("</body>", TIMING, 1)).unwrap();
        let mut runs = Vec::new();
        for _ in 0..3 {
            let dom = chromium_run(
                &site,
                &name,
                &[
                    "--virtual-time-budget=20000".to_owned(),
                    "--dump-dom".to_owned(),
                ],
            );
            let doc = scraper::Html::parse_document(&dom);
            let t: Vec<f64> = serde_json::from_str(&text(one(&doc, "#e2e-timing"))).unwrap();
            assert!(t.len() == 5 && t[2] > 0.0, "{page}: {t:?}");
            runs.push(t);
        }
        let _ = std::fs::remove_file(site.join(&name));
        let bytes = std::fs::metadata(site.join(page)).map_or(0, |m| m.len());
        let col = |i: usize| {
            runs.iter()
                .map(|t| format!("{:.0}", t[i]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let rows = if runs[0][3] >= 0.0 {
            format!("; first rows {} ms; every row {} ms", col(3), col(4))
        } else {
            String::new()
        };
        eprintln!(
            "timing {page} ({bytes} bytes): DOMContentLoaded {} ms; load {} ms{rows}",
            col(1),
            col(2)
        );
    }
}
