// state.js: the app's state — the game shown, the player's selection, the settings — and applying an
// answer from the server to it: remembered, drawn (board.js), animated, said, and a finished game's
// result shown.
import { api } from "./api.js";
import { lang, t } from "./i18n.js";
import { loadSettings } from "./settings.js";
import { replayMode, viewing } from "./mode.js";
import { navigable, removedPile, render } from "./board.js";
import { animate, before } from "./animate.js";
import * as motion from "./motion.js";
import { describe, say, shownMessage } from "./narrate.js";
import { showBest, showResult } from "./result.js";
import { dayName } from "./daily.js";
import * as select from "./select.js";
import { play as sound } from "./sound.js";
import { restartClock, showTime } from "./timer.js";

/** @type {PageLookup} */
const $ = (id) => /** @type {PageElement<typeof id>} */ (document.getElementById(id));
// The table's parts board.js draws into.
export const dom = {
  board: $("board"), pyramid: $("pyramid"), jokers: $("jokers"), removed: $("removed"), stockArea: $("stock-area"),
  cells: $("cells"), locks: $("locks"),
};
// The game this tab shows (a reload shows it again, finished or not), and the game this browser played
// last (kept across tabs and restarts, so opening the app resumes it while it is unfinished).
export const GAME_KEY = "pyramid.game";
const RESULT_DELAY_MS = 380;
// Answers after which the chosen cards stay chosen (those still selectable): the cards on the board
// did not move.  After any other (a removal, a park, undo, redo, rewind) the selection is put down.
const KEEPS_SELECTION = new Set(["draw", "recycle", "hint", "coach"]);

// `selection`: the cards the player has chosen, in the order tapped (the page's alone, never sent).
// `busy`: a request is under way; `shownResult`: the game whose result was shown; `rules`: /api/rules.
/**
 * The game shown: a game route's state, or a replay's step (which has no daily, challenge or offline).
 * @typedef {Wire.SessionState & Partial<Pick<Wire.GameState, "daily" | "challenge" | "offline">>} ShownGame
 */
/**
 * @type {{ game: ShownGame | null, selection: string[], settings: import("./settings.js").Settings,
 *   busy: boolean, shownResult: string | null, rules: Wire.RulesCatalogue | null }}
 */
export const app = { game: null, selection: [], settings: loadSettings(), busy: false, shownResult: null,
  rules: null };

// --- drawing -----------------------------------------------------------------------------------

export function draw() {
  const game = app.game;
  if (!game) return;
  render(game, dom, app.settings, { selected: app.selection, partners: select.partners(game, app.selection) });
  // For tests and tools: which answer the page shows (a new game id, or a new version of one game).
  document.body.dataset.game = game.id;
  document.body.dataset.version = String(game.version);
  const link = $("deal-link");
  link.textContent = game.code;
  link.href = `/play/${game.code}`;
  $("moves").textContent = String(game.moves);
  $("score-box").hidden = game.score === null;
  $("score").textContent = String(game.score ?? 0);
  showDifficulty($("diff-badge"), game.difficulty);
  // a game the engine in this browser plays (dealt offline): its record goes to the server when it can
  const away = $("offline-badge");
  away.hidden = !game.offline;
  away.title = game.offline ? t("offline_note") : "";
  const daily = $("daily-badge");
  daily.hidden = !game.daily;
  if (game.daily) {
    // short, so that it fits a phone's top bar beside the code and the difficulty: 「デイリー 12月1日」
    const date = dayName(game.daily.date, { month: "short", day: "numeric" });
    daily.textContent = t(game.daily.counted ? "daily_badge" : "daily_badge_late", { date });
    daily.title = game.daily.counted ? game.daily.date : `${game.daily.date} — ${t("daily_late_note")}`;
  }
  const challenge = $("challenge-badge");
  challenge.hidden = !game.challenge;
  if (game.challenge) {
    // done, it says so in fewer letters than before (「✓ 達成：…」 for 「チャレンジ：…」), so that a goal met mid-game
    // (Pyramide's score) cannot push the header onto another line under the player's finger
    challenge.textContent = t(game.challenge.done ? "challenge_badge_done" : "challenge_badge", { title: game.challenge.title });
    challenge.title = challenge.textContent;
  }
  const playing = game.status === "playing" && !replayMode();
  $("btn-undo").disabled = !game.can_undo || replayMode();
  $("btn-redo").disabled = !game.can_redo || replayMode();
  $("btn-hint").disabled = !playing;
  $("btn-coach").hidden = !app.settings.coach;
  $("btn-coach").disabled = !playing;
  $("btn-rewind").hidden = !game.can_rewind;
  $("btn-resign").disabled = !playing;
  showKeys();
  showTime(app.game);
  dispatchEvent(new Event("pyramid-drawn")); // the table's cards are new elements (guide.js marks them again)
}

