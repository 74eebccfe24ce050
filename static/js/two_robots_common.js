// Shared by the Two Robots pages (loaded before two_robots.js and two_robots_odds.js): Tablebot.clampInt,
// and the one change a page saves with the table, `Tablebot.twoRobots.seatChange`, which touches only the
// seat and the fields the player changed, so that when another phone saved first (tablebot.js applies the
// change again on their state) their seat, and their fields of this seat, stay as they saved them.
(function () {
  "use strict";
  var T = window.Tablebot;

  // a whole number between lo and hi; `dflt` (or lo) when v is not a number
  if (!T.clampInt) {
    T.clampInt = function (v, lo, hi, dflt) {
      v = parseInt(v, 10);
      if (isNaN(v)) v = dflt === undefined ? lo : dflt;
      return Math.max(lo, Math.min(hi, v));
    };
  }

  var TR = T.twoRobots = {};
  TR.ENERGIES = ["chemical", "electrical", "mechanical", "nuclear", "solar"];

  TR.el = function (tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  };
  function isObject(x) { return !!x && typeof x === "object" && !Array.isArray(x); }
  TR.isObject = isObject;

  // The table's four part names as the server reads them (two_robots.py `_clean_names`), or null.
  TR.cleanNames = function (raw, defaults) {
    if (!Array.isArray(raw) || raw.length !== 4) return null;
    var ok = raw.every(function (x, i) {
      return typeof x === "string" && /^[a-z0-9_]{1,30}$/.test(x) && raw.indexOf(x) === i;
    });
    return ok && raw[0] === defaults[0] && raw[1] === defaults[1] ? raw.slice() : null;
  };

  function renamedSeat(seat, map) {
    if (!isObject(seat)) return seat;
    function card(c) {
      if (isObject(c) && typeof c.part === "string" && Object.prototype.hasOwnProperty.call(map, c.part)) c.part = map[c.part];
      return c;
    }
    if (Array.isArray(seat.stacks)) {
      seat.stacks.forEach(function (st) { if (isObject(st) && Array.isArray(st.cards)) st.cards.forEach(card); });
    }
    if (Array.isArray(seat.hand)) seat.hand.forEach(card);
    if (isObject(seat.unseen) && isObject(seat.unseen.parts)) {
      var parts = {};
      Object.keys(seat.unseen.parts).forEach(function (k) {
        var at = k.indexOf(":"), part = at < 0 ? k : k.slice(0, at);
        var key = Object.prototype.hasOwnProperty.call(map, part) ? map[part] + k.slice(part.length) : k;
        parts[key] = seat.unseen.parts[k];
      });
      seat.unseen.parts = parts;
    }
    return seat;
  }

  // The mutator for table.save: set `fields` (a copy is taken now) on seat `seatIndex` of `two_robots.players`;
  // with `rename` = {names, defaults}, the table's part names change, in every seat's cards too (a part name
  // is the table's, not one player's). `unseen: null` removes the seat's counts (back to the default deck).
  TR.seatChange = function (seatIndex, fields, rename) {
    var mine = JSON.parse(JSON.stringify(fields));
    return function (s) {
      var tr = isObject(s.two_robots) ? s.two_robots : {};
      var players = Array.isArray(tr.players) ? tr.players : [];
      if (rename) {
        var old = TR.cleanNames(tr.part_names, rename.defaults) || rename.defaults, map = {}, any = false;
        old.forEach(function (n, i) { if (n !== rename.names[i]) { map[n] = rename.names[i]; any = true; } });
        if (any) players = players.map(function (p) { return renamedSeat(p, map); });
        tr.part_names = rename.names.slice();
      }
      while (players.length <= seatIndex) players.push({});
      var seat = isObject(players[seatIndex]) ? players[seatIndex] : {};
      Object.keys(mine).forEach(function (k) {
        if (k === "unseen" && mine[k] === null) delete seat[k];
        else seat[k] = mine[k];
      });
      players[seatIndex] = seat;
      tr.players = players;
      s.two_robots = tr;
      return s;
    };
  };
})();
