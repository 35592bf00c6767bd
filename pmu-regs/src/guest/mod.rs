//! A guest's virtual PMU, for hypervisors: which PMU MSRs a guest has and which bits of each
//! it may write, from the guest's CPUID and IA32_PERF_CAPABILITIES.
//!
//! [`GuestPmu::from_cpuid`] detects the generation the guest's CPUID reports
//! ([`crate::detect`]: leaves 0AH, 23H, 80000001H, 80000022H) and its counters, then reads
//! everything else from the generated register tables ([`RegInfo`]) by role: the counters,
//! event selects, fixed counters and their control, the global control and status registers
//! with their reset and set companions, the full-width counter aliases (only with
//! IA32_PERF_CAPABILITIES.FW_WRITE) and the second addresses of perfmon version 6. A
//! register's write mask is the union of its writable fields that the guest has:
//!
//! - a per-counter element (EN_PMC3, OVF_FIXED_CTR1, a fixed counter's control block) only
//!   for a counter the guest has, so fewer counters leave more bits reserved;
//! - a field with a `requires:` condition in the definitions (IN_TX and IN_TXCP with TSX,
//!   ADAPTIVE_RECORD with PEBS_BASELINE, UMASK2 and EQ with leaf 23H) only when the guest's
//!   CPUID or capabilities satisfy it ([`pmu_vocab::requires`] evaluates the manuals'
//!   notation the definitions write it in);
//! - a field valid on some instances only (IN_TXCP) only there;
//! - AnyThread (the event-select bit the generation's encoding puts an event's `any` in, and
//!   the fixed-control array of the same name) not when CPUID.0AH:EDX\[15\] deprecates it
//!   (Intel SDM Vol. 3B §18.2.5, "Architectural Performance Monitoring Version 5");
//! - a counter's value bits only up to the width CPUID reports.
//!
//! [`GuestPmu::check_write`] and [`GuestPmu::check_read`] apply it to one access, under a
//! [`Policy`] for reserved bits, and the [`EventFilter`] to event-select writes.
//!
//! A register of the generation without a role is the guest's when the definitions say when
//! a CPU has it (`requires:`) and the guest's CPUID satisfies it: IA32_DS_AREA with
//! CPUID.01H:EDX.DS\[21\], MSR_PEBS_DATA_CFG with
//! IA32_PERF_CAPABILITIES.PEBS_BASELINE\[14\]; its writable fields as above, and reserved bits
//! fault.
//!
//! The registers of a facility ([`Facility`]: IBS, AMD's LBR v2 stack, architectural LBRs,
//! architectural PEBS) are the guest's when its CPUID enumerates the facility (the
//! facility's `detect:` condition, as [`crate::detect::facilities`] reads it) and
//! `pmu-regs` is built with the facility's feature (`amd-ibs`, `intel-arch-lbr`, ...): each
//! register whose `requires:` the guest's CPUID satisfies (IBS_BR_TARGET with BrnTrgt), each
//! instance of a family up to the count its `count-from:` CPUID field gives (as many LBR
//! records as the guest's deepest LBR depth), with the writable fields whose `requires:`
//! holds. A reserved bit of a facility register faults under every [`Policy`].
//!
//! Not covered: registers without a role whose presence the definitions do not state
//! (IA32_PEBS_ENABLE, whose bits are per counter; IA32_PERF_METRICS, whose level-2 bytes
//! depend on the model; the reload and auto-reload
//! configuration MSRs; the model-specific LBR stacks and PEBS configuration).
//!
//! Where this differs from KVM (AnyThread, which KVM always reserves; the status bits of
//! versions 3-5, the fixed-counter bitmap, leaf 23H, the version 4 and 6 registers KVM does not
//! emulate; AMD's HostOnly/GuestOnly bits), the workspace's `tests/tests/guest_pmu.rs` lists
//! each difference with its manual section and checks the rest against KVM's rules on random
//! guests.
//!
//! ```
//! use pmu_regs::detect::{CpuidEntry, CpuidTable};
//! use pmu_regs::guest::{GuestFault, GuestPmu};
//!
//! // A version 2 guest: 2 general counters of 48 bits, 3 fixed counters.
//! const GUEST: [CpuidEntry; 3] = [
//!     CpuidEntry::new(0x0, 0, [0xA, 0x756E_6547, 0x6C65_746E, 0x4965_6E69]),
//!     CpuidEntry::new(0x1, 0, [0x0009_06E9, 0, 0, 0]),
//!     CpuidEntry::new(0xA, 0, [0x0730_0202, 0, 0, 0x0000_0603]),
//! ];
//! let guest = GuestPmu::from_cpuid(&mut CpuidTable::new(&GUEST), None);
//! // IA32_PERF_GLOBAL_CTRL: EN_PMC0-1 and EN_FIXED_CTR0-2.
//! assert_eq!(guest.msr(0x38F).unwrap().write_mask, 0x7_0000_0003);
//! assert!(matches!(guest.check_write(0x38F, 1 << 2), Err(GuestFault::Reserved { .. })));
//! assert!(matches!(guest.check_read(0xC3), Err(GuestFault::NoSuchMsr { .. })));
//! ```

