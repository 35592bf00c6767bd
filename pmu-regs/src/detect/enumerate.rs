//! Enumerating the PMU of an identified CPU (counters, widths, events) from its CPUID leaves,
//! clamped to what the generation defines, and the report [`PmuInfo`]'s `Display` prints.

use super::*;

/// Reads the generation's enumeration fields and decides the usable counters.
pub(super) fn enumerate<S: CpuidSource + ?Sized>(
    rd: &mut Reader<'_, S>,
    info: &mut PmuInfo,
    a: &Facts,
) {
    let spec = a.enumeration;
    let mut read = |f: Option<CpuidField>| f.and_then(|f| rd.field(f, &spec));
    let e = Enumeration {
        condition: info.enumeration.condition,
        general_count: read(spec.general_count),
        general_width: read(spec.general_width),
        fixed_count: read(spec.fixed_count),
        fixed_width: read(spec.fixed_width),
        fixed_bitmap: read(spec.fixed_bitmap),
        general_present: read(spec.general_present),
        fixed_present: read(spec.fixed_present),
        events_length: read(spec.events_length),
        anythread_deprecated: read(spec.anythread_deprecated).map(|v| v != 0),
        umask2: read(spec.umask2_supported).map(|v| v != 0),
        eq: read(spec.eq_supported).map(|v| v != 0),
        subleaves: read(spec.subleaf_bitmap),
        events_leaf: spec
            .events_length
            .and_then(|f| rd.leaf(f.leaf, if f.has_subleaf { f.subleaf } else { 0 })),
    };
    // Counter masks: the authoritative bitmaps when enumerated (as Linux does), else the
    // counts (the definitions' count where CPUID has none), plus the supplementary fixed
    // bitmap ("FxCtr[i] is supported if ECX[i] || EDX[4:0] > i").
    let gp = e
        .general_present
        .unwrap_or_else(|| mask_of(e.general_count.unwrap_or(a.gp_instances)));
    let fixed = match e.fixed_present {
        Some(m) => m,
        None if spec.fixed_count.is_none() => mask_of(a.fixed_instances),
        None => e.fixed_bitmap.unwrap_or(0) | mask_of(e.fixed_count.unwrap_or(0)),
    };
    if let Some(n) = e.fixed_count
        && n < a.fixed_instances
        && spec.fixed_bitmap.is_none()
    {
        info.note(Note::FewFixedCounters { reported: n as u8 });
    }
    let clamp = Clamp {
        gp,
        gp_width: e.general_width.unwrap_or(a.gp_model_width) as u8,
        fixed,
        fixed_width: e.fixed_width.unwrap_or(a.fixed_model_width) as u8,
        notes: info,
    };
    let mut counters = clamp.to(a);
    counters.unavailable_events = match e.events_leaf {
        Some(r) => unavailable(a, r.eax, r.ebx),
        None => 0,
    };
    counters.anythread_deprecated = e.anythread_deprecated.unwrap_or(false);
    counters.umask2 = e.umask2.unwrap_or(false);
    counters.eq = e.eq.unwrap_or(false);
    info.counters = counters;
    info.enumeration = e;
}

/// Clamps reported counters to the generation's register families, noting what is dropped.
pub(super) struct Clamp<'a> {
    pub(super) gp: u32,
    pub(super) gp_width: u8,
    pub(super) fixed: u32,
    pub(super) fixed_width: u8,
    pub(super) notes: &'a mut PmuInfo,
}

impl Clamp<'_> {
    /// The counters of `a`'s register families, with a note for each one dropped.
    pub(super) fn to(self, a: &Facts) -> CounterSet {
        let gp_defined = mask_of(a.gp_instances);
        let fixed_defined = mask_of(a.fixed_instances);
        if self.gp & !gp_defined != 0 {
            self.notes.note(Note::MoreCountersThanDefined {
                fixed: false,
                reported: self.gp,
                defined: a.gp_instances,
            });
        }
        if self.fixed & !fixed_defined != 0 {
            self.notes.note(Note::MoreCountersThanDefined {
                fixed: true,
                reported: self.fixed,
                defined: a.fixed_instances,
            });
        }
        let mut gp_width = self.gp_width;
        if gp_width as u32 > a.gp_model_width {
            self.notes.note(Note::WiderThanDefined {
                fixed: false,
                reported: gp_width,
                defined: a.gp_model_width,
            });
            gp_width = a.gp_model_width as u8;
        }
        let mut fixed_width = self.fixed_width;
        let fixed = self.fixed & fixed_defined;
        if fixed_width as u32 > a.fixed_model_width && fixed != 0 {
            self.notes.note(Note::WiderThanDefined {
                fixed: true,
                reported: fixed_width,
                defined: a.fixed_model_width,
            });
            fixed_width = a.fixed_model_width as u8;
        }
        CounterSet {
            gp: self.gp & gp_defined,
            gp_width,
            fixed,
            fixed_width: if fixed == 0 { 0 } else { fixed_width },
            ..CounterSet::default()
        }
    }
}

