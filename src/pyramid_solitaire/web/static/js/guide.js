// guide.js: the first-game guide — offered once, on a first visit, and always reachable from Rules: a
// short guided deal (pairs that make 13, kings alone, covered cards, the stock and the waste and their
// passes, hint and undo), played on a real verified deal chosen for it.  Each step points at the cards or
// buttons it is about and goes on when the player has done it (or at "next" for the ones to read);
// every step can end the guide.  What it points at comes from the state the server sends (the pairs it
// lists, the refusals it gives): nothing here knows a rule.
import { t } from "./i18n.js";
import { app } from "./state.js";
import { navigable } from "./board.js";

/** @type {PageLookup} */
const $ = (id) => /** @type {PageElement<typeof id>} */ (document.getElementById(id));
// Whether the guide was done or skipped ("done" / "skipped"): then it is never offered again.
export const GUIDE_KEY = "pyramid.guide";
// The guided deal: classic deal 45, verified winnable, whose first position has one pair of pyramid
// cards (Tc+3d), one king (Kd), and whose first draw (Ac) pairs with a pyramid card (Qs).
export const GUIDE_CODE = "CL1-E-AAAAABT";

const guide = { step: -1, start: null };

const pyramidTokens = (game) => game.pyramid.filter((entry) => entry.card && !entry.removed).map((entry) => entry.card);

// The cards a step is about, as the state lists them.
function pyramidPair(game) {
  const inPyramid = new Set(pyramidTokens(game));
  for (const token of inPyramid) {
    const partners = game.pairs[token];
    const other = partners && partners.with.find((cards) => cards.length === 1 && inPyramid.has(cards[0]));
    if (other) return [token, other[0]];
  }
  return [];
}

function king(game) {
  const token = pyramidTokens(game).find((card) => game.pairs[card] && game.pairs[card].alone);
  return token ? [token] : [];
}

function covered(game) {
  const refusal = Object.values(game.refusals).find((r) => r.code === "covered" && r.cards.length === 1);
  return refusal ? refusal.cards : [];
}

function wastePair(game) {
  const top = game.waste && game.waste.top;
  const partners = top && game.pairs[top];
  const other = partners && partners.with.find((cards) => cards.length === 1);
  return other ? [top, other[0]] : top ? [top] : [];
}

const removed = (count) => (event) => event.kind === "removed" && event.cards.length === count;

// The steps: the text, what it points at (cards by token, or element ids), and the answer that ends it
// (none: the player reads it and goes on with "next").
/**
 * @typedef {object} Step
 * @property {string} key  its text's message key
 * @property {(game: object) => string[]} [cards]  the cards it points at, by token
 * @property {string[]} [ids]  the elements it points at
 * @property {(event: { kind: string, cards?: string[] }, game: object) => boolean} [until]  whether an
 *   answer's event (and the game it left) ends it
 */
/** @type {Step[]} */
const STEPS = [
  { key: "tour_pairs", cards: pyramidPair, until: removed(2) },
  { key: "tour_kings", cards: king, until: removed(1) },
  { key: "tour_covered", cards: covered },
  { key: "tour_stock", ids: ["stock-area"], until: (event) => event.kind === "draw" },
  { key: "tour_waste", cards: wastePair, until: (event) => event.kind === "removed" },
  { key: "tour_hint", ids: ["btn-hint"], until: (event) => event.kind === "hint" },
  { key: "tour_undo", ids: ["btn-undo"], until: (event) => event.kind === "undone" },
  { key: "tour_done" },
];

export function guideSettled() {
  try { return Boolean(localStorage.getItem(GUIDE_KEY)); } catch (error) { return true; }
}

function settle(how) {
  try { localStorage.setItem(GUIDE_KEY, how); } catch (error) { /* private mode: offered again next time */ }
}

function unmark() {
  for (const element of document.querySelectorAll(".guide-target")) element.classList.remove("guide-target");
}

// Point at the step's cards and buttons again (after every drawing of the table, which replaces cards).
function mark() {
  unmark();
  const step = STEPS[guide.step];
  if (!step || !app.game) return;
  const tokens = step.cards ? step.cards(app.game) : [];
  for (const token of tokens) {
    const element = document.querySelector(`#pyramid [data-card="${token}"], #stock-area [data-card="${token}"]`);
    if (element) element.classList.add("guide-target");
  }
  for (const id of step.ids || []) $(id).classList.add("guide-target");
}

