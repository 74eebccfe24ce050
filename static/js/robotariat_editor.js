// Robotariat board editor: tap to add spaces, draw black lines and the yellow and blue paths, move,
// rename and delete spaces; every change is saved with the table, and the server's answer brings the
// board check (the API's board/validate) with it.
(function () {
  "use strict";
  var store = window.RB && RB.start("editor");
  if (!store) return;
  var G = RB.geometry;
  var svg = document.getElementById("rb-board");
  var hint = document.getElementById("rb-hint");
  var modes = document.getElementById("rb-modes");
  var addOpts = document.getElementById("rb-add-opts");
  var editBox = document.getElementById("rb-edit-box");
  var mode = "add";
  var picked = null;  // the space a line, path or move starts from; the space being edited
  document.getElementById("rb-tools").hidden = false;

  var HINTS = {
    add: "Tap an empty place (+) to add a space of the kind chosen above.",
    link: "Tap a space, then a neighbour: adds the black line between them (or removes it). Keep tapping to draw a chain.",
    yellow: "Tap a space, then the space its yellow arrow leads to. Keep tapping to follow the yellow path.",
    blue: "Tap a space, then the space its blue arrow leads to. Keep tapping to follow the blue path.",
    move: "Tap a space, then an empty place (+) or another space to swap them.",
    edit: "Tap a space to rename it, change its kind or delete it."
  };

  function space(sid) { return store.rb.board.spaces.filter(function (s) { return s.id === sid; })[0]; }
  function nameOf(sid) { var s = space(sid); return s ? s.name + " (" + sid + ")" : sid; }

  function setHint() {
    var t = HINTS[mode];
    if (picked && (mode === "link" || mode === "yellow" || mode === "blue")) t = "From " + nameOf(picked) + ": tap the next space (tap it again to stop).";
    if (picked && mode === "move") t = "Moving " + nameOf(picked) + ": tap an empty place (+) or a space to swap with.";
    hint.textContent = t;
  }

  function render() {
    var rb = store.rb, answer = store.answer;
    var showSlots = mode === "add" || (mode === "move" && picked);
    var slots = showSlots ? answer.slots : [];
    var targets = {};
    if (picked && mode !== "edit") rb.board.spaces.forEach(function (s) { if (s.id !== picked) targets[s.id] = true; });
    RB.draw(svg, answer.view, { interactive: true, picked: picked, targets: mode === "move" ? targets : null,
                                height: showSlots ? answer.slots_height : null });
    var layer = RB.svgEl("g", { "class": "slots" }, svg);
    slots.forEach(function (c) {
      var g = RB.svgEl("g", { "class": "slot", "data-x": c.x, "data-y": c.y, role: "button", tabindex: "0",
                              "aria-label": (mode === "add" ? "Add a space here" : "Move the space here") + " (column " + (c.col + 1) + ", row " + (c.row + 1) + ")",
                              transform: "translate(" + c.left + "," + c.top + ")" }, layer);
      RB.svgEl("rect", { width: G.BOX_W, height: G.BOX_H, rx: 9 }, g);
      RB.svgEl("text", { x: G.BOX_W / 2, y: G.BOX_H / 2 + 8 }, g).textContent = "+";
    });
    addOpts.hidden = mode !== "add";
    modes.querySelectorAll("[data-mode]").forEach(function (b) { b.setAttribute("aria-pressed", b.dataset.mode === mode ? "true" : "false"); });
    editBox.hidden = !(mode === "edit" && picked && space(picked));
    if (!editBox.hidden) {
      var s = space(picked);
      document.getElementById("rb-edit-h").textContent = s.name + " (" + s.id + ")";
      if (document.activeElement !== document.getElementById("edit-name")) document.getElementById("edit-name").value = s.name;
      document.getElementById("edit-kind").value = s.kind;
    }
    var ex = document.getElementById("example-notice");
    if (ex) ex.hidden = !rb.example;
    setHint();
  }

  modes.addEventListener("click", function (e) {
    var b = e.target.closest("[data-mode]");
    if (!b) return;
    mode = b.dataset.mode;
    picked = null;
    render();
  });

  function slotTapped(slot) {
    var xy = [Number(slot.dataset.x), Number(slot.dataset.y)];
    if (mode === "add") {
      var name = document.getElementById("add-name");
      store.do({ "do": "add_space", kind: document.getElementById("add-kind").value, name: name.value, x: xy[0], y: xy[1] });
      name.value = "";
    } else if (mode === "move" && picked) {
      store.do({ "do": "move_space", id: picked, x: xy[0], y: xy[1] });
      picked = null;
    }
  }

  function spaceTapped(sid) {
    if (mode === "add") { hint.textContent = "That place is taken by " + nameOf(sid) + ": tap a + to add a space."; return; }
    if (mode === "edit") { picked = sid; render(); document.getElementById("edit-name").focus({ preventScroll: true }); return; }
    if (!picked) { picked = sid; render(); return; }
    if (picked === sid) { picked = null; render(); return; }
    var from = picked;
    if (mode === "move") {
      store.do({ "do": "move_space", id: from, x: store.rb.layout[sid][0], y: store.rb.layout[sid][1] });
      picked = null;
      return;
    }
    var act = mode === "link" ? { "do": "toggle_link", a: from, b: sid } : { "do": "path", colour: mode, from: from, to: sid };
    picked = sid;  // carry on from here: a chain of lines, or the path onwards
    store.do(act).then(function (ok) { if (!ok) { picked = from; render(); } });
  }

  svg.addEventListener("click", function (e) {
    var slot = e.target.closest(".slot");
    if (slot) { slotTapped(slot); return; }
    var g = e.target.closest(".space");
    if (g) spaceTapped(g.getAttribute("data-id"));
  });
  svg.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" && e.key !== " ") return;
    var slot = e.target.closest(".slot"), g = e.target.closest(".space");
    if (slot) { e.preventDefault(); slotTapped(slot); }
    else if (g) { e.preventDefault(); spaceTapped(g.getAttribute("data-id")); }
  });

  document.getElementById("edit-save").addEventListener("click", function () {
    if (!picked) return;
    store.do({ "do": "edit_space", id: picked, name: document.getElementById("edit-name").value, kind: document.getElementById("edit-kind").value });
  });
  document.getElementById("edit-delete").addEventListener("click", function () {
    if (!picked || !window.confirm("Delete " + nameOf(picked) + " with its lines and path steps?")) return;
    var sid = picked;
    picked = null;
    store.do({ "do": "delete_space", id: sid });
  });

  // the list forms and import: the same actions, applied here
  var formAction = RB.formAction;
  document.querySelectorAll("form.rb-form").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var act = formAction(form, e.submitter);
      if (act.do === "clear" && !window.confirm("Remove every space of this board?")) return;
      if (act.do === "example" && !window.confirm("Replace this board with the example board?")) return;
      if (act.do !== "import") { store.do(act); return; }
      var file = document.getElementById("import-file").files[0];
      var read = file ? file.text() : Promise.resolve(act.board_text || "");
      read.then(function (textIn) {
        var parsed;
        if (!textIn.trim()) { store.error("paste the board's JSON or pick a file (board_text)"); return; }
        try { parsed = JSON.parse(textIn); } catch (err) { store.error("this is not valid JSON (board_text)"); return; }
        store.do({ "do": "import", board: parsed }).then(function (ok) {
          if (ok) { form.reset(); hint.textContent = "Imported: check the result below."; }
        });
      });
    });
  });

  // the board check, as the server answered it with the board
  var checkBox = document.getElementById("rb-check");
  function showCheck(d, error) {
    checkBox.textContent = "";
    function p(cls, textIn, id) {
      var e = document.createElement("p");
      e.className = cls; e.textContent = textIn;
      if (id) e.id = id;
      checkBox.appendChild(e);
      return e;
    }
    if (!d) { p("notice error", error || "", "check-bad"); return; }
    if (d.ok) p("notice ok", "The board is complete: the NPC forecast and suggestions can use it.", "check-ok");
    else p("notice error", d.errors.length + " thing" + (d.errors.length !== 1 ? "s" : "") + " to fix before the forecast can use this board:", "check-bad");
    list(d.errors, "rb-problems");
    if (d.warnings.length) { p("small", "Worth a look:").style.fontWeight = "700"; list(d.warnings, "rb-problems small", true); }
    if (d.summary) {
      p("small muted", d.summary.spaces + " spaces, " + d.summary.links + " black lines; an NPC keeping to the yellow path circles " +
        d.summary.yellow_loops.length + " loop" + (d.summary.yellow_loops.length !== 1 ? "s" : "") + ", on the blue path " + d.summary.blue_loops.length + ".");
    }
    var links = RB.ruleLinks(d.rules);
    if (links) checkBox.appendChild(links);
    function list(items, cls, noPath) {
      if (!items.length) return;
      var ul = document.createElement("ul");
      ul.className = cls;
      items.forEach(function (it) {
        var li = document.createElement("li");
        li.textContent = it.message;
        if (!noPath && it.path) {
          var s = document.createElement("span");
          s.className = "muted small";
          s.textContent = " (" + it.path + ")";
          li.appendChild(s);
        }
        ul.appendChild(li);
      });
      checkBox.appendChild(ul);
    }
  }

  store.on(function () { render(); showCheck(store.answer.check, store.answer.check_error); });
  render();
})();
