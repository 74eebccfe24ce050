// Two Robots factory page: the factory drawn as card stacks you tap to edit, the hand with playable cards
// highlighted, and the turn plan, all live from the JSON API; the seat's part of the table state
// (`two_robots.players[seat]`) is kept with the table. Without this script the form posts and re-renders.
(function () {
  "use strict";
  var T = window.Tablebot, TR = T.twoRobots, el = TR.el, clampInt = T.clampInt;
  var ENERGIES = TR.ENERGIES;
  var EVENTS = ["none", "power", "active_robot"];
  var SALVAGERS = ["samurai", "scavenger", "peacemaker", "guardian", "apocalypse"];
  var SHORT = { chemical: "Chem", electrical: "Elec", mechanical: "Mech", nuclear: "Nucl", solar: "Solar" };
  var CONTROLS = ["event", "actions", "powers_left", "salvager", "health"];
  var form, names, defaults, titles, seatIndex, state, table = null, seq = 0;
  var dirty = {}, rename = null;  // what the player changed since the last save: only that is saved

  function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }
  function sortEnergies(es) { return ENERGIES.filter(function (e) { return es.indexOf(e) >= 0; }); }

  // ---- the seat's state: whatever the table holds is checked before use ----
  function cleanPart(c) {
    if (!c || typeof c !== "object" || names.indexOf(c.part) < 0 || !Array.isArray(c.energies)) return null;
    var es = sortEnergies(c.energies);
    if (es.length < 1 || es.length > 2 || es.length !== c.energies.length) return null;
    return { kind: "part", part: c.part, energies: es };
  }
  function cleanHandCard(c) {
    if (!c || typeof c !== "object") return null;
    if (c.kind === "attack" || c.kind === "defense") {
      return { kind: c.kind, name: typeof c.name === "string" ? c.name.slice(0, 60) : "",
        stacks_required: clampInt(c.stacks_required, 0, 5, 0), play: c.play === true };
    }
    return cleanPart(c);
  }
  function clean(raw) {
    raw = raw && typeof raw === "object" ? raw : {};
    var s = { stacks: [], hand: [], event: EVENTS.indexOf(raw.event) >= 0 ? raw.event : "none",
      actions: clampInt(raw.actions, 0, 3, 3), powers_left: clampInt(raw.powers_left, 0, 5, 3),
      salvager: SALVAGERS.indexOf(raw.salvager) >= 0 ? raw.salvager : null, health: clampInt(raw.health, 0, 9, 3) };
    (Array.isArray(raw.stacks) ? raw.stacks : []).slice(0, 5).forEach(function (st) {
      if (!st || !Array.isArray(st.cards)) return;
      var cards = st.cards.map(cleanPart).filter(Boolean).slice(0, 60);
      if (cards.length) s.stacks.push({ cards: cards, frozen: st.frozen === true });
    });
    s.hand = (Array.isArray(raw.hand) ? raw.hand : []).map(cleanHandCard).filter(Boolean).slice(0, 15);
    if (raw.unseen && typeof raw.unseen === "object") s.unseen = raw.unseen;
    return s;
  }
  function label(c) {
    if (c.kind === "attack" || c.kind === "defense") {
      return (c.name || cap(c.kind)) + " · needs " + c.stacks_required + (c.play ? " · play it" : "");
    }
    return c.part.toUpperCase() + " " + c.energies.map(cap).join("/");
  }

  // ---- form controls <-> state ----
  function readControls() {  // returns the names of the controls whose value changed
    var before = CONTROLS.map(function (k) { return state[k]; });
    var ev = form.querySelector("input[name=event]:checked");
    state.event = ev ? ev.value : "none";
    state.actions = clampInt(form.elements.actions.value, 0, 3, 3);
    state.powers_left = clampInt(form.elements.powers_left.value, 0, 5, 3);
    state.salvager = SALVAGERS.indexOf(form.elements.salvager.value) >= 0 ? form.elements.salvager.value : null;
    state.health = clampInt(form.elements.health.value, 0, 9, 3);
    return CONTROLS.filter(function (k, i) { return state[k] !== before[i]; });
  }
  function writeControls() {
    var ev = form.querySelector("input[name=event][value=" + state.event + "]");
    if (ev) ev.checked = true;
    form.elements.actions.value = String(state.actions);
    form.elements.powers_left.value = String(state.powers_left);
    form.elements.salvager.value = state.salvager || "";
    form.elements.health.value = String(state.health);
  }
  function code(c) {
    if (c.kind === "attack" || c.kind === "defense") {
      return c.kind + ":" + c.stacks_required + (c.name ? ":" + c.name : "") + (c.play ? "!" : "");
    }
    return c.part + ":" + c.energies.map(function (e) { return e.charAt(0); }).join("");
  }
  function syncText() {  // the no-JS fields follow, so a plain submit posts what is on screen
    for (var i = 0; i < 5; i++) {
      var st = state.stacks[i];
      form.elements["stack" + i].value = st ? st.cards.map(code).join(", ") : "";
      form.elements["frozen" + i].checked = !!(st && st.frozen);
    }
    form.elements.hand.value = state.hand.map(code).join(", ");
  }

  // ---- talking to the API ----
  function factoryBody() {
    var b = { part_names: names, stacks: state.stacks, hand: state.hand };
    if (state.salvager) b.salvager = state.salvager;
    return b;
  }
  function unseenList(u) {
    var out = [];
    Object.keys(u.parts || {}).forEach(function (k) {
      var bits = k.split(":"), es = [];
      if (names.indexOf(bits[0]) < 0) return;
      (bits[1] || "").split("").forEach(function (ch) {
        ENERGIES.forEach(function (e) { if (e.charAt(0) === ch) es.push(e); });
      });
      out.push({ kind: "part", part: bits[0], energies: es, count: clampInt(u.parts[k], 0, 100, 0) });
    });
    out.push({ kind: "attack", name: "Attack cards", count: clampInt(u.attack, 0, 100, 0) });
    out.push({ kind: "defense", name: "Defense cards", count: clampInt(u.defense, 0, 100, 0) });
    return out;
  }
  function planBody() {
    var b = factoryBody();
    b.event = state.event; b.actions = state.actions; b.powers_left = state.powers_left;
    if (state.unseen) {
      var list = unseenList(state.unseen);
      if (list.some(function (x) { return x.count > 0; })) b.unseen = list;
    }
    return b;
  }
  function showError(text) {
    var box = document.getElementById("tr-error");
    box.textContent = text; box.hidden = !text;
  }
  function update() {
    var my = ++seq;
    syncText();
    var old = document.getElementById("tr-problems");
    if (old) old.remove();
    T.api("POST", "/api/two-robots/factory", factoryBody()).then(function (res) {
      if (my !== seq) return null;
      if (!res.ok) {
        showError(T.errorText(res));
        drawFactory(null, res.data && res.data.error ? res.data.error.fields : []);
        drawHand(null);
        drawPlan(null);
        return null;
      }
      showError("");
      drawFactory(res.data, []);
      drawHand(res.data);
      return T.api("POST", "/api/two-robots/plan", planBody()).then(function (p) {
        if (my !== seq) return;
        if (!p.ok) { showError(T.errorText(p)); drawPlan(null); return; }
        drawPlan(p.data);
      });
    });
  }
  var save = T.debounce(function () {
    if (!table) return;
    var fields = {}, r = rename;
    Object.keys(dirty).forEach(function (k) { fields[k] = state[k]; });
    dirty = {}; rename = null;
    if (!Object.keys(fields).length && !r) return;
    table.save(TR.seatChange(seatIndex, fields, r)).catch(function () { /* the status line says it */ });
  }, 400);
  // `keys`: the seat's fields this change touched (stacks, hand, or turn controls)
  function changed(keys) {
    keys.forEach(function (k) { dirty[k] = true; });
    update(); save();
  }

  // ---- drawing ----
  function cite(ids) {  // a step's rule entries as a line of text links (see the template's tr.cite)
    var p = el("p", "tr-cite small", "Rules: ");
    ids.forEach(function (id, k) {
      if (k) p.appendChild(document.createTextNode(" · "));
      var a = el("a", null, titles[id] || id);
      a.href = "/rules/" + id;
      p.appendChild(a);
    });
    return p;
  }
  function tile(c, dup, i, j) {
    var b = el("button", "tr-tile" + (dup ? " dup" : ""));
    b.type = "button";
    b.title = c.part.toUpperCase() + " · " + c.energies.map(cap).join("/") + (dup ? " · duplicate, placed sideways" : "");
    b.setAttribute("aria-label", "Stack " + (i + 1) + ", card " + (j + 1) + ": " + b.title);
    b.appendChild(el("b", null, c.part.toUpperCase()));
    var es = el("span", "tr-es");
    c.energies.forEach(function (e) { es.appendChild(el("i", "e-" + e, e.charAt(0).toUpperCase())); });
    b.appendChild(es);
    b.addEventListener("click", function () { openTileMenu(i, j); });
    return b;
  }
  var lastFactory = null;
  function drawFactory(data, badFields) {
    lastFactory = data;
    var list = document.getElementById("tr-stacks"), whys = document.getElementById("tr-whys");
    list.textContent = ""; whys.textContent = "";
    var bad = {};
    (badFields || []).forEach(function (f) { var m = /^stacks\[(\d+)\]/.exec(f.path || ""); if (m) bad[m[1]] = f.message; });
    state.stacks.forEach(function (st, i) {
      var view = data ? data.stacks[i] : null;
      var li = el("li", "tr-stack" + (st.frozen ? " frozen" : "") + (view && view.active_robot ? " robot" : "") +
        (bad[i] ? " bad" : ""));
      var head = el("button", "tr-head");
      head.type = "button";
      var energy = view ? (view.energy ? SHORT[view.energy] : view.possible.map(function (e) { return e.charAt(0).toUpperCase(); }).join("/")) : "?";
      var tag = el("span", "tr-energy e-" + (view && view.energy ? view.energy : "open"), energy);
      tag.title = view ? (view.energy ? cap(view.energy) : "open: " + view.possible.map(cap).join(" or ")) : "";
      head.appendChild(tag);
      if (st.frozen) head.appendChild(el("span", "tr-ice", " ❄"));
      head.setAttribute("aria-label", "Stack " + (i + 1) + ": " + (tag.title || "energy unknown") +
        (st.frozen ? ", frozen" : "") + ". Freeze, unfreeze or remove it");
      head.addEventListener("click", function () { openStackMenu(i); });
      li.appendChild(head);
      var ul = el("ul", "tr-cards"), seen = {};
      st.cards.forEach(function (c, j) {
        var item = el("li");
        item.appendChild(tile(c, !!seen[c.part], i, j));
        seen[c.part] = true;
        ul.appendChild(item);
      });
      li.appendChild(ul);
      var parts = Object.keys(seen).filter(function (p) { return names.indexOf(p) >= 0; }).length;
      li.appendChild(el("p", "tr-state", (view && view.active_robot ? "robot" : parts + "/4") + (st.frozen ? " · frozen" : "")));
      if (!st.frozen) {
        var add = el("button", "tr-add", "+");
        add.type = "button";
        add.setAttribute("aria-label", "Add a card to stack " + (i + 1));
        add.addEventListener("click", function () { openPicker({ where: "stack", index: i }); });
        li.appendChild(add);
      }
      list.appendChild(li);
      whys.appendChild(el("li", null, bad[i] || (view ? view.why : "")));
    });
    if (state.stacks.length < 5) {
      var slot = el("li", "tr-stack new");
      var nb = el("button", "tr-add", "+ new");
      nb.type = "button";
      nb.setAttribute("aria-label", "Start a new stack");
      nb.addEventListener("click", function () { openPicker({ where: "new" }); });
      slot.appendChild(nb);
      list.appendChild(slot);
    }
    var apo = document.getElementById("tr-apocalypse");
    apo.hidden = !(data && data.apocalypse);
    if (data && data.apocalypse) {
      apo.textContent = "Apocalypse’s ability: " + data.apocalypse.why;
      apo.className = "notice " + (data.apocalypse.may_trigger ? "ok" : "warn");
    }
    document.getElementById("tr-summary").textContent = data ? data.why :
      (state.stacks.length ? "This factory cannot be: see the stack marked in red." : "Add your first part card.");
  }
  var lastHand = null;
  function drawHand(data) {
    lastHand = data ? data.hand : null;
    var probs = document.getElementById("tr-hand-problems");
    probs.textContent = "";
    ((data && data.problems) || []).forEach(function (p) { probs.appendChild(el("li", null, p.message)); });
    probs.hidden = !probs.children.length;
    var ul = document.getElementById("tr-hand");
    ul.textContent = "";
    state.hand.forEach(function (c, k) {
      var view = data ? data.hand[k] : null;
      var li = el("li");
      var b = el("button", "tr-chip" + (view ? (view.playable ? " playable" : " dead") : ""));
      b.type = "button";
      b.appendChild(el("span", "tr-chip-label", label(c)));
      var where = "";
      if (view && c.kind === "part") {
        where = view.playable ? "→ " + view.placements.map(function (p) {
          return (p.stack !== undefined ? "stack " + (p.stack + 1) : "new " + (p.new_stack ? cap(p.new_stack) : "open") + " stack") +
            (p.completes_robot ? " (robot!)" : "");
        }).join(", ") : "no legal place";
      } else if (view) {
        where = view.playable ? "playable" : "not yet";
      }
      b.appendChild(el("span", "tr-chip-where small", where));
      b.addEventListener("click", function () { openHandMenu(k); });
      li.appendChild(b);
      ul.appendChild(li);
    });
    var addLi = el("li");
    var add = el("button", "tr-chip add", "+ Add a card");
    add.type = "button";
    add.addEventListener("click", function () { openPicker({ where: "hand" }); });
    addLi.appendChild(add);
    ul.appendChild(addLi);
  }
  function drawPlan(p) {
    var box = document.getElementById("tr-plan"), best = document.getElementById("tr-best");
    box.textContent = "";
    best.hidden = !p;  // the plan's one line, next to the hand, so a change in hand shows its effect at once
    document.getElementById("tr-best-text").textContent = p ? p.summary : "";
    if (!p) { box.appendChild(el("p", "muted", "The plan appears here once the factory and hand are entered.")); return; }
    var sum = el("p", "tr-plan-summary");
    sum.appendChild(el("strong", null, p.summary));
    box.appendChild(sum);
    if (p.steps.length) {
      var ol = el("ol", "steps");
      ol.id = "tr-steps";
      p.steps.forEach(function (st) {
        var li = el("li", "tr-step " + st.phase);
        li.appendChild(el("strong", null, st.title));
        li.appendChild(el("div", "why", st.why));
        li.appendChild(cite(st.rules));
        ol.appendChild(li);
      });
      box.appendChild(ol);
    }
    var reasons = el("ul", "tr-reasons");
    p.why.forEach(function (r) { reasons.appendChild(el("li", null, r)); });
    box.appendChild(reasons);
    if (p.runner_up) box.appendChild(el("p", "why", p.runner_up));
    if (p.ties.length) box.appendChild(el("p", "why", "Just as good: " + p.ties.join("; ") + "."));
    p.notes.forEach(function (n) { box.appendChild(el("p", "small muted", n)); });
    var det = el("details", "tr-event-options");
    det.appendChild(el("summary", null, "Event phase options after these plays"));
    var ul = el("ul");
    p.event_options.forEach(function (o) {
      var li = el("li");
      li.appendChild(el("strong", null, (o.event === "power" ? "A, Power" : "B, Active Robot card") + ": "));
      li.appendChild(document.createTextNode(o.why + " "));
      if (o.breaks_robot) li.appendChild(el("span", "badge tr-warn", "breaks a robot"));
      ul.appendChild(li);
    });
    det.appendChild(ul);
    box.appendChild(det);
  }

  // ---- the card picker ----
  var picker, pick = { target: null, kind: "part", part: null, energies: [] };
  function pressed(btn, on) { btn.setAttribute("aria-pressed", on ? "true" : "false"); }
  function refreshPicker() {
    picker.querySelectorAll("#tr-kind [data-kind]").forEach(function (b) { pressed(b, b.dataset.kind === pick.kind); });
    picker.querySelector("#tr-kind").hidden = pick.target.where !== "hand";
    picker.querySelector("#tr-pick-part").hidden = pick.kind !== "part";
    picker.querySelector("#tr-pick-energy").hidden = pick.kind !== "part";
    picker.querySelector("#tr-pick-action").hidden = pick.kind === "part";
    picker.querySelectorAll("#tr-parts [data-part]").forEach(function (b) { pressed(b, b.dataset.part === pick.part); });
    picker.querySelectorAll("[data-energy]").forEach(function (b) { pressed(b, pick.energies.indexOf(b.dataset.energy) >= 0); });
    document.getElementById("tr-pick-error").hidden = true;
  }
  function setPickerTitle() {
    var target = pick.target;
    document.getElementById("tr-picker-h").textContent = target.where === "hand" ? "Add a card to your hand" :
      target.where === "new" ? "Start a new stack" : "Add a card to stack " + (target.index + 1);
  }
  function openPicker(target) {
    pick = { target: target, kind: "part", part: null, energies: [] };
    setPickerTitle();
    document.getElementById("tr-pick-done").textContent = "";
    document.getElementById("tr-card-name").value = "";
    document.getElementById("tr-play").checked = false;
    refreshPicker();
    picker.showModal();
  }
  function pickerAdd(more) {
    var card, err = document.getElementById("tr-pick-error");
    if (pick.kind === "part") {
      if (!pick.part || !pick.energies.length) {
        err.textContent = "Choose the part and one or two energies."; err.hidden = false; return;
      }
      card = { kind: "part", part: pick.part, energies: sortEnergies(pick.energies) };
    } else {
      card = { kind: pick.kind, name: document.getElementById("tr-card-name").value.trim().slice(0, 60),
        stacks_required: clampInt(document.getElementById("tr-gold").value, 0, 5, 0),
        play: pick.kind === "attack" && document.getElementById("tr-play").checked };
    }
    var t = pick.target;
    if (t.where === "hand") {
      if (state.hand.length >= 15) { err.textContent = "The planner takes at most 15 cards."; err.hidden = false; return; }
      state.hand.push(card);
    } else if (t.where === "new") {
      state.stacks.push({ cards: [card], frozen: false });
    } else {
      state.stacks[t.index].cards.push(card);
    }
    changed([t.where === "hand" ? "hand" : "stacks"]);
    if (more !== true) { picker.close(); return; }
    // keep the picker open for the next card; a card added to a new stack makes the next one go on top of it
    if (t.where === "new") pick.target = { where: "stack", index: state.stacks.length - 1 };
    document.getElementById("tr-pick-done").textContent = "Added " + label(card) + ". Next card:";
    pick.part = null; pick.energies = [];
    if (pick.kind !== "part") document.getElementById("tr-card-name").value = "";
    refreshPicker();
    setPickerTitle();
  }
  function initPicker() {
    picker = document.getElementById("tr-picker");
    initPartButtons();
    picker.querySelectorAll("#tr-kind [data-kind]").forEach(function (b) {
      b.addEventListener("click", function () { pick.kind = b.dataset.kind; refreshPicker(); });
    });
    picker.querySelectorAll("[data-energy]").forEach(function (b) {
      b.addEventListener("click", function () {
        var e = b.dataset.energy, at = pick.energies.indexOf(e);
        if (at >= 0) pick.energies.splice(at, 1);
        else { pick.energies.push(e); if (pick.energies.length > 2) pick.energies.shift(); }
        refreshPicker();
      });
    });
    document.getElementById("tr-pick-add").addEventListener("click", function () { pickerAdd(false); });
    document.getElementById("tr-pick-more").addEventListener("click", function () { pickerAdd(true); });
    document.getElementById("tr-pick-cancel").addEventListener("click", function () { picker.close(); });
  }

  // ---- tapping a card: what to do with it ----
  var menu;
  function menuButton(text, fn, cls, detail) {
    var b = el("button", "btn" + (cls ? " " + cls : ""));
    b.type = "button";
    b.appendChild(el("span", null, text));
    if (detail) b.appendChild(el("span", "tr-menu-detail", detail));
    b.addEventListener("click", function () { menu.close(); fn(); });
    document.getElementById("tr-menu-actions").appendChild(b);
  }
  function openMenu(title, why) {
    document.getElementById("tr-menu-h").textContent = title;
    document.getElementById("tr-menu-why").textContent = why || "";
    document.getElementById("tr-menu-actions").textContent = "";
  }
  function removeCard(i, j) {
    var st = state.stacks[i];
    var card = st.cards.splice(j, 1)[0];
    if (!st.cards.length) state.stacks.splice(i, 1);
    return card;
  }
  function openTileMenu(i, j) {
    var c = state.stacks[i].cards[j];
    var view = lastFactory ? lastFactory.stacks[i] : null;
    openMenu(label(c) + " · stack " + (i + 1), view ? view.why : "");
    menuButton("Back to my hand", function () { state.hand.push(removeCard(i, j)); changed(["stacks", "hand"]); });
    menuButton("Remove (destroyed, sacrificed or stolen)", function () { removeCard(i, j); changed(["stacks"]); }, "danger");
    menu.showModal();
  }
  function openStackMenu(i) {
    var st = state.stacks[i], view = lastFactory ? lastFactory.stacks[i] : null;
    openMenu("Stack " + (i + 1) + (view && view.energy ? " · " + cap(view.energy) : ""), view ? view.why : "");
    if (!st.frozen) menuButton("Add a card to it", function () { openPicker({ where: "stack", index: i }); }, "primary");
    menuButton(st.frozen ? "Unfreeze it (the Ice Blast is gone)" : "Freeze it (Ice Blast)", function () {
      st.frozen = !st.frozen; changed(["stacks"]);
    });
    menuButton("Remove the whole stack", function () { state.stacks.splice(i, 1); changed(["stacks"]); }, "danger");
    menu.showModal();
  }
  function openHandMenu(k) {
    var c = state.hand[k], view = lastHand ? lastHand[k] : null;
    openMenu(label(c), view ? view.why : "");
    if (view && c.kind === "part") {
      view.placements.forEach(function (p) {
        var text = p.stack !== undefined ? "Play on stack " + (p.stack + 1) : "Start a new " +
          (p.new_stack ? cap(p.new_stack) + " " : "") + "stack";
        // what the play does beyond the button's words ("starts a Solar stack" is the button already)
        var effect = p.why.split(": ").slice(1).join(": ").replace(/^starts a \w+ stack(; |\.$)/, "");
        effect = effect ? cap(effect) : "";
        menuButton(text + (p.completes_robot ? " (completes a robot)" : ""), function () {
          var card = state.hand.splice(k, 1)[0];
          if (p.stack !== undefined) state.stacks[p.stack].cards.push(card);
          else state.stacks.push({ cards: [card], frozen: false });
          changed(["hand", "stacks"]);
        }, "primary", effect);
      });
    }
    if (c.kind === "attack") {
      menuButton(c.play ? "Do not plan to play it" : "Plan to play it this turn", function () { c.play = !c.play; changed(["hand"]); });
    }
    menuButton("Remove from hand", function () { state.hand.splice(k, 1); changed(["hand"]); }, "danger");
    menu.showModal();
  }

  // ---- part names: the two the rules do not print can be renamed ----
  function initNames() {
    ["name2", "name3"].forEach(function (field, n) {
      var input = form.elements[field];
      input.addEventListener("change", function () {
        var v = input.value.trim().toLowerCase().replace(/\s+/g, "_");
        var next = names.slice();
        next[n + 2] = v;
        var ok = /^[a-z0-9_]{1,30}$/.test(v) && next.filter(function (x) { return x === v; }).length === 1;
        if (!ok) { showError("Part names must be different words (letters and digits)."); input.value = names[n + 2]; return; }
        var old = names[n + 2];
        state.stacks.forEach(function (st) { st.cards.forEach(function (c) { if (c.part === old) c.part = v; }); });
        state.hand.forEach(function (c) { if (c.part === old) c.part = v; });
        names = next;
        rename = { names: names.slice(), defaults: defaults };
        initPartButtons();
        changed(["stacks", "hand"]);
      });
    });
  }
  function initPartButtons() {
    var grid = document.getElementById("tr-parts");
    grid.textContent = "";
    document.getElementById("tr-unverified-names").textContent = names[2].toUpperCase() + " and " + names[3].toUpperCase();
    names.forEach(function (nm) {
      var b = el("button", "btn", nm.toUpperCase());
      b.type = "button"; b.dataset.part = nm;
      b.addEventListener("click", function () { pick.part = nm; refreshPicker(); });
      grid.appendChild(b);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    form = document.getElementById("tr-form");
    if (!form || form.dataset.page !== "factory") return;
    form.classList.add("js");
    names = JSON.parse(form.dataset.names);
    defaults = JSON.parse(form.dataset.defaultNames);
    titles = JSON.parse(form.dataset.rules || "{}");
    seatIndex = Number(form.dataset.seat || 0);
    state = clean(JSON.parse(form.dataset.state || "{}"));
    menu = document.getElementById("tr-menu");
    document.getElementById("tr-menu-close").addEventListener("click", function () { menu.close(); });
    initPicker();
    initNames();
    form.addEventListener("submit", function (e) { e.preventDefault(); changed(readControls()); });
    form.addEventListener("change", function (e) {
      if (CONTROLS.indexOf(e.target.name) >= 0) changed(readControls());
    });
    var id = document.body.dataset.tableId;
    if (id) {
      table = T.table(id);
      T.tableStatus(table);
      table.load().then(function (s) {
        var tr = TR.isObject(s.two_robots) ? s.two_robots : {};
        var stored = TR.cleanNames(tr.part_names, defaults);
        if (stored) {
          names = stored;
          form.elements.name2.value = names[2]; form.elements.name3.value = names[3];
          initPartButtons();
        }
        var players = Array.isArray(tr.players) ? tr.players : [];
        if (players[seatIndex]) { state = clean(players[seatIndex]); writeControls(); }
        update();
      }).catch(function () { update(); });
    } else {
      update();
    }
  });
})();
