//! The product of the pipeline, the resolved model: every generation with its `extends` chain
//! applied.
//!
//! This is what `cargo xtask dump --json` prints and what the code generator reads. Reserved
//! bits are derived here (everything no field covers), never written by hand. The
//! [`resolve`](crate::resolve) phase builds it and [`validate`](crate::validate) checks it; the
//! words its types share with the raw schema ([`Access`], [`RegisterRole`], [`Vendor`], ...)
//! are declared once in [`crate::vocab`] and named here too, as part of the model.

pub mod cpus;
mod flags;
pub mod names;

use crate::source::Span;
pub use crate::vocab::{
    Access, CountForm, CounterKind, EVENT_FLAGS, EventFlag, FieldRole, RegisterRole, Severity,
    Vendor,
};
use serde::Serialize;

mod cpuid;
pub use cpuid::{CountFrom, CpuidLeaf, CpuidRegister, Detect, DetectCpuid};
mod generic;
pub use generic::GenericEventDef;

/// Named values a field with [`FieldRole::Privilege`] must have, in the order of the run-time
/// layer's privilege modes (disabled, ring 0, rings 1-3, every ring).
pub const PRIVILEGE_VALUES: [&str; 4] = ["DISABLED", "OS", "USR", "ALL"];

/// All resolved generations, in dependency order (parents before children), then by id.
#[derive(Clone, Debug, Serialize)]
pub struct Model {
    /// The generations.
    pub generations: Vec<Generation>,
    /// Search aliases from the alias files loaded with the generations (see
    /// [`crate::load::aliases`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<crate::load::aliases::Alias>,
    /// CPU names from the CPU-name files loaded with the generations (see
    /// [`crate::load::cpu_names`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cpu_names: Vec<crate::load::cpu_names::CpuName>,
}

impl Model {
    /// A generation by id.
    pub fn generation(&self, id: &str) -> Option<&Generation> {
        self.generations.iter().find(|g| g.id == id)
    }
}

/// One generation of PMU hardware with everything it inherits.
#[derive(Clone, Debug, Serialize)]
pub struct Generation {
    /// Id, e.g. `intel-v4`.
    pub id: String,
    /// Vendor (inherited when not given).
    pub vendor: Vendor,
    /// One-line title.
    pub title: String,
    /// Manual section.
    pub manual: String,
    /// Documentation.
    pub doc: String,
    /// Direct parent.
    pub extends: Option<String>,
    /// All ancestors, nearest first.
    pub ancestors: Vec<String>,
    /// Where the generation's facts come from (`SKL/events/skylake_core.json`), when stated.
    /// Not inherited.
    pub source: Option<String>,
    /// The Intel perfmon core lists (`skylake_core`) whose imported CPU-model generation
    /// extends this one (`perfmon-cores:`); the importer reads it. Not inherited.
    pub perfmon_cores: Vec<String>,
    /// Where each of `perfmon_cores` is written.
    #[serde(skip)]
    pub perfmon_core_spans: Vec<Span>,
    /// The CPU models this generation describes. Non-empty means "this generation is a
    /// specific CPU model" (code generation may put it behind a Cargo feature); empty for the
    /// architectural generations. Not inherited: a generation extending a CPU model describes
    /// the CPUs it lists itself.
    pub cpus: Vec<Cpu>,
    /// How the generation is recognised at run time. Not inherited.
    pub detect: Option<Detect>,
    /// Counter sets and event encoding.
    pub pmu: Pmu,
    /// Registers, in definition order.
    pub registers: Vec<Register>,
    /// CPUID leaves.
    pub cpuid: Vec<CpuidLeaf>,
    /// Events.
    pub events: Vec<Event>,
    /// Constraints between fields.
    pub constraints: Vec<Constraint>,
    /// perf's generic hardware events and the event each counts here (`generic-events:`),
    /// in `PERF_COUNT_HW_*` order: inherited, overridden by name, `remove:`d.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub generic_events: Vec<GenericEventDef>,
    /// Where the generation's id is written.
    #[serde(skip)]
    pub span: Span,
}

impl Generation {
    /// A register by name.
    pub fn register(&self, name: &str) -> Option<&Register> {
        self.registers.iter().find(|r| r.name == name)
    }

