// Raising Robots round end: recomputes as you set the order and choices (POST /api/raising-robots/round-end)
// and keeps them with the table. Without this script the form posts and the server renders the same steps.
(function () {
  "use strict";
  var T = window.Tablebot;
  var form = document.getElementById("rr-round");
  if (!form || !T) return;
  document.documentElement.classList.add("rr-js");

  // item keys and names as the server gives them (solvers/raising_robots/model.py)
  var ITEM_NAMES = {}, ITEMS = JSON.parse(form.dataset.items || "[]").map(function (pair) {
    ITEM_NAMES[pair[0]] = pair[1];
    return pair[0];
  });
  var ROWS = ["design", "fabricate", "recycle"];
  var PARTS = [["johannes", "base"], ["johannes", "upgrade"], ["charlotte", "base"], ["charlotte", "upgrade"],
    ["sacagawea", "base"], ["sacagawea", "upgrade"], ["temple_friendship", "base"],
    ["confucius_friendship", "base"], ["johannes_friendship", "base"]];
  var WILDS = ["sensor", "gear", "microchip", "program", "robot_cards"];
  var PAY = ["sensor", "gear", "microchip", "program", "duct_tape", "robot_cards"];
  var CONFUCIUS = ["batteries", "sensor", "gear", "microchip", "program", "robot_cards"];

  function val(name) { var el = form.elements[name]; return el ? String(el.value || "").trim() : ""; }
  function radio(name) { var el = form.querySelector("input[name='" + name + "']:checked"); return el ? el.value : ""; }
  function checked(name) { var el = form.elements[name]; return !!(el && el.checked); }
  function int(name, dflt) { var v = val(name); return /^\d+$/.test(v) ? Number(v) : dflt; }
  function counts(prefix, keys) {
    var out = {};
    keys.forEach(function (k) { var v = int(prefix + k, 0); if (v) out[k] = v; });
    return out;
  }

  function choices() {
    var order = {};
    PARTS.forEach(function (p) { var v = int("ord-" + p[0] + "-" + p[1], 0); if (v) order[p[0] + "-" + p[1]] = v; });
    return {
      order: order, ch_action: radio("ch-action") || "skip", ch_wilds: counts("ch-w-", WILDS),
      ch_pay: counts("ch-p-", PAY), ch_row: val("ch-row") || "design", ch_cost: int("ch-cost", 2),
      ch_vp: int("ch-vp", 3), ch_extra: int("ch-extra", 0), ch_chip: checked("ch-chip"), ch_gain: val("ch-gain"),
      sa_search: checked("sa-search"), sa_reward: radio("sa-reward"), sa_ongoing: checked("sa-ongoing"),
      co: counts("co-", CONFUCIUS)
    };
  }
  function inventory() { var inv = {}; ITEMS.forEach(function (k) { inv[k] = int("inv-" + k, 0); }); return inv; }
  function occupied() {
    var out = [];
    ROWS.forEach(function (r) { for (var c = 1; c <= 5; c++) if (checked("occ-" + r + "-" + c)) out.push(r + "-" + c); });
    return out;
  }

  // Same as round_end_body on the server: the parts in the order set, each with its own choices.
  function body(ch) {
    var chosen = PARTS.map(function (p, i) { return { n: ch.order[p[0] + "-" + p[1]] || 0, a: p[0], p: p[1], i: i }; })
      .filter(function (x) { return x.n; })
      .sort(function (x, y) { return x.n - y.n || x.i - y.i; });
    var abilities = chosen.map(function (x) {
      var ab = { id: x.a, part: x.p, upgraded: x.p === "upgrade" };
      if (x.a === "charlotte" && x.p === "base") {
        ab.action = ch.ch_action;
        if (ch.ch_action !== "skip") ab.pay_wilds = ch.ch_wilds;
        if (ch.ch_action === "assemble") {
          ab.robot = { row: ch.ch_row, cost_resources: [ch.ch_cost], vp: ch.ch_vp, needs_microchip: ch.ch_chip };
          ab.payment = ch.ch_pay;
          ab.extra_cost = ch.ch_extra;
        }
      }
      if (x.a === "charlotte" && x.p === "upgrade" && ch.ch_gain) ab.gain_wild = ch.ch_gain;
      if (x.a === "sacagawea" && x.p === "base") ab.search = ch.sa_search;
      if (x.a === "sacagawea" && x.p === "upgrade" && ch.sa_reward) ab.reward = ch.sa_reward;
      if (x.a === "confucius_friendship") {
        ab.per_robot = [];
        CONFUCIUS.forEach(function (k) { for (var i = 0; i < (ch.co[k] || 0); i++) ab.per_robot.push(k); });
      }
      return ab;
    });
    var b = { inventory: inventory(), abilities: abilities, robots: occupied().map(function (k) {
      var parts = k.split("-"); return { row: parts[0], column: Number(parts[1]) };
    }) };
    if (ch.sa_ongoing) b.sacagawea_ongoing = true;
    return b;
  }

  // robots by slot "design-1": a robot's own column, else the leftmost free slot of its row (as the server does)
  function slotsOf(robots) {
    var taken = {}, later = [];
    robots.forEach(function (r) {
      if (!r || ROWS.indexOf(r.row) < 0) return;
      var key = r.row + "-" + r.column;
      if (r.column >= 1 && r.column <= 5 && !taken[key]) taken[key] = r; else later.push(r);
    });
    later.forEach(function (r) {
      for (var c = 1; c <= 5; c++) {
        if (!taken[r.row + "-" + c]) { taken[r.row + "-" + c] = Object.assign({}, r, { column: c }); return; }
      }
    });
    return taken;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function gains(d) {
    var ul = el("ul", "rr-gain"), keys = Object.keys(d);
    if (!keys.length) ul.appendChild(el("li", "", "nothing"));
    keys.forEach(function (k) {
      var v = d[k];
      ul.appendChild(el("li", v > 0 ? "up" : "down", (v > 0 ? "+" : "") + v + " " + k.replace("_", " ")));
    });
    return ul;
  }

  var box = document.getElementById("rr-result-body"), errorBox = document.getElementById("rr-error");
  var applyLabel = form.dataset.applyLabel || "Done: use this as my inventory";
  var tableId = document.body.dataset.tableId;
  function render(d, before, nRobots) {
    box.textContent = "";
    if (!d.steps.length) { box.appendChild(el("p", "muted", "Give the abilities you use an order number (1 first) below.")); return; }
    var ol = el("ol", "steps rr-steps");
    d.steps.forEach(function (s) {
      var li = el("li"), why = el("p", "why", s.why);
      li.append(el("strong", "", s.name), gains(s.gained));
      if (s.link) {
        var a = el("a", "", "Search odds");
        a.href = s.link + (tableId ? "?table=" + encodeURIComponent(tableId) : "");
        why.append(" · ", a);
      }
      var r = el("a", "", "rule");
      r.href = "/rules/" + s.rule;
      why.append(" · ", r);
      li.appendChild(why);
      li.appendChild(window.RR.ruleList(s.rules.slice(1), "More rules for this step"));
      ol.appendChild(li);
    });
    box.append(ol, el("h3", "", "After the round end"));
    var table = el("table", "data"), tb = el("tbody");
    ITEMS.forEach(function (k) {
      if (d.inventory_after[k] === before[k]) return;
      var tr = el("tr"), th = el("th", "", ITEM_NAMES[k]), td = el("td", "num", before[k] + " → ");
      th.scope = "row";
      td.appendChild(el("strong", "", String(d.inventory_after[k])));
      tr.append(th, td);
      tb.appendChild(tr);
    });
    if (d.tokens_unlocked) {
      var tr = el("tr"), th = el("th", "", "Upgrade tokens unlocked");
      th.scope = "row";
      tr.append(th, el("td", "num", "+" + d.tokens_unlocked));
      tb.appendChild(tr);
    }
    if (d.robots_after.length !== nRobots) {
      var tr2 = el("tr"), th2 = el("th", "", "Robots in play"), td2 = el("td", "num", nRobots + " → ");
      th2.scope = "row";
      td2.appendChild(el("strong", "", String(d.robots_after.length)));
      tr2.append(th2, td2);
      tb.appendChild(tr2);
    }
    table.appendChild(tb);
    box.appendChild(table);
    d.notes.forEach(function (n) { box.appendChild(el("p", "notice warn small", n)); });
    var p = el("p"), btn = el("button", "btn primary", applyLabel);
    btn.type = "submit"; btn.name = "action"; btn.value = "apply"; btn.id = "rr-apply";
    p.appendChild(btn);
    box.appendChild(p);
  }
  function renderRules(ids) {
    var holder = document.getElementById("rr-rules-box"), list = window.RR.ruleList(ids, "Rules the round end follows");
    holder.textContent = "";
    if (list.id !== undefined) list.id = "rr-rules";
    holder.appendChild(list);
  }

  function refresh() {
    var b = body(choices());
    return T.api("POST", "/api/raising-robots/round-end", b).then(function (res) {
      if (res.ok) { errorBox.hidden = true; render(res.data, b.inventory, b.robots.length); renderRules(res.data.rules); return; }
      errorBox.textContent = T.errorText(res);
      errorBox.hidden = false;
    });
  }

  var table = null;
  var seatEl = form.elements.seat, seat = seatEl ? Number(seatEl.value || 0) : 0;
  // Only what this page changed since it was drawn (or last saved) reaches the seat: the planner's or the
  // score page's changes made meanwhile stay.
  var base = { inv: inventory(), occ: occupied() };
  var saving = Promise.resolve(), dirty = false;
  function save() {
    if (!table) return;
    dirty = false;
    var ch = choices(), inv = inventory(), occ = occupied(), was = base;
    saving = table.save(function (state) {
      var rre = Object.assign({}, state.rr_round_end || {});
      rre.seats = Object.assign({}, rre.seats || {});
      rre.seats[String(seat)] = ch;
      state.rr_round_end = rre;
      var players = Array.isArray(state.rr_players) ? state.rr_players : [];
      while (players.length <= seat) players.push({});
      var mine = Object.assign({}, players[seat] || {}), stored = Object.assign({}, mine.inventory || {});
      ITEMS.forEach(function (k) { if (inv[k] !== was.inv[k] || stored[k] === undefined) stored[k] = inv[k]; });
      mine.inventory = stored;
      // slots ticked or cleared here since `was`: the robot in a cleared slot leaves (by its id), a ticked
      // free slot gets a new robot; robots another phone placed meanwhile stay
      var robots = Array.isArray(mine.robots) ? mine.robots.slice() : [], have = slotsOf(robots);
      was.occ.forEach(function (k) {
        var gone = have[k];
        if (occ.indexOf(k) >= 0 || !gone) return;
        robots = robots.filter(function (r) {
          return !r || (gone.id ? r.id !== gone.id : !(r.row === gone.row && (r.column === gone.column || r === gone)));
        });
      });
      occ.forEach(function (k) {
        var parts = k.split("-");
        if (was.occ.indexOf(k) < 0 && !have[k]) robots.push({ id: window.RR.newId(), row: parts[0], column: Number(parts[1]) });
      });
      mine.robots = robots;
      players[seat] = mine;
      state.rr_players = players;
      return state;
    }).then(function () { base = { inv: inv, occ: occ }; }).catch(function () { /* the status line says why */ });
  }
  if (tableId) {
    table = T.table(tableId);
    T.tableStatus(table);
    table.load().catch(function () { table = null; });
  }
  var refreshSoon = T.debounce(refresh, 150), saveSoon = T.debounce(save, 700);
  // an ability's choices show only once it has an order number
  function showChoices() {
    PARTS.forEach(function (p) {
      var key = p[0] + "-" + p[1], fs = document.getElementById("ab-" + key);
      if (fs) fs.classList.toggle("rr-unused", !val("ord-" + key));
    });
  }
  function changed(ev) {
    if (ev.target && ev.target.name === "seat") return;  // switching seats reloads the page
    showChoices();
    dirty = true;
    refreshSoon(); saveSoon();
  }
  window.RR.saveBeforeLeaving(function () {
    if (!table) return null;
    if (dirty) save();
    return saving;
  });
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  if (seatEl && seatEl.tagName === "SELECT") {
    seatEl.addEventListener("change", function () {
      var url = new URL(location.href);
      url.searchParams.set("seat", seatEl.value);
      location.href = url.toString();
    });
  }
})();
