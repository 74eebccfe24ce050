// Robotariat board page: pick a piece, tap a space; tracks and players save as they change; the
// NPC forecast, look-ahead heat map and suggestions follow the table (robotariat_forecast.js).
(function () {
  "use strict";
  var store = window.RB && RB.start("play");
  if (!store) return;
  var meta = RB.meta();
  var svg = document.getElementById("rb-board");
  var chips = document.getElementById("rb-chips");
  var hint = document.getElementById("rb-hint");
  var picked = null; // "p0", "o1", "c0", "entry", "npc" (next from the track), "poster+", "poster-"
  var overlay = null; // {heat: {sid: p}, label} from the look-ahead
  var tracksPending = false; // a track changed here and not saved yet
  document.getElementById("rb-pieces").hidden = false;

  function spaceName(sid) {
    var s = store.rb.board.spaces.filter(function (x) { return x.id === sid; })[0];
    return s ? s.name : "?";
  }

  function glyph(kind) {
    var g = RB.svgEl("svg", { viewBox: "0 0 16 16", "aria-hidden": "true" });
    if (kind === "oppressor") RB.svgEl("rect", { "class": "pc oppressor", x: 2, y: 2, width: 12, height: 12, rx: 2 }, g);
    else if (kind === "civilian") RB.svgEl("circle", { "class": "pc civilian", cx: 8, cy: 8, r: 6.5 }, g);
    else if (kind === "poster") RB.svgEl("rect", { "class": "pc poster", x: 3, y: 2, width: 10, height: 12, rx: 1 }, g);
    else if (kind === "entry") RB.svgEl("path", { "class": "pc entry", d: "M1,14 L8,1.5 L15,14 z" }, g);
    else { RB.svgEl("circle", { "class": "pc player", cx: 8, cy: 8, r: 7 }, g); }
    return g;
  }

  function chip(key, label, kind, title) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "rb-chip";
    b.dataset.piece = key;
    b.setAttribute("aria-pressed", picked === key ? "true" : "false");
    if (title) b.title = title;
    b.appendChild(glyph(kind));
    b.appendChild(document.createTextNode(label));
    b.addEventListener("click", function () {
      picked = picked === key ? null : key;
      render();
    });
    return b;
  }

  function renderChips() {
    var st = store.rb.state;
    chips.textContent = "";
    st.players.forEach(function (p, i) {
      var ch = p.character ? " · " + meta.characters[p.character].short : "";
      chips.appendChild(chip("p" + i, (i + 1) + " " + p.name + ch, "player", p.name + " on " + spaceName(p.at)));
    });
    st.oppressors.forEach(function (sid, i) {
      chips.appendChild(chip("o" + i, "Oppressor " + (i + 1), "oppressor", "Human Oppressor on " + spaceName(sid)));
    });
    st.civilians.forEach(function (sid, i) {
      chips.appendChild(chip("c" + i, "Civilian " + (i + 1), "civilian", "Civilian Robot on " + spaceName(sid)));
    });
    chips.appendChild(chip("entry", "Entry token", "entry", "NPC Entry token on " + spaceName(st.entry)));
    var next = store.answer.status.next_npc;
    if (next) chips.appendChild(chip("npc", "Place next NPC (" + next + ")", next, "Puts the next NPC of the entry track on the space you tap, without an encounter"));
    chips.appendChild(chip("poster+", "+ Poster", "poster", "Tap a space to put a poster there"));
    chips.appendChild(chip("poster-", "− Poster", "poster", "Tap a space to take a poster off"));
    if (picked && !chips.querySelector('[data-piece="' + picked + '"]')) picked = null;
  }

  function pickedText() {
    if (!picked) return "Pick a piece, then tap the space it is on.";
    var status = store.answer.status;
    if (picked === "poster+") return "Tap a space to put a poster on it (" + status.posters_left + " left in the supply).";
    if (picked === "poster-") return "Tap a space to take one of its posters off.";
    if (picked === "npc") return "Tap the space where the next NPC (" + status.next_npc + ") stands.";
    var b = chips.querySelector('[data-piece="' + picked + '"]');
    return "Tap the space to move " + (b ? b.textContent : "it") + " to.";
  }

  function currentSpace() {
    if (!picked) return null;
    var st = store.rb.state, m = /^([ocp])(\d+)$/.exec(picked);
    if (picked === "entry") return st.entry;
    if (!m) return null;
    var list = m[1] === "p" ? st.players.map(function (p) { return p.at; }) : st[m[1] === "o" ? "oppressors" : "civilians"];
    return list[Number(m[2])];
  }

  function render() {
    var rb = store.rb, st = rb.state, status = store.answer.status;
    renderChips();
    hint.textContent = pickedText();
    var view = RB.clone(store.answer.view);
    view.spaces.forEach(function (s) { s.heat = overlay && s.id in overlay.heat ? overlay.heat[s.id] : null; });
    RB.draw(svg, view, { interactive: true, picked: currentSpace(), hint: picked ? "Tap to place the picked piece here" : "" });
    var vals = [[status.round, "/" + status.rounds], [status.funds, "/" + status.target], [status.reputation, ""],
                [status.office, ""], [status.junk, ""]];
    document.getElementById("rb-status").querySelectorAll("li").forEach(function (li, i) {
      var strong = li.querySelector("strong");
      strong.textContent = vals[i][0];
      if (strong.nextSibling) strong.nextSibling.textContent = vals[i][1];
    });
    ["funds", "reputation", "office", "junk", "round"].forEach(function (k) {
      var input = document.getElementById("f-" + k);
      // a stepper tap not saved yet (debounced) must not be undone by a redraw meanwhile
      if (input && document.activeElement !== input && !tracksPending) input.value = st[k];
    });
    document.getElementById("entry-line").textContent = "NPC entry track: " + status.entered + " of " + status.track +
      " NPCs entered" + (status.next_npc ? "; next: " + status.next_npc : "; this is the last round") + ". Posters: " +
      status.posters_on_board + " on the board, " + status.junk + " in the junk pile, " + status.posters_left + " in the supply.";
    var active = document.getElementById("active-seat");
    if (active && document.activeElement !== active) active.value = String(st.active);
    document.querySelectorAll(".rb-seat").forEach(function (f) {
      var sel = f.querySelector("select");
      if (document.activeElement !== sel) sel.value = st.players[Number(f.dataset.seat)].character || "";
    });
    var ex = document.getElementById("example-notice");
    if (ex) ex.hidden = !rb.example && rb.board.spaces.length > 0;
    document.dispatchEvent(new CustomEvent("rb:change", { detail: store }));
  }

  RB.onTap(svg, function (sid) {
    if (!picked) {
      var here = store.rb.state.players.map(function (p, i) { return p.at === sid ? i : -1; }).filter(function (i) { return i >= 0; });
      hint.textContent = spaceName(sid) + ": pick a piece first, then tap here to put it on this space.";
      if (here.length) hint.textContent += " (Here: player " + here.map(function (i) { return i + 1; }).join(", ") + ".)";
      return;
    }
    var act;
    if (picked === "poster+" || picked === "poster-") act = { "do": "poster", at: sid, delta: picked === "poster+" ? 1 : -1 };
    else if (picked === "npc") act = { "do": "place_npc", to: sid };
    else act = { "do": "move", piece: picked, to: sid };
    // a poster chip stays picked for the next tap; a moved piece is put down at once (and picked again
    // when the server refuses the move)
    var was = picked;
    if (picked !== "poster+" && picked !== "poster-") picked = null;
    store.do(act, { preview: true }).then(function (ok) {
      if (!ok && picked === null) { picked = was; render(); }
    });
  });

  // forms: the same actions, applied here and saved with the table
  var formAction = RB.formAction;
  document.querySelectorAll("form.rb-form, #setup-form").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      if (form.id === "setup-form" && !window.confirm("Start a new game on this board? Pieces and tracks go back to the start.")) return;
      store.do(formAction(form, e.submitter));
    });
  });
  var tracks = document.getElementById("tracks-form");
  var saveTracks = Tablebot.debounce(function () { tracksPending = false; store.do(formAction(tracks)); }, 400);
  tracks.addEventListener("input", function () { tracksPending = true; saveTracks(); });
  document.getElementById("active-seat").addEventListener("change", function () {
    store.do({ "do": "active", seat: this.value });
  });
  document.querySelectorAll(".rb-seat select").forEach(function (sel) {
    sel.addEventListener("change", function () {
      store.do({ "do": "player", seat: sel.closest("form").dataset.seat, character: sel.value });
    });
  });

  var undo = document.getElementById("undo");
  if (undo && store.table) {
    undo.hidden = false;
    undo.addEventListener("click", function () {
      undo.disabled = true;
      store.undo().then(function () { undo.disabled = false; });
    });
  }
  store.on(function () { render(); });
  RB.play = {
    store: store,
    setOverlay: function (o) { overlay = o; render(); },
    render: render
  };
  render();
})();
