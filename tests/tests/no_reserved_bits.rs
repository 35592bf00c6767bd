//! Property: no sequence of API calls writes a reserved bit.
//!
//! Random sequences of `Pmu` calls (programming random events on random counters, fixed
//! counters, preloads with random values, freezes, status reads and clears, simulated
//! counting) run against the mock of a random generation with a random CPUID counter set.
//! The mock faults like #GP on a reserved bit, an unknown MSR, a read-only register or a
//! counter bit above the width; every call must either succeed or be refused with an error
//! of its own, never with a backend fault, and the mock must have recorded no fault.

use pmu_regs::EventDesc;
use pmu_regs::access::MsrExt;
use pmu_regs::arch::{Arch, ArchVisitor, Counter, Filter, FixedMode, Generation, IntelV6, Ring};
use pmu_regs::backend::mock::{Mock, MockConfig};
use pmu_regs::detect::CounterSet;
use pmu_regs::intel;
use pmu_regs::pmu::{Error, Pmu};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Ev {
    Arch(usize),
    Custom {
        event: u16,
        umask: u8,
        umask2: u8,
        cmask: u8,
        inv: bool,
        edge: bool,
        any: bool,
        eq: bool,
        counters: u32,
        fixed: Option<u8>,
    },
}

#[derive(Clone, Debug)]
enum Op {
    Program(u32, Ev, bool, bool, bool),
    ProgramFixed(u32, u8, bool),
    ProgramFixedEvent(Ev, u8),
    EnableFixed(u8, bool),
    Disable(Counter),
    Read(Counter),
    WriteCounter(Counter, u64),
    Freeze,
    Unfreeze,
    FreezeOnPmi(bool),
    Status,
    Clear(u32, u32, bool),
    Take,
    SetOverflow(u32, u32),
    Tick(Counter, u64, u8),
}

fn counter() -> impl Strategy<Value = Counter> {
    prop_oneof![
        (0u32..10).prop_map(Counter::Gp),
        (0u32..5).prop_map(Counter::Fixed),
    ]
}

fn event() -> impl Strategy<Value = Ev> {
    prop_oneof![
        (0usize..16).prop_map(Ev::Arch),
        (
            (
                0u16..0x1000,
                any::<u8>(),
                prop_oneof![Just(0u8), any::<u8>()],
                prop_oneof![Just(0u8), any::<u8>()]
            ),
            (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
            (
                prop_oneof![Just(u32::MAX), any::<u32>()],
                proptest::option::of(0u8..5)
            ),
        )
            .prop_map(
                |((event, umask, umask2, cmask), (inv, edge, any, eq), (counters, fixed))| {
                    Ev::Custom {
                        event,
                        umask,
                        umask2,
                        cmask,
                        inv,
                        edge,
                        any,
                        eq,
                        counters,
                        fixed,
                    }
                }
            ),
    ]
}

fn value() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        0u64..1000,
        (0u32..64).prop_map(|b| 1u64 << b),
        (1u64..64).prop_map(|k| (1u64 << 48) - k),
        (1u64..64).prop_map(|k| (1u64 << 32) - k),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0u32..10, event(), any::<bool>(), any::<bool>(), any::<bool>())
            .prop_map(|(n, e, u, o, i)| Op::Program(n, e, u, o, i)),
        2 => (0u32..5, 0u8..3, any::<bool>()).prop_map(|(n, m, p)| Op::ProgramFixed(n, m, p)),
        1 => (event(), 0u8..3).prop_map(|(e, m)| Op::ProgramFixedEvent(e, m)),
        1 => (0u8..3, any::<bool>()).prop_map(|(m, p)| Op::EnableFixed(m, p)),
        1 => counter().prop_map(Op::Disable),
        1 => counter().prop_map(Op::Read),
        3 => (counter(), value()).prop_map(|(c, v)| Op::WriteCounter(c, v)),
        1 => Just(Op::Freeze),
        1 => Just(Op::Unfreeze),
        1 => any::<bool>().prop_map(Op::FreezeOnPmi),
        1 => Just(Op::Status),
        1 => (any::<u32>(), any::<u32>(), any::<bool>()).prop_map(|(g, f, z)| Op::Clear(g, f, z)),
        1 => Just(Op::Take),
        1 => (any::<u32>(), any::<u32>()).prop_map(|(g, f)| Op::SetOverflow(g, f)),
        4 => (counter(), value(), 0u8..3).prop_map(|(c, v, r)| Op::Tick(c, v, r)),
    ]
}

