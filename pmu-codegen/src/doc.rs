//! Prose from the definitions made safe for `#[doc]`: [`escape_doc`] and its Markdown
//! scanners (code spans, fences, inline links, autolinks, bare URLs).

/// Makes prose from the definitions (`doc:`, `manual:`, `title:`, constraint messages) safe
/// as the Markdown of a generated `#[doc]`, so rustdoc shows it as written and has nothing to
/// warn about.
///
/// - `[` and `]` are escaped (`EAX[7:0]` -> `EAX\[7:0\]`): rustdoc would otherwise read the
///   register notation of the manuals as intra-doc links. A bracket pair immediately
///   followed by a parenthesised destination without spaces, `[text](target)`, on one line,
///   is an inline link and kept (brackets inside its text are escaped).
/// - Code spans (`` `EDX[15]` ``, any number of backticks, closed on the same line), fenced
///   code blocks (a line of three or more backticks or tildes up to its closing fence) and
///   backslash escapes already present are copied unchanged. A backtick run or fence with no
///   closing one is escaped, so the text cannot open a code span or block that swallows the
///   generator's text after it; a trailing backslash is doubled for the same reason.
/// - `<` is escaped unless it opens an autolink (`<https://...>`): `IA32_PMC<n>` would be an
///   unclosed HTML tag.
/// - A bare `http://` or `https://` URL is wrapped in `<...>` (rustdoc's `bare_urls`).
///
/// Code spans and links are only recognised within a line because a following line may
/// start a block (`> quote`, `# heading`) that ends them in Markdown; a multi-line one is
/// escaped instead, which shows its characters as written. Everything else is left to
/// Markdown (emphasis, lists, line breaks), as before.
pub fn escape_doc(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    escape_doc_into(text, false, &mut out);
    out
}

fn escape_doc_into(s: &str, in_link_text: bool, out: &mut String) {
    // Every byte this looks at is ASCII, so every index it slices at is a char boundary.
    let b = s.as_bytes();
    let mut copied = 0;
    let mut i = 0;
    let escape = |out: &mut String, copied: &mut usize, at: usize, len: usize| {
        out.push_str(&s[*copied..at]);
        for c in s[at..at + len].chars() {
            out.push('\\');
            out.push(c);
        }
        *copied = at + len;
    };
    while i < b.len() {
        if !in_link_text
            && (i == 0 || b[i - 1] == b'\n')
            && let Some((at, fence)) = fence_opener(b, i)
        {
            match fenced_block_end(b, at, fence) {
                Some(end) => i = end,
                // Unclosed, it would run to the end of the doc: not a fence, then
                // (backticks escaped like any unclosed run, a tilde fence broken by
                // escaping its first tilde).
                None => {
                    let n = if b[at] == b'`' { fence } else { 1 };
                    escape(out, &mut copied, at, n);
                    i = at + n;
                }
            }
            continue;
        }
        i = match b[i] {
            b'\\' if b.get(i + 1).is_some_and(u8::is_ascii_punctuation) => i + 2,
            b'\\' if i + 1 == b.len() => {
                escape(out, &mut copied, i, 1);
                i + 1
            }
            b'`' => match code_span_end(b, i) {
                Some(end) => end,
                None => {
                    let n = backtick_run(b, i);
                    escape(out, &mut copied, i, n);
                    i + n
                }
            },
            b'[' if !in_link_text => match inline_link(b, i) {
                Some((close, end)) => {
                    out.push_str(&s[copied..=i]);
                    escape_doc_into(&s[i + 1..close], true, out);
                    out.push_str(&s[close..end]);
                    copied = end;
                    end
                }
                None => {
                    escape(out, &mut copied, i, 1);
                    i + 1
                }
            },
            b'[' | b']' => {
                escape(out, &mut copied, i, 1);
                i + 1
            }
            b'<' => match autolink_end(b, i) {
                Some(end) => end,
                None => {
                    escape(out, &mut copied, i, 1);
                    i + 1
                }
            },
            b'h' if !in_link_text => match bare_url_end(b, i) {
                Some(end) => {
                    out.push_str(&s[copied..i]);
                    out.push('<');
                    out.push_str(&s[i..end]);
                    out.push('>');
                    copied = end;
                    end
                }
                None => i + 1,
            },
            _ => i + 1,
        };
    }
    out.push_str(&s[copied..]);
}

