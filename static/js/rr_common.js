// Shared by the Raising Robots pages: the list of rule entries an answer relies on, drawn like the
// server's templates/raising_robots/_rules.html (titles come from the page's data-rule-titles attribute).
(function () {
  "use strict";
  var RR = (window.RR = window.RR || {});
  var titles = null;
  RR.titles = function () {
    if (titles) return titles;
    var holder = document.querySelector("[data-rule-titles]");
    try { titles = JSON.parse((holder && holder.dataset.ruleTitles) || "{}"); } catch (e) { titles = {}; }
    return titles;
  };
  RR.ruleList = function (ids, label, open) {
    var seen = {};
    ids = (ids || []).filter(function (id) { if (seen[id]) return false; seen[id] = true; return true; });
    if (!ids.length) return document.createDocumentFragment();
    var d = document.createElement("details"), s = document.createElement("summary"), ul = document.createElement("ul");
    d.className = "rule-links rr-rules";
    if (open) d.open = true;
    s.textContent = (label || "Rules this answer relies on") + " (" + ids.length + ")";
    d.appendChild(s);
    ids.forEach(function (id) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = "/rules/" + id;
      a.textContent = RR.titles()[id] || id;
      li.appendChild(a);
      ul.appendChild(li);
    });
    d.appendChild(ul);
    return d;
  };
})();

// Links to the other pages of the table wait for this page's last change to be saved first (the next
// page reads the table when it opens): `flush` saves what is pending and returns a promise, or null.
(function () {
  "use strict";
  var RR = window.RR;
  RR.saveBeforeLeaving = function (flush) {
    document.addEventListener("click", function (e) {
      var a = e.target.closest ? e.target.closest(".rr-other a") : null;
      if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
      var pending = flush();
      if (!pending) return;
      e.preventDefault();
      var go = function () { window.location.href = a.href; };
      pending.then(go, go);
    });
  };
})();
