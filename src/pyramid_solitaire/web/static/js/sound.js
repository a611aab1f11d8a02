// sound.js: optional sound effects (a setting, off by default), synthesised with the Web Audio API, so
// there are no sound files to download.  Each effect is a few short tones; nothing plays until the
// player has turned sound on, and the audio context starts on a tap, as browsers require.
const EFFECTS = {
  select: [[660, 0, 0.05]],
  remove: [[520, 0, 0.07], [780, 0.06, 0.09]],
  draw: [[330, 0, 0.06]],
  recycle: [[440, 0, 0.06], [330, 0.07, 0.06], [262, 0.14, 0.08]],
  refuse: [[180, 0, 0.12]],
  win: [[523, 0, 0.14], [659, 0.12, 0.14], [784, 0.24, 0.14], [1047, 0.36, 0.3]],
};
const VOLUME = 0.08;

let context = null;
let on = false;

export function setSound(enabled) {
  on = enabled;
}

// Play an effect by name; returns whether it played (sound on, and the browser has Web Audio).
export function play(name) {
  if (!on || !EFFECTS[name]) return false;
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return false;
  if (!context) context = new Audio();
  if (context.state === "suspended") context.resume();
  const now = context.currentTime;
  for (const [frequency, start, length] of EFFECTS[name]) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = name === "refuse" ? "square" : "triangle";
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0, now + start);
    gain.gain.linearRampToValueAtTime(VOLUME, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(now + start);
    oscillator.stop(now + start + length + 0.02);
  }
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  return true;
}
