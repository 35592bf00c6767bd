//! Load times of the heaviest pages (BENCHMARKS.md, "Weight of the documentation site"):
//! each page opened three times in headless Chromium from `file://`, without virtual time,
//! its navigation timing read at the `load` event (after the page's own scripts have drawn
//! the tree, the event table or the decoder). Printed, never asserted: the machine is shared.
//! `PMU_TIMING_SITE=DIR` measures another build of the site (an older one, for "before").

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
    "gen/intel-sapphirerapids/reg/IA32_PERFEVTSEL.html",
    "decoder.html",
];

const TIMING: &str = r#"<script>addEventListener("load", function () {
  var n = performance.getEntriesByType("navigation")[0];
  var p = document.createElement("pre");
  p.id = "e2e-timing";
  p.textContent = JSON.stringify([n.responseEnd, n.domContentLoadedEventEnd, n.loadEventStart]);
  document.body.appendChild(p);
});</script>
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
            let dom = chromium_run(&site, &name, &["--dump-dom".to_owned()]);
            let doc = scraper::Html::parse_document(&dom);
            let t: Vec<f64> = serde_json::from_str(&text(one(&doc, "#e2e-timing"))).unwrap();
            assert!(t.len() == 3 && t[2] > 0.0, "{page}: {t:?}");
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
        eprintln!(
            "timing {page} ({bytes} bytes): DOMContentLoaded {} ms; load {} ms",
            col(1),
            col(2)
        );
    }
}
