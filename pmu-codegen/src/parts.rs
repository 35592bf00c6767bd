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
    /// Private generic functions holding the compile-time checks of const-generic setters.
    pub(super) checkers: Vec<TokenStream>,
    /// Named-value enums of the fields.
    pub(super) enums: Vec<TokenStream>,
    /// Setters of fields valid only on some instances (`instances:`), by the placement of
    /// the `Builder` they belong to: unplaced (a stub that fails to compile), `Counter<N>`
    /// (checked at compile time) and `AnyCounter` (checked at run time).
    pub(super) by_placement: ByPlacement,
    /// The `FIELDS` entry of every element (`field::Info`), in order: `Debug`, the
    /// set-twice reports and `__check_field`'s `F` index it.
    pub(super) infos: Vec<TokenStream>,
    /// Whether any element has a const-generic setter (and so needs `__check_field`).
    pub(super) const_checked: bool,
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
