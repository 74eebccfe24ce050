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

// Robots are kept by id (rr_players[seat].robots[].id). mergeRobots writes what this page changed since
// `was` (its robots when drawn or last saved) onto `stored` (the table's robots now): a robot edited here
// gets the fields changed here, one removed here goes, one added here is appended, and whatever another
// phone added or changed meanwhile stays.
(function () {
  "use strict";
  var RR = window.RR;
  function byId(list) {
    var out = {};
    (list || []).forEach(function (r) { if (r && r.id) out[r.id] = r; });
    return out;
  }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  RR.newId = function () {
    var bytes = new Uint8Array(4);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  };
  RR.mergeRobots = function (stored, was, mine) {
    var before = byId(was), now = byId(mine), out = [], seen = {};
    (Array.isArray(stored) ? stored : []).forEach(function (r) {
      if (!r || typeof r !== "object") return;
      seen[r.id] = true;
      if (r.id && before[r.id] && !now[r.id]) return;  // removed here
      var mineR = now[r.id];
      if (!mineR) { out.push(r); return; }
      var merged = Object.assign({}, r), old = before[r.id] || {};
      Object.keys(Object.assign({}, old, mineR)).forEach(function (k) {
        if (same(mineR[k], old[k])) return;
        if (mineR[k] === undefined) delete merged[k]; else merged[k] = mineR[k];
      });
      out.push(merged);
    });
    (mine || []).forEach(function (r) { if (r.id && !seen[r.id] && !before[r.id]) out.push(r); });  // added here
    return out;
  };
})();
