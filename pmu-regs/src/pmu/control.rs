//! Running and reading counters: disable, read and write counts, freeze and unfreeze, and the
//! global overflow status.

use super::*;

impl<A: Arch, B: RawMsr> Pmu<A, B> {
    /// Stops `counter`: clears its global enable and its EN (general-purpose) or its control
    /// block (fixed).
    pub fn disable(&mut self, counter: Counter) -> Result<(), Error<B::Error>> {
        self.check(counter)?;
        self.set_global(counter, false)?;
        match counter {
            Counter::Gp(n) => {
                let select = A::gp_select(n).ok_or(Error::NoSuchCounter {
                    counter,
                    available: self.counters.gp,
                })?;
                let old = self.msr_read(select)?;
                let new = A::select_with_enable(old, false);
                if new != old {
                    self.msr_write(select, new)?;
                }
                self.active_gp &= !(1 << n);
                self.aux[n as usize] = None;
            }
            Counter::Fixed(n) => {
                let Some(ctrl) = A::fixed_ctrl() else {
                    return Self::unsupported("fixed-counter control");
                };
                let old = self.msr_read(ctrl)?;
                let new = A::fixed_ctrl_with(old, n, None, false)?;
                if new != old {
                    self.msr_write(ctrl, new)?;
                }
                self.active_fixed &= !(1 << n);
            }
        }
        Ok(())
    }

    /// Reads a counter (masked to its width).
    pub fn read(&mut self, counter: Counter) -> Result<u64, Error<B::Error>> {
        self.check(counter)?;
        let addr = match counter {
            Counter::Gp(n) => A::gp_counter(n),
            Counter::Fixed(n) => A::fixed_counter(n),
        }
        .ok_or(Error::NoSuchCounter {
            counter,
            available: 0,
        })?;
        let v = self.msr_read(addr)?;
        Ok(v & width_mask(self.width(counter)))
    }

    /// Reads general-purpose counter `n`.
    pub fn read_pmc(&mut self, n: u32) -> Result<u64, Error<B::Error>> {
        self.read(Counter::Gp(n))
    }

    /// Reads fixed counter `n`.
    pub fn read_fixed(&mut self, n: u32) -> Result<u64, Error<B::Error>> {
        self.read(Counter::Fixed(n))
    }

    /// Sets a counter's value (to preload it, e.g. with `2^width - period` for sampling).
    /// Intel general-purpose counters go through IA32_A_PMCx when full-width writes are
    /// available; otherwise only values that are the sign extension of their bits 31:0 can be
    /// written.
    pub fn write_counter(&mut self, counter: Counter, value: u64) -> Result<(), Error<B::Error>> {
        self.check(counter)?;
        let width = self.width(counter);
        if width == 0 || value & !width_mask(width) != 0 {
            return Err(Error::TooWide {
                counter,
                width,
                value,
            });
        }
        let addr = match counter {
            Counter::Gp(n) => {
                if A::GP_WRITE_SIGN_EXTENDS && self.full_width_writes {
                    A::gp_counter_full_width(n)
                } else {
                    if A::GP_WRITE_SIGN_EXTENDS {
                        let sext = (value as u32 as i32 as i64 as u64) & width_mask(width);
                        if sext != value {
                            return Err(Error::NeedsFullWidthWrite { counter, value });
                        }
                    }
                    A::gp_counter(n)
                }
            }
            Counter::Fixed(n) => A::fixed_counter(n),
        }
        .ok_or(Error::NoSuchCounter {
            counter,
            available: 0,
        })?;
        self.msr_write(addr, value)
    }

    /// Stops every counter at once. With a global control: saves it and clears every enable
    /// (reserved bits written back as read). Without (version 1, AMD before PerfMonV2): clears
    /// EN in each enabled event select. Freezing a frozen PMU does nothing.
    pub fn freeze(&mut self) -> Result<(), Error<B::Error>> {
        if self.saved.is_some() {
            return Ok(());
        }
        if let Some(g) = A::global_ctrl() {
            let old = self.msr_read(g)?;
            self.msr_write(g, old & A::global_ctrl_reserved())?;
            self.saved = Some(Saved::GlobalCtrl(old));
        } else {
            let mut stopped = 0;
            for n in 0..32 {
                if !self.counters.has_gp(n) {
                    continue;
                }
                let Some(select) = A::gp_select(n) else {
                    continue;
                };
                let old = self.msr_read(select)?;
                if A::select_state(old).enabled {
                    self.msr_write(select, A::select_with_enable(old, false))?;
                    stopped |= 1 << n;
                }
            }
            self.saved = Some(Saved::Selects(stopped));
        }
        Ok(())
    }

