//! Counter programming over any [`RawMsr`] backend.
//!
//! [`Pmu`] ties a generation ([`Arch`]), a backend and the counters CPUID reports
//! ([`CounterSet`], from [`crate::detect`]) together: program an event on a general-purpose
//! counter and enable it globally, program the fixed counters, read and preload counters,
//! freeze and unfreeze, read and clear overflow status.
//!
//! Every value written is computed by the generated typed API (`try_event_on`, the typed
//! setters of each register), so no call writes a reserved bit; read-modify-writes keep bits
//! they do not own as read. Input that is wrong at run time (a counter CPUID does not report,
//! an event CPUID.0AH:EBX marks unavailable, a value too wide for the counter, an event the
//! counter cannot take) returns an [`Error`] before anything is written; nothing panics.
//!
//! ```
//! # #[cfg(feature = "mock")] {
//! use pmu_regs::arch::{Counter, Filter, FixedMode, IntelV4};
//! use pmu_regs::detect::CounterSet;
//! use pmu_regs::intel::v4::ArchEvent;
//! use pmu_regs::backend::mock::{Mock, MockConfig};
//! use pmu_regs::pmu::Pmu;
//!
//! let mock = Mock::<IntelV4>::new(MockConfig::full::<IntelV4>(1));
//! let mut pmu = Pmu::<IntelV4, _>::with_counters(mock.cpu(0), CounterSet::full::<IntelV4>());
//! pmu.program(0, &ArchEvent::LlcMisses, Filter::ALL).unwrap();
//! pmu.program_fixed(1, FixedMode::All, false).unwrap();
//! mock.tick(0, Counter::Gp(0), 42).unwrap();
//! assert_eq!(pmu.read(Counter::Gp(0)).unwrap(), 42);
//! # }
//! ```

use crate::EventDesc;
use crate::access::RawMsr;
use crate::arch::{Arch, Counter, EncodeError, Filter, FixedMode, Generation, Status};
use crate::detect::{CounterSet, PmuInfo};
use crate::{FieldError, PlacementError};
use core::fmt;
use core::marker::PhantomData;

/// Something that describes an event: an [`EventDesc`], or a generated `ArchEvent` or model
/// `events::Event` (the generator implements it for every generation's events, so a generation
/// added by YAML alone needs no line here).
pub trait AsEvent {
    /// The event's encoding and placement.
    fn event_desc(&self) -> EventDesc;
}

/// The auxiliary MSR write `(address, value)` a general-purpose counter's event holds, by
/// counter (a counter mask is a `u32`, so there are at most 32).
type AuxHolds = [Option<(u32, u64)>; 32];

/// Another counter's hold on an auxiliary MSR: `(address, counter, value)`.
type AuxHold = (u32, u32, u64);

impl AsEvent for EventDesc {
    fn event_desc(&self) -> EventDesc {
        *self
    }
}

impl<S: AsEvent> AsEvent for crate::EventRef<S> {
    fn event_desc(&self) -> EventDesc {
        self.get()
    }
}

/// An events type whose events a [`Pmu`] of generation `A` counts: the `ArchEvent` of `A` and
/// of every generation `A` extends, and, when `A` is a CPU model, its `events::Event`. The
/// generator writes the impls from the definitions' `extends` chains, so a generation added by
/// YAML alone gets them too. [`Pmu::program`] takes only these: an Intel event on an AMD
/// `Pmu`, or one CPU model's event on another model, does not compile. A hand-built
/// [`EventDesc`] (nothing ties it to a vendor) goes through [`Pmu::program_raw`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an events type of the generation `{A}` counts",
    label = "not an event of `{A}` or of a generation it extends",
    note = "`Pmu<{A}, _>` takes the `ArchEvent` of its generation and of the generations it extends, and a CPU model's own `events::Event`; a hand-built `EventDesc` goes through `program_raw`"
)]
pub trait EventOf<A: Arch>: AsEvent {}

impl<A: Arch, S: EventOf<A>> EventOf<A> for crate::EventRef<S> {}

