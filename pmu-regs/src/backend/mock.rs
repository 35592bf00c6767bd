//! A simulated PMU that behaves like the hardware, for tests (feature `mock`).
//!
//! A [`Mock<A>`] knows the registers of generation `A` from [`Arch::registers`] (addresses,
//! reserved bits and access, all read from the generated modules), and those of the
//! facilities it is configured with ([`MockConfig::with_facilities`], from
//! [`Facility::registers`](crate::arch::Facility::registers)), and keeps their state per CPU.
//! Like a processor, it
//!
//! - faults ([`MockFault`], the mock's #GP) on an MSR it does not have, including counters
//!   beyond the configured count and IA32_A_PMCx without FW_WRITE; on writing a read-only
//!   register; on writing a reserved bit or a counter bit above the counter width; on reading
//!   a write-only register;
//! - applies write-1-to-clear (IA32_PERF_GLOBAL_OVF_CTRL / IA32_PERF_GLOBAL_STATUS_RESET, AMD
//!   PerfCntrGlobalStatusClr) and write-1-to-set (IA32_PERF_GLOBAL_STATUS_SET, AMD
//!   PerfCntrGlobalStatusSet) to the status register;
//! - sign-extends bit 31 on plain IA32_PMCx writes (SDM "Full-Width Writes to Performance
//!   Counter Registers"), aliases IA32_A_PMCx to IA32_PMCx and AMD's legacy PerfEvtSel0-3 /
//!   PerfCtr0-3 to the first four core counters;
//! - answers a register's alias addresses (`alias-msr:`, perfmon v6's second counter range)
//!   as the register itself ([`RegInfo::alias_addresses`](crate::arch::RegInfo));
//! - computes IA32_PERF_GLOBAL_INUSE from the event selects and the fixed-counter control;
//! - counts: [`Mock::tick`] adds events to a counter when it is enabled (EN and the privilege
//!   filter, or the fixed counter's ENABLE field; its IA32_PERF_GLOBAL_CTRL bit; not frozen),
//!   wraps at the counter width, sets the overflow status bit, raises a PMI when INT/PMI is set,
//!   and applies Freeze_PerfMon_On_PMI (version 2-3: clears the global control; version 4 and
//!   later: sets CTR_FRZ).
//!
//! A counter can be made inert ([`MockConfig::with_inert_counters`]): it reads 0 and drops
//! writes, as in the guest of a hypervisor that stubs the counter MSRs.
//!
//! Stricter than hardware in one place: a plain IA32_PMCx write with bits above the counter
//! width faults, where the processor ignores EDX.
//!
//! Every fault is also recorded ([`Mock::faults`]), so a test can assert that a sequence of
//! calls never provoked one.

use crate::access::RawMsr;
use crate::arch::{Arch, Counter, FixedMode, RegInfo, Ring, Role};
use crate::detect::{CounterSet, Facilities, PmuInfo};
use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::fmt;
use core::marker::PhantomData;

/// What the simulated processor looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MockConfig {
    /// Logical processors.
    pub cpus: usize,
    /// Counters that exist and their widths (the rest fault like unimplemented MSRs).
    pub counters: CounterSet,
    /// IA32_PERF_CAPABILITIES.FW_WRITE: IA32_A_PMCx exist (Intel).
    pub full_width_writes: bool,
    /// Facilities whose registers exist (AMD IBS, RAPL, ...; see
    /// [`detect::facilities`](crate::detect::facilities)); their MSRs fault without.
    pub facilities: Facilities,
    /// Counters that exist but do not count, as some hypervisors offer them: they read 0 and
    /// drop writes, without a fault (bit n = general-purpose counter n).
    pub inert_gp: u32,
    /// The same for fixed counters (bit n = fixed counter n).
    pub inert_fixed: u32,
}

impl MockConfig {
    /// Every counter generation `A` defines, at the defined widths.
    pub fn full<A: Arch>(cpus: usize) -> Self {
        MockConfig {
            cpus,
            counters: CounterSet::full::<A>(),
            full_width_writes: false,
            facilities: Facilities::default(),
            inert_gp: 0,
            inert_fixed: 0,
        }
    }

