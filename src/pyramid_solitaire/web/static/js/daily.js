// daily.js: the daily deal — starting or resuming it (/daily, /daily/<date>), the Daily dialog (the day's
// deal and par, the player's streak, the day's leaderboard by time and by moves, and a calendar from which
// a missed day can still be played), and the short, spoiler-free text a player shares after playing it.
// Every fact comes from the server (/api/daily…); this module only shows them.
import { api } from "./api.js";
import { showPath } from "./back.js";
import { dateLocale, lang, rulesName, t } from "./i18n.js";
import { clock, figure, fillLeaderboard, parShown } from "./result.js";
import { badgeLine } from "./badges.js";

/** @type {PageLookup} */
const $ = (id) => /** @type {PageElement<typeof id>} */ (document.getElementById(id));
export const DAILY_RULES = ["classic", "pyramide", "thirteen"];
let ctx = null;
// How often, and how many times, a par still being worked out is asked for again while the dialog is open.
const PAR_EVERY_MS = 2000;
const PAR_ASKS = 90;
// The dialog's view: the rule set shown, the ordering of the leaderboard, the month of the calendar.
const view = { rules: "classic", order: "by_time", month: null, today: null };

// The address of a day's deal: /daily/<date>, with ?rules= for a rule set other than classic.
export function dailyPath(date, rules) {
  return `/daily/${date}${rules === "classic" ? "" : `?rules=${encodeURIComponent(rules)}`}`;
}

// What the page's address asks for: null, or {date (null: today), rules}.
export function dailyOf(location) {
  const match = location.pathname.match(/^\/daily(?:\/(\d{4}-\d{2}-\d{2}))?\/?$/);
  if (!match) return null;
  const asked = new URLSearchParams(location.search).get("rules");
  return { date: match[1] || null, rules: DAILY_RULES.includes(asked) ? asked : "classic" };
}

// A date as the page's language writes it: 「12月3日（木）」, "Thu, Dec 3".
/**
 * @param {string} iso  the date, "2024-12-03"
 * @param {Intl.DateTimeFormatOptions} [options]  which of its parts are written, and how
 */
export function dayName(iso, options = { month: "long", day: "numeric", weekday: "short" }) {
  const [year, month, day] = iso.split("-").map(Number);
  return new Intl.DateTimeFormat(dateLocale(), { ...options, timeZone: "UTC" }).format(new Date(Date.UTC(year, month - 1, day)));
}

// When the next day's deal comes, as the player reads it: the wait from `now` to the next midnight in the
// server's time zone (the day turns there, Asia/Tokyo unless the server says otherwise: docs/daily.md),
// and that zone's name in the page's language. A player elsewhere sees tomorrow's date in the evening
// (Tokyo is 9 hours ahead of UTC); this line says why, and when the next one comes.
export function nextDeal(zone, now = new Date()) {
  const parts = Object.fromEntries(new Intl.DateTimeFormat("en-GB", {
    timeZone: zone, hourCycle: "h23", hour: "numeric", minute: "numeric", second: "numeric",
  }).formatToParts(now).map((part) => [part.type, Number(part.value)]));
  const left = Math.max(60, 24 * 3600 - (parts.hour * 3600 + parts.minute * 60 + parts.second));
  const minutes = Math.ceil(left / 60);
  const zoneName = new Intl.DateTimeFormat(dateLocale(), { timeZone: zone, timeZoneName: "long" })
    .formatToParts(now).find((part) => part.type === "timeZoneName");
  return t("daily_next", {
    wait: minutes < 60 ? t("daily_wait_m", { m: minutes }) : t("daily_wait", { h: Math.floor(minutes / 60), m: minutes % 60 }),
    zone: zoneName ? zoneName.value : zone,
  });
}

// Start a day's deal (or resume the player's unfinished game of it); resolves to the game, or null.
// `again`: a new (practice) game even when the player has finished the day's deal; without it, their
// finished game of that day is shown with its result.
export async function playDaily({ rules = "classic", date = null, again = false } = {}) {
  try {
    const body = { rules, ...(date ? { date } : {}), ...(again ? { again } : {}) };
    const answer = await api.daily.play(body, lang());
    ctx.accept(answer, { dealt: answer.event.kind === "dealt" });
    showPath(dailyPath(answer.game.daily.date, rules));
    return answer.game;
  } catch (error) {
    ctx.showError(error);
    return null;
  }
}