use crate::arch::{
    Access, Arch, ArchVisitor, Counter, Facility, Generation, InstanceName, RegInfo, Role,
};
use crate::detect::{CpuidResult, CpuidSource, Facilities, PmuInfo, detect, facilities};
use core::fmt;

mod facility;
mod filter;
mod mask;

pub use filter::{EventFilter, EventMatch, FilterMode};
pub use mask::{GuestMasks, RoleMasks};

/// How reserved bits of a write are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The default. Intel: every reserved bit faults (#GP), as WRMSR does for a value that
    /// sets a reserved bit (Intel SDM Vol. 2, WRMSR, "Protected Mode Exceptions"). AMD: the
    /// event selects and counters drop reserved bits and keep the rest, as KVM does
    /// (`amd_pmu_set_msr` masks an event select with its reserved bits, `pmc_write_counter`
    /// a counter with its width), though the APM marks those bits reserved (AMD APM Vol. 2
    /// §13.2.1); [`Policy::Strict`] follows the manual there. AMD's other registers fault,
    /// as in KVM.
    Vendor,
    /// Every reserved bit faults, on both vendors.
    Strict,
    /// Event selects and counters drop reserved bits on both vendors; other registers fault.
    Lenient,
}

/// What a write with reserved bits does to one MSR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The write faults (#GP) and changes nothing.
    Fault,
    /// The reserved bits are dropped and the rest is written.
    Mask,
    /// Bits 31:0 are written, sign-extended to the counter's width; the rest is ignored (a
    /// counter with a full-width alias: Intel SDM Vol. 3B, "Full-Width Writes to Performance
    /// Counter Registers").
    SignExtend32,
}

impl Action {
    /// `fault`, `mask` or `sign-extend`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Action::Fault => "fault",
            Action::Mask => "mask",
            Action::SignExtend32 => "sign-extend",
        }
    }
}

/// One PMU MSR the guest has.
#[derive(Clone, Copy, Debug)]
pub struct GuestMsr {
    /// Its address (for a perfmon v6 register family, the legacy or the 19xxH address).
    pub address: u32,
    /// The register family it belongs to.
    pub info: RegInfo,
    /// Its index in the family (0 for a single register).
    pub index: u32,
    /// The bits the guest may write: its writable fields the guest has.
    pub write_mask: u64,
    /// What a write with other bits does.
    pub action: Action,
    /// The facility whose register it is (`None`: the guest's generation's).
    pub facility: Option<Facility>,
}

impl GuestMsr {
    /// `IA32_PERFEVTSEL3`, `IA32_PERF_GLOBAL_CTRL`.
    pub fn name(&self) -> InstanceName {
        self.info.instance_name(self.index)
    }

    /// What the register does (a facility's register, or one of the generation's that a
    /// [`GuestPmu`] lists for its `requires:`, may have none).
    pub fn role(&self) -> Option<Role> {
        self.info.role
    }

    /// The counter it belongs to: a general counter for counters, their full-width aliases
    /// and event selects, a fixed counter for fixed counters.
    pub fn counter(&self) -> Option<Counter> {
        match self.info.role? {
            Role::Counter
            | Role::EventSelect
            | Role::FullWidthCounter
            | Role::LegacyCounter
            | Role::LegacyEventSelect => Some(Counter::Gp(self.index)),
            Role::FixedCounter => Some(Counter::Fixed(self.index)),
            _ => None,
        }
    }
}

