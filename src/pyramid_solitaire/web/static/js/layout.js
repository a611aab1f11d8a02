// layout.js: where everything on the table goes, as a pure function of the state's layout (rows,
// reserve piles, the stock side's spots, free cells, jokers) and the room the board has.  The cards are
// sized from both the width and the height available, so the whole table is in view on any screen:
// two arrangements are measured — *stacked* (the stock's line under the pyramid, as on a phone held
// upright) and *side* (the stock and waste in a column left of the pyramid, the removed pile and the
// free cells in one right of it, as on a desktop or a phone held sideways) — and the one that gives the
// larger cards is drawn.  A layout of reserve piles and no stock (Giza) is measured a third way, *beside*:
// half the piles left of the pyramid and half right of it, two piles across and two down on each side,
// instead of a row under it, which on a wide screen leaves the pyramid and the piles a third larger
// (under it, eight piles and the seven rows must share the height).  No rule of the game is here: which
// spots exist comes from the state.

export const CARD_RATIO = 1.4;
// How much of a covered pyramid card shows above the row covering it, as a share of its height.
export const ROW_STEP = 0.48;
// How far each card under the waste top shows when a draw of several cards leaves them fanned.
export const FAN_STEP = 0.3;
// The gap between cards, as a share of a card's width (never under MIN_GAP pixels).
const GAP = 0.08;
const MIN_GAP = 3;
// A label under a card (the stock's pass and count, a waste limit, "free cell"), in pixels.
export const LABEL = 18;
// The largest card, in pixels: a readable maximum; "large cards" lets them grow to fill the screen.
const MAX_CARD = 112;
const MAX_LARGE_CARD = 220;
// Spots stacked in one side column.
const PER_COLUMN = 2;
// How the stacked arrangement shares out height to spare: above the pyramid, and between it and the
// stock's line (the rest stays below).
const STACKED_TOP = 0.3;
const STACKED_BETWEEN = 0.4;
// The room between the side columns and the pyramid, in card widths.
const SIDE_ROOM = 0.35;
// Beside: the piles across in each side's block, and the room between two piles one above the other, in
// card heights (wide enough that the lower pile does not read as the upper one's fan going on).
const BESIDE_ACROSS = 2;
const BESIDE_BETWEEN = 0.18;
// How much larger the cards must be for the piles to go beside the pyramid.
const BESIDE_GAIN = 1.08;

/** A place on the board, in pixels from its top left corner. @typedef {{ x: number, y: number }} Point */

/**
 * What the layout needs of a state (shapeOf).
 * @typedef {ReturnType<typeof shapeOf>} Shape
 */

/**
 * Where everything on the table goes (layout): the card size, and where each part is.
 * @typedef {object} Layout
 * @property {"stacked" | "side" | "beside"} arrangement  which of the arrangements was drawn
 * @property {number} width  the table's size, in pixels
 * @property {number} height
 * @property {number} left  the table's top left corner on the board
 * @property {number} top
 * @property {number} cw  a card's width and height
 * @property {number} ch
 * @property {number} gap  the gap between cards
 * @property {number} step  how far a pyramid row is below the row it covers
 * @property {ReturnType<typeof heights>} h  the heights of the table's parts
 * @property {(entry: { row: number | null, col: number | null, pile: number | null, level: number | null })
 *   => Point & { z: number }} slot  where a pyramid entry of the state goes, and its stacking order
 * @property {Point} removed  the removed pile
 * @property {Point[]} jokers  one for each joker
 * @property {Point | null} stock  the stock (null: a game without one)
 * @property {Record<string, Point>} spots  the stock side's spots, by the state's key ("waste", "drawn"…)
 * @property {Point} [fanAt]  where the waste's fan starts (only with a waste)
 * @property {Point[]} cells  the free cells
 * @property {Point | null} cellsLabel  the free cells' label (null: none, or not drawn)
 * @property {number | null} labelsY  the stock's line's labels (null: the side arrangement's own)
 */

