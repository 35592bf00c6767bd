//! Compile-time rejection suite (issue 3 §4): every misuse the generated API turns into a
//! compile error has a case under `tests/ui/<topic>/` with the reviewed compiler output in
//! the `.stderr` beside it; `tests/ui/pass/` holds programs that use the whole API and must
//! build and run.
//!
//! The `.stderr` files belong to the pinned toolchain (rust-toolchain.toml: 1.95.0): another
//! compiler version words and lays out diagnostics differently. After a toolchain bump, run
//! `TRYBUILD=overwrite cargo test -p tests --test ui`, then read every changed `.stderr`
//! (`git diff tests/ui`) before committing: each must still state the problem in the user's
//! terms.
//!
//! Because pass cases exist, trybuild runs `cargo build` rather than `cargo check`, so errors
//! raised while monomorphizing (`IA32_PERFEVTSEL::address::<8>()` in a non-const function)
//! are reported too.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("ui/pass/*.rs");
    for topic in [
        "field_other_register",
        "too_wide",
        "constraint",
        "generation",
        "read_only",
        "reserved",
        "index",
        "event_placement",
        "set_twice",
        "proc_macro",
        "event_family",
        "placement",
        "instances",
        "deprecated",
    ] {
        t.compile_fail(format!("ui/{topic}/*.rs"));
        // The programs that must build beside the cases of a topic.
        let pass = format!("ui/{topic}/pass");
        if std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(&pass)
            .is_dir()
        {
            t.pass(format!("{pass}/*.rs"));
        }
    }
}
