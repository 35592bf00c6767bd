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

use crate::arch::{
    Arch, ArchVisitor, CpuModel, CpuidField, DetectSpec, Facility, Generation, MODEL_SPECS,
    ModelSpec, Vendor,
};
use core::fmt;

mod cpuid;
mod dump;
mod enumerate;
pub(crate) use enumerate::write_mask as write_counter_list;
mod identify;

pub use cpuid::*;
pub use dump::*;
use enumerate::*;
pub use identify::*;

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
pub(crate) const LEAF7_1_EAX_ARCH_PERFMON_EXT: u32 = 1 << 8;
/// CPUID leaf 1AH: EAX\[31:24\] the core type and EAX\[23:0\] the native model id of a hybrid
/// part's core (Intel SDM Vol. 2A, "Native Model ID Enumeration Leaf"), matched against
/// `cpus: core-type` and `native-model-id`.
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
    /// The family/model is listed by the model generation `model`, whose registers build on
    /// `needs`, but CPUID reports `detected`: the model is not used (a hypervisor that hides
    /// a PMU feature, such as AMD's PerfCtrExtCore, or reports a lower perfmon version).
    ModelNotTaken {
        /// The id of the model generation the family/model names.
        model: &'static str,
        /// The generation it builds on (`None`: it has none with a `detect:` condition).
        needs: Option<Generation>,
        /// The generation CPUID reports (`None`: none).
        detected: Option<Generation>,
    },
    /// The CPU's model generation is not compiled in: its registers and events need the
    /// `pmu-regs` feature `feature`. [`PmuInfo::model_id`] names it; counters follow the
    /// generation CPUID reports.
    ModelNotCompiled {
        /// The model generation's id.
        model: &'static str,
        /// The Cargo feature that compiles it.
        feature: &'static str,
    },
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
            Note::ModelNotTaken {
                model,
                needs,
                detected,
            } => {
                write!(f, "the family/model is {model}'s, but ")?;
                match needs.map(|n| (n, spec_of(n).cpuid)) {
                    Some((n, Some((field, at_least)))) => {
                        write!(f, "its registers need {n} ({} >= {at_least})", field.name)?
                    }
                    Some((n, None)) => write!(f, "its registers need {n}")?,
                    None => f.write_str("it builds on no generation CPUID could report")?,
                }
                match detected {
                    Some(d) => write!(f, " and CPUID reports {d}")?,
                    None => f.write_str(" and CPUID reports none")?,
                }
                f.write_str(": the model's registers and events are not used")
            }
            Note::ModelNotCompiled { model, feature } => write!(
                f,
                "the CPU model is {model}; its registers and events are not compiled in (pmu-regs feature `{feature}`)"
            ),
        }
    }
}

// Room for every kind of note, the counter ones twice (general and fixed).
const MAX_NOTES: usize = 12;

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
    /// The model generation whose `cpus:` lists this CPU (core type and native model id on
    /// hybrid parts) and whose
    /// architectural generation CPUID reports, when its Cargo feature is on: its registers
    /// and events describe this exact core.
    pub model: Option<Generation>,
    /// The id of that model generation, whatever the Cargo features: detection gives the
    /// same answer with or without a model's feature; the feature only decides whether
    /// [`PmuInfo::model`] can name it.
    pub model_id: Option<&'static str>,
    /// On a hybrid part, the type of the core this ran on (CPUID.1AH:EAX\[31:24\], `0x40`
    /// Core, `0x20` Atom); `None` when CPUID reports none.
    pub core_type: Option<u8>,
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

    /// What detection reports for a CPU offering everything generation `g` (of type `A`)
    /// defines, without reading CPUID: every counter at the defined widths
    /// ([`CounterSet::full`]), IA32_PERF_CAPABILITIES where the generation has it.
    pub(crate) fn full<A: Arch>(g: Generation) -> PmuInfo {
        let has_capabilities = g
            .registers()
            .iter()
            .any(|r| r.role == Some(crate::arch::Role::Capabilities));
        PmuInfo {
            vendor: match g.vendor() {
                Vendor::Intel => CpuVendor::Intel,
                Vendor::Amd => CpuVendor::Amd,
            },
            max_leaf: 0,
            max_ext_leaf: 0,
            signature: 0,
            generation: Some(g),
            model: None,
            model_id: None,
            core_type: None,
            id: Some(A::ID),
            counters: CounterSet::full::<A>(),
            perf_capabilities_msr: has_capabilities,
            hypervisor: false,
            enumeration: Enumeration::default(),
            notes: [None; MAX_NOTES],
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
