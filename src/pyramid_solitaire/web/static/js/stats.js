// stats.js: win rate and streaks per rule set and difficulty, kept in this browser until the
// server-side store (issue 5) keeps them.  A game counts once, when it ends; a game left unfinished
// after at least one move counts as lost when a new one starts (as most solitaire games count it).
const KEY = "pyramid.stats";

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { records: data.records || {}, counted: data.counted || [] };
  } catch (error) {
    return { records: {}, counted: [] };
  }
}

export function statsKey(game) {
  return `${game.rules}|${game.difficulty}`;
}

export function record(game, won) {
  const data = load();
  if (data.counted.includes(game.id)) return false;
  const key = statsKey(game);
  const entry = data.records[key] || { played: 0, won: 0, streak: 0, best: 0 };
  entry.played += 1;
  if (won) {
    entry.won += 1;
    entry.streak += 1;
    entry.best = Math.max(entry.best, entry.streak);
  } else {
    entry.streak = 0;
  }
  data.records[key] = entry;
  data.counted = [...data.counted.slice(-199), game.id];
  localStorage.setItem(KEY, JSON.stringify(data));
  return true;
}

export function statsFor(game) {
  return load().records[statsKey(game)] || { played: 0, won: 0, streak: 0, best: 0 };
}
