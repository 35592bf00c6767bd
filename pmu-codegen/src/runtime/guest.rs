//! `Arch::GUEST_MASKS`: the write mask of every instance of every register with a role, for
//! the full-featured guest of a generation (every counter the generation defines, at its
//! widths; every feature a field's `requires:` names present). The same rule as
//! `pmu_regs::guest` applies at run time to a guest's CPUID, with nothing absent: a field
//! counts when it is writable, valid on the instance (`instances:`) and its `requires:` holds
//! ([`pmu_vocab::requires::eval`], the one evaluator of that notation), and a counter keeps
//! only the bits below its width. `pmu-regs`' guest tests compare the two for every
//! compiled generation.

use super::*;
use pmu_vocab::requires::{self, Facts};

/// The full-featured guest: every CPUID bit set, IA32_PERF_CAPABILITIES with every field the
/// generation's capabilities register defines.
struct FullFeatured<'g> {
    capabilities: Option<&'g Register>,
}

impl Facts for FullFeatured<'_> {
    fn cpuid(&self, _leaf: u32, _subleaf: u32) -> Option<[u32; 4]> {
        Some([u32::MAX; 4])
    }

    fn perf_capabilities(&self) -> u64 {
        self.capabilities.map_or(0, every_field)
    }

    fn capabilities_name(&self) -> Option<&str> {
        self.capabilities.map(|r| r.name.as_str())
    }
}

/// The bits of every field of `r`.
fn every_field(r: &Register) -> u64 {
    r.fields.iter().fold(0, |m, f| m | f.full_mask())
}

/// The `GuestMasks` of `g`.
pub(super) fn guest_masks(krate: &TokenStream, g: &Generation) -> TokenStream {
    let facts = FullFeatured {
        capabilities: g.register_with_role(RegisterRole::Capabilities),
    };
    let entries = g.registers.iter().filter_map(|r| {
        let role = r.role?;
        let v = format_ident!("{}", camel(pmu_defs::validate::register_role_word(role)));
        let width = counter_width_of(g, role);
        let masks = (0..r.addresses.len() as u32).map(|i| lit_u64(mask(r, i, &facts, width)));
        Some(quote! {
            #krate::guest::RoleMasks { role: #krate::arch::Role::#v, masks: &[#(#masks),*] }
        })
    });
    quote!(#krate::guest::GuestMasks { registers: &[#(#entries),*] })
}

/// The width a register with `role` keeps: its counter family's (0: not a counter).
fn counter_width_of(g: &Generation, role: RegisterRole) -> u32 {
    let family = match role {
        RegisterRole::Counter | RegisterRole::LegacyCounter | RegisterRole::FullWidthCounter => {
            RegisterRole::Counter
        }
        RegisterRole::FixedCounter => RegisterRole::FixedCounter,
        _ => return 0,
    };
    g.register_with_role(family).map_or(0, counter_width)
}

/// The bits of instance `i` of `r` the full-featured guest may write.
fn mask(r: &Register, i: u32, facts: &FullFeatured, width: u32) -> u64 {
    let m = r
        .fields
        .iter()
        .filter(|f| f.access.writable())
        .filter(|f| f.instances.as_ref().is_none_or(|on| on.contains(&i)))
        .filter(|f| (f.requires.as_ref()).is_none_or(|t| requires::eval(t, facts) == Some(true)))
        .fold(0, |m, f| m | f.full_mask());
    match width {
        1..64 => m & ((1u64 << width) - 1),
        _ => m,
    }
}
