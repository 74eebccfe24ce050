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
        return { ok: r.ok, status: r.status, data: data };
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
    function emit(kind, info) { self.listeners.forEach(function (f) { f(kind, info); }); }
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
    });
  };

  document.addEventListener("DOMContentLoaded", function () {
    initTheme(); initWake(); initOffline(); T.initSteppers(document);
  });
})();
