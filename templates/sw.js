{% load i18n %}// The service worker (served from the site root by pinochle_site.views.service_worker, so its scope
// is the whole site). It keeps the app shell and the game pages this phone has opened, so they open
// without a network. Only GETs are handled here: a hand's Save goes to the network from the page
// (static/js/table.js keeps it in an outbox until the server confirms it).
"use strict";
const CACHE = "pinochle-{{ version }}";
const SHELL = {{ shell|safe }};
// Pages kept for offline use once opened: the games list, a game (not its live poll), a share link, the rules.
const KEEP = /^\/($|g\/[^/]+\/($|history\/$)|s\/[^/]+\/$|rules\/$)/;
const NETWORK_WAIT_MS = 4000;
const OFFLINE_PAGE = {{ offline_page|safe }};

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); }).then(function () {
    return self.skipWaiting();
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.startsWith("pinochle-") && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

// The network first (a page is fresh whenever it can be), the kept copy when the network is gone
// or slower than NETWORK_WAIT_MS.
function networkFirst(request, keep) {
  const network = fetch(request).then(function (response) {
    if (keep && response.ok && response.type === "basic") {
      const copy = response.clone();
      caches.open(CACHE).then(function (cache) { return cache.put(request, copy); });
    }
    return response;
  });
  const kept = function () { return caches.match(request, { ignoreVary: true }); };
  const slow = new Promise(function (resolve) { setTimeout(resolve, NETWORK_WAIT_MS); }).then(kept).then(
    function (copy) { return copy || network; }
  );
  return Promise.race([network, slow]).catch(function () {
    return kept().then(function (copy) {
      if (copy) return copy;
      if (request.mode !== "navigate") return Response.error();
      return new Response(OFFLINE_PAGE, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
    });
  });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.endsWith("/live") || url.pathname.startsWith("/admin/")) return;
  const isStatic = url.pathname.startsWith("{{ static_prefix }}");
  const keep = isStatic || (request.mode === "navigate" && KEEP.test(url.pathname) && !url.search);
  if (!keep && request.mode !== "navigate") return;
  event.respondWith(networkFirst(request, keep));
});

// The page asks to keep a fresh copy of itself after a hand was saved (the #game part was swapped in).
self.addEventListener("message", function (event) {
  const data = event.data || {};
  if (data.type !== "refresh" || !data.url) return;
  const url = new URL(data.url);
  if (url.origin !== self.location.origin || !KEEP.test(url.pathname)) return;
  event.waitUntil(fetch(url.href, { credentials: "same-origin" }).then(function (response) {
    if (response.ok) return caches.open(CACHE).then(function (cache) { return cache.put(url.href, response); });
  }).catch(function () {}));
});
