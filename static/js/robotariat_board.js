// Rise of the Robotariat: the shared part of the pages. It keeps the table's `robotariat` value,
// applies the same actions as assistant/games/robotariat.py (apply_action), draws the board as SVG
// (the same picture as templates/robotariat/_board.html) and saves every change with the table.
(function () {
  "use strict";
  var RB = (window.RB = window.RB || {});

  // geometry: the same numbers as robotariat.py
  var BOX_W = 96, BOX_H = 72, GRID_X = 126, GRID_Y = 116, MARGIN = 6, VIEW_W = 360, COLUMNS = 3;
  var ARROW_OFFSET = 7, SAME_WAY_EXTRA = 9;
  var SVG = "http://www.w3.org/2000/svg";
  RB.geometry = { BOX_W: BOX_W, BOX_H: BOX_H, GRID_X: GRID_X, GRID_Y: GRID_Y, MARGIN: MARGIN, COLUMNS: COLUMNS };

  var ID_RE = /^[A-Za-z0-9_-]{1,24}$/;
  var MAX_NAME = 24;

  function clone(x) { return JSON.parse(JSON.stringify(x)); }
  RB.clone = clone;
  function isObj(x) { return x !== null && typeof x === "object" && !Array.isArray(x); }
  function toInt(v, lo, hi, dflt) {
    if (typeof v === "boolean" || v === null || v === undefined || v === "") return dflt;
    var n = Number(v);
    if (!isFinite(n)) return dflt;
    n = Math.trunc(n);
    return Math.max(lo, Math.min(hi, n));
  }
  function text(v, limit) {
    if (typeof v !== "string" && typeof v !== "number") return "";
    return String(v).trim().slice(0, limit || MAX_NAME);
  }
  function FormError(field, message) { this.field = field; this.message = message; }
  RB.FormError = FormError;
  function fail(field, message) { throw new FormError(field, message); }

  // ---- meta: kinds, characters, limits (from the page) ----
  var META = null;
  RB.meta = function () {
    if (!META) {
      var el = document.getElementById("rb-data");
      META = JSON.parse(el.getAttribute("data-meta"));
    }
    return META;
  };

  // ---- normalising (as normalize() in robotariat.py) ----
  function coord(v) {
    if (typeof v !== "number" || !isFinite(v)) return null;
    return Math.round(Math.max(0, Math.min(100, v)) * 10) / 10;
  }
  RB.normalizeBoard = function (raw) {
    var m = RB.meta();
    var board = { spaces: [], links: [], yellow_next: {}, blue_next: {} };
    if (!isObj(raw)) return board;
    var seen = {};
    (Array.isArray(raw.spaces) ? raw.spaces : []).forEach(function (s) {
      if (!isObj(s) || board.spaces.length >= m.max_spaces) return;
      var sid = s.id;
      if (typeof sid !== "string" || !ID_RE.test(sid) || seen[sid]) return;
      var kind = m.kinds[s.kind] ? s.kind : "poster";
      var space = { id: sid, name: text(s.name) || m.kinds[kind].label, kind: kind };
      var x = coord(s.x), y = coord(s.y);
      if (x !== null && y !== null) { space.x = x; space.y = y; }
      if (s.start === true) space.start = true;
      board.spaces.push(space);
      seen[sid] = true;
    });
    var pairs = {};
    (Array.isArray(raw.links) ? raw.links : []).forEach(function (l) {
      if (!Array.isArray(l) || l.length !== 2) return;
      var a = l[0], b = l[1];
      if (typeof a !== "string" || typeof b !== "string" || !seen[a] || !seen[b] || a === b) return;
      var key = a < b ? [a, b] : [b, a];
      if (pairs[key.join("\u0000")]) return;
      pairs[key.join("\u0000")] = true;
      board.links.push(key);
    });
    ["yellow_next", "blue_next"].forEach(function (colour) {
      if (!isObj(raw[colour])) return;
      Object.keys(raw[colour]).forEach(function (a) {
        var b = raw[colour][a];
        if (seen[a] && typeof b === "string" && seen[b] && a !== b) board[colour][a] = b;
      });
    });
    return board;
  };

  function cellXY(col, row) { return [MARGIN + BOX_W / 2 + col * GRID_X, MARGIN + BOX_H / 2 + row * GRID_Y]; }
  function cellOf(xy) {
    return [Math.round((xy[0] - MARGIN - BOX_W / 2) / GRID_X), Math.round((xy[1] - MARGIN - BOX_H / 2) / GRID_Y)];
  }
  RB.cellXY = cellXY; RB.cellOf = cellOf;
  // Python's round() rounds halves to even; positions here are never exactly half-way in practice,
  // but keep the same rule so both sides agree.
  function pyRound(v, digits) {
    var f = Math.pow(10, digits);
    var x = v * f, r = Math.round(x);
    if (Math.abs(x % 1) === 0.5 && r % 2 !== 0) r -= 1;
    return r / f;
  }

  RB.autoLayout = function (board, keep) {
    keep = Object.assign({}, keep || {});
    var spaces = board.spaces, taken = {};
    Object.keys(keep).forEach(function (sid) { taken[cellOf(keep[sid]).join(",")] = true; });
    var todo = spaces.filter(function (s) { return !keep[s.id]; });
    var hinted = todo.filter(function (s) { return "x" in s; });
    if (hinted.length) {
      var maxRow = 0;
      Object.keys(taken).forEach(function (k) { maxRow = Math.max(maxRow, Number(k.split(",")[1]) + 1); });
      var rows = Math.max(1, Math.ceil(spaces.length / COLUMNS), maxRow);
      var xs = hinted.map(function (s) { return s.x; }), ys = hinted.map(function (s) { return s.y; });
      var x0 = Math.min.apply(null, xs), y0 = Math.min.apply(null, ys);
      var xr = (Math.max.apply(null, xs) - x0) || 1, yr = (Math.max.apply(null, ys) - y0) || 1;
      var pairs = [];
      hinted.forEach(function (s, i) {
        var u = (s.x - x0) / xr * (COLUMNS - 1), v = (s.y - y0) / yr * (rows - 1);
        for (var row = 0; row < rows; row++) {
          for (var col = 0; col < COLUMNS; col++) {
            pairs.push([pyRound((u - col) * (u - col) + (v - row) * (v - row), 6), i, row, col]);
          }
        }
      });
      pairs.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]; });
      var placed = {};
      pairs.forEach(function (p) {
        var k = p[3] + "," + p[2];
        if (!placed[p[1]] && !taken[k]) { keep[hinted[p[1]].id] = cellXY(p[3], p[2]); taken[k] = true; placed[p[1]] = true; }
      });
    }
    var order = [], inOrder = {};
    spaces.forEach(function (s) {
      var sid = s.id;
      while (sid !== undefined && sid !== null && !inOrder[sid]) { order.push(sid); inOrder[sid] = true; sid = board.yellow_next[sid]; }
    });
    var cell = 0;
    order.forEach(function (sid) {
      if (keep[sid]) return;
      var row, col;
      for (;;) {
        row = Math.floor(cell / COLUMNS); col = cell % COLUMNS;
        if (row % 2) col = COLUMNS - 1 - col;
        if (!taken[col + "," + row]) break;
        cell++;
      }
      keep[sid] = cellXY(col, row);
      taken[col + "," + row] = true;
    });
    var out = {};
    spaces.forEach(function (s) { out[s.id] = keep[s.id]; });
    return out;
  };

  RB.normalizeLayout = function (raw, board) {
    var keep = {}, used = {}, ids = {};
    board.spaces.forEach(function (s) { ids[s.id] = true; });
    if (isObj(raw)) {
      Object.keys(raw).forEach(function (sid) {
        var xy = raw[sid];
        if (!ids[sid] || !Array.isArray(xy) || xy.length !== 2) return;
        var x = Number(xy[0]), y = Number(xy[1]);
        if (!isFinite(x) || !isFinite(y) || xy[0] === null || xy[1] === null) return;
        var c = cellOf([x, y]);
        c = [Math.max(0, Math.min(COLUMNS - 1, c[0])), Math.max(0, Math.min(RB.meta().max_spaces, c[1]))];
        if (used[c.join(",")]) return;
        used[c.join(",")] = true;
        keep[sid] = cellXY(c[0], c[1]);
      });
    }
    return RB.autoLayout(board, keep);
  };

  RB.firstOfKind = function (board, kind) {
    var of = board.spaces.filter(function (s) { return s.kind === kind; });
    var marked = of.filter(function (s) { return s.start; });
    return (marked[0] || of[0] || { id: null }).id;
  };
  RB.startSpace = function (board, character) {
    var m = RB.meta();
    if (character && m.characters[character]) {
      var found = RB.firstOfKind(board, m.characters[character].start);
      if (found) return found;
    }
    return board.spaces.length ? board.spaces[0].id : null;
  };

  function normalizeData(raw) {
    var m = RB.meta(), base = m.defaults;
    raw = isObj(raw) ? raw : {};
    var diceRaw = isObj(raw.dice) ? raw.dice : {};
    var dice = {};
    ["black", "red"].forEach(function (c) {
      var f = diceRaw[c];
      var ok = Array.isArray(f) && f.length === 6 && f.every(function (x) { return m.faces[x]; });
      dice[c] = ok ? f.slice() : base.dice[c].slice();
    });
    var rewards = raw.office_rewards;
    if (Array.isArray(rewards) && rewards.length === 11) {
      rewards = rewards.map(function (r) { return toInt(r, 0, 99, 0); });
      rewards[0] = 0;
    } else rewards = base.office_rewards.slice();
    var repRaw = isObj(raw.starting_reputation) ? raw.starting_reputation : {};
    var rep = {};
    Object.keys(base.starting_reputation).forEach(function (k) { rep[k] = toInt(repRaw[k], 1, 20, Number(base.starting_reputation[k])); });
    return { dice: dice, office_rewards: rewards, starting_reputation: rep };
  }

  function normalizeState(raw, board, players, names, data) {
    raw = isObj(raw) ? raw : {};
    var m = RB.meta(), ids = {};
    board.spaces.forEach(function (s) { ids[s.id] = true; });
    var first = board.spaces.length ? board.spaces[0].id : null;
    function sid(v) { return typeof v === "string" && ids[v] ? v : null; }
    function npcs(key, limit) {
      return (Array.isArray(raw[key]) ? raw[key] : []).filter(function (x) { return sid(x); }).slice(0, limit);
    }
    var seats = Array.isArray(raw.players) ? raw.players : [];
    var out = [];
    for (var i = 0; i < players; i++) {
      var p = isObj(seats[i]) ? seats[i] : {};
      var ch = m.characters[p.character] ? p.character : null;
      var name = (names[i] || "") || text(p.name) || ("Player " + (i + 1));
      out.push({ name: name, at: sid(p.at) || RB.startSpace(board, ch), character: ch });
    }
    var posters = {};
    if (isObj(raw.posters)) {
      Object.keys(raw.posters).forEach(function (k) {
        var n = toInt(raw.posters[k], 0, m.poster_supply, 0);
        if (ids[k] && n > 0) posters[k] = n;
      });
    }
    var repDefault = Number(data.starting_reputation[String(players)] || 5);
    return {
      oppressors: npcs("oppressors", m.npc_supply.oppressor),
      civilians: npcs("civilians", m.npc_supply.civilian),
      players: out,
      active: toInt(raw.active, 0, Math.max(0, players - 1), 0),
      posters: posters,
      junk: toInt(raw.junk, 0, m.poster_supply, 0),
      funds: toInt(raw.funds, 0, 999, 0),
      reputation: toInt(raw.reputation, 0, 20, repDefault),
      office: toInt(raw.office, 0, 10, 0),
      entry: sid(raw.entry) || RB.firstOfKind(board, "move_the_masses") || first,
      round: toInt(raw.round, 1, m.rounds, 1)
    };
  }

  var LOG_TURNS = ["player", "npc", "round_start"];  // a suggestion done, a roll applied, a round-start entry
  function normalizeLog(raw) {
    var out = [];
    (Array.isArray(raw) ? raw : []).forEach(function (e) {
      if (!isObj(e)) return;
      out.push({ round: toInt(e.round, 1, 6, 1), player: toInt(e.player, 0, 4, 0),
                 turn: LOG_TURNS.indexOf(e.turn) >= 0 ? e.turn : "npc", what: text(e.what, 80),
                 junked: toInt(e.junked, 0, 8, 0), office: toInt(e.office, 0, 10, 0) });
    });
    return out.slice(-200);
  }

  RB.normalize = function (raw, players, names) {
    var m = RB.meta();
    raw = isObj(raw) ? raw : {};
    var board = RB.normalizeBoard(raw.board);
    var example = raw.example === undefined ? true : !!raw.example;
    var layoutRaw = raw.layout;
    if (!board.spaces.length && !("board" in raw) && m.defaults.board) {
      board = RB.normalizeBoard(m.defaults.board);
      layoutRaw = null;
      example = true;
    }
    var data = normalizeData(raw.data);
    var state = normalizeState(raw.state, board, players, names || [], data);
    return {
      board: board,
      example: example && board.spaces.length > 0,
      layout: RB.normalizeLayout(layoutRaw, board),
      data: data,
      state: state,
      log: normalizeLog(raw.log),
      office_track: normalizeOfficeTrack(raw.office_track, state.office),
      facts: normalizeFacts(raw.facts, players)
    };
  };

  // as normalize_facts in robotariat.py
  function normalizeFacts(raw, players) {
    raw = isObj(raw) ? raw : {};
    var facts = {};
    ["cooperative", "gambler_cards", "revolution_over"].forEach(function (k) { facts[k] = raw[k] === true; });
    var clean = {
      objectives: function (v) { return typeof v === "string" && RB.meta().objectives.indexOf(v) >= 0 ? v : null; },
      cards_played: function (v) { return toInt(v, 0, 18, 0); },
      spy_correct: function (v) { return v === true; }
    };
    Object.keys(clean).forEach(function (k) {
      if (Array.isArray(raw[k]) && raw[k].length === players) facts[k] = raw[k].map(clean[k]);
    });
    if (raw.max_junked !== null && raw.max_junked !== undefined) facts.max_junked = toInt(raw.max_junked, 0, RB.meta().poster_supply, 0);
    return facts;
  }

  // Every value the Office Contributions track has shown this game, in order (for the Bursar).
  function normalizeOfficeTrack(raw, office) {
    var track = Array.isArray(raw) ? raw.map(function (v) { return toInt(v, 0, 10, 0); }) : [];
    if (!track.length || track[track.length - 1] !== office) track.push(office);
    return track.slice(-1000);
  }

  // ---- actions (as apply_action in robotariat.py) ----
  function requireSpace(rb, v, field) {
    if (typeof v !== "string" || !rb.board.spaces.some(function (s) { return s.id === v; })) fail(field, "pick a space of the board");
    return v;
  }
  RB.nextNpc = function (st) {
    var n = st.oppressors.length + st.civilians.length, track = RB.meta().entry_track;
    return n < track.length ? track[n] : null;
  };
  function postersOut(st) {
    return Object.keys(st.posters).reduce(function (a, k) { return a + st.posters[k]; }, 0) + st.junk;
  }
  RB.postersOut = postersOut;
  function piece(v) {
    if (v === "entry") return ["entry", 0];
    var mm = /^([ocp])(\d+)$/.exec(v || "");
    if (!mm) fail("piece", "pick a piece to move");
    return [{ o: "oppressors", c: "civilians", p: "players" }[mm[1]], Number(mm[2])];
  }
  function count(list, x) { return list.filter(function (y) { return y === x; }).length; }
  function sortedPair(a, b) { return a < b ? [a, b] : [b, a]; }
  function hasLink(board, a, b) {
    var k = sortedPair(a, b);
    return board.links.some(function (l) { return l[0] === k[0] && l[1] === k[1]; });
  }

  function playAction(rb, act) {
    var st = rb.state, m = RB.meta(), i, g;
    switch (act.do) {
      case "move":
        var to = requireSpace(rb, act.to, "to");
        g = piece(act.piece);
        if (g[0] === "entry") st.entry = to;
        else if (g[0] === "players") { if (g[1] >= st.players.length) fail("piece", "no such player at this table"); st.players[g[1]].at = to; }
        else { if (g[1] >= st[g[0]].length) fail("piece", "that NPC is not on the board"); st[g[0]][g[1]] = to; }
        break;
      case "place_npc":
        var at = requireSpace(rb, act.to, "to");
        var kind = RB.nextNpc(st);
        if (!kind) fail("to", "all six NPCs of the entry track are already on the board");
        st[kind === "oppressor" ? "oppressors" : "civilians"].push(at);
        break;
      case "remove_npc":
        g = piece(act.piece);
        if ((g[0] !== "oppressors" && g[0] !== "civilians") || g[1] >= st[g[0]].length) fail("piece", "that NPC is not on the board");
        st[g[0]].splice(g[1], 1);
        break;
      case "poster":
        var sp = requireSpace(rb, act.at, "at");
        var d = toInt(act.delta, -1, 1, 0);
        if (d > 0 && postersOut(st) >= m.poster_supply) fail("at", "all " + m.poster_supply + " posters are out (on the board or in the junk pile)");
        if (d < 0 && !st.posters[sp]) fail("at", "there is no poster on that space");
        st.posters[sp] = (st.posters[sp] || 0) + d;
        if (!st.posters[sp]) delete st.posters[sp];
        break;
      case "tracks":
        var limits = { funds: 999, reputation: 20, office: 10, junk: m.poster_supply, round: m.rounds };
        Object.keys(limits).forEach(function (k) {
          if (!(k in act) || act[k] === null || act[k] === "") return;
          var v = Number(act[k]);
          if (!isFinite(v) || Math.trunc(v) !== v) fail(k, "enter a whole number");
          var lo = k === "round" ? 1 : 0;
          if (v < lo || v > limits[k]) fail(k, "must be between " + lo + " and " + limits[k]);
          st[k] = v;
        });
        if (postersOut(st) > m.poster_supply) fail("junk", "the game has " + m.poster_supply + " posters; the board and junk pile hold more");
        break;
      case "player":
        i = toInt(act.seat, -1, 99, -1);
        if (i < 0 || i >= st.players.length) fail("seat", "no such player at this table");
        var ch = act.character || null;
        if (ch !== null && !m.characters[ch]) fail("character", "pick one of the characters");
        st.players[i].character = ch;
        if (!rb.log.length && st.round === 1) st.players[i].at = RB.startSpace(rb.board, ch);
        break;
      case "active":
        i = toInt(act.seat, -1, 99, -1);
        if (i < 0 || i >= st.players.length) fail("seat", "no such player at this table");
        st.active = i;
        break;
      case "setup":
        st.players.forEach(function (p) { p.at = RB.startSpace(rb.board, p.character); });
        Object.assign(st, { oppressors: [], civilians: [], posters: {}, junk: 0, funds: 0, office: 0, round: 1, active: 0,
                            reputation: Number(rb.data.starting_reputation[String(st.players.length)] || 5),
                            entry: RB.firstOfKind(rb.board, "move_the_masses") || st.entry });
        rb.log = [];
        rb.office_track = [0];
        break;
      case "apply":
        // an outcome the API computed (NPC turn or round-start entry), as its `state`
        var s = act.state;
        if (!isObj(s)) fail("state", "no outcome to apply");
        ["oppressors", "civilians", "posters", "junk", "funds", "reputation", "office", "entry"].forEach(function (k) {
          if (k in s) st[k] = clone(s[k]);
        });
        if (Array.isArray(s.players)) s.players.forEach(function (p, j) { if (st.players[j] && p && p.at) st.players[j].at = p.at; });
        if (act.round !== undefined && act.round !== null && act.round !== "") st.round = toInt(act.round, 1, m.rounds, st.round);
        if (isObj(act.log)) rb.log.push(act.log);
        if (act.next_turn) {
          st.active = (st.active + 1) % st.players.length;
        }
        break;
      default: fail("do", "unknown action");
    }
  }

  function newSpaceId(board) {
    var used = {};
    board.spaces.forEach(function (s) { used[s.id] = true; });
    var n = board.spaces.length + 1;
    while (used["s" + n]) n++;
    return "s" + n;
  }

  function editAction(rb, act) {
    var board = rb.board, m = RB.meta(), sid, space;
    switch (act.do) {
      case "add_space":
        if (board.spaces.length >= m.max_spaces) fail("kind", "a board here holds at most " + m.max_spaces + " spaces");
        if (!m.kinds[act.kind]) fail("kind", "pick the kind of space");
        sid = newSpaceId(board);
        board.spaces.push({ id: sid, kind: act.kind, name: text(act.name) || m.kinds[act.kind].label });
        if (act.x !== undefined && act.x !== null && act.x !== "" && act.y !== undefined && act.y !== null && act.y !== "") rb.layout[sid] = [Number(act.x), Number(act.y)];
        break;
      case "edit_space":
        sid = requireSpace(rb, act.id, "id");
        space = board.spaces.filter(function (s) { return s.id === sid; })[0];
        if (act.kind !== undefined && act.kind !== null) { if (!m.kinds[act.kind]) fail("kind", "pick the kind of space"); space.kind = act.kind; }
        if (act.name !== undefined && act.name !== null) space.name = text(act.name) || m.kinds[space.kind].label;
        break;
      case "delete_space":
        sid = requireSpace(rb, act.id, "id");
        board.spaces = board.spaces.filter(function (s) { return s.id !== sid; });
        board.links = board.links.filter(function (l) { return l.indexOf(sid) < 0; });
        ["yellow_next", "blue_next"].forEach(function (c) {
          Object.keys(board[c]).forEach(function (a) { if (a === sid || board[c][a] === sid) delete board[c][a]; });
        });
        delete rb.layout[sid];
        rb.state.oppressors = rb.state.oppressors.filter(function (x) { return x !== sid; });
        rb.state.civilians = rb.state.civilians.filter(function (x) { return x !== sid; });
        delete rb.state.posters[sid];
        break;
      case "toggle_link":
        var a = requireSpace(rb, act.a, "a"), b = requireSpace(rb, act.b, "b");
        if (a === b) fail("b", "a black line joins two different spaces");
        var key = sortedPair(a, b);
        var idx = -1;
        board.links.forEach(function (l, j) { if (l[0] === key[0] && l[1] === key[1]) idx = j; });
        if (idx >= 0) board.links.splice(idx, 1); else board.links.push(key);
        break;
      case "path":
        if (act.colour !== "yellow" && act.colour !== "blue") fail("colour", "yellow or blue");
        var from = requireSpace(rb, act.from, "from");
        if (act.to === undefined || act.to === null || act.to === "") delete board[act.colour + "_next"][from];
        else {
          var to = requireSpace(rb, act.to, "to");
          if (from === to) fail("to", "the next space on a path is another space");
          board[act.colour + "_next"][from] = to;
          if (!hasLink(board, from, to)) board.links.push(sortedPair(from, to));  // a path runs along a black line
        }
        break;
      case "move_space":
        sid = requireSpace(rb, act.id, "id");
        var x = Number(act.x), y = Number(act.y);
        if (!isFinite(x) || !isFinite(y) || act.x === null || act.y === null) fail("x", "tap where the space goes");
        // a space already in that cell swaps with the moved one
        var target = cellOf([x, y]).join(",");
        Object.keys(rb.layout).forEach(function (other) {
          if (other !== sid && cellOf(rb.layout[other]).join(",") === target) rb.layout[other] = rb.layout[sid];
        });
        rb.layout[sid] = [x, y];
        break;
      case "import":
        var raw = act.board;
        if (isObj(raw) && "board" in raw) { act = Object.assign({}, act, { layout: raw.layout, board: raw.board }); raw = act.board; }
        if (!isObj(raw)) fail("board", "paste a board as JSON: {\"spaces\": [...], \"links\": [...], ...}");
        var imported = RB.normalizeBoard(raw);
        if (!imported.spaces.length) fail("board", "the board has no spaces with an id and a kind");
        rb.board = imported;
        rb.layout = isObj(act.layout) ? act.layout : {};
        break;
      case "example":
        if (!m.defaults.board) fail("do", "no example board is available");
        rb.board = RB.normalizeBoard(m.defaults.board);
        rb.layout = {};
        rb.example = true;
        return;
      case "clear":
        rb.board = { spaces: [], links: [], yellow_next: {}, blue_next: {} };
        rb.layout = {};
        break;
      default: fail("do", "unknown action");
    }
    rb.example = false;
  }

  function dataAction(rb, act) {
    var m = RB.meta();
    if (act.do === "data_reset") { rb.data = normalizeData({}); return; }
    var data = rb.data, dice = isObj(act.dice) ? act.dice : {};
    ["black", "red"].forEach(function (c) {
      if (!(c in dice)) return;
      var f = dice[c];
      if (!Array.isArray(f) || f.length !== 6) fail("dice." + c, "a die has six faces");
      f.forEach(function (x, i) { if (!m.faces[x]) fail("dice." + c + "[" + i + "]", "a face is a yellow or blue arrow or X"); });
      data.dice[c] = f.slice();
    });
    if ("office_rewards" in act) {
      var r = act.office_rewards;
      if (!Array.isArray(r) || r.length !== 11) fail("office_rewards", "enter 11 values, for contributions 0 to 10");
      data.office_rewards = r.map(function (v, i) {
        var n = Number(v);
        if (v === "" || v === null || !isFinite(n) || Math.trunc(n) !== n) fail("office_rewards[" + i + "]", "enter a whole number");
        if (n < 0 || n > 99 || (i === 0 && n !== 0)) fail("office_rewards[" + i + "]", "0 at level 0, otherwise 0 to 99");
        return n;
      });
    }
    if (isObj(act.starting_reputation)) {
      ["3", "4", "5"].forEach(function (k) {
        if (!(k in act.starting_reputation)) return;
        var n = Number(act.starting_reputation[k]);
        if (!isFinite(n) || Math.trunc(n) !== n) fail("starting_reputation." + k, "enter a whole number");
        if (n < 1 || n > 20) fail("starting_reputation." + k, "between 1 and 20");
        data.starting_reputation[k] = n;
      });
    }
  }

  // What the objectives need that the board cannot show (as _facts_from in robotariat.py).
  function flag(v) { return !!v && v !== "0" && v !== "false" && v !== "off"; }
  function factsFrom(act, rb) {
    var players = rb.state.players.length, facts = Object.assign({}, rb.facts);
    if ("cooperative" in act) facts.cooperative = flag(act.cooperative);
    ["cards_played", "objectives", "spy_correct"].forEach(function (key) {
      if (!(key in act)) return;
      var values = act[key];
      if (!Array.isArray(values) || values.length !== players) fail(key, "one value for each of the " + players + " players");
      if (key === "cards_played") {
        facts[key] = values.map(function (v, i) {
          var n = Number(v);
          if (v === "" || v === null || !isFinite(n) || Math.trunc(n) !== n) fail("cards_played[" + i + "]", "enter a whole number");
          if (n < 0 || n > 18) fail("cards_played[" + i + "]", "between 0 and 18 (10 Upgrade + 8 Sabotage cards)");
          return n;
        });
      } else if (key === "objectives") {
        facts[key] = values.map(function (v, i) {
          if (v && RB.meta().objectives.indexOf(v) < 0) fail("objectives[" + i + "]", "pick one of the 8 secret objectives");
          return v || null;
        });
      } else facts[key] = values.map(flag);
    });
    ["gambler_cards", "revolution_over"].forEach(function (key) { if (key in act) facts[key] = flag(act[key]); });
    if ("max_junked" in act && act.max_junked !== null && act.max_junked !== "") {
      var n = Number(act.max_junked);
      if (!isFinite(n)) fail("max_junked", "enter a whole number");
      facts.max_junked = Math.max(0, Math.min(RB.meta().poster_supply, Math.trunc(n)));
    }
    return facts;
  }

  var PLAY = ["move", "place_npc", "remove_npc", "poster", "tracks", "player", "active", "setup", "apply"];
  var EDIT = ["add_space", "edit_space", "delete_space", "toggle_link", "path", "move_space", "import", "example", "clear"];

  // A new normalised value with the action applied; throws RB.FormError when it cannot be done.
  RB.reduce = function (rb, act, players, names) {
    rb = clone(rb);
    if (PLAY.indexOf(act.do) >= 0) playAction(rb, act);
    else if (EDIT.indexOf(act.do) >= 0) editAction(rb, act);
    else if (act.do === "data" || act.do === "data_reset") dataAction(rb, act);
    else if (act.do === "facts") rb.facts = factsFrom(act, rb);
    else fail("do", "unknown action");
    return RB.normalize(rb, players, names);
  };

  // The table page's shared round (`table.round`) follows the Robotariat round whenever an action changes
  // it (as with_round in robotariat.py); `s` is the table's whole state, changed in place.
  RB.syncRound = function (s, before, after) {
    if (after.state.round === before.state.round) return s;
    s.table = Object.assign({}, isObj(s.table) ? s.table : {}, { round: after.state.round });
    return s;
  };

  // ---- the API's request body ----
  RB.apiBody = function (rb, extra) {
    var st = rb.state;
    var body = {
      players: st.players.length,
      board: rb.board,
      dice: rb.data.dice,
      office_rewards: rb.data.office_rewards,
      state: {
        oppressors: st.oppressors, civilians: st.civilians,
        players: st.players.map(function (p) { var o = { name: p.name, at: p.at }; if (p.character) o.character = p.character; return o; }),
        active: st.active, posters: st.posters, junk: st.junk, funds: st.funds, reputation: st.reputation,
        office: st.office, entry: st.entry, round: st.round
      }
    };
    return Object.assign(body, extra || {});
  };

  // ---- drawing ----
  function clip(ax, ay, bx, by) {
    var dx = bx - ax, dy = by - ay;
    if (Math.abs(dx) < 1e-9 && Math.abs(dy) < 1e-9) return null;
    var tx = dx ? (BOX_W / 2) / Math.abs(dx) : Infinity, ty = dy ? (BOX_H / 2) / Math.abs(dy) : Infinity;
    var t = Math.min(tx, ty);
    if (t >= 0.5) return null;
    return [ax + dx * t, ay + dy * t, bx - dx * t, by - dy * t];
  }
  function r1(v) { return Math.round(v * 10) / 10; }
  function arrow(a, b, offset) {
    var seg = clip(a[0], a[1], b[0], b[1]);
    if (!seg) return null;
    var len = Math.hypot(seg[2] - seg[0], seg[3] - seg[1]);
    if (len < 1) return null;
    var ux = (seg[2] - seg[0]) / len, uy = (seg[3] - seg[1]) / len, nx = uy, ny = -ux;
    var sh = Math.min(4, len / 4);
    return { x1: r1(seg[0] + ux * sh + nx * offset), y1: r1(seg[1] + uy * sh + ny * offset),
             x2: r1(seg[2] - ux * sh + nx * offset), y2: r1(seg[3] - uy * sh + ny * offset) };
  }

  RB.view = function (rb, heat, problems) {
    var m = RB.meta(), board = rb.board, layout = rb.layout, st = rb.state;
    problems = problems || {};
    var spaces = board.spaces.map(function (s) {
      var xy = layout[s.id], sid = s.id, row1 = [];
      var n = count(st.oppressors, sid);
      if (n) row1.push({ piece: "oppressor", count: n });
      n = count(st.civilians, sid);
      if (n) row1.push({ piece: "civilian", count: n });
      if (st.posters[sid]) row1.push({ piece: "poster", count: st.posters[sid] });
      if (st.entry === sid) row1.push({ piece: "entry", count: 1 });
      var row2 = [];
      st.players.forEach(function (p, i) { if (p.at === sid) row2.push({ seat: i + 1, active: i === st.active, name: p.name }); });
      var label = m.kinds[s.kind].label;
      var title = label + (s.name !== label ? " “" + s.name + "”" : "");
      return { id: sid, kind: s.kind, name: s.name, x: xy[0], y: xy[1], left: xy[0] - BOX_W / 2, top: xy[1] - BOX_H / 2,
               label: s.name, title: title, row1: row1, row2: row2, heat: heat && sid in heat ? heat[sid] : null,
               problem: !!problems[sid], aria: spaceAria(s, title, st) };
    });
    var links = [];
    board.links.forEach(function (l) {
      var seg = clip(layout[l[0]][0], layout[l[0]][1], layout[l[1]][0], layout[l[1]][1]);
      if (seg) links.push({ x1: r1(seg[0]), y1: r1(seg[1]), x2: r1(seg[2]), y2: r1(seg[3]) });
    });
    var arrows = [];
    ["yellow", "blue"].forEach(function (c) {
      var nexts = board[c + "_next"];
      Object.keys(nexts).forEach(function (a) {
        var b = nexts[a], off = ARROW_OFFSET;
        if (c === "blue" && board.yellow_next[a] === b) off += SAME_WAY_EXTRA;
        var ar = arrow(layout[a], layout[b], off);
        if (ar) { ar.colour = c; ar.linked = hasLink(board, a, b); arrows.push(ar); }
      });
    });
    var width = VIEW_W, height = BOX_H + 2 * MARGIN;
    Object.keys(layout).forEach(function (k) {
      width = Math.max(width, layout[k][0] + BOX_W / 2 + MARGIN);
      height = Math.max(height, layout[k][1] + BOX_H / 2 + 14);
    });
    return { spaces: spaces, links: links, arrows: arrows, width: Math.round(width), height: Math.round(height) };
  };

  function spaceAria(space, title, st) {
    var sid = space.id, parts = [title];
    [["oppressors", "oppressor"], ["civilians", "civilian"]].forEach(function (kv) {
      var n = count(st[kv[0]], sid);
      if (n) parts.push(n + " " + kv[1] + (n > 1 ? "s" : ""));
    });
    if (st.posters[sid]) parts.push(st.posters[sid] + " poster" + (st.posters[sid] > 1 ? "s" : ""));
    if (st.entry === sid) parts.push("NPC Entry token");
    st.players.forEach(function (p) { if (p.at === sid) parts.push(p.name); });
    return parts.join(", ");
  }

  function el(name, attrs, parent) {
    var e = document.createElementNS(SVG, name);
    Object.keys(attrs || {}).forEach(function (k) { if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(e);
    return e;
  }
  RB.svgEl = el;

  // Draw the view into the <svg>; opts: {interactive, picked: sid, targets: {sid: true}, extra(g, space)}
  RB.draw = function (svg, view, opts) {
    opts = opts || {};
    var id = svg.id || "rb-board";
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("viewBox", "0 0 " + view.width + " " + view.height);
    svg.setAttribute("width", view.width);
    svg.setAttribute("height", view.height);
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
      var cls = "space kind-" + s.kind + (s.problem ? " problem" : "") + (opts.picked === s.id ? " picked" : "") +
        (opts.targets && opts.targets[s.id] ? " target" : "");
      var g = el("g", { "class": cls, "data-id": s.id, transform: "translate(" + s.left + "," + s.top + ")",
                        "aria-label": s.aria + (opts.hint ? ". " + opts.hint : "") }, gs);
      if (opts.interactive) { g.setAttribute("role", "button"); g.setAttribute("tabindex", "0"); }
      el("title", {}, g).textContent = s.aria;
      el("rect", { "class": "box", width: BOX_W, height: BOX_H, rx: 9 }, g);
      el("path", { "class": "band", d: "M0,18 V9 a9,9 0 0 1 9,-9 H87 a9,9 0 0 1 9,9 V18 z" }, g);
      var name = el("text", { "class": "name" + (s.label.length > 12 ? " long" : ""), x: 48, y: 13.5 }, g);
      if (s.label.length > 14) { name.setAttribute("textLength", 90); name.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
      name.textContent = s.label;
      if (s.heat !== null) el("rect", { "class": "heat", x: 0, y: 18, width: BOX_W, height: BOX_H - 18, style: "fill-opacity:" + (0.1 + 0.7 * s.heat).toFixed(2) }, g);
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
      if (s.heat !== null) {
        var pill = el("g", { "class": "heat-pill" }, g);
        el("rect", { x: 28, y: 59, width: 40, height: 12, rx: 6 }, pill);
        el("text", { x: 48, y: 68.5 }, pill).textContent = Math.round(100 * s.heat) + "%";
      }
      if (opts.extra) opts.extra(g, s);
    });
  };

  // The SVG point (viewBox units) under a tap.
  RB.svgPoint = function (svg, evt) {
    var pt = svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    var ctm = svg.getScreenCTM();
    if (!ctm) return null;
    var p = pt.matrixTransform(ctm.inverse());
    return [p.x, p.y];
  };

  // Calls onSpace(id) for a tap or Enter/Space on a space; onEmpty([x, y]) for a tap elsewhere.
  RB.onTap = function (svg, onSpace, onEmpty) {
    svg.addEventListener("click", function (e) {
      var g = e.target.closest ? e.target.closest(".space") : null;
      if (g) onSpace(g.getAttribute("data-id"));
      else if (onEmpty) { var p = RB.svgPoint(svg, e); if (p) onEmpty(p); }
    });
    svg.addEventListener("keydown", function (e) {
      if (e.key !== "Enter" && e.key !== " ") return;
      var g = e.target.closest ? e.target.closest(".space") : null;
      if (g) { e.preventDefault(); onSpace(g.getAttribute("data-id")); }
    });
  };

  // ---- the store: the value, the table, saving, following other phones ----
  RB.store = function () {
    var holder = document.getElementById("rb-data");
    var initial = JSON.parse(holder.getAttribute("data-rb"));
    var players = initial.state.players.length;
    var self = { rb: initial, table: null, listeners: [], saving: 0 };
    function names(state) {
      var t = state && isObj(state.table) && Array.isArray(state.table.names) ? state.table.names : [];
      return t.map(function (n) { return text(n); });
    }
    function fromTable(state) {
      var raw = state && isObj(state.robotariat) ? state.robotariat : initial;
      return RB.normalize(raw, players, names(state));
    }
    self.names = [];
    self.on = function (f) { self.listeners.push(f); return self; };
    function emit(kind, info) { self.listeners.forEach(function (f) { f(kind, info); }); }
    self.error = function (msg) {
      var box = document.getElementById("rb-error");
      if (!box) return;
      box.hidden = !msg;
      box.textContent = msg ? "Not done: " + msg : "";
    };
    // Not at a table, the no-JS forms still carry the value: keep their hidden field current.
    function carry() {
      var v = JSON.stringify(self.rb);
      document.querySelectorAll("input[name=state_json]").forEach(function (i) { i.value = v; });
    }
    self.do = function (act) {
      var next;
      try { next = RB.reduce(self.rb, act, players, self.names); }
      catch (e) {
        if (e instanceof FormError) { self.error(e.message + " (" + e.field + ")"); return Promise.resolve(false); }
        throw e;
      }
      self.error("");
      self.rb = next;
      carry();
      emit("change", act);
      if (!self.table) return Promise.resolve(true);
      self.saving++;
      return self.table.save(function (s) {
        try {
          var base = fromTable(s);
          s.robotariat = RB.reduce(base, act, players, names(s));
          RB.syncRound(s, base, s.robotariat);
        } catch (e) { if (!(e instanceof FormError)) throw e; }
        return s;
      }).then(function (state) {
        self.saving--;
        self.names = names(state);
        if (!self.saving) { self.rb = fromTable(state); emit("change", null); }
        return true;
      }, function () { self.saving--; return false; });
    };
    // Once this phone's own saves are done (the table's version is then the one the page shows).
    function settled() {
      return new Promise(function (resolve) {
        (function wait() { if (self.saving) setTimeout(wait, 40); else resolve(); })();
      });
    }
    function tell(kind, info) {  // the table's status line (Tablebot.tableStatus listens on the table)
      (self.table.listeners || []).forEach(function (f) { f(kind, info); });
    }
    // Apply an answer the solvers worked out for the table as it was (`key`: the API body it was computed
    // from) as one compare-and-set on that version, never re-applied on a newer table (a roll on a table
    // another phone changed would undo their change). Resolves to "ok", "changed" (the table moved on:
    // nothing saved, the newer table is shown) or "error".
    self.applyAt = function (act, key) {
      if (!self.table) return self.do(act).then(function (ok) { return ok ? "ok" : "error"; });
      var t = self.table;
      return Promise.resolve(self.loading).then(settled).then(function () {
        if (t.version === null) { self.error("the table is not loaded yet; try again"); return "error"; }
        var base = fromTable(t.state);
        if (key && JSON.stringify(RB.apiBody(base)) !== key) { self.rb = base; emit("change", "remote"); return "changed"; }
        var next;
        try { next = RB.reduce(base, act, players, names(t.state)); }
        catch (e) {
          if (e instanceof FormError) { self.error(e.message + " (" + e.field + ")"); return "error"; }
          throw e;
        }
        var state = RB.syncRound(Object.assign(clone(t.state), { robotariat: next }), base, next);
        self.saving++;
        return Tablebot.api("PUT", "/api/tables/" + encodeURIComponent(t.id), { version: t.version, state: state }).then(function (res) {
          self.saving--;
          var table = res.ok ? res.data : (res.status === 409 && res.data ? res.data.table : null);
          if (table) { t.version = table.version; t.state = table.state || {}; self.names = names(t.state); self.rb = fromTable(t.state); carry(); }
          if (res.ok) { self.error(""); tell("saved", res.data); emit("change", act); return "ok"; }
          if (table) { emit("change", "remote"); return "changed"; }
          self.error(Tablebot.errorText(res));
          return "error";
        });
      });
    };
    // Undo the table's last change (whoever made it): the tables API keeps every version.
    self.undo = function () {
      if (!self.table) return Promise.resolve(false);
      var t = self.table;
      self.saving++;
      return Tablebot.api("POST", "/api/tables/" + encodeURIComponent(t.id) + "/undo").then(function (res) {
        self.saving--;
        var table = res.ok ? res.data : (res.data && res.data.table);
        if (table) { t.version = table.version; t.state = table.state || {}; self.names = names(t.state); self.rb = fromTable(t.state); }
        if (!res.ok) self.error(Tablebot.errorText(res));
        else self.error("");
        carry();
        emit("change", "undo");
        return res.ok;
      });
    };
    var id = document.body.dataset.tableId;
    if (id && window.Tablebot) {
      var t = (self.table = Tablebot.table(id));
      Tablebot.tableStatus(t);
      self.loading = t.load().then(function (state) {
        self.names = names(state);
        self.rb = fromTable(state);
        emit("change", null);
      }).catch(function () { /* the status line says why */ });
      // follow the other phones at the table
      setInterval(function () {
        if (document.visibilityState !== "visible" || self.saving || t.version === null) return;
        Tablebot.api("GET", "/api/tables/" + encodeURIComponent(id)).then(function (res) {
          if (!res.ok || res.data.version === t.version || self.saving) return;
          t.version = res.data.version; t.state = res.data.state || {};
          self.names = names(t.state);
          self.rb = fromTable(t.state);
          emit("change", "remote");
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
      if (k === "state_json" || (typeof File !== "undefined" && v instanceof File)) return;
      if (k.slice(-2) === "[]") { k = k.slice(0, -2); (act[k] = act[k] || []).push(v); return; }
      var parts = k.split(".");
      if (parts.length === 1) { act[k] = v; return; }
      var head = (act[parts[0]] = isObj(act[parts[0]]) ? act[parts[0]] : {});
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

  RB.faceText = function (face) {
    return RB.meta().faces[face] || face;
  };
  RB.fraction = function (p) { return p && p.exact !== undefined ? p.exact : String(p); };
})();
