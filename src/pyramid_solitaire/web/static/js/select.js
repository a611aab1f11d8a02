// select.js: the player's selection, held by the page alone.  Choosing cards changes nothing in the
// game, so it is never sent: the state the server sent says what each card can be removed with
// (`pairs`), which cards may be chosen (`selectable`) and why any other tap would do nothing
// (`refusals`, each message already in the page's language).  These functions only read that data;
// no rule of the game is written here.  Each takes the state and the selection (an array of tokens,
// in the order they were tapped) and returns what the page should do, changing neither.

// The key of a refused pair in `refusals`: its two tokens in sorted order.
export const pairKey = (a, b) => [a, b].sort().join("+");

// The removals holding every chosen card, each as the cards it would still add ([] for an exact one).
/** @param {import("./state.js").ShownGame} game */
function extensions(game, chosen) {
  if (!chosen.length) return [];
  const entry = game.pairs[chosen[0]];
  if (!entry) return [];
  const others = chosen.slice(1);
  return entry.with.filter((w) => others.every((token) => w.includes(token)))
    .map((w) => w.filter((token) => !chosen.includes(token)));
}

const isExact = (game, chosen) => chosen.length > 1 && extensions(game, chosen).some((rest) => rest.length === 0);
const continues = (game, chosen) => extensions(game, chosen).some((rest) => rest.length > 0);

// The cards to light as partners of the selection: those that would complete or continue a removal.
/** @param {import("./state.js").ShownGame} game */
export function partners(game, selection) {
  return [...new Set(extensions(game, selection).flat())].sort();
}

// A tap on a card: `key` is its token, or "#<slot>" for a face-down pyramid card.  The answer is one of
//   {kind: "refused", refusal, cards, selection}   say why (refusal may be quiet), shake the cards
//   {kind: "selected", card, selection}
//   {kind: "deselected", selection}
//   {kind: "move", move, cards, selection}          send the move; `selection` is what stays chosen if
//                                                    the server refuses it (`refused`: a miss it explains)
/** @param {import("./state.js").ShownGame} game */
export function tap(game, selection, key) {
  const refusals = game.refusals || {};
  if (refusals["game-over"]) return refused(refusals["game-over"], selection);
  if (selection.includes(key)) return { kind: "deselected", selection: selection.filter((token) => token !== key) };
  if (!game.selectable.includes(key)) return refused(refusals[key], selection);
  const chosen = [...selection, key];
  const alone = game.pairs[key] && game.pairs[key].alone;
  if (alone && (!selection.length || !extensions(game, chosen).length)) {
    return { kind: "move", move: key, cards: [key], selection: [] };
  }
  if (chosen.length === 1) return { kind: "selected", card: key, selection: chosen };
  if (isExact(game, chosen)) return { kind: "move", move: chosen.join("+"), cards: chosen, selection: [] };
  if (continues(game, chosen)) return { kind: "selected", card: key, selection: chosen };
  const after = game.ui && game.ui.keep_second ? [key] : [];
  const reason = chosen.length === 2 ? refusals[pairKey(chosen[0], chosen[1])] : undefined;
  if (reason) return { kind: "refused", refusal: reason, cards: reason.cards, selection: after };
  // a miss the state does not explain (three cards): the server refuses the move, writes nothing, and says why
  return { kind: "move", move: chosen.join("+"), cards: chosen, selection: after, refused: true };
}

function refused(refusal, selection) {
  return { kind: "refused", refusal, cards: refusal ? refusal.cards : [], selection };
}

// A tap on the stock: the move it plays, or why it plays nothing; the selection stays either way.
/** @param {import("./state.js").ShownGame} game */
export function tapStock(game, selection) {
  const refusals = game.refusals || {};
  if (refusals["game-over"]) return refused(refusals["game-over"], selection);
  if (game.stock_move) return { kind: "move", move: game.stock_move, cards: [], selection };
  return refused(refusals.stock, selection);
}

// Escape: every chosen card is put down.
export const deselect = () => ({ kind: "deselected", selection: [] });

// A tap on an empty free cell `cell` (from 0; undefined: the first empty one, the C key): the one
// selected card is parked there, or why not.
/** @param {import("./state.js").ShownGame} game */
export function tapCell(game, selection, cell) {
  const refusals = game.refusals || {};
  if (refusals["game-over"]) return refused(refusals["game-over"], selection);
  if (selection.length === 1) {
    const park = `${selection[0]}>cell`;
    if (game.legal_moves.includes(park)) return { kind: "move", move: park, cell, cards: selection, selection: [] };
    if (refusals[park]) return refused(refusals[park], selection);
  }
  return refused(refusals.cell, selection);
}

// The selection carried into a new state of the same position: the cards still selectable, as long as
// they still make the start of a removal together.
/** @param {import("./state.js").ShownGame} game */
export function keep(game, selection) {
  const still = selection.filter((token) => game.selectable.includes(token));
  if (still.length > 1 && !extensions(game, still).length) return [];
  return still;
}
