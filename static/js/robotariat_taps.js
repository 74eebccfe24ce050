// Robotariat board editor: taps on the drawing fill the tap form's fields and submit it (the server
// applies the action and renders the page; tablebot.js swaps it in). This keeps only what a tap picks:
// the mode (the form's _mode radios, with their hints in data- attributes) and the first space tapped.
(function () {
  "use strict";
  var picked = null;
  var FIELDS = ["do", "a", "b", "from", "to", "colour", "id", "x", "y"];
  document.documentElement.classList.add("rb-js");

  function form() { return document.getElementById("rb-tap-form"); }
  function modeInput() { var f = form(); return f && f.querySelector("input[name=_mode]:checked"); }
  function mode() { var r = modeInput(); return r ? r.value : "add"; }
  function spaceEl(sid) { return document.querySelector('#rb-board-live .space[data-id="' + sid + '"]'); }

  function send(values) {
    var f = form();
    FIELDS.forEach(function (k) { f.elements[k].value = values[k] === undefined ? "" : values[k]; });
    f.requestSubmit();
  }

  // the picked space ringed, the hint for the mode, and the empty places shown where a tap can use them
  function show() {
    var box = document.getElementById("rb-board-live"), hint = document.getElementById("rb-hint"), r = modeInput();
    if (!box || !r) return;
    document.querySelectorAll("#rb-board-live .space.picked").forEach(function (g) { g.classList.remove("picked"); });
    var g = picked && spaceEl(picked);
    if (g) g.classList.add("picked"); else picked = null;
    box.setAttribute("data-mode", r.value + (picked ? "-picked" : ""));
    var name = g ? g.querySelector(".name").textContent : "";
    hint.textContent = picked && r.dataset.picked ? r.dataset.picked.split("{name}").join(name) : r.dataset.hint;
  }

  function tap(el) {
    var m = mode();
    if (el.classList.contains("slot")) {
      if (m === "add") send({ "do": "add_space", x: el.dataset.x, y: el.dataset.y });
      else if (m === "move" && picked) { send({ "do": "move_space", id: picked, x: el.dataset.x, y: el.dataset.y }); picked = null; }
      return show();
    }
    var sid = el.dataset.id;
    if (m === "edit") {
      var d = document.getElementById("space-" + sid);
      if (d) { d.open = true; d.scrollIntoView({ block: "center" }); d.querySelector("input[name=name]").focus({ preventScroll: true }); }
      return;
    }
    if (m === "add") return;
    if (!picked || picked === sid) { picked = picked ? null : sid; return show(); }
    if (m === "move") { send({ "do": "move_space", id: picked, x: el.dataset.x, y: el.dataset.y }); picked = null; }
    else if (m === "link") { send({ "do": "toggle_link", a: picked, b: sid }); picked = sid; }
    else { send({ "do": "path", colour: m, from: picked, to: sid }); picked = sid; }  // carry on along the path
    show();
  }

  function target(e) {
    return e.target.closest ? e.target.closest("#rb-board-live[data-taps] .space, #rb-board-live[data-taps] .slot") : null;
  }
  document.addEventListener("click", function (e) { var el = target(e); if (el) tap(el); });
  document.addEventListener("keydown", function (e) {
    var el = (e.key === "Enter" || e.key === " ") && target(e);
    if (el) { e.preventDefault(); tap(el); }
  });
  document.addEventListener("change", function (e) { if (e.target.name === "_mode") { picked = null; show(); } });
  document.addEventListener("tablebot:swapped", show);
  document.addEventListener("DOMContentLoaded", show);
})();
