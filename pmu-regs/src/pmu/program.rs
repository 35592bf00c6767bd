//! Programming counters: encoding events for a counter, writing the event select or the
//! fixed-counter control, and placing the auxiliary MSRs some events need.

use super::*;

impl<A: Arch, B: RawMsr> Pmu<A, B> {
    /// The event-select value [`Pmu::program`] would write, after the same checks.
    pub fn encode(
        &self,
        n: u32,
        event: &impl EventOf<A>,
        filter: Filter,
    ) -> Result<u64, Error<B::Error>> {
        self.encode_raw(n, &event.event_desc(), filter)
    }

    /// [`Pmu::encode`] of a hand-built [`EventDesc`] (not tied to a generation by its type).
    pub fn encode_raw(
        &self,
        n: u32,
        event: &EventDesc,
        filter: Filter,
    ) -> Result<u64, Error<B::Error>> {
        self.check(Counter::Gp(n))?;
        self.check_event(event)?;
        Ok(A::encode_select(n, event, filter)?)
    }

    /// Programs general-purpose counter `n` to count `event` with `filter`, zeroes it and
    /// enables it (EN in the event select, and its bit in the global control when the
    /// generation has one). Nothing is written when a check fails. Returns the event-select
    /// value written.
    ///
    /// An event with an auxiliary MSR (off-core response, load-latency threshold, front-end
    /// qualifier: [`EventDesc::msr`]) has it written first, after checking that the
    /// generation has that register and the value sets none of its reserved bits
    /// ([`Error::AuxMsrRefused`]). The `Pmu` remembers which counter holds which auxiliary
    /// MSR: an event needing a register another counter holds with another value takes its
    /// alternative encoding (Intel's second off-core response register, event BBH) when that
    /// one is free, and is refused ([`Error::AuxMsrBusy`]) when none is; disabling or
    /// reprogramming the holder frees it.
    ///
    /// `event` is an event of this generation or of one it extends ([`EventOf`]); a
    /// hand-built [`EventDesc`] goes through [`Pmu::program_raw`].
    pub fn program(
        &mut self,
        n: u32,
        event: &impl EventOf<A>,
        filter: Filter,
    ) -> Result<u64, Error<B::Error>> {
        self.program_raw(n, &event.event_desc(), filter)
    }

    /// [`Pmu::program`] of a hand-built [`EventDesc`] (an event looked up at run time, or
    /// written by hand): the same checks, but nothing in its type ties it to this generation.
    pub fn program_raw(
        &mut self,
        n: u32,
        event: &EventDesc,
        filter: Filter,
    ) -> Result<u64, Error<B::Error>> {
        let event = self.choose_aux(n, event)?;
        let sel = self.encode_raw(n, &event, filter)?;
        let select = A::gp_select(n).ok_or(Error::NoSuchCounter {
            counter: Counter::Gp(n),
            available: self.counters.gp,
        })?;
        // Stop the counter globally while it is reprogrammed, then start it.
        self.set_global(Counter::Gp(n), false)?;
        self.aux[n as usize] = None;
        if let Some(m) = event.msr {
            self.msr_write(m.index, m.value)?;
            self.aux[n as usize] = Some((m.index, m.value));
        }
        self.msr_write(select, sel)?;
        self.write_counter(Counter::Gp(n), 0)?;
        self.set_global(Counter::Gp(n), true)?;
        self.active_gp |= 1 << n;
        Ok(sel)
    }

    /// Programs fixed counter `n` to count at `mode`'s privilege levels (PMI on overflow when
    /// `pmi`), zeroes it and enables it in the global control.
    pub fn program_fixed(
        &mut self,
        n: u32,
        mode: FixedMode,
        pmi: bool,
    ) -> Result<(), Error<B::Error>> {
        self.check(Counter::Fixed(n))?;
        let Some(ctrl) = A::fixed_ctrl() else {
            return Self::unsupported("fixed-counter control");
        };
        let old = self.msr_read(ctrl)?;
        let new = A::fixed_ctrl_with(old, n, Some(mode), pmi)?;
        self.set_global(Counter::Fixed(n), false)?;
        self.msr_write(ctrl, new)?;
        self.write_counter(Counter::Fixed(n), 0)?;
        self.set_global(Counter::Fixed(n), true)?;
        self.active_fixed |= 1 << n;
        Ok(())
    }

    /// Programs the fixed counter that counts `event` (its `fixed` counter). Returns which.
    pub fn program_fixed_event(
        &mut self,
        event: &impl EventOf<A>,
        mode: FixedMode,
        pmi: bool,
    ) -> Result<u32, Error<B::Error>> {
        self.program_fixed_event_raw(&event.event_desc(), mode, pmi)
    }

    /// [`Pmu::program_fixed_event`] of a hand-built [`EventDesc`].
    pub fn program_fixed_event_raw(
        &mut self,
        ev: &EventDesc,
        mode: FixedMode,
        pmi: bool,
    ) -> Result<u32, Error<B::Error>> {
        let Some(n) = ev.fixed else {
            return Self::unsupported("fixed counter for this event");
        };
        self.program_fixed(n as u32, mode, pmi)?;
        Ok(n as u32)
    }

