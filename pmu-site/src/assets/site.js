/* pmu-regs documentation site: the sidebar's tree of generations, drawn from data/nav.js
 * (PMU.nav, loaded once and cached by the browser instead of repeated in every page). Each
 * generation with children has a button that opens and closes them; the page's own
 * generation and its ancestors start open, and the page's generation lists its diff, events
 * and registers, the current one marked. The filter box shows the generations matching it
 * (with their ancestors), all open. Generated site; no network access. */
(function () {
  "use strict";
  var tree = document.getElementById("nav-tree");
  var nav = window.PMU && window.PMU.nav;
  if (!tree || !nav) return;
  var root = document.body.getAttribute("data-root") || "";
  var current = tree.getAttribute("data-gen");
  var item = tree.getAttribute("data-item") || "";
  var kids = nav.map(function () { return []; });
  var tops = [];
  nav.forEach(function (g, i) {
    if (g.parent === null || g.parent === undefined) tops.push(i); else kids[g.parent].push(i);
  });
  var open = {};
  for (var c = nav.map(function (g) { return g.id; }).indexOf(current); c !== -1 && c !== null && c !== undefined; c = nav[c].parent) {
    open[c] = true;
  }
  function link(href, text, here, title) {
    var a = document.createElement("a");
    a.href = root + href;
    a.textContent = text;
    if (title) a.title = title;
    if (here) a.setAttribute("aria-current", "page");
    return a;
  }
  function sub(g) {
    var ul = document.createElement("ul");
    ul.className = "sub";
    function li(a, cls) {
      var el = document.createElement("li");
      if (cls) el.className = cls;
      el.appendChild(a);
      ul.appendChild(el);
    }
    if (g.diff) li(link(g.diff[0], "Changes from " + g.diff[1], item === "diff"));
    if (g.events) {
      var a = link(g.events[0], "Events ", item === "events");
      var n = document.createElement("span");
      n.className = "count";
      n.textContent = g.events[1];
      a.appendChild(n);
      li(a);
    }
    if (g.regs.length) {
      var head = document.createElement("li");
      head.className = "grp";
      head.textContent = "Registers";
      ul.appendChild(head);
      g.regs.forEach(function (r) { li(link(r[1], r[0], item === "reg:" + r[0], r[0]), "reg"); });
    }
    return ul;
  }
  var items = [];
  function draw(i) {
    var g = nav[i];
    var li = document.createElement("li");
    li.className = "gen";
    li.setAttribute("data-filter", g.filter);
    li.setAttribute("data-gen", g.id);
    var row = document.createElement("div");
    row.className = "row";
    var list = null, button = null;
    if (kids[i].length) {
      button = document.createElement("button");
      button.type = "button";
      button.className = "twisty";
      button.setAttribute("aria-label", g.id + ": the generations extending it");
      row.appendChild(button);
    }
    row.appendChild(link(g.href, g.id, g.id === current && item === "index", g.title));
    li.appendChild(row);
    if (g.id === current) {
      li.classList.add("here");
      li.appendChild(sub(g));
    }
    if (kids[i].length) {
      list = document.createElement("ul");
      kids[i].forEach(function (k) { list.appendChild(draw(k)); });
      li.appendChild(list);
    }
    var entry = { li: li, list: list, button: button, open: !!open[i] };
    function show(on) {
      entry.open = on;
      if (list) list.hidden = !on;
      if (button) button.setAttribute("aria-expanded", on ? "true" : "false");
    }
    entry.show = show;
    show(entry.open);
    if (button) button.addEventListener("click", function () { show(!entry.open); });
    items.push(entry);
    return li;
  }
  var frag = document.createDocumentFragment();
  tops.forEach(function (i) { frag.appendChild(draw(i)); });
  tree.textContent = "";
  tree.appendChild(frag);

  var input = document.getElementById("navq");
  if (input) {
    var saved = null;
    input.addEventListener("input", function () {
      var q = input.value.trim().toLowerCase();
      if (q && !saved) saved = items.map(function (e) { return e.open; });
      // Items are in post-order (children before parents): a generation stays visible when
      // it or one of its descendants matches.
      items.forEach(function (e, i) {
        var self = !q || (e.li.getAttribute("data-filter") || "").indexOf(q) !== -1;
        var kid = Array.prototype.some.call(e.li.querySelectorAll("li.gen"), function (k) {
          return !k.classList.contains("hidden-by-filter");
        });
        e.li.classList.toggle("hidden-by-filter", !(self || kid));
        e.show(q ? true : (saved ? saved[i] : e.open));
      });
      if (!q) saved = null;
    });
  }
  var cur = tree.querySelector('[aria-current="page"]') || tree.querySelector("li.here > .row a");
  if (cur && cur.scrollIntoView) {
    cur.scrollIntoView({ block: "nearest" });
  }
})();

