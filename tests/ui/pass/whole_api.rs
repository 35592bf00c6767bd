// Uses every part of the generated API that the compile-fail cases reject when misused, both in
// `const` items and in ordinary functions (so that `cargo build` monomorphizes the const-checked
// generic functions), and checks the results at run time.

use pmu_regs::access::{MsrExt, RawMsr, RegisterValue};
use pmu_regs::intel::{v1, v3, v4, v5, v6};
use pmu_regs::{EventDesc, FieldError, PlacementError};
use std::collections::HashMap;

use v3::{IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL, IA32_PERFEVTSEL};

// Builder with const-checked widths, flags, the INV/CMASK constraint satisfied.
const LLC_MISSES: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::new()
    .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0x2E>()
    .with::<IA32_PERFEVTSEL::UMASK, 0x41>()
    .with_bit::<IA32_PERFEVTSEL::USR>(true)
    .with_bit::<IA32_PERFEVTSEL::OS>(true)
    .with_bit::<IA32_PERFEVTSEL::EN>(true)
    .build();
const THRESHOLD: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::new()
    .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0xC2>()
    .with::<IA32_PERFEVTSEL::CMASK, 255>()
    .with_bit::<IA32_PERFEVTSEL::INV>(true)
    .with::<IA32_PERFEVTSEL::UMASK, 0xFF>()
    // The same value twice is not a conflict.
    .with::<IA32_PERFEVTSEL::UMASK, 0xFF>()
    .build();
const RAW: IA32_PERFEVTSEL::Value = IA32_PERFEVTSEL::Value::from_bits::<0x0043_412E>();
const PMC7: u32 = IA32_PERFEVTSEL::address::<7>();
const FIXED: IA32_FIXED_CTR_CTRL::Value = IA32_FIXED_CTR_CTRL::Value::new()
    .with::<IA32_FIXED_CTR_CTRL::ENABLE0, 3>()
    // A named value in a `const`: its number, width-checked like any constant (run-time code
    // has the typed `with_value::<F>(Enable::Os)`).
    .with::<IA32_FIXED_CTR_CTRL::ENABLE1, { IA32_FIXED_CTR_CTRL::Enable::Os as u64 }>()
    .with_bit::<IA32_FIXED_CTR_CTRL::PMI2>(true)
    .with_bit::<IA32_FIXED_CTR_CTRL::ANY0>(true)
    .build();
const GLOBAL: IA32_PERF_GLOBAL_CTRL::Value = IA32_PERF_GLOBAL_CTRL::Value::new()
    .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC0>(true)
    .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_PMC7>(true)
    .with_bit::<IA32_PERF_GLOBAL_CTRL::EN_FIXED_CTR2>(true)
    .build();
// Event placement in constants: an event allowed on every counter, a fixed-counter event that
// general counters may also count, and a counter-restricted event on an allowed counter.
const LLC_ON_7: v4::IA32_PERFEVTSEL::Placed<7> =
    v4::IA32_PERFEVTSEL::event_on::<7>(v4::ArchEvent::LlcMisses.desc())
        .with_bit::<v4::IA32_PERFEVTSEL::OS>(true)
        .with_bit::<v4::IA32_PERFEVTSEL::EN>(true)
        .build();
const INST_ON_0: v4::IA32_PERFEVTSEL::Placed<0> = v4::IA32_PERFEVTSEL::event_on_raw::<0>(
    &EventDesc::new("INST_RETIRED.ANY_P", 0xC0, 0).with_fixed(0),
)
.build();
const LOW_ON_3: v4::IA32_PERFEVTSEL::Placed<3> =
    v4::IA32_PERFEVTSEL::event_on_raw::<3>(&EventDesc::new("LOW_ONLY", 0x48, 1).with_counters(0b1111))
        .build();
// Fields that exist only in later generations.
const V3_ANY: v3::IA32_PERFEVTSEL::Value = v3::IA32_PERFEVTSEL::Value::new()
    .with::<v3::IA32_PERFEVTSEL::EVENT_SELECT, 0x3C>()
    .with_bit::<v3::IA32_PERFEVTSEL::ANY>(true)
    .build();