/// A write [`GuestPmu::check_write`] lets through.
#[derive(Clone, Copy, Debug)]
pub struct Write {
    /// The MSR.
    pub msr: GuestMsr,
    /// The value to write (reserved bits dropped or sign-extended as its [`Action`] says).
    pub value: u64,
    /// The bits dropped ([`Action::Mask`]).
    pub dropped: u64,
    /// An event select for an event the [`EventFilter`] denies: keep the value (the guest
    /// reads it back), but do not let the counter count.
    pub filtered: bool,
}

/// Why the guest's access faults (#GP), and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuestFault {
    /// The guest has no PMU MSR at this address (or no PMU).
    NoSuchMsr {
        /// The address.
        msr: u32,
    },
    /// A write to a read-only MSR.
    ReadOnly {
        /// The address.
        msr: u32,
        /// The register.
        name: InstanceName,
    },
    /// A read of a write-only MSR.
    WriteOnly {
        /// The address.
        msr: u32,
        /// The register.
        name: InstanceName,
    },
    /// A write setting bits reserved for this guest.
    Reserved {
        /// The address.
        msr: u32,
        /// The register.
        name: InstanceName,
        /// The value written.
        value: u64,
        /// The reserved bits it sets.
        reserved: u64,
    },
}

impl fmt::Display for GuestFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GuestFault::NoSuchMsr { msr } => {
                write!(f, "MSR {msr:#x}: the guest has no such PMU MSR (#GP)")
            }
            GuestFault::ReadOnly { msr, name } => {
                write!(
                    f,
                    "MSR {msr:#x} ({name}) is read-only: a write faults (#GP)"
                )
            }
            GuestFault::WriteOnly { msr, name } => {
                write!(
                    f,
                    "MSR {msr:#x} ({name}) is write-only: a read faults (#GP)"
                )
            }
            GuestFault::Reserved {
                msr,
                name,
                value,
                reserved,
            } => write!(
                f,
                "MSR {msr:#x} ({name}): {value:#x} sets bits {reserved:#x}, reserved for this guest (#GP)"
            ),
        }
    }
}

impl core::error::Error for GuestFault {}

/// The CPUID leaves a guest's `requires:` conditions may read, kept from construction.
const KEPT_LEAVES: [(u32, u32); 10] = [
    (0x1, 0),
    (0x7, 0),
    (0x7, 1),
    (0xA, 0),
    (0x1C, 0),
    (0x23, 0),
    (0x23, 1),
    (0x8000_0001, 0),
    (0x8000_001B, 0),
    (0x8000_0022, 0),
];

/// A guest's virtual PMU: see the [module documentation](self).
#[derive(Clone, Copy, Debug)]
pub struct GuestPmu<'f> {
    info: PmuInfo,
    perf_capabilities: u64,
    /// The [`KEPT_LEAVES`] as the guest sees them (`None`: not enumerated).
    leaves: [Option<CpuidResult>; KEPT_LEAVES.len()],
    derived: Option<mask::Derived>,
    /// The facilities the guest's CPUID enumerates.
    facilities: Facilities,
    /// The write masks, kept from construction.
    cache: mask::Cache,
    policy: Policy,
    filter: EventFilter<'f>,
}

