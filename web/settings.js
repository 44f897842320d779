// settings.js: the looks and sounds this browser keeps (localStorage): the
// board's theme, the dark page, wobbly stacks, sound off, all in the
// header's one settings menu, so they are there on every page (a game, the
// lobby, the analysis board, players' pages, the leaderboard). On a wide
// screen the menu's controls sit in the header; on a phone they fold behind
// its button. The sounds are short tones the browser makes: no files to load.
import { $ } from './dom.js';
import { app } from './state.js';

// The looks kept in this browser onto the page (and onto the menu's controls, where there is one).
export function applyLooks() {
  const root = document.documentElement;
  const dark = localStorage.getItem('tak.dark');
  root.dataset.dark = dark === null ? (matchMedia('(prefers-color-scheme: dark)').matches ? '1' : '0') : dark;
  root.dataset.board = localStorage.getItem('tak.board') || 'wood';
  if (!$('dark')) return; // a page without the controls (404.html)
  $('dark').checked = root.dataset.dark === '1';
  $('board-theme').value = root.dataset.board;
  $('mute').checked = app.muted;
  $('wobbly').checked = app.wobbly;
}

// Wires the menu; `redraw` draws the board again (wobbly stacks on or off).
export function initSettings(redraw) {
  applyLooks();
  $('dark').onchange = () => { localStorage.setItem('tak.dark', $('dark').checked ? '1' : '0'); applyLooks(); };
  $('board-theme').onchange = () => { localStorage.setItem('tak.board', $('board-theme').value); applyLooks(); };
  $('mute').onchange = () => { app.muted = $('mute').checked; localStorage.setItem('tak.muted', app.muted ? '1' : '0'); };
  $('wobbly').onchange = () => { app.wobbly = $('wobbly').checked; localStorage.setItem('tak.wobbly', app.wobbly ? '1' : '0'); redraw(); };
  // The folded menu (a phone): its button opens and closes it; Escape or a
  // click elsewhere closes it.
  const button = $('settings-btn'), menu = $('settings-menu');
  const open = (on) => { menu.classList.toggle('open', on); button.setAttribute('aria-expanded', on ? 'true' : 'false'); };
  button.onclick = () => open(!menu.classList.contains('open'));
  document.addEventListener('click', (e) => { if (!menu.contains(e.target)) open(false); });
  menu.addEventListener('keydown', (e) => { if (e.key === 'Escape' && menu.classList.contains('open')) { open(false); button.focus(); } });
}

const SOUNDS = {
  place: [[520, 0.07]], move: [[440, 0.05], [587, 0.06]],
  tak: [[880, 0.12], [660, 0.16]], end: [[523, 0.14], [659, 0.14], [784, 0.32]],
};

// Plays the sound `name` (place, move, tak, end), unless the sound is off.
export function play(name) {
  if (app.muted) return;
  app.sounds.push(name);
  try {
    const ctx = app.audio || (app.audio = new AudioContext());
    let t = ctx.currentTime;
    for (const [freq, dur] of SOUNDS[name]) {
      const o = ctx.createOscillator(), g = ctx.createGain();
      o.type = 'triangle'; o.frequency.value = freq;
      g.gain.setValueAtTime(0.18, t);
      g.gain.exponentialRampToValueAtTime(0.001, t + dur);
      o.connect(g).connect(ctx.destination);
      o.start(t); o.stop(t + dur);
      t += dur * 0.85;
    }
  } catch (e) { /* no audio on this device: silence */ }
}
