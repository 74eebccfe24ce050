// Raising Robots pages: input widgets only. The server renders every answer (tablebot.js sends the
// forms and swaps the answer in); here a picker that switches what the page shows (whose seat) goes at
// once, and the buttons only a page without scripts needs are hidden.
(function () {
  "use strict";
  document.documentElement.classList.add("rr-js");
  document.addEventListener("change", function (e) {
    var form = e.target.form;
    if (form && form.hasAttribute("data-go")) form.submit();
  });
  // A fold (details) the player opened or closed stays so when the server's rendering is swapped in
  // (after a save, or when another phone's change arrives): the swap takes the server's attributes.
  var folds = {};
  function foldKey(d) { return d.id ? "#" + d.id : (d.getAttribute("data-key") ? "k" + d.getAttribute("data-key") : ""); }
  document.addEventListener("click", function (e) {  // the player's toggles only, not the swap's
    var s = e.target.closest ? e.target.closest("summary") : null, d = s && s.parentElement;
    var k = d && d.nodeName === "DETAILS" && foldKey(d);
    if (k) folds[k] = !d.open;  // the click is about to toggle it
    var name = d && d.getAttribute("data-open-field");
    var field = name && d.querySelector('input[name="' + name + '"]');
    if (field) field.value = d.open ? "" : "1";  // and the server keeps it so in its next rendering
  });
  // Closing a fold blurs the field typed in inside it: the field gets its focus back once it is reopened.
  var typing = null;
  document.addEventListener("focusin", function (e) { typing = e.target; });
  document.addEventListener("tablebot:swapped", function () {
    document.querySelectorAll("details").forEach(function (d) {
      var k = foldKey(d);
      if (k && folds[k] !== undefined && d.open !== folds[k]) d.open = folds[k];
    });
    if (typing && typing.isConnected && document.activeElement !== typing && typing.focus) typing.focus();
  });
})();

// A link to another page of the table sends what was typed here first (the next page reads the table).
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var a = e.target.closest ? e.target.closest(".rr-other a") : null;
    var form = document.querySelector("form[data-autosave]");
    if (!a || !form || !window.Tablebot || !window.Tablebot.submit || e.defaultPrevented || e.button !== 0 ||
        e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    var go = function () { window.location.href = a.href; };
    window.Tablebot.submit(form).then(go, go);
  });
})();

// The Search grid as tap targets: a tap marks the card wanted, adds or removes one unseen card, or adds it
// to the cards a search turned over, by setting the cell's own fields (the form sends them). The tap mode
// is this phone's: a swap of the server's rendering (which shows the default) must not reset it.
(function () {
  "use strict";
  var tapMode = "wanted";
  document.addEventListener("change", function (e) {
    if (e.target.name === "_mode" && e.target.checked) tapMode = e.target.value;
  });
  document.addEventListener("tablebot:swapped", function () {
    var radio = document.querySelector('input[name=_mode][value="' + tapMode + '"]');
    if (radio && !radio.checked) radio.checked = true;
  });
  document.addEventListener("click", function (e) {
    var b = e.target.closest ? e.target.closest("button[data-tap]") : null;
    if (!b) return;
    var td = b.closest("td"), form = b.form, key = td.getAttribute("data-key");
    var mode = tapMode;
    var cell = "search.cells." + key;
    var count = form.querySelector('input[name="' + cell + '.count"]');
    var want = form.querySelector('input[type=checkbox][name="' + cell + '.wanted"]'), field;
    if (mode === "reveal") {
      field = form.elements._revealed;
      field.value = (field.value.trim() ? field.value.trim() + " " : "") + b.getAttribute("data-tap");
    } else if (mode === "wanted") {
      field = want;
      want.checked = !want.checked;
    } else {
      field = count;
      var n = Math.max(0, Math.min(99, (parseInt(count.value, 10) || 0) + (mode === "add" ? 1 : -1)));
      count.value = String(n);
      b.firstChild.nodeValue = String(n);  // shown at once; the server's rendering follows
    }
    field.dispatchEvent(new Event("input", { bubbles: true }));
    field.dispatchEvent(new Event("change", { bubbles: true }));
  });
})();
