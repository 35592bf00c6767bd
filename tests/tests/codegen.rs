//! The code generator: the checked-in `pmu-regs/src/generated.rs` is current, and the
//! generated API works the way kernel code uses it.

use std::path::Path;

#[test]
fn checked_in_generated_files_are_current() {
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let files = pmu_codegen::render_split(&loaded.model, &pmu_codegen::Options::internal())
        .expect("generate and format");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../pmu-regs/src");
    for (path, want) in &files {
        let have = std::fs::read_to_string(src.join(path))
            .unwrap_or_else(|e| panic!("read pmu-regs/src/{path}: {e}; run `cargo xtask gen`"));
        assert!(
            &have == want,
            "pmu-regs/src/{path} is stale; run `cargo xtask gen`"
        );
        assert!(have.starts_with(pmu_codegen::HEADER));
    }
    // One Cargo feature per gated generation (CPU models, microarchitectures, facilities), a
    // model's turning on its microarchitecture's.
    let manifest = std::fs::read_to_string(src.join("../Cargo.toml")).unwrap();
    for f in pmu_codegen::features(&loaded.model) {
        let line = f.manifest_line();
        assert!(
            manifest.contains(&format!("\n{line}\n")),
            "`{line}` missing from pmu-regs/Cargo.toml; run `cargo xtask gen`"
        );
    }
}

/// Every facility (a generation outside the core PMU, RAPL or AMD's Data Fabric) is behind a
/// Cargo feature of its own, and `all-facilities` lists exactly them; a generation `Pmu` can
/// program (counter and event-select roles) is never one, and every generation
/// `detect::facilities` reports is one.
#[test]
fn facilities_are_gated_and_listed() {
    use pmu_codegen::FeatureKind;
    use pmu_defs::model::RegisterRole;
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    let model = &loaded.model;
    let features = pmu_codegen::features(model);
    let facilities: Vec<&str> = (features.iter())
        .filter(|f| f.kind == FeatureKind::Facility)
        .map(|f| f.name.as_str())
        .collect();
    assert!(facilities.contains(&"intel-rapl"), "{facilities:?}");
    let manifest = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../pmu-regs/Cargo.toml"
    ))
    .unwrap();
    let listed: Vec<String> = facilities.iter().map(|f| format!("\"{f}\"")).collect();
    let line = format!("\nall-facilities = [{}]\n", listed.join(", "));
    assert!(
        manifest.contains(&line),
        "{line} missing from pmu-regs/Cargo.toml"
    );
    for g in &model.generations {
        let programmable = g.register_with_role(RegisterRole::Counter).is_some()
            && g.register_with_role(RegisterRole::EventSelect).is_some();
        let facility = facilities.contains(&g.id.as_str());
        assert!(
            !(programmable && facility),
            "{} has counters but is gated as a facility",
            g.id
        );
        assert_eq!(
            facility,
            pmu_codegen::is_facility(g) || {
                // A facility extending a facility is gated with it.
                g.ancestors
                    .iter()
                    .filter_map(|a| model.generation(a))
                    .any(pmu_codegen::is_facility)
            },
            "{}",
            g.id
        );
    }
    for f in pmu_regs::arch::Facility::ALL {
        assert!(
            facilities.contains(&f.id()),
            "{} is detected but not gated",
            f.id()
        );
    }
}

/// The proc macro emits every generation inline; `pmu-regs` gets the same code with each
/// CPU-model generation, and each module of register layouts several of them share, moved to
/// its own file behind the features that need it. Putting the files back inline must give the
/// macro's output exactly.
#[test]
fn split_files_reassemble_to_the_macro_expansion() {
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    let opts = pmu_codegen::Options::external();
    let inline = pmu_codegen::generate(&loaded.model, &opts).to_string();
    let files = pmu_codegen::generate_split(&loaded.model, &opts);
    let features = pmu_codegen::features(&loaded.model);
    let mut rebuilt = files[0].text.clone();
    let mut shared = 0;
    for f in &files[1..] {
        let stem = f.path.rsplit('/').next().unwrap().trim_end_matches(".rs");
        let id_segs: Vec<&str> = f
            .path
            .trim_start_matches("generated/")
            .trim_end_matches(".rs")
            .split('/')
            .collect();
        let generation = loaded
            .model
            .generations
            .iter()
            .find(|g| pmu_codegen::module_path(&g.id) == id_segs);
        let cfg = match generation {
            Some(g) => {
                assert_eq!(f.features, std::slice::from_ref(&g.id), "{}", f.path);
                format!("feature = \"{}\"", g.id)
            }
            None => {
                // `<vendor>/shared/<first user>.rs`, compiled for any of its users.
                assert_eq!(id_segs[id_segs.len() - 2], "shared", "{}", f.path);
                assert!(f.features.len() > 1, "{}: {:?}", f.path, f.features);
                shared += 1;
                let any: Vec<String> = f
                    .features
                    .iter()
                    .map(|x| format!("feature = \"{x}\""))
                    .collect();
                format!("any ({})", any.join(" , "))
            }
        };
        for x in &f.features {
            assert!(
                features.iter().any(|g| &g.name == x),
                "{}: no feature {x}",
                f.path
            );
        }
        let decl = format!("# [cfg ({cfg})] pub mod {stem} ;");
        assert_eq!(
            rebuilt.matches(&decl).count(),
            1,
            "{decl} not once in generated.rs"
        );
        rebuilt = rebuilt.replace(&decl, &format!("pub mod {stem} {{ {} }}", f.text));
    }
    assert!(
        shared > 0,
        "no shared layout module; the layout test below expects some"
    );
    assert_eq!(rebuilt, inline);
}

