//! Where CPUID values come from: the [`CpuidSource`] trait, the live instruction
//! ([`LiveCpuid`], x86-64 only) and recorded tables ([`CpuidTable`]) for tests and other
//! machines.

/// Registers returned by one CPUID query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct CpuidResult {
    /// EAX.
    pub eax: u32,
    /// EBX.
    pub ebx: u32,
    /// ECX.
    pub ecx: u32,
    /// EDX.
    pub edx: u32,
}

impl CpuidResult {
    /// From `[eax, ebx, ecx, edx]`.
    pub const fn from_array(r: [u32; 4]) -> Self {
        CpuidResult {
            eax: r[0],
            ebx: r[1],
            ecx: r[2],
            edx: r[3],
        }
    }
}

/// Something that answers CPUID queries.
pub trait CpuidSource {
    /// CPUID with EAX = `leaf`, ECX = `subleaf`.
    fn cpuid(&mut self, leaf: u32, subleaf: u32) -> CpuidResult;
}

impl<F: FnMut(u32, u32) -> CpuidResult> CpuidSource for F {
    fn cpuid(&mut self, leaf: u32, subleaf: u32) -> CpuidResult {
        self(leaf, subleaf)
    }
}

/// The CPUID instruction of the running processor.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, Default)]
pub struct LiveCpuid;

#[cfg(target_arch = "x86_64")]
impl CpuidSource for LiveCpuid {
    fn cpuid(&mut self, leaf: u32, subleaf: u32) -> CpuidResult {
        let r = core::arch::x86_64::__cpuid_count(leaf, subleaf);
        CpuidResult {
            eax: r.eax,
            ebx: r.ebx,
            ecx: r.ecx,
            edx: r.edx,
        }
    }
}

/// One recorded CPUID answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuidEntry {
    /// EAX input.
    pub leaf: u32,
    /// ECX input (0 for leaves without subleaves).
    pub subleaf: u32,
    /// The answer.
    pub regs: CpuidResult,
}

impl CpuidEntry {
    /// An entry; `regs` is `[eax, ebx, ecx, edx]`.
    pub const fn new(leaf: u32, subleaf: u32, regs: [u32; 4]) -> Self {
        CpuidEntry {
            leaf,
            subleaf,
            regs: CpuidResult::from_array(regs),
        }
    }
}

/// Recorded CPUID values (a dump); leaves that are not listed read as zero.
///
/// Detection only queries leaves the CPU reports as present (leaf 0 / 80000000H maximum), so
/// a dump needs just those leaves.
#[derive(Clone, Copy, Debug)]
pub struct CpuidTable<'a> {
    pub(super) entries: &'a [CpuidEntry],
}

impl<'a> CpuidTable<'a> {
    /// A table over these entries.
    pub const fn new(entries: &'a [CpuidEntry]) -> Self {
        CpuidTable { entries }
    }
}

impl CpuidSource for CpuidTable<'_> {
    fn cpuid(&mut self, leaf: u32, subleaf: u32) -> CpuidResult {
        self.entries
            .iter()
            .find(|e| e.leaf == leaf && e.subleaf == subleaf)
            .map(|e| e.regs)
            .unwrap_or_default()
    }
}
