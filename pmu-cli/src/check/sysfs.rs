//! What Linux says about a perf PMU in sysfs, as plain data: [`SysfsPmu`] holds the text of
//! `/sys/bus/event_source/devices/<pmu>/{type,format/*,events/*}`, read from any root (the
//! live `/sys`, or a recorded tree in the tests), and the parsers of those files:
//!
//! * a `format/<term>` file ([`Format::parse`]): the `perf_event_attr` word and the bits a
//!   term occupies, `config:0-7,32-35`, `config:18`, `config1:0-63`;
//! * an `events/<name>` file ([`parse_terms`]): `event=0xcd,umask=0x1,ldlat=3`, which
//!   [`encode_terms`] places in `config`/`config1`/`config2` through the formats, as perf does.
//!
//! Nothing here panics on what a file holds: every problem is an error naming the file and
//! why.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where Linux lists its perf PMUs.
pub const LIVE_ROOT: &str = "/sys/bus/event_source/devices";

/// The names Linux gives the core PMU: `cpu`, or on a hybrid part one per core type.
pub const CORE_PMUS: [&str; 4] = ["cpu", "cpu_core", "cpu_atom", "cpu_lowpower"];

/// One perf PMU as sysfs describes it: its files' text, unparsed (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SysfsPmu {
    /// Its name (the directory's: `cpu`, `cpu_core`, ...).
    pub name: String,
    /// The directory it was read from, for messages.
    pub dir: PathBuf,
    /// `perf_event_attr.type` for its events (the `type` file).
    pub type_: u32,
    /// `format/*`: each term's name and the file's text (`config:0-7`), by name.
    pub formats: Vec<(String, String)>,
    /// `events/*`: each event's name and the file's text (`event=0x3c`), by name; the
    /// metadata files beside them (`topdown-retiring.scale`, `.unit`) are left out.
    pub events: Vec<(String, String)>,
}

/// A file that could not be read or does not say what it should: its path and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SysfsError {
    /// The file or directory.
    pub path: PathBuf,
    /// Why.
    pub why: String,
}

impl fmt::Display for SysfsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.why)
    }
}

impl std::error::Error for SysfsError {}

impl SysfsPmu {
    /// Reads PMU `name` under `root` (a directory laid out as [`LIVE_ROOT`]). The `type` file
    /// must hold a number; `format/` and `events/` may be missing (read as empty).
    pub fn read(root: &Path, name: &str) -> Result<SysfsPmu, SysfsError> {
        let dir = root.join(name);
        let type_path = dir.join("type");
        let text = read_text(&type_path)?;
        let type_ = text.trim().parse::<u32>().map_err(|_| SysfsError {
            path: type_path.clone(),
            why: format!("`{}` is not a PMU type number", clip(text.trim())),
        })?;
        Ok(SysfsPmu {
            name: name.to_owned(),
            type_,
            formats: read_dir_files(&dir.join("format"))?,
            events: read_dir_files(&dir.join("events"))?
                .into_iter()
                .filter(|(n, _)| !n.contains('.'))
                .collect(),
            dir,
        })
    }

    /// The path of `format/<term>` or `events/<name>`, for messages.
    pub fn file(&self, kind: &str, name: &str) -> PathBuf {
        self.dir.join(kind).join(name)
    }

    /// Every format, parsed; the files that do not parse as errors (path and why).
    pub fn parsed_formats(&self) -> (Vec<(String, Format)>, Vec<SysfsError>) {
        let mut good = Vec::new();
        let mut bad = Vec::new();
        for (term, text) in &self.formats {
            match Format::parse(text) {
                Ok(f) => good.push((term.clone(), f)),
                Err(why) => bad.push(SysfsError {
                    path: self.file("format", term),
                    why,
                }),
            }
        }
        (good, bad)
    }
}

/// The core PMUs ([`CORE_PMUS`]) that `root` lists.
pub fn core_pmus(root: &Path) -> Vec<&'static str> {
    CORE_PMUS
        .into_iter()
        .filter(|n| root.join(n).join("type").is_file())
        .collect()
}

/// A sysfs file's text (they are short: 64 KiB at most is read).
fn read_text(path: &Path) -> Result<String, SysfsError> {
    use std::io::Read as _;
    let err = |why: String| SysfsError {
        path: path.to_owned(),
        why,
    };
    let file = std::fs::File::open(path).map_err(|e| err(e.to_string()))?;
    let mut bytes = Vec::new();
    (file.take(64 * 1024).read_to_end(&mut bytes)).map_err(|e| err(e.to_string()))?;
    String::from_utf8(bytes).map_err(|_| err("not UTF-8 text".to_owned()))
}

