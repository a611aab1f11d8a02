// main.js: wires the page together — the game being shown, input (taps, drags, keys), the answers from
// the server and what the player hears and sees of them.  The page chooses cards itself from what the
// state says (select.js); each move, and each undo, redo, rewind, hint, coach or resign, is one request,
// and what comes back is drawn (board.js) and animated (motion.js).  Nothing here knows a rule.
import { api, ApiError } from "./api.js";
import { applyTexts, lang, list, loadLocale, t } from "./i18n.js";
import { applySettings, DEFAULTS, loadSettings, motionAllowed, saveSettings } from "./settings.js";
import { openRecords, replayMode, wireRecords } from "./records.js";
import { openRules, wireRules } from "./rules.js";
import { elementOf, navigable, removedPile, render, stockButton } from "./board.js";
import { loadArt } from "./cards.js";
import { confirmDialog } from "./dialogs.js";
import { wireDrag } from "./drag.js";
import * as motion from "./motion.js";
import { openNewDialog, refreshRules, wireNewGame } from "./newgame.js";
import { clock, showBest, showResult } from "./result.js";
import * as select from "./select.js";
import { play as sound, setSound } from "./sound.js";

const $ = (id) => document.getElementById(id);
const dom = {
  board: $("board"), pyramid: $("pyramid"), jokers: $("jokers"), removed: $("removed"), stockArea: $("stock-area"),
  cells: $("cells"), locks: $("locks"), message: $("message"), live: $("live"),
};
// The game this tab shows (a reload shows it again, finished or not), and the game this browser played
// last (kept across tabs and restarts, so opening the app resumes it while it is unfinished).
const GAME_KEY = "pyramid.game";
const HINT_MS = 3000;
const RESULT_DELAY_MS = 380;
// Answers after which the chosen cards stay chosen (those still selectable): the cards on the board
// did not move.  After any other (a removal, a park, undo, redo, rewind) the selection is put down.
const KEEPS_SELECTION = new Set(["draw", "recycle", "hint", "coach"]);

// `selection`: the cards the player has chosen, in the order tapped (the page's alone, never sent).
const app = { game: null, selection: [], settings: loadSettings(), received: 0, busy: false, shownResult: null,
  rules: null };

// --- messages ------------------------------------------------------------------------------------

function say(text, { visible = true, error = false } = {}) {
  dom.live.textContent = "";
  // A fresh text node each time so that screen readers announce a repeated message too.
  window.setTimeout(() => { dom.live.textContent = text; }, 30);
  if (visible) {
    dom.message.textContent = text;
    dom.message.classList.toggle("error", error);
  }
}

function names(tokens) {
  return list(tokens.map((token) => app.game.names[token] || token));
}

// --- drawing -----------------------------------------------------------------------------------

function draw() {
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
  $("diff-badge").textContent = game.difficulty === "R" ? t("diff_R") : `${t(`diff_${game.difficulty}`)} · ${t("verified")}`;
  const playing = game.status === "playing" && !replayMode();
  $("btn-undo").disabled = !game.can_undo || replayMode();
  $("btn-redo").disabled = !game.can_redo || replayMode();
  $("btn-hint").disabled = !playing;
  $("btn-coach").hidden = !app.settings.coach;
  $("btn-coach").disabled = !playing;
  $("btn-rewind").hidden = !game.can_rewind;
  $("btn-resign").disabled = !playing;
  showKeys();
  tick();
}

// The key legend: the keys this game has (no D without a stock, as in Giza; C only with free cells);
// before a game is dealt, those of a game with a stock and no cells.
function showKeys() {
  const game = app.game;
  $("keys-help").textContent = t("keys_help", { stock: !game || game.has_stock ? t("keys_help_stock") : "",
    cell: game && game.cells.size ? t("keys_help_cell") : "" });
}

// For tests and tools: a count of the times the page finished answering the player (a state drawn, a
// card chosen or put down, a tap refused).  Choosing a card changes no version, so this is what says
// the page is drawn.
function drawn() {
  document.body.dataset.drawn = String(Number(document.body.dataset.drawn || 0) + 1);
}

