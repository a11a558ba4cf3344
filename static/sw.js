// Service worker: offline play and controlled updates (a template filled by build_site.py).
//
// The build replaces VERSION with the content hash of everything shipped and PRECACHE with
// the files a start needs (page, config, our Python files, PyScript core and the plugin
// chunks it loads, the vendored Pyodide). One cache per version; old ones are deleted when a
// new version activates. Immutable files fetched later (the full stdlib archive) are added to
// the cache on their first fetch. A new version installs in the background and then waits: the page
// shows "Update available" and posts SKIP_WAITING when the player accepts.
"use strict";

const VERSION = "__BUILD_VERSION__";
const PRECACHE = [/* __PRECACHE_LIST__ */];
// URL prefixes whose names carry a version or hash: safe to take from the HTTP cache.
const IMMUTABLE = [/* __IMMUTABLE_PREFIXES__ */];
const CACHE_PREFIX = "cribbage-";
const CACHE = CACHE_PREFIX + VERSION;

const scope = new URL(self.registration.scope);

let opened = null;
function openCache() {  // one open for the worker's life, not one per request (retried if it failed)
  if (opened === null) {
    opened = caches.open(CACHE).catch((error) => {
      opened = null;
      throw error;
    });
  }
  return opened;
}

function isImmutable(path) {
  return IMMUTABLE.some((prefix) => path.startsWith(prefix));
}

async function precache() {
  const cache = await caches.open(CACHE);
  await Promise.all(PRECACHE.map(async (path) => {
    const url = new URL(path, scope);
    // Unversioned files (index.html, the config, our .py files) must match this version:
    // revalidate them instead of trusting the HTTP cache.
    const response = await fetch(new Request(url, { cache: isImmutable(path) ? "default" : "no-cache" }));
    if (!response.ok) throw new Error(`precache ${url.pathname}: HTTP ${response.status}`);
    await cache.put(url, response);
  }));
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names
      .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE)
      .map((name) => caches.delete(name)));
    // Take control of pages opened before the first install, so they work offline at once.
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
  if (event.data && event.data.type === "GET_VERSION" && event.source) {
    event.source.postMessage({ type: "VERSION", version: VERSION });
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== scope.origin) return;
  let key = url.pathname;
  if (key.endsWith("/")) key += "index.html";
  event.respondWith((async () => {
    let cache;
    try {
      cache = await openCache();
    } catch {
      return fetch(request); // no Cache Storage now (e.g. storage pressure): the network
    }
    // The key is the path alone (no query string), so an exact match: ignoreSearch would
    // make Cache Storage compare every entry.
    const hit = await cache.match(new URL(key, scope));
    if (hit) return hit;
    const response = await fetch(request);
    // Version- or content-named files fetched on demand (the full stdlib archive on a first
    // import of a module the small one lacks): keep them, so that import works offline too.
    const path = url.pathname.slice(scope.pathname.length);
    if (response.ok && isImmutable(path)) await cache.put(new URL(key, scope), response.clone());
    return response;
  })());
});
