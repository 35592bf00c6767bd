//! An event's attributes into its event select, through `pmu_vocab::select::encode`: the
//! function the generated `event_on` and `pmu-regs` use, so the `pmu` command, the site and the
//! generated code cannot disagree on an encoding.

use super::*;
use pmu_vocab::select::{self, Attr, Fault, FieldRuns, Run, SelectLayout};

/// The fields of an event select that hold an event's attributes (`pmu.encoding`), with
/// their bits as `pmu_vocab::select` takes them.
pub(super) struct SelectFields<'m> {
    g: &'m Generation,
    sel: &'m Register,
    fields: Vec<(Attr, &'m Field, Vec<Run>)>,
}

impl<'m> SelectFields<'m> {
    pub(super) fn of(g: &'m Generation, sel: &'m Register) -> Self {
        let fields = Attr::ALL
            .into_iter()
            .filter_map(|attr| {
                let f = encoding_field(g, sel, attr.key())?;
                let runs = f.bits.iter().map(|b| Run::new(b.lsb, b.width())).collect();
                Some((attr, f, runs))
            })
            .collect();
        SelectFields { g, sel, fields }
    }

    /// The select value of `def` with `event`/`umask` and the request's attributes `a`, and
    /// each field set: the event's attributes through `pmu_vocab::select::encode` (the
    /// function the generated `event_on` and `pmu-regs` use), then USR, OS, INT and EN.
    pub(super) fn build(
        &self,
        def: &EventDef,
        a: &Attrs,
        event: u64,
        umask: u64,
    ) -> Result<(u64, Vec<FieldValue>), Error> {
        let (g, sel, select_fields) = (self.g, self.sel, &self.fields);
        let layout = select_fields
            .iter()
            .fold(SelectLayout::EMPTY, |l, (attr, f, runs)| {
                l.with(*attr, FieldRuns::new(&f.name, runs))
            });
        let mut values = [0; Attr::COUNT];
        for (attr, v) in [
            (Attr::Event, event),
            (Attr::Umask, umask),
            (Attr::Umask2, def.umask2),
            (Attr::Eq, a.eq.into()),
            (Attr::Cmask, a.cmask),
            (Attr::Inv, a.inv.into()),
            (Attr::Edge, a.edge.into()),
            (Attr::Any, a.any.into()),
        ] {
            values[attr as usize] = v;
        }
        let mut value = match select::encode(&layout, &values) {
            Ok(e) => e.bits,
            Err(Fault::TooWide {
                attr,
                field,
                width,
                value,
            }) => {
                return Err(Error::ValueTooBig {
                    attr: attr.key().into(),
                    value,
                    field: field.into(),
                    register: sel.name.clone(),
                    width,
                });
            }
            Err(Fault::Unsupported { attr }) => return Err(unsupported(g, sel, attr.key())),
        };
        let mut fields = Vec::new();
        for (attr, field, _) in select_fields {
            let v = values[*attr as usize];
            if v != 0 {
                check_deprecation(g, field, attr.key())?;
            }
            fields.push(FieldValue {
                name: field.name.clone(),
                element: None,
                bits: bits_text(&field.bits, 0),
                value: v,
            });
        }
        let filters: [(&str, bool, bool); 4] = [
            ("usr", a.usr, true),
            ("os", a.os, true),
            ("int", a.int, false),
            ("en", a.en, false),
        ];
        for (attr, on, required) in filters {
            let Some(field) = encoding_field(g, sel, attr) else {
                if on || required {
                    return Err(unsupported(g, sel, attr));
                }
                continue;
            };
            if on {
                check_deprecation(g, field, attr)?;
            }
            value |= field.insert(0, on.into());
            fields.push(FieldValue {
                name: field.name.clone(),
                element: None,
                bits: bits_text(&field.bits, 0),
                value: on.into(),
            });
        }
        Ok((value, fields))
    }
}
