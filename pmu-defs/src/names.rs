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

/// `BR_INST_RETIRED.ALL_BRANCHES` -> `BrInstRetiredAllBranches`; `PORT_2_3` -> `Port2_3` (an
/// underscore stays between two digits so distinct names stay distinct).
pub fn event_variant(name: &str) -> String {
    let mut out = String::new();
    for word in name
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
        assert_eq!(
            event_variant("BR_INST_RETIRED.ALL_BRANCHES"),
            "BrInstRetiredAllBranches"
        );
        assert_eq!(
            event_variant("UOPS_DISPATCHED.PORT_2_3"),
            "UopsDispatchedPort2_3"
        );
        assert_eq!(
            event_variant("UOPS_DISPATCHED.PORT_23"),
            "UopsDispatchedPort23"
        );
        assert_eq!(event_variant("OCR.X:c=1"), "OcrXC1");
        assert_eq!(event_variant("1ST"), "E1st");
    }

    #[test]
    fn tock() {
        assert_eq!(tock_names("EN", Some(2), 1), ["EN0", "EN1"]);
        assert_eq!(tock_names("EV", None, 2), ["EV_LO", "EV_HI"]);
    }
}
