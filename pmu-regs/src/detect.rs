//! Capability detection: which PMU generation a CPU has and which counters it offers, from
//! CPUID.
//!
//! [`detect`] reads CPUID through a [`CpuidSource`]: [`LiveCpuid`] on the running processor
//! (`core::arch::x86_64::__cpuid_count`), or a [`CpuidTable`] of recorded values, so every
//! decision is testable anywhere. Nothing here names a generation or a CPUID field: each
//! generation's `detect:` condition (a CPUID field at least some value, a minimum family) and
//! `cpus:` list come from the definitions through [`Arch::DETECT`], and so do the CPUID
//! fields that enumerate counters (`role: general-count`, `fixed-bitmap`, ...). Of the
//! generations of the CPU's vendor whose condition holds, the one that extends the most others
//! is chosen; a model generation compiled in (its Cargo feature) whose `cpus:` lists the CPU is
//! reported as [`PmuInfo::model`].
//!
//! ```
//! use pmu_regs::arch::Generation;
//! use pmu_regs::detect::{detect, CpuidEntry, CpuidTable};
//!
//! // Intel Pentium G4600 (Kaby Lake), CPUID values quoted in google/EXEgesis
//! // exegesis/base/cpuid_x86_test.cc.
//! const KABY_LAKE: [CpuidEntry; 4] = [
//!     CpuidEntry::new(0x0, 0, [0x16, 0x756E_6547, 0x6C65_746E, 0x4965_6E69]),
//!     CpuidEntry::new(0x1, 0, [0x0009_06E9, 0x0010_0800, 0x4FFA_EBBF, 0xBFEB_FBFF]),
//!     CpuidEntry::new(0x7, 0, [0x0, 0x0294_6687, 0x0, 0x0]),
//!     CpuidEntry::new(0xA, 0, [0x0730_0404, 0x0, 0x0, 0x0000_0603]),
//! ];
//! let info = detect(&mut CpuidTable::new(&KABY_LAKE));
//! assert_eq!(info.generation, Some(Generation::IntelV4));
//! assert_eq!(info.counters.gp, 0b1111);
//! assert_eq!(info.counters.fixed, 0b111);
//! println!("{info}");
//! ```

use crate::arch::{Arch, ArchVisitor, CpuidField, DetectSpec, Facility, Generation, Vendor};
use core::fmt;

/// Registers returned by one CPUID query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct CpuidResult {
    /// EAX.
    pub eax: u32,
    /// EBX.
    pub ebx: u32,
    /// ECX.
    pub ecx: u32,
    /// EDX.
    pub edx: u32,
}

impl CpuidResult {
    /// From `[eax, ebx, ecx, edx]`.
    pub const fn from_array(r: [u32; 4]) -> Self {
        CpuidResult {
            eax: r[0],
            ebx: r[1],
            ecx: r[2],
            edx: r[3],
        }
    }
}

/// Something that answers CPUID queries.
pub trait CpuidSource {
    /// CPUID with EAX = `leaf`, ECX = `subleaf`.
    fn cpuid(&mut self, leaf: u32, subleaf: u32) -> CpuidResult;
}

impl<F: FnMut(u32, u32) -> CpuidResult> CpuidSource for F {
    fn cpuid(&mut self, leaf: u32, subleaf: u32) -> CpuidResult {
        self(leaf, subleaf)
    }
}

/// The CPUID instruction of the running processor.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, Default)]
pub struct LiveCpuid;

#[cfg(target_arch = "x86_64")]
impl CpuidSource for LiveCpuid {
    fn cpuid(&mut self, leaf: u32, subleaf: u32) -> CpuidResult {
        let r = core::arch::x86_64::__cpuid_count(leaf, subleaf);
        CpuidResult {
            eax: r.eax,
            ebx: r.ebx,
            ecx: r.ecx,
            edx: r.edx,
        }
    }
}

/// One recorded CPUID answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuidEntry {
    /// EAX input.
    pub leaf: u32,
    /// ECX input (0 for leaves without subleaves).
    pub subleaf: u32,
    /// The answer.
    pub regs: CpuidResult,
}

