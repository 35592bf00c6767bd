//! Capability detection: which PMU generation a CPU has and which counters it offers, from
//! CPUID.
//!
//! [`detect`] reads CPUID through a [`CpuidSource`]: [`LiveCpuid`] on the running processor
//! (`core::arch::x86_64::__cpuid_count`), or a [`CpuidTable`] of recorded values, so every
//! decision is testable anywhere. Leaf layouts are decoded with the generated CPUID types
//! (`intel::vN::cpuid::ARCH_PERFMON`, `intel::v6::cpuid::ARCH_PERFMON_EXT` /
//! `ARCH_PERFMON_COUNTERS`, `amd::perfmon_v2::cpuid::EXT_PERFMON_DEBUG`), picked by the
//! version the CPU reports.
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

use crate::arch::{Arch, ArchVisitor, Generation, IntelV6, Vendor};
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
/// CPUID Fn8000_0001_ECX\[23\] PerfCtrExtCore: six core counters at C001_0200h (AMD APM Vol. 3
/// Appendix E; Linux `X86_FEATURE_PERFCTR_CORE` = word 6 (8000_0001 ECX) bit 23).
const EXT1_ECX_PERFCTR_CORE: u32 = 1 << 23;

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

/// What CPUID leaf 0AH (and 23H) reported on an Intel CPU, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct IntelPerfmon {
    /// The raw leaf 0AH.
    pub leaf: CpuidResult,
    /// Architectural performance monitoring version (EAX\[7:0\]).
    pub version: u8,
    /// General-purpose counters per logical processor (EAX\[15:8\]).
    pub gp_counters: u8,
    /// Their width (EAX\[23:16\]).
    pub gp_width: u8,
    /// Length of the EBX event vector (EAX\[31:24\]).
    pub ebx_length: u8,
    /// Fixed counters (EDX\[4:0\], version 2 and later).
    pub fixed_counters: u8,
    /// Their width (EDX\[12:5\], version 2 and later).
    pub fixed_width: u8,
    /// Fixed-counter bitmask (ECX, version 5 and later).
    pub fixed_mask: u32,
    /// AnyThread deprecated (EDX\[15\], version 5 and later).
    pub anythread_deprecated: bool,
    /// Leaf 23H, when CPUID.(7,1):EAX\[8\] enumerates it.
    pub ext: Option<PerfmonExt>,
}

/// Leaf 23H (architectural performance monitoring extended leaf).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PerfmonExt {
    /// Valid subleaves (subleaf 0 EAX).
    pub subleaves: u32,
    /// UMASK2 supported (subleaf 0 EBX\[0\]).
    pub umask2: bool,
    /// EQ supported (subleaf 0 EBX\[1\]).
    pub eq: bool,
    /// General-purpose counter bitmap (subleaf 1 EAX), when subleaf 1 is valid.
    pub gp_mask: Option<u32>,
    /// Fixed counter bitmap (subleaf 1 EBX), when subleaf 1 is valid.
    pub fixed_mask: Option<u32>,
}

/// What the AMD CPUID leaves reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct AmdPerfmon {
    /// CPU family (from leaf 1).
    pub family: u32,
    /// Core performance counter extensions (Fn8000_0001_ECX\[23\]).
    pub perfctr_core: bool,
    /// Fn8000_0022 (extended performance monitoring and debug), when present.
    pub leaf_80000022: Option<CpuidResult>,
    /// PerfMonV2 (Fn8000_0022_EAX\[0\]).
    pub perfmon_v2: bool,
    /// LBR and PMC freeze (Fn8000_0022_EAX\[2\]).
    pub lbr_and_pmc_freeze: bool,
    /// Core counters (Fn8000_0022_EBX\[3:0\]).
    pub core_counters: u8,
    /// Northbridge / data-fabric counters (Fn8000_0022_EBX\[15:10\]).
    pub nb_counters: u8,
    /// UMC counters (Fn8000_0022_EBX\[21:16\]).
    pub umc_counters: u8,
}

