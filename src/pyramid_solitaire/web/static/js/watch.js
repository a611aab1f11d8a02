// watch.js: the solver's line on a finished game's table (the result screen's "watch" button) — played
// move by move with the table's own motion, paused and played on, stepped back and on, at a chosen speed,
// and stopped, which puts the player's finished game back with its result.  Each step is the state the
// server (or the engine in this browser, offline) answers for the table after that many moves of the
// line (web/watch.py): nothing here knows a rule, and nothing of the player's game or record changes.
import { api, ApiError } from "./api.js";
import { lang, t } from "./i18n.js";
import { viewing } from "./mode.js";
import * as motion from "./motion.js";
import { say, showError } from "./narrate.js";
import { app, show, showLookedAt } from "./state.js";
import { showResult } from "./result.js";

/** @type {PageLookup} */
const $ = (id) => /** @type {PageElement<typeof id>} */ (document.getElementById(id));
// Moves a second the speed menu offers; the first watch plays at DEFAULT_SPEED.
const SPEEDS = [1, 2, 4];
// A speed in the menu: 「毎秒 1 手」, "1 move a second" (not "1 moves").
/** @param {number} n */
const speedName = (n) => t(n === 1 ? "watch_speed_one" : "watch_speed_n", { n });
const DEFAULT_SPEED = 2;
const SPEED_KEY = "pyramid.watch-speed";
// The deal is on the table for a moment before the first move is played.
const FIRST_MOVE_DELAY_MS = 700;

// `finished`: the player's game, put back when the watch stops; `answer`: the step shown; `request`:
// counts the steps asked for, so that an answer overtaken by a later press is not drawn.
const watch = { finished: null, answer: null, playing: false, timer: null, request: 0 };

export function watching() {
  return viewing.watch;
}

function speed() {
  const chosen = Number($("watch-speed").value);
  return SPEEDS.includes(chosen) ? chosen : DEFAULT_SPEED;
}

// What the line is and what it knows, above the buttons: 「ソルバーの最短手順（48 手）。手順は山札の順番を…」.
/** @param {Wire.WatchAnswer} answer */
function describeLine(answer) {
  let line;
  if (answer.won) line = t(answer.shortest ? "watch_won_shortest" : "watch_won", { steps: answer.steps });
  else line = t("watch_lost", { removed: answer.removed, size: answer.pyramid_size });
  const knows = answer.knows.includes("face-down") ? "watch_knows_face_down"
    : answer.knows.includes("stock") ? "watch_knows_stock" : "watch_knows_all";
  return t("watch_note", { line, knows: t(knows) });
}

function showButtons() {
  const answer = watch.answer;
  const step = answer ? answer.step : 0;
  const steps = answer ? answer.steps : 0;
  $("watch-label").textContent = answer ? t("watch_step", { step, steps }) : t("watch_loading");
  $("watch-prev").disabled = !answer || step === 0;
  $("watch-next").disabled = !answer || step >= steps;
  $("watch-play").disabled = !answer;
  const label = t(watch.playing ? "watch_pause" : "watch_play");
  $("watch-play").setAttribute("aria-label", label);
  $("watch-play").title = label;
  $("watch-play").querySelector("use").setAttribute("href", watch.playing ? "#i-pause" : "#i-next");
}

// Draw one step: a move forward is played with the table's motion and said, as the player's own moves
// are; a step back (or a jump) is drawn as it stands.
/** @param {Wire.WatchAnswer} answer */
function draw(answer, { forward, dealt = false }) {
  watch.answer = answer;
  showLookedAt(answer.game, forward ? answer.event : { kind: "state", cards: [] }, dealt);
  if (answer.step >= answer.steps && answer.steps > 0) {
    say(answer.won ? t("watch_done_won", { steps: answer.steps }) : t("watch_done_lost", { removed: answer.removed }));
  } else if (!forward) say(t("watch_step", { step: answer.step, steps: answer.steps }));
  showButtons();
}

async function goTo(step, options) {
  const ticket = ++watch.request;
  const answer = await api.watch(watch.finished.id, step, lang());
  if (ticket !== watch.request || !viewing.watch) return false;
  draw(answer, options);
  return true;
}

function schedule(delay) {
  window.clearTimeout(watch.timer);
  watch.timer = window.setTimeout(playOn, delay);
}

