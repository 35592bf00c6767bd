//! The shape of the repository, checked: every crate meant for crates.io can be published
//! (metadata, versioned path dependencies, a package under crates.io's size limit), no file
//! name breaks a clone on Windows, and hand-written Rust files stay short enough to read.
//!
//! `.ci/run` also runs `cargo publish --dry-run --workspace`, which builds each packaged crate
//! against the others as crates.io would; these tests say which rule broke, and run with the
//! README's test command.

use pmu_defs::model::Vendor;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.current_dir(root());
    c
}

/// `cargo metadata` of the workspace (no dependencies resolved: only the members matter).
fn metadata() -> Value {
    let out = cargo()
        .args(["metadata", "--format-version=1", "--no-deps", "--offline"])
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

/// The workspace members that may be published (`publish` not `false`).
fn publishable(meta: &Value) -> Vec<&Value> {
    meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["publish"].as_array().is_none_or(|r| !r.is_empty()))
        .collect()
}

fn git_files() -> Vec<String> {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root())
        .output()
        .expect("git ls-files runs");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .split('\0')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Device names Windows reserves in every folder, with any extension (`aux.rs` included):
/// a checkout holding one fails there, and cargo refuses to package it.
fn windows_reserved(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    matches!(stem.as_str(), "con" | "prn" | "aux" | "nul")
        || ((stem.starts_with("com") || stem.starts_with("lpt"))
            && stem.len() == 4
            && stem.as_bytes()[3].is_ascii_digit()
            && stem.as_bytes()[3] != b'0')
}

#[test]
fn no_file_name_windows_reserves() {
    let bad: Vec<String> = git_files()
        .into_iter()
        .filter(|f| f.split('/').any(windows_reserved))
        .collect();
    assert!(bad.is_empty(), "names Windows reserves: {bad:?}");
}

#[test]
fn the_reserved_name_check_sees_what_it_looks_for() {
    for name in ["aux.rs", "AUX", "con.yaml", "nul", "com1.txt", "LPT9"] {
        assert!(windows_reserved(name), "{name}");
    }
    for name in [
        "aux_msrs.rs",
        "auxiliary.rs",
        "com0",
        "com10",
        "console.rs",
        "null.rs",
    ] {
        assert!(!windows_reserved(name), "{name}");
    }
}

#[test]
fn every_publishable_crate_has_the_metadata_crates_io_shows() {
    let meta = metadata();
    let crates = publishable(&meta);
    assert!(
        crates.iter().any(|p| p["name"] == "pmu-regs"),
        "pmu-regs is publishable"
    );
    let mut missing = BTreeMap::new();
    for p in &crates {
        let name = p["name"].as_str().unwrap();
        let mut m = Vec::new();
        for key in ["description", "license", "repository", "readme"] {
            if p[key].as_str().is_none_or(str::is_empty) {
                m.push(key.to_owned());
            }
        }
        for key in ["keywords", "categories"] {
            if p[key].as_array().is_none_or(Vec::is_empty) {
                m.push(key.to_owned());
            }
        }
        for dep in p["dependencies"].as_array().unwrap() {
            // A path dependency without a version cannot be published; dev-dependencies'
            // are dropped from the package.
            if dep["path"].is_string() && dep["kind"].is_null() && dep["req"] == "*" {
                m.push(format!("a version on the path dependency {}", dep["name"]));
            }
        }
        if !m.is_empty() {
            missing.insert(name.to_owned(), m);
        }
    }
    assert!(missing.is_empty(), "missing: {missing:#?}");
}

/// crates.io refuses a `.crate` file over 10 MiB.
const CRATES_IO_LIMIT: u64 = 10 * 1024 * 1024;

#[test]
fn every_publishable_crate_packages_under_the_size_limit() {
    let meta = metadata();
    let names: Vec<String> = publishable(&meta)
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = cargo();
    cmd.args(["package", "--no-verify", "--allow-dirty", "--offline"])
        .arg("--target-dir")
        .arg(dir.path());
    for n in &names {
        cmd.args(["-p", n]);
    }
    let out = cmd.output().expect("cargo package runs");
    assert!(
        out.status.success(),
        "cargo package failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for n in &names {
        let file = dir
            .path()
            .join("package")
            .join(format!("{n}-{}.crate", env!("CARGO_PKG_VERSION")));
        let size = std::fs::metadata(&file)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
            .len();
        assert!(
            size < CRATES_IO_LIMIT,
            "{n} packages to {size} bytes, over crates.io's limit of {CRATES_IO_LIMIT}"
        );
    }
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// crates.io and GitHub show the README first: it stays a page of usage, the reference lives
/// in `docs/` and the documentation site.
#[test]
fn the_readme_and_architecture_stay_short() {
    for (file, limit) in [("README.md", 15 * 1024), ("ARCHITECTURE.md", 25 * 1024)] {
        let len = read(file).len();
        assert!(
            len <= limit,
            "{file} is {len} bytes, over {limit}: move reference material to docs/"
        );
    }
}

/// Every count the README states is the definitions' count now.
#[test]
fn the_readmes_numbers_are_the_definitions() {
    let loaded = pmu_defs::Loader::new().with_defaults().finish();
    assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
    let model = &loaded.model;
    let grouped = |n: usize| {
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    // CPU-model generations (those with `cpus:`) of a vendor, and the events they list
    // themselves (not those they inherit).
    let models = |vendor: Vendor| {
        let gens: Vec<_> = model
            .generations
            .iter()
            .filter(|g| g.vendor == vendor && !g.cpus.is_empty())
            .collect();
        let events: usize = gens
            .iter()
            .map(|g| g.events.iter().filter(|e| e.since == g.id).count())
            .sum();
        (gens.len(), events)
    };
    let (intel, intel_events) = models(Vendor::Intel);
    let (amd, amd_events) = models(Vendor::Amd);
    let readme = read("README.md")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for phrase in [
        format!(
            "{intel} core types from Nehalem to Nova Lake with {} events",
            grouped(intel_events)
        ),
        format!("{amd} Zen generations with {} events", grouped(amd_events)),
        format!("That is {} generations in all.", model.generations.len()),
    ] {
        assert!(
            readme.contains(&phrase),
            "README.md should say \"{phrase}\" (the definitions' count now)"
        );
    }
}