    /// The register at MSR `address` (any instance of a family), if any.
    pub fn register_at(&self, address: u32) -> Option<&Register> {
        self.registers
            .iter()
            .find(|r| r.msr.addresses().any(|a| a == address))
    }

    /// The register playing `role`, if any (the validator reports a role given twice).
    pub fn register_with_role(&self, role: RegisterRole) -> Option<&Register> {
        self.registers.iter().find(|r| r.role == Some(role))
    }

    /// A CPUID leaf by name.
    pub fn cpuid_leaf(&self, name: &str) -> Option<&CpuidLeaf> {
        self.cpuid.iter().find(|c| c.name == name)
    }

    /// An event by name.
    pub fn event(&self, name: &str) -> Option<&Event> {
        self.events.iter().find(|e| e.name == name)
    }

    /// Number of general-purpose counters (the size of the `pmu.general.counter` family).
    pub fn general_counters(&self) -> u32 {
        self.pmu
            .general
            .as_ref()
            .and_then(|g| self.register(&g.counter))
            .map_or(0, |r| r.msr.count)
    }

    /// Number of fixed-function counters (the size of the `pmu.fixed.counter` family).
    pub fn fixed_counters(&self) -> u32 {
        self.pmu
            .fixed
            .as_ref()
            .and_then(|f| self.register(&f.counter))
            .map_or(0, |r| r.msr.count)
    }
}

/// A CPU model a generation describes, as Intel's perfmon `mapfile.csv` names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cpu {
    /// Vendor string, family and model in hex, optionally a stepping or a set of steppings:
    /// `GenuineIntel-6-4E`, `GenuineIntel-6-55-[01234]`.
    pub family_model: String,
    /// Version of the event list for this CPU (`V59`), when stated.
    pub version: Option<String>,
    /// On hybrid parts, the core type (CPUID.1AH:EAX\[31:24\]: `0x20` Atom, `0x40` Core).
    pub core_type: Option<u8>,
    /// On hybrid parts, the native model id (CPUID.1AH:EAX\[23:0\]).
    pub native_model_id: Option<u32>,
    /// Intel's name for the core's role (`Atom`, `Core`, `LowPower_Atom`).
    pub core_role: Option<String>,
}

/// Which registers count and how events encode into the select register.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Pmu {
    /// General-purpose counters.
    pub general: Option<GeneralCounters>,
    /// Fixed-function counters.
    pub fixed: Option<FixedCounters>,
    /// Event attribute (`event`, `umask`, `cmask`, ...) -> field of the select register, in
    /// definition order (serialised as a JSON object).
    #[serde(serialize_with = "pairs_as_map")]
    pub encoding: Vec<(String, String)>,
    /// Where each reference is written, by role (`general.select`, `fixed.control`,
    /// `encoding.umask`, ...), so errors about it point at the name.
    #[serde(skip)]
    pub spans: Vec<(String, Span)>,
}

impl Pmu {
    /// Where the reference playing `role` is written.
    pub fn span_of(&self, role: &str) -> Option<Span> {
        self.spans
            .iter()
            .rev()
            .find(|(r, _)| r == role)
            .map(|(_, s)| *s)
    }
}

fn pairs_as_map<S: serde::Serializer>(pairs: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(pairs.len()))?;
    for (k, v) in pairs {
        m.serialize_entry(k, v)?;
    }
    m.end()
}

impl Pmu {
    /// The select-register field an event attribute encodes into.
    pub fn encoding_field(&self, attr: &str) -> Option<&str> {
        self.encoding
            .iter()
            .find(|(a, _)| a == attr)
            .map(|(_, f)| f.as_str())
    }
}

/// The general-purpose counter set.
#[derive(Clone, Debug, Serialize)]
pub struct GeneralCounters {
    /// Event-select register family.
    pub select: String,
    /// Counter register family.
    pub counter: String,
}

/// The fixed-function counter set.
#[derive(Clone, Debug, Serialize)]
pub struct FixedCounters {
    /// Counter register family.
    pub counter: String,
    /// Control register.
    pub control: Option<String>,
}