// The text a player shares: the day, the rule set, cleared or not, time, moves against par, the link.
// No card is named, so it spoils nothing.
/** @param {import("./state.js").ShownGame} game */
export function shareText(game, origin = location.origin) {
  const result = game.result;
  const par = result.par && result.par.status === "known" ? t("share_par", { par: result.par.moves }) : "";
  return [
    t("share_head", { date: game.daily.date, rules: rulesName(game.rules) }),
    t(result.won ? "share_won" : "share_lost", { time: clock(result.seconds), moves: result.moves }) + par,
    `${origin}${dailyPath(game.daily.date, game.daily.rules)}`,
  ].join("\n");
}

/** @param {import("./state.js").ShownGame} game */
export async function share(game) {
  const text = shareText(game);
  const shown = $("result-share-text");
  shown.textContent = text;
  shown.hidden = false;
  try {
    await navigator.clipboard.writeText(text);
    $("result-share-status").textContent = t("share_copied");
  } catch (error) {
    $("result-share-status").textContent = t("share_select");
  }
}

// --- the dialog ------------------------------------------------------------------------------------

/** @param {Wire.DailyBoardAnswer} board */
function showBoard(board) {
  fillLeaderboard($("daily-board"), board[view.order]);
  $("daily-board-empty").hidden = board[view.order].length > 0;
  for (const order of ["by_time", "by_moves"]) $(`daily-${order.replace("_", "-")}`).setAttribute("aria-pressed", String(order === view.order));
}

// The calendar of one month: each day a button (played days marked won, lost, in progress or won later);
// today and past days open that day's deal, days to come and before the first daily deal are not.
/** @param {Wire.CalendarAnswer} record */
function showCalendar(record) {
  const statuses = new Map(record.days.map((day) => [day.date, day.status]));
  const [year, month] = view.month.split("-").map(Number);
  $("cal-month").textContent = new Intl.DateTimeFormat(dateLocale(), { year: "numeric", month: "long", timeZone: "UTC" })
    .format(new Date(Date.UTC(year, month - 1, 1)));
  const grid = $("daily-calendar");
  grid.replaceChildren();
  const first = new Date(Date.UTC(year, month - 1, 1));
  const weekday = new Intl.DateTimeFormat(dateLocale(), { weekday: "narrow", timeZone: "UTC" });
  for (let column = 0; column < 7; column += 1) {
    const head = document.createElement("span");
    head.className = "weekday";
    head.setAttribute("aria-hidden", "true");
    head.textContent = weekday.format(new Date(Date.UTC(2026, 10, 1 + column))); // 2026-11-01 was a Sunday
    grid.append(head);
  }
  for (let blank = 0; blank < first.getUTCDay(); blank += 1) grid.append(document.createElement("span"));
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  for (let day = 1; day <= days; day += 1) {
    const iso = `${view.month}-${String(day).padStart(2, "0")}`;
    const status = statuses.get(iso);
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = String(day);
    button.className = `day ${status || "none"}${iso === record.today ? " today" : ""}`;
    button.dataset.date = iso;
    button.disabled = status === undefined;
    const said = status === undefined ? "" : ` — ${t(`cal_${status}`)}`;
    button.setAttribute("aria-label", `${dayName(iso)}${said}`);
    button.addEventListener("click", () => {
      $("dlg-daily").close();
      playDaily({ rules: view.rules, date: iso === record.today ? null : iso });
    });
    grid.append(button);
  }
  showMonthBadge();
  $("cal-prev").disabled = view.month <= record.days[record.days.length - 1].date.slice(0, 7);
  $("cal-next").disabled = view.month >= record.today.slice(0, 7);
}

// Under the calendar: the badge of the month it shows (docs/challenges.md), or that it has none yet.
function showMonthBadge() {
  const entry = (view.badges || []).find((month) => month.month === view.month)
    || { month: view.month, days: 0, challenges: 0, badge: null };
  $("daily-month-badge").replaceChildren(...badgeLine(entry));
}

// A par still being worked out (「計算中」) is asked for again every few seconds while the dialog shows
// that day's deal of those rules, and shown when it comes: a player who opened the dialog to see it should
// not have to close and open it again. (A minute of CPU time at most, at the lowest priority: a few
// minutes of asking, then it stays as it is until the dialog is opened again.)
/** @param {string} rules @param {string} date @param {HTMLElement} shown */
function followPar(rules, date, shown) {
  let asked = 0;
  const ask = async () => {
    asked += 1;
    if (!$("dlg-daily").open || rules !== view.rules || !shown.isConnected) return;
    let day;
    try {
      day = await api.daily.get(rules, lang());
    } catch (error) {
      day = null; // (the network gone a moment: asked again)
    }
    if (!shown.isConnected || rules !== view.rules || (day && day.date !== date)) return;
    if (day && day.par_status !== "pending") shown.textContent = parShown({ moves: day.par, status: day.par_status });
    else if (asked < PAR_ASKS) window.setTimeout(ask, PAR_EVERY_MS);
  };
  window.setTimeout(ask, PAR_EVERY_MS);
}

