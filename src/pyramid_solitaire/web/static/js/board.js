// board.js: draws a game state.  Rendering is a function of the state the server sent (and of the
// board's width) and of the page's selection; elements are kept by key so focus and transitions survive
// an update.  No rule of the game is decided here: which cards are usable, dead or covered come in the
// state, and the selection's partners are read from the state's pairs (select.js).
import { t, list } from "./i18n.js";

const SUIT_SYMBOL = { c: "♣", d: "♦", h: "♥", s: "♠" };
const FACE_VALUE = { A: 1, J: 11, Q: 12, K: 13 };
const MAX_CARD = 84;
const MAX_LARGE_CARD = 112;
const CARD_RATIO = 1.4;
const ROW_STEP = 0.48;
// How far each card under the waste top shows when a draw of several cards leaves them fanned.
const FAN_STEP = 0.3;
// How much of each card under the top of a reserve pile shows (Giza's piles of 3): as much as of a
// covered pyramid card, its rank and suit.
const PILE_STEP = ROW_STEP;
const WASTE_Z = 4;
// the line under the stock's label where a limit on waste uses shows the uses left
const USES_LINE = 20;
// Room for the count under the removed pile.
const REMOVED_LABEL = 18;
// Room under the stock line for its labels.
const LABEL_ROOM = 28;

const elements = new Map();
// The selection being drawn: the chosen cards and their partners (set by render).
let pick = { selected: [], partners: [] };

function faceOf(token) {
  return token[0] === "T" ? "10" : token[0];
}

// Printed text on a card is CSS-generated (see [data-text] in app.css): the card is drawn, and its
// name — what a screen reader or voice control uses — is the button's aria-label alone.
function span(className, text) {
  const element = document.createElement("span");
  if (className) element.className = className;
  if (text) element.dataset.text = text;
  return element;
}

function fillFace(element, token) {
  if (element.dataset.card === token) return;
  element.dataset.card = token;
  element.classList.remove("back", "red", "joker", "suit-c", "suit-d", "suit-h", "suit-s");
  // The printed corner and pips are drawing; the card's name is its aria-label.
  const face = span("face", "");
  face.setAttribute("aria-hidden", "true");
  element.replaceChildren(face);
  if (token[0] === "X") {
    element.classList.add("joker");
    face.append(span("corner", "★"), span("pip", "JOKER"));
    return;
  }
  const suit = token[1];
  element.classList.add(`suit-${suit}`);
  if (suit === "h" || suit === "d") element.classList.add("red");
  const corner = span("corner", "");
  corner.append(span("", faceOf(token)), span("s", SUIT_SYMBOL[suit]));
  face.append(corner, span("pip", SUIT_SYMBOL[suit]));
  if (faceOf(token) in FACE_VALUE) face.append(span("value", String(FACE_VALUE[faceOf(token)])));
}

function fillBack(element) {
  if (element.dataset.card === "") return;
  element.dataset.card = "";
  element.replaceChildren();
  element.className = "card back";
}

function keyed(key, parent, tag = "button") {
  let element = elements.get(key);
  if (!element) {
    element = document.createElement(tag);
    if (tag === "button") element.type = "button";
    element.dataset.key = key;
    elements.set(key, element);
  }
  if (element.parentElement !== parent) parent.append(element);
  return element;
}

function place(element, x, y, z) {
  element.style.left = `${x}px`;
  element.style.top = `${y}px`;
  if (z !== undefined) element.style.zIndex = String(z);
}

function stateClasses(element, token, game, extra = {}) {
  element.classList.toggle("usable", game.usable.includes(token));
  element.classList.toggle("selected", pick.selected.includes(token));
  element.classList.toggle("partner", pick.partners.includes(token));
  element.classList.toggle("dead", game.dead.includes(token));
  for (const [name, on] of Object.entries(extra)) element.classList.toggle(name, on);
}

function cardLabel(token, game, coveredBy) {
  const parts = [game.names[token] || token];
  if (pick.selected.includes(token)) parts.push(t("selected"));
  if (game.usable.includes(token)) parts.push(t("usable"));
  else if (coveredBy && coveredBy.length) parts.push(t("covered_by", { cards: list(coveredBy) }));
  if (pick.partners.includes(token)) parts.push(t("partner"));
  if (game.dead.includes(token)) parts.push(t("dead"));
  return parts.join(t("list_sep"));
}