/// Where a register lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Msr {
    /// Address of instance 0.
    pub base: u32,
    /// Number of instances (1 for a single register).
    pub count: u32,
    /// Address step between instances.
    pub stride: u32,
    /// True for an indexed family (`IA32_PERFEVTSEL0..7`), false for one register.
    pub indexed: bool,
}

impl Msr {
    /// Address of instance `i`.
    pub fn address(&self, i: u32) -> u32 {
        self.base + i * self.stride
    }

    /// Every address of the family.
    pub fn addresses(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.count).map(move |i| self.address(i))
    }
}

/// A model-specific register (or a family of them).
#[derive(Clone, Debug, Serialize)]
pub struct Register {
    /// Name without index, e.g. `IA32_PERFEVTSEL`.
    pub name: String,
    /// Documentation.
    pub doc: String,
    /// Manual section.
    pub manual: String,
    /// Address(es).
    pub msr: Msr,
    /// Every address, expanded.
    pub addresses: Vec<u32>,
    /// A second address range of the same register (`alias-msr:`): the same instances, the
    /// same layout and value type, reachable at both (perfmon v6 aliases `IA32_PMCn` at
    /// `0x1900 + 4n`). Its count is always the register's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alias_msr: Option<Msr>,
    /// Every alias address, expanded (empty without `alias-msr:`), by instance.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub alias_addresses: Vec<u32>,
    /// Where its `alias-msr:` is written (the latest generation that states it).
    #[serde(skip)]
    pub alias_span: Option<Span>,
    /// `per-counter:` a family with one instance per counter of this kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_counter: Option<CounterKind>,
    /// Its instance count follows its counter family's in this generation, without the YAML
    /// stating it (see `resolve::per_counter`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub count_derived: bool,
    /// Width in bits.
    pub width: u32,
    /// Default access of its fields.
    pub access: Access,
    /// What the register does for the run-time layer (`role:`), when it has a role.
    pub role: Option<RegisterRole>,
    /// Value after reset, where the manual gives one.
    pub reset: Option<u64>,
    /// The condition under which a CPU has the register (`requires:`, the manuals'
    /// notation fields use); `None`: whenever it has the generation.
    pub requires: Option<String>,
    /// Where its `requires:` is written.
    #[serde(skip)]
    pub requires_span: Option<Span>,
    /// The CPUID field that says how many instances of the family a CPU has
    /// (`count-from:`); `None`: every instance of `msr:`.
    pub count_from: Option<CountFrom>,
    /// Fields, ordered by lowest bit.
    pub fields: Vec<Field>,
    /// Bits no field covers: software must never set them.
    pub reserved_mask: u64,
    /// The generation whose definition this is: unchanged registers keep their parent's.
    pub defined_in: String,
    /// The generation that introduced this register, under this name or one it was renamed
    /// from (`renames:`).
    pub since: String,
    /// Where the register is written.
    #[serde(skip)]
    pub span: Span,
    /// Where its `role:` is written (the latest generation that states it).
    #[serde(skip)]
    pub role_span: Option<Span>,
}

impl Register {
    /// A field by name.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// True when `address` is one of its addresses, in its own range or its alias range.
    pub fn has_address(&self, address: u32) -> bool {
        self.index_at(address).is_some()
    }

    /// The instance at `address` (0 for a single register), in either address range.
    pub fn index_at(&self, address: u32) -> Option<u32> {
        let own = self.addresses.iter().position(|&a| a == address);
        let alias = || self.alias_addresses.iter().position(|&a| a == address);
        own.or_else(alias).and_then(|i| u32::try_from(i).ok())
    }

    /// True when `address` is in its alias range (`alias-msr:`).
    pub fn is_alias_address(&self, address: u32) -> bool {
        self.alias_addresses.contains(&address)
    }
}

/// One contiguous run of bits of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BitRange {
    /// Lowest bit.
    pub lsb: u32,
    /// Highest bit.
    pub msb: u32,
}

impl BitRange {
    /// Number of bits.
    pub fn width(&self) -> u32 {
        self.msb - self.lsb + 1
    }

    /// The bits as a mask.
    pub fn mask(&self) -> u64 {
        let ones = if self.width() == 64 {
            u64::MAX
        } else {
            (1u64 << self.width()) - 1
        };
        ones << self.lsb
    }
}

