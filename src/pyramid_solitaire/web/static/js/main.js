// main.js: assembles the page and starts it.  The page chooses cards itself from what the state says
// (select.js); each move, and each undo, redo, rewind, hint, coach or resign, is one request (input.js,
// keys.js), and what comes back is applied (state.js): drawn (board.js), animated (animate.js,
// motion.js), said (narrate.js) and timed (timer.js).  start.js opens the first game.  Nothing here
// knows a rule: this module only hands each part what it needs and wires the buttons to them.
import { api } from "./api.js";
import { pointManifest, prepareOffline, registerWorker, warmOffline, wireInstall } from "./offline.js";
import { syncOffline, watchNetwork } from "./sync.js";
import { applyTexts, lang, loadLocale, t } from "./i18n.js";
import { motionAllowed } from "./settings.js";
import { openRecords, wireRecords } from "./records.js";
import { openRules, wireRules } from "./rules.js";
import { loadArt } from "./cards.js";
import { confirmDialog, keepFocusAfterDialogs } from "./dialogs.js";
import { closeDialogsOnBack } from "./back.js";
import * as motion from "./motion.js";
import { openNewDialog, wireNewGame } from "./newgame.js";
import { clock } from "./result.js";
import { say, showError } from "./narrate.js";
import { runClock } from "./timer.js";
import { accept, app, dom, draw, showKeys } from "./state.js";
import { command, resign, wireTable } from "./input.js";
import { onKey } from "./keys.js";
import { openSettings, useSettings, wireSettings } from "./settingsdialog.js";
import { openFirstGame, resume, startGame } from "./start.js";
import { DAILY_RULES, playDaily, wireDaily } from "./daily.js";
import { wireWatch } from "./watch.js";
import { wireChallenges } from "./challenges.js";
import { offerGuide, wireGuide } from "./guide.js";
// Nothing of board.js is used here, but importing it with the rest has the browser ask for it (and so
// for layout.js) one round trip sooner: the module graph stays as deep as it was before main.js was split.
import "./board.js";

/** @type {PageLookup} */
const $ = (id) => /** @type {PageElement<typeof id>} */ (document.getElementById(id));

// What records.js may use: resuming a game, the game shown, messages (a replay's steps are drawn by
// state.js's showLookedAt).
const recordsContext = {
  resume,
  current: () => app.game,
  say,
  showError,
  clock,
  confirm: confirmDialog,
};

function wire() {
  wireTable();
  document.addEventListener("keydown", onKey);
  $("btn-hint").addEventListener("click", () => command("hint"));
  $("btn-coach").addEventListener("click", () => command("coach"));
  $("btn-undo").addEventListener("click", () => command("undo"));
  $("btn-redo").addEventListener("click", () => command("redo"));
  $("btn-rewind").addEventListener("click", () => command("rewind"));
  $("btn-resign").addEventListener("click", resign);
  $("btn-records").addEventListener("click", () => openRecords(recordsContext));
  wireRecords(recordsContext);
  $("btn-new").addEventListener("click", openNewDialog);
  wireNewGame({ rules: () => app.rules, settings: () => app.settings, start: startGame });
  $("btn-settings").addEventListener("click", openSettings);
  wireDaily({ accept, showError, current: () => app.game });
  $("new-daily").addEventListener("click", () => {
    const chosen = $("new-rules").value;
    $("dlg-new").close();
    playDaily({ rules: DAILY_RULES.includes(chosen) ? chosen : DAILY_RULES[0] });
  });
  $("btn-rules").addEventListener("click", () => {
    const preset = app.rules && app.game ? app.rules.presets.find((p) => p.id === app.game.preset) : undefined;
    openRules(app.game, preset);
  });
  wireRules();
  wireSettings();
  wireWatch();
  wireChallenges({ accept, showError, current: () => app.game });
  wireGuide({ start: startGame });
  $("result-new").addEventListener("click", () => { $("dlg-result").close(); openNewDialog(); });
  $("result-again").addEventListener("click", () => { $("dlg-result").close(); startGame({ code: app.game.code }); });
  keepFocusAfterDialogs(() => $("btn-new"));
  closeDialogsOnBack();
  $("btn-copy").addEventListener("click", async () => {
    const url = `${location.origin}/play/${app.game.code}`;
    try { await navigator.clipboard.writeText(url); say(t("copied")); } catch (error) { say(url); }
  });
  new ResizeObserver(() => draw()).observe(dom.board);
  runClock(() => app.game);
}

async function boot() {
  warmOffline();
  useSettings();
  motion.setMotionCheck(() => motionAllowed(app.settings));
  await Promise.all([loadLocale(app.settings.lang), loadArt().catch(() => {})]);
  applyTexts();
  pointManifest(lang());
  showKeys();
  wire();
  wireInstall(document.getElementById("btn-install"));
  addEventListener("pyramid-offline", () => say(t("offline_playing")));
  try { app.rules = await api.rules(lang()); } catch (error) { showError(error); }
  const fresh = await openFirstGame();
  document.body.dataset.ready = "true";
  if (fresh) offerGuide(); // a first visit to the front page: the guided deal is offered, once
  performance.mark("game-ready"); // the first game is drawn (benchmarks/page.py reads it)
  keepForOffline();
}

// After the first game is on screen, in the background: keep what offline play needs, and send the games
// finished offline (now, and whenever the network comes back).
function keepForOffline() {
  const report = (answer) => {
    if (answer.landed.length) say(t("offline_synced", { n: answer.landed.length }));
    for (const refused of answer.refused) say(refused.message, { error: true });
  };
  watchNetwork(lang, report);
  registerWorker();
  prepareOffline().catch(() => false);
  if (navigator.onLine) syncOffline(lang()).then(report, () => {});
}

boot();
