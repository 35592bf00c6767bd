//! What the run-time layer knows of a generation, as data the code generator writes from the
//! definitions' roles (`role:` on registers and fields, `per-counter:` on field arrays).
//!
//! A [`Spec`] holds addresses, bit positions and value encodings only; the behaviour
//! (enable a counter, decode a status, clear overflow bits) is written once, in
//! [`Arch`](super::Arch)'s provided methods, over this data. Nothing here is written by hand for
//! any generation: every `Spec` comes from `cargo xtask gen` (or `registers!`).

use crate::FieldError;

/// One field, or one per-counter field array, of a register: element `i` is `width` bits at
/// bit `lsb + i * stride`, for `i` in `0..count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bits {
    /// The field's name in the definitions.
    pub name: &'static str,
    /// Lowest bit of element 0.
    pub lsb: u32,
    /// Width of one element, in bits.
    pub width: u32,
    /// Distance between elements, in bits.
    pub stride: u32,
    /// Number of elements (1 for a plain field).
    pub count: u32,
}

impl Bits {
    /// The register-level mask of element `i`, or `None` when out of range.
    pub const fn mask(&self, i: u32) -> Option<u64> {
        if i >= self.count {
            return None;
        }
        let lsb = self.lsb + i * self.stride;
        if lsb >= 64 || self.width == 0 {
            return None;
        }
        let ones = if self.width >= 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        };
        Some(ones << lsb)
    }

    /// Element `i` of `bits`.
    pub const fn get(&self, bits: u64, i: u32) -> Option<u64> {
        match self.mask(i) {
            Some(m) => Some((bits & m) >> (self.lsb + i * self.stride)),
            None => None,
        }
    }

    /// `bits` with element `i` set to `value`; other bits unchanged.
    pub const fn set(&self, bits: u64, i: u32, value: u64) -> Result<u64, FieldError> {
        let Some(m) = self.mask(i) else {
            return Err(FieldError::IndexOutOfRange {
                field: self.name,
                count: self.count,
                index: i,
            });
        };
        if self.width < 64 && value >> self.width != 0 {
            return Err(FieldError::TooWide {
                field: self.name,
                width: self.width,
                value,
            });
        }
        let shifted = value << (self.lsb + i * self.stride);
        Ok((bits & !m) | shifted)
    }

    /// The mask of every element whose bit is set in `set` (bit `n` = element `n`).
    pub const fn elements(&self, set: u32) -> Result<u64, FieldError> {
        let mut out = 0;
        let mut n = 0;
        while n < 32 {
            if set & (1 << n) != 0 {
                match self.mask(n) {
                    Some(m) => out |= m,
                    None => {
                        return Err(FieldError::IndexOutOfRange {
                            field: self.name,
                            count: self.count,
                            index: n,
                        });
                    }
                }
            }
            n += 1;
        }
        Ok(out)
    }

    /// Bit `n` set for every element `n` that is non-zero in `bits`.
    pub const fn nonzero(&self, bits: u64) -> u32 {
        let mut out = 0;
        let mut n = 0;
        while n < self.count && n < 32 {
            if let Some(m) = self.mask(n)
                && bits & m != 0
            {
                out |= 1 << n;
            }
            n += 1;
        }
        out
    }
}

/// The general-purpose counters: the `counter` and `event-select` roles, and the
/// `full-width-counter` alias where there is one.
#[derive(Clone, Copy, Debug)]
pub struct GeneralSpec {
    /// Counter addresses, by index.
    pub counters: &'static [u32],
    /// Event-select addresses, by index.
    pub selects: &'static [u32],
    /// Full-width write aliases, by index (empty when there are none).
    pub full_width: &'static [u32],
    /// Bits of a counter below its reserved bits.
    pub counter_width: u32,
    /// The event-select fields `pmu.encoding` names for `en`, `usr`, `os` and `int`.
    pub en: Option<Bits>,
    /// See [`GeneralSpec::en`].
    pub usr: Option<Bits>,
    /// See [`GeneralSpec::en`].
    pub os: Option<Bits>,
    /// See [`GeneralSpec::en`].
    pub int: Option<Bits>,
    /// Every bit of the event-select code (`pmu.encoding.event`, all parts of a split field).
    pub event_mask: u64,
}

/// The fixed counters: the `fixed-counter` and `fixed-control` roles.
#[derive(Clone, Copy, Debug)]
pub struct FixedSpec {
    /// Counter addresses, by index.
    pub counters: &'static [u32],
    /// Bits of a counter below its reserved bits.
    pub counter_width: u32,
    /// The control register, when there is one.
    pub control: Option<FixedControlSpec>,
}

/// The fixed-counter control register.
#[derive(Clone, Copy, Debug)]
pub struct FixedControlSpec {
    /// Its address.
    pub address: u32,
    /// The `privilege` field array.
    pub privilege: Bits,
    /// The values of `privilege` named `DISABLED`, `OS`, `USR` and `ALL`, in that order.
    pub privilege_values: [u64; 4],
    /// The `pmi` field array, when there is one.
    pub pmi: Option<Bits>,
    /// Every other `per-counter: fixed` array (AnyThread, adaptive PEBS): cleared when a
    /// counter is programmed.
    pub others: &'static [Bits],
}

