//! The YAML layer's limits (size, alias expansion, nesting) and files read from disk
//! (not UTF-8, missing, reached twice through symbolic links); locations in characters and
//! across CRLF line ends.

use super::{
    assert_clean, assert_codes, assert_note, load_raw, load_with, loc, only, spanned_text,
};
use pmu_defs::{Limits, Loader, Severity};
use std::path::{Path, PathBuf};

#[test]
fn yaml_too_large_by_bytes() {
    let text = format!("generation: a\nvendor: intel\ndoc: {}\n", "x".repeat(200));
    assert_eq!(text.len(), 234);
    let loaded = load_with(
        Limits {
            max_bytes: 100,
            ..Default::default()
        },
        &[("big.yaml", &text)],
    );
    assert_codes(&loaded, &["yaml-too-large"]);
    let d = only(&loaded, "yaml-too-large");
    assert_eq!(
        d.message,
        "file is 234 bytes, more than the limit of 100 bytes"
    );
    assert_eq!(loc(&loaded, d), "big.yaml:1:1");
    assert_note(d, "split the definitions into several files");
    // At the limit is fine.
    let exact = load_with(
        Limits {
            max_bytes: text.len(),
            ..Default::default()
        },
        &[("big.yaml", &text)],
    );
    assert_clean(&exact);
}

/// A billion laughs: nine levels of nine aliases each (9^9 = 387 million scalars).
const ALIAS_BOMB: &str = "\
generation: a
vendor: intel
x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]
x1: &a1 [*a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0]
x2: &a2 [*a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1]
x3: &a3 [*a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2]
x4: &a4 [*a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3]
x5: &a5 [*a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4]
x6: &a6 [*a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5]
x7: &a7 [*a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6]
x8: &a8 [*a7, *a7, *a7, *a7, *a7, *a7, *a7, *a7, *a7]
";

#[test]
fn yaml_too_large_alias_bomb_ends_quickly() {
    // The test completing is the check (no timing assertion): the expansion stops at the
    // budget of a 500-byte file, 65,536 nodes, not at 387 million.
    let loaded = load_raw(&[("bomb.yaml", ALIAS_BOMB)]);
    assert_codes(&loaded, &["yaml-too-large"]);
    let d = only(&loaded, "yaml-too-large");
    assert_eq!(
        d.message,
        format!(
            "YAML expands to more than 65536 nodes, the limit for a file of {} bytes",
            ALIAS_BOMB.len()
        )
    );
    // x0..x3 hold 10 + 91 + 820 + 7,381 nodes; x4's aliases of `a3` (7,381 each) cross
    // 65,536 at the ninth (line 7).
    assert!(
        loc(&loaded, d).starts_with("bomb.yaml:7:"),
        "{}",
        loc(&loaded, d)
    );
    assert_eq!(spanned_text(&loaded, d), "*a3");
    assert_eq!(d.labels[0].message, "node limit reached here");
    assert_note(
        d,
        "aliases are expanded in place; nested aliases multiply (an \"alias bomb\")",
    );
    assert_note(
        d,
        "a file may have 65536 nodes plus 256 per KiB, at most 4000000",
    );
}

/// A large file without aliases gets the same limit, relative to its size, and a message
/// that does not talk about aliases.
#[test]
fn yaml_too_large_without_aliases() {
    let limits = Limits {
        min_nodes: 10,
        nodes_per_kib: 16,
        ..Default::default()
    };
    let items = vec!["0"; 1000].join(", ");
    let text = format!("generation: a\nvendor: intel\ndoc: [{items}]\n");
    let budget = 10 + text.len() / 1024 * 16;
    let loaded = load_with(limits, &[("flat.yaml", &text)]);
    let d = only(&loaded, "yaml-too-large");
    assert_eq!(
        d.message,
        format!(
            "YAML has more than {budget} nodes, the limit for a file of {} bytes",
            text.len()
        )
    );
    assert_note(d, "split the definitions into several files");
    assert!(
        d.notes.iter().all(|n| !n.contains("alias")),
        "{:?}",
        d.notes
    );
    // The same list is fine within the default budget.
    assert!(
        !load_raw(&[("flat.yaml", &text)])
            .diagnostics
            .iter()
            .any(|d| d.code == "yaml-too-large")
    );
}

#[test]
fn yaml_too_large_alias_bomb_small_limit() {
    let loaded = load_with(
        Limits {
            max_nodes: 100,
            ..Default::default()
        },
        &[("bomb.yaml", ALIAS_BOMB)],
    );
    let d = only(&loaded, "yaml-too-large");
    assert_eq!(
        d.message,
        format!(
            "YAML expands to more than 100 nodes, the limit for a file of {} bytes",
            ALIAS_BOMB.len()
        )
    );
    // 4 + 10 (x0) + 2 + 9 * 10 (x1) = 106 > 100: the ninth `*a0` crosses the limit.
    assert_eq!(loc(&loaded, d), "bomb.yaml:4:50");
    assert_eq!(spanned_text(&loaded, d), "*a0");
}

