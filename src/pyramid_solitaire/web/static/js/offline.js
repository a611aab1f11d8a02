// offline.js: play without a network.  The engine-worker (engine-worker.js) runs the server's own Python
// engine in this browser; api.js sends it a request when the server cannot be reached, and always for a
// game that was dealt offline (its id starts "off-").  The worker answers {status, body} exactly as the
// server would.  This module starts the worker, passes requests to it, fetches the bundle it needs while
// the network is here, and says whether offline play is ready.
import { loadSettings } from "./settings.js";

const OFFLINE_ID = /^\/api\/games\/off-/;
// Set once this device holds the bundle: the list of its files, which names their versions.
const READY_KEY = "pyramid.offline";
// The service worker's cache of the bundle (sw.js): the page fills it, the worker serves from it.
const BUNDLE = "pyramid-bundle";

let worker = null;
let counter = 0;
const waiting = new Map();

function fail(reason) {
  for (const resolve of waiting.values()) resolve({ status: 0, body: null, error: reason });
  waiting.clear();
  if (worker) worker.terminate();
  worker = null;
}

function start() {
  worker = new Worker("/static/js/engine-worker.js", { type: "module" });
  worker.onmessage = (event) => {
    const resolve = waiting.get(event.data.id);
    waiting.delete(event.data.id);
    if (resolve) resolve(event.data);
  };
  worker.onerror = (event) => fail(String(event.message || "worker"));
  return worker;
}

export const offline = {
  // true once a request could not reach the server: new games are dealt here until the network returns.
  active: false,
  owns: (path) => OFFLINE_ID.test(path),
  // Sending what was played offline is the server's alone: never answered by the worker.
  serverOnly: (path) => path.startsWith("/api/me/sync"),
  // Whether this browser holds the bundle (fetched while online) and the player allows offline play.
  ready: () => enabled() && localStorage.getItem(READY_KEY) !== null,
  ask(method, path, body, lang) {
    const id = ++counter;
    const answer = new Promise((resolve) => waiting.set(id, resolve));
    (worker || start()).postMessage({ id, method, path, body, lang });
    return answer;
  },
};

// A page that opens with no network starts Python at once, beside its own loading (the texts, the card
// art), rather than on its first request: about a tenth of an offline reload (docs/performance.md).
export function warmOffline() {
  if (navigator.onLine || !offline.ready()) return;
  (worker || start()).postMessage({ id: 0, warm: true });
}

function enabled() {
  return loadSettings().offline !== false;
}

// The service worker keeps the app on this device (sw.js).  Registered after the first game is drawn,
// so it never competes with the first visit; on a browser without service workers nothing changes.
export function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return null;
  return navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
}

// After the first game is on screen: fetch the bundle the worker loads, so that the service worker keeps
// it, then mark offline play ready.  Nothing is fetched when the player turned offline play off, or where
// the browser keeps no service worker.
export async function prepareOffline() {
  if (!enabled() || !("serviceWorker" in navigator) || !window.isSecureContext || !navigator.onLine) return false;
  let listing;
  try {
    const response = await fetch("/offline/files.json", { cache: "no-cache" });
    if (!response.ok) return false; // this server has no bundle: online play only
    listing = await response.json();
  } catch (error) {
    return false;
  }
  const version = listing.files.join(" ");
  if (localStorage.getItem(READY_KEY) === version && (await caches.has(BUNDLE))) return true;
  await registerWorker();
  await navigator.serviceWorker.ready;
  const cache = await caches.open(BUNDLE);
  for (const url of [...listing.files, "/offline/files.json"]) {
    if (await cache.match(url)) continue;
    const response = await fetch(url, { cache: "no-cache" });
    if (response.status !== 200) return false;
    await cache.put(url, response);
  }
  localStorage.setItem(READY_KEY, version);
  return true;
}

// Offline play turned off: the bundle leaves this device (the app shell stays, it is small).
export async function forgetOffline() {
  localStorage.removeItem(READY_KEY);
  if ("caches" in window) await caches.delete(BUNDLE);
  fail("off");
}

export function offlineReady() {
  return offline.ready();
}

// The manifest in the page's language (its name is what a phone's home screen shows).
export function pointManifest(lang) {
  const link = /** @type {HTMLLinkElement} */ (document.getElementById("manifest"));
  if (link) link.href = `/manifest.webmanifest?lang=${lang}`;
}

// "Add to home screen": offered where the browser says the app can be installed (beforeinstallprompt).
export function wireInstall(button) {
  let offer = null;
  addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    offer = event;
    button.hidden = false;
  });
  addEventListener("appinstalled", () => { offer = null; button.hidden = true; });
  button.addEventListener("click", async () => {
    if (!offer) return;
    const asked = offer;
    offer = null;
    button.hidden = true;
    await asked.prompt();
  });
}