const V6_UMASK2: v6::IA32_PERFEVTSEL::Value = v6::IA32_PERFEVTSEL::Value::new()
    .with::<v6::IA32_PERFEVTSEL::EVENT_SELECT, 0xD0>()
    .with::<v6::IA32_PERFEVTSEL::UMASK, 0x21>()
    .with::<v6::IA32_PERFEVTSEL::UMASK2, 0x02>()
    .with_bit::<v6::IA32_PERFEVTSEL::EQ>(true)
    .build();

#[derive(Default)]
struct Mem(HashMap<u32, u64>);

impl RawMsr for Mem {
    type Error = ();
    fn read_raw(&mut self, address: u32) -> Result<u64, ()> {
        Ok(self.0.get(&address).copied().unwrap_or(0))
    }
    fn write_raw(&mut self, address: u32, value: u64) -> Result<(), ()> {
        self.0.insert(address, value);
        Ok(())
    }
}

fn runtime(umask: u8, user: bool, cmask: u64, counter: u32) {
    // Runtime setters and getters.
    let v = IA32_PERFEVTSEL::Value::new()
        .with::<IA32_PERFEVTSEL::EVENT_SELECT, 0x2E>()
        .try_with::<IA32_PERFEVTSEL::UMASK>(umask.into())
        .unwrap()
        .with_bit::<IA32_PERFEVTSEL::USR>(user)
        .try_with::<IA32_PERFEVTSEL::CMASK>(cmask)
        .unwrap()
        .build();
    assert_eq!(
        (
            v.get::<IA32_PERFEVTSEL::UMASK>(),
            v.is_set::<IA32_PERFEVTSEL::USR>(),
            v.get::<IA32_PERFEVTSEL::CMASK>()
        ),
        (u64::from(umask), user, cmask)
    );
    assert_eq!(
        IA32_PERFEVTSEL::Value::new().try_with::<IA32_PERFEVTSEL::CMASK>(cmask + 0x100),
        Err(FieldError::TooWide {
            field: "CMASK",
            width: 8,
            value: cmask + 0x100
        })
    );
    // Const-generic addresses in an ordinary function: checked when monomorphized.
    assert_eq!(IA32_PERFEVTSEL::address::<0>(), 0x186);
    assert_eq!(v1::IA32_PMC::msr::<7>().address(), 0xC8);
    assert_eq!(v4::IA32_FIXED_CTR::address::<2>(), 0x30B);
    assert_eq!(v5::IA32_FIXED_CTR::address::<3>(), 0x30C);
    assert_eq!(IA32_PERFEVTSEL::try_address(counter), None);
    assert!(IA32_PERFEVTSEL::try_msr(counter).is_none());
    // Run-time placement reports what `event_on` rejects at compile time.
    let fixed_only = EventDesc::new("INST_RETIRED.ANY", 0xC0, 0)
        .with_counters(0)
        .with_fixed(0);
    assert_eq!(
        v4::IA32_PERFEVTSEL::try_event_on_raw(1, &fixed_only),
        Err(PlacementError::FixedOnly {
            event: "INST_RETIRED.ANY",
            fixed: 0,
            counter: 1
        })
    );
    let low = EventDesc::new("LOW_ONLY", 0x48, 1).with_counters(0b1111);
    assert!(v4::IA32_PERFEVTSEL::try_event_on_raw(counter - 4, &low).is_err());
    // Field arrays by runtime index.
    let f = IA32_FIXED_CTR_CTRL::Value::new()
        .try_with_at::<IA32_FIXED_CTR_CTRL::ENABLE>(2, 2)
        .unwrap()
        .build();
    assert_eq!(f.get_at::<IA32_FIXED_CTR_CTRL::ENABLE>(2), Some(2));
    assert!(
        IA32_FIXED_CTR_CTRL::Value::new()
            .try_with_at::<IA32_FIXED_CTR_CTRL::ENABLE>(3, 1)
            .is_err()
    );
    // The INV/CMASK constraint at run time.
    let inv = IA32_PERFEVTSEL::Value::new().with_bit::<IA32_PERFEVTSEL::INV>(true);
    assert_eq!(inv.try_build().unwrap_err().id, "inv-without-cmask");
    // Raw values: refused when they set a reserved bit, kept as read for read-modify-write.
    assert!(IA32_PERFEVTSEL::Value::try_from_bits(1 << 40).is_err());
    let read = IA32_PERFEVTSEL::Value::from_raw_read((1 << 40) | 0x2E);
    assert_eq!(read.with_bit::<IA32_PERFEVTSEL::EN>(true).bits(), (1 << 40) | 0x40_002E);
}

