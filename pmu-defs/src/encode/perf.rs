//! How Linux perf spells an event: `pmu/term=value,.../modifiers`.
//!
//! perf's own event tables are generated from JSON by
//! `tools/perf/pmu-events/jevents.py` (class `JsonEvent`); for Intel the JSON is converted
//! from Intel's perfmon lists by `scripts/create_perf_json.py` in the intel/perfmon
//! repository. The rules reproduced here, and where they come from:
//!
//! * **Term order** (jevents `event_fields`): `event=` first, then `any=`, `ch_mask=`,
//!   `cmask=`, `edge=`, `fc_mask=`, `inv=`, `period=`, `umask=`, then a `Filter`, then one
//!   auxiliary-MSR term chosen by jevents `lookup_msr()` from the first `MSRIndex`:
//!   `offcore_rsp=` (0x1A6, 0x1A7), `ldlat=` (0x3F6) or `frontend=` (0x3F7). Terms whose
//!   value is zero are left out (`is_zero`). `ch_mask`/`fc_mask` are uncore terms and never
//!   occur on a core PMU.
//! * **Numbers** (jevents `llx()` and `canonicalize_value()`): a JSON value written in hex
//!   (`0x..`) is printed as `llx(v)`: 0 to 9 in decimal, larger values as `0x` + lowercase
//!   hex (`event=0xe`, `umask=1`, `umask=0x41`). A value written in decimal is printed in
//!   decimal: Intel writes `CounterMask`, `EdgeDetect`, `Invert` and `AnyThread` in decimal,
//!   so `cmask=16`, never `cmask=0x10`.
//! * **No `period=` term.** jevents adds `period=` from `SampleAfterValue`, a default
//!   *sampling* period perf uses when recording. It is not part of the event encoding (no
//!   IA32_PERFEVTSEL bit holds it), so the strings here leave it out; the model keeps it as
//!   `Event::sample_after`. Append `,period=N` to sample with Intel's default.
//! * **UMaskExt is folded into `umask=`.** create_perf_json.py writes
//!   `UMask = UMaskExt . UMask` (hex digits concatenated, i.e. `UMaskExt << 8 | UMask`), and
//!   the kernel's `umask` format on architectural PMU version 6 is `config:8-15,40-47`
//!   (`umask2_show()` in `arch/x86/events/intel/core.c`), so perf fills UMASK2 from the bits
//!   of `umask=` above UMASK's 8: `BR_INST_RETIRED.COND` on Lunar Lake is `umask=0x111`.
//!   perf has no `umask2=` term.
//! * **Equal is `eq=`** (kernel format `eq` = `config:36`, "v6 +"). jevents has no JSON key
//!   for it (Intel never sets `Equal` in its lists), so its place is ours: after `edge=`,
//!   where the JSON key `Equal` sorts among the alphabetical `event_fields` keys.
//! * **Six events perf spells its own way** (jevents `real_event()`): `INST_RETIRED.ANY`,
//!   `INST_RETIRED.ANY_P` (`event=0xc0`), `CPU_CLK_UNHALTED.THREAD`,
//!   `CPU_CLK_UNHALTED.CORE` (`event=0x3c`), `CPU_CLK_UNHALTED.THREAD_ANY`
//!   (`event=0x3c,any=1`) and `CPU_CLK_UNHALTED.REF` (`event=0x0,umask=0x03`, spelled with
//!   the leading zero). The kernel schedules those onto the fixed counters.
//! * **Auxiliary MSR values** are printed `0x` + lowercase hex. perf copies Intel's
//!   `MSRValue` text verbatim, whose case and zero padding vary from file to file
//!   (`0x3FBFC00001`, `0x000107F7`); the number is the same, and perf's parser reads both.
//! * **PMU name** (create_perf_json.py `Mapfile`/`to_perf_json` and jevents
//!   `unit_to_pmu()`): `cpu`, except on hybrid parts, where the kernel registers one PMU
//!   per core type: `cpu_core` (Intel core type 0x40, "Core"), `cpu_atom` (0x20, "Atom")
//!   and `cpu_lowpower` (the low-power Atom cores of Arrow Lake H, `hybrid_tiny` in
//!   `arch/x86/events/intel/core.c`).
//! * **Privilege modifiers** follow the closing slash: `u` (user only), `k` (kernel only),
//!   `uk` (both, explicitly). Without a modifier perf counts at every level the system
//!   allows, which is what an encoding without `u`/`k` gives (USR and OS both set).
//!   IA32_PERFEVTSEL.INT and EN have no perf term: the kernel sets them itself.