impl CpuidEntry {
    /// An entry; `regs` is `[eax, ebx, ecx, edx]`.
    pub const fn new(leaf: u32, subleaf: u32, regs: [u32; 4]) -> Self {
        CpuidEntry {
            leaf,
            subleaf,
            regs: CpuidResult::from_array(regs),
        }
    }
}

/// Recorded CPUID values (a dump); leaves that are not listed read as zero.
///
/// Detection only queries leaves the CPU reports as present (leaf 0 / 80000000H maximum), so
/// a dump needs just those leaves.
#[derive(Clone, Copy, Debug)]
pub struct CpuidTable<'a> {
    entries: &'a [CpuidEntry],
}

impl<'a> CpuidTable<'a> {
    /// A table over these entries.
    pub const fn new(entries: &'a [CpuidEntry]) -> Self {
        CpuidTable { entries }
    }
}

impl CpuidSource for CpuidTable<'_> {
    fn cpuid(&mut self, leaf: u32, subleaf: u32) -> CpuidResult {
        self.entries
            .iter()
            .find(|e| e.leaf == leaf && e.subleaf == subleaf)
            .map(|e| e.regs)
            .unwrap_or_default()
    }
}

// Feature bits that no generated layout covers (the definitions describe the PMU leaves, not
// the general feature leaves). Each is written down once, with its source.

/// CPUID.01H:ECX\[15\] PDCM: IA32_PERF_CAPABILITIES is present (Intel SDM Vol. 2A, CPUID leaf
/// 01H ECX; Vol. 3B "Performance Monitoring and Intel Core/Atom ... SMM": "If
/// CPUID.01H:ECX.PDCM[bit 15] is 1, the processor supports the IA32_PERF_CAPABILITIES MSR").
const LEAF1_ECX_PDCM: u32 = 1 << 15;
/// CPUID.01H:ECX\[31\]: set by hypervisors for their guests (Intel SDM Vol. 2A leaf 01H ECX
/// bit 31 "not used, always 0"; AMD APM Vol. 3 CPUID Fn0000_0001_ECX\[31\] "reserved for use by
/// hypervisor to indicate guest status").
const LEAF1_ECX_HYPERVISOR: u32 = 1 << 31;
/// CPUID.(EAX=07H,ECX=1):EAX\[8\] ArchPerfmonExt: leaf 23H is supported (Intel SDM Vol. 2A,
/// CPUID leaf 07H subleaf 1; Linux `X86_FEATURE_ARCH_PERFMON_EXT` = word 12 (7.1 EAX) bit 8).
const LEAF7_1_EAX_ARCH_PERFMON_EXT: u32 = 1 << 8;
/// CPUID.1AH:EAX\[31:24\]: the core type of a hybrid part (Intel SDM Vol. 2A, CPUID leaf 1AH
/// "Native Model ID Enumeration Leaf"), matched against `cpus: core-type`.
const LEAF1A: u32 = 0x1A;
/// The first extended leaf (its EAX is the highest extended leaf).
const EXT_LEAF0: u32 = 0x8000_0000;
/// Leaf 07H: its subleaf 1 EAX holds ArchPerfmonExt.
const LEAF7: u32 = 7;

/// The vendor string of CPUID leaf 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CpuVendor {
    /// `GenuineIntel`.
    Intel,
    /// `AuthenticAMD`.
    Amd,
    /// `HygonGenuine` (AMD Zen-derived; AMD's PMU).
    Hygon,
    /// Anything else, as returned (EBX, EDX, ECX bytes).
    Other([u8; 12]),
}

impl CpuVendor {
    fn from_leaf0(r: CpuidResult) -> Self {
        let mut s = [0u8; 12];
        s[0..4].copy_from_slice(&r.ebx.to_le_bytes());
        s[4..8].copy_from_slice(&r.edx.to_le_bytes());
        s[8..12].copy_from_slice(&r.ecx.to_le_bytes());
        match &s {
            b"GenuineIntel" => CpuVendor::Intel,
            b"AuthenticAMD" => CpuVendor::Amd,
            b"HygonGenuine" => CpuVendor::Hygon,
            _ => CpuVendor::Other(s),
        }
    }

    /// The PMU vendor (Hygon parts use AMD's).
    pub const fn pmu_vendor(self) -> Option<Vendor> {
        match self {
            CpuVendor::Intel => Some(Vendor::Intel),
            CpuVendor::Amd | CpuVendor::Hygon => Some(Vendor::Amd),
            CpuVendor::Other(_) => None,
        }
    }
}