// Sizes from the board's width: the widest row (the pyramid's base, or the reserve's piles side by
// side) must fit, cards never grow past a readable maximum.
export function measure(board, game, large) {
  const width = board.clientWidth;
  const inPyramid = game.pyramid.filter((entry) => entry.row !== null);
  const rows = Math.max(...inPyramid.map((entry) => entry.row));
  const reserve = game.pyramid.filter((entry) => entry.pile !== null);
  const piles = reserve.length ? Math.max(...reserve.map((entry) => entry.pile)) + 1 : 0;
  const depth = reserve.length ? Math.max(...reserve.map((entry) => entry.level)) + 1 : 0;
  const across = Math.max(rows, piles);
  const gap = Math.max(3, Math.round(width * 0.008));
  const cw = Math.floor(Math.min((width - (across - 1) * gap) / across, large ? MAX_LARGE_CARD : MAX_CARD));
  const ch = Math.round(cw * CARD_RATIO);
  return { width, rows, piles, depth, gap, cw, ch, step: Math.round(ch * ROW_STEP), pileStep: Math.round(ch * PILE_STEP) };
}

// `selection`: {selected, partners}, the page's own choice of cards (none by default).
export function render(game, dom, settings, selection = { selected: [], partners: [] }) {
  pick = selection;
  const m = measure(dom.board, game, settings.largeCards);
  dom.board.style.setProperty("--cw", `${m.cw}px`);
  dom.board.style.setProperty("--ch", `${m.ch}px`);
  const slotCard = new Map(game.pyramid.map((entry) => [entry.slot, entry.card]));
  const keep = new Set();
  const inverted = Boolean(game.rule_fields.inverted);
  dom.board.classList.toggle("inverted", inverted);
  // Triangle's widest row is on top: below the removed pile (top right) and the jokers (top left)
  const offsetY = inverted ? m.ch + m.gap * 2 + REMOVED_LABEL : 0;
  const pyramidHeight = offsetY + m.ch + (m.rows - 1) * m.step;
  const reserveY = pyramidHeight + m.gap * 4;
  const reserveHeight = m.piles ? m.ch + (m.depth - 1) * m.pileStep + m.gap * 4 : 0;

  // The pyramid: row r, column c, centred; lower rows overlap the ones above (upside down in
  // Triangle: row r is drawn that far from the bottom, and still overlaps the row it covers).
  // Reserve piles go under it, side by side, each card overlapping the one under it.
  for (const entry of game.pyramid) {
    const key = `slot-${entry.slot}`;
    if (entry.removed) continue;
    keep.add(key);
    const element = keyed(key, dom.pyramid);
    element.dataset.slot = String(entry.slot);
    element.classList.toggle("reserve", entry.pile !== null);
    if (entry.pile !== null) {
      const x = m.width / 2 + (entry.pile - (m.piles - 1) / 2) * (m.cw + m.gap) - m.cw / 2;
      place(element, x, reserveY + entry.level * m.pileStep, entry.level + 1);
    } else {
      const x = m.width / 2 + (entry.col - 1 - (entry.row - 1) / 2) * (m.cw + m.gap) - m.cw / 2;
      place(element, x, offsetY + (inverted ? m.rows - entry.row : entry.row - 1) * m.step, entry.row);
    }
    const coveredBy = entry.covered_by.map((slot) => slotCard.get(slot)).filter(Boolean)
      .map((token) => game.names[token] || token);
    if (entry.card) {
      element.classList.add("card");
      fillFace(element, entry.card);
      stateClasses(element, entry.card, game);
      const where = entry.pile !== null ? `${t("reserve_pile", { n: entry.pile + 1 })}${t("list_sep")}` : "";
      element.setAttribute("aria-label", where + cardLabel(entry.card, game, coveredBy));
      element.tabIndex = game.usable.includes(entry.card) ? 0 : -1;
    } else {
      fillBack(element);
      const label = [t("face_down")];
      if (coveredBy.length) label.push(t("covered_by", { cards: list(coveredBy) }));
      element.setAttribute("aria-label", label.join(t("list_sep")));
      element.tabIndex = -1;
    }
  }

  // Jokers at the top left.
  game.jokers.forEach((token, index) => {
    const key = `joker-${token}`;
    keep.add(key);
    const element = keyed(key, dom.jokers);
    element.classList.add("card");
    fillFace(element, token);
    place(element, index * Math.round(m.cw * 0.45), 0, 10 + index);
    stateClasses(element, token, game);
    element.setAttribute("aria-label", cardLabel(token, game));
    element.tabIndex = 0;
  });

  // The removed pile at the top right.
  const removedKey = "removed-count";
  keep.add(removedKey);
  const count = keyed(removedKey, dom.removed, "span");
  count.className = "removed-count";
  count.textContent = t("removed_count", { n: game.removed.count });
  count.setAttribute("aria-hidden", "true");
  count.style.top = `${m.ch + 2}px`;
  dom.removed.setAttribute("aria-label", t("removed_pile", { n: game.removed.count }));
  const top = game.removed.top[game.removed.top.length - 1];
  const pileKey = "removed-top";
  if (top) {
    keep.add(pileKey);
    const element = keyed(pileKey, dom.removed, "div");
    element.classList.add("card");
    fillFace(element, top);
    element.setAttribute("aria-hidden", "true");
    place(element, m.width - m.cw, 0, 1);
  } else {
    keep.add("removed-empty");
    const empty = keyed("removed-empty", dom.removed, "div");
    empty.className = "slot-empty";
    empty.setAttribute("aria-hidden", "true");
    place(empty, m.width - m.cw, 0);
  }

  // Stock (bottom left), then the face-up stock top (msc), the drawn spot (thirteen) and the waste;
  // none of them in a game that deals every card to the layout (Giza).
  const baseY = pyramidHeight + m.gap * 4 + reserveHeight;
  if (!game.has_stock) {
    const bottom = drawCells(game, dom, m, 0, baseY, keep);
    dom.board.style.height = `${Math.max(baseY, bottom)}px`;
    prune(keep);
    return;
  }
  let x = 0;
  keep.add("stock");
  const stock = keyed("stock", dom.stockArea);
  stock.className = `stock-btn${game.stock.count ? "" : " empty"}`;
  stock.textContent = game.stock.count ? String(game.stock.count) : "↺";
  const stockName = [game.stock.count ? t("stock") : t("stock_empty"), game.stock.label];
  const perDraw = game.rule_fields.draw * game.rule_fields.waste_piles;
  if (perDraw > 1) stockName.push(t("stock_draws", { n: perDraw }));
  stock.setAttribute("aria-label", stockName.join(t("list_sep")));
  stock.tabIndex = 0;
  place(stock, x, baseY);
  keep.add("stock-label");
  const label = keyed("stock-label", dom.stockArea, "span");
  label.className = "stock-label";
  label.id = "stock-label";
  label.textContent = game.stock.label;
  place(label, 0, baseY + m.ch + 4);
  x += m.cw + m.gap * 3;
  const spots = [];
  if (game.stock.top) spots.push(["stock-top", game.stock.top]);
  if (game.drawn_spot) spots.push(["drawn", game.drawn]);
  // Apophis: a spot for each waste pile, its top card showing; otherwise the one waste.
  if (game.waste_piles.length) game.waste_piles.forEach((pile, index) => spots.push([`waste-${index + 1}`, pile.top]));
  else spots.push(["waste", game.waste.top]);
  for (const [key, token] of spots) {
    if (key === "waste") x = fanUnderWaste(game, dom, m, x, baseY, keep);
    if (token) {
      keep.add(key);
      const element = keyed(key, dom.stockArea);
      element.classList.add("card");
      fillFace(element, token);
      stateClasses(element, token, game);
      const role = key === "waste" ? t("waste") : key.startsWith("waste-") ? t("waste_pile", { n: key.slice(6) })
        : key === "drawn" ? t("drawn") : t("stock_top");
      const uses = key.startsWith("waste") && game.waste.uses_left !== null
        ? `${t("list_sep")}${t("waste_uses_left", { n: game.waste.uses_left })}` : "";
      element.setAttribute("aria-label", `${role}${t("list_sep")}${cardLabel(token, game)}${uses}`);
      element.tabIndex = game.usable.includes(token) ? 0 : -1;
      place(element, x, baseY, WASTE_Z);
    } else {
      const emptyKey = `${key}-empty`;
      keep.add(emptyKey);
      const empty = keyed(emptyKey, dom.stockArea, "div");
      empty.className = "slot-empty";
      empty.textContent = key === "waste" ? t("waste") : key.startsWith("waste-") ? t("waste_pile", { n: key.slice(6) })
        : t("drawn");
      empty.setAttribute("aria-hidden", "true");
      place(empty, x, baseY);
    }
    if ((key === "waste" || key === "waste-1") && game.waste.uses_left !== null) {
      // a limit on waste uses (seed 004): how many are left, under the (first) waste spot, on a line
      // of its own: the stock's label beside it can be as wide as two cards (1/3周目・残り 22)
      keep.add("waste-uses");
      const left = keyed("waste-uses", dom.stockArea, "span");
      left.className = "stock-label";
      left.id = "waste-uses";
      left.textContent = t("waste_uses_label", { n: game.waste.uses_left });
      place(left, x, baseY + m.ch + 4 + USES_LINE);
    }
    x += m.cw + m.gap * 2;
  }
  const usesLine = game.waste.uses_left !== null ? USES_LINE : 0;
  const bottom = drawCells(game, dom, m, x, baseY, keep);
  dom.board.style.height = `${Math.max(baseY + m.ch + LABEL_ROOM + usesLine, bottom)}px`;
  prune(keep);
}

