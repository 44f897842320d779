// sw.js: the service worker that keeps the page working with the server
// gone or the network off (docs/wasm.md, "Offline"). Network first: each
// GET of this origin (but /api/ and the socket) still goes to the server,
// which answers 304 for what the browser holds; when the server cannot be
// reached the worker's copy answers, and every page address (/, /analysis,
// /g/ID, ...) gets the page. On install it fetches every file of the page
// (but 404.html, which only the server answers with), so one visit is
// enough: the list and the version (the files' hashes) are written in by
// scripts/embed-web.sh, so a change to any file is a new worker, which
// fetches them again and drops the old one's copies.
'use strict';
const CACHE = 'tak-@VERSION@';
const FILES = ['@ASSETS@'];
const PAGE = '/index.html'; // what the server answers for every page address

self.addEventListener('install', (e) => {
  e.waitUntil((async () => {
    const c = await caches.open(CACHE);
    await Promise.all([c.addAll(FILES.filter((f) => f !== PAGE)), pageResponse().then((res) => c.put(PAGE, res))]);
    await self.skipWaiting();
  })());
});

// The page, fetched by the address that opened it (/, /analysis, /g/ID...):
// every page address is /index.html, and that address's answer is in the
// browser's cache already, so it comes back as a 304, where /index.html
// itself would come whole (5 KB more on a first visit).
async function pageResponse() {
  const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of open) {
    const url = new URL(client.url);
    if (url.origin !== self.location.origin) continue;
    const res = await fetch(url.pathname);
    if (res.ok && (res.headers.get('content-type') || '').startsWith('text/html')) return res;
  }
  const res = await fetch(PAGE);
  if (!res.ok) throw new Error(`${PAGE}: ${res.status}`);
  return res;
}

self.addEventListener('activate', (e) => {
  e.waitUntil((async () => {
    for (const key of await caches.keys()) if (key.startsWith('tak-') && key !== CACHE) await caches.delete(key);
    // The page's request goes out while the worker starts, not after.
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  e.respondWith(answer(e, e.request.mode === 'navigate' ? PAGE : url.pathname));
});

// How long the server may take to start answering before the kept copy
// answers instead (a server that takes connections but not requests).
const PATIENCE_MS = 8000;

// The cache is written once, on install: a changed file comes with a new
// worker, so nothing is written on a visit. The kept copy answers when the
// server cannot be reached, when it is too slow, and when what stands in
// front of it answers 5xx in its place (a proxy with `tak serve` down).
async function answer(e, key) {
  const kept = () => caches.match(key, { cacheName: CACHE, ignoreVary: true });
  let res;
  try {
    res = await Promise.race([
      (async () => (await e.preloadResponse) || fetch(e.request))(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('the server is not answering')), PATIENCE_MS)),
    ]);
  } catch (err) {
    const copy = await kept();
    if (copy) return copy;
    throw err;
  }
  if (res.status >= 500) return (await kept()) || res;
  return res;
}