function tick() {
  const game = app.game;
  if (!game) return;
  let seconds = game.elapsed;
  // the clock runs while a game is played, not over a finished one nor during a replay
  if (!game.result && !replayMode()) seconds += (Date.now() - app.received) / 1000;
  $("timer").textContent = clock(seconds);
}

function flash(tokens, className, ms) {
  for (const token of tokens) {
    const element = elementOf(token);
    if (!element) continue;
    element.classList.remove(className);
    void element.offsetWidth;
    element.classList.add(className);
    window.setTimeout(() => element.classList.remove(className), ms);
  }
}

// A move's notation names a park ("Qs>cell", or "Qs>cell2" with the cell it went to).
const isPark = (move) => typeof move === "string" && /^[^+]+>cell\d*$/.test(move);

// --- answers from the server ---------------------------------------------------------------------------

function focusIndex() {
  return navigable().indexOf(document.activeElement);
}

function keepFocus(index) {
  const active = document.activeElement;
  if (active && active !== document.body && document.body.contains(active) && active.tabIndex >= 0) return;
  if (index < 0) return;
  const items = navigable();
  if (items.length) items[Math.min(index, items.length - 1)].focus();
}

// Where things were before an answer is drawn: what leaves the table flies from there.
function before(event) {
  const rect = (element) => (element ? element.getBoundingClientRect() : null);
  const tokens = event.kind === "removed" ? event.cards : event.kind === "recycle" && app.game ? [app.game.waste.top] : [];
  const leaving = tokens.map(elementOf).map((element) => [element, rect(element)]);
  return { leaving, stock: rect(stockButton()), removed: rect(removedPile()),
    parked: event.kind === "parked" ? rect(elementOf(event.cards[0])) : null };
}

function animate(event, was, dealt) {
  if (!motion.enabled()) return;
  if (dealt) {
    const cards = [...dom.pyramid.querySelectorAll(".card"), ...dom.jokers.querySelectorAll(".card")];
    motion.deal(dom.board, cards, was.stock || (stockButton() && stockButton().getBoundingClientRect()));
    return;
  }
  if (event.kind === "removed") motion.flyAway(was.leaving, was.removed || dom.removed.getBoundingClientRect(), dom.board);
  if (event.kind === "recycle") motion.flyAway(was.leaving, was.stock, dom.board, { turn: 0 });
  if (event.kind === "draw") {
    const game = app.game;
    const shown = game.waste_piles.length ? game.waste_piles.map((pile) => pile.top) : [game.drawn || game.waste.top];
    for (const token of shown) if (token) motion.slideFrom(elementOf(token), was.stock);
  }
  if (event.kind === "parked") motion.slideFrom(elementOf(event.cards[0]), was.parked);
}

function accept(answer, { dealt = false } = {}) {
  const previous = app.game;
  const event = answer.event;
  const index = focusIndex();
  const was = before(event);
  const samePosition = previous && previous.id === answer.game.id
    && (previous.version === answer.game.version || KEEPS_SELECTION.has(event.kind));
  app.selection = samePosition ? select.keep(answer.game, app.selection) : [];
  app.game = answer.game;
  app.received = Date.now();
  if (!replayMode()) {
    sessionStorage.setItem(GAME_KEY, app.game.id);
    localStorage.setItem(GAME_KEY, app.game.id);
  }
  draw();
  animate(event, was, dealt);
  keepFocus(index);
  describe(event, previous && previous.id === app.game.id ? previous : null);
  if (app.game.dead.length) say(t("dead_notice"), { error: true });
  if (app.game.result) finish();
  drawn();
}

