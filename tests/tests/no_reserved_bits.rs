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
use pmu_regs::arch::{
    Arch, ArchVisitor, Bits, Counter, Filter, FixedMode, Generation, IntelV6, Ring,
};
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

/// The event `e` stands for on generation `A`.
fn desc<A: Arch>(e: &Ev) -> EventDesc {
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
            facilities: Default::default(),
            inert_gp: 0,
            inert_fixed: 0,
        });
        let cpu = s.cpus - 1;
        let mut pmu = Pmu::<A, _>::with_counters(mock.cpu(cpu), counters)
            .with_full_width_writes(s.full_width);
        let desc = desc::<A>;
        for (i, op) in self.ops.iter().enumerate() {
            let r: Result<(), Error<_>> = match op {
                Op::Program(n, e, usr, os, int) => pmu
                    .program_raw(
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
                    .program_fixed_event_raw(&desc(e), mode(*m), false)
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

/// Every value-building method of the run-time layer, on one generation: each field of its
/// generated `Spec` (`Bits`: event-select flags, fixed-control blocks, per-counter arrays of
/// the global registers, flags) set to random in-range values, and the builders over them
/// (`encode_select` through the generated `try_event_on`, `select_with_enable`,
/// `fixed_ctrl_with`, `global_ctrl_with`, `status_reset_bits`, `status_set_bits`,
/// `with_freeze_on_pmi`), starting from a value with no reserved bit. None may set a bit the
/// generated register table (`RegInfo::reserved_mask`) says is reserved.
struct Builders {
    seed: u64,
    event: Ev,
    filter: (bool, bool, bool),
}

/// SplitMix64.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl ArchVisitor for Builders {
    type Output = Result<(), TestCaseError>;

    fn visit<A: Arch>(self) -> Result<(), TestCaseError> {
        let mut rng = self.seed;
        let reserved = |address: u32| -> Result<u64, TestCaseError> {
            A::registers()
                .iter()
                .find(|r| r.addresses.contains(&address))
                .map(|r| r.reserved_mask)
                .ok_or_else(|| {
                    TestCaseError::fail(format!("{}: no register at {address:#x}", A::ID))
                })
        };
        // A starting value: random bits, none of them reserved.
        let start = |address: u32, rng: &mut u64| reserved(address).map(|r| next(rng) & !r);
        let check = |what: &str, address: u32, v: u64| -> Result<(), TestCaseError> {
            let r = reserved(address)?;
            prop_assert_eq!(
                v & r,
                0,
                "{}: {} at {:#x} = {:#x} sets reserved bits (mask {:#x})",
                A::ID,
                what,
                address,
                v,
                r
            );
            Ok(())
        };

        // Every Bits of the Spec, with the address(es) of its register.
        let spec = A::SPEC;
        let mut fields: Vec<(u32, Bits)> = Vec::new();
        let g = spec.general;
        for &a in g.selects {
            fields.extend(
                [g.en, g.usr, g.os, g.int]
                    .into_iter()
                    .flatten()
                    .map(|b| (a, b)),
            );
        }
        if let Some(c) = spec.fixed.and_then(|f| f.control) {
            fields.push((c.address, c.privilege));
            fields.extend(c.pmi.map(|b| (c.address, b)));
            fields.extend(c.others.iter().map(|&b| (c.address, b)));
        }
        for r in [
            spec.global_control,
            spec.global_status,
            spec.global_status_reset,
            spec.global_status_set,
            spec.global_in_use,
        ]
        .into_iter()
        .flatten()
        {
            fields.extend(
                [r.general, r.fixed, r.flag]
                    .into_iter()
                    .flatten()
                    .map(|b| (r.address, b)),
            );
        }
        for f in [spec.debug_control, spec.capabilities]
            .into_iter()
            .flatten()
        {
            fields.extend(f.flag.map(|b| (f.address, b)));
        }
        prop_assert!(!fields.is_empty(), "{}: no field in the Spec", A::ID);
        for (address, b) in fields {
            for i in 0..b.count {
                let max = if b.width >= 64 {
                    u64::MAX
                } else {
                    (1u64 << b.width) - 1
                };
                let v = match next(&mut rng) % 4 {
                    0 => 0,
                    1 => max,
                    _ => next(&mut rng) & max,
                };
                let before = start(address, &mut rng)?;
                let after = b.set(before, i, v).map_err(|e| {
                    TestCaseError::fail(format!("{}: {}[{i}] = {v:#x}: {e:?}", A::ID, b.name))
                })?;
                prop_assert_eq!(b.get(after, i), Some(v));
                check(b.name, address, after)?;
            }
        }

        // The builders.
        let event = desc::<A>(&self.event);
        let (usr, os, int) = self.filter;
        let filter = Filter { usr, os, int };
        for n in 0..A::GP_INSTANCES {
            let Some(address) = A::gp_select(n) else {
                continue;
            };
            if let Ok(v) = A::encode_select(n, &event, filter) {
                check("encode_select", address, v)?;
                check(
                    "select_with_enable",
                    address,
                    A::select_with_enable(v, false),
                )?;
            }
            let before = start(address, &mut rng)?;
            check(
                "select_with_enable",
                address,
                A::select_with_enable(before, true),
            )?;
        }
        if let Some(address) = A::fixed_ctrl() {
            for n in 0..A::FIXED_INSTANCES {
                let before = start(address, &mut rng)?;
                let m = (next(&mut rng) % 4) as u8;
                let mode = (m < 3).then(|| mode(m));
                if let Ok(v) = A::fixed_ctrl_with(before, n, mode, next(&mut rng) & 1 == 0) {
                    check("fixed_ctrl_with", address, v)?;
                }
            }
        }
        if let Some(address) = A::global_ctrl() {
            let counters = (0..A::GP_INSTANCES)
                .map(Counter::Gp)
                .chain((0..A::FIXED_INSTANCES).map(Counter::Fixed));
            for c in counters {
                let before = start(address, &mut rng)?;
                if let Ok(v) = A::global_ctrl_with(before, c, next(&mut rng) & 1 == 0) {
                    check("global_ctrl_with", address, v)?;
                }
            }
        }
        let gp_all = 1u32
            .checked_shl(A::GP_INSTANCES)
            .map_or(u32::MAX, |b| b - 1);
        let fixed_all = 1u32
            .checked_shl(A::FIXED_INSTANCES)
            .map_or(u32::MAX, |b| b - 1);
        let gp = next(&mut rng) as u32 & gp_all;
        let fixed = next(&mut rng) as u32 & fixed_all;
        if let Some(address) = A::status_reset() {
            let frz = A::ctr_frz_bit().is_some() && next(&mut rng) & 1 == 0;
            if let Ok(v) = A::status_reset_bits(gp, fixed, frz) {
                check("status_reset_bits", address, v)?;
            }
        }
        if let Some(address) = A::status_set()
            && let Ok(v) = A::status_set_bits(gp, fixed)
        {
            check("status_set_bits", address, v)?;
        }
        if let Some(address) = A::debugctl() {
            let before = start(address, &mut rng)?;
            check(
                "with_freeze_on_pmi",
                address,
                A::with_freeze_on_pmi(before, true),
            )?;
            check(
                "with_freeze_on_pmi",
                address,
                A::with_freeze_on_pmi(before, false),
            )?;
        }
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// [`Builders`] on every built-in generation (`Generation::ALL`, generated from the
    /// definitions: nothing here lists generations or registers).
    #[test]
    fn runtime_builders_never_set_a_reserved_bit(
        seed in any::<u64>(),
        event in event(),
        filter in any::<(bool, bool, bool)>(),
    ) {
        for g in Generation::ALL {
            g.visit(Builders { seed, event: event.clone(), filter })?;
        }
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
        // AnyThread is deprecated from v5 on but still a field of the layout: set it too.
        #[allow(deprecated)]
        let b = S::Value::new()
            .with_bit::<S::USR>(flags & 1 != 0)
            .with_bit::<S::OS>(flags & 2 != 0)
            .with_bit::<S::EDGE>(flags & 4 != 0)
            .with_bit::<S::INT>(flags & 8 != 0)
            .with_bit::<S::ANY>(flags & 16 != 0)
            .with_bit::<S::EN>(flags & 32 != 0)
            .with_bit::<S::INV>(flags & 64 != 0)
            .with_bit::<S::IN_TX>(flags & 128 != 0)
            .with_bit::<S::EQ>(flags & 256 != 0);
        let b = b.try_with::<S::EVENT_SELECT>(ev % 512);
        let b = b.and_then(|b| b.try_with::<S::UMASK>(umask % 512));
        let b = b.and_then(|b| b.try_with::<S::CMASK>(cmask % 512));
        let b = b.and_then(|b| b.try_with::<S::UMASK2>(umask2 % 512));
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