    /// The counters detection found on a CPU.
    pub fn from_info(info: &PmuInfo, cpus: usize) -> Self {
        MockConfig {
            cpus,
            counters: info.counters,
            full_width_writes: false,
            facilities: Facilities::default(),
            inert_gp: 0,
            inert_fixed: 0,
        }
    }

    /// With these counters inert (see [`MockConfig::inert_gp`]): the guest of a hypervisor
    /// that stubs the counter MSRs instead of faulting.
    pub fn with_inert_counters(mut self, gp: u32, fixed: u32) -> Self {
        self.inert_gp = gp;
        self.inert_fixed = fixed;
        self
    }

    /// Whether `counter` is inert.
    fn inert(&self, counter: Option<Counter>) -> bool {
        match counter {
            Some(Counter::Gp(n)) => n < 32 && self.inert_gp & (1 << n) != 0,
            Some(Counter::Fixed(n)) => n < 32 && self.inert_fixed & (1 << n) != 0,
            None => false,
        }
    }

    /// With IA32_PERF_CAPABILITIES.FW_WRITE set.
    pub fn with_full_width_writes(mut self, on: bool) -> Self {
        self.full_width_writes = on;
        self
    }

    /// With the registers of these facilities, as [`detect::facilities`] finds them on a CPU
    /// (a facility's registers are there only with its Cargo feature, see
    /// [`Facility::registers`](crate::arch::Facility::registers)).
    ///
    /// [`detect::facilities`]: crate::detect::facilities
    pub fn with_facilities(mut self, facilities: Facilities) -> Self {
        self.facilities = facilities;
        self
    }
}

/// A fault of the simulated processor (where hardware raises #GP), or a bad simulation
/// request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MockFault {
    /// No such CPU.
    NoSuchCpu {
        /// CPU number.
        cpu: usize,
    },
    /// The MSR does not exist on the simulated processor.
    UnknownMsr {
        /// CPU number.
        cpu: usize,
        /// MSR address.
        address: u32,
        /// Write (`true`) or read.
        write: bool,
    },
    /// A write set reserved bits (or counter bits above the counter width).
    ReservedBits {
        /// CPU number.
        cpu: usize,
        /// MSR address.
        address: u32,
        /// Register name.
        register: &'static str,
        /// The offending bits.
        bits: u64,
    },
    /// A write to a read-only register.
    ReadOnly {
        /// CPU number.
        cpu: usize,
        /// MSR address.
        address: u32,
        /// Register name.
        register: &'static str,
    },
    /// A read of a write-only register.
    WriteOnly {
        /// CPU number.
        cpu: usize,
        /// MSR address.
        address: u32,
        /// Register name.
        register: &'static str,
    },
    /// [`Mock::tick`] on a counter the configuration does not have.
    NoSuchCounter {
        /// CPU number.
        cpu: usize,
        /// The counter.
        counter: Counter,
    },
}

impl fmt::Display for MockFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MockFault::NoSuchCpu { cpu } => write!(f, "no CPU {cpu} in the mock"),
            MockFault::UnknownMsr {
                cpu,
                address,
                write,
            } => write!(
                f,
                "#GP on CPU {cpu}: {} MSR {address:#x}, which this processor does not implement",
                if write { "wrmsr to" } else { "rdmsr from" }
            ),
            MockFault::ReservedBits {
                cpu,
                address,
                register,
                bits,
            } => write!(
                f,
                "#GP on CPU {cpu}: wrmsr to {register} ({address:#x}) sets reserved bits {bits:#x}"
            ),
            MockFault::ReadOnly {
                cpu,
                address,
                register,
            } => write!(
                f,
                "#GP on CPU {cpu}: wrmsr to read-only {register} ({address:#x})"
            ),
            MockFault::WriteOnly {
                cpu,
                address,
                register,
            } => write!(
                f,
                "#GP on CPU {cpu}: rdmsr from write-only {register} ({address:#x})"
            ),
            MockFault::NoSuchCounter { cpu, counter } => {
                write!(f, "CPU {cpu} of the mock has no {counter}")
            }
        }
    }
}