/// Something detection noticed and the report should say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    /// The vendor is neither Intel nor AMD.
    UnknownVendor,
    /// Intel CPU without architectural performance monitoring (leaf 0AH absent or version 0).
    NoArchPerfmon {
        /// Highest basic CPUID leaf.
        max_leaf: u32,
        /// Reported version (0 when the leaf is absent).
        version: u8,
    },
    /// A newer version than the definitions describe: the newest generation is used.
    NewerVersion {
        /// Reported version.
        version: u8,
        /// The generation used.
        using: Generation,
    },
    /// AMD CPU older than the K7 counters.
    NoAmdCounters {
        /// Its family.
        family: u32,
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
    /// Version 2-4 CPU reporting fewer than three fixed counters (Linux assumes three on
    /// non-hybrid parts, arch/x86/events/intel/core.c).
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
            Note::NoArchPerfmon { max_leaf, version } => {
                if max_leaf < 0xA {
                    write!(
                        f,
                        "no architectural performance monitoring: highest CPUID leaf is {max_leaf:#x} (leaf 0AH needed)"
                    )
                } else {
                    write!(
                        f,
                        "no architectural performance monitoring: CPUID.0AH reports version {version}"
                    )
                }
            }
            Note::NewerVersion { version, using } => write!(
                f,
                "CPUID.0AH reports version {version}, newer than the definitions; using {using}"
            ),
            Note::NoAmdCounters { family } => write!(
                f,
                "AMD family {family:#x} predates the K7 performance counters"
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
                "CPUID.0AH:EDX reports {reported} fixed counters (Linux assumes 3 on non-hybrid version 2-4 parts); using what CPUID says"
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
    /// Highest extended leaf (80000000H EAX), 0 when not queried.
    pub max_ext_leaf: u32,
    /// Leaf 1 EAX (family/model/stepping signature), 0 when absent.
    pub signature: u32,
    /// The generation to use, `None` when the CPU has no PMU the definitions describe.
    pub generation: Option<Generation>,
    /// Usable counters.
    pub counters: CounterSet,
    /// IA32_PERF_CAPABILITIES exists (CPUID.01H:ECX.PDCM).
    pub perf_capabilities_msr: bool,
    /// Running under a hypervisor (CPUID.01H:ECX\[31\]).
    pub hypervisor: bool,
    /// Intel leaves, decoded.
    pub intel: Option<IntelPerfmon>,
    /// AMD leaves, decoded.
    pub amd: Option<AmdPerfmon>,
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

/// Detects the PMU from CPUID answers.
pub fn detect<S: CpuidSource + ?Sized>(src: &mut S) -> PmuInfo {
    let leaf0 = src.cpuid(0, 0);
    let mut info = PmuInfo {
        vendor: CpuVendor::from_leaf0(leaf0),
        max_leaf: leaf0.eax,
        max_ext_leaf: 0,
        signature: 0,
        generation: None,
        counters: CounterSet::default(),
        perf_capabilities_msr: false,
        hypervisor: false,
        intel: None,
        amd: None,
        notes: [None; MAX_NOTES],
    };
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
    match info.vendor {
        CpuVendor::Intel => detect_intel(src, &mut info),
        CpuVendor::Amd | CpuVendor::Hygon => {
            if info.vendor == CpuVendor::Hygon {
                info.note(Note::HygonAsAmd);
            }
            detect_amd(src, &mut info)
        }
        CpuVendor::Other(_) => info.note(Note::UnknownVendor),
    }
    info
}

fn detect_intel<S: CpuidSource + ?Sized>(src: &mut S, info: &mut PmuInfo) {
    use crate::intel;
    if info.max_leaf < intel::v1::cpuid::ARCH_PERFMON::LEAF {
        info.note(Note::NoArchPerfmon {
            max_leaf: info.max_leaf,
            version: 0,
        });
        return;
    }
    let r = src.cpuid(intel::v1::cpuid::ARCH_PERFMON::LEAF, 0);
    let version = intel::v1::cpuid::ARCH_PERFMON::Eax::from_raw(r.eax).version();
    let mut p = IntelPerfmon {
        leaf: r,
        version,
        ..IntelPerfmon::default()
    };
    let generation = match version {
        0 => {
            info.note(Note::NoArchPerfmon {
                max_leaf: info.max_leaf,
                version,
            });
            info.intel = Some(p);
            return;
        }
        1 => {
            let l = intel::v1::cpuid::ARCH_PERFMON::Leaf::from_regs(r.eax, r.ebx, r.ecx, r.edx);
            p.gp_counters = l.eax.gp_counters();
            p.gp_width = l.eax.gp_width();
            p.ebx_length = l.eax.ebx_length();
            Generation::IntelV1
        }
        2..=4 => {
            let l = intel::v2::cpuid::ARCH_PERFMON::Leaf::from_regs(r.eax, r.ebx, r.ecx, r.edx);
            p.gp_counters = l.eax.gp_counters();
            p.gp_width = l.eax.gp_width();
            p.ebx_length = l.eax.ebx_length();
            p.fixed_counters = l.edx.fixed_counters();
            p.fixed_width = l.edx.fixed_width();
            if p.fixed_counters < 3 {
                info.note(Note::FewFixedCounters {
                    reported: p.fixed_counters,
                });
            }
            match version {
                2 => Generation::IntelV2,
                3 => Generation::IntelV3,
                _ => Generation::IntelV4,
            }
        }
        5 => {
            let l = intel::v5::cpuid::ARCH_PERFMON::Leaf::from_regs(r.eax, r.ebx, r.ecx, r.edx);
            p.gp_counters = l.eax.gp_counters();
            p.gp_width = l.eax.gp_width();
            p.ebx_length = l.eax.ebx_length();
            p.fixed_counters = l.edx.fixed_counters();
            p.fixed_width = l.edx.fixed_width();
            p.fixed_mask = l.ecx.fixed_counter_mask();
            p.anythread_deprecated = l.edx.anythread_deprecated();
            Generation::IntelV5
        }
        _ => {
            let l = intel::v6::cpuid::ARCH_PERFMON::Leaf::from_regs(r.eax, r.ebx, r.ecx, r.edx);
            p.gp_counters = l.eax.gp_counters();
            p.gp_width = l.eax.gp_width();
            p.ebx_length = l.eax.ebx_length();
            p.fixed_counters = l.edx.fixed_counters();
            p.fixed_width = l.edx.fixed_width();
            p.fixed_mask = l.ecx.fixed_counter_mask();
            p.anythread_deprecated = l.edx.anythread_deprecated();
            if version > 6 {
                info.note(Note::NewerVersion {
                    version,
                    using: <IntelV6 as Arch>::GENERATION,
                });
            }
            Generation::IntelV6
        }
    };
    p.ext = detect_leaf23(src, info.max_leaf);

    // Counter masks: leaf 23H subleaf 1 when present (as Linux does), else the counts, plus the
    // version 5 fixed-counter bitmask ("FxCtr[i] is supported if ECX[i] || EDX[4:0] > i").
    let gp = match p.ext.and_then(|e| e.gp_mask) {
        Some(m) => m,
        None => mask_of(p.gp_counters as u32),
    };
    let fixed = match p.ext.and_then(|e| e.fixed_mask) {
        Some(m) => m,
        None => p.fixed_mask | mask_of(p.fixed_counters as u32),
    };
    info.generation = Some(generation);
    info.counters = generation.visit(Clamp {
        gp,
        gp_width: p.gp_width,
        fixed,
        fixed_width: p.fixed_width,
        notes: info,
    });
    info.counters.unavailable_events = generation.visit(Unavailable {
        eax: r.eax,
        ebx: r.ebx,
    });
    info.counters.anythread_deprecated = p.anythread_deprecated;
    (info.counters.umask2, info.counters.eq) = match p.ext {
        Some(e) => (e.umask2, e.eq),
        None => (false, false),
    };
    info.intel = Some(p);
}

fn detect_leaf23<S: CpuidSource + ?Sized>(src: &mut S, max_leaf: u32) -> Option<PerfmonExt> {
    use crate::intel::v6::cpuid::{ARCH_PERFMON_COUNTERS, ARCH_PERFMON_EXT};
    const LEAF7: u32 = 7;
    if max_leaf < ARCH_PERFMON_EXT::LEAF || max_leaf < LEAF7 {
        return None;
    }
    // Leaf 07H subleaf 0 EAX is the highest valid subleaf.
    if src.cpuid(LEAF7, 0).eax < 1 || src.cpuid(LEAF7, 1).eax & LEAF7_1_EAX_ARCH_PERFMON_EXT == 0 {
        return None;
    }
    let sub0 = src.cpuid(
        ARCH_PERFMON_EXT::LEAF,
        ARCH_PERFMON_EXT::SUBLEAF.unwrap_or(0),
    );
    let sub1_index = ARCH_PERFMON_COUNTERS::SUBLEAF.unwrap_or(1);
    let sub1 = (sub1_index < 32 && sub0.eax & (1 << sub1_index) != 0)
        .then(|| src.cpuid(ARCH_PERFMON_COUNTERS::LEAF, sub1_index));
    Some(decode_leaf23(sub0, sub1))
}

/// Decodes leaf 23H from its raw subleaves: subleaf 0 (valid-subleaf bitmap, UMASK2, EQ) and,
/// when its bitmap enumerates subleaf 1, subleaf 1 (counter bitmaps). A `sub1` that subleaf 0
/// does not enumerate is ignored.
pub fn decode_leaf23(sub0: CpuidResult, sub1: Option<CpuidResult>) -> PerfmonExt {
    use crate::intel::v6::cpuid::{ARCH_PERFMON_COUNTERS, ARCH_PERFMON_EXT};
    let l = ARCH_PERFMON_EXT::Leaf::from_regs(sub0.eax, sub0.ebx, sub0.ecx, sub0.edx);
    let mut ext = PerfmonExt {
        subleaves: l.eax.subleaf_bitmap(),
        umask2: l.ebx.umask2(),
        eq: l.ebx.eq_field(),
        gp_mask: None,
        fixed_mask: None,
    };
    let sub1_index = ARCH_PERFMON_COUNTERS::SUBLEAF.unwrap_or(1);
    if let Some(r) = sub1.filter(|_| sub1_index < 32 && ext.subleaves & (1 << sub1_index) != 0) {
        let l = ARCH_PERFMON_COUNTERS::Leaf::from_regs(r.eax, r.ebx, r.ecx, r.edx);
        ext.gp_mask = Some(l.eax.gp_counter_mask());
        ext.fixed_mask = Some(l.ebx.fixed_counter_mask());
    }
    ext
}

/// Clamps reported counters to the generation's register families, noting what is dropped.
struct Clamp<'a> {
    gp: u32,
    gp_width: u8,
    fixed: u32,
    fixed_width: u8,
    notes: &'a mut PmuInfo,
}

impl ArchVisitor for Clamp<'_> {
    type Output = CounterSet;
    fn visit<A: Arch>(self) -> CounterSet {
        let gp_defined = mask_of(A::GP_INSTANCES);
        let fixed_defined = mask_of(A::FIXED_INSTANCES);
        if self.gp & !gp_defined != 0 {
            self.notes.note(Note::MoreCountersThanDefined {
                fixed: false,
                reported: self.gp,
                defined: A::GP_INSTANCES,
            });
        }
        if self.fixed & !fixed_defined != 0 {
            self.notes.note(Note::MoreCountersThanDefined {
                fixed: true,
                reported: self.fixed,
                defined: A::FIXED_INSTANCES,
            });
        }
        let mut gp_width = self.gp_width;
        if gp_width as u32 > A::GP_MODEL_WIDTH {
            self.notes.note(Note::WiderThanDefined {
                fixed: false,
                reported: gp_width,
                defined: A::GP_MODEL_WIDTH,
            });
            gp_width = A::GP_MODEL_WIDTH as u8;
        }
        let mut fixed_width = self.fixed_width;
        let fixed = self.fixed & fixed_defined;
        if fixed_width as u32 > A::FIXED_MODEL_WIDTH && fixed != 0 {
            self.notes.note(Note::WiderThanDefined {
                fixed: true,
                reported: fixed_width,
                defined: A::FIXED_MODEL_WIDTH,
            });
            fixed_width = A::FIXED_MODEL_WIDTH as u8;
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
struct Unavailable {
    eax: u32,
    ebx: u32,
}

impl ArchVisitor for Unavailable {
    type Output = u32;
    fn visit<A: Arch>(self) -> u32 {
        let mut mask = 0;
        for (i, e) in A::arch_events().iter().enumerate() {
            if !A::arch_event_available(i, self.eax, self.ebx) && e.cpuid_bit < 32 {
                mask |= 1 << e.cpuid_bit;
            }
        }
        mask
    }
}

fn detect_amd<S: CpuidSource + ?Sized>(src: &mut S, info: &mut PmuInfo) {
    use crate::amd;
    let family = info.family();
    let mut a = AmdPerfmon {
        family,
        ..AmdPerfmon::default()
    };
    let ext0 = src.cpuid(0x8000_0000, 0);
    info.max_ext_leaf = ext0.eax;
    if info.max_ext_leaf >= 0x8000_0001 {
        a.perfctr_core = src.cpuid(0x8000_0001, 0).ecx & EXT1_ECX_PERFCTR_CORE != 0;
    }
    let leaf = amd::perfmon_v2::cpuid::EXT_PERFMON_DEBUG::LEAF;
    if info.max_ext_leaf >= leaf {
        let r = src.cpuid(leaf, 0);
        let l =
            amd::perfmon_v2::cpuid::EXT_PERFMON_DEBUG::Leaf::from_regs(r.eax, r.ebx, r.ecx, r.edx);
        a.leaf_80000022 = Some(r);
        a.perfmon_v2 = l.eax.perfmon_v2();
        a.lbr_and_pmc_freeze = l.eax.lbr_and_pmc_freeze();
        a.core_counters = l.ebx.num_perf_ctr_core();
        a.nb_counters = l.ebx.num_perf_ctr_nb();
        a.umc_counters = l.ebx.num_perf_ctr_umc();
    }
    // K7 (family 6) introduced PerfEvtSel0-3/PerfCtr0-3 (AMD Athlon Processor x86 Code
    // Optimization Guide, appendix D); earlier families have none.
    const K7_FAMILY: u32 = 6;
    let (generation, gp) = if a.perfmon_v2 {
        (Generation::AmdPerfmonV2, mask_of(a.core_counters as u32))
    } else if a.perfctr_core {
        (
            Generation::AmdCore,
            mask_of(<crate::arch::AmdCore as Arch>::GP_INSTANCES),
        )
    } else if family >= K7_FAMILY {
        (
            Generation::AmdK7,
            mask_of(<crate::arch::AmdK7 as Arch>::GP_INSTANCES),
        )
    } else {
        info.note(Note::NoAmdCounters { family });
        info.amd = Some(a);
        return;
    };
    info.generation = Some(generation);
    // AMD does not report counter widths in CPUID: the definitions' width is used.
    info.counters = generation.visit(Clamp {
        gp,
        gp_width: generation.visit(GpModelWidth),
        fixed: 0,
        fixed_width: 0,
        notes: info,
    });
    info.amd = Some(a);
}

struct GpModelWidth;
impl ArchVisitor for GpModelWidth {
    type Output = u8;
    fn visit<A: Arch>(self) -> u8 {
        A::GP_MODEL_WIDTH as u8
    }
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
struct Report<'a, 'b> {
    info: &'a PmuInfo,
    f: &'a mut fmt::Formatter<'b>,
}

impl ArchVisitor for Report<'_, '_> {
    type Output = fmt::Result;
    fn visit<A: Arch>(self) -> fmt::Result {
        let Report { info, f } = self;
        let c = &info.counters;
        let gp_reg = A::registers()
            .iter()
            .find(|r| r.role == Some(crate::arch::Role::Counter))
            .map_or("?", |r| r.name);
        writeln!(
            f,
            "  general-purpose counters: {} x {} bits ({gp_reg} {})",
            c.gp.count_ones(),
            c.gp_width,
            Mask(c.gp)
        )?;
        if A::FIXED_INSTANCES > 0 {
            writeln!(
                f,
                "  fixed counters:           {} x {} bits (IA32_FIXED_CTR {})",
                c.fixed.count_ones(),
                c.fixed_width,
                Mask(c.fixed)
            )?;
        }
        if let Some(p) = &info.intel {
            if p.version >= 3 {
                writeln!(
                    f,
                    "  AnyThread:                {}",
                    if p.anythread_deprecated {
                        "deprecated (CPUID.0AH:EDX[15])"
                    } else {
                        "supported"
                    }
                )?;
            }
            match &p.ext {
                Some(e) => writeln!(
                    f,
                    "  leaf 23H:                 subleaves {:#x}, UMASK2 {}, EQ {}",
                    e.subleaves,
                    if e.umask2 { "yes" } else { "no" },
                    if e.eq { "yes" } else { "no" }
                )?,
                None => writeln!(f, "  leaf 23H:                 not enumerated")?,
            }
            writeln!(
                f,
                "  IA32_PERF_CAPABILITIES:   {}",
                if info.perf_capabilities_msr {
                    "present (CPUID.01H:ECX.PDCM)"
                } else {
                    "absent"
                }
            )?;
        }
        if !A::arch_events().is_empty() {
            writeln!(
                f,
                "  architectural events (CPUID.0AH:EBX, length {}):",
                info.intel.map_or(0, |p| p.ebx_length)
            )?;
            for e in A::arch_events() {
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
        if let Some(p) = &self.intel {
            writeln!(
                f,
                "CPUID.0AH: eax={:#010x} ebx={:#010x} ecx={:#010x} edx={:#010x} (version {})",
                p.leaf.eax, p.leaf.ebx, p.leaf.ecx, p.leaf.edx, p.version
            )?;
        }
        if let Some(a) = &self.amd {
            write!(
                f,
                "AMD: PerfCtrExtCore {}",
                if a.perfctr_core { "yes" } else { "no" }
            )?;
            match a.leaf_80000022 {
                Some(r) => writeln!(
                    f,
                    ", CPUID 80000022H eax={:#010x} ebx={:#010x}: PerfMonV2 {}, {} core counters, {} NB, {} UMC",
                    r.eax,
                    r.ebx,
                    if a.perfmon_v2 { "yes" } else { "no" },
                    a.core_counters,
                    a.nb_counters,
                    a.umc_counters
                )?,
                None => writeln!(f, ", CPUID 80000022H absent")?,
            }
        }
        match self.generation {
            Some(g) => {
                writeln!(f, "PMU generation: {g} ({})", g.module())?;
                g.visit(Report { info: self, f })?;
            }
            None => writeln!(f, "PMU generation: none")?,
        }
        for n in self.notes() {
            writeln!(f, "note: {n}")?;
        }
        Ok(())
    }
}
