//! Identifying the CPU: [`detect`], [`detect_live`] and [`detect_for`] read the vendor and
//! family/model, choose the generation whose `detect:` rule holds, and [`facilities`] finds
//! the optional facilities.

use super::*;

/// Detects the PMU of the running processor.
#[cfg(target_arch = "x86_64")]
pub fn detect_live() -> PmuInfo {
    detect(&mut LiveCpuid)
}

/// Reads CPUID fields within the limits the CPU reports.
pub(super) struct Reader<'s, S: CpuidSource + ?Sized> {
    pub(super) src: &'s mut S,
    pub(super) max_leaf: u32,
    pub(super) max_ext_leaf: u32,
}

impl<S: CpuidSource + ?Sized> Reader<'_, S> {
    pub(super) fn enumerated(&self, leaf: u32) -> bool {
        if leaf >= EXT_LEAF0 {
            leaf <= self.max_ext_leaf
        } else {
            leaf <= self.max_leaf
        }
    }

    pub(super) fn leaf(&mut self, leaf: u32, subleaf: u32) -> Option<CpuidResult> {
        self.enumerated(leaf).then(|| self.src.cpuid(leaf, subleaf))
    }

    /// The field's value, or `None` when its leaf (or subleaf) is not enumerated. A subleaf
    /// other than 0 is read only when the leaf's `subleaf-bitmap` (in `e`) lists it; a leaf with
    /// a `subleaf-bitmap` only when CPUID.(07H,1):EAX\[8\] (ArchPerfmonExt) enumerates it.
    pub(super) fn field(&mut self, f: CpuidField, e: &crate::arch::EnumerationSpec) -> Option<u32> {
        if let Some(b) = e.subleaf_bitmap.filter(|b| b.leaf == f.leaf) {
            if !self.ext_leaf_enumerated() {
                return None;
            }
            if f.subleaf != b.subleaf {
                let map = self.field(b, &crate::arch::EnumerationSpec::default())?;
                if f.subleaf >= 32 || map & (1 << f.subleaf) == 0 {
                    return None;
                }
            }
        }
        let r = self.leaf(f.leaf, if f.has_subleaf { f.subleaf } else { 0 })?;
        Some(f.get([r.eax, r.ebx, r.ecx, r.edx]))
    }

    pub(super) fn ext_leaf_enumerated(&mut self) -> bool {
        self.max_leaf >= LEAF7
            && self.src.cpuid(LEAF7, 0).eax >= 1
            && self.src.cpuid(LEAF7, 1).eax & LEAF7_1_EAX_ARCH_PERFMON_EXT != 0
    }
}

/// Detects the PMU from CPUID answers.
pub fn detect<S: CpuidSource + ?Sized>(src: &mut S) -> PmuInfo {
    let (mut info, hybrid) = identify(src);
    let Some(vendor) = info.vendor.pmu_vendor() else {
        info.note(Note::UnknownVendor);
        return info;
    };
    let mut rd = Reader {
        src,
        max_leaf: info.max_leaf,
        max_ext_leaf: info.max_ext_leaf,
    };
    let generation = choose(&mut rd, &mut info, vendor);
    choose_model(&mut info, vendor, hybrid, generation);
    let Some(generation) = generation else {
        return info;
    };
    info.generation = Some(generation);
    // A model generation extends the architectural one: same CPUID fields, its own (possibly
    // wider) counter families.
    let target = info.model.unwrap_or(generation);
    info.id = Some(target.id());
    enumerate(&mut rd, &mut info, &Facts::of_generation(target));
    info
}

/// Detection for one generation `A`, built in or defined outside `pmu-regs` through
/// `registers!`: `Some` when the CPU is of `A`'s vendor and `A`'s own `detect:` condition
/// holds (or, for a model generation, its `cpus:` lists the CPU), with the counters `A`'s
/// CPUID fields enumerate; `None` otherwise, and for a generation with neither. The result's
/// [`PmuInfo::id`] is `A::ID`, so `Pmu::<A, _>::new` accepts it.
pub fn detect_for<A: Arch, S: CpuidSource + ?Sized>(src: &mut S) -> Option<PmuInfo> {
    let (mut info, hybrid) = identify(src);
    let d = A::DETECT;
    if info.vendor.pmu_vendor() != Some(d.vendor) {
        return None;
    }
    let mut rd = Reader {
        src,
        max_leaf: info.max_leaf,
        max_ext_leaf: info.max_ext_leaf,
    };
    let matched = match holds(&mut rd, &info, &d) {
        Some(ok) => ok,
        None => cpu_listed(&info, d.cpus, hybrid),
    };
    if !matched {
        return None;
    }
    if let Some((f, _)) = d.cpuid {
        info.enumeration.condition = rd.field(f, &d.enumeration);
    }
    info.generation = A::generation();
    info.id = Some(A::ID);
    enumerate(&mut rd, &mut info, &Facts::of::<A>());
    Some(info)
}

