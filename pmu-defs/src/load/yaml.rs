//! The one module that touches the YAML crate.
//!
//! `saphyr-parser` (the maintained successor of yaml-rust, YAML 1.2) produces events with
//! spans; this module builds a small located tree from them. Building the tree ourselves is
//! what lets the loader
//!
//! - report duplicate keys (both places), which tree-building YAML crates silently overwrite;
//! - bound alias expansion, nesting depth and input size (alias bombs end in an error, not a
//!   hang or an out-of-memory kill);
//! - keep the scalar style, so a plain `On` or `no` where a name belongs can be flagged as the
//!   YAML 1.1 boolean other tools will read it as.

use crate::diag::{Diagnostic, Diagnostics};
use crate::source::{FileId, Span};
use saphyr_parser::{Event, Parser, ScalarStyle};
use std::collections::HashMap;

/// Bounds on what one YAML file may cost to load.
///
/// Memory follows the number of nodes (about 200 bytes each while loading), so the node
/// budget grows with the file: `min_nodes + nodes_per_kib` per KiB of text, never more than
/// `max_nodes`. A file of the shipped kind has about 120 nodes per KiB (the largest shipped
/// file: 565 KB, 67,000 nodes), so the budget is twice what real definitions use, and loading
/// stays within about 50 times the file's size plus 13 MB however the file is written
/// (aliases included).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest accepted file, in bytes.
    pub max_bytes: usize,
    /// Most nodes any tree may hold after alias expansion.
    pub max_nodes: usize,
    /// Nodes every file may have, however small.
    pub min_nodes: usize,
    /// Nodes each KiB of text adds to the budget.
    pub nodes_per_kib: usize,
    /// Deepest nesting of sequences and mappings.
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 8 << 20,
            max_nodes: 4_000_000,
            min_nodes: 65_536,
            nodes_per_kib: 256,
            max_depth: 64,
        }
    }
}

impl Limits {
    /// The node budget of a file of `bytes` bytes.
    pub fn node_budget(&self, bytes: usize) -> usize {
        self.min_nodes
            .saturating_add(bytes / 1024 * self.nodes_per_kib)
            .min(self.max_nodes)
    }
}

/// How a scalar was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Unquoted.
    Plain,
    /// Single- or double-quoted.
    Quoted,
    /// `|` or `>` block.
    Block,
}

/// A located YAML node.
#[derive(Clone, Debug)]
pub struct Node {
    /// Where the node is written.
    pub span: Span,
    /// What it is.
    pub kind: Kind,
}

/// The shape of a node.
#[derive(Clone, Debug)]
pub enum Kind {
    /// A scalar, unparsed; the schema decides what it must be.
    Scalar(String, Style),
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping, in source order, with unique keys.
    Map(Vec<(Key, Node)>),
}

/// A mapping key.
#[derive(Clone, Debug)]
pub struct Key {
    /// The key text.
    pub name: String,
    /// Where the key is written.
    pub span: Span,
}

impl Node {
    /// A short description of the node's shape for "expected X, found Y" messages.
    pub fn describe(&self) -> &'static str {
        match &self.kind {
            Kind::Scalar(s, _) if s.is_empty() => "an empty value",
            Kind::Scalar(_, Style::Plain) => "a plain scalar",
            Kind::Scalar(_, _) => "a string",
            Kind::Seq(_) => "a sequence",
            Kind::Map(_) => "a mapping",
        }
    }

    fn count(&self) -> usize {
        match &self.kind {
            Kind::Scalar(..) => 1,
            Kind::Seq(v) => 1 + v.iter().map(Node::count).sum::<usize>(),
            Kind::Map(v) => 1 + v.iter().map(|(_, n)| 1 + n.count()).sum::<usize>(),
        }
    }
}

/// Maps the parser's character indexes to byte offsets.
struct Offsets {
    /// Byte offset of every char; `None` for pure ASCII text, where they are equal.
    table: Option<Vec<usize>>,
    len: usize,
}

impl Offsets {
    fn new(text: &str) -> Self {
        let table = if text.is_ascii() {
            None
        } else {
            Some(text.char_indices().map(|(b, _)| b).collect())
        };
        Offsets {
            table,
            len: text.len(),
        }
    }

    fn byte(&self, char_index: usize) -> usize {
        match &self.table {
            None => char_index.min(self.len),
            Some(t) => t.get(char_index).copied().unwrap_or(self.len),
        }
    }
}

enum Frame {
    Seq {
        start: usize,
        anchor: usize,
        items: Vec<Node>,
    },
    Map {
        start: usize,
        anchor: usize,
        entries: Vec<(Key, Node)>,
        pending: Option<Key>,
        seen: HashMap<String, Span>,
    },
}

