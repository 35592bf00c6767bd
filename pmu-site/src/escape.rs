//! Escaping for the output contexts other than HTML: Markdown, JSON embedded in JavaScript
//! files, file names (`slug`) and URL fragments (`url`).
//!
//! Every string that comes from the model (names, docs, titles, manual references, messages)
//! goes through one of these, or through an askama template (`templates/`), which escapes
//! what it inserts into HTML and SVG, before it reaches a file.

use serde::Serialize;

/// Prose in Markdown: characters with Markdown meaning are backslash-escaped and `<`, `>`,
/// `&` become entities, so text can neither inject HTML nor change the document structure.
/// Line breaks are kept (docs are multi-line prose).
pub fn md(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '~' | '!' => {
                out.push('\\');
                out.push(c);
            }
            '\r' => {}
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A Markdown table cell: [`md`] with line breaks folded into spaces.
pub fn md_cell(s: &str) -> String {
    let folded: Vec<&str> = s.split_whitespace().collect();
    md(&folded.join(" "))
}

/// A code span in Markdown (names, bit ranges). Pipes are escaped so the span is safe in a
/// table cell; backticks in the text get a longer fence.
pub fn md_code(s: &str) -> String {
    let text = s.replace('|', "\\|").replace(['\n', '\r'], " ");
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    if longest > 0 || text.starts_with('`') || text.ends_with('`') {
        format!("{fence} {text} {fence}")
    } else {
        format!("{fence}{text}{fence}")
    }
}

/// JSON for a JavaScript file. `<`, `>`, `&` and the two JavaScript line terminators are
/// written as `\u` escapes; they can only occur inside string literals, so the value is
/// unchanged, and the text is safe even if a page ever inlines it in a `<script>` element.
pub fn json_for_js<T: Serialize + ?Sized>(value: &T) -> String {
    let raw = serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned());
    let mut out = String::with_capacity(raw.len() + 16);
    for c in raw.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// A file or URL path segment for a name. Loader names (identifiers, generation ids) pass
/// through unchanged; anything else is hex-encoded so the result is always a safe, unique
/// segment.
pub fn slug(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' {
            out.push(b as char);
        } else {
            out.push_str(&format!("~{b:02X}"));
        }
    }
    if out.is_empty() {
        out.push('~');
    }
    out
}

/// A URL query or fragment component: everything but unreserved characters percent-encoded.
pub fn url(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b':') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_escapes_structure_and_html() {
        assert_eq!(md("a|b <i> & *c*"), "a\\|b &lt;i&gt; &amp; \\*c\\*");
        assert_eq!(md_cell("one\ntwo   three"), "one two three");
        assert_eq!(md_code("A|B"), "`A\\|B`");
        assert_eq!(md_code("a`b"), "`` a`b ``");
    }

    #[test]
    fn json_for_js_hides_markup_but_keeps_the_value() {
        let s = "</script><b>&\u{2028}";
        let js = json_for_js(&s);
        assert!(!js.contains('<') && !js.contains('>') && !js.contains('&'));
        assert!(!js.contains('\u{2028}'));
        let back: String = serde_json::from_str(&js).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn slugs_are_path_safe() {
        assert_eq!(slug("IA32_PERFEVTSEL"), "IA32_PERFEVTSEL");
        assert_eq!(slug("intel-v3"), "intel-v3");
        assert_eq!(slug("a/b.c"), "a~2Fb~2Ec");
        assert_eq!(slug(""), "~");
        assert_eq!(url("cpuid:A B&c"), "cpuid:A%20B%26c");
    }
}
