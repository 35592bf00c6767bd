//! The builder pass: the constraint checks of a writable register (`Value::try_build` /
//! `build`, from the `constraints:` of the generation that defines it) and its `Builder`,
//! which records the fields set so that a field given two different values is refused.

use super::Cx;
use super::doc::escape_doc;
use super::parts::ValueParts;
use super::util::lit_u64;
use pmu_defs::model::{Generation, Register, Severity};
use proc_macro2::TokenStream;
use quote::quote;

impl Cx<'_> {
    /// For a writable register: pushes `try_build`/`build` onto `Value`'s methods and returns
    /// the `Builder` type wrapping `p.bmethods`. Nothing for a read-only register.
    pub(super) fn builder(&self, g: &Generation, r: &Register, p: &mut ValueParts) -> TokenStream {
        if !r.access.writable() {
            return quote!();
        }
        let cdoc = self.constraint_checks(g, r, p);
        if self.placement(g, r) {
            self.placed_builder_type(r, p, &cdoc)
        } else {
            self.builder_type(r, p, &cdoc)
        }
    }

    /// True when values of `r` are placed on an instance of the family: the event select
    /// with `event_on` (its `Builder` carries the counter, its values are `Placed<N>` or
    /// `PlacedAt`).
    pub(super) fn placement(&self, g: &Generation, r: &Register) -> bool {
        self.has_event_on(g, r)
            || (r.msr.indexed
                && r.access.writable()
                && r.fields.iter().any(|f| f.instances.is_some()))
    }

    /// `Value::try_build` and `Value::build` checking the constraints on `r` of the generation
    /// that defines it; returns their doc (a list of the constraints).
    fn constraint_checks(&self, g: &Generation, r: &Register, p: &mut ValueParts) -> String {
        let krate = &self.krate;
        let owner = self.model.generation(&r.defined_in).unwrap_or(g);
        let cons: Vec<_> = owner
            .constraints
            .iter()
            .filter(|c| c.register == r.name && c.severity == Severity::Error)
            .collect();
        let mut rows = Vec::new();
        let mut cdoc = String::from(
            "Checks the constraints the manual places on field combinations and returns \
             the value unchanged, or the first violated constraint.",
        );
        for c in &cons {
            // All conditions as one test: the named fields' bits (`mask`) equal to the
            // values in place (`value`).
            let (mut mask, mut value, mut n) = (0u64, 0u64, 0);
            for cond in &c.when {
                if let Some(f) = r.field(&cond.field) {
                    mask |= f.mask;
                    value |= f.insert(0, cond.value);
                    n += 1;
                }
            }
            if n == 0 {
                continue;
            }
            let (id, msg) = (&c.id, &c.message);
            let (mask, value) = (lit_u64(mask), lit_u64(value));
            cdoc.push_str(&format!(
                "\n\n- `{id}`: {} ({})",
                escape_doc(msg),
                escape_doc(&c.manual)
            ));
            rows.push(quote! {
                field::Constraint { id: #id, message: #msg, mask: #mask, value: #value }
            });
        }
        let bdoc = format!(
            "{cdoc}\n\nPanics on a violated constraint; in a `const` item that is a compile error."
        );
        p.methods.push(quote! {
            /// The manual's constraints on field combinations, as data.
            const __CONSTRAINTS: &'static [field::Constraint] = &[#(#rows),*];
            #[doc = #cdoc]
            #[inline]
            pub const fn try_build(self) -> Result<Self, #krate::ConstraintError> {
                match field::check_constraints(self.0, Self::__CONSTRAINTS) {
                    Ok(()) => Ok(self),
                    Err(e) => Err(e),
                }
            }
            #[doc = #bdoc]
            #[inline]
            #[track_caller]
            pub const fn build(self) -> Self {
                field::enforce_constraints(self.0, Self::__CONSTRAINTS);
                self
            }
        });
        cdoc
    }

    /// The `Builder` type: `track` for the set-twice checks (kept in `#[cold]` functions),
    /// every setter wrapper, `try_build` and `build`.
    fn builder_type(&self, r: &Register, p: &ValueParts, cdoc: &str) -> TokenStream {
        let krate = &self.krate;
        let reg_name_lit = &r.name;
        let bmethods = &p.bmethods;
        let builder_doc = format!(
            "Builds a write of `{}` from named fields; see [`Value::new`](Value::new).",
            r.name
        );
        // The set-twice checks sit in cold functions behind one `conflict != 0` test, so
        // `build`/`try_build` stay small enough to inline and fold away (the masks are
        // constants at the call site).
        let twice = twice_fns(krate, reg_name_lit);
        let (btdoc, bbdoc) = build_docs(cdoc);
        let tracking_plain = tracking(krate, quote!());
        quote! {
            #[doc = #builder_doc]
            #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
            #[must_use = "a Builder does nothing until `build()` turns it into a Value"]
            pub struct Builder {
                value: Value,
                set: u64,
                conflict: u64,
            }
            impl Builder {
                /// No field set.
                const EMPTY: Builder = Builder { value: Value(0), set: 0, conflict: 0 };
                #tracking_plain
                #(#bmethods)*
                #[doc = #btdoc]
                #[inline]
                pub const fn try_build(self) -> Result<Value, #krate::ConstraintError> {
                    if self.conflict != 0 {
                        return Err(self.conflict_error());
                    }
                    self.value.try_build()
                }
                #[doc = #bbdoc]
                #[inline]
                #[track_caller]
                pub const fn build(self) -> Value {
                    if self.conflict != 0 {
                        self.conflict_panic()
                    }
                    self.value.build()
                }
                #twice
            }
        }
    }

    /// `Default` for `Value` and `Builder` of a writable register (all fields zero).
    pub(super) fn default_impls(&self, r: &Register) -> TokenStream {
        if !r.access.writable() {
            return quote!();
        }
        quote! {
            impl Default for Value {
                /// All fields zero: no reserved bit set, no constraint to check.
                fn default() -> Self { Self(0) }
            }
            impl Default for Builder {
                fn default() -> Self { Value::new() }
            }
        }
    }

    /// The `Builder` of a register whose values are placed on an instance (see
    /// [`placement`](Cx::placement)): `Builder<P>`, `P` the placement
    /// (`access::Unplaced`, `Counter<N>`, `AnyCounter`); `build()` gives a `Value`, a
    /// `Placed<N>` or a `PlacedAt`, which `MsrExt::write` writes only to that instance.
    fn placed_builder_type(&self, r: &Register, p: &ValueParts, cdoc: &str) -> TokenStream {
        let core = self.placed_builder_core(r, p);
        let unplaced = self.unplaced_builder_impl(r, p, cdoc);
        let placed = self.placed_builder_impls(p, cdoc);
        quote! { #core #unplaced #placed }
    }

    /// `Builder<P>` itself and what every placement shares: `track`, `place`, the field
    /// setters, `checked`/`finish` and the set-twice reports.
    fn placed_builder_core(&self, r: &Register, p: &ValueParts) -> TokenStream {
        let krate = &self.krate;
        let bmethods = &p.bmethods;
        let builder_doc = format!(
            "Builds a write of `{}` from named fields; see [`Value::new`](Value::new). \
             `P` is where the value goes: [`Unplaced`]({k}::access::Unplaced) (`Value::new()`; \
             `build()` gives a [`Value`](Value)), instance `N` ([`Counter<N>`]({k}::access::Counter): \
             `event_on::<N>`, [`at::<N>()`](Builder::at); `build()` gives a [`Placed<N>`](Placed)) \
             or an instance chosen at run time ([`AnyCounter`]({k}::access::AnyCounter): \
             `try_event_on`, [`try_at`](Builder::try_at); `build()` gives a [`PlacedAt`](PlacedAt)). \
             A placed value is written only to its own instance.",
            r.name,
            k = krate.to_string().replace(' ', "")
        );
        let twice = twice_fns(krate, &r.name);
        let tracking_placed = tracking(krate, quote!(..self));
        quote! {
            #[doc = #builder_doc]
            #[derive(PartialEq, Eq, Hash, Debug)]
            #[must_use = "a Builder does nothing until `build()` turns it into a Value"]
            pub struct Builder<P = #krate::access::Unplaced> {
                value: Value,
                set: u64,
                conflict: u64,
                index: u32,
                placement: ::core::marker::PhantomData<P>,
            }
            impl<P> Clone for Builder<P> {
                fn clone(&self) -> Self { *self }
            }
            impl<P> Copy for Builder<P> {}
            impl<P> Builder<P> {
                #tracking_placed
                /// The same fields with another placement.
                const fn place<Q>(self, index: u32) -> Builder<Q> {
                    Builder {
                        value: self.value,
                        set: self.set,
                        conflict: self.conflict,
                        index,
                        placement: ::core::marker::PhantomData,
                    }
                }
                #(#bmethods)*
                #[inline]
                const fn checked(self) -> Result<Value, #krate::ConstraintError> {
                    if self.conflict != 0 {
                        return Err(self.conflict_error());
                    }
                    self.value.try_build()
                }
                #[inline]
                #[track_caller]
                const fn finish(self) -> Value {
                    if self.conflict != 0 {
                        self.conflict_panic()
                    }
                    self.value.build()
                }
                #twice
            }
        }
    }

    /// The unplaced `Builder` (`Value::new()`): `build()` gives a `Value`; `at::<N>()` and
    /// `try_at(index)` place it.
    fn unplaced_builder_impl(&self, r: &Register, p: &ValueParts, cdoc: &str) -> TokenStream {
        let krate = &self.krate;
        let name_str = &r.name;
        let (btdoc, bbdoc) = build_docs(cdoc);
        let at_doc = format!(
            "The same fields, for `{name_str}N`: `build()` gives a [`Placed<N>`](Placed), which \
             `MsrExt::write` writes only to `msr::<N>()`. `N` out of range fails to compile."
        );
        let try_at_doc = format!(
            "The same fields, for `{name_str}` instance `index` chosen at run time: `build()` \
             gives a [`PlacedAt`](PlacedAt), which `MsrExt::write` writes only to that instance \
             (another is `PlacementError::WrongCounter`)."
        );
        let pl = quote!(#krate::access);
        let unplaced = &p.by_placement.unplaced;
        quote! {
            impl Builder {
                /// No field set.
                const EMPTY: Builder = Builder {
                    value: Value(0),
                    set: 0,
                    conflict: 0,
                    index: 0,
                    placement: ::core::marker::PhantomData,
                };
                #(#unplaced)*
                #[doc = #btdoc]
                #[inline]
                pub const fn try_build(self) -> Result<Value, #krate::ConstraintError> {
                    self.checked()
                }
                #[doc = #bbdoc]
                #[inline]
                #[track_caller]
                pub const fn build(self) -> Value {
                    self.finish()
                }
                #[doc = #at_doc]
                #[track_caller]
                pub const fn at<const N: u32>(self) -> Builder<#pl::Counter<N>> {
                    let _ = address::<N>();
                    self.place(N)
                }
                #[doc = #try_at_doc]
                pub const fn try_at(self, index: u32) -> Result<Builder<#pl::AnyCounter>, #krate::PlacementError> {
                    if index >= INSTANCES {
                        return Err(#krate::PlacementError::CounterOutOfRange {
                            register: #name_str, count: INSTANCES, counter: index,
                        });
                    }
                    Ok(self.place(index))
                }
            }
        }
    }

    /// The placed builders: on instance `N` (`Counter<N>`, `build()` gives a `Placed<N>`) and
    /// on an instance chosen at run time (`AnyCounter`, `build()` gives a `PlacedAt`).
    fn placed_builder_impls(&self, p: &ValueParts, cdoc: &str) -> TokenStream {
        let krate = &self.krate;
        let (btdoc, bbdoc) = build_docs(cdoc);
        let pl = quote!(#krate::access);
        let (counter, any_counter) = (&p.by_placement.counter, &p.by_placement.any_counter);
        quote! {
            impl<const N: u32> Builder<#pl::Counter<N>> {
                #(#counter)*
                #[doc = #btdoc]
                #[inline]
                pub const fn try_build(self) -> Result<Placed<N>, #krate::ConstraintError> {
                    match self.checked() {
                        Ok(v) => Ok(Placed::__new(v.0)),
                        Err(e) => Err(e),
                    }
                }
                #[doc = #bbdoc]
                #[inline]
                #[track_caller]
                pub const fn build(self) -> Placed<N> {
                    Placed::__new(self.finish().0)
                }
            }
            impl Builder<#pl::AnyCounter> {
                #(#any_counter)*
                #[doc = #btdoc]
                #[inline]
                pub const fn try_build(self) -> Result<PlacedAt, #krate::ConstraintError> {
                    match self.checked() {
                        Ok(value) => Ok(PlacedAt::__new(value.0, self.index)),
                        Err(e) => Err(e),
                    }
                }
                #[doc = #bbdoc]
                #[inline]
                #[track_caller]
                pub const fn build(self) -> PlacedAt {
                    PlacedAt::__new(self.finish().0, self.index)
                }
            }
        }
    }
}

