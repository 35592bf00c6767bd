//! A JSON list's objects as read: keys borrowed in order (duplicates kept), values raw, so
//! every value keeps its position; shared by the Intel and AMD readers.

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// A JSON string, borrowed from the input when it has no escapes.
pub(crate) struct Str<'a>(pub(crate) Cow<'a, str>);

impl<'de> Deserialize<'de> for Str<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Str<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Str(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Str(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(Str(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

/// A JSON object's entries in order, duplicates kept, values unparsed.
pub(crate) struct Entries<'a>(pub(crate) Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de> Deserialize<'de> for Entries<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entries<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key::<Str<'de>>()? {
                    let v: &'de RawValue = map.next_value()?;
                    out.push((k.0, v));
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// What a raw JSON value is.
pub(crate) enum Val<'a> {
    Null,
    Text(Cow<'a, str>),
    Number(&'a str),
    Bool,
    Other(&'static str),
}

pub(crate) fn classify(raw: &RawValue) -> Val<'_> {
    let t = raw.get();
    match t.as_bytes().first() {
        Some(b'"') => match serde_json::from_str::<Str>(t) {
            Ok(s) => Val::Text(s.0),
            Err(_) => Val::Other("an invalid string"),
        },
        Some(b'{') => Val::Other("an object"),
        Some(b'[') => Val::Other("an array"),
        Some(b'n') => Val::Null,
        Some(b't' | b'f') => Val::Bool,
        _ => Val::Number(t),
    }
}

/// What the first non-blank character of a JSON text says it is.
pub(crate) fn json_kind(t: &str) -> Option<u8> {
    t.trim_start().as_bytes().first().copied()
}
