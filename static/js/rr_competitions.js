// Competitions planner: plans as you change a number (POST /api/raising-robots/competitions/plan), keeps
// what you enter with the table, and applies a plan in one tap. Without this script the form posts and the
// server renders the same plan.
(function () {
  "use strict";
  var T = window.Tablebot;
  var form = document.getElementById("rrc");
  if (!form || !T) return;
  form.classList.add("js");

  var TYPES = ["engineering_expo", "mech_masters", "think_tank", "robo_race"];
  var TOKENS = ["pink", "orange", "blue", "green"];
  var ITEMS = ["sensor", "gear", "microchip", "program", "robot_cards", "duct_tape", "battery", "vp"];
  var LABELS = { sensor: "Sensors", gear: "Gears", microchip: "Microchips", program: "Programs",
    robot_cards: "Robot Cards in hand", duct_tape: "Duct tape", battery: "Batteries", vp: "VP" };
  var VALUE_KEYS = ["sensor", "gear", "microchip", "program", "duct_tape", "battery", "robot_cards", "upgrade_token", "friendship"];
  var ROBOT_KEYS = ["row", "any_row", "cost_energy", "cost_resources", "basic_energy", "upgraded_energy", "upgraded", "vp", "needs_microchip"];
  var API = "/api/raising-robots/competitions/plan";
  var COMMON = ["rr-how-to-complete-competitions", "rr-completion-criteria", "rr-completion-rewards"]; // shown once, below
  var seat = Number(form.dataset.seat || 0);
  var seatName = form.dataset.seatName || "you";
  var RR = window.RR;
  var resultBox = document.getElementById("rrc-result");
  var resultBody = document.getElementById("rrc-result-body");
  var errorBox = document.getElementById("rrc-error");
  var statusBox = document.getElementById("rrc-status");
  var robotsBox = document.getElementById("rrc-robots");
  var tableId = document.body.dataset.tableId;
  var table = null, last = null, pending = 0, justCompleted = [];

  function field(name) { return form.elements.namedItem(name); }
  function text(name) { var el = field(name); return el ? String(el.value || "").trim() : ""; }
  function int(name, blank) {
    var v = text(name);
    if (v === "") return blank === undefined ? 0 : blank;
    var n = Number(v);
    return Math.floor(n) === n ? n : v; // a non-integer goes to the API, which names the field
  }
  function checked(name) { var el = field(name); return !!(el && el.checked); }
  function setValue(name, v) { var el = field(name); if (el) el.value = String(v); }
  function setChecked(name, v) { var el = field(name); if (el) el.checked = !!v; }
  function numbers(s) {
    var parts = s.replace(/,/g, " ").split(/\s+/).filter(Boolean);
    if (!parts.length || parts.length > 7 || !parts.every(function (p) { return /^\d+$/.test(p) && Number(p) <= 20; })) return null;
    return parts.map(Number);
  }
  function el(tag, cls, content) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (content !== undefined && content !== null) e.textContent = content;
    return e;
  }

  // ---- what the form says ----
  function readComps() {
    var cs = { cards: {}, sides: {}, tiles: {}, card_values: {}, values: {}, duct_tape_pays_resources: checked("duct_tape_pays_resources") };
    TYPES.forEach(function (t) {
      cs.cards[t] = text("card-" + t) || null;
      var side = form.querySelector('input[name="side-' + t + '"]:checked');
      cs.sides[t] = side ? side.value : "A";
      var tile = {}, tok = field("tok-" + t);
      if (tok && tok.value !== tok.dataset.default) tile.token_type = tok.value;
      ["A", "B"].forEach(function (s) {
        [["resources", "res"], ["batteries", "bat"]].forEach(function (k) {
          var f = field(k[1] + "-" + t + "-" + s);
          if (f && f.value.trim() !== f.dataset.default) { tile[s] = tile[s] || {}; tile[s][k[0]] = int(k[1] + "-" + t + "-" + s); }
        });
      });
      if (Object.keys(tile).length) cs.tiles[t] = tile;
    });
    form.querySelectorAll('input[name^="vals-"]').forEach(function (f) {
      if (f.value.trim() !== f.dataset.default) cs.card_values[f.name.slice(5)] = numbers(f.value) || f.value;
    });
    VALUE_KEYS.forEach(function (k) {
      var f = field("value-" + k);
      if (f && f.value.trim() && f.value.trim() !== f.dataset.default) cs.values[k] = f.value.trim();
    });
    return cs;
  }

  function readRobot(fs) {
    function v(suffix) { var f = fs.querySelector('[name$="-' + suffix + '"]'); return f ? String(f.value || "").trim() : ""; }
    function c(suffix) { var f = fs.querySelector('[name$="-' + suffix + '"]'); return !!(f && f.checked); }
    function n(suffix) { var s = v(suffix); return s === "" ? null : Number(s); }
    var energy = [n("e1"), n("e2")].filter(function (x) { return x !== null; });
    var res = [n("c1"), n("c2")].filter(function (x) { return x !== null; });
    return { id: v("id"),
      robot: { row: v("row"), any_row: c("any"), upgraded: c("upgraded"), needs_microchip: c("chip"),
        cost_energy: energy, cost_resources: res,
        basic_energy: n("basic") || 1, upgraded_energy: n("up"), vp: n("vp") || 0 } };
  }

  function readSeat() {
    var s = { inventory: {}, tokens: { unplaced: {}, placed: {} }, class_status: {}, completed: [] };
    ITEMS.forEach(function (k) { s.inventory[k] = int("inv-" + k); });
    TOKENS.forEach(function (t) { s.tokens.unplaced[t] = int("unplaced-" + t); s.tokens.placed[t] = int("placed-" + t); });
    s.class_status = { meeting_d: int("meeting_d"), meeting_c: int("meeting_c") };
    s.friendships = int("friendships");
    TYPES.forEach(function (t) { if (checked("done-" + t)) s.completed.push(t); });
    s.robots = Array.prototype.map.call(robotsBox.querySelectorAll("fieldset.robot"), readRobot);
    return s;
  }

  function planBody() {
    var cs = readComps(), s = readSeat(), comps = [];
    TYPES.forEach(function (t) {
      var crit = cs.cards[t];
      if (!crit) return;
      var side = cs.sides[t], tile = cs.tiles[t] || {}, c = { type: t, criterion: crit, side: side, cost: {} };
      if (tile.token_type) c.token_type = tile.token_type;
      if (tile[side]) c.cost = tile[side];
      if (cs.card_values[crit] !== undefined) c.values = cs.card_values[crit];
      comps.push(c);
    });
    var robots = s.robots.map(function (r) {
      var out = {};
      ROBOT_KEYS.forEach(function (k) { if (r.robot[k] !== undefined) out[k] = r.robot[k]; });
      return out;
    });
    return { player: { inventory: s.inventory, tokens: s.tokens, class_cards: s.class_status, robots: robots,
      friendships: s.friendships, completed: s.completed }, competitions: comps, values: cs.values,
      rules: { duct_tape_pays_resources: cs.duct_tape_pays_resources } };
  }

  // ---- the plan, drawn like the server draws it ----
  function rewardText(r) {
    if (r.option !== "friendship") return "+" + r.vp + " VP";
    return "draw " + r.friendship_draw + " Friendship cards, " + (r.friendship_keep ? "keep 1" : "keep none (you hold 2)")
      + (r.vp ? " and +" + r.vp + " VP" : "");
  }
  function valueSpan(v) { var s = el("span", "num", v.approx.toFixed(2)); s.title = "exactly " + v.exact; return s; }
  // which rules show where, as the server's _rule_lists: each step its own, each competition its card
  // (inline), the rest once under the plan
  function generalRules(data) {
    var shown = {};
    data.plan.steps.forEach(function (s) { s.rules.forEach(function (id) { if (COMMON.indexOf(id) < 0) shown[id] = true; }); });
    data.eligible.forEach(function (e) { if (e.rules.length) shown[e.rules[0]] = true; });
    return data.rules.filter(function (id) { return !shown[id]; });
  }

  function render(data) {
    var now = readSeat(), p = data.plan, frag = document.createDocumentFragment();
    var who = seatName;
    if (p.steps.length) {
      var head = el("p", "headline", "Complete " + p.steps.map(function (s) { return s.name; }).join(", then ") + ": worth ");
      head.appendChild(valueSpan(p.value));
      head.appendChild(document.createTextNode(" VP to " + who + "."));
      frag.appendChild(head);
      var ol = el("ol", "steps");
      p.steps.forEach(function (s) {
        var li = el("li"), h = el("p", "step-head");
        h.appendChild(el("strong", null, s.name));
        h.appendChild(document.createTextNode(": pay " + s.payment.text + "; take " + rewardText(s.reward) + "."));
        li.appendChild(h);
        li.appendChild(el("p", "why", "Met: " + s.why + "."));
        var ul = el("ul", "reasons");
        s.reasons.forEach(function (r) { ul.appendChild(el("li", null, r)); });
        li.appendChild(ul);
        li.appendChild(RR.ruleList(s.rules.filter(function (id) { return COMMON.indexOf(id) < 0; }), "Rules for this step"));
        ol.appendChild(li);
      });
      frag.appendChild(ol);
      var changes = ITEMS.filter(function (k) { return now.inventory[k] !== p.inventory_after[k]; })
        .map(function (k) { return LABELS[k] + " " + now.inventory[k] + " → " + p.inventory_after[k]; });
      if (p.friendships_after !== now.friendships) changes.push("Friendship cards " + now.friendships + " → " + p.friendships_after);
      var after = el("p", "after", "Afterwards: " + changes.join(", ") + ".");
      after.id = "rrc-after";
      frag.appendChild(after);
      var bp = el("p"), b = el("button", "btn primary", "Done: update " + (who === "you" ? "your" : who + "’s") + " numbers");
      b.type = "button"; b.id = "rrc-apply";
      b.addEventListener("click", apply);
      bp.appendChild(b);
      frag.appendChild(bp);
    } else if (!data.competitions.length) {
      frag.appendChild(el("p", "headline", "No competitions chosen yet."));
      frag.appendChild(el("p", null, "Pick the four cards in play under “Competitions in play” below, or deal them with the setup helper."));
    } else {
      frag.appendChild(el("p", "headline", "Complete nothing now."));
    }
    if (data.ties.length) {
      var d = el("details", "ties"), n = data.ties.length;
      d.appendChild(el("summary", null, n + " other plan" + (n > 1 ? "s are" : " is") + " as good" + (data.ties_complete ? "" : " (maybe more)")));
      var tl = el("ol");
      data.ties.forEach(function (t) {
        tl.appendChild(el("li", null, t.steps.length ? t.steps.map(function (s) {
          return s.name + ": " + s.payment.text + ", " + rewardText(s.reward);
        }).join("; ") : "nothing"));
      });
      d.appendChild(tl);
      frag.appendChild(d);
    }
    if (data.competitions.length) data.notes.forEach(function (n) { frag.appendChild(el("p", "small muted note", n)); });
    if (data.eligible.length) {
      frag.appendChild(el("h3", null, "Each competition now"));
      var list = el("ul", "eligible");
      data.eligible.forEach(function (e) {
        var ok = e.met && !e.completed, li = el("li", ok ? "met" : "unmet"), mark = el("span", "mark", ok ? "✓" : "✗");
        mark.setAttribute("aria-hidden", "true");
        li.appendChild(mark);
        var span = el("span"), card = el("a", null, "card");
        span.appendChild(el("strong", null, e.name));
        span.appendChild(el("span", "sr-only", ok ? " (met)" : " (not met)"));
        span.appendChild(document.createTextNode(": " + e.why + " · "));
        card.href = "/rules/" + e.rules[0];
        span.appendChild(card);
        li.appendChild(span);
        list.appendChild(li);
      });
      frag.appendChild(list);
    }
    var general = RR.ruleList(generalRules(data), "Rules this plan relies on");
    if (general.id !== undefined) general.id = "rrc-rules";
    frag.appendChild(general);
    resultBody.textContent = "";
    resultBody.appendChild(frag);
  }

  function showError(msg) { errorBox.textContent = msg; errorBox.hidden = !msg; }
  function showStatus(msg) { statusBox.textContent = msg; statusBox.hidden = !msg; }

  function plan() {
    var bad = Array.prototype.filter.call(form.querySelectorAll('input[name^="vals-"]'), function (f) { return !numbers(f.value); });
    if (bad.length) { showError("Card values: give 1 to 7 whole numbers from 0 to 20, like “1 2 3 4”."); return; }
    var mine = ++pending;
    resultBox.classList.add("busy");
    T.api("POST", API, planBody()).then(function (res) {
      if (mine !== pending) return;
      resultBox.classList.remove("busy");
      if (!res.ok) { showError(T.errorText(res)); return; }
      showError("");
      var problems = document.getElementById("rrc-problems");
      if (problems) problems.hidden = true;
      last = res.data;
      render(res.data);
    });
  }

  // ---- the table ----
  function withIds(robots) {
    return robots.map(function (r) { return Object.assign({ id: r.id }, r.robot); });
  }
  // Only what this page changed since it was drawn (or last saved) is written, so a change another page
  // made meanwhile (the score page's inventory, the setup helper's tile sides) is not undone.
  var base = null;
  function snapshot() { return JSON.parse(JSON.stringify({ comps: readComps(), seat: readSeat() })); }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  function roundOf(state) {
    var t = state.table && typeof state.table === "object" ? state.table : {}, r = t.round;
    var m = state.rr_competitions && state.rr_competitions.marker;
    r = typeof r === "number" && r >= 1 && r <= 99 ? Math.floor(r) : 0;
    m = typeof m === "number" && m >= 1 && m <= 8 ? Math.floor(m) : 0;
    return Math.max(r, m) || Number(form.dataset.round || 1);
  }
  function mutate(state) {
    var mine = readComps(), s = readSeat(), was = base || snapshot();
    var cs = Object.assign({}, state.rr_competitions || {});
    ["cards", "sides", "tiles", "card_values", "values"].forEach(function (k) {
      if (!same(mine[k], was.comps[k]) || cs[k] === undefined) cs[k] = Object.assign({}, cs[k] || {}, mine[k]);
    });
    ["tiles", "card_values", "values"].forEach(function (k) {  // a value set back to its default is dropped
      if (!same(mine[k], was.comps[k])) {
        Object.keys(was.comps[k]).forEach(function (x) { if (!(x in mine[k]) && cs[k]) delete cs[k][x]; });
      }
    });
    if (mine.duct_tape_pays_resources !== was.comps.duct_tape_pays_resources) cs.duct_tape_pays_resources = mine.duct_tape_pays_resources;
    if (justCompleted.length) {
      var done = Array.isArray(cs.completed_this_round) ? cs.completed_this_round.slice() : [];
      justCompleted.forEach(function (t) { if (done.indexOf(t) < 0) done.push(t); });
      cs.completed_this_round = done;
      cs.completed_round = roundOf(state);
    }
    state.rr_competitions = cs;
    var players = Array.isArray(state.rr_players) ? state.rr_players.slice() : [];
    while (players.length <= seat) players.push({});
    var own = Object.assign({}, players[seat] || {});
    var inv = Object.assign({}, own.inventory || {});
    // a field is written when this page changed it, or when the table has none yet
    ITEMS.forEach(function (k) { if (s.inventory[k] !== was.seat.inventory[k] || inv[k] === undefined) inv[k] = s.inventory[k]; });
    own.inventory = inv;
    if (!same(s.tokens, was.seat.tokens) || own.tokens === undefined) own.tokens = s.tokens;
    if (!same(s.class_status, was.seat.class_status) || own.class_status === undefined) own.class_status = s.class_status;
    if (s.friendships !== was.seat.friendships || own.friendships === undefined) own.friendships = s.friendships;
    if (!same(s.completed, was.seat.completed) || own.completed === undefined) {
      if (!same(s.completed, own.completed)) delete own.competitions_completed;  // a count typed on the score page is out of date
      own.completed = s.completed;
    }
    // robots by id: an edit lands on the robot it was made on, whatever another phone added or removed
    if (!same(s.robots, was.seat.robots) || own.robots === undefined) {
      own.robots = RR.mergeRobots(own.robots, withIds(was.seat.robots), withIds(s.robots));
    }
    players[seat] = own;
    state.rr_players = players;
    return state;
  }
  var saving = Promise.resolve(), dirty = false;
  function save() {
    if (!table) return;
    dirty = false;
    // one save at a time: each starts from the version the previous one wrote
    saving = saving.then(function () {
      if (table.version === null) return null;
      var next = snapshot();
      return table.save(mutate).then(function () {
        base = next;
        justCompleted = [];
      });
    }).catch(function () { /* the status line says why */ });
  }
  var planSoon = T.debounce(plan, 200), saveSoon = T.debounce(save, 700);
  function changed() { dirty = true; planSoon(); saveSoon(); showStatus(""); }
  RR.saveBeforeLeaving(function () {
    if (!table) return null;
    if (dirty) save();
    return saving;
  });

  // ---- apply: the plan carried out ----
  function apply(ev) {
    if (ev) ev.preventDefault();
    if (!last || !last.plan.steps.length) return;
    var p = last.plan;
    ITEMS.forEach(function (k) { setValue("inv-" + k, p.inventory_after[k]); });
    TOKENS.forEach(function (t) { setValue("unplaced-" + t, p.tokens_after.unplaced[t]); setValue("placed-" + t, p.tokens_after.placed[t]); });
    setValue("friendships", p.friendships_after);
    TYPES.forEach(function (t) { setChecked("done-" + t, p.completed_after.indexOf(t) >= 0); });
    var names = p.steps.map(function (s) { return s.name; });
    p.steps.forEach(function (s) { if (justCompleted.indexOf(s.type) < 0) justCompleted.push(s.type); });
    showStatus("Applied: " + names.join(", ") + " completed by " + seatName + ". Inventory, tokens and Friendship cards are updated"
      + (tableId ? " and saved with the table" : "") + "; " + (names.length > 1 ? "those tiles turn" : "that tile turns")
      + " to the B side at the end of the round.");
    plan();
    save();
  }

  // ---- robots ----
  function giveId(fs) {  // a robot added on this phone: its id is made here and kept with the table
    if (fs.querySelector('[name$="-id"]')) return;
    var id = document.createElement("input");
    id.type = "hidden";
    id.name = "r" + (fs.dataset.index || "0") + "-id";
    id.value = RR.newId();
    fs.appendChild(id);
  }
  function summary(r, i) {
    var cap = function (w) { return w.charAt(0).toUpperCase() + w.slice(1); };
    var s = "Robot " + (i + 1) + ": " + cap(r.row) + (r.any_row ? " (any-row card)" : "") + ", " + r.vp + " VP";
    if (r.cost_energy.length) s += ", costs " + r.cost_energy.map(function (e, k) { return e + "⚡ " + r.cost_resources[k] + " res."; }).join(" / ");
    s += ", action " + r.basic_energy + "⚡";
    if (r.upgraded_energy) s += " / " + r.upgraded_energy + "⚡" + (r.upgraded ? " upgraded" : "");
    return s;
  }
  function renumber() {
    var sets = robotsBox.querySelectorAll("fieldset.robot");
    sets.forEach(function (fs, i) {
      fs.dataset.index = String(i);
      fs.querySelector("legend").textContent = "Robot " + (i + 1);
      fs.querySelectorAll("[name]").forEach(function (f) { f.name = f.name.replace(/^r[^-]+-/, "r" + i + "-"); });
      var sum = fs.parentNode.querySelector(".robot-sum");
      if (sum) sum.textContent = summary(readRobot(fs).robot, i);
    });
    setValue("robots", sets.length);
  }
  function wireRemove(fs) {
    var del = fs.querySelector('[name$="-del"]');
    if (!del) return;
    del.addEventListener("change", function (e) {
      e.stopPropagation();
      if (!del.checked) return;
      (fs.closest("details.robot-wrap") || fs).remove();
      renumber();
      changed();
    });
  }
  robotsBox.querySelectorAll("fieldset.robot").forEach(wireRemove);
  var addBtn = document.getElementById("rrc-add-robot");
  if (addBtn) {
    addBtn.addEventListener("click", function (e) {
      e.preventDefault();
      var fresh = document.querySelector("#rrc-new-robot fieldset.robot");
      var r = readRobot(fresh).robot;
      if (!r.row) { showError("Choose the new robot's row first."); return; }
      if (robotsBox.querySelectorAll("fieldset.robot").length >= 15) { showError("A play area holds at most 15 robots."); return; }
      var tpl = document.getElementById("rrc-robot-template");
      var wrap = tpl.content.querySelector("details").cloneNode(true), fs = wrap.querySelector("fieldset");
      fresh.querySelectorAll("[name]").forEach(function (f) {
        var suffix = f.name.replace(/^rnew-/, ""), target = fs.querySelector('[name$="-' + suffix + '"]');
        if (!target) return;
        if (f.type === "checkbox") { target.checked = f.checked; f.checked = false; } else { target.value = f.value; f.value = ""; }
      });
      robotsBox.appendChild(wrap);
      giveId(fs);
      wireRemove(fs);
      renumber();
      showError("");
      changed();
    });
  }

  // ---- wiring ----
  form.addEventListener("input", function (e) {
    if (e.target.closest && e.target.closest("#rrc-new-robot")) return;
    if (e.target.closest && e.target.closest("#rrc-robots")) renumber();
    changed();
  });
  form.addEventListener("change", function (e) {
    if (e.target.closest && e.target.closest("#rrc-new-robot")) return;
    if (e.target.name && (e.target.name.indexOf("card-") === 0 || e.target.name.indexOf("side-") === 0)) markOff();
    changed();
  });
  form.addEventListener("submit", function (e) { e.preventDefault(); plan(); save(); });
  var serverApply = document.getElementById("rrc-apply");
  if (serverApply) serverApply.addEventListener("click", function (e) {
    e.preventDefault();
    // the server drew this plan: fetch the same answer as data, then apply it
    T.api("POST", API, planBody()).then(function (res) { if (res.ok) { last = res.data; apply(); } else showError(T.errorText(res)); });
  });
  var seatSelect = document.getElementById("rrc-seat");
  if (seatSelect) {
    seatSelect.addEventListener("change", function () { seatSelect.form.submit(); });
    var show = seatSelect.form.querySelector(".nojs-only");
    if (show) show.hidden = true;
  }
  var inPlaySum = document.getElementById("rrc-in-play-sum");
  function markOff() {
    var parts = [];
    form.querySelectorAll(".comp").forEach(function (c) {
      var s = c.querySelector("select"), side = c.querySelector("input[type=radio]:checked");
      c.classList.toggle("off", !s.value);
      if (s.value) parts.push(c.dataset.short + " " + (side ? side.value : "A"));
    });
    if (inPlaySum) inPlaySum.textContent = parts.join(" · ");
  }
  markOff();
  base = snapshot();

  if (tableId) {
    table = T.table(tableId);
    T.tableStatus(table);
    table.load().catch(function () { /* the status line says why */ });
  }
})();
