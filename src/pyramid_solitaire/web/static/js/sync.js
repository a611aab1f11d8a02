// sync.js: the games finished offline reach the server once the network is back (at the next visit too).
// The server replays every entry with its own engine before it counts a game, takes a game it already has
// once, and names any it refuses (POST /api/me/sync).  What it took or refused is forgotten here; an
// unfinished game stays in this browser, to be finished with the engine that dealt it.
import { api, ApiError } from "./api.js";
import { kept } from "./keep.js";
import { offline } from "./offline.js";

let running = null;

// Sends what is waiting; resolves to {landed, known, refused} (empty lists when nothing was sent).
export function syncOffline(lang) {
  running = running || send(lang).finally(() => { running = null; });
  return running;
}

async function send(lang) {
  const none = { landed: [], known: [], refused: [] };
  if (!("indexedDB" in self)) return none;
  let finished;
  try {
    finished = (await kept.all()).filter((game) => game.result !== null);
  } catch (error) {
    return none;
  }
  if (!finished.length) return none;
  const answer = await api.sync(finished, lang);
  await kept.forget([...answer.landed, ...answer.known, ...answer.refused.map((r) => r.id)]);
  return answer;
}

// How often a page with games waiting looks again whether the server can be reached: the browser's
// "online" event is not always sent (and a network can be up with the server out of reach).
const RETRY_MS = 20_000;

// The network is back: new games go to the server again, and what was finished offline is sent.
export function watchNetwork(lang, report) {
  const attempt = async () => {
    if (!navigator.onLine) return;
    if (offline.active) {
      // dealing here since the server was out of reach: is it back?
      try {
        if (!(await fetch("/healthz", { cache: "no-store" })).ok) return;
      } catch (error) {
        return;
      }
      offline.active = false;
    }
    try {
      report(await syncOffline(lang()));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  };
  addEventListener("online", () => { offline.active = false; attempt(); });
  setInterval(attempt, RETRY_MS);
}
