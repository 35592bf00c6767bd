//! What the definitions say about CPUID: the leaves' layouts, the `detect:` condition that
//! recognises a generation, and the `count-from:` field that gives a family's instances.

use super::{CountForm, Field};
use crate::source::Span;
use serde::Serialize;

/// How a generation is recognised at run time (`detect:`): a CPUID field of one of its leaves
/// at least some value, and/or a CPU family at least some value. Not inherited: a generation
/// without `detect:` (and without `cpus:`) is never chosen by detection.
#[derive(Clone, Debug, Serialize)]
pub struct Detect {
    /// The CPUID condition: leaf name, output register, field name, minimum value.
    pub cpuid: Option<DetectCpuid>,
    /// The minimum CPU family (CPUID.01H, extended family included).
    pub family_at_least: Option<u32>,
    /// Where `detect:` is written.
    #[serde(skip)]
    pub span: Span,
}

/// `detect: { leaf, register, field, at-least }`.
#[derive(Clone, Debug, Serialize)]
pub struct DetectCpuid {
    /// CPUID leaf name.
    pub leaf: String,
    /// `eax`, `ebx`, `ecx` or `edx`.
    pub register: String,
    /// Field name.
    pub field: String,
    /// The field's minimum value.
    pub at_least: u64,
}

/// A CPUID leaf's output layout.
#[derive(Clone, Debug, Serialize)]
pub struct CpuidLeaf {
    /// Name.
    pub name: String,
    /// EAX input.
    pub leaf: u32,
    /// ECX input, when the leaf has subleaves.
    pub subleaf: Option<u32>,
    /// Documentation.
    pub doc: String,
    /// Manual section.
    pub manual: String,
    /// Output registers that carry fields.
    pub registers: Vec<CpuidRegister>,
    /// The generation whose definition this is.
    pub defined_in: String,
    /// Where the leaf is written.
    #[serde(skip)]
    pub span: Span,
}

/// One output register of a CPUID leaf.
#[derive(Clone, Debug, Serialize)]
pub struct CpuidRegister {
    /// `eax`, `ebx`, `ecx` or `edx`.
    pub register: String,
    /// Fields.
    pub fields: Vec<Field>,
    /// Bits no field covers.
    pub reserved_mask: u32,
}

/// `count-from: { leaf, register, field, as }` of a register family.
#[derive(Clone, Debug, Serialize)]
pub struct CountFrom {
    /// CPUID leaf name (a leaf of the generation's `cpuid:`).
    pub leaf: String,
    /// `eax`, `ebx`, `ecx` or `edx`.
    pub register: String,
    /// Field name.
    pub field: String,
    /// How the field's value gives the count.
    #[serde(rename = "as")]
    pub form: CountForm,
    /// Where `count-from:` is written.
    #[serde(skip)]
    pub span: Span,
}