// What the layout needs of a state: counts and kinds of things, never cards.
export function shapeOf(game) {
  const inPyramid = game.pyramid.filter((entry) => entry.row !== null);
  const reserve = game.pyramid.filter((entry) => entry.pile !== null);
  const spots = [];
  if (game.has_stock) {
    if (game.stock.top !== null || game.rule_fields.stock_top) spots.push("stock-top");
    if (game.drawn_spot) spots.push("drawn");
    if (game.waste_piles.length) game.waste_piles.forEach((_, index) => spots.push(`waste-${index + 1}`));
    else spots.push("waste");
  }
  return {
    rows: Math.max(...inPyramid.map((entry) => entry.row)),
    piles: reserve.length ? Math.max(...reserve.map((entry) => entry.pile)) + 1 : 0,
    depth: reserve.length ? Math.max(...reserve.map((entry) => entry.level)) + 1 : 0,
    inverted: Boolean(game.rule_fields.inverted),
    hasStock: game.has_stock,
    spots,
    fan: game.rule_fields.draw > 1 ? game.rule_fields.draw - 1 : 0,
    usesLine: game.waste.uses_left !== null,
    cells: game.cells.size,
    jokers: game.jokers.length,
  };
}

const gapOf = (cw) => Math.max(MIN_GAP, Math.round(cw * GAP));

// Heights, in pixels, for a card width.
function heights(shape, cw) {
  const ch = Math.round(cw * CARD_RATIO);
  const gap = gapOf(cw);
  const step = Math.round(ch * ROW_STEP);
  const pyramid = ch + (shape.rows - 1) * step;
  const reserve = shape.piles ? gap * 3 + ch + (shape.depth - 1) * step : 0;
  const labels = LABEL + (shape.usesLine ? LABEL : 0);
  return { ch, gap, step, pyramid, reserve, labels };
}

// The widest a card can be for the arrangement to fit in width x height (0 if none does).
function fit(measure, width, height, limit) {
  // measure(cw) -> [w, h]; both grow with cw, so the largest fitting width is found by bisection.
  let low = 0;
  let high = limit;
  for (let i = 0; i < 24; i += 1) {
    const mid = (low + high) / 2;
    const [w, h] = measure(mid);
    if (w <= width && h <= height) low = mid;
    else high = mid;
  }
  return Math.floor(low);
}

// The stacked arrangement's size for a card width: pyramid, reserve, then the stock's line (and the free
// cells, on that line's right end or on a line of their own when it has no room).
function stackedSize(shape, cw) {
  const h = heights(shape, cw);
  const across = Math.max(shape.rows, shape.piles);
  let width = across * cw + (across - 1) * h.gap;
  const stockLine = shape.hasStock ? stockLineWidth(shape, cw, h.gap) : 0;
  const cellsWidth = shape.cells ? shape.cells * cw + (shape.cells - 1) * h.gap : 0;
  // the removed pile sits on the stock's line when the pyramid's corner is taken (Triangle)
  const removedOnLine = shape.inverted ? cw + h.gap * 2 : 0;
  const together = stockLine + (stockLine && cellsWidth ? h.gap * 3 : 0) + cellsWidth + removedOnLine;
  const cellsOwnLine = together > Math.max(width, stockLine + cellsWidth) && stockLine > 0 && cellsWidth > 0;
  width = Math.max(width, cellsOwnLine ? Math.max(stockLine + removedOnLine, cellsWidth) : together);
  let height = h.pyramid + h.reserve;
  const lineHeight = h.gap * 3 + h.ch + h.labels;
  if (shape.hasStock || shape.cells || shape.inverted) height += lineHeight;
  if (cellsOwnLine) height += h.gap + h.ch + LABEL;
  return { width, height, cellsOwnLine };
}

function stockLineWidth(shape, cw, gap) {
  const spots = shape.spots.length;
  return cw + gap * 3 + spots * cw + (spots - 1) * gap * 2 + shape.fan * Math.round(cw * FAN_STEP);
}