// The bar's words and buttons for step `index`.
function fillBar(index) {
  const step = STEPS[index];
  const last = index === STEPS.length - 1;
  $("guide-count").textContent = t("tour_count", { step: index + 1, steps: STEPS.length });
  $("guide-text").textContent = t(step.key);
  $("guide-next").hidden = Boolean(step.until);
  $("guide-next").textContent = t(last ? "tour_finish" : "tour_next");
  $("guide-end").hidden = last;
}

// The bar keeps the height of its tallest step: a step of two lines after one of four changed the table's
// room, and every card moved and changed size under the player's eyes between steps. Measured with each
// step's words in turn (one layout each, no paint between), at the start and when the width changes.
function reserveHeight() {
  const bar = $("guide");
  if (bar.hidden || guide.step < 0) return;
  bar.style.minHeight = "";
  let tallest = 0;
  for (let index = 0; index < STEPS.length; index += 1) {
    fillBar(index);
    tallest = Math.max(tallest, bar.getBoundingClientRect().height);
  }
  fillBar(guide.step);
  bar.style.minHeight = `${Math.ceil(tallest)}px`;
}

function show() {
  const first = $("guide").hidden;
  fillBar(guide.step);
  $("guide").hidden = false;
  if (first) reserveHeight();
  mark();
}

function next() {
  keepingFocus(() => {
    guide.step += 1;
    if (guide.step >= STEPS.length) stop("done");
    else show();
  });
}

const FOCUSABLE = "button:not([disabled]):not([hidden]), [tabindex='0']";

// `change` (the next step shown, the guide ended) with the focus kept on the page: if it was on a button of
// the guide that the change hides (Next, while a step waits for a move; the whole bar, when it ends), it
// goes to what the step points at, else to the table's first stop, never to the page's body, where a
// keyboard player loses their place.
function keepingFocus(change) {
  const had = $("guide").contains(document.activeElement);
  change();
  const active = document.activeElement;
  if (!had || (active && active !== document.body && !active.closest("[hidden]"))) return;
  for (const target of document.querySelectorAll(".guide-target")) {
    const focusable = target.matches(FOCUSABLE) ? target : target.querySelector(FOCUSABLE);
    if (focusable instanceof HTMLElement) {
      focusable.focus();
      return;
    }
  }
  const [first] = navigable();
  if (first) first.focus();
}

export function stop(how) {
  guide.step = -1;
  unmark();
  $("guide").hidden = true;
  $("guide").style.minHeight = "";
  settle(how);
}

// Start the guided deal (the offer's button, or Rules).
export async function startGuide() {
  $("dlg-guide").close();
  const game = await guide.start({ code: GUIDE_CODE });
  if (!game) return;
  guide.step = -1;
  next();
}

// The offer, on a first visit only (never again once the guide was done or skipped).
export function offerGuide() {
  if (guideSettled()) return false;
  $("dlg-guide").showModal();
  $("guide-start").focus();
  return true;
}

export function wireGuide({ start }) {
  guide.start = start;
  $("guide-start").addEventListener("click", startGuide);
  $("guide-skip").addEventListener("click", () => { $("dlg-guide").close(); settle("skipped"); });
  $("dlg-guide").addEventListener("cancel", () => settle("skipped"));
  $("guide-next").addEventListener("click", next);
  $("guide-end").addEventListener("click", () => keepingFocus(() => stop("skipped")));
  $("rules-guide").addEventListener("click", () => { $("dlg-rules").close(); startGuide(); });
  // an answer that ends the step goes on to the next; every drawing of the table (which makes its cards
  // afresh) is marked again
  addEventListener("pyramid-answer", (event) => {
    if (guide.step < 0) return;
    const step = STEPS[guide.step];
    if (step.until && step.until(event.detail.event, event.detail.game)) next();
  });
  addEventListener("pyramid-drawn", () => { if (guide.step >= 0) mark(); });
  let width = innerWidth;
  addEventListener("resize", () => {
    if (innerWidth === width) return; // (a phone's bar of the browser showing or hiding changes the height only)
    width = innerWidth;
    reserveHeight();
  });
}
