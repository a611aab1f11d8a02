// main.js: wires the page together — state, input (pointer and keyboard), dialogs, announcements.
// The page chooses cards itself from what the state says (select.js); each move, and each undo, redo,
// rewind, hint, coach or resign, is one request, and what comes back is drawn.  Nothing here knows a rule.
import { api, ApiError } from "./api.js";
import { applyTexts, lang, list, loadLocale, rulesName, t } from "./i18n.js";
import { applySettings, DEFAULTS, loadSettings, motionAllowed, saveSettings } from "./settings.js";
import { openRecords, replayMode, wireRecords } from "./records.js";
import { openRules, wireRules } from "./rules.js";
import { elementOf, navigable, render, stockButton } from "./board.js";
import * as select from "./select.js";

const $ = (id) => document.getElementById(id);
const dom = {
  board: $("board"), pyramid: $("pyramid"), jokers: $("jokers"), removed: $("removed"), stockArea: $("stock-area"),
  cells: $("cells"), message: $("message"), live: $("live"),
};
const GAME_KEY = "pyramid.game";
const FLY_MS = 320;
const HINT_MS = 3000;
const SHAKE_MS = 450;
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
  const badge = $("diff-badge");
  badge.textContent = game.difficulty === "R" ? t("diff_R")
    : `${t(`diff_${game.difficulty}`)} · ${t("verified")}`;
  $("btn-undo").disabled = !game.can_undo;
  $("btn-redo").disabled = !game.can_redo;
  $("btn-hint").disabled = game.status !== "playing";
  $("btn-coach").hidden = !app.settings.coach;
  $("btn-coach").disabled = game.status !== "playing";
  $("btn-rewind").hidden = !game.can_rewind;
  $("btn-resign").disabled = game.status !== "playing";
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
  if (!game.result) seconds += (Date.now() - app.received) / 1000;
  $("timer").textContent = clock(seconds);
}