// Free cells, at the right end of the stock's line; on a line of their own below it when the stock
// side leaves no room (a phone with several waste piles).  A parked card is drawn in its cell like
// any usable card; an empty cell is a button: tapping it puts the selected card there (the state's
// legal moves say whether that is allowed).  Returns the board's height below them (0 without cells).
function drawCells(game, dom, m, used, y, keep) {
  const size = game.cells.size;
  if (!size) return 0;
  const width = size * m.cw + (size - 1) * m.gap;
  let x = m.width - width;
  let top = y;
  if (used > x) top = y + m.ch + LABEL_ROOM + (game.waste.uses_left !== null ? USES_LINE : 0);
  for (let index = 0; index < size; index += 1) {
    const parked = game.cells.slots[index];
    if (parked) {
      const key = `cell-card-${parked.card}`;
      keep.add(key);
      const element = keyed(key, dom.cells);
      element.classList.add("card", "in-cell");
      fillFace(element, parked.card);
      stateClasses(element, parked.card, game);
      element.setAttribute("aria-label", `${t("cell_n", { n: index + 1 })}${t("list_sep")}${cardLabel(parked.card, game)}`);
      element.tabIndex = 0;
      place(element, x, top, WASTE_Z);
    } else {
      const key = `cell-empty-${index}`;
      keep.add(key);
      const element = keyed(key, dom.cells);
      element.className = "cell-slot";
      element.dataset.cell = String(index);
      element.textContent = t("cell");
      element.setAttribute("aria-label", t("cell_n_empty", { n: index + 1 }));
      // C fills the first empty cell, so only that one announces it
      if (game.cells.slots.indexOf(null) === index) element.setAttribute("aria-keyshortcuts", "C");
      else element.removeAttribute("aria-keyshortcuts");
      element.tabIndex = 0;
      place(element, x, top);
    }
    x += m.cw + m.gap;
  }
  // what the line of cells is, under it (each cell's own name says it to a screen reader)
  keep.add("cells-label");
  const label = keyed("cells-label", dom.cells, "span");
  label.className = "stock-label";
  label.textContent = t("cell");
  label.setAttribute("aria-hidden", "true");
  place(label, m.width - width, top + m.ch + 4);
  return top + m.ch + LABEL_ROOM;
}

