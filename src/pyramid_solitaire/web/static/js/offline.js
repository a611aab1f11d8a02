// offline.js: play without a network.  The engine-worker (engine-worker.js) runs the server's own Python
// engine in this browser; api.js sends it a request when the server cannot be reached, and always for a
// game that was dealt offline (its id starts "off-").  The worker answers {status, body} exactly as the
// server would.  This module starts the worker, passes requests to it, fetches the bundle it needs while
// the network is here, and says whether offline play is ready.
import { loadSettings } from "./settings.js";

const OFFLINE_ID = /^\/api\/games\/off-/;
// What only the server knows (other players, the records it keeps): asked offline, the worker says so.
const READY_KEY = "pyramid.offline";

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
  // Whether this browser holds the bundle (fetched while online) and the player allows offline play.
  ready: () => enabled() && localStorage.getItem(READY_KEY) !== null,
  ask(method, path, body, lang) {
    const id = ++counter;
    const answer = new Promise((resolve) => waiting.set(id, resolve));
    (worker || start()).postMessage({ id, method, path, body, lang });
    return answer;
  },
};

function enabled() {
  return loadSettings().offline !== false;
}

// After the first game is on screen: fetch the bundle the worker loads, so that the service worker keeps
// it (cache-first under /pyodide/ and /offline/), then mark offline play ready.  Nothing is fetched when
// the player turned offline play off, or where the browser keeps no service worker.
export async function prepareOffline() {
  if (!enabled() || !("serviceWorker" in navigator) || !navigator.onLine) return false;
  let listing;
  try {
    const response = await fetch("/offline/files.json", { cache: "no-cache" });
    if (!response.ok) return false; // this server has no bundle: online play only
    listing = await response.json();
  } catch (error) {
    return false;
  }
  const version = listing.files.join(" ");
  if (localStorage.getItem(READY_KEY) === version) return true;
  await navigator.serviceWorker.ready;
  await keepFiles([...listing.files, "/offline/files.json", listing.worker, "/static/js/keep.js"]);
  localStorage.setItem(READY_KEY, version);
  return true;
}

// The service worker keeps what passes through it; before it controls this page (the very first visit),
// the page puts the files in its cache itself.
async function keepFiles(urls) {
  const worker = navigator.serviceWorker.controller;
  if (worker) {
    for (const url of urls) {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      await response.arrayBuffer();
    }
    return;
  }
  const names = await caches.keys();
  const name = names.find((n) => n.startsWith("pyramid-bundle-")) || "pyramid-bundle-0";
  const cache = await caches.open(name);
  await cache.addAll(urls);
}

export function forgetOffline() {
  localStorage.removeItem(READY_KEY);
}