impl fmt::Display for CpuVendor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CpuVendor::Intel => f.write_str("GenuineIntel"),
            CpuVendor::Amd => f.write_str("AuthenticAMD"),
            CpuVendor::Hygon => f.write_str("HygonGenuine"),
            CpuVendor::Other(s) => {
                for &b in s {
                    let c = if b.is_ascii_graphic() || b == b' ' {
                        b as char
                    } else {
                        '?'
                    };
                    write!(f, "{c}")?;
                }
                Ok(())
            }
        }
    }
}

/// The counters software may use, after clamping to what the definitions describe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct CounterSet {
    /// General-purpose counters (bit n = counter n).
    pub gp: u32,
    /// Their width in bits.
    pub gp_width: u8,
    /// Fixed-function counters (bit n = fixed counter n).
    pub fixed: u32,
    /// Their width in bits.
    pub fixed_width: u8,
    /// Architectural events the CPU does not offer, by CPUID.0AH:EBX bit (bit n set: the event
    /// with `cpuid_bit` n is unavailable, because EBX has it set or it lies beyond the EBX
    /// length). Events of the generation only.
    pub unavailable_events: u32,
    /// AnyThread is not supported (CPUID.0AH:EDX\[15\], version 5 and later).
    pub anythread_deprecated: bool,
    /// IA32_PERFEVTSELx.UMASK2 is supported (CPUID.23H.0:EBX\[0\]).
    pub umask2: bool,
    /// IA32_PERFEVTSELx.EQ is supported (CPUID.23H.0:EBX\[1\]).
    pub eq: bool,
}

impl CounterSet {
    /// Every counter the generation `A` defines, at the defined widths, every architectural
    /// event available: what a CPU without CPUID restrictions would offer. For tests and for
    /// the mock backend.
    pub fn full<A: Arch>() -> Self {
        CounterSet {
            gp: mask_of(A::GP_INSTANCES),
            gp_width: A::GP_MODEL_WIDTH as u8,
            fixed: mask_of(A::FIXED_INSTANCES),
            fixed_width: A::FIXED_MODEL_WIDTH as u8,
            unavailable_events: 0,
            anythread_deprecated: false,
            umask2: true,
            eq: true,
        }
    }

    /// True when general-purpose counter `n` may be used.
    pub const fn has_gp(&self, n: u32) -> bool {
        n < 32 && self.gp & (1 << n) != 0
    }

    /// True when fixed counter `n` may be used.
    pub const fn has_fixed(&self, n: u32) -> bool {
        n < 32 && self.fixed & (1 << n) != 0
    }
}

const fn mask_of(count: u32) -> u32 {
    if count >= 32 {
        u32::MAX
    } else {
        (1u32 << count) - 1
    }
}

/// What the CPUID fields with enumeration roles reported, for the chosen generation (`None`:
/// the generation has no such field, or the CPU does not enumerate its leaf).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Enumeration {
    /// The value of the chosen generation's `detect:` field (Intel: the architectural
    /// performance-monitoring version).
    pub condition: Option<u32>,
    /// `general-count`: general-purpose counters.
    pub general_count: Option<u32>,
    /// `general-width`: their width.
    pub general_width: Option<u32>,
    /// `fixed-count`: fixed counters.
    pub fixed_count: Option<u32>,
    /// `fixed-width`: their width.
    pub fixed_width: Option<u32>,
    /// `fixed-bitmap`: fixed counters present beyond `fixed-count`.
    pub fixed_bitmap: Option<u32>,
    /// `general-present`: the general-purpose counters present (authoritative).
    pub general_present: Option<u32>,
    /// `fixed-present`: the fixed counters present (authoritative).
    pub fixed_present: Option<u32>,
    /// `events-length`: valid bits of the architectural-event vector.
    pub events_length: Option<u32>,
    /// `anythread-deprecated`.
    pub anythread_deprecated: Option<bool>,
    /// `umask2-supported`.
    pub umask2: Option<bool>,
    /// `eq-supported`.
    pub eq: Option<bool>,
    /// `subleaf-bitmap`: valid subleaves of its leaf.
    pub subleaves: Option<u32>,
    /// The output registers of the leaf holding `events-length` (the architectural-event
    /// vector), as read.
    pub events_leaf: Option<CpuidResult>,
}

