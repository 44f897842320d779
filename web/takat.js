// takat.js: TAKAT, the second game, in the page: the seven hexagonal cells
// in SVG (red cells, the centre, the ko cell marked), drops and moves by
// clicks. It knows no rule: each takat_state carries the legal turns ("a2",
// "b2-c3"), and a click is allowed when a legal turn starts with it.
import { $, el } from './dom.js';
import { app, takat as TK } from './state.js';
import { request } from './connection.js';

// Cell centres: rows of 2, 3 and 2 hexagons (takat.md's board).
const HEX_R = 62, HEX_W = Math.sqrt(3) * HEX_R;
// [column in half-offset units, row]: the middle row's three cells at 0, 1, 2.
const HEX_AT = {
  a2: [0.5, 0], b3: [1.5, 0], a1: [0, 1], b2: [1, 1], c3: [2, 1], b1: [0.5, 2], c2: [1.5, 2],
};
function hexCentre(name) {
  const [col, row] = HEX_AT[name];
  return [30 + HEX_W / 2 + col * HEX_W, 80 + row * HEX_R * 1.5];
}

function takatKey(id) { return 'takat.seat.' + id; }

export async function takatJoin(id) {
  const hash = new URLSearchParams(location.hash.slice(1));
  const msg = { type: 'takat_join', game: id };
  const token = localStorage.getItem(takatKey(id)) || hash.get('s');
  if (token) msg.token = token; else if (hash.get('invite')) msg.invite = hash.get('invite');
  try {
    const r = await request(msg);
    TK.seat = r.seat;
    if (r.token) localStorage.setItem(takatKey(id), r.token);
    if (hash.get('s') || hash.get('invite')) history.replaceState(null, '', '/t/' + id);
    takatLinks();
  } catch (e) { $('takat-message').textContent = e.message; }
}

export function openTakat(id, seat) {
  TK.id = id; TK.state = null; TK.from = null; TK.seat = seat || null;
  app.gameId = null; app.state = null; app.sandbox = null;
  $('new-game').hidden = true; $('play').hidden = true; $('takat').hidden = false;
  if (!seat && app.connected) takatJoin(id);
}

export async function takatCreate(msg) {
  try {
    const r = await request({ type: 'takat_create', opponent: msg.opponent, level: msg.level, color: msg.color });
    localStorage.setItem(takatKey(r.game), r.token);
    TK.invite = r.invite || null;
    history.pushState(null, '', '/t/' + r.game);
    openTakat(r.game, r.seat);
    takatLinks();
    $('new-message').textContent = '';
  } catch (e) { $('new-message').textContent = e.message; }
}

function takatLinks() {
  const box = $('takat-links');
  box.textContent = '';
  const base = location.origin + '/t/' + TK.id;
  const add = (label, url) => {
    const l = document.createElement('label'); l.textContent = label;
    const i = document.createElement('input'); i.readOnly = true; i.value = url; i.onfocus = () => i.select();
    l.appendChild(i); box.appendChild(l);
  };
  add('Watch link: ', base);
  if (TK.invite) add('Invite a friend: ', base + '#invite=' + TK.invite);
}

export function onTakatState(s) {
  if (s.game !== TK.id) return;
  if (!TK.state || TK.state.ply !== s.ply) TK.from = null;
  TK.state = s;
  if (TK.invite && s.seats.white !== 'open' && s.seats.black !== 'open') { TK.invite = null; takatLinks(); }
  drawTakat();
}

function takatMyTurn() {
  const s = TK.state;
  return s && !s.result && TK.seat && s.turn === TK.seat;
}

// The cells a click may choose now: drops and stacks to lift, or a lifted stone's targets.
function takatTargets() {
  const s = TK.state, out = new Set();
  if (!takatMyTurn()) return out;
  for (const t of s.legal) {
    const [a, b] = t.split('-');
    if (TK.from) { if (b && a === TK.from) out.add(b); } else out.add(a);
  }
  return out;
}

function takatClick(name) {
  const s = TK.state, msg = $('takat-message');
  if (!takatMyTurn()) { msg.textContent = s && s.result ? 'The game is over.' : TK.seat ? 'Wait for your turn.' : 'You are watching this game.'; return; }
  msg.textContent = '';
  if (TK.from) {
    if (name === TK.from) { TK.from = null; drawTakat(); return; }
    const turn = TK.from + '-' + name;
    if (s.legal.includes(turn)) { TK.from = null; takatSend(turn); return; }
    msg.textContent = 'The stone from ' + TK.from + ' cannot go to ' + name + '.';
    return;
  }
  const idx = s.names.indexOf(name);
  if (s.cells[idx] === '') {
    if (s.legal.includes(name)) takatSend(name);
    else msg.textContent = s.forced_drop || name === s.centre ? 'You cannot drop there.' : 'You cannot drop there.';
    return;
  }
  if (s.legal.some((t) => t.startsWith(name + '-'))) { TK.from = name; drawTakat(); return; }
  msg.textContent = s.forced_drop ? 'Black must drop a stone now (fewer stones on the board than White).' :
    name === s.ko ? 'Ko: that stone cannot move this turn.' : 'That stone cannot move.';
}