impl core::error::Error for MockFault {}

/// What one [`Mock::tick`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Tick {
    /// The counter was enabled and counted.
    pub counted: bool,
    /// It wrapped past its width.
    pub overflowed: bool,
    /// A PMI was raised.
    pub pmi: bool,
}

#[derive(Debug, Default)]
struct CpuState {
    regs: BTreeMap<u32, u64>,
    pmis: u64,
}

#[derive(Debug)]
struct State {
    cfg: MockConfig,
    cpus: Vec<CpuState>,
    faults: Vec<MockFault>,
    writes: u64,
}

/// A simulated PMU of generation `A`. Cheap to clone (shared state); hand out per-CPU
/// backends with [`Mock::cpu`].
pub struct Mock<A: Arch> {
    state: Rc<RefCell<State>>,
    _arch: PhantomData<A>,
}

impl<A: Arch> Clone for Mock<A> {
    fn clone(&self) -> Self {
        Mock {
            state: Rc::clone(&self.state),
            _arch: PhantomData,
        }
    }
}

impl<A: Arch> fmt::Debug for Mock<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mock")
            .field("generation", &A::ID)
            .field("state", &self.state.borrow())
            .finish()
    }
}

/// One CPU of a [`Mock`]: a [`RawMsr`] backend.
pub struct MockCpu<A: Arch> {
    state: Rc<RefCell<State>>,
    cpu: usize,
    _arch: PhantomData<A>,
}

impl<A: Arch> Clone for MockCpu<A> {
    fn clone(&self) -> Self {
        MockCpu {
            state: Rc::clone(&self.state),
            cpu: self.cpu,
            _arch: PhantomData,
        }
    }
}

impl<A: Arch> fmt::Debug for MockCpu<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MockCpu")
            .field("generation", &A::ID)
            .field("cpu", &self.cpu)
            .finish()
    }
}

const fn width_mask(width: u8) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// A register instance the mock has: its family, index and where its state lives.
#[derive(Clone, Copy)]
struct Found {
    reg: RegInfo,
    storage: u32,
    counter: Option<Counter>,
}

impl<A: Arch> Mock<A> {
    /// A mock with every register at zero.
    pub fn new(cfg: MockConfig) -> Self {
        let mut cfg = cfg;
        cfg.counters = clamp::<A>(cfg.counters);
        cfg.full_width_writes &= A::caps_full_width_write_bit().is_some();
        let cpus = (0..cfg.cpus).map(|_| CpuState::default()).collect();
        Mock {
            state: Rc::new(RefCell::new(State {
                cfg,
                cpus,
                faults: Vec::new(),
                writes: 0,
            })),
            _arch: PhantomData,
        }
    }

    /// The backend for CPU `cpu` (accesses fault with [`MockFault::NoSuchCpu`] when it does
    /// not exist).
    pub fn cpu(&self, cpu: usize) -> MockCpu<A> {
        MockCpu {
            state: Rc::clone(&self.state),
            cpu,
            _arch: PhantomData,
        }
    }

    /// The configuration in effect.
    pub fn config(&self) -> MockConfig {
        self.state.borrow().cfg
    }

    /// Every fault raised so far, in order.
    pub fn faults(&self) -> Vec<MockFault> {
        self.state.borrow().faults.clone()
    }

    /// Successful MSR writes so far.
    pub fn writes(&self) -> u64 {
        self.state.borrow().writes
    }

    /// PMIs raised on `cpu` so far.
    pub fn pmis(&self, cpu: usize) -> u64 {
        self.state.borrow().cpus.get(cpu).map_or(0, |c| c.pmis)
    }

    /// The stored state of an MSR (aliases resolved), bypassing access checks; `None` when
    /// the mock has no such CPU or MSR.
    pub fn peek(&self, cpu: usize, address: u32) -> Option<u64> {
        let st = self.state.borrow();
        let found = lookup::<A>(&st.cfg, address)?;
        let c = st.cpus.get(cpu)?;
        Some(c.regs.get(&found.storage).copied().unwrap_or(0))
    }