/// A field repeated at a fixed stride (one block per counter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FieldArray {
    /// Number of elements.
    pub count: u32,
    /// Bits between elements.
    pub stride: u32,
}

/// A named value of a field.
#[derive(Clone, Debug, Serialize)]
pub struct EnumValue {
    /// Name.
    pub name: String,
    /// Value.
    pub value: u64,
    /// Documentation.
    pub doc: String,
    /// Where its name is written.
    #[serde(skip)]
    pub span: Span,
}

/// When a field stops being meaningful.
#[derive(Clone, Debug, Serialize)]
pub struct Deprecation {
    /// Generation from which it may be deprecated.
    pub since: String,
    /// The enumeration that says it is.
    pub when: Option<String>,
    /// Documentation.
    pub doc: String,
    /// Where `since:` is written.
    #[serde(skip)]
    pub span: Span,
}

/// A bitfield.
#[derive(Clone, Debug, Serialize)]
pub struct Field {
    /// Name.
    pub name: String,
    /// Documentation.
    pub doc: String,
    /// Bit ranges, low-order part first (one range unless the field is split).
    pub bits: Vec<BitRange>,
    /// Logical width (sum of the ranges).
    pub width: u32,
    /// Register-level mask of element 0.
    pub mask: u64,
    /// Access.
    pub access: Access,
    /// Named values.
    pub values: Vec<EnumValue>,
    /// Repetition, for per-counter blocks.
    pub array: Option<FieldArray>,
    /// The counter family whose counter i element i belongs to (`per-counter:`).
    pub per_counter: Option<CounterKind>,
    /// Its element count follows its counter family's in this generation, without the YAML
    /// stating it (see `resolve::per_counter`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub count_derived: bool,
    /// What the field means to the run-time layer (`role:`).
    pub role: Option<FieldRole>,
    /// The generation that introduced the field.
    pub since: String,
    /// Deprecation.
    pub deprecated: Option<Deprecation>,
    /// The enumeration that must be present for the field to exist.
    pub requires: Option<String>,
    /// The instances of the register family on which the field is valid (`instances:`,
    /// sorted); `None`: every instance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instances: Option<Vec<u32>>,
    /// Where `instances:` is written.
    #[serde(skip)]
    pub instances_span: Option<Span>,
    /// Where the field is written.
    #[serde(skip)]
    pub span: Span,
    /// Where its `per-counter:` and `role:` are written (the latest generation that states
    /// them).
    #[serde(skip)]
    pub role_span: Option<Span>,
}

impl Field {
    /// Number of elements (1 unless an array).
    pub fn count(&self) -> u32 {
        self.array.map_or(1, |a| a.count)
    }

    /// Register-level mask of element `i`.
    pub fn element_mask(&self, i: u32) -> u64 {
        let shift = self.array.map_or(0, |a| a.stride * i);
        self.bits
            .iter()
            .map(|b| b.mask())
            .fold(0, |m, b| m | b.checked_shl(shift).unwrap_or(0))
    }

    /// Mask of every element.
    pub fn full_mask(&self) -> u64 {
        (0..self.count()).fold(0, |m, i| m | self.element_mask(i))
    }

    /// Highest bit any element reaches.
    pub fn top_bit(&self) -> u32 {
        let top = self.bits.iter().map(|b| b.msb).max().unwrap_or(0);
        top + self.array.map_or(0, |a| a.stride * (a.count - 1))
    }

    /// A named value.
    pub fn value(&self, name: &str) -> Option<&EnumValue> {
        self.values.iter().find(|v| v.name == name)
    }

    /// Places a logical value into the register bits of element `i` (split ranges in order).
    pub fn insert(&self, i: u32, value: u64) -> u64 {
        let shift = self.array.map_or(0, |a| a.stride * i);
        let mut out = 0u64;
        let mut consumed = 0;
        for b in &self.bits {
            let part = (value >> consumed) & (b.mask() >> b.lsb);
            out |= part << (b.lsb + shift);
            consumed += b.width();
        }
        out
    }

    /// Reads element `i`'s logical value from a register value.
    pub fn extract(&self, i: u32, reg: u64) -> u64 {
        let shift = self.array.map_or(0, |a| a.stride * i);
        let mut out = 0u64;
        let mut produced = 0;
        for b in &self.bits {
            let part = (reg >> (b.lsb + shift)) & (b.mask() >> b.lsb);
            out |= part << produced;
            produced += b.width();
        }
        out
    }
}

