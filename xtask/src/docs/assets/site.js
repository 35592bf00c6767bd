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
