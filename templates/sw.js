{% load i18n %}// The service worker (served from the site root by pinochle_site.views.service_worker, so its scope
// is the whole site). It keeps the app shell and the game pages this phone has opened, so they open
// without a network. Only GETs are handled here: a hand's Save goes to the network from the page
// (static/js/outbox.js keeps it in an outbox until the server confirms it).
"use strict";
const CACHE = "pinochle-{{ version }}";
const SHELL = {{ shell|safe }};
// Pages kept for offline use once opened: the games list, a game (not its live poll), a share link, the rules.
const KEEP = /^\/($|g\/[^/]+\/($|history\/$)|s\/[^/]+\/$|rules\/$)/;
const NETWORK_WAIT_MS = 4000;
const OFFLINE_PAGE = {{ offline_page|safe }};
// Every page the server draws says whose session it was drawn for (pinochle_site/middleware.py):
// a kept page is served only while that is still the session the server last answered, and the
// pages of any other session are dropped as soon as a new one is seen (after a log-out or a
// log-in) or the page says the account is logging out. So a phone handed on keeps no one's
// signed-in header or game recovery code for the next person.
const TAG_HEADER = "{{ tag_header }}";
const OWNER_KEY = "/.offline-copies-owner";
let owner = null;
// Counts the times the phone changed hands (a log-out, another session seen): an answer to a request
// made before then was drawn for whoever had the phone at the time.
let generation = 0;

function currentOwner() {
  if (owner !== null) return Promise.resolve(owner);
  return caches.open(CACHE).then(function (cache) { return cache.match(OWNER_KEY); }).then(function (kept) {
    return kept ? kept.text() : "";
  }).then(function (tag) { owner = owner === null ? tag : owner; return owner; });
}

// Drop every kept page drawn for another session than `tag` ("" drops every page with a tag).
function keepOnlyFor(tag) {
  owner = tag;
  generation += 1;
  return caches.open(CACHE).then(function (cache) {
    return cache.put(OWNER_KEY, new Response(tag)).then(function () { return cache.keys(); }).then(function (requests) {
      return Promise.all(requests.map(function (request) {
        return cache.match(request).then(function (page) {
          const drawnFor = page && page.headers.get(TAG_HEADER);
          if (drawnFor !== null && drawnFor !== tag) return cache.delete(request);
        });
      }));
    });
  });
}

// What the server just answered tells whose session this phone is in now.
function notice(response) {
  const tag = response.headers.get(TAG_HEADER);
  if (tag === null) return Promise.resolve();
  return currentOwner().then(function (known) { if (known !== tag) return keepOnlyFor(tag); });
}

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

// An answer to a request made in generation `asked`: it says whose session the phone is in now and
// is kept (`copy`, if any) — unless the phone changed hands while it was on its way and it was drawn
// for another session than the one now (a slow page of the account that just logged out).
// The answers are noticed one after another, and a kept page is served only once every answer
// already in has been noticed: a page opened right after the session changed is never the old one's.
let noticed = Promise.resolve();

function settle(request, response, copy, asked) {
  const tag = response.headers.get(TAG_HEADER);
  if (asked !== generation && tag !== null && tag !== owner) return Promise.resolve();
  noticed = noticed.then(function () { return notice(response); }).catch(function () {});
  return noticed.then(function () {
    if (copy) return caches.open(CACHE).then(function (cache) { return cache.put(request, copy); });
  });
}

// The network first (a page is fresh whenever it can be), the kept copy when the network is gone
// or slower than NETWORK_WAIT_MS.
function networkFirst(request, keep) {
  const asked = generation;
  const network = fetch(request).then(function (response) {
    const copy = keep && response.ok && response.type === "basic" ? response.clone() : null;
    settle(request, response, copy, asked);
    return response;
  });
  const kept = function () {
    return noticed.then(function () {
      return Promise.all([caches.match(request, { ignoreVary: true }), currentOwner()]);
    }).then(function (found) {
      const copy = found[0];
      const drawnFor = copy && copy.headers.get(TAG_HEADER);
      return copy && (drawnFor === null || drawnFor === found[1]) ? copy : undefined;
    });
  };
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

// The page asks to keep a fresh copy of itself after a hand was saved (the #game part was swapped
// in), or to forget every page kept for the account that is logging out (it answers when done).
self.addEventListener("message", function (event) {
  const data = event.data || {};
  if (data.type === "forget") {
    event.waitUntil(keepOnlyFor("").then(function () {
      if (event.ports[0]) event.ports[0].postMessage("forgotten");
    }));
    return;
  }
  if (data.type !== "refresh" || !data.url) return;
  const url = new URL(data.url);
  if (url.origin !== self.location.origin || !KEEP.test(url.pathname)) return;
  const asked = generation;
  event.waitUntil(fetch(url.href, { credentials: "same-origin" }).then(function (response) {
    return settle(url.href, response, response.ok ? response : null, asked);
  }).catch(function () {}));
});
