/* The service worker (issue 29 item 3): a table's score sheet, and the files
   it needs, kept on the phone so that the page opens while the wifi is down
   (offline.js keeps the hands entered meanwhile, in IndexedDB).

   A table's sheet (/tables/<id>/, or /t/<secret>/ through its link) is asked
   of the network first and kept each time it comes; without a network the
   copy kept is shown. The site's files are kept the first time and shown
   from the copy after (their names change with their content in production).
   Nothing else is touched: every other request goes to the network as usual.
   Rendered by league.web.entry.service_worker, which names the files. */
"use strict";
var CACHE = "card-league-{{ version }}";
var FILES = {{ files|safe }};
var TABLE_PAGE = /^\/(tables\/[0-9]+|t\/[A-Za-z0-9_-]+)\/$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(FILES); }));
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(
        names.filter(function (name) { return name.indexOf("card-league-") === 0 && name !== CACHE; })
          .map(function (name) { return caches.delete(name); })
      );
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) {
    return;
  }
  if (request.mode === "navigate" && TABLE_PAGE.test(url.pathname)) {
    event.respondWith(
      fetch(request).then(function (answer) {
        if (answer.ok) {
          var copy = answer.clone();
          caches.open(CACHE).then(function (cache) { cache.put(url.pathname, copy); });
        }
        return answer;
      }).catch(function () {
        return caches.match(url.pathname).then(function (kept) {
          return kept || new Response(
            "<!doctype html><title>Offline</title><p>This page was not opened on this phone before the connection was lost. Open it again once the connection is back.</p>",
            { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }
          );
        });
      })
    );
    return;
  }
  if (url.pathname.indexOf("{{ static_prefix }}") === 0) {
    event.respondWith(
      caches.match(request).then(function (kept) {
        return kept || fetch(request).then(function (answer) {
          if (answer.ok) {
            var copy = answer.clone();
            caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
          }
          return answer;
        });
      })
    );
  }
});