/// A register with per-counter bits: global control, status, its reset and set companions,
/// in-use.
#[derive(Clone, Copy, Debug)]
pub struct PerCounterSpec {
    /// Its address.
    pub address: u32,
    /// Bits no field covers.
    pub reserved: u64,
    /// The `per-counter: general` array.
    pub general: Option<Bits>,
    /// The `per-counter: fixed` array.
    pub fixed: Option<Bits>,
    /// The single-purpose field: `frozen` (status registers) or `pmi-in-use` (in use).
    pub flag: Option<Bits>,
}

/// A register with one single-purpose bit (debug control's `freeze-on-pmi`, capabilities'
/// `full-width-write`).
#[derive(Clone, Copy, Debug)]
pub struct FlagSpec {
    /// Its address.
    pub address: u32,
    /// The field, when the register has it.
    pub flag: Option<Bits>,
}

/// Everything the run-time layer needs of one generation, by role.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The general-purpose counters.
    pub general: GeneralSpec,
    /// The fixed counters.
    pub fixed: Option<FixedSpec>,
    /// `global-control`.
    pub global_control: Option<PerCounterSpec>,
    /// `global-status`.
    pub global_status: Option<PerCounterSpec>,
    /// `global-status-reset`.
    pub global_status_reset: Option<PerCounterSpec>,
    /// `global-status-set`.
    pub global_status_set: Option<PerCounterSpec>,
    /// `global-in-use`.
    pub global_in_use: Option<PerCounterSpec>,
    /// `debug-control` and its `freeze-on-pmi` bit.
    pub debug_control: Option<FlagSpec>,
    /// `capabilities` and its `full-width-write` bit.
    pub capabilities: Option<FlagSpec>,
}

/// Width in bits of a counter register: everything below its lowest reserved bit.
pub const fn width_from_reserved(reserved: u64) -> u32 {
    if reserved == 0 {
        64
    } else {
        reserved.trailing_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARR: Bits = Bits {
        name: "EN",
        lsb: 32,
        width: 1,
        stride: 1,
        count: 3,
    };
    const BLOCK: Bits = Bits {
        name: "ENABLE",
        lsb: 0,
        width: 2,
        stride: 4,
        count: 3,
    };

    #[test]
    fn elements_are_placed_by_stride() {
        assert_eq!(ARR.mask(2), Some(1 << 34));
        assert_eq!(ARR.mask(3), None);
        assert_eq!(BLOCK.mask(1), Some(0b11 << 4));
        assert_eq!(BLOCK.set(0, 2, 3), Ok(0b11 << 8));
        assert_eq!(BLOCK.get(0b10 << 4, 1), Some(2));
    }

    #[test]
    fn bad_index_and_width_are_errors() {
        assert!(matches!(
            BLOCK.set(0, 3, 1),
            Err(FieldError::IndexOutOfRange { index: 3, .. })
        ));
        assert!(matches!(
            BLOCK.set(0, 0, 4),
            Err(FieldError::TooWide { value: 4, .. })
        ));
        assert!(ARR.elements(1 << 5).is_err());
        assert_eq!(ARR.elements(0b101), Ok((1 << 32) | (1 << 34)));
        assert_eq!(ARR.nonzero((1 << 33) | 1), 0b10);
    }
}

/// A field of a CPUID leaf: `width` bits at `lsb` of output register `register` (0 = EAX,
/// 1 = EBX, 2 = ECX, 3 = EDX) of leaf `leaf`, subleaf `subleaf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuidField {
    /// The field's name in the definitions.
    pub name: &'static str,
    /// EAX input.
    pub leaf: u32,
    /// ECX input (0 for a leaf without subleaves).
    pub subleaf: u32,
    /// The leaf has subleaves (the definitions give `subleaf:`).
    pub has_subleaf: bool,
    /// Output register: 0 EAX, 1 EBX, 2 ECX, 3 EDX.
    pub register: u8,
    /// Lowest bit.
    pub lsb: u32,
    /// Width in bits.
    pub width: u32,
}

impl CpuidField {
    /// The field's value in the output registers `regs` (EAX, EBX, ECX, EDX).
    pub const fn get(&self, regs: [u32; 4]) -> u32 {
        let r = regs[(self.register & 3) as usize];
        if self.width >= 32 {
            r >> self.lsb
        } else {
            (r >> self.lsb) & ((1u32 << self.width) - 1)
        }
    }
}