/// An auxiliary MSR programmed with an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EventMsr {
    /// MSR address (for the primary event code / unit mask).
    pub index: u32,
    /// Addresses for the alternative codes or unit masks, in the same order
    /// ([`Event::alternatives`]); empty when one MSR serves them all.
    pub alt_indexes: Vec<u32>,
    /// Value to write.
    pub value: u64,
}

/// A set of counters: general-purpose counter numbers and fixed counter numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CounterSet {
    /// General-purpose counters, ascending.
    pub general: Vec<u32>,
    /// Fixed counters, ascending.
    pub fixed: Vec<u32>,
}

/// One way to program an event that has several (Intel lists `0xB7, 0xBB` for the two
/// offcore-response event codes, each with its own `MSR_OFFCORE_RSP_x`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alternative {
    /// Event select code.
    pub event: u32,
    /// Unit mask.
    pub umask: u32,
    /// The auxiliary MSR to program with this encoding, if the event has one.
    pub msr_index: Option<u32>,
}

/// A performance-monitoring event.
#[derive(Clone, Debug, Serialize)]
pub struct Event {
    /// Name.
    pub name: String,
    /// Event select code (the primary one).
    pub event: u32,
    /// Further event select codes that count the same thing (paired in order with
    /// `msr.alt_indexes`).
    pub alt_events: Vec<u32>,
    /// Unit mask (the primary one).
    pub umask: u32,
    /// Further unit masks that count the same thing (paired in order with `msr.alt_indexes`).
    pub alt_umasks: Vec<u32>,
    /// Second unit mask (Intel v6).
    pub umask2: Option<u32>,
    /// Equal-compare flag (Intel v6).
    pub eq: bool,
    /// Counter mask.
    pub cmask: u32,
    /// Invert.
    pub inv: bool,
    /// Edge detect.
    pub edge: bool,
    /// AnyThread.
    pub any: bool,
    /// General-purpose counters that may count it (empty: fixed counter only).
    pub counters: Vec<u32>,
    /// The fixed counter that counts it.
    pub fixed: Option<u32>,
    /// Counters that may count it while Hyper-Threading is off (null: not stated).
    pub counters_ht_off: Option<CounterSet>,
    /// Counters that may sample it with PEBS (null: not stated).
    pub pebs_counters: Option<CounterSet>,
    /// Counters with precise distribution (PDist) for it (null: not stated).
    pub pdist_counters: Option<CounterSet>,
    /// Counters with precise distribution of instructions retired (PDIR) (null: not stated).
    pub pdir_counters: Option<CounterSet>,
    /// The CPUID.0AH:EBX bit that, when set, says the event is unavailable.
    pub cpuid_bit: Option<u32>,
    /// Auxiliary MSR.
    pub msr: Option<EventMsr>,
    /// PEBS support: 0 none, 1 PEBS, 2 PEBS with precise distribution (null: not stated).
    pub pebs: Option<u8>,
    /// Precise (PEBS-capable) event (null: not stated).
    pub precise: Option<bool>,
    /// Counts speculatively executed work, not only retired (null: not stated).
    pub speculative: Option<bool>,
    /// Intel's CollectPEBSRecord level, 0 to 3 (null: not stated).
    pub collect_pebs_record: Option<u8>,
    /// Deprecated by the vendor.
    pub deprecated: bool,
    /// Must be the only event programmed while it counts.
    pub taken_alone: bool,
    /// PEBS records carry the data linear address.
    pub data_la: bool,
    /// PEBS records carry the L1 hit indication.
    pub l1_hit_indication: bool,
    /// Uses the offcore-response MSRs.
    pub offcore: bool,
    /// Uses the off-module response MSRs (Intel's `Offmodule`, Nova Lake on).
    pub offmodule: bool,
    /// The auxiliary MSR goes with the unit mask (Intel's `ProgrammingRestriction`
    /// `MSRIndex-UMask`): with several unit masks, the i-th is programmed only with the i-th
    /// `msr.index` ([`Event::alternatives`] pairs them so); validated to have an `msr` whose
    /// index list is as long as the unit-mask list.
    pub msr_per_umask: bool,
    /// Intel's `ELLC` flag, kept as given (set on two Cascade Lake persistent-memory load
    /// events; Intel's data does not define it further).
    pub ellc: bool,
    /// Uses the precise-store facility (Sandy Bridge and Ivy Bridge
    /// `MEM_TRANS_RETIRED.PRECISE_STORE`).
    pub precise_store: bool,
    /// Erratum ids that affect it.
    pub errata: Vec<String>,
    /// Default sampling period (null: not stated).
    pub sample_after: Option<u64>,
    /// Documentation.
    pub doc: String,
    /// Warnings about the event that the definitions acknowledge, each with its reason.
    pub allow: Vec<Allow>,
    /// The generation that introduced it.
    pub since: String,
    /// True when the event may use every general counter (it lists none of its own).
    #[serde(skip)]
    pub any_counter: bool,
    /// Where the event is written.
    #[serde(skip)]
    pub span: Span,
}

