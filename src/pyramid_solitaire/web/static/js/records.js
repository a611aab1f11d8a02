// records.js: the player's records — a chart of the recent games, statistics, unfinished games to
// resume, finished games to replay move by move, the display name for leaderboards, export and import.
// All figures come from the server.
import { api, ApiError } from "./api.js";
import { dateLocale, lang, rulesName, t } from "./i18n.js";
import { figure } from "./result.js";
import { viewing } from "./mode.js";
import { fillBadges } from "./challenges.js";
import { offline } from "./offline.js";
import { clearMessage } from "./narrate.js";
import { showLookedAt } from "./state.js";

/** @type {PageLookup} */
const $ = (id) => /** @type {PageElement<typeof id>} */ (document.getElementById(id));
const NS = "http://www.w3.org/2000/svg";
const replay = { id: null, step: 0, steps: 0, back: null };
// Games the chart shows, newest on the right.
const CHART_GAMES = 30;

export { replayMode } from "./mode.js";

function percent(rate) {
  return rate === null ? "—" : `${Math.round(rate * 100)}%`;
}

// One card per rule set and difficulty: every figure readable on a phone as on a desktop.
/** @param {Wire.StatsShown[]} stats */
function fillStats(stats, ctx) {
  const holder = $("records-stats");
  holder.replaceChildren();
  for (const entry of stats) {
    const card = document.createElement("section");
    card.className = "stat-card";
    const title = document.createElement("h4");
    title.textContent = `${rulesName(entry.rules)} · ${t(`diff_${entry.difficulty}`)}`;
    const dl = document.createElement("dl");
    figure(dl, t("played"), String(entry.played));
    figure(dl, t("won"), String(entry.won));
    figure(dl, t("win_rate"), percent(entry.win_rate));
    figure(dl, t("streak_best"), `${entry.streak} / ${entry.best_streak}`);
    figure(dl, t("time_avg_best"), entry.average_seconds === null ? "—"
      : `${ctx.clock(entry.average_seconds)} / ${ctx.clock(entry.best_seconds)}`);
    figure(dl, t("moves_avg_best"), entry.average_moves === null ? "—" : `${entry.average_moves} / ${entry.best_moves}`);
    figure(dl, t("undos_hints"), `${entry.undos} / ${entry.hints}`);
    card.append(title, dl);
    holder.append(card);
  }
  $("records-empty").hidden = stats.length > 0;
}

