//! A `no_std` kernel-style user of `pmu-regs` on AMD Zen 4: count a model event (perf's
//! `ex_tagged_ibs_ops.ibs_tagged_ops`, event 1CFH, whose 12-bit select spans bits 7:0 and
//! 35:32 of PerfEvtSel) on core counter 0, and arm Instruction-Based Sampling of ops
//! (IbsOpCtl); then read the op sample when IbsOpCtl.IbsOpVal says there is one.
//!
//! Everything is generic over the MSR backend, so the same code runs against the mock in
//! tests; a kernel passes the ring-0 backend (see `examples/kernel-pmc` for the `unsafe`
//! entry points) and CPUID from [`pmu_regs::detect::LiveCpuid`].
//!
//! CI builds this crate for `x86_64-unknown-none`.

#![no_std]
#![deny(unsafe_code)]

use pmu_regs::access::{MsrExt, RawMsr, WriteError};
use pmu_regs::amd::ibs::cpuid::{EXT_FEATURES, IBS_ID};
use pmu_regs::amd::ibs::{IBS_DC_LIN_AD, IBS_OP_CTL, IBS_OP_DATA, IBS_OP_DATA3, IBS_OP_RIP};
use pmu_regs::amd::zen4::events::Event;
use pmu_regs::arch::{AmdZen4, Counter, Filter, Generation};
use pmu_regs::detect::{CpuidSource, PmuInfo};
use pmu_regs::pmu::{Error as PmuError, Pmu};

/// The model event counted on core counter 0.
pub const EVENT: Event = Event::ExTaggedIbsOps_IbsTaggedOps;

/// Why sampling could not start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error<E> {
    /// Detection did not find a Zen 4 core (its `cpus:` in the definitions: CPUID family 19h
    /// and the models perf's mapfile gives amdzen4).
    NotZen4 {
        /// The model generation detection found, if any.
        found: Option<Generation>,
    },
    /// CPUID says the CPU has no IBS op sampling (`Fn8000_0001_ECX[IBS]`, `Fn8000_001B_EAX[OpSam]`).
    NoIbsOpSampling,
    /// Programming the counter failed.
    Pmu(PmuError<E>),
    /// An MSR access failed.
    Msr(E),
}

impl<E> From<PmuError<E>> for Error<E> {
    fn from(e: PmuError<E>) -> Self {
        Error::Pmu(e)
    }
}

impl<E> From<WriteError<E>> for Error<E> {
    fn from(e: WriteError<E>) -> Self {
        match e {
            WriteError::Backend(e) => Error::Msr(e),
            // The values below are built with the typed API: no reserved bit is ever set.
            WriteError::Reserved(_) => unreachable!("typed values set no reserved bit"),
            // Only values placed on an event-select counter carry a placement; these do not.
            WriteError::Placement(_) => unreachable!("unplaced values are written"),
        }
    }
}

/// What [`start`] programmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Started {
    /// The PerfEvtSel0 value written.
    pub select: u64,
    /// The IbsOpCtl value written.
    pub ibs_op_ctl: u64,
}

/// The IBS op control value for a sampling period of `period_16` × 16 (cycles, or dispatched
/// ops when the CPU can count them).
pub fn ibs_op_ctl(period_16: u16, count_ops: bool) -> IBS_OP_CTL::Value {
    let ctl = IBS_OP_CTL::Value::new()
        .with_bit::<IBS_OP_CTL::IBS_OP_CNT_CTL>(count_ops)
        .with_bit::<IBS_OP_CTL::IBS_OP_EN>(true);
    // IbsOpMaxCnt[15:0] is 16 bits wide: every `u16` fits, so the checked setter cannot fail.
    match ctl.try_with::<IBS_OP_CTL::IBS_OP_MAX_CNT>(period_16 as u64) {
        Ok(ctl) => ctl.build(),
        Err(_) => unreachable!("a u16 fits the 16-bit IbsOpMaxCnt field"),
    }
}

