// i18n.js: every text of the page comes from locales/<lang>.json.
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

export function t(key, vars = {}) {
  const template = texts[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

export function list(items) {
  if (items.length <= 1) return items.join("");
  return items.slice(0, -1).join(t("list_sep")) + t("and") + items[items.length - 1];
}

// Fill every [data-t] element's text and every [data-t-aria] element's label.
export function applyTexts(root = document) {
  for (const element of root.querySelectorAll("[data-t]")) element.textContent = t(element.dataset.t);
  for (const element of root.querySelectorAll("[data-t-aria]")) element.setAttribute("aria-label", t(element.dataset.tAria));
}
