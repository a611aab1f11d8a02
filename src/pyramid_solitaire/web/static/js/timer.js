// timer.js: the game clock in the header — the seconds the server counted for the game shown, plus
// those since its answer came while the game is played (from its first move; not over a finished one nor
// during a replay).
import { replayMode } from "./mode.js";
import { clock } from "./result.js";

const timer = document.getElementById("timer");
// When the answer holding the game shown came (Date.now()).
let received = 0;

// An answer came: the clock counts on from the seconds it carries.
export function restartClock() {
  received = Date.now();
}

export function showTime(game) {
  if (!game) return;
  let seconds = game.elapsed;
  // the clock runs while a game is played: from its first move (version 1; a deal left untouched shows
  // 0:00), not over a finished one nor during a replay
  if (game.version > 0 && !game.result && !replayMode()) seconds += (Date.now() - received) / 1000;
  timer.textContent = clock(seconds);
}

// Once a second, the time of the game `current()` returns.
export function runClock(current) {
  window.setInterval(() => showTime(current()), 1000);
}
