//! What an encoding gives back: the register values to write ([`Encoding`]), each field set
//! ([`FieldValue`]), auxiliary MSRs and alternative encodings.

use super::*;

// ---------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------

/// One field an encoding sets (or a decoding reads).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldValue {
    /// Field name.
    pub name: String,
    /// Array element, for per-counter fields.
    pub element: Option<u32>,
    /// Register bits, high to low per part, low part first (`7:0,35:32`).
    pub bits: String,
    /// Logical value (split parts joined).
    pub value: u64,
}

/// An auxiliary MSR programmed with the event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AuxMsr {
    /// Address.
    pub index: u32,
    /// The model's register at that address, if it has one.
    pub register: Option<String>,
    /// Value to write.
    pub value: u64,
    /// The perf term that carries it (`offcore_rsp`, `ldlat`, `frontend`), if perf has one.
    pub perf_term: Option<&'static str>,
}

/// One alternative way to program an event (another event code / unit mask / MSR).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AltEncoding {
    /// Event code.
    pub event: u32,
    /// Unit mask.
    pub umask: u32,
    /// Auxiliary MSR to program with this code.
    pub msr_index: Option<u32>,
    /// The select-register value with this code.
    pub value: u64,
}

/// A register instance and its address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RegisterRef {
    /// Name with instance number (`IA32_PMC2`).
    pub name: String,
    /// MSR address.
    pub address: u32,
}

impl RegisterRef {
    pub(super) fn of(r: &Register, index: u32) -> Self {
        let address = r.msr.address(index);
        RegisterRef {
            name: instance_name(r, address),
            address,
        }
    }
}

/// The result of [`Encoder::encode`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Encoding {
    /// Generation id.
    pub generation: String,
    /// Event name (`raw` for raw terms).
    pub event: String,
    /// The generation that introduced the event (`None` for raw terms).
    pub event_since: Option<String>,
    /// The register to write: the general event select, or the fixed counter control.
    pub register: String,
    /// The counter, when one was asked for or the event is fixed-only.
    pub counter: Option<Counter>,
    /// The counters the event may use, in words (`general counters 0-3 and fixed counter 1`).
    pub allowed: String,
    /// MSR address of the register (the select of that counter, or the fixed control).
    pub address: Option<u32>,
    /// The counter register to read, when a counter is known.
    pub counter_register: Option<RegisterRef>,
    /// The value: the whole event select, or this counter's block of the fixed control.
    pub value: u64,
    /// The bits of the register this value determines (all fields of the event select;
    /// only this counter's block of the fixed control: merge it into the rest).
    pub mask: u64,
    /// The fields set, with their values.
    pub fields: Vec<FieldValue>,
    /// Auxiliary MSRs to program.
    pub aux: Vec<AuxMsr>,
    /// Further encodings that count the same thing (Intel's `0xB7, 0xBB` offcore pairs).
    pub alternatives: Vec<AltEncoding>,
    /// The perf event string.
    pub perf: String,
    /// The perf PMU name.
    pub pmu: String,
    /// Things worth knowing (vendor-defined combinations the manual warns about, perf's own
    /// spelling of the event, ...).
    pub notes: Vec<String>,
}
