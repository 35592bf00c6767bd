//! Typed reads from located YAML nodes, reporting into [`Diagnostics`] and going on.
//!
//! Each reader returns `Option<T>`: `None` means "an error was reported, skip this value".
//! Nothing here stops at the first problem.

use crate::diag::{Diagnostic, Diagnostics};
use crate::load::yaml::{Key, Kind, Node, Style};
use crate::source::Span;

/// A value with the span it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it is written.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// Pairs a value with its span.
    pub fn new(value: T, span: Span) -> Self {
        Spanned { value, span }
    }
}

impl<T> std::ops::Deref for Spanned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

/// The decoding context: the diagnostics sink.
#[derive(Debug)]
pub struct Cx<'a> {
    /// Where problems go.
    pub diags: &'a mut Diagnostics,
}

/// Words YAML 1.1 (PyYAML, many editors, older serde_yaml) reads as booleans.
const YAML11_BOOLS: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
    "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF",
];

/// Longest word (and candidate), in bytes, [`did_you_mean`] compares: a typo of a longer
/// name is not worth the quadratic comparison.
pub const SUGGEST_MAX_LEN: usize = 128;

/// The closest candidate to `word`, when it is close enough to be a likely typo.
///
/// Candidates whose length is far from the word's (the longer more than twice the shorter
/// plus 3) are skipped without comparing, and nothing is suggested for a word or
/// candidate longer than [`SUGGEST_MAX_LEN`]: each comparison is quadratic in length, so a
/// 30 KB name must not meet thousands of candidates. A typo changes the length by little.
pub fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    if word.len() > SUGGEST_MAX_LEN {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    let near = |c: &str| {
        let (short, long) = (c.len().min(word.len()), c.len().max(word.len()));
        long <= SUGGEST_MAX_LEN && long <= short * 2 + 3
    };
    candidates
        .into_iter()
        .filter(|c| near(c))
        .map(|c| (strsim::jaro_winkler(&lower, &c.to_ascii_lowercase()), c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// A mapping being read: its keys were checked against the allowed set on entry.
#[derive(Debug)]
pub struct MapReader<'n> {
    /// The whole mapping node.
    pub node: &'n Node,
    entries: &'n [(Key, Node)],
}

impl<'n> MapReader<'n> {
    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&'n Node> {
        self.entries
            .iter()
            .find(|(k, _)| k.name == key)
            .map(|(_, v)| v)
    }

    /// The span of `key` itself, if present.
    pub fn key_span(&self, key: &str) -> Option<Span> {
        self.entries
            .iter()
            .find(|(k, _)| k.name == key)
            .map(|(k, _)| k.span)
    }

    /// True when `key` is present.
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

impl Cx<'_> {
    /// Reports an error.
    pub fn error(&mut self, code: &'static str, message: impl Into<String>, span: Span) {
        self.diags.error(code, message, span);
    }

    /// Reports a prepared diagnostic.
    pub fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn expected(&mut self, what: &str, node: &Node) {
        let what = &with_article(what);
        self.push(
            Diagnostic::error(
                "type-mismatch",
                format!("expected {what}, found {}", node.describe()),
                node.span,
            )
            .with_label(format!("expected {what}")),
        );
    }

    /// Opens a mapping whose keys must come from `allowed`; unknown keys are reported with a
    /// suggestion. `what` names the thing for messages ("register", "field").
    pub fn map<'n>(
        &mut self,
        node: &'n Node,
        what: &str,
        allowed: &[&str],
    ) -> Option<MapReader<'n>> {
        let Kind::Map(entries) = &node.kind else {
            self.expected(&format!("a mapping ({what})"), node);
            return None;
        };
        for (k, _) in entries {
            if !allowed.contains(&k.name.as_str()) {
                let mut d = Diagnostic::error(
                    "unknown-key",
                    format!("unknown key `{}` in {what}", k.name),
                    k.span,
                )
                .with_label("not a known key");
                d = match did_you_mean(&k.name, allowed.iter().copied()) {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None => d.with_note(format!("expected one of: {}", allowed.join(", "))),
                };
                self.push(d);
            }
        }
        Some(MapReader { node, entries })
    }

    /// Reports a missing required key.
    pub fn missing(&mut self, m: &MapReader<'_>, key: &str, what: &str) {
        let span = Span {
            end: m.node.span.start,
            ..m.node.span
        };
        self.push(
            Diagnostic::error(
                "missing-key",
                format!("{what} is missing required key `{key}`"),
                span,
            )
            .with_label(format!("this {what} needs `{key}`")),
        );
    }

    /// Requires `key` and reads it with `f`.
    pub fn req<T>(
        &mut self,
        m: &MapReader<'_>,
        key: &str,
        what: &str,
        f: impl FnOnce(&mut Self, &Node) -> Option<T>,
    ) -> Option<T> {
        match m.get(key) {
            Some(n) => f(self, n),
            None => {
                self.missing(m, key, what);
                None
            }
        }
    }

    /// Reads `key` with `f` when present.
    pub fn opt<T>(
        &mut self,
        m: &MapReader<'_>,
        key: &str,
        f: impl FnOnce(&mut Self, &Node) -> Option<T>,
    ) -> Option<T> {
        m.get(key).and_then(|n| f(self, n))
    }

    /// The items of a sequence.
    pub fn seq<'n>(&mut self, node: &'n Node, what: &str) -> Option<&'n [Node]> {
        match &node.kind {
            Kind::Seq(items) => Some(items),
            _ => {
                self.expected(&format!("a sequence of {what}"), node);
                None
            }
        }
    }

    /// Any scalar as text (documentation, free-form conditions).
    pub fn text(&mut self, node: &Node) -> Option<Spanned<String>> {
        match &node.kind {
            Kind::Scalar(s, _) => Some(Spanned::new(s.trim_end().to_owned(), node.span)),
            _ => {
                self.expected("a string", node);
                None
            }
        }
    }

    /// A name: a scalar matching `valid`, never a YAML 1.1 boolean written plain.
    pub fn name(
        &mut self,
        node: &Node,
        what: &str,
        valid: fn(&str) -> bool,
        rule: &str,
    ) -> Option<Spanned<String>> {
        let Kind::Scalar(s, style) = &node.kind else {
            self.expected(what, node);
            return None;
        };
        if *style == Style::Plain && YAML11_BOOLS.contains(&s.as_str()) {
            self.push(
                Diagnostic::error(
                    "yaml11-boolean",
                    format!("`{s}` is a boolean in YAML 1.1, not {}", with_article(what)),
                    node.span,
                )
                .with_label("YAML 1.1 tools read this as true/false")
                .with_help(format!("quote it to keep it a name: '{s}'")),
            );
            return None;
        }
        if !valid(s) {
            self.push(
                Diagnostic::error(
                    "invalid-name",
                    format!("`{s}` is not a valid {what}"),
                    node.span,
                )
                .with_label(format!("a {what} {rule}")),
            );
            return None;
        }
        Some(Spanned::new(s.clone(), node.span))
    }

    /// An unsigned integer: decimal, `0x` hex or `0b` binary, `_` separators allowed.
    pub fn uint(&mut self, node: &Node) -> Option<Spanned<u64>> {
        let Kind::Scalar(s, style) = &node.kind else {
            self.expected("a number", node);
            return None;
        };
        if *style != Style::Plain {
            self.push(
                Diagnostic::error(
                    "type-mismatch",
                    format!("expected a number, found the string \"{s}\""),
                    node.span,
                )
                .with_help("write numbers without quotes"),
            );
            return None;
        }
        match parse_uint(s) {
            Some(v) => Some(Spanned::new(v, node.span)),
            None => {
                let msg = if s.starts_with('-') {
                    format!("`{s}` is negative; only unsigned numbers are allowed here")
                } else {
                    format!("`{s}` is not a number (decimal, 0x hex or 0b binary, up to 64 bits)")
                };
                self.push(Diagnostic::error("invalid-number", msg, node.span));
                None
            }
        }
    }

    /// An unsigned integer no larger than `max`.
    pub fn uint_max(&mut self, node: &Node, max: u64, what: &str) -> Option<Spanned<u64>> {
        let v = self.uint(node)?;
        if v.value > max {
            self.push(
                Diagnostic::error(
                    "out-of-range",
                    format!("{what} {} is larger than the maximum {max}", v.value),
                    v.span,
                )
                .with_label(format!("at most {max}")),
            );
            return None;
        }
        Some(v)
    }

    /// `true` or `false`, and nothing YAML 1.1 would have accepted besides.
    pub fn boolean(&mut self, node: &Node) -> Option<Spanned<bool>> {
        match &node.kind {
            Kind::Scalar(s, Style::Plain) if s == "true" => Some(Spanned::new(true, node.span)),
            Kind::Scalar(s, Style::Plain) if s == "false" => Some(Spanned::new(false, node.span)),
            Kind::Scalar(s, _) if YAML11_BOOLS.contains(&s.as_str()) => {
                self.push(
                    Diagnostic::error(
                        "type-mismatch",
                        format!("`{s}` is not a boolean here"),
                        node.span,
                    )
                    .with_help("write `true` or `false`"),
                );
                None
            }
            _ => {
                self.expected("`true` or `false`", node);
                None
            }
        }
    }

    /// One of a fixed set of words.
    pub fn keyword<T: Copy>(
        &mut self,
        node: &Node,
        what: &str,
        table: &[(&str, T)],
    ) -> Option<Spanned<T>> {
        let Kind::Scalar(s, _) = &node.kind else {
            self.expected(what, node);
            return None;
        };
        if let Some((_, v)) = table.iter().find(|(k, _)| k == s) {
            return Some(Spanned::new(*v, node.span));
        }
        let names: Vec<&str> = table.iter().map(|(k, _)| *k).collect();
        let mut d = Diagnostic::error(
            "invalid-value",
            format!("`{s}` is not a valid {what}"),
            node.span,
        )
        .with_label(format!("expected one of: {}", names.join(", ")));
        if let Some(s) = did_you_mean(s, names.iter().copied()) {
            d = d.with_help(format!("did you mean `{s}`?"));
        }
        self.push(d);
        None
    }

    /// A list of names (e.g. under `remove:`).
    pub fn names(
        &mut self,
        node: &Node,
        what: &str,
        valid: fn(&str) -> bool,
        rule: &str,
    ) -> Vec<Spanned<String>> {
        let Some(items) = self.seq(node, what) else {
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|n| self.name(n, what, valid, rule))
            .collect()
    }
}