/// Something detection noticed and the report should say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    /// The vendor is neither Intel nor AMD.
    UnknownVendor,
    /// No generation of the vendor's definitions matches the CPU. `nearest` is the vendor's
    /// least derived generation with a `detect:` condition; `field` the CPUID field it tests
    /// (or `"family"`), `value` what the CPU reports (`None`: the leaf is not enumerated) and
    /// `needs` its minimum.
    NoGeneration {
        /// The least derived generation with a condition.
        nearest: Option<Generation>,
        /// The CPUID field (or `"family"`).
        field: &'static str,
        /// What the CPU reports.
        value: Option<u32>,
        /// What the generation needs.
        needs: u32,
    },
    /// The CPU reports a value beyond every generation's condition on that field (a newer
    /// version than the definitions describe): the deepest matching generation is used.
    NewerThanDefined {
        /// The CPUID field.
        field: &'static str,
        /// Its value.
        value: u32,
        /// The generation used.
        using: Generation,
    },
    /// The CPU reports more counters than the generation's register family has.
    MoreCountersThanDefined {
        /// General-purpose (`false`) or fixed (`true`).
        fixed: bool,
        /// Counters the CPU reports (bitmask).
        reported: u32,
        /// Counters the definitions have.
        defined: u32,
    },
    /// The CPU reports wider counters than the definitions.
    WiderThanDefined {
        /// General-purpose (`false`) or fixed (`true`).
        fixed: bool,
        /// Reported width.
        reported: u8,
        /// Width of the definitions.
        defined: u32,
    },
    /// The CPU reports fewer fixed counters than the generation defines, and the generation
    /// has no bitmap of further fixed counters (Linux assumes three on non-hybrid version 2-4
    /// parts, arch/x86/events/intel/core.c).
    FewFixedCounters {
        /// Reported count.
        reported: u8,
    },
    /// Running under a hypervisor: the PMU may be absent, partial or emulated.
    Hypervisor,
    /// Hygon CPU: treated as AMD.
    HygonAsAmd,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Note::UnknownVendor => f.write_str("unknown CPU vendor: no PMU generation applies"),
            Note::NoGeneration {
                nearest,
                field,
                value,
                needs,
            } => match (nearest, value) {
                (None, _) => f.write_str("no generation of this vendor's definitions can be detected"),
                (Some(g), None) => write!(
                    f,
                    "no PMU generation matches: {g} needs {field} >= {needs}, and the CPU does not enumerate {field}"
                ),
                (Some(g), Some(v)) => write!(
                    f,
                    "no PMU generation matches: {g} needs {field} >= {needs}, the CPU reports {v}"
                ),
            },
            Note::NewerThanDefined { field, value, using } => write!(
                f,
                "the CPU reports {field} = {value}, newer than the definitions; using {using}"
            ),
            Note::MoreCountersThanDefined {
                fixed,
                reported,
                defined,
            } => write!(
                f,
                "the CPU reports {} {} counters (mask {reported:#x}); the definitions have {defined}: only those are used",
                reported.count_ones(),
                if fixed { "fixed" } else { "general-purpose" }
            ),
            Note::WiderThanDefined {
                fixed,
                reported,
                defined,
            } => write!(
                f,
                "the CPU reports {reported}-bit {} counters; the definitions have {defined} bits: {defined} are used",
                if fixed { "fixed" } else { "general-purpose" }
            ),
            Note::FewFixedCounters { reported } => write!(
                f,
                "the CPU reports {reported} fixed counters, fewer than the generation defines; using what CPUID says"
            ),
            Note::Hypervisor => f.write_str(
                "running under a hypervisor (CPUID.01H:ECX[31]): the PMU may be absent, partial or emulated",
            ),
            Note::HygonAsAmd => f.write_str("Hygon CPU: using the AMD definitions"),
        }
    }
}

const MAX_NOTES: usize = 8;

