//! The `requires:` notation of the definitions: the CPUID bit or IA32_PERF_CAPABILITIES bit
//! a field needs, in the manuals' notation
//! (`CPUID.(EAX=07H,ECX=0):EBX.HLE[4] = 1 or EBX.RTM[11] = 1`,
//! `IA32_PERF_CAPABILITIES.PEBS_BASELINE[14] = 1`, `CPUID Fn8000_0022_EAX[LbrExtV2] (bit 1) = 1`;
//! the capabilities register is the one with the `capabilities` role), and its evaluation
//! on what a CPU or guest reports ([`Facts`]). `pmu_regs::guest` evaluates it on a guest's
//! CPUID; the generator on the full-featured guest of a generation (every feature bit set),
//! for the write-mask constants. A condition in any other form is not understood ([`eval`]
//! returns `None`) and the field counts as absent.

/// What a condition is evaluated on.
pub trait Facts {
    /// CPUID `leaf`/`subleaf` (EAX, EBX, ECX, EDX) as the guest sees it (`None`: not
    /// enumerated or not recorded).
    fn cpuid(&self, leaf: u32, subleaf: u32) -> Option<[u32; 4]>;
    /// The guest's IA32_PERF_CAPABILITIES (0 when it has none).
    fn perf_capabilities(&self) -> u64;
    /// The name of the generation's register with the `capabilities` role, as conditions
    /// name it.
    fn capabilities_name(&self) -> Option<&str>;
}

/// The register a term reads.
#[derive(Clone, Copy)]
enum Source {
    Cpuid { leaf: u32, subleaf: u32 },
    Capabilities,
}

/// Evaluates a `requires:` text: terms joined by ` or `, each `[PREFIX]REG.NAME[bit] = v`;
/// a term without a prefix reads the previous term's leaf. `None` when the text is not in
/// this notation.
pub fn eval(text: &str, facts: &impl Facts) -> Option<bool> {
    let mut source: Option<Source> = None;
    let mut any = false;
    for term in text.split(" or ") {
        let (src, reg, rest) = split_term(term.trim(), source, facts.capabilities_name())?;
        source = Some(src);
        let (bit, want) = bit_and_value(rest)?;
        let value = match src {
            Source::Capabilities => facts.perf_capabilities(),
            Source::Cpuid { leaf, subleaf } => {
                let r = facts.cpuid(leaf, subleaf).unwrap_or_default();
                u64::from(r[reg?])
            }
        };
        if bit >= 64 {
            return None;
        }
        any |= (value >> bit) & 1 == want;
    }
    Some(any)
}

/// The term's source, its output register (index EAX..EDX; `None` for capabilities) and the
/// text after the register (`.NAME[bit] = v` or AMD's `[Name] (bit n) = v`).
fn split_term<'t>(
    term: &'t str,
    previous: Option<Source>,
    capabilities: Option<&str>,
) -> Option<(Source, Option<usize>, &'t str)> {
    if let Some(rest) = capabilities.and_then(|c| term.strip_prefix(c)) {
        return Some((Source::Capabilities, None, rest));
    }
    // AMD's notation: `CPUID Fn8000_0022_EAX[Name] (bit n) = v`.
    if let Some(rest) = term.strip_prefix("CPUID Fn") {
        let (hi, rest) = rest.split_once('_')?;
        let (lo, rest) = rest.split_once('_')?;
        let leaf = u32::from_str_radix(hi, 16).ok()? << 16 | u32::from_str_radix(lo, 16).ok()?;
        let (reg, rest) = register(rest)?;
        return Some((Source::Cpuid { leaf, subleaf: 0 }, Some(reg), rest));
    }
    // Intel's notation: `CPUID.(EAX=07H,ECX=0):EBX.NAME[b]` or `CPUID.01H:EDX.NAME[b]`.
    let (src, rest) = if let Some(rest) = term.strip_prefix("CPUID.(EAX=") {
        let (leaf, rest) = rest.split_once("H,ECX=")?;
        let (subleaf, rest) = rest.split_once("):")?;
        let leaf = u32::from_str_radix(leaf, 16).ok()?;
        let subleaf = subleaf.trim_end_matches('H').parse().ok()?;
        (Source::Cpuid { leaf, subleaf }, rest)
    } else if let Some(rest) = term.strip_prefix("CPUID.") {
        let (leaf, rest) = rest.split_once("H:")?;
        let leaf = u32::from_str_radix(leaf, 16).ok()?;
        (Source::Cpuid { leaf, subleaf: 0 }, rest)
    } else {
        (previous?, term)
    };
    let (reg, rest) = register(rest)?;
    Some((src, Some(reg), rest))
}

