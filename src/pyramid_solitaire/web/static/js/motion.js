// motion.js: the table's motion — the deal, cards flying to the removed pile, a draw sliding a card
// from the stock, a recycle turning the waste back, a shake on a refused move, and the celebration of a
// win.  Every animation is short, uses the Web Animations API (so `document.getAnimations()` lists it),
// ends at once on the player's next tap (skip), and none runs when the player or the system asks for
// reduced motion (settings.js: motionAllowed).
const DEAL_MS = 260;
const DEAL_STAGGER = 22;
const FLY_MS = 320;
const SLIDE_MS = 240;
const SHAKE_MS = 380;
const CELEBRATE_MS = 1700;
const CONFETTI = 36;
const SUITS = ["♠", "♥", "♦", "♣"];

let allowed = () => true;
// The motion the page started (not CSS transitions): what skip() ends.
const running = new Set();

export function setMotionCheck(check) {
  allowed = check;
}

export function enabled() {
  return allowed();
}

function track(animation) {
  running.add(animation);
  animation.finished.catch(() => {}).finally(() => running.delete(animation));
  return animation;
}

// End every animation now (the player tapped: the table must be as it is).
export function skip() {
  for (const animation of [...running]) {
    try { animation.finish(); } catch (error) { animation.cancel(); }
  }
}

export function busy() {
  return running.size > 0;
}

function centreOf(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

// A new deal: the cards of the layout come from the stock (or the top of the table), one after another.
// While they come the board is `dealing`: a tap then only ends the deal (the cards are not yet where
// they are drawn, so a tap could not mean one of them).
export function deal(board, elements, fromRect) {
  if (!allowed() || !elements.length) return;
  const from = fromRect ? centreOf(fromRect) : null;
  const dealt = elements.map((element, index) => {
    const rect = element.getBoundingClientRect();
    const to = centreOf(rect);
    const start = from || { x: to.x, y: to.y - rect.height };
    return track(element.animate([
      { transform: `translate(${start.x - to.x}px, ${start.y - to.y}px) scale(.6)`, opacity: 0 },
      { transform: "translate(0, 0) scale(1)", opacity: 1 },
    ], { duration: DEAL_MS, delay: index * DEAL_STAGGER, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" }));
  });
  board.classList.add("dealing");
  Promise.allSettled(dealt.map((animation) => animation.finished)).then(() => board.classList.remove("dealing"));
}

export function dealing(board) {
  return board.classList.contains("dealing");
}

// Copies of cards that leave the table fly to a target (the removed pile, or the stock on a recycle).
// `leaving`: [copy, rect] of each card as it was before the answer was drawn (animate.before); each
// copy, detached and used once, becomes the ghost that flies.
export function flyAway(leaving, targetRect, board, { turn = 8 } = {}) {
  if (!allowed() || !targetRect) return;
  const boardRect = board.getBoundingClientRect();
  leaving.forEach(([ghost, from], index) => {
    if (!ghost || !from) return;
    ghost.classList.remove("usable", "selected", "partner", "hinted", "shake", "dragging");
    ghost.classList.add("ghost");
    ghost.removeAttribute("id");
    ghost.removeAttribute("data-key");
    ghost.setAttribute("aria-hidden", "true");
    ghost.tabIndex = -1;
    ghost.style.left = `${from.left - boardRect.left}px`;
    ghost.style.top = `${from.top - boardRect.top}px`;
    board.append(ghost);
    const dx = targetRect.left - from.left;
    const dy = targetRect.top - from.top;
    track(ghost.animate([{ transform: "translate(0, 0)" },
      { transform: `translate(${dx}px, ${dy}px) rotate(${turn}deg)` }],
    { duration: FLY_MS, delay: index * 40, easing: "ease-in", fill: "both" })).finished
      .catch(() => {}).finally(() => ghost.remove());
  });
}

// A card now shown somewhere new (drawn to the waste, parked in a cell) slides there from where it was.
export function slideFrom(element, fromRect) {
  if (!allowed() || !element || !fromRect) return;
  const to = element.getBoundingClientRect();
  track(element.animate([{ transform: `translate(${fromRect.left - to.left}px, ${fromRect.top - to.top}px)` },
    { transform: "translate(0, 0)" }], { duration: SLIDE_MS, easing: "ease-out" }));
}

// A refused move: the cards shake.
export function shake(elements) {
  if (!allowed()) return;
  for (const element of elements) {
    if (!element) continue;
    track(element.animate([{ translate: "0 0" }, { translate: "-6px 0" }, { translate: "6px 0" },
      { translate: "-4px 0" }, { translate: "4px 0" }, { translate: "0 0" }], { duration: SHAKE_MS, easing: "ease" }));
  }
}

// A won deal: a banner (`text`, in the page's language), suits raining over the table and the removed
// pile jumping, then `done` (the result) comes.  With motion off, `done` comes at once.
export function celebrate(board, pile, text, done) {
  if (!allowed()) {
    done();
    return;
  }
  const layer = document.createElement("div");
  layer.className = "confetti";
  layer.setAttribute("aria-hidden", "true");
  board.append(layer);
  const width = board.clientWidth;
  const height = board.clientHeight;
  const animations = [];
  const banner = document.createElement("div");
  banner.className = "banner";
  banner.textContent = text;
  layer.append(banner);
  animations.push(track(banner.animate([
    { transform: "translate(-50%, -50%) scale(.3)", opacity: 0 },
    { transform: "translate(-50%, -50%) scale(1.15)", opacity: 1, offset: 0.25 },
    { transform: "translate(-50%, -50%) scale(1)", opacity: 1, offset: 0.4 },
    { transform: "translate(-50%, -50%) scale(1)", opacity: 1, offset: 0.85 },
    { transform: "translate(-50%, -50%) scale(1.05)", opacity: 0 },
  ], { duration: CELEBRATE_MS, easing: "ease-out", fill: "both" })));
  for (let i = 0; i < CONFETTI; i += 1) {
    const bit = document.createElement("span");
    bit.className = `bit ${i % 4 === 1 || i % 4 === 2 ? "red" : ""}`;
    bit.textContent = SUITS[i % 4];
    const x = (i * 97) % Math.max(1, width);
    bit.style.left = `${x}px`;
    layer.append(bit);
    const drift = ((i * 53) % 120) - 60;
    animations.push(track(bit.animate([
      { transform: "translate(0, -40px) rotate(0deg)", opacity: 0 },
      { opacity: 1, offset: 0.1 },
      { transform: `translate(${drift}px, ${height + 40}px) rotate(${(i % 2 ? 1 : -1) * 540}deg)`, opacity: 0.9 },
    ], { duration: CELEBRATE_MS - (i % 7) * 90, delay: (i % 9) * 60, easing: "cubic-bezier(.3,.1,.7,1)", fill: "both" })));
  }
  if (pile) {
    animations.push(track(pile.animate([{ transform: "scale(1)" }, { transform: "scale(1.25) rotate(-6deg)" },
      { transform: "scale(1)" }], { duration: 600, iterations: 2, easing: "ease-in-out" })));
  }
  Promise.allSettled(animations.map((a) => a.finished)).then(() => {
    layer.remove();
    done();
  });
}
