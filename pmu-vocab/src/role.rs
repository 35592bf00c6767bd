//! What a register does in the PMU: the YAML `role:`.

/// What a register does in the PMU: the YAML `role:` of a register. The run-time layer
/// (`pmu_regs::arch`) programs counters through the registers that play these roles, and the
/// generated tables carry them; [`Role::as_str`] is the YAML spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "kebab-case")
)]
pub enum Role {
    /// General-purpose counter (IA32_PMCn, AMD PerfCtrn).
    Counter,
    /// General-purpose event select (IA32_PERFEVTSELn, AMD PerfEvtSeln).
    EventSelect,
    /// Full-width write alias of a general-purpose counter (IA32_A_PMCn).
    FullWidthCounter,
    /// Legacy counter aliased to the first general-purpose counters.
    LegacyCounter,
    /// Legacy event select aliased to the first event selects.
    LegacyEventSelect,
    /// Fixed-function counter (IA32_FIXED_CTRn).
    FixedCounter,
    /// Fixed-counter control (IA32_FIXED_CTR_CTRL).
    FixedControl,
    /// Global enable (IA32_PERF_GLOBAL_CTRL, AMD PerfCntrGlobalCtl).
    GlobalControl,
    /// Global overflow status.
    GlobalStatus,
    /// Write-1-to-clear companion of the status register.
    GlobalStatusReset,
    /// Write-1-to-set companion of the status register.
    GlobalStatusSet,
    /// Which counters are in use (IA32_PERF_GLOBAL_INUSE).
    GlobalInUse,
    /// PMU capabilities (IA32_PERF_CAPABILITIES).
    Capabilities,
    /// Debug control with the PMU freeze bits (IA32_DEBUGCTL).
    DebugControl,
    /// Instruction-Based Sampling fetch control (AMD IbsFetchCtl).
    IbsFetchControl,
    /// Instruction-Based Sampling op control (AMD IbsOpCtl).
    IbsOpControl,
}

impl Role {
    /// Every role, in the order of the YAML vocabulary.
    pub const ALL: [Role; 16] = [
        Role::Counter,
        Role::EventSelect,
        Role::FullWidthCounter,
        Role::LegacyCounter,
        Role::LegacyEventSelect,
        Role::FixedCounter,
        Role::FixedControl,
        Role::GlobalControl,
        Role::GlobalStatus,
        Role::GlobalStatusReset,
        Role::GlobalStatusSet,
        Role::GlobalInUse,
        Role::Capabilities,
        Role::DebugControl,
        Role::IbsFetchControl,
        Role::IbsOpControl,
    ];

    /// The YAML spelling (`role: global-status-reset`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Role::Counter => "counter",
            Role::EventSelect => "event-select",
            Role::FullWidthCounter => "full-width-counter",
            Role::LegacyCounter => "legacy-counter",
            Role::LegacyEventSelect => "legacy-event-select",
            Role::FixedCounter => "fixed-counter",
            Role::FixedControl => "fixed-control",
            Role::GlobalControl => "global-control",
            Role::GlobalStatus => "global-status",
            Role::GlobalStatusReset => "global-status-reset",
            Role::GlobalStatusSet => "global-status-set",
            Role::GlobalInUse => "global-in-use",
            Role::Capabilities => "capabilities",
            Role::DebugControl => "debug-control",
            Role::IbsFetchControl => "ibs-fetch-control",
            Role::IbsOpControl => "ibs-op-control",
        }
    }
}