/// What [`detect`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PmuInfo {
    /// Vendor string.
    pub vendor: CpuVendor,
    /// Highest basic leaf (leaf 0 EAX).
    pub max_leaf: u32,
    /// Highest extended leaf (80000000H EAX).
    pub max_ext_leaf: u32,
    /// Leaf 1 EAX (family/model/stepping signature), 0 when absent.
    pub signature: u32,
    /// The generation to use: of the generations of the CPU's vendor whose `detect:`
    /// condition holds, the one extending the most others. `None` when none matches.
    pub generation: Option<Generation>,
    /// The model generation whose `cpus:` lists this CPU (and core type), when its Cargo
    /// feature is on: its registers and events describe this exact core.
    pub model: Option<Generation>,
    /// The id of the generation whose counters `counters` enumerates (the model's when there
    /// is one; `A::ID` after [`detect_for`]).
    pub id: Option<&'static str>,
    /// Usable counters.
    pub counters: CounterSet,
    /// IA32_PERF_CAPABILITIES exists (CPUID.01H:ECX.PDCM).
    pub perf_capabilities_msr: bool,
    /// Running under a hypervisor (CPUID.01H:ECX\[31\]).
    pub hypervisor: bool,
    /// What the generation's CPUID fields enumerate.
    pub enumeration: Enumeration,
    notes: [Option<Note>; MAX_NOTES],
}

impl PmuInfo {
    /// Everything detection wants to point out.
    pub fn notes(&self) -> impl Iterator<Item = Note> + '_ {
        self.notes.iter().flatten().copied()
    }

    fn note(&mut self, note: Note) {
        // Each note kind is pushed at most once and there are fewer kinds than slots.
        if let Some(slot) = self.notes.iter_mut().find(|n| n.is_none()) {
            *slot = Some(note);
        }
    }

    /// CPU family from the signature (base family, plus extended family when base is 0FH).
    pub const fn family(&self) -> u32 {
        let base = (self.signature >> 8) & 0xF;
        if base == 0xF {
            base + ((self.signature >> 20) & 0xFF)
        } else {
            base
        }
    }

    /// CPU model from the signature (extended model included for families 06H and 0FH and
    /// later).
    pub const fn model(&self) -> u32 {
        let base = (self.signature >> 4) & 0xF;
        let fam = (self.signature >> 8) & 0xF;
        if fam == 0x6 || fam == 0xF {
            base | (((self.signature >> 16) & 0xF) << 4)
        } else {
            base
        }
    }

    /// Stepping from the signature.
    pub const fn stepping(&self) -> u32 {
        self.signature & 0xF
    }
}

/// Detects the PMU of the running processor.
#[cfg(target_arch = "x86_64")]
pub fn detect_live() -> PmuInfo {
    detect(&mut LiveCpuid)
}

/// Reads CPUID fields within the limits the CPU reports.
struct Reader<'s, S: CpuidSource + ?Sized> {
    src: &'s mut S,
    max_leaf: u32,
    max_ext_leaf: u32,
}

impl<S: CpuidSource + ?Sized> Reader<'_, S> {
    fn enumerated(&self, leaf: u32) -> bool {
        if leaf >= EXT_LEAF0 {
            leaf <= self.max_ext_leaf
        } else {
            leaf <= self.max_leaf
        }
    }

    fn leaf(&mut self, leaf: u32, subleaf: u32) -> Option<CpuidResult> {
        self.enumerated(leaf).then(|| self.src.cpuid(leaf, subleaf))
    }

    /// The field's value, or `None` when its leaf (or subleaf) is not enumerated. A subleaf
    /// other than 0 is read only when the leaf's `subleaf-bitmap` (in `e`) lists it; a leaf with
    /// a `subleaf-bitmap` only when CPUID.(07H,1):EAX\[8\] (ArchPerfmonExt) enumerates it.
    fn field(&mut self, f: CpuidField, e: &crate::arch::EnumerationSpec) -> Option<u32> {
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

    fn ext_leaf_enumerated(&mut self) -> bool {
        self.max_leaf >= LEAF7
            && self.src.cpuid(LEAF7, 0).eax >= 1
            && self.src.cpuid(LEAF7, 1).eax & LEAF7_1_EAX_ARCH_PERFMON_EXT != 0
    }
}

