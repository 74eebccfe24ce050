// Rules pages: answers while you type (the forms also work on submit without JS), copy a rule's link,
// open the section a link points to. The answers are HTML the server renders (/rules/answer,
// /rules/suggest, the same templates as the pages): this script only swaps them in.
(function () {
  "use strict";

  // The fragment for a question, or null when a newer question was asked meanwhile.
  var asked = 0;
  function fragment(path, q, game) {
    var mine = ++asked;
    var url = path + "?q=" + encodeURIComponent(q) + (game ? "&game=" + encodeURIComponent(game) : "");
    return fetch(url, { headers: { Accept: "text/html" }, credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("The server answered " + r.status + ".");
      return r.text();
    }).then(function (html) { return mine === asked ? html : null; });
  }

  // ---- the search forms on /rules and on a rulebook's contents page ----
  function initLive(form) {
    var input = form.querySelector("input[name=q]");
    var gameField = form.querySelector("[name=game]");
    var box = document.getElementById("rules-answer");
    if (!input || !box) return;
    var onSearchPage = location.pathname === "/rules";
    function run() {
      var q = input.value.trim();
      var game = gameField ? gameField.value : "";
      if (onSearchPage) {
        var params = new URLSearchParams();
        if (q) params.set("q", q);
        if (game) params.set("game", game);
        history.replaceState(null, "", "/rules" + (params.toString() ? "?" + params : ""));
      }
      fragment("/rules/answer", q, game).then(function (html) {
        if (html !== null) box.innerHTML = html;
      }, function (err) {
        var status = document.getElementById("rules-status");
        if (!status) return;
        status.className = "notice rules-not-covered";
        status.textContent = navigator.onLine === false
          ? "Offline: search needs the connection. Rules you opened before still open from their links."
          : err.message;
      });
    }
    var later = window.Tablebot.debounce(run, 160);
    input.addEventListener("input", later);
    if (gameField && gameField.tagName === "SELECT") gameField.addEventListener("change", run);
  }

  // ---- suggestions under the header search box, on pages that load this script ----
  // The box passes the game of the page it is on (data-game): that game's entries come first.
  function initHeader() {
    var input = document.getElementById("q-top");
    if (!input || document.getElementById("rules-q")) return;
    var form = input.form;
    var game = form.getAttribute("data-game") || "";
    var box = document.createElement("ul");
    box.className = "rules-suggest";
    box.id = "rules-suggest";
    box.hidden = true;
    form.parentNode.appendChild(box);
    var later = window.Tablebot.debounce(function () {
      var q = input.value.trim();
      if (q.length < 2) { asked++; box.hidden = true; return; }
      fragment("/rules/suggest", q, game).then(function (html) {
        if (html === null) return;
        box.innerHTML = html;
        box.hidden = !box.children.length;
      }, function () { box.hidden = true; });
    }, 160);
    input.addEventListener("input", later);
    input.addEventListener("keydown", function (ev) { if (ev.key === "Escape") box.hidden = true; });
    document.addEventListener("click", function (ev) { if (!box.contains(ev.target) && ev.target !== input) box.hidden = true; });
  }

  // ---- copy the permalink ----
  function initCopy() {
    document.querySelectorAll("[data-copy]").forEach(function (b) {
      var field = document.querySelector(b.getAttribute("data-copy"));
      if (!field || !navigator.clipboard) return;
      b.hidden = false;
      b.addEventListener("click", function () {
        navigator.clipboard.writeText(field.value).then(function () {
          b.textContent = "Copied";
          setTimeout(function () { b.textContent = "Copy"; }, 1500);
        }, function () { field.select(); });
      });
    });
  }

  // ---- contents: open the section or entry the address points at ----
  function openHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) return;
    var opened = false;
    for (var n = target; n; n = n.parentElement) if (n.tagName === "DETAILS" && !n.open) { n.open = true; opened = true; }
    // the browser has scrolled to a target in view by itself: asking again lays the page out before it is shown
    if (opened) target.scrollIntoView();
  }

  function init() {
    document.querySelectorAll("form[data-live-search]").forEach(initLive);
    initHeader();
    initCopy();
    openHash();
    window.addEventListener("hashchange", openHash);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