// The side arrangement's size: columns of stock-side spots on the left, the removed pile and the free
// cells on the right, the pyramid (and reserve) between them.
function sideSize(shape, cw) {
  const h = heights(shape, cw);
  const across = Math.max(shape.rows, shape.piles);
  const left = shape.hasStock ? Math.ceil((1 + shape.spots.length) / PER_COLUMN) : 0;
  const right = Math.ceil((1 + shape.cells) / PER_COLUMN);
  const fan = shape.fan * Math.round(cw * FAN_STEP);
  const columns = left + right;
  const width = across * cw + (across - 1) * h.gap + columns * cw + (columns - 1) * h.gap * 2
    + 2 * Math.round(cw * SIDE_ROOM) + fan;
  const column = PER_COLUMN * (h.ch + h.labels) + (PER_COLUMN - 1) * h.gap * 2;
  const height = Math.max(h.pyramid + h.reserve, column);
  return { width, height, left, right };
}

// The beside arrangement (reserve piles, no stock): a block of piles on each side of the pyramid, then
// the removed pile and the free cells in columns at the right (for a layout besideSuits).
const besideSuits = (shape) => shape.piles > 0 && shape.depth > 1 && !shape.hasStock;

function besideSize(shape, cw) {
  const h = heights(shape, cw);
  const perSide = Math.ceil(shape.piles / 2);
  const across = Math.min(BESIDE_ACROSS, perSide);
  const down = Math.ceil(perSide / across);
  const pile = h.ch + (shape.depth - 1) * h.step;
  const between = Math.round(h.ch * BESIDE_BETWEEN);
  const block = across * cw + (across - 1) * h.gap * 2;
  const room = Math.round(cw * SIDE_ROOM);
  const right = Math.ceil((1 + shape.cells) / PER_COLUMN);
  const pyramid = shape.rows * cw + (shape.rows - 1) * h.gap;
  // a room each side of the pyramid, and one before the right columns
  const width = 2 * block + pyramid + 3 * room + right * cw + (right - 1) * h.gap * 2;
  const piles = down * pile + (down - 1) * between;
  const column = PER_COLUMN * (h.ch + h.labels) + (PER_COLUMN - 1) * h.gap * 2;
  const height = Math.max(h.pyramid, piles, column);
  return { width, height, perSide, across, pile, between, block, room, pyramid, piles };
}

// Where everything goes: card size, and x/y of each part, for a board of width x height pixels.
// `origin`: the room kept free around the table, in pixels (the table is drawn inside it).
/**
 * @param {Shape} shape
 * @param {number} width
 * @param {number} height
 * @param {boolean} large
 * @param {number} [origin]
 * @returns {Layout}
 */
export function layout(shape, width, height, large, origin = 0) {
  const limit = large ? MAX_LARGE_CARD : MAX_CARD;
  const stackedCw = fit((cw) => { const s = stackedSize(shape, cw); return [s.width, s.height]; }, width, height, limit);
  const sideCw = fit((cw) => { const s = sideSize(shape, cw); return [s.width, s.height]; }, width, height, limit);
  // the larger cards win; at a tie (both at the largest size) a wide board sets the stock at the side
  const side = sideCw > stackedCw || (sideCw === stackedCw && width > height * 1.3);
  const cw = Math.max(1, side ? sideCw : stackedCw);
  const besideCw = besideSuits(shape)
    ? fit((w) => { const s = besideSize(shape, w); return [s.width, s.height]; }, width, height, limit)
    : 0;
  // beside only where it gives clearly larger cards: where the two are near (a large screen, where both
  // reach the largest size), the piles stay in their row under the pyramid, the table as it is dealt
  if (besideCw > cw * BESIDE_GAIN) return besideLayout(shape, besideCw, width, height, origin);
  return side ? sideLayout(shape, cw, width, height, origin) : stackedLayout(shape, cw, width, height, origin);
}

