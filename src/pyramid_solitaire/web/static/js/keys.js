// keys.js: the keyboard — arrow keys, Home and End move the focus over the table's cards and spots;
// letters (and Ctrl+Z / Ctrl+Y) play, as the buttons and taps do (input.js).
import { navigable } from "./board.js";
import { command, deselect, tapCell, tapStock } from "./input.js";
import { app } from "./state.js";
import { watchKey } from "./watch.js";
import { replayKey } from "./records.js";

const MOVES = ["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "Home", "End"];

/**
 * The item nearest `from` on the screen straight above it (`down` false) or below it, or -1 if none is.
 * An item counts as above or below when its middle is more than a quarter of `from`'s height away
 * (the cards of one pyramid row overlap the row under them by half a card); of those, the one with
 * the least distance wins, sideways distance weighing double, so Down from a pyramid card goes to the
 * card just under it rather than to one further down in line with it.
 * @param {HTMLElement[]} items
 * @param {HTMLElement} from
 * @param {boolean} down
 */
function nearestVertically(items, from, down) {
  const a = from.getBoundingClientRect();
  const ax = a.left + a.width / 2, ay = a.top + a.height / 2;
  let best = -1, bestScore = Infinity;
  items.forEach((item, i) => {
    if (item === from) return;
    const r = item.getBoundingClientRect();
    const dy = (down ? 1 : -1) * (r.top + r.height / 2 - ay);
    if (dy <= a.height / 4) return;
    const score = dy + 2 * Math.abs(r.left + r.width / 2 - ax);
    if (score < bestScore) { best = i; bestScore = score; }
  });
  return best;
}

// The focus moved on the table by `key` (one of MOVES): Left and Right go through the items in reading
// order (the pyramid's usable cards row by row, then the stock side and the cells), wrapping round;
// Up and Down go to the nearest item above or below on the screen, and stay put at the edge.
function moveFocus(event, key) {
  const items = navigable();
  const index = items.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  if (!items.length) return;
  event.preventDefault();
  let next = index;
  if (key === "Home") next = 0;
  else if (key === "End") next = items.length - 1;
  else if ((key === "ArrowDown" || key === "ArrowUp") && index >= 0) {
    next = nearestVertically(items, items[index], key === "ArrowDown");
    if (next < 0) return;
  } else if (key === "ArrowRight" || key === "ArrowDown") next = index < 0 ? 0 : (index + 1) % items.length;
  else next = index < 0 ? items.length - 1 : (index - 1 + items.length) % items.length;
  items[next].focus();
}

export function onKey(event) {
  if (document.querySelector("dialog[open]")) return;
  if (watchKey(event) || replayKey(event)) return;
  const typing = event.target.closest && event.target.closest("input, textarea, select");
  if (typing) return;
  const key = event.key;
  if (MOVES.includes(key)) {
    moveFocus(event, key);
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
