// Tablebot's small shared script: theme, wake lock, offline shell, steppers, the JSON API and tables.
// Pages work without it; with it they answer as you type and keep what you enter with the table.
(function () {
  "use strict";
  var T = (window.Tablebot = window.Tablebot || {});

  // ---- theme toggle (dark / light / system) ----
  function currentTheme() {
    var set = document.documentElement.getAttribute("data-theme");
    if (set) return set;
    return window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  function initTheme() {
    var b = document.getElementById("theme-toggle");
    if (!b) return;
    var show = function () { b.setAttribute("aria-pressed", currentTheme() === "dark" ? "true" : "false"); };
    show();
    b.addEventListener("click", function () {
      var next = currentTheme() === "dark" ? "light" : "dark";
      document.documentElement.setAttribute("data-theme", next);
      try { localStorage.setItem("tablebot-theme", next); } catch (e) { /* ignore */ }
      show();
    });
  }

  // ---- keep the screen awake (Wake Lock API; the button stays hidden where unsupported) ----
  function initWake() {
    var b = document.getElementById("wake-toggle");
    if (!b || !("wakeLock" in navigator)) return;
    b.hidden = false;
    var lock = null, wanted = false;
    try { wanted = sessionStorage.getItem("tablebot-wake") === "1"; } catch (e) { /* ignore */ }
    function request() {
      navigator.wakeLock.request("screen").then(function (l) {
        lock = l; b.setAttribute("aria-pressed", "true");
        l.addEventListener("release", function () { if (!wanted) b.setAttribute("aria-pressed", "false"); });
      }).catch(function () { b.setAttribute("aria-pressed", "false"); });
    }
    b.addEventListener("click", function () {
      wanted = !wanted;
      try { sessionStorage.setItem("tablebot-wake", wanted ? "1" : "0"); } catch (e) { /* ignore */ }
      if (wanted) request(); else if (lock) { lock.release(); lock = null; b.setAttribute("aria-pressed", "false"); }
    });
    document.addEventListener("visibilitychange", function () {
      if (wanted && document.visibilityState === "visible") request();
    });
    if (wanted) request();
  }

  // ---- service worker: the shell and visited pages stay readable offline ----
  function initOffline() {
    if ("serviceWorker" in navigator && location.protocol !== "file:") {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* offline use only */ });
    }
  }

  // ---- steppers: <div class="stepper"><button data-step="-1">…<input type=number>…<button data-step="1"> ----
  function clamp(v, input) {
    var min = input.min === "" ? -Infinity : Number(input.min);
    var max = input.max === "" ? Infinity : Number(input.max);
    return Math.min(max, Math.max(min, v));
  }
  T.initSteppers = function (root) {
    (root || document).querySelectorAll(".stepper").forEach(function (s) {
      if (s.dataset.ready) return;
      s.dataset.ready = "1";
      var input = s.querySelector("input");
      s.querySelectorAll("button[data-step]").forEach(function (btn) {
        btn.type = "button";
        btn.addEventListener("click", function () {
          var v = Number(input.value || 0) + Number(btn.dataset.step);
          input.value = String(clamp(v, input));
          input.dispatchEvent(new Event("input", { bubbles: true }));
          input.dispatchEvent(new Event("change", { bubbles: true }));
        });
      });
    });
  };

  // ---- JSON API ----
  // Resolves to {ok, status, data}; data is the parsed body (the error body on 4xx).
  T.api = function (method, url, body) {
    var opts = { method: method, headers: { Accept: "application/json" }, credentials: "same-origin" };
    if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
    return fetch(url, opts).then(function (r) {
      return r.json().catch(function () { return null; }).then(function (data) {
        return { ok: r.ok, status: r.status, data: data, headers: r.headers };
      });
    }, function () {
      return { ok: false, status: 0, data: { error: { message: "No connection: nothing was sent. Try again when online." } } };
    });
  };
  T.errorText = function (res) {
    var e = res && res.data && res.data.error;
    return e && e.message ? e.message : "Something went wrong (" + (res && res.status) + ").";
  };

  // ---- numbers ----
  // p is the API's {exact, approx}; shows "37.5 %" and keeps the fraction in a title.
  T.percent = function (p, digits) {
    if (!p) return "";
    var v = typeof p === "number" ? p : p.approx;
    var d = digits === undefined ? (v > 0 && v < 0.01 ? 2 : 1) : digits;
    return (v * 100).toFixed(d) + " %";
  };
  T.debounce = function (fn, ms) {
    var t = null;
    return function () { var a = arguments, self = this; clearTimeout(t); t = setTimeout(function () { fn.apply(self, a); }, ms || 150); };
  };

  // ---- tables: shared state, compare-and-set on the version we read ----
  // var table = Tablebot.table(id); table.load().then(state => …);
  // table.save(function (state) { state.search = {...}; return state; }) re-applies the change on top of
  // a newer state when someone else saved first, so nothing entered is lost, and tells the page.
  T.table = function (id) {
    var self = { id: id, version: null, state: null, code: null, listeners: [] };
    function emit(kind, info) {
      // the page shows this version now: following must not take this page's own save for another phone's
      if (self.version && document.body.getAttribute("data-table-id") === id) document.body.setAttribute("data-table-version", self.version);
      self.listeners.forEach(function (f) { f(kind, info); });
    }
    self.on = function (f) { self.listeners.push(f); return self; };
    self.load = function () {
      return T.api("GET", "/api/tables/" + encodeURIComponent(id)).then(function (res) {
        if (!res.ok) { emit("error", T.errorText(res)); throw new Error(T.errorText(res)); }
        self.version = res.data.version; self.state = res.data.state || {}; self.code = res.data.code;
        self.game = res.data.game; self.players = res.data.players;
        emit("loaded", res.data);
        return self.state;
      });
    };
    self.save = function (mutate, attempt) {
      attempt = attempt || 0;
      var next = mutate(JSON.parse(JSON.stringify(self.state || {}))) || self.state;
      return T.api("PUT", "/api/tables/" + encodeURIComponent(id), { version: self.version, state: next })
        .then(function (res) {
          if (res.ok) {
            self.version = res.data.version; self.state = res.data.state;
            emit("saved", res.data);
            return self.state;
          }
          if (res.status === 409 && res.data && res.data.table && attempt < 3) {
            self.version = res.data.table.version; self.state = res.data.table.state;
            emit("conflict", "Someone at the table saved first; your change was applied on top of theirs (version "
              + self.version + ").");
            return self.save(mutate, attempt + 1);
          }
          if (res.status === 0 || res.status === 503 || res.status === 502 || res.status === 504) {
            // not kept just now: the change is applied again, on the newest state, after the wait
            var wait = Math.min(Number(res.headers && res.headers.get("Retry-After")) || Math.pow(2, Math.min(attempt + 1, 5)), 60);
            emit("waiting", "Not saved yet: " + (res.status === 0 ? "no connection to the server." : T.errorText(res)) + " What you entered is kept on this phone; "
              + "trying again in " + wait + " s.");
            return new Promise(function (resolve) { setTimeout(resolve, wait * 1000); })
              .then(function () { return self.save(mutate, attempt + 1); });
          }
          emit("error", T.errorText(res));
          throw new Error(T.errorText(res));
        });
    };
    // For a change that only makes sense on the state it was worked out from (apply a roll): one PUT on
    // `version`; on 409 nothing is applied, the newer table is loaded, and the promise resolves to
    // {ok: false, conflict: true} so the page can say so and answer again.
    self.saveExact = function (version, state) {
      return T.api("PUT", "/api/tables/" + encodeURIComponent(id), { version: version, state: state })
        .then(function (res) {
          if (res.ok) {
            self.version = res.data.version; self.state = res.data.state;
            emit("saved", res.data);
            return { ok: true, state: self.state };
          }
          if (res.status === 409 && res.data && res.data.table) {
            self.version = res.data.table.version; self.state = res.data.table.state;
            emit("conflict", "Another phone changed the table first; nothing was applied. Here is the table now.");
            return { ok: false, conflict: true, state: self.state };
          }
          emit("error", T.errorText(res));
          return { ok: false, conflict: false, error: T.errorText(res) };
        });
    };
    self.emit = emit;
    return self;
  };

  // A status line for pages kept with a table: <p class="table-status" data-table-status></p>
  T.tableStatus = function (table) {
    var el = document.querySelector("[data-table-status]");
    if (!el) return;
    table.on(function (kind, info) {
      el.classList.remove("error", "conflict", "ok");
      if (kind === "saved") { el.textContent = "Saved with table " + (table.code || "") + " (version " + table.version + ")."; el.classList.add("ok"); }
      if (kind === "loaded") { el.textContent = "Kept with table " + (table.code || "") + "."; }
      if (kind === "conflict") { el.textContent = info; el.classList.add("conflict"); }
      if (kind === "error") { el.textContent = "Not saved: " + info; el.classList.add("error"); }
      if (kind === "waiting") { el.textContent = info; el.classList.add("error"); }
    });
  };


  // ---- live pages: follow the table, submit forms in place, swap in the server's rendering ----
  // The server renders every answer. A page marks the parts that change with data-live (and an id);
  // when the table moves on (another phone saved) or a form is submitted, the page's new rendering is
  // fetched and those parts are morphed in place: what the player is typing (the focused field, and
  // any field changed since it was last sent) is kept, everything else takes the server's values.
  var gen = 0;            // counts the player's edits; a field remembers the edit that last changed it
  var unsaved = {};       // field key -> edit number, for edits not yet sent with their form
  var inflight = 0;       // requests under way that will swap the page
  var epoch = 0;          // moves on with every edit and every send: a part morphed before is stale then

  function formKey(form) { return form ? (form.id || form.getAttribute("action") || location.pathname) : ""; }
  function fieldKey(el) {
    var form = formKey(el.form);
    // a radio group is one field (the player's choice guards the whole group); ticked names are one each
    var multi = el.type === "checkbox" && /\[\]$/.test(el.name);
    return form + "|" + el.name + (multi ? "=" + el.value : "");
  }
  function isField(el) {
    return el && el.name && /^(INPUT|SELECT|TEXTAREA)$/.test(el.nodeName) && el.type !== "hidden";
  }
  function guarded(el) {
    return el === document.activeElement || unsaved[fieldKey(el)] !== undefined;
  }
  function markEdit(e) {
    var el = e.target;
    if (!isField(el) || (el.form && el.form.hasAttribute("data-private"))) return;
    unsaved[fieldKey(el)] = ++gen;
    epoch++;
  }
  document.addEventListener("input", markEdit, true);
  document.addEventListener("change", markEdit, true);

  function nodeKey(n) {
    if (n.nodeType !== 1) return "";
    if (n.id) return "#" + n.id;
    var k = n.getAttribute("data-key");
    if (k) return "k" + k;
    if (n.name && /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(n.nodeName)) return n.nodeName + ":" + n.name + ":" + (n.type === "radio" || n.type === "checkbox" || n.nodeName === "BUTTON" ? n.value : "");
    return "";
  }
  function syncAttributes(from, to) {
    var i, a;
    for (i = to.attributes.length - 1; i >= 0; i--) {
      a = to.attributes[i];
      if (!from.hasAttribute(a.name) && a.name !== "data-ready" && !playerState(to, a.name)) to.removeAttribute(a.name);
    }
    for (i = 0; i < from.attributes.length; i++) {
      a = from.attributes[i];
      if (to.getAttribute(a.name) !== a.value && !playerState(to, a.name)) to.setAttribute(a.name, a.value);
    }
  }
  function syncField(from, to) {
    if (isField(to) && guarded(to)) return;  // the player's: keep it
    if (to.type === "checkbox" || to.type === "radio") to.checked = from.hasAttribute("checked");
    else if (to.nodeName === "SELECT") {
      var chosen = from.querySelector("option[selected]") || from.querySelector("option");
      if (chosen) to.value = chosen.value;
    } else if (to.nodeName === "TEXTAREA") to.value = from.textContent;
    else if (to.nodeName === "INPUT") to.value = from.getAttribute("value") || "";
  }
  // what the player opened or closed (a <details>) is theirs, whatever the server renders
  function playerState(el, name) { return name === "open" && el.nodeName === "DETAILS"; }
  // only a field being typed in holds its place: a tapped button may go when the new rendering drops it
  function holdsFocus(n) { var a = document.activeElement; return n.nodeType === 1 && isField(a) && n.contains(a); }
  function morph(from, to) {
    // to: the node on the page; from: its new rendering
    if (to.nodeType === 3 || to.nodeType === 8) { if (to.nodeValue !== from.nodeValue) to.nodeValue = from.nodeValue; return; }
    syncAttributes(from, to);
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(to.nodeName)) {
      if (to.nodeName === "SELECT" && !guarded(to)) morphChildren(from, to);
      syncField(from, to);
      return;
    }
    morphChildren(from, to);
  }
  function sameKind(a, b) { return a.nodeType === b.nodeType && a.nodeName === b.nodeName && nodeKey(a) === nodeKey(b); }
  function morphChildren(from, to) {
    var olds = Array.prototype.slice.call(to.childNodes);
    var news = Array.prototype.slice.call(from.childNodes);
    var keyed = {}, used = [];
    olds.forEach(function (o) { var k = nodeKey(o); if (k) keyed[k] = o; });
    var at = 0;
    news.forEach(function (n) {
      var k = nodeKey(n), match = null;
      if (k && keyed[k] && keyed[k].nodeName === n.nodeName) { match = keyed[k]; delete keyed[k]; }
      else if (!k) {
        while (at < olds.length && (used.indexOf(olds[at]) >= 0 || nodeKey(olds[at]))) at++;
        if (at < olds.length && sameKind(olds[at], n)) match = olds[at++];
      }
      var ref = null;
      for (var i = 0; i < to.childNodes.length; i++) {
        if (used.indexOf(to.childNodes[i]) < 0) { ref = to.childNodes[i]; break; }
      }
      if (match) {
        used.push(match);
        morph(n, match);
        if (match !== ref && !holdsFocus(match)) to.insertBefore(match, ref);
      } else {
        var fresh = document.importNode(n, true);
        used.push(fresh);
        to.insertBefore(fresh, ref);
      }
    });
    olds.forEach(function (o) { if (used.indexOf(o) < 0 && !holdsFocus(o)) to.removeChild(o); });
  }

  var rendered = new WeakMap();  // live part -> the server's rendering last morphed in, and the epoch then
  // Swap the live parts of the page with those of `html`; returns the ids of the parts whose text changed.
  T.swap = function (html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var changed = [];
    // answers can arrive out of order (a page fetched after another phone's save, then this phone's
    // own save): a rendering of an older version than the one shown would bring back a state gone by
    var v = doc.body && doc.body.getAttribute("data-table-version");
    var shown = document.body.getAttribute("data-table-version");
    if (v && shown && Number(v) < Number(shown)) { changed.stale = true; return changed; }
    document.querySelectorAll("[data-live][id]").forEach(function (el) {
      var fresh = doc.getElementById(el.id);
      if (!fresh) return;
      // a part the server renders as it did last time, with no edit made since, is left alone: walking
      // the whole page on every refresh blocks a slow phone for a tenth of a second
      var html = fresh.outerHTML, last = rendered.get(el);
      if (last && last.html === html && last.epoch === epoch) return;
      var before = el.textContent;
      morph(fresh, el);
      rendered.set(el, { html: html, epoch: epoch });
      if (el.textContent !== before) changed.push(el);
    });
    // a part fetched after the page (no data-table-id: the whole-game forecast) may come from a newer
    // version than the page shows: its content is swapped in, but the page keeps its version, so that
    // following the table still fetches the whole page (its forms and their versions) for the new one
    if (v && (!shown || doc.body.hasAttribute("data-table-id"))) document.body.setAttribute("data-table-version", v);
    if (doc.title) document.title = doc.title;
    T.initSteppers(document);
    // the server says the answer also holds another phone's newer change (a save merged onto it)
    changed.merged = !!(doc.body && doc.body.hasAttribute("data-merged"));
    document.dispatchEvent(new CustomEvent("tablebot:swapped", { detail: { changed: changed } }));
    return changed;
  };

  // A page not kept with a table holds its state in one hidden field (<input data-carry>): it goes with
  // every form the page sends (the `formdata` event: swapped or not), and a refetch posts it.
  function carried() {
    return Array.prototype.map.call(document.querySelectorAll("input[data-carry]"), function (i) { return [i.name, i.value]; });
  }
  document.addEventListener("formdata", function (e) {
    if (e.target.hasAttribute("data-private")) return;
    carried().forEach(function (kv) { if (!e.formData.has(kv[0])) e.formData.append(kv[0], kv[1]); });
  });

  function privateParams() {
    var out = [];
    document.querySelectorAll("form[data-private]").forEach(function (f) {
      new FormData(f).forEach(function (v, k) { out.push([k, v]); });
    });
    return out;
  }
  function status(kind, text) {
    var el = document.querySelector("[data-table-status]");
    if (!el) return;
    el.classList.remove("error", "conflict", "ok");
    if (kind) el.classList.add(kind);
    if (text) el.textContent = text;
  }
  function cue(changed) {
    if (!changed.length) return;
    var c = document.getElementById("live-cue");
    if (c) {
      c.textContent = "Updated from another phone (version " + document.body.getAttribute("data-table-version") + ").";
      c.hidden = false;
      clearTimeout(c._t);
      c._t = setTimeout(function () { c.hidden = true; }, 5000);
    }
    changed.forEach(function (el) {
      el.classList.remove("live-updated");
      void el.offsetWidth;  // restart the highlight
      el.classList.add("live-updated");
    });
  }

  // Submit a form without leaving the page: the server answers with the page, and its live parts are
  // swapped in. The edits sent are no longer "unsaved"; edits made while it was under way still are.
  // The versions this page's own saves made: a save sent while the page's previous one was still being
  // answered names the older version, and the server says "merged"; that is no other phone's change.
  var ownVersions = {};
  function othersBetween(shown, now) {
    for (var v = shown + 1; v < now; v++) if (!ownVersions[v]) return true;
    return false;
  }
  // A form the server could not keep is sent again by itself: after the server's Retry-After, else
  // after 2, 4, 8 ... up to 30 s; the status line says what it waits for and when it tries again.
  var retries = new WeakMap();  // form -> {timer, tries}
  function sendAgain(form, submitter, retryAfter, why) {
    var r = retries.get(form) || { timer: null, tries: 0 };
    r.tries++;
    var wait = retryAfter > 0 ? Math.min(retryAfter, 60) : Math.min(30, Math.pow(2, r.tries));
    clearTimeout(r.timer);
    r.timer = setTimeout(function () {
      if (form.isConnected && !form.getAttribute("aria-busy")) T.submit(form, submitter);
    }, wait * 1000);
    retries.set(form, r);
    status("error", "Not saved yet: " + why + " What you entered is kept on this phone; trying again in "
      + wait + " s" + (r.tries > 1 ? " (try " + r.tries + ")" : "") + ".");
  }
  T.submit = function (form, submitter) {
    var pending = retries.get(form);
    if (pending) clearTimeout(pending.timer);  // this send carries the waiting change too
    var sentAt = gen;
    var body = new FormData(form);
    var shown = Number(body.get("version"));
    if (submitter && submitter.name) body.append(submitter.name, submitter.value);
    if (!form.hasAttribute("data-private")) privateParams().forEach(function (kv) { if (!body.has(kv[0])) body.append(kv[0], kv[1]); });
    var action = form.getAttribute("action") || location.pathname + location.search;
    inflight++;
    form.setAttribute("aria-busy", "true");
    return fetch(action, {
      method: "POST", body: new URLSearchParams(body), credentials: "same-origin",
      headers: { Accept: "text/html", "X-Tablebot-Swap": "1" }
    }).then(function (r) {
      if (r.status === 503 || r.status === 502 || r.status === 504) {
        // the server cannot keep it just now (database restarting, disk full): what was typed stays
        // unsaved here, and the same form is sent again after the wait the server asked for
        return r.json().catch(function () { return null; }).then(function (data) {
          var e = data && data.error;
          sendAgain(form, submitter, Number(r.headers.get("Retry-After")),
            e && e.message ? e.message : "the server is not answering just now (" + r.status + ").");
          return r;
        });
      }
      retries.delete(form);
      return r.text().then(function (html) {
        Object.keys(unsaved).forEach(function (k) { if (unsaved[k] <= sentAt && k.indexOf(formKey(form) + "|") === 0) delete unsaved[k]; });
        epoch++;
        if (/text\/html/.test(r.headers.get("Content-Type") || "")) {
          var changed = T.swap(html);
          var now = Number(document.body.getAttribute("data-table-version"));
          if (changed.merged && (!shown || othersBetween(shown, now))) cue(changed);
          if (r.ok && now) ownVersions[now] = true;
        }
        else status("error", "Not saved: the server answered " + r.status + ".");
        return r;
      });
    }, function () {
      sendAgain(form, submitter, 0, "no connection to the server.");
    }).then(function (r) {
      inflight--;
      form.removeAttribute("aria-busy");
      return r;
    });
  };

  function initForms() {
    document.addEventListener("submit", function (e) {
      var form = e.target;
      if (!form.matches("form[data-swap], form[data-autosave]") || !window.fetch) return;
      e.preventDefault();
      T.submit(form, e.submitter);
    });
    var timers = new WeakMap();
    function later(form, ms) {
      clearTimeout(timers.get(form));
      timers.set(form, setTimeout(function () {
        if (form.getAttribute("aria-busy")) { later(form, 200); return; }
        T.submit(form);
      }, ms));
    }
    document.addEventListener("input", function (e) {
      var form = e.target.form;
      if (form && form.hasAttribute("data-autosave") && e.target.type !== "checkbox" && e.target.type !== "radio") later(form, 600);
    });
    document.addEventListener("change", function (e) {
      var form = e.target.form;
      if (form && form.hasAttribute("data-autosave")) later(form, 150);
      if (form && form.hasAttribute("data-private")) keepPrivate(form);
    });
  }

  // Private fields (a secret objective) stay in this browser: kept in localStorage, sent with this
  // page's requests for the answer, never saved with the table.
  function keepPrivate(form) {
    var data = {};
    new FormData(form).forEach(function (v, k) { data[k] = v; });
    try { localStorage.setItem("tablebot-private:" + form.getAttribute("data-private"), JSON.stringify(data)); } catch (e) { /* private mode */ }
    T.refresh();
  }
  function restorePrivate() {
    var restored = false;
    document.querySelectorAll("form[data-private]").forEach(function (form) {
      var data = null;
      try { data = JSON.parse(localStorage.getItem("tablebot-private:" + form.getAttribute("data-private")) || "null"); } catch (e) { data = null; }
      if (!data) return;
      Object.keys(data).forEach(function (k) {
        var el = form.elements[k];
        if (el && el.value !== data[k]) { el.value = data[k]; restored = true; }
      });
    });
    return restored;
  }

  // Fetch this page again and swap in its live parts (after another phone's save, or a private change).
  var refreshes = 0;
  T.refresh = function (fromOtherPhone) {
    var mine = ++refreshes;
    inflight++;
    var opts = { credentials: "same-origin", cache: "no-store", headers: { Accept: "text/html", "X-Tablebot-Swap": "1" } };
    var carry = carried();
    if (carry.length) {  // the state shown is this page's own: ask for the page worked out from it
      opts.method = "POST";
      opts.body = new URLSearchParams(carry.concat(privateParams()));
    }
    else {  // private fields go in a header: an address lands in logs and history
      var own = new URLSearchParams(privateParams()).toString();
      if (own) opts.headers["X-Tablebot-Private"] = own;
    }
    return fetch(location.href, opts)
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        // an older refresh answering last would undo a newer one
        if (html && mine === refreshes) { var changed = T.swap(html); if (fromOtherPhone) cue(changed); }
      },
            function () { /* offline: the next check tries again */ })
      .then(function () { inflight--; });
  };

  // Parts the server works out after the page (a slow answer, such as the whole-game forecast): an
  // element with data-live, an id and data-fetch="url" is fetched from that url (data-fetch-after ms
  // later) and swapped in like a refetch of the page; the server keeps data-fetch on it while the answer
  // is still being refined, and drops it when it is done.
  var fetching = {};
  function fetchParts() {
    if (!window.fetch) return;
    document.querySelectorAll("[data-live][id][data-fetch]").forEach(function (el) {
      var url = el.getAttribute("data-fetch");
      if (fetching[el.id] === url) return;
      fetching[el.id] = url;
      setTimeout(function () {
        if (document.visibilityState === "hidden") {  // a page nobody looks at asks for nothing: on its return
          delete fetching[el.id];
          document.addEventListener("visibilitychange", fetchParts, { once: true });
          return;
        }
        var opts = { credentials: "same-origin", cache: "no-store", headers: { Accept: "text/html", "X-Tablebot-Swap": "1" } };
        var carry = carried();
        if (carry.length) { opts.method = "POST"; opts.body = new URLSearchParams(carry.concat(privateParams())); }
        fetch(url, opts)
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (html) {
            if (fetching[el.id] === url) delete fetching[el.id];
            if (html && T.swap(html).stale) fetchParts();  // the page's refresh skipped it meanwhile
          },
                function () { if (fetching[el.id] === url) delete fetching[el.id]; });
      }, Number(el.getAttribute("data-fetch-after") || 0));
    });
  }
  document.addEventListener("tablebot:swapped", fetchParts);

  // Follow the table: ask for its version about once a second while the page is visible (a 304 while
  // nothing changed), and fetch the page again when it moved on.
  function initFollow() {
    var id = document.body.getAttribute("data-table-id");
    if (!id || !window.fetch) return;
    var busy = false;
    function check() {
      if (busy || inflight || document.visibilityState !== "visible") return;
      busy = true;
      var shown = document.body.getAttribute("data-table-version");
      fetch("/api/tables/" + encodeURIComponent(id) + "/version", {
        credentials: "same-origin", cache: "no-cache", headers: { Accept: "application/json", "If-None-Match": '"v' + shown + '"' }
      }).then(function (r) {
        if (r.status !== 200) return null;
        return r.json().then(function (d) {
          if (String(d.version) !== document.body.getAttribute("data-table-version") && !inflight) return T.refresh(true);
        });
      }).catch(function () { /* offline: try again */ }).then(function () { busy = false; });
    }
    T.followEvery = Number(document.body.getAttribute("data-follow-ms") || 1000);
    setInterval(check, T.followEvery);
    document.addEventListener("visibilitychange", check);
  }

  document.addEventListener("DOMContentLoaded", function () {
    // the live parts as the server rendered them (before any script touched them): a refresh that
    // brings one back unchanged leaves it alone
    document.querySelectorAll("[data-live][id]").forEach(function (el) { rendered.set(el, { html: el.outerHTML, epoch: epoch }); });
    initTheme(); initWake(); initOffline(); T.initSteppers(document);
    initForms(); initFollow(); fetchParts();
    if (restorePrivate()) T.refresh();
  });
})();
