//! Rust names the code generator derives from YAML names, shared with the validator so that a
//! collision is reported at the YAML line instead of failing to compile.

/// Names the generated module of every register already uses (constants, types): a field may
/// not be called one of these.
pub const RESERVED_FIELD_NAMES: &[&str] = &[
    "ADDRESS",
    "ADDRESS_STRIDE",
    "ADDRESSES",
    "BASE_ADDRESS",
    "BUILDER",
    "INSTANCE",
    "INSTANCES",
    "MSR",
    "REGISTER",
    "VALUE",
];

/// The module under each vendor that holds the register layouts several CPU-model
/// generations share (`intel::shared`): no generation's module may have this name.
pub const SHARED_MODULE: &str = "shared";

/// Keywords of every Rust edition (2015 to 2024), strict and reserved: none of them can be a
/// plain identifier in generated code.
pub const KEYWORDS: &[&str] = &[
    "Self", "abstract", "as", "async", "await", "become", "box", "break", "const", "continue",
    "crate", "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if",
    "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub",
    "ref", "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// True when `s` is a plain Rust identifier in every edition: ASCII letters, digits and `_`,
/// not starting with a digit, not `_` alone, and not a keyword.
pub fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s != "_"
        && !KEYWORDS.contains(&s)
}

/// The module path of a generation: `intel-v3` -> `["intel", "v3"]`, `amd-perfmon-v2` ->
/// `["amd", "perfmon_v2"]`, `k7` -> `["k7"]`.
pub fn module_path(id: &str) -> Vec<String> {
    let snake = |s: &str| s.replace(['-', '.'], "_").to_ascii_lowercase();
    match id.split_once('-') {
        Some((vendor, rest)) => vec![snake(vendor), snake(rest)],
        None => vec![snake(id)],
    }
}

/// A CamelCase type name from a YAML name: `intel-v4` -> `IntelV4` (a generation's marker
/// type and `Generation` variant), `IA32_PMC` -> `Ia32Pmc` (a register's alias type); a
/// leading digit gets a `V`.
pub fn camel(s: &str) -> String {
    let mut out = String::new();
    for part in s.split(['_', '-']).filter(|p| !p.is_empty()) {
        let mut cs = part.chars();
        if let Some(c) = cs.next() {
            out.push(c.to_ascii_uppercase());
            out.extend(cs.map(|c| c.to_ascii_lowercase()));
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    out
}

/// `BR_INST_RETIRED.ALL_BRANCHES` -> `BrInstRetired_AllBranches`: each `.`-separated part in
/// CamelCase, parts joined by `_` (so `RS.EMPTY_COUNT` and `RS_EMPTY.COUNT` stay distinct);
/// inside a part an underscore stays between two digits (`PORT_2_3` -> `Port2_3`).
pub fn event_variant(name: &str) -> String {
    let mut parts = Vec::new();
    for part in name.split('.') {
        let mut out = String::new();
        for word in part
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            let starts_digit = word.starts_with(|c: char| c.is_ascii_digit());
            if starts_digit && out.ends_with(|c: char| c.is_ascii_digit()) {
                out.push('_');
            }
            let mut chars = word.chars();
            if let Some(c) = chars.next() {
                out.push(c.to_ascii_uppercase());
                out.extend(chars.map(|c| c.to_ascii_lowercase()));
            }
        }
        if !out.is_empty() {
            parts.push(out);
        }
    }
    let mut out = parts.join("_");
    if out.starts_with(|c: char| c.is_ascii_digit()) || out.is_empty() {
        out.insert(0, 'E');
    }
    out
}

/// The tock-registers field names generated for a field: one per array element (`EN_PMC0`..),
/// and `_LO`/`_HI` (or `_P<i>`) parts for split fields.
pub fn tock_names(name: &str, array_count: Option<u32>, parts: usize) -> Vec<String> {
    let elems: Vec<String> = match array_count {
        Some(n) => (0..n).map(|i| format!("{name}{i}")).collect(),
        None => vec![name.to_string()],
    };
    elems
        .into_iter()
        .flat_map(|e| match parts {
            0 | 1 => vec![e],
            2 => vec![format!("{e}_LO"), format!("{e}_HI")],
            n => (0..n).map(|i| format!("{e}_P{i}")).collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants() {
        let cases = [
            ("BR_INST_RETIRED.ALL_BRANCHES", "BrInstRetired_AllBranches"),
            ("UOPS_DISPATCHED.PORT_2_3", "UopsDispatched_Port2_3"),
            ("UOPS_DISPATCHED.PORT_23", "UopsDispatched_Port23"),
            ("RS.EMPTY_COUNT", "Rs_EmptyCount"),
            ("RS_EMPTY.COUNT", "RsEmpty_Count"),
            ("OCR.X:c=1", "Ocr_XC1"),
            ("1ST", "E1st"),
        ];
        for (name, want) in cases {
            assert_eq!(event_variant(name), want, "{name}");
        }
    }

    #[test]
    fn tock() {
        assert_eq!(tock_names("EN", Some(2), 1), ["EN0", "EN1"]);
        assert_eq!(tock_names("EV", None, 2), ["EV_LO", "EV_HI"]);
    }
}
