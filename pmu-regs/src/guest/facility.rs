//! A guest's facility registers (IBS, LBR stacks, architectural PEBS) and what the guest's
//! CPUID says about any register's presence: its `requires:` and its `count-from:`.

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

    /// The registers of the guest's facilities (those `pmu-regs` is built with).
    fn facility_registers(&self) -> impl Iterator<Item = (Facility, &'static RegInfo)> + '_ {
        let found = self.facilities.iter();
        found.flat_map(|f| f.registers().iter().map(move |r| (f, r)))
    }

    /// Every MSR of the guest's facilities, by facility, register family, then index.
    pub(super) fn facility_msrs(&self) -> impl Iterator<Item = GuestMsr> + '_ {
        self.facility_registers().flat_map(move |(f, r)| {
            let addresses = r.addresses.iter().enumerate();
            addresses.filter_map(move |(i, &a)| self.facility_guest_msr(f, r, i as u32, a))
        })
    }

    /// The facility MSR at `address`, if the guest has it.
    pub(super) fn facility_msr(&self, address: u32) -> Option<GuestMsr> {
        self.facility_registers()
            .find_map(|(f, r)| self.facility_guest_msr(f, r, r.index_of(address)?, address))
    }

    fn facility_guest_msr(
        &self,
        facility: Facility,
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
            facility: Some(facility),
        })
    }
}