/// Why a [`Pmu`] operation failed. `E` is the backend's error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error<E> {
    /// The backend failed (a #GP on real hardware, a missing device, ...).
    Msr(E),
    /// The counter is not one CPUID reports (or not one the definitions have).
    NoSuchCounter {
        /// The counter asked for.
        counter: Counter,
        /// The counters of that kind that exist (bit n = counter n).
        available: u32,
    },
    /// CPUID.0AH:EBX marks the architectural event unavailable.
    EventUnavailable {
        /// Event name.
        event: &'static str,
        /// Its CPUID.0AH:EBX bit.
        cpuid_bit: u32,
    },
    /// The event needs a feature this CPU does not report.
    FeatureUnavailable {
        /// Event name.
        event: &'static str,
        /// The feature and the CPUID bit that says so.
        feature: &'static str,
    },
    /// The event cannot be encoded on this counter (placement or field constraint).
    Encode(EncodeError),
    /// A field update did not fit (should not happen for counters CPUID reports).
    Field(FieldError),
    /// The generation has no such facility.
    Unsupported {
        /// The generation.
        generation: &'static str,
        /// What is missing.
        what: &'static str,
    },
    /// The counter value is wider than the counter.
    TooWide {
        /// The counter.
        counter: Counter,
        /// Its width.
        width: u8,
        /// The value.
        value: u64,
    },
    /// The value needs IA32_A_PMCx (IA32_PERF_CAPABILITIES.FW_WRITE), which this CPU lacks:
    /// a plain IA32_PMCx write takes bits 31:0 and sign-extends bit 31.
    NeedsFullWidthWrite {
        /// The counter.
        counter: Counter,
        /// The value.
        value: u64,
    },
    /// The event needs an auxiliary MSR that another counter's event holds with another
    /// value (two off-core response events sharing `MSR_OFFCORE_RSP_0`, say): programming it
    /// would change what that counter counts.
    AuxMsrBusy {
        /// The auxiliary MSR.
        address: u32,
        /// A general-purpose counter whose event holds it.
        held_by: Counter,
        /// The value it holds.
        held: u64,
        /// The value this event needs.
        wanted: u64,
    },
    /// The event's auxiliary MSR is not a writable register of this generation, or its value
    /// sets a bit the register reserves (writing it would fault).
    AuxMsrRefused {
        /// Event name.
        event: &'static str,
        /// The auxiliary MSR.
        address: u32,
        /// The value the event gives it.
        value: u64,
        /// The register's reserved bits the value sets; 0 when the generation has no writable
        /// register at `address`.
        reserved: u64,
    },
    /// The detected CPU is not of this [`Pmu`]'s generation.
    WrongGeneration {
        /// The generation of the [`Pmu`].
        expected: &'static str,
        /// What detection found.
        found: Option<Generation>,
    },
}

impl<E> From<EncodeError> for Error<E> {
    fn from(e: EncodeError) -> Self {
        Error::Encode(e)
    }
}

impl<E> From<FieldError> for Error<E> {
    fn from(e: FieldError) -> Self {
        Error::Field(e)
    }
}

impl<E> From<PlacementError> for Error<E> {
    fn from(e: PlacementError) -> Self {
        Error::Encode(EncodeError::Placement(e))
    }
}

impl<E: fmt::Display> fmt::Display for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Msr(e) => write!(f, "MSR access failed: {e}"),
            Error::NoSuchCounter { counter, available } => {
                write!(f, "{counter} does not exist on this CPU (available: ")?;
                if *available == 0 {
                    f.write_str("none")?;
                } else {
                    let mut first = true;
                    for n in 0..32 {
                        if available & (1 << n) != 0 {
                            write!(f, "{}{n}", if first { "" } else { "," })?;
                            first = false;
                        }
                    }
                }
                f.write_str(")")
            }
            Error::EventUnavailable { event, cpuid_bit } => write!(
                f,
                "{event} is not available on this CPU (CPUID.0AH:EBX[{cpuid_bit}] is set or beyond the EBX length)"
            ),
            Error::FeatureUnavailable { event, feature } => {
                write!(f, "{event} needs {feature}, which this CPU does not report")
            }
            Error::Encode(e) => e.fmt(f),
            Error::Field(e) => e.fmt(f),
            Error::Unsupported { generation, what } => {
                write!(f, "{generation} has no {what}")
            }
            Error::TooWide {
                counter,
                width,
                value,
            } => write!(f, "{counter} is {width} bits wide; {value:#X} does not fit"),
            Error::NeedsFullWidthWrite { counter, value } => write!(
                f,
                "{value:#X} cannot be written to {counter}: a write to the counter register sign-extends bit 31, and the full-width counter registers are not available (the capabilities register does not enumerate full-width writes)"
            ),
            Error::AuxMsrBusy {
                address,
                held_by,
                held,
                wanted,
            } => write!(
                f,
                "MSR {address:#X} holds {held:#X} for the event on {held_by}; this event needs {wanted:#X} (program it on a counter of the other auxiliary register, or stop {held_by} first)"
            ),
            Error::AuxMsrRefused {
                event,
                address,
                value,
                reserved: 0,
            } => write!(
                f,
                "{event} needs MSR {address:#X} = {value:#X}, which is not a writable register of this generation"
            ),
            Error::AuxMsrRefused {
                event,
                address,
                value,
                reserved,
            } => write!(
                f,
                "{event} needs MSR {address:#X} = {value:#X}, which sets reserved bits {reserved:#X} of that register (the write would fault)"
            ),
            Error::WrongGeneration { expected, found } => match found {
                Some(g) => write!(f, "this CPU's PMU is {g}, not {expected}"),
                None => write!(
                    f,
                    "this CPU has no PMU the definitions describe (wanted {expected})"
                ),
            },
        }
    }
}

