// newgame.js: the New Game dialog — a rule set and difficulty, the rule set's options, or a deal code
// or a deal in notation.  The presets and their options come from /api/rules.
import { t } from "./i18n.js";
import { saveSettings } from "./settings.js";

const $ = (id) => document.getElementById(id);
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

function presetDefaults() {
  const chosen = preset();
  $("opt-passes").value = chosen.passes === null ? "unlimited" : String(chosen.passes);
  // Giza deals every card (no stock to pass through); Apophis deals its stock once onto three piles
  $("opt-passes").disabled = chosen.passes_fixed;
  $("opt-jokers").value = String(chosen.jokers);
  $("opt-triples").checked = chosen.triples;
  $("opt-open").checked = chosen.open_pyramid;
  $("opt-overlap").checked = chosen.overlap;
  $("opt-strict").checked = chosen.strict;
  $("opt-waste-uses").value = chosen.waste_uses === null ? "unlimited" : String(chosen.waste_uses);
  $("opt-waste-uses").disabled = !chosen.has_stock; // Giza: no stock, so no waste to use
  $("opt-cells").value = String(chosen.cells);
  $("new-options").classList.toggle("thirteen", chosen.id === "thirteen");
}

// The rule set string: the preset, with the options that differ from it (see rules.py).
function chosenRules() {
  const chosen = preset();
  const options = [];
  const passes = $("opt-passes").value === "unlimited" ? null : Number($("opt-passes").value);
  if (!chosen.passes_fixed && passes !== chosen.passes) options.push(`passes=${passes === null ? "unlimited" : passes}`);
  if (Number($("opt-jokers").value) !== chosen.jokers) options.push(`jokers=${$("opt-jokers").value}`);
  for (const [id, key, field] of [["opt-triples", "triples", "triples"], ["opt-open", "open", "open_pyramid"],
    ["opt-overlap", "overlap", "overlap"], ["opt-strict", "strict", "strict"]]) {
    if ($(id).checked !== chosen[field]) options.push(`${key}=${$(id).checked}`);
  }
  const uses = $("opt-waste-uses").value === "unlimited" ? null : Number($("opt-waste-uses").value);
  if (chosen.has_stock && uses !== chosen.waste_uses) options.push(`waste_uses=${uses === null ? "unlimited" : uses}`);
  if (Number($("opt-cells").value) !== chosen.cells) options.push(`cells=${$("opt-cells").value}`);
  return options.length ? `${chosen.id}(${options.join(",")})` : chosen.id;
}

export function openNewDialog() {
  if (!ctx.rules()) return;
  fillRules();
  presetDefaults();
  $("new-error").textContent = "";
  for (const radio of document.querySelectorAll('input[name="difficulty"]')) {
    radio.checked = radio.value === ctx.settings().difficulty;
  }
  $("dlg-new").showModal();
}

async function submitNew(event) {
  event.preventDefault();
  const code = $("new-code").value.trim();
  const deal = $("new-deal").value.trim();
  const difficulty = document.querySelector('input[name="difficulty"]:checked').value;
  const request = code ? { code } : deal ? { rules: chosenRules(), deal } : { rules: chosenRules(), difficulty };
  $("new-start").disabled = true;
  const ok = await ctx.start(request, (message) => { $("new-error").textContent = message; });
  $("new-start").disabled = false;
  if (ok) {
    if (!code && !deal) {
      const settings = ctx.settings();
      settings.rules = chosenRules();
      settings.difficulty = difficulty;
      saveSettings(settings);
    }
    $("new-code").value = "";
    $("new-deal").value = "";
    $("dlg-new").close();
  }
}

// `context`: rules() (the /api/rules answer), settings() (the page's settings), start(request, onError)
// (start a game; resolves whether it started, calling onError with the reason if not).
export function wireNewGame(context) {
  ctx = context;
  $("new-rules").addEventListener("change", presetDefaults);
  $("form-new").addEventListener("submit", submitNew);
  $("new-cancel").addEventListener("click", () => $("dlg-new").close());
}

export function refreshRules() {
  if (ctx && ctx.rules() && $("dlg-new").open) fillRules();
}
