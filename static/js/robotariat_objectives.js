// Robotariat objectives: the facts save with the table as they change; the server's answer says whether
// the Revolution succeeded and which objectives are met (the API's objectives).
(function () {
  "use strict";
  var store = window.RB && RB.start("objectives");
  if (!store) return;
  var meta = RB.meta(), h = RB.h, ruleLinks = RB.ruleLinks;
  var form = document.getElementById("facts-form");
  var NAMES = meta.objective_names;
  var save = Tablebot.debounce(function () { store.do(RB.formAction(form)); }, 400);
  form.addEventListener("input", save);
  form.addEventListener("change", save);
  form.addEventListener("submit", function (e) { e.preventDefault(); store.do(RB.formAction(form)); });

  function verdict(v, yes, no) {
    if (v === null || v === undefined) return h("span", { cls: "rb-verdict open", text: "not decided" });
    return h("span", { cls: "rb-verdict " + (v ? "yes" : "no"), text: v ? (yes || "met") : (no || "not met") });
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
    RB.readings(r.readings).forEach(function (d) { box.appendChild(d); });
    var links = ruleLinks(r.rules);
    if (links) box.appendChild(links);
  }

  store.on(show);
})();
