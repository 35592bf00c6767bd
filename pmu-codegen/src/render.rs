//! Turning tokens into checked-in text: the do-not-edit header, a fingerprint line, and the
//! code, formatted in-process by `prettyplease` (feature `format`), files in parallel.
//!
//! The output is readable (one item, statement, array element or chained call a line; doc
//! attributes as `///` comments) but not rustfmt's layout: `pmu-regs` marks its `generated`
//! module `#[rustfmt::skip]`, so `cargo fmt` leaves the generated files as they are.
//!
//! Formatting (lexing the text again, parsing it with `syn`, printing it) is most of the cost of
//! `cargo xtask gen`. The second line of every file records two 128-bit SipHash-1-3
//! fingerprints: of the token text the generator produced and of the formatted code below the
//! line. [`files_reusing`] keeps a previous file as it is when both still match (same tokens,
//! code not edited by hand), so only files whose tokens changed are formatted again.

use super::HEADER;
use proc_macro2::TokenStream;
use std::hash::Hasher;

/// What the fingerprint line starts with.
pub const FINGERPRINT: &str = "// fingerprint: ";

/// The formatter's identity, hashed with the tokens: a change of formatter (or of how its
/// output is laid out here) must format every file again.
const FORMATTER: &str = "prettyplease 0.3, header v2";

/// Hex of a 128-bit SipHash-1-3 with fixed keys (stable across Rust versions and machines).
fn fingerprint(parts: &[&str]) -> String {
    let mut h = siphasher::sip128::SipHasher13::new();
    for p in parts {
        h.write(p.as_bytes());
        h.write_u8(0xff);
    }
    format!(
        "{:032x}",
        siphasher::sip128::Hasher128::finish128(&h).as_u128()
    )
}

fn tokens_fingerprint(text: &str) -> String {
    fingerprint(&[FORMATTER, text])
}

/// The whole file: header, fingerprint line, blank line, code.
fn assemble(tokens_fp: &str, code: &str) -> String {
    format!(
        "{HEADER}{FINGERPRINT}tokens {tokens_fp}, code {}\n\n{code}",
        fingerprint(&[code])
    )
}

/// `previous` when its fingerprint line names `tokens_fp` and its code below the line is
/// unedited (its own fingerprint still matches).
fn reusable(previous: &str, tokens_fp: &str) -> bool {
    let Some(rest) = previous.strip_prefix(HEADER) else {
        return false;
    };
    let Some((line, code)) = rest.split_once('\n') else {
        return false;
    };
    let Some(code) = code.strip_prefix('\n') else {
        return false;
    };
    let want = format!(
        "{FINGERPRINT}tokens {tokens_fp}, code {}",
        fingerprint(&[code])
    );
    line == want
}

/// `text` (the token stream's text) lexed, parsed and printed by `prettyplease`.
fn format(path: &str, text: &str) -> Result<String, String> {
    let tokens = text
        .parse::<TokenStream>()
        .map_err(|e| format!("{path}: generated code does not lex: {e}"))?;
    let tree: syn::File =
        syn::parse2(tokens).map_err(|e| format!("{path}: generated code does not parse: {e}"))?;
    Ok(prettyplease::unparse(&tree))
}

/// `tokens` as a file: the do-not-edit header, the fingerprint line, then the code formatted
/// by `prettyplease`.
pub(super) fn file(tokens: TokenStream) -> Result<String, String> {
    let text = tokens.to_string();
    let code = format("generated code", &text)?;
    Ok(assemble(&tokens_fingerprint(&text), &code))
}

/// [`files_reusing`] with nothing to reuse: every file formatted.
pub(super) fn files(texts: Vec<(String, String)>) -> Result<Vec<(String, String)>, String> {
    files_reusing(texts, &|_| None)
}

/// [`file`] over every `(path, token text)` (`TokenStream` is not `Send`: the threads get the
/// text and lex it again), in the input's order, on every available core, largest first; a
/// file whose `previous(path)` text is [`reusable`] is returned as it was, unformatted.
pub(super) fn files_reusing(
    texts: Vec<(String, String)>,
    previous: &(dyn Fn(&str) -> Option<String> + Sync),
) -> Result<Vec<(String, String)>, String> {
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(texts[i].1.len()));
    let done = pmu_defs::load::par::run_ordered(&order, texts.len(), &|i| {
        let (path, text) = &texts[i];
        let fp = tokens_fingerprint(text);
        match previous(path) {
            Some(old) if reusable(&old, &fp) => Ok(old),
            _ => format(path, text).map(|code| assemble(&fp, &code)),
        }
    });
    texts
        .into_iter()
        .zip(done)
        .map(|((path, _), r)| {
            let text = r.ok_or_else(|| format!("{path}: a formatting thread stopped"))??;
            Ok((path, text))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> TokenStream {
        quote::quote! { pub struct A; impl A { pub fn f(&self) -> u8 { 1 } } }
    }

    #[test]
    fn a_file_is_reused_only_when_tokens_and_code_match() {
        let text = file(sample()).unwrap();
        let fp = tokens_fingerprint(&sample().to_string());
        assert!(reusable(&text, &fp));
        // Other tokens: format again.
        assert!(!reusable(&text, &tokens_fingerprint("pub struct B;")));
        // The code edited by hand below an intact fingerprint line: format again.
        let edited = text.replace("-> u8", "-> u16");
        assert_ne!(edited, text);
        assert!(!reusable(&edited, &fp));
        // No header, or an old file without the fingerprint line.
        assert!(!reusable(&text[HEADER.len()..], &fp));
        assert!(!reusable(
            &format!("{HEADER}\n{}", &text[HEADER.len()..]),
            &fp
        ));
    }

    #[test]
    fn reusing_returns_the_previous_text_and_formats_the_rest() {
        let fresh = files(vec![("a.rs".into(), sample().to_string())]).unwrap();
        let (_, text) = &fresh[0];
        // A previous file whose fingerprints match comes back byte for byte, not formatted
        // again: here its code has a comment prettyplease would never print.
        let fp = tokens_fingerprint(&sample().to_string());
        let kept = assemble(&fp, "// laid out by hand\npub struct A;\n");
        let got = files_reusing(vec![("a.rs".into(), sample().to_string())], &|_| {
            Some(kept.clone())
        })
        .unwrap();
        assert_eq!(got[0].1, kept);
        // ... and a stale one is replaced by the formatted file.
        let stale = text.replace("pub struct A", "pub struct Z");
        let got = files_reusing(vec![("a.rs".into(), sample().to_string())], &|_| {
            Some(stale.clone())
        })
        .unwrap();
        assert_eq!(&got[0].1, text);
    }
}
