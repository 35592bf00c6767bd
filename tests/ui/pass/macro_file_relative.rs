// registers! finds `acme.yaml` beside this file (the generated trybuild crate's
// CARGO_MANIFEST_DIR is elsewhere) and generates the same API as pmu-regs.
pmu_macros::registers!("acme.yaml");

use acme::x1::{ACME_EVTSEL, ACME_STATUS};

const SEL: ACME_EVTSEL::Value = ACME_EVTSEL::Value::new()
    .with::<ACME_EVTSEL::EVENT, 0x2E>()
    .with::<ACME_EVTSEL::UMASK, 0x41>()
    .with_bit::<ACME_EVTSEL::EN>(true)
    .build();

fn main() {
    assert_eq!(SEL.bits(), 0x0040_412E);
    assert_eq!(ACME_EVTSEL::address::<1>(), 0x1001);
    assert_eq!(ACME_STATUS::Value::from_raw_read(2).get::<ACME_STATUS::OVF>(), 2);
}