fn main() {
    assert_eq!(LLC_MISSES.bits(), 0x0043_412E);
    assert_eq!(RAW, LLC_MISSES);
    assert_eq!(THRESHOLD.bits(), 0xFF80_FFC2);
    assert_eq!(PMC7, 0x18D);
    assert_eq!(FIXED.bits(), 0b1000_0001_0111);
    assert_eq!(
        FIXED.named::<IA32_FIXED_CTR_CTRL::ENABLE1>(),
        Some(IA32_FIXED_CTR_CTRL::Enable::Os)
    );
    let typed = IA32_FIXED_CTR_CTRL::Value::new()
        .with_value::<IA32_FIXED_CTR_CTRL::ENABLE1>(IA32_FIXED_CTR_CTRL::Enable::Os)
        .build();
    assert_eq!(
        typed.get::<IA32_FIXED_CTR_CTRL::ENABLE1>(),
        IA32_FIXED_CTR_CTRL::Enable::Os.value()
    );
    assert_eq!(GLOBAL.bits(), (1 << 34) | (1 << 7) | 1);
    assert_eq!(LLC_ON_7.bits(), 0x0042_412E);
    assert_eq!(INST_ON_0.bits(), 0xC0);
    assert_eq!(LOW_ON_3.bits(), 0x148);
    assert!(V3_ANY.is_set::<v3::IA32_PERFEVTSEL::ANY>());
    assert_eq!(
        (
            V6_UMASK2.get::<v6::IA32_PERFEVTSEL::UMASK2>(),
            V6_UMASK2.is_set::<v6::IA32_PERFEVTSEL::EQ>()
        ),
        (2, true)
    );

    // tock-registers fields, typed by their register.
    let mut local = LLC_MISSES.to_local();
    assert_eq!(local.read(IA32_PERFEVTSEL::UMASK), 0x41);
    local.modify(IA32_PERFEVTSEL::CMASK.val(2));
    assert_eq!(local.read(IA32_PERFEVTSEL::CMASK), 2);
    assert_eq!(FIXED.to_local().read(IA32_FIXED_CTR_CTRL::ENABLE0), 3);

    // Typed MSR access: writable registers are written, read-only ones are read.
    let mut m = Mem::default();
    m.write(IA32_PERFEVTSEL::msr::<3>(), LLC_MISSES).unwrap();
    m.write(IA32_FIXED_CTR_CTRL::MSR, FIXED).unwrap();
    m.write(IA32_PERF_GLOBAL_CTRL::MSR, GLOBAL).unwrap();
    assert_eq!(m.0[&0x189], 0x0043_412E);
    m.0.insert(v4::IA32_PERF_GLOBAL_STATUS::ADDRESS, 1 << 7);
    let status = m.read(v4::IA32_PERF_GLOBAL_STATUS::MSR).unwrap();
    assert!(status.is_set::<v4::IA32_PERF_GLOBAL_STATUS::OVF_PMC7>());
    let inuse = m.read(v4::IA32_PERF_GLOBAL_INUSE::MSR).unwrap();
    assert!(!inuse.is_set::<v4::IA32_PERF_GLOBAL_INUSE::PERFEVTSEL_INUSE0>());
    let reset = v4::IA32_PERF_GLOBAL_STATUS_RESET::Value::new()
        .with_bit::<v4::IA32_PERF_GLOBAL_STATUS_RESET::CLR_OVF_PMC7>(true)
        .build();
    m.write(v4::IA32_PERF_GLOBAL_STATUS_RESET::MSR, reset)
        .unwrap();
    assert_eq!(m.0[&0x390], 1 << 7);
    let written = m
        .modify(IA32_PERFEVTSEL::msr::<3>(), |v| v.with_bit::<IA32_PERFEVTSEL::INT>(true))
        .unwrap();
    assert!(written.is_set::<IA32_PERFEVTSEL::INT>());
    assert_eq!(
        <IA32_PERFEVTSEL::Value as RegisterValue>::RESERVED_MASK,
        IA32_PERFEVTSEL::Value::RESERVED_MASK
    );

    runtime(0x41, true, 3, 8);
}
