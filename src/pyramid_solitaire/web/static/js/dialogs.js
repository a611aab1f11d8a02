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