function describe(event, previous) {
  const game = app.game;
  switch (event.kind) {
    case "removed":
    case "redone":
      if (event.kind === "removed") sound("remove");
      if (isPark(event.move)) say(t(event.kind === "redone" ? "redone_park_msg" : "parked_msg", { cards: names(event.cards) }));
      else say(event.cards.length ? t("removed_msg", { cards: names(event.cards) }) : t("redone_msg"));
      break;
    case "parked":
      sound("draw");
      say(t("parked_msg", { cards: names(event.cards) }));
      break;
    case "draw": {
      sound("draw");
      if (game.waste_piles.length && previous) {
        // Apophis: one card onto each waste pile; say the cards that came, pile by pile
        const dealt = game.waste_piles.filter((pile, i) => pile.count > previous.waste_piles[i].count && pile.top)
          .map((pile) => pile.top);
        say(t("draw_msg_piles", { cards: names(dealt) }));
        break;
      }
      const shown = game.drawn || game.waste.top;
      // A draw of several cards (Tut's Tomb) says how many came and which one is on top.
      const dealt = game.rule_fields.draw > 1 && previous ? game.waste.count - previous.waste.count : 1;
      if (shown && dealt > 1) say(t("draw_msg_many", { n: dealt, card: names([shown]) }));
      else say(shown ? t("draw_msg", { card: names([shown]) }) : t("draw_msg_hidden"));
      break;
    }
    case "recycle":
      sound("recycle");
      say(t("recycle_msg", { label: game.stock.label }));
      break;
    case "undone":
      say(t("undone_msg"));
      break;
    case "rewound":
      say(t("rewound_msg"));
      break;
    case "resigned":
      say(t("resigned_msg"));
      break;
    case "hint":
      if (event.cards.length) {
        say(t(isPark(event.move) ? "hint_park" : "hint_remove", { cards: names(event.cards) }));
        flash(event.cards, "hinted", HINT_MS);
      } else {
        say(t(event.move === "recycle" ? "hint_recycle" : "hint_draw"));
        const stock = stockButton();
        if (stock) { stock.classList.add("hinted"); window.setTimeout(() => stock.classList.remove("hinted"), HINT_MS); }
      }
      break;
    case "coach": {
      const label = t("coach_label");
      if (event.winnable === null) {
        say(t("coach_no_answer", { label, reason: t("coach_unknown") }));
        break;
      }
      const move = isPark(event.move) ? t("move_park", { cards: names(event.cards) })
        : event.cards.length ? names(event.cards) : t(event.move === "recycle" ? "move_recycle" : "move_draw");
      const verdict = event.winnable ? t("coach_winnable") : t("coach_lost", { n: event.best_reachable });
      if (event.cards.length) flash(event.cards, "hinted", HINT_MS);
      say(t("coach_message", { label, move, verdict }));
      break;
    }
    default:
      break;
  }
}

function showError(error) {
  if (error instanceof ApiError) say(error.code === "network" ? t("network_error") : error.message, { error: true });
  else throw error;
}

// A refused tap: its reason, in the page's language, from the state (a quiet one only with the
// error-explanation assist on), and the cards it is about shake.
function refuse(refusal, cards) {
  if (!refusal || (refusal.quiet && !app.settings.assist)) return;
  say(refusal.message, { error: true });
  sound("refuse");
  motion.shake(cards.map(elementOf));
  if (refusal.slot !== undefined && refusal.code === "covered" && !cards.length) {
    motion.shake([document.querySelector(`[data-slot="${refusal.slot}"]`)]);
  }
}

// One request; `onRefused` takes a 409 the engine gave (nothing was written).  Resolves whether the
// answer was drawn.
async function act(request, onRefused) {
  if (!app.game || app.busy || replayMode()) return false;
  app.busy = true;
  try {
    accept(await request());
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.code === "conflict") {
      // The game moved on in another tab or device: show where it is now.
      try { accept(await api.get(app.game.id, lang())); } catch (reload) { showError(reload); }
      showError(error);
    } else if (onRefused && error instanceof ApiError && error.status === 409) {
      onRefused(error);
    } else {
      showError(error);
    }
    return false;
  } finally {
    app.busy = false;
    drawn();
  }
}

// A tap the page answers from the state (select.js): a card chosen or put down, a refusal, or a move
// sent.  Resolves whether a move was made.
async function choose(decide) {
  if (!app.game || app.busy || replayMode()) return false;
  motion.skip();
  const outcome = decide(app.game, app.selection);
  if (outcome.kind === "move") {
    return act(() => api.move(app.game.id, outcome.move, outcome.cell, lang(), app.game.version), (error) => {
      app.selection = outcome.selection;
      draw();
      say(error.message, { error: true });
      sound("refuse");
      motion.shake(outcome.cards.map(elementOf));
    });
  }
  app.selection = outcome.selection;
  draw();
  if (outcome.kind === "selected") {
    sound("select");
    say(t("selected_msg", { card: names([outcome.card]) }));
  } else if (outcome.kind === "deselected") say(t("deselected_msg"));
  else refuse(outcome.refusal, outcome.cards);
  drawn();
  return false;
}