/// The facilities ([`Facility`]) a CPU has: those of its vendor whose `detect:` condition
/// holds, and that of every facility it extends (Data Fabric counters in the PerfMonV2
/// layout need PerfMonV2 and the Data Fabric counters themselves), each facility that
/// another found one extends left out (on a family 19h AMD CPU, the family 19h L3 layout and
/// not the family 17h one it extends). A facility is a generation
/// outside the core PMU's chain, such as architectural LBRs or AMD's L3 and Data Fabric
/// counters; its registers are in [`Facility::module`].
pub fn facilities<S: CpuidSource + ?Sized>(src: &mut S) -> Facilities {
    let (info, _) = identify(src);
    let mut found = Facilities::default();
    let Some(vendor) = info.vendor.pmu_vendor() else {
        return found;
    };
    let mut rd = Reader {
        src,
        max_leaf: info.max_leaf,
        max_ext_leaf: info.max_ext_leaf,
    };
    for &f in Facility::ALL {
        let d = f.detect();
        if d.vendor == vendor && holds(&mut rd, &info, &d) == Some(true) {
            found.mask |= 1 << f as u32;
        }
    }
    // An extension needs what it extends.
    let holding = found;
    let parent_missing = |f: Facility| {
        let parents = f.detect().ancestors.iter();
        parents
            .filter_map(|a| Facility::ALL.iter().find(|p| p.id() == *a))
            .any(|&p| !holding.contains(p))
    };
    for f in holding.iter().filter(|&f| parent_missing(f)) {
        found.mask &= !(1 << f as u32);
    }
    // Keep the deepest of each chain: drop a facility a found one extends.
    let mut extended = 0u64;
    for f in found.iter() {
        for &a in f.detect().ancestors {
            if let Some(&p) = Facility::ALL.iter().find(|p| p.id() == a) {
                extended |= 1 << p as u32;
            }
        }
    }
    found.mask &= !extended;
    found
}

/// The set of facilities [`facilities`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Facilities {
    pub(super) mask: u64,
}

// One bit per facility (the generator refuses more than 64).
const _: () = assert!(Facility::ALL.len() <= 64);

impl Facilities {
    /// Whether the CPU has facility `f`.
    pub fn contains(&self, f: Facility) -> bool {
        self.mask & (1 << f as u32) != 0
    }

    /// The facilities found, in definition order.
    pub fn iter(&self) -> impl Iterator<Item = Facility> + '_ {
        Facility::ALL.iter().copied().filter(|&f| self.contains(f))
    }

    /// Whether none was found.
    pub fn is_empty(&self) -> bool {
        self.mask == 0
    }
}

/// A set of facilities given by hand, such as what a simulated CPU has (the mock backend's
/// `MockConfig::with_facilities`).
impl FromIterator<Facility> for Facilities {
    fn from_iter<I: IntoIterator<Item = Facility>>(iter: I) -> Self {
        Facilities {
            mask: iter.into_iter().fold(0, |m, f| m | 1 << f as u32),
        }
    }
}

impl fmt::Display for Facilities {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for x in self.iter() {
            write!(f, "{}{x}", if first { "" } else { ", " })?;
            first = false;
        }
        if first {
            f.write_str("none")?;
        }
        Ok(())
    }
}

/// Leaves 0, 1, 1AH and the highest extended leaf: vendor, signature, hypervisor and
/// IA32_PERF_CAPABILITIES bits, and the hybrid core type.
pub(super) fn identify<S: CpuidSource + ?Sized>(src: &mut S) -> (PmuInfo, Option<Hybrid>) {
    let leaf0 = src.cpuid(0, 0);
    let max_ext_leaf = src.cpuid(EXT_LEAF0, 0).eax;
    let mut info = PmuInfo {
        vendor: CpuVendor::from_leaf0(leaf0),
        max_leaf: leaf0.eax,
        max_ext_leaf: if max_ext_leaf >= EXT_LEAF0 {
            max_ext_leaf
        } else {
            0
        },
        signature: 0,
        generation: None,
        model: None,
        model_id: None,
        core_type: None,
        id: None,
        counters: CounterSet::default(),
        perf_capabilities_msr: false,
        hypervisor: false,
        enumeration: Enumeration::default(),
        notes: [None; MAX_NOTES],
    };
    let mut hybrid = None;
    if info.max_leaf >= 1 {
        let leaf1 = src.cpuid(1, 0);
        info.signature = leaf1.eax;
        info.hypervisor = leaf1.ecx & LEAF1_ECX_HYPERVISOR != 0;
        if info.hypervisor {
            info.note(Note::Hypervisor);
        }
        if info.vendor == CpuVendor::Intel {
            info.perf_capabilities_msr = leaf1.ecx & LEAF1_ECX_PDCM != 0;
        }
    }
    if info.max_leaf >= LEAF1A {
        let eax = src.cpuid(LEAF1A, 0).eax;
        hybrid = Some(Hybrid {
            core_type: (eax >> 24) as u8,
            native_model_id: eax & 0x00FF_FFFF,
        });
        info.core_type = Some((eax >> 24) as u8).filter(|&t| t != 0);
    }
    if info.vendor == CpuVendor::Hygon {
        info.note(Note::HygonAsAmd);
    }
    (info, hybrid)
}

