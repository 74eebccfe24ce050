// Offline: network first (answers must be current), the cache when there is no network.
// The shell is cached on install; every page and rule visited is cached as it is read.
var CACHE = "tablebot-v2";
var SHELL = ["/", "/offline", "/static/css/app.css", "/static/js/tablebot.js", "/static/js/theme.js",
  "/static/icons/icon.svg", "/static/icons/icon-192.png", "/manifest.webmanifest", "/rules",
  "/static/css/rules.css", "/static/js/rules.js"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(SHELL); }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var req = event.request;
  var url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  event.respondWith(fetch(req).then(function (res) {
    if (res.ok && res.type === "basic") {
      var copy = res.clone();
      caches.open(CACHE).then(function (c) { c.put(req, copy); });
    }
    return res;
  }).catch(function () {
    return caches.match(req).then(function (hit) {
      if (hit) return hit;
      if (req.mode === "navigate") return caches.match("/offline");
      return new Response("", { status: 503, statusText: "offline" });
    });
  }));
});