// The key legend: the keys this game has (no D without a stock, as in Giza; C only with free cells);
// before a game is dealt, those of a game with a stock and no cells.
export function showKeys() {
  const game = app.game;
  $("keys-help").textContent = t("keys_help", { stock: !game || game.has_stock ? t("keys_help_stock") : "",
    cell: game && game.cells.size ? t("keys_help_cell") : "" });
}

// For tests and tools: a count of the times the page finished answering the player (a state drawn, a
// card chosen or put down, a tap refused).  Choosing a card changes no version, so this is what says
// the page is drawn.
export function drawn() {
  document.body.dataset.drawn = String(Number(document.body.dataset.drawn || 0) + 1);
}

// --- answers from the server ---------------------------------------------------------------------------

function focusIndex() {
  return navigable().indexOf(/** @type {HTMLElement} */ (document.activeElement));
}

function keepFocus(index) {
  const active = /** @type {HTMLElement} */ (document.activeElement);
  if (active && active !== document.body && document.body.contains(active) && active.tabIndex >= 0) return;
  if (index < 0) return;
  const items = navigable();
  if (items.length) items[Math.min(index, items.length - 1)].focus();
}

export function accept(answer, { dealt = false } = {}) {
  const previous = app.game;
  const event = answer.event;
  const index = focusIndex();
  const was = before(event, app.game);
  const samePosition = previous && previous.id === answer.game.id
    && (previous.version === answer.game.version || KEEPS_SELECTION.has(event.kind));
  app.selection = samePosition ? select.keep(answer.game, app.selection) : [];
  app.game = answer.game;
  // another game on the table (dealt, resumed, a challenge's, the day's): the last game's words (a hint,
  // "Link copied", 「クリア！」) are not this one's; what this answer says follows
  if (!previous || previous.id !== app.game.id) say("");
  restartClock();
  if (!replayMode()) {
    sessionStorage.setItem(GAME_KEY, app.game.id);
    localStorage.setItem(GAME_KEY, app.game.id);
  }
  draw();
  animate(dom, event, was, app.game, dealt);
  keepFocus(index);
  const same = previous && previous.id === app.game.id ? previous : null;
  describe(event, app.game, same);
  // The warning is said when a card becomes dead (or a game opens with one); after that the locks on the
  // table keep saying it, and the message line is left to what each answer says (a hint, the coach).
  const newlyDead = app.game.dead.length && (!same || same.dead.join() !== app.game.dead.join());
  if (newlyDead) say(t("dead_notice"), { error: true });
  // A move that completes a daily challenge is celebrated (with the win, when it is the winning move).
  const completed = same && same.challenge && !same.challenge.done && app.game.challenge && app.game.challenge.done;
  // A move that ends the game says so after what it did (「…をめくりました。手詰まりです」): the message line
  // would otherwise keep the move alone once the result is closed, and the announcer said nothing of the
  // end. Resigning says its own 「投了しました」.
  if (same && !same.result && app.game.result && event.kind !== "resigned" && app.game.status_message) {
    const move = shownMessage();
    say(move ? t("game_end_msg", { move, end: app.game.status_message }) : app.game.status_message);
  }
  if (app.game.result) finish(completed);
  else if (completed) celebrateChallenge();
  dispatchEvent(new CustomEvent("pyramid-answer", { detail: { event, game: app.game } })); // guide.js
  drawn();
}