// Drop the elements of cards no longer shown.
function prune(keep) {
  for (const [key, element] of elements) {
    if (!keep.has(key)) {
      element.remove();
      elements.delete(key);
    }
  }
}

// A draw of several cards (Tut's Tomb) leaves them fanned on the waste: the cards under the top show
// to its left, each partly covered by the next.  Only the top is usable, so the others are never in the
// tab order; a tap on one says, from the state's refusals, that it is not usable.
function fanUnderWaste(game, dom, m, x, y, keep) {
  const under = game.waste_fan.slice(0, -1);
  const step = Math.round(m.cw * FAN_STEP);
  under.forEach((token, index) => {
    const key = `waste-under-${index}`;
    keep.add(key);
    const element = keyed(key, dom.stockArea);
    element.classList.add("card", "under");
    fillFace(element, token);
    stateClasses(element, token, game);
    element.setAttribute("aria-label", `${t("waste_under")}${t("list_sep")}${cardLabel(token, game)}`);
    element.tabIndex = -1;
    place(element, x + index * step, y, 1 + index);
  });
  return x + under.length * step;
}

// The element showing a card token now (pyramid, jokers, stock side, free cells), if any.
export function elementOf(token) {
  for (const element of elements.values()) {
    if (element.dataset.card === token && element.closest("#removed") === null) return element;
  }
  return null;
}

export function stockButton() {
  return elements.get("stock") || null;
}

// Usable cards and the stock, in reading order: what the arrow keys move between.
export function navigable() {
  const items = [...document.querySelectorAll("#pyramid .card.usable, #jokers .card, #stock-area .stock-btn, "
    + "#stock-area .card.usable, #cells .card, #cells .cell-slot")];
  return items;
}
