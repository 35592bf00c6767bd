//! The write mask of one guest MSR: the union of the register's writable fields the guest has
//! (see the [module documentation](super)).

use super::{GuestPmu, writable};
use crate::EventDesc;
use crate::arch::{Arch, ArchVisitor, Bits, FieldInfo, RegInfo, Role, Spec};
use pmu_vocab::requires;

/// The write masks of a generation's full-featured guest ([`Arch::GUEST_MASKS`]): every
/// counter the generation defines, every feature a field's `requires:` names present
/// (AnyThread included). The generator computes them from the definitions by the rule the
/// [module documentation](super) gives, so they are constants.
///
/// ```
/// use pmu_regs::arch::{Arch, IntelV2, Role};
///
/// // IA32_PERF_GLOBAL_CTRL of a full version 2 guest: EN_PMC0-7 (the eight general
/// // counters the definitions give version 2) and EN_FIXED_CTR0-2.
/// const GLOBAL: Option<u64> = IntelV2::GUEST_MASKS.mask(Role::GlobalControl, 0);
/// assert_eq!(GLOBAL, Some(0x7_0000_00FF));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GuestMasks {
    /// One entry per register family with a role, in the generation's register order.
    pub registers: &'static [RoleMasks],
}

/// The write masks of one register family ([`GuestMasks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoleMasks {
    /// The family's role (one family per role).
    pub role: Role,
    /// The write mask of each instance, by index.
    pub masks: &'static [u64],
}

impl GuestMasks {
    /// The masks of the family with `role`, by instance (empty: the generation has none).
    pub const fn of(&self, role: Role) -> &'static [u64] {
        let mut i = 0;
        while i < self.registers.len() {
            if self.registers[i].role as u8 == role as u8 {
                return self.registers[i].masks;
            }
            i += 1;
        }
        &[]
    }

    /// The mask of instance `index` of the family with `role`.
    pub const fn mask(&self, role: Role, index: u32) -> Option<u64> {
        let masks = self.of(role);
        match (index as usize) < masks.len() {
            true => Some(masks[index as usize]),
            false => None,
        }
    }
}

/// What the guest's generation says beyond its register table, read once.
#[derive(Clone, Copy, Debug)]
pub(super) struct Derived {
    /// The generation's run-time spec.
    pub(super) spec: Spec,
    /// The event-select bits an event's AnyThread flag sets (0: the generation has none).
    pub(super) select_any: u64,
    /// The fixed-control bits of the per-counter array named as the event select's
    /// AnyThread field.
    pub(super) fixed_any: u64,
    /// The event-select bits of the unit mask.
    pub(super) umask: u64,
}

/// How many write masks a guest keeps from construction: every instance of every register
/// with a role (the largest compiled generation has 68; a test checks that every one fits).
/// A guest of a generation with more derives the rest at each access.
const CACHED: usize = 96;

/// The write mask of every instance of every register with a role, by slot
/// ([`first_slots`]), kept from construction: [`GuestPmu::from_cpuid`] derives them,
/// [`GuestPmu::for_generation`] copies its generation's [`GuestMasks`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Cache([u64; CACHED]);

impl Cache {
    /// No masks (a guest without a generation has no MSRs to ask about).
    pub(super) const EMPTY: Cache = Cache([0; CACHED]);

    /// The masks `guest` derives from its CPUID.
    pub(super) fn derive(guest: &GuestPmu) -> Cache {
        let mut c = Cache::EMPTY;
        if let Some(d) = &guest.derived {
            for (slot, r) in first_slots(guest.registers()) {
                for i in 0..r.addresses.len() as u32 {
                    c.put(slot + i as usize, guest.derive_mask(d, r, i));
                }
            }
        }
        c
    }

    /// The constants of `masks`, for the generation with `regs`.
    pub(super) fn of(masks: &GuestMasks, regs: &[RegInfo]) -> Cache {
        let mut c = Cache::EMPTY;
        for (slot, r) in first_slots(regs) {
            let of = r.role.map_or(&[][..], |role| masks.of(role));
            for (i, &m) in of.iter().take(r.addresses.len()).enumerate() {
                c.put(slot + i, m);
            }
        }
        c
    }

    fn put(&mut self, slot: usize, mask: u64) {
        if let Some(m) = self.0.get_mut(slot) {
            *m = mask;
        }
    }

    /// The mask of instance `index` of the register whose first slot is `slot` (`None`: not
    /// kept).
    pub(super) fn get(&self, slot: usize, r: &RegInfo, index: u32) -> Option<u64> {
        let index = (index < r.addresses.len() as u32).then_some(index as usize)?;
        self.0.get(slot + index).copied()
    }
}

/// Every register of `regs` with a role, with the slot of its instance 0 in a [`Cache`].
pub(super) fn first_slots(regs: &[RegInfo]) -> impl Iterator<Item = (usize, &RegInfo)> {
    let with_role = regs.iter().filter(|r| r.role.is_some());
    with_role.scan(0, |next, r| {
        let slot = *next;
        *next += r.addresses.len();
        Some((slot, r))
    })
}