function svg(tag, attributes) {
  const element = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

// The recent finished games as bars, oldest on the left: a win's bar as tall as its time (the longest
// win fills the height), a loss a short red bar under the line.
/** @param {Wire.GameSummary[]} finished */
function fillChart(finished, ctx) {
  const chart = $("records-chart");
  chart.replaceChildren();
  const games = finished.slice(0, CHART_GAMES).reverse();
  const width = 600;
  const height = 96;
  const base = 80;
  chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
  chart.setAttribute("preserveAspectRatio", "none");
  const wins = games.filter((g) => g.result === "won");
  const seconds = (g) => (g.ended_ms - g.started_ms) / 1000;
  const longest = Math.max(1, ...wins.map(seconds));
  const slot = width / Math.max(games.length, 10);
  games.forEach((game, i) => {
    const won = game.result === "won";
    const tall = won ? Math.max(4, (seconds(game) / longest) * (base - 8)) : 14;
    const bar = svg("rect", { x: i * slot + slot * 0.15, width: slot * 0.7, y: won ? base - tall : base + 2, height: tall,
      class: won ? "won" : "lost", rx: 2 });
    const tip = svg("title", {});
    tip.textContent = `${rulesName(game.rules)} · ${t(`result_${game.result}`)} · ${ctx.clock(seconds(game))}`;
    bar.append(tip);
    chart.append(bar);
  });
  chart.append(svg("line", { x1: 0, x2: width, y1: base + 1, y2: base + 1, class: "axis" }));
  const won = games.filter((g) => g.result === "won").length;
  // (with none, said of the games, not "no records" again: the statistics below say that)
  const summary = games.length ? t("chart_summary", { n: games.length, won, lost: games.length - won })
    : t("no_finished_games");
  chart.setAttribute("aria-label", summary);
  chart.toggleAttribute("hidden", !games.length); // no finished game yet: the caption alone says so, no empty frame
  $("records-chart-caption").textContent = games.length ? t("chart_caption", { summary, legend: t("chart_legend") })
    : summary;
}

/**
 * @param {Wire.GameSummary} game
 * @param {string} buttonText
 * @param {(() => unknown) | null} onClick null for the game on the table, which gets a note, not a button
 */
function gameItem(game, buttonText, onClick) {
  const item = document.createElement("li");
  // the month in words, in the page's language: "Dec 4, 2026, 8:05 PM", 「2026年12月4日 20:05」 (a numeric
  // date reads day-first to some and month-first to others)
  const when = new Intl.DateTimeFormat(dateLocale(), { year: "numeric", month: "short", day: "numeric", hour: "numeric",
    minute: "2-digit" }).format(new Date(game.started_ms));
  const result = game.result ? t(`result_${game.result}`) : t("in_progress");
  const text = document.createElement("span");
  text.textContent = `${rulesName(game.rules)} · ${when} · ${result} · ${t("moves")} ${game.moves} · `;
  const code = document.createElement("span"); // a deal code is one word: never broken at its hyphens
  code.className = "nowrap";
  code.textContent = game.code;
  text.append(code);
  if (!onClick) { // the game on the table: nothing to resume, it says so where the button would be
    const here = document.createElement("span");
    here.className = "playing";
    here.textContent = buttonText;
    item.append(text, here);
    return item;
  }
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = buttonText;
  // named with its game, as the challenges' buttons are: a list of "Replay", "Replay", … told a screen
  // reader nothing of which game each would open
  button.setAttribute("aria-label", t("button_for", { what: buttonText, which: `${rulesName(game.rules)} · ${when} · ${result}` }));
  button.dataset.game = game.id;
  button.addEventListener("click", onClick);
  item.append(text, button);
  return item;
}

function listGames(list, items) {
  if (items.length) {
    list.replaceChildren(...items);
    return;
  }
  const none = document.createElement("li");
  none.className = "none";
  none.textContent = t("no_games");
  list.replaceChildren(none);
}

export async function openRecords(ctx) {
  try {
    const [me, stats, badges] = await Promise.all([api.me(lang()), api.stats(lang()),
      api.challenges.badges(lang()).catch(() => ({ months: [] }))]);
    fillBadges($("records-badges"), badges.months);
    $("records-name").value = me.player && me.player.name ? me.player.name : "";
    $("records-name-status").textContent = "";
    $("records-file-status").textContent = "";
    fillChart(me.finished, ctx);
    fillStats(stats.stats, ctx);
    const playing = ctx.current();
    // a deal left untouched (the front page's first deal before the guide's, a game started and not
    // played) is nothing to resume: the same code deals it again; only the one on the table is listed
    const started = me.unfinished.filter((game) => game.moves > 0 || (playing && playing.id === game.id));
    listGames($("records-unfinished"), started.map((game) => playing && playing.id === game.id
      ? gameItem(game, t("playing_now"), null)
      : gameItem(game, t("resume"), async () => {
        $("dlg-records").close();
        await ctx.resume(game.id);
      })));
    listGames($("records-finished"), me.finished.map((game) => gameItem(game, t("replay"), async () => {
      $("dlg-records").close();
      await startReplay(game.id, ctx);
    })));
    // Offline, the engine in the browser answers with the unfinished games it keeps and nothing else: the
    // records, statistics and badges, the name and the files are the server's. Their parts are hidden and
    // the dialog says why, rather than 「まだ記録がありません」 over the records the server has.
    const away = offline.active;
    for (const part of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#dlg-records [data-server]"))) {
      part.hidden = away;
    }
    $("records-error").textContent = away ? t("records_offline") : "";
    $("dlg-records").showModal();
    // the start of the dialog, not the name box: a phone's keyboard must not open by itself
    $("dlg-records-title").focus();
  } catch (error) {
    if (error instanceof ApiError && error.code === "unknown-player") ctx.say(error.message, { error: true });
    else ctx.showError(error);
  }
}

// One step of the replay. A step forward is played as the watched solver's line plays one (watch.js): with
// the table's motion, and said on the message line as the move was when it was played ("…を取り除きました",
// 「元に戻しました」); a step back or a jump is drawn as it stands, and the message line is emptied (the
// move it named is not the one on the table any more).
async function showStep(step, ctx) {
  const from = document.activeElement;
  const answer = await api.replay(replay.id, step, lang());
  const forward = answer.step === replay.step + 1 && answer.event.kind !== "state";
  replay.step = answer.step;
  replay.steps = answer.steps;
  showLookedAt(answer.game, forward ? answer.event : { kind: "state", cards: [] });
  if (!forward) clearMessage();
  $("replay-label").textContent = t("replay_step", { step: replay.step, steps: replay.steps });
  $("replay-prev").disabled = replay.step === 0;
  $("replay-first").disabled = replay.step === 0;
  $("replay-next").disabled = replay.step >= replay.steps;
  $("replay-last").disabled = replay.step >= replay.steps;
  // a button that has just disabled itself ("to the start", "to the end") would leave the focus on the
  // page's body: its neighbour takes it
  if (from instanceof HTMLButtonElement && from.disabled && from.closest("#replay-bar")) {
    (replay.step === 0 ? $("replay-next") : $("replay-prev")).focus();
  }
}

async function startReplay(id, ctx) {
  const current = ctx.current();
  replay.back = current ? current.id : null;
  viewing.replay = true;
  replay.id = id;
  document.body.classList.add("replaying");
  $("replay-bar").hidden = false;
  ctx.say("");
  await showStep(0, ctx);
  $("replay-next").focus();
}

async function stopReplay(ctx) {
  viewing.replay = false;
  document.body.classList.remove("replaying");
  $("replay-bar").hidden = true;
  ctx.say("");
  if (replay.back) await ctx.resume(replay.back);
  $("btn-records").focus(); // where the replay was opened (the bar that had the focus is gone)
}

// The replay by keyboard, as the solver's line is watched: ← → a move, Home and End its ends, Escape closes
// it. True when the key was the replay's.
export function replayKey(event) {
  if (!viewing.replay) return false;
  const keys = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last",
    Escape: "replay-close" };
  const id = keys[event.key];
  if (!id || (event.target.closest && event.target.closest("select, input, textarea"))) return false;
  event.preventDefault();
  const button = /** @type {HTMLButtonElement} */ ($(id));
  if (!button.disabled) button.click();
  return true;
}