#[test]
fn yaml_too_deep() {
    let text = format!(
        "generation: a\nvendor: intel\ndoc: {}{}\n",
        "[".repeat(100),
        "]".repeat(100)
    );
    let loaded = load_raw(&[("deep.yaml", &text)]);
    assert_codes(&loaded, &["yaml-too-deep"]);
    let d = only(&loaded, "yaml-too-deep");
    assert_eq!(d.message, "YAML nests deeper than 64 levels");
    // The root mapping is level 1, so the 64th `[` (column 6 + 63) is level 65.
    assert_eq!(loc(&loaded, d), "deep.yaml:3:69");

    let loaded = load_with(
        Limits {
            max_depth: 3,
            ..Default::default()
        },
        &[(
            "deep.yaml",
            r#"
            generation: a
            vendor: intel
            registers:
              - name: R
                msr: 1
                fields:
                  - { name: F, bits: 0 }
            "#,
        )],
    );
    let d = only(&loaded, "yaml-too-deep");
    assert_eq!(d.message, "YAML nests deeper than 3 levels");
    // Root mapping, `registers`, the register: the `fields` sequence (its first `-`) is level 4.
    assert_eq!(loc(&loaded, d), "deep.yaml:7:7");
}

/// A scratch directory for files read from disk, unique to one test.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("diagnostics")
        .join(test);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn not_utf8() {
    let dir = scratch("not_utf8");
    let path = dir.join("bad-utf8.yaml");
    // 14 + 14 + 7 bytes precede the invalid byte: offset 35, line 3, column 8.
    std::fs::write(&path, b"generation: a\nvendor: intel\ndoc: ab\xFFcd\n").unwrap();
    let mut loader = Loader::new();
    loader.add_file(&path);
    let loaded = loader.finish();
    assert_codes(&loaded, &["not-utf8"]);
    let d = only(&loaded, "not-utf8");
    assert_eq!(d.message, "file is not valid UTF-8: byte 0xFF at offset 35");
    let at = loc(&loaded, d);
    assert!(at.ends_with("bad-utf8.yaml:3:8"), "{at}");
    assert_eq!(d.labels[0].message, "invalid byte here");
    assert_note(d, "help: definition files must be UTF-8 encoded");
    assert_eq!(loaded.paths, vec![path.clone()]);
    // Rendering shows the line with the byte replaced.
    let rendered = loaded.render_diagnostics();
    assert!(rendered.contains("doc: ab\u{FFFD}cd"), "{rendered}");

    // Columns count characters: `§` is two bytes, one column.
    let path = dir.join("bad-after-multibyte.yaml");
    std::fs::write(
        &path,
        "generation: a\nvendor: intel\ndoc: §\u{0}".as_bytes(),
    )
    .unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    *bytes.last_mut().unwrap() = 0xC0;
    std::fs::write(&path, &bytes).unwrap();
    let mut loader = Loader::new();
    loader.add_file(&path);
    let loaded = loader.finish();
    let d = only(&loaded, "not-utf8");
    assert_eq!(d.message, "file is not valid UTF-8: byte 0xC0 at offset 35");
    let at = loc(&loaded, d);
    assert!(at.ends_with("bad-after-multibyte.yaml:3:7"), "{at}");
}

#[test]
fn io_error_for_a_missing_file() {
    let path = scratch("io").join("does-not-exist.yaml");
    let mut loader = Loader::new();
    loader.add_file(&path);
    let loaded = loader.finish();
    assert_codes(&loaded, &["io"]);
    let d = only(&loaded, "io");
    assert!(d.message.starts_with("cannot read file: "), "{}", d.message);
    let at = loc(&loaded, d);
    assert!(at.ends_with("does-not-exist.yaml:1:1"), "{at}");
}

/// Two links to `.` and one to a parent: each directory is read once (not 2^depth paths), the
/// file once, and each link is one warning at its path.
#[cfg(unix)]
#[test]
fn repeated_directory_through_symbolic_links() {
    let dir = scratch("repeated_directory");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(
        dir.join("sub/a.yaml"),
        "generation: a\nvendor: intel\ntitle: A\n",
    )
    .unwrap();
    for (link, to) in [("l1", "."), ("l2", "."), ("sub/up", "..")] {
        std::os::unix::fs::symlink(to, dir.join(link)).unwrap();
    }
    let mut loader = Loader::new();
    loader.add_path(&dir);
    let loaded = loader.finish();
    assert_codes(
        &loaded,
        &[
            "repeated-directory",
            "repeated-directory",
            "repeated-directory",
        ],
    );
    assert_eq!(loaded.model.generations.len(), 1);
    assert_eq!(loaded.paths.len(), 1, "{:?}", loaded.paths);
    let d = &loaded.diagnostics[0];
    assert_eq!(d.severity, Severity::Warning);
    assert!(
        loc(&loaded, d).ends_with("repeated_directory/l1:1:1"),
        "{}",
        loc(&loaded, d)
    );
    assert!(
        d.message.starts_with("a symbolic link to `")
            && d.message
                .ends_with("a directory that contains it (a cycle); not read again"),
        "{}",
        d.message
    );
}

#[test]
fn locations_count_characters_and_survive_crlf() {
    let loaded = load_raw(&[(
        "a.yaml",
        "generation: a\nvendor: intel\nregisters:\n  - { doc: \"§§ü\", name: X, msr: 1, bogus: 1 }\n",
    )]);
    let d = only(&loaded, "unknown-key");
    assert_eq!(loc(&loaded, d), "a.yaml:4:36");
    assert_eq!(spanned_text(&loaded, d), "bogus");

    let loaded = load_raw(&[("a.yaml", "generation: a\r\nvendor: intel\r\nbogus: 1\r\n")]);
    let d = only(&loaded, "unknown-key");
    assert_eq!(loc(&loaded, d), "a.yaml:3:1");
}
