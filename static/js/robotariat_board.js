// Rise of the Robotariat: what the pages share. The rules of the table's state live in one place,
// assistant/robotariat/pages.py (apply_action): RB.store posts each action to
// POST /api/robotariat/tables/<id>/action (or /api/robotariat/action when not at a table) and draws what
// the server answers: the normalized value, the board picture, the tracks, the check, the objectives.
// A tap on the board is drawn at once (RB.preview) and replaced by that answer.
(function () {
  "use strict";
  var RB = (window.RB = window.RB || {});
  var SVG = "http://www.w3.org/2000/svg";
  var BOX_W = 96, BOX_H = 72;  // a space's box, as templates/robotariat/_board.html draws it
  RB.geometry = { BOX_W: BOX_W, BOX_H: BOX_H };

  function clone(x) { return JSON.parse(JSON.stringify(x)); }
  RB.clone = clone;

  // ---- words for the scripts (from the page: piece labels, die faces, readings, rule titles) ----
  var META = null;
  RB.meta = function () {
    if (!META) META = JSON.parse(document.getElementById("rb-data").getAttribute("data-meta"));
    return META;
  };

  // Every page's script starts here: nothing to do without the page's data; with it, the body says the
  // script runs (the CSS hides the buttons only the no-JS forms need) and the page's store is made.
  RB.start = function (page) {
    if (!document.getElementById("rb-data")) return null;
    document.body.classList.add("rb-js");
    return RB.store(page);
  };

  // ---- DOM helpers for the pages' scripts ----
  // h("p", {cls: "why", text: "..."}, child, [children]): an element; text is only ever text, never markup.
  RB.h = function (tag, attrs) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "cls") e.className = attrs[k];
      else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) e.setAttribute(k, attrs[k]);
    });
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined || c === false) continue;
      (Array.isArray(c) ? c : [c]).forEach(function (x) { e.appendChild(typeof x === "string" ? document.createTextNode(x) : x); });
    }
    return e;
  };
  // "Rules: <a>…</a>" for rule entry ids, titled as the rules assistant titles them
  RB.ruleLinks = function (ids) {
    if (!ids || !ids.length) return null;
    var titles = RB.meta().rule_titles || {}, p = RB.h("p", { cls: "rule-links" }, "Rules: ");
    ids.forEach(function (id) { p.appendChild(RB.h("a", { href: "/rules/" + id, text: titles[id] || id })); });
    return p;
  };
  // Tablebot's readings an answer names, each folded, with a link to its rule entry
  RB.readings = function (ids) {
    var meta = RB.meta(), titles = meta.rule_titles || {};
    return (ids || []).filter(function (id) { return meta.readings[id]; }).map(function (id) {
      var r = meta.readings[id];
      return RB.h("details", { cls: "rb-reading" }, RB.h("summary", { text: r.title }), RB.h("p", { cls: "small", text: r.text }),
        RB.h("p", { cls: "rule-links" }, RB.h("a", { href: "/rules/" + r.entry, title: titles[r.entry] || r.entry, text: "Open this reading in the rules" })));
    });
  };

  // ---- a tap on the board, drawn at once ----
  // While the server applies a tap, the piece is drawn where it was put. Only pieces move here: what the
  // move means (supplies, limits, encounters) is robotariat.py's, and its answer replaces this drawing
  // (or, when it refuses, puts the piece back and says why).
  var ROW1 = ["oppressor", "civilian", "poster", "entry"];
  RB.preview = function (answer, act) {
    var next = clone(answer), st = next.robotariat.state, spaces = {};
    next.view.spaces.forEach(function (s) { spaces[s.id] = s; });
    function bump(sid, piece, d) {
      var s = spaces[sid];
      if (!s) return;
      var it = s.row1.filter(function (x) { return x.piece === piece; })[0];
      if (!it) { if (d < 0) return; it = { piece: piece, count: 0 }; s.row1.push(it); }
      it.count += d;
      if (it.count <= 0) s.row1.splice(s.row1.indexOf(it), 1);
      s.row1.sort(function (a, b) { return ROW1.indexOf(a.piece) - ROW1.indexOf(b.piece); });
      s.pending = true;
    }
    var m = /^([ocp])(\d+)$/.exec(typeof act.piece === "string" ? act.piece : "");
    if (act["do"] === "poster") bump(act.at, "poster", Number(act.delta));
    else if (act["do"] === "place_npc" && next.status.next_npc) {
      bump(act.to, next.status.next_npc, 1);
      st[next.status.next_npc + "s"].push(act.to);
    } else if (act["do"] === "move" && act.piece === "entry") {
      bump(st.entry, "entry", -1); bump(act.to, "entry", 1); st.entry = act.to;
    } else if (act["do"] === "move" && m && m[1] === "p" && st.players[Number(m[2])] && spaces[act.to]) {
      var i = Number(m[2]), p = st.players[i], from = spaces[p.at], to = spaces[act.to];
      var seat = { seat: i + 1, active: i === st.active, name: p.name };
      if (from) from.row2 = from.row2.filter(function (x) { return x.seat !== i + 1; });
      to.row2 = to.row2.concat([seat]).sort(function (a, b) { return a.seat - b.seat; });
      to.pending = true;
      p.at = act.to;
    } else if (act["do"] === "move" && m) {
      var list = st[m[1] === "o" ? "oppressors" : "civilians"], j = Number(m[2]);
      if (j < list.length) { bump(list[j], m[1] === "o" ? "oppressor" : "civilian", -1); bump(act.to, m[1] === "o" ? "oppressor" : "civilian", 1); list[j] = act.to; }
    }
    return next;
  };

  // ---- drawing the board picture the server worked out (robotariat.py board_view) ----
  function el(name, attrs, parent) {
    var e = document.createElementNS(SVG, name);
    Object.keys(attrs || {}).forEach(function (k) { if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(e);
    return e;
  }
  RB.svgEl = el;

  // Draw the view into the <svg>; opts: {interactive, picked: sid, targets: {sid: true}, hint, height}
  RB.draw = function (svg, view, opts) {
    opts = opts || {};
    var id = svg.id || "rb-board", height = opts.height || view.height;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("viewBox", "0 0 " + view.width + " " + height);
    svg.setAttribute("width", view.width);
    svg.setAttribute("height", height);
    var defs = el("defs", {}, svg);
    ["yellow", "blue"].forEach(function (c) {
      var mk = el("marker", { id: id + "-ah-" + c, viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 3.4, markerHeight: 3.4, orient: "auto" }, defs);
      el("path", { d: "M0,0 L10,5 L0,10 z", "class": "ah " + c }, mk);
    });
    var gl = el("g", { "class": "links" }, svg);
    view.links.forEach(function (l) { el("line", l, gl); });
    var ga = el("g", { "class": "arrows" }, svg);
    view.arrows.forEach(function (a) {
      el("line", { "class": a.colour + (a.linked ? "" : " off-line"), x1: a.x1, y1: a.y1, x2: a.x2, y2: a.y2,
                   "marker-end": "url(#" + id + "-ah-" + a.colour + ")" }, ga);
    });
    var gs = el("g", { "class": "spaces" }, svg);
    view.spaces.forEach(function (s) {
      var cls = "space kind-" + s.kind + (s.problem ? " problem" : "") + (s.pending ? " pending" : "") +
        (opts.picked === s.id ? " picked" : "") + (opts.targets && opts.targets[s.id] ? " target" : "");
      var g = el("g", { "class": cls, "data-id": s.id, transform: "translate(" + s.left + "," + s.top + ")",
                        "aria-label": s.aria + (opts.hint ? ". " + opts.hint : "") }, gs);
      if (opts.interactive) { g.setAttribute("role", "button"); g.setAttribute("tabindex", "0"); }
      el("title", {}, g).textContent = s.aria;
      el("rect", { "class": "box", width: BOX_W, height: BOX_H, rx: 9 }, g);
      el("path", { "class": "band", d: "M0,18 V9 a9,9 0 0 1 9,-9 H87 a9,9 0 0 1 9,9 V18 z" }, g);
      var name = el("text", { "class": "name" + (s.label.length > 12 ? " long" : ""), x: 48, y: 13.5 }, g);
      if (s.label.length > 14) { name.setAttribute("textLength", 90); name.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
      name.textContent = s.label;
      var heat = s.heat === undefined ? null : s.heat;
      if (heat !== null) el("rect", { "class": "heat", x: 0, y: 18, width: BOX_W, height: BOX_H - 18, style: "fill-opacity:" + (0.1 + 0.7 * heat).toFixed(2) }, g);
      var n1 = s.row1.length;
      s.row1.forEach(function (it, i) {
        var x = 48 - (n1 * 23 - 3) / 2 + i * 23;
        if (it.piece === "oppressor") el("rect", { "class": "pc oppressor", x: x, y: 25, width: 12, height: 12, rx: 2 }, g);
        else if (it.piece === "civilian") el("circle", { "class": "pc civilian", cx: x + 6, cy: 31, r: 6.5 }, g);
        else if (it.piece === "poster") el("rect", { "class": "pc poster", x: x + 1, y: 25, width: 10, height: 12, rx: 1 }, g);
        else el("path", { "class": "pc entry", d: "M" + x + ",37 L" + (x + 6) + ",24.5 L" + (x + 12) + ",37 z" }, g);
        if (it.piece !== "entry") el("text", { "class": "count", x: x + 14, y: 35.5 }, g).textContent = it.count;
      });
      var n2 = s.row2.length;
      s.row2.forEach(function (p, i) {
        var cx = 48 - (n2 - 1) * 9 + i * 18;
        el("circle", { "class": "pc player" + (p.active ? " active" : ""), cx: cx, cy: 49, r: 8.5 }, g);
        el("text", { "class": "seat", x: cx, y: 53 }, g).textContent = p.seat;
      });
      if (heat !== null) {
        var pill = el("g", { "class": "heat-pill" }, g);
        el("rect", { x: 28, y: 59, width: 40, height: 12, rx: 6 }, pill);
        el("text", { x: 48, y: 68.5 }, pill).textContent = Math.round(100 * heat) + "%";
      }
    });
  };

  // Calls onSpace(id) for a tap or Enter/Space on a space.
  RB.onTap = function (svg, onSpace) {
    svg.addEventListener("click", function (e) {
      var g = e.target.closest ? e.target.closest(".space") : null;
      if (g) onSpace(g.getAttribute("data-id"));
    });
    svg.addEventListener("keydown", function (e) {
      if (e.key !== "Enter" && e.key !== " ") return;
      var g = e.target.closest ? e.target.closest(".space") : null;
      if (g) { e.preventDefault(); onSpace(g.getAttribute("data-id")); }
    });
  };

  // ---- the store: the server's answer for this page, actions, following the other phones ----
  // `page` ("play", "editor", "data", "objectives") says which values the server answers with.
  RB.store = function (page) {
    var first = JSON.parse(document.getElementById("rb-data").getAttribute("data-answer"));
    var players = first.robotariat.state.players.length;
    var confirmed = first;  // the server's last answer
    var pending = 0;        // actions sent and not answered yet
    var sent = 0;           // actions sent so far (a look for other phones' changes older than one is dropped)
    var queue = Promise.resolve();
    var self = { answer: first, rb: first.robotariat, table: null, listeners: [] };
    var id = document.body.dataset.tableId;
    var base = id ? "/api/robotariat/tables/" + encodeURIComponent(id) : null;

    self.on = function (f) { self.listeners.push(f); return self; };
    function emit(kind, info) { self.listeners.forEach(function (f) { f(kind, info); }); }
    self.error = function (msg) {
      var box = document.getElementById("rb-error");
      if (!box) return;
      box.hidden = !msg;
      box.textContent = msg ? "Not done: " + msg : "";
    };
    function errorText(res) {
      var f = res.data && res.data.error && res.data.error.fields && res.data.error.fields[0];
      return f ? f.message + " (" + f.path.replace(/^action\./, "") + ")" : Tablebot.errorText(res);
    }
    // Not at a table, the no-JS forms still carry the value: keep their hidden field current.
    function carry() {
      if (self.table) return;
      var v = JSON.stringify(confirmed.robotariat);
      document.querySelectorAll("input[name=state_json]").forEach(function (i) { i.value = v; });
    }
    function show(answer, why) {
      self.answer = answer;
      self.rb = answer.robotariat;
      emit("change", why);
    }
    function accept(answer) {
      confirmed = answer;
      if (self.table && answer.version) self.table.version = answer.version;
      carry();
    }
    function post(act, version) {
      if (self.table) return Tablebot.api("POST", base + "/action", { action: act, version: version, page: page });
      return Tablebot.api("POST", "/api/robotariat/action", { action: act, page: page, players: players, robotariat: confirmed.robotariat });
    }
    function later(step) {
      pending++; sent++;
      var done = queue.then(step).then(function (result) {
        pending--;
        if (!pending) show(confirmed, result);
        return result;
      });
      queue = done.catch(function () { pending = Math.max(0, pending - 1); });
      return done;
    }
    // One action after the ones before it; `version`: the table's version a solver's answer was worked
    // out for (a roll, a round start, a suggested turn). Resolves to "ok", "changed" (the table moved on:
    // nothing applied, the newer table is shown) or "error" (said in #rb-error).
    function send(act, version) {
      return later(function () {
        return post(act, version === undefined ? confirmed.version : version).then(function (res) {
          if (res.ok) {
            accept(res.data);
            self.error("");
            if (self.table) self.table.emit("saved", res.data);
            return "ok";
          }
          if (res.status === 409 && res.data && res.data.answer) { accept(res.data.answer); return "changed"; }
          self.error(errorText(res));
          return "error";
        });
      });
    }
    // An action; with {preview: true} a tap is drawn at once, before the server's answer.
    self.do = function (act, opts) {
      if (opts && opts.preview && self.answer.view) show(RB.preview(self.answer, act), "preview");
      return send(act).then(function (result) { return result === "ok"; });
    };
    self.apply = function (act, version) { return send(act, version === undefined ? null : version); };

    function fetchAnswer(since) {
      return Tablebot.api("GET", base + "?page=" + page + (since ? "&since=" + since : "")).then(function (res) {
        if (res.ok && res.data.changed) { accept(res.data); return true; }
        return false;
      });
    }
    // Undo the table's last change (whoever made it): the tables API keeps every version.
    self.undo = function () {
      if (!self.table) return Promise.resolve(false);
      return later(function () {
        return Tablebot.api("POST", "/api/tables/" + encodeURIComponent(id) + "/undo").then(function (res) {
          self.error(res.ok ? "" : Tablebot.errorText(res));
          return fetchAnswer().then(function () {
            if (res.ok) self.table.emit("saved", { version: confirmed.version });
            return res.ok ? "undo" : "error";
          });
        });
      });
    };

    if (id && window.Tablebot) {
      var t = (self.table = Tablebot.table(id));
      t.version = first.version;
      t.code = first.code;
      Tablebot.tableStatus(t);
      t.emit("loaded", first);
      // follow the other phones at the table
      setInterval(function () {
        if (document.visibilityState !== "visible" || pending) return;
        var mark = sent;
        fetchAnswer(confirmed.version).then(function (changed) {
          if (changed && !pending && mark === sent) show(confirmed, "remote");
        });
      }, 5000);
    }
    carry();
    return self;
  };

  // A form as an action, read as robotariat.py's _form_action reads a post: `x[]` fields make lists,
  // `a.b` and `a.b.2` fields nest; the button pressed adds its name and value.
  RB.formAction = function (form, submitter) {
    var act = {};
    new FormData(form).forEach(function (v, k) {
      if (k === "state_json" || k === "version" || (typeof File !== "undefined" && v instanceof File)) return;
      if (k.slice(-2) === "[]") { k = k.slice(0, -2); (act[k] = act[k] || []).push(v); return; }
      var parts = k.split(".");
      if (parts.length === 1) { act[k] = v; return; }
      var head = (act[parts[0]] = act[parts[0]] && typeof act[parts[0]] === "object" ? act[parts[0]] : {});
      if (parts.length === 2) head[parts[1]] = v;
      else {
        head[parts[1]] = Array.isArray(head[parts[1]]) ? head[parts[1]] : [null, null, null, null, null, null];
        var i = Number(parts[2]);
        if (i >= 0 && i < 6) head[parts[1]][i] = v;
      }
    });
    if (submitter && submitter.name) act[submitter.name] = submitter.value;
    return act;
  };
})();
