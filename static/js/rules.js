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

  function searchUrl(q, prefer, limit) {
    var u = "/api/rules/search?q=" + encodeURIComponent(q) + "&limit=" + (limit || 10);
    if (prefer) u += "&prefer=" + encodeURIComponent(prefer);
    return u;
  }

  // The reply read the way the search page reads it (templates/rules/search.html): the answers, the
  // game they are for, and the nearest sections when the rulebooks do not answer.
  function readReply(data, n) {
    var answers = data.results.filter(function (e) { return e.answers; });
    var here = data.prefer ? answers.filter(function (e) { return e.game === data.prefer; }) : answers;
    var seen = {}, related = [];
    data.results.forEach(function (e) {
      var key = e.game + " " + e.section_id;
      if (e.answers || seen[key] || related.length >= n) return;
      seen[key] = true;
      related.push(e);
    });
    var where = data.prefer ? "the " + (GAME[data.prefer] || data.prefer) + " rulebook" : "the rulebooks";
    return { answers: answers, here: here.length > 0, related: related, where: where };
  }

  function relatedItem(e, prefer) {
    var li = el("li"), a = el("a", "", "§ " + e.section);
    a.href = "/rules/" + encodeURIComponent(e.id);
    li.appendChild(a);
    li.appendChild(document.createTextNode(" "));
    li.appendChild(el("span", "small muted", (e.game !== prefer ? (GAME[e.game] || e.game) + " · " : "") + e.title));
    return li;
  }

  // ---- the search forms on /rules and on a rulebook's contents page ----
  function initLive(form) {
    var input = form.querySelector("input[name=q]");
    var gameField = form.querySelector("[name=game]");
    var list = document.getElementById("rules-results");
    var status = document.getElementById("rules-status");
    if (!input || !list || !status) return;
    var box = document.getElementById("rules-answer") || list.parentNode;
    var onSearchPage = location.pathname === "/rules";
    var seq = 0;
    function relatedList() {
      var h = document.getElementById("rules-related-h"), ul = document.getElementById("rules-related");
      if (!h) { h = el("h2", "rules-related-h"); h.id = "rules-related-h"; box.appendChild(h); }
      if (!ul) { ul = el("ul", "rule-list rules-related"); ul.id = "rules-related"; box.appendChild(ul); }
      return { h: h, ul: ul };
    }
    function say(text, notCovered) {
      status.textContent = "";
      status.className = notCovered ? "notice rules-not-covered" : "small muted";
      if (!notCovered) { status.textContent = text; return; }
      status.appendChild(el("strong", "", notCovered));
      status.appendChild(document.createTextNode(" " + text));
    }
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
      var rel = relatedList();
      if (!q) { list.textContent = ""; rel.h.textContent = ""; rel.ul.textContent = ""; say(""); return; }
      window.Tablebot.api("GET", searchUrl(q, game)).then(function (res) {
        if (mine !== seq) return; // a newer question is on its way
        list.textContent = "";
        rel.h.textContent = "";
        rel.ul.textContent = "";
        if (!res.ok) {
          say(res.status === 0
            ? "Offline: search needs the connection. Rules you opened before still open from their links."
            : window.Tablebot.errorText(res));
          return;
        }
        var data = res.data, reply = readReply(data, data.answered ? 3 : 5);
        var name = data.prefer ? GAME[data.prefer] || data.prefer : "";
        reply.answers.forEach(function (e) { list.appendChild(hit(e, e.game !== data.prefer)); });
        if (!data.answered) {
          say("None of the three rulebooks answers “" + q + "”: where the books are silent, agree on it at your table.",
              "Not in the rulebooks.");
        } else if (!reply.here) {
          say("Another game's rulebook covers “" + q + "”:", "Not in " + reply.where + ".");
        } else {
          var n = reply.answers.length;
          say(n + " best match" + (n === 1 ? "" : "es") + " for “" + q + "”" + (name ? ", " + name + " first" : "") + ".");
        }
        if (reply.related.length) {
          rel.h.textContent = data.answered ? "Related" : "Related sections (not an answer)";
          reply.related.forEach(function (e) { rel.ul.appendChild(relatedItem(e, data.prefer)); });
        }
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
    var prefer = form.getAttribute("data-game") || "";
    var box = el("ul", "rules-suggest");
    box.id = "rules-suggest";
    box.hidden = true;
    form.parentNode.appendChild(box);
    var seq = 0;
    function entry(e, label) {
      var li = el("li"), a = el("a", "", e.title);
      a.href = "/rules/" + encodeURIComponent(e.id);
      a.appendChild(el("span", "small", label));
      li.appendChild(a);
      return li;
    }
    var later = window.Tablebot.debounce(function () {
      var q = input.value.trim();
      var mine = ++seq;
      if (q.length < 2) { box.hidden = true; return; }
      window.Tablebot.api("GET", searchUrl(q, prefer, 10)).then(function (res) {
        if (mine !== seq || !res.ok) return;
        var data = res.data, reply = readReply(data, 3);
        box.textContent = "";
        if (!data.answered || !reply.here) {
          var note = el("li", "rules-suggest-note small");
          note.textContent = data.answered ? "Not in " + reply.where + "; another game's rulebook:"
            : "Not in the rulebooks. Related sections:";
          box.appendChild(note);
        }
        var shown = data.answered ? reply.answers.slice(0, 5) : reply.related;
        shown.forEach(function (e) {
          var label = (e.game !== data.prefer ? (GAME[e.game] || e.game) + " · " : "") + "§ " + e.section;
          box.appendChild(entry(e, label));
        });
        box.hidden = !data.results.length;
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