function base(shape, cw) {
  const h = heights(shape, cw);
  return { cw, ch: h.ch, gap: h.gap, step: h.step, h };
}

// Pyramid slot positions for a pyramid whose centre line is at `centre` and top at `top`.
function pyramidAt(shape, m, centre, top) {
  return (entry) => {
    if (entry.pile !== null) {
      const x = centre + (entry.pile - (shape.piles - 1) / 2) * (m.cw + m.gap) - m.cw / 2;
      return { x, y: top + m.h.pyramid + m.gap * 3 + entry.level * m.step, z: entry.level + 1 };
    }
    const x = centre + (entry.col - 1 - (entry.row - 1) / 2) * (m.cw + m.gap) - m.cw / 2;
    const row = shape.inverted ? shape.rows - entry.row : entry.row - 1;
    return { x, y: top + row * m.step, z: entry.row };
  };
}

function stackedLayout(shape, cw, width, height, origin) {
  const m = base(shape, cw);
  const size = stackedSize(shape, cw);
  const left = origin + Math.max(0, Math.floor((width - size.width) / 2));
  // Room to spare (a phone held upright): the pyramid a little above the middle, and the stock's line
  // lower down, nearer the thumb and the controls.
  const spare = Math.max(0, height - size.height);
  const top = origin + Math.floor(spare * STACKED_TOP);
  const right = left + size.width;
  const centre = left + size.width / 2;
  // the rest of its parts are added below
  const out = /** @type {Layout} */ (
    { ...m, arrangement: "stacked", width: size.width, height: size.height, left, top });
  out.slot = pyramidAt(shape, m, centre, top);
  const lineY = top + m.h.pyramid + m.h.reserve + m.gap * 3 + Math.floor(spare * STACKED_BETWEEN);
  // the removed pile at the top right, beside the pyramid's upper rows (on the stock's line in Triangle,
  // whose widest row is on top); jokers at the top left
  out.removed = shape.inverted ? { x: right - cw, y: lineY } : { x: right - cw, y: top };
  out.jokers = Array.from({ length: shape.jokers }, (_, i) => ({ x: left + i * Math.round(cw * 0.45), y: top }));
  let x = left;
  out.stock = shape.hasStock ? { x, y: lineY } : null;
  out.spots = {};
  if (shape.hasStock) {
    x += cw + m.gap * 3;
    for (const key of shape.spots) {
      if (key === "waste") {
        out.fanAt = { x, y: lineY };
        x += shape.fan * Math.round(cw * FAN_STEP);
      }
      out.spots[key] = { x, y: lineY };
      x += cw + m.gap * 2;
    }
  }
  out.labelsY = lineY + m.ch + 3;
  const cellsWidth = shape.cells ? shape.cells * cw + (shape.cells - 1) * m.gap : 0;
  const cellsY = size.cellsOwnLine ? lineY + m.ch + m.h.labels + m.gap : lineY;
  const cellsRight = shape.inverted && !size.cellsOwnLine ? right - cw - m.gap * 2 : right;
  out.cells = Array.from({ length: shape.cells }, (_, i) => ({ x: cellsRight - cellsWidth + i * (cw + m.gap), y: cellsY }));
  out.cellsLabel = shape.cells ? { x: cellsRight - cellsWidth, y: cellsY + m.ch + 3 } : null;
  return out;
}

// A table of `size` in the middle of the board (the side and beside arrangements): its measures and corner.
function centred(shape, cw, size, arrangement, width, height, origin) {
  const left = origin + Math.max(0, Math.floor((width - size.width) / 2));
  const top = origin + Math.max(0, Math.floor((height - size.height) / 2));
  const out = /** @type {Layout} */ (
    { ...base(shape, cw), arrangement, width: size.width, height: size.height, left, top });
  return { out, m: out, left, top };
}

