// A placed value is written to its own counter; with a counter chosen at run time the write
// checks it and refuses another (PlacementError::WrongCounter), writing nothing.
use pmu_regs::access::{MsrExt, RawMsr, WriteError};
use pmu_regs::intel::v4::{ArchEvent, IA32_PERFEVTSEL};
use pmu_regs::PlacementError;
use std::collections::HashMap;

const SEL: IA32_PERFEVTSEL::Placed<0> = IA32_PERFEVTSEL::event_on::<0>(ArchEvent::LlcMisses.desc())
    .with_bit::<IA32_PERFEVTSEL::EN>(true)
    .build();

#[derive(Default)]
struct Mem(HashMap<u32, u64>);
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

fn main() {
    let mut m = Mem::default();
    m.write(IA32_PERFEVTSEL::msr::<0>(), SEL).unwrap();
    assert_eq!(m.0[&0x186], 0x0040_412E);
    let five = IA32_PERFEVTSEL::try_msr(5).unwrap();
    assert!(matches!(
        m.write(five, SEL),
        Err(WriteError::Placement(PlacementError::WrongCounter { placed: 0, counter: 5, .. }))
    ));
    assert_eq!(m.0.len(), 1);
}