/// `what` with "a"/"an" in front, unless it already starts with an article or "the".
fn with_article(what: &str) -> String {
    if what.starts_with("a ")
        || what.starts_with("an ")
        || what.starts_with('`')
        || what.starts_with("the ")
    {
        return what.to_owned();
    }
    let vowel = what
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {what}", if vowel { "an" } else { "a" })
}

/// Parses decimal, `0x`/`0X` hex and `0b` binary with `_` separators.
pub fn parse_uint(s: &str) -> Option<u64> {
    let t = s.trim();
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        (b, 2)
    } else {
        (t, 10)
    };
    if digits.is_empty() || digits.starts_with('_') || digits.ends_with('_') {
        return None;
    }
    let cleaned: String = digits.chars().filter(|&c| c != '_').collect();
    if !cleaned.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u64::from_str_radix(&cleaned, radix).ok()
}

/// Register, field and value names: an ASCII letter, then letters, digits or `_`.
pub fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic())
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
}

/// Rule text for [`is_ident`].
pub const IDENT_RULE: &str = "starts with a letter and holds only letters, digits and `_`";

/// An Intel perfmon core event list named without `.json` (`skylake_core`,
/// `westmereep-dp_core`): letters, digits, `_`, `-` and `.`, starting with a letter or digit.
pub fn is_perfmon_core(s: &str) -> bool {
    let mut c = s.chars();
    s.len() <= 128
        && matches!(c.next(), Some(ch) if ch.is_ascii_alphanumeric())
        && c.all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '-' | '.'))
}

