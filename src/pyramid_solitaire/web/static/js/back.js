// back.js: the Back button (a phone's, or the browser's) closes the dialog on top instead of leaving the
// app, as it does in the card games people know on their phones; with no dialog, a replay or the solver's
// line being watched (each takes the table over, with a button of its own to stop) stops as its button
// stops it. While one of these is open the page holds one history entry of its own above the game's; Back
// takes it away (the browser says so with popstate) and the dialog closes as Escape would close it. One
// closed any other way takes that entry back, so a later Back leaves the app at once, never after a press
// that seems to do nothing.
//
// The game's address (/play/CODE, /daily/...) is kept here too: a game started from a dialog changes it
// while that entry is still there, and the entry under it, which Back returns to, must show the same.

import { viewing } from "./mode.js";

/** The address of the game on the table, as the page shows it. */
let path = location.pathname + location.search;
/** history.back() was called to take the dialogs' entry away and its popstate has not come yet. */
let leaving = false;

/** The open dialogs, the last opened last (a confirmation over the records, say). */
let opened = /** @type {HTMLDialogElement[]} */ ([]);

const held = () => Boolean(history.state && history.state.dialog);

// The game on the table is at `url` now (the address bar and the entry under a dialog's both say so).
/** @param {string} url */
export function showPath(url) {
  path = url;
  history.replaceState(history.state, "", url);
}

// One entry while any dialog, a replay or the watched line is open, none once they are all closed.
function settle() {
  if (leaving) return; // (the popstate to come settles it)
  const open = document.querySelector("dialog[open]") !== null || viewing.replay || viewing.watch;
  if (open && !held()) history.pushState({ dialog: true }, "", path);
  else if (!open && held()) {
    leaving = true;
    history.back();
  }
}

// The dialog on top, as Escape closes it: a `cancel` event its listeners may refuse, then close().
/** @param {HTMLDialogElement} dialog */
function cancel(dialog) {
  const event = new Event("cancel", { cancelable: true });
  if (dialog.dispatchEvent(event)) dialog.close();
}

export function closeDialogsOnBack() {
  for (const dialog of document.querySelectorAll("dialog")) {
    // (toggle comes after showModal() or close() has run, once for a dialog closed and opened again at once)
    dialog.addEventListener("toggle", () => {
      opened = opened.filter((other) => other !== dialog && other.open);
      if (dialog.open) opened.push(dialog);
      settle();
    });
  }
  addEventListener("popstate", () => {
    if (leaving) leaving = false;
    else {
      // Back, pressed by the player: the last dialog opened is the one on top
      const top = opened.filter((dialog) => dialog.open).pop()
        || /** @type {HTMLDialogElement | null} */ (document.querySelector("dialog[open]"));
      if (top) cancel(top);
      else if (viewing.watch) document.getElementById("watch-stop")?.click();
      else if (viewing.replay) document.getElementById("replay-close")?.click();
    }
    // the entry under the dialogs' was written before a game started from one of them
    if (location.pathname + location.search !== path) history.replaceState(history.state, "", path);
    settle(); // a dialog still open (one under a confirmation) keeps an entry again
  });
  // a replay or a watch starts and stops with the body's class (records.js, watch.js)
  new MutationObserver(settle).observe(document.body, { attributes: true, attributeFilter: ["class"] });
  // A reload while a dialog was open leaves the page on that entry with none open: it is taken back now,
  // as when a dialog closes (Chromium keeps the entry under it with this page; a browser that does not
  // loads the same address there).
  settle();
}
