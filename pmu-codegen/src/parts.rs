//! What the value pass collects for one register ([`ValueParts`]): the value pass
//! ([`super::value`]) and the restrictions it applies ([`super::restrictions`]) fill it, the
//! builder pass ([`super::builder`]) reads it. Declared apart so those passes do not import
//! each other.

use proc_macro2::TokenStream;

/// What the value pass produces for one register, in output order.
#[derive(Default)]
pub(super) struct ValueParts {
    /// Items of `impl Value`.
    pub(super) methods: Vec<TokenStream>,
    /// Items of `impl Builder`: a wrapper of every setter.
    pub(super) bmethods: Vec<TokenStream>,
    /// (element name, mask) of every writable element, for the set-twice checks.
    pub(super) tracked: Vec<(String, u64)>,
    /// Private generic functions holding the compile-time checks of const-generic setters.
    pub(super) checkers: Vec<TokenStream>,
    /// `(name, parts)` of every const-checked element, indexed by `__check_field`'s `F`.
    pub(super) wide: Vec<TokenStream>,
    /// Named-value enums of the fields.
    pub(super) enums: Vec<TokenStream>,
    /// Setters of fields valid only on some instances (`instances:`), by the placement of
    /// the `Builder` they belong to: unplaced (a stub that fails to compile), `Counter<N>`
    /// (checked at compile time) and `AnyCounter` (checked at run time).
    pub(super) by_placement: ByPlacement,
    /// The `.field(..)` calls of `Value`'s `Debug`.
    pub(super) debug_fields: Vec<TokenStream>,
}

/// The setters of instance-restricted fields, by the placement of their `Builder`.
#[derive(Default)]
pub(super) struct ByPlacement {
    /// Items of `impl Builder` (unplaced): stubs.
    pub(super) unplaced: Vec<TokenStream>,
    /// Items of `impl<const N: u32> Builder<Counter<N>>`.
    pub(super) counter: Vec<TokenStream>,
    /// Items of `impl Builder<AnyCounter>`.
    pub(super) any_counter: Vec<TokenStream>,
}
