// settings.js: the player's settings, kept in this browser (localStorage).
const KEY = "pyramid.settings";
export const DEFAULTS = Object.freeze({
  lang: "ja", badges: true, assist: false, animations: true, fourColour: false, largeCards: false, coach: false,
  rules: "classic", difficulty: "N",
});

export function loadSettings() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch (error) {
    saved = {};
  }
  if (saved === null || typeof saved !== "object") saved = {}; // "null", a number or a string: no settings
  const settings = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS)) {
    if (key in saved && typeof saved[key] === typeof DEFAULTS[key]) settings[key] = saved[key];
  }
  if (!["ja", "en"].includes(settings.lang)) settings.lang = "ja";
  if (!["E", "N", "R"].includes(settings.difficulty)) settings.difficulty = DEFAULTS.difficulty;
  return settings;
}

export function saveSettings(settings) {
  localStorage.setItem(KEY, JSON.stringify(settings));
}

// Body classes the stylesheet reads.
export function applySettings(settings) {
  const body = document.body.classList;
  body.toggle("badges", settings.badges);
  body.toggle("four-colour", settings.fourColour);
  body.toggle("large-cards", settings.largeCards);
  body.toggle("no-motion", !settings.animations);
}

export function motionAllowed(settings) {
  return settings.animations && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
