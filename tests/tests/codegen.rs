//! The code generator: the checked-in `pmu-regs/src/generated.rs` is current, and the
//! generated API works the way kernel code uses it.

use std::path::Path;

#[test]
fn checked_in_generated_files_are_current() {
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let files =
        pmu_defs::codegen::render_split(&loaded.model, &pmu_defs::codegen::Options::internal())
            .expect("generate and format");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../pmu-regs/src");
    for (path, want) in &files {
        let have = std::fs::read_to_string(src.join(path))
            .unwrap_or_else(|e| panic!("read pmu-regs/src/{path}: {e}; run `cargo xtask gen`"));
        assert!(
            &have == want,
            "pmu-regs/src/{path} is stale; run `cargo xtask gen`"
        );
        assert!(have.starts_with(pmu_defs::codegen::HEADER));
    }
    // One Cargo feature per model generation.
    let manifest = std::fs::read_to_string(src.join("../Cargo.toml")).unwrap();
    for f in pmu_defs::codegen::features(&loaded.model) {
        assert!(
            manifest.contains(&format!("\n{f} = []\n")),
            "feature {f} missing from pmu-regs/Cargo.toml; run `cargo xtask gen`"
        );
    }
}

/// The proc macro emits every generation inline; `pmu-regs` gets the same code with each
/// CPU-model generation moved to its own file behind a feature. Putting the files back inline
/// must give the macro's output exactly.
#[test]
fn split_files_reassemble_to_the_macro_expansion() {
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    let opts = pmu_defs::codegen::Options::external();
    let inline = pmu_defs::codegen::generate(&loaded.model, &opts).to_string();
    let files = pmu_defs::codegen::generate_split(&loaded.model, &opts);
    let mut rebuilt = files[0].tokens.to_string();
    for f in &files[1..] {
        let stem = f.path.rsplit('/').next().unwrap().trim_end_matches(".rs");
        let id_segs: Vec<&str> = f
            .path
            .trim_start_matches("generated/")
            .trim_end_matches(".rs")
            .split('/')
            .collect();
        let feature = loaded
            .model
            .generations
            .iter()
            .find(|g| pmu_defs::codegen::module_path(&g.id) == id_segs)
            .map(|g| g.id.clone())
            .expect("file for a known generation");
        let decl = format!("# [cfg (feature = \"{feature}\")] pub mod {stem} ;");
        assert!(rebuilt.contains(&decl), "{decl} not in generated.rs");
        rebuilt = rebuilt.replace(&decl, &format!("pub mod {stem} {{ {} }}", f.tokens));
    }
    assert_eq!(rebuilt, inline);
}

#[test]
fn generation_is_deterministic() {
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    let opts = pmu_defs::codegen::Options::internal();
    let a = pmu_defs::codegen::generate(&loaded.model, &opts).to_string();
    let b = pmu_defs::codegen::generate(&loaded.model, &opts).to_string();
    assert_eq!(a, b);
}

mod kernel_style {
    use pmu_regs::intel::v3::{ArchEvent, IA32_FIXED_CTR_CTRL, IA32_PERFEVTSEL};

    const LLC_MISSES_SEL: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::new()
        .with_event_select::<0x2E>()
        .with_umask::<0x41>()
        .with_usr(true)
        .with_os(true)
        .with_en(true)
        .build();

    #[test]
    fn perfevtsel_for_llc_misses() {
        assert_eq!(LLC_MISSES_SEL.bits(), 0x0043_412E);
        assert_eq!(IA32_PERFEVTSEL::address::<0>(), 0x186);
        assert_eq!(IA32_PERFEVTSEL::address::<7>(), 0x18D);
        assert_eq!(IA32_PERFEVTSEL::try_address(8), None);
        assert_eq!(LLC_MISSES_SEL.event_select(), 0x2E);
        assert_eq!(LLC_MISSES_SEL.umask(), 0x41);
        assert!(LLC_MISSES_SEL.os() && LLC_MISSES_SEL.usr() && LLC_MISSES_SEL.en());
        let ev = ArchEvent::LlcMisses;
        assert_eq!(
            (ev.event_select(), ev.umask(), ev.cpuid_bit()),
            (0x2E, 0x41, 4)
        );
        assert_eq!(ev.to_string(), "LLC_MISSES");
        assert_eq!("llc_misses".parse::<ArchEvent>(), Ok(ev));
        assert_eq!(ArchEvent::ALL.len(), 7);
    }