/// Length of the run of backticks at `i`.
fn backtick_run(b: &[u8], i: usize) -> usize {
    b[i..].iter().take_while(|&&c| c == b'`').count()
}

/// The end (exclusive) of the code span opened by the backtick run at `i`: CommonMark closes
/// it with the next run of exactly the same length (here: on the same line).
fn code_span_end(b: &[u8], i: usize) -> Option<usize> {
    let n = backtick_run(b, i);
    let mut k = i + n;
    while k < b.len() && b[k] != b'\n' {
        if b[k] == b'`' {
            let m = backtick_run(b, k);
            if m == n {
                return Some(k + m);
            }
            k += m;
        } else {
            k += 1;
        }
    }
    None
}

/// For the `[` at `open`: `(index of its matching ']', end of the link)` when the pair is an
/// inline link `[text](target)` whose target is non-empty, has no whitespace and balanced
/// parentheses.
fn inline_link(b: &[u8], open: usize) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let mut k = open;
    let close = loop {
        match *b.get(k)? {
            b'\\' if b.get(k + 1).is_some_and(u8::is_ascii_punctuation) => {
                k += 2;
                continue;
            }
            b'`' => {
                k = code_span_end(b, k).unwrap_or(k + backtick_run(b, k));
                continue;
            }
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    break k;
                }
            }
            b'\n' => return None,
            _ => {}
        }
        k += 1;
    };
    if b.get(close + 1) != Some(&b'(') {
        return None;
    }
    let mut depth = 1usize;
    let mut k = close + 2;
    loop {
        match *b.get(k)? {
            b'\\' if b.get(k + 1).is_some_and(u8::is_ascii_punctuation) => {
                k += 2;
                continue;
            }
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            c if c.is_ascii_whitespace() || c.is_ascii_control() => return None,
            _ => {}
        }
        k += 1;
    }
    (k > close + 2).then_some((close, k + 1))
}

/// A fenced code block's opening fence on the line starting at `line`: the index of its first
/// fence character and the fence length (three or more backticks or tildes after at most
/// three spaces; a backtick fence's info string has no backtick).
fn fence_opener(b: &[u8], line: usize) -> Option<(usize, usize)> {
    let at = line + b[line..].iter().take(3).take_while(|&&c| c == b' ').count();
    let c = *b.get(at)?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = b[at..].iter().take_while(|&&x| x == c).count();
    let line_end = b[at..]
        .iter()
        .position(|&x| x == b'\n')
        .map_or(b.len(), |p| at + p);
    if n < 3 || (c == b'`' && b[at + n..line_end].contains(&b'`')) {
        return None;
    }
    Some((at, n))
}

/// The end (exclusive, after its line break) of the fenced code block whose opening fence of
/// `n` characters is at `at`: the next line holding at least `n` of the same character after
/// at most three spaces, and nothing else but spaces.
fn fenced_block_end(b: &[u8], at: usize, n: usize) -> Option<usize> {
    let c = b[at];
    let mut line = at + b[at..].iter().position(|&x| x == b'\n')? + 1;
    while line < b.len() {
        let end = b[line..]
            .iter()
            .position(|&x| x == b'\n')
            .map_or(b.len(), |p| line + p);
        let k = line
            + b[line..end]
                .iter()
                .take(3)
                .take_while(|&&x| x == b' ')
                .count();
        let m = b[k..end].iter().take_while(|&&x| x == c).count();
        if m >= n && b[k + m..end].iter().all(|&x| x == b' ' || x == b'\t') {
            return Some((end + 1).min(b.len()));
        }
        line = end + 1;
    }
    None
}

