//! The code generator: the checked-in `pmu-regs/src/generated.rs` is current, and the
//! generated API works the way kernel code uses it.

use std::path::Path;

#[test]
fn checked_in_generated_file_is_current() {
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let want = pmu_defs::codegen::render(&loaded.model, &pmu_defs::codegen::Options::internal())
        .expect("generate and format");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../pmu-regs/src/generated.rs");
    let have = std::fs::read_to_string(&path).expect("read pmu-regs/src/generated.rs");
    assert!(
        have == want,
        "pmu-regs/src/generated.rs is stale; run `cargo xtask gen`"
    );
    assert!(have.starts_with(pmu_defs::codegen::HEADER));
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
        assert_eq!(v.try_set_umask(0xFF).unwrap().umask(), 0xFF);
        let bad = v.with_inv(true);
        assert_eq!(bad.try_build().unwrap_err().id, "inv-without-cmask");
        assert!(bad.with_cmask::<1>().try_build().is_ok());
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
            .with_pmi1(true);
        assert_eq!(c.bits(), 0b1011 << 4);
        assert_eq!(c.enable1_value(), Some(IA32_FIXED_CTR_CTRL::Enable::All));
        assert_eq!(c.enable_at(1), Some(3));
        assert!(c.try_set_enable_at(3, 1).is_err());
        let tock = c.to_local();
        assert_eq!(tock.read(IA32_FIXED_CTR_CTRL::ENABLE1), 3);
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