/// Rule text for [`is_perfmon_core`].
pub const PERFMON_CORE_RULE: &str = "is a perfmon file name without `.json`: letters, digits, `_`, `-` and `.`, starting with a letter or digit, at most 128 characters";

/// perf's generic hardware event names (`cpu-cycles`, `stalled-cycles-backend`), without the
/// aliases (`cycles`, `branches`): the definitions spell each one way.
pub fn is_generic_event(s: &str) -> bool {
    pmu_vocab::perf::GenericEvent::ALL
        .iter()
        .any(|g| g.name() == s)
}

/// Rule text for [`is_generic_event`].
pub const GENERIC_RULE: &str = "is one of perf's generic hardware event names: cpu-cycles, instructions, cache-references, cache-misses, branch-instructions, branch-misses, bus-cycles, stalled-cycles-frontend, stalled-cycles-backend, ref-cycles";

/// Generation ids: lowercase letters, digits and `-`, starting with a letter (`intel-v4`).
pub fn is_generation_id(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_lowercase())
        && c.all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-')
}

/// Rule text for [`is_generation_id`].
pub const GENERATION_RULE: &str =
    "starts with a lowercase letter and holds only lowercase letters, digits and `-`";

/// Event names as vendors spell them: letters, digits, `_`, `.`, and the `:` / `=` of Intel's
/// modifier-suffixed names (`MEM_LOAD_RETIRED.L3_MISS`, `UOPS_ISSUED.ANY:c1`).
pub fn is_event_name(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_ascii_alphabetic())
        && c.all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '_' | '.' | ':' | '='))
}