/* Narrow screens (the sidebar above the page): the sidebar's links and tree fold behind a
 * button, closed at first so the page starts near the top; opened, the tree shows the
 * current generation's branch as on a wide screen. Wide screens never show the button (CSS). */
(function () {
  "use strict";
  var side = document.querySelector(".sidebar");
  var body = document.getElementById("nav-body");
  if (!side || !body) return;
  var b = document.createElement("button");
  b.type = "button";
  b.className = "navtoggle";
  b.textContent = "Pages and generations";
  b.setAttribute("aria-controls", "nav-body");
  b.setAttribute("aria-expanded", "false");
  side.insertBefore(b, body);
  side.classList.add("js");
  b.addEventListener("click", function () {
    var on = !side.classList.contains("open");
    side.classList.toggle("open", on);
    b.setAttribute("aria-expanded", on ? "true" : "false");
    var cur = on && body.querySelector('#nav-tree [aria-current="page"]');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
  });
})();

/* A box that scrolls sideways on its own (a wide table, a diagram or code on a phone) can
 * be scrolled from the keyboard: it takes the focus (tabindex 0) while it overflows. */
(function () {
  "use strict";
  function mark() {
    var boxes = document.querySelectorAll(".table-wrap, pre, figure.diagram, main > table, section > table, .decoded table");
    Array.prototype.forEach.call(boxes, function (b) {
      if (b.scrollWidth > b.clientWidth + 1) b.setAttribute("tabindex", "0");
      else if (b.getAttribute("tabindex") === "0") b.removeAttribute("tabindex");
    });
  }
  window.addEventListener("load", mark);
  // What the page's scripts draw later (the decoder's result) is marked as it changes.
  if (window.MutationObserver) {
    var main = document.getElementById("main"), queued = false;
    if (main) new MutationObserver(function () {
      if (queued) return;
      queued = true;
      setTimeout(function () { queued = false; mark(); }, 50);
    }).observe(main, { childList: true, subtree: true });
  }
  window.addEventListener("resize", mark);
})();

/* Copy buttons: any <button data-copy="text">, or data-copy-from="id" for an element's text. The clipboard API needs a secure context, so
 * from file:// the text is copied through a selected, off-screen text area. The button says
 * it copied and keeps the text in data-copied. */
(function () {
  "use strict";
  function fallback(text) {
    var ta = document.createElement("textarea");
    ta.value = text;
    ta.setAttribute("readonly", "");
    ta.className = "offscreen";
    document.body.appendChild(ta);
    ta.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(ta);
    return ok;
  }
  function done(button, text, ok) {
    button.setAttribute("data-copied", text);
    var label = button.getAttribute("data-label") || button.textContent;
    button.setAttribute("data-label", label);
    button.textContent = ok ? "Copied" : "Select and copy";
    setTimeout(function () { button.textContent = label; }, 1500);
  }
  document.addEventListener("click", function (e) {
    var button = e.target && e.target.closest ? e.target.closest("button[data-copy], button[data-copy-from]") : null;
    if (!button) return;
    var from = button.getAttribute("data-copy-from");
    var source = from ? document.getElementById(from) : null;
    var text = source ? source.textContent : button.getAttribute("data-copy");
    // What the button copies, recorded at once (the clipboard promise may settle late, or
    // never in a headless browser); `done` then says whether copying worked.
    button.setAttribute("data-copied", text);
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () { done(button, text, true); },
        function () { done(button, text, fallback(text)); });
    } else {
      done(button, text, fallback(text));
    }
  });
})();

