//! Architectural performance monitoring version per core.

use crate::intel::event::PerfmonFile;
use crate::report::{Issue, Level};

/// The architectural performance monitoring version (CPUID.0AH:EAX\[7:0\]) of each core whose
/// perfmon file this importer knows, keyed by the file name without `.json` (lowercase), with
/// the source of the fact. A file not listed here gets a version from its contents
/// ([`guess_arch_version`]) and a warning.
///
/// Section numbers are those of the SDM editions in which "Performance Monitoring" is chapter
/// 18 of Vol. 3B (see docs/yaml.md, "Manual references"); look them up by title in later editions.
/// Where an InstLatx64 CPUID dump is cited, its CPUID.0AH:EAX value was read (low byte = the
/// version).
///
/// How each entry was checked when the table was written: Nehalem (§18.8) and Haswell
/// (§18.11) against the SDM text ("version ID 3"); Silvermont and Goldmont against SDM
/// Table 18-18 and the version-4 registers it lists for Goldmont; Knights Landing and
/// Tremont (Elkhart Lake, Snow Ridge) against CPUID dumps. The others are the versions the
/// SDM's per-microarchitecture sections give, not re-read for this table; the data agrees
/// with them (AnyThread set only on version 3 and 4 cores, fixed counter 3 and TOPDOWN.SLOTS
/// from version 5, non-zero UMaskExt only on version 6 cores). Arrow Lake's
/// Crestmont cores are given Meteor Lake's Crestmont version (5) although Intel's list for
/// them has the (all-zero) UMaskExt and Equal keys; version 5 claims no UMASK2/EQ bits.
pub const ARCH_VERSIONS: &[(&str, u8, &str)] = &[
    // Bonnell (first Intel Atom).
    (
        "bonnell_core",
        3,
        "Bonnell: SDM Vol. 3B, \"Performance Monitoring (Processors Based on Intel Atom Microarchitecture)\" (version ID 3)",
    ),
    // Nehalem and Westmere.
    (
        "nehalemep_core",
        3,
        "Nehalem: SDM Vol. 3B §18.8, \"Performance Monitoring for Processors Based on Intel Microarchitecture Code Name Nehalem\" (version ID 3)",
    ),
    (
        "nehalemex_core",
        3,
        "Nehalem: SDM Vol. 3B §18.8 (version ID 3)",
    ),
    (
        "westmereep-dp_core",
        3,
        "Westmere: SDM Vol. 3B, \"Performance Monitoring for Processors Based on Intel Microarchitecture Code Name Westmere\" (as Nehalem, version ID 3)",
    ),
    (
        "westmereep-sp_core",
        3,
        "Westmere: SDM Vol. 3B, Westmere performance monitoring (version ID 3)",
    ),
    (
        "westmereex_core",
        3,
        "Westmere: SDM Vol. 3B, Westmere performance monitoring (version ID 3)",
    ),
    // Sandy Bridge to Broadwell: version 3.
    (
        "sandybridge_core",
        3,
        "Sandy Bridge: SDM Vol. 3B, \"Performance Monitoring for 2nd Generation Intel Core Processors\" (version ID 3)",
    ),
    (
        "jaketown_core",
        3,
        "Sandy Bridge-EP: SDM Vol. 3B, 2nd generation Intel Core performance monitoring (version ID 3)",
    ),
    (
        "ivybridge_core",
        3,
        "Ivy Bridge: SDM Vol. 3B, \"3rd Generation Intel Core Processor Performance Monitoring Facility\" (version ID 3)",
    ),
    (
        "ivytown_core",
        3,
        "Ivy Bridge-EP: SDM Vol. 3B, 3rd generation Intel Core performance monitoring (version ID 3)",
    ),
    (
        "haswell_core",
        3,
        "Haswell: SDM Vol. 3B §18.11, \"4th Generation Intel Core Processor Performance Monitoring Facility\" (version ID 3)",
    ),
    (
        "haswellx_core",
        3,
        "Haswell-EP: SDM Vol. 3B §18.11 (version ID 3)",
    ),
    (
        "broadwell_core",
        3,
        "Broadwell: SDM Vol. 3B §18.12, \"Intel Core M Processor Performance Monitoring Facility\" (version ID 3)",
    ),
    (
        "broadwellde_core",
        3,
        "Broadwell-DE: SDM Vol. 3B §18.12 (version ID 3)",
    ),
    (
        "broadwellx_core",
        3,
        "Broadwell-EP: SDM Vol. 3B §18.12 (version ID 3)",
    ),
    // Silvermont family.
    (
        "silvermont_core",
        3,
        "Silvermont: SDM Vol. 3B, Table 18-18 \"Core PMU Comparison Between the Goldmont and Silvermont Microarchitectures\" (version ID 3)",
    ),
    (
        "knightslanding_core",
        3,
        "Knights Landing: InstLatx64 CPUID dump GenuineIntel0050671_KnightsLanding (CPUID.0AH:EAX = 07280203H)",
    ),
    // Skylake family and Goldmont: version 4.
    (
        "skylake_core",
        4,
        "Skylake: SDM Vol. 3B §18.13, \"6th Generation Intel Core Processor Performance Monitoring Facility\" (version ID 4)",
    ),
    (
        "skylakex_core",
        4,
        "Skylake-SP: SDM Vol. 3B §18.13 (version ID 4)",
    ),
    (
        "cascadelakex_core",
        4,
        "Cascade Lake: Skylake server core, SDM Vol. 3B §18.13 (version ID 4)",
    ),
    (
        "goldmont_core",
        4,
        "Goldmont: SDM Vol. 3B §18.7, Table 18-18 (IA32_PERF_GLOBAL_STATUS_RESET/SET and IA32_PERF_GLOBAL_INUSE, version 4 facilities)",
    ),
    (
        "goldmontplus_core",
        4,
        "Goldmont Plus: SDM Vol. 3B, \"Performance Monitoring for Goldmont Plus Microarchitecture\" (as Goldmont, version 4)",
    ),
    // Version 5: Ice Lake and later big cores, Tremont and later Atom cores.
    (
        "icelake_core",
        5,
        "Ice Lake (Sunny Cove): SDM Vol. 3B, \"10th Generation Intel Core Processor Performance Monitoring Facility\" (version ID 5)",
    ),
    (
        "icelakex_core",
        5,
        "Ice Lake-SP (Sunny Cove): SDM Vol. 3B (version ID 5)",
    ),
    (
        "tigerlake_core",
        5,
        "Tiger Lake (Willow Cove): SDM Vol. 3B, Sunny Cove-based performance monitoring (version ID 5)",
    ),
    (
        "rocketlake_core",
        5,
        "Rocket Lake (Cypress Cove): SDM Vol. 3B, Sunny Cove-based performance monitoring (version ID 5)",
    ),
    (
        "elkhartlake_core",
        5,
        "Elkhart Lake (Tremont): InstLatx64 CPUID dump GenuineIntel00906C0_JasperLake, a Tremont part (CPUID.0AH:EAX = 07300405H)",
    ),
    (
        "snowridgex_core",
        5,
        "Snow Ridge (Tremont): as Elkhart Lake, Tremont reports version 5",
    ),
    (
        "alderlake_goldencove_core",
        5,
        "Alder Lake (Golden Cove): SDM Vol. 3B, \"12th Generation Intel Core Processor Performance Monitoring Facility\" (version ID 5)",
    ),
    (
        "alderlake_gracemont_core",
        5,
        "Alder Lake (Gracemont): SDM Vol. 3B, 12th generation Intel Core performance monitoring (version ID 5)",
    ),
    (
        "sapphirerapids_core",
        5,
        "Sapphire Rapids (Golden Cove): SDM Vol. 3B (version ID 5)",
    ),
    (
        "emeraldrapids_core",
        5,
        "Emerald Rapids (Raptor Cove): SDM Vol. 3B (version ID 5)",
    ),
    (
        "meteorlake_redwoodcove_core",
        5,
        "Meteor Lake (Redwood Cove): SDM Vol. 3B (version ID 5)",
    ),
    (
        "meteorlake_crestmont_core",
        5,
        "Meteor Lake (Crestmont): SDM Vol. 3B (version ID 5)",
    ),
    (
        "arrowlake_crestmont_core",
        5,
        "Arrow Lake (Crestmont, as in Meteor Lake): version 5; Intel's list has UMaskExt and Equal keys here, all zero, so nothing is lost",
    ),
    (
        "sierraforest_core",
        5,
        "Sierra Forest (Crestmont): SDM Vol. 3B (version ID 5)",
    ),
    (
        "grandridge_core",
        5,
        "Grand Ridge (Crestmont): SDM Vol. 3B (version ID 5)",
    ),
    (
        "graniterapids_core",
        5,
        "Granite Rapids (Redwood Cove, as Meteor Lake's P-core): version 5, the version of the Golden Cove/Redwood Cove server cores; Linux arch/x86/events/intel/core.c sets Granite Rapids up with intel_pmu_init_glc (glc_common, intel_rwc_extra_regs) and Intel's list has neither UMaskExt nor Equal",
    ),
    // Version 6: UMASK2/EQ and CPUID leaf 23H.
    (
        "lunarlake_lioncove_core",
        6,
        "Lunar Lake (Lion Cove): SDM Vol. 3B, \"Architectural Performance Monitoring Version 6\"; Intel's list uses UMaskExt and Equal",
    ),
    (
        "lunarlake_skymont_core",
        6,
        "Lunar Lake (Skymont): SDM Vol. 3B, architectural performance monitoring version 6",
    ),
    (
        "arrowlake_lioncove_core",
        6,
        "Arrow Lake (Lion Cove): SDM Vol. 3B, architectural performance monitoring version 6",
    ),
    (
        "arrowlake_skymont_core",
        6,
        "Arrow Lake (Skymont): SDM Vol. 3B, architectural performance monitoring version 6",
    ),
    (
        "clearwaterforest_core",
        6,
        "Clearwater Forest (Darkmont): SDM Vol. 3B, architectural performance monitoring version 6",
    ),
    (
        "pantherlake_cougarcove_core",
        6,
        "Panther Lake (Cougar Cove): SDM Vol. 3B, architectural performance monitoring version 6; Linux arch/x86/events/intel/core.c sets Panther Lake up as Lunar Lake (lnl_common: intel_pmu_init_lnc for the P-core)",
    ),
    (
        "pantherlake_darkmont_core",
        6,
        "Panther Lake (Darkmont): SDM Vol. 3B, architectural performance monitoring version 6; Linux arch/x86/events/intel/core.c sets Panther Lake up as Lunar Lake (lnl_common: intel_pmu_init_skt for the E-core)",
    ),
    (
        "novalake_coyotecove_core",
        6,
        "Nova Lake (Coyote Cove): architectural performance monitoring version 6 (UMASK2/EQ in Intel's list); Linux arch/x86/events/intel/core.c (INTEL_NOVALAKE, INTEL_NOVALAKE_L) sets the P-core up as Panther Cove (intel_pmu_init_pnc)",
    ),
    (
        "novalake_arcticwolf_core",
        6,
        "Nova Lake (Arctic Wolf): architectural performance monitoring version 6 (UMASK2/EQ in Intel's list); Linux arch/x86/events/intel/core.c (INTEL_NOVALAKE, INTEL_NOVALAKE_L) sets the E-core up with intel_pmu_init_arw",
    ),
];

