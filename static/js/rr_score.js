// Raising Robots final score: re-scores as you type (POST /api/raising-robots/score/compare) and keeps the
// seat's entries with the table. Without this script the form posts and the server renders the same result.
(function () {
  "use strict";
  var T = window.Tablebot;
  var form = document.getElementById("rr-score");
  if (!form || !T) return;
  document.documentElement.classList.add("rr-js");

  var ITEMS = ["sensor", "gear", "microchip", "program", "duct_tape", "battery", "vp", "robot_cards"];
  var ROWS = ["design", "fabricate", "recycle"];
  var GRADES = ["D", "C", "B", "A"];
  var seat = Number(form.dataset.seat || 0);
  var names = JSON.parse(form.dataset.names || "[]");
  var jsonField = document.getElementById("players_json");
  var seats = [];
  try { seats = JSON.parse(jsonField.value || "[]"); } catch (e) { seats = []; }
  while (seats.length < names.length) seats.push({ inventory: {}, robots: [], class_cards: [] });

  function val(name) { var el = form.elements[name]; return el ? el.value.trim() : ""; }
  function checked(name) { var el = form.elements[name]; return !!(el && el.checked); }
  function int(name) { var v = val(name); if (v === "" || !/^\d+$/.test(v)) return null; return Number(v); }

  function slotsOf(s) {
    var taken = {}, later = [];
    (s.robots || []).forEach(function (r) {
      var key = r.row + "-" + r.column;
      if (ROWS.indexOf(r.row) < 0) return;
      if (r.column >= 1 && r.column <= 5 && !taken[key]) taken[key] = r; else later.push(r);
    });
    later.forEach(function (r) {
      for (var c = 1; c <= 5; c++) {
        if (!taken[r.row + "-" + c]) { taken[r.row + "-" + c] = Object.assign({}, r, { column: c }); return; }
      }
    });
    return taken;
  }

  // The seat the form shows, on top of the stored one (keys other pages own are kept).
  function readSeat(old) {
    var s = Object.assign({}, old);
    s.inventory = {};
    ITEMS.forEach(function (k) { var v = int("inv-" + k); s.inventory[k] = v === null ? 0 : v; });
    var oldSlots = slotsOf(old), robots = [];
    ROWS.forEach(function (row) {
      for (var c = 1; c <= 5; c++) {
        var key = row + "-" + c, vp = int("s-" + key + "-vp");
        if (vp === null) continue;
        var ge = val("s-" + key + "-ge"), parts = ge.split(":");
        robots.push(Object.assign({ id: window.RR.newId() }, oldSlots[key] || {}, {
          row: row, column: c, vp: vp, needs_microchip: checked("s-" + key + "-chip"),
          upgraded: checked("s-" + key + "-up"),
          game_end: ge ? (parts[1] ? { kind: parts[0], resource: parts[1] } : { kind: parts[0] }) : null
        }));
      }
    });
    s.robots = robots;
    var cards = [];
    for (var j = 0; j < 3; j++) {
      var grade = val("c" + j + "-grade");
      if (!grade) continue;
      var card = { name: val("c" + j + "-name"), grade: grade, extra_credit: checked("c" + j + "-ec"),
                   vp_by_grade: {}, thresholds: {} };
      GRADES.forEach(function (g) {
        var v = int("c" + j + "-vp-" + g), t = int("c" + j + "-th-" + g);
        if (v !== null) card.vp_by_grade[g] = v;
        if (t !== null) card.thresholds[g] = t;
      });
      if (val("c" + j + "-template")) card.template = val("c" + j + "-template");
      if (int("c" + j + "-count") !== null) card.count = int("c" + j + "-count");
      cards.push(card);
    }
    s.class_cards = cards;
    var comp = int("competitions_completed"), listed = Array.isArray(old.completed) ? old.completed.length : null;
    delete s.competitions_completed;
    if (comp !== null && comp !== listed) s.competitions_completed = comp;  // else the planner's list says it
    return s;
  }

  function playerBody(s, name) {
    var cards = (s.class_cards || []).map(function (c) {
      var out = {};
      ["name", "extra_credit", "vp_by_grade", "template", "count", "thresholds"].forEach(function (k) {
        var v = c[k];
        if (v === undefined || v === null || v === "" || (typeof v === "object" && !Object.keys(v).length)) return;
        out[k] = v;
      });
      if (["none", "D", "C", "B", "A"].indexOf(c.grade) >= 0) out.grade = c.grade;
      return out;
    });
    var slots = slotsOf(s), robots = Object.keys(slots).map(function (k) {
      var r = slots[k], out = {};
      ["row", "column", "vp", "needs_microchip", "upgraded", "game_end", "any_row"].forEach(function (f) {
        if (r[f] !== undefined) out[f] = r[f];
      });
      return out;
    });
    var body = { name: name, inventory: s.inventory || {}, robots: robots, class_cards: cards };
    var comp = s.competitions_completed;
    if (comp === undefined && Array.isArray(s.completed)) comp = s.completed.length;
    if (typeof comp === "number") body.competitions_completed = comp;
    return body;
  }

  function soloBody() {
    if (names.length !== 1 || !form.elements["solo-threshold"]) return null;
    var t = int("solo-threshold");
    if (t === null) return null;
    var mode = form.querySelector("input[name=solo-mode]:checked");
    return { threshold: t, mode: mode ? mode.value : "single", competitions: checked("solo-cf") };
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function renderResult(r) {
    document.getElementById("rr-total").textContent = r.total;
    var sticky = document.getElementById("rr-sticky");
    sticky.textContent = "";
    sticky.append(names[seat] + ": ", el("strong", "num", String(r.total)), " VP");
    var parts = [["Robots", r.robots], ["Class cards", r.class_cards], ["Inventory VP", r.inventory_vp],
                 ["Leftovers", r.leftovers], ["Game End", r.game_end]];
    var top = Math.max.apply(null, parts.map(function (p) { return p[1]; }).concat([1]));
    var chart = document.getElementById("rr-chart");
    chart.textContent = "";
    parts.forEach(function (p) {
      var li = el("li"), bar = el("span", "bar"), i = el("i");
      i.style.width = (100 * p[1] / top).toFixed(1) + "%";
      bar.appendChild(i);
      li.append(el("span", "", p[0]), bar, el("span", "num", String(p[1])));
      chart.appendChild(li);
    });
    var lines = document.getElementById("rr-lines");
    lines.textContent = "";
    r.lines.forEach(function (ln) {
      var li = el("li", "rr-line rr-" + ln.kind), head = el("div", "rr-line-head"), why = el("p", "why", ln.why);
      head.append(el("span", "", ln.what), el("strong", "num", String(ln.vp)));
      if (ln.rule) {
        var a = el("a", "", "rule");
        a.href = "/rules/" + ln.rule;
        why.append(" · ", a);
      }
      li.append(head, why);
      lines.appendChild(li);
    });
    document.querySelectorAll("#rr-map td").forEach(function (td) {
      var col = Number(td.dataset.slot.split("-")[1]);
      td.classList.toggle("full", r.full_columns.indexOf(col) >= 0);
    });
  }

  function renderMap(s) {
    var slots = slotsOf(s);
    document.querySelectorAll("#rr-map td").forEach(function (td) {
      var r = slots[td.dataset.slot], a = td.querySelector("a");
      td.classList.toggle("filled", !!r);
      td.classList.toggle("empty", !r);
      a.textContent = r ? String(r.vp) : "·";
      if (r && r.upgraded) { var up = el("sup", "", "↑"); up.setAttribute("aria-hidden", "true"); a.appendChild(up); }
    });
    ROWS.forEach(function (row) {
      var n = 0, firstFree = 0;
      for (var c = 1; c <= 5; c++) {
        var filled = !!slots[row + "-" + c];
        if (filled) n++; else if (!firstFree) firstFree = c;
        var fs = document.getElementById("slot-" + row + "-" + c);
        // only filled slots and the next free one show: a new robot takes the leftmost free slot
        if (fs && !fs.contains(document.activeElement)) fs.classList.toggle("rr-later", !filled && c !== firstFree);
      }
      var span = document.querySelector("#row-" + row + " [data-row-count]");
      if (span) span.textContent = n;
    });
    for (var j = 0; j < 3; j++) {
      var card = document.getElementById("class-" + j);
      if (card) card.classList.toggle("rr-nocard", !val("c" + j + "-grade"));
    }
  }

  function renderStandings(d) {
    var body = document.querySelector("#rr-standings tbody");
    if (body) body.textContent = "";
    if (body) d.standings.forEach(function (s) {
      var tr = el("tr", s.name === names[seat] ? "rr-me" : ""), who = el("td", "", s.name);
      if (s.decided_by && s.decided_by !== "total") {
        who.appendChild(el("span", "small muted rr-tie", s.decided_by === "shared" ? "tie: shared" : "tie broken by " + s.decided_by));
      }
      tr.append(el("td", "num", String(s.place)), who, el("td", "num", String(s.total)),
                el("td", "num", String(s.robots)), el("td", "num", String(s.class_cards)));
      body.appendChild(tr);
    });
    var solo = document.getElementById("rr-solo-result");
    if (solo) {
      solo.hidden = !d.solo;
      solo.className = "notice" + (d.solo ? (d.solo.reached ? " ok" : " warn") : "");
      if (d.solo) {
        solo.textContent = "";
        solo.append("Target ", el("strong", "num", String(d.solo.target)), " (" + d.solo.why + "). Your " + d.solo.total
          + " VP " + (d.solo.reached ? "reach" : "miss") + " it by " + Math.abs(d.solo.margin) + ".");
      }
    }
  }

  var errorBox = document.getElementById("rr-error");
  var broken = document.getElementById("rr-broken");
  function refresh() {
    seats[seat] = readSeat(seats[seat] || {});
    jsonField.value = JSON.stringify(seats);
    renderMap(seats[seat]);
    var body = { players: seats.map(function (s, i) { return playerBody(s, names[i]); }) };
    var solo = soloBody();
    if (solo) body.solo = solo;
    return T.api("POST", "/api/raising-robots/score/compare", body).then(function (res) {
      if (res.ok) {
        errorBox.hidden = true;
        if (broken) broken.hidden = true;
        renderResult(res.data.scores[seat]);
        renderStandings(res.data);
        var box = document.getElementById("rr-rules-box");
        box.textContent = "";
        var list = window.RR.ruleList(res.data.scores[seat].rules.concat(res.data.rules), "Rules this score relies on");
        if (list.id !== undefined) list.id = "rr-rules";
        box.appendChild(list);
        return;
      }
      var f = res.data && res.data.error && res.data.error.fields && res.data.error.fields[0];
      var mine = !f || f.path.indexOf("players[" + seat + "]") === 0 || f.path === "solo" || f.path === "body";
      if (mine) { errorBox.textContent = T.errorText(res); errorBox.hidden = false; }
      else if (broken) { broken.textContent = "Another player's entries need a fix: " + T.errorText(res); broken.hidden = false; }
    });
  }

  var tableId = document.body.dataset.tableId, table = null;
  // Only the fields this page changed since it was drawn (or last saved) are written, so what another
  // page wrote meanwhile (the planner's inventory after "Done") is not undone.
  var base = null, saving = Promise.resolve(), dirty = false;
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  function save() {
    if (!table) return;
    dirty = false;
    var mine = JSON.parse(JSON.stringify(seats[seat])), was = base || mine, solo = soloBody() || { threshold: null, mode: "single", competitions: true };
    if (form.elements["solo-threshold"]) {
      var mode = form.querySelector("input[name=solo-mode]:checked");
      solo = { threshold: int("solo-threshold"), mode: mode ? mode.value : "single", competitions: checked("solo-cf") };
    }
    saving = table.save(function (state) {
      var players = Array.isArray(state.rr_players) ? state.rr_players : [];
      while (players.length <= seat) players.push({});
      var merged = Object.assign({}, players[seat] || {}), inv = Object.assign({}, merged.inventory || {});
      ITEMS.forEach(function (k) {
        if (mine.inventory[k] !== (was.inventory || {})[k] || inv[k] === undefined) inv[k] = mine.inventory[k];
      });
      merged.inventory = inv;
      if (!same(mine.class_cards, was.class_cards) || merged.class_cards === undefined) merged.class_cards = mine.class_cards;
      // robots by id: only the slots changed here are written; robots another phone changed meanwhile stay
      if (!same(mine.robots, was.robots) || merged.robots === undefined) {
        merged.robots = window.RR.mergeRobots(merged.robots, was.robots, mine.robots);
      }
      if (!same(mine.competitions_completed, was.competitions_completed)) {
        if (mine.competitions_completed === undefined) delete merged.competitions_completed;
        else merged.competitions_completed = mine.competitions_completed;
      }
      players[seat] = merged;
      state.rr_players = players;
      state.rr_score = Object.assign({}, state.rr_score || {}, { solo: solo });
      return state;
    }).then(function () { base = mine; }).catch(function () { /* the status line says why */ });
  }
  var saveSoon = T.debounce(save, 700);
  var refreshSoon = T.debounce(refresh, 200);

  if (tableId) {
    table = T.table(tableId);
    T.tableStatus(table);
    table.load().catch(function () { table = null; });
    base = readSeat(JSON.parse(JSON.stringify(seats[seat] || {})));
  }
  form.addEventListener("input", function () { dirty = true; refreshSoon(); saveSoon(); });
  form.addEventListener("change", function () { dirty = true; refreshSoon(); saveSoon(); });
  window.RR.saveBeforeLeaving(function () {
    if (!table) return null;
    if (dirty) { seats[seat] = readSeat(seats[seat] || {}); save(); }
    return saving;
  });
  // a tap on a slot of the map opens its row and focuses the VP field
  document.querySelectorAll("#rr-map a").forEach(function (a) {
    a.addEventListener("click", function (ev) {
      var key = a.parentNode.dataset.slot, det = document.getElementById("row-" + key.split("-")[0]);
      if (det) det.open = true;
      var input = document.getElementById("s-" + key + "-vp");
      var fs = document.getElementById("slot-" + key);
      if (fs) fs.classList.remove("rr-later");
      if (input) { ev.preventDefault(); input.scrollIntoView({ block: "center" }); input.focus(); }
    });
  });
})();
