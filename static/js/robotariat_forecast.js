// Robotariat board page, the solvers' part: the NPC turn forecast (POST /api/robotariat/npc-turn), the
// suggestions for the active player (/suggest), the k-turn look-ahead and its heat map (/lookahead)
// and the round-start entry (/round-start), fetched again whenever the table changes. The markup is the
// one templates/robotariat/_forecast.html renders without JS.
// Applying an answer ("We rolled this", "Do this", "place it") posts the action with the table's version
// the answer was worked out for (RB.store().apply); the server applies it only on that version: when
// another phone changed the table meanwhile, nothing is applied, the section says so and shows the
// answers for the table as it is now.
(function () {
  "use strict";
  if (!window.RB || !RB.play) return;
  var store = RB.play.store;
  var meta = RB.meta();
  var last = { key: null, lookKey: null };
  var lookForm = document.getElementById("look-form");
  var showHeat = document.getElementById("show-heat");

  var h = RB.h, ruleLinks = RB.ruleLinks, readings = RB.readings;
  function pct(p) { return h("span", { cls: "num", title: "exactly " + p.exact, text: (100 * p.approx).toFixed(1) + " %" }); }
  function signedText(p) { return p.exact === "0" ? "0" : (p.approx > 0 ? "+" : "") + p.approx.toFixed(2); }
  function signed(p) { return h("span", { cls: "num", title: "exactly " + p.exact, text: signedText(p) }); }
  function sint(n) { return (n > 0 ? "+" : "") + n; }
  function face(f) { return h("b", { cls: f.indexOf("yellow") === 0 ? "y" : "b", text: meta.faces[f] || f }); }
  function warn(id, msg) { return h("p", { cls: "notice warn", id: id, text: msg }); }
  function fill(id, nodes) {
    var box = document.getElementById(id);
    box.textContent = "";
    (Array.isArray(nodes) ? nodes : [nodes]).forEach(function (n) { if (n) box.appendChild(n); });
  }
  function spaceName(sid) {
    var s = store.rb.board.spaces.filter(function (x) { return x.id === sid; })[0];
    return s ? s.name : sid;
  }
  function ordinal(n) {
    var s = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
    return n + s;
  }

  // ---- the NPC turn ----
  function npc(f, version) {
    var rows = [
      ["SPARK change (expected)", signed(f.expected.funds_delta)],
      ["Reputation change (expected)", signed(f.expected.reputation_delta)],
      ["Office Contributions change", signed(f.expected.office_delta)],
      ["Posters to the junk pile", signed(f.expected.posters_junked)],
      ["Chance Reputation is lost", pct(f.p_reputation_loss)],
      ["Chance of a fine", pct(f.p_fine)]
    ];
    if (f.p_success.exact !== "0") rows.push(["Chance the Revolution succeeds", pct(f.p_success)]);
    if (f.p_failure.exact !== "0") rows.push(["Chance the Revolution fails", pct(f.p_failure)]);
    var out = [h("p", { cls: "why", id: "npc-why", text: f.why }),
      h("table", { cls: "data rb-expect" }, h("tbody", {}, rows.map(function (r) {
        return h("tr", {}, h("td", { text: r[0] }), h("td", { cls: "num" }, r[1]));
      })))];
    if (f.mt_rho && f.mt_rho.reroll.length) {
      out.push(h("p", { cls: "notice small", text: "MT-ρ: re-roll both dice when the first roll is " +
        f.mt_rho.reroll.map(function (r) { return meta.faces[r.black] + " / " + meta.faces[r.red]; }).join("; ") +
        " (worse than a fresh roll's average, " + signedText(f.mt_rho.fresh_value) + "). The outcomes below include the re-roll." }));
    }
    if (f.alice_smith) {
      out.push(h("p", { cls: "notice small", text: "Alice Smith chooses the Oppressors' path: " + meta.faces[f.alice_smith.chosen] +
        (f.alice_smith.tied ? " (both paths are worth the same)." : ".") }));
    }
    out.push(h("h3", {}, "Every roll ", h("span", { cls: "muted small", text: "(black die / red die)" })));
    var list = h("ol", { cls: "rb-outcomes", id: "npc-outcomes" });
    f.outcomes.map(function (o, i) { return [o, i]; })
      .sort(function (a, b) { return b[0].p.approx - a[0].p.approx || a[1] - b[1]; })
      .forEach(function (pair) {
        var o = pair[0];
        var deltas = "SPARK " + sint(o.funds_delta) + " · Reputation " + sint(o.reputation_delta) +
          (o.office_delta ? " · office " + sint(o.office_delta) : "") +
          (o.posters_junked ? " · " + o.posters_junked + " poster" + (o.posters_junked > 1 ? "s" : "") + " junked" : "");
        var end = o.ended ? h("strong", { text: " · the Revolution " + (o.ended === "success" ? "succeeds" : "fails") }) : null;
        var enc = o.encounters.length ? o.encounters.map(function (e) { return h("li", { text: e.text }); })
          : [h("li", { text: "No NPC moves onto a space." })];
        var btn = h("button", { cls: "btn", type: "button", text: "We rolled this" });
        btn.addEventListener("click", function () {
          applyAnswer({ "do": "roll", black: o.black, red: o.red }, version, "npc", btn);
        });
        list.appendChild(h("li", { cls: "rb-outcome" },
          h("div", { cls: "rb-out-head" }, h("span", { cls: "rb-face" }, face(o.black), " / ", face(o.red)), pct(o.p)),
          h("span", { cls: "bar" }, h("i", { style: "width:" + (100 * o.p.approx).toFixed(1) + "%" })),
          h("p", { cls: "small rb-deltas" }, deltas, end),
          h("div", { cls: "row rb-out-foot" },
            h("details", { cls: "grow" }, h("summary", { text: "What happens" }), h("ol", { cls: "small" }, enc)), btn)));
      });
    out.push(list);
    out.push(h("p", { cls: "small muted", text: "“We rolled this” applies the roll to the table and passes the turn to the next player." }));
    out = out.concat(readings(f.readings));
    out.push(ruleLinks(f.rules));
    return out;
  }

  // ---- applying an answer, only on the table it was worked out for ----
  var SECTIONS = ["npc", "sg", "entry"];
  function changed(section) {
    SECTIONS.forEach(function (s) {
      var box = document.getElementById(s + "-changed");
      if (box) box.hidden = s !== section;
    });
  }
  // `version`: the table's version the answer was worked out for; `section`: where to say the table changed
  function applyAnswer(act, version, section, btn) {
    if (btn) btn.disabled = true;
    return store.apply(act, version).then(function (result) {
      if (btn) btn.disabled = false;
      if (result === "ok") changed(null);
      if (result === "changed") {
        changed(section);
        var box = document.getElementById(section + "-changed");
        if (box && box.scrollIntoView) box.scrollIntoView({ block: "center" });
      }
      if (result === "ok" && section === "sg") {  // "Do this": the NPC turn that player conducts comes next
        var npcBox = document.getElementById("npc");
        if (npcBox && npcBox.scrollIntoView) npcBox.scrollIntoView({ block: "start" });
      }
      return result;
    });
  }

  // ---- suggestions ----
  function option(o, version) {
    var lead = o.headline + ". ";
    var btn = h("button", { cls: "btn", type: "button", text: "Do this" });
    btn.addEventListener("click", function () { applyAnswer({ "do": "do_option", option: o.n }, version, "sg", btn); });
    return h("li", { cls: "rb-option" },
      h("p", { cls: "rb-opt-head", text: o.headline }),
      h("p", { cls: "why small", text: o.why.indexOf(lead) === 0 ? o.why.slice(lead.length) : o.why }),
      o.search ? h("p", { cls: "small muted", text: o.search }) : null,
      h("div", { cls: "row rb-opt-foot" }, h("div", { cls: "grow" }, (o.activate || o.extra) ? ruleLinks(o.rules.slice(-1)) : null), btn));
  }
  function group(g, version) {
    function opt(o) { return option(o, version); }
    var o0 = g[1][0], opts = g[1];
    var li = h("li", { cls: "rb-group" + (g[0] === 1 ? " best" : "") },
      h("p", { cls: "rb-rank" }, h("span", { text: ordinal(g[0]) + (o0.tied_with ? " · " + (o0.tied_with + 1) + " options tie" : "") }),
        h("span", { cls: "muted small" }, "score ", h("span", { cls: "num", title: "exactly " + o0.expected.score.exact, text: (o0.expected.score.approx >= 0 ? "+" : "") + o0.expected.score.approx.toFixed(2) }))),
      h("ul", { cls: "rb-options" }, opts.slice(0, 2).map(opt)));
    if (opts.length > 2) {
      li.appendChild(h("details", { cls: "rb-more" }, h("summary", { text: (opts.length - 2) + " more with the same score" }),
        h("ul", { cls: "rb-options" }, opts.slice(2).map(opt))));
    }
    return li;
  }
  function suggest(sg, version, answer) {
    function grp(g) { return group(g, version); }
    var groups = [];
    sg.options.forEach(function (o, i) {
      o.n = i;  // its place in the list: what "do_option" names
      if (groups.length && groups[groups.length - 1][0] === o.rank) groups[groups.length - 1][1].push(o);
      else groups.push([o.rank, [o]]);
    });
    var st = answer.robotariat.state;
    var out = [answer.status.played ? h("p", { cls: "notice ok", id: "sg-played", text: st.players[st.active].name +
        " has played this turn: roll the NPC dice and tap “We rolled this” below." }) : null,
      h("p", { cls: "small muted", id: "sg-count", text: sg.count + " possible turns, scored by the exact expectation after the NPC turn that follows. “Do this” moves the pieces for you." }),
      h("ol", { cls: "rb-groups", id: "sg-options" }, groups.slice(0, 3).map(grp))];
    if (groups.length > 3) {
      out.push(h("details", { cls: "rb-more", id: "sg-more" }, h("summary", { text: (groups.length - 3) + " more scores" }),
        h("ol", { cls: "rb-groups" }, groups.slice(3).map(grp))));
    }
    if (sg.count > sg.options.length) out.push(h("p", { cls: "small muted", text: "The " + (sg.count - sg.options.length) + " lower-scored turns are not listed." }));
    sg.notes.forEach(function (n) { out.push(h("p", { cls: "small muted", text: n })); });
    out = out.concat(readings(sg.readings));
    out.push(ruleLinks(sg.rules));
    return out;
  }

  // ---- look-ahead ----
  function lookSettings() {
    var k = Number(document.getElementById("f-k").value) || 3;
    k = Math.max(1, Math.min(12, Math.round(k)));
    var checked = lookForm.querySelector("input[name=heat]:checked");
    return { k: k, heat: checked ? checked.value : "oppressor_reach", show: showHeat.checked };
  }
  function look(l, kind) {
    var ids = Object.keys(l.spaces).filter(function (sid) { return l.spaces[sid][kind].exact !== "0"; });
    ids.sort(function (a, b) { return l.spaces[b][kind].approx - l.spaces[a][kind].approx; });
    return h("table", { cls: "data", id: "look-table" },
      h("thead", {}, h("tr", {}, h("th", { text: "Space" }), h("th", { cls: "num", text: "Chance" }))),
      h("tbody", {}, ids.map(function (sid) {
        return h("tr", {}, h("td", { text: spaceName(sid) }), h("td", { cls: "num" }, pct(l.spaces[sid][kind])));
      })));
  }
  function overlayFrom(l, s) {
    if (!l || !s.show) return null;
    var heat = {};
    Object.keys(l.spaces).forEach(function (sid) { heat[sid] = l.spaces[sid][s.heat].approx; });
    return { heat: heat };
  }

  // ---- round start ----
  function entry(e, version) {
    var btn = h("button", { cls: "btn primary", type: "button", id: "entry-apply", text: "Start round " + e.row + ": place it" });
    btn.addEventListener("click", function () { applyAnswer({ "do": "enter" }, version, "entry", btn); });
    return [
      h("p", { id: "entry-what" }, "Round " + e.row + ": a ", h("strong", { text: e.npc === "oppressor" ? "Human Oppressor" : "Civilian Robot" }),
        " enters on ", h("strong", { text: spaceName(e.space) }), ". " + e.encounter.text),
      h("p", { cls: "small rb-deltas", text: "SPARK " + sint(e.funds_delta) + " · Reputation " + sint(e.reputation_delta) +
        (e.office_delta ? " · office " + sint(e.office_delta) : "") + (e.posters_junked ? " · " + e.posters_junked + " posters junked" : "") +
        (e.last_round ? " · this starts the last round" : "") }),
      btn].concat(readings(e.readings), [ruleLinks(e.rules)]);
  }

  // ---- fetching ----
  var lookData = null;
  function fetchLook(body) {
    var s = lookSettings();
    var key = JSON.stringify([body, s.k]);
    if (key === last.lookKey && lookData) { show(); return; }
    last.lookKey = key;
    Tablebot.api("POST", "/api/robotariat/lookahead", Object.assign({}, body, { turns: s.k })).then(function (res) {
      if (key !== last.lookKey) return;
      lookData = res.ok ? res.data : null;
      lookError = res.ok ? null : Tablebot.errorText(res);
      show();
    });
    function show() {
      var s2 = lookSettings();
      fill("look-body", lookData ? [look(lookData, s2.heat)].concat(readings(lookData.readings)) : warn("look-error", lookError || ""));
      RB.play.setOverlay(overlayFrom(lookData, s2));
    }
  }
  var lookError = null;

  function refresh() {
    var answer = store.answer, rb = answer.robotariat;
    if (!rb.board.spaces.length) {
      ["sg-body", "npc-body", "look-body", "entry-body"].forEach(function (id) { fill(id, warn(id + "-error", "Enter the board first.")); });
      return;
    }
    var body = answer.body, version = answer.version, st = rb.state;
    document.getElementById("sg-player").textContent = (st.active + 1) + ". " + st.players[st.active].name;
    fetchLook(body);
    var key = JSON.stringify([body, version, answer.status.played]);
    if (key === last.key) return;
    last.key = key;
    Promise.all([
      Tablebot.api("POST", "/api/robotariat/npc-turn", body),
      Tablebot.api("POST", "/api/robotariat/suggest", Object.assign({}, body, { limit: meta.suggest_limit })),
      answer.status.next_npc ? Tablebot.api("POST", "/api/robotariat/round-start", body) : Promise.resolve(null)
    ]).then(function (res) {
      if (key !== last.key) return;  // the table changed again meanwhile
      // the table's version these answers were worked out for (what applying one of them names)
      ["npc-body", "sg-body", "entry-body"].forEach(function (id) {
        document.getElementById(id).dataset.version = version === null ? "" : String(version);
      });
      fill("npc-body", res[0].ok ? npc(res[0].data, version) : warn("npc-error", Tablebot.errorText(res[0])));
      fill("sg-body", res[1].ok ? suggest(res[1].data, version, answer) : warn("sg-error", Tablebot.errorText(res[1])));
      if (res[2] === null) fill("entry-body", h("p", { id: "entry-what", text: "All six NPCs of the entry track are on the board: this is the last round." }));
      else fill("entry-body", res[2].ok ? entry(res[2].data, version) : warn("entry-error", Tablebot.errorText(res[2])));
    });
  }

  // the heat map can be switched on next to the board, where the thumb is
  var heatToggle = document.getElementById("heat-toggle");
  heatToggle.hidden = false;
  function showToggle() { heatToggle.setAttribute("aria-pressed", showHeat.checked ? "true" : "false"); }
  heatToggle.addEventListener("click", function () {
    showHeat.checked = !showHeat.checked;
    showToggle();
    refresh();
  });
  showHeat.addEventListener("change", showToggle);
  showToggle();

  var later = Tablebot.debounce(refresh, 250);
  document.addEventListener("rb:change", later);
  lookForm.addEventListener("submit", function (e) { e.preventDefault(); refresh(); });
  lookForm.addEventListener("input", Tablebot.debounce(function () { refresh(); }, 200));
  lookForm.addEventListener("change", function () { refresh(); });

  // The server rendered the answers for the table as the page came, and the script replaces them as soon
  // as it has fetched its own; a tap before that posts the same form, for the version the page showed.
  var pageVersion = store.answer.version;
  document.querySelectorAll("#npc-body form, #entry-body form, #sg-body form").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var section = { "npc-form": "npc", "sg-form": "sg" }[form.id] || "entry";
      applyAnswer(RB.formAction(form, e.submitter), pageVersion, section, e.submitter || form.querySelector("button"));
    });
  });
  RB.forecast = { refresh: refresh };
})();
