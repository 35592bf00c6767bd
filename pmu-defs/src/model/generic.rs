//! `generic-events:` resolved: which event each of perf's generic hardware events counts on a
//! generation.

use crate::source::Span;
use serde::Serialize;

/// One entry of `generic-events:`: which event one of perf's generic hardware events counts.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GenericEventDef {
    /// perf's name (`cpu-cycles`; a [`pmu_vocab::perf::GenericEvent`] name).
    pub name: String,
    /// The perf terms of the event it counts (`event=0x2e,umask=0x41`).
    pub terms: String,
    /// Where the mapping comes from (the `manual:` of the `generic-events:` that set it, else
    /// its generation's).
    pub manual: String,
    /// Where the terms are written.
    #[serde(skip)]
    pub span: Span,
}
