//! One hardware counter, one type: perfmon version 6 reaches `IA32_PMCn` also at
//! `0x1900 + 4n` and `IA32_PERFEVTSELn` at `0x1901 + 4n` (Linux
//! arch/x86/include/asm/msr-index.h `MSR_IA32_PMC_V6_GP0_CTR 0x1900`,
//! `MSR_IA32_PMC_V6_GP0_CFG_A 0x1901`, `MSR_IA32_PMC_V6_STEP 4`). The generated API gives
//! both addresses of a counter the same `Value` and `Placed<N>` (`alias-msr:` in the YAML),
//! so a value built for counter N is written through either address, and to no other
//! counter's. The subject is intel-v6, the version the manual defines the aliases for.

use pmu_regs::PlacementError;
use pmu_regs::access::{Msr, MsrExt, RawMsr, WriteError};
use pmu_regs::intel::v6::{ArchEvent, IA32_PERFEVTSEL, IA32_PMC};
use std::any::TypeId;
use std::collections::BTreeMap;

#[derive(Default)]
struct Mem(BTreeMap<u32, u64>);

impl RawMsr for Mem {
    type Error = ();
    fn read_raw(&mut self, a: u32) -> Result<u64, ()> {
        Ok(*self.0.get(&a).unwrap_or(&0))
    }
    fn write_raw(&mut self, a: u32, v: u64) -> Result<(), ()> {
        self.0.insert(a, v);
        Ok(())
    }
}

fn value_type<M: Msr>(_: M) -> TypeId
where
    M::Value: 'static,
{
    TypeId::of::<M::Value>()
}

#[test]
fn legacy_and_alias_address_of_a_counter_are_one_type() {
    // The typed MSRs of counter 3 at 0xC4 / 0x190C (and its select at 0x189 / 0x190D) hold
    // the same value type.
    assert_eq!(
        value_type(IA32_PMC::msr::<3>()),
        value_type(IA32_PMC::alias_msr::<3>())
    );
    assert_eq!(
        value_type(IA32_PERFEVTSEL::msr::<3>()),
        value_type(IA32_PERFEVTSEL::alias_msr::<3>())
    );
    assert_eq!(
        value_type(IA32_PMC::alias_msr::<3>()),
        TypeId::of::<IA32_PMC::Value>()
    );
    assert_eq!(IA32_PMC::msr::<3>().address(), 0xC4);
    assert_eq!(IA32_PMC::alias_msr::<3>().address(), 0x1900 + 4 * 3);
    assert_eq!(IA32_PERFEVTSEL::alias_address::<3>(), 0x1901 + 4 * 3);
    // Both run-time instances are counter 3.
    let legacy = IA32_PMC::try_msr(3).unwrap();
    let alias = IA32_PMC::try_alias_msr(3).unwrap();
    assert_eq!((legacy.index(), alias.index()), (3, 3));
    assert!(alias.is_alias() && !legacy.is_alias());
    assert_ne!(legacy, alias);
    assert_eq!(IA32_PMC::alias_msr::<3>().unaliased(), IA32_PMC::msr::<3>());
    assert!(IA32_PMC::try_alias_msr(IA32_PMC::INSTANCES).is_none());
}

#[test]
fn a_value_placed_on_counter_n_is_written_through_either_address() {
    let sel: IA32_PERFEVTSEL::Placed<3> =
        IA32_PERFEVTSEL::event_on::<3>(ArchEvent::LlcMisses.desc())
            .with_bit::<IA32_PERFEVTSEL::EN>(true)
            .build();
    let mut m = Mem::default();
    m.write(IA32_PERFEVTSEL::msr::<3>(), sel).unwrap();
    m.write(IA32_PERFEVTSEL::alias_msr::<3>(), sel).unwrap();
    assert_eq!(m.0[&0x189], sel.bits());
    assert_eq!(m.0[&0x190D], sel.bits());
    // Read back through either address: one value type, equal values.
    let a: IA32_PERFEVTSEL::Value = m.read(IA32_PERFEVTSEL::msr::<3>()).unwrap();
    let b: IA32_PERFEVTSEL::Value = m.read(IA32_PERFEVTSEL::alias_msr::<3>()).unwrap();
    assert_eq!(a, b);
    // Another counter's alias address is refused at run time, nothing written.
    let five = IA32_PERFEVTSEL::try_alias_msr(5).unwrap();
    assert!(matches!(
        m.write(five, sel),
        Err(WriteError::Placement(PlacementError::WrongCounter {
            placed: 3,
            counter: 5,
            ..
        }))
    ));
    assert_eq!(m.0.len(), 2);
    // A counter value written at the alias address reads back at the legacy one's type.
    let v = IA32_PMC::Value::new()
        .with::<IA32_PMC::COUNT, 0x1234>()
        .build();
    m.write(IA32_PMC::alias_msr::<3>(), v).unwrap();
    let back: IA32_PMC::Value = m.read(IA32_PMC::alias_msr::<3>()).unwrap();
    assert_eq!(back.get::<IA32_PMC::COUNT>(), 0x1234);
}

/// The mock backend knows both addresses of a counter as one register: a value written at
/// the alias address is read at the legacy one, and the tick of the counter shows at both.
#[test]
fn the_mock_backend_shares_one_register_between_both_addresses() {
    use pmu_regs::arch::IntelV6;
    use pmu_regs::backend::mock::{Mock, MockConfig};
    let mock = Mock::<IntelV6>::new(MockConfig::full::<IntelV6>(1));
    let mut cpu = mock.cpu(0);
    let sel: IA32_PERFEVTSEL::Placed<2> =
        IA32_PERFEVTSEL::event_on::<2>(ArchEvent::LlcMisses.desc())
            .with_bit::<IA32_PERFEVTSEL::EN>(true)
            .build();
    cpu.write(IA32_PERFEVTSEL::alias_msr::<2>(), sel).unwrap();
    let back = cpu.read(IA32_PERFEVTSEL::msr::<2>()).unwrap();
    assert_eq!(back.bits(), sel.bits());
    cpu.write(
        IA32_PMC::msr::<2>(),
        IA32_PMC::Value::new().with::<IA32_PMC::COUNT, 7>().build(),
    )
    .unwrap();
    assert_eq!(
        cpu.read(IA32_PMC::alias_msr::<2>())
            .unwrap()
            .get::<IA32_PMC::COUNT>(),
        7
    );
    assert_eq!(
        cpu.read_raw(IA32_PMC::alias_address::<2>()).unwrap(),
        cpu.read_raw(IA32_PMC::address::<2>()).unwrap()
    );
}