/// The architectural version a core model extends, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchVersion {
    /// 1 to 6: the model extends `intel-v<version>`; 0 for an AMD model (`basis` says which
    /// AMD generation it extends).
    pub version: u8,
    /// Where the version comes from (a manual section, or the heuristic's evidence).
    pub basis: String,
    /// True when it came from [`ARCH_VERSIONS`].
    pub from_table: bool,
}

/// Guesses the architectural version from what a list uses: `UMaskExt`/`Equal` → 6; fixed
/// counter 3 or `TOPDOWN.SLOTS` → 5; `AnyThread` → 3 (version 4 cannot be told apart from
/// the events alone; 3 claims fewer registers); any fixed counter → 2; else 1.
pub fn guess_arch_version(file: &PerfmonFile) -> ArchVersion {
    let has = |k: &str| file.keys.contains(k);
    let fixed3 = file.events.iter().any(|e| e.counters.fixed.contains(&3));
    let slots = file.events.iter().any(|e| e.facts.name == "TOPDOWN.SLOTS");
    let fixed = file.events.iter().any(|e| !e.counters.fixed.is_empty());
    let (version, why) = if has("UMaskExt") || has("Equal") {
        (6, "the list uses UMaskExt/Equal")
    } else if fixed3 || slots {
        (5, "the list uses fixed counter 3 / TOPDOWN.SLOTS")
    } else if has("AnyThread") {
        (
            3,
            "the list uses AnyThread (version 3 or 4; 3 claims fewer registers)",
        )
    } else if fixed {
        (2, "the list uses fixed counters")
    } else {
        (1, "the list uses no later facility")
    };
    ArchVersion {
        version,
        basis: format!("guessed: {why}"),
        from_table: false,
    }
}

/// The table entry for a file (by its name without `.json`), or the guess with a warning.
pub(crate) fn arch_version(stem: &str, file: &PerfmonFile, issues: &mut Vec<Issue>) -> ArchVersion {
    let key = stem.to_ascii_lowercase();
    if let Some((_, v, basis)) = ARCH_VERSIONS.iter().find(|(k, _, _)| *k == key) {
        return ArchVersion {
            version: *v,
            basis: (*basis).to_owned(),
            from_table: true,
        };
    }
    let g = guess_arch_version(file);
    issues.push(Issue::new(
        Level::Warning,
        &file.name,
        None,
        format!(
            "`{stem}` is not in the table of architectural perfmon versions (pmu_import::ARCH_VERSIONS); extending intel-v{} ({}). Check the SDM and add it to the table",
            g.version, g.basis
        ),
    ));
    g
}