async function playOn() {
  if (!viewing.watch || !watch.playing) return;
  const answer = watch.answer;
  if (answer.step >= answer.steps) {
    pause();
    return;
  }
  const started = Date.now();
  try {
    if (!(await goTo(answer.step + 1, { forward: true }))) return;
  } catch (error) {
    pause();
    showError(error);
    return;
  }
  if (watch.answer.step >= watch.answer.steps) pause();
  else schedule(Math.max(0, 1000 / speed() - (Date.now() - started)));
}

function pause() {
  watch.playing = false;
  window.clearTimeout(watch.timer);
  showButtons();
}

async function play() {
  if (!watch.answer) return;
  watch.playing = true;
  showButtons();
  if (watch.answer.step >= watch.answer.steps) {
    // from the end, the line plays again from the deal
    try { await goTo(0, { forward: true, dealt: true }); } catch (error) { pause(); showError(error); return; }
    schedule(FIRST_MOVE_DELAY_MS);
  } else playOn();
}

async function step(delta) {
  if (!watch.answer) return;
  pause();
  motion.skip();
  const target = Math.max(0, Math.min(watch.answer.steps, watch.answer.step + delta));
  if (target === watch.answer.step) return;
  try { await goTo(target, { forward: delta > 0 }); } catch (error) { showError(error); }
}

// Watch the solver's line for the finished game shown (the result dialog's button).
export async function startWatch() {
  const finished = app.game;
  if (!finished || !finished.result || viewing.watch) return;
  $("dlg-result").close();
  watch.finished = finished;
  watch.answer = null;
  watch.playing = true;
  viewing.watch = true;
  document.body.classList.add("replaying", "watching");
  $("watch-note").textContent = "";
  $("watch-bar").hidden = false;
  showButtons();
  say(t("watch_loading"));
  try {
    if (!(await goTo(0, { forward: true, dealt: true }))) return;
  } catch (error) {
    stopWatch();
    showError(error instanceof ApiError ? error : new ApiError(0, null));
    return;
  }
  $("watch-note").textContent = describeLine(watch.answer);
  say($("watch-note").textContent);
  $("watch-play").focus();
  schedule(FIRST_MOVE_DELAY_MS);
}

// Stop watching: the player's finished game is back on the table with its result.
export function stopWatch() {
  if (!viewing.watch) return;
  pause();
  watch.request += 1;
  motion.skip();
  viewing.watch = false;
  document.body.classList.remove("replaying", "watching");
  $("watch-bar").hidden = true;
  say("");
  show(watch.finished);
  showResult(watch.finished);
  $("btn-watch").focus();
}

// The keyboard while watching: Space plays or pauses, ← and → step, Home goes back to the deal, Escape
// stops.  True when the key was the watch's.
export function watchKey(event) {
  if (!viewing.watch) return false;
  // (the watch bar's own buttons; a card of the table with the focus plays nothing while the line is
  // watched, and Space there plays or pauses as anywhere else)
  const typing = event.target.closest && event.target.closest("select, #watch-bar button");
  const actions = {
    " ": () => (watch.playing ? pause() : play()),
    ArrowLeft: () => step(-1),
    ArrowRight: () => step(1),
    Home: () => step(-watch.answer.step),
    End: () => step(watch.answer.steps - watch.answer.step),
    Escape: stopWatch,
  };
  const action = actions[event.key];
  // a focused button answers Space itself, and a focused menu its arrows
  if (!action || (typing && (event.key === " " || event.target.tagName === "SELECT"))) return false;
  event.preventDefault();
  if (watch.answer || event.key === "Escape") action();
  return true;
}

export function wireWatch() {
  const menu = $("watch-speed");
  const kept = Number(localStorage.getItem(SPEED_KEY));
  menu.replaceChildren(...SPEEDS.map((n) => new Option(speedName(n), String(n))));
  menu.value = String(SPEEDS.includes(kept) ? kept : DEFAULT_SPEED);
  menu.addEventListener("change", () => localStorage.setItem(SPEED_KEY, menu.value));
  $("btn-watch").addEventListener("click", startWatch);
  $("watch-play").addEventListener("click", () => (watch.playing ? pause() : play()));
  $("watch-prev").addEventListener("click", () => step(-1));
  $("watch-next").addEventListener("click", () => step(1));
  $("watch-stop").addEventListener("click", stopWatch);
}

// The watch in a new language: the speed menu's texts, and the step shown asked for again in it.
export async function relabelWatch() {
  for (const option of $("watch-speed").options) option.textContent = speedName(Number(option.value));
  showButtons();
  if (!viewing.watch || !watch.answer) return;
  pause();
  try { await goTo(watch.answer.step, { forward: false }); } catch (error) { showError(error); }
  $("watch-note").textContent = describeLine(watch.answer);
}