impl GuestPmu<'static> {
    /// The virtual PMU a guest with this CPUID has, with `perf_capabilities` the value its
    /// IA32_PERF_CAPABILITIES reads (taken only when CPUID.01H:ECX.PDCM says the guest has
    /// the MSR; 0 otherwise). [`Policy::Vendor`], every event allowed. Every write mask is
    /// derived here, once, and kept: [`GuestPmu::check_write`] only reads them.
    pub fn from_cpuid<S: CpuidSource + ?Sized>(
        src: &mut S,
        perf_capabilities: Option<u64>,
    ) -> Self {
        let info = detect(src);
        let leaves = kept_leaves(src, &info);
        let facilities = facilities(src);
        let perf_capabilities = match info.perf_capabilities_msr {
            true => perf_capabilities.unwrap_or(0),
            false => 0,
        };
        let derived = info.generation.map(|g| g.visit(mask::Derive));
        let guest = GuestPmu {
            info,
            perf_capabilities,
            leaves,
            derived,
            facilities,
            cache: mask::Cache::EMPTY,
            policy: Policy::Vendor,
            filter: EventFilter::ALLOW_ALL,
        };
        GuestPmu {
            cache: mask::Cache::derive(&guest),
            ..guest
        }
    }

    /// The full-featured guest of generation `g`: every counter it defines, at its widths;
    /// every CPUID feature a field's `requires:` names; IA32_PERF_CAPABILITIES with every
    /// field the generation defines (so the full-width aliases too); AnyThread not
    /// deprecated; no facility. Its write masks are the generated constants
    /// ([`Arch::GUEST_MASKS`]), not derived: no CPUID is read and nothing is allocated.
    /// [`Policy::Vendor`], every event allowed.
    ///
    /// ```
    /// use pmu_regs::arch::{Arch, Generation, IntelV2, Role};
    /// use pmu_regs::guest::{GuestFault, GuestPmu};
    ///
    /// let guest = GuestPmu::for_generation(Generation::IntelV2);
    /// // IA32_PERF_GLOBAL_CTRL: EN_PMC0-7 and EN_FIXED_CTR0-2, as the constant says.
    /// let global = guest.msr(0x38F).unwrap();
    /// assert_eq!(global.write_mask, 0x7_0000_00FF);
    /// assert_eq!(IntelV2::GUEST_MASKS.mask(Role::GlobalControl, 0), Some(global.write_mask));
    /// assert!(guest.check_write(0x38F, 1 << 7).is_ok());
    /// assert!(matches!(guest.check_write(0x38F, 1 << 8), Err(GuestFault::Reserved { .. })));
    /// // Every general counter the generation defines is there.
    /// assert_eq!(guest.msrs().filter(|m| m.role() == Some(Role::Counter)).count(), 8);
    /// ```
    pub fn for_generation(g: Generation) -> Self {
        g.visit(ForGeneration(g))
    }
}

/// Builds [`GuestPmu::for_generation`] with the generation's `Arch` type.
struct ForGeneration(Generation);

impl ArchVisitor for ForGeneration {
    type Output = GuestPmu<'static>;

    fn visit<A: Arch>(self) -> GuestPmu<'static> {
        let info = PmuInfo::full::<A>(self.0);
        let capabilities = A::registers()
            .iter()
            .filter(|r| r.role == Some(Role::Capabilities))
            .flat_map(|r| r.fields)
            .fold(0, |m, f| m | f.mask());
        GuestPmu {
            info,
            perf_capabilities: capabilities,
            leaves: [Some(EVERY_FEATURE); KEPT_LEAVES.len()],
            derived: Some(mask::Derive.visit::<A>()),
            facilities: Facilities::default(),
            cache: mask::Cache::of(&A::GUEST_MASKS, A::registers()),
            policy: Policy::Vendor,
            filter: EventFilter::ALLOW_ALL,
        }
    }
}

/// A CPUID leaf with every feature bit set (the full-featured guest's).
const EVERY_FEATURE: CpuidResult = CpuidResult {
    eax: u32::MAX,
    ebx: u32::MAX,
    ecx: u32::MAX,
    edx: u32::MAX,
};

