//! The lookups an [`Encoder`](super::Encoder) builds once per generation, on first use, so
//! that finding an event by name and decoding a value cost time in the size of the answer,
//! not of the generation's event list.

use super::perf::perf_name;
use crate::model::Generation;
use std::collections::HashMap;

/// One generation's events by name and by encoding.
#[derive(Clone, Debug, Default)]
pub(super) struct EventIndex<'m> {
    /// Exact name → the first event of that name.
    exact: HashMap<&'m str, usize>,
    /// ASCII upper-cased name → the first event of that name; perf's spellings
    /// ([`perf_name`]) after every name, so a name wins over a spelling.
    folded: HashMap<String, usize>,
    /// The longest key of `folded`, in bytes: anything longer is a miss without hashing.
    longest: usize,
    /// (event code, unit mask) → the events a general counter counts with that primary or
    /// alternative encoding, in definition order.
    by_code: HashMap<(u32, u32), Vec<usize>>,
    /// Per event, what a decoded match calls it: `model` when the generation that
    /// introduced it describes CPU models, else `architectural`.
    kinds: Vec<&'static str>,
    /// The events a fixed counter counts, in definition order.
    fixed: Vec<usize>,
}

impl<'m> EventIndex<'m> {
    /// The index of `g`; `is_model(id)` says whether generation `id` describes CPU models.
    pub(super) fn new(g: &'m Generation, is_model: impl Fn(&str) -> bool) -> Self {
        let mut ix = EventIndex::default();
        for (i, e) in g.events.iter().enumerate() {
            ix.kinds.push(if is_model(&e.since) {
                "model"
            } else {
                "architectural"
            });
            ix.exact.entry(e.name.as_str()).or_insert(i);
            ix.folded.entry(e.name.to_ascii_uppercase()).or_insert(i);
            if e.fixed.is_some() {
                ix.fixed.push(i);
            }
            if e.counters.is_empty() {
                continue;
            }
            let mut codes = vec![(e.event, e.umask)];
            if !e.alt_events.is_empty() || !e.alt_umasks.is_empty() {
                codes.extend(e.alternatives().iter().map(|a| (a.event, a.umask)));
                codes.sort_unstable();
                codes.dedup();
            }
            for c in codes {
                ix.by_code.entry(c).or_default().push(i);
            }
        }
        for (i, e) in g.events.iter().enumerate() {
            if let Some(p) = perf_name(&e.name) {
                ix.folded.entry(p.to_ascii_uppercase()).or_insert(i);
            }
        }
        ix.longest = ix.folded.keys().map(String::len).max().unwrap_or(0);
        ix
    }

    /// The event named `name`: exactly, else ASCII case-insensitively, else by perf's
    /// spelling (create_perf_json.py `fix_name`).
    pub(super) fn find(&self, name: &str) -> Option<usize> {
        if let Some(&i) = self.exact.get(name) {
            return Some(i);
        }
        if name.len() > self.longest {
            return None;
        }
        // Folded on the stack: every event name fits.
        let mut buf = [0u8; 128];
        match buf.get_mut(..name.len()) {
            Some(b) => {
                b.copy_from_slice(name.as_bytes());
                b.make_ascii_uppercase();
                let key = std::str::from_utf8(b).ok()?;
                self.folded.get(key).copied()
            }
            None => self.folded.get(&name.to_ascii_uppercase()).copied(),
        }
    }

    /// The events with this event code and unit mask (primary or alternative) that a
    /// general counter counts, in definition order.
    pub(super) fn with_code(&self, event: u64, umask: u64) -> &[usize] {
        match (u32::try_from(event), u32::try_from(umask)) {
            (Ok(e), Ok(u)) => self.by_code.get(&(e, u)).map_or(&[], Vec::as_slice),
            _ => &[],
        }
    }

    /// What a decoded match calls event `i`: `model` or `architectural`.
    pub(super) fn kind(&self, i: usize) -> &'static str {
        self.kinds[i]
    }

    /// The events a fixed counter counts, in definition order.
    pub(super) fn fixed(&self) -> &[usize] {
        &self.fixed
    }
}
