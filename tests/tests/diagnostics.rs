use pmu_defs::Loader;

fn dedent(s: &str) -> String {
    let s = s.strip_prefix('\n').unwrap_or(s);
    let ind = s.lines().filter(|l| !l.trim().is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
    s.lines().map(|l| if l.len() >= ind { &l[ind..] } else { l.trim_start() }).collect::<Vec<_>>().join("\n") + "\n"
}

fn dump(files: &[(&str, &str)]) {
    let mut l = Loader::new();
    for (n, t) in files { l.add_str(*n, dedent(t)); }
    let loaded = l.finish();
    for d in &loaded.diagnostics {
        println!("{}", d.short(&loaded.sources));
        for lab in &d.labels[1..] { println!("    second: {} {}", loaded.sources.location(lab.span), lab.message); }
        for n in &d.notes { println!("    {n}"); }
    }
    println!("-----");
}


const BASE: &str = r#"
generation: base
vendor: intel
pmu:
  general: { select: SEL, counter: CTR }
  fixed: { counter: FIXED }
  encoding:
    event: EVENT
    umask: UMASK
    inv: INV
    cmask: CMASK
registers:
  - name: SEL
    msr: { base: 0x186, count: 8 }
    fields:
      - { name: EVENT, bits: 7:0 }
      - { name: UMASK, bits: 15:8 }
      - { name: INV, bits: 23 }
      - { name: CMASK, bits: 31:24 }
  - name: CTR
    msr: { base: 0xC1, count: 8 }
    fields:
      - { name: COUNT, bits: 47:0 }
  - name: FIXED
    msr: { base: 0x309, count: 3 }
    fields:
      - { name: COUNT, bits: 47:0 }
"#;





#[test]
fn probe() {
    dump(&[("a.yaml", "generation: a\nvendor: intel\ndoc: &a [*a]\n")]);
    dump(&[("a.yaml", "generation: a\nvendor: intel\ndoc: &a {x: *a}\n")]);
    dump(&[("a.yaml", "generation: a\nvendor: intel\nregisters:\n  - { doc: \"§§ü\", name: X, bogus: 1 }\n")]);
    dump(&[("a.yaml", "generation: a\nvendor: intel\nregisters:\n\t- { name: X }\n")]);
    let dir = env!("CARGO_TARGET_TMPDIR");
    let p = std::path::Path::new(dir).join("bad-utf8.yaml");
    std::fs::write(&p, b"generation: a\nvendor: intel\ndoc: ab\xffcd\n").unwrap();
    let mut l = Loader::new();
    l.add_file(&p);
    l.add_file(std::path::Path::new("/nonexistent/x.yaml"));
    let loaded = l.finish();
    for d in &loaded.diagnostics { println!("{}", d.short(&loaded.sources)); }
    println!("{}", loaded.render_diagnostics());
    let t = std::time::Instant::now();
    for _ in 0..20 {
        let loaded = Loader::new().with_defaults().finish();
        assert!(!loaded.has_errors());
    }
    println!("20 full loads {:?}", t.elapsed());
    let text = std::fs::read_to_string(pmu_defs::defs_dir().join("intel/v1.yaml")).unwrap();
    let t = std::time::Instant::now();
    for _ in 0..100 {
        let mut l = Loader::new();
        l.add_str("v1.yaml", text.clone());
        let loaded = l.finish();
        let _ = loaded.render_diagnostics();
    }
    println!("100 v1 loads {:?}", t.elapsed());
}
