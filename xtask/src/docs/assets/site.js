/* pmu-regs documentation site: sidebar filter. Generated site; no network access. */
(function () {
  "use strict";
  var input = document.getElementById("navq");
  if (input) {
    var items = Array.prototype.slice.call(document.querySelectorAll(".sidebar li.gen"));
    input.addEventListener("input", function () {
      var q = input.value.trim().toLowerCase();
      // A generation stays visible when it or one of its descendants matches.
      items.slice().reverse().forEach(function (li) {
        var self = !q || (li.getAttribute("data-filter") || "").indexOf(q) !== -1;
        var kid = Array.prototype.some.call(li.querySelectorAll("li.gen"), function (k) {
          return !k.classList.contains("hidden-by-filter");
        });
        li.classList.toggle("hidden-by-filter", !(self || kid));
      });
    });
  }
  var cur = document.querySelector('.sidebar [aria-current="page"]');
  if (cur && cur.scrollIntoView) {
    cur.scrollIntoView({ block: "nearest" });
  }
})();

/* Copy buttons: any <button data-copy="text">. The clipboard API needs a secure context, so
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
    var button = e.target && e.target.closest ? e.target.closest("button[data-copy]") : null;
    if (!button) return;
    var text = button.getAttribute("data-copy");
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () { done(button, text, true); },
        function () { done(button, text, fallback(text)); });
    } else {
      done(button, text, fallback(text));
    }
  });
})();