/// Register modules with the same layout are emitted once and re-exported: no two register
/// modules in the macro's output have the same body (the doc before each names its
/// generations and may differ; the body is the layout). Inside the body, the messages for
/// fields a layout lacks list the generations using it, which differ between two copies of
/// one layout: each generation id, and each list of them, is one placeholder before bodies
/// are compared (without that, four copies of the Skylake-type LBR stack went unnoticed).
#[test]
fn each_register_layout_is_emitted_once() {
    use proc_macro2::{Delimiter, TokenStream, TokenTree};
    use std::collections::BTreeMap;

    /// `(register module name, body)` of every `pub mod X { .. }` that holds a tock-registers
    /// marker type itself (`impl RegisterLongName` among its own items, not in a module
    /// nested in it: a vendor's or a generation's module holds register modules), at any
    /// depth.
    fn register_modules(ts: TokenStream, out: &mut Vec<(String, String)>) {
        let tts: Vec<TokenTree> = ts.into_iter().collect();
        for (i, tt) in tts.iter().enumerate() {
            let TokenTree::Group(g) = tt else { continue };
            let is_mod = i >= 2
                && matches!(&tts[i - 2], TokenTree::Ident(m) if m == "mod")
                && g.delimiter() == Delimiter::Brace;
            let marker = (g.stream().into_iter())
                .any(|t| matches!(&t, TokenTree::Ident(x) if x == "RegisterLongName"));
            match (is_mod, &tts.get(i.wrapping_sub(1))) {
                (true, Some(TokenTree::Ident(name))) if marker => {
                    out.push((name.to_string(), g.stream().to_string()))
                }
                _ => register_modules(g.stream(), out),
            }
        }
    }

    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    let tokens = pmu_codegen::generate(&loaded.model, &pmu_codegen::Options::external());
    let mut modules = Vec::new();
    register_modules(tokens, &mut modules);
    let definitions = loaded
        .model
        .generations
        .iter()
        .flat_map(|g| g.registers.iter().filter(move |r| r.defined_in == g.id))
        .count();
    assert!(
        !modules.is_empty() && modules.len() < definitions,
        "{} register modules for {definitions} definitions: some definitions share a layout",
        modules.len()
    );
    let mut ids: Vec<&str> = (loaded.model.generations.iter())
        .map(|g| g.id.as_str())
        .collect();
    // `intel-v1` must not turn `intel-v10` into `<g>0`.
    ids.sort_by_key(|id| std::cmp::Reverse(id.len()));
    let without_users = |body: &str| {
        let mut b = body.to_string();
        for id in &ids {
            b = b.replace(id, "<g>");
        }
        for list in ["<g>, <g>", "<g> and <g>", "`<g>`, `<g>`", "`<g>` and `<g>`"] {
            let one = if list.starts_with('`') {
                "`<g>`"
            } else {
                "<g>"
            };
            while b.contains(list) {
                b = b.replace(list, one);
            }
        }
        b
    };
    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
    for (name, body) in &modules {
        if let Some(other) = seen.insert(without_users(body), name) {
            panic!("`{name}` and `{other}` are emitted twice with the same layout");
        }
    }
}

/// `Pmu::program` takes any generated event enum: the generator implements
/// `pmu_regs::pmu::AsEvent` next to every `ArchEvent` and every `events::Event` it defines,
/// one per generation with events of its own, CPU model or not (no hand-written list naming
/// generations, so a generation added by YAML alone has it too); a re-exported `ArchEvent`
/// gets no second impl. Code for other crates (the proc
/// macro) has no run-time layer and no impl.
#[test]
fn every_event_enum_implements_as_event() {
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    let count = |opts: &pmu_codegen::Options, needle: &str| {
        pmu_codegen::generate(&loaded.model, opts)
            .to_string()
            .matches(needle)
            .count()
    };
    let internal = pmu_codegen::Options::internal();
    let arch_enums = count(&internal, "pub enum ArchEvent");
    let model_enums = count(&internal, "pub enum Event");
    // A generation has an `events::Event` when it has events of its own: events without a
    // `cpuid-bit` (those with one are its `ArchEvent`). A CPU model (`cpus:`) usually has
    // them, but an architectural generation may too; what counts is the events, not `cpus:`.
    let with_own_events = (loaded.model.generations.iter())
        .filter(|g| g.events.iter().any(|e| e.cpuid_bit.is_none()))
        .count();
    assert!(arch_enums >= 4, "{arch_enums} ArchEvent enums");
    assert!(with_own_events > 0, "no generation has events of its own");
    assert_eq!(
        model_enums, with_own_events,
        "one events::Event per generation with events of its own"
    );
    // An architectural generation (no `cpus:`) with an event of its own gets one too.
    let mut loader = pmu_defs::Loader::new().with_defaults();
    loader.add_str(
        "arch-with-own-event.yaml",
        "generation: intel-v6-own\nextends: intel-v6\ntitle: t\nmanual: m\n\
         events:\n  - { name: OWN_EVENT, event: 0x12, umask: 0x01 }\n",
    );
    let extra = loader.finish();
    assert!(!extra.has_errors(), "{}", extra.render_diagnostics());
    assert!(
        extra
            .model
            .generation("intel-v6-own")
            .unwrap()
            .cpus
            .is_empty()
    );
    let extra_enums = pmu_codegen::generate(&extra.model, &internal)
        .to_string()
        .matches("pub enum Event")
        .count();
    assert_eq!(extra_enums, model_enums + 1);
    assert_eq!(
        count(&internal, "impl crate :: pmu :: AsEvent for ArchEvent"),
        arch_enums
    );
    assert_eq!(
        count(&internal, "impl crate :: pmu :: AsEvent for Event"),
        model_enums
    );
    assert_eq!(
        count(&pmu_codegen::Options::external(), ":: pmu :: AsEvent"),
        0
    );
}

