// board.js: draws a game state on the table.  Rendering is a function of the state the server sent, the
// page's selection, the settings and the board's size (layout.js places everything); elements are kept
// by key so focus, transitions and animations survive an update.  No rule of the game is decided here:
// which cards are usable, dead or covered come in the state, and the selection's partners are read from
// the state's pairs (select.js).
import { t, list } from "./i18n.js";
import { back, face } from "./cards.js";
import { LABEL, layout, shapeOf } from "./layout.js";

const WASTE_Z = 4;
// The room kept free around the table inside the board, in pixels: a card at the edge of a phone's
// screen keeps its 4-pixel ring (a partner, a hint, the guide's card) whole and some glow beyond it,
// for about 2 % of the card's width on an upright phone.
const EDGE = 9;

const elements = new Map();
// The selection being drawn: the chosen cards and their partners (set by render).
let pick = { selected: [], partners: [] };
// The last layout drawn (for animations and drag: where things are).
let current = null;

export function lastLayout() {
  return current;
}

function fillFace(element, token, value) {
  const mark = `${token}/${value ?? ""}`;
  if (element.dataset.drawn === mark) return;
  element.dataset.drawn = mark;
  element.dataset.card = token;
  element.classList.remove("back", "red", "joker", "suit-c", "suit-d", "suit-h", "suit-s");
  if (token[0] === "X") element.classList.add("joker");
  else {
    element.classList.add(`suit-${token[1]}`);
    if (token[1] === "h" || token[1] === "d") element.classList.add("red");
  }
  element.replaceChildren(face(token, value));
}

