//! perf's generic hardware events (`perf list hw`): the names perf accepts for
//! `PERF_TYPE_HARDWARE` and their `PERF_COUNT_HW_*` ids, from the kernel's ABI
//! (`include/uapi/linux/perf_event.h`, `enum perf_hw_id`) and perf's spelling of them
//! (`tools/perf/util/parse-events.c`, `event_symbols_hw`).
//!
//! Which event of a CPU each one counts is the kernel's choice (`intel_perfmon_event_map`,
//! `amd_zen4_perfmon_event_map`, ...): the definitions state it per generation
//! (`generic-events:`), and `pmu_regs::perf` resolves a generic name through them.
//!
//! ```
//! use pmu_vocab::perf::GenericEvent;
//!
//! assert_eq!(GenericEvent::from_name("branches"), Some(GenericEvent::BranchInstructions));
//! assert_eq!(GenericEvent::CpuCycles.name(), "cpu-cycles");
//! assert_eq!(GenericEvent::RefCpuCycles.hw_id(), 9);
//! ```

use core::fmt;

/// One of perf's generic hardware events, in the order of `enum perf_hw_id` (its
/// discriminant is the `PERF_COUNT_HW_*` id, `perf_event_attr.config` for
/// `PERF_TYPE_HARDWARE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GenericEvent {
    /// `cpu-cycles` (`cycles`): `PERF_COUNT_HW_CPU_CYCLES`.
    CpuCycles = 0,
    /// `instructions`: `PERF_COUNT_HW_INSTRUCTIONS`.
    Instructions = 1,
    /// `cache-references`: `PERF_COUNT_HW_CACHE_REFERENCES`.
    CacheReferences = 2,
    /// `cache-misses`: `PERF_COUNT_HW_CACHE_MISSES`.
    CacheMisses = 3,
    /// `branch-instructions` (`branches`): `PERF_COUNT_HW_BRANCH_INSTRUCTIONS`.
    BranchInstructions = 4,
    /// `branch-misses`: `PERF_COUNT_HW_BRANCH_MISSES`.
    BranchMisses = 5,
    /// `bus-cycles`: `PERF_COUNT_HW_BUS_CYCLES`.
    BusCycles = 6,
    /// `stalled-cycles-frontend` (`idle-cycles-frontend`):
    /// `PERF_COUNT_HW_STALLED_CYCLES_FRONTEND`.
    StalledCyclesFrontend = 7,
    /// `stalled-cycles-backend` (`idle-cycles-backend`):
    /// `PERF_COUNT_HW_STALLED_CYCLES_BACKEND`.
    StalledCyclesBackend = 8,
    /// `ref-cycles`: `PERF_COUNT_HW_REF_CPU_CYCLES`.
    RefCpuCycles = 9,
}

impl GenericEvent {
    /// Every generic event, by id.
    pub const ALL: [GenericEvent; 10] = [
        GenericEvent::CpuCycles,
        GenericEvent::Instructions,
        GenericEvent::CacheReferences,
        GenericEvent::CacheMisses,
        GenericEvent::BranchInstructions,
        GenericEvent::BranchMisses,
        GenericEvent::BusCycles,
        GenericEvent::StalledCyclesFrontend,
        GenericEvent::StalledCyclesBackend,
        GenericEvent::RefCpuCycles,
    ];

    /// perf's name for it (`event_symbols_hw[].symbol`), as the definitions' `generic-events:`
    /// keys write it.
    pub const fn name(self) -> &'static str {
        match self {
            GenericEvent::CpuCycles => "cpu-cycles",
            GenericEvent::Instructions => "instructions",
            GenericEvent::CacheReferences => "cache-references",
            GenericEvent::CacheMisses => "cache-misses",
            GenericEvent::BranchInstructions => "branch-instructions",
            GenericEvent::BranchMisses => "branch-misses",
            GenericEvent::BusCycles => "bus-cycles",
            GenericEvent::StalledCyclesFrontend => "stalled-cycles-frontend",
            GenericEvent::StalledCyclesBackend => "stalled-cycles-backend",
            GenericEvent::RefCpuCycles => "ref-cycles",
        }
    }

    /// perf's other name for it (`event_symbols_hw[].alias`), if it has one.
    pub const fn alias(self) -> Option<&'static str> {
        match self {
            GenericEvent::CpuCycles => Some("cycles"),
            GenericEvent::BranchInstructions => Some("branches"),
            GenericEvent::StalledCyclesFrontend => Some("idle-cycles-frontend"),
            GenericEvent::StalledCyclesBackend => Some("idle-cycles-backend"),
            _ => None,
        }
    }

    /// The `PERF_COUNT_HW_*` id: `perf_event_attr.config` to open it as `PERF_TYPE_HARDWARE`.
    pub const fn hw_id(self) -> u64 {
        self as u64
    }

    /// The generic event perf calls `name` or by its alias (ASCII case-insensitive, as
    /// perf's lexer reads event names).
    pub fn from_name(name: &str) -> Option<GenericEvent> {
        GenericEvent::ALL.into_iter().find(|g| {
            g.name().eq_ignore_ascii_case(name)
                || g.alias().is_some_and(|a| a.eq_ignore_ascii_case(name))
        })
    }

    /// The generic event with `PERF_COUNT_HW_*` id `id`.
    pub fn from_hw_id(id: u64) -> Option<GenericEvent> {
        GenericEvent::ALL.into_iter().find(|g| g.hw_id() == id)
    }
}

impl fmt::Display for GenericEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_the_abi_order_and_names_round_trip() {
        for (i, g) in GenericEvent::ALL.into_iter().enumerate() {
            assert_eq!(g.hw_id(), i as u64);
            assert_eq!(GenericEvent::from_hw_id(i as u64), Some(g));
            assert_eq!(GenericEvent::from_name(g.name()), Some(g));
            if let Some(a) = g.alias() {
                assert_eq!(GenericEvent::from_name(a), Some(g));
            }
        }
        assert_eq!(
            GenericEvent::from_name("CYCLES"),
            Some(GenericEvent::CpuCycles)
        );
        assert_eq!(GenericEvent::from_name("cycle"), None);
        assert_eq!(GenericEvent::from_hw_id(10), None);
    }
}