/// Detects the PMU from CPUID answers.
pub fn detect<S: CpuidSource + ?Sized>(src: &mut S) -> PmuInfo {
    let (mut info, core_type) = identify(src);
    let Some(vendor) = info.vendor.pmu_vendor() else {
        info.note(Note::UnknownVendor);
        return info;
    };
    let mut rd = Reader {
        src,
        max_leaf: info.max_leaf,
        max_ext_leaf: info.max_ext_leaf,
    };
    let Some(generation) = choose(&mut rd, &mut info, vendor) else {
        return info;
    };
    info.model = choose_model(&info, vendor, core_type);
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
    let (mut info, core_type) = identify(src);
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
        None => cpu_listed(&info, &d, core_type),
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
/// holds, each facility that another holding one extends left out (on a family 19h AMD CPU,
/// the family 19h L3 layout and not the family 17h one it extends). A facility is a generation
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
    mask: u64,
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
fn identify<S: CpuidSource + ?Sized>(src: &mut S) -> (PmuInfo, Option<u8>) {
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
        id: None,
        counters: CounterSet::default(),
        perf_capabilities_msr: false,
        hypervisor: false,
        enumeration: Enumeration::default(),
        notes: [None; MAX_NOTES],
    };
    let mut core_type = None;
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
        core_type = Some((src.cpuid(LEAF1A, 0).eax >> 24) as u8);
    }
    if info.vendor == CpuVendor::Hygon {
        info.note(Note::HygonAsAmd);
    }
    (info, core_type)
}