struct Builder<'a> {
    file: FileId,
    offsets: Offsets,
    limits: Limits,
    /// The file's length in bytes, and its node budget ([`Limits::node_budget`]).
    len: usize,
    budget: usize,
    /// An alias has been expanded.
    expanded: bool,
    diags: &'a mut Diagnostics,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Node>,
    nodes: usize,
    docs: Vec<Node>,
    failed: bool,
}

impl Builder<'_> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(
            self.file,
            self.offsets.byte(start),
            self.offsets.byte(end).max(self.offsets.byte(start)),
        )
    }

    fn fail(&mut self, d: Diagnostic) {
        self.diags.push(d);
        self.failed = true;
    }

    /// Counts `n` more nodes (`alias`: by expanding an alias) against the file's budget.
    fn add_nodes(&mut self, n: usize, span: Span, alias: bool) -> bool {
        self.nodes = self.nodes.saturating_add(n);
        self.expanded |= alias;
        if self.nodes <= self.budget {
            return true;
        }
        let note = if self.expanded {
            "aliases are expanded in place; nested aliases multiply (an \"alias bomb\")"
        } else {
            "split the definitions into several files"
        };
        let l = self.limits;
        self.fail(
            Diagnostic::error(
                "yaml-too-large",
                format!(
                    "YAML {} more than {} nodes, the limit for a file of {} bytes",
                    if self.expanded { "expands to" } else { "has" },
                    self.budget,
                    self.len
                ),
                span,
            )
            .with_label("node limit reached here")
            .with_note(note)
            .with_note(format!(
                "a file may have {} nodes plus {} per KiB, at most {}",
                l.min_nodes, l.nodes_per_kib, l.max_nodes
            )),
        );
        false
    }

    /// Attaches a finished node to its parent frame (or the document list).
    fn attach(&mut self, node: Node, anchor: usize) {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        match self.stack.last_mut() {
            None => self.docs.push(node),
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries,
                pending,
                seen,
                ..
            }) => match pending.take() {
                Some(key) => entries.push((key, node)),
                None => {
                    let Kind::Scalar(name, _) = &node.kind else {
                        let d = Diagnostic::error(
                            "yaml-complex-key",
                            format!("mapping keys must be plain text, found {}", node.describe()),
                            node.span,
                        );
                        *pending = Some(Key {
                            name: String::from("\u{0}invalid"),
                            span: node.span,
                        });
                        self.diags.push(d);
                        self.failed = true;
                        return;
                    };
                    if let Some(first) = seen.get(name) {
                        let d = Diagnostic::error(
                            "duplicate-key",
                            format!("duplicate key `{name}`"),
                            node.span,
                        )
                        .with_label("second definition")
                        .with_secondary(*first, "first defined here")
                        .with_help(
                            "YAML mappings take each key once; remove or rename one of them",
                        );
                        self.diags.push(d);
                        // Keep the first value; the second is parsed (for its own errors) then dropped.
                        *pending = Some(Key {
                            name: String::from("\u{0}duplicate"),
                            span: node.span,
                        });
                    } else {
                        seen.insert(name.clone(), node.span);
                        *pending = Some(Key {
                            name: name.clone(),
                            span: node.span,
                        });
                    }
                }
            },
        }
    }

    fn on_event(&mut self, ev: Event<'_>, start: usize, end: usize) {
        match ev {
            Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart(_)
            | Event::DocumentEnd
            | Event::Nothing => {}
            Event::Scalar(value, style, anchor, tag) => {
                let span = self.span(start, end);
                if !self.add_nodes(1, span, false) {
                    return;
                }
                let mut style = match style {
                    ScalarStyle::Plain => Style::Plain,
                    ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => Style::Quoted,
                    _ => Style::Block,
                };
                // `!!str 0x10` is the string "0x10", as `'0x10'` is: never a number. The
                // other core-schema tags (`!!int`, `!!bool`, ...) say what a plain scalar is
                // read as anyway; a tag of another schema means nothing here.
                if let Some(tag) = tag.as_deref() {
                    if tag.is_yaml_core_schema() && tag.suffix == "str" {
                        style = Style::Quoted;
                    } else if !tag.is_yaml_core_schema() {
                        self.diags.push(
                            Diagnostic::error(
                                "yaml-tag",
                                format!("unsupported YAML tag `{tag}`"),
                                span,
                            )
                            .with_label("definitions use YAML's core schema only")
                            .with_help("remove the tag"),
                        );
                    }
                }
                self.attach(
                    Node {
                        span,
                        kind: Kind::Scalar(value.into_owned(), style),
                    },
                    anchor,
                );
            }
            Event::Alias(id) => {
                let span = self.span(start, end);
                match self.anchors.get(&id).cloned() {
                    Some(mut node) => {
                        if !self.add_nodes(node.count(), span, true) {
                            return;
                        }
                        relocate(&mut node, span);
                        self.attach(node, 0);
                    }
                    None => self.fail(Diagnostic::error(
                        "yaml-syntax",
                        "alias to an unknown or unfinished anchor",
                        span,
                    )),
                }
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                let span = self.span(start, end);
                if self.stack.len() >= self.limits.max_depth {
                    self.fail(Diagnostic::error(
                        "yaml-too-deep",
                        format!("YAML nests deeper than {} levels", self.limits.max_depth),
                        span,
                    ));
                    return;
                }
                if !self.add_nodes(1, span, false) {
                    return;
                }
                let start = self.offsets.byte(start);
                self.stack.push(if matches!(ev, Event::SequenceStart(..)) {
                    Frame::Seq {
                        start,
                        anchor,
                        items: Vec::new(),
                    }
                } else {
                    Frame::Map {
                        start,
                        anchor,
                        entries: Vec::new(),
                        pending: None,
                        seen: HashMap::new(),
                    }
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let end = self.offsets.byte(end);
                let Some(frame) = self.stack.pop() else {
                    return;
                };
                let (node, anchor) = match frame {
                    Frame::Seq {
                        start,
                        anchor,
                        items,
                    } => (
                        Node {
                            span: Span::new(self.file, start, end.max(start)),
                            kind: Kind::Seq(items),
                        },
                        anchor,
                    ),
                    Frame::Map {
                        start,
                        anchor,
                        entries,
                        ..
                    } => {
                        let entries = entries
                            .into_iter()
                            .filter(|(k, _)| !k.name.starts_with('\u{0}'))
                            .collect();
                        (
                            Node {
                                span: Span::new(self.file, start, end.max(start)),
                                kind: Kind::Map(entries),
                            },
                            anchor,
                        )
                    }
                };
                self.attach(node, anchor);
            }
        }
    }
}

/// Points every span of an alias copy at the alias, so errors inside it point somewhere real
/// in the using context.
fn relocate(node: &mut Node, span: Span) {
    node.span = span;
    match &mut node.kind {
        Kind::Scalar(..) => {}
        Kind::Seq(v) => v.iter_mut().for_each(|n| relocate(n, span)),
        Kind::Map(v) => v.iter_mut().for_each(|(k, n)| {
            k.span = span;
            relocate(n, span)
        }),
    }
}

/// Parses one YAML document. Problems go to `diags`; `None` means nothing usable was read.
pub fn parse(file: FileId, text: &str, limits: Limits, diags: &mut Diagnostics) -> Option<Node> {
    if text.len() > limits.max_bytes {
        diags.push(
            Diagnostic::error(
                "yaml-too-large",
                format!(
                    "file is {} bytes, more than the limit of {} bytes",
                    text.len(),
                    limits.max_bytes
                ),
                Span::new(file, 0, 0),
            )
            .with_note("split the definitions into several files"),
        );
        return None;
    }
    let mut b = Builder {
        file,
        offsets: Offsets::new(text),
        limits,
        len: text.len(),
        budget: limits.node_budget(text.len()),
        expanded: false,
        diags,
        stack: Vec::new(),
        anchors: HashMap::new(),
        nodes: 0,
        docs: Vec::new(),
        failed: false,
    };
    let mut parser = Parser::new_from_str(text);
    loop {
        match parser.next_event() {
            None => break,
            Some(Ok((ev, span))) => {
                b.on_event(ev, span.start.index(), span.end.index());
                if b.failed {
                    return None;
                }
            }
            Some(Err(e)) => {
                let at = b.offsets.byte(e.marker().index());
                b.diags.push(
                    Diagnostic::error(
                        "yaml-syntax",
                        format!("invalid YAML: {}", e.info()),
                        Span::new(file, at, at),
                    )
                    .with_label("here"),
                );
                return None;
            }
        }
    }
    let mut docs = b.docs;
    match docs.len() {
        0 => {
            b.diags.push(
                Diagnostic::error(
                    "empty-file",
                    "definitions file is empty",
                    Span::new(file, 0, 0),
                )
                .with_label("expected a generation here")
                .with_help("start the file with `generation: <id>`"),
            );
            None
        }
        1 => docs.pop(),
        _ => {
            b.diags.push(
                Diagnostic::error(
                    "yaml-multiple-documents",
                    "a definitions file holds exactly one YAML document",
                    docs[1].span,
                )
                .with_label("second document starts here"),
            );
            None
        }
    }
}

/// Reads a file's bytes as UTF-8, reporting where the first invalid byte is.
pub fn decode_utf8(file_name: &str, bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        let col = at - bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1) + 1;
        format!("{file_name}:{line}:{col}: error[not-utf8]: file is not valid UTF-8 (byte 0x{:02X} at offset {at})", bytes[at])
    })
}
