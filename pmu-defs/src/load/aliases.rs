//! Search aliases: pairs of terms that name the same thing in register, field and event
//! names (`LLC` and `LONGEST_LAT_CACHE`, `BR` and `BRANCH`), so a search for one finds names
//! written with the other. They live in the definitions, in a file whose top-level key is
//! `aliases:` (the shipped one is `pmu-defs/aliases.yaml`, loaded by
//! [`Loader::with_defaults`](crate::Loader::with_defaults)):
//!
//! ```yaml
//! aliases:
//!   - { short: LLC, long: LONGEST_LAT_CACHE, doc: last-level cache }
//! ```
//!
//! A term is one or more words of `A-Z`/`0-9` joined by `_`. The loader reports a bad term,
//! a pair whose two terms are equal and a pair given twice as `invalid-alias` (an error, at
//! the term), and a pair neither of whose terms occurs in any name of the model as
//! `unused-alias` (a warning, [`crate::validate::aliases::check_used`]). [`keywords`] gives
//! the search terms a name gains.

use crate::diag::Diagnostic;
use crate::load::de::Cx;
use crate::load::yaml::{Kind, Node};
use crate::source::Span;
use serde::Serialize;

/// Keys of an alias file.
pub const FILE_KEYS: &[&str] = &["aliases"];
/// Keys of one alias entry.
pub const ALIAS_KEYS: &[&str] = &["short", "long", "doc"];

/// One pair of terms that mean the same in names.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Alias {
    /// The short term (`LLC`).
    pub short: String,
    /// The long term (`LONGEST_LAT_CACHE`).
    pub long: String,
    /// What the terms stand for.
    pub doc: String,
    /// Where the entry is written.
    #[serde(skip)]
    pub span: Span,
}

/// True when `root` is an alias file: a mapping with `aliases:` and no `generation:`.
pub fn is_alias_file(root: &Node) -> bool {
    match &root.kind {
        Kind::Map(entries) => {
            entries.iter().any(|(k, _)| k.name == "aliases")
                && !entries.iter().any(|(k, _)| k.name == "generation")
        }
        _ => false,
    }
}

/// A term: words of `A-Z0-9` joined by single `_`.
pub fn is_term(s: &str) -> bool {
    !s.is_empty()
        && s.split('_').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        })
}

/// The lower-case words of a name: `LONGEST_LAT_CACHE.MISS` → `longest`, `lat`, `cache`,
/// `miss`.
pub fn words(name: &str) -> Vec<String> {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// True when the words of `term` occur in `name_words`, one after the other.
pub fn occurs(term: &str, name_words: &[String]) -> bool {
    let t = words(term);
    !t.is_empty() && name_words.windows(t.len()).any(|w| w == t.as_slice())
}

/// A search word a name gains from an alias.
#[derive(Clone, Debug, PartialEq)]
pub struct Keyword {
    /// The word, lower case.
    pub word: String,
    /// How many of the name's own words it stands for: the words of the term found in the
    /// name, shared among the words of the other term (`llc` stands for the three words of
    /// `LONGEST_LAT_CACHE`; each of `longest`, `lat`, `cache` for a third of `LLC`).
    pub covers: f64,
}

/// The search words a name gains from the aliases: the words of the other term of every
/// pair one of whose terms occurs in it, each with the share of the name it stands for.
pub fn keywords(aliases: &[Alias], name: &str) -> Vec<Keyword> {
    let have = words(name);
    let mut out: Vec<Keyword> = Vec::new();
    for a in aliases {
        let (found, other) = if occurs(&a.long, &have) {
            (&a.long, &a.short)
        } else if occurs(&a.short, &have) {
            (&a.short, &a.long)
        } else {
            continue;
        };
        let other = words(other);
        let covers = words(found).len() as f64 / other.len() as f64;
        for w in other {
            if !have.contains(&w) && !out.iter().any(|k| k.word == w) {
                out.push(Keyword { word: w, covers });
            }
        }
    }
    out
}

impl Cx<'_> {
    /// Reads an alias file (see the module docs).
    pub fn aliases(&mut self, root: &Node) -> Vec<Alias> {
        let Some(m) = self.map(root, "alias file", FILE_KEYS) else {
            return Vec::new();
        };
        let Some(items) = m.get("aliases").and_then(|n| self.seq(n, "aliases")) else {
            return Vec::new();
        };
        let mut out: Vec<Alias> = Vec::new();
        for item in items {
            let Some(m) = self.map(item, "alias", ALIAS_KEYS) else {
                continue;
            };
            let short = self.req(&m, "short", "alias", |c, n| c.alias_term(n));
            let long = self.req(&m, "long", "alias", |c, n| c.alias_term(n));
            let doc = self.opt(&m, "doc", Self::text);
            let (Some(short), Some(long)) = (short, long) else {
                continue;
            };
            if short.value == long.value {
                self.push(
                    Diagnostic::error(
                        "invalid-alias",
                        format!("alias `{}` names itself", short.value),
                        long.span,
                    )
                    .with_label("same as `short`")
                    .with_help("an alias pairs two different spellings of one thing"),
                );
                continue;
            }
            if let Some(first) = out
                .iter()
                .find(|a| a.short == short.value && a.long == long.value)
            {
                self.push(
                    Diagnostic::error(
                        "invalid-alias",
                        format!("alias `{}` = `{}` is given twice", short.value, long.value),
                        short.span,
                    )
                    .with_label("second entry")
                    .with_secondary(first.span, "first entry")
                    .with_help("give each pair once"),
                );
                continue;
            }
            out.push(Alias {
                short: short.value,
                long: long.value,
                doc: doc.map(|d| d.value).unwrap_or_default(),
                span: item.span,
            });
        }
        out
    }

    fn alias_term(&mut self, node: &Node) -> Option<crate::load::de::Spanned<String>> {
        let t = self.text(node)?;
        if is_term(&t.value) {
            return Some(t);
        }
        self.push(
            Diagnostic::error(
                "invalid-alias",
                format!("`{}` is not an alias term", t.value),
                t.span,
            )
            .with_label("words of A-Z and 0-9 joined by `_`")
            .with_help("write the term as names spell it: `LONGEST_LAT_CACHE`, `LLC`"),
        );
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_words_and_keywords() {
        assert!(is_term("LONGEST_LAT_CACHE") && is_term("L2") && is_term("LLC"));
        assert!(!is_term("llc") && !is_term("A__B") && !is_term("_A") && !is_term(""));
        let name = words("LONGEST_LAT_CACHE.MISS");
        assert_eq!(name, ["longest", "lat", "cache", "miss"]);
        assert!(occurs("LONGEST_LAT_CACHE", &name) && !occurs("LAT_LONGEST", &name));
        let aliases = [Alias {
            short: "LLC".into(),
            long: "LONGEST_LAT_CACHE".into(),
            doc: String::new(),
            span: Span::new(crate::source::FileId::default(), 0, 0),
        }];
        let kw = |name: &str| -> Vec<(String, f64)> {
            keywords(&aliases, name)
                .into_iter()
                .map(|k| (k.word, k.covers))
                .collect()
        };
        assert_eq!(kw("LONGEST_LAT_CACHE.MISS"), [("llc".to_owned(), 3.0)]);
        let third = 1.0 / 3.0;
        assert_eq!(
            kw("LLC_MISSES"),
            [
                ("longest".to_owned(), third),
                ("lat".to_owned(), third),
                ("cache".to_owned(), third)
            ]
        );
        assert!(keywords(&aliases, "CYCLES").is_empty());
    }
}
