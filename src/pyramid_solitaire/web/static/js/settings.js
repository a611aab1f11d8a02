// settings.js: the player's settings, kept in this browser (localStorage).
const KEY = "pyramid.settings";
/**
 * The player's settings: every one is in DEFAULTS.
 * @typedef {object} Settings
 * @property {string} lang  "ja" or "en"
 * @property {boolean} badges  the values shown on A, J, Q, K
 * @property {boolean} assist  a refused tap explained
 * @property {boolean} animations
 * @property {boolean} fourColour  four-colour suits
 * @property {boolean} largeCards  the cards grow to fill the screen
 * @property {boolean} coach  the solver's hint offered
 * @property {boolean} sound
 * @property {string} cardBack  one of CHOICES.cardBack
 * @property {string} table  one of CHOICES.table
 * @property {string} rules  the rule set of a new game
 * @property {string} difficulty  "E", "N" or "R"
 * @property {boolean} offline  this device keeps the engine, to play without a network
 */
/** @type {Readonly<Settings>} */
export const DEFAULTS = Object.freeze({
  lang: "ja", badges: true, assist: false, animations: true, fourColour: false, largeCards: false, coach: false,
  sound: false, cardBack: "blue", table: "green", rules: "classic", difficulty: "N", offline: true,
});
// The choices of the settings that are one of a list.
export const CHOICES = { lang: ["ja", "en"], difficulty: ["E", "N", "R"], cardBack: ["blue", "red"],
  table: ["green", "blue", "wine"] };

// The language of a first visit, before the player has chosen one: the browser's first preference of
// the two we write (navigator.languages, most preferred first); English when it names only others
// (a reader of German is likelier to read English than Japanese, as the server and the command line
// decide too), Japanese when it names none.
export function browserLang(languages) {
  let others = false;
  for (const tag of Array.isArray(languages) ? languages : []) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (CHOICES.lang.includes(code)) return code;
    others = others || /^[a-z]+$/.test(code);
  }
  return others ? "en" : DEFAULTS.lang;
}

// The browser says its player wants to save data (navigator.connection.saveData: Chrome's and Android's
// data saver; other browsers do not say, and get the default).
function savingData() {
  if (typeof navigator === "undefined") return false;
  const connection = /** @type {{ connection?: { saveData?: boolean } }} */ (/** @type {unknown} */ (navigator)).connection;
  return Boolean(connection && connection.saveData);
}

// The browser's languages, most preferred first (navigator.languages, or its one language).
export function preferredLanguages() {
  if (typeof navigator === "undefined") return [];
  return navigator.languages && navigator.languages.length ? [...navigator.languages] : [navigator.language];
}

/** @returns {Settings} */
export function loadSettings() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch (error) {
    saved = {};
  }
  if (saved === null || typeof saved !== "object") saved = {}; // "null", a number or a string: no settings
  // what a first visit gets: the defaults, in the browser's language, and without the offline bundle's 14 MB
  // where the player asked the browser to save data (Save-Data, a phone's data saver): turned on in the
  // settings, it comes
  const fallback = { ...DEFAULTS, lang: browserLang(preferredLanguages()), offline: !savingData() };
  const settings = { ...fallback };
  for (const key of Object.keys(DEFAULTS)) {
    if (key in saved && typeof saved[key] === typeof DEFAULTS[key]) settings[key] = saved[key];
  }
  for (const [key, allowed] of Object.entries(CHOICES)) {
    if (!allowed.includes(settings[key])) settings[key] = fallback[key];
  }
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
  for (const table of CHOICES.table) body.toggle(`table-${table}`, settings.table === table);
}

export function motionAllowed(settings) {
  return settings.animations && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
