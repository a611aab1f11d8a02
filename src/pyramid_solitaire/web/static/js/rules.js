// rules.js: the Rules dialog — the rules of the game being played, in the player's language.  Which
// paragraphs show follows the game's rule fields as the server sent them (state.rule_fields); every
// sentence is a locale string.  Nothing here decides what is legal: it only says what the rules are.
import { t } from "./i18n.js";

/** @type {PageLookup} */
const $ = (id) => /** @type {PageElement<typeof id>} */ (document.getElementById(id));
let opener = null;

// An option's value in words: on/off, unlimited (null), or the number.
export function optionValue(value) {
  if (typeof value === "boolean") return t(value ? "guide_on" : "guide_off");
  if (value === null) return t("passes_unlimited");
  return String(value);
}

// Sentences of one paragraph: run on in Japanese, a space between them in English.
function sentences(...texts) {
  return texts.join(t("sentence_sep"));
}

// The options of this game that differ from its preset (e.g. thirteen with two jokers), named as the
// New Game dialog names them; `preset` is the preset's entry of /api/rules.
function changedOptions(rules, preset) {
  if (!preset) return [];
  return preset.options.filter((option) => preset.fields[option.field] !== rules[option.field])
    .map((option) => t("guide_option_item", { label: t(option.label), value: optionValue(rules[option.field]) }));
}

// The sections of the rules: [heading key, paragraphs].  `game` is the state the server sent.
export function guide(game, preset) {
  const r = game.rule_fields;
  // The layout's entries are the pyramid's slots (a row each) and the reserve's (a pile each).
  const pyramid = game.pyramid.filter((entry) => entry.row !== null).length;
  const reserve = game.pyramid.length - pyramid;
  const vars = { pyramid, reserve, piles: r.reserve, depth: r.reserve_depth, rows: r.rows, deck: r.deck,
    target: r.target, n: r.draw * r.waste_piles };
  const stock = r.deck - pyramid - reserve;
  const intro = [t(`guide_about_${r.preset}`)];
  const changed = changedOptions(r, preset);
  if (changed.length) intro.push(t("guide_options", { list: changed.join(t("list_sep")) }));

  const goalKey = !reserve ? (r.strict ? "guide_goal_strict" : "guide_goal_relaxed")
    : !game.has_stock ? "guide_goal_board_all" : r.strict ? "guide_goal_strict_board" : "guide_goal_board";
  const goal = [t(goalKey, vars)];
  if (r.cells) goal.push(t("guide_cells_goal"));

  const layout = [sentences(t(`guide_deck_${r.deck}${r.jokers ? "_jokers" : ""}`),
    t(r.inverted ? "guide_layout_inverted" : "guide_layout_pyramid", vars)),
  t(r.open_pyramid ? "guide_layout_open" : r.inverted ? "guide_layout_closed_inverted" : "guide_layout_closed")];
  if (reserve) layout.push(t(r.reserve_depth > 1 ? "guide_layout_piles" : "guide_layout_row", vars));
  if (!game.has_stock) layout.push(t("guide_layout_no_stock"));
  else if (r.waste_start) layout.push(t("guide_layout_waste_start", { stock: stock - 1 }));
  else layout.push(t(r.stock_top_usable ? "guide_layout_stock_top" : "guide_layout_stock", { stock }));
  if (r.jokers) layout.push(t(`guide_layout_jokers_${r.jokers}`));

  const remove = [t(`guide_values_${r.deck}`), sentences(t("guide_pairs", vars), t(`guide_pairs_${r.target}`)),
    t(r.lone_kings ? "guide_lone" : "guide_no_lone", vars)];
  if (r.triples) remove.push(t("guide_triples", vars));
  if (r.jokers) remove.push(t("guide_jokers"));
  remove.push(t(r.overlap ? "guide_overlap_on" : "guide_overlap_off", vars));

  const usable = [t(r.inverted ? "guide_usable_inverted" : "guide_usable_pyramid", vars)];
  if (reserve) usable.push(t(r.reserve_depth > 1 ? "guide_usable_piles" : "guide_usable_row"), t("guide_pair_anywhere"));
  if (game.has_stock) {
    usable.push(r.waste_piles > 1 ? t("guide_usable_waste_piles", { n: r.waste_piles }) : t("guide_usable_waste"));
  }
  if (r.stock_top_usable) usable.push(t("guide_usable_stock_top"));
  if (r.drawn_spot) usable.push(t("guide_usable_drawn"));
  if (r.stock_top_usable || r.drawn_spot || r.waste_piles > 1) {
    usable.push(t(!r.stock_waste_pairs ? "guide_no_stock_pairs" : r.waste_piles > 1 ? "guide_pair_waste_piles"
      : r.drawn_spot ? "guide_pair_drawn_waste" : "guide_pair_stock_waste"));
  }
  if (game.has_stock && r.waste_uses !== null) usable.push(t("guide_waste_uses", { n: r.waste_uses }));
  if (r.cells) usable.push(t("guide_cells", { n: r.cells }));
  if (r.cells && game.has_stock && r.waste_uses !== null) usable.push(t("guide_cells_waste"));

  const draws = r.drawn_spot ? "guide_draw_drawn" : r.stock_top_usable ? "guide_draw_stock_top"
    : r.waste_piles > 1 ? "guide_draw_piles" : r.draw > 1 ? "guide_draw_n" : "guide_draw_1";
  const stockTexts = [t(draws, vars)];
  if (r.passes === 1) stockTexts.push(t("guide_recycle_none"));
  else stockTexts.push(t(r.passes === null ? "guide_recycle_unlimited" : "guide_recycle_limited", { n: r.passes }));
  if (r.draw > 1 && r.passes !== 1) stockTexts.push(t("guide_regroup", vars));
  stockTexts.push(t("guide_removed_gone"), t("guide_stock_label", { label: game.stock.label }));

  const ends = !game.has_stock ? "guide_end_no_stock" : r.passes === null ? "guide_end_unlimited"
    : r.passes === 1 ? "guide_end_one" : "guide_end_limited";
  const end = [t(ends, { n: r.passes })];

  const noStock = game.has_stock ? "" : "_no_stock";
  const help = [r.cells ? sentences(t(`guide_hint${noStock}`), t("guide_hint_cells")) : t(`guide_hint${noStock}`),
    r.undo_limit === null ? t(`guide_undo${noStock}`) : t("guide_undo_limit", { n: r.undo_limit }),
    t(r.cells ? "guide_dead_cells" : "guide_dead")];

  const sections = [[null, intro], ["guide_h_goal", goal], ["guide_h_layout", layout], ["guide_h_remove", remove],
    ["guide_h_usable", usable]];
  if (game.has_stock) sections.push(["guide_h_stock", stockTexts]);
  sections.push(["guide_h_end", end]);
  if (r.scoring === "pyramide") sections.push(["guide_h_score", [t("guide_score")]]);
  sections.push(["guide_h_help", help]);
  // The whole of the keyboard (keys.js), which the one-line legend under the table only sums up, and which
  // a window under 820 px high does not show at all.
  const keys = [t("guide_keys_move"), t("guide_keys_choose")];
  if (game.has_stock) keys.push(t("guide_keys_stock"));
  if (r.cells) keys.push(t("guide_keys_cell"));
  keys.push(t("guide_keys_undo"), t("guide_keys_hint"), t("guide_keys_watch"));
  sections.push(["guide_h_keys", keys]);
  return sections;
}

