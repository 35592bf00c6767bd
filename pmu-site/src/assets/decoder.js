/* pmu-regs documentation site: the register decoder.
 *
 * Data comes from data/index.js (generations) and, per generation, data/gen/<id>.js
 * (registers, fields, constraints) and data/events/<id>.js (events), loaded with <script src>
 * so the page works from file://. Values are BigInt (registers are 64 bits wide). Text from the
 * definitions goes in with textContent only.
 *
 * The address keeps the state: decoder.html#gen=<id>&reg=<key>&i=<instance>&value=<value>
 * (a ?query with the same keys works too).
 *
 * It composes too: selecting a bit of the grid toggles it, and each field's editor (the Value
 * column) puts a new value in that field's bits; neither can set a reserved bit (the grid's
 * reserved bits are disabled, the editor writes only its field), and a reserved bit typed in
 * the value box is flagged.
 */
(function () {
  "use strict";
  var PMU = window.PMU || (window.PMU = {});
  PMU.gen = PMU.gen || {};
  PMU.events = PMU.events || {};
  var index = PMU.index;
  var $ = function (id) { return document.getElementById(id); };
  var out = $("d-out");
  var selGen = $("d-gen"), selReg = $("d-reg"), selInst = $("d-inst"), inVal = $("d-val"), selEv = $("d-ev");
  var evList = $("d-ev-list");
  /* The event picker's entries: its label (`NAME (0x2E/0x41)`) and its name, lower case, to
   * the event's row. */
  var evByText = {};
  var COLOURS = 6;
  var IDENTITY = ["event", "umask", "umask2"];

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (attrs[k] === null || attrs[k] === undefined) return;
        if (k === "text") e.textContent = attrs[k];
        else if (k === "class") e.className = attrs[k];
        else e.setAttribute(k, attrs[k]);
      });
    }
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return e;
  }
  function code(text) { return el("code", { text: text }); }
  function hex(v) { return "0x" + BigInt(v).toString(16).toUpperCase(); }
  function hexWidth(v, width) {
    var digits = Math.max(1, Math.ceil(width / 4));
    var s = BigInt(v).toString(16).toUpperCase();
    while (s.length < digits) s = "0" + s;
    return "0x" + s;
  }
  function grouped(v, width) {
    var s = hexWidth(v, width).slice(2), parts = [];
    while (s.length > 4) { parts.unshift(s.slice(-4)); s = s.slice(0, -4); }
    parts.unshift(s);
    return "0x" + parts.join("_");
  }
  function bitsText(lsb, msb) { return lsb === msb ? String(lsb) : msb + ":" + lsb; }

  function params() {
    var p = {};
    var add = function (s) {
      s.replace(/^[?#]/, "").split("&").forEach(function (kv) {
        if (!kv) return;
        var i = kv.indexOf("=");
        var k = i < 0 ? kv : kv.slice(0, i), v = i < 0 ? "" : kv.slice(i + 1);
        try { p[decodeURIComponent(k)] = decodeURIComponent(v.replace(/\+/g, " ")); } catch (e) { /* ignore */ }
      });
    };
    add(location.search);
    add(location.hash);
    return p;
  }

  var state = { gen: null, reg: null, inst: 0, value: "" };

  function saveState() {
    var h = "#gen=" + encodeURIComponent(state.gen) + "&reg=" + encodeURIComponent(state.reg);
    if (state.inst) h += "&i=" + state.inst;
    if (state.value) h += "&value=" + encodeURIComponent(state.value);
    if (location.hash === h) return;
    try { history.replaceState(null, "", h); } catch (e) { /* some browsers refuse on file:// */ }
  }

  var loading = {};
  function load(src, done) {
    if (loading[src] === true) { done(true); return; }
    if (Array.isArray(loading[src])) { loading[src].push(done); return; }
    loading[src] = [done];
    var s = document.createElement("script");
    s.src = src;
    s.onload = function () { var cbs = loading[src]; loading[src] = true; cbs.forEach(function (f) { f(true); }); };
    s.onerror = function () { var cbs = loading[src]; loading[src] = undefined; cbs.forEach(function (f) { f(false); }); };
    document.head.appendChild(s);
  }

  function summaryOf(id) {
    for (var i = 0; i < index.generations.length; i++) if (index.generations[i].id === id) return index.generations[i];
    return null;
  }
  function gen() { return PMU.gen[state.gen]; }
  function target() {
    var g = gen();
    if (!g) return null;
    for (var i = 0; i < g.targets.length; i++) if (g.targets[i].key === state.reg) return g.targets[i];
    return null;
  }
  function encodingField(g, attr) {
    for (var i = 0; i < g.encoding.length; i++) if (g.encoding[i][0] === attr) return g.encoding[i][1];
    return null;
  }
  function fieldByName(t, name) {
    for (var i = 0; i < t.fields.length; i++) if (t.fields[i].name === name) return t.fields[i];
    return null;
  }
  /* Registers whose fields include the ones events are encoded in. */
  function encodesEvents(g, t) {
    var ev = encodingField(g, "event"), um = encodingField(g, "umask");
    return t.kind === "msr" && ev && um && fieldByName(t, ev) && fieldByName(t, um);
  }

  function extract(f, i, v) {
    var shift = f.array ? f.array[1] * i : 0;
    var outv = 0n, produced = 0n;
    f.bits.forEach(function (p) {
      var w = BigInt(p[1] - p[0] + 1);
      outv |= ((v >> BigInt(p[0] + shift)) & ((1n << w) - 1n)) << produced;
      produced += w;
    });
    return outv;
  }
  function insert(f, i, x) {
    var shift = f.array ? f.array[1] * i : 0;
    var outv = 0n, consumed = 0n;
    f.bits.forEach(function (p) {
      var w = BigInt(p[1] - p[0] + 1);
      outv |= ((x >> consumed) & ((1n << w) - 1n)) << BigInt(p[0] + shift);
      consumed += w;
    });
    return outv;
  }
  function elementBits(f, i) {
    var shift = f.array ? f.array[1] * i : 0;
    return f.bits.map(function (p) { return bitsText(p[0] + shift, p[1] + shift); }).join(" and ");
  }

  function parseValue(s) {
    var t = s.trim().replace(/[_\s,']/g, "");
    if (!t) return { empty: true };
    if (/^0x[0-9a-f]+$/i.test(t)) return { v: BigInt(t) };
    if (/^0b[01]+$/i.test(t)) return { v: BigInt(t) };
    if (/^[0-9a-f]+h$/i.test(t)) return { v: BigInt("0x" + t.slice(0, -1)), note: "Read as hexadecimal (H suffix)." };
    if (/^[0-9]+$/.test(t)) return { v: BigInt(t) };
    if (/^[0-9a-f]+$/i.test(t)) return { v: BigInt("0x" + t), note: "Read as hexadecimal because it contains the digits A\u2013F; write a 0x prefix to be explicit." };
    return { error: "\u201c" + s.trim() + "\u201d is not a number: write hexadecimal with a 0x prefix, or decimal digits." };
  }

  /* ---------------- controls ---------------- */

  function fillGenerations() {
    selGen.textContent = "";
    var groups = {};
    index.generations.forEach(function (g) {
      if (!groups[g.vendor_name]) {
        groups[g.vendor_name] = el("optgroup", { label: g.vendor_name });
        selGen.appendChild(groups[g.vendor_name]);
      }
      groups[g.vendor_name].appendChild(el("option", { value: g.id, text: g.id + " \u2014 " + g.title }));
    });
  }
  function fillTargets() {
    var g = gen();
    selReg.textContent = "";
    var groups = { msr: el("optgroup", { label: "MSRs" }), cpuid: el("optgroup", { label: "CPUID outputs" }) };
    g.targets.forEach(function (t) {
      groups[t.kind].appendChild(el("option", { value: t.key, text: t.label }));
    });
    if (groups.msr.childNodes.length) selReg.appendChild(groups.msr);
    if (groups.cpuid.childNodes.length) selReg.appendChild(groups.cpuid);
    selReg.value = state.reg;
  }
  function fillInstances() {
    var t = target();
    selInst.textContent = "";
    var many = t && t.addresses.length > 1;
    $("d-inst-ctl").hidden = !many;
    if (!many) { state.inst = 0; return; }
    if (state.inst >= t.addresses.length) state.inst = 0;
    t.addresses.forEach(function (a, i) {
      selInst.appendChild(el("option", { value: String(i), text: t.name + i + " (" + a + ")" }));
    });
    selInst.value = String(state.inst);
  }
  function eventTable() { return PMU.events[state.gen] || null; }
  function fillEvents() {
    var g = gen(), t = target(), table = eventTable();
    evList.textContent = "";
    selEv.value = "";
    evByText = {};
    var show = !!(g && t && table && encodesEvents(g, t));
    $("d-ev-ctl").hidden = !show;
    if (!show) return;
    var col = columnIndex(table);
    var order = table.rows.map(function (r, i) { return i; });
    order.sort(function (a, b) { return String(table.rows[a][col.name]).localeCompare(String(table.rows[b][col.name])); });
    var frag = document.createDocumentFragment();
    order.forEach(function (i) {
      var r = table.rows[i];
      var label = r[col.name] + " (" + hex(r[col.event]) + "/" + hex(r[col.umask]) + ")";
      evByText[label.toLowerCase()] = i;
      evByText[String(r[col.name]).toLowerCase()] = i;
      frag.appendChild(el("option", { value: label }));
    });
    evList.appendChild(frag);
  }
  function columnIndex(table) {
    var c = {};
    table.columns.forEach(function (col, i) { c[col.key] = i; });
    return c;
  }

  /* Fills the value from an event: the value `cargo xtask encode` gives for it (the table's
   * value column, user and kernel mode) when it is this register's; otherwise its encoding
   * plus the bits the encoding calls usr, os and en, when the generation has them. */
  function encodeEvent(rowIndex) {
    var g = gen(), t = target(), table = eventTable();
    var col = columnIndex(table), row = table.rows[rowIndex];
    if ("value" in col && "register" in col && row[col.register] === t.key && typeof row[col.value] === "string") {
      return BigInt(row[col.value]);
    }
    var v = 0n;
    g.encoding.forEach(function (pair) {
      var attr = pair[0], f = fieldByName(t, pair[1]);
      if (!f) return;
      var x = null;
      if (attr in col) {
        var raw = row[col[attr]];
        if (raw === true) x = 1n;
        else if (typeof raw === "number") x = BigInt(raw);
        else if (typeof raw === "string" && /^0x[0-9a-f]+$/i.test(raw)) x = BigInt(raw);
      } else if (attr === "usr" || attr === "os" || attr === "en") {
        x = 1n;
      }
      if (x !== null) v |= insert(f, 0, x);
    });
    return v;
  }

  /* ---------------- decoding ---------------- */

  function matchEvents(g, t, v) {
    var table = eventTable();
    if (!table || !encodesEvents(g, t)) return null;
    var col = columnIndex(table);
    var attrs = [];
    g.encoding.forEach(function (pair) {
      var f = fieldByName(t, pair[1]);
      if (f && pair[0] in col) attrs.push({ attr: pair[0], field: pair[1], value: extract(f, 0, v) });
    });
    function val(row, a) {
      var raw = row[col[a.attr]];
      if (raw === null || raw === false || raw === undefined) return 0n;
      if (raw === true) return 1n;
      if (typeof raw === "number") return BigInt(raw);
      if (typeof raw === "string" && /^0x[0-9a-f]+$/i.test(raw)) return BigInt(raw);
      return null;
    }
    // exact: every shared attribute equal. base: same event/umask, no modifiers of its own
    // (the value adds some). related: same event/umask, other modifiers.
    var exact = [], base = [], related = [];
    table.rows.forEach(function (row) {
      var same = true, sameIdentity = true, plain = true;
      attrs.forEach(function (a) {
        var x = val(row, a);
        var identity = IDENTITY.indexOf(a.attr) !== -1;
        if (x !== a.value) { same = false; if (identity) sameIdentity = false; }
        if (!identity && x !== 0n && x !== null) plain = false;
      });
      if (same) exact.push(row);
      else if (sameIdentity && plain) base.push(row);
      else if (sameIdentity) related.push(row);
    });
    var modifiers = attrs.filter(function (a) { return IDENTITY.indexOf(a.attr) === -1 && a.value !== 0n; });
    return { exact: exact, base: base, related: related, col: col, modifiers: modifiers, attrs: attrs, val: val };
  }

  function render() {
    var g = gen(), t = target();
    out.textContent = "";
    // What is shown, for bookmarks and tests (option selection is not an attribute).
    out.setAttribute("data-gen", state.gen);
    out.setAttribute("data-reg", state.reg);
    out.setAttribute("data-instance", String(state.inst));
    if (!g || !t) {
      out.appendChild(el("p", { class: "error", text: "Unknown register " + state.reg + " in " + state.gen + "." }));
      return;
    }
    var head = el("p", { class: "note" }, [
      "Register: ", el("a", { href: t.page }, [code(t.name)]),
      t.addresses.length ? " at " + t.addresses[state.inst] + (t.addresses.length > 1 ? " (" + t.name + state.inst + ")" : "") : "",
      ", " + t.width + " bits."
    ]);
    out.appendChild(head);
    var parsed = parseValue(state.value);
    if (parsed.empty) {
      out.appendChild(el("p", { class: "muted", id: "d-empty", text: "Enter a value to decode it, or build one: select bits below or type a field's value." }));
      bitGrid(t, 0n, 0n);
      renderFields(g, t, null);
      return;
    }
    if (parsed.error) {
      out.appendChild(el("div", { class: "alert error", role: "alert", id: "d-error", text: parsed.error }));
      return;
    }
    var v = parsed.v;
    if (parsed.note) out.appendChild(el("p", { class: "note", text: parsed.note }));
    var width = BigInt(t.width);
    if (v >> width !== 0n) {
      out.appendChild(el("div", { class: "alert error", role: "alert", id: "d-error",
        text: "The value " + hex(v) + " is wider than the register (" + t.width + " bits)." }));
      return;
    }
    out.appendChild(el("div", { class: "summary" }, [
      el("span", {}, ["Hexadecimal ", el("code", { id: "d-hex", text: grouped(v, t.width) })]),
      el("span", {}, ["Decimal ", code(v.toString())])
    ]));

    var reservedMask = BigInt(t.reserved);
    var badBits = v & reservedMask;
    bitGrid(t, v, badBits);
    if (badBits !== 0n) {
      var list = [];
      for (var b = t.width - 1; b >= 0; b--) if ((badBits >> BigInt(b)) & 1n) list.push(b);
      out.appendChild(el("div", { class: "alert error", role: "alert", id: "d-reserved", "data-mask": hex(badBits) }, [
        el("strong", { text: "Reserved bits are set: " }),
        (list.length === 1 ? "bit " : "bits ") + list.join(", ") + " (" + hex(badBits) + "). No field covers them: software must not set them."
      ]));
    }

    // Constraints.
    t.constraints.forEach(function (c) {
      var fires = c.when.every(function (w) {
        var f = fieldByName(t, w[0]);
        return f && extract(f, 0, v) === BigInt(w[1]);
      });
      if (fires) {
        out.appendChild(el("div", { class: "alert " + (c.severity === "error" ? "error" : "warning"), role: "alert", "data-constraint": c.id }, [
          el("strong", { text: (c.severity === "error" ? "Error" : "Warning") + " (" + c.id + "): " }), c.message
        ]));
      }
    });

    // Event.
    var m = matchEvents(g, t, v);
    if (m) renderEvent(g, t, m);

    renderFields(g, t, v);
  }

  function renderEvent(g, t, m) {
    var box = el("div", { class: "evmatch alert", id: "d-event" });
    var evLink = function (row) {
      var name = String(row[m.col.name]);
      return el("a", { href: "gen/" + encodeURIComponent(g.id) + "/events.html#q=" + encodeURIComponent(name), "data-event": name }, [code(name)]);
    };
    var notes = function (rows) {
      var frag = document.createDocumentFragment();
      rows.forEach(function (row, i) {
        if (i) frag.appendChild(document.createTextNode(", "));
        frag.appendChild(evLink(row));
        var counters = "counters" in m.col ? row[m.col.counters] : null;
        var fixed = "fixed" in m.col ? row[m.col.fixed] : null;
        if (Array.isArray(counters) && counters.length === 0 && fixed !== null) {
          frag.appendChild(document.createTextNode(" (fixed counter " + fixed + " only)"));
        } else if (Array.isArray(counters) && t.key === g.select && counters.indexOf(state.inst) === -1) {
          frag.appendChild(el("span", { class: "tag tag-warn", text: "not on counter " + state.inst }));
        }
      });
      return frag;
    };
    if (m.exact.length) {
      box.className += " ok";
      box.setAttribute("data-match", "exact");
      box.appendChild(el("strong", { text: m.exact.length === 1 ? "Event: " : "Events: " }));
      box.appendChild(notes(m.exact));
      var doc = "doc" in m.col ? m.exact[0][m.col.doc] : "";
      if (doc && m.exact.length === 1) box.appendChild(el("div", { class: "note", text: doc }));
    } else if (m.base.length) {
      box.className += " warning";
      box.setAttribute("data-match", "base");
      box.appendChild(el("strong", { text: "Event: " }));
      box.appendChild(notes(m.base));
      box.appendChild(document.createTextNode(" with " + m.modifiers.map(function (a) {
        var f = fieldByName(t, a.field);
        return a.field + (f && f.width === 1 ? "" : " = " + hex(a.value));
      }).join(", ") + " (no event of " + g.id + " is defined with these modifiers)."));
    } else {
      box.className += " info";
      box.setAttribute("data-match", "none");
      box.appendChild(document.createTextNode("No event of " + g.id + " has " + m.attrs.filter(function (a) {
        return IDENTITY.indexOf(a.attr) !== -1;
      }).map(function (a) { return a.field + " " + hex(a.value); }).join(" and ") +
        (m.related.length ? " with these modifiers." : ".")));
    }
    if (m.related.length && !m.exact.length) {
      // Same event and umask with other modifiers: say which, so the value can be fixed.
      var list = el("div", { class: "note", id: "d-related" }, [m.base.length ? "Also defined with other modifiers: " : "Defined with other modifiers: "]);
      m.related.forEach(function (row, i) {
        if (i) list.appendChild(document.createTextNode("; "));
        list.appendChild(evLink(row));
        var mods = m.attrs.filter(function (a) { return IDENTITY.indexOf(a.attr) === -1; }).map(function (a) {
          var x = m.val(row, a);
          if (x === null || x === 0n) return null;
          var f = fieldByName(t, a.field);
          return a.field + (f && f.width === 1 ? "" : " = " + hex(x));
        }).filter(Boolean);
        list.appendChild(document.createTextNode(mods.length ? " (" + mods.join(", ") + ")" : ""));
      });
      box.appendChild(list);
    }
    out.appendChild(box);
  }

  function colourMap(t) {
    var map = {};
    t.fields.forEach(function (f, k) {
      var n = f.array ? f.array[0] : 1;
      for (var i = 0; i < n; i++) {
        var shift = f.array ? f.array[1] * i : 0;
        f.bits.forEach(function (p) {
          for (var b = p[0] + shift; b <= p[1] + shift; b++) map[b] = { c: k % COLOURS, name: f.name + (f.array ? i : "") };
        });
      }
    });
    return map;
  }

  function bitGrid(t, v, bad) {
    var map = colourMap(t);
    var grid = el("div", { class: "bitgrid", role: "group", "aria-label": "Bits of the value, most significant first" });
    var rows = Math.ceil(t.width / 32);
    for (var r = rows - 1; r >= 0; r--) {
      for (var k = 31; k >= 0; k--) {
        var b = r * 32 + k;
        grid.appendChild(el("div", { class: "n", text: b < t.width ? String(b) : "" }));
      }
      for (var k2 = 31; k2 >= 0; k2--) {
        var bit = r * 32 + k2;
        if (bit >= t.width) { grid.appendChild(el("div", {})); continue; }
        var one = ((v >> BigInt(bit)) & 1n) === 1n;
        var info = map[bit];
        var cls = "b" + (one ? " one" : "") + (info ? " c" + info.c : " r") + (((bad >> BigInt(bit)) & 1n) === 1n ? " bad" : "");
        // A field's bit toggles when selected; a reserved bit cannot be set from here.
        grid.appendChild(el("button", {
          type: "button", class: cls, "data-bit": String(bit), disabled: info ? null : "disabled",
          "aria-pressed": one ? "true" : "false",
          title: "bit " + bit + ": " + (info ? info.name + (one ? " (select to clear)" : " (select to set)") : "reserved"),
          text: one ? "1" : "0"
        }));
      }
    }
    out.appendChild(grid);
  }

  function renderFields(g, t, v) {
    var table = el("table", { class: "fields decoded-fields", id: "d-fields" });
    table.appendChild(el("thead", {}, [el("tr", {}, ["Bits", "Field", "Value", "Meaning", "Description"].map(function (h) {
      return el("th", { scope: "col", text: h });
    }))]));
    var body = el("tbody");
    t.fields.forEach(function (f, k) {
      var n = f.array ? f.array[0] : 1;
      for (var i = 0; i < n; i++) {
        var name = f.name + (f.array ? i : "");
        var x = v === null ? null : extract(f, i, v);
        var meaning = [];
        if (x !== null) {
          f.values.forEach(function (nv) { if (BigInt(nv.value) === x) meaning.push(code(nv.name)); });
          if (x !== 0n && f.deprecated) meaning.push(el("div", { class: "note" }, [el("span", { class: "tag tag-dep", text: "deprecated" }), " from " + f.deprecated.since + (f.deprecated.when ? " when " + f.deprecated.when : "")]));
          if (x !== 0n && f.requires) meaning.push(el("div", { class: "note" }, [el("span", { class: "tag tag-req", text: "requires" }), " " + f.requires]));
        }
        var attrs = { "data-field": f.name, class: x === null ? "" : (x === 0n ? "zero" : "set") };
        if (f.array) attrs["data-index"] = String(i);
        if (x !== null) attrs["data-value"] = hex(x);
        body.appendChild(el("tr", attrs, [
          el("td", { class: "bits" }, [code(elementBits(f, i))]),
          el("td", { class: "fname" }, [el("span", { class: "swatch c" + (k % COLOURS), "aria-hidden": "true" }), code(name)]),
          el("td", { class: "val" }, [
            x === null ? null : code(hex(x)),
            f.width > 1 && x !== null && x > 9n ? el("span", { class: "note", text: " = " + x.toString() }) : null,
            el("input", {
              type: "text", class: "fedit", spellcheck: "false", "data-field": f.name, "data-index": f.array ? String(i) : null,
              value: hex(x === null ? 0n : x), "aria-label": "Value of " + name + " (" + f.width + (f.width === 1 ? " bit" : " bits") + ")"
            })
          ]),
          el("td", {}, meaning),
          el("td", { class: "doc", text: f.doc.replace(/\s+/g, " ").trim() })
        ]));
      }
    });
    table.appendChild(body);
    out.appendChild(el("div", { class: "table-wrap" }, [table]));
  }

  /* ---------------- composing ---------------- */

  /* The value shown now (0 when the box is empty), or null when it does not parse. */
  function currentValue() {
    var p = parseValue(state.value);
    return p.empty ? 0n : (p.error ? null : p.v);
  }
  /* Shows a composed value: the box, the address and the decoding follow. `focus` names the
   * field editor to focus again after the page is redrawn. */
  function setValue(v, focus) {
    state.value = "0x" + v.toString(16).toUpperCase();
    inVal.value = state.value;
    saveState();
    render();
    if (focus) {
      var sel = 'input.fedit[data-field="' + focus.field + '"]' + (focus.index !== null ? '[data-index="' + focus.index + '"]' : "");
      var again = out.querySelector(sel);
      if (again) again.focus();
    }
  }
  function toggleBit(bit) {
    var v = currentValue(), t = target();
    if (v === null || !t) return;
    if ((BigInt(t.reserved) >> BigInt(bit)) & 1n) return; // never set a reserved bit here
    setValue(v ^ (1n << BigInt(bit)));
  }
  /* A field's new value from its editor: checked against the field's width, then put in its
   * bits only, so the editor can never set a reserved bit. */
  function editField(input) {
    var t = target(), v = currentValue();
    if (!t || v === null) return;
    var f = fieldByName(t, input.getAttribute("data-field"));
    if (!f) return;
    var idx = input.hasAttribute("data-index") ? parseInt(input.getAttribute("data-index"), 10) : 0;
    var p = parseValue(input.value);
    var max = (1n << BigInt(f.width)) - 1n;
    var problem = p.error ? p.error : (p.empty ? null : (p.v > max
      ? hex(p.v) + " does not fit: " + f.name + " is " + f.width + (f.width === 1 ? " bit" : " bits") + " wide (at most " + hex(max) + ")."
      : null));
    var cell = input.parentNode;
    var old = cell.querySelector(".ferr");
    if (old) cell.removeChild(old);
    if (problem) {
      input.setAttribute("aria-invalid", "true");
      cell.appendChild(el("div", { class: "ferr error", role: "alert", text: problem }));
      return;
    }
    var x = p.empty ? 0n : p.v;
    var mask = insert(f, idx, max);
    setValue((v & ~mask) | insert(f, idx, x), { field: f.name, index: input.hasAttribute("data-index") ? String(idx) : null });
  }

  /* ---------------- wiring ---------------- */

  function withGeneration(id, done) {
    var s = summaryOf(id);
    if (!s) { done(false); return; }
    var pending = s.events_data ? 2 : 1, ok = true;
    var finish = function (loaded) { ok = ok && loaded; if (--pending === 0) done(ok); };
    // Both files load in parallel.
    load(s.data, finish);
    // Without events the registers still decode, so a failed events file is not fatal.
    if (s.events_data) load(s.events_data, function () { finish(true); });
  }

  function chooseTarget(g, wanted) {
    var keys = g.targets.map(function (t) { return t.key; });
    if (wanted && keys.indexOf(wanted) !== -1) return wanted;
    if (g.select && keys.indexOf(g.select) !== -1) return g.select;
    return keys.length ? keys[0] : null;
  }

  function switchGeneration(id, wantedReg) {
    state.gen = id;
    selGen.value = id;
    out.textContent = "";
    out.appendChild(el("p", { class: "muted", text: "Loading " + id + "\u2026" }));
    withGeneration(id, function (ok) {
      if (state.gen !== id) return;
      if (!ok || !gen()) {
        out.textContent = "";
        out.appendChild(el("p", { class: "error", text: "The data for " + id + " did not load." }));
        return;
      }
      state.reg = chooseTarget(gen(), wantedReg || state.reg);
      fillTargets();
      fillInstances();
      fillEvents();
      saveState();
      render();
    });
  }

  function start() {
    if (!index || !index.generations || !index.generations.length) {
      out.textContent = "";
      out.appendChild(el("p", { class: "error", text: "The generation list (data/index.js) did not load." }));
      return;
    }
    fillGenerations();
    var p = params();
    var def = index.default || { generation: index.generations[0].id, target: null };
    var id = p.gen && summaryOf(p.gen) ? p.gen : def.generation;
    state.value = p.value || "";
    state.inst = /^[0-9]+$/.test(p.i || "") ? parseInt(p.i, 10) : 0;
    inVal.value = state.value;
    var reg = p.reg || (id === def.generation ? def.target : null);
    switchGeneration(id, reg);

    selGen.addEventListener("change", function () { switchGeneration(selGen.value, state.reg); });
    selReg.addEventListener("change", function () {
      state.reg = selReg.value; state.inst = 0;
      fillInstances(); fillEvents(); saveState(); render();
    });
    selInst.addEventListener("change", function () {
      state.inst = parseInt(selInst.value, 10) || 0; saveState(); render();
    });
    inVal.addEventListener("input", function () {
      state.value = inVal.value.trim(); saveState(); render();
    });
    out.addEventListener("click", function (e) {
      var b = e.target.closest ? e.target.closest("button[data-bit]") : null;
      if (b && !b.disabled) toggleBit(parseInt(b.getAttribute("data-bit"), 10));
    });
    out.addEventListener("change", function (e) {
      if (e.target.classList && e.target.classList.contains("fedit")) editField(e.target);
    });
    /* The event field: a name (or a suggestion's label) typed or picked in full fills the
     * value; anything else waits for more typing. */
    function pickEvent(e) {
      var i = evByText[selEv.value.trim().toLowerCase()];
      if (e.type === "change") {
        selEv.setAttribute("aria-invalid", selEv.value.trim() !== "" && i === undefined ? "true" : "false");
      }
      if (i === undefined) return;
      var t = target();
      state.value = grouped(encodeEvent(i), t.width).replace(/_/g, "");
      inVal.value = state.value;
      saveState(); render();
    }
    selEv.addEventListener("input", pickEvent);
    selEv.addEventListener("change", pickEvent);
    $("decoder").addEventListener("submit", function (e) { e.preventDefault(); });
    window.addEventListener("hashchange", function () {
      var q = params();
      if (q.value !== undefined && q.value !== state.value) { state.value = q.value; inVal.value = q.value; }
      if (q.gen && q.gen !== state.gen && summaryOf(q.gen)) { switchGeneration(q.gen, q.reg); return; }
      if (q.reg && q.reg !== state.reg && gen()) { state.reg = chooseTarget(gen(), q.reg); fillTargets(); fillInstances(); fillEvents(); }
      render();
    });
  }

  start();
})();
