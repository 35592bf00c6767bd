/* pmu-regs documentation site: the event table of one generation, built from
 * data/events/<id>.js and filtered by name and code. Text goes in with textContent only. */
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
  var iName = col("name"), iEvent = col("event"), iUmask = col("umask");

  function hex(v) {
    return typeof v === "number" ? "0x" + v.toString(16).toUpperCase() : String(v);
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
  function format(kind, v) {
    if (v === null || v === undefined) return "";
    switch (kind) {
      case "hex": return hex(v);
      case "flag": return v ? "yes" : "";
      case "list":
        return Array.isArray(v) && v.every(function (x) { return typeof x === "number"; })
          ? ranges(v) : JSON.stringify(v);
      case "msr":
        return v && typeof v === "object" ? hex(v.index) + " = " + hex(v.value) : String(v);
      case "allow":
        return Array.isArray(v)
          ? v.map(function (a) { return a && typeof a === "object" ? a.code + ": " + a.reason : String(a); }).join("; ")
          : JSON.stringify(v);
      case "num": case "text": case "name": case "gen": return String(v);
      default: return typeof v === "object" ? JSON.stringify(v) : String(v);
    }
  }

  var shown = [];
  cols.forEach(function (c, i) { if (c.show) shown.push(i); });
  var rows = table.rows.map(function (r) {
    var tr = document.createElement("tr");
    if (iName >= 0) tr.id = "ev-" + r[iName];
    shown.forEach(function (i) {
      var c = cols[i];
      var td = document.createElement("td");
      td.className = "k-" + c.kind;
      var text = format(c.kind, r[i]);
      if (text !== "") {
        if (c.kind === "name" || c.kind === "hex") {
          var code = document.createElement("code");
          code.textContent = text;
          td.appendChild(code);
        } else if (c.kind === "gen") {
          var a = document.createElement("a");
          a.href = root + "gen/" + encodeURIComponent(text) + "/index.html";
          a.textContent = text;
          td.appendChild(a);
        } else {
          td.textContent = text;
        }
      }
      tr.appendChild(td);
    });
    return {
      tr: tr,
      name: iName >= 0 ? String(r[iName]).toLowerCase() : "",
      event: iEvent >= 0 ? r[iEvent] : null,
      umask: iUmask >= 0 ? r[iUmask] : null
    };
  });
  var frag = document.createDocumentFragment();
  rows.forEach(function (r) { frag.appendChild(r.tr); });
  body.appendChild(frag);

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
    var n = 0;
    rows.forEach(function (r) {
      var ok = tests.every(function (f) { return f(r); });
      r.tr.hidden = !ok;
      if (ok) n++;
    });
    count.textContent = tokens.length
      ? "Showing " + n + " of " + rows.length + " events"
      : rows.length + " events";
  }
  function fromHash() {
    var m = /(?:^|[#&])q=([^&]*)/.exec(location.hash);
    if (m) {
      try { input.value = decodeURIComponent(m[1].replace(/\+/g, " ")); } catch (e) { input.value = ""; }
    }
  }
  input.addEventListener("input", function () {
    apply();
    var h = input.value ? "#q=" + encodeURIComponent(input.value) : "#";
    try { history.replaceState(null, "", h); } catch (e) { /* file:// in some browsers */ }
  });
  window.addEventListener("hashchange", function () { fromHash(); apply(); });
  fromHash();
  apply();
})();