    #[test]
    fn same_type_across_generations() {
        // IA32_PERFEVTSEL is defined in v3 and inherited unchanged by v4.
        let v: pmu_regs::intel::v4::IA32_PERFEVTSEL::Value = LLC_MISSES_SEL;
        assert_eq!(v, LLC_MISSES_SEL);
    }

    #[test]
    fn runtime_setters_never_panic() {
        let v = IA32_PERFEVTSEL::Value::new();
        assert!(v.try_set_umask(0x1FF).is_err());
        assert_eq!(v.try_set_umask(0xFF).unwrap().build().umask(), 0xFF);
        let bad = v.with_inv(true);
        assert_eq!(bad.try_build().unwrap_err().id, "inv-without-cmask");
        assert!(bad.with_cmask::<1>().try_build().is_ok());
        // The same field given two different values is reported, not silently overwritten.
        let twice = v.with_umask::<1>().with_umask::<2>();
        let err = twice.try_build().unwrap_err();
        assert_eq!(err.id, "field-set-twice");
        assert!(err.message.starts_with("UMASK "), "{}", err.message);
        // ... but the same value twice is fine.
        assert_eq!(v.with_umask::<1>().with_umask::<1>().build().umask(), 1);
        // A modification of an existing value overrides freely.
        assert_eq!(LLC_MISSES_SEL.with_umask::<0x4F>().umask(), 0x4F);
    }

    #[test]
    fn reserved_bits_survive_read_modify_write() {
        let read = IA32_PERFEVTSEL::Value::from_raw_read(0xFFFF_FFFC_0000_0000);
        let w = read.with_en(true);
        assert_eq!(w.bits(), 0xFFFF_FFFC_0040_0000);
        assert!(format!("{w:?}").contains("EN: true"));
    }

    #[test]
    fn field_arrays_and_enums() {
        let c = IA32_FIXED_CTR_CTRL::Value::new()
            .set_enable1(IA32_FIXED_CTR_CTRL::Enable::All)
            .with_pmi1(true)
            .build();
        assert_eq!(c.bits(), 0b1011 << 4);
        assert_eq!(c.enable1_value(), Some(IA32_FIXED_CTR_CTRL::Enable::All));
        assert_eq!(c.enable_at(1), Some(3));
        assert!(c.try_set_enable_at(3, 1).is_err());
        let tock = c.to_local();
        assert_eq!(tock.read(IA32_FIXED_CTR_CTRL::ENABLE1), 3);
    }
}

mod events_and_access {
    use pmu_regs::PlacementError;
    use pmu_regs::access::{MsrExt, RawMsr};
    use pmu_regs::intel::v4::{ArchEvent, IA32_PERF_GLOBAL_CTRL, IA32_PERFEVTSEL, cpuid};
    use std::collections::HashMap;

    const LLC_ON_PMC0: IA32_PERFEVTSEL::Value =
        IA32_PERFEVTSEL::event_on::<0>(ArchEvent::LlcMisses.desc())
            .with_usr(true)
            .with_os(true)
            .with_en(true)
            .build();

    #[test]
    fn event_on_sets_the_encoding() {
        assert_eq!(LLC_ON_PMC0.bits(), 0x0043_412E);
        // Same as spelling the fields by hand.
        let by_hand = IA32_PERFEVTSEL::Value::new()
            .with_event_select::<0x2E>()
            .with_umask::<0x41>()
            .with_usr(true)
            .with_os(true)
            .with_en(true)
            .build();
        assert_eq!(LLC_ON_PMC0, by_hand);
    }