// The day's deal first: its date, when the next one comes and its par are answered offline too (the
// engine in the browser knows the day and its deal). The player's streak, the day's leaderboard and the
// calendar are the server's records: offline they are refused, and their part of the dialog is hidden
// (an empty calendar's month buttons had nothing to move through) while the error says why.
async function refresh() {
  const rules = view.rules;
  $("daily-error").textContent = "";
  const records = Promise.all([
    api.daily.me(rules, lang()), api.daily.board(rules, lang()),
    api.challenges.badges(lang()).catch(() => ({ months: [] })),
  ]);
  records.catch(() => {}); // answered below, once the day is shown
  const day = await api.daily.get(rules, lang());
  if (rules !== view.rules) return;
  $("daily-date").textContent = dayName(day.date);
  $("daily-next").textContent = nextDeal(day.timezone);
  const figures = $("daily-figures");
  figures.replaceChildren();
  figure(figures, t("par"), parShown({ moves: day.par, status: day.par_status }));
  if (day.par_status === "pending") followPar(rules, day.date, /** @type {HTMLElement} */ (figures.querySelector("dd")));
  let record, board, badges;
  try {
    [record, board, badges] = await records;
  } catch (error) {
    if (rules === view.rules) $("daily-records").hidden = true;
    throw error;
  }
  if (rules !== view.rules) return;
  $("daily-records").hidden = false;
  view.badges = badges.months;
  view.today = record.today;
  view.month = view.month || record.today.slice(0, 7);
  figure(figures, t("daily_streak"), String(record.streak));
  figure(figures, t("daily_best_streak"), String(record.best_streak));
  const todayStatus = record.days[0].status;
  $("daily-play").textContent = t(todayStatus === "playing" ? "daily_resume" : todayStatus === "unplayed" ? "daily_play" : "daily_again");
  view.again = !["playing", "unplayed"].includes(todayStatus);
  view.board = board;
  showBoard(board);
  showCalendar(record);
  view.record = record;
}

export async function openDaily(rules = null) {
  const dialog = $("dlg-daily");
  view.rules = rules || (ctx.current() && ctx.current().daily ? ctx.current().daily.rules : view.rules);
  view.month = null;
  $("daily-rules").value = view.rules;
  $("daily-error").textContent = "";
  if (!dialog.open) dialog.showModal();
  try {
    await refresh();
  } catch (error) {
    $("daily-error").textContent = error.message;
  }
}

function fillRules() {
  const select = $("daily-rules");
  select.replaceChildren();
  for (const rules of DAILY_RULES) {
    const option = document.createElement("option");
    option.value = rules;
    option.textContent = t(`rules_${rules}`);
    select.append(option);
  }
  select.value = view.rules;
}

function moveMonth(step) {
  const [year, month] = view.month.split("-").map(Number);
  const next = new Date(Date.UTC(year, month - 1 + step, 1));
  view.month = `${next.getUTCFullYear()}-${String(next.getUTCMonth() + 1).padStart(2, "0")}`;
  showCalendar(view.record);
}

// ctx: accept (apply an answer), showError, current (the game shown).
export function wireDaily(context) {
  ctx = context;
  fillRules();
  $("btn-daily").addEventListener("click", () => openDaily());
  $("daily-rules").addEventListener("change", () => { view.rules = $("daily-rules").value; view.month = null; refresh().catch((error) => { $("daily-error").textContent = error.message; }); });
  $("daily-play").addEventListener("click", () => {
    $("dlg-daily").close();
    playDaily({ rules: view.rules, again: Boolean(view.again) });
  });
  $("daily-by-time").addEventListener("click", () => { view.order = "by_time"; showBoard(view.board); });
  $("daily-by-moves").addEventListener("click", () => { view.order = "by_moves"; showBoard(view.board); });
  $("cal-prev").addEventListener("click", () => moveMonth(-1));
  $("cal-next").addEventListener("click", () => moveMonth(1));
  $("result-share").addEventListener("click", () => share(ctx.current()));
}

// The texts of the dialog's rule choices follow the page's language.
export function retextDaily() {
  fillRules();
}
