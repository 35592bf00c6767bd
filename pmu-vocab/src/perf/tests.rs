//! The parser and the spelling tables.

use super::*;

#[test]
fn names_with_modifiers() {
    let s = parse(" LLC_MISSES:u:cmask=0x2,inv ").unwrap();
    assert_eq!(s.event, Event::Name("LLC_MISSES"));
    let m = s.modifiers;
    assert_eq!(
        (m.usr, m.os, m.cmask, m.inv),
        (Some(true), None, Some(2), Some(true))
    );
    assert_eq!(parse("X:k=0").unwrap().modifiers.os, Some(false));
    let e = parse("LLC_MISSES:u:bogus").unwrap();
    assert!(e.modifiers.is_empty(), "left to the resolver");
    assert_eq!(
        e.modifier_error,
        Some(SyntaxError {
            at: 13,
            kind: ErrorKind::UnknownModifier
        })
    );
    assert_eq!(
        Modifiers::parse("u:u", 11),
        Err(SyntaxError {
            at: 13,
            kind: ErrorKind::ModifierTwice
        })
    );
    assert_eq!(
        Modifiers::parse("cmask", 0).unwrap_err().kind,
        ErrorKind::NeedsValue
    );
    assert_eq!(
        Modifiers::parse("u=2", 0).unwrap_err().kind,
        ErrorKind::FlagValue
    );
    let m = Modifiers::parse("ldlat=3,offcore_rsp=0x10001", 0).unwrap();
    assert_eq!((m.ldlat, m.offcore_rsp), (Some(3), Some(0x10001)));
}

#[test]
fn a_repeated_modifier_stops_the_parse_at_its_second_occurrence() {
    // 500,000 `:u`: the error is at the second, whatever follows.
    let mut long = [0u8; 1_000_002];
    long[..2].copy_from_slice(b"X:");
    for i in 0..500_000 {
        long[2 + 2 * i] = b'u';
        long[3 + 2 * i] = b':';
    }
    let text = core::str::from_utf8(&long[2..]).unwrap();
    assert_eq!(
        Modifiers::parse(text, 2),
        Err(SyntaxError {
            at: 4,
            kind: ErrorKind::ModifierTwice
        })
    );
}

#[test]
fn perf_strings() {
    let s = parse("cpu/event=0x3c,any=1,period=2000003/").unwrap();
    let Event::Terms(t) = s.event else {
        panic!("{s:?}")
    };
    assert_eq!(
        (t.get(Term::Event), t.get(Term::Any)),
        (Some(0x3C), Some(1))
    );
    assert_eq!((t.period, t.get(Term::Umask)), (Some(2_000_003), None));
    assert!(s.modifiers.is_empty());
    let s = parse("cpu_atom/config=0x5300c0,edge/k").unwrap();
    let Event::Terms(t) = s.event else {
        panic!("{s:?}")
    };
    assert_eq!((t.config, t.get(Term::Edge)), (Some(0x53_00C0), Some(1)));
    assert_eq!((s.modifiers.usr, s.modifiers.os), (Some(false), Some(true)));
    let err = |s| parse(s).unwrap_err().kind;
    assert_eq!(err("cpu/event=1,event=2/"), ErrorKind::TermTwice);
    assert_eq!(err("cpu/event=0xzz/"), ErrorKind::BadNumber);
    assert_eq!(err("cpu/foo=1/"), ErrorKind::UnknownTerm);
    assert_eq!(err("cpu/event/"), ErrorKind::NeedsValue);
    assert_eq!(err("cpu/event=1"), ErrorKind::Unclosed);
    assert_eq!(err("cpu/event=1/uu"), ErrorKind::ModifierTwice);
    assert_eq!(err("cpu/event=1/x"), ErrorKind::UnknownModifier);
    assert_eq!(err("c-p-u/event=1/"), ErrorKind::BadPmu);
    assert_eq!(err("  "), ErrorKind::Empty);
    assert_eq!(parse("cpu/event=1/q").unwrap_err().at, 12);
}