impl<'f> GuestPmu<'f> {
    /// The same guest with reserved bits treated by `policy`.
    pub fn with_policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// The same guest with event-select writes checked against `filter`.
    pub fn with_filter<'g>(self, filter: EventFilter<'g>) -> GuestPmu<'g> {
        GuestPmu {
            info: self.info,
            perf_capabilities: self.perf_capabilities,
            leaves: self.leaves,
            derived: self.derived,
            facilities: self.facilities,
            cache: self.cache,
            policy: self.policy,
            filter,
        }
    }

    /// What detection found in the guest's CPUID.
    pub fn info(&self) -> &PmuInfo {
        &self.info
    }

    /// The generation whose registers the guest has (`None`: no PMU).
    pub fn generation(&self) -> Option<Generation> {
        self.info.generation
    }

    /// The guest's IA32_PERF_CAPABILITIES as taken (0 without the MSR).
    pub fn perf_capabilities(&self) -> u64 {
        self.perf_capabilities
    }

    /// The facilities the guest's CPUID enumerates (whose registers it has when `pmu-regs`
    /// is built with their features).
    pub fn facilities(&self) -> Facilities {
        self.facilities
    }

    /// The reserved-bit policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The event filter.
    pub fn filter(&self) -> EventFilter<'f> {
        self.filter
    }

    /// Every PMU MSR the guest has, by register family then index (a perfmon v6 family's
    /// second addresses after its first), then its facilities' the same way.
    pub fn msrs(&self) -> impl Iterator<Item = GuestMsr> + '_ {
        let own = mask::first_slots(self.registers()).flat_map(move |(slot, r)| {
            let own = r.addresses.iter().enumerate();
            let alias = r.alias_addresses.iter().enumerate();
            own.chain(alias)
                .filter_map(move |(i, &a)| self.guest_msr(slot, r, i as u32, a))
        });
        own.chain(self.gated_msrs())
    }

    /// The PMU MSR at `address`, if the guest has it.
    pub fn msr(&self, address: u32) -> Option<GuestMsr> {
        mask::first_slots(self.registers())
            .find_map(|(slot, r)| self.guest_msr(slot, r, r.index_of(address)?, address))
            .or_else(|| self.gated_msr(address))
    }

    /// The register table of the guest's generation (empty without one).
    pub(super) fn registers(&self) -> &'static [RegInfo] {
        self.info.generation.map_or(&[][..], |g| g.registers())
    }

    /// Checks a guest's WRMSR of `value` to `msr`: the write to make, or the fault to inject.
    pub fn check_write(&self, msr: u32, value: u64) -> Result<Write, GuestFault> {
        let m = self.msr(msr).ok_or(GuestFault::NoSuchMsr { msr })?;
        if !writable(m.info.access) {
            return Err(GuestFault::ReadOnly {
                msr,
                name: m.name(),
            });
        }
        let reserved = value & !m.write_mask;
        let (value, dropped) = match m.action {
            Action::SignExtend32 => (value as u32 as i32 as i64 as u64 & m.write_mask, 0),
            Action::Mask => (value & m.write_mask, reserved),
            Action::Fault if reserved != 0 => {
                return Err(GuestFault::Reserved {
                    msr,
                    name: m.name(),
                    value,
                    reserved,
                });
            }
            Action::Fault => (value, 0),
        };
        let filtered = matches!(
            m.info.role,
            Some(Role::EventSelect | Role::LegacyEventSelect)
        ) && !self.event_permitted(value);
        Ok(Write {
            msr: m,
            value,
            dropped,
            filtered,
        })
    }

    /// Checks a guest's RDMSR of `msr`: the MSR to read, or the fault to inject.
    pub fn check_read(&self, msr: u32) -> Result<GuestMsr, GuestFault> {
        let m = self.msr(msr).ok_or(GuestFault::NoSuchMsr { msr })?;
        match m.info.access {
            Access::WriteOnly => Err(GuestFault::WriteOnly {
                msr,
                name: m.name(),
            }),
            _ => Ok(m),
        }
    }

    /// Whether the event an event-select value selects passes the filter.
    pub fn event_permitted(&self, select: u64) -> bool {
        let Some(d) = &self.derived else {
            return true;
        };
        let event = pack(select, d.spec.general.event_mask) as u16;
        let umask = pack(select, d.umask) as u8;
        self.filter.permits(event, umask)
    }

    fn guest_msr(&self, slot: usize, r: &RegInfo, index: u32, address: u32) -> Option<GuestMsr> {
        let d = self.derived.as_ref()?;
        if !self.present(d, r, index) || !self.enumerated(r, index) {
            return None;
        }
        Some(GuestMsr {
            address,
            info: *r,
            index,
            write_mask: self.write_mask(d, slot, r, index),
            action: self.action(d, r.role?),
            facility: None,
        })
    }

    /// Whether the guest has instance `index` of `r`.
    fn present(&self, d: &mask::Derived, r: &RegInfo, index: u32) -> bool {
        let c = &self.info.counters;
        match r.role {
            Some(
                Role::Counter | Role::EventSelect | Role::LegacyCounter | Role::LegacyEventSelect,
            ) => c.has_gp(index),
            Some(Role::FullWidthCounter) => c.has_gp(index) && self.full_width_writes(d),
            Some(Role::FixedCounter) => c.has_fixed(index),
            Some(
                Role::FixedControl
                | Role::GlobalControl
                | Role::GlobalStatus
                | Role::GlobalStatusReset
                | Role::GlobalStatusSet
                | Role::GlobalInUse,
            ) => true,
            Some(Role::Capabilities) => self.info.perf_capabilities_msr,
            _ => false,
        }
    }

    /// IA32_PERF_CAPABILITIES.FW_WRITE (the definitions' `full-width-write` field).
    fn full_width_writes(&self, d: &mask::Derived) -> bool {
        let flag = d.spec.capabilities.and_then(|c| c.flag);
        flag.and_then(|b| b.mask(0))
            .is_some_and(|m| self.perf_capabilities & m != 0)
    }

    fn action(&self, d: &mask::Derived, role: Role) -> Action {
        let counter_like = matches!(
            role,
            Role::Counter
                | Role::EventSelect
                | Role::LegacyCounter
                | Role::LegacyEventSelect
                | Role::FixedCounter
        );
        if role == Role::Counter && !d.spec.general.full_width.is_empty() {
            return Action::SignExtend32;
        }
        match (self.policy, counter_like) {
            (_, false) | (Policy::Strict, _) => Action::Fault,
            (Policy::Lenient, true) => Action::Mask,
            (Policy::Vendor, true) => match self.info.vendor.pmu_vendor() {
                Some(crate::arch::Vendor::Amd) => Action::Mask,
                _ => Action::Fault,
            },
        }
    }
}