// A card is named by its token; a face-down pyramid card by its slot.
const keyOf = (element) => element.dataset.card || `#${element.dataset.slot}`;
const tapCard = (element) => choose((game, selection) => select.tap(game, selection, keyOf(element)));
const tapStock = () => choose(select.tapStock);
const command = (name) => {
  motion.skip();
  return act(() => api.command(app.game.id, name, lang(), app.game.version));
};
// A tap on an empty free cell: the selected card goes there (the C key: to the first empty cell).
const tapCell = (cell) => choose((game, selection) => select.tapCell(game, selection, cell));
const deselect = () => choose(select.deselect);

// --- drag and drop ------------------------------------------------------------------------------------

const dragging = {
  draggable(element) {
    if (!app.game || app.busy || replayMode()) return null;
    const key = element.dataset.card;
    return key && app.game.selectable.includes(key) ? key : null;
  },
  start(key) {
    motion.skip();
    app.selection = [key];
    draw();
  },
  // A drop: on a card it is as if the dragged card were chosen and then the other tapped; on the removed
  // pile a card that goes alone (a king) goes; on a free cell the card is parked there.
  drop(key, target) {
    if (target.kind === "card") {
      return choose((game) => select.tap(game, [key], target.key));
    }
    if (target.kind === "cell") return choose((game) => select.tapCell(game, [key], target.cell));
    const offer = app.game.pairs[key];
    if (offer && offer.alone) return choose(() => ({ kind: "move", move: key, cards: [key], selection: [] }));
    app.selection = [];
    draw();
    say(t("drag_not_alone", { card: names([key]) }), { error: true });
    sound("refuse");
    drawn();
    return Promise.resolve(false);
  },
  // The card goes back where it lies.
  back(element) {
    const offset = element.style.translate;
    element.style.translate = "";
    if (offset && motion.enabled()) {
      element.animate([{ translate: offset }, { translate: "0 0" }], { duration: 180, easing: "ease-out" });
    }
  },
};

// --- the end of a game --------------------------------------------------------------------------------

function finish() {
  const game = app.game;
  if (app.shownResult === game.id) return;
  app.shownResult = game.id;
  if (game.result.won) {
    sound("win");
    motion.celebrate(dom.board, removedPile(), t("result_won"), () => {
      if (app.game && app.game.id === game.id) showResult(app.game);
    });
  } else {
    window.setTimeout(() => showResult(game), motion.enabled() ? RESULT_DELAY_MS : 0);
  }
  if (!game.result.won && game.result.best_removed === null) {
    // How far the deal could have gone is solved on demand, so the last move answered at once.
    api.best(game.id, lang()).then((best) => {
      if (!app.game || app.game.id !== game.id) return;
      Object.assign(app.game.result, best);
      showBest(app.game.result);
    }).catch(() => {});
  }
}

// --- new games ------------------------------------------------------------------------------------

// Start a game: resolves to its state, or null (the reason said, or given to onError).
async function startGame(request, onError = null) {
  try {
    const answer = await api.newGame(request, lang());
    app.shownResult = null;
    say("", { visible: true });
    accept(answer, { dealt: true });
    history.replaceState(null, "", `/play/${answer.game.code}`);
    return answer.game;
  } catch (error) {
    if (onError && error instanceof ApiError) {
      onError(error.code === "network" ? t("network_error") : error.message);
      return null;
    }
    showError(error);
    return null;
  }
}

// --- settings -----------------------------------------------------------------------------------------

const SETTING_BOXES = ["badges", "assist", "animations", "sound", "fourColour", "largeCards", "coach"];
const SETTING_CHOICES = ["cardBack", "table"];

function openSettings() {
  $("set-lang").value = app.settings.lang;
  for (const name of SETTING_BOXES) $(`set-${name}`).checked = app.settings[name];
  for (const name of SETTING_CHOICES) $(`set-${name}`).value = app.settings[name];
  $("dlg-settings").showModal();
}

function useSettings() {
  applySettings(app.settings);
  setSound(app.settings.sound);
}

