use super::requires::{self, Facts};
use crate::arch::{Generation, Role};
use crate::detect::CpuidResult;

/// No CPUID, no capabilities; `.0` names the capabilities register.
struct Nothing(Option<&'static str>);

impl Facts for Nothing {
    fn cpuid(&self, _: u32, _: u32) -> Option<CpuidResult> {
        None
    }
    fn perf_capabilities(&self) -> u64 {
        0
    }
    fn capabilities_name(&self) -> Option<&'static str> {
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
