// input.js: the player's taps and drags on the table and the game's commands — a tap answered from the
// state (select.js: a card chosen or put down, a refusal) or sent as a move, and each command (undo,
// redo, rewind, hint, coach, resign) one request whose answer state.js applies.
import { api, ApiError } from "./api.js";
import { lang, t } from "./i18n.js";
import { replayMode } from "./mode.js";
import { elementOf } from "./board.js";
import { confirmDialog } from "./dialogs.js";
import { wireDrag } from "./drag.js";
import * as motion from "./motion.js";
import { names, say, showError } from "./narrate.js";
import * as select from "./select.js";
import { play as sound } from "./sound.js";
import { accept, app, dom, draw, drawn } from "./state.js";

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
  const had = app.selection.length;
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
    say(t("selected_msg", { card: names(app.game, [outcome.card]) }));
  } else if (outcome.kind === "deselected") {
    // (Esc with nothing chosen puts nothing down: the message line keeps what it said, a draw, a hint)
    if (had) say(t("deselected_msg"));
  }
  else refuse(outcome.refusal, outcome.cards);
  drawn();
  return false;
}

// A card is named by its token; a face-down pyramid card by its slot.
const keyOf = (element) => element.dataset.card || `#${element.dataset.slot}`;
const tapCard = (element) => choose((game, selection) => select.tap(game, selection, keyOf(element)));
export const tapStock = () => choose(select.tapStock);
export const command = (name) => {
  motion.skip();
  return act(() => api.command(app.game.id, name, lang(), app.game.version));
};
// A tap on an empty free cell: the selected card goes there (the C key: to the first empty cell).
export const tapCell = (cell) => choose((game, selection) => select.tapCell(game, selection, cell));
export const deselect = () => choose(select.deselect);

export async function resign() {
  if (!app.game || app.game.status !== "playing") return;
  const sure = await confirmDialog({ title: t("resign_title"), text: t("resign_confirm"), yes: t("resign") });
  if (sure) command("resign");
}

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
    say(t("drag_not_alone", { card: names(app.game, [key]) }), { error: true });
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

// Taps and drags on the table.
export function wireTable() {
  // A tap ends any motion (choose() and command() do the same for their own taps and keys).  Not on
  // pointerdown: ending the deal then would move the card under the finger before it is lifted, and
  // the tap would be lost.
  dom.board.addEventListener("click", (event) => {
    if (motion.dealing(dom.board)) {
      motion.skip(); // the cards are still coming: this tap only ends the deal
      return;
    }
    motion.skip();
    const target = /** @type {Element} */ (event.target).closest("button");
    if (!target || !dom.board.contains(target)) return;
    if (target.classList.contains("stock-btn")) tapStock();
    else if (target.classList.contains("cell-slot")) tapCell(Number(target.dataset.cell));
    else if (target.classList.contains("card") && !target.closest("#removed")) tapCard(target);
  });
  wireDrag(dom.board, dragging);
}