/* Site-wide search over registers, fields and events of every generation, the CPU names and
 * the generations. The index,
 * data/search.js (see pmu-site/src/search.rs), loads with a <script> tag the first time the
 * box is used, so it works from file://. Every word of the query must start a word of an
 * entry, in any order; an entry's words are its name's, the other term of each search alias
 * (LLC ~ LONGEST_LAT_CACHE), its addresses and, for events, 0x<code> and <code>.<umask>; a
 * CPU's are its abbreviations' and its family/models (a query's 06_8F, 6-8F, 06-8F or
 * GenuineIntel-6-8F is read as the one word 06_8f).
 * Results are ranked by how much of the name the query accounts for (LLC counts for the
 * three words of LONGEST_LAT_CACHE), then by how well the words match (whole words before
 * prefixes, CPUs before generations before registers before fields before events), then
 * shorter names first.
 * A query naming a CPU in full (its name, an abbreviation or a family/model: "SPR
 * IA32_PERFEVTSEL", "zen 4 ex_ret_instr", "06_8F L3_MISS") and something else is searched in
 * that CPU's generations only (what they inherit included): each hit opens the item on the
 * CPU's generation (its register page, its event's row), one hit per generation of a hybrid
 * CPU. A hexadecimal value (0x and five digits or more, or any after the word "decode") adds
 * a hit opening the decoder with the value, on each of the CPU's generations when the query
 * names one.
 * A generation's id ("sapphirerapids", "intel-v3", "zen4") names it as a CPU's name does, when
 * it is whole query words. On a generation's pages (or a CPU's) the items it has (inherited
 * ones too) come first, opening there, and a value is decoded there. Instance names
 * (IA32_PERFEVTSEL0, PerfEvtSel3), addresses without 0x (186, C0010200, MSRC001_0200), D1H and
 * perf's terms (event=0xd1,umask=0x20, cpu/event=0xd1,umask=0x20/) find their register or events.
 * page.html?search=<query> opens with the results shown. Results record the time from the
 * first keystroke (or the page load, for ?search=) to the first results in data-first-ms. */
