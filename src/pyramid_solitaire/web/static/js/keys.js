// keys.js: the keyboard — arrow keys, Home and End move the focus over the table's cards and spots;
// letters (and Ctrl+Z / Ctrl+Y) play, as the buttons and taps do (input.js).
import { navigable } from "./board.js";
import { command, deselect, tapCell, tapStock } from "./input.js";
import { app } from "./state.js";
import { watchKey } from "./watch.js";

const MOVES = ["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "Home", "End"];

// The focus moved on the table by `key` (one of MOVES).
function moveFocus(event, key) {
  const items = navigable();
  const index = items.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  if (!items.length) return;
  event.preventDefault();
  let next = index;
  if (key === "Home") next = 0;
  else if (key === "End") next = items.length - 1;
  else if (key === "ArrowRight" || key === "ArrowDown") next = index < 0 ? 0 : (index + 1) % items.length;
  else next = index < 0 ? items.length - 1 : (index - 1 + items.length) % items.length;
  items[next].focus();
}

export function onKey(event) {
  if (document.querySelector("dialog[open]")) return;
  if (watchKey(event)) return;
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
