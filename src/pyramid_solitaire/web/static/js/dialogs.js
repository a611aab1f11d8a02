// dialogs.js: the app's own confirmation dialog (resigning, resetting the statistics), in the page's
// language and style, instead of the browser's confirm().  Focus goes to the safe choice, and back to
// the button that asked when the dialog closes.
/** @type {PageLookup} */
const $ = (id) => /** @type {PageElement<typeof id>} */ (document.getElementById(id));

// Ask a question; resolves true when the player chose `yes` (the label of the button that goes ahead).
export function confirmDialog({ title, text, yes }) {
  const dialog = $("dlg-confirm");
  // (any element may have the focus, and not every one can take it back: hence the test below)
  const opener = /** @type {Element & { focus?: () => void }} */ (document.activeElement);
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      if (opener && typeof opener.focus === "function" && document.body.contains(opener)) opener.focus();
      resolve(dialog.returnValue === "yes");
    }, { once: true });
    dialog.showModal();
    $("confirm-no").focus();
  });
}

// A dialog that closes with the focus nowhere leaves a keyboard player on <body>, where Tab goes on from
// the end of the page: its opener may be disabled by then (投了 once the game is over) or inside a dialog
// that closed before it (the result's 新しいゲーム, once the New Game dialog has dealt). The focus goes to
// `fallback()` instead (新しいゲーム in the top bar: the next thing a finished game asks for, and where a
// deal started from the top bar leaves it). A dialog closed for another one, or for the watch bar, has
// already put the focus somewhere, and keeps it there.
// The focus is put there without its ring when the dialog was closed by a tap or a click (a ring on a
// top-bar button the player never went to looks like a fault on a phone); by a key, the ring shows where
// the keyboard is now. Likewise when a tap opens a dialog: the control it starts on (the New Game
// dialog's rules, the settings' language) has the focus, as for a keyboard, but no ring.
/** @param {() => HTMLElement} fallback */
export function keepFocusAfterDialogs(fallback) {
  let byPointer = false;
  document.addEventListener("pointerdown", () => { byPointer = true; }, true);
  document.addEventListener("keydown", () => { byPointer = false; }, true);
  for (const dialog of document.querySelectorAll("dialog")) {
    dialog.addEventListener("toggle", (event) => {
      const active = /** @type {HTMLElement | null} */ (document.activeElement);
      if (/** @type {ToggleEvent} */ (event).newState !== "open" || !byPointer || !active
        || !dialog.contains(active) || !active.matches(":focus-visible")) return;
      active.blur(); // (focus() on the element that has it changes nothing, its ring included)
      active.focus(/** @type {FocusOptions} */ ({ focusVisible: false }));
    });
    dialog.addEventListener("close", () => {
      if (document.querySelector("dialog[open]")) return;
      // (when the close event comes, a focus the browser could not give back is still on the closed
      // dialog's button; it drops to <body> a moment later)
      const active = /** @type {HTMLElement | null} */ (document.activeElement);
      const lost = !active || active === document.body || Boolean(active.closest("dialog:not([open])"))
        || (active instanceof HTMLButtonElement && active.disabled);
      // (focusVisible is a FocusOptions member the DOM types here do not know yet)
      if (lost) fallback().focus(/** @type {FocusOptions} */ ({ focusVisible: !byPointer }));
    });
  }
}