(function () {
  "use strict";
  var input = document.getElementById("site-q");
  var box = document.getElementById("site-results");
  var form = document.getElementById("site-search");
  if (!input || !box) return;
  var root = document.body.getAttribute("data-root") || "";
  var LIMIT = 30;
  /* What a kind adds to a match's score: CPUs first, events last. */
  var RANK = { cpu: 1.5, generation: 1.25, register: 1, field: 0.5, event: 0 };
  var index = null, loading = false, started = null, firstShown = false;

  function prepare(s) {
    return s.entries.map(function (e) {
      var words = e[1].toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
      var own = words.length;
      // How much of the name each word stands for: 1 for its own words, the share given
      // for an alias word, all of it for an address or a code.
      var covers = words.map(function () { return 1; });
      var n = 0;
      (e[4] ? e[4].split(" ") : []).forEach(function (w) {
        if (w.charAt(0) === "#") { n = parseInt(w.slice(1), 10) || 0; return; }
        var colon = w.indexOf(":");
        words.push(colon < 0 ? w : w.slice(0, colon));
        covers.push(colon < 0 ? (/^0x/.test(w) ? own : 1) : parseFloat(w.slice(colon + 1)));
      });
      if (e[0] === 2 && e[5]) {
        var code = e[5].toLowerCase();
        words.push("0x" + code.split(".")[0], code);
        covers.push(own, own);
      }
      var item = { e: e, words: words, covers: covers, own: own, size: e[1].length };
      if (e[0] === 0) instanceWords(item, n);
      return item;
    });
  }
  /* A register's name written as one word (PERF_EVT_SEL as perfevtsel, AMD's PerfEvtSel),
   * and the name of each of its n instances (the #n word): its last word or that one word
   * with the index, as the definitions name instances (IA32_PERFEVTSEL0, PerfEvtSel3).
   * item.inst[w] is the instance word w names. */
  function instanceWords(item, n) {
    var words = item.words, covers = item.covers, own = item.own;
    var joined = own > 1 ? words.slice(0, own).join("") : null;
    if (joined) { words.push(joined); covers.push(own); }
    item.inst = {};
    for (var i = 0; i < n; i++) {
      item.inst[words.length] = i;
      words.push(words[own - 1] + i);
      covers.push(1);
      if (joined) { item.inst[words.length] = i; words.push(joined + i); covers.push(own); }
    }
  }
  var waiting = [];
  function load(done) {
    if (index) { done(); return; }
    waiting.push(done);
    if (loading) return;
    loading = true;
    var s = document.createElement("script");
    s.src = root + "data/search.js";
    s.onload = function () {
      index = { data: window.PMU.search, items: prepare(window.PMU.search) };
      index.here = here(index.data.gens);
      var all = waiting;
      waiting = [];
      all.forEach(function (f) { f(); });
    };
    s.onerror = function () {
      loading = false;
      waiting = [];
      box.hidden = false;
      box.textContent = "The search index (data/search.js) did not load.";
    };
    document.head.appendChild(s);
  }

  /* Query words; an address or code keeps its dots, others split on _ and . too. Each token
   * knows the query word it comes from (word). */
  function tokens(q) {
    var out = [];
    words(q).forEach(function (t, i) {
      tokensOf(t).forEach(function (k) { k.word = i; out.push(k); });
    });
    return out;
  }
  function words(q) { return q.toLowerCase().trim().split(/\s+/).filter(Boolean); }
  function tokensOf(t) {
    var m = /^(?:0x)?([0-9a-f]{1,3})[.:\/](?:0x)?([0-9a-f]{1,2})$/.exec(t);
    if (m) return [{ forms: [pad(m[1]) + "." + pad(m[2])], code: true }];
    // An address in AMD's notation: MSRC001_0200, C001_0200.
    m = /^(?:msr)?(?:0x)?([0-9a-f]{4})_([0-9a-f]{4})h?$/.exec(t);
    if (m) return [{ forms: ["0x" + (m[1] + m[2]).replace(/^0+(?=.)/, "")] }];
    // A family/model: GenuineIntel-6-8F (a stepping after it ignored), 06_8F, 6-8F, 19h/11h.
    m = /^(?:genuineintel|authenticamd|hygongenuine)-([0-9a-f]{1,2})-([0-9a-f]{1,2})(?:-.*)?$/.exec(t) ||
      /^(?:0x)?([0-9a-f]{1,2})[_-](?:0x)?([0-9a-f]{1,2})$/.exec(t) ||
      /^([0-9a-f]{1,2})h\/([0-9a-f]{1,2})h$/.exec(t);
    if (m) return [{ forms: [pad(m[1]) + "_" + pad(m[2])] }];
    // Intel's notation for an event code or an address (D1H, 38FH): not a CPU's model.
    m = /^([0-9a-f]+)h$/.exec(t);
    if (m) return [{ forms: ["0x" + m[1].replace(/^0+(?=.)/, "")], code: true }];
    if (/^0x[0-9a-f]+$/.test(t)) return [{ forms: ["0x" + t.slice(2).replace(/^0+(?=..)/, "")] }];
    // A bare hexadecimal number with a digit in it (C0010200): a word, or an address.
    if (/^[0-9a-f]{4,16}$/.test(t) && /[0-9]/.test(t)) return [{ forms: [t, "0x" + t.replace(/^0+(?=.)/, "")] }];
    return t.split(/[^a-z0-9]+/).filter(Boolean).map(function (w) {
      return { forms: /^[0-9a-f]{2,3}$/.test(w) ? [w, "0x" + w] : [w] };
    });
  }
  function pad(h) { return h.length < 2 ? "0" + h : h; }
  /* An event given by its terms, alone (event=0xd1,umask=0x20) or in a perf string
   * (cpu/event=0xd1,umask=0x20/u): the token of its code and unit mask (d1.20, or 0xd1 without
   * a umask), and the query without the terms. Numbers as perf reads them (0x hex, else decimal). */
  function perfOf(q) {
    var s = q.toLowerCase(), num = "(0x[0-9a-f]+|[0-9]+)";
    var ev = new RegExp("(?:^|[/,\\s])event\\s*=\\s*" + num).exec(s);
    if (!ev) return null;
    var um = new RegExp("(?:^|[/,\\s])umask\\s*=\\s*" + num).exec(s);
    function hex(v) { return (/^0x/.test(v) ? parseInt(v.slice(2), 16) : parseInt(v, 10)).toString(16); }
    var rest = s.replace(/[a-z0-9_]*\/[^\/]*=[^\/]*\/[a-z]*/g, " ")
      .replace(/[a-z0-9_]+\s*=\s*[0-9a-fx]+/g, " ")
      .replace(/(^|,)\s*(any|edge|inv|eq)\b/g, " ").replace(/,/g, " ");
    var forms = um ? [pad(hex(ev[1])) + "." + pad(hex(um[1]))] : ["0x" + hex(ev[1])];
    return { rest: rest, token: { forms: forms, code: true, event: true, word: -1 } };
  }
  /* The generations of the page: a CPU page's (main's data-gens), else the generation whose
   * register, events or overview the page is (the tree's data-gen). */
  function here(gens) {
    var main = document.getElementById("main"), tree = document.getElementById("nav-tree");
    var ids = (main && main.getAttribute("data-gens")) || (tree && tree.getAttribute("data-gen")) || "";
    return ids.split(" ").map(function (id) { return gens.indexOf(id); }).filter(function (i) { return i >= 0; });
  }

  /* How an entry matches: score, per query word 3 for a whole word, 1 for a prefix (0 when
   * one query word matches nothing; a code token, D1H or 2E.41, matches no CPU or
   * generation, perf's terms only events); cover, the share of the name's words the query
   * accounts for (an alias word counts for the words it stands for). */
  function match(item, toks) {
    var total = 0, covered = 0, isItem = ITEMS[index.data.kinds[item.e[0]]], inst;
    for (var i = 0; i < toks.length; i++) {
      if ((toks[i].code && !isItem) || (toks[i].event && item.e[0] !== 2)) return null;
      var best = 0, cover = 0, at = -1;
      for (var f = 0; f < toks[i].forms.length; f++) {
        var form = toks[i].forms[f];
        for (var w = 0; w < item.words.length; w++) {
          var word = item.words[w], s = 0;
          if (word === form) s = 3;
          else if (word.lastIndexOf(form, 0) === 0) s = 1;
          if (s > best || (s === best && s && item.covers[w] > cover)) { best = s; cover = item.covers[w]; at = w; }
        }
      }
      if (!best) return null;
      if (best === 3 && item.inst && item.inst[at] !== undefined) inst = item.inst[at];
      total += best;
      covered += cover;
    }
    return { s: total + (RANK[index.data.kinds[item.e[0]]] || 0), cover: Math.min(1, covered / item.own), inst: inst };
  }
  /* Whether generation i is in an entry's generations (an index, or a bit set in hex). */
  function has(bits, i) {
    if (typeof bits === "number") return bits === i;
    var d = bits.length - 1 - (i >> 2);
    return d >= 0 && (parseInt(bits.charAt(d), 16) & (1 << (i & 3))) !== 0;
  }
  /* The CPU (or generation) the query names in full with whole words, and which tokens name
   * it: the one naming the most tokens, when some tokens are left for the items (or, `whole`,
   * none). A generation's id must be whole query words (core in PERF_EVT_SEL_CORE is not
   * amd-core). */
  function scopeOf(toks, whole) {
    var best = null;
    index.items.forEach(function (item) {
      var kind = index.data.kinds[item.e[0]];
      if (kind !== "cpu" && kind !== "generation") return;
      var used = [], covered = 0;
      toks.forEach(function (t, i) {
        var c = 0;
        t.forms.forEach(function (form) {
          item.words.forEach(function (w, j) { if (w === form && item.covers[j] > c) c = item.covers[j]; });
        });
        if (c > 0) { used.push(i); covered += c; }
      });
      if (!used.length || covered < item.own - 1e-6) return;
      if (kind === "generation" && toks.some(function (t, i) {
        return used.indexOf(i) === -1 && used.some(function (u) { return toks[u].word === t.word; });
      })) return;
      if (!best || used.length > best.used.length) best = { item: item, used: used };
    });
    // A query that is a CPU's name ("Zen 4", not Zen 1 and a "4") finds that CPU.
    if (!best || (!whole && best.used.length === toks.length)) return null;
    var gens = [];
    index.data.gens.forEach(function (id, i) { if (has(best.item.e[3], i)) gens.push(i); });
    return { name: best.item.e[1], gens: gens, used: best.used, generation: index.data.kinds[best.item.e[0]] === "generation" };
  }
  /* A value to decode: 0x and five digits or more, or any hexadecimal word after "decode". */
  function valueOf(ws) {
    var asked = ws.indexOf("decode") !== -1;
    for (var i = 0; i < ws.length; i++) {
      var m = /^(0x)?([0-9a-f_]+)$/.exec(ws[i]);
      if (!m || !/[0-9a-f]/.test(m[2])) continue;
      var digits = m[2].replace(/_/g, "");
      if (digits.replace(/^0+(?=.)/, "").length > 16) continue;
      // Bare (C0010200), with a digit in it: a value too, after the register at that address.
      var bare = !m[1] && digits.length >= 5 && /[0-9]/.test(digits);
      if ((m[1] && digits.length >= 5) || bare || (asked && ws[i] !== "decode")) {
        return { at: i, asked: asked, text: "0x" + digits.toUpperCase() };
      }
    }
    return null;
  }
  var ITEMS = { register: true, field: true, event: true };
  function ranked(hits) {
    // A CPU the query names in full, then the page's own items, then names the query accounts
    // for entirely, then the better match, then shorter. (A generation is not put before the
    // page's items: `core` on an Intel page is its CORE_ events before amd-core.)
    function tier(h) { return h.here ? 1 : index.data.kinds[h.item.e[0]] === "cpu" && h.cover >= 1 ? 2 : 0; }
    return hits.sort(function (a, b) {
      return tier(b) - tier(a) || b.cover - a.cover || b.s - a.s || a.item.size - b.item.size || (a.item.e[1] < b.item.e[1] ? -1 : 1);
    });
  }
  function search(q) {
    var perf = perfOf(q);
    var ws = words(perf ? perf.rest : q), value = valueOf(ws);
    // "decode" and the value after it are no item's words; a value alone may be an address.
    var toks = tokens((value && value.asked ? ws.filter(function (w, i) { return i !== value.at && w !== "decode"; }) : ws).join(" "));
    if (perf) toks.push(perf.token);
    var scope = toks.length ? scopeOf(toks, !!value) : null;
    var hits = [];
    if (scope) {
      var own = toks.filter(function (t, i) { return scope.used.indexOf(i) === -1; });
      index.items.forEach(function (item) {
        if (!own.length || !ITEMS[index.data.kinds[item.e[0]]]) return;
        var m = match(item, own);
        if (m) scope.gens.forEach(function (g) {
          if (has(item.e[3], g)) hits.push({ item: item, s: m.s, cover: m.cover, gen: g, inst: m.inst });
        });
      });
      // Nothing of that CPU: the whole query, as any other.
      if (!hits.length && !value) scope = null;
    }
    if (!scope && toks.length) {
      // On a generation's (or a CPU's) page, its items open there and come first.
      index.items.forEach(function (item) {
        var m = match(item, toks);
        if (!m) return;
        var at = ITEMS[index.data.kinds[item.e[0]]] ? index.here.filter(function (g) { return has(item.e[3], g); }) : [];
        if (!at.length) hits.push({ item: item, s: m.s, cover: m.cover, inst: m.inst });
        at.forEach(function (g) { hits.push({ item: item, s: m.s, cover: m.cover, gen: g, here: true, inst: m.inst }); });
      });
    }
    ranked(hits);
    if (value) {
      var on = scope ? scope.gens : index.here.length ? index.here : [undefined];
      var decode = on.map(function (g) { return { decode: value.text, gen: g }; });
      hits = value.asked || !hits.length ? decode.concat(hits) : hits.concat(decode);
    }
    var first = !scope && hits.length && hits[0].here;
    return { hits: hits.slice(0, LIMIT), total: hits.length, scope: scope, here: first ? index.here : null };
  }
  function url(e, gen) {
    if (e.length > 6 && e[6]) return root + e[6];
    if (gen !== undefined) {
      // On the generation the query's CPU has: its register page (its row on the
      // generation's page when it inherits the definition, e[2]'s), its event's row.
      var at = root + index.data.slugs[gen];
      if (e[0] === 2) return at + "/events.html#ev-" + encodeURIComponent(e[1]);
      var reg = e[0] === 1 ? e[1].slice(0, e[1].indexOf(".")) : e[1];
      if (gen !== e[2]) return at + "/index.html#reg-" + reg;
      var anchor = e[0] === 1 ? "#field-" + e[1].slice(e[1].indexOf(".") + 1) : "";
      return at + "/reg/" + reg + ".html" + anchor;
    }
    var dir = index.data.slugs[e[2]];
    if (e[0] === 0) return root + dir + "/reg/" + e[1] + ".html";
    if (e[0] === 1) {
      var dot = e[1].indexOf(".");
      return root + dir + "/reg/" + e[1].slice(0, dot) + ".html#field-" + e[1].slice(dot + 1);
    }
    var q = encodeURIComponent(e[1]);
    return root + dir + "/events.html#q=" + q + "&open=" + q;
  }
  /* The generations of a bit set, in words: "intel-v3", "intel-v3, intel-v4 and 20 more". */
  function generations(bits) {
    if (typeof bits === "number") return index.data.gens[bits];
    var ids = [], n = index.data.gens.length;
    for (var d = 0; d < bits.length; d++) {
      var nibble = parseInt(bits.charAt(bits.length - 1 - d), 16);
      for (var b = 0; b < 4; b++) if (nibble & (1 << b) && d * 4 + b < n) ids.push(index.data.gens[d * 4 + b]);
    }
    if (ids.length <= 3) return ids.join(", ");
    return ids.slice(0, 2).join(", ") + " and " + (ids.length - 2) + " more";
  }
  var KIND_LABEL = { register: "Register", field: "Field", event: "Event", cpu: "CPU", generation: "Generation", decode: "Decode" };
  function render(q) {
    var t0 = performance.now();
    var r = search(q);
    box.textContent = "";
    box.hidden = !q.trim();
    // Fixed under the box, so the sidebar's scrolling does not clip it.
    var at = input.getBoundingClientRect();
    box.style.left = Math.round(at.left) + "px";
    box.style.top = Math.round(at.bottom + 4) + "px";
    box.setAttribute("data-query", q);
    box.setAttribute("data-total", String(r.total));
    if (!r.hits.length) {
      var none = document.createElement("p");
      none.className = "muted";
      none.textContent = "Nothing matches \u201c" + q.trim() + "\u201d.";
      box.appendChild(none);
    }
    var ids = function (gs) { return gs.map(function (g) { return index.data.gens[g]; }).join(", "); };
    box.removeAttribute("data-cpu");
    box.removeAttribute("data-here");
    if (r.scope || r.here) {
      var on = document.createElement("p");
      on.className = "note";
      if (r.scope) {
        box.setAttribute("data-cpu", r.scope.name);
        on.textContent = "On " + r.scope.name + (r.scope.generation ? "" : ": " + ids(r.scope.gens));
      } else {
        box.setAttribute("data-here", ids(r.here));
        on.textContent = "First: what " + ids(r.here) + " (this page) has";
      }
      box.appendChild(on);
    }
    var list = document.createElement("ul");
    r.hits.forEach(function (h) {
      var e = h.decode ? [null, h.decode] : h.item.e, kind = h.decode ? "decode" : index.data.kinds[e[0]];
      var li = document.createElement("li");
      var a = document.createElement("a");
      var gen = h.gen === undefined ? null : index.data.gens[h.gen];
      a.href = h.decode
        ? root + "decoder.html#" + (gen ? "gen=" + encodeURIComponent(gen) + "&" : "") + "value=" + h.decode
        : url(e, h.gen);
      a.className = "hit";
      a.setAttribute("data-kind", kind);
      a.setAttribute("data-name", e[1]);
      if (gen) a.setAttribute("data-gen", gen);
      var k = document.createElement("span");
      k.className = "kind";
      k.textContent = KIND_LABEL[kind];
      var name = document.createElement("code");
      name.textContent = e[1];
      var note = document.createElement("span");
      note.className = "note";
      if (h.decode) {
        var of = r.scope && r.scope.name !== gen ? r.scope.name + " (" + gen + ")" : gen;
        note.textContent = gen ? "as an event of " + of : "in the decoder";
      } else {
        // The instance a query named (IA32_PERFEVTSEL3), then the addresses and generations.
        var inst = h.inst === undefined ? "" : e[1] + h.inst + " \u00b7 ";
        note.textContent = inst + (e[5] ? e[5] + " \u00b7 " : "") + (gen || generations(e[3]));
      }
      a.appendChild(k);
      a.appendChild(document.createTextNode(" "));
      a.appendChild(name);
      a.appendChild(document.createTextNode(" "));
      a.appendChild(note);
      li.appendChild(a);
      list.appendChild(li);
    });
    box.appendChild(list);
    if (r.total > r.hits.length) {
      var more = document.createElement("p");
      more.className = "note";
      more.textContent = "Showing " + r.hits.length + " of " + r.total + "; add words to narrow.";
      box.appendChild(more);
    }
    box.setAttribute("data-search-ms", (performance.now() - t0).toFixed(1));
    if (!firstShown && started !== null) {
      firstShown = true;
      box.setAttribute("data-first-ms", (performance.now() - started).toFixed(1));
    }
  }
  function run() {
    if (started === null) started = performance.now();
    var q = input.value;
    load(function () { render(input.value || q); });
  }
  input.addEventListener("focus", function () { load(function () {}); });
  input.addEventListener("input", run);
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var first = box.querySelector("a.hit");
    if (first) location.href = first.href;
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && document.activeElement !== input && !/^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement.tagName)) {
      e.preventDefault();
      input.focus();
    } else if (e.key === "Escape" && document.activeElement === input) {
      box.hidden = true;
    }
  });
  var m = /[?&]search=([^&#]*)/.exec(location.search);
  if (m) {
    try { input.value = decodeURIComponent(m[1].replace(/\+/g, " ")); } catch (err) { input.value = ""; }
    if (input.value) run();
  }
})();