async function changeSetting() {
  for (const name of SETTING_BOXES) app.settings[name] = $(`set-${name}`).checked;
  for (const name of SETTING_CHOICES) app.settings[name] = $(`set-${name}`).value;
  const newLang = $("set-lang").value;
  saveSettings(app.settings);
  useSettings();
  if (newLang !== app.settings.lang) {
    app.settings.lang = newLang;
    saveSettings(app.settings);
    await loadLocale(newLang);
    applyTexts();
    showKeys();
    refreshRules();
    if (app.game) {
      try { app.game = (await api.get(app.game.id, newLang)).game; } catch (error) { showError(error); }
      app.selection = select.keep(app.game, app.selection);
    }
    // The last message was written in the old language: it goes, but the dead-card warning, which
    // stands as long as the position does, is said again in the new one.
    dom.message.textContent = "";
    dom.message.classList.remove("error");
    if (app.game && app.game.dead.length && !app.game.result) say(t("dead_notice"), { error: true });
  }
  draw();
  drawn();
}

// --- keyboard -----------------------------------------------------------------------------------------

function onKey(event) {
  if (document.querySelector("dialog[open]")) return;
  const typing = event.target.closest && event.target.closest("input, textarea, select");
  if (typing) return;
  const key = event.key;
  const items = navigable();
  const index = items.indexOf(document.activeElement);
  if (["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "Home", "End"].includes(key)) {
    if (!items.length) return;
    event.preventDefault();
    let next = index;
    if (key === "Home") next = 0;
    else if (key === "End") next = items.length - 1;
    else if (key === "ArrowRight" || key === "ArrowDown") next = index < 0 ? 0 : (index + 1) % items.length;
    else next = index < 0 ? items.length - 1 : (index - 1 + items.length) % items.length;
    items[next].focus();
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) {
    if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "z") { event.preventDefault(); command(event.shiftKey ? "redo" : "undo"); }
    if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "y") { event.preventDefault(); command("redo"); }
    return;
  }
  const actions = { d: tapStock, s: tapStock, u: () => command("undo"), r: () => command("redo"), h: () => command("hint"),
    Escape: deselect };
  if (app.game && app.game.cells.size) actions.c = () => tapCell();
  const action = actions[key.length === 1 ? key.toLowerCase() : key];
  if (action) {
    event.preventDefault();
    action();
  }
}

// What records.js may use: drawing a state, resuming a game, messages.
const recordsContext = {
  show(state) {
    app.game = state;
    app.selection = [];
    app.received = Date.now();
    draw();
    drawn();
  },
  resume: async (id) => {
    const answer = await api.get(id, lang());
    app.shownResult = answer.game.result ? answer.game.id : null;
    accept(answer);
    history.replaceState(null, "", `/play/${answer.game.code}`);
  },
  current: () => app.game,
  say,
  showError,
  clock,
  confirm: confirmDialog,
};

async function resign() {
  if (!app.game || app.game.status !== "playing") return;
  const sure = await confirmDialog({ title: t("resign_title"), text: t("resign_confirm"), yes: t("resign") });
  if (sure) command("resign");
}

// --- start ----------------------------------------------------------------------------------------------