/// A builder's `track` (the bits in `mask` were assigned, a conflict when they were assigned
/// before with another value: `field::track`) and `__tracked` (the same for a fallible write);
/// `rest` fills the other fields of a placed builder (`..self`).
fn tracking(krate: &TokenStream, rest: TokenStream) -> TokenStream {
    quote! {
        /// Records that the bits in `mask` were assigned.
        #[inline(always)]
        const fn track(self, mask: u64, next: Value) -> Self {
            // `clash`: a reserved local name (a field's constant may be called `set`).
            let clash = field::track(self.set, self.conflict, self.value.0, next.0, mask);
            Self { value: next, set: clash.0, conflict: clash.1, #rest }
        }
        /// [`track`](Self::track) of a fallible write.
        #[inline(always)]
        #[allow(dead_code)]
        const fn __tracked(self, mask: u64, next: Result<Value, #krate::FieldError>) -> Result<Self, #krate::FieldError> {
            match next {
                Ok(next) => Ok(self.track(mask, next)),
                Err(e) => Err(e),
            }
        }
    }
}

/// The docs of a builder's `try_build` and `build`: the set-twice check, then the register's
/// constraints, which [`Value::try_build`] lists (`cdoc` has them; not repeated here).
fn build_docs(cdoc: &str) -> (String, String) {
    let constraints = if cdoc.contains("\n\n") {
        "then the constraints of [`Value::try_build`](Value::try_build)"
    } else {
        "then the constraints of [`Value::try_build`](Value::try_build) (none for this register)"
    };
    let btdoc = format!(
        "The value, or the first problem: a field given two different values \
         (`field-set-twice`), {constraints}."
    );
    let bbdoc =
        format!("{btdoc}\n\nPanics on a problem; in a `const` item that is a compile error.");
    (btdoc, bbdoc)
}

/// `conflict_error` and `conflict_panic` of a `Builder`: the first field given two different
/// values (`conflict != 0`), found by the shared `__private` functions in the register's
/// `FIELDS`, not by a test per field.
fn twice_fns(krate: &TokenStream, reg_name: &str) -> TokenStream {
    quote! {
        /// The first field given two different values (`conflict != 0`).
        #[cold]
        const fn conflict_error(self) -> #krate::ConstraintError {
            #krate::__private::set_twice_error(self.conflict, FIELDS)
        }
        #[cold]
        #[track_caller]
        const fn conflict_panic(self) -> ! {
            #krate::__private::set_twice_in(#reg_name, self.conflict, FIELDS)
        }
    }
}
