// cards.js: the drawing of a card — its face (indices in two corners, the pips laid out on a number
// card, a figure on a court card) or its back — as inline SVG built from the symbols of the card art
// (static/art/cards.svg, fetched once and cached for a year at an address holding its hash).  Suit
// colours are `currentColor`, set by the stylesheet (four colours, or two).  A card's name is the
// button's aria-label; the drawing is hidden from screen readers.
const NS = "http://www.w3.org/2000/svg";
const W = 100;
const H = 140;
// Where the pips of a number card go, [x, y] in a 100 x 140 card; those below the middle are turned.
const L = 32;
const C = 50;
const R = 68;
const TOP = 26;
const BOTTOM = 114;
const MID = 70;
const PIPS = {
  2: [[C, TOP], [C, BOTTOM]],
  3: [[C, TOP], [C, MID], [C, BOTTOM]],
  4: [[L, TOP], [R, TOP], [L, BOTTOM], [R, BOTTOM]],
};
PIPS[5] = [...PIPS[4], [C, MID]];
PIPS[6] = [...PIPS[4], [L, MID], [R, MID]];
PIPS[7] = [...PIPS[6], [C, 48]];
PIPS[8] = [...PIPS[6], [C, 48], [C, 92]];
PIPS[9] = [[L, TOP], [R, TOP], [L, 55], [R, 55], [L, 85], [R, 85], [L, BOTTOM], [R, BOTTOM], [C, MID]];
PIPS[10] = [[L, TOP], [R, TOP], [L, 55], [R, 55], [L, 85], [R, 85], [L, BOTTOM], [R, BOTTOM], [C, 41], [C, 99]];
const PIP_SIZE = 17;
const ACE_SIZE = 46;
const COURT = { J: "h-j", Q: "h-q", K: "h-k" };
const RANK_TEXT = { T: "10" };
// The largest value a badge can show (a king in the 52-card deck); the art has a number for each.
const BADGES = 13;

let art = null;

// Fetch the card art once and put its symbols in the page, so every card can <use> them.
export async function loadArt() {
  if (art) return art;
  const link = /** @type {HTMLLinkElement} */ (document.getElementById("card-art"));
  art = fetch(link ? link.href : "/static/art/cards.svg").then((response) => response.text()).then((text) => {
    const holder = document.createElement("div");
    holder.className = "art-symbols";
    holder.setAttribute("aria-hidden", "true");
    holder.innerHTML = text; // our own file, same origin: symbols and patterns only
    document.body.prepend(holder);
  });
  return art;
}

function node(tag, attributes = {}) {
  const element = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

function use(id, x, y, width, height, turned = false) {
  const element = node("use", { href: `#${id}`, x, y, width, height });
  if (turned) element.setAttribute("transform", `rotate(180 ${x + width / 2} ${y + height / 2})`);
  return element;
}

function drawing() {
  const svg = node("svg", { viewBox: `0 0 ${W} ${H}`, class: "art", "aria-hidden": "true", focusable: "false" });
  svg.append(node("rect", { class: "paper", x: 0.5, y: 0.5, width: W - 1, height: H - 1, rx: 7 }));
  return svg;
}

// One corner's index: the rank over a small suit, or JOKER spelt downwards.  The letters are symbols of
// the card art (text inside <use> is no text of the button, whose only name is its label).
function index(rank, suit) {
  const group = node("g", { class: "index" });
  if (!suit) {
    group.append(use("r-X", 4, 6, 12, 52));
    return group;
  }
  group.append(use(`r-${rank}`, 1, 3, 20, 24), use(`s-${suit}`, 4.5, 26, 13, 13));
  return group;
}

// A card's face, drawn: `token` like "Qh", "Tc" or "X1" (a joker); `value` the number the value badge
// shows (from the state: 12 for a queen in the 52-card deck, 11 in the 48-card one), or null.
export function face(token, value) {
  const svg = drawing();
  const joker = token[0] === "X";
  const suit = joker ? null : token[1];
  const rank = joker ? "" : RANK_TEXT[token[0]] || token[0];
  svg.append(index(rank, suit));
  const lower = index(rank, suit);
  lower.setAttribute("transform", `rotate(180 ${W / 2} ${H / 2})`);
  svg.append(lower);
  if (joker) {
    svg.append(use("f-x", 20, 18, 60, 104));
  } else if (rank === "A") {
    svg.append(use(`s-${suit}`, C - ACE_SIZE / 2, MID - ACE_SIZE / 2, ACE_SIZE, ACE_SIZE));
  } else if (COURT[rank]) {
    svg.append(node("rect", { class: "frame", x: 20, y: 17, width: 60, height: 106, rx: 2 }));
    svg.append(use(COURT[rank], 20, 20, 60, 50), use(COURT[rank], 20, 70, 60, 50, true));
    svg.append(node("line", { class: "frame", x1: 20, y1: MID, x2: 80, y2: MID }));
    svg.append(use(`s-${suit}`, 22.5, 19.5, 9, 9), use(`s-${suit}`, 68.5, 111.5, 9, 9, true));
  } else {
    for (const [x, y] of PIPS[Number(rank)]) {
      svg.append(use(`s-${suit}`, x - PIP_SIZE / 2, y - PIP_SIZE / 2, PIP_SIZE, PIP_SIZE, y > MID));
    }
  }
  if (Number.isInteger(value) && value >= 1 && value <= BADGES && (joker || "AJQK".includes(token[0]))) {
    const badge = node("g", { class: "badge" });
    badge.append(node("rect", { x: 72, y: 4, width: 24, height: 17, rx: 4 }), use(`b-${value}`, 72, 4, 24, 17));
    svg.append(badge);
  }
  return svg;
}

// A card's back, in the design chosen in the settings ("blue" or "red").
export function back(design) {
  const svg = node("svg", { viewBox: `0 0 ${W} ${H}`, class: "art", "aria-hidden": "true", focusable: "false" });
  svg.append(use(`back-${design}`, 0, 0, W, H));
  return svg;
}

export const BACKS = ["blue", "red"];