export function wireRecords(ctx) {
  $("replay-first").addEventListener("click", () => showStep(0, ctx));
  $("replay-prev").addEventListener("click", () => showStep(Math.max(0, replay.step - 1), ctx));
  $("replay-next").addEventListener("click", () => showStep(replay.step + 1, ctx));
  $("replay-last").addEventListener("click", () => showStep(replay.steps, ctx));
  $("replay-close").addEventListener("click", () => stopReplay(ctx));
  $("records-close").addEventListener("click", () => $("dlg-records").close());
  // Enter in the name saves it, as the button beside it does; the dialog's form would otherwise take it and
  // close, the name lost. Not while an input method is composing (Enter there confirms the kana).
  $("records-name").addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.isComposing) return;
    event.preventDefault();
    $("records-save-name").click();
  });
  $("records-save-name").addEventListener("click", async () => {
    try {
      const answer = await api.setName($("records-name").value, lang());
      $("records-name").value = answer.player.name || "";
      $("records-name-status").textContent = t("name_saved");
      ctx.say(t("name_saved"));
    } catch (error) {
      $("records-error").textContent = error instanceof ApiError ? error.message : String(error);
    }
  });
  $("records-reset").addEventListener("click", async () => {
    const sure = await ctx.confirm({ title: t("reset_stats"), text: t("reset_confirm"), yes: t("reset_yes") });
    if (!sure) return;
    try {
      await api.resetStats(lang());
      fillStats([], ctx);
      ctx.say(t("stats_reset"));
    } catch (error) {
      $("records-error").textContent = error instanceof ApiError ? error.message : String(error);
    }
  });
  $("records-import").addEventListener("change", async (event) => {
    const input = /** @type {HTMLInputElement} */ (event.target);
    const file = input.files[0];
    if (!file) return;
    try {
      const data = JSON.parse(await file.text());
      const answer = await api.importRecords(data, lang());
      const said = t("imported", { n: answer.imported });
      ctx.say(said);
      $("dlg-records").close();
      await openRecords(ctx); // the records again, with the games read
      // said in the dialog, under the file buttons, too: the message line lies behind it
      const status = $("records-file-status");
      status.textContent = said;
      status.scrollIntoView({ block: "nearest" });
    } catch (error) {
      $("records-error").textContent = error instanceof ApiError ? error.message : t("import_unreadable");
    } finally {
      input.value = "";
    }
  });
}
