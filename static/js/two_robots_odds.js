// Two Robots draw odds: live exact chances from the JSON API as the wish or the unseen counts change, and
// the seat's unseen counts kept with the table (`two_robots.players[seat].unseen`). Without this script
// the form posts and re-renders; the factory and hand come from the table or the text fields.
(function () {
  "use strict";
  var T = window.Tablebot, TR = T.twoRobots, el = TR.el, clampInt = T.clampInt;
  var ENERGIES = TR.ENERGIES;
  var form, names, seat, seatIndex, table = null, seq = 0, edited = false;

  function pct(p) { return T.percent(p); }

  function unseenFromGrid() {
    var parts = {};
    form.querySelectorAll("#tr-deck input").forEach(function (i) { parts[i.name.slice(2)] = clampInt(i.value, 0, 100); });
    return { parts: parts, attack: clampInt(form.elements["u-attack"].value, 0, 100),
      defense: clampInt(form.elements["u-defense"].value, 0, 100) };
  }
  function wish() {
    return { kind: form.elements.want.value, part: form.elements.want_part.value, energy: form.elements.want_energy.value };
  }
  function wishWords(w) {
    if (w.kind === "robot") return "a part that finishes a robot";
    if (w.kind === "attack") return "an Attack card";
    if (w.kind === "defense") return "a Defense card";
    return (w.part ? "a " + w.part.toUpperCase() : "a part") + (w.energy ? " that carries " + w.energy.charAt(0).toUpperCase() + w.energy.slice(1) : "");
  }
  function body() {
    var u = unseenFromGrid(), w = wish(), list = [];
    Object.keys(u.parts).forEach(function (k) {
      var bits = k.split(":"), es = [];
      bits[1].split("").forEach(function (ch) { ENERGIES.forEach(function (e) { if (e.charAt(0) === ch) es.push(e); }); });
      var wanted = w.kind === "part" && (!w.part || w.part === bits[0]) && (!w.energy || es.indexOf(w.energy) >= 0);
      list.push({ kind: "part", part: bits[0], energies: es, count: u.parts[k], wanted: wanted });
    });
    list.push({ kind: "attack", name: "Attack cards", count: u.attack, wanted: w.kind === "attack" });
    list.push({ kind: "defense", name: "Defense cards", count: u.defense, wanted: w.kind === "defense" });
    return { part_names: names, stacks: seat.stacks || [], hand: seat.hand || [], unseen: list, draws: 3 };
  }
  function bar(labelText, p) {
    var li = el("li");
    li.appendChild(el("span", null, labelText));
    var b = el("span", "bar"), i = el("i");
    i.style.width = (p.approx * 100).toFixed(2) + "%";
    b.appendChild(i);
    li.appendChild(b);
    var n = el("span", "num", pct(p));
    n.title = "exactly " + p.exact;
    li.appendChild(n);
    return li;
  }
  function draw(d, w) {
    var box = document.getElementById("tr-odds-result");
    box.textContent = "";
    var big = el("p", "tr-big num", pct(d.p_at_least_one));
    big.title = "exactly " + d.p_at_least_one.exact;
    box.appendChild(big);
    box.appendChild(el("p", null, "to draw at least one: " + wishWords(w) + " (" + d.wanted_total + " of " + d.unseen_total + " unseen cards)."));
    box.appendChild(el("p", "small muted", "Exactly " + d.p_at_least_one.exact + "."));
    var ul = el("ul", "bars");
    d.distribution.forEach(function (x) { ul.appendChild(bar(x.k + (x.k === 1 ? " card" : " cards"), x.p)); });
    box.appendChild(ul);
    if (w.kind === "robot") {
      if (d.completions.length) {
        box.appendChild(el("h3", null, "Stacks one part short"));
        var cl = el("ul");
        d.completions.forEach(function (c) {
          cl.appendChild(el("li", null, "Stack " + (c.stack + 1) + " needs " + c.missing.toUpperCase() + ": " + c.count +
            " unseen card" + (c.count === 1 ? "" : "s") + " fit, " + pct(c.p) + "."));
        });
        box.appendChild(cl);
      } else {
        box.appendChild(el("p", "muted", "No unfrozen stack is one part short of a robot yet."));
      }
    }
    box.appendChild(el("p", "why", d.why));
  }
  function update() {
    var my = ++seq, w = wish(), b = body(), err = document.getElementById("tr-error");
    var old = document.getElementById("tr-problems");
    if (old) old.remove();
    if (!b.unseen.some(function (x) { return x.count > 0; })) {
      err.textContent = "No unseen cards: enter how many of each card are left."; err.hidden = false; return;
    }
    T.api("POST", "/api/two-robots/odds", b).then(function (res) {
      if (my !== seq) return;
      if (!res.ok) { err.textContent = T.errorText(res); err.hidden = false; return; }
      err.hidden = true;
      draw(res.data, w);
    });
  }
  var save = T.debounce(function () {
    if (!table || !edited) return;
    // only this seat's unseen counts: its factory may be changing on the factory page at the same time
    table.save(TR.seatChange(seatIndex, { unseen: unseenFromGrid() })).catch(function () { /* the status line says it */ });
  }, 500);

  document.addEventListener("DOMContentLoaded", function () {
    form = document.getElementById("tr-odds");
    if (!form) return;
    form.classList.add("js");
    names = JSON.parse(form.dataset.names);
    seat = JSON.parse(form.dataset.state || "{}");
    seatIndex = Number(form.dataset.seat || 0);
    form.addEventListener("input", function (e) {
      var n = e.target.name || "";
      if (n.indexOf("u-") === 0) { edited = true; update(); save(); }
    });
    form.addEventListener("change", function (e) {
      var n = e.target.name || "";
      if (n === "want" || n === "want_part" || n === "want_energy") update();
    });
    form.addEventListener("submit", function (e) {
      // the text fields and "back to the default deck" go to the server, which rebuilds the grid
      var by = e.submitter && e.submitter.value;
      if (by !== "reset" && by !== "cards") { e.preventDefault(); update(); }
    });
    var id = document.body.dataset.tableId;
    if (id) {
      table = T.table(id);
      T.tableStatus(table);
      table.load().catch(function () { /* the status line says it */ });
    }
    update();
  });
})();
