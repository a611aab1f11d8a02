// narrate.js: what the player reads and hears of the game — the message line, the screen-reader
// announcement (aria-live), the sound of each answer, and the cards a hint or the coach lights.
import { ApiError } from "./api.js";
import { list, t } from "./i18n.js";
import { elementOf, stockButton } from "./board.js";
import { play as sound } from "./sound.js";

/** @type {PageLookup} */
const $ = (id) => /** @type {PageElement<typeof id>} */ (document.getElementById(id));
const message = $("message");
const live = $("live");
const HINT_MS = 3000;
let announcing = 0; // the announcement on its way to the announcer (say's timer)

export function say(text, { visible = true, error = false } = {}) {
  window.clearTimeout(announcing);
  live.textContent = "";
  // A fresh text node each time so that screen readers announce a repeated message too.
  announcing = window.setTimeout(() => { live.textContent = text; }, 30);
  if (visible) {
    message.textContent = text;
    message.classList.toggle("error", error);
  }
}

// The text on the message line now.
export function shownMessage() {
  return message.textContent;
}

// The message line emptied, its error look too, and the announcer with it (nothing is announced): after a
// change of language neither keeps a text in the old one.
export function clearMessage() {
  message.textContent = "";
  message.classList.remove("error");
  window.clearTimeout(announcing);
  live.textContent = "";
}

// Cards named as the game shown names them, in a list of the page's language.
/** @param {import("./state.js").ShownGame} game */
export function names(game, tokens) {
  return list(tokens.map((token) => game.names[token] || token));
}

// What the page says for the two errors the browser finds itself (api.js), not the server.
const OWN_ERRORS = { network: "network_error", "offline-server-game": "offline_server_game" };

export function showError(error) {
  if (error instanceof ApiError) say(OWN_ERRORS[error.code] ? t(OWN_ERRORS[error.code]) : error.message, { error: true });
  else throw error;
}

// Per element, the timer that will take each pulsing class off it.  A second pulse of the same class
// (a hint asked again within three seconds, or "draw" hinted again after a draw) restarts the
// animation and replaces the timer: the first pulse's timer would otherwise take the class off in the
// middle of the second one.
/** @type {WeakMap<Element, Map<string, number>>} */
const pulses = new WeakMap();

/** @param {Element} element @param {string} className @param {number} ms */
function pulse(element, className, ms) {
  let timers = pulses.get(element);
  if (!timers) pulses.set(element, (timers = new Map()));
  window.clearTimeout(timers.get(className));
  element.classList.remove(className);
  void (/** @type {HTMLElement} */ (element)).offsetWidth; // restarts the animation
  element.classList.add(className);
  timers.set(className, window.setTimeout(() => { element.classList.remove(className); timers.delete(className); }, ms));
}

// Every pulse of a class stopped at once.  A move ends a hint's glow: the table's elements outlive their
// cards (the waste's top is the same element for the card under it), so a glow left to run its three
// seconds went on to the next card, which the hint had not named.
/** @param {string} className */
function stopPulses(className) {
  for (const element of document.querySelectorAll(`.${className}`)) {
    window.clearTimeout(pulses.get(element)?.get(className));
    pulses.get(element)?.delete(className);
    element.classList.remove(className);
  }
}

function flash(tokens, className, ms) {
  for (const token of tokens) {
    const element = elementOf(token);
    if (element) pulse(element, className, ms);
  }
}

// A move's notation names a park ("Qs>cell", or "Qs>cell2" with the cell it went to).
const isPark = (move) => typeof move === "string" && /^[^+]+>cell\d*$/.test(move);

