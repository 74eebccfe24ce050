// Offline: network first for pages and answers (they must be current), the cache when there is no
// network. Static files have content-hashed names (/static/js/tablebot.<hash>.js) that never change
// meaning, so they come from the cache first. The server writes the hashed names into SHELL and the
// static files' hash into ASSETS: a release with any changed file installs a new worker, which drops
// the old cache.
var ASSETS = "dev";
var CACHE = "tablebot-" + ASSETS;
var SHELL = ["/", "/offline", "/static/css/app.css", "/static/js/tablebot.js", "/static/js/theme.js",
  "/static/icons/icon.svg", "/static/icons/icon-192.png", "/manifest.webmanifest", "/rules",
  "/static/css/rules.css", "/static/js/rules.js"];
var HASHED = /^\/static\/.+\.[0-9a-f]{12}(\.[^./]+)?$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(SHELL); }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

function fromNetwork(req) {
  return fetch(req).then(function (res) {
    if (res.ok && res.type === "basic") {
      var copy = res.clone();
      caches.open(CACHE).then(function (c) { c.put(req, copy); });
    }
    return res;
  });
}

self.addEventListener("fetch", function (event) {
  var req = event.request;
  var url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/api/") === 0 && /\/version$/.test(url.pathname)) return;  // live polling: never cached
  if (HASHED.test(url.pathname)) {
    event.respondWith(caches.match(req).then(function (hit) { return hit || fromNetwork(req); }));
    return;
  }
  event.respondWith(fromNetwork(req).catch(function () {
    return caches.match(req).then(function (hit) {
      if (hit) return hit;
      if (req.mode === "navigate") return caches.match("/offline");
      return new Response("", { status: 503, statusText: "offline" });
    });
  }));
});