function clock(seconds) {
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function flyToRemoved(tokens) {
  if (!motionAllowed(app.settings)) return;
  const target = dom.removed.getBoundingClientRect();
  const board = dom.board.getBoundingClientRect();
  for (const token of tokens) {
    const element = elementOf(token);
    if (!element) continue;
    const from = element.getBoundingClientRect();
    const ghost = element.cloneNode(true);
    ghost.classList.remove("usable", "selected", "partner", "hinted", "shake");
    ghost.classList.add("ghost");
    ghost.removeAttribute("id");
    ghost.setAttribute("aria-hidden", "true");
    ghost.tabIndex = -1;
    ghost.style.left = `${from.left - board.left}px`;
    ghost.style.top = `${from.top - board.top}px`;
    dom.board.append(ghost);
    const dx = target.right - from.width - from.left;
    const dy = target.top - from.top;
    ghost.animate([{ transform: "translate(0, 0)" }, { transform: `translate(${dx}px, ${dy}px) rotate(8deg)` }],
      { duration: FLY_MS, easing: "ease-in" }).finished.finally(() => ghost.remove());
  }
}

// A card put in a free cell slides there from where it was (the element is a new one, in the cell).
function slideFrom(token, from) {
  if (!from || !motionAllowed(app.settings)) return;
  const element = elementOf(token);
  if (!element) return;
  const to = element.getBoundingClientRect();
  element.animate([{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px)` },
    { transform: "translate(0, 0)" }], { duration: FLY_MS, easing: "ease-out" });
}

// A move's notation names a park ("Qs>cell", or "Qs>cell2" with the cell it went to).
const isPark = (move) => typeof move === "string" && /^[^+]+>cell\d*$/.test(move);

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

// --- answers from the server ---------------------------------------------------------------------------

function focusIndex() {
  return navigable().indexOf(document.activeElement);
}

function keepFocus(index) {
  if (document.activeElement && document.activeElement !== document.body && document.body.contains(document.activeElement)
      && document.activeElement.tabIndex >= 0) return;
  if (index < 0) return;
  const items = navigable();
  if (items.length) items[Math.min(index, items.length - 1)].focus();
}

function accept(answer) {
  const before = app.game;
  const event = answer.event;
  const index = focusIndex();
  if (event.kind === "removed" && before) flyToRemoved(event.cards);
  const parkedFrom = event.kind === "parked" && elementOf(event.cards[0])
    ? elementOf(event.cards[0]).getBoundingClientRect() : null;
  const samePosition = before && before.id === answer.game.id
    && (before.version === answer.game.version || KEEPS_SELECTION.has(event.kind));
  app.selection = samePosition ? select.keep(answer.game, app.selection) : [];
  app.game = answer.game;
  app.received = Date.now();
  sessionStorage.setItem(GAME_KEY, app.game.id);
  draw();
  if (parkedFrom) slideFrom(event.cards[0], parkedFrom);
  keepFocus(index);
  describe(event, before && before.id === app.game.id ? before : null);
  if (app.game.dead.length) {
    say(`${t("dead_notice")}`, { error: true });
  }
  if (app.game.result) finish();
  drawn();
}

function describe(event, before) {
  const game = app.game;
  switch (event.kind) {
    case "removed":
    case "redone":
      if (isPark(event.move)) say(t(event.kind === "redone" ? "redone_park_msg" : "parked_msg", { cards: names(event.cards) }));
      else say(event.cards.length ? t("removed_msg", { cards: names(event.cards) }) : t("redone_msg"));
      break;
    case "parked":
      say(t("parked_msg", { cards: names(event.cards) }));
      break;
    case "draw": {
      if (game.waste_piles.length && before) {
        // Apophis: one card onto each waste pile; say the cards that came, pile by pile
        const dealt = game.waste_piles.filter((pile, i) => pile.count > before.waste_piles[i].count && pile.top)
          .map((pile) => pile.top);
        say(t("draw_msg_piles", { cards: names(dealt) }));
        break;
      }
      const shown = game.drawn || game.waste.top;
      // A draw of several cards (Tut's Tomb) says how many came and which one is on top.
      const dealt = game.rule_fields.draw > 1 && before ? game.waste.count - before.waste.count : 1;
      if (shown && dealt > 1) say(t("draw_msg_many", { n: dealt, card: names([shown]) }));
      else say(shown ? t("draw_msg", { card: names([shown]) }) : t("draw_msg_hidden"));
      break;
    }
    case "recycle":
      say(t("recycle_msg", { label: game.stock.label }));
      break;
    case "undone":
      say(t("undone_msg"));
      break;
    case "rewound":
      say(t("rewound_msg"));
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
  flash(cards, "shake", SHAKE_MS);
  if (refusal.slot !== undefined && refusal.code === "covered" && !cards.length) {
    const element = document.querySelector(`[data-slot="${refusal.slot}"]`);
    if (element) { element.classList.add("shake"); window.setTimeout(() => element.classList.remove("shake"), SHAKE_MS); }
  }
}

// One request; `onRefused` takes a 409 the engine gave (nothing was written).
async function act(request, onRefused) {
  if (!app.game || app.busy || replayMode()) return;
  app.busy = true;
  try {
    accept(await request());
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
  } finally {
    app.busy = false;
    drawn();
  }
}

// A tap the page answers from the state (select.js): a card chosen or put down, a refusal, or a move sent.
function choose(decide) {
  if (!app.game || app.busy || replayMode()) return undefined;
  const outcome = decide(app.game, app.selection);
  if (outcome.kind === "move") {
    return act(() => api.move(app.game.id, outcome.move, outcome.cell, lang(), app.game.version), (error) => {
      app.selection = outcome.selection;
      draw();
      say(error.message, { error: true });
      flash(outcome.cards, "shake", SHAKE_MS);
    });
  }
  app.selection = outcome.selection;
  draw();
  if (outcome.kind === "selected") say(t("selected_msg", { card: names([outcome.card]) }));
  else if (outcome.kind === "deselected") say(t("deselected_msg"));
  else refuse(outcome.refusal, outcome.cards);
  drawn();
  return undefined;
}

// A card is named by its token; a face-down pyramid card by its slot.
const tapCard = (element) => {
  const key = element.dataset.card || `#${element.dataset.slot}`;
  return choose((game, selection) => select.tap(game, selection, key));
};
const tapStock = () => choose(select.tapStock);
const command = (name) => act(() => api.command(app.game.id, name, lang(), app.game.version));
// A tap on an empty free cell: the selected card goes there (the C key: to the first empty cell).
const tapCell = (cell) => choose((game, selection) => select.tapCell(game, selection, cell));
const deselect = () => choose(select.deselect);

// --- the end of a game --------------------------------------------------------------------------------

function finish() {
  const game = app.game;
  if (app.shownResult === game.id) return;
  app.shownResult = game.id;
  window.setTimeout(() => showResult(game), motionAllowed(app.settings) ? FLY_MS + 80 : 0);
  if (!game.result.won && game.result.best_removed === null) {
    // How far the deal could have gone is solved on demand, so the last tap answered at once.
    api.best(game.id, lang()).then((best) => {
      if (!app.game || app.game.id !== game.id) return;
      Object.assign(app.game.result, best);
      showBest(app.game.result);
    }).catch(() => {});
  }
}

function showBest(result) {
  let best = "";
  if (!result.won && result.best_removed !== null) {
    if (result.best_removed >= result.pyramid_size) best = t("best_all");
    else if (result.best_exact && result.best_removed === result.pyramid_removed) best = t("best_reached", { n: result.best_removed });
    else best = t(result.best_exact ? "best_possible" : "best_possible_bound", { n: result.best_removed, m: result.pyramid_removed });
  } else if (!result.won) {
    best = t("best_pending");
  }
  $("result-best").textContent = best;
}

function figure(dl, label, value) {
  const dt = document.createElement("dt");
  dt.textContent = label;
  const dd = document.createElement("dd");
  dd.textContent = value;
  dl.append(dt, dd);
}

function showResult(game) {
  const result = game.result;
  $("result-title").textContent = result.won ? t("result_won") : `${t("result_lost")} — ${game.status_message}`;
  showBest(result);
  const figures = $("result-figures");
  figures.replaceChildren();
  figure(figures, t("time"), clock(result.seconds));
  figure(figures, t("moves"), String(result.moves));
  figure(figures, t("undos"), String(result.undos));
  figure(figures, t("hints"), String(result.hints));
  figure(figures, t("stock_left"), String(result.stock_left));
  if (result.score !== null) figure(figures, t("score"), String(result.score));
  figure(figures, t("difficulty"), t(`diff_${game.difficulty}`));
  figure(figures, t("deal_number"), game.number === null ? t("custom_deal") : `${game.number} (${game.code})`);
  const stats = result.stats;
  $("result-stats-title").textContent = t("statistics_here", { rules: rulesName(game.rules),
                                                              difficulty: t(`diff_${game.difficulty}`) });
  const statsList = $("result-stats");
  statsList.replaceChildren();
  figure(statsList, t("played"), String(stats.played));
  figure(statsList, t("win_rate"), stats.win_rate === null ? "—" : `${Math.round(100 * stats.win_rate)}%`);
  figure(statsList, t("streak"), String(stats.streak));
  figure(statsList, t("best_streak"), String(stats.best_streak));
  const board = $("result-leaderboard");
  board.replaceChildren();
  for (const entry of result.leaderboard) {
    const item = document.createElement("li");
    item.textContent = `${entry.name || t("anonymous")} — ${clock(entry.seconds)} · ${t("moves")} ${entry.moves}`;
    if (entry.you) item.classList.add("you");
    board.append(item);
  }
  $("result-leaderboard-title").hidden = result.leaderboard.length === 0;
  const dialog = $("dlg-result");
  if (!dialog.open) dialog.showModal();
}

// --- new games ------------------------------------------------------------------------------------

async function startGame(request, { fromDialog = false } = {}) {
  try {
    const answer = await api.newGame(request, lang());
    app.shownResult = null;
    say("", { visible: true });
    accept(answer);
    history.replaceState(null, "", `/play/${answer.game.code}`);
    return true;
  } catch (error) {
    if (fromDialog && error instanceof ApiError) {
      $("new-error").textContent = error.code === "network" ? t("network_error") : error.message;
      return false;
    }
    showError(error);
    return false;
  }
}

function fillRules() {
  const select = $("new-rules");
  const current = select.value || app.settings.rules;
  select.replaceChildren();
  for (const preset of app.rules.presets) {
    const option = document.createElement("option");
    option.value = preset.id;
    option.textContent = t(`rules_${preset.id}`);
    select.append(option);
  }
  select.value = app.rules.presets.some((p) => p.id === current) ? current : app.rules.default;
}

function presetDefaults() {
  const preset = app.rules.presets.find((p) => p.id === $("new-rules").value);
  $("opt-passes").value = preset.passes === null ? "unlimited" : String(preset.passes);
  // Giza deals every card (no stock to pass through); Apophis deals its stock once onto three piles
  $("opt-passes").disabled = preset.passes_fixed;
  $("opt-jokers").value = String(preset.jokers);
  $("opt-triples").checked = preset.triples;
  $("opt-open").checked = preset.open_pyramid;
  $("opt-overlap").checked = preset.overlap;
  $("opt-strict").checked = preset.strict;
  $("opt-waste-uses").value = preset.waste_uses === null ? "unlimited" : String(preset.waste_uses);
  $("opt-waste-uses").disabled = !preset.has_stock; // Giza: no stock, so no waste to use
  $("opt-cells").value = String(preset.cells);
  $("new-options").classList.toggle("thirteen", preset.id === "thirteen");
}

// The rule set string: the preset, with the options that differ from it (see rules.py).
function chosenRules() {
  const preset = app.rules.presets.find((p) => p.id === $("new-rules").value);
  const options = [];
  const passes = $("opt-passes").value === "unlimited" ? null : Number($("opt-passes").value);
  if (!preset.passes_fixed && passes !== preset.passes) options.push(`passes=${passes === null ? "unlimited" : passes}`);
  if (Number($("opt-jokers").value) !== preset.jokers) options.push(`jokers=${$("opt-jokers").value}`);
  for (const [id, key, field] of [["opt-triples", "triples", "triples"], ["opt-open", "open", "open_pyramid"],
    ["opt-overlap", "overlap", "overlap"], ["opt-strict", "strict", "strict"]]) {
    if ($(id).checked !== preset[field]) options.push(`${key}=${$(id).checked}`);
  }
  const uses = $("opt-waste-uses").value === "unlimited" ? null : Number($("opt-waste-uses").value);
  if (preset.has_stock && uses !== preset.waste_uses) options.push(`waste_uses=${uses === null ? "unlimited" : uses}`);
  if (Number($("opt-cells").value) !== preset.cells) options.push(`cells=${$("opt-cells").value}`);
  return options.length ? `${preset.id}(${options.join(",")})` : preset.id;
}

function openNewDialog() {
  fillRules();
  presetDefaults();
  $("new-error").textContent = "";
  for (const radio of document.querySelectorAll('input[name="difficulty"]')) radio.checked = radio.value === app.settings.difficulty;
  $("dlg-new").showModal();
}

async function submitNew(event) {
  event.preventDefault();
  const code = $("new-code").value.trim();
  const deal = $("new-deal").value.trim();
  const difficulty = document.querySelector('input[name="difficulty"]:checked').value;
  const request = code ? { code } : deal ? { rules: chosenRules(), deal } : { rules: chosenRules(), difficulty };
  $("new-start").disabled = true;
  const ok = await startGame(request, { fromDialog: true });
  $("new-start").disabled = false;
  if (ok) {
    if (!code && !deal) {
      app.settings.rules = chosenRules();
      app.settings.difficulty = difficulty;
      saveSettings(app.settings);
    }
    $("new-code").value = "";
    $("new-deal").value = "";
    $("dlg-new").close();
  }
}

// --- settings -----------------------------------------------------------------------------------------

const SETTING_BOXES = ["badges", "assist", "animations", "fourColour", "largeCards", "coach"];

function openSettings() {
  $("set-lang").value = app.settings.lang;
  for (const name of SETTING_BOXES) $(`set-${name}`).checked = app.settings[name];
  $("dlg-settings").showModal();
}

async function changeSetting() {
  for (const name of SETTING_BOXES) app.settings[name] = $(`set-${name}`).checked;
  const newLang = $("set-lang").value;
  saveSettings(app.settings);
  applySettings(app.settings);
  if (newLang !== app.settings.lang) {
    app.settings.lang = newLang;
    saveSettings(app.settings);
    await loadLocale(newLang);
    applyTexts();
    showKeys();
    if (app.rules) fillRules();
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
  show(state) { app.game = state; app.selection = []; app.received = Date.now(); draw(); drawn(); },
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
};

// --- start ----------------------------------------------------------------------------------------------

function wire() {
  dom.board.addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (!target || !dom.board.contains(target)) return;
    if (target.classList.contains("stock-btn")) tapStock();
    else if (target.classList.contains("cell-slot")) tapCell(Number(target.dataset.cell));
    else if (target.classList.contains("card") && !target.closest("#removed")) tapCard(target);
  });
  document.addEventListener("keydown", onKey);
  $("btn-hint").addEventListener("click", () => command("hint"));
  $("btn-coach").addEventListener("click", () => command("coach"));
  $("btn-undo").addEventListener("click", () => command("undo"));
  $("btn-redo").addEventListener("click", () => command("redo"));
  $("btn-rewind").addEventListener("click", () => command("rewind"));
  $("btn-resign").addEventListener("click", () => {
    if (window.confirm(t("resign_confirm"))) command("resign");
  });
  $("btn-records").addEventListener("click", () => openRecords(recordsContext));
  wireRecords(recordsContext);
  $("btn-new").addEventListener("click", openNewDialog);
  $("btn-settings").addEventListener("click", openSettings);
  $("btn-rules").addEventListener("click", () => {
    const preset = app.rules && app.game ? app.rules.presets.find((p) => p.id === app.game.preset) : undefined;
    openRules(app.game, preset);
  });
  wireRules();
  $("new-rules").addEventListener("change", presetDefaults);
  $("form-new").addEventListener("submit", submitNew);
  $("new-cancel").addEventListener("click", () => $("dlg-new").close());
  for (const element of document.querySelectorAll("#dlg-settings input, #dlg-settings select")) {
    element.addEventListener("change", changeSetting);
  }
  $("result-new").addEventListener("click", () => { $("dlg-result").close(); openNewDialog(); });
  $("result-again").addEventListener("click", () => { $("dlg-result").close(); startGame({ code: app.game.code }); });
  $("btn-copy").addEventListener("click", async () => {
    const url = `${location.origin}/play/${app.game.code}`;
    try { await navigator.clipboard.writeText(url); say(t("copied")); } catch (error) { say(url); }
  });
  window.addEventListener("resize", () => draw());
  window.setInterval(tick, 1000);
}

async function boot() {
  applySettings(app.settings);
  await loadLocale(app.settings.lang);
  applyTexts();
  showKeys();
  wire();
  try { app.rules = await api.rules(lang()); } catch (error) { showError(error); }
  const match = location.pathname.match(/^\/play\/([^/]+)$/);
  const code = match ? decodeURIComponent(match[1]) : null;
  const saved = sessionStorage.getItem(GAME_KEY);
  if (saved) {
    try {
      const answer = await api.get(saved, lang());
      if (!code || answer.game.code === code) {
        accept(answer);
        document.body.dataset.ready = "true";
        return;
      }
    } catch (error) {
      sessionStorage.removeItem(GAME_KEY);
    }
  }
  if (code && !(await startGame({ code }))) {
    // A link with a broken code still opens a game; the reason stays on screen.
    const reason = dom.message.textContent;
    await startSavedGame();
    say(reason, { error: true });
  } else if (!code) {
    await startSavedGame();
  }
  document.body.dataset.ready = "true";
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