/// Reads [`Derived`] from a generation: the AnyThread and unit-mask bits are where the
/// generated encoding places an event's `any` flag and unit mask.
pub(super) struct Derive;

impl ArchVisitor for Derive {
    type Output = Derived;

    fn visit<A: Arch>(self) -> Derived {
        let plain = EventDesc::new("", 0, 0);
        let base = A::place_event(0, &plain).unwrap_or(0);
        let any = EventDesc { any: true, ..plain };
        let select_any = A::place_event(0, &any).map_or(0, |v| v ^ base);
        let umask = A::place_event(0, &EventDesc::new("", 0, 0xFF)).map_or(0, |v| v ^ base);
        let any_name = A::registers()
            .iter()
            .filter(|r| r.role == Some(Role::EventSelect))
            .flat_map(|r| r.fields)
            .find(|f| select_any != 0 && f.mask() == select_any)
            .map(|f| f.name);
        let others = A::SPEC
            .fixed
            .and_then(|f| f.control)
            .map_or(&[][..], |c| c.others);
        let fixed_any = others
            .iter()
            .filter(|b| Some(b.name) == any_name)
            .map(all_elements)
            .fold(0, |m, e| m | e);
        Derived {
            spec: A::SPEC,
            select_any,
            fixed_any,
            umask,
        }
    }
}

/// Every element of `b`.
fn all_elements(b: &Bits) -> u64 {
    (0..b.count).filter_map(|i| b.mask(i)).fold(0, |m, e| m | e)
}

/// Which counter family a per-counter array belongs to.
#[derive(Clone, Copy)]
enum Family {
    General,
    Fixed,
}

impl GuestPmu<'_> {
    /// The bits of instance `index` of `r` (first slot `slot`) the guest may write: as kept
    /// from construction, else derived.
    pub(super) fn write_mask(&self, d: &Derived, slot: usize, r: &RegInfo, index: u32) -> u64 {
        let kept = self.cache.get(slot, r, index);
        kept.unwrap_or_else(|| self.derive_mask(d, r, index))
    }

    /// The bits of instance `index` of `r` the guest may write, from its CPUID.
    pub(super) fn derive_mask(&self, d: &Derived, r: &RegInfo, index: u32) -> u64 {
        let mut m = r
            .fields
            .iter()
            .filter(|f| writable(f.access) && self.field_available(d, r, f, index))
            .fold(0, |m, f| m | f.mask());
        let width = match r.role {
            Some(Role::Counter | Role::LegacyCounter | Role::FullWidthCounter) => {
                self.info.counters.gp_width
            }
            Some(Role::FixedCounter) => self.info.counters.fixed_width,
            _ => 0,
        };
        if (1..64).contains(&width) {
            m &= (1u64 << width) - 1;
        }
        m
    }

    fn field_available(&self, d: &Derived, r: &RegInfo, f: &FieldInfo, index: u32) -> bool {
        if !f.instances.is_empty() && !f.instances.contains(&index) {
            return false;
        }
        if let Some(text) = f.requires
            && requires::eval(text, self) != Some(true)
        {
            return false;
        }
        let any = match r.role {
            Some(Role::EventSelect | Role::LegacyEventSelect) => d.select_any,
            Some(Role::FixedControl) => d.fixed_any,
            _ => 0,
        };
        if self.info.counters.anythread_deprecated && f.mask() & any != 0 {
            return false;
        }
        let c = &self.info.counters;
        match per_counter_element(d, r.role, f.mask()) {
            Some((Family::General, k)) => c.has_gp(k),
            Some((Family::Fixed, k)) => c.has_fixed(k),
            None => true,
        }
    }
}

/// The counter whose element of a per-counter array of a register with `role` is the field
/// with bits `mask`.
fn per_counter_element(d: &Derived, role: Option<Role>, mask: u64) -> Option<(Family, u32)> {
    let s = &d.spec;
    let reg = match role? {
        Role::GlobalControl => s.global_control,
        Role::GlobalStatus => s.global_status,
        Role::GlobalStatusReset => s.global_status_reset,
        Role::GlobalStatusSet => s.global_status_set,
        Role::GlobalInUse => s.global_in_use,
        Role::FixedControl => {
            let c = s.fixed?.control?;
            let arrays = [Some(c.privilege), c.pmi].into_iter().flatten();
            return arrays
                .chain(c.others.iter().copied())
                .find_map(|b| element(&b, mask))
                .map(|k| (Family::Fixed, k));
        }
        _ => None,
    }?;
    let general = reg.general.and_then(|b| element(&b, mask));
    let fixed = reg.fixed.and_then(|b| element(&b, mask));
    general
        .map(|k| (Family::General, k))
        .or(fixed.map(|k| (Family::Fixed, k)))
}

/// The index of the element of `b` with bits `mask`.
fn element(b: &Bits, mask: u64) -> Option<u32> {
    (0..b.count).find(|&i| b.mask(i) == Some(mask))
}
