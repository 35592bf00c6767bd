//! Programming a whole [`Schedule`] at once, and releasing it.

use super::*;
use crate::schedule::Schedule;

impl<A: Arch, B: RawMsr> Pmu<A, B> {
    /// Programs every event of `schedule` (from [`crate::schedule::schedule`] or a group of
    /// [`crate::schedule::split`]) on the counter it assigns: the auxiliary MSRs first, each
    /// once, then each general-purpose counter's event select with `filter` (through
    /// [`Pmu::program_raw`], so with its checks), then each fixed counter at `filter`'s
    /// privilege levels (PMI on overflow when `filter.int`).
    ///
    /// Checked before anything is written: the schedule is for this generation and uses only
    /// counters this `Pmu` has ([`Error::WrongSchedule`]); each event encodes on its counter;
    /// each auxiliary value is one the generation's register takes
    /// ([`Error::AuxMsrRefused`]) and no counter outside the schedule holds that MSR with
    /// another value ([`Error::AuxMsrBusy`]). Counters the schedule names are reprogrammed
    /// whatever they counted.
    pub fn program_all(
        &mut self,
        schedule: &Schedule<'_>,
        filter: Filter,
    ) -> Result<(), Error<B::Error>> {
        let target = schedule.target();
        if target.generation.id() != A::ID {
            return Err(Error::WrongSchedule {
                generation: target.generation.id(),
                counter: None,
            });
        }
        let mode = match (filter.usr, filter.os) {
            (true, true) => FixedMode::All,
            (true, false) => FixedMode::Usr,
            (false, true) => FixedMode::Os,
            (false, false) => return Self::unsupported("counting at no privilege level"),
        };
        let (gp, _) = schedule.counters();
        for p in schedule.iter() {
            if self.check(p.counter).is_err() {
                return Err(Error::WrongSchedule {
                    generation: target.generation.id(),
                    counter: Some(p.counter),
                });
            }
            let Counter::Gp(n) = p.counter else { continue };
            self.check_event(&p.event)?;
            A::encode_select(n, &p.event, filter)?;
            if let Some(m) = p.event.msr {
                self.check_aux(p.event.name, m.index, m.value)?;
                let outside = (0u32..).zip(&self.aux).find_map(|(c, hold)| match *hold {
                    Some((a, v)) if gp & (1 << c) == 0 && a == m.index && v != m.value => {
                        Some((c, v))
                    }
                    _ => None,
                });
                if let Some((c, held)) = outside {
                    return Err(Error::AuxMsrBusy {
                        address: m.index,
                        held_by: Counter::Gp(c),
                        held,
                        wanted: m.value,
                    });
                }
            }
        }
        // The schedule's counters give up what they held; its auxiliary MSRs are written
        // first, each once.
        for (c, hold) in (0u32..).zip(self.aux.iter_mut()) {
            if gp & (1 << c) != 0 {
                *hold = None;
            }
        }
        let mut written: [Option<(u32, u64)>; 8] = [None; 8];
        for p in schedule.iter() {
            if let Some(m) = p.event.msr
                && !written.contains(&Some((m.index, m.value)))
            {
                self.msr_write(m.index, m.value)?;
                if let Some(slot) = written.iter_mut().find(|w| w.is_none()) {
                    *slot = Some((m.index, m.value));
                }
            }
        }
        for p in schedule.iter() {
            match p.counter {
                Counter::Gp(n) => {
                    self.program_raw(n, &p.event, filter)?;
                }
                Counter::Fixed(n) => self.program_fixed(n, mode, filter.int)?,
            }
        }
        Ok(())
    }

    /// Stops every counter of `schedule` ([`Pmu::disable`]), freeing the auxiliary MSRs its
    /// events held.
    pub fn release_all(&mut self, schedule: &Schedule<'_>) -> Result<(), Error<B::Error>> {
        for p in schedule.iter() {
            self.disable(p.counter)?;
        }
        Ok(())
    }
}
