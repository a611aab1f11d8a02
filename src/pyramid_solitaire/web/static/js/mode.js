// mode.js: whether the table shows the game being played or one only looked at — a finished game
// replayed move by move (records.js) or the solver's line being watched (watch.js).  While one is looked
// at, taps and keys play nothing and the clock stands still.
export const viewing = { replay: false, watch: false };

export function replayMode() {
  return viewing.replay || viewing.watch;
}
