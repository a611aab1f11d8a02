// start.js: starting and resuming games — a new deal from the server, a game resumed by id, and the game
// the page opens with (this tab's, this browser's unfinished one, the player's latest, or a new one of
// the link's deal or of the saved rule set).
import { api, ApiError } from "./api.js";
import { showPath } from "./back.js";
import { lang, t } from "./i18n.js";
import { CHOICES, DEFAULTS, saveSettings } from "./settings.js";
import { say, showError, shownMessage } from "./narrate.js";
import { accept, app, GAME_KEY } from "./state.js";
import { dailyOf, dailyPath, playDaily } from "./daily.js";

// A new game; `onError` (optional) takes the reason the server refused it, instead of the message line.
// Resolves to its state, or null if it did not start.
export async function startGame(request, onError = null) {
  try {
    const answer = await api.newGame(request, lang());
    app.shownResult = null;
    accept(answer, { dealt: true });
    showPath(`/play/${answer.game.code}`);
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

// A game by its id, as it stands (records.js: an unfinished game resumed, the end of a replay).
export async function resume(id) {
  const answer = await api.get(id, lang());
  app.shownResult = answer.game.result ? answer.game.id : null;
  accept(answer);
  showPath(`/play/${answer.game.code}`);
}

// The game to show on opening: the one this tab showed (a reload), else the game this browser played
// last if it is unfinished, else the player's latest unfinished game; with a link, only that deal's.
// None: a new game (of the link's deal, or of the saved rule set).
async function opening(code) {
  const wanted = (answer, unfinished) => (!code || answer.game.code === code) && (!unfinished || !answer.game.result);
  /** @type {[Storage, boolean][]} */
  const stores = [[sessionStorage, false], [localStorage, true]];
  for (const [storage, unfinished] of stores) {
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

// The game this tab showed, if it is the daily deal the address asks for (a reload after a win shows the
// result again rather than dealing the day's deal anew); else null.
async function shownDaily(asked) {
  const saved = sessionStorage.getItem(GAME_KEY);
  if (!saved) return null;
  try {
    const answer = await api.get(saved, lang());
    const daily = answer.game.daily;
    if (!daily || daily.rules !== asked.rules) return null;
    const date = asked.date || (await api.daily.get(asked.rules, lang())).date;
    return daily.date === date ? answer : null;
  } catch (error) {
    return null;
  }
}

// The daily deal an address asks for (/daily, /daily/<date>): the one this tab showed, or the day's deal
// started or resumed; when the server refuses it (a day to come), the reason stays on screen over a game
// of the saved rule set.
async function openDaily(asked) {
  const shown = await shownDaily(asked);
  if (shown) {
    app.shownResult = shown.game.result ? shown.game.id : null;
    accept(shown);
    showPath(dailyPath(shown.game.daily.date, asked.rules));
    return;
  }
  if (await playDaily(asked)) return;
  const reason = shownMessage();
  await startSavedGame();
  say(reason, { error: true });
}

// A link whose code claimed a difficulty the deal does not have (a hand-edited "E" on a deal the solver
// cannot clear) opens the same deal under its own label and code: say so, as the address changed.
function sayRelabelled(asked, game) {
  const [rules, letter, number] = asked.toUpperCase().split("-");
  const [ownRules, ownLetter, ownNumber] = game.code.split("-");
  if (rules !== ownRules || number !== ownNumber || letter === ownLetter || !CHOICES.difficulty.includes(letter)) return;
  say(t("relabelled", { claimed: t(`diff_${letter}`), actual: t(`diff_${game.difficulty}`), code: game.code }));
}

// The first game, of the page's address (/play/<code>, /daily…) or none: see opening().  Resolves true
// when the front page dealt a new game (nothing to resume: perhaps a first visit).
export async function openFirstGame() {
  const asked = dailyOf(location);
  if (asked) return openDaily(asked);
  const match = location.pathname.match(/^\/play\/([^/]+)$/);
  const code = match ? decodeURIComponent(match[1]) : null;
  const resumed = await opening(code);
  if (resumed) {
    accept(resumed);
    showPath(`/play/${resumed.game.code}`);
  } else if (code) {
    const started = await startGame({ code });
    if (started) {
      sayRelabelled(code, started);
    } else {
      // A link with a broken code still opens a game; the reason stays on screen.
      const reason = shownMessage();
      await startSavedGame();
      say(reason, { error: true });
    }
  } else {
    await startSavedGame();
    return true;
  }
  return false;
}

// A game of the saved rule set and difficulty.  Saved settings the server refuses (a rule set this
// version no longer knows, a hand-edited value) fall back to the defaults, so the page always opens a
// game; the server's reason stays on screen and the repaired settings are saved.
async function startSavedGame() {
  if (await startGame({ rules: app.settings.rules, difficulty: app.settings.difficulty })) return;
  if (app.settings.rules === DEFAULTS.rules && app.settings.difficulty === DEFAULTS.difficulty) return;
  const reason = shownMessage();
  app.settings = { ...app.settings, rules: DEFAULTS.rules, difficulty: DEFAULTS.difficulty };
  saveSettings(app.settings);
  if (await startGame({ rules: DEFAULTS.rules, difficulty: DEFAULTS.difficulty })) say(reason, { error: true });
}