// What an answer's event says, and sounds like: `game` is the state it brought, `previous` the state
// before it when that was the same game (null otherwise).
/** @param {Wire.EventAnswer} event @param {import("./state.js").ShownGame} game @param {import("./state.js").ShownGame | null} previous */
export function describe(event, game, previous) {
  if (event.kind !== "hint" && event.kind !== "coach") stopPulses("hinted");
  switch (event.kind) {
    case "removed":
    case "redone":
      if (event.kind === "removed") sound("remove");
      if (isPark(event.move)) {
        say(t(event.kind === "redone" ? "redone_park_msg" : "parked_msg", { cards: names(game, event.cards) }));
      } else if (event.cards.length) say(t("removed_msg", { cards: names(game, event.cards) }));
      else if (event.move === "draw" && previous) describeDraw(game, previous); // a draw redone says its card
      else say(t("redone_msg"));
      break;
    case "parked":
      sound("draw");
      say(t("parked_msg", { cards: names(game, event.cards) }));
      break;
    case "draw":
      sound("draw");
      describeDraw(game, previous);
      break;
    case "recycle":
      sound("recycle");
      say(t("recycle_msg", { label: game.stock.label }));
      break;
    case "undone":
      // what came back, as the move was said when played (a screen reader heard "Undone" and no more)
      if (event.cards.length) say(t("undone_cards_msg", { cards: names(game, event.cards) }));
      else if (event.move === "draw" || event.move === "recycle") say(t(`undone_${event.move}_msg`));
      else say(t("undone_msg"));
      break;
    case "rewound":
      say(t("rewound_msg"));
      break;
    case "resigned":
      say(t("resigned_msg"));
      break;
    case "hint":
      describeHint(event, game);
      break;
    case "coach":
      describeCoach(event, game);
      break;
    default:
      break;
  }
}

/** @param {import("./state.js").ShownGame} game @param {import("./state.js").ShownGame | null} previous */
function describeDraw(game, previous) {
  if (game.waste_piles.length && previous) {
    // Apophis: one card onto each waste pile; say the cards that came, pile by pile
    const dealt = game.waste_piles.filter((pile, i) => pile.count > previous.waste_piles[i].count && pile.top)
      .map((pile) => pile.top);
    say(t("draw_msg_piles", { cards: names(game, dealt) }));
    return;
  }
  const shown = game.drawn || game.waste.top;
  // A draw of several cards (Tut's Tomb) says how many came and which one is on top.
  const dealt = Number(game.rule_fields.draw) > 1 && previous ? game.waste.count - previous.waste.count : 1;
  if (shown && dealt > 1) say(t("draw_msg_many", { n: dealt, card: names(game, [shown]) }));
  else say(shown ? t("draw_msg", { card: names(game, [shown]) }) : t("draw_msg_hidden"));
}

/** @param {Wire.EventAnswer} event @param {import("./state.js").ShownGame} game */
function describeHint(event, game) {
  if (event.cards.length) {
    say(t(isPark(event.move) ? "hint_park" : "hint_remove", { cards: names(game, event.cards) }));
    flash(event.cards, "hinted", HINT_MS);
  } else {
    say(t(event.move === "recycle" ? "hint_recycle" : "hint_draw"));
    const stock = stockButton();
    if (stock) pulse(stock, "hinted", HINT_MS);
  }
}

// The solver's hint says what to play and whether the game stays winnable first, and then that it saw
// what the player cannot: a phone held sideways has one line for the message, cut at its end.
/** @param {Wire.EventAnswer} event @param {import("./state.js").ShownGame} game */
function describeCoach(event, game) {
  const label = t("coach");
  if (event.winnable === null) {
    say(t("coach_no_answer", { label, reason: t("coach_unknown") }));
    return;
  }
  const move = isPark(event.move) ? t("move_park", { cards: names(game, event.cards) })
    : event.cards.length ? names(game, event.cards) : t(event.move === "recycle" ? "move_recycle" : "move_draw");
  const verdict = event.winnable ? t("coach_winnable") : t("coach_lost", { n: event.best_reachable });
  // the cards it names glow, or the stock pulses for a draw or a recycle, as the plain hint's do
  if (event.cards.length) flash(event.cards, "hinted", HINT_MS);
  else if (event.move) {
    const stock = stockButton();
    if (stock) pulse(stock, "hinted", HINT_MS);
  }
  say(t("coach_message", { label, move, verdict, sees: t("coach_sees") }));
}