function wire() {
  // A tap ends any motion (choose() and command() do the same for their own taps and keys).  Not on
  // pointerdown: ending the deal then would move the card under the finger before it is lifted, and
  // the tap would be lost.
  dom.board.addEventListener("click", (event) => {
    if (motion.dealing(dom.board)) {
      motion.skip(); // the cards are still coming: this tap only ends the deal
      return;
    }
    motion.skip();
    const target = event.target.closest("button");
    if (!target || !dom.board.contains(target)) return;
    if (target.classList.contains("stock-btn")) tapStock();
    else if (target.classList.contains("cell-slot")) tapCell(Number(target.dataset.cell));
    else if (target.classList.contains("card") && !target.closest("#removed")) tapCard(target);
  });
  wireDrag(dom.board, dragging);
  document.addEventListener("keydown", onKey);
  $("btn-hint").addEventListener("click", () => command("hint"));
  $("btn-coach").addEventListener("click", () => command("coach"));
  $("btn-undo").addEventListener("click", () => command("undo"));
  $("btn-redo").addEventListener("click", () => command("redo"));
  $("btn-rewind").addEventListener("click", () => command("rewind"));
  $("btn-resign").addEventListener("click", resign);
  $("btn-records").addEventListener("click", () => openRecords(recordsContext));
  wireRecords(recordsContext);
  $("btn-new").addEventListener("click", openNewDialog);
  wireNewGame({ rules: () => app.rules, settings: () => app.settings, start: startGame });
  $("btn-settings").addEventListener("click", openSettings);
  $("btn-rules").addEventListener("click", () => {
    const preset = app.rules && app.game ? app.rules.presets.find((p) => p.id === app.game.preset) : undefined;
    openRules(app.game, preset);
  });
  wireRules();
  for (const element of document.querySelectorAll("#dlg-settings input, #dlg-settings select")) {
    element.addEventListener("change", changeSetting);
  }
  $("result-new").addEventListener("click", () => { $("dlg-result").close(); openNewDialog(); });
  $("result-again").addEventListener("click", () => { $("dlg-result").close(); startGame({ code: app.game.code }); });
  $("btn-copy").addEventListener("click", async () => {
    const url = `${location.origin}/play/${app.game.code}`;
    try { await navigator.clipboard.writeText(url); say(t("copied")); } catch (error) { say(url); }
  });
  new ResizeObserver(() => draw()).observe(dom.board);
  window.setInterval(tick, 1000);
}

// The game to show on opening: the one this tab showed (a reload), else the game this browser played
// last if it is unfinished, else the player's latest unfinished game; with a link, only that deal's.
// None: a new game (of the link's deal, or of the saved rule set).
async function opening(code) {
  const wanted = (answer, unfinished) => (!code || answer.game.code === code) && (!unfinished || !answer.game.result);
  for (const [storage, unfinished] of [[sessionStorage, false], [localStorage, true]]) {
    const saved = storage.getItem(GAME_KEY);
    if (!saved) continue;
    try {
      const answer = await api.get(saved, lang());
      if (wanted(answer, unfinished)) return answer;
    } catch (error) {
      storage.removeItem(GAME_KEY);
    }
  }
  if (code) return null;
  try {
    const me = await api.me(lang());
    if (me.unfinished.length) return await api.get(me.unfinished[0].id, lang());
  } catch (error) {
    // no records for this browser yet: a new game
  }
  return null;
}

async function boot() {
  useSettings();
  motion.setMotionCheck(() => motionAllowed(app.settings));
  await Promise.all([loadLocale(app.settings.lang), loadArt().catch(() => {})]);
  applyTexts();
  showKeys();
  wire();
  try { app.rules = await api.rules(lang()); } catch (error) { showError(error); }
  const match = location.pathname.match(/^\/play\/([^/]+)$/);
  const code = match ? decodeURIComponent(match[1]) : null;
  const resumed = await opening(code);
  if (resumed) {
    accept(resumed);
    history.replaceState(null, "", `/play/${resumed.game.code}`);
  } else if (code && !(await startGame({ code }))) {
    // A link with a broken code still opens a game; the reason stays on screen.
    const reason = dom.message.textContent;
    await startSavedGame();
    say(reason, { error: true });
  } else if (!code) {
    await startSavedGame();
  }
  document.body.dataset.ready = "true";
  performance.mark("game-ready"); // the first game is drawn (benchmarks/page.py reads it)
}

// A game of the saved rule set and difficulty.  Saved settings the server refuses (a rule set this
// version no longer knows, a hand-edited value) fall back to the defaults, so the page always opens a
// game; the server's reason stays on screen and the repaired settings are saved.
async function startSavedGame() {
  if (await startGame({ rules: app.settings.rules, difficulty: app.settings.difficulty })) return;
  if (app.settings.rules === DEFAULTS.rules && app.settings.difficulty === DEFAULTS.difficulty) return;
  const reason = dom.message.textContent;
  app.settings = { ...app.settings, rules: DEFAULTS.rules, difficulty: DEFAULTS.difficulty };
  saveSettings(app.settings);
  if (await startGame({ rules: DEFAULTS.rules, difficulty: DEFAULTS.difficulty })) say(reason, { error: true });
}

boot();