/// Which of the generation's architectural events CPUID.0AH marks unavailable (through the
/// generated `ArchEvent::is_available`, which applies the EBX length).
pub(super) fn unavailable(a: &Facts, eax: u32, ebx: u32) -> u32 {
    let mut mask = 0;
    for (i, e) in a.arch_events.iter().enumerate() {
        if !(a.arch_event_available)(i, eax, ebx) && e.cpuid_bit < 32 {
            mask |= 1 << e.cpuid_bit;
        }
    }
    mask
}

/// A counter bitmap as a list of numbers and ranges, `0-3` or `0,2,5-6`; `none` when empty.
pub(crate) fn write_mask(f: &mut fmt::Formatter<'_>, mask: u32) -> fmt::Result {
    let mut first = true;
    let mut n = 0;
    while n < 32 {
        if mask & (1 << n) != 0 {
            let start = n;
            while n + 1 < 32 && mask & (1 << (n + 1)) != 0 {
                n += 1;
            }
            if !first {
                f.write_str(",")?;
            }
            first = false;
            if start == n {
                write!(f, "{start}")?;
            } else {
                write!(f, "{start}-{n}")?;
            }
        }
        n += 1;
    }
    if first {
        f.write_str("none")?;
    }
    Ok(())
}

pub(super) struct Mask(u32);
impl fmt::Display for Mask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_mask(f, self.0)
    }
}

/// Lists the generation's registers and architectural events in the report.
pub(super) fn report(info: &PmuInfo, f: &mut fmt::Formatter<'_>, a: &Facts) -> fmt::Result {
    let c = &info.counters;
    let gp_reg = a.register_name(crate::arch::Role::Counter);
    writeln!(
        f,
        "  general-purpose counters: {} x {} bits ({gp_reg} {})",
        c.gp.count_ones(),
        c.gp_width,
        Mask(c.gp)
    )?;
    if a.fixed_instances > 0 {
        let fixed_reg = a.register_name(crate::arch::Role::FixedCounter);
        writeln!(
            f,
            "  fixed counters:           {} x {} bits ({fixed_reg} {})",
            c.fixed.count_ones(),
            c.fixed_width,
            Mask(c.fixed)
        )?;
    }
    let e = &info.enumeration;
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    if let Some(d) = e.anythread_deprecated {
        writeln!(
            f,
            "  AnyThread:                {}",
            if d { "deprecated" } else { "supported" }
        )?;
    }
    if let Some(sub) = e.subleaves {
        writeln!(
            f,
            "  extended leaf:            subleaves {sub:#x}, UMASK2 {}, EQ {}",
            yes_no(e.umask2.unwrap_or(false)),
            yes_no(e.eq.unwrap_or(false))
        )?;
    }
    if a.has_perf_capabilities {
        let caps = a.register_name(crate::arch::Role::Capabilities);
        writeln!(
            f,
            "  {caps}: {}",
            if info.perf_capabilities_msr {
                "present (CPUID.01H:ECX.PDCM)"
            } else {
                "absent"
            }
        )?;
    }
    if !a.arch_events.is_empty() {
        writeln!(
            f,
            "  architectural events (vector length {}):",
            info.enumeration.events_length.unwrap_or(0)
        )?;
        for e in a.arch_events {
            let avail = e.cpuid_bit >= 32 || c.unavailable_events & (1 << e.cpuid_bit) == 0;
            write!(
                f,
                "    {} {:<28} event {:#04x} umask {:#04x}",
                if avail { "available  " } else { "unavailable" },
                e.name,
                e.desc.event,
                e.desc.umask
            )?;
            if let Some(n) = e.desc.fixed.filter(|&n| c.has_fixed(n as u32)) {
                write!(f, " (also fixed counter {n})")?;
            }
            writeln!(f)?;
        }
    }
    Ok(())
}

impl fmt::Display for PmuInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "CPU: {} family {:#x} model {:#x} stepping {}",
            self.vendor,
            self.family(),
            self.model(),
            self.stepping()
        )?;
        if let (Some(g), Some(v)) = (self.generation, self.enumeration.condition) {
            let name = spec_of(g).cpuid.map_or("?", |(field, _)| field.name);
            writeln!(f, "CPUID {name}: {v}")?;
        }
        match self.generation {
            Some(g) => {
                writeln!(f, "PMU generation: {g} ({})", g.module())?;
                if let Some(m) = self.model {
                    writeln!(f, "CPU model generation: {m} ({})", m.module())?;
                }
                report(self, f, &Facts::of_generation(g))?;
            }
            None => writeln!(f, "PMU generation: none")?,
        }
        for n in self.notes() {
            writeln!(f, "note: {n}")?;
        }
        Ok(())
    }
}