use std::fmt;

/// Formats like jevents.py's `llx()`: 0 to 9 in decimal, larger values as `0x` + lowercase
/// hex.
///
/// ```
/// use pmu_defs::encode::perf::llx;
/// assert_eq!(llx(9), "9");
/// assert_eq!(llx(10), "0xa");
/// assert_eq!(llx(0x2e), "0x2e");
/// ```
pub fn llx(v: u64) -> String {
    pmu_vocab::perf::Llx(v).to_string()
}

/// An auxiliary-MSR value as printed here: always `0x` + lowercase hex.
pub fn msr_value(v: u64) -> String {
    format!("{v:#x}")
}

/// The terms, perf's own spellings of six events and the PMU names, shared with the run-time
/// resolver (`pmu_regs::perf`) so the two cannot drift apart.
pub use pmu_vocab::perf::{Term, pmu_for_core_role, real_event};

/// A perf event string under construction: PMU name, ordered terms, modifiers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerfEvent {
    /// PMU name (`cpu`, `cpu_core`, ...).
    pub pmu: String,
    terms: Vec<(Term, String)>,
    /// Modifier letters after the closing slash (`u`, `k`, `uk` or empty).
    pub modifiers: String,
}

impl PerfEvent {
    /// An event on `pmu` with no terms yet.
    pub fn new(pmu: impl Into<String>) -> Self {
        PerfEvent {
            pmu: pmu.into(),
            ..Self::default()
        }
    }

    /// Sets a term to the given text, keeping perf's order.
    pub fn set(&mut self, term: Term, value: impl Into<String>) {
        let value = value.into();
        match self.terms.binary_search_by_key(&term, |(t, _)| *t) {
            Ok(i) => self.terms[i].1 = value,
            Err(i) => self.terms.insert(i, (term, value)),
        }
    }

    /// Sets a numeric term, or removes it when `value` is 0 (perf leaves zero terms out).
    /// `decimal` selects how the value is written (see the module docs).
    pub fn set_number(&mut self, term: Term, value: u64, decimal: bool) {
        if value == 0 {
            self.remove(term);
        } else if decimal {
            self.set(term, value.to_string());
        } else {
            self.set(term, llx(value));
        }
    }

    /// Removes a term.
    pub fn remove(&mut self, term: Term) {
        self.terms.retain(|(t, _)| *t != term);
    }

    /// The text of a term, if set.
    pub fn get(&self, term: Term) -> Option<&str> {
        self.terms
            .iter()
            .find(|(t, _)| *t == term)
            .map(|(_, v)| v.as_str())
    }

    /// The terms, in order.
    pub fn terms(&self) -> impl Iterator<Item = (Term, &str)> {
        self.terms.iter().map(|(t, v)| (*t, v.as_str()))
    }
}

impl fmt::Display for PerfEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/", self.pmu)?;
        for (i, (t, v)) in self.terms.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}={v}", t.key())?;
        }
        write!(f, "/{}", self.modifiers)
    }
}