    #[test]
    fn placement_errors_at_run_time() {
        let fixed_only = pmu_regs::EventDesc::new("REF_TSC", 0x00, 0x03)
            .with_counters(0)
            .with_fixed(2);
        assert_eq!(
            IA32_PERFEVTSEL::try_event_on(1, &fixed_only).unwrap_err(),
            PlacementError::FixedOnly {
                event: "REF_TSC",
                fixed: 2,
                counter: 1
            }
        );
        let low = pmu_regs::EventDesc::new("LOW_ONLY", 0x48, 0x01).with_counters(0b1111);
        let err = IA32_PERFEVTSEL::try_event_on(5, &low).unwrap_err();
        assert_eq!(
            err.to_string(),
            "LOW_ONLY may be counted only on general-purpose counters 0,1,2,3; not on counter 5"
        );
        assert!(matches!(
            IA32_PERFEVTSEL::try_event_on(8, &low),
            Err(PlacementError::CounterOutOfRange {
                count: 8,
                counter: 8,
                ..
            })
        ));
        // v1 has no AnyThread bit: an event that needs it is refused.
        let any = pmu_regs::EventDesc::new("ANY_EV", 0x3C, 0).with_any(true);
        assert!(matches!(
            pmu_regs::intel::v1::IA32_PERFEVTSEL::try_event_on(0, &any),
            Err(PlacementError::Unsupported {
                field: "ANY (AnyThread)",
                ..
            })
        ));
        assert!(
            IA32_PERFEVTSEL::try_event_on(0, &any)
                .unwrap()
                .build()
                .any()
        );
    }

    #[test]
    fn reserved_bits_are_refused_in_raw_constants() {
        let err = IA32_PERFEVTSEL::Value::try_from_bits(1 << 40).unwrap_err();
        assert_eq!(err.bits, 1 << 40);
        assert_eq!(
            IA32_PERFEVTSEL::Value::try_from_bits(0x0043_412E).unwrap(),
            LLC_ON_PMC0
        );
        const RAW: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::from_bits::<0x0043_412E>();
        assert_eq!(RAW, LLC_ON_PMC0);
    }

    /// A minimal in-memory backend: enough to check the typed access layer.
    #[derive(Default)]
    struct Mem(HashMap<u32, u64>);
    impl RawMsr for Mem {
        type Error = ();
        fn read_raw(&mut self, a: u32) -> Result<u64, ()> {
            Ok(*self.0.get(&a).unwrap_or(&0))
        }
        fn write_raw(&mut self, a: u32, v: u64) -> Result<(), ()> {
            self.0.insert(a, v);
            Ok(())
        }
    }

    #[test]
    fn typed_access_and_modify_keep_reserved_bits() {
        let mut m = Mem::default();
        let sel = IA32_PERFEVTSEL::msr::<2>();
        assert_eq!((sel.address(), sel.index()), (0x188, 2));
        m.write(sel, LLC_ON_PMC0).unwrap();
        assert_eq!(m.0[&0x188], 0x0043_412E);
        // Hardware returned a reserved bit set; modify must write it back as read, even when
        // the closure builds a fresh value.
        m.0.insert(IA32_PERF_GLOBAL_CTRL::MSR.address(), 1 << 63);
        let written = m
            .modify(IA32_PERF_GLOBAL_CTRL::MSR, |_| {
                IA32_PERF_GLOBAL_CTRL::Value::new()
                    .with_en_pmc0(true)
                    .build()
            })
            .unwrap();
        assert_eq!(written.bits(), (1 << 63) | 1);
        assert_eq!(m.0[&0x38F], (1 << 63) | 1);
        assert!(m.read(IA32_PERF_GLOBAL_CTRL::MSR).unwrap().en_pmc0());
    }

    #[test]
    fn cpuid_layouts_decode() {
        // Version 4, 8 counters of 48 bits, 7 EBX bits; 3 fixed counters of 48 bits.
        let leaf = cpuid::ARCH_PERFMON::Leaf::from_regs(0x0730_0804, 0x0000_0000, 0, 0x0000_0603);
        assert_eq!(cpuid::ARCH_PERFMON::LEAF, 0x0A);
        assert_eq!(leaf.eax.version(), 4);
        assert_eq!(leaf.eax.gp_counters(), 8);
        assert_eq!(leaf.eax.gp_width(), 48);
        assert_eq!(leaf.edx.fixed_counters(), 3);
        assert_eq!(leaf.edx.fixed_width(), 48);
        assert_eq!(leaf.eax.ebx_length(), 7);
        assert!(!leaf.ebx.llc_misses_unavailable());
    }
}

mod from_macro {
    pmu_macros::registers!("../pmu-defs/defs/intel/v1.yaml");

    #[test]
    fn macro_expands_the_same_generator() {
        const SEL: intel::v1::IA32_PERFEVTSEL::Value = intel::v1::IA32_PERFEVTSEL::Value::new()
            .with_event_select::<0x3C>()
            .with_en(true)
            .build();
        assert_eq!(SEL.bits(), 0x0040_003C);
        assert_eq!(intel::v1::ArchEvent::ALL.len(), 7);
    }
}