pub(super) fn spec_of(g: Generation) -> DetectSpec {
    struct Spec;
    impl ArchVisitor for Spec {
        type Output = DetectSpec;
        fn visit<A: Arch>(self) -> DetectSpec {
            A::DETECT
        }
    }
    g.visit(Spec)
}

/// Does `d`'s condition hold? `None` when the generation has no condition.
pub(super) fn holds<S: CpuidSource + ?Sized>(
    rd: &mut Reader<'_, S>,
    info: &PmuInfo,
    d: &DetectSpec,
) -> Option<bool> {
    if d.cpuid.is_none() && d.family_at_least.is_none() {
        return None;
    }
    let mut ok = true;
    if let Some((f, at_least)) = d.cpuid {
        ok &= rd.field(f, &d.enumeration).is_some_and(|v| v >= at_least);
    }
    if let Some(fam) = d.family_at_least {
        ok &= info.max_leaf >= 1 && info.family() >= fam;
    }
    Some(ok)
}

/// The deepest generation of `vendor` whose condition holds; notes when none does, or when
/// the CPU reports more than any condition asks for.
pub(super) fn choose<S: CpuidSource + ?Sized>(
    rd: &mut Reader<'_, S>,
    info: &mut PmuInfo,
    vendor: Vendor,
) -> Option<Generation> {
    let mut best: Option<(Generation, DetectSpec)> = None;
    let mut nearest: Option<(Generation, DetectSpec)> = None;
    for &g in Generation::ALL {
        let d = spec_of(g);
        if d.vendor != vendor || !d.cpus.is_empty() {
            continue;
        }
        match holds(rd, info, &d) {
            None => continue,
            Some(true) if best.as_ref().is_none_or(|(_, b)| d.depth > b.depth) => {
                best = Some((g, d))
            }
            _ => {}
        }
        if nearest.as_ref().is_none_or(|(_, n)| d.depth < n.depth) {
            nearest = Some((g, d));
        }
    }
    let Some((g, d)) = best else {
        let note = match nearest {
            None => Note::NoGeneration {
                nearest: None,
                field: "",
                value: None,
                needs: 0,
            },
            Some((n, d)) => match d.cpuid {
                Some((f, needs)) => Note::NoGeneration {
                    nearest: Some(n),
                    field: f.name,
                    value: rd.field(f, &d.enumeration),
                    needs,
                },
                None => Note::NoGeneration {
                    nearest: Some(n),
                    field: "family",
                    value: Some(info.family()),
                    needs: d.family_at_least.unwrap_or(0),
                },
            },
        };
        info.note(note);
        return None;
    };
    if let Some((f, at_least)) = d.cpuid {
        let value = rd.field(f, &d.enumeration).unwrap_or(0);
        info.enumeration.condition = Some(value);
        let beyond = Generation::ALL.iter().any(|&o| {
            spec_of(o)
                .cpuid
                .is_some_and(|(of, ol)| of.leaf == f.leaf && of.lsb == f.lsb && ol > at_least)
        });
        if value > at_least && !beyond {
            info.note(Note::NewerThanDefined {
                field: f.name,
                value,
                using: g,
            });
        }
    }
    Some(g)
}