    /// `n` events for `counter` on `cpu`, happening at a privilege level the counter counts
    /// (any filter that is not all-off). See [`Mock::tick_at`].
    pub fn tick(&self, cpu: usize, counter: Counter, n: u64) -> Result<Tick, MockFault> {
        self.tick_inner(cpu, counter, n, None)
    }

    /// `n` events for `counter` on `cpu` at privilege level `ring`: counted when the counter
    /// is enabled for that level, globally enabled and not frozen; wraps at the counter width,
    /// setting the overflow status bit and raising a PMI when the counter asks for one.
    pub fn tick_at(
        &self,
        cpu: usize,
        counter: Counter,
        n: u64,
        ring: Ring,
    ) -> Result<Tick, MockFault> {
        self.tick_inner(cpu, counter, n, Some(ring))
    }

    fn tick_inner(
        &self,
        cpu: usize,
        counter: Counter,
        n: u64,
        ring: Option<Ring>,
    ) -> Result<Tick, MockFault> {
        let mut st = self.state.borrow_mut();
        let cfg = st.cfg;
        let (exists, width) = match counter {
            Counter::Gp(i) => (cfg.counters.has_gp(i), cfg.counters.gp_width),
            Counter::Fixed(i) => (cfg.counters.has_fixed(i), cfg.counters.fixed_width),
        };
        let ctr_addr = match counter {
            Counter::Gp(i) => A::gp_counter(i),
            Counter::Fixed(i) => A::fixed_counter(i),
        };
        let Some(ctr_addr) = ctr_addr.filter(|_| exists) else {
            return Err(MockFault::NoSuchCounter { cpu, counter });
        };
        let Some(c) = st.cpus.get_mut(cpu) else {
            return Err(MockFault::NoSuchCpu { cpu });
        };
        let reg =
            |c: &CpuState, a: Option<u32>| a.map_or(0, |a| c.regs.get(&a).copied().unwrap_or(0));

        // Is the counter counting at this privilege level?
        let (local, pmi_on_overflow) = match counter {
            Counter::Gp(i) => {
                let s = A::select_state(reg(c, A::gp_select(i)));
                let level = match ring {
                    Some(Ring::Kernel) => s.os,
                    Some(Ring::User) => s.usr,
                    None => s.os || s.usr,
                };
                (s.enabled && level, s.int)
            }
            Counter::Fixed(i) => match A::fixed_state(reg(c, A::fixed_ctrl()), i) {
                Some(fs) => {
                    let level = match (fs.mode, ring) {
                        (None, _) => false,
                        (Some(_), None) => true,
                        (Some(FixedMode::All), _) => true,
                        (Some(FixedMode::Os), Some(r)) => r == Ring::Kernel,
                        (Some(FixedMode::Usr), Some(r)) => r == Ring::User,
                    };
                    (level, fs.pmi)
                }
                None => (false, false),
            },
        };
        let global =
            A::global_ctrl().is_none_or(|g| A::global_ctrl_enabled(reg(c, Some(g)), counter));
        let frozen = A::ctr_frz_bit().is_some_and(|b| reg(c, A::global_status()) & b != 0);
        if !(local && global && !frozen) {
            return Ok(Tick::default());
        }

        let mask = width_mask(width);
        let old = reg(c, Some(ctr_addr)) & mask;
        let sum = old as u128 + n as u128;
        let overflowed = sum > mask as u128;
        c.regs.insert(ctr_addr, (sum & mask as u128) as u64);
        let mut tick = Tick {
            counted: true,
            overflowed,
            pmi: false,
        };
        if overflowed {
            if let (Some(s), Some(bit)) = (A::global_status(), A::status_bit(counter)) {
                *c.regs.entry(s).or_insert(0) |= bit;
            }
            if pmi_on_overflow {
                tick.pmi = true;
                c.pmis += 1;
                let freeze = A::debugctl().is_some_and(|d| A::freeze_on_pmi(reg(c, Some(d))));
                if freeze {
                    match (A::ctr_frz_bit(), A::global_status(), A::global_ctrl()) {
                        // Version 4 and later: CTR_FRZ; the global control is left alone.
                        (Some(frz), Some(s), _) => *c.regs.entry(s).or_insert(0) |= frz,
                        // Versions 2-3: the enable bits of the global control are cleared.
                        (None, _, Some(g)) => {
                            let v = reg(c, Some(g)) & A::global_ctrl_reserved();
                            c.regs.insert(g, v);
                        }
                        _ => {}
                    }
                }
            }
        }
        Ok(tick)
    }
}

