//! Turning tokens into checked-in text: the do-not-edit header and the code, formatted
//! in-process by `prettyplease` (feature `format`), files in parallel.
//!
//! The output is readable (one item, statement, array element or chained call a line; doc
//! attributes as `///` comments) but not rustfmt's layout: `pmu-regs` marks its `generated`
//! module `#[rustfmt::skip]`, so `cargo fmt` leaves the generated files as they are.

use super::HEADER;
use proc_macro2::TokenStream;

/// `tokens` as a file: the do-not-edit header, then the code formatted by `prettyplease`.
pub(super) fn file(tokens: TokenStream) -> Result<String, String> {
    let tree: syn::File =
        syn::parse2(tokens).map_err(|e| format!("generated code does not parse: {e}"))?;
    Ok(format!("{HEADER}\n{}", prettyplease::unparse(&tree)))
}

/// [`file`] over every `(path, tokens)`, in the input's order; the files are formatted on
/// every available core, largest first.
pub(super) fn files(input: Vec<(String, TokenStream)>) -> Result<Vec<(String, String)>, String> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    // `TokenStream` is not `Send`: the threads get the text and lex it again.
    let texts: Vec<(String, String)> = input
        .into_iter()
        .map(|(path, tokens)| (path, tokens.to_string()))
        .collect();
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(texts[i].1.len()));
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<Result<String, String>>>> = Mutex::new(vec![None; texts.len()]);
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    std::thread::scope(|s| {
        for _ in 0..threads.min(texts.len()) {
            s.spawn(|| {
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (path, text) = &texts[i];
                    let result = text
                        .parse::<TokenStream>()
                        .map_err(|e| format!("{path}: generated code does not lex: {e}"))
                        .and_then(file);
                    done.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(result);
                }
            });
        }
    });
    let done = done.into_inner().unwrap_or_else(|p| p.into_inner());
    texts
        .into_iter()
        .zip(done)
        .map(|((path, _), r)| {
            let text = r.ok_or_else(|| format!("{path}: a formatting thread stopped"))??;
            Ok((path, text))
        })
        .collect()
}