    /// Restarts counting: restores what [`Pmu::freeze`] saved or, after a freeze on PMI
    /// (IA32_DEBUGCTL.Freeze_PerfMon_On_PMI), re-enables the counters this object enabled
    /// (version 2-3 hardware clears the global control) and clears CTR_FRZ (version 4 and
    /// later).
    pub fn unfreeze(&mut self) -> Result<(), Error<B::Error>> {
        match self.saved.take() {
            Some(Saved::GlobalCtrl(old)) => {
                if let Some(g) = A::global_ctrl() {
                    self.msr_write(g, old)?;
                }
            }
            Some(Saved::Selects(mask)) => {
                for n in 0..32 {
                    if mask & (1 << n) == 0 {
                        continue;
                    }
                    if let Some(select) = A::gp_select(n) {
                        let old = self.msr_read(select)?;
                        self.msr_write(select, A::select_with_enable(old, true))?;
                    }
                }
            }
            None => {
                if let Some(g) = A::global_ctrl() {
                    let old = self.msr_read(g)?;
                    let mut new = old;
                    for n in 0..32 {
                        if self.active_gp & (1 << n) != 0 {
                            new = A::global_ctrl_with(new, Counter::Gp(n), true)?;
                        }
                        if self.active_fixed & (1 << n) != 0 {
                            new = A::global_ctrl_with(new, Counter::Fixed(n), true)?;
                        }
                    }
                    if new != old {
                        self.msr_write(g, new)?;
                    }
                }
            }
        }
        if let (Some(status), Some(reset), Some(frz)) =
            (A::global_status(), A::status_reset(), A::ctr_frz_bit())
            && self.msr_read(status)? & frz != 0
        {
            let bits = A::status_reset_bits(0, 0, true)?;
            self.msr_write(reset, bits)?;
        }
        Ok(())
    }

    /// True between [`Pmu::freeze`] and [`Pmu::unfreeze`].
    pub fn is_frozen(&self) -> bool {
        self.saved.is_some()
    }

    /// Sets IA32_DEBUGCTL.Freeze_PerfMon_On_PMI: hardware stops the counters when a PMI is
    /// raised (version 2-3: by clearing IA32_PERF_GLOBAL_CTRL; version 4 and later: by setting
    /// IA32_PERF_GLOBAL_STATUS.CTR_FRZ). [`Pmu::unfreeze`] restarts them.
    pub fn set_freeze_on_pmi(&mut self, on: bool) -> Result<(), Error<B::Error>> {
        let Some(d) = A::debugctl() else {
            return Self::unsupported("debug-control register with a freeze-on-PMI bit");
        };
        let old = self.msr_read(d)?;
        let new = A::with_freeze_on_pmi(old, on);
        if new != old {
            self.msr_write(d, new)?;
        }
        Ok(())
    }

    /// Reads the overflow status, limited to the counters in use.
    pub fn status(&mut self) -> Result<Status, Error<B::Error>> {
        let Some(s) = A::global_status() else {
            return Self::unsupported("global overflow status");
        };
        let raw = self.msr_read(s)?;
        let mut st = A::status_decode(raw);
        st.gp &= self.counters.gp;
        st.fixed &= self.counters.fixed;
        Ok(st)
    }

    /// Clears the overflow bits (and CTR_FRZ) that `status` reports, through the
    /// write-1-to-clear register; other status bits are left alone.
    pub fn clear_overflow(&mut self, status: &Status) -> Result<(), Error<B::Error>> {
        let Some(reset) = A::status_reset() else {
            return Self::unsupported("overflow status reset");
        };
        let gp = status.gp & self.counters.gp;
        let fixed = status.fixed & self.counters.fixed;
        let frz = status.frozen && A::ctr_frz_bit().is_some();
        if gp == 0 && fixed == 0 && !frz {
            return Ok(());
        }
        let bits = A::status_reset_bits(gp, fixed, frz)?;
        self.msr_write(reset, bits)
    }

    /// Reads the status and clears what it reports. Returns what was cleared.
    pub fn take_overflow(&mut self) -> Result<Status, Error<B::Error>> {
        let st = self.status()?;
        self.clear_overflow(&st)?;
        Ok(st)
    }

    /// Sets overflow bits through the write-1-to-set register (version 4 and later, AMD
    /// PerfMonV2), e.g. to test a PMI handler.
    pub fn set_overflow(&mut self, gp: u32, fixed: u32) -> Result<(), Error<B::Error>> {
        let Some(set) = A::status_set() else {
            return Self::unsupported("overflow status set register");
        };
        for n in 0..32 {
            if gp & (1 << n) != 0 {
                self.check(Counter::Gp(n))?;
            }
            if fixed & (1 << n) != 0 {
                self.check(Counter::Fixed(n))?;
            }
        }
        let bits = A::status_set_bits(gp, fixed)?;
        self.msr_write(set, bits)
    }
}