fn clamp<A: Arch>(mut c: CounterSet) -> CounterSet {
    let mask = |n: u32| if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
    c.gp &= mask(A::GP_INSTANCES);
    c.fixed &= mask(A::FIXED_INSTANCES);
    c.gp_width = c.gp_width.min(A::GP_MODEL_WIDTH as u8);
    c.fixed_width = c.fixed_width.min(A::FIXED_MODEL_WIDTH as u8);
    c
}

fn lookup<A: Arch>(cfg: &MockConfig, address: u32) -> Option<Found> {
    for reg in A::registers() {
        let Some(index) = reg.index_of(address) else {
            continue;
        };
        let c = &cfg.counters;
        // An alias address (`alias-msr:`) is the same register: it shares the storage of the
        // instance's own address.
        let address = reg.addresses[index as usize];
        let found = |storage: Option<u32>, counter: Option<Counter>| {
            storage.map(|storage| Found {
                reg: *reg,
                storage,
                counter,
            })
        };
        return match reg.role {
            Some(Role::EventSelect) if c.has_gp(index) => found(Some(address), None),
            Some(Role::Counter) if c.has_gp(index) => {
                found(Some(address), Some(Counter::Gp(index)))
            }
            Some(Role::FullWidthCounter) if c.has_gp(index) && cfg.full_width_writes => {
                found(A::gp_counter(index), Some(Counter::Gp(index)))
            }
            Some(Role::LegacyEventSelect) if c.has_gp(index) => found(A::gp_select(index), None),
            Some(Role::LegacyCounter) if c.has_gp(index) => {
                found(A::gp_counter(index), Some(Counter::Gp(index)))
            }
            Some(Role::FixedCounter) if c.has_fixed(index) => {
                found(Some(address), Some(Counter::Fixed(index)))
            }
            Some(
                Role::EventSelect
                | Role::Counter
                | Role::FullWidthCounter
                | Role::LegacyEventSelect
                | Role::LegacyCounter
                | Role::FixedCounter,
            ) => None,
            Some(
                Role::FixedControl
                | Role::GlobalControl
                | Role::GlobalStatus
                | Role::GlobalStatusReset
                | Role::GlobalStatusSet
                | Role::GlobalInUse
                | Role::Capabilities
                | Role::DebugControl
                | Role::IbsFetchControl
                | Role::IbsOpControl,
            )
            | None => found(Some(address), None),
        };
    }
    // A facility's registers have no counter roles: each is plain storage.
    let (reg, index) = (cfg.facilities.iter())
        .flat_map(|f| f.registers())
        .find_map(|r| Some((r, r.index_of(address)?)))?;
    Some(Found {
        reg: *reg,
        storage: reg.addresses[index as usize],
        counter: None,
    })
}

impl<A: Arch> MockCpu<A> {
    /// The CPU number.
    pub fn cpu(&self) -> usize {
        self.cpu
    }

    fn fault(st: &mut State, f: MockFault) -> MockFault {
        st.faults.push(f);
        f
    }
}

impl<A: Arch> RawMsr for MockCpu<A> {
    type Error = MockFault;

