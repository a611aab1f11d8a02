// records.js: the player's records — statistics, unfinished games to resume, finished games to replay
// move by move, the display name for leaderboards, export and import.  All figures come from the server.
import { api, ApiError } from "./api.js";
import { lang, rulesName, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const replay = { on: false, id: null, step: 0, steps: 0, back: null };

export function replayMode() {
  return replay.on;
}

function cell(row, text, header = false) {
  const element = document.createElement(header ? "th" : "td");
  element.textContent = text;
  row.append(element);
}

function percent(rate) {
  return rate === null ? "—" : `${Math.round(rate * 100)}%`;
}

function fillStats(stats, ctx) {
  const body = $("records-stats-body");
  body.replaceChildren();
  for (const entry of stats) {
    const row = document.createElement("tr");
    cell(row, `${rulesName(entry.rules)} · ${t(`diff_${entry.difficulty}`)}`, true);
    cell(row, String(entry.played));
    cell(row, String(entry.won));
    cell(row, percent(entry.win_rate));
    cell(row, `${entry.streak} / ${entry.best_streak}`);
    cell(row, entry.average_seconds === null ? "—" : `${ctx.clock(entry.average_seconds)} / ${ctx.clock(entry.best_seconds)}`);
    cell(row, entry.average_moves === null ? "—" : `${entry.average_moves} / ${entry.best_moves}`);
    cell(row, `${entry.undos} / ${entry.hints}`);
    body.append(row);
  }
  $("records-empty").hidden = stats.length > 0;
}

function gameItem(game, buttonText, onClick) {
  const item = document.createElement("li");
  const when = new Date(game.started_ms).toLocaleString(lang() === "ja" ? "ja-JP" : "en-GB");
  const result = game.result ? t(`result_${game.result}`) : t("in_progress");
  const text = document.createElement("span");
  text.textContent = `${game.code} · ${rulesName(game.rules)} · ${when} · ${result} · ${t("moves")} ${game.moves}`;
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = buttonText;
  button.dataset.game = game.id;
  button.addEventListener("click", onClick);
  item.append(text, button);
  return item;
}

export async function openRecords(ctx) {
  try {
    const [me, stats] = await Promise.all([api.me(lang()), api.stats(lang())]);
    $("records-name").value = me.player && me.player.name ? me.player.name : "";
    fillStats(stats.stats, ctx);
    const unfinished = $("records-unfinished");
    unfinished.replaceChildren(...me.unfinished.map((game) => gameItem(game, t("resume"), async () => {
      $("dlg-records").close();
      await ctx.resume(game.id);
    })));
    const finished = $("records-finished");
    finished.replaceChildren(...me.finished.map((game) => gameItem(game, t("replay"), async () => {
      $("dlg-records").close();
      await startReplay(game.id, game.steps, ctx);
    })));
    $("records-error").textContent = "";
    $("dlg-records").showModal();
  } catch (error) {
    ctx.showError(error);
  }
}

async function showStep(step, ctx) {
  const answer = await api.replay(replay.id, step, lang());
  replay.step = answer.step;
  replay.steps = answer.steps;
  ctx.show(answer.game);
  $("replay-label").textContent = t("replay_step", { step: replay.step, steps: replay.steps });
  $("replay-prev").disabled = replay.step === 0;
  $("replay-first").disabled = replay.step === 0;
  $("replay-next").disabled = replay.step >= replay.steps;
  $("replay-last").disabled = replay.step >= replay.steps;
}

async function startReplay(id, steps, ctx) {
  const current = ctx.current();
  replay.back = current ? current.id : null;
  replay.on = true;
  replay.id = id;
  document.body.classList.add("replaying");
  $("replay-bar").hidden = false;
  await showStep(0, ctx);
  $("replay-next").focus();
}

async function stopReplay(ctx) {
  replay.on = false;
  document.body.classList.remove("replaying");
  $("replay-bar").hidden = true;
  if (replay.back) await ctx.resume(replay.back);
}

export function wireRecords(ctx) {
  $("replay-first").addEventListener("click", () => showStep(0, ctx));
  $("replay-prev").addEventListener("click", () => showStep(Math.max(0, replay.step - 1), ctx));
  $("replay-next").addEventListener("click", () => showStep(replay.step + 1, ctx));
  $("replay-last").addEventListener("click", () => showStep(replay.steps, ctx));
  $("replay-close").addEventListener("click", () => stopReplay(ctx));
  $("records-close").addEventListener("click", () => $("dlg-records").close());
  $("records-save-name").addEventListener("click", async () => {
    try {
      const answer = await api.setName($("records-name").value, lang());
      $("records-name").value = answer.player.name || "";
      ctx.say(t("name_saved"));
    } catch (error) {
      $("records-error").textContent = error instanceof ApiError ? error.message : String(error);
    }
  });
  $("records-reset").addEventListener("click", async () => {
    if (!window.confirm(t("reset_confirm"))) return;
    try {
      await api.resetStats(lang());
      fillStats([], ctx);
      ctx.say(t("stats_reset"));
    } catch (error) {
      $("records-error").textContent = error instanceof ApiError ? error.message : String(error);
    }
  });
  $("records-import").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    try {
      const data = JSON.parse(await file.text());
      const answer = await api.importRecords(data, lang());
      ctx.say(t("imported", { n: answer.imported }));
      $("dlg-records").close();
      await openRecords(ctx);
    } catch (error) {
      $("records-error").textContent = error instanceof ApiError ? error.message : t("import_unreadable");
    } finally {
      event.target.value = "";
    }
  });
}
