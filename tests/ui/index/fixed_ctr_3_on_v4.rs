// Versions 2 to 4 have fixed counters 0-2 (version 5 adds fixed counter 3).
use pmu_regs::intel::v4::IA32_FIXED_CTR;

const FIXED3: u32 = IA32_FIXED_CTR::address::<3>();

fn main() {
    let _ = FIXED3;
}
