//! The [`Arch`] trait: what a generation's generated code tells the run-time layer about
//! programming its PMU (event selects, fixed counters, global control and status).

use super::*;

/// The runtime view of one PMU generation, implemented by the generated marker type of every
/// generation whose definitions give registers the `counter` and `event-select` roles (see
/// [`Generation::ALL`]).
///
/// The generated impl supplies the [`Spec`] (addresses and bit positions by role), the register
/// and architectural-event tables, and the event encoding through the generated
/// `try_event_on`; every other method is written once, here, over the [`Spec`]. Methods
/// returning `Option<u32>` give MSR addresses (`None`: the generation has no such register, or
/// no such index). Methods taking and returning `u64` change only the bits they own, so other
/// fields and reserved bits as read pass through unchanged.
pub trait Arch: Copy + Default + fmt::Debug + Send + Sync + 'static {
    /// The generation's id (`generation:` in its YAML): the identity of the type, also for a
    /// generation defined outside `pmu-regs` through `registers!`.
    const ID: &'static str;
    /// Addresses and bit positions, by role.
    const SPEC: Spec;
    /// How detection recognises the generation, and what its CPUID fields enumerate.
    const DETECT: DetectSpec;
    /// The write mask of every instance of every register with a role, for the generation's
    /// full-featured guest, computed by the generator
    /// ([`GuestPmu::for_generation`](crate::guest::GuestPmu::for_generation) uses them).
    const GUEST_MASKS: crate::guest::GuestMasks;
    /// Instances of the general-purpose counter family in the definitions.
    const GP_INSTANCES: u32 = Self::SPEC.general.counters.len() as u32;
    /// Instances of the fixed-counter family (0 when the generation has none).
    const FIXED_INSTANCES: u32 = match Self::SPEC.fixed {
        Some(f) => f.counters.len() as u32,
        None => 0,
    };
    /// Bits of a general-purpose counter below its reserved bits.
    const GP_MODEL_WIDTH: u32 = Self::SPEC.general.counter_width;
    /// Bits of a fixed counter below its reserved bits (0 when there are none).
    const FIXED_MODEL_WIDTH: u32 = match Self::SPEC.fixed {
        Some(f) => f.counter_width,
        None => 0,
    };
    /// Plain writes to the counter take only bits 31:0 and sign-extend them: true where the
    /// generation has a `full-width-counter` alias (Intel IA32_A_PMCn).
    const GP_WRITE_SIGN_EXTENDS: bool = !Self::SPEC.general.full_width.is_empty();

    /// The built-in [`Generation`] this is (`None` for a generation defined outside
    /// `pmu-regs`).
    fn generation() -> Option<Generation> {
        Generation::from_id(Self::ID)
    }

    /// Every register family of the generation.
    fn registers() -> &'static [RegInfo];
    /// The generation's architectural events (empty where it has none).
    fn arch_events() -> &'static [ArchEventInfo];
    /// Whether CPUID.0AH (`eax`, `ebx`) offers architectural event `index` of
    /// [`Arch::arch_events`] (the generated `ArchEvent::is_available`: its EBX bit is clear and
    /// lies within the EBX length).
    fn arch_event_available(index: usize, eax: u32, ebx: u32) -> bool;
    /// The event-select value counting `event` on counter `n`, without USR/OS/INT/EN: the
    /// generated `try_event_on` (placement, fields of this generation, widths) and the
    /// manual's constraints.
    fn select_event(n: u32, event: &EventDesc) -> Result<u64, EncodeError>;

    /// The event-select bits of `event` on counter `n` (no USR/OS/INT/EN) with the placement
    /// checks of [`Arch::select_event`] but not the manual's constraints on field
    /// combinations: for an event a vendor defines with such a combination (Intel's
    /// `UOPS_EXECUTED.CORE_CYCLES_NONE` sets INV without CMASK), which perf opens as defined.
    fn place_event(n: u32, event: &EventDesc) -> Result<u64, PlacementError>;

    /// The event-select value counting `event` on counter `n` with `filter`, enabled.
    fn encode_select(n: u32, event: &EventDesc, filter: Filter) -> Result<u64, EncodeError> {
        let g = Self::SPEC.general;
        let mut v = Self::select_event(n, event)?;
        for (on, bits, name) in [
            (filter.usr, g.usr, "USR"),
            (filter.os, g.os, "OS"),
            (filter.int, g.int, "INT"),
            (true, g.en, "EN"),
        ] {
            match bits {
                Some(b) => {
                    v = b
                        .set(v, 0, on as u64)
                        .map_err(|_| unsupported_select(event, name))?
                }
                None if on => return Err(unsupported_select(event, name)),
                None => {}
            }
        }
        Ok(v)
    }

    /// The event encoding alone (no USR/OS/INT/EN), as Linux perf takes it in
    /// `perf_event_attr.config` for `PERF_TYPE_RAW`.
    fn encode_raw_config(event: &EventDesc) -> Result<u64, EncodeError> {
        // perf chooses the counter itself: place on counter 0 with the counter restriction
        // lifted, so only the checks that do not depend on the counter remain (fixed-only
        // events, fields this generation lacks, values too wide).
        let unrestricted = if event.counters == 0 {
            *event
        } else {
            EventDesc {
                counters: u32::MAX,
                ..*event
            }
        };
        Self::select_event(0, &unrestricted)
    }

    /// Event select `n`.
    fn gp_select(n: u32) -> Option<u32> {
        Self::SPEC.general.selects.get(n as usize).copied()
    }
    /// Counter `n`.
    fn gp_counter(n: u32) -> Option<u32> {
        Self::SPEC.general.counters.get(n as usize).copied()
    }
    /// Full-width write alias of counter `n` (IA32_A_PMCn); `None` when counter writes are
    /// always full width (AMD) or there is no counter `n`.
    fn gp_counter_full_width(n: u32) -> Option<u32> {
        Self::SPEC.general.full_width.get(n as usize).copied()
    }
    /// Decodes an event-select value.
    fn select_state(bits: u64) -> SelectState {
        let g = Self::SPEC.general;
        let flag = |b: Option<Bits>| b.and_then(|b| b.get(bits, 0)).is_some_and(|v| v != 0);
        SelectState {
            enabled: flag(g.en),
            usr: flag(g.usr),
            os: flag(g.os),
            int: flag(g.int),
            in_use: bits & g.event_mask != 0,
        }
    }
    /// `bits` with EN set or cleared.
    fn select_with_enable(bits: u64, on: bool) -> u64 {
        match Self::SPEC.general.en {
            Some(b) => b.set(bits, 0, on as u64).unwrap_or(bits),
            None => bits,
        }
    }

    /// Fixed counter `n`.
    fn fixed_counter(n: u32) -> Option<u32> {
        Self::SPEC.fixed?.counters.get(n as usize).copied()
    }
    /// The fixed-counter control register.
    fn fixed_ctrl() -> Option<u32> {
        Some(Self::SPEC.fixed?.control?.address)
    }
    /// `bits` with fixed counter `n`'s block set to `mode` (`None`: disabled) and `pmi`, its
    /// other per-counter bits (AnyThread, adaptive PEBS) cleared.
    fn fixed_ctrl_with(
        bits: u64,
        n: u32,
        mode: Option<FixedMode>,
        pmi: bool,
    ) -> Result<u64, FieldError> {
        let Some(c) = Self::SPEC.fixed.and_then(|f| f.control) else {
            return Err(unsupported_field("ENABLE", n));
        };
        let [disabled, os, usr, all] = c.privilege_values;
        let value = match mode {
            None => disabled,
            Some(FixedMode::Os) => os,
            Some(FixedMode::Usr) => usr,
            Some(FixedMode::All) => all,
        };
        let mut v = c.privilege.set(bits, n, value)?;
        match c.pmi {
            Some(p) => v = p.set(v, n, pmi as u64)?,
            None if pmi => return Err(unsupported_field("PMI", n)),
            None => {}
        }
        for other in c.others {
            v = other.set(v, n, 0)?;
        }
        Ok(v)
    }
    /// Decodes fixed counter `n`'s block.
    fn fixed_state(bits: u64, n: u32) -> Option<FixedState> {
        let c = Self::SPEC.fixed?.control?;
        let value = c.privilege.get(bits, n)?;
        let [disabled, os, usr, all] = c.privilege_values;
        let mode = if value == disabled {
            None
        } else if value == os {
            Some(FixedMode::Os)
        } else if value == usr {
            Some(FixedMode::Usr)
        } else if value == all {
            Some(FixedMode::All)
        } else {
            return None;
        };
        let pmi = match c.pmi {
            Some(p) => p.get(bits, n)? != 0,
            None => false,
        };
        Some(FixedState { mode, pmi })
    }

    /// The global enable register.
    fn global_ctrl() -> Option<u32> {
        Some(Self::SPEC.global_control?.address)
    }
    /// `bits` with `counter`'s global enable set or cleared.
    fn global_ctrl_with(bits: u64, counter: Counter, on: bool) -> Result<u64, FieldError> {
        let n = counter_index(counter);
        let b = Self::SPEC
            .global_control
            .and_then(|r| per_counter(&r, counter))
            .ok_or(unsupported_field("EN", n))?;
        b.set(bits, n, on as u64)
    }
    /// `counter`'s global enable in `bits` (true where the generation has no global enable).
    fn global_ctrl_enabled(bits: u64, counter: Counter) -> bool {
        match Self::SPEC.global_control {
            None => true,
            Some(r) => per_counter(&r, counter)
                .and_then(|b| b.get(bits, counter_index(counter)))
                .is_some_and(|v| v != 0),
        }
    }
    /// Reserved bits of the global enable register.
    fn global_ctrl_reserved() -> u64 {
        Self::SPEC.global_control.map_or(u64::MAX, |r| r.reserved)
    }

    /// The global status register.
    fn global_status() -> Option<u32> {
        Some(Self::SPEC.global_status?.address)
    }
    /// Decodes a status value.
    fn status_decode(bits: u64) -> Status {
        let Some(s) = Self::SPEC.global_status else {
            return Status {
                raw: bits,
                ..Status::default()
            };
        };
        let set = |b: Option<Bits>| b.map_or(0, |b| b.nonzero(bits));
        Status {
            gp: set(s.general),
            fixed: set(s.fixed),
            frozen: s.flag.is_some_and(|f| f.nonzero(bits) != 0),
            raw: bits,
        }
    }
    /// The status bit reporting `counter`'s overflow.
    fn status_bit(counter: Counter) -> Option<u64> {
        per_counter(&Self::SPEC.global_status?, counter)?.mask(counter_index(counter))
    }
    /// The `frozen` status bit (CTR_FRZ, version 4 and later).
    fn ctr_frz_bit() -> Option<u64> {
        Self::SPEC.global_status?.flag?.mask(0)
    }
    /// The write-1-to-clear register of the status.
    fn status_reset() -> Option<u32> {
        Some(Self::SPEC.global_status_reset?.address)
    }
    /// The value that, written to [`Arch::status_reset`], clears the overflow bits of the
    /// counters in `gp`/`fixed` and, when `ctr_frz`, the frozen bit.
    fn status_reset_bits(gp: u32, fixed: u32, ctr_frz: bool) -> Result<u64, FieldError> {
        let r = Self::SPEC
            .global_status_reset
            .ok_or(unsupported_field("CLR_OVF", 0))?;
        per_counter_bits(&r, gp, fixed, ctr_frz, "CLR_OVF")
    }
    /// The write-1-to-set register of the status.
    fn status_set() -> Option<u32> {
        Some(Self::SPEC.global_status_set?.address)
    }
    /// The value that, written to [`Arch::status_set`], sets the overflow bits of these
    /// counters.
    fn status_set_bits(gp: u32, fixed: u32) -> Result<u64, FieldError> {
        let r = Self::SPEC
            .global_status_set
            .ok_or(unsupported_field("SET_OVF", 0))?;
        per_counter_bits(&r, gp, fixed, false, "SET_OVF")
    }

    /// The in-use register (IA32_PERF_GLOBAL_INUSE).
    fn global_inuse() -> Option<u32> {
        Some(Self::SPEC.global_in_use?.address)
    }
    /// Its bit for `counter`.
    fn inuse_bit(counter: Counter) -> Option<u64> {
        per_counter(&Self::SPEC.global_in_use?, counter)?.mask(counter_index(counter))
    }
    /// Its `pmi-in-use` bit.
    fn inuse_pmi_bit() -> Option<u64> {
        Self::SPEC.global_in_use?.flag?.mask(0)
    }

    /// The debug-control register, when it has the `freeze-on-pmi` bit.
    fn debugctl() -> Option<u32> {
        let d = Self::SPEC.debug_control?;
        d.flag.map(|_| d.address)
    }
    /// Freeze-on-PMI in `bits`.
    fn freeze_on_pmi(bits: u64) -> bool {
        Self::SPEC
            .debug_control
            .and_then(|d| d.flag)
            .and_then(|f| f.get(bits, 0))
            .is_some_and(|v| v != 0)
    }
    /// `bits` with Freeze-on-PMI set or cleared.
    fn with_freeze_on_pmi(bits: u64, on: bool) -> u64 {
        match Self::SPEC.debug_control.and_then(|d| d.flag) {
            Some(f) => f.set(bits, 0, on as u64).unwrap_or(bits),
            None => bits,
        }
    }

    /// The capabilities register.
    fn perf_capabilities() -> Option<u32> {
        Some(Self::SPEC.capabilities?.address)
    }
    /// The `full-width-write` bit (IA32_A_PMCx present) in a capabilities value.
    fn caps_full_width_write(bits: u64) -> bool {
        Self::caps_full_width_write_bit().is_some_and(|b| bits & b != 0)
    }
    /// The capabilities value with only the `full-width-write` bit set.
    fn caps_full_width_write_bit() -> Option<u64> {
        Self::SPEC.capabilities?.flag?.mask(0)
    }
}

fn unsupported_select(event: &EventDesc, field: &'static str) -> EncodeError {
    EncodeError::Placement(PlacementError::Unsupported {
        event: event.name,
        field,
        register: "event select",
    })
}