impl<E: fmt::Debug + fmt::Display> core::error::Error for Error<E> {}

/// How a frozen PMU gets restarted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Saved {
    /// The global control as it was.
    GlobalCtrl(u64),
    /// Event selects whose EN was cleared (generations without a global control).
    Selects(u32),
}

/// Counter programming for generation `A` through backend `B`. See the [module](self) docs.
#[derive(Debug)]
pub struct Pmu<A: Arch, B: RawMsr> {
    backend: B,
    counters: CounterSet,
    full_width_writes: bool,
    active_gp: u32,
    active_fixed: u32,
    saved: Option<Saved>,
    aux: AuxHolds,
    _arch: PhantomData<A>,
}

impl<A: Arch, B: RawMsr> Pmu<A, B> {
    /// A PMU for the CPU `info` describes: `A` is the detected generation or, where one is
    /// compiled in, the CPU's model generation. Fails when `info` found another generation. Reads
    /// IA32_PERF_CAPABILITIES (when CPUID.01H:ECX.PDCM says it exists) to learn whether
    /// full-width counter writes are available.
    pub fn new(backend: B, info: &PmuInfo) -> Result<Self, Error<B::Error>> {
        let is_a = |g: Option<Generation>| g.map(Generation::id) == Some(A::ID);
        if !is_a(info.generation) && !is_a(info.model) && info.id != Some(A::ID) {
            return Err(Error::WrongGeneration {
                expected: A::ID,
                found: info.generation,
            });
        }
        let mut pmu = Self::with_counters(backend, info.counters);
        if let (true, Some(caps)) = (info.perf_capabilities_msr, A::perf_capabilities()) {
            let bits = pmu.backend.read_raw(caps).map_err(Error::Msr)?;
            pmu.full_width_writes = A::caps_full_width_write(bits);
        }
        Ok(pmu)
    }

    /// A PMU using exactly `counters` (clamped to what generation `A` defines), without
    /// reading CPUID or any MSR. Full-width writes are off until
    /// [`Pmu::with_full_width_writes`].
    pub fn with_counters(backend: B, counters: CounterSet) -> Self {
        let mut counters = counters;
        counters.gp &= mask_of(A::GP_INSTANCES);
        counters.fixed &= mask_of(A::FIXED_INSTANCES);
        if counters.gp_width as u32 > A::GP_MODEL_WIDTH {
            counters.gp_width = A::GP_MODEL_WIDTH as u8;
        }
        if counters.fixed_width as u32 > A::FIXED_MODEL_WIDTH {
            counters.fixed_width = A::FIXED_MODEL_WIDTH as u8;
        }
        Pmu {
            backend,
            counters,
            full_width_writes: false,
            active_gp: 0,
            active_fixed: 0,
            saved: None,
            aux: [None; 32],
            _arch: PhantomData,
        }
    }

    /// Declares that IA32_PERF_CAPABILITIES.FW_WRITE is 1 (IA32_A_PMCx exist). Only say so
    /// when it is: writing IA32_A_PMCx on a CPU without them faults.
    pub fn with_full_width_writes(mut self, on: bool) -> Self {
        self.full_width_writes = on && A::gp_counter_full_width(0).is_some();
        self
    }

    /// The counters in use.
    pub fn counters(&self) -> &CounterSet {
        &self.counters
    }

    /// Whether counter preloads go through IA32_A_PMCx.
    pub fn full_width_writes(&self) -> bool {
        self.full_width_writes
    }

