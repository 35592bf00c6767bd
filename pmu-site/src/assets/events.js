/* pmu-regs documentation site: the event table of one generation, built from
 * data/events/<id>.js, filtered by name and code, by counter and by the checkboxes (each row
 * carries its filter tags in data-tags, from the data's `filters` column), and sorted by a
 * column (its header's button; aria-sort says how). A row shows the main columns (name with
 * its permalink, code, modifiers, counters, perf string and value with copy buttons); its
 * Details button shows every other attribute, the Rust path with a copy button too. Text goes
 * in with textContent only.
 *
 * The address keeps the state: events.html#q=<filter>&open=<event name>&only=<tag>
 * &counter=<tag>&sort=<column key, - first for descending>; #ev-<event name> is an event's
 * permalink (its row opened and scrolled to).
 *
 * The rows are drawn in parts, each row's elements made when it is first drawn or opened:
 * the first FIRST (or up to the permalink's row) before the page
 * shows, then four times as many more at each step (a table of 2,351 rows costs the
 * browser seconds of layout at once). A filter draws every row at once (hidden rows cost
 * little). The table has aria-busy="true" until every row is in it. */
(function () {
  "use strict";
  var main = document.getElementById("main");
  var gen = main.getAttribute("data-gen");
  var root = main.getAttribute("data-root") || "";
  var body = document.getElementById("ev-body");
  var input = document.getElementById("ev-q");
  var count = document.getElementById("ev-count");
  var table = window.PMU && PMU.events && PMU.events[gen];
  if (!table) {
    count.textContent = "The event data (data/events/" + gen + ".js) did not load.";
    return;
  }
  var cols = table.columns;
  function col(key) {
    for (var i = 0; i < cols.length; i++) if (cols[i].key === key) return i;
    return -1;
  }
  var iName = col("name"), iEvent = col("event"), iUmask = col("umask"), iReg = col("register");
  var iUmask2 = col("umask2"), iTags = col("filters");

  function hex(v) {
    if (typeof v === "number") return "0x" + v.toString(16).toUpperCase();
    return String(v);
  }
  function ranges(list) {
    var nums = list.slice().sort(function (a, b) { return a - b; });
    var out = [];
    for (var i = 0; i < nums.length; i++) {
      var start = nums[i], end = start;
      while (i + 1 < nums.length && nums[i + 1] === end + 1) end = nums[++i];
      out.push(start === end ? String(start) : start + "\u2013" + end);
    }
    return out.join(", ");
  }
  function isDefault(v) {
    if (v === null || v === undefined || v === false || v === 0 || v === "") return true;
    if (Array.isArray(v)) return v.length === 0;
    if (typeof v === "object") return Object.keys(v).every(function (k) { return isDefault(v[k]); });
    return false;
  }
  /* Any value in words, never JSON syntax. */
  function words(v) {
    if (v === null || v === undefined) return "";
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (Array.isArray(v)) return v.map(words).join(", ");
    if (typeof v === "object") {
      return Object.keys(v).filter(function (k) { return !isDefault(v[k]); }).map(function (k) {
        return k.replace(/_/g, " ") + " " + words(v[k]);
      }).join("; ");
    }
    return String(v);
  }
  function allNumbers(v) {
    return Array.isArray(v) && v.every(function (x) { return typeof x === "number"; });
  }
  function counterWords(general, fixed) {
    var parts = [];
    if (general.length) parts.push(ranges(general));
    if (fixed.length) parts.push("fixed " + ranges(fixed));
    if (!parts.length) return "none";
    return parts.length === 1 && !general.length ? parts[0] + " only" : parts.join(", ");
  }
  function format(kind, v) {
    if (v === null || v === undefined) return "";
    switch (kind) {
      case "hex": return hex(v);
      case "hexlist": return Array.isArray(v) ? v.map(hex).join(", ") : words(v);
      case "flag": return v === true ? "yes" : (v === false ? "" : words(v));
      case "list": return allNumbers(v) ? ranges(v) : words(v);
      case "counterset":
        return v && allNumbers(v.general) && allNumbers(v.fixed) ? counterWords(v.general, v.fixed) : words(v);
      case "msr":
        return v && typeof v === "object" ? hex(v.index) + " = " + hex(v.value) : words(v);
      case "allow":
        return Array.isArray(v)
          ? v.map(function (a) { return a && typeof a === "object" ? a.code + ": " + a.reason : words(a); }).join("; ")
          : words(v);
      default: return words(v);
    }
  }

  /* A code element holding `text`, with a line-break opportunity after each `.`, `_`, `,`,
   * `/` and `::` (long names and perf strings wrap there, not inside a word). */
  function breakable(text) {
    var code = document.createElement("code");
    text.split(/(?<=[._,\/]|::)/).forEach(function (part, i) {
      if (i) code.appendChild(document.createElement("wbr"));
      code.appendChild(document.createTextNode(part));
    });
    return code;
  }

  /* The rustdoc anchor of an enum variant's path (the table's `rustdoc` is rust::RUSTDOC):
   * a::b::Enum::Variant -> <rustdoc>a/b/enum.Enum.html#variant.Variant, no r#. */
  function variantDoc(path) {
    var seg = path.split("::").map(function (s) { return s.replace(/^r#/, ""); });
    var variant = seg.pop(), ty = seg.pop();
    return table.rustdoc + seg.join("/") + "/enum." + ty + ".html#variant." + variant;
  }

  /* A code element and a button that copies its text (the copy buttons of site.js); a Rust
   * path links to its documentation. */
  function copyCell(td, text, what, key) {
    var code = breakable(text);
    if (key === "rust" && table.rustdoc) {
      var a = document.createElement("a");
      a.className = "rustdoc";
      a.href = variantDoc(text);
      a.title = "Its documentation on docs.rs";
      a.appendChild(code);
      code = a;
    }
    td.appendChild(code);
    var b = document.createElement("button");
    b.type = "button";
    b.className = "copy";
    b.textContent = "Copy";
    b.setAttribute("aria-label", "Copy the " + what);
    b.setAttribute("data-copy", text);
    td.appendChild(document.createTextNode(" "));
    td.appendChild(b);
  }

  var shown = [];
  cols.forEach(function (c, i) { if (c.place === "main" && c.show) shown.push(i); });
  var detailCols = [];
  cols.forEach(function (c, i) { if (c.place === "details" && c.show) detailCols.push(i); });

  function details(r) {
    var tr = document.createElement("tr");
    tr.className = "details";
    var td = document.createElement("td");
    td.colSpan = shown.length + 1;
    var dl = document.createElement("dl");
    dl.className = "facts";
    detailCols.forEach(function (i) {
      var c = cols[i], v = r[i];
      if (isDefault(v) && c.key !== "register") return;
      var text = format(c.kind, v);
      if (text === "") return;
      var dt = document.createElement("dt");
      dt.textContent = c.label;
      var dd = document.createElement("dd");
      dd.setAttribute("data-key", c.key);
      if (c.kind === "copy") {
        copyCell(dd, text, c.label, c.key);
      } else if (c.kind === "gen") {
        var a = document.createElement("a");
        a.href = root + "gen/" + encodeURIComponent(text) + "/index.html";
        a.textContent = text;
        dd.appendChild(a);
      } else {
        dd.textContent = text;
      }
      dl.appendChild(dt);
      dl.appendChild(dd);
    });
    // A site built without the vendor's descriptions: where this event's is.
    if (table.source) {
      var sdt = document.createElement("dt");
      sdt.textContent = "Description";
      var sdd = document.createElement("dd");
      sdd.setAttribute("data-key", "description");
      var link = document.createElement("a");
      link.href = table.source.url;
      link.textContent = table.source.label;
      sdd.appendChild(document.createTextNode("In " + table.source.owner + ": "));
      sdd.appendChild(link);
      dl.appendChild(sdt);
      dl.appendChild(sdd);
    }
    td.appendChild(dl);
    tr.appendChild(td);
    return tr;
  }

  function toggle(r, open) {
    draw(r);
    if (open === undefined) open = !r.detail || r.detail.hidden;
    if (open && !r.detail) {
      r.detail = details(r.data);
      // A row not drawn yet gets its details row when it is (attach).
      if (r.tr.parentNode) r.tr.parentNode.insertBefore(r.detail, r.tr.nextSibling);
    }
    if (r.detail) r.detail.hidden = !open || r.tr.hidden;
    r.button.setAttribute("aria-expanded", open ? "true" : "false");
    r.button.textContent = open ? "Hide" : "Details";
    r.open = open;
  }

  /* A row's elements, made when it is first drawn (or opened). */
  function draw(row) {
    if (row.tr) return row.tr;
    var r = row.data;
    var tr = document.createElement("tr");
    if (iName >= 0) tr.id = "ev-" + r[iName];
    shown.forEach(function (i) {
      var c = cols[i];
      var td = document.createElement("td");
      td.className = "c-" + c.key;
      var text = format(c.kind, r[i]);
      if (text !== "") {
        if (c.kind === "copy") {
          copyCell(td, text, c.label);
          if (c.key === "value" && iReg >= 0 && r[iReg] && r[iReg] !== table.select) {
            var note = document.createElement("div");
            note.className = "note";
            note.textContent = "in " + r[iReg];
            td.appendChild(note);
          }
        } else if (c.kind === "name") {
          td.appendChild(breakable(text));
          var link = document.createElement("a");
          link.className = "permalink";
          link.href = "#ev-" + encodeURIComponent(text);
          link.textContent = "#";
          link.setAttribute("aria-label", "Link to " + text);
          td.appendChild(document.createTextNode(" "));
          td.appendChild(link);
        } else if (c.key === "code") {
          var code = document.createElement("code");
          code.textContent = text;
          td.appendChild(code);
        } else {
          td.textContent = text;
        }
      }
      tr.appendChild(td);
    });
    var more = document.createElement("td");
    more.className = "c-more";
    var button = document.createElement("button");
    button.type = "button";
    button.className = "more";
    button.textContent = "Details";
    button.setAttribute("aria-expanded", "false");
    more.appendChild(button);
    tr.appendChild(more);
    tr.setAttribute("data-tags", row.tags.join(" "));
    tr.hidden = row.hidden;
    row.tr = tr;
    row.button = button;
    button.addEventListener("click", function () { toggle(row); saveHash(); });
    return tr;
  }
  var rows = table.rows.map(function (r) {
    return {
      tr: null,
      data: r,
      button: null,
      detail: null,
      open: false,
      hidden: false,
      tags: iTags >= 0 && Array.isArray(r[iTags]) ? r[iTags] : [],
      rawName: iName >= 0 ? String(r[iName]) : "",
      name: iName >= 0 ? String(r[iName]).toLowerCase() : "",
      event: iEvent >= 0 ? r[iEvent] : null,
      umask: iUmask >= 0 ? r[iUmask] : null
    };
  });
  rows.forEach(function (r, i) { r.order = i; });

  /* Drawing in parts: `order` is the rows in the table's order, the first `drawn` of them in
   * the table. */
  var FIRST = 100;
  var order = rows.slice(), drawn = 0, pending = null;
  var tableEl = document.getElementById("ev-table");
  function attach(upTo) {
    upTo = Math.min(upTo, order.length);
    if (upTo <= drawn) return;
    var f = document.createDocumentFragment();
    for (; drawn < upTo; drawn++) {
      f.appendChild(draw(order[drawn]));
      if (order[drawn].detail) f.appendChild(order[drawn].detail);
    }
    body.appendChild(f);
    if (drawn === order.length && tableEl) tableEl.removeAttribute("aria-busy");
  }
  function drawRest() {
    if (pending !== null || drawn >= order.length) return;
    if (tableEl) tableEl.setAttribute("aria-busy", "true");
    pending = setTimeout(function step() {
      attach(5 * drawn);
      pending = drawn < order.length ? setTimeout(step, 0) : null;
    }, 0);
  }

  /* Sorting: by the column's value (numbers and BigInt hex values as numbers, text in natural
   * order); the rows keep their details row after them. */
  var sortKey = "", sortDesc = false;
  var headers = Array.prototype.slice.call(document.querySelectorAll("#ev-table thead button.sort"));
  function sortValue(r, key) {
    var v = r.data[col(key)];
    if (key === "code") {
      return (r.event || 0) * 65536 * 256 + (r.umask || 0) * 256 + (iUmask2 >= 0 && r.data[iUmask2] ? r.data[iUmask2] : 0);
    }
    if (key === "value" && typeof v === "string" && /^0x[0-9a-f]+$/i.test(v)) return BigInt(v);
    if (v === null || v === undefined) return "";
    return typeof v === "number" ? v : format(cols[col(key)].kind, v);
  }
  function compare(a, b) {
    if (typeof a === typeof b && typeof a !== "string") return a < b ? -1 : (a > b ? 1 : 0);
    return String(a).localeCompare(String(b), "en", { numeric: true });
  }
  function sortRows() {
    var list = rows.slice();
    if (sortKey) {
      var keyed = list.map(function (r) { return [sortValue(r, sortKey), r]; });
      keyed.sort(function (x, y) {
        var c = compare(x[0], y[0]);
        if (sortDesc) c = -c;
        return c || x[1].order - y[1].order;
      });
      list = keyed.map(function (x) { return x[1]; });
    }
    // The rows drawn so far, in the new order.
    var n = drawn;
    order = list;
    drawn = 0;
    body.textContent = "";
    attach(n);
    headers.forEach(function (b) {
      var th = b.parentNode;
      if (b.getAttribute("data-key") === sortKey) {
        th.setAttribute("aria-sort", sortDesc ? "descending" : "ascending");
      } else {
        th.removeAttribute("aria-sort");
      }
    });
  }
  headers.forEach(function (b) {
    b.addEventListener("click", function () {
      var key = b.getAttribute("data-key");
      if (sortKey === key) sortDesc = !sortDesc;
      else { sortKey = key; sortDesc = false; }
      sortRows();
      saveHash();
    });
  });

  /* The checkboxes and the counter choice: a row stays when its data-tags has every tag. */
  var boxes = Array.prototype.slice.call(document.querySelectorAll("#ev-facets input[data-tag]"));
  var counterSel = document.getElementById("ev-counter");
  function wanted() {
    var tags = boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.getAttribute("data-tag"); });
    if (counterSel && counterSel.value) tags.push(counterSel.value);
    return tags;
  }
  boxes.concat(counterSel ? [counterSel] : []).forEach(function (el) {
    el.addEventListener("change", function () { apply(); saveHash(); });
  });

  var pair = /^(?:0x)?([0-9a-f]{1,4})[.:\/](?:0x)?([0-9a-f]{1,4})$/i;
  var code = /^(?:0x)?([0-9a-f]{1,4})$/i;
  function matcher(token) {
    var t = token.toLowerCase();
    var m = pair.exec(t);
    if (m) {
      var ev = parseInt(m[1], 16), um = parseInt(m[2], 16);
      return function (r) { return r.event === ev && r.umask === um; };
    }
    m = code.exec(t);
    if (m) {
      var c = parseInt(m[1], 16);
      var named = t.indexOf("0x") !== 0;
      return function (r) { return r.event === c || (named && r.name.indexOf(t) !== -1); };
    }
    return function (r) { return r.name.indexOf(t) !== -1; };
  }
  function apply() {
    var tokens = input.value.trim().split(/\s+/).filter(Boolean);
    var tests = tokens.map(matcher);
    var need = wanted();
    var n = 0;
    rows.forEach(function (r) {
      var ok = tests.every(function (f) { return f(r); }) &&
        need.every(function (t) { return r.tags.indexOf(t) !== -1; });
      r.hidden = !ok;
      if (r.tr) r.tr.hidden = !ok;
      if (r.detail) r.detail.hidden = !ok || !r.open;
      if (ok) n++;
    });
    // Filtered: every row at once (the hidden ones cost little).
    if (tokens.length || need.length) attach(order.length);
    count.textContent = tokens.length || need.length
      ? "Showing " + n + " of " + rows.length + (rows.length === 1 ? " event" : " events")
      : rows.length + (rows.length === 1 ? " event" : " events");
  }
  function saveHash() {
    var parts = [];
    if (input.value) parts.push("q=" + encodeURIComponent(input.value));
    rows.forEach(function (r) { if (r.open) parts.push("open=" + encodeURIComponent(r.rawName)); });
    boxes.forEach(function (b) { if (b.checked) parts.push("only=" + b.getAttribute("data-tag")); });
    if (counterSel && counterSel.value) parts.push("counter=" + counterSel.value);
    if (sortKey) parts.push("sort=" + (sortDesc ? "-" : "") + sortKey);
    var h = "#" + parts.join("&");
    try { history.replaceState(null, "", h); } catch (e) { /* file:// in some browsers */ }
  }
  function fromHash() {
    var q = "", open = [], only = [], counter = "", sort = "", target = null;
    var hash = location.hash.replace(/^#/, "");
    if (/^ev-/.test(hash)) {
      // A permalink: that event's row, opened.
      try { target = decodeURIComponent(hash.slice(3)); } catch (e) { target = null; }
      if (target !== null) open.push(target);
    }
    hash.split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i < 0 || target !== null) return;
      var v;
      try { v = decodeURIComponent(kv.slice(i + 1).replace(/\+/g, " ")); } catch (e) { return; }
      var k = kv.slice(0, i);
      if (k === "q") q = v;
      else if (k === "open") open.push(v);
      else if (k === "only") only.push(v);
      else if (k === "counter") counter = v;
      else if (k === "sort") sort = v;
    });
    input.value = q;
    boxes.forEach(function (b) { b.checked = only.indexOf(b.getAttribute("data-tag")) !== -1; });
    if (counterSel) counterSel.value = counter;
    sortDesc = sort.charAt(0) === "-";
    sortKey = sort.replace(/^-/, "");
    if (sortKey && col(sortKey) < 0) sortKey = "";
    rows.forEach(function (r) {
      var want = open.indexOf(r.rawName) !== -1;
      if (want !== r.open) toggle(r, want);
    });
    sortRows();
    return target;
  }
  function reveal(name) {
    order.forEach(function (r, i) {
      if (r.rawName !== name) return;
      attach(i + FIRST);
      if (r.tr.scrollIntoView) r.tr.scrollIntoView({ block: "center" });
    });
  }
  input.addEventListener("input", function () { apply(); saveHash(); });
  window.addEventListener("hashchange", function () {
    var t = fromHash();
    apply();
    if (t !== null) reveal(t);
  });
  var first = fromHash();
  apply();
  attach(FIRST);
  if (first !== null) reveal(first);
  drawRest();
})();
