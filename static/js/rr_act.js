// Raising Robots activation chains: checks the steps as you type (POST /api/raising-robots/activations/check).
// Without this script the form posts and the server renders the same check.
(function () {
  "use strict";
  var T = window.Tablebot;
  var form = document.getElementById("rr-act");
  if (!form || !T) return;
  document.documentElement.classList.add("rr-js");
  var rowsBox = document.getElementById("rr-rows");
  var box = document.getElementById("rr-result-body"), errorBox = document.getElementById("rr-error");

  function rows() {
    var out = [];
    rowsBox.querySelectorAll(".rr-chain-row").forEach(function (div) {
      var i = div.dataset.row, kind = form.elements["k-" + i].value, label = form.elements["l-" + i].value.trim();
      var e = form.elements["e-" + i].value.trim();
      if ((kind === "robot" || kind === "board") && !label) return;
      out.push({ depth: Number(form.elements["d-" + i].value || 0), kind: kind, label: label,
                 energy: /^\d+$/.test(e) ? Number(e) : null, n: Number(i) + 1 });
    });
    return out;
  }

  // Same as rows_to_chain on the server.
  function toChain(list) {
    var top = [], stack = [{ depth: -1, node: null, kids: top }], problems = [];
    list.forEach(function (r) {
      while (stack[stack.length - 1].depth >= r.depth) stack.pop();
      var parent = stack[stack.length - 1];
      if (r.depth > parent.depth + 1) { problems.push("Row " + r.n + " is indented more than one step below the row above it."); return; }
      if (parent.node && parent.node.board !== undefined) { problems.push("Row " + r.n + ": a player-board action sets nothing off: indent it less."); return; }
      var node, kids = [];
      if (r.kind === "robot") {
        node = { robot: r.label, then: kids };
        if (r.energy !== null) node.energy = r.energy;
      } else if (r.kind.indexOf("run-") === 0) {
        node = { run: r.kind.slice(4), energy: r.energy === null ? 0 : r.energy, steps: kids };
        if (r.energy === null) problems.push("Row " + r.n + ": give the energy the row runs at.");
      } else {
        node = { board: r.label };
      }
      parent.kids.push(node);
      stack.push({ depth: r.depth, node: node, kids: kids });
    });
    return { steps: top, problems: problems };
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  var BADGES = { repeat: ["badge bad", "twice"], energy: ["badge bad", "energy"], skipped: ["badge", "cannot happen"] };
  function render(d) {
    box.textContent = "";
    if (d.ok) box.appendChild(el("p", "notice ok", "No robot runs twice in one activation."));
    else {
      var div = el("div", "notice error"), ul = el("ul");
      div.appendChild(el("p", "", "Not allowed:"));
      d.problems.forEach(function (p) { ul.appendChild(el("li", "", p)); });
      div.appendChild(ul);
      box.appendChild(div);
    }
    var ol = el("ol", "rr-tree");
    ol.id = "rr-tree";
    d.nodes.forEach(function (n) {
      var li = el("li", "rr-node rr-" + n.kind + " st-" + n.status), head = el("div", "rr-node-head");
      li.style.paddingLeft = (Math.min(n.depth, 6) * 14) + "px";
      if (n.kind === "run") {
        head.append(el("span", "rr-path", "↳"), "Runs " + n.label.charAt(0).toUpperCase() + n.label.slice(1) + " at " + n.energy);
      } else {
        head.append(el("span", "rr-path", n.path), n.label);
        if (n.kind === "robot" && n.energy !== null) head.append(" ", el("span", "small muted", "(needs " + n.energy + ")"));
      }
      if (BADGES[n.status]) head.append(" ", el("span", BADGES[n.status][0], BADGES[n.status][1]));
      li.appendChild(head);
      if (n.status !== "ok" || (n.kind === "robot" && n.activation === n.path)) li.appendChild(el("p", "why", n.why));
      ol.appendChild(li);
    });
    box.appendChild(ol);
    box.appendChild(el("p", "small muted", d.activations.map(function (a) {
      return "Activation of " + a.robot + " (step " + a.path + "): " + a.robots.join(", ") + ".";
    }).join(" ")));
  }

  function refresh() {
    var list = rows();
    if (!list.length) { box.textContent = ""; box.appendChild(el("p", "muted", "Enter the steps below, or load the rulebook's example.")); return; }
    var chain = toChain(list);
    if (chain.problems.length) { errorBox.textContent = chain.problems.join(" "); errorBox.hidden = false; return; }
    var body = { steps: chain.steps };
    var phase = form.elements.phase.value, energy = form.elements.energy.value.trim();
    if (phase) body.phase = phase;
    if (/^\d+$/.test(energy)) body.energy = Number(energy);
    T.api("POST", "/api/raising-robots/activations/check", body).then(function (res) {
      if (res.ok) { errorBox.hidden = true; render(res.data); return; }
      errorBox.textContent = T.errorText(res);
      errorBox.hidden = false;
    });
  }

  function indent(div) {
    var i = div.dataset.row, d = Number(form.elements["d-" + i].value || 0);
    div.style.marginLeft = (Math.min(d, 5) * 10) + "px";
    div.classList.toggle("is-run", form.elements["k-" + i].value.indexOf("run-") === 0);
  }

  // "More rows" adds a blank row here instead of reloading the page
  var more = document.getElementById("rr-more");
  more.addEventListener("click", function (ev) {
    var all = rowsBox.querySelectorAll(".rr-chain-row");
    if (all.length >= 40) return;
    ev.preventDefault();
    var last = all[all.length - 1], i = all.length, copy = last.cloneNode(true);
    copy.dataset.row = String(i);
    copy.querySelectorAll("[id],[name],[for]").forEach(function (x) {
      ["id", "name", "for"].forEach(function (a) {
        var v = x.getAttribute(a);
        if (v) x.setAttribute(a, v.replace(/-\d+$/, "-" + i));
      });
    });
    copy.querySelectorAll("label.sr-only").forEach(function (l) { l.textContent = l.textContent.replace(/Row \d+/, "Row " + (i + 1)); });
    copy.querySelector("input[type=text]").value = "";
    copy.querySelector("input[type=number]").value = "";
    rowsBox.appendChild(copy);
    copy.querySelector("input[type=text]").focus();
  });

  var refreshSoon = T.debounce(refresh, 200);
  form.addEventListener("input", refreshSoon);
  form.addEventListener("change", function (ev) {
    var div = ev.target.closest && ev.target.closest(".rr-chain-row");
    if (div) indent(div);
    refreshSoon();
  });
})();
