//! Helpers shared by the documentation-site tests: the canonical model, and a strict XML
//! parser (quick-xml) that turns a page into a small element tree.

#![allow(dead_code)]

use quick_xml::events::Event;
use quick_xml::{Reader, XmlVersion};
use std::sync::OnceLock;

/// The shipped definitions, loaded once per test binary.
pub fn model() -> &'static pmu_defs::Model {
    static MODEL: OnceLock<pmu_defs::Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        let loaded = pmu_defs::Loader::new().with_defaults().finish();
        assert!(!loaded.has_errors(), "{}", loaded.render_diagnostics());
        loaded.model
    })
}

/// The site for the shipped definitions, built once per test binary.
pub fn site() -> &'static pmu_site::Site {
    static SITE: OnceLock<pmu_site::Site> = OnceLock::new();
    SITE.get_or_init(|| pmu_site::build(model()))
}

/// An element with its attributes and children.
#[derive(Debug, Clone)]
pub struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Node>,
}

#[derive(Debug, Clone)]
pub enum Node {
    Element(Element),
    Text(String),
}

impl Element {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// This element and every element below it, in document order.
    pub fn descendants(&self) -> Vec<&Element> {
        let mut out = vec![self];
        for c in &self.children {
            if let Node::Element(e) = c {
                out.extend(e.descendants());
            }
        }
        out
    }

    /// Elements named `name` at any depth.
    pub fn find_all(&self, name: &str) -> Vec<&Element> {
        self.descendants()
            .into_iter()
            .filter(|e| e.name == name)
            .collect()
    }

    /// All text below, concatenated.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for c in &self.children {
            match c {
                Node::Text(t) => out.push_str(t),
                Node::Element(e) => out.push_str(&e.text()),
            }
        }
        out
    }
}

/// Parses `text` as XML, strictly: matching end tags, well-formed and unique attributes,
/// only the predefined entities or character references, exactly one root element.
pub fn parse_xml(name: &str, text: &str) -> Result<Element, String> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    reader.config_mut().check_comments = true;
    let mut stack: Vec<Element> = vec![Element {
        name: "#document".into(),
        attrs: vec![],
        children: vec![],
    }];
    let at = |r: &Reader<&[u8]>| {
        let pos = r.buffer_position() as usize;
        let line = text[..pos.min(text.len())].matches('\n').count() + 1;
        format!("{name}:{line}")
    };
    loop {
        let ev = reader
            .read_event()
            .map_err(|e| format!("{}: {e}", at(&reader)))?;
        match ev {
            Event::Start(e) => {
                let el = element(&e).map_err(|m| format!("{}: {m}", at(&reader)))?;
                stack.push(el);
            }
            Event::Empty(e) => {
                let el = element(&e).map_err(|m| format!("{}: {m}", at(&reader)))?;
                push(&mut stack, Node::Element(el));
            }
            Event::End(e) => {
                let name = e.name().as_ref().to_owned();
                let el = stack
                    .pop()
                    .filter(|el| el.name == name)
                    .ok_or_else(|| format!("{}: unexpected </{name}>", at(&reader)))?;
                if stack.is_empty() {
                    return Err(format!("{}: </{name}> closes the document", at(&reader)));
                }
                push(&mut stack, Node::Element(el));
            }
            Event::Text(t) => {
                let s = t.xml10_content().into_owned();
                push(&mut stack, Node::Text(s));
            }
            Event::GeneralRef(r) => {
                let s: String = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    Ok(None) => quick_xml::escape::resolve_predefined_entity(&r)
                        .ok_or_else(|| format!("{}: unknown entity &{};", at(&reader), &*r))?
                        .to_owned(),
                    Err(e) => return Err(format!("{}: bad character reference: {e}", at(&reader))),
                };
                push(&mut stack, Node::Text(s));
            }
            Event::CData(c) => {
                push(&mut stack, Node::Text((*c).to_owned()));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if stack.len() != 1 {
        let open: Vec<&str> = stack[1..].iter().map(|e| e.name.as_str()).collect();
        return Err(format!("{name}: unclosed elements at the end: {open:?}"));
    }
    let doc = stack.pop().unwrap();
    let roots: Vec<Element> = doc
        .children
        .into_iter()
        .filter_map(|n| match n {
            Node::Element(e) => Some(e),
            Node::Text(t) if t.trim().is_empty() => None,
            Node::Text(t) => Some(Element {
                name: format!("#stray-text {t:?}"),
                attrs: vec![],
                children: vec![],
            }),
        })
        .collect();
    match roots.len() {
        1 if !roots[0].name.starts_with('#') => Ok(roots.into_iter().next().unwrap()),
        _ => Err(format!(
            "{name}: expected one root element, found {:?}",
            roots.iter().map(|r| r.name.as_str()).collect::<Vec<_>>()
        )),
    }
}

fn push(stack: &mut [Element], node: Node) {
    if let Some(top) = stack.last_mut() {
        top.children.push(node);
    }
}

fn element(e: &quick_xml::events::BytesStart<'_>) -> Result<Element, String> {
    let name = e.name().as_ref().to_owned();
    let mut attrs = Vec::new();
    for a in e.attributes().with_checks(true) {
        let a = a.map_err(|err| format!("bad attribute in <{name}>: {err}"))?;
        let key = a.key.as_ref().to_owned();
        let value = a
            .normalized_value(XmlVersion::Implicit1_0)
            .map_err(|err| format!("bad value of {key} in <{name}>: {err}"))?
            .into_owned();
        attrs.push((key, value));
    }
    Ok(Element {
        name,
        attrs,
        children: vec![],
    })
}
