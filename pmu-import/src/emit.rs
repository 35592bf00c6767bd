//! The YAML text of a generated model: scalars, counter sets, one line per event, and the
//! size limits a model's events must fit.

use crate::intel::event::PerfmonEvent;
use crate::mapfile::MapRow;
use crate::outcome::{EventOrigin, Import};
use crate::report::{Issue, Level};
use pmu_defs::Span;
use pmu_defs::model::{CounterSet, Event};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// YAML 1.1 words that are booleans or null, which must be quoted as names.
pub(crate) const YAML_SPECIAL: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
    "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
];

/// A scalar for a YAML flow context: plain when unambiguous, otherwise single-quoted, or
/// double-quoted with escapes when it has a character YAML cannot hold as it is.
pub(crate) fn scalar(s: &str) -> String {
    let plain = s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
        && !YAML_SPECIAL.contains(&s);
    if plain {
        s.to_owned()
    } else if s.chars().all(yaml_literal) {
        format!("'{}'", s.replace('\'', "''"))
    } else {
        quoted(s)
    }
}

/// True for a character a YAML scalar or comment may hold as it is, on one line: YAML 1.2's
/// printable set without tab, the characters YAML 1.1 takes as line breaks (U+0085,
/// U+2028, U+2029) and the byte-order mark. Anything else (a control character in a JSON
/// string or a file name, U+FFFE) must be escaped or left out.
pub(crate) fn yaml_literal(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{7E}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
        && !matches!(c, '\u{2028}' | '\u{2029}' | '\u{FEFF}')
}

/// A double-quoted YAML scalar: `"` and `\` escaped, every character [`yaml_literal`]
/// refuses as `\uXXXX` (or `\UXXXXXXXX`).
pub(crate) fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if yaml_literal(c) => out.push(c),
            c if u32::from(c) <= 0xFFFF => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => {
                let _ = write!(out, "\\U{:08X}", u32::from(c));
            }
        }
    }
    out.push('"');
    out
}

/// Text for a `#` comment: a character [`yaml_literal`] refuses (a line break would end the
/// comment and start YAML) becomes U+FFFD.
pub(crate) fn comment(s: &str) -> String {
    s.chars()
        .map(|c| if yaml_literal(c) { c } else { '\u{FFFD}' })
        .collect()
}

pub(crate) fn hex(v: u64) -> String {
    format!("0x{v:02X}")
}

/// `[0-3, 5]`.
pub(crate) fn ranges(list: &[u32]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < list.len() {
        let mut j = i;
        while j + 1 < list.len() && list[j + 1] == list[j] + 1 {
            j += 1;
        }
        parts.push(if j > i {
            format!("{}-{}", list[i], list[j])
        } else {
            list[i].to_string()
        });
        i = j + 1;
    }
    format!("[{}]", parts.join(", "))
}

pub(crate) fn counter_set(c: &CounterSet) -> String {
    if c.fixed.is_empty() {
        ranges(&c.general)
    } else if c.general.is_empty() {
        format!("{{ fixed: {} }}", ranges(&c.fixed))
    } else {
        format!(
            "{{ general: {}, fixed: {} }}",
            ranges(&c.general),
            ranges(&c.fixed)
        )
    }
}