async function takatSend(turn) {
  try { await request({ type: 'takat_turn', game: TK.id, turn, ply: TK.state.ply }); }
  catch (e) { $('takat-message').textContent = e.message; }
}

function hexPoints(cx, cy) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    pts.push((cx + (HEX_R - 3) * Math.cos(a)).toFixed(1) + ',' + (cy + (HEX_R - 3) * Math.sin(a)).toFixed(1));
  }
  return pts.join(' ');
}

function drawTakat() {
  const s = TK.state, svg = $('takat-board');
  if (!s) return;
  svg.textContent = '';
  const targets = takatTargets();
  s.names.forEach((name, i) => {
    const [cx, cy] = hexCentre(name);
    const g = el('g', { class: 'sq', tabindex: 0, role: 'gridcell', 'data-cell': name,
      'aria-label': name + ': ' + (s.cells[i] ? s.cells[i].split('').map((c) => (c === '1' ? 'W' : 'B')).join(' ') : 'empty') }, svg);
    const cls = ['hex'];
    if (s.red.includes(name)) cls.push('red');
    if (name === s.centre) cls.push('centre');
    if (targets.has(name)) cls.push('target');
    if (TK.from === name) cls.push('chosen');
    el('polygon', { points: hexPoints(cx, cy), class: cls.join(' ') }, g);
    if (name === s.centre) el('circle', { cx, cy, r: 6, fill: '#8b6b45' }, g);
    el('text', { x: cx - 22, y: cy + HEX_R - 16, class: 'cellname' }, g).textContent = name;
    // The stack, bottom to top, drawn as discs rising.
    const stack = s.cells[i];
    for (let l = 0; l < stack.length; l++) {
      el('ellipse', { cx, cy: cy + 14 - l * 9, rx: 26, ry: 9, class: stack[l] === '1' ? 'pw' : 'pb' }, g);
    }
    if (stack.length > 1) el('text', { x: cx + 30, y: cy - 24, class: 'height' }, g).textContent = stack.length;
    if (name === s.ko) {
      el('polygon', { points: hexPoints(cx, cy), class: 'ko-ring' }, g);
      el('text', { x: cx - 12, y: cy - HEX_R + 24, class: 'kolabel' }, g).textContent = 'ko';
    }
    g.addEventListener('click', () => takatClick(name));
    g.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); takatClick(name); } });
  });
  const name = (c) => (c === 'white' ? 'White' : 'Black');
  const who = (c) => (s.seats[c] === 'engine' ? ` (AI, level ${s.level})` : TK.seat === c ? ' (you)' : s.seats[c] === 'open' ? ' (seat open)' : '');
  const turn = $('takat-turn');
  turn.className = 'turn ' + s.turn;
  turn.textContent = s.result ? 'Game over' : `Turn ${s.ply + 1}: ${name(s.turn)} to play${who(s.turn)}${s.thinking ? ' — thinking…' : ''}`;
  $('takat-result').hidden = !s.result;
  $('takat-result').textContent = s.result ? s.result.text : '';
  $('takat-reserve').textContent = `In reserve: White ${s.reserve[0]}, Black ${s.reserve[1]}`;
  const perfect = !s.perfect ? '' : s.perfect === 'draw' ? 'Perfect play: a draw' : `Perfect play: ${name(s.perfect)} wins`;
  $('takat-note').textContent = [perfect, s.ko ? `Ko on ${s.ko}` : '', s.forced_drop && !s.result ? 'Black must drop' : '',
    TK.from ? `Moving the top stone of ${TK.from}: choose a highlighted cell` : ''].filter(Boolean).join(' · ');
  $('takat-resign').disabled = !TK.seat || !!s.result;
  const ol = $('takat-moves');
  ol.textContent = '';
  for (let i = 0; i < s.moves.length; i += 2) {
    const li = document.createElement('li');
    li.textContent = s.moves.slice(i, i + 2).join('  ');
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

export function initTakat() {
  $('takat-resign').onclick = async () => {
    if (!confirm('Resign this game?')) return;
    try { await request({ type: 'takat_resign', game: TK.id }); } catch (e) { $('takat-message').textContent = e.message; }
  };
}
