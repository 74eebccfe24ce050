// Search odds page: the grid as tap targets, live odds and best criteria from the JSON API, deck tracking,
// and the page's part of the table state (`rr_search`). Without this script the form posts and re-renders.
(function () {
  "use strict";
  var T = window.Tablebot;
  var ROWS = ["design", "fabricate", "recycle", "any"];
  var LETTER = { d: "design", f: "fabricate", r: "recycle", a: "any" };
  var SHORT = { design: "D", fabricate: "F", recycle: "R", any: "A" };
  var NAMES = { design: "Design", fabricate: "Fabricate", recycle: "Recycle", any: "Any row" };
  var HELP = {
    wanted: "Tap cells to mark the cards you want.",
    add: "Tap a cell to add one unseen card of that kind.",
    remove: "Tap a cell to take one card of that kind away.",
    reveal: "Tap the cards a search turned over, in order; they go into the box under “Record what happened”."
  };
  var form, table = null, seq = 0;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function keys() {
    var out = [];
    for (var e = 1; e <= 7; e++) ROWS.forEach(function (r) { out.push(r + "-" + e); });
    return out;
  }
  function countInput(key) { return form.elements["c-" + key]; }
  function wantInput(key) { return form.elements["w-" + key]; }

  // "D4 F2 A5" -> [{row, energy}]; the same short codes the server reads
  function parseCards(text, field) {
    var cards = [], tokens = text.trim().toLowerCase().split(/[\s,;]+/).filter(Boolean);
    for (var i = 0; i < tokens.length; i++) {
      var m = /^(d|f|r|a)[a-z]*-?([1-7])$/.exec(tokens[i]);
      if (!m) return { error: field + ": “" + tokens[i] + "” (card " + (i + 1) + ") is not a card: write D, F, R or A and the basic energy 1–7, like D4" };
      cards.push({ row: LETTER[m[1]], energy: Number(m[2]) });
    }
    return { cards: cards };
  }
  function cardsText(cards) { return cards.map(function (c) { return SHORT[c.row] + c.energy; }).join(" "); }
  function clampInt(v, lo, hi) { v = parseInt(v, 10); if (isNaN(v)) v = lo; return Math.max(lo, Math.min(hi, v)); }

  // ---- the form <-> the page state ----
  function readState() {
    var cells = {}, aside = {};
    keys().forEach(function (k) {
      var n = clampInt(countInput(k).value, 0, 99), w = wantInput(k).checked;
      if (n || w) cells[k] = { count: n, wanted: w };
    });
    form.querySelectorAll("#rr-aside-inputs input").forEach(function (i) { aside[i.name.slice(6)] = Number(i.value); });
    var kb = parseCards(form.elements.known_bottom.value, "known_bottom");
    var lo = Number(form.elements.energy_min.value), hi = Number(form.elements.energy_max.value);
    var row = (form.querySelector("input[name=row]:checked") || { value: "design" }).value;
    return { cells: cells, deck_size: clampInt(form.elements.deck_size.value, 0, 999), known_bottom: kb.cards || [],
      known_error: kb.error || null, criteria: { row: row, energy_min: Math.min(lo, hi), energy_max: Math.max(lo, hi) },
      set_aside: aside };
  }
  function energyOk(e) { return typeof e === "number" && e >= 1 && e <= 7 && Math.floor(e) === e; }
  function writeState(s) {
    // the table may hold anything another client wrote: take only what makes sense
    s = s && typeof s === "object" ? s : {};
    s.known_bottom = (Array.isArray(s.known_bottom) ? s.known_bottom : []).filter(function (c) {
      return c && SHORT[c.row] && energyOk(c.energy);
    });
    var c0 = s.criteria;
    if (!(c0 && ["design", "fabricate", "recycle"].indexOf(c0.row) >= 0 && energyOk(c0.energy_min) && energyOk(c0.energy_max))) s.criteria = null;
    s.set_aside = s.set_aside && typeof s.set_aside === "object" ? s.set_aside : {};
    keys().forEach(function (k) {
      var c = (s.cells && typeof s.cells === "object" && s.cells[k]) || {};
      countInput(k).value = String(clampInt(c.count, 0, 99));
      wantInput(k).checked = c.wanted === true;
    });
    form.elements.deck_size.value = String(clampInt(s.deck_size, 0, 999));
    form.elements.known_bottom.value = cardsText(s.known_bottom || []);
    if (s.criteria) {
      var r = form.querySelector("input[name=row][value=" + s.criteria.row + "]");
      if (r) r.checked = true;
      form.elements.energy_min.value = String(s.criteria.energy_min);
      form.elements.energy_max.value = String(s.criteria.energy_max);
    }
    var box = document.getElementById("rr-aside-inputs");
    box.textContent = "";
    Object.keys(s.set_aside).forEach(function (k) {
      if (!/^(design|fabricate|recycle|any)-[1-7]$/.test(k) || !(s.set_aside[k] > 0)) return;
      var i = document.createElement("input");
      i.type = "hidden"; i.name = "aside-" + k; i.value = String(s.set_aside[k]);
      box.appendChild(i);
    });
    refresh();
  }
  function stored(s) {  // what goes into the table: the page state without helper fields
    return { cells: s.cells, deck_size: s.deck_size, known_bottom: s.known_bottom, criteria: s.criteria, set_aside: s.set_aside };
  }
  function deckBody(s) {  // wanted marks of known cards come from their grid cell, as on the server
    var pool = [];
    ROWS.forEach(function (r) {
      for (var e = 1; e <= 7; e++) {
        var c = s.cells[r + "-" + e];
        if (c) pool.push({ row: r, energy: e, count: c.count, wanted: c.wanted });
      }
    });
    var kb = s.known_bottom.map(function (c) {
      var cell = s.cells[c.row + "-" + c.energy];
      return { row: c.row, energy: c.energy, wanted: !!(cell && cell.wanted) };
    });
    return { pool: pool, deck_size: s.deck_size, known_bottom: kb };
  }

  // ---- what the grid and the labels show ----
  function refresh() {
    var s = readState(), total = 0;
    document.getElementById("out-min").textContent = form.elements.energy_min.value;
    document.getElementById("out-max").textContent = form.elements.energy_max.value;
    form.querySelectorAll("#rr-grid td.cell").forEach(function (td) {
      var k = td.dataset.key, e = Number(td.dataset.energy), c = s.cells[k] || { count: 0, wanted: false };
      var fits = (td.dataset.row === s.criteria.row || td.dataset.row === "any") && e >= s.criteria.energy_min && e <= s.criteria.energy_max;
      total += c.count;
      td.classList.toggle("fits", fits);
      td.classList.toggle("wanted", c.wanted);
      var b = td.querySelector("button.tap");
      if (b) {
        b.firstChild.textContent = String(c.count);
        b.classList.toggle("zero", !c.count);
        b.querySelector("small").textContent = c.wanted ? "★ want" : "";
        b.setAttribute("aria-label", NAMES[td.dataset.row] + " " + e + ": " + c.count + " unseen" + (c.wanted ? ", wanted" : "") + (fits ? ", fits" : ""));
        b.setAttribute("aria-pressed", c.wanted ? "true" : "false");
      }
    });
    document.getElementById("rr-pool-total").textContent = String(total);
    var chips = document.getElementById("rr-known");
    chips.textContent = "";
    s.known_bottom.forEach(function (c) { chips.appendChild(el("li", "", SHORT[c.row] + c.energy)); });
    var asideTotal = Object.keys(s.set_aside).reduce(function (a, k) { return a + s.set_aside[k]; }, 0);
    document.getElementById("rr-aside").hidden = !asideTotal;
    document.getElementById("rr-aside-count").textContent = String(asideTotal);
    return s;
  }

  // ---- results from the JSON API ----
  function pctText(p) { return T.percent(p); }
  function barItem(label, p, cls) {
    var li = el("li", cls || "");
    li.appendChild(el("span", "", label));
    var bar = el("span", "bar"), i = el("i");
    i.style.width = (p.approx * 100).toFixed(2) + "%";
    bar.appendChild(i); li.appendChild(bar);
    var num = el("span", "num", pctText(p));
    num.title = "exactly " + p.exact;
    li.appendChild(num);
    return li;
  }
  function showError(text) {
    var box = document.getElementById("rr-error");
    box.textContent = text || "";
    box.hidden = !text;
  }
  function renderOdds(odds) {
    var body = document.getElementById("rr-results-body");
    body.textContent = "";
    var head = el("ul", "bars headline");
    head.appendChild(barItem("A card you want", odds.p_wanted, "wanted"));
    head.appendChild(barItem("A card that fits", odds.p_match));
    body.appendChild(head);
    var avg = el("p", "", "Cards turned over on average: ");
    var strong = el("strong", "num", odds.expected_revealed.approx.toFixed(2));
    strong.title = "exactly " + odds.expected_revealed.exact;
    avg.appendChild(strong); body.appendChild(avg);
    body.appendChild(el("h3", "", "The card you take"));
    var outs = odds.outcomes.slice().sort(function (a, b) { return b.p.approx - a.p.approx; });
    var ul = el("ul", "bars outcomes");
    outs.slice(0, 8).forEach(function (o) { ul.appendChild(barItem(o.text + (o.wanted ? " ★" : ""), o.p, o.wanted ? "wanted" : "")); });
    body.appendChild(ul);
    if (outs.length > 8) body.appendChild(el("p", "small muted", (outs.length - 8) + " rarer outcomes not shown."));
    body.appendChild(el("h3", "", "A fitting card within the first cards turned over"));
    var within = el("ul", "bars within");
    // up to the first bar that reaches the overall chance of a match: the rest would repeat it
    for (var i = 0; i < odds.p_match_within.length; i++) {
      var w = odds.p_match_within[i];
      within.appendChild(barItem("top " + w.n + (w.n === 1 ? " card" : " cards"), w.p));
      if (w.p.exact === odds.p_match.exact) break;
    }
    body.appendChild(within);
    body.appendChild(el("p", "why", odds.why));
  }
  function renderBest(best) {
    var body = document.getElementById("rr-best-body");
    body.textContent = "";
    var ol = el("ol", "best"), named = readState().criteria || {};
    // as the server's top_three: tied best first, the criteria named on top, then the narrowest ranges
    function yours(c) { return c.row === named.row && c.energy_min === named.energy_min && c.energy_max === named.energy_max; }
    var ranked = best.ranking.slice().sort(function (a, b) {
      var x = a.criteria, y = b.criteria;
      return a.rank - b.rank || (yours(y) ? 1 : 0) - (yours(x) ? 1 : 0)
        || (x.energy_max - x.energy_min) - (y.energy_max - y.energy_min) || x.energy_min - y.energy_min;
    });
    ranked.slice(0, 3).forEach(function (r) {
      var li = el("li"), text = el("div", "grow");
      text.appendChild(el("strong", "", r.name));
      if (yours(r.criteria)) { text.appendChild(document.createTextNode(" ")); text.appendChild(el("span", "badge", "what you named")); }
      text.appendChild(el("span", "small muted", "wanted " + pctText(r.p_wanted) + " · fits " + pctText(r.p_match) + " · "
        + r.expected_revealed.approx.toFixed(2) + " turned over"));
      var b = el("button", "btn", "Use");
      b.type = "submit"; b.name = "action";
      b.value = "use-" + r.criteria.row + "-" + r.criteria.energy_min + "-" + r.criteria.energy_max;
      li.appendChild(text); li.appendChild(b); ol.appendChild(li);
    });
    body.appendChild(ol);
    var tied = best.ranking.filter(function (r) { return r.rank === 1; }).length;
    if (tied > 3) body.appendChild(el("p", "small muted", tied + " criteria tie for best: they give the same chances."));
    best.notes.forEach(function (n) { body.appendChild(el("p", "small muted", n)); });
  }
  function renderEmpty(text) {
    var body = document.getElementById("rr-results-body");
    body.textContent = "";
    body.appendChild(el("p", "muted", text));
    var best = document.getElementById("rr-best-body");
    best.textContent = "";
    best.appendChild(el("p", "muted", "Mark the cards you want in the grid (★) to rank all 84 criteria."));
  }

  function compute() {
    var s = refresh(), mine = ++seq;
    if (s.known_error) { showError(s.known_error); renderEmpty("No odds until the problem above is fixed."); return; }
    if (!s.deck_size && !s.known_bottom.length) {
      showError("");
      renderEmpty("Enter the unseen cards below and how many of them are in the deck (or the known cards at its bottom): the chances appear here.");
      return;
    }
    var body = deckBody(s);
    Promise.all([
      T.api("POST", "/api/raising-robots/search/odds", Object.assign({ criteria: s.criteria }, body)),
      T.api("POST", "/api/raising-robots/search/best", body)
    ]).then(function (res) {
      if (mine !== seq) return;  // a newer request is on its way
      if (!res[0].ok) {  // never leave the previous answer on screen under an error
        showError(T.errorText(res[0]));
        renderEmpty("No odds until the problem above is fixed.");
        return;
      }
      showError("");
      renderOdds(res[0].data);
      if (res[1].ok) renderBest(res[1].data);
      var ids = res[0].data.rules.concat(res[1].ok ? res[1].data.rules : []);
      if (Object.keys(s.set_aside).length) ids = ids.concat(["rr-search-no-match", "rr-reading-search-set-aside"]);
      var box = document.getElementById("rr-rules-box"), list = window.RR.ruleList(ids, "Rules these odds rely on");
      box.textContent = "";
      if (list.id !== undefined) list.id = "rr-rules";
      box.appendChild(list);
    });
  }

  // ---- the table ----
  var saveTimer = null;
  function saveNow() {
    clearTimeout(saveTimer); saveTimer = null;
    if (!table) return;
    var s = readState();
    if (s.known_error) return;
    var mine = stored(s), was = base || {};
    table.save(function (state) {
      // only what changed here since the last load or save: another phone's edits to other cells stay
      var out = Object.assign({}, state.rr_search && typeof state.rr_search === "object" ? state.rr_search : {});
      Object.keys(mine).forEach(function (k) {
        if (k === "cells" && out.cells && typeof out.cells === "object" && was.cells) {
          var cells = Object.assign({}, out.cells);
          Object.keys(Object.assign({}, was.cells, mine.cells)).forEach(function (key) {
            if (same(mine.cells[key], was.cells[key])) return;
            if (mine.cells[key] === undefined) delete cells[key]; else cells[key] = mine.cells[key];
          });
          out.cells = cells;
        } else if (!same(mine[k], was[k]) || out[k] === undefined) {
          out[k] = mine[k];
        }
      });
      state.rr_search = out;
      return state;
    }).then(function () { base = mine; }).catch(function () { /* shown by tableStatus */ });
  }
  var base = null;
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  function saveSoon() { clearTimeout(saveTimer); saveTimer = setTimeout(saveNow, 400); }
  function changed(now) { compute(); if (now === true) saveNow(); else saveSoon(); }
  var changedSoon = T.debounce(function () { changed(); }, 150);

  // ---- deck tracking ----
  function applyRecord(s, result) {
    var cells = {};
    Object.keys(s.cells).forEach(function (k) { if (s.cells[k].wanted) cells[k] = { count: 0, wanted: true }; });
    result.pool.forEach(function (g) {
      var k = g.row + "-" + g.energy;
      if (!cells[k]) cells[k] = { count: 0, wanted: !!(s.cells[k] && s.cells[k].wanted) };
      cells[k].count += g.count;
    });
    var aside = Object.assign({}, s.set_aside);
    result.set_aside.forEach(function (g) { var k = g.row + "-" + g.energy; aside[k] = (aside[k] || 0) + g.count; });
    return { cells: cells, deck_size: result.deck_size, criteria: s.criteria, set_aside: aside,
      known_bottom: result.known_bottom.map(function (c) { return { row: c.row, energy: c.energy }; }) };
  }
  function note(text) {
    var n = document.getElementById("rr-note");
    if (!n) {
      n = el("p", "notice ok"); n.id = "rr-note"; n.setAttribute("role", "status");
      document.getElementById("rr-error").insertAdjacentElement("beforebegin", n);
    }
    n.textContent = text;
  }
  function record(action) {
    var s = readState();
    if (s.known_error) { showError(s.known_error); return; }
    var body = deckBody(s);
    if (action === "record-search") {
      var rev = parseCards(form.elements.revealed.value, "revealed");
      if (rev.error) { showError(rev.error); return; }
      Object.assign(body, { event: "search", criteria: s.criteria, revealed: rev.cards });
    } else {
      var seen = null;
      if (action === "draw-mine") {
        var p = parseCards(form.elements.seen.value, "seen");
        if (p.error) { showError(p.error); return; }
        if (p.cards.length !== 1) { showError("seen: name the one card you drew, like D4"); return; }
        seen = p.cards[0];
      }
      Object.assign(body, { event: "draw", seen: seen });
    }
    T.api("POST", "/api/raising-robots/search/record", body).then(function (res) {
      if (!res.ok) { showError(T.errorText(res)); return; }
      showError("");
      writeState(applyRecord(s, res.data));
      form.elements.revealed.value = "";
      form.elements.seen.value = "";
      note(res.data.why);
      changed(true);
    });
  }
  function returnAside() {
    var s = readState();
    Object.keys(s.set_aside).forEach(function (k) {
      if (!s.cells[k]) s.cells[k] = { count: 0, wanted: false };
      s.cells[k].count = Math.min(99, s.cells[k].count + s.set_aside[k]);
    });
    s.set_aside = {};
    writeState(s);
    note("The set-aside cards are back in the unseen pool.");
    changed(true);
  }

  // ---- wiring ----
  function mode() { return (form.querySelector("input[name=mode]:checked") || { value: "wanted" }).value; }
  function tapCell(td) {
    var k = td.dataset.key, m = mode(), count = countInput(k);
    if (m === "wanted") wantInput(k).checked = !wantInput(k).checked;
    else if (m === "add") count.value = String(Math.min(99, clampInt(count.value, 0, 99) + 1));
    else if (m === "remove") count.value = String(Math.max(0, clampInt(count.value, 0, 99) - 1));
    else {
      var rev = form.elements.revealed;
      rev.value = (rev.value.trim() ? rev.value.trim() + " " : "") + SHORT[td.dataset.row] + td.dataset.energy;
      return;
    }
    refresh();
    changedSoon();
  }
  function init() {
    form = document.getElementById("rr-search");
    if (!form || !T) return;
    form.classList.add("js");
    form.querySelectorAll("#rr-grid td.cell").forEach(function (td) {
      var b = el("button", "tap");
      b.type = "button";
      b.appendChild(document.createTextNode("0"));
      b.appendChild(el("small"));
      b.addEventListener("click", function () { tapCell(td); });
      td.appendChild(b);
    });
    form.querySelectorAll("input[name=mode]").forEach(function (r) {
      r.addEventListener("change", function () { document.getElementById("rr-mode-help").textContent = HELP[mode()]; });
    });
    // the two sliders never cross: moving one past the other drags it along
    form.elements.energy_min.addEventListener("input", function () {
      if (Number(form.elements.energy_min.value) > Number(form.elements.energy_max.value)) form.elements.energy_max.value = form.elements.energy_min.value;
    });
    form.elements.energy_max.addEventListener("input", function () {
      if (Number(form.elements.energy_max.value) < Number(form.elements.energy_min.value)) form.elements.energy_min.value = form.elements.energy_max.value;
    });
    form.addEventListener("input", function (e) {
      var n = e.target.name || "";
      if (n === "revealed" || n === "seen" || n === "mode") return;
      refresh();
      changedSoon();
    });
    document.getElementById("rr-deck-all").addEventListener("click", function () {
      var s = readState();
      form.elements.deck_size.value = String(Object.keys(s.cells).reduce(function (a, k) { return a + s.cells[k].count; }, 0));
      changed();
    });
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var action = (e.submitter && e.submitter.value) || "odds";
      if (action.indexOf("use-") === 0) {
        var p = action.split("-");
        var r = form.querySelector("input[name=row][value=" + p[1] + "]");
        if (r) r.checked = true;
        form.elements.energy_min.value = p[2];
        form.elements.energy_max.value = p[3];
        changed();
        document.getElementById("crit-h").scrollIntoView({ behavior: "smooth", block: "start" });
      } else if (action === "record-search" || action === "draw-other" || action === "draw-mine") {
        record(action);
      } else if (action === "return-aside") {
        returnAside();
      } else {
        changed();
      }
    });
    var id = document.body.dataset.tableId;
    if (id) {
      table = T.table(id);
      T.tableStatus(table);
      var pull = function () {
        table.load().then(function (state) {
          if (state && state.rr_search) writeState(state.rr_search);
          base = stored(readState());
          compute();
        })
          .catch(function () { /* shown by tableStatus */ });
      };
      pull();
      document.addEventListener("visibilitychange", function () {
        if (document.visibilityState === "visible") pull();
        else if (saveTimer) saveNow();  // leaving the page: don't wait for the typing pause
      });
    } else {
      compute();
    }
  }
  document.addEventListener("DOMContentLoaded", init);
})();