// A state shown as it is, with nothing chosen (a step of a replay, records.js).
export function show(state) {
  app.game = state;
  app.selection = [];
  restartClock();
  draw();
  drawn();
}

// A state only looked at (a replay's step, a step of the solver's line): a move forward (`event`) is played
// with the table's motion and said, as the player's own moves are; a `state` event (a step back, a jump)
// draws the table as it stands.
/** @param {ShownGame} state @param {Wire.EventAnswer} event */
export function showLookedAt(state, event, dealt = false) {
  const previous = app.game;
  const was = before(event, previous);
  show(state);
  animate(dom, event, was, state, dealt);
  if (event.kind !== "state") describe(event, state, previous);
}

// --- the end of a game --------------------------------------------------------------------------------

// A verified deal's par is worked out in the background: ask again for it a while, and show it when known.
const PAR_POLL_MS = 3000;
const PAR_POLLS = 60;

// `game`: the finished game whose result waits for it. While the solver's line is watched the table shows
// another state of the same game; the asking goes on, and the par goes into `game`, which the watch shows
// again when it stops (it stopped there before, and the result said 「計算中」 for good).
function waitForPar(game, left) {
  if (left <= 0) return;
  const ours = () => Boolean(app.game && app.game.id === game.id && (app.game.result || viewing.watch));
  window.setTimeout(async () => {
    if (!ours()) return;
    try {
      const answer = await api.get(game.id, lang());
      const par = answer.game.result && answer.game.result.par;
      if (!ours() || !par) return;
      if (par.status === "pending") return waitForPar(game, left - 1);
      game.result.par = par;
      if (!viewing.watch && app.game !== game && app.game.result) app.game.result.par = par;
      if ($("dlg-result").open && !viewing.watch) showResult(app.game);
    } catch (error) {
      waitForPar(game, left - 1);
    }
  }, PAR_POLL_MS);
}

function celebrateChallenge() {
  sound("win");
  say(t("challenge_completed_msg", { title: app.game.challenge.title }));
  motion.celebrate(dom.board, removedPile(), t("challenge_completed"), () => {});
}

function finish(completed = false) {
  const game = app.game;
  if (app.shownResult === game.id) return;
  app.shownResult = game.id;
  if (completed && !game.result.won) celebrateChallenge();
  if (game.result.won) {
    sound("win");
    motion.celebrate(dom.board, removedPile(), t(completed ? "challenge_completed" : "result_won"), () => {
      if (app.game && app.game.id === game.id) showResult(app.game);
    });
  } else {
    window.setTimeout(() => showResult(game), motion.enabled() ? RESULT_DELAY_MS : 0);
  }
  if (game.result.par && game.result.par.status === "pending") waitForPar(game, PAR_POLLS);
  if (!game.result.won && game.result.best_removed === null) {
    // How far the deal could have gone is solved on demand, so the last move answered at once.
    api.best(game.id, lang()).then((best) => {
      if (!app.game || app.game.id !== game.id) return;
      Object.assign(app.game.result, best);
      showBest(app.game.result);
    }).catch(() => {});
  }
}

// The difficulty badge: 「ふつう · クリア可能と確認済み」.  Where the header has one short line (a phone held
// sideways) the words after the difficulty give way to a check mark, and "Fully random" to "Random", read
// out as the whole words still.
/** @param {HTMLElement} badge @param {string} difficulty */
function showDifficulty(badge, difficulty) {
  if (difficulty === "R") {
    const words = document.createElement("span");
    words.className = "diff-words";
    words.textContent = t("diff_R");
    const short = document.createElement("span");
    short.className = "diff-short";
    short.setAttribute("aria-hidden", "true");
    short.textContent = t("diff_R_short");
    badge.replaceChildren(words, short);
    return;
  }
  const words = document.createElement("span");
  words.className = "verified-words";
  words.textContent = ` · ${t("verified")}`;
  const mark = document.createElement("span");
  mark.className = "verified-mark";
  mark.setAttribute("aria-hidden", "true");
  mark.textContent = " ✓";
  badge.replaceChildren(t(`diff_${difficulty}`), words, mark);
}
