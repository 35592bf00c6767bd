use super::mask::{Cache, first_slots};
use super::{GuestMasks, GuestPmu, KEPT_LEAVES, writable};
use crate::arch::{Arch, ArchVisitor, Generation, Role};
use pmu_vocab::requires::{self, Facts};
use std::vec::Vec;

/// No CPUID, no capabilities; `.0` names the capabilities register.
struct Nothing(Option<&'static str>);

impl Facts for Nothing {
    fn cpuid(&self, _: u32, _: u32) -> Option<[u32; 4]> {
        None
    }
    fn perf_capabilities(&self) -> u64 {
        0
    }
    fn capabilities_name(&self) -> Option<&str> {
        self.0
    }
}

/// A condition the evaluator does not understand makes its field absent for every guest:
/// every condition on a register with a role must be understood.
#[test]
fn every_condition_on_a_register_with_a_role_is_understood() {
    for g in Generation::ALL {
        let caps = g
            .registers()
            .iter()
            .find(|r| r.role == Some(Role::Capabilities));
        let facts = Nothing(caps.map(|r| r.name));
        for r in g.registers().iter().filter(|r| r.role.is_some()) {
            for f in r.fields {
                if let Some(text) = f.requires {
                    assert!(
                        requires::eval(text, &facts).is_some(),
                        "{g}: {}.{}: `{text}`",
                        r.name,
                        f.name
                    );
                }
            }
        }
    }
}

#[test]
fn pack_keeps_a_split_fields_low_part_first() {
    let amd_event = 0xFF | 0xF << 32;
    assert_eq!(super::pack(0x1_0000_00C0, amd_event), 0x1C0);
    assert_eq!(super::pack(0x4F2E, 0xFF00), 0x4F);
    assert_eq!(super::pack(u64::MAX, 0), 0);
}

/// The constants of `g`.
fn guest_masks(g: Generation) -> GuestMasks {
    struct Of;
    impl ArchVisitor for Of {
        type Output = GuestMasks;
        fn visit<A: Arch>(self) -> GuestMasks {
            A::GUEST_MASKS
        }
    }
    g.visit(Of)
}

/// The generator's constants ([`Arch::GUEST_MASKS`]) are the run-time derivation for the
/// full-featured guest, for every compiled generation, every register with a role and every
/// instance; a guest built on them lists the same MSRs with the same masks as one deriving
/// them; and every generation's masks fit in a guest's cache.
#[test]
fn guest_masks_are_the_run_time_derivation_for_a_full_featured_guest() {
    for &g in Generation::ALL {
        let (masks, constant) = (guest_masks(g), GuestPmu::for_generation(g));
        let derived = GuestPmu {
            cache: Cache::derive(&constant),
            ..constant
        };
        let d = derived.derived.expect("a generation");
        let with_role: Vec<_> = first_slots(g.registers()).collect();
        assert_eq!(masks.registers.len(), with_role.len(), "{g}");
        for ((slot, r), entry) in with_role.into_iter().zip(masks.registers) {
            assert_eq!(Some(entry.role), r.role, "{g}: {}", r.name);
            assert_eq!(entry.masks.len(), r.addresses.len(), "{g}: {}", r.name);
            for (i, &m) in (0..).zip(entry.masks) {
                let want = derived.derive_mask(&d, r, i);
                assert_eq!(m, want, "{g}: {}[{i}]: {m:#x} != {want:#x}", r.name);
                assert_eq!(constant.cache.get(slot, r, i), Some(m), "{g}: kept");
                assert_eq!(derived.cache.get(slot, r, i), Some(m), "{g}: kept");
            }
        }
        let listed = |p: &GuestPmu| -> Vec<(u32, u64)> {
            p.msrs().map(|m| (m.address, m.write_mask)).collect()
        };
        assert!(!listed(&constant).is_empty(), "{g}: no MSRs");
        assert_eq!(listed(&constant), listed(&derived), "{g}");
    }
}

/// The full-featured guest has every field a `requires:` gates (IN_TX with TSX, UMASK2 with
/// leaf 23H, ...), and a guest without CPUID leaves or capabilities has none of them.
#[test]
fn the_full_featured_guest_has_the_gated_fields() {
    let mut seen = 0;
    for &g in Generation::ALL {
        let guest = GuestPmu::for_generation(g);
        let bare = GuestPmu {
            leaves: [None; KEPT_LEAVES.len()],
            perf_capabilities: 0,
            ..guest
        };
        let bare = GuestPmu {
            cache: Cache::derive(&bare),
            ..bare
        };
        let d = guest.derived.expect("a generation");
        for (slot, r) in first_slots(g.registers()) {
            let gated =
                (r.fields.iter()).filter(|f| f.requires.is_some() && f.instances.is_empty());
            for f in gated.filter(|f| writable(f.access)) {
                let (full, none) = (
                    guest.write_mask(&d, slot, r, 0),
                    bare.write_mask(&d, slot, r, 0),
                );
                assert_eq!(full & f.mask(), f.mask(), "{g}: {}", f.name);
                assert_eq!(none & f.mask(), 0, "{g}: {}", f.name);
                seen += 1;
            }
        }
    }
    assert!(seen > 0, "no gated field on any generation");
}

/// Records the CPUID leaves a condition reads.
struct Reads(core::cell::RefCell<Vec<(u32, u32)>>, Option<&'static str>);

impl Facts for Reads {
    fn cpuid(&self, leaf: u32, subleaf: u32) -> Option<[u32; 4]> {
        self.0.borrow_mut().push((leaf, subleaf));
        None
    }
    fn perf_capabilities(&self) -> u64 {
        0
    }
    fn capabilities_name(&self) -> Option<&str> {
        self.1
    }
}

/// A guest keeps only [`KEPT_LEAVES`]: every leaf a `requires:` or `count-from:` of a
/// generation's or facility's register (or of its fields) reads must be one of them, or the
/// register or field would be absent from every guest.
#[test]
fn every_leaf_a_presence_condition_reads_is_kept() {
    // A guest lists a generation's registers with a role, and every register of a facility.
    let generations = Generation::ALL
        .iter()
        .map(|g| (g.id(), g.registers(), true));
    let facilities = crate::arch::Facility::ALL
        .iter()
        .map(|f| (f.id(), f.registers(), false));
    for (id, regs, role_only) in generations.chain(facilities) {
        let caps = regs.iter().find(|r| r.role == Some(Role::Capabilities));
        let reads = Reads(Default::default(), caps.map(|r| r.name));
        for r in regs.iter().filter(|r| !role_only || r.role.is_some()) {
            let fields = r.fields.iter().filter_map(|f| f.requires);
            for text in r.requires.into_iter().chain(fields) {
                assert!(
                    requires::eval(text, &reads).is_some(),
                    "{id}: {}: `{text}`",
                    r.name
                );
            }
            if let Some(c) = r.count_from {
                reads.0.borrow_mut().push((c.field.leaf, c.field.subleaf));
            }
            for leaf in reads.0.borrow_mut().drain(..) {
                assert!(
                    KEPT_LEAVES.contains(&leaf),
                    "{id}: {} reads leaf {leaf:x?}",
                    r.name
                );
            }
        }
    }
}