pub(crate) fn one_or_list(v: &[u32]) -> String {
    match v {
        [one] => hex(u64::from(*one)),
        many => format!(
            "[{}]",
            many.iter()
                .map(|v| hex(u64::from(*v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// One event as a flow mapping on one line, with `allow` (code, reason) entries from the
/// reviewed findings.
pub(crate) fn event_line(e: &PerfmonEvent, version: u8, allow: &[(&str, &str)]) -> String {
    let mut kv: Vec<(&str, String)> = vec![
        ("name", scalar(&e.facts.name)),
        ("event", one_or_list(&e.codes)),
        ("umask", one_or_list(&e.umasks)),
    ];
    if let Some(u) = e.facts.umask2
        && (version >= 6 || u != 0)
    {
        kv.push(("umask2", hex(u64::from(u))));
    }
    if e.facts.eq {
        kv.push(("eq", "true".into()));
    }
    if e.facts.cmask != 0 {
        kv.push(("cmask", e.facts.cmask.to_string()));
    }
    for (k, v) in [
        ("inv", e.facts.inv),
        ("edge", e.facts.edge),
        ("any", e.facts.any),
    ] {
        if v {
            kv.push((k, "true".into()));
        }
    }
    if !e.counters.general.is_empty() {
        kv.push(("counters", ranges(&e.counters.general)));
    }
    if let Some(f) = e.counters.fixed.first() {
        kv.push(("fixed", f.to_string()));
    }
    let sets = [
        ("counters-ht-off", &e.counters_ht_off),
        ("pebs-counters", &e.pebs_counters),
        ("pdist-counters", &e.pdist_counters),
        ("pdir-counters", &e.pdir_counters),
    ];
    for (k, s) in sets {
        if let Some(s) = s {
            kv.push((k, counter_set(s)));
        }
    }
    if let Some((index, value)) = &e.msr {
        let index = match index.as_slice() {
            [one] => format!("0x{one:X}"),
            many => format!(
                "[{}]",
                many.iter()
                    .map(|i| format!("0x{i:X}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        kv.push(("msr", format!("{{ index: {index}, value: 0x{value:X} }}")));
    }
    if let Some(p) = e.facts.pebs {
        kv.push(("pebs", p.to_string()));
    }
    if let Some(c) = e.facts.collect_pebs_record {
        kv.push(("collect-pebs-record", c.to_string()));
    }
    for (k, v) in [
        ("precise", e.facts.precise),
        ("speculative", e.facts.speculative),
    ] {
        if let Some(v) = v {
            kv.push((k, v.to_string()));
        }
    }
    let flags = [
        ("deprecated", e.facts.deprecated),
        ("taken-alone", e.facts.taken_alone),
        ("data-la", e.facts.data_la),
        ("l1-hit-indication", e.facts.l1_hit_indication),
        ("offcore", e.facts.offcore),
        ("offmodule", e.facts.offmodule),
        ("msr-per-umask", e.facts.msr_per_umask),
        ("ellc", e.facts.ellc),
        ("precise-store", e.facts.precise_store),
    ];
    for (k, v) in flags {
        if v {
            kv.push((k, "true".into()));
        }
    }
    if !e.facts.errata.is_empty() {
        let list: Vec<String> = e.facts.errata.iter().map(|x| scalar(x)).collect();
        kv.push(("errata", format!("[{}]", list.join(", "))));
    }
    if let Some(s) = e.facts.sample_after {
        kv.push(("sample-after", s.to_string()));
    }
    if !allow.is_empty() {
        let list: Vec<String> = allow
            .iter()
            .map(|(code, reason)| format!("{{ code: {code}, reason: {} }}", scalar_text(reason)))
            .collect();
        kv.push(("allow", format!("[{}]", list.join(", "))));
    }
    let body: Vec<String> = kv.into_iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!("  - {{ {} }}\n", body.join(", "))
}

/// Room kept in a model for the line `cargo xtask import-perfmon` adds when it writes the file
/// (the `# yaml-language-server: $schema=` modeline, [`CoreModel::yaml_with_modeline`](crate::CoreModel::yaml_with_modeline)).
pub const MODELINE_ROOM: usize = 512;

/// The fewest bytes one event takes in a model: the line of an event with a one-letter name,
/// one code, one unit mask, one counter and nothing else.
pub(crate) fn min_event_bytes() -> usize {
    let mut e = PerfmonEvent {
        line: 1,
        codes: vec![0],
        umasks: vec![0],
        counters: CounterSet {
            general: vec![0],
            fixed: Vec::new(),
        },
        counters_ht_off: None,
        pebs_counters: None,
        pdist_counters: None,
        pdir_counters: None,
        msr: None,
        facts: Event::blank("A".into(), String::new(), Span::new(0, 0, 0)),
    };
    let general = event_line(&e, 6, &[]).len();
    e.counters = CounterSet {
        general: Vec::new(),
        fixed: vec![0],
    };
    general.min(event_line(&e, 6, &[]).len())
}

/// The most events one list may have: more cannot fit in a model the loader accepts under
/// `limits` (`max_bytes`, less [`MODELINE_ROOM`], over `min_event_bytes`), so such a list is
/// refused before its events are read.
pub fn max_events(limits: &pmu_defs::Limits) -> usize {
    limits.max_bytes.saturating_sub(MODELINE_ROOM) / min_event_bytes()
}

pub(crate) fn too_many_events(events: usize, limits: &pmu_defs::Limits) -> String {
    let min = min_event_bytes();
    format!(
        "{events} events: their model would be at least {} bytes of YAML ({min} bytes an event \
         at the least), more than the {} bytes the loader accepts in one file \
         (`yaml-too-large`), so it could never be loaded; not imported (at most {} events fit)",
        events.saturating_mul(min),
        limits.max_bytes,
        max_events(limits)
    )
}

/// Refuses (an error at its JSON file, the model dropped) each model whose YAML, with room for
/// the modeline, is larger than the loader accepts under `limits`: it could never be loaded,
/// and the loader would only say so after reading it.
pub(crate) fn check_sizes(imp: &mut Import, limits: &pmu_defs::Limits) {
    let max = limits.max_bytes.saturating_sub(MODELINE_ROOM);
    let issues = &mut imp.issues;
    imp.models.retain(|m| {
        if m.yaml.len() <= max {
            return true;
        }
        issues.push(Issue::new(
            Level::Error,
            &m.json_file,
            None,
            format!(
                "its model `{}` would be {} bytes of YAML ({} events), more than the {} bytes \
                 the loader accepts in one file (`yaml-too-large`, less {MODELINE_ROOM} bytes \
                 kept for the modeline), so it could never be loaded; not imported",
                m.file_name,
                m.yaml.len(),
                m.events,
                limits.max_bytes
            ),
        ));
        false
    });
}

/// A mapfile family-model as `cpus:` spells it: the mapfile writes the family in decimal,
/// as perf prints it (`get_cpuid_str`: `%s-%u-%X`; Nova Lake is `GenuineIntel-18-1`, family
/// 18 = 12H), `cpus:` in hex like the model (`GenuineIntel-12-1`). Families below 10 read
/// the same either way. A family that is not decimal is kept as given (the loader reports it).
pub fn family_in_hex(family_model: &str) -> String {
    let mut parts = family_model.splitn(3, '-');
    let (Some(vendor), Some(family), rest) = (parts.next(), parts.next(), parts.next()) else {
        return family_model.to_owned();
    };
    match family.parse::<u32>() {
        Ok(f) if family.bytes().all(|b| b.is_ascii_digit()) => match rest {
            Some(rest) => format!("{vendor}-{f:X}-{rest}"),
            None => format!("{vendor}-{f:X}"),
        },
        _ => family_model.to_owned(),
    }
}

/// `cpus:`, each family/model and core type once.
pub(crate) fn write_cpus(y: &mut String, cpus: &[&MapRow]) {
    if !cpus.is_empty() {
        let _ = writeln!(y, "cpus:");
        let mut seen = BTreeSet::new();
        for c in cpus {
            if !seen.insert((c.family_model.to_ascii_uppercase(), c.core_type)) {
                continue;
            }
            let mut parts = vec![format!(
                "family-model: {}",
                scalar(&family_in_hex(&c.family_model))
            )];
            if !c.version.is_empty() {
                parts.push(format!("version: {}", scalar(&c.version)));
            }
            if let Some(t) = c.core_type {
                parts.push(format!("core-type: 0x{t:02X}"));
            }
            if let Some(n) = c.native_model_id {
                parts.push(format!("native-model-id: 0x{n:06X}"));
            }
            if let Some(r) = &c.core_role {
                parts.push(format!("core-role: {}", scalar(r)));
            }
            let _ = writeln!(y, "  - {{ {} }}", parts.join(", "));
        }
    }
}

/// `events:`, one line (or block) each, with the `allow:`s `allows` gives; where each event's
/// line is in the YAML and was in the JSON.
pub(crate) fn write_events(
    y: &mut String,
    events: &[&PerfmonEvent],
    v: u8,
    allows: &BTreeMap<&str, Vec<(&str, &str)>>,
) -> Vec<EventOrigin> {
    let mut origins = Vec::with_capacity(events.len());
    if !events.is_empty() {
        y.push_str("events:\n");
        let mut line = y.bytes().filter(|&b| b == b'\n').count() + 1;
        for e in events {
            origins.push(EventOrigin {
                yaml_line: line,
                name: e.facts.name.clone(),
                json_line: e.line,
            });
            let allow = allows
                .get(e.facts.name.as_str())
                .map_or(&[][..], Vec::as_slice);
            let text = event_line(e, v, allow);
            line += text.bytes().filter(|&b| b == b'\n').count();
            y.push_str(&text);
        }
    }
    origins
}

/// Free text as a YAML scalar on one line: double-quoted (JSON escapes are valid YAML).
pub(crate) fn scalar_text(s: &str) -> String {
    let simple = s.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && s.chars()
            .all(|c| yaml_literal(c) && !"\"'{}[],&*!|>%@`".contains(c));
    if simple { s.to_owned() } else { quoted(s) }
}