/// `EAX`..`EDX` at the start of `s` (Intel's notation) or after AMD's `_` (as `EAX[`).
fn register(s: &str) -> Option<(usize, &str)> {
    ["EAX", "EBX", "ECX", "EDX"]
        .iter()
        .position(|r| s.starts_with(r))
        .map(|i| (i, &s[3..]))
}

/// `.NAME[bit] = v` or `[Name] (bit n) = v`: the bit and the value it must have.
fn bit_and_value(s: &str) -> Option<(u32, u64)> {
    let (lhs, value) = s.rsplit_once('=')?;
    let want = match value.trim() {
        "0" => 0,
        "1" => 1,
        _ => return None,
    };
    let lhs = lhs.trim();
    let bit = if let Some(at) = lhs.rfind("(bit ") {
        lhs[at + 5..].strip_suffix(')')?
    } else {
        let open = lhs.rfind('[')?;
        lhs[open + 1..].strip_suffix(']')?
    };
    Some((bit.trim().parse().ok()?, want))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct F {
        leaf7_ebx: u32,
        caps: u64,
        amd: u32,
    }
    impl Facts for F {
        fn cpuid(&self, leaf: u32, subleaf: u32) -> Option<[u32; 4]> {
            match (leaf, subleaf) {
                (7, 0) => Some([0, self.leaf7_ebx, 0, 0]),
                (0x8000_0022, 0) => Some([self.amd, 0, 0, 0]),
                _ => None,
            }
        }
        fn perf_capabilities(&self) -> u64 {
            self.caps
        }
        fn capabilities_name(&self) -> Option<&str> {
            Some("CAPS")
        }
    }

    const TSX: &str = "CPUID.(EAX=07H,ECX=0):EBX.HLE[4] = 1 or EBX.RTM[11] = 1";

    #[test]
    fn reads_the_notations_of_both_manuals() {
        let f = |leaf7_ebx, caps, amd| F {
            leaf7_ebx,
            caps,
            amd,
        };
        assert_eq!(eval(TSX, &f(0, 0, 0)), Some(false));
        assert_eq!(eval(TSX, &f(1 << 4, 0, 0)), Some(true));
        assert_eq!(eval(TSX, &f(1 << 11, 0, 0)), Some(true));
        let pebs = "CAPS.PEBS_BASELINE[14] = 1";
        assert_eq!(eval(pebs, &f(0, 1 << 14, 0)), Some(true));
        assert_eq!(eval(pebs, &f(0, 1 << 13, 0)), Some(false));
        let amd = "CPUID Fn8000_0022_EAX[LbrAndPmcFreeze] (bit 2) = 1";
        assert_eq!(eval(amd, &f(0, 0, 4)), Some(true));
        assert_eq!(eval(amd, &f(0, 0, 3)), Some(false));
        assert_eq!(eval("CPUID.01H:EDX.DS[21] = 1", &f(0, 0, 0)), Some(false));
    }

    #[test]
    fn other_text_is_not_understood() {
        let f = F {
            leaf7_ebx: !0,
            caps: !0,
            amd: !0,
        };
        assert_eq!(eval("level-2 top-down metrics", &f), None);
        assert_eq!(eval("EBX.RTM[11] = 1", &f), None, "no leaf to continue");
        assert_eq!(eval("CAPS.X[99] = 1", &f), None);
        assert_eq!(eval("CAPS.X[1] = 2", &f), None);
    }
}
