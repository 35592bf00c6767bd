//! The event filter: which events a guest may count, by event select and unit mask, applied
//! to every event-select write ([`GuestPmu::check_write`](super::GuestPmu::check_write)).

/// One entry of an [`EventFilter`]: an event select code and a unit-mask match. An event
/// matches when its code is `event` and `umask & umask_mask == umask_match`: an exact unit
/// mask is `umask_mask: 0xFF`, any unit mask `umask_mask: 0` (KVM's masked-event form,
/// `KVM_PMU_EVENT_FLAG_MASKED_EVENTS`, is the same test on the unit mask).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventMatch {
    /// The event select code (12 bits on AMD).
    pub event: u16,
    /// The unit-mask bits compared.
    pub umask_mask: u8,
    /// What those bits must be.
    pub umask_match: u8,
}

impl EventMatch {
    /// `event` with unit mask `umask` exactly.
    pub const fn exact(event: u16, umask: u8) -> Self {
        EventMatch {
            event,
            umask_mask: 0xFF,
            umask_match: umask,
        }
    }

    /// `event` with any unit mask.
    pub const fn any_umask(event: u16) -> Self {
        EventMatch {
            event,
            umask_mask: 0,
            umask_match: 0,
        }
    }

    /// Whether event `event` with unit mask `umask` matches.
    pub const fn matches(&self, event: u16, umask: u8) -> bool {
        self.event == event && umask & self.umask_mask == self.umask_match
    }
}

/// Whether an [`EventFilter`]'s list says what is allowed or what is denied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FilterMode {
    /// Only the listed events may count.
    Allow,
    /// Every event but the listed ones may count.
    Deny,
}

/// Which events a guest may count. The default allows every event.
///
/// A denied event's select is still accepted and reads back as written: the filter only
/// says that the counter must not count ([`Write::filtered`](super::Write::filtered)), as
/// KVM's PMU event filter (`KVM_SET_PMU_EVENT_FILTER`) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventFilter<'a> {
    /// Allow or deny list.
    pub mode: FilterMode,
    /// The events listed.
    pub events: &'a [EventMatch],
}

impl Default for EventFilter<'_> {
    fn default() -> Self {
        EventFilter::ALLOW_ALL
    }
}

impl<'a> EventFilter<'a> {
    /// Every event allowed (an empty deny list).
    pub const ALLOW_ALL: EventFilter<'static> = EventFilter {
        mode: FilterMode::Deny,
        events: &[],
    };

    /// Only `events` allowed.
    pub const fn allow(events: &'a [EventMatch]) -> Self {
        EventFilter {
            mode: FilterMode::Allow,
            events,
        }
    }

    /// Every event but `events` allowed.
    pub const fn deny(events: &'a [EventMatch]) -> Self {
        EventFilter {
            mode: FilterMode::Deny,
            events,
        }
    }

    /// Whether event `event` with unit mask `umask` may count.
    pub fn permits(&self, event: u16, umask: u8) -> bool {
        let listed = self.events.iter().any(|m| m.matches(event, umask));
        match self.mode {
            FilterMode::Allow => listed,
            FilterMode::Deny => !listed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_allow_and_deny() {
        let list = [EventMatch::exact(0x2E, 0x50), EventMatch::any_umask(0xC0)];
        let allow = EventFilter::allow(&list);
        let deny = EventFilter::deny(&list);
        assert!(allow.permits(0x2E, 0x50) && !allow.permits(0x2E, 0x4F));
        assert!(allow.permits(0xC0, 0x12) && !allow.permits(0x3C, 0));
        assert!(!deny.permits(0x2E, 0x50) && deny.permits(0x2E, 0x4F));
        assert!(EventFilter::default().permits(0x3C, 0));
        let masked = EventMatch {
            event: 0xD1,
            umask_mask: 0xF0,
            umask_match: 0x20,
        };
        assert!(masked.matches(0xD1, 0x2F) && !masked.matches(0xD1, 0x1F));
    }
}