function fillBack(element, design) {
  const mark = `back/${design}`;
  if (element.dataset.drawn === mark) return;
  element.dataset.drawn = mark;
  delete element.dataset.card;
  element.classList.remove("red", "joker", "suit-c", "suit-d", "suit-h", "suit-s", "usable", "selected", "partner",
    "dead");
  element.classList.add("card", "back");
  element.replaceChildren(back(design));
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
  element.style.left = `${Math.round(x)}px`;
  element.style.top = `${Math.round(y)}px`;
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

// A label on the table, under what it names; kept inside the board when it is wider than that (a phone's
// narrow cards under a long word).
function label(key, parent, text, x, y, id) {
  const element = keyed(key, parent, "span");
  element.className = "table-label";
  if (id) element.id = id;
  element.textContent = text;
  const room = parent.closest(".board").clientWidth - EDGE;
  place(element, Math.max(EDGE, Math.min(x, room - element.offsetWidth)), y);
  return element;
}

// Whether "large cards" makes this game's cards any larger in this window: only where the readable maximum
// (MAX_CARD in layout.js) is what holds them back, not the window (a phone, most laptops).
/** @param {import("./state.js").ShownGame} game @param {{board: HTMLElement}} dom */
export function largeCardsGrow(game, dom) {
  const [width, height] = tableRoom(dom);
  const shape = shapeOf(game);
  return layout(shape, width, height, true, EDGE).cw > layout(shape, width, height, false, EDGE).cw;
}

// The board's room for the table, inside its edges: [width, height].
/** @param {{board: HTMLElement}} dom */
function tableRoom(dom) {
  return [Math.max(0, dom.board.clientWidth - 2 * EDGE), Math.max(0, dom.board.clientHeight - 2 * EDGE)];
}

// `selection`: {selected, partners}, the page's own choice of cards (none by default).
/** @param {import("./state.js").ShownGame} game */
export function render(game, dom, settings, selection = { selected: [], partners: [] }) {
  pick = selection;
  const shape = shapeOf(game);
  const [width, height] = tableRoom(dom);
  const m = layout(shape, width, height, settings.largeCards, EDGE);
  current = { ...m, game };
  dom.board.style.setProperty("--cw", `${m.cw}px`);
  dom.board.style.setProperty("--ch", `${m.ch}px`);
  dom.board.dataset.arrangement = m.arrangement;
  const slotCard = new Map(game.pyramid.map((entry) => [entry.slot, entry.card]));
  const keep = new Set();
  const design = settings.cardBack;
  dom.board.classList.toggle("inverted", shape.inverted);
  const locks = [];

  // The pyramid and any reserve piles under it.
  for (const entry of game.pyramid) {
    const key = `slot-${entry.slot}`;
    if (entry.removed) continue;
    keep.add(key);
    const element = keyed(key, dom.pyramid);
    element.dataset.slot = String(entry.slot);
    element.classList.add("card");
    element.classList.toggle("reserve", entry.pile !== null);
    const at = m.slot(entry);
    place(element, at.x, at.y, at.z);
    const coveredBy = entry.covered_by.map((slot) => slotCard.get(slot)).filter(Boolean)
      .map((token) => game.names[token] || token);
    const stillCovered = entry.covered_by.some((slot) => !game.pyramid[slot].removed);
    if (entry.card) {
      element.classList.remove("back");
      fillFace(element, entry.card, game.values[entry.card]);
      stateClasses(element, entry.card, game);
      const where = entry.pile !== null ? `${t("reserve_pile", { n: entry.pile + 1 })}${t("list_sep")}` : "";
      element.setAttribute("aria-label", where + cardLabel(entry.card, game, coveredBy));
      element.tabIndex = game.usable.includes(entry.card) ? 0 : -1;
      if (game.dead.includes(entry.card)) locks.push({ token: entry.card, at, covered: stillCovered });
    } else {
      fillBack(element, design);
      const text = [t("face_down")];
      if (coveredBy.length) text.push(t("covered_by", { cards: list(coveredBy) }));
      element.setAttribute("aria-label", text.join(t("list_sep")));
      element.tabIndex = -1;
    }
  }

  // Jokers at the top left.
  game.jokers.forEach((token, index) => {
    const key = `joker-${token}`;
    keep.add(key);
    const element = keyed(key, dom.jokers);
    element.classList.add("card");
    fillFace(element, token, game.values[token]);
    const at = m.jokers[index];
    place(element, at.x, at.y, 10 + index);
    stateClasses(element, token, game);
    element.setAttribute("aria-label", cardLabel(token, game));
    element.tabIndex = 0;
  });

  drawRemoved(game, dom, m, m.removed, keep);
  if (game.has_stock) drawStockSide(game, dom, m, keep, design, locks);
  drawCells(game, dom, m, keep, locks);
  drawLocks(dom, m, locks, shape, keep);
  prune(keep);
}

// The removed pile: its top card, and how many cards are in it.
function drawRemoved(game, dom, m, at, keep) {
  keep.add("removed-count");
  const count = keyed("removed-count", dom.removed, "span");
  count.className = "table-label removed-count";
  count.textContent = t("removed_count", { n: game.removed.count });
  count.setAttribute("aria-hidden", "true");
  count.style.width = `${m.cw}px`;
  place(count, at.x, at.y + m.ch + 3);
  dom.removed.setAttribute("aria-label", t("removed_pile", { n: game.removed.count }));
  const top = game.removed.top[game.removed.top.length - 1];
  if (top) {
    keep.add("removed-top");
    const element = keyed("removed-top", dom.removed, "div");
    element.classList.add("card");
    fillFace(element, top, game.values[top]);
    element.setAttribute("aria-hidden", "true");
    place(element, at.x, at.y, 1);
  } else {
    keep.add("removed-empty");
    const empty = keyed("removed-empty", dom.removed, "div");
    empty.className = "slot-empty removed-slot";
    empty.setAttribute("aria-hidden", "true");
    place(empty, at.x, at.y);
  }
}

function stockIcon(count) {
  const span = document.createElement("span");
  span.className = "stock-count";
  span.textContent = count ? String(count) : "";
  return span;
}

// Stock, then the face-up stock top (msc), the drawn spot (thirteen) and the waste (or Apophis's three
// waste piles), with the stock's label under it and a limit on waste uses under the waste.
function drawStockSide(game, dom, m, keep, design, locks) {
  const at = m.stock;
  keep.add("stock");
  const stock = keyed("stock", dom.stockArea);
  stock.className = `stock-btn${game.stock.count ? "" : " empty"}`;
  const mark = `${design}/${game.stock.count}/${game.stock_move}`;
  if (stock.dataset.drawn !== mark) {
    stock.dataset.drawn = mark;
    if (game.stock.count) stock.replaceChildren(back(design), stockIcon(game.stock.count));
    // the arrow only while a tap turns the waste over: a dimmed one with no pass left read as a pass to come
    else stock.replaceChildren(...(game.stock_move === "recycle" ? [recycleIcon()] : []));
  }
  const stockName = [game.stock.count ? t("stock") : t("stock_empty"), game.stock.label];
  const perDraw = game.rule_fields.draw * game.rule_fields.waste_piles;
  if (perDraw > 1) stockName.push(t("stock_draws", { n: perDraw }));
  stock.setAttribute("aria-label", stockName.join(t("list_sep")));
  stock.tabIndex = 0;
  place(stock, at.x, at.y);
  keep.add("stock-label");
  const stockLabel = label("stock-label", dom.stockArea, game.stock.label, at.x, (m.labelsY ?? at.y + m.ch + 3) + 4,
    "stock-label");
  stockLabel.classList.toggle("wide", m.arrangement === "stacked");
  if (game.waste_fan.length > 1 && m.fanAt) fanUnderWaste(game, dom, m, m.fanAt, keep);
  for (const [key, where] of Object.entries(m.spots)) {
    const token = key === "stock-top" ? game.stock.top : key === "drawn" ? game.drawn
      : key === "waste" ? game.waste.top : game.waste_piles[Number(key.slice(6)) - 1].top;
    if (token) {
      keep.add(key);
      const element = keyed(key, dom.stockArea);
      element.classList.add("card");
      element.classList.remove("under");
      fillFace(element, token, game.values[token]);
      stateClasses(element, token, game);
      const role = key === "waste" ? t("waste") : key.startsWith("waste-") ? t("waste_pile", { n: key.slice(6) })
        : key === "drawn" ? t("drawn") : t("stock_top");
      const uses = key.startsWith("waste") && game.waste.uses_left !== null
        ? `${t("list_sep")}${t("waste_uses_left", { n: game.waste.uses_left })}` : "";
      element.setAttribute("aria-label", `${role}${t("list_sep")}${cardLabel(token, game)}${uses}`);
      element.tabIndex = game.usable.includes(token) ? 0 : -1;
      place(element, where.x, where.y, WASTE_Z);
      if (game.dead.includes(token)) locks.push({ token, at: where, covered: false });
    } else {
      const emptyKey = `${key}-empty`;
      keep.add(emptyKey);
      const empty = keyed(emptyKey, dom.stockArea, "div");
      empty.className = "slot-empty";
      empty.textContent = key === "waste" ? t("waste") : key.startsWith("waste-") ? t("waste_pile", { n: key.slice(6) })
        : key === "drawn" ? t("drawn") : t("stock_top");
      empty.setAttribute("aria-hidden", "true");
      place(empty, where.x, where.y);
    }
    if ((key === "waste" || key === "waste-1") && game.waste.uses_left !== null) {
      // a limit on waste uses (seed 004): how many are left, under the (first) waste spot, on a line of
      // its own below the stock's label, which can be as wide as two cards (1/3周目 · 残り 22)
      keep.add("waste-uses");
      const y = (m.labelsY ?? where.y + m.ch + 3) + 4 + (m.arrangement === "stacked" ? LABEL : 0);
      label("waste-uses", dom.stockArea, t("waste_uses_label", { n: game.waste.uses_left }), where.x, y, "waste-uses");
    }
  }
}

function recycleIcon() {
  const span = document.createElement("span");
  span.className = "recycle";
  span.innerHTML = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><use href="#i-recycle"/></svg>';
  return span;
}

// Free cells: a parked card is drawn in its cell like any usable card; an empty cell is a button that
// takes the selected card (the state's refusals say when it cannot).
function drawCells(game, dom, m, keep, locks) {
  const size = game.cells.size;
  if (!size) return;
  for (let index = 0; index < size; index += 1) {
    const at = m.cells[index];
    const parked = game.cells.slots[index];
    if (parked) {
      const key = `cell-card-${parked.card}`;
      keep.add(key);
      const element = keyed(key, dom.cells);
      element.classList.add("card", "in-cell");
      element.dataset.cell = String(index);
      fillFace(element, parked.card, game.values[parked.card]);
      stateClasses(element, parked.card, game);
      element.setAttribute("aria-label", `${t("cell_n", { n: index + 1 })}${t("list_sep")}${cardLabel(parked.card, game)}`);
      element.tabIndex = 0;
      place(element, at.x, at.y, WASTE_Z);
      if (game.dead.includes(parked.card)) locks.push({ token: parked.card, at, covered: false });
    } else {
      const key = `cell-empty-${index}`;
      keep.add(key);
      const element = keyed(key, dom.cells);
      element.className = "cell-slot";
      element.dataset.cell = String(index);
      // the caption under the cells names them; inside, one short word that fits a phone's narrow slot
      // (the whole name wrapped there as フリーセ / ル)
      element.textContent = t("cell_slot");
      element.setAttribute("aria-label", t("cell_n_empty", { n: index + 1 }));
      // C fills the first empty cell, so only that one announces it
      if (game.cells.slots.indexOf(null) === index) element.setAttribute("aria-keyshortcuts", "C");
      else element.removeAttribute("aria-keyshortcuts");
      element.tabIndex = 0;
      place(element, at.x, at.y);
    }
  }
  // what the line of cells is, under it (each cell's own name says it to a screen reader)
  const first = m.cells[0];
  keep.add("cells-label");
  const under = m.cellsLabel || { x: first.x, y: first.y + m.ch + 3 };
  const text = label("cells-label", dom.cells, t(size > 1 ? "cell_many" : "cell"), under.x, under.y + 4);
  text.setAttribute("aria-hidden", "true");
}

// The lock of a dead card (詰み札), drawn above every card over the part of the card that shows, so a
// covered card's lock is never hidden under the row that covers it.
function drawLocks(dom, m, locks, shape, keep) {
  for (const { token, at, covered } of locks) {
    const key = `lock-${token}`;
    keep.add(key);
    const lock = keyed(key, dom.locks, "span");
    lock.className = "lock";
    lock.setAttribute("aria-hidden", "true");
    if (!lock.firstChild) lock.innerHTML = '<svg viewBox="0 0 24 24" focusable="false"><use href="#i-lock"/></svg>';
    const size = Math.round(Math.min(m.cw * 0.46, (covered ? m.step : m.ch) * 0.8));
    const middle = covered ? (shape.inverted ? at.y + m.ch - m.step / 2 : at.y + m.step / 2) : at.y + m.ch / 2;
    lock.style.width = `${size}px`;
    lock.style.height = `${size}px`;
    place(lock, at.x + m.cw / 2 - size / 2, middle - size / 2);
  }
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

// A draw of several cards (Tut's Tomb) leaves them fanned on the waste: the cards under the top show to
// its left, each partly covered by the next.  Only the top is usable, so the others are never in the
// tab order; a tap on one says, from the state's refusals, that it is not usable.
function fanUnderWaste(game, dom, m, at, keep) {
  const under = game.waste_fan.slice(0, -1);
  const step = Math.round(m.cw * 0.3);
  under.forEach((token, index) => {
    const key = `waste-under-${index}`;
    keep.add(key);
    const element = keyed(key, dom.stockArea);
    element.classList.add("card", "under");
    fillFace(element, token, game.values[token]);
    stateClasses(element, token, game);
    element.setAttribute("aria-label", `${t("waste_under")}${t("list_sep")}${cardLabel(token, game)}`);
    element.tabIndex = -1;
    place(element, at.x + index * step, at.y, 1 + index);
  });
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

export function removedPile() {
  return elements.get("removed-top") || elements.get("removed-empty") || null;
}

// Usable cards and the stock, in reading order: what the arrow keys move between.
/** @returns {HTMLElement[]} */
export function navigable() {
  const items = document.querySelectorAll("#pyramid .card.usable, #jokers .card, #stock-area .stock-btn, "
    + "#stock-area .card.usable, #cells .card, #cells .cell-slot");
  return [.../** @type {NodeListOf<HTMLElement>} */ (items)];
}
