// newgame.js: the New Game dialog — a rule set and difficulty, the rule set's options, or a deal code
// or a deal in notation.  The presets and their options come from /api/rules.
import { t } from "./i18n.js";
import { optionValue } from "./rules.js";
import { saveSettings } from "./settings.js";

/** @type {PageLookup} */
const $ = (id) => /** @type {PageElement<typeof id>} */ (document.getElementById(id));
let ctx = null;

function fillRules() {
  const select = $("new-rules");
  const current = select.value || ctx.settings().rules.split("(")[0];
  select.replaceChildren();
  for (const preset of ctx.rules().presets) {
    const option = document.createElement("option");
    option.value = preset.id;
    option.textContent = t(`rules_${preset.id}`);
    select.append(option);
  }
  select.value = ctx.rules().presets.some((p) => p.id === current) ? current : ctx.rules().default;
}

function preset() {
  return ctx.rules().presets.find((p) => p.id === $("new-rules").value);
}

// The option controls of the chosen preset, built from its entry of /api/rules: which options it offers,
// their values and the preset's own, all come from the server (rules.py writes each option's facts once).
function optionId(option) {
  return `opt-${option.key.replace(/_/g, "-")}`;
}

function control(option) {
  const label = document.createElement("label");
  const name = document.createElement("span");
  name.dataset.t = option.label;
  name.textContent = t(option.label);
  if (option.kind === "flag") {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.id = optionId(option);
    box.name = option.key;
    box.checked = option.value;
    label.className = "check";
    label.append(box, " ", name);
    return label;
  }
  const select = document.createElement("select");
  select.id = optionId(option);
  select.name = option.key;
  for (const value of option.choices) {
    const item = document.createElement("option");
    item.value = value === null ? "unlimited" : String(value);
    item.textContent = optionValue(value);
    select.append(item);
  }
  select.value = option.value === null ? "unlimited" : String(option.value);
  label.append(name, " ", select);
  return label;
}

function presetDefaults() {
  $("new-options").replaceChildren(...preset().options.filter((option) => option.offered).map(control));
}

// The options as the dialog shows them, by key, for the server to build the rule set from.
function chosenOptions() {
  const chosen = {};
  for (const option of preset().options.filter((o) => o.offered)) {
    // a box for a flag, a list of values for the others (control)
    const element = /** @type {HTMLInputElement | HTMLSelectElement} */ ($(optionId(option)));
    if (option.kind === "flag") chosen[option.key] = /** @type {HTMLInputElement} */ (element).checked;
    else chosen[option.key] = element.value === "unlimited" ? null : Number(element.value);
  }
  return chosen;
}

export function openNewDialog() {
  if (!ctx.rules()) return;
  fillRules();
  presetDefaults();
  showRefusal(null);
  const radios = /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name="difficulty"]'));
  for (const radio of radios) {
    radio.checked = radio.value === ctx.settings().difficulty;
  }
  $("dlg-new").showModal();
}

// The server's reason for refusing the dialog's request, shown in view (the dialog scrolls once its options
// are open, and the line lay below the fold) and tied to the field it is about; null: none.
function showRefusal(field, message = "") {
  const error = $("new-error");
  error.textContent = message;
  for (const id of /** @type {const} */ (["new-code", "new-deal"])) {
    if (id === field && message !== "") {
      $(id).setAttribute("aria-invalid", "true");
      $(id).setAttribute("aria-describedby", "new-error");
    } else {
      $(id).removeAttribute("aria-invalid");
      $(id).removeAttribute("aria-describedby");
    }
  }
  if (message) error.scrollIntoView({ block: "nearest" });
}

async function submitNew(event) {
  event.preventDefault();
  const code = $("new-code").value.trim();
  const deal = $("new-deal").value.trim();
  const checked = /** @type {HTMLInputElement} */ (document.querySelector('input[name="difficulty"]:checked'));
  const difficulty = checked.value;
  const rules = { preset: preset().id, options: chosenOptions() };
  const request = code ? { code } : deal ? { ...rules, deal } : { ...rules, difficulty };
  $("new-start").disabled = true;
  showRefusal(null);
  // start() resolves to the new game's state (its canonical rule set is `rules`), or null if it failed
  const game = await ctx.start(request, (message) => showRefusal(code ? "new-code" : deal ? "new-deal" : null, message));
  $("new-start").disabled = false;
  if (game) {
    if (!code && !deal) {
      const settings = ctx.settings();
      settings.rules = game.rules;
      settings.difficulty = difficulty;
      saveSettings(settings);
    }
    $("new-code").value = "";
    $("new-deal").value = "";
    $("dlg-new").close();
  }
}

// `context`: rules() (the /api/rules answer), settings() (the page's settings), start(request, onError)
// (start a game; resolves to its state, or null calling onError with the reason if it did not start).
export function wireNewGame(context) {
  ctx = context;
  $("new-rules").addEventListener("change", presetDefaults);
  $("form-new").addEventListener("submit", submitNew);
  $("new-cancel").addEventListener("click", () => $("dlg-new").close());
}

export function refreshRules() {
  if (ctx && ctx.rules() && $("dlg-new").open) fillRules();
}
