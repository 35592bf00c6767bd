//! A guest's registers beyond the counters' roles: its generation's registers without a role
//! that say when a CPU has them (`requires:`: IA32_DS_AREA, MSR_PEBS_DATA_CFG), its
//! facilities' (IBS, LBR stacks, architectural PEBS), and what the guest's CPUID says about
//! any register's presence: its `requires:` and its `count-from:`.

use super::{Action, GuestMsr, GuestPmu, writable};
use crate::arch::{Facility, RegInfo};
use pmu_vocab::requires::{self, Facts};

impl GuestPmu<'_> {
    /// Whether the guest's CPUID gives it instance `index` of `r`: `r`'s `requires:` holds
    /// and `index` is below the count of its `count-from:` field.
    pub(super) fn enumerated(&self, r: &RegInfo, index: u32) -> bool {
        if let Some(text) = r.requires
            && requires::eval(text, self) != Some(true)
        {
            return false;
        }
        match r.count_from {
            Some(c) => {
                let regs = self.cpuid(c.field.leaf, c.field.subleaf);
                regs.is_some_and(|regs| index < c.instances(regs))
            }
            None => true,
        }
    }

    /// The generation's registers without a role that have a `requires:`, then the
    /// registers of the guest's facilities (those `pmu-regs` is built with).
    fn gated_registers(&self) -> impl Iterator<Item = (Option<Facility>, &'static RegInfo)> + '_ {
        let own = self.registers().iter();
        let own = own.filter(|r| r.role.is_none() && r.requires.is_some());
        let found = self.facilities.iter();
        let facility = found.flat_map(|f| f.registers().iter().map(move |r| (Some(f), r)));
        own.map(|r| (None, r)).chain(facility)
    }

    /// Every MSR of [`Self::gated_registers`], by register family, then index.
    pub(super) fn gated_msrs(&self) -> impl Iterator<Item = GuestMsr> + '_ {
        self.gated_registers().flat_map(move |(f, r)| {
            let addresses = r.addresses.iter().enumerate();
            addresses.filter_map(move |(i, &a)| self.gated_msr_at(f, r, i as u32, a))
        })
    }

    /// The MSR of [`Self::gated_registers`] at `address`, if the guest has it.
    pub(super) fn gated_msr(&self, address: u32) -> Option<GuestMsr> {
        self.gated_registers()
            .find_map(|(f, r)| self.gated_msr_at(f, r, r.index_of(address)?, address))
    }

    fn gated_msr_at(
        &self,
        facility: Option<Facility>,
        r: &RegInfo,
        index: u32,
        address: u32,
    ) -> Option<GuestMsr> {
        if !self.enumerated(r, index) {
            return None;
        }
        let available = |f: &&crate::arch::FieldInfo| {
            writable(f.access)
                && (f.instances.is_empty() || f.instances.contains(&index))
                && f.requires
                    .is_none_or(|t| requires::eval(t, self) == Some(true))
        };
        let write_mask = r
            .fields
            .iter()
            .filter(available)
            .fold(0, |m, f| m | f.mask());
        Some(GuestMsr {
            address,
            info: *r,
            index,
            write_mask,
            action: Action::Fault,
            facility,
        })
    }
}
