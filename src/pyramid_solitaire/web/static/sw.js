// sw.js: the service worker that keeps the app on this device, so that it opens and plays without a
// network (docs/web.md, "Offline").  The server writes this release's name and the app shell's files in
// place of the two placeholders, so every release is a new worker with caches of its own.
//
//   the app shell   (the page, its stylesheet and modules, texts, card art, icons): precached when the
//                   worker installs, in "pyramid-shell-<release>"; served from there, the network asked
//                   only for what the shell does not hold.  A new release installs a new cache and the
//                   old ones are deleted when it takes over.
//   the bundle      (/pyodide/<version>/…, /offline/<hash>/engine.zip, /offline/files.json): kept in
//                   "pyramid-bundle" as the page fetches them after its first game; their addresses
//                   carry their version, so an entry never goes stale and the ones a release no longer
//                   lists are dropped.
//   pages           (/, /play/CODE, /daily…): the network first, so a player online always gets the
//                   current page; offline, the shell's page, which reads its own address.
//   /api/           never cached and never answered here: a game's state and a player's records are
//                   that player's, and live on the server (or, offline, in the page's engine worker).
// `self`, typed for the type check (tsconfig.worker.json) as what it is here, a service worker's global
// scope (its install/activate/fetch events, skipWaiting, clients): the webworker library types it as a
// dedicated worker's, which TypeScript does not let be cast to a service worker's but through unknown.
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const RELEASE = "{{RELEASE}}";
const SHELL_FILES = JSON.parse('{{SHELL}}');
const SHELL = `pyramid-shell-${RELEASE}`;
const BUNDLE = "pyramid-bundle";
const BUNDLE_PATH = /^\/(pyodide\/|offline\/)/;
const SHELL_PATHS = new Set(SHELL_FILES.map((url) => new URL(url, worker.location.origin).href));

worker.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL);
    await cache.addAll(SHELL_FILES.map((url) => new Request(url, { cache: "reload" })));
    await worker.skipWaiting();
  })());
});

worker.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("pyramid-shell-") && name !== SHELL) await caches.delete(name);
    }
    await pruneBundle();
    await worker.clients.claim();
  })());
});

// Drop bundle files this release's listing no longer names (an older Pyodide, an older engine).
async function pruneBundle() {
  let listing;
  try {
    const response = await fetch("/offline/files.json", { cache: "no-store" });
    if (!response.ok) return;
    listing = await response.json();
  } catch (error) {
    return; // offline: keep what there is
  }
  const wanted = new Set([...listing.files, "/offline/files.json"]);
  const cache = await caches.open(BUNDLE);
  for (const request of await cache.keys()) {
    if (!wanted.has(new URL(request.url).pathname)) await cache.delete(request);
  }
}

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== worker.location.origin) return;
  if (url.pathname.startsWith("/api/")) return; // the network's, always
  if (request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (url.pathname === "/offline/files.json") {
    event.respondWith(networkFirst(request, BUNDLE));
  } else if (BUNDLE_PATH.test(url.pathname)) {
    event.respondWith(keptFirst(request, BUNDLE));
  } else if (SHELL_PATHS.has(url.href)) {
    event.respondWith(keptFirst(request, SHELL));
  }
  // anything else (the health check, a file no release lists) is the network's, and never kept
});

async function page(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const shell = await caches.open(SHELL);
    const kept = await shell.match("/");
    if (kept) return kept;
    throw error;
  }
}

async function networkFirst(request, name) {
  try {
    const response = await fetch(request);
    if (response.status === 200) await (await caches.open(name)).put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await caches.match(request, { cacheName: name });
    if (kept) return kept;
    throw error;
  }
}

// From the cache, else from the network (and kept, if whole: a 200, never a partial or failed answer).
async function keptFirst(request, name) {
  const cache = await caches.open(name);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.status === 200 && response.type === "basic") await cache.put(request, response.clone());
  return response;
}

