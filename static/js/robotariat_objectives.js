// Robotariat objectives: the facts save with the table as they change; the server's answer says whether
// the Revolution succeeded and which objectives are met (the API's objectives).
(function () {
  "use strict";
  if (!window.RB || !document.getElementById("rb-data")) return;
  document.body.classList.add("rb-js");
  var store = RB.store("objectives");
  var meta = RB.meta();
  var titles = meta.rule_titles || {};
  var form = document.getElementById("facts-form");
  var NAMES = meta.objective_names;
  var save = Tablebot.debounce(function () { store.do(RB.formAction(form)); }, 400);
  form.addEventListener("input", save);
  form.addEventListener("change", save);
  form.addEventListener("submit", function (e) { e.preventDefault(); store.do(RB.formAction(form)); });

  function h(tag, attrs) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") e.textContent = attrs[k]; else if (k === "cls") e.className = attrs[k]; else e.setAttribute(k, attrs[k]);
    });
    for (var i = 2; i < arguments.length; i++) if (arguments[i]) e.appendChild(typeof arguments[i] === "string" ? document.createTextNode(arguments[i]) : arguments[i]);
    return e;
  }
  function verdict(v, yes, no) {
    if (v === null || v === undefined) return h("span", { cls: "rb-verdict open", text: "not decided" });
    return h("span", { cls: "rb-verdict " + (v ? "yes" : "no"), text: v ? (yes || "met") : (no || "not met") });
  }
  function ruleLinks(ids) {
    if (!ids || !ids.length) return null;
    var p = h("p", { cls: "rule-links" }, "Rules: ");
    ids.forEach(function (id) { p.appendChild(h("a", { href: "/rules/" + id, text: titles[id] || id })); });
    return p;
  }

  function show() {
    var box = document.getElementById("result-body"), r = store.answer.objectives;
    box.textContent = "";
    if (!r) { box.appendChild(h("p", { cls: "notice warn", id: "result-error", text: store.answer.objectives_error || "" })); return; }
    box.appendChild(h("p", { cls: "rb-big rb-rev-" + r.revolution, id: "rev-status",
      text: r.revolution === "success" ? "It succeeded." : (r.revolution === "failure" ? "It failed." : "It goes on.") }));
    box.appendChild(h("p", { cls: "why", text: r.why }));
    box.appendChild(h("h3", { text: "Who wins" }));
    var ul = h("ul", { cls: "rb-seats", id: "seat-results" });
    r.seats.forEach(function (s) {
      ul.appendChild(h("li", {}, h("strong", { text: (s.seat + 1) + ". " + s.name }), s.objective ? " · " + NAMES[s.objective] : "", ": ",
        verdict(s.wins, "wins", "does not win"), " ", h("span", { cls: "why", text: s.why })));
    });
    box.appendChild(ul);
    if (r.mode !== "cooperative") {
      box.appendChild(h("h3", { text: "Each objective's condition" }));
      box.appendChild(h("p", { cls: "small muted", text: "Shown for every objective, so nobody has to reveal theirs to check it. Several players can win." }));
      var checks = h("ul", { cls: "rb-checks", id: "objective-checks" });
      r.checks.forEach(function (c) {
        checks.appendChild(h("li", {}, h("strong", { text: c.name }), " ", verdict(c.met), " ", h("span", { cls: "why", text: c.why }), ruleLinks(c.rules.slice(1))));
      });
      r.seat_checks.forEach(function (row, seat) {
        row.forEach(function (c) {
          checks.appendChild(h("li", {}, h("strong", { text: c.name }), " for " + r.seats[seat].name + " ", verdict(c.met), " ", h("span", { cls: "why", text: c.why })));
        });
      });
      box.appendChild(checks);
    }
    (r.readings || []).forEach(function (id) {
      var rd = meta.readings[id];
      if (rd) box.appendChild(h("details", { cls: "rb-reading" }, h("summary", { text: rd.title }), h("p", { cls: "small", text: rd.text }),
        h("p", { cls: "rule-links" }, h("a", { href: "/rules/" + rd.entry, title: titles[rd.entry] || rd.entry, text: "Open this reading in the rules" }))));
    });
    box.appendChild(ruleLinks(r.rules));
  }

  store.on(show);
})();