/// The model generation whose `cpus:` lists this CPU ([`MODEL_SPECS`], compiled in or not), when
/// CPUID backs it: its nearest ancestor with a `detect:` condition must be `detected` (the
/// generation CPUID reports) or a generation `detected` extends. A model the family/model names but CPUID does not
/// back (a guest whose hypervisor hides PerfCtrExtCore or lowers the perfmon version) is not
/// taken: its registers may be missing, and a read or write of them faults.
/// [`Note::ModelNotTaken`] says so. Sets [`PmuInfo::model_id`] whatever the features, and
/// [`PmuInfo::model`] when the model is compiled in ([`Note::ModelNotCompiled`] otherwise).
pub(super) fn choose_model(
    info: &mut PmuInfo,
    vendor: Vendor,
    hybrid: Option<Hybrid>,
    detected: Option<Generation>,
) {
    let mut listed = MODEL_SPECS
        .iter()
        .filter(|m| m.vendor == vendor && cpu_listed(info, m.cpus, hybrid));
    let Some(first) = listed.clone().next() else {
        return;
    };
    // Of the models that list the CPU, one CPUID backs: built on the generation CPUID reports
    // or on one it extends (a newer perfmon version keeps the older one's registers), the
    // nearest first.
    let backs = |m: &ModelSpec, exact: bool| {
        let (Some(needs), Some(d)) = (detectable_base(m.ancestors), detected) else {
            return false;
        };
        needs == d || (!exact && spec_of(d).ancestors.contains(&needs.id()))
    };
    let backed = listed
        .clone()
        .find(|m| backs(m, true))
        .or_else(|| listed.find(|m| backs(m, false)));
    let Some(listed) = backed else {
        info.note(Note::ModelNotTaken {
            model: first.id,
            needs: detectable_base(first.ancestors),
            detected,
        });
        return;
    };
    info.model_id = Some(listed.id);
    info.model = Generation::from_id(listed.id);
    if info.model.is_none() {
        info.note(Note::ModelNotCompiled {
            model: listed.id,
            feature: listed.feature,
        });
    }
}

/// The nearest of `ancestors` that has a `detect:` condition: the architectural generation a
/// model's registers build on.
pub(super) fn detectable_base(ancestors: &[&str]) -> Option<Generation> {
    ancestors.iter().find_map(|&id| {
        let g = Generation::from_id(id)?;
        let s = spec_of(g);
        (s.cpuid.is_some() || s.family_at_least.is_some()).then_some(g)
    })
}

/// `cpus` lists the CPU (family, model, stepping, core type on hybrid parts).
pub(super) fn cpu_listed(info: &PmuInfo, cpus: &[CpuModel], hybrid: Option<Hybrid>) -> bool {
    let (family, model, stepping) = (info.family(), info.model(), info.stepping());
    cpus.iter().any(|c| {
        c.family == family
            && c.models().contains(&model)
            && stepping < 16
            && c.steppings & (1 << stepping) != 0
            && c.core_type
                .is_none_or(|t| hybrid.is_some_and(|h| h.core_type == t))
            && c.native_model_id
                .is_none_or(|n| hybrid.is_some_and(|h| h.native_model_id == n))
    })
}

/// What CPUID leaf 1AH says of a hybrid part's core (Intel SDM Vol. 2A, "Native Model ID
/// Enumeration Leaf"): EAX\[31:24\] the core type, EAX\[23:0\] the native model id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Hybrid {
    pub(super) core_type: u8,
    pub(super) native_model_id: u32,
}

/// What detection and the report read of a generation, gathered by one small function per
/// generation ([`Facts::of`]), so that the logic that reads it is compiled once and not once
/// per generation (a visitor per step would be, for each of the generations).
#[derive(Clone, Copy)]
pub(super) struct Facts {
    pub(super) enumeration: crate::arch::EnumerationSpec,
    pub(super) gp_instances: u32,
    pub(super) fixed_instances: u32,
    pub(super) gp_model_width: u32,
    pub(super) fixed_model_width: u32,
    pub(super) registers: &'static [crate::arch::RegInfo],
    pub(super) arch_events: &'static [crate::arch::ArchEventInfo],
    pub(super) arch_event_available: fn(usize, u32, u32) -> bool,
    pub(super) has_perf_capabilities: bool,
}

impl Facts {
    pub(super) fn of<A: Arch>() -> Facts {
        Facts {
            enumeration: A::DETECT.enumeration,
            gp_instances: A::GP_INSTANCES,
            fixed_instances: A::FIXED_INSTANCES,
            gp_model_width: A::GP_MODEL_WIDTH,
            fixed_model_width: A::FIXED_MODEL_WIDTH,
            registers: A::registers(),
            arch_events: A::arch_events(),
            arch_event_available: A::arch_event_available,
            has_perf_capabilities: A::perf_capabilities().is_some(),
        }
    }

    pub(super) fn of_generation(g: Generation) -> Facts {
        struct Of;
        impl ArchVisitor for Of {
            type Output = Facts;
            fn visit<A: Arch>(self) -> Facts {
                Facts::of::<A>()
            }
        }
        g.visit(Of)
    }

    /// The name of the register with `role`, `?` without one.
    pub(super) fn register_name(&self, role: crate::arch::Role) -> &'static str {
        self.registers
            .iter()
            .find(|r| r.role == Some(role))
            .map_or("?", |r| r.name)
    }
}