/// What the CPUID fields with roles enumerate (`role:` on CPUID fields), for one generation.
#[derive(Clone, Copy, Debug, Default)]
pub struct EnumerationSpec {
    /// `general-count`.
    pub general_count: Option<CpuidField>,
    /// `general-width`.
    pub general_width: Option<CpuidField>,
    /// `fixed-count`.
    pub fixed_count: Option<CpuidField>,
    /// `fixed-width`.
    pub fixed_width: Option<CpuidField>,
    /// `fixed-bitmap`.
    pub fixed_bitmap: Option<CpuidField>,
    /// `general-present`.
    pub general_present: Option<CpuidField>,
    /// `fixed-present`.
    pub fixed_present: Option<CpuidField>,
    /// `events-length`: its leaf also carries the architectural-event vector.
    pub events_length: Option<CpuidField>,
    /// `anythread-deprecated`.
    pub anythread_deprecated: Option<CpuidField>,
    /// `umask2-supported`.
    pub umask2_supported: Option<CpuidField>,
    /// `eq-supported`.
    pub eq_supported: Option<CpuidField>,
    /// `subleaf-bitmap`.
    pub subleaf_bitmap: Option<CpuidField>,
}

/// A CPU model of a model generation (`cpus:`), as CPUID.01H and 1AH identify it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuModel {
    /// Family (extended family included).
    pub family: u32,
    /// Model (extended model included): the first of the run of consecutive models this entry
    /// covers.
    pub model: u32,
    /// The last model of the run (`model` itself for one model): consecutive models with the
    /// same steppings and core type are one entry (AMD lists families of models).
    pub model_last: u32,
    /// Steppings it covers (bit n = stepping n; all bits when any stepping).
    pub steppings: u16,
    /// On hybrid parts, the core type (CPUID.1AH:EAX\[31:24\]).
    pub core_type: Option<u8>,
    /// On hybrid parts, the native model id (CPUID.1AH:EAX\[23:0\]) where the definitions
    /// give one: it tells apart two core designs of one core type (Arrow Lake's Skymont and
    /// Crestmont E-cores).
    pub native_model_id: Option<u32>,
}

impl CpuModel {
    /// The models this entry covers.
    pub fn models(&self) -> core::ops::RangeInclusive<u32> {
        self.model..=self.model_last
    }
}

/// A CPU model generation as detection knows it whatever the Cargo features: its id, the
/// feature that compiles its registers and events, and the CPUs its `cpus:` lists
/// ([`MODEL_SPECS`](crate::arch::MODEL_SPECS) has one per model generation of the definitions).
#[derive(Clone, Copy, Debug)]
pub struct ModelSpec {
    /// The generation id (`intel-skylake`).
    pub id: &'static str,
    /// The Cargo feature of `pmu-regs` that compiles it (its id; empty when always compiled).
    pub feature: &'static str,
    /// The vendor.
    pub vendor: super::Vendor,
    /// The ids of the generations it extends, nearest first.
    pub ancestors: &'static [&'static str],
    /// `cpus:`: the CPUs it describes.
    pub cpus: &'static [CpuModel],
    /// The Linux perf PMU its events are opened on: `cpu`, or on hybrid parts the PMU of its
    /// core type (`cpu_core`, `cpu_atom`, `cpu_lowpower`; from Intel's mapfile core role).
    pub perf_pmu: &'static str,
}

/// What perf's generic hardware events count on one generation, as the Linux kernel maps
/// them (the definitions' `generic-events:`; [`GENERIC_EVENTS`](crate::arch::GENERIC_EVENTS)
/// has one per generation that maps any). `pmu_regs::perf` resolves `cycles`,
/// `branch-misses`, ... through it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenericEvents {
    /// The generation id.
    pub id: &'static str,
    /// perf's name of each generic event the generation maps (`cpu-cycles`) and the perf
    /// terms of the event it counts (`event=0x3c`), in `PERF_COUNT_HW_*` order.
    pub events: &'static [(&'static str, &'static str)],
}

impl GenericEvents {
    /// The generic events of the generation `id`, if it maps any.
    pub fn of(id: &str) -> Option<&'static GenericEvents> {
        crate::arch::GENERIC_EVENTS.iter().find(|g| g.id == id)
    }

    /// The perf terms of the event the generic event `name` (perf's name, not an alias)
    /// counts here.
    pub fn get(&self, name: &str) -> Option<&'static str> {
        self.events
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
    }
}

/// How detection recognises a generation (`detect:` and `cpus:`).
#[derive(Clone, Copy, Debug)]
pub struct DetectSpec {
    /// The vendor whose CPUs it describes.
    pub vendor: super::Vendor,
    /// How many generations it extends, directly or not (the deepest match wins).
    pub depth: u32,
    /// The ids of the generations it extends, nearest first.
    pub ancestors: &'static [&'static str],
    /// `detect:` a CPUID field that must be at least `.1`.
    pub cpuid: Option<(CpuidField, u32)>,
    /// `detect.family-at-least`.
    pub family_at_least: Option<u32>,
    /// `cpus:`: the CPU models of a model generation.
    pub cpus: &'static [CpuModel],
    /// What the CPUID fields with roles enumerate.
    pub enumeration: EnumerationSpec,
}