function fill(game, preset) {
  $("rules-title").textContent = t("guide_title", { name: t(`rules_${game.preset}`) });
  const body = $("rules-body");
  body.replaceChildren();
  for (const [heading, paragraphs] of guide(game, preset)) {
    const section = document.createElement("section");
    if (heading) {
      const h3 = document.createElement("h3");
      h3.textContent = t(heading);
      section.append(h3);
    }
    if (paragraphs.length === 1 || !heading) {
      for (const text of paragraphs) {
        const p = document.createElement("p");
        p.textContent = text;
        section.append(p);
      }
    } else {
      const ul = document.createElement("ul");
      for (const text of paragraphs) {
        const li = document.createElement("li");
        li.textContent = text;
        ul.append(li);
      }
      section.append(ul);
    }
    body.append(section);
  }
}

// Open the dialog for `game`; `preset` is its preset's entry of /api/rules (to name changed options).
export function openRules(game, preset) {
  if (!game) return;
  const dialog = $("dlg-rules");
  fill(game, preset);
  opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  dialog.showModal();
  dialog.scrollTop = 0;
  $("rules-title").focus(); // the start of the text, not the Close button at its end
}

export function wireRules() {
  const dialog = $("dlg-rules");
  // Esc (the dialog's cancel) and the Close button both end here: focus goes back where it was.
  dialog.addEventListener("close", () => {
    if (opener && document.body.contains(opener)) opener.focus();
    opener = null;
  });
}
