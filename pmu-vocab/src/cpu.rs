//! How a user names a CPU, read the same way by the definitions' model
//! (`pmu_defs::Model::find_cpu`, over definitions loaded from YAML) and by `pmu-regs`
//! (`pmu_regs::arch::find_cpu`, over the tables compiled in): CPU names compared without
//! regard to case, spaces, `-` and `_` ([`folded`], [`same_name`]), and the family/model forms
//! ([`FamilyModel`]).

/// The characters of `name` as names are compared: lower case, without spaces, `-` and `_`
/// ("Ice_Lake-SP" reads as `icelakesp`).
pub fn folded(name: &str) -> impl Iterator<Item = char> + '_ {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .flat_map(char::to_lowercase)
}

/// True when `a` and `b` are the same name once [`folded`] ("Zen-4" and "zen 4").
pub fn same_name(a: &str, b: &str) -> bool {
    folded(a).eq(folded(b))
}

/// A family and model: vendor string (when known), family and model numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FamilyModel<'a> {
    /// `GenuineIntel`, `AuthenticAMD`; `None` when the query did not say.
    pub vendor: Option<&'a str>,
    /// The family (display family: `0x19` for Zen 3 and Zen 4).
    pub family: u32,
    /// The model (display model).
    pub model: u32,
}

/// The CPUID vendor strings a `cpus:` entry may start with.
pub const VENDORS: &[&str] = &["GenuineIntel", "AuthenticAMD", "HygonGenuine"];

/// A hex number as a family or model is written: `8F`, `0x8F`, `8Fh`; at most four digits.
fn hex(t: &str) -> Option<u32> {
    let t = t.trim();
    let t = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(t);
    let t = t
        .strip_suffix('h')
        .or_else(|| t.strip_suffix('H'))
        .unwrap_or(t);
    if t.is_empty() || t.len() > 4 {
        return None;
    }
    u32::from_str_radix(t, 16).ok()
}

impl<'a> FamilyModel<'a> {
    /// Reads `GenuineIntel-6-8F` (a `cpus:` entry; a stepping suffix is ignored), `06_8F`
    /// (Intel's DisplayFamily_DisplayModel) or `19h/11h`, `0x19/0x11`. Numbers are hex.
    ///
    /// ```
    /// use pmu_vocab::cpu::FamilyModel;
    /// let spr = FamilyModel::parse("06_8F").unwrap();
    /// assert_eq!((spr.family, spr.model), (6, 0x8f));
    /// assert!(spr.matches("GenuineIntel-6-8F-[45678]"));
    /// assert_eq!(FamilyModel::parse("Sapphire Rapids"), None);
    /// ```
    pub fn parse(s: &'a str) -> Option<Self> {
        let mut parts = s.split('-');
        if let (Some(vendor), Some(f), Some(m)) = (parts.next(), parts.next(), parts.next())
            && VENDORS.contains(&vendor)
        {
            return Some(FamilyModel {
                vendor: Some(vendor),
                family: hex(f)?,
                model: hex(m)?,
            });
        }
        let (f, m) = s.split_once('_').or_else(|| s.split_once('/'))?;
        Some(FamilyModel {
            vendor: None,
            family: hex(f)?,
            model: hex(m)?,
        })
    }

    /// True when the `cpus:` entry `family_model` names this family and model (and vendor,
    /// when this one has one).
    pub fn matches(&self, family_model: &str) -> bool {
        FamilyModel::parse(family_model).is_some_and(|c| self.is(c.vendor, c.family, c.model))
    }

    /// True when this is `family`/`model` of `vendor` (any vendor when this one says none).
    pub fn is(&self, vendor: Option<&str>, family: u32, model: u32) -> bool {
        self.family == family
            && self.model == model
            && self.vendor.is_none_or(|v| Some(v) == vendor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fold_case_spaces_dashes_and_underscores() {
        assert!(same_name("Sapphire Rapids", "sapphirerapids"));
        assert!(same_name("Zen-4", "zen 4"));
        assert!(same_name("Ice_Lake-SP", "ICELAKESP"));
        assert!(!same_name("Zen 4", "Zen 5"));
        assert!(!same_name("Zen", "Zen 4"));
    }

    #[test]
    fn family_model_forms() {
        let f = |s| FamilyModel::parse(s).map(|f| (f.vendor, f.family, f.model));
        assert_eq!(f("06_8F"), Some((None, 6, 0x8f)));
        assert_eq!(f("19h/11h"), Some((None, 0x19, 0x11)));
        assert_eq!(f("0x19/0x61"), Some((None, 0x19, 0x61)));
        assert_eq!(
            f("GenuineIntel-6-55-[01234]"),
            Some((Some("GenuineIntel"), 6, 0x55))
        );
        assert_eq!(
            f("AuthenticAMD-19-11"),
            Some((Some("AuthenticAMD"), 0x19, 0x11))
        );
        assert_eq!(f("Zen 4"), None);
        assert_eq!(f("06_"), None);
        assert_eq!(f("12345_1"), None);
        assert_eq!(f("Intel-6-8F"), None);
        for bad in ["", "skylake", "06", "zz_11"] {
            assert_eq!(f(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_vendor_matches_only_when_both_say_one() {
        let spr = FamilyModel::parse("06_8F").unwrap();
        assert!(spr.matches("GenuineIntel-6-8F"));
        let amd = FamilyModel::parse("AuthenticAMD-6-8F").unwrap();
        assert!(!amd.matches("GenuineIntel-6-8F"));
        assert!(!amd.is(None, 6, 0x8f));
        assert!(spr.is(None, 6, 0x8f));
        assert!(!spr.matches("GenuineIntel-6-55-[01234]"));
        assert!(
            FamilyModel::parse("6/8fh")
                .unwrap()
                .matches("GenuineIntel-6-8F")
        );
    }
}
