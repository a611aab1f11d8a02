// settingsdialog.js: the Settings dialog — its boxes and choices filled from the player's settings, and
// a change applied to the page at once: saved, the look and sound set, and a new language's texts, with
// the game shown fetched again in it.
import { api } from "./api.js";
import { applyTexts, loadLocale, t } from "./i18n.js";
import { relabelWatch, watching } from "./watch.js";
import { applySettings, saveSettings } from "./settings.js";
import { refreshRules } from "./newgame.js";
import { retextDaily } from "./daily.js";
import { clearMessage, say, showError } from "./narrate.js";
import * as select from "./select.js";
import { setSound } from "./sound.js";
import { forgetOffline, offlineReady, pointManifest, prepareOffline } from "./offline.js";
import { app, dom, draw, drawn, showKeys } from "./state.js";
import { largeCardsGrow } from "./board.js";

/** @type {PageLookup} */
const $ = (id) => /** @type {PageElement<typeof id>} */ (document.getElementById(id));
// (as constants, so that `$(`set-${name}`)` is typed as the box or the list index.html has under that id)
const SETTING_BOXES = /** @type {const} */ (
  ["badges", "assist", "animations", "sound", "fourColour", "largeCards", "coach", "offline"]);
const SETTING_CHOICES = /** @type {const} */ (["cardBack", "table"]);

export function openSettings() {
  $("set-lang").value = app.settings.lang;
  for (const name of SETTING_BOXES) $(`set-${name}`).checked = app.settings[name];
  for (const name of SETTING_CHOICES) $(`set-${name}`).value = app.settings[name];
  showOfflineStatus();
  showLargeCardsNote();
  $("dlg-settings").showModal();
}

// Under "large cards", where it can change nothing in this window (the cards already fill the table, as on
// a phone): said so, rather than leave the box looking broken.
function showLargeCardsNote() {
  $("large-cards-note").hidden = !app.game || largeCardsGrow(app.game, dom);
}

// The settings' look (body classes) and sound put in force.
export function useSettings() {
  applySettings(app.settings);
  setSound(app.settings.sound);
}

async function changeSetting() {
  const wasOffline = app.settings.offline;
  for (const name of SETTING_BOXES) app.settings[name] = $(`set-${name}`).checked;
  for (const name of SETTING_CHOICES) app.settings[name] = $(`set-${name}`).value;
  const newLang = $("set-lang").value;
  saveSettings(app.settings);
  useSettings();
  if (wasOffline !== app.settings.offline) {
    // off: this device forgets the engine (14 MB); on: it is fetched again in the background
    await (app.settings.offline ? prepareOffline() : forgetOffline()).catch(() => false);
    showOfflineStatus();
  }
  if (newLang !== app.settings.lang) {
    app.settings.lang = newLang;
    saveSettings(app.settings);
    await loadLocale(newLang);
    applyTexts();
    pointManifest(newLang);
    showOfflineStatus();
    showKeys();
    refreshRules();
    retextDaily();
    if (watching()) await relabelWatch();
    else if (app.game) {
      try { app.game = (await api.get(app.game.id, newLang)).game; } catch (error) { showError(error); }
      app.selection = select.keep(app.game, app.selection);
    }
    // The last message was written in the old language: it goes, but the dead-card warning, which
    // stands as long as the position does, is said again in the new one.
    clearMessage();
    if (app.game && app.game.dead.length && !app.game.result) say(t("dead_notice"), { error: true });
  }
  draw();
  drawn();
}

export function wireSettings() {
  for (const element of document.querySelectorAll("#dlg-settings input, #dlg-settings select")) {
    element.addEventListener("change", changeSetting);
  }
}

// Whether this device can play without a network, said under the setting.
function showOfflineStatus() {
  $("offline-status").textContent = !app.settings.offline ? "" : t(offlineReady() ? "offline_ready" : "offline_not_ready");
}