/// Reads the [`KEPT_LEAVES`] the guest enumerates. Leaf 23H only with
/// CPUID.(EAX=07H,ECX=1):EAX\[8\] (ArchPerfmonExt, Intel SDM Vol. 2A, CPUID leaf 07H).
fn kept_leaves<S: CpuidSource + ?Sized>(
    src: &mut S,
    info: &PmuInfo,
) -> [Option<CpuidResult>; KEPT_LEAVES.len()] {
    let perfmon_ext = info.max_leaf >= 7
        && src.cpuid(7, 0).eax >= 1
        && src.cpuid(7, 1).eax & crate::detect::LEAF7_1_EAX_ARCH_PERFMON_EXT != 0;
    KEPT_LEAVES.map(|(leaf, subleaf)| {
        let enumerated = match leaf {
            0x8000_0000.. => leaf <= info.max_ext_leaf,
            0x23 => leaf <= info.max_leaf && perfmon_ext,
            _ => leaf <= info.max_leaf,
        };
        enumerated.then(|| src.cpuid(leaf, subleaf))
    })
}

impl pmu_vocab::requires::Facts for GuestPmu<'_> {
    fn cpuid(&self, leaf: u32, subleaf: u32) -> Option<[u32; 4]> {
        let at = KEPT_LEAVES.iter().position(|&k| k == (leaf, subleaf))?;
        self.leaves[at].map(|r| [r.eax, r.ebx, r.ecx, r.edx])
    }

    fn perf_capabilities(&self) -> u64 {
        self.perf_capabilities
    }

    fn capabilities_name(&self) -> Option<&str> {
        let regs = self.info.generation.map_or(&[][..], |g| g.registers());
        regs.iter()
            .find(|r| r.role == Some(Role::Capabilities))
            .map(|r| r.name)
    }
}

const fn writable(a: Access) -> bool {
    matches!(
        a,
        Access::ReadWrite | Access::WriteOnly | Access::WriteOneToClear | Access::WriteOneToSet
    )
}

/// The bits of `value` under `mask`, packed from bit 0 in the order of `mask`'s bits (a split
/// field's low part first).
const fn pack(value: u64, mask: u64) -> u64 {
    let (mut out, mut at, mut m) = (0, 0, mask);
    while m != 0 {
        let bit = m.trailing_zeros();
        out |= ((value >> bit) & 1) << at;
        at += 1;
        m &= m - 1;
    }
    out
}

#[cfg(test)]
mod tests;