    /// Programs and enables every fixed counter CPUID reports, with one write to the control
    /// and one to the global control. Returns the counters enabled.
    pub fn enable_fixed_counters(
        &mut self,
        mode: FixedMode,
        pmi: bool,
    ) -> Result<u32, Error<B::Error>> {
        let Some(ctrl) = A::fixed_ctrl() else {
            return Self::unsupported("fixed-function counters");
        };
        let mask = self.counters.fixed;
        let mut bits = self.msr_read(ctrl)?;
        for n in 0..32 {
            if mask & (1 << n) != 0 {
                bits = A::fixed_ctrl_with(bits, n, Some(mode), pmi)?;
            }
        }
        let global = A::global_ctrl();
        let mut g_off = 0;
        if let Some(g) = global {
            let g_old = self.msr_read(g)?;
            g_off = g_old;
            for n in 0..32 {
                if mask & (1 << n) != 0 {
                    g_off = A::global_ctrl_with(g_off, Counter::Fixed(n), false)?;
                }
            }
            if g_off != g_old {
                self.msr_write(g, g_off)?;
            }
        }
        self.msr_write(ctrl, bits)?;
        for n in 0..32 {
            if mask & (1 << n) != 0 {
                self.write_counter(Counter::Fixed(n), 0)?;
            }
        }
        if let Some(g) = global {
            let mut g_on = g_off;
            for n in 0..32 {
                if mask & (1 << n) != 0 {
                    g_on = A::global_ctrl_with(g_on, Counter::Fixed(n), true)?;
                }
            }
            self.msr_write(g, g_on)?;
        }
        self.active_fixed |= mask;
        Ok(mask)
    }

    /// The encoding of `event` to program on counter `n`, its `msr` the auxiliary MSR write it
    /// needs: the primary encoding, or the first alternative (Intel's second off-core response
    /// register) whose auxiliary MSR is free or already holds the value. Refuses an auxiliary
    /// MSR the generation lacks or a value that sets its reserved bits.
    pub(super) fn choose_aux(
        &self,
        n: u32,
        event: &EventDesc,
    ) -> Result<EventDesc, Error<B::Error>> {
        let Some(m) = event.msr else {
            return Ok(*event);
        };
        let primary = (event.event, event.umask, m.index);
        let (address, held_by, held) = match self.try_encoding(n, event, primary)? {
            Ok(chosen) => return Ok(chosen),
            Err(busy) => busy,
        };
        for alt in event.alternatives {
            if let Some(index) = alt.msr_index
                && let Ok(chosen) = self.try_encoding(n, event, (alt.event, alt.umask, index))?
            {
                return Ok(chosen);
            }
        }
        Err(Error::AuxMsrBusy {
            address,
            held_by: Counter::Gp(held_by),
            held,
            wanted: m.value,
        })
    }

    /// `event` re-encoded as `(code, umask)` with its auxiliary value at `address`, when
    /// counter `n` may use that MSR; else `Err` of the hold on it ([`Pmu::aux_holder`]).
    /// Fails when the generation would refuse the value.
    pub(super) fn try_encoding(
        &self,
        n: u32,
        event: &EventDesc,
        (code, umask, address): (u16, u8, u32),
    ) -> Result<Result<EventDesc, AuxHold>, Error<B::Error>> {
        let value = event.msr.map_or(0, |m| m.value);
        self.check_aux(event.name, address, value)?;
        if let Some(held) = self.aux_holder(n, address, value) {
            return Ok(Err(held));
        }
        let mut chosen = *event;
        (chosen.event, chosen.umask) = (code, umask);
        chosen.msr = Some(crate::EventMsr {
            index: address,
            value,
        });
        Ok(Ok(chosen))
    }

    /// Refuses `value` for the auxiliary MSR at `address` unless the generation has a
    /// writable register there whose reserved bits it leaves clear.
    pub(super) fn check_aux(
        &self,
        event: &'static str,
        address: u32,
        value: u64,
    ) -> Result<(), Error<B::Error>> {
        let reg = A::registers()
            .iter()
            .find(|r| r.access.writable() && r.index_of(address).is_some());
        match reg {
            Some(r) if value & r.reserved_mask == 0 => Ok(()),
            found => Err(Error::AuxMsrRefused {
                event,
                address,
                value,
                reserved: found.map_or(0, |r| value & r.reserved_mask),
            }),
        }
    }

    /// `(address, counter, value)` of another counter's hold on the auxiliary MSR at
    /// `address` with a value other than `bits`; `None` when counter `n` may use it.
    pub(super) fn aux_holder(&self, n: u32, address: u32, bits: u64) -> Option<AuxHold> {
        (0u32..)
            .zip(&self.aux)
            .filter(|&(c, _)| c != n)
            .find_map(|(c, hold)| match *hold {
                Some((a, held)) if a == address && held != bits => Some((address, c, held)),
                _ => None,
            })
    }
}
