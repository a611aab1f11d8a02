// drag.js: drag a card onto its partner, onto the removed pile (a king) or onto a free cell — with a
// mouse, a pen or a finger (Pointer Events).  A press that does not move is a tap, and taps and the
// keyboard work as before.  What a drop does is decided by input.js from the state, as for taps; this
// module only follows the pointer and says where the card was dropped.
const THRESHOLD = 8;

// Where a point is on the table: a card (its key: token, or "#slot" face down), the removed pile, a
// free cell, or nothing.
function targetAt(x, y, dragged) {
  for (const element of document.elementsFromPoint(x, y)) {
    if (element === dragged || dragged.contains(element) || element.closest(".ghost")) continue;
    if (element.closest("#removed")) return { kind: "removed" };
    const cell = /** @type {HTMLElement} */ (element.closest(".cell-slot"));
    if (cell) return { kind: "cell", cell: Number(cell.dataset.cell), element: cell };
    const card = /** @type {HTMLElement} */ (
      element.closest("#pyramid .card, #jokers .card, #stock-area .card, #cells .card"));
    if (card) return { kind: "card", key: card.dataset.card || `#${card.dataset.slot}`, element: card };
    if (element.id === "board") return null;
  }
  return null;
}

// `handlers.draggable(element)`: the card's key if it may be picked up now, else null;
// `handlers.drop(key, target)`: a promise of whether the drop made a move (else the card goes back).
export function wireDrag(board, handlers) {
  let drag = null;
  let swallowClick = false;
  let over = null;

  const mark = (target) => {
    const element = target && target.element ? target.element : target && target.kind === "removed"
      ? document.getElementById("removed") : null;
    if (over === element) return;
    if (over) over.classList.remove("drop-target");
    over = element;
    if (over) over.classList.add("drop-target");
  };

  board.addEventListener("pointerdown", (event) => {
    if (drag || (event.pointerType === "mouse" && event.button !== 0)) return;
    const element = event.target.closest(".card");
    if (!element || !board.contains(element) || element.closest("#removed") || element.classList.contains("ghost")) return;
    const key = handlers.draggable(element);
    if (!key) return;
    drag = { element, key, id: event.pointerId, x: event.clientX, y: event.clientY, moved: false };
  });

  board.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved) {
      if (Math.hypot(dx, dy) < THRESHOLD) return;
      drag.moved = true;
      try { drag.element.setPointerCapture(event.pointerId); } catch (error) { /* the pointer is gone */ }
      drag.element.classList.add("dragging");
      handlers.start(drag.key);
    }
    event.preventDefault();
    drag.element.style.translate = `${dx}px ${dy}px`;
    mark(targetAt(event.clientX, event.clientY, drag.element));
  });

  const end = async (event, cancelled) => {
    if (!drag || event.pointerId !== drag.id) return;
    const { element, key, moved } = drag;
    drag = null;
    mark(null);
    if (!moved) return;
    swallowClick = true; // the click that follows a drag is no tap
    window.setTimeout(() => { swallowClick = false; }, 0);
    const target = cancelled ? null : targetAt(event.clientX, event.clientY, element);
    let made = false;
    try {
      made = target ? await handlers.drop(key, target) : false;
    } finally {
      element.classList.remove("dragging");
      if (!made) handlers.back(element);
      else element.style.translate = "";
    }
  };
  board.addEventListener("pointerup", (event) => end(event, false));
  board.addEventListener("pointercancel", (event) => end(event, true));
  board.addEventListener("click", (event) => {
    if (!swallowClick) return;
    swallowClick = false;
    event.stopPropagation();
    event.preventDefault();
  }, true);
}