/// The name tables are built by `pmu_codegen::phash` and read by `pmu-regs`'
/// `__private::NameIndex`, both with `pmu_vocab::hash`: the hash folds ASCII case (and only
/// ASCII case) on names of every length and on bytes outside ASCII, and a table the generator
/// builds is read back by the generated crate's reader.
#[test]
fn name_hash_folds_case_and_generator_tables_read_back() {
    use pmu_codegen::phash;
    use pmu_regs::__private as rt;
    let mut s = 0x1234_5678_9ABC_DEF0u64;
    let mut next = || {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let z = (s ^ (s >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z ^ (z >> 27)
    };
    for len in 0..100usize {
        for _ in 0..50 {
            let bytes: Vec<u8> = (0..len).map(|_| (next() % 256) as u8).collect();
            let seed = next();
            let h = rt::hash(seed, &bytes);
            assert_eq!(h, rt::hash(seed, &bytes.to_ascii_uppercase()), "{bytes:?}");
            assert_eq!(h, rt::hash(seed, &bytes.to_ascii_lowercase()), "{bytes:?}");
        }
    }
    // A table built by the generator, read by the generated crate's reader.
    let names = [
        "BR_INST_RETIRED.ALL_BRANCHES",
        "OFFCORE_RESPONSE:request=X",
        "A",
    ];
    let t = phash::build(&names);
    let pilots: &'static [u16] = Vec::leak(t.pilots.clone());
    let slots: &'static [u16] = Vec::leak(t.slots.clone());
    let index = rt::NameIndex {
        seed: t.seed,
        max_len: t.max_len,
        pilots,
        slots,
    };
    for (i, n) in names.iter().enumerate() {
        assert_eq!(index.find(&n.to_ascii_lowercase(), |k| names[k]), Some(i));
    }
    assert_eq!(index.find("B", |k| names[k]), None);
}

#[test]
fn generation_is_deterministic() {
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    let opts = pmu_codegen::Options::internal();
    let a = pmu_codegen::generate(&loaded.model, &opts).to_string();
    let b = pmu_codegen::generate(&loaded.model, &opts).to_string();
    assert_eq!(a, b);
}

mod kernel_style {
    use pmu_regs::intel::v3::{ArchEvent, IA32_FIXED_CTR_CTRL, IA32_PERFEVTSEL};

    const LLC_MISSES_SEL: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::new()
        .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0x2E>()
        .with::<IA32_PERFEVTSEL::UMASK, 0x41>()
        .with_bit::<IA32_PERFEVTSEL::USR>(true)
        .with_bit::<IA32_PERFEVTSEL::OS>(true)
        .with_bit::<IA32_PERFEVTSEL::EN>(true)
        .build();

    #[test]
    fn perfevtsel_for_llc_misses() {
        assert_eq!(LLC_MISSES_SEL.bits(), 0x0043_412E);
        assert_eq!(IA32_PERFEVTSEL::address::<0>(), 0x186);
        assert_eq!(IA32_PERFEVTSEL::address::<7>(), 0x18D);
        assert_eq!(IA32_PERFEVTSEL::try_address(8), None);
        assert_eq!(LLC_MISSES_SEL.get::<IA32_PERFEVTSEL::EVENT_SELECT>(), 0x2E);
        assert_eq!(LLC_MISSES_SEL.get::<IA32_PERFEVTSEL::UMASK>(), 0x41);
        assert!(
            LLC_MISSES_SEL.is_set::<IA32_PERFEVTSEL::OS>()
                && LLC_MISSES_SEL.is_set::<IA32_PERFEVTSEL::USR>()
                && LLC_MISSES_SEL.is_set::<IA32_PERFEVTSEL::EN>()
        );
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
        assert!(v.try_with::<IA32_PERFEVTSEL::UMASK>(0x1FF).is_err());
        assert_eq!(
            v.try_with::<IA32_PERFEVTSEL::UMASK>(0xFF)
                .unwrap()
                .build()
                .get::<IA32_PERFEVTSEL::UMASK>(),
            0xFF
        );
        let bad = v.with_bit::<IA32_PERFEVTSEL::INV>(true);
        assert_eq!(bad.try_build().unwrap_err().id, "inv-without-cmask");
        assert!(bad.with::<IA32_PERFEVTSEL::CMASK, 1>().try_build().is_ok());
        // The same field given two different values is reported, not silently overwritten.
        let twice = v
            .with::<IA32_PERFEVTSEL::UMASK, 1>()
            .with::<IA32_PERFEVTSEL::UMASK, 2>();
        let err = twice.try_build().unwrap_err();
        assert_eq!(err.id, "field-set-twice");
        assert_eq!(err.field, Some("UMASK"));
        assert!(err.to_string().starts_with("UMASK is given two"), "{err}");
        // The field reported is the one set twice, wherever it is in the register.
        let late = v
            .with::<IA32_PERFEVTSEL::UMASK, 1>()
            .with::<IA32_PERFEVTSEL::CMASK, 1>()
            .with::<IA32_PERFEVTSEL::CMASK, 2>();
        let err = late.try_build().unwrap_err();
        assert_eq!(err.field, Some("CMASK"), "{err}");
        let panic = std::panic::catch_unwind(|| late.build()).unwrap_err();
        let text = panic.downcast_ref::<String>().map(String::as_str);
        let text = text.or(panic.downcast_ref::<&str>().copied()).unwrap();
        assert!(
            text.starts_with("CMASK of IA32_PERFEVTSEL is given two"),
            "{text}"
        );
        // ... but the same value twice is fine.
        assert_eq!(
            v.with::<IA32_PERFEVTSEL::UMASK, 1>()
                .with::<IA32_PERFEVTSEL::UMASK, 1>()
                .build()
                .get::<IA32_PERFEVTSEL::UMASK>(),
            1
        );
        // A modification of an existing value overrides freely.
        assert_eq!(
            LLC_MISSES_SEL
                .with::<IA32_PERFEVTSEL::UMASK, 0x4F>()
                .get::<IA32_PERFEVTSEL::UMASK>(),
            0x4F
        );
    }

    #[test]
    fn reserved_bits_survive_read_modify_write() {
        let read = IA32_PERFEVTSEL::Value::from_raw_read(0xFFFF_FFFC_0000_0000);
        let w = read.with_bit::<IA32_PERFEVTSEL::EN>(true);
        assert_eq!(w.bits(), 0xFFFF_FFFC_0040_0000);
        assert!(format!("{w:?}").contains("EN: true"));
    }

    /// `Debug` names every field: one-bit fields as `bool`, wider ones in hex, then the
    /// reserved bits when any is set; a CPUID output the same way.
    #[test]
    fn debug_shows_fields_and_reserved_bits() {
        let v = IA32_PERFEVTSEL::Value::from_raw_read(0x0043_412E | 1 << 40);
        assert_eq!(
            format!("{v:?}"),
            "IA32_PERFEVTSEL { EVENT_SELECT: 0x2e, UMASK: 0x41, USR: true, OS: true, \
             EDGE: false, PC: false, INT: false, ANY: false, EN: true, INV: false, CMASK: 0x0, \
             IN_TX: false, IN_TXCP: false, reserved: 0x10000000000 }"
        );
        let clean = IA32_PERFEVTSEL::Value::from_raw_read(0x0043_412E);
        assert!(!format!("{clean:?}").contains("reserved"));
        let eax = pmu_regs::intel::v1::cpuid::ARCH_PERFMON::Eax::from_raw(0x0830_0801);
        assert_eq!(
            format!("{eax:?}"),
            "ARCH_PERFMON.EAX { VERSION: 0x1, GP_COUNTERS: 0x8, GP_WIDTH: 0x30, EBX_LENGTH: 0x8 }"
        );
    }

    #[test]
    fn field_arrays_and_enums() {
        let c = IA32_FIXED_CTR_CTRL::Value::new()
            .with_value::<IA32_FIXED_CTR_CTRL::ENABLE1>(IA32_FIXED_CTR_CTRL::Enable::All)
            .with_bit::<IA32_FIXED_CTR_CTRL::PMI1>(true)
            .build();
        assert_eq!(c.bits(), 0b1011 << 4);
        assert_eq!(
            c.named::<IA32_FIXED_CTR_CTRL::ENABLE1>(),
            Some(IA32_FIXED_CTR_CTRL::Enable::All)
        );
        assert_eq!(c.get_at::<IA32_FIXED_CTR_CTRL::ENABLE>(1), Some(3));
        assert!(c.try_with_at::<IA32_FIXED_CTR_CTRL::ENABLE>(3, 1).is_err());
        let tock = c.to_local();
        assert_eq!(tock.read(IA32_FIXED_CTR_CTRL::ENABLE1), 3);
    }

    /// The tock-registers surface of a register: its `Field` constants, read through
    /// `Value::to_local()` (`read`, `is_set`, `read_as_enum` with the field's value enum), the
    /// same constants the generated accessors use.
    #[test]
    fn tock_registers_fields_read_what_the_accessors_wrote() {
        use pmu_regs::amd::k7::PERF_EVT_SEL;
        let v = PERF_EVT_SEL::Value::new()
            .with_bit::<PERF_EVT_SEL::EN>(true)
            .with_bit::<PERF_EVT_SEL::PC>(true)
            .with::<PERF_EVT_SEL::UMASK, 0x41>()
            .build();
        let local = v.to_local();
        assert_eq!(local.get(), (1 << 22) | (1 << 19) | (0x41 << 8));
        assert!(local.is_set(PERF_EVT_SEL::EN));
        assert!(!local.is_set(PERF_EVT_SEL::INT));
        assert_eq!(local.read(PERF_EVT_SEL::UMASK), 0x41);
        assert_eq!(
            local.read_as_enum::<PERF_EVT_SEL::Pc>(PERF_EVT_SEL::PC),
            Some(PERF_EVT_SEL::Pc::ToggleOnOverflow)
        );
        assert_eq!(
            PERF_EVT_SEL::CMASK.mask << PERF_EVT_SEL::CMASK.shift,
            0xff << 24
        );
    }
}

mod events_and_access {
    use pmu_regs::PlacementError;
    use pmu_regs::access::{MsrExt, RawMsr};
    use pmu_regs::intel::v4::{ArchEvent, IA32_PERF_GLOBAL_CTRL, IA32_PERFEVTSEL, cpuid};
    use std::collections::HashMap;

    const LLC_ON_PMC0: IA32_PERFEVTSEL::Placed<0> =
        IA32_PERFEVTSEL::event_on::<0>(ArchEvent::LlcMisses.desc())
            .with_bit::<IA32_PERFEVTSEL::USR>(true)
            .with_bit::<IA32_PERFEVTSEL::OS>(true)
            .with_bit::<IA32_PERFEVTSEL::EN>(true)
            .build();

    #[test]
    fn event_on_sets_the_encoding() {
        assert_eq!(LLC_ON_PMC0.bits(), 0x0043_412E);
        // Same as spelling the fields by hand.
        let by_hand = IA32_PERFEVTSEL::Value::new()
            .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0x2E>()
            .with::<IA32_PERFEVTSEL::UMASK, 0x41>()
            .with_bit::<IA32_PERFEVTSEL::USR>(true)
            .with_bit::<IA32_PERFEVTSEL::OS>(true)
            .with_bit::<IA32_PERFEVTSEL::EN>(true)
            .build();
        assert_eq!(LLC_ON_PMC0.unplaced(), by_hand);
        assert_eq!(LLC_ON_PMC0.index(), 0);
    }

    #[test]
    fn placement_errors_at_run_time() {
        let fixed_only = pmu_regs::EventDesc::new("REF_TSC", 0x00, 0x03)
            .with_counters(0)
            .with_fixed(2);
        assert_eq!(
            IA32_PERFEVTSEL::try_event_on_raw(1, &fixed_only).unwrap_err(),
            PlacementError::FixedOnly {
                event: "REF_TSC",
                fixed: 2,
                counter: 1
            }
        );
        let low = pmu_regs::EventDesc::new("LOW_ONLY", 0x48, 0x01).with_counters(0b1111);
        let err = IA32_PERFEVTSEL::try_event_on_raw(5, &low).unwrap_err();
        assert_eq!(
            err.to_string(),
            "LOW_ONLY may be counted only on general-purpose counters 0,1,2,3; not on counter 5"
        );
        assert!(matches!(
            IA32_PERFEVTSEL::try_event_on_raw(8, &low),
            Err(PlacementError::CounterOutOfRange {
                count: 8,
                counter: 8,
                ..
            })
        ));
        // v1 has no AnyThread bit: an event that needs it is refused.
        let any = pmu_regs::EventDesc::new("ANY_EV", 0x3C, 0).with_any(true);
        assert!(matches!(
            pmu_regs::intel::v1::IA32_PERFEVTSEL::try_event_on_raw(0, &any),
            Err(PlacementError::Unsupported {
                field: "ANY (AnyThread)",
                ..
            })
        ));
        assert!(
            IA32_PERFEVTSEL::try_event_on_raw(0, &any)
                .unwrap()
                .build()
                .unplaced()
                .is_set::<IA32_PERFEVTSEL::ANY>()
        );
    }

    #[test]
    fn placement_survives_to_the_write() {
        let mut m = Mem::default();
        // At run time, a value placed on counter 0 is refused for counter 5's MSR, through
        // the `Instance` of a run-time index, and nothing is written.
        let five = IA32_PERFEVTSEL::try_msr(5).unwrap();
        let err = m.write(five, LLC_ON_PMC0).unwrap_err();
        assert_eq!(
            err,
            pmu_regs::access::WriteError::Placement(PlacementError::WrongCounter {
                register: "IA32_PERFEVTSEL",
                placed: 0,
                counter: 5
            })
        );
        let pmu_regs::access::WriteError::Placement(p) = err else {
            panic!("{err:?}")
        };
        assert_eq!(
            p.to_string(),
            "this IA32_PERFEVTSEL value was built for IA32_PERFEVTSEL0; it cannot be written to \
             IA32_PERFEVTSEL5"
        );
        assert!(m.0.is_empty());
        // A run-time placement: written to its own counter, refused elsewhere.
        let on3 = IA32_PERFEVTSEL::try_event_on(3, ArchEvent::LlcMisses.desc())
            .unwrap()
            .with_bit::<IA32_PERFEVTSEL::EN>(true)
            .build();
        assert_eq!((on3.index(), on3.msr().address()), (3, 0x189));
        assert!(m.write(IA32_PERFEVTSEL::msr::<2>(), on3).is_err());
        assert!(m.write(IA32_PERFEVTSEL::try_msr(2).unwrap(), on3).is_err());
        m.write(on3.msr(), on3).unwrap();
        m.write(IA32_PERFEVTSEL::msr::<3>(), on3).unwrap();
        assert_eq!(m.0[&0x189], 0x0040_412E);
        // `at::<N>()` places a value built field by field.
        let v = IA32_PERFEVTSEL::Value::new()
            .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0x3C>()
            .with_bit::<IA32_PERFEVTSEL::EN>(true)
            .at::<4>()
            .build();
        m.write(v.msr(), v).unwrap();
        assert_eq!(m.0[&0x18A], 0x0040_003C);
        assert!(IA32_PERFEVTSEL::Value::new().try_at(8).is_err());
    }

    #[test]
    fn reserved_bits_are_refused_in_raw_constants() {
        let err = IA32_PERFEVTSEL::Value::try_from_bits(1 << 40).unwrap_err();
        assert_eq!(err.bits, 1 << 40);
        assert_eq!(
            IA32_PERFEVTSEL::Value::try_from_bits(0x0043_412E).unwrap(),
            LLC_ON_PMC0.unplaced()
        );
        const RAW: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::from_bits::<0x0043_412E>();
        assert_eq!(RAW, LLC_ON_PMC0.unplaced());
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
        // A value placed on counter 0 goes to counter 0's MSR; an unplaced value anywhere.
        m.write(IA32_PERFEVTSEL::msr::<0>(), LLC_ON_PMC0).unwrap();
        assert_eq!(m.0[&0x186], 0x0043_412E);
        m.write(sel, LLC_ON_PMC0.unplaced()).unwrap();
        assert_eq!(m.0[&0x188], 0x0043_412E);
        // Hardware returned a reserved bit set; modify must write it back as read, even when
        // the closure builds a fresh value.
        m.0.insert(IA32_PERF_GLOBAL_CTRL::MSR.address(), 1 << 63);
        let written = m
            .modify(IA32_PERF_GLOBAL_CTRL::MSR, |_| {
                IA32_PERF_GLOBAL_CTRL::Value::new()
                    .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC0>(true)
                    .build()
            })
            .unwrap();
        assert_eq!(written.bits(), (1 << 63) | 1);
        assert_eq!(m.0[&0x38F], (1 << 63) | 1);
        assert!(
            m.read(IA32_PERF_GLOBAL_CTRL::MSR)
                .unwrap()
                .is_set::<IA32_PERF_GLOBAL_CTRL::EN_PMC0>()
        );
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
            .with::<intel::v1::IA32_PERFEVTSEL::EVENT_SELECT, 0x3C>()
            .with_bit::<intel::v1::IA32_PERFEVTSEL::EN>(true)
            .build();
        assert_eq!(SEL.bits(), 0x0040_003C);
        assert_eq!(intel::v1::ArchEvent::ALL.len(), 7);
    }
}

/// Generated doc strings are Markdown rustdoc reads without a warning. Every `#[doc]` the
/// generator emits (from `///` in its templates or formatted from the definitions) is parsed
/// with pulldown-cmark, the parser rustdoc uses: there must be no `[x]` rustdoc would try as
/// an intra-doc link (a shortcut or reference link without a definition; the generator's own
/// links are inline, `[text](path)`), no raw HTML (`<n>` is an unclosed tag) and no bare URL.
/// `cargo doc` with `-D warnings` in CI checks the same on the checked-in files, and that the
/// inline links resolve.
mod generated_docs {
    use proc_macro2::{Delimiter, TokenStream, TokenTree};
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

    /// The doc strings of `tokens`, consecutive `#[doc]`/`#![doc]` attributes of one item
    /// joined by line breaks as rustdoc joins them.
    fn docs(tokens: TokenStream) -> Vec<String> {
        let mut out = Vec::new();
        let mut cur: Option<String> = None;
        collect(tokens, &mut out, &mut cur);
        out.extend(cur);
        out
    }

    fn collect(tokens: TokenStream, out: &mut Vec<String>, cur: &mut Option<String>) {
        let tts: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < tts.len() {
            if let TokenTree::Punct(p) = &tts[i]
                && p.as_char() == '#'
            {
                let bang =
                    matches!(&tts.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!');
                let at = i + 1 + usize::from(bang);
                if let Some(TokenTree::Group(g)) = tts.get(at)
                    && g.delimiter() == Delimiter::Bracket
                {
                    if let Some(text) = doc_value(g.stream()) {
                        let c = cur.get_or_insert_with(String::new);
                        if !c.is_empty() {
                            c.push('\n');
                        }
                        c.push_str(&text);
                    }
                    // Other attributes between doc attributes do not split the doc.
                    i = at + 1;
                    continue;
                }
            }
            out.extend(cur.take());
            if let TokenTree::Group(g) = &tts[i] {
                collect(g.stream(), out, cur);
                out.extend(cur.take());
            }
            i += 1;
        }
    }

    /// The string of `doc = "..."`.
    fn doc_value(attr: TokenStream) -> Option<String> {
        let tts: Vec<TokenTree> = attr.into_iter().collect();
        match tts.as_slice() {
            [
                TokenTree::Ident(id),
                TokenTree::Punct(eq),
                TokenTree::Literal(lit),
            ] if id == "doc" && eq.as_char() == '=' => match syn::Lit::new(lit.clone()) {
                syn::Lit::Str(s) => Some(s.value()),
                _ => panic!("doc attribute with a non-string value: {lit}"),
            },
            _ => None,
        }
    }

    /// What rustdoc would warn about in `doc`.
    fn problems(doc: &str) -> Vec<String> {
        let mut found = Vec::new();
        let mut labels = Vec::new();
        let mut cb = |l: pulldown_cmark::BrokenLink<'_>| {
            labels.push(l.reference.to_string());
            None
        };
        let opts = Options::ENABLE_TABLES
            | Options::ENABLE_FOOTNOTES
            | Options::ENABLE_STRIKETHROUGH
            | Options::ENABLE_TASKLISTS;
        let events: Vec<Event<'_>> =
            Parser::new_with_broken_link_callback(doc, opts, Some(&mut cb)).collect();
        let mut in_link = 0;
        let mut text = String::new();
        let flush = |text: &mut String, found: &mut Vec<String>| {
            if text.contains("http://") || text.contains("https://") {
                found.push(format!("bare URL in {text:?}"));
            }
            text.clear();
        };
        for e in events {
            match e {
                Event::Start(Tag::Link { .. }) => {
                    flush(&mut text, &mut found);
                    in_link += 1;
                }
                Event::End(TagEnd::Link) => in_link -= 1,
                Event::Text(t) if in_link == 0 => text.push_str(&t),
                Event::Html(h) | Event::InlineHtml(h) => {
                    found.push(format!("raw HTML {:?}", h.as_ref()))
                }
                _ => flush(&mut text, &mut found),
            }
        }
        flush(&mut text, &mut found);
        found.extend(
            labels
                .into_iter()
                .map(|l| format!("`[{l}]` would be an intra-doc link")),
        );
        found
    }

    fn assert_clean(docs: &[String]) {
        let bad: Vec<String> = docs
            .iter()
            .filter_map(|d| {
                let p = problems(d);
                (!p.is_empty()).then(|| format!("{}\n  in {d:?}", p.join("; ")))
            })
            .collect();
        assert!(
            bad.is_empty(),
            "{} generated doc strings rustdoc would warn about, first ones:\n{}",
            bad.len(),
            bad.iter().take(10).cloned().collect::<Vec<_>>().join("\n")
        );
    }

    #[test]
    fn the_checker_sees_what_rustdoc_warns_about() {
        assert_eq!(
            problems("EAX[7:0], 8 bits."),
            ["`[7:0]` would be an intra-doc link"]
        );
        assert_eq!(problems("IA32_PMC<n>"), ["raw HTML \"<n>\""]);
        assert_eq!(
            problems("see https://example.com/sdm"),
            ["bare URL in \"see https://example.com/sdm\""]
        );
        assert!(problems(r"EAX\[7:0\], `EDX[15]`, [`Value`](Value), <https://e.com>").is_empty());
        let attrs: TokenStream = r##"
            #[doc = " A"] #[inline] #[doc = r" [b"] fn f() { #![doc = "c]"] }
        "##
        .parse()
        .unwrap();
        assert_eq!(docs(attrs), [" A\n [b", "c]"]);
    }

    /// The shipped definitions, as the proc macro emits them (every generation inline).
    #[test]
    fn shipped_definitions() {
        let loaded = pmu_defs::Loader::new().with_defaults().finish();
        assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
        let tokens = pmu_codegen::generate(&loaded.model, &pmu_codegen::Options::external());
        let docs = docs(tokens);
        assert!(docs.len() > 10_000, "only {} doc strings found", docs.len());
        // The definitions do use the notation: it is escaped, not absent.
        assert!(docs.iter().any(|d| d.contains(r"EDX\[15\]")));
        assert_clean(&docs);
    }

    /// Every prose key of the schema (generation title, manual and doc; register, field,
    /// value, CPUID leaf, CPUID field and value, constraint and event docs and messages)
    /// carrying brackets, an HTML-like `<n>`, a bare URL, a code span and a link.
    const FIXTURE: &str = r#"
generation: test-brackets
vendor: intel
title: Title with EAX[7:0]
manual: Manual [Table 1-1] https://example.com/sdm
doc: |
  Doc with EDX[15], [31:24], `EAX[7:0]` in code, a [link](https://example.com), a stray `
  backtick, IA32_PMC<n> and https://example.com/bare.
pmu:
  encoding: { event: EVENT_SELECT, umask: UMASK, inv: INV, cmask: CMASK, en: EN }
registers:
  - name: CTR
    doc: Counter doc [n] <n>.
    manual: Counter manual [1]
    msr: { base: 0x100, count: 2, stride: 1 }
    role: counter
    fields:
      - { name: COUNT, bits: "47:0", doc: "Count doc EAX[23:16]." }
  - name: SEL
    doc: Select doc [x].
    manual: Select manual [2]
    msr: { base: 0x200, count: 2, stride: 1 }
    role: event-select
    fields:
      - { name: EVENT_SELECT, bits: "7:0", doc: "Event doc [code]." }
      - { name: UMASK, bits: "15:8", doc: "Umask doc [um]." }
      - name: EN
        bits: 22
        doc: Enable doc [EN].
        values:
          - { name: DISABLED, value: 0, doc: "Value doc [0]." }
          - { name: ENABLED, value: 1, doc: "Value doc [1] <b>." }
      - { name: INV, bits: 23, doc: "Inv doc [INV]." }
      - { name: CMASK, bits: "31:24", doc: "Cmask doc [CMASK]." }
      - { name: BLOCK, bits: "33:32", array: { count: 2, stride: 2 }, doc: "Array doc [i]." }
      - { name: SPLIT, bits: ["37:36", "41:40"], doc: "Split doc [s]." }
  - name: STATUS
    doc: Status doc [ro].
    manual: Status manual [3]
    msr: 0x300
    access: read-only
    fields:
      - { name: OVF, bits: 0, doc: "Status field doc [0]." }
  - name: STATUS_RESET
    doc: Reset doc [w1c].
    manual: Reset manual [4]
    msr: 0x301
    access: write-1-to-clear
    fields:
      - { name: CLR_OVF, bits: 0, doc: "Clear field doc [0]." }
cpuid:
  - name: LEAF_A
    leaf: 0x0A
    doc: Leaf doc [A].
    manual: Leaf manual [0AH]
    eax:
      - name: VERSION
        bits: "7:0"
        doc: CPUID field doc [v].
        values:
          - { name: ONE, value: 1, doc: "CPUID value doc [1]." }
constraints:
  - id: inv-without-cmask
    register: SEL
    when: { INV: 1, CMASK: 0 }
    severity: error
    message: Constraint message INV[23] <n>
    manual: Constraint manual [5]
events:
  - { name: CYCLES, event: 0x3C, umask: 0x00, cpuid-bit: 0, doc: "Event doc [c] <n>." }
"#;

    #[test]
    fn every_prose_key_with_brackets() {
        let mut loader = pmu_defs::Loader::new();
        loader.add_str("brackets.yaml", FIXTURE);
        let loaded = loader.finish();
        assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
        for opts in [
            pmu_codegen::Options::external(),
            pmu_codegen::Options::internal(),
        ] {
            let docs = docs(pmu_codegen::generate(&loaded.model, &opts));
            // Each prose key reaches the output, escaped.
            for want in [
                r"Title with EAX\[7:0\]",
                r"Manual \[Table 1-1\] <https://example.com/sdm>",
                r"Doc with EDX\[15\], \[31:24\], `EAX[7:0]` in code, a [link](https://example.com)",
                r"a stray \`",
                r"IA32_PMC\<n> and <https://example.com/bare>.",
                r"Counter doc \[n\] \<n>.",
                r"Counter manual \[1\]",
                r"Count doc EAX\[23:16\].",
                r"Select doc \[x\].",
                r"Select manual \[2\]",
                r"Event doc \[code\].",
                r"Umask doc \[um\].",
                r"Enable doc \[EN\].",
                r"Value doc \[0\].",
                r"Value doc \[1\] \<b>.",
                r"Inv doc \[INV\].",
                r"Cmask doc \[CMASK\].",
                r"Array doc \[i\].",
                r"Split doc \[s\].",
                r"Status doc \[ro\].",
                r"Status field doc \[0\].",
                r"Reset doc \[w1c\].",
                r"Clear field doc \[0\].",
                r"Leaf doc \[A\].",
                r"Leaf manual \[0AH\]",
                r"CPUID field doc \[v\].",
                r"CPUID value doc \[1\].",
                r"Constraint message INV\[23\] \<n>",
                r"Constraint manual \[5\]",
                r"Event doc \[c\] \<n>.",
            ] {
                assert!(
                    docs.iter().any(|d| d.contains(want)),
                    "no generated doc contains {want:?}"
                );
            }
            assert_clean(&docs);
        }
    }
}

/// The rustdoc of each element of a field array is exact for that element: its own bits
/// (the first element's shifted by the stride) and, for a per-counter array, the counter it
/// belongs to. Checked for every array field of every architectural generation, against
/// the checked-in generated code.
#[test]
fn array_element_docs_give_the_elements_own_bits_and_counter() {
    use pmu_defs::model::CounterKind;
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    // `generated.rs` and the files of the gated generations (microarchitectures, models).
    let files = pmu_codegen::render_split(&loaded.model, &pmu_codegen::Options::internal())
        .expect("generate and format");
    let code: String = files.into_iter().map(|(_, text)| text).collect();
    let mut checked = 0;
    for g in loaded
        .model
        .generations
        .iter()
        .filter(|g| g.cpus.is_empty())
    {
        for r in &g.registers {
            for f in r
                .fields
                .iter()
                .filter(|f| f.array.is_some() && f.bits.len() == 1)
            {
                let a = f.array.unwrap();
                for i in 0..a.count {
                    let lsb = f.bits[0].lsb + a.stride * i;
                    let bits = if f.width == 1 {
                        format!("bit {lsb}")
                    } else {
                        format!("bits {}:{lsb}", lsb + f.width - 1)
                    };
                    let counter = match f.per_counter {
                        Some(CounterKind::General) => format!(", general-purpose counter {i}"),
                        Some(CounterKind::Fixed) => format!(", fixed counter {i}"),
                        None => String::new(),
                    };
                    let want = format!("`{}` element {i} of {}{counter}: {bits},", f.name, a.count);
                    assert!(code.contains(&want), "{} {}: no doc `{want}`", g.id, r.name);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "{checked}");
    // The old, inexact wording is gone.
    assert!(
        !code.contains("per element, "),
        "an element doc still gives element 0's bits"
    );
}

/// A register module's `Instance` and `Indexed<N>` are the generic `access` types over its
/// marker type: the addresses, the index (of either range of an `alias-msr:` register), the
/// alias flag, equality and `Debug` all come from the register's `MsrDef` impl.
#[test]
fn typed_msrs_are_the_generic_access_types() {
    use pmu_regs::access::Msr;
    use pmu_regs::intel::v2::IA32_PERF_GLOBAL_CTRL;
    use pmu_regs::intel::v6::IA32_PMC;
    use std::collections::HashSet;

    let last = IA32_PMC::INSTANCES - 1;
    let m = IA32_PMC::msr::<3>();
    assert_eq!(m.address(), IA32_PMC::ADDRESSES[3]);
    assert_eq!(Msr::address(m), IA32_PMC::ADDRESSES[3]);
    let own: IA32_PMC::Instance = m.into();
    assert_eq!((own.index(), own.is_alias()), (3, false));
    let alias = IA32_PMC::try_alias_msr(3).unwrap();
    assert_eq!(alias.address(), IA32_PMC::ALIAS_ADDRESSES[3]);
    assert_eq!((alias.index(), alias.is_alias()), (3, true));
    let back = IA32_PMC::try_msr(last).unwrap();
    assert_eq!((back.index(), back.is_alias()), (last, false));
    assert!(IA32_PMC::try_msr(IA32_PMC::INSTANCES).is_none());
    // Two addresses of one counter are two MSRs.
    let set: HashSet<IA32_PMC::Instance> = [own, alias, IA32_PMC::try_msr(3).unwrap()].into();
    assert_eq!(set.len(), 2);
    assert_eq!(
        format!("{own:?}"),
        format!("IA32_PMC::Instance({:#x})", IA32_PMC::ADDRESSES[3])
    );
    assert_eq!(format!("{m:?}"), "IA32_PMC::Indexed<3>");
    assert_eq!(m, IA32_PMC::msr::<3>());
    // A single register: index 0, no alias.
    let g = IA32_PERF_GLOBAL_CTRL::MSR;
    assert_eq!(
        (g.address(), g.index(), g.is_alias()),
        (IA32_PERF_GLOBAL_CTRL::ADDRESS, 0, false)
    );
}

/// A generation without counters is a facility, behind a feature of its own, only when no
/// generation with counters extends it: the base of an architectural chain (a vendor's
/// capability registers, extended by its first version with counters) stays compiled, and
/// so does the chain.
#[test]
fn a_chain_base_without_counters_is_not_gated() {
    const BASE: &str = r#"
generation: acme-base
vendor: intel
title: Capabilities only
manual: Acme manual
doc: The capability register the counters' generations extend.
registers:
  - name: ACME_CAPS
    doc: Capabilities.
    manual: Acme manual
    msr: 0x345
    access: read-only
    fields:
      - { name: WIDTH, bits: "5:0", doc: "Counter width." }
"#;
    const V1: &str = r#"
generation: acme-v1
vendor: intel
extends: acme-base
title: Counters
manual: Acme manual
doc: The first generation with counters.
pmu:
  encoding: { event: EVENT_SELECT, umask: UMASK, en: EN }
registers:
  - name: ACME_CTR
    doc: Counter.
    manual: Acme manual
    msr: { base: 0x100, count: 2, stride: 1 }
    role: counter
    fields:
      - { name: COUNT, bits: "47:0", doc: "Count." }
  - name: ACME_SEL
    doc: Select.
    manual: Acme manual
    msr: { base: 0x200, count: 2, stride: 1 }
    role: event-select
    fields:
      - { name: EVENT_SELECT, bits: "7:0", doc: "Event." }
      - { name: UMASK, bits: "15:8", doc: "Unit mask." }
      - { name: EN, bits: 22, doc: "Enable." }
"#;
    const LONE: &str = r#"
generation: acme-energy
vendor: intel
title: Energy counters
manual: Acme manual
doc: A facility of its own.
registers:
  - name: ACME_PKG_ENERGY
    doc: Energy.
    manual: Acme manual
    msr: 0x611
    access: read-only
    fields:
      - { name: ENERGY, bits: "31:0", doc: "Energy." }
"#;
    let mut loader = pmu_defs::Loader::new();
    loader.add_str("base.yaml", BASE);
    loader.add_str("v1.yaml", V1);
    loader.add_str("energy.yaml", LONE);
    let loaded = loader.finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let model = &loaded.model;
    let gated = |id: &str| pmu_codegen::is_gated(model, model.generation(id).unwrap());
    assert!(!gated("acme-base"), "the base of a chain with counters");
    assert!(!gated("acme-v1"));
    assert!(gated("acme-energy"), "a facility");
    let features: Vec<String> = (pmu_codegen::features(model).into_iter())
        .map(|f| f.name)
        .collect();
    assert_eq!(features, ["acme-energy"]);
}