/// Counts [`EVENT`] on core counter 0 (user and kernel) and arms IBS op sampling every
/// `period_16` × 16 dispatched ops (cycles when CPUID `Fn8000_001B_EAX[OpCnt]` is 0).
pub fn start<B: RawMsr, C: CpuidSource>(
    backend: B,
    cpuid: &mut C,
    info: &PmuInfo,
    period_16: u16,
) -> Result<Started, Error<B::Error>> {
    if info.model != Some(Generation::AmdZen4) {
        return Err(Error::NotZen4 { found: info.model });
    }
    let ext = cpuid.cpuid(EXT_FEATURES::LEAF, 0);
    let ibs = IBS_ID::Eax::from_raw(cpuid.cpuid(IBS_ID::LEAF, 0).eax);
    if !EXT_FEATURES::Ecx::from_raw(ext.ecx).ibs() || !ibs.ibsffv() || !ibs.op_sam() {
        return Err(Error::NoIbsOpSampling);
    }
    let mut pmu = Pmu::<AmdZen4, B>::new(backend, info)?;
    let select = pmu.program(0, &EVENT, Filter::ALL)?;
    let ctl = ibs_op_ctl(period_16, ibs.op_cnt());
    pmu.backend_mut().write(IBS_OP_CTL::MSR, ctl)?;
    Ok(Started {
        select,
        ibs_op_ctl: ctl.bits(),
    })
}

/// One IBS op sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpSample {
    /// IbsOpRip.
    pub rip: u64,
    /// IbsOpData.IbsTagToRetCtr: cycles from tagging to retirement.
    pub tag_to_retire: u16,
    /// The op was a mispredicted branch.
    pub mispredicted_branch: bool,
    /// For a load or store that missed the data cache: its linear address, when valid.
    pub dc_miss_address: Option<u64>,
    /// Core counter 0 ([`EVENT`]).
    pub tagged_ops: u64,
}

/// Reads the op sample if IbsOpCtl.IbsOpVal is set, and re-arms sampling (clears IbsOpVal,
/// keeping the rest of IbsOpCtl as read).
pub fn take_sample<B: RawMsr>(
    backend: B,
    info: &PmuInfo,
) -> Result<Option<OpSample>, Error<B::Error>> {
    let mut pmu = Pmu::<AmdZen4, B>::new(backend, info)?;
    let tagged_ops = pmu.read(Counter::Gp(0))?;
    let msr = pmu.backend_mut();
    let ctl = msr.read(IBS_OP_CTL::MSR).map_err(Error::Msr)?;
    if !ctl.is_set::<IBS_OP_CTL::IBS_OP_VAL>() {
        return Ok(None);
    }
    let data = msr.read(IBS_OP_DATA::MSR).map_err(Error::Msr)?;
    let data3 = msr.read(IBS_OP_DATA3::MSR).map_err(Error::Msr)?;
    let dc_miss_address = if data3.is_set::<IBS_OP_DATA3::IBS_DC_MISS>()
        && data3.is_set::<IBS_OP_DATA3::IBS_DC_LIN_ADDR_VALID>()
    {
        Some(
            msr.read(IBS_DC_LIN_AD::MSR)
                .map_err(Error::Msr)?
                .get::<IBS_DC_LIN_AD::LIN_ADDR>(),
        )
    } else {
        None
    };
    let sample = OpSample {
        rip: msr
            .read(IBS_OP_RIP::MSR)
            .map_err(Error::Msr)?
            .get::<IBS_OP_RIP::RIP>(),
        tag_to_retire: data.get::<IBS_OP_DATA::IBS_TAG_TO_RET_CTR>() as u16,
        mispredicted_branch: data.is_set::<IBS_OP_DATA::IBS_OP_BRN_MISP>(),
        dc_miss_address,
        tagged_ops,
    };
    msr.modify(IBS_OP_CTL::MSR, |v| {
        v.with_bit::<IBS_OP_CTL::IBS_OP_VAL>(false)
    })
    .map_err(Error::Msr)?;
    Ok(Some(sample))
}