/// The name perf lists an event under, when it differs from Intel's (create_perf_json.py
/// `fix_name`: `OFFCORE_RESPONSE_0.X` is `OFFCORE_RESPONSE.X`, and
/// `OFFCORE_RESPONSE:request=X:response=Y` is `OFFCORE_RESPONSE.X.Y`). The encoder and the
/// generated `Event::from_name` accept both spellings.
///
/// ```
/// use pmu_defs::encode::perf::perf_name;
/// assert_eq!(
///     perf_name("OFFCORE_RESPONSE_0.PREFETCH.REMOTE_DRAM").as_deref(),
///     Some("OFFCORE_RESPONSE.PREFETCH.REMOTE_DRAM")
/// );
/// assert_eq!(perf_name("OFFCORE_RESPONSE.ALL_DATA_RD"), None);
/// ```
pub fn perf_name(name: &str) -> Option<String> {
    if let Some(rest) = name.strip_prefix("OFFCORE_RESPONSE_0") {
        return Some(format!("OFFCORE_RESPONSE{rest}"));
    }
    let rest = name.strip_prefix("OFFCORE_RESPONSE:request=")?;
    let (request, response) = rest.split_once(":response=")?;
    Some(format!("OFFCORE_RESPONSE.{request}.{response}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llx_switches_to_hex_at_ten() {
        assert_eq!(llx(0), "0");
        assert_eq!(llx(1), "1");
        assert_eq!(llx(9), "9");
        assert_eq!(llx(10), "0xa");
        assert_eq!(llx(0xC0), "0xc0");
        assert_eq!(llx(0x111), "0x111");
        assert_eq!(llx(u64::MAX), "0xffffffffffffffff");
    }

    #[test]
    fn terms_keep_jevents_order_whatever_the_insertion_order() {
        let mut p = PerfEvent::new("cpu");
        p.set(Term::Umask, "1");
        p.set(Term::OffcoreRsp, "0x10001");
        p.set(Term::Inv, "1");
        p.set(Term::Event, "0xe");
        p.set(Term::Eq, "1");
        p.set(Term::Cmask, "1");
        p.set(Term::Edge, "1");
        p.set(Term::Any, "1");
        assert_eq!(
            p.to_string(),
            "cpu/event=0xe,any=1,cmask=1,edge=1,eq=1,inv=1,umask=1,offcore_rsp=0x10001/"
        );
    }

    #[test]
    fn zero_numbers_are_left_out_and_decimal_terms_stay_decimal() {
        let mut p = PerfEvent::new("cpu_core");
        p.set_number(Term::Event, 0x3c, false);
        p.set_number(Term::Cmask, 16, true);
        p.set_number(Term::Umask, 0, false);
        p.set_number(Term::Inv, 1, true);
        assert_eq!(p.to_string(), "cpu_core/event=0x3c,cmask=16,inv=1/");
        p.set_number(Term::Cmask, 0, true);
        assert_eq!(p.get(Term::Cmask), None);
        p.modifiers = "uk".into();
        assert_eq!(p.to_string(), "cpu_core/event=0x3c,inv=1/uk");
    }

    #[test]
    fn msr_terms_follow_lookup_msr() {
        assert_eq!(Term::for_msr(0x1A6), Some(Term::OffcoreRsp));
        assert_eq!(Term::for_msr(0x1A7), Some(Term::OffcoreRsp));
        assert_eq!(Term::for_msr(0x3F6), Some(Term::Ldlat));
        assert_eq!(Term::for_msr(0x3F7), Some(Term::Frontend));
        assert_eq!(Term::for_msr(0x3F8), None);
        assert_eq!(msr_value(0x3FBFC00001), "0x3fbfc00001");
        assert_eq!(msr_value(3), "0x3");
    }

    #[test]
    fn real_event_is_case_insensitive_and_keeps_perfs_literal_spelling() {
        assert_eq!(
            real_event("CPU_CLK_UNHALTED.REF"),
            Some(&[(Term::Event, "0x0"), (Term::Umask, "0x03")][..])
        );
        assert_eq!(
            real_event("inst_retired.ANY"),
            Some(&[(Term::Event, "0xc0")][..])
        );
        assert_eq!(real_event("INST_RETIRED.PREC_DIST"), None);
    }

    #[test]
    fn perf_names() {
        assert_eq!(
            perf_name("OFFCORE_RESPONSE:request=ALL_DATA_RD:response=ANY_RESPONSE").as_deref(),
            Some("OFFCORE_RESPONSE.ALL_DATA_RD.ANY_RESPONSE")
        );
    }

    #[test]
    fn pmu_names_by_core_role() {
        assert_eq!(pmu_for_core_role(""), "cpu");
        assert_eq!(pmu_for_core_role("Core"), "cpu_core");
        assert_eq!(pmu_for_core_role("Atom"), "cpu_atom");
        assert_eq!(pmu_for_core_role("LowPower_Atom"), "cpu_lowpower");
    }
}