fn spec_of(g: Generation) -> DetectSpec {
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
fn holds<S: CpuidSource + ?Sized>(
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
fn choose<S: CpuidSource + ?Sized>(
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

/// The model generation (compiled in) whose `cpus:` lists this CPU.
fn choose_model(info: &PmuInfo, vendor: Vendor, core_type: Option<u8>) -> Option<Generation> {
    Generation::ALL.iter().copied().find(|&g| {
        let d = spec_of(g);
        d.vendor == vendor && cpu_listed(info, &d, core_type)
    })
}

/// `d`'s `cpus:` lists the CPU (family, model, stepping, core type on hybrid parts).
fn cpu_listed(info: &PmuInfo, d: &DetectSpec, core_type: Option<u8>) -> bool {
    let (family, model, stepping) = (info.family(), info.model(), info.stepping());
    d.cpus.iter().any(|c| {
        c.family == family
            && c.model == model
            && stepping < 16
            && c.steppings & (1 << stepping) != 0
            && c.core_type.is_none_or(|t| Some(t) == core_type)
    })
}

/// What detection and the report read of a generation, gathered by one small function per
/// generation ([`Facts::of`]), so that the logic that reads it is compiled once and not once
/// per generation (a visitor per step would be, for each of the generations).
#[derive(Clone, Copy)]
struct Facts {
    enumeration: crate::arch::EnumerationSpec,
    gp_instances: u32,
    fixed_instances: u32,
    gp_model_width: u32,
    fixed_model_width: u32,
    registers: &'static [crate::arch::RegInfo],
    arch_events: &'static [crate::arch::ArchEventInfo],
    arch_event_available: fn(usize, u32, u32) -> bool,
    has_perf_capabilities: bool,
}

impl Facts {
    fn of<A: Arch>() -> Facts {
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

    fn of_generation(g: Generation) -> Facts {
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
    fn register_name(&self, role: crate::arch::Role) -> &'static str {
        self.registers
            .iter()
            .find(|r| r.role == Some(role))
            .map_or("?", |r| r.name)
    }
}

/// Reads the generation's enumeration fields and decides the usable counters.
fn enumerate<S: CpuidSource + ?Sized>(rd: &mut Reader<'_, S>, info: &mut PmuInfo, a: &Facts) {
    let spec = a.enumeration;
    let mut read = |f: Option<CpuidField>| f.and_then(|f| rd.field(f, &spec));
    let e = Enumeration {
        condition: info.enumeration.condition,
        general_count: read(spec.general_count),
        general_width: read(spec.general_width),
        fixed_count: read(spec.fixed_count),
        fixed_width: read(spec.fixed_width),
        fixed_bitmap: read(spec.fixed_bitmap),
        general_present: read(spec.general_present),
        fixed_present: read(spec.fixed_present),
        events_length: read(spec.events_length),
        anythread_deprecated: read(spec.anythread_deprecated).map(|v| v != 0),
        umask2: read(spec.umask2_supported).map(|v| v != 0),
        eq: read(spec.eq_supported).map(|v| v != 0),
        subleaves: read(spec.subleaf_bitmap),
        events_leaf: spec
            .events_length
            .and_then(|f| rd.leaf(f.leaf, if f.has_subleaf { f.subleaf } else { 0 })),
    };
    // Counter masks: the authoritative bitmaps when enumerated (as Linux does), else the
    // counts (the definitions' count where CPUID has none), plus the supplementary fixed
    // bitmap ("FxCtr[i] is supported if ECX[i] || EDX[4:0] > i").
    let gp = e
        .general_present
        .unwrap_or_else(|| mask_of(e.general_count.unwrap_or(a.gp_instances)));
    let fixed = match e.fixed_present {
        Some(m) => m,
        None if spec.fixed_count.is_none() => mask_of(a.fixed_instances),
        None => e.fixed_bitmap.unwrap_or(0) | mask_of(e.fixed_count.unwrap_or(0)),
    };
    if let Some(n) = e.fixed_count
        && n < a.fixed_instances
        && spec.fixed_bitmap.is_none()
    {
        info.note(Note::FewFixedCounters { reported: n as u8 });
    }
    let clamp = Clamp {
        gp,
        gp_width: e.general_width.unwrap_or(a.gp_model_width) as u8,
        fixed,
        fixed_width: e.fixed_width.unwrap_or(a.fixed_model_width) as u8,
        notes: info,
    };
    let mut counters = clamp.to(a);
    counters.unavailable_events = match e.events_leaf {
        Some(r) => unavailable(a, r.eax, r.ebx),
        None => 0,
    };
    counters.anythread_deprecated = e.anythread_deprecated.unwrap_or(false);
    counters.umask2 = e.umask2.unwrap_or(false);
    counters.eq = e.eq.unwrap_or(false);
    info.counters = counters;
    info.enumeration = e;
}

/// Clamps reported counters to the generation's register families, noting what is dropped.
struct Clamp<'a> {
    gp: u32,
    gp_width: u8,
    fixed: u32,
    fixed_width: u8,
    notes: &'a mut PmuInfo,
}

impl Clamp<'_> {
    /// The counters of `a`'s register families, with a note for each one dropped.
    fn to(self, a: &Facts) -> CounterSet {
        let gp_defined = mask_of(a.gp_instances);
        let fixed_defined = mask_of(a.fixed_instances);
        if self.gp & !gp_defined != 0 {
            self.notes.note(Note::MoreCountersThanDefined {
                fixed: false,
                reported: self.gp,
                defined: a.gp_instances,
            });
        }
        if self.fixed & !fixed_defined != 0 {
            self.notes.note(Note::MoreCountersThanDefined {
                fixed: true,
                reported: self.fixed,
                defined: a.fixed_instances,
            });
        }
        let mut gp_width = self.gp_width;
        if gp_width as u32 > a.gp_model_width {
            self.notes.note(Note::WiderThanDefined {
                fixed: false,
                reported: gp_width,
                defined: a.gp_model_width,
            });
            gp_width = a.gp_model_width as u8;
        }
        let mut fixed_width = self.fixed_width;
        let fixed = self.fixed & fixed_defined;
        if fixed_width as u32 > a.fixed_model_width && fixed != 0 {
            self.notes.note(Note::WiderThanDefined {
                fixed: true,
                reported: fixed_width,
                defined: a.fixed_model_width,
            });
            fixed_width = a.fixed_model_width as u8;
        }
        CounterSet {
            gp: self.gp & gp_defined,
            gp_width,
            fixed,
            fixed_width: if fixed == 0 { 0 } else { fixed_width },
            ..CounterSet::default()
        }
    }
}

/// Which of the generation's architectural events CPUID.0AH marks unavailable (through the
/// generated `ArchEvent::is_available`, which applies the EBX length).
fn unavailable(a: &Facts, eax: u32, ebx: u32) -> u32 {
    let mut mask = 0;
    for (i, e) in a.arch_events.iter().enumerate() {
        if !(a.arch_event_available)(i, eax, ebx) && e.cpuid_bit < 32 {
            mask |= 1 << e.cpuid_bit;
        }
    }
    mask
}

fn write_mask(f: &mut fmt::Formatter<'_>, mask: u32) -> fmt::Result {
    // "0-3" / "0,2,5-6"
    let mut first = true;
    let mut n = 0;
    while n < 32 {
        if mask & (1 << n) != 0 {
            let start = n;
            while n + 1 < 32 && mask & (1 << (n + 1)) != 0 {
                n += 1;
            }
            if !first {
                f.write_str(",")?;
            }
            first = false;
            if start == n {
                write!(f, "{start}")?;
            } else {
                write!(f, "{start}-{n}")?;
            }
        }
        n += 1;
    }
    if first {
        f.write_str("none")?;
    }
    Ok(())
}

struct Mask(u32);
impl fmt::Display for Mask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_mask(f, self.0)
    }
}