/// Rule text for [`is_event_name`].
pub const EVENT_RULE: &str =
    "starts with a letter and holds only letters, digits, `_`, `.`, `:` and `=`";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(parse_uint("0x3C"), Some(0x3c));
        assert_eq!(parse_uint("0xC001_0200"), Some(0xC001_0200));
        assert_eq!(parse_uint("0b1010"), Some(10));
        assert_eq!(parse_uint("42"), Some(42));
        assert_eq!(parse_uint("0x"), None);
        assert_eq!(parse_uint("-1"), None);
        assert_eq!(parse_uint("0x1_"), None);
        assert_eq!(parse_uint("0x1_0000_0000_0000_0000"), None);
        assert_eq!(parse_uint("12a"), None);
    }

    #[test]
    fn names() {
        assert!(is_ident("IA32_PERFEVTSEL"));
        assert!(!is_ident("1ABC"));
        assert!(!is_ident("A-B"));
        assert!(is_generation_id("intel-v4"));
        assert!(!is_generation_id("Intel-v4"));
        assert!(is_event_name("MEM_LOAD_RETIRED.L3_MISS"));
    }

    #[test]
    fn suggestions() {
        assert_eq!(
            did_you_mean("fileds", ["fields", "name", "doc"]),
            Some("fields")
        );
        assert_eq!(did_you_mean("zzz", ["fields", "name"]), None);
        // Far longer or shorter candidates are not compared; long words get no suggestion.
        assert_eq!(did_you_mean("LLC", ["LLC_MISSES_ALL"]), None);
        assert_eq!(did_you_mean("FIXED_CTRL", ["FIXED"]), Some("FIXED"));
        assert_eq!(
            did_you_mean("LLC_MISES", ["LLC_MISSES", "LLC"]),
            Some("LLC_MISSES")
        );
        let long = "A".repeat(SUGGEST_MAX_LEN + 1);
        assert_eq!(did_you_mean(&long, [long.as_str()]), None);
        let huge = "LLC_MISSES".repeat(3000);
        assert_eq!(did_you_mean(&huge, ["LLC_MISSES"]), None);
    }
}
