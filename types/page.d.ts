// The page's elements by id, for the type check of its modules (tsconfig.json; never served).
//
// Each module looks its elements up with its own `$`, typed as PageLookup:
//     /** @type {PageLookup} */
//     const $ = (id) => /** @type {PageElement<typeof id>} */ (document.getElementById(id));
// so `$("dlg-new").showModal()` and `$("new-code").value` are checked against the element index.html
// writes under that id.  PageElements lists every id of index.html whose element has an interface of
// its own (dialogs, buttons, form controls, links); any other id is an HTMLElement.  An element added
// to index.html, or whose tag changes, changes its line here.

interface PageElements {
  "dlg-challenges": HTMLDialogElement;
  "dlg-confirm": HTMLDialogElement;
  "dlg-daily": HTMLDialogElement;
  "dlg-guide": HTMLDialogElement;
  "dlg-new": HTMLDialogElement;
  "dlg-records": HTMLDialogElement;
  "dlg-result": HTMLDialogElement;
  "dlg-rules": HTMLDialogElement;
  "dlg-settings": HTMLDialogElement;
  "btn-challenges": HTMLButtonElement;
  "btn-coach": HTMLButtonElement;
  "btn-copy": HTMLButtonElement;
  "btn-daily": HTMLButtonElement;
  "btn-hint": HTMLButtonElement;
  "btn-install": HTMLButtonElement;
  "btn-new": HTMLButtonElement;
  "btn-records": HTMLButtonElement;
  "btn-redo": HTMLButtonElement;
  "btn-resign": HTMLButtonElement;
  "btn-rewind": HTMLButtonElement;
  "btn-rules": HTMLButtonElement;
  "btn-settings": HTMLButtonElement;
  "btn-undo": HTMLButtonElement;
  "btn-watch": HTMLButtonElement;
  "cal-next": HTMLButtonElement;
  "cal-prev": HTMLButtonElement;
  "challenge-badge": HTMLButtonElement;
  "confirm-no": HTMLButtonElement;
  "confirm-yes": HTMLButtonElement;
  "daily-by-moves": HTMLButtonElement;
  "daily-by-time": HTMLButtonElement;
  "daily-play": HTMLButtonElement;
  "guide-end": HTMLButtonElement;
  "guide-next": HTMLButtonElement;
  "guide-skip": HTMLButtonElement;
  "guide-start": HTMLButtonElement;
  "new-cancel": HTMLButtonElement;
  "new-daily": HTMLButtonElement;
  "new-start": HTMLButtonElement;
  "records-close": HTMLButtonElement;
  "records-reset": HTMLButtonElement;
  "records-save-name": HTMLButtonElement;
  "replay-close": HTMLButtonElement;
  "replay-first": HTMLButtonElement;
  "replay-last": HTMLButtonElement;
  "replay-next": HTMLButtonElement;
  "replay-prev": HTMLButtonElement;
  "result-again": HTMLButtonElement;
  "result-new": HTMLButtonElement;
  "result-share": HTMLButtonElement;
  "rules-guide": HTMLButtonElement;
  "watch-next": HTMLButtonElement;
  "watch-play": HTMLButtonElement;
  "watch-prev": HTMLButtonElement;
  "watch-stop": HTMLButtonElement;
  "new-code": HTMLInputElement;
  "records-import": HTMLInputElement;
  "records-name": HTMLInputElement;
  "set-animations": HTMLInputElement;
  "set-assist": HTMLInputElement;
  "set-badges": HTMLInputElement;
  "set-coach": HTMLInputElement;
  "set-fourColour": HTMLInputElement;
  "set-largeCards": HTMLInputElement;
  "set-offline": HTMLInputElement;
  "set-sound": HTMLInputElement;
  "daily-rules": HTMLSelectElement;
  "new-rules": HTMLSelectElement;
  "set-cardBack": HTMLSelectElement;
  "set-lang": HTMLSelectElement;
  "set-table": HTMLSelectElement;
  "watch-speed": HTMLSelectElement;
  "new-deal": HTMLTextAreaElement;
  "form-new": HTMLFormElement;
  "new-options": HTMLFieldSetElement;
  "new-more": HTMLDetailsElement;
  "deal-link": HTMLAnchorElement;
  "card-art": HTMLLinkElement;
  "manifest": HTMLLinkElement;
}

/** The element the page's id `Id` names: its own type when PageElements lists it, else HTMLElement. */
type PageElement<Id extends string> = Id extends keyof PageElements ? PageElements[Id] : HTMLElement;

/** `document.getElementById`, typed by the id (the modules' `$`). */
type PageLookup = <Id extends string>(id: Id) => PageElement<Id>;

interface WindowEventMap {
  /** state.js, after it applied an answer: the answer's event and the game it left (guide.js listens). */
  "pyramid-answer": CustomEvent<{ event: { kind: string; cards?: string[] }; game: object }>;
}

interface Window {
  /** The Web Audio context of Safari before 14.1 (sound.js takes it when AudioContext is not there). */
  webkitAudioContext?: typeof AudioContext;
}