/// Lists the generation's registers and architectural events in the report.
fn report(info: &PmuInfo, f: &mut fmt::Formatter<'_>, a: &Facts) -> fmt::Result {
    let c = &info.counters;
    let gp_reg = a.register_name(crate::arch::Role::Counter);
    writeln!(
        f,
        "  general-purpose counters: {} x {} bits ({gp_reg} {})",
        c.gp.count_ones(),
        c.gp_width,
        Mask(c.gp)
    )?;
    if a.fixed_instances > 0 {
        let fixed_reg = a.register_name(crate::arch::Role::FixedCounter);
        writeln!(
            f,
            "  fixed counters:           {} x {} bits ({fixed_reg} {})",
            c.fixed.count_ones(),
            c.fixed_width,
            Mask(c.fixed)
        )?;
    }
    let e = &info.enumeration;
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    if let Some(d) = e.anythread_deprecated {
        writeln!(
            f,
            "  AnyThread:                {}",
            if d { "deprecated" } else { "supported" }
        )?;
    }
    if let Some(sub) = e.subleaves {
        writeln!(
            f,
            "  extended leaf:            subleaves {sub:#x}, UMASK2 {}, EQ {}",
            yes_no(e.umask2.unwrap_or(false)),
            yes_no(e.eq.unwrap_or(false))
        )?;
    }
    if a.has_perf_capabilities {
        let caps = a.register_name(crate::arch::Role::Capabilities);
        writeln!(
            f,
            "  {caps}: {}",
            if info.perf_capabilities_msr {
                "present (CPUID.01H:ECX.PDCM)"
            } else {
                "absent"
            }
        )?;
    }
    if !a.arch_events.is_empty() {
        writeln!(
            f,
            "  architectural events (vector length {}):",
            info.enumeration.events_length.unwrap_or(0)
        )?;
        for e in a.arch_events {
            let avail = e.cpuid_bit >= 32 || c.unavailable_events & (1 << e.cpuid_bit) == 0;
            write!(
                f,
                "    {} {:<28} event {:#04x} umask {:#04x}",
                if avail { "available  " } else { "unavailable" },
                e.name,
                e.desc.event,
                e.desc.umask
            )?;
            if let Some(n) = e.desc.fixed.filter(|&n| c.has_fixed(n as u32)) {
                write!(f, " (also fixed counter {n})")?;
            }
            writeln!(f)?;
        }
    }
    Ok(())
}

impl fmt::Display for PmuInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "CPU: {} family {:#x} model {:#x} stepping {}",
            self.vendor,
            self.family(),
            self.model(),
            self.stepping()
        )?;
        if let (Some(g), Some(v)) = (self.generation, self.enumeration.condition) {
            let name = spec_of(g).cpuid.map_or("?", |(field, _)| field.name);
            writeln!(f, "CPUID {name}: {v}")?;
        }
        match self.generation {
            Some(g) => {
                writeln!(f, "PMU generation: {g} ({})", g.module())?;
                if let Some(m) = self.model {
                    writeln!(f, "CPU model generation: {m} ({})", m.module())?;
                }
                report(self, f, &Facts::of_generation(g))?;
            }
            None => writeln!(f, "PMU generation: none")?,
        }
        for n in self.notes() {
            writeln!(f, "note: {n}")?;
        }
        Ok(())
    }
}
