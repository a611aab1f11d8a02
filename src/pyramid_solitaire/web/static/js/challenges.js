// challenges.js: today's challenges — the dialog listing them with the player's progress, from which one
// starts; the line on a challenge game's result; and the monthly badges (in this dialog and in Records).
// Every goal, title and figure comes from the server (web/challenges.py); nothing here knows a rule.
import { api, ApiError } from "./api.js";
import { showPath } from "./back.js";
import { lang, rulesName, t } from "./i18n.js";
import { dayName } from "./daily.js";
import { badgeLine } from "./badges.js";
import { offline } from "./offline.js";
import { say } from "./narrate.js";

/** @type {PageLookup} */
const $ = (id) => /** @type {PageElement<typeof id>} */ (document.getElementById(id));
// What the dialog may use: apply a game answer, show an error, the game shown.
/** @type {{ accept: (answer: object, how?: { dealt?: boolean }) => void, showError: (error: Error) => void,
 *    current: () => (import("./state.js").ShownGame | null) }} */
let ctx = { accept: () => {}, showError: () => {}, current: () => null };

// Each month's badge as a list: a medal and what earned it (or that there is none yet).
/** @param {HTMLElement} list @param {Wire.MonthBadge[]} months */
export function fillBadges(list, months) {
  if (!months.length) {
    const none = document.createElement("li");
    none.className = "none";
    none.textContent = t("badges_empty");
    list.replaceChildren(none);
    return;
  }
  list.replaceChildren(...[...months].reverse().map((entry) => {
    const item = document.createElement("li");
    item.dataset.month = entry.month;
    item.append(...badgeLine(entry));
    return item;
  }));
}

/** @param {Wire.ChallengeShown} challenge */
function challengeItem(challenge) {
  const item = document.createElement("li");
  item.dataset.challenge = challenge.id;
  item.classList.toggle("done", challenge.done);
  const what = document.createElement("span");
  what.className = "what";
  what.textContent = challenge.title;
  const how = document.createElement("span");
  how.className = "how";
  const progress = t("challenge_progress", { progress: challenge.progress, needed: challenge.needed });
  how.textContent = `${rulesName(challenge.rules)} · ${progress}`;
  if (challenge.done) {
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.textContent = ` ✓ ${t("challenge_done")}`;
    how.append(mark);
  }
  const button = document.createElement("button");
  button.type = "button";
  button.className = challenge.done ? "secondary" : "primary";
  button.textContent = t(challenge.done ? "challenge_again" : "challenge_play");
  button.setAttribute("aria-label", t("button_for", { what: button.textContent, which: challenge.title }));
  button.addEventListener("click", () => play(challenge.id));
  item.append(what, button, how);
  return item;
}

async function play(id) {
  try {
    const answer = await api.challenges.play(id, lang());
    $("dlg-challenges").close();
    ctx.accept(answer, { dealt: answer.event.kind === "dealt" });
    showPath(`/play/${answer.game.code}`);
    say(challengeLine(answer.game)); // the whole goal: the top bar's badge is cut to fit
  } catch (error) {
    $("challenges-error").textContent = error instanceof ApiError ? error.message : String(error);
  }
}

// The parts of the dialog that only the server can fill: the goals with their progress, and the badges.
function showServerParts(shown) {
  for (const part of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#dlg-challenges [data-server]"))) {
    part.hidden = !shown;
  }
}

export async function openChallenges() {
  $("challenges-error").textContent = "";
  showServerParts(true);
  try {
    const [listed, badges] = await Promise.all([api.challenges.list(lang()), api.challenges.badges(lang())]);
    $("challenges-date").textContent = dayName(listed.date);
    $("challenges-list").replaceChildren(...listed.challenges.map(challengeItem));
    fillBadges($("challenges-badges"), badges.months);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    $("challenges-list").replaceChildren();
    $("challenges-date").textContent = "";
    // Offline the engine in the browser knows the day (as the daily dialog shows it) but not the goals,
    // which the server sets and counts: the dialog says the day and why the rest is missing, instead of an
    // empty list under a note and a heading with nothing beneath them.
    const away = offline.active || error.code === "offline";
    if (away) {
      showServerParts(false);
      $("challenges-error").textContent = t("challenges_offline");
      try {
        $("challenges-date").textContent = dayName((await api.daily.get("classic", lang())).date);
      } catch {
        // the day stays unsaid: the engine could not answer either
      }
    } else {
      $("challenges-error").textContent = error.code === "network" ? t("network_error") : error.message;
    }
  }
  if (!$("dlg-challenges").open) $("dlg-challenges").showModal();
  $("dlg-challenges-title").focus();
}

// The line a challenge game's result shows: done, or how far it got.
export function challengeLine(game) {
  const challenge = game.challenge;
  if (!challenge) return "";
  if (challenge.done) return t("challenge_completed_msg", { title: challenge.title });
  const where = challengeMissed(game) ? t("challenge_missed")
    : t("challenge_progress", { progress: challenge.progress, needed: challenge.needed });
  return `${t("challenge_badge", { title: challenge.title })} — ${where}`;
}

// A finished game that did not meet its challenge: said so (「0 / 1」 in the colour of success read as one),
// except a win in a run of deals, which is a step of it.
export function challengeMissed(game) {
  const challenge = game.challenge;
  return Boolean(challenge && !challenge.done && game.result && !(challenge.kind === "in_a_row" && game.result.won));
}

export function wireChallenges(context) {
  ctx = context;
  $("btn-challenges").addEventListener("click", openChallenges);
  $("challenge-badge").addEventListener("click", () => {
    const game = ctx.current();
    if (game && game.challenge) say(challengeLine(game));
  });
}
