//! An event's flags by [`EventFlag`]: the accessors are made from the one list of flags
//! (`vocab::for_each_event_flag`), so a flag the list names and [`Event`] lacks does not
//! compile.

use super::Event;
use crate::vocab::{EventFlag, for_each_event_flag};

/// Where [`Event`] keeps a flag: `bool`, or `Option<bool>` where "not stated" is kept apart.
trait FlagSlot {
    fn get(&self) -> Option<bool>;
    fn set(&mut self, value: bool);
}

impl FlagSlot for bool {
    fn get(&self) -> Option<bool> {
        Some(*self)
    }
    fn set(&mut self, value: bool) {
        *self = value;
    }
}

impl FlagSlot for Option<bool> {
    fn get(&self) -> Option<bool> {
        *self
    }
    fn set(&mut self, value: bool) {
        *self = Some(value);
    }
}

macro_rules! flag_access {
    ($($field:ident: $key:literal, $label:literal, $intel:expr, $tri:literal, $doc:literal;)*) => {
        impl Event {
            /// The event's value of `flag`; `None` when the event does not state it (only a
            /// [`EventFlag::tristate`] flag can be unstated).
            pub fn flag(&self, flag: &EventFlag) -> Option<bool> {
                $(if flag.field == stringify!($field) {
                    return FlagSlot::get(&self.$field);
                })*
                None
            }

            /// Sets `flag` to `value` (a tristate flag becomes stated).
            pub fn set_flag(&mut self, flag: &EventFlag, value: bool) {
                $(if flag.field == stringify!($field) {
                    return FlagSlot::set(&mut self.$field, value);
                })*
            }
        }
    };
}
for_each_event_flag!(flag_access);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;
    use crate::vocab::EVENT_FLAGS;

    #[test]
    fn every_flag_reads_back_what_was_set_and_only_tristate_ones_start_unstated() {
        for f in EVENT_FLAGS {
            let mut e = Event::blank("E".into(), "g".into(), Span::new(0, 0, 0));
            let start = if f.tristate { None } else { Some(false) };
            assert_eq!(e.flag(f), start, "{}", f.key);
            e.set_flag(f, true);
            assert_eq!(e.flag(f), Some(true), "{}", f.key);
            let others = EVENT_FLAGS.iter().filter(|g| g.field != f.field);
            for g in others {
                let start = if g.tristate { None } else { Some(false) };
                assert_eq!(e.flag(g), start, "setting {} changed {}", f.key, g.key);
            }
        }
    }

    #[test]
    fn keys_and_fields_are_unique_and_spelled_alike() {
        for (i, f) in EVENT_FLAGS.iter().enumerate() {
            assert_eq!(f.key.replace('-', "_"), f.field, "{}", f.key);
            assert!(EVENT_FLAGS[..i].iter().all(|g| g.key != f.key), "{}", f.key);
        }
    }
}
