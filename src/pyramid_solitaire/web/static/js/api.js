// api.js: the only module that talks to the server.  Every answer is JSON; a refused request is an
// ApiError carrying the server's {code, message, details}.  Offline, the same requests are answered by
// the engine in this browser (offline.js), with the same answers.
import { offline } from "./offline.js";

// The answers' types are the server's own (Wire.*: scripts/api_types.py writes them from
// /api/openapi.json for the type check), so a field renamed there fails `scripts/check` here.

export class ApiError extends Error {
  /** @param {number} status @param {Wire.ErrorAnswer | null} body */
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.code = body && body.code ? body.code : "network";
    /** @type {Wire.ErrorDetails} */
    this.details = body && body.details ? body.details : {};
  }
}

/**
 * One request, answered by the server or by this browser's engine: its JSON answer (typed by the
 * methods of `api` below), or an ApiError.
 * @param {string} method @param {string} path @param {unknown} body @param {string} lang
 * @returns {Promise<any>}
 */
export async function call(method, path, body, lang) {
  // A game dealt offline is the worker's, online or not; anything else goes to the server first, and to
  // the worker when the server cannot be reached and this browser keeps the engine (offline.js) — but
  // never a game the server dealt: the worker does not hold it, and answered a move in it, the network
  // gone mid-game, with "that game is not found" and nothing played.  Such a request always tries the
  // server, and offline it says that this game waits for the network (a new game can be played here).
  const serverOnly = offline.serverOnly(path);
  const serversGame = path.startsWith("/api/games/") && !offline.owns(path);
  if (offline.owns(path) || (offline.active && offline.ready() && !serverOnly && !serversGame)) {
    return fromWorker(method, path, body, lang);
  }
  const url = `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(lang)}`;
  const options = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {
    if (!offline.ready() || serverOnly) throw new ApiError(0, null);
    offline.active = true;
    dispatchEvent(new Event("pyramid-offline")); // the page says so (main.js)
    if (serversGame) throw new ApiError(0, { code: "offline-server-game", message: "", details: {} });
    return fromWorker(method, path, body, lang);
  }
  offline.active = false; // the server answered (a game of its own, tried though offline): it is back
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

async function fromWorker(method, path, body, lang) {
  const answer = await offline.ask(method, path, body, lang);
  if (answer.status < 200 || answer.status >= 300) throw new ApiError(answer.status, answer.body);
  return answer.body;
}

const game = (id) => `/api/games/${encodeURIComponent(id)}`;

// Moves and commands carry the version of the game the player saw: if it moved on elsewhere, the server
// answers 409 "conflict" instead of applying a move meant for another position.  Choosing cards is the
// page's own business (select.js): nothing is sent until a move is made.
export const api = {
  /** @type {(lang: string) => Promise<Wire.RulesCatalogue>} */
  rules: (lang) => call("GET", "/api/rules", undefined, lang),
  /** @type {(request: object, lang: string) => Promise<Wire.GameAnswer>} */
  newGame: (request, lang) => call("POST", "/api/games", request, lang),
  /** @type {(id: string, lang: string) => Promise<Wire.GameAnswer>} */
  get: (id, lang) => call("GET", game(id), undefined, lang),
  // One move in notation ("Ad+Qs", "Kd", "draw", "recycle", "Qs>cell"); a park may name its cell (from 0).
  /** @type {(id: string, move: string, cell: number | undefined, lang: string, version: number) => Promise<Wire.GameAnswer>} */
  move: (id, move, cell, lang, version) => call("POST", `${game(id)}/move?version=${version}`,
    cell === undefined ? { move } : { move, cell }, lang),
  /** @type {(id: string, name: string, lang: string, version: number) => Promise<Wire.GameAnswer>} */
  command: (id, name, lang, version) => call("POST", `${game(id)}/${name}?version=${version}`, undefined, lang),
  /** @type {(id: string, lang: string) => Promise<Wire.BestAnswer>} */
  best: (id, lang) => call("GET", `${game(id)}/best`, undefined, lang),
  // The solver's line on a finished game's table, after its first `step` moves (watch.js).
  /** @type {(id: string, step: number, lang: string) => Promise<Wire.WatchAnswer>} */
  watch: (id, step, lang) => call("GET", `${game(id)}/watch?step=${step}`, undefined, lang),
  /** @type {(id: string, step: number, lang: string) => Promise<Wire.ReplayAnswer>} */
  replay: (id, step, lang) => call("GET", `${game(id)}/replay?step=${step}`, undefined, lang),
  /** @type {(lang: string) => Promise<Wire.MeAnswer>} */
  me: (lang) => call("GET", "/api/me", undefined, lang),
  /** @type {(name: string, lang: string) => Promise<Wire.NameAnswer>} */
  setName: (name, lang) => call("PUT", "/api/me", { name }, lang),
  /** @type {(lang: string) => Promise<Wire.StatsAnswer>} */
  stats: (lang) => call("GET", "/api/stats", undefined, lang),
  /** @type {(lang: string) => Promise<Wire.StatsAnswer>} */
  resetStats: (lang) => call("POST", "/api/stats/reset", undefined, lang),
  /** @type {(code: string, lang: string) => Promise<Wire.LeaderboardAnswer>} */
  leaderboard: (code, lang) => call("GET", `/api/leaderboard/${encodeURIComponent(code)}`, undefined, lang),
  /** @type {(data: unknown, lang: string) => Promise<Wire.ImportAnswer>} */
  importRecords: (data, lang) => call("POST", "/api/me/import", data, lang),
  // Games played offline, sent once the network is back (sync.js); the server replays each one.
  /** @type {(games: object[], lang: string) => Promise<Wire.SyncAnswer>} */
  sync: (games, lang) => call("POST", "/api/me/sync", { games }, lang),
  // Today's challenges with the player's progress, starting one, and the monthly badges (challenges.js).
  challenges: {
    /** @type {(lang: string) => Promise<Wire.ChallengesAnswer>} */
    list: (lang) => call("GET", "/api/challenges", undefined, lang),
    /** @type {(id: string, lang: string) => Promise<Wire.GameAnswer>} */
    play: (id, lang) => call("POST", `/api/challenges/${encodeURIComponent(id)}/games`, undefined, lang),
    /** @type {(lang: string) => Promise<Wire.BadgesAnswer>} */
    badges: (lang) => call("GET", "/api/badges", undefined, lang),
  },
  // The daily deal: a day's deal and par, playing it, the player's streak and calendar, the day's leaderboard.
  daily: {
    /** @type {(rules: string, lang: string) => Promise<Wire.DailyAnswer>} */
    get: (rules, lang) => call("GET", `/api/daily?rules=${encodeURIComponent(rules)}`, undefined, lang),
    /** @type {(body: object, lang: string) => Promise<Wire.GameAnswer>} */
    play: (body, lang) => call("POST", "/api/daily/games", body, lang),
    /** @type {(rules: string, lang: string) => Promise<Wire.CalendarAnswer>} */
    me: (rules, lang) => call("GET", `/api/daily/me?rules=${encodeURIComponent(rules)}`, undefined, lang),
    /** @type {(rules: string, lang: string) => Promise<Wire.DailyBoardAnswer>} */
    board: (rules, lang) => call("GET", `/api/daily/board?rules=${encodeURIComponent(rules)}`, undefined, lang),
  },
};
