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

mod batch;
mod control;
mod probe;
mod program;

pub use probe::{CounterProbe, Presence, Probe, ProbeFailure};

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
    /// A [`Schedule`](crate::schedule::Schedule) given to [`Pmu::program_all`] is for
    /// another generation, or uses a counter this `Pmu` does not have.
    WrongSchedule {
        /// The schedule's generation.
        generation: &'static str,
        /// The counter this `Pmu` lacks (`None`: the generation differs).
        counter: Option<Counter>,
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
            Error::WrongSchedule {
                generation,
                counter: None,
            } => write!(
                f,
                "the schedule is for {generation}, not for this PMU's generation"
            ),
            Error::WrongSchedule {
                counter: Some(c), ..
            } => write!(
                f,
                "the schedule uses {c}, which this PMU does not have (schedule on the counters CPUID reports: Target::detected)"
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