#[test]
fn raw_configs() {
    assert_eq!(parse("r20d1").unwrap().event, Event::Raw(0x20D1));
    assert_eq!(parse("rFFFF").unwrap().event, Event::Raw(0xFFFF));
    // Not hex, or too long: a name.
    assert_eq!(parse("r20g1").unwrap().event, Event::Name("r20g1"));
    assert_eq!(
        parse("r11112222333344445").unwrap().event,
        Event::Name("r11112222333344445")
    );
}

#[test]
fn a_name_with_colons_splits_longest_first() {
    let s = parse("OFFCORE_RESPONSE:request=ALL_RD:response=ANY:u").unwrap();
    let splits: [(&str, usize); 4] = {
        let mut out = [("", 0); 4];
        for (i, x) in s.modifier_splits().enumerate() {
            out[i] = x;
        }
        out
    };
    assert_eq!(
        splits[0].0,
        "OFFCORE_RESPONSE:request=ALL_RD:response=ANY:u"
    );
    assert_eq!(splits[1].0, "OFFCORE_RESPONSE:request=ALL_RD:response=ANY");
    assert_eq!(splits[2].0, "OFFCORE_RESPONSE:request=ALL_RD");
    assert_eq!(splits[3].0, "OFFCORE_RESPONSE");
    assert_eq!(parse("A").unwrap().modifier_splits().count(), 1);
}

#[test]
fn numbers_terms_and_real_events() {
    assert_eq!(parse_number("0x1_0"), Some(16));
    assert_eq!(parse_number("0b101"), Some(5));
    assert_eq!(parse_number("12"), Some(12));
    assert_eq!(parse_number("0x"), None);
    assert_eq!(parse_number("99999999999999999999999"), None);
    assert_eq!(Term::from_key("OFFCORE_RSP"), Some(Term::OffcoreRsp));
    assert_eq!(Term::for_msr(0x3F6), Some(Term::Ldlat));
    assert!(Term::Cmask.is_decimal() && !Term::Umask.is_decimal());
    assert_eq!(
        real_event("cpu_clk_unhalted.ref"),
        Some(&[(Term::Event, "0x0"), (Term::Umask, "0x03")][..])
    );
    assert_eq!(pmu_for_core_role("LowPower_Atom"), "cpu_lowpower");
    let mut b = [0u8; 8];
    let mut w = Buf(&mut b, 0);
    use core::fmt::Write;
    write!(w, "{},{}", Llx(9), Llx(10)).unwrap();
    assert_eq!(&w.0[..w.1], b"9,0xa");
}

struct Buf<'a>(&'a mut [u8], usize);
impl core::fmt::Write for Buf<'_> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.0[self.1..self.1 + s.len()].copy_from_slice(s.as_bytes());
        self.1 += s.len();
        Ok(())
    }
}

#[test]
fn precision() {
    let level = |list: &str| Modifiers::parse(list, 0).map(|m| m.precise);
    assert_eq!(level("u"), Ok(None));
    assert_eq!(level("p"), Ok(Some(1)));
    assert_eq!(level("u:pp"), Ok(Some(2)));
    assert_eq!(level("ppp"), Ok(Some(3)));
    assert_eq!(level("precise=0"), Ok(Some(0)));
    let err = |list: &str| Modifiers::parse(list, 0).unwrap_err().kind;
    assert_eq!(err("pppp"), ErrorKind::BadPrecise);
    assert_eq!(err("precise=4"), ErrorKind::BadPrecise);
    assert_eq!(err("precise"), ErrorKind::NeedsValue);
    assert_eq!(err("p:pp"), ErrorKind::ModifierTwice);
    let s = parse("cpu/event=0xd1,umask=0x20/kpp").unwrap();
    assert_eq!((s.modifiers.precise, s.modifiers.os), (Some(2), Some(true)));
    let e = parse("cpu/event=0xd1/pppp").unwrap_err();
    // At the fourth `p`, the one past ppp.
    assert_eq!((e.at, e.kind), (18, ErrorKind::BadPrecise));
}