/// Every file of `dir` with its text, by name; a missing directory is empty.
fn read_dir_files(dir: &Path) -> Result<Vec<(String, String)>, SysfsError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(SysfsError {
                path: dir.to_owned(),
                why: e.to_string(),
            });
        }
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_file() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        out.push((name, read_text(&path)?.trim().to_owned()));
    }
    out.sort();
    Ok(out)
}

/// At most 60 characters of `s`, for messages that echo a file.
fn clip(s: &str) -> String {
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_owned(),
    }
}

/// A `format/<term>` file: which `perf_event_attr` word (`config` = 0, `config1` = 1, ...)
/// and which bits of it, as inclusive ranges in the order the file lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Format {
    /// 0 for `config`, 1 for `config1`, 2 for `config2`, 3 for `config3`.
    pub word: u8,
    /// Inclusive bit ranges (`0-7,32-35` → `[(0, 7), (32, 35)]`).
    pub ranges: Vec<(u32, u32)>,
}

impl Format {
    /// Parses `config:0-7,32-35`, `config:18`, `config1:0-63`.
    pub fn parse(text: &str) -> Result<Format, String> {
        let text = text.trim();
        let (word, bits) = text
            .split_once(':')
            .ok_or_else(|| format!("`{}` has no `:` (expected `config:0-7`)", clip(text)))?;
        let word = word_index(word.trim()).ok_or_else(|| {
            format!(
                "`{}` is not config, config1, config2 or config3",
                clip(word)
            )
        })?;
        let mut ranges = Vec::new();
        for part in bits.split(',') {
            ranges.push(parse_range(part.trim())?);
        }
        Ok(Format { word, ranges })
    }

    /// The word's name: `config`, `config1`, ...
    pub fn word_name(&self) -> &'static str {
        ["config", "config1", "config2", "config3"][usize::from(self.word.min(3))]
    }

    /// The bits, as perf fills them: ascending, adjacent ranges merged.
    pub fn runs(&self) -> Vec<(u32, u32)> {
        let mut r = self.ranges.clone();
        r.sort_unstable();
        merge(r)
    }

    /// The bits it covers.
    pub fn mask(&self) -> u64 {
        self.ranges
            .iter()
            .fold(0, |m, &(lo, hi)| m | range_mask(lo, hi))
    }

    /// `value` placed in the format's bits, low bits in the lowest bits first (perf's
    /// `pmu_format_value`); an error when the value has more bits than the format.
    pub fn place(&self, value: u64) -> Result<u64, String> {
        let mut out = 0u64;
        let mut rest = value;
        for (lo, hi) in self.runs() {
            let width = hi - lo + 1;
            let part = if width >= 64 {
                rest
            } else {
                rest & ((1 << width) - 1)
            };
            out |= part << lo;
            rest = if width >= 64 { 0 } else { rest >> width };
        }
        if rest != 0 {
            return Err(format!("{value:#x} does not fit {}", self));
        }
        Ok(out)
    }
}

impl fmt::Display for Format {
    /// As sysfs writes it: `config:0-7,32-35`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.word_name())?;
        for (i, (lo, hi)) in self.ranges.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            if lo == hi {
                write!(f, "{sep}{lo}")?;
            } else {
                write!(f, "{sep}{lo}-{hi}")?;
            }
        }
        Ok(())
    }
}