    fn read_raw(&mut self, address: u32) -> Result<u64, MockFault> {
        let mut st = self.state.borrow_mut();
        let cpu = self.cpu;
        if cpu >= st.cpus.len() {
            return Err(Self::fault(&mut st, MockFault::NoSuchCpu { cpu }));
        }
        let Some(found) = lookup::<A>(&st.cfg, address) else {
            return Err(Self::fault(
                &mut st,
                MockFault::UnknownMsr {
                    cpu,
                    address,
                    write: false,
                },
            ));
        };
        if !found.reg.access.readable() {
            return Err(Self::fault(
                &mut st,
                MockFault::WriteOnly {
                    cpu,
                    address,
                    register: found.reg.name,
                },
            ));
        }
        let cfg = st.cfg;
        let c = &st.cpus[cpu];
        let get = |a: Option<u32>| a.map_or(0, |a| c.regs.get(&a).copied().unwrap_or(0));
        let value = match found.reg.role {
            Some(Role::Capabilities) => {
                if cfg.full_width_writes {
                    A::caps_full_width_write_bit().unwrap_or(0)
                } else {
                    0
                }
            }
            Some(Role::GlobalInUse) => {
                let mut v = 0;
                let mut pmi = false;
                for n in 0..32 {
                    if cfg.counters.has_gp(n) {
                        let s = A::select_state(get(A::gp_select(n)));
                        if s.in_use {
                            v |= A::inuse_bit(Counter::Gp(n)).unwrap_or(0);
                        }
                        pmi |= s.int;
                    }
                    if cfg.counters.has_fixed(n)
                        && let Some(fs) = A::fixed_state(get(A::fixed_ctrl()), n)
                    {
                        if fs.mode.is_some() {
                            v |= A::inuse_bit(Counter::Fixed(n)).unwrap_or(0);
                        }
                        pmi |= fs.pmi;
                    }
                }
                if pmi {
                    v |= A::inuse_pmi_bit().unwrap_or(0);
                }
                v
            }
            _ if cfg.inert(found.counter) => 0,
            _ => {
                let v = get(Some(found.storage));
                match found.counter {
                    Some(Counter::Gp(_)) => v & width_mask(cfg.counters.gp_width),
                    Some(Counter::Fixed(_)) => v & width_mask(cfg.counters.fixed_width),
                    None => v,
                }
            }
        };
        Ok(value)
    }

    fn write_raw(&mut self, address: u32, value: u64) -> Result<(), MockFault> {
        let mut st = self.state.borrow_mut();
        let cpu = self.cpu;
        if cpu >= st.cpus.len() {
            return Err(Self::fault(&mut st, MockFault::NoSuchCpu { cpu }));
        }
        let Some(found) = lookup::<A>(&st.cfg, address) else {
            return Err(Self::fault(
                &mut st,
                MockFault::UnknownMsr {
                    cpu,
                    address,
                    write: true,
                },
            ));
        };
        let reg = found.reg;
        if !reg.access.writable() {
            return Err(Self::fault(
                &mut st,
                MockFault::ReadOnly {
                    cpu,
                    address,
                    register: reg.name,
                },
            ));
        }
        let width_reserved = match found.counter {
            Some(Counter::Gp(_)) => !width_mask(st.cfg.counters.gp_width),
            Some(Counter::Fixed(_)) => !width_mask(st.cfg.counters.fixed_width),
            None => 0,
        };
        let bad = value & (reg.reserved_mask | width_reserved);
        if bad != 0 {
            return Err(Self::fault(
                &mut st,
                MockFault::ReservedBits {
                    cpu,
                    address,
                    register: reg.name,
                    bits: bad,
                },
            ));
        }
        let stored = match (reg.role, found.counter) {
            // A plain IA32_PMCx write: bits 31:0, sign-extended to the counter width.
            (Some(Role::Counter), Some(Counter::Gp(_))) if A::GP_WRITE_SIGN_EXTENDS => {
                (value as u32 as i32 as i64 as u64) & width_mask(st.cfg.counters.gp_width)
            }
            _ => value,
        };
        let status = A::global_status();
        st.writes += 1;
        if st.cfg.inert(found.counter) {
            return Ok(());
        }
        let c = &mut st.cpus[cpu];
        match reg.role {
            Some(Role::GlobalStatusReset) => {
                if let Some(s) = status {
                    *c.regs.entry(s).or_insert(0) &= !stored;
                }
            }
            Some(Role::GlobalStatusSet) => {
                if let Some(s) = status {
                    *c.regs.entry(s).or_insert(0) |= stored;
                }
            }
            _ => {
                c.regs.insert(found.storage, stored);
            }
        }
        Ok(())
    }
}