// The right columns of the side and beside arrangements, from `x` and `top`: the removed pile on top, the
// free cells under it and on in the next columns, each column read top to bottom (no cells' label: each
// column's spots carry their own).
function rightColumns(out, shape, x, top) {
  const slotHeight = out.ch + out.h.labels + out.gap * 2;
  const at = (i) => ({ x: x + Math.floor(i / PER_COLUMN) * (out.cw + out.gap * 2), y: top + (i % PER_COLUMN) * slotHeight });
  out.removed = at(0);
  out.cells = Array.from({ length: shape.cells }, (_, i) => at(i + 1));
  out.cellsLabel = null;
}

function sideLayout(shape, cw, width, height, origin) {
  const size = sideSize(shape, cw);
  const { out, m, left, top } = centred(shape, cw, size, "side", width, height, origin);
  const room = Math.round(cw * SIDE_ROOM);
  const fan = shape.fan * Math.round(cw * FAN_STEP);
  const slotHeight = m.ch + m.h.labels + m.gap * 2;
  // the left columns: the stock, then its spots, read left to right and top to bottom (stock | drawn,
  // then the waste under the stock; Apophis: stock | pile 1, then piles 2 and 3)
  const leftItems = shape.hasStock ? ["stock", ...shape.spots] : [];
  const place = {};
  leftItems.forEach((key, i) => {
    const column = i % size.left;
    place[key] = { x: left + column * (cw + m.gap * 2) + (key === "waste" ? fan : 0),
      y: top + Math.floor(i / size.left) * slotHeight };
  });
  const leftWidth = size.left ? size.left * cw + (size.left - 1) * m.gap * 2 + fan : 0;
  const across = Math.max(shape.rows, shape.piles);
  const pyramidWidth = across * cw + (across - 1) * m.gap;
  const pyramidLeft = left + leftWidth + (size.left ? room : 0);
  out.slot = pyramidAt(shape, m, pyramidLeft + pyramidWidth / 2, top);
  rightColumns(out, shape, pyramidLeft + pyramidWidth + room, top);
  out.stock = place.stock || null;
  out.spots = Object.fromEntries(shape.spots.map((key) => [key, place[key]]));
  if (place.waste) out.fanAt = { x: place.waste.x - fan, y: place.waste.y };
  out.labelsY = null;
  out.jokers = Array.from({ length: shape.jokers }, (_, i) => ({ x: pyramidLeft + i * Math.round(cw * 0.45), y: top }));
  return out;
}

function besideLayout(shape, cw, width, height, origin) {
  const size = besideSize(shape, cw);
  const { out, m, left, top } = centred(shape, cw, size, "beside", width, height, origin);
  const pyramidLeft = left + size.block + size.room;
  const rightBlock = pyramidLeft + size.pyramid + size.room;
  const pyramidTop = top + Math.floor((size.height - m.h.pyramid) / 2);
  const blockTop = top + Math.floor((size.height - size.piles) / 2);
  const inPyramid = pyramidAt(shape, m, pyramidLeft + size.pyramid / 2, pyramidTop);
  // piles 1 to perSide on the left, the rest on the right; in each block, across then down (reading order)
  out.slot = (entry) => {
    if (entry.pile === null || entry.level === null) return inPyramid(entry);
    const side = entry.pile < size.perSide ? 0 : 1;
    const index = entry.pile - side * size.perSide;
    const x = (side ? rightBlock : left) + (index % size.across) * (cw + m.gap * 2);
    const y = blockTop + Math.floor(index / size.across) * (size.pile + size.between) + entry.level * m.step;
    return { x, y, z: entry.level + 1 };
  };
  rightColumns(out, shape, rightBlock + size.block + size.room, top);
  out.labelsY = null;
  out.stock = null;
  out.spots = {};
  out.jokers = Array.from({ length: shape.jokers }, (_, i) => ({ x: pyramidLeft + i * Math.round(cw * 0.45), y: pyramidTop }));
  return out;
}