/// Inclusive ranges, sorted, with touching ranges joined.
pub fn merge(sorted: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for (lo, hi) in sorted {
        match out.last_mut() {
            Some(last) if lo <= last.1 + 1 => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

/// The mask of bits `lo..=hi` (both below 64).
pub fn range_mask(lo: u32, hi: u32) -> u64 {
    let ones = if hi - lo >= 63 {
        u64::MAX
    } else {
        (1u64 << (hi - lo + 1)) - 1
    };
    ones << lo
}

fn word_index(word: &str) -> Option<u8> {
    match word {
        "config" => Some(0),
        "config1" => Some(1),
        "config2" => Some(2),
        "config3" => Some(3),
        _ => None,
    }
}

/// `7` or `0-7`, within bits 0 to 63, low end first.
fn parse_range(part: &str) -> Result<(u32, u32), String> {
    let bit = |s: &str| {
        s.trim()
            .parse::<u32>()
            .ok()
            .filter(|&b| b < 64)
            .ok_or_else(|| format!("`{}` is not a bit number (0 to 63)", clip(s.trim())))
    };
    let (lo, hi) = match part.split_once('-') {
        Some((lo, hi)) => (bit(lo)?, bit(hi)?),
        None => (bit(part)?, bit(part)?),
    };
    if lo > hi {
        return Err(format!("`{part}`: the range runs backwards"));
    }
    Ok((lo, hi))
}

/// The terms of an `events/<name>` file: `event=0xcd,umask=0x1,ldlat=3` → `[("event", 0xcd),
/// ("umask", 1), ("ldlat", 3)]`. A term without a value is 1 (`edge`), as in perf. Numbers are
/// decimal or `0x` hex.
pub fn parse_terms(text: &str) -> Result<Vec<(String, u64)>, String> {
    let mut out: Vec<(String, u64)> = Vec::new();
    for term in text.trim().split(',').map(str::trim) {
        if term.is_empty() {
            continue;
        }
        let (key, value) = match term.split_once('=') {
            Some((k, v)) => (k.trim(), number(v.trim())?),
            None => (term, 1),
        };
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(format!("`{}` is not a term name", clip(key)));
        }
        if out.iter().any(|(k, _)| k == key) {
            return Err(format!("term `{key}` given twice"));
        }
        out.push((key.to_owned(), value));
    }
    if out.is_empty() {
        return Err("no terms".to_owned());
    }
    Ok(out)
}

fn number(s: &str) -> Result<u64, String> {
    let parsed = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => s.parse::<u64>(),
    };
    parsed.map_err(|_| format!("`{}` is not a number", clip(s)))
}

/// `terms` placed through `formats` into `[config, config1, config2, config3]`, as perf does:
/// each term in its format's bits, `config=`/`config1=`/`config2=` as given.
pub fn encode_terms(
    formats: &[(String, Format)],
    terms: &[(String, u64)],
) -> Result<[u64; 4], String> {
    let mut words = [0u64; 4];
    for (key, value) in terms {
        if let Some(i) = word_index(key) {
            words[usize::from(i)] |= value;
            continue;
        }
        let Some((_, format)) = formats.iter().find(|(t, _)| t == key) else {
            return Err(format!("term `{key}` has no format/{key} file"));
        };
        words[usize::from(format.word)] |=
            format.place(*value).map_err(|e| format!("{key}: {e}"))?;
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_parse_and_place_values_as_perf_does() {
        let amd = Format::parse("config:0-7,32-35").unwrap();
        assert_eq!(amd.mask(), 0xF_0000_00FF);
        assert_eq!(amd.place(0x1C2).unwrap(), 0x1_0000_00C2);
        assert!(amd.place(0x1000).is_err());
        assert_eq!(amd.to_string(), "config:0-7,32-35");
        let ldlat = Format::parse("config1:0-15\n").unwrap();
        assert_eq!((ldlat.word, ldlat.word_name()), (1, "config1"));
        assert_eq!(
            Format::parse("config1:0-63").unwrap().place(u64::MAX),
            Ok(u64::MAX)
        );
        assert_eq!(Format::parse("config:18").unwrap().ranges, [(18, 18)]);
        for bad in [
            "config",
            "conf:0-7",
            "config:7-0",
            "config:0-64",
            "config:x",
        ] {
            assert!(Format::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn event_terms_parse_and_encode_through_the_formats() {
        let terms = parse_terms("event=0xcd,umask=0x1,ldlat=3").unwrap();
        assert_eq!(terms[2], ("ldlat".to_owned(), 3));
        let formats: Vec<(String, Format)> = [
            ("event", "config:0-7"),
            ("umask", "config:8-15"),
            ("ldlat", "config1:0-15"),
        ]
        .iter()
        .map(|(t, f)| (t.to_string(), Format::parse(f).unwrap()))
        .collect();
        assert_eq!(encode_terms(&formats, &terms).unwrap(), [0x1CD, 3, 0, 0]);
        let missing = parse_terms("event=0x3c,in_tx=1").unwrap();
        assert!(
            encode_terms(&formats, &missing)
                .unwrap_err()
                .contains("in_tx")
        );
        assert_eq!(parse_terms("edge").unwrap(), [("edge".to_owned(), 1)]);
        for bad in ["", "event=zz", "event=1,event=2", "a b=1"] {
            assert!(parse_terms(bad).is_err(), "{bad}");
        }
    }
}