    /// The backend.
    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// The backend, mutably (typed access with [`crate::access::MsrExt`]).
    pub fn backend_mut(&mut self) -> &mut B {
        &mut self.backend
    }

    /// Gives the backend back.
    pub fn into_backend(self) -> B {
        self.backend
    }

    /// Counters this object has enabled and not disabled: general-purpose, fixed.
    pub fn active(&self) -> (u32, u32) {
        (self.active_gp, self.active_fixed)
    }

    fn msr_read(&mut self, address: u32) -> Result<u64, Error<B::Error>> {
        self.backend.read_raw(address).map_err(Error::Msr)
    }

    fn msr_write(&mut self, address: u32, value: u64) -> Result<(), Error<B::Error>> {
        self.backend.write_raw(address, value).map_err(Error::Msr)
    }

    fn unsupported<T>(what: &'static str) -> Result<T, Error<B::Error>> {
        Err(Error::Unsupported {
            generation: A::ID,
            what,
        })
    }

    fn check(&self, counter: Counter) -> Result<(), Error<B::Error>> {
        let (ok, available) = match counter {
            Counter::Gp(n) => (
                self.counters.has_gp(n) && A::gp_select(n).is_some() && A::gp_counter(n).is_some(),
                self.counters.gp,
            ),
            Counter::Fixed(n) => (
                self.counters.has_fixed(n) && A::fixed_counter(n).is_some(),
                self.counters.fixed,
            ),
        };
        if ok {
            Ok(())
        } else {
            Err(Error::NoSuchCounter { counter, available })
        }
    }

    /// Refuses events the CPU reports it does not have: architectural events CPUID.0AH:EBX
    /// marks unavailable (matched by encoding), UMASK2/EQ without CPUID.23H support, AnyThread
    /// where CPUID.0AH:EDX\[15\] deprecates it.
    fn check_event(&self, ev: &EventDesc) -> Result<(), Error<B::Error>> {
        for a in A::arch_events() {
            let d = &a.desc;
            let same = d.event == ev.event
                && d.umask == ev.umask
                && d.umask2 == ev.umask2
                && d.cmask == ev.cmask
                && d.inv == ev.inv
                && d.edge == ev.edge;
            if same
                && a.cpuid_bit < 32
                && self.counters.unavailable_events & (1 << a.cpuid_bit) != 0
            {
                return Err(Error::EventUnavailable {
                    event: ev.name,
                    cpuid_bit: a.cpuid_bit,
                });
            }
        }
        if ev.umask2 != 0 && !self.counters.umask2 {
            return Err(Error::FeatureUnavailable {
                event: ev.name,
                feature: "UMASK2 (CPUID.(EAX=23H,ECX=0):EBX[0])",
            });
        }
        if ev.eq && !self.counters.eq {
            return Err(Error::FeatureUnavailable {
                event: ev.name,
                feature: "EQ (CPUID.(EAX=23H,ECX=0):EBX[1])",
            });
        }
        if ev.any && self.counters.anythread_deprecated {
            return Err(Error::FeatureUnavailable {
                event: ev.name,
                feature: "AnyThread (deprecated: CPUID.0AH:EDX[15] = 1)",
            });
        }
        Ok(())
    }

    fn set_global(&mut self, counter: Counter, on: bool) -> Result<(), Error<B::Error>> {
        if let Some(g) = A::global_ctrl() {
            let old = self.msr_read(g)?;
            let new = A::global_ctrl_with(old, counter, on)?;
            if new != old {
                self.msr_write(g, new)?;
            }
        }
        Ok(())
    }

    fn width(&self, counter: Counter) -> u8 {
        match counter {
            Counter::Gp(_) => self.counters.gp_width,
            Counter::Fixed(_) => self.counters.fixed_width,
        }
    }

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
    fn choose_aux(&self, n: u32, event: &EventDesc) -> Result<EventDesc, Error<B::Error>> {
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
    fn try_encoding(
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
    fn check_aux(
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
    fn aux_holder(&self, n: u32, address: u32, bits: u64) -> Option<AuxHold> {
        (0u32..)
            .zip(&self.aux)
            .filter(|&(c, _)| c != n)
            .find_map(|(c, hold)| match *hold {
                Some((a, held)) if a == address && held != bits => Some((address, c, held)),
                _ => None,
            })
    }

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

const fn mask_of(count: u32) -> u32 {
    if count >= 32 {
        u32::MAX
    } else {
        (1u32 << count) - 1
    }
}

const fn width_mask(width: u8) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}
