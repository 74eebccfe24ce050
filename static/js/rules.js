// Rules pages: answers while you type (the forms also work on submit without JS), copy a rule's
// link, open the section a link points to. Everything is built with textContent: no HTML injection.
(function () {
  "use strict";
  var KIND = { important: "Important", example: "Worked example", clarification: "Clarification",
    card: "Card", inventor: "Inventor", character: "Character", objective: "Secret objective",
    icon: "Icon", reading: "How Tablebot reads this", fact: "Fact" };
  var GAME = { "raising-robots": "Raising Robots: Friends", "robotariat": "Rise of the Robotariat",
    "two-robots": "Two Robots" };

  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  }
  function short(text, n) {
    text = text.replace(/\s+/g, " ");
    return text.length > n ? text.slice(0, n - 1).replace(/\s+\S*$/, "") + "…" : text;
  }
  function badge(cls, text) { var b = el("span", "badge " + cls, text); return b; }

  function hit(e, showGame) {
    var li = el("li", "rule-hit");
    var a = el("a", "card");
    a.href = "/rules/" + encodeURIComponent(e.id);
    a.appendChild(el("span", "rule-hit-title", e.title));
    a.appendChild(el("span", "rule-hit-meta small muted", (showGame ? (GAME[e.game] || e.game) + " · " : "") + "§ " + e.section));
    if (KIND[e.kind]) a.appendChild(badge("kind-" + e.kind, KIND[e.kind]));
    if (e.source === "unverified") a.appendChild(badge("unverified", "unverified"));
    else if (e.source === "public") a.appendChild(badge("public", "public source"));
    else if (e.source === "tablebot" && e.kind !== "reading") a.appendChild(badge("tablebot", "our reading"));
    a.appendChild(el("span", "rule-hit-text small", short(e.text, 170)));
    li.appendChild(a);
    return li;
  }

  function searchUrl(q, game, limit) {
    var u = "/api/rules/search?q=" + encodeURIComponent(q) + "&limit=" + (limit || 10);
    if (game) u += "&game=" + encodeURIComponent(game);
    return u;
  }

  // ---- the search forms on /rules and on a rulebook's contents page ----
  function initLive(form) {
    var input = form.querySelector("input[name=q]");
    var gameField = form.querySelector("[name=game]");
    var list = document.getElementById("rules-results");
    var status = document.getElementById("rules-status");
    if (!input || !list || !status) return;
    var onSearchPage = location.pathname === "/rules";
    var seq = 0;
    function run() {
      var q = input.value.trim();
      var game = gameField ? gameField.value : "";
      var mine = ++seq;
      if (onSearchPage) {
        var params = new URLSearchParams();
        if (q) params.set("q", q);
        if (game) params.set("game", game);
        history.replaceState(null, "", "/rules" + (params.toString() ? "?" + params : ""));
      }
      if (!q) { list.textContent = ""; status.textContent = ""; return; }
      window.Tablebot.api("GET", searchUrl(q, game)).then(function (res) {
        if (mine !== seq) return; // a newer question is on its way
        list.textContent = "";
        if (!res.ok) {
          status.textContent = res.status === 0
            ? "Offline: search needs the connection. Rules you opened before still open from their links."
            : window.Tablebot.errorText(res);
          return;
        }
        var results = res.data.results;
        results.forEach(function (e) { list.appendChild(hit(e, !game)); });
        status.textContent = results.length
          ? results.length + " best match" + (results.length === 1 ? "" : "es") + " for “" + q + "”."
          : "Nothing found for “" + q + "”. Try other words, or browse a rulebook.";
      });
    }
    var later = window.Tablebot.debounce(run, 160);
    input.addEventListener("input", later);
    if (gameField && gameField.tagName === "SELECT") gameField.addEventListener("change", run);
  }

  // ---- suggestions under the header search box, on pages that load this script ----
  function initHeader() {
    var input = document.getElementById("q-top");
    if (!input || document.getElementById("rules-q")) return;
    var form = input.form;
    var box = el("ul", "rules-suggest");
    box.id = "rules-suggest";
    box.hidden = true;
    form.parentNode.appendChild(box);
    var seq = 0;
    var later = window.Tablebot.debounce(function () {
      var q = input.value.trim();
      var mine = ++seq;
      if (q.length < 2) { box.hidden = true; return; }
      window.Tablebot.api("GET", searchUrl(q, "", 5)).then(function (res) {
        if (mine !== seq || !res.ok) return;
        box.textContent = "";
        res.data.results.forEach(function (e) {
          var li = el("li"), a = el("a", "", e.title);
          a.href = "/rules/" + encodeURIComponent(e.id);
          a.appendChild(el("span", "small", (GAME[e.game] || e.game) + " · § " + e.section));
          li.appendChild(a);
          box.appendChild(li);
        });
        box.hidden = !res.data.results.length;
      });
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
    for (var n = target; n; n = n.parentElement) if (n.tagName === "DETAILS") n.open = true;
    target.scrollIntoView();
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
