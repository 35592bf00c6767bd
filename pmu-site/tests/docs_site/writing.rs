//! Determinism, writing to disk, and scale (~40 model generations with ~17,000 events).

use super::*;
use crate::escaping::nasty_model;

#[test]
fn output_is_deterministic() {
    let a = docs::build(model());
    let b = docs::build(model());
    assert!(a == b, "two builds differ");
    // From a second, independent load too.
    let again = pmu_defs::Loader::new().with_defaults().finish().model;
    assert!(
        docs::build(&again) == a,
        "a fresh load builds a different site"
    );

    let d1 = tempfile::tempdir().unwrap();
    let d2 = tempfile::tempdir().unwrap();
    a.write(d1.path()).unwrap();
    b.write(d2.path()).unwrap();
    for rel in a.files().keys() {
        let x = std::fs::read(d1.path().join(rel)).unwrap();
        let y = std::fs::read(d2.path().join(rel)).unwrap();
        assert!(x == y, "{rel} differs between runs");
    }
    let again = a.write(d1.path()).unwrap();
    assert_eq!((again.written, again.unchanged), (0, a.files().len()));
    for text in a.files().values() {
        assert!(!text.contains("\r\n"));
    }
}

#[test]
fn writing_replaces_stale_pages_and_refuses_foreign_directories() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let big = docs::build(&nasty_model());
    big.write(&out).unwrap();
    assert!(out.join("gen/evil-child/diff.html").is_file());

    // A model without evil-child: its pages go, nothing else is touched.
    std::fs::write(out.join("mine.txt"), "not generated").unwrap();
    let small = docs::build(model());
    let s = small.write(&out).unwrap();
    assert!(s.removed > 0);
    assert!(!out.join("gen/evil-child").exists());
    assert!(out.join("mine.txt").is_file());
    assert!(out.join("gen/intel-v3/reg/IA32_PERFEVTSEL.html").is_file());

    // A non-empty directory that gen-docs did not write is refused.
    let foreign = dir.path().join("foreign");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "x").unwrap();
    let err = small.write(&foreign).unwrap_err();
    assert!(
        err.contains("not written by `cargo xtask gen-docs`"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(&foreign).unwrap().count(), 1);
}

#[test]
fn scales_to_forty_models_and_seventeen_thousand_events() {
    let mut loader = pmu_defs::Loader::new().with_defaults();
    let per_model = 425;
    for m in 0..40 {
        let mut yaml = format!(
            "generation: model-{m:02}\nextends: intel-v{}\ntitle: Synthetic model {m}\nmanual: none\ndoc: Synthetic.\nevents:\n",
            4 + m % 3
        );
        for i in 0..per_model {
            yaml.push_str(&format!(
                "  - {{ name: SYN{m}_EVENT_{i}.SUB, event: {}, umask: {}, cmask: {}, doc: Synthetic event number {i} of model {m} }}\n",
                i % 256,
                (i / 256) + 1,
                i % 3
            ));
        }
        loader.add_str(format!("model-{m:02}.yaml"), yaml);
    }
    let loaded = loader.finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let total: usize = loaded
        .model
        .generations
        .iter()
        .map(|g| g.events.len())
        .sum();
    assert!(total >= 17_000, "{total}");

    let started = std::time::Instant::now();
    let site = docs::build(&loaded.model);
    let took = started.elapsed();
    eprintln!(
        "built {} files for {total} events in {took:?}",
        site.files().len()
    );

    let biggest = site
        .files()
        .iter()
        .map(|(p, t)| (t.len(), p))
        .max()
        .unwrap();
    assert!(
        biggest.0 < 1_500_000,
        "largest file {} is {} bytes",
        biggest.1,
        biggest.0
    );
    for m in 0..40 {
        let id = format!("model-{m:02}");
        let page = site.get(&format!("gen/{id}/events.html")).unwrap();
        assert!(
            page.len() < 64_000,
            "{id}: events page has {} bytes",
            page.len()
        );
        assert!(!page.contains("SYN"), "{id}: rows are not in the page");
        let js = site.get(&format!("data/events/{id}.js")).unwrap();
        let table = js_value(js, &format!("PMU.events[\"{id}\"] = "));
        let g = loaded.model.generation(&id).unwrap();
        assert_eq!(table["rows"].as_array().unwrap().len(), g.events.len());
        // No other generation's events in this file.
        assert!(!js.contains(&format!("SYN{}_", (m + 1) % 40)));
    }
    let index = site.get("data/index.js").unwrap();
    assert!(index.len() < 64_000, "index.js has {} bytes", index.len());
}

/// The weight of the site for the shipped definitions (without `--descriptions`, which adds
/// about 2.3 MB of the vendors' texts to the event data): BENCHMARKS.md has the figures. A
/// change that makes it heavier than the budget must say why there.
#[test]
fn the_site_keeps_to_its_weight_budget() {
    const BUDGET: usize = 21_500_000;
    const LARGEST_PAGE: usize = 100_000;
    let files = site().files();
    let total: usize = files.values().map(String::len).sum();
    eprintln!("site: {} files, {total} bytes", files.len());
    assert!(
        total <= BUDGET,
        "the site has {total} bytes (budget {BUDGET})"
    );
    let (bytes, page) = files
        .iter()
        .filter(|(p, _)| p.ends_with(".html"))
        .map(|(p, t)| (t.len(), p))
        .max()
        .unwrap();
    assert!(bytes <= LARGEST_PAGE, "{page} has {bytes} bytes");
}
