// engine-worker.js: the game's engine for play without a network.  Pyodide (CPython in WebAssembly, served
// from this origin) runs the package's own Python modules; web/offline.py answers each request as the
// server would, so the page draws the answer with the same code.  No rule is written here: this file only
// loads Python, passes requests in and answers out, and keeps each changed game in IndexedDB (keep.js).
import { kept } from "./keep.js";

let engine = null;

async function boot() {
  const listing = await (await fetch("/offline/files.json")).json();
  const { loadPyodide } = await import(`${listing.pyodide}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: listing.pyodide, fullStdLib: false });
  const zip = await (await fetch(listing.engine)).arrayBuffer();
  pyodide.unpackArchive(zip, "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys; sys.path.insert(0, '/engine')");
  const api = pyodide.pyimport("pyramid_solitaire.web.offline").OfflineApi();
  api.restore_json(JSON.stringify(await kept.all()));
  return { pyodide, api };
}

function answer(message) {
  // JSON text both ways: the page gets the very JSON the server would send
  const url = new URL(message.path, self.location.origin);
  const query = JSON.stringify(Object.fromEntries(url.searchParams.entries()));
  const body = JSON.stringify(message.body === undefined ? null : message.body);
  return JSON.parse(engine.api.handle_json(message.method, url.pathname, query, body, message.lang));
}

// Requests are answered one at a time, in the order they came, as the server's per-game lock would.
let queue = Promise.resolve();
self.onmessage = (event) => {
  const message = event.data;
  queue = queue.then(async () => {
    try {
      engine = engine || (await boot());
      if (message.warm) return; // started early, before the page's first request (offline.js)
      const result = answer(message);
      if (result.kept) await kept.put(result.kept);
      self.postMessage({ id: message.id, status: result.status, body: result.body });
    } catch (error) {
      engine = null;
      self.postMessage({ id: message.id, status: 0, body: null, error: String(error) });
    }
  });
};