/// The end (exclusive) of a CommonMark URI autolink `<scheme:target>` starting at `i`.
fn autolink_end(b: &[u8], i: usize) -> Option<usize> {
    let scheme = b[i + 1..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'.' | b'-'))
        .count();
    if !(2..=32).contains(&scheme) || !b[i + 1].is_ascii_alphabetic() {
        return None;
    }
    let mut k = i + 1 + scheme;
    if b.get(k) != Some(&b':') {
        return None;
    }
    k += 1;
    loop {
        match *b.get(k)? {
            b'>' => return Some(k + 1),
            b'<' => return None,
            c if c.is_ascii_whitespace() || c.is_ascii_control() => return None,
            _ => k += 1,
        }
    }
}

/// The end (exclusive) of a bare `http://` or `https://` URL starting at `i` (not inside a
/// word), without trailing punctuation or an unbalanced closing parenthesis.
fn bare_url_end(b: &[u8], i: usize) -> Option<usize> {
    if i > 0 && (b[i - 1].is_ascii_alphanumeric() || matches!(b[i - 1], b'/' | b'.' | b'-')) {
        return None;
    }
    let rest = &b[i..];
    let scheme = if rest.starts_with(b"https://") {
        8
    } else if rest.starts_with(b"http://") {
        7
    } else {
        return None;
    };
    let mut end = i + scheme;
    while end < b.len() && !b[end].is_ascii_whitespace() && !matches!(b[end], b'<' | b'>' | b'`') {
        end += 1;
    }
    loop {
        match b[end - 1] {
            b'.' | b',' | b':' | b';' | b'!' | b'?' | b'\'' | b'"' | b'*' | b'_' | b'~' => end -= 1,
            b')' if b[i..end].iter().filter(|&&c| c == b'(').count()
                < b[i..end].iter().filter(|&&c| c == b')').count() =>
            {
                end -= 1
            }
            _ => break,
        }
    }
    (end > i + scheme).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::escape_doc;
    use proptest::prelude::*;
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

    /// What rustdoc would see in `doc`, parsed by pulldown-cmark (the parser rustdoc uses,
    /// with the extensions rustdoc enables): the labels it would try as intra-doc links (a
    /// shortcut or reference link without definition), raw HTML, and the text outside code
    /// spans and links, concatenated.
    struct Seen {
        intra_doc: Vec<String>,
        html: Vec<String>,
        text: String,
        links: Vec<String>,
    }

    fn seen(doc: &str) -> Seen {
        let mut intra_doc = Vec::new();
        let mut cb = |l: pulldown_cmark::BrokenLink<'_>| {
            intra_doc.push(l.reference.to_string());
            None
        };
        let opts = Options::ENABLE_TABLES
            | Options::ENABLE_FOOTNOTES
            | Options::ENABLE_STRIKETHROUGH
            | Options::ENABLE_TASKLISTS;
        let events: Vec<Event<'_>> =
            Parser::new_with_broken_link_callback(doc, opts, Some(&mut cb)).collect();
        let (mut html, mut text, mut links) = (Vec::new(), String::new(), Vec::new());
        for e in events {
            match e {
                Event::Html(h) | Event::InlineHtml(h) => html.push(h.to_string()),
                Event::Text(t) => text.push_str(&t),
                Event::Code(c) => text.push_str(&format!("`{c}`")),
                Event::SoftBreak | Event::HardBreak => text.push('\n'),
                Event::Start(Tag::Link { dest_url, .. }) => {
                    links.push(dest_url.to_string());
                    text.push('[');
                }
                Event::End(TagEnd::Link) => text.push(']'),
                _ => {}
            }
        }
        Seen {
            intra_doc,
            html,
            text,
            links,
        }
    }

    #[track_caller]
    fn check(input: &str, want: &str) {
        let got = escape_doc(input);
        assert_eq!(got, want, "escape_doc({input:?})");
        let s = seen(&got);
        assert!(
            s.intra_doc.is_empty(),
            "{got:?}: link labels {:?}",
            s.intra_doc
        );
        assert!(s.html.is_empty(), "{got:?}: raw HTML {:?}", s.html);
        assert_eq!(escape_doc(&got), got, "escaping twice changes {input:?}");
    }

    #[test]
    fn register_bit_notation_is_escaped() {
        check("CPUID.0AH:EDX[15] = 1", r"CPUID.0AH:EDX\[15\] = 1");
        check("EAX[31:24], 8 bits.", r"EAX\[31:24\], 8 bits.");
        check("[31:24]", r"\[31:24\]");
        check(
            "Fn8000_0001_ECX[PerfCtrExtCore] (bit 23)",
            r"Fn8000_0001_ECX\[PerfCtrExtCore\] (bit 23)",
        );
        check("EventSelect[EAX[7:0]]", r"EventSelect\[EAX\[7:0\]\]");
        check("a]b[c", r"a\]b\[c");
        check("[a]: b", r"\[a\]: b");
        check("[^1] footnote", r"\[^1\] footnote");
        // Non-ASCII text around the notation is kept.
        check("§18.2 EAX[7:0] — 4 × 8", r"§18.2 EAX\[7:0\] — 4 × 8");
    }

    #[test]
    fn the_notation_renders_as_written() {
        for input in [
            "EDX[15]",
            "IA32_PERFEVTSELx[21], IA32_FIXED_CTR_CTRL bit 4i+2",
            "GenuineIntel-6-55-[01234]",
            "a]b[c",
            "EventSelect[EAX[7:0]]",
        ] {
            assert_eq!(seen(&escape_doc(input)).text, input);
        }
    }

    #[test]
    fn inline_links_are_kept() {
        check(
            "see [the SDM](https://example.com/sdm)",
            "see [the SDM](https://example.com/sdm)",
        );
        check("[`Value`](Value)", "[`Value`](Value)");
        check("[a](f(x))", "[a](f(x))");
        // Brackets inside the link text are escaped; the link stays.
        check("[EAX[7:0]](https://e.com)", r"[EAX\[7:0\]](https://e.com)");
        check("[a [b](c) d](e)", r"[a \[b\](c) d](e)");
        let s = seen(&escape_doc("[EAX[7:0]](https://e.com)"));
        assert_eq!(s.links, ["https://e.com"]);
        assert_eq!(s.text, "[EAX[7:0]]");
    }

    #[test]
    fn brackets_before_parenthesised_prose_are_not_a_link() {
        check("EAX[7:0] (version)", r"EAX\[7:0\] (version)");
        check("EAX[7:0](the version)", r"EAX\[7:0\](the version)");
        check("[a]()", r"\[a\]()");
        check("[a](b", r"\[a\](b");
        check("[a](b(c)", r"\[a\](b(c)");
    }

    #[test]
    fn code_spans_are_untouched() {
        check("`EDX[15]`", "`EDX[15]`");
        check(
            "see `EAX[7:0]` and EAX[7:0]",
            r"see `EAX[7:0]` and EAX\[7:0\]",
        );
        check("``a ` [b]``", "``a ` [b]``");
        check("`<n>` and `https://x.y`", "`<n>` and `https://x.y`");
        check("```\nEAX[7:0]\n```", "```\nEAX[7:0]\n```");
        check(
            "a\n~~~~ text\n<n> [1]\n~~~~~\nb[2]",
            "a\n~~~~ text\n<n> [1]\n~~~~~\nb\\[2\\]",
        );
        // A backtick in a link's text does not end the link early.
        check("[`a]`](b)", "[`a]`](b)");
    }

    #[test]
    fn spans_and_links_over_several_lines_are_escaped() {
        // The second line may start a block (here a quote) that ends the span or link.
        check("`<!a>\n>`", "\\`\\<!a>\n>\\`");
        check("[a\n> b](c)", "\\[a\n> b\\](c)");
        // A fence without its closing fence would swallow the rest of the doc.
        check("```\nEAX[7:0]", "\\`\\`\\`\nEAX\\[7:0\\]");
        check("~~~\nEAX[7:0]", "\\~~~\nEAX\\[7:0\\]");
        // The generator's list after it stays a list with a code span (`seen` joins the
        // paragraph and the item without a separator).
        let joined = format!("{}\n\n- MSR: `0x186`", escape_doc("```\nx"));
        assert_eq!(seen(&joined).text, "```\nxMSR: `0x186`");
    }

    #[test]
    fn unmatched_backticks_and_trailing_backslashes_cannot_leak() {
        check("a ` b[1]", r"a \` b\[1\]");
        check("``x` [1]", r"\`\`x\` \[1\]");
        check(r"ends with \", r"ends with \\");
        // The escaped text cannot pair with a code span the generator appends.
        let joined = format!("{} (`NAME` = 0x1)", escape_doc("a ` b"));
        assert_eq!(seen(&joined).text, "a ` b (`NAME` = 0x1)");
    }

    #[test]
    fn existing_escapes_are_kept() {
        check(r"EDX\[15\]", r"EDX\[15\]");
        check(r"a \* b", r"a \* b");
        // An escaped backslash does not escape the bracket after it.
        check(r"\\[x]", r"\\\[x\]");
        check(r"C:\path", r"C:\path");
    }

    #[test]
    fn html_and_urls() {
        check("IA32_PMC<n>", r"IA32_PMC\<n>");
        check("a < b > c", r"a \< b > c");
        check("<https://example.com/a>", "<https://example.com/a>");
        // Not an autolink (a space): `<` is escaped and the URL in it wrapped on its own.
        check("<https://example.com/a b>", r"\<<https://example.com/a> b>");
        check(
            "see https://example.com/sdm.",
            "see <https://example.com/sdm>.",
        );
        check("(https://e.com/a_(b))", "(<https://e.com/a_(b)>)");
        check("(https://e.com/x)", "(<https://e.com/x>)");
        check("xhttps://e.com", "xhttps://e.com");
        check("https:// alone", "https:// alone");
        check(
            "[https://e.com](https://e.com)",
            "[https://e.com](https://e.com)",
        );
        let s = seen(&escape_doc("see https://example.com/sdm."));
        assert_eq!(s.links, ["https://example.com/sdm"]);
    }

    proptest! {
        /// Whatever the text, rustdoc finds no link label to resolve and no raw HTML in the
        /// result, and escaping is idempotent.
        #[test]
        fn no_input_leaves_a_link_label_or_html(
            s in r"[\[\]()`\\<>:/a-h0-9 .\n*_!^~#|=+-]{0,40}|(https?://)?[\[\]a-z0-9:]{0,12}",
        ) {
            let got = escape_doc(&s);
            let seen = seen(&got);
            prop_assert!(seen.intra_doc.is_empty(), "{:?} -> {:?}: {:?}", s, got, seen.intra_doc);
            prop_assert!(seen.html.is_empty(), "{:?} -> {:?}: {:?}", s, got, seen.html);
            prop_assert_eq!(escape_doc(&got), got);
        }

        /// The same over lines that start blocks: quotes, headings, lists, fences, tables.
        #[test]
        fn no_lines_leave_a_link_label_or_html(
            lines in prop::collection::vec(
                r"( {0,4}(```|~~~~?|>|#|-|\*|1\.|\|)?)?[\[\]()`\\<>:/a-c0-9 .~*_!|-]{0,12}",
                0..6,
            ),
        ) {
            let s = lines.join("\n");
            let got = escape_doc(&s);
            let seen = seen(&got);
            prop_assert!(seen.intra_doc.is_empty(), "{:?} -> {:?}: {:?}", s, got, seen.intra_doc);
            prop_assert!(seen.html.is_empty(), "{:?} -> {:?}: {:?}", s, got, seen.html);
            prop_assert_eq!(escape_doc(&got), got);
        }

        /// Text made of words, numbers, colons and brackets renders exactly as written.
        #[test]
        fn bracket_prose_renders_as_written(s in r"[A-Za-z][A-Za-z0-9:\[\] ]{0,30}[A-Za-z0-9:\[\]]") {
            prop_assert_eq!(seen(&escape_doc(&s)).text, s);
        }
    }
}
