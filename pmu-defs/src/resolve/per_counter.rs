//! Per-counter shapes follow their counter family: a generation that adds counters says so
//! once, on the counter family (`IA32_PMC: msr: { count: 10 }`, `IA32_FIXED_CTR: msr: {
//! count: 6 }`), and every register family and field array that has one instance or element
//! per counter of that kind takes the new count, unless the same file gives one itself (which
//! the validator then compares with the family, as before).
//!
//! Which shapes are per counter is stated in the definitions: `per-counter: general|fixed`
//! on a register family or a field array, and the roles `event-select` and
//! `full-width-counter`, whose families pair with the general counters. The counter families
//! themselves are the registers with the roles `counter` and `fixed-counter`.

use super::*;

impl Resolver<'_> {
    /// Gives every per-counter register family and field array of `registers` the count of
    /// its counter family, where `raw` does not state one; marks what it changed as this
    /// generation's (`defined_in`) and as derived (`count_derived`).
    pub(super) fn per_counter_counts(&self, raw: &RawGeneration, registers: &mut [Register]) {
        let count_of = |role| {
            (registers.iter())
                .find(|r| r.role == Some(role))
                .map(|r| r.msr.count)
        };
        let general = count_of(RegisterRole::Counter);
        let fixed = count_of(RegisterRole::FixedCounter);
        let want = |kind| match kind {
            CounterKind::General => general,
            CounterKind::Fixed => fixed,
        };
        for reg in registers.iter_mut() {
            let entry = raw.registers.iter().find(|r| r.name.value == reg.name);
            // A count this file states is not derived, whatever the parent's was.
            if entry.is_some_and(gives_count) {
                reg.count_derived = false;
            }
            for f in reg.fields.iter_mut() {
                if entry.is_some_and(|e| gives_array_count(e, &f.name)) {
                    f.count_derived = false;
                }
            }
            let mut changed = false;
            if let Some(n) = family_kind(reg).and_then(want)
                && reg.msr.count != n
                && !entry.is_some_and(gives_count)
            {
                reg.msr.count = n;
                reg.addresses = reg.msr.addresses().collect();
                if let Some(alias) = &mut reg.alias_msr {
                    alias.count = n;
                    reg.alias_addresses = alias.addresses().collect();
                }
                reg.count_derived = true;
                changed = true;
            }
            for f in reg.fields.iter_mut() {
                let Some(n) = f.per_counter.and_then(want) else {
                    continue;
                };
                let given = entry.is_some_and(|e| gives_array_count(e, &f.name));
                if let Some(a) = &mut f.array
                    && a.count != n
                    && !given
                {
                    a.count = n;
                    f.count_derived = true;
                    changed = true;
                }
            }
            if changed {
                reg.reserved_mask = reserved(reg.width, &reg.fields);
                reg.defined_in = self.id.to_owned();
            }
        }
    }
}

/// The counter kind a register family has one instance per counter of: its `per-counter:`,
/// else general for the event selects and full-width counter aliases. The counter families
/// themselves are the source of the counts, never derived.
fn family_kind(r: &Register) -> Option<CounterKind> {
    if !r.msr.indexed {
        return None;
    }
    match (r.per_counter, r.role) {
        (Some(kind), _) => Some(kind),
        (None, Some(RegisterRole::EventSelect | RegisterRole::FullWidthCounter)) => {
            Some(CounterKind::General)
        }
        _ => None,
    }
}

/// Whether a register entry states its family's count (`msr: { count: N }`).
fn gives_count(r: &RawRegister) -> bool {
    r.msr.as_ref().is_some_and(|m| m.value.count.is_some())
}

/// Whether a register entry states the element count of its field `name`.
fn gives_array_count(r: &RawRegister, name: &str) -> bool {
    (r.fields.iter())
        .find(|f| f.name.value == name)
        .and_then(|f| f.array.as_ref())
        .is_some_and(|a| a.value.0.is_some())
}
