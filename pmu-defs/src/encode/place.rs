//! The encoder's helpers: placing an event on a counter, the fields of the event select and
//! fixed-counter control it programs, and how perf names the generation's PMU.

use super::*;

/// Fields of the fixed-counter control register this module programs, by name: the
/// privilege-level block (named values `OS`, `USR`, `ALL`, `DISABLED`), AnyThread, and the
/// overflow interrupt (Intel SDM Vol. 3B §18.2.2, IA32_FIXED_CTR_CTRL).
pub(super) const FIXED_ENABLE: &str = "ENABLE";
pub(super) const FIXED_ANY: &str = "ANY";
pub(super) const FIXED_PMI: &str = "PMI";

/// perf's `umask` on a generation: UMASK's width and UMASK2's above it.
#[derive(Clone, Debug)]
pub(super) struct UmaskLayout {
    pub(super) width: u32,
    pub(super) umask2_width: u32,
    pub(super) fields: String,
    pub(super) register: String,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Attrs {
    pub(super) cmask: u64,
    pub(super) inv: bool,
    pub(super) edge: bool,
    pub(super) any: bool,
    pub(super) eq: bool,
    pub(super) usr: bool,
    pub(super) os: bool,
    pub(super) int: bool,
    pub(super) en: bool,
}

pub(super) fn place(
    g: &Generation,
    def: &EventDef,
    counter: Option<Counter>,
) -> Result<Placement, Error> {
    let allowed_general = |n: u32| def.counters.as_ref().is_none_or(|c| c.contains(&n));
    let has_general = def.counters.as_ref().is_none_or(|c| !c.is_empty());
    match counter {
        None if has_general => Ok(Placement::General(None)),
        None => match def.fixed {
            Some(n) => Ok(Placement::Fixed(n)),
            None => Err(Error::CounterNotAllowed {
                event: def.name.clone(),
                requested: Counter::General(0),
                allowed: "no counter at all (its counter list is empty)".into(),
            }),
        },
        Some(Counter::General(n)) => {
            let count = g.general_counters();
            if n >= count {
                return Err(Error::NoSuchCounter {
                    requested: Counter::General(n),
                    generation: g.id.clone(),
                    count,
                });
            }
            if allowed_general(n) {
                return Ok(Placement::General(Some(n)));
            }
            match (has_general, def.fixed) {
                (false, Some(f)) => Err(Error::FixedOnly {
                    event: def.name.clone(),
                    fixed: f,
                    requested: n,
                }),
                _ => Err(Error::CounterNotAllowed {
                    event: def.name.clone(),
                    requested: Counter::General(n),
                    allowed: describe_counters(def),
                }),
            }
        }
        Some(Counter::Fixed(n)) => {
            let count = g.fixed_counters();
            if n >= count {
                return Err(Error::NoSuchCounter {
                    requested: Counter::Fixed(n),
                    generation: g.id.clone(),
                    count,
                });
            }
            if def.fixed == Some(n) {
                Ok(Placement::Fixed(n))
            } else {
                Err(Error::CounterNotAllowed {
                    event: def.name.clone(),
                    requested: Counter::Fixed(n),
                    allowed: describe_counters(def),
                })
            }
        }
    }
}

pub(super) fn describe_counters(def: &EventDef) -> String {
    let general = match &def.counters {
        None => Some("every general counter".to_string()),
        Some(c) if c.is_empty() => None,
        Some(c) => Some(format!("general counters {}", ranges(c))),
    };
    let fixed = def.fixed.map(|f| format!("fixed counter {f}"));
    match (general, fixed) {
        (Some(g), Some(f)) => format!("{g} and {f}"),
        (Some(g), None) => g,
        (None, Some(f)) => f,
        (None, None) => "no counter".into(),
    }
}

/// `0-3,5` from a sorted list.
pub(crate) fn ranges(list: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < list.len() {
        let start = list[i];
        let mut end = start;
        while i + 1 < list.len() && list[i + 1] == end + 1 {
            end += 1;
            i += 1;
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    out.join(",")
}

/// The select-register field an encoding attribute goes into, if the generation has one.
pub(super) fn encoding_field<'g>(
    g: &'g Generation,
    sel: &'g Register,
    attr: &str,
) -> Option<&'g Field> {
    g.pmu.encoding_field(attr).and_then(|f| sel.field(f))
}

pub(super) fn unsupported(g: &Generation, sel: &Register, attr: &str) -> Error {
    let what = match attr {
        "any" => "AnyThread",
        "eq" => "the equal-compare flag",
        "umask2" => "a second unit mask (UMASK2)",
        "cmask" => "a counter mask",
        "edge" => "edge detect",
        "inv" => "invert",
        "int" => "an interrupt-enable bit",
        "en" => "an enable bit",
        _ => "a field for it",
    };
    let added = match attr {
        "any" => " (Intel added it in architectural performance monitoring version 3)",
        "eq" | "umask2" => " (Intel added it in architectural performance monitoring version 6)",
        _ => "",
    };
    Error::Unsupported {
        attr: attr.into(),
        generation: g.id.clone(),
        reason: format!("{} has no {what}{added}", sel.name),
    }
}

pub(super) fn unsupported_fixed_any(g: &Generation, ctrl: &Register) -> Error {
    Error::Unsupported {
        attr: "any".into(),
        generation: g.id.clone(),
        reason: format!(
            "{} has no AnyThread bit (Intel added it in architectural performance \
             monitoring version 3)",
            ctrl.name
        ),
    }
}

/// True when `g` is the field's deprecation generation or descends from it.
pub(crate) fn deprecated_in(g: &Generation, field: &Field) -> bool {
    field
        .deprecated
        .as_ref()
        .is_some_and(|d| g.id == d.since || g.ancestors.contains(&d.since))
}

pub(super) fn check_deprecation(g: &Generation, field: &Field, attr: &str) -> Result<(), Error> {
    if deprecated_in(g, field) {
        let d = field.deprecated.as_ref().expect("checked by deprecated_in");
        return Err(Error::Deprecated {
            attr: attr.into(),
            field: field.name.clone(),
            generation: g.id.clone(),
            since: d.since.clone(),
            when: d.when.clone(),
        });
    }
    Ok(())
}

/// True when every condition of the constraint holds for `value` of `reg`.
pub(crate) fn fires(c: &Constraint, reg: &Register, value: u64) -> bool {
    c.when.iter().all(|cond| {
        reg.field(&cond.field)
            .is_some_and(|f| f.extract(0, value) == cond.value)
    })
}

/// `7:0,35:32` (element shifted by `shift`).
pub(crate) fn bits_text(bits: &[BitRange], shift: u32) -> String {
    bits.iter()
        .map(|b| {
            let (lo, hi) = (b.lsb + shift, b.msb + shift);
            if lo == hi {
                lo.to_string()
            } else {
                format!("{hi}:{lo}")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

pub(super) fn lowest_bit(reg: &Register, field: &str) -> u32 {
    reg.field(field)
        .and_then(|f| f.bits.iter().map(|b| b.lsb).min())
        .unwrap_or(u32::MAX)
}

/// `IA32_PERFEVTSEL2` for an address of an indexed family (its own or its alias range), the
/// plain name otherwise.
pub(crate) fn instance_name(r: &Register, address: u32) -> String {
    match r.index_at(address) {
        Some(i) if r.msr.indexed => format!("{}{i}", r.name),
        _ => r.name.clone(),
    }
}

/// The perf PMU name events of this generation are spelled with (see [`perf`]): `cpu`, or
/// on hybrid parts the PMU of the core type its `cpus` name (`cpu_core`, `cpu_atom`,
/// `cpu_lowpower`). A generation whose list also serves a non-hybrid part (Alder Lake N uses
/// the Gracemont list) is spelled for the hybrid parts; [`Encoder::encode`] adds a note.
pub fn perf_pmu(g: &Generation) -> &'static str {
    g.cpus
        .iter()
        .find_map(|c| c.core_role.as_deref())
        .map_or("cpu", perf::pmu_for_core_role)
}

/// The family-models of a generation's CPUs that are not hybrid, when others are.
pub(super) fn non_hybrid_cpus(g: &Generation) -> Vec<&str> {
    if g.cpus.iter().all(|c| c.core_role.is_none()) {
        return Vec::new();
    }
    g.cpus
        .iter()
        .filter(|c| c.core_role.is_none())
        .map(|c| c.family_model.as_str())
        .collect()
}