#[derive(Clone, Debug)]
struct Setup {
    cpus: usize,
    gp: u32,
    fixed: u32,
    gp_width: u8,
    fixed_width: u8,
    unavailable: u32,
    anythread_deprecated: bool,
    umask2: bool,
    eq: bool,
    full_width: bool,
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        (1usize..3, any::<u32>(), any::<u32>(), 32u8..=48, 32u8..=48),
        (
            any::<u32>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        ),
    )
        .prop_map(
            |((cpus, gp, fixed, gp_width, fixed_width), (unavailable, atd, umask2, eq, fw))| {
                Setup {
                    cpus,
                    gp,
                    fixed,
                    gp_width,
                    fixed_width,
                    unavailable,
                    anythread_deprecated: atd,
                    umask2,
                    eq,
                    full_width: fw,
                }
            },
        )
}

fn mode(m: u8) -> FixedMode {
    match m {
        0 => FixedMode::Os,
        1 => FixedMode::Usr,
        _ => FixedMode::All,
    }
}

struct Run {
    setup: Setup,
    ops: Vec<Op>,
}

impl ArchVisitor for Run {
    type Output = Result<(), TestCaseError>;

    fn visit<A: Arch>(self) -> Result<(), TestCaseError> {
        let s = self.setup;
        let mut counters = CounterSet::full::<A>();
        counters.gp &= s.gp;
        counters.fixed &= s.fixed;
        counters.gp_width = s.gp_width;
        counters.fixed_width = if counters.fixed == 0 {
            0
        } else {
            s.fixed_width
        };
        counters.unavailable_events = s.unavailable;
        counters.anythread_deprecated = s.anythread_deprecated;
        counters.umask2 = s.umask2;
        counters.eq = s.eq;
        let mock = Mock::<A>::new(MockConfig {
            cpus: s.cpus,
            counters,
            full_width_writes: s.full_width,
        });
        let cpu = s.cpus - 1;
        let mut pmu = Pmu::<A, _>::with_counters(mock.cpu(cpu), counters)
            .with_full_width_writes(s.full_width);
        let desc = |e: &Ev| -> EventDesc {
            match e {
                Ev::Arch(i) => A::arch_events()
                    .get(*i)
                    .map(|a| a.desc)
                    .unwrap_or(EventDesc::new("NONE", 0, 0)),
                Ev::Custom {
                    event,
                    umask,
                    umask2,
                    cmask,
                    inv,
                    edge,
                    any,
                    eq,
                    counters,
                    fixed,
                } => {
                    let mut d = EventDesc::new("RANDOM", *event, *umask)
                        .with_umask2(*umask2)
                        .with_cmask(*cmask)
                        .with_inv(*inv)
                        .with_edge(*edge)
                        .with_any(*any)
                        .with_eq(*eq)
                        .with_counters(*counters);
                    if let Some(f) = fixed {
                        d = d.with_fixed(*f);
                    }
                    d
                }
            }
        };
        for (i, op) in self.ops.iter().enumerate() {
            let r: Result<(), Error<_>> = match op {
                Op::Program(n, e, usr, os, int) => pmu
                    .program(
                        *n,
                        &desc(e),
                        Filter {
                            usr: *usr,
                            os: *os,
                            int: *int,
                        },
                    )
                    .map(|sel| {
                        assert!(A::select_state(sel).enabled);
                    }),
                Op::ProgramFixed(n, m, pmi) => pmu.program_fixed(*n, mode(*m), *pmi),
                Op::ProgramFixedEvent(e, m) => pmu
                    .program_fixed_event(&desc(e), mode(*m), false)
                    .map(|_| ()),
                Op::EnableFixed(m, pmi) => pmu.enable_fixed_counters(mode(*m), *pmi).map(|_| ()),
                Op::Disable(c) => pmu.disable(*c),
                Op::Read(c) => pmu.read(*c).map(|_| ()),
                Op::WriteCounter(c, v) => pmu.write_counter(*c, *v),
                Op::Freeze => pmu.freeze(),
                Op::Unfreeze => pmu.unfreeze(),
                Op::FreezeOnPmi(on) => pmu.set_freeze_on_pmi(*on),
                Op::Status => pmu.status().map(|_| ()),
                Op::Clear(gp, fixed, frozen) => pmu.clear_overflow(&pmu_regs::arch::Status {
                    gp: *gp,
                    fixed: *fixed,
                    frozen: *frozen,
                    raw: 0,
                }),
                Op::Take => pmu.take_overflow().map(|_| ()),
                Op::SetOverflow(gp, fixed) => pmu.set_overflow(*gp, *fixed),
                Op::Tick(c, n, r) => {
                    let ring = match r {
                        0 => Some(Ring::Kernel),
                        1 => Some(Ring::User),
                        _ => None,
                    };
                    // The simulation's own refusal (a counter the mock does not have) is not
                    // an API call; ignore it.
                    let _ = match ring {
                        Some(ring) => mock.tick_at(cpu, *c, *n, ring),
                        None => mock.tick(cpu, *c, *n),
                    };
                    Ok(())
                }
            };
            if let Err(Error::Msr(fault)) = r {
                return Err(TestCaseError::fail(format!(
                    "{}: op {i} {op:?} faulted: {fault}",
                    A::ID
                )));
            }
        }
        prop_assert!(
            mock.faults().is_empty(),
            "{}: faults {:?}",
            A::ID,
            mock.faults()
        );
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn no_api_sequence_writes_a_reserved_bit(
        generation in 0usize..Generation::ALL.len(),
        setup in setup(),
        ops in proptest::collection::vec(op(), 1..40),
    ) {
        Generation::ALL[generation].visit(Run { setup, ops })?;
    }

    /// The typed setters never produce a reserved bit either: any value they accept can be
    /// written to the (hardware-like) mock.
    #[test]
    fn typed_event_select_values_never_fault(
        n in 0u32..8,
        fields in (any::<u64>(), any::<u64>(), any::<u64>(), any::<u64>()),
        flags in any::<u16>(),
    ) {
        use intel::v6::IA32_PERFEVTSEL as S;
        let mock = Mock::<IntelV6>::new(MockConfig::full::<IntelV6>(1));
        let mut cpu = mock.cpu(0);
        let (ev, umask, cmask, umask2) = fields;
        let b = S::Value::new()
            .with_usr(flags & 1 != 0)
            .with_os(flags & 2 != 0)
            .with_edge(flags & 4 != 0)
            .with_int(flags & 8 != 0)
            .with_any(flags & 16 != 0)
            .with_en(flags & 32 != 0)
            .with_inv(flags & 64 != 0)
            .with_in_tx(flags & 128 != 0)
            .with_eq_field(flags & 256 != 0);
        let b = b.try_set_event_select(ev % 512);
        let b = b.and_then(|b| b.try_set_umask(umask % 512));
        let b = b.and_then(|b| b.try_set_cmask(cmask % 512));
        let b = b.and_then(|b| b.try_set_umask2(umask2 % 512));
        match b.map(|b| b.try_build()) {
            Ok(Ok(v)) => {
                cpu.write(S::try_msr(n).unwrap(), v).unwrap();
                let back = cpu.read(S::try_msr(n).unwrap()).unwrap();
                prop_assert_eq!(back, v);
            }
            Ok(Err(_constraint)) => {}
            Err(e) => {
                let too_wide = matches!(e, pmu_regs::FieldError::TooWide { .. });
                prop_assert!(too_wide, "{:?}", e);
            }
        }
        prop_assert!(mock.faults().is_empty());
    }
}