impl Event {
    /// An event with only a name: no encoding, no counters restriction (`any_counter`),
    /// every flag off; `since` is the generation that defines it. What a definition without
    /// a base fills in, and a starting point for tests.
    pub fn blank(name: String, since: String, span: Span) -> Event {
        Event {
            name,
            event: 0,
            alt_events: Vec::new(),
            umask: 0,
            alt_umasks: Vec::new(),
            umask2: None,
            eq: false,
            cmask: 0,
            inv: false,
            edge: false,
            any: false,
            counters: Vec::new(),
            fixed: None,
            counters_ht_off: None,
            pebs_counters: None,
            pdist_counters: None,
            pdir_counters: None,
            cpuid_bit: None,
            msr: None,
            pebs: None,
            precise: None,
            speculative: None,
            collect_pebs_record: None,
            deprecated: false,
            taken_alone: false,
            data_la: false,
            l1_hit_indication: false,
            offcore: false,
            offmodule: false,
            msr_per_umask: false,
            ellc: false,
            precise_store: false,
            errata: Vec::new(),
            sample_after: None,
            doc: String::new(),
            allow: Vec::new(),
            since,
            any_counter: true,
            span,
        }
    }

    /// Every way to program the event, primary first: codes and unit masks paired by
    /// position (a list of one pairs with every entry of the other), each with its MSR.
    pub fn alternatives(&self) -> Vec<Alternative> {
        let n = 1 + self.alt_events.len().max(self.alt_umasks.len());
        let pick = |first: u32, rest: &[u32], i: usize| match i {
            0 => first,
            _ if rest.is_empty() => first,
            _ => rest.get(i - 1).copied().unwrap_or(first),
        };
        (0..n)
            .map(|i| Alternative {
                event: pick(self.event, &self.alt_events, i),
                umask: pick(self.umask, &self.alt_umasks, i),
                msr_index: self.msr.as_ref().map(|m| pick(m.index, &m.alt_indexes, i)),
            })
            .collect()
    }
}

/// An `allow:` entry: a warning about its entry that the definitions acknowledge, with the
/// reason. The validator reports that warning as acknowledged ([`crate::Diagnostic::acknowledged`]),
/// and an entry that acknowledges nothing as `unused-allow`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Allow {
    /// The warning's code (one of [`crate::diag::EVENT_WARNINGS`] on an event).
    pub code: String,
    /// Why the warning is acceptable.
    pub reason: String,
    /// Where the entry is written (its `code:` value).
    #[serde(skip)]
    pub span: Span,
}

/// A condition on one field.
#[derive(Clone, Debug, Serialize)]
pub struct Condition {
    /// Field name.
    pub field: String,
    /// Value that triggers.
    pub value: u64,
}

/// A combination of field values that generated code and tools reject (or warn about).
#[derive(Clone, Debug, Serialize)]
pub struct Constraint {
    /// Id.
    pub id: String,
    /// Register the fields belong to.
    pub register: String,
    /// All must hold for the constraint to fire.
    pub when: Vec<Condition>,
    /// Error or warning.
    pub severity: Severity,
    /// What the user is told.
    pub message: String,
    /// Manual section.
    pub manual: String,
    /// Where the constraint is written.
    #[serde(skip)]
    pub span: Span,
}
