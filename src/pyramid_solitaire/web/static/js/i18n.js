// i18n.js: every text of the page comes from locales/<lang>.json.
import { preferredLanguages } from "./settings.js";
let texts = {};
let current = "ja";

export async function loadLocale(lang) {
  const response = await fetch(`/locales/${lang}.json`);
  texts = await response.json();
  current = lang;
  document.documentElement.lang = lang;
  document.title = texts.title;
}

export function lang() {
  return current;
}

// The locale dates and times are written in: the page's language, in the browser's own variety of it when
// the browser names one (en-GB writes "Tue 8 Dec" and 23:30, en-US "Tue, Dec 8" and 11:30 PM), else the
// language alone.
export function dateLocale() {
  return preferredLanguages().find((tag) => String(tag).toLowerCase().split("-")[0] === current) || current;
}

export function t(key, vars = {}) {
  // "1 card", "2 cards": a text with a ":one" twin takes it when its count `n` is 1 (English has them; a
  // Japanese twin is the same text, as the catalogues keep the same keys). Not ".one" as Python's twins:
  // a key with a dot is Python's and is not sent to the page (assets.page_texts).
  const template = (vars.n === 1 && texts[`${key}:one`]) || (texts[key] ?? key);
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

// A rule set as a player reads it: the preset's name in this language, then any options as the
// notation writes them (「サーティーン（裏向きの段）(triples=true)」); the notation itself for a
// preset this language has no name for.
export function rulesName(rules) {
  const open = rules.indexOf("(");
  const preset = open < 0 ? rules : rules.slice(0, open);
  const key = `rules_${preset}`;
  return key in texts ? t(key) + rules.slice(preset.length) : rules;
}

export function list(items) {
  if (items.length <= 1) return items.join("");
  return items.slice(0, -1).join(t("list_sep")) + t("and") + items[items.length - 1];
}

// Fill every [data-t] element's text and every [data-t-aria] element's label.
export function applyTexts(root = document) {
  const texts = /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-t]"));
  for (const element of texts) element.textContent = t(element.dataset.t);
  const labels = /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-t-aria]"));
  for (const element of labels) element.setAttribute("aria-label", t(element.dataset.tAria));
}
