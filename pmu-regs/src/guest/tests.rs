use super::{GuestPmu, KEPT_LEAVES, writable};
use crate::arch::{Generation, Role};
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

/// The generator's constants ([`Arch::GUEST_MASKS`](crate::arch::Arch::GUEST_MASKS)) are the
/// run-time derivation for the full-featured guest, for every compiled generation, every
/// register with a role and every instance; and a guest built on them lists the same MSRs
/// with the same masks as one deriving them.
#[test]
fn guest_masks_are_the_run_time_derivation_for_a_full_featured_guest() {
    for &g in Generation::ALL {
        let constant = GuestPmu::for_generation(g);
        let derived = GuestPmu {
            masks: None,
            ..constant
        };
        let (Some(masks), Some(d)) = (constant.masks, derived.derived) else {
            panic!("{g}: no masks");
        };
        let with_role: Vec<_> = g.registers().iter().filter(|r| r.role.is_some()).collect();
        assert_eq!(masks.registers.len(), with_role.len(), "{g}");
        for (r, entry) in with_role.into_iter().zip(masks.registers) {
            assert_eq!(Some(entry.role), r.role, "{g}: {}", r.name);
            assert_eq!(entry.masks.len(), r.addresses.len(), "{g}: {}", r.name);
            for (i, &m) in (0..).zip(entry.masks) {
                let want = derived.derive_mask(&d, r, i);
                assert_eq!(m, want, "{g}: {}[{i}]: {m:#x} != {want:#x}", r.name);
            }
        }
        let listed = |p: &GuestPmu| -> Vec<(u32, u64)> {
            p.msrs().map(|m| (m.address, m.write_mask)).collect()
        };
        assert!(!listed(&constant).is_empty(), "{g}: no MSRs");
        assert_eq!(listed(&constant), listed(&derived), "{g}");
    }
}

/// The full-featured guest has every field a `requires:` gates: on a generation with TSX's
/// IN_TX in its event select, the constant has it, and a guest without TSX does not.
#[test]
fn the_full_featured_guest_has_the_gated_fields() {
    let mut seen = 0;
    for &g in Generation::ALL {
        let guest = GuestPmu::for_generation(g);
        let d = guest.derived.expect("a generation");
        for r in g.registers().iter().filter(|r| r.role.is_some()) {
            let gated = r
                .fields
                .iter()
                .filter(|f| f.requires.is_some() && f.instances.is_empty());
            for f in gated.filter(|f| writable(f.access)) {
                assert_eq!(
                    guest.write_mask(&d, r, 0) & f.mask(),
                    f.mask(),
                    "{g}: {}",
                    f.name
                );
                let bare = GuestPmu {
                    masks: None,
                    leaves: [None; KEPT_LEAVES.len()],
                    perf_capabilities: 0,
                    ..guest
                };
                assert_eq!(bare.write_mask(&d, r, 0) & f.mask(), 0, "{g}: {}", f.name);
                seen += 1;
            }
        }
    }
    assert!(seen > 0, "no gated field on any generation");
}
