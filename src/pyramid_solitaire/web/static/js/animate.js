// animate.js: an answer's motion on the table — where the cards that leave it were before the answer
// was drawn, and which motion.js animation its event plays once it is.
import { elementOf, removedPile, stockButton } from "./board.js";
import * as motion from "./motion.js";

const rect = (element) => (element ? element.getBoundingClientRect() : null);

// Where things were before an answer is drawn (`game`: the state still shown): what leaves the table
// flies from there, and as it looked there. A copy is taken now because drawing the answer reuses the
// element of a place for the card that takes it (the waste's top, msc's face-up stock top, the drawn
// spot): a copy made afterwards would fly the card left behind, not the one removed.
export function before(event, game) {
  const tokens = event.kind === "removed" ? event.cards : event.kind === "recycle" && game ? [game.waste.top] : [];
  const leaving = tokens.map(elementOf).map((element) => [element && element.cloneNode(true), rect(element)]);
  return { leaving, stock: rect(stockButton()), removed: rect(removedPile()),
    parked: event.kind === "parked" ? rect(elementOf(event.cards[0])) : null };
}

// The motion of an answer now drawn: `was` from before(), `game` the state drawn, `dealt` a new deal.
export function animate(dom, event, was, game, dealt) {
  if (!motion.enabled()) return;
  if (dealt) {
    const cards = [...dom.pyramid.querySelectorAll(".card"), ...dom.jokers.querySelectorAll(".card")];
    motion.deal(dom.board, cards, was.stock || (stockButton() && stockButton().getBoundingClientRect()));
    return;
  }
  if (event.kind === "removed") motion.flyAway(was.leaving, was.removed || dom.removed.getBoundingClientRect(), dom.board);
  if (event.kind === "recycle") motion.flyAway(was.leaving, was.stock, dom.board, { turn: 0 });
  if (event.kind === "draw") {
    const shown = game.waste_piles.length ? game.waste_piles.map((pile) => pile.top) : [game.drawn || game.waste.top];
    for (const token of shown) if (token) motion.slideFrom(elementOf(token), was.stock);
  }
  if (event.kind === "parked") motion.slideFrom(elementOf(event.cards[0]), was.parked);
}
