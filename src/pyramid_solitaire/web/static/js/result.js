// result.js: the result screen of a finished game — time, moves, undos, hints, cards left in the stock,
// difficulty, the deal, the player's figures at this rule set and difficulty, and the deal's
// leaderboard (seed 001's list), all from the state the server sent.
import { rulesName, t } from "./i18n.js";
import { challengeLine, challengeMissed } from "./challenges.js";
import { dayName } from "./daily.js";

// A par as the page shows it (beside a result's moves, in the Daily dialog): a number, being worked out,
// or unknown.
/** @param {Wire.Par} par */
export function parShown(par) {
  if (par.status === "known") return String(par.moves);
  return t(par.status === "pending" || par.status === "offline" ? `par_${par.status}` : "par_unknown");
}

// The moves of a verified deal, beside its par: 「52（パー 48）」.
/** @param {Wire.Result} result */
export function movesText(result) {
  if (!result.par) return String(result.moves);
  return t("moves_vs_par", { moves: result.moves, par: parShown(result.par) });
}

/** @type {PageLookup} */
const $ = (id) => /** @type {PageElement<typeof id>} */ (document.getElementById(id));

export function clock(seconds) {
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

// How far the deal could have gone (a lost game), when the server knows it.
/** @param {Wire.Result} result */
export function showBest(result) {
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

// One figure of a <dl>: its label and value, text or an element (the result, the records' cards, the Daily dialog).
/** @param {HTMLElement} dl @param {string} label @param {string | Node} value */
export function figure(dl, label, value) {
  const dt = document.createElement("dt");
  dt.textContent = label;
  const dd = document.createElement("dd");
  dd.append(value);
  dl.append(dt, dd);
}

// A leaderboard's entries as the list's items, the player's own marked (a deal's, or a day's).
/** @param {HTMLElement} list @param {Wire.LeaderEntry[]} entries */
export function fillLeaderboard(list, entries) {
  list.replaceChildren();
  for (const entry of entries) {
    const item = document.createElement("li");
    const solver = entry.solver ? ` · ${t("leader_solver")}` : "";
    item.textContent = `${entry.name || t("anonymous")} — ${clock(entry.seconds)} · ${t("moves")} ${entry.moves}${solver}`;
    if (entry.you) item.classList.add("you");
    list.append(item);
  }
}

// Text a narrow dialog must not break across lines (a code at its hyphens, 「3周」 between 3 and 周).
/** @param {string} text */
function unbroken(text) {
  const span = document.createElement("span");
  span.className = "nowrap";
  span.textContent = text;
  return span;
}

// A rule set's name, broken only between its parts (「アプリ版・無制限・得点あり」, "app version, unlimited"),
// each part kept whole (「3周」): kept whole at once, Pyramide's name ran past a phone's dialog.
/** @param {string} text */
function unbrokenParts(text) {
  const name = document.createElement("span");
  for (const [index, part] of text.split(/(・|, )/).entries()) {
    if (index % 2) name.append(part, document.createElement("wbr"));
    else if (part) name.append(unbroken(part));
  }
  return name;
}

// 「1354 (CL1-N-AAAACAC)」, where a narrow dialog breaks the line before the code, never at its hyphens.
/** @param {import("./state.js").ShownGame} game */
function numberAndCode(game) {
  const both = document.createElement("span");
  both.append(`${game.number} `, unbroken(`(${game.code})`));
  return both;
}

/** @param {import("./state.js").ShownGame} game */
export function showResult(game) {
  const result = game.result;
  // the reason is a sentence of its own: 「ゲーム終了 — 投了しました」, "Game over. You gave this game up."
  const title = result.won ? t("result_won") : t("result_lost_title", { reason: game.status_message });
  // the day as the daily badge writes it (「12月7日」, "December 7"), not as the address does (2026-12-07)
  const day = game.daily ? dayName(game.daily.date, { month: "long", day: "numeric" }) : "";
  $("result-title").textContent = game.daily ? `${t("daily")} ${day} — ${title}` : title;
  showBest(result);
  $("result-challenge").hidden = !game.challenge;
  $("result-challenge").textContent = challengeLine(game);
  $("result-challenge").classList.toggle("missed", challengeMissed(game));
  const figures = $("result-figures");
  figures.replaceChildren();
  figure(figures, t("time"), clock(result.seconds));
  figure(figures, t("moves"), movesText(result));
  figure(figures, t("undos"), String(result.undos));
  figure(figures, t("hints"), String(result.hints));
  if (game.has_stock) figure(figures, t("stock_left"), String(result.stock_left));  // Giza has none to leave
  if (result.score !== null) figure(figures, t("score"), String(result.score));
  figure(figures, t("difficulty"), t(`diff_${game.difficulty}`));
  figure(figures, t("deal_number"), game.number === null ? t("custom_deal") : numberAndCode(game));
  const stats = result.stats;
  // offline, the figures are of the games this device played offline (the server's are out of reach)
  // the rule set's name kept on one line: a phone broke 「クラシック（3周）」 between 3 and 周
  const marker = "\u0001";
  const [before, after = ""] = t(game.offline ? "statistics_offline" : "statistics_here", {
    rules: marker,
    difficulty: t(`diff_${game.difficulty}`) }).split(marker);
  $("result-stats-title").replaceChildren(before, unbrokenParts(rulesName(game.rules)), after);
  const statsList = $("result-stats");
  statsList.replaceChildren();
  figure(statsList, t("played"), String(stats.played));
  figure(statsList, t("win_rate"), stats.win_rate === null ? "—" : `${Math.round(100 * stats.win_rate)}%`);
  figure(statsList, t("streak"), String(stats.streak));
  figure(statsList, t("best_streak"), String(stats.best_streak));
  fillLeaderboard($("result-leaderboard"), result.leaderboard);
  const boardTitle = $("result-leaderboard-title");
  boardTitle.textContent = t(game.daily && game.daily.counted ? "daily_board_of" : "leaderboard",
    { date: day });
  boardTitle.hidden = result.leaderboard.length === 0;
  $("result-share-box").hidden = !game.daily;
  $("result-share-text").hidden = true;
  $("result-share-status").textContent = "";
  const dialog = $("dlg-result");
  if (dialog.open) return;
  dialog.showModal();
  // The outcome first, as the other dialogs start at their title: left to itself showModal focuses the
  // first button, which sits in the sticky bar at the foot, and a phone held sideways then opens the
  // dialog scrolled down with its title cut off.
  $("result-title").focus();
}
