// lobby.js: the front page: the lobby (open seeks, the engine's levels one
// click away, games being played and just finished, to watch) and the form
// for a new game (Tak or TAKAT, against the engine or a friend, a match, a
// clock, a position to start from, or the rules off).
import { $ } from './dom.js';
import { app, takat } from './state.js';
import { request } from './connection.js';
import { link, claim } from './players.js';
import { secretKey, showLinks, openGame, startGame } from './game.js';
import { saveMatch, refreshMatch } from './match.js';
import { startSandbox } from './sandbox.js';
import { takatCreate } from './takat.js';
import { closeAnalysisBoard } from './analysis.js';

// ---- the lobby: open seeks, the engine's levels, games to watch ----------------------------

export function followLobby() {
  if (app.connected && !$('new-game').hidden) request({ type: 'lobby' }).catch((e) => { $('lobby-message').textContent = e.message; });
}

// Who plays a listed game: "Alice vs Bob", White first; the engine by its level.
function players(g) {
  const who = (c) => (g.engine_color === c ? `the engine (level ${g.level})` : g[c] || 'anonymous');
  return `${who('white')} vs ${who('black')}`;
}

function clockName(c) { return c ? `${c.base_ms / 60000}+${c.increment_ms / 1000}` : 'none'; }

// The lobby as the server sends it (on following it, and on each change).
export function onLobby(m) { app.lobby = m; drawLobby(); }

export function drawLobby() {
  const l = app.lobby;
  if (!l) return;
  const body = $('seeks').tBodies[0];
  body.textContent = '';
  for (const k of l.seeks) {
    const tr = body.insertRow();
    for (const text of [k.name, `${k.size}×${k.size}`, k.komi, clockName(k.clock), k.color === 'random' ? 'either' : k.color, k.rated ? 'rated' : 'casual']) tr.insertCell().textContent = text;
    tr.cells[0].replaceChildren(link(k.name, k.rating));
    const b = document.createElement('button');
    b.type = 'button';
    if (app.mySeeks.has(k.id)) { b.textContent = 'Cancel'; b.onclick = () => unseek(k.id); } else { b.textContent = 'Play'; b.onclick = () => acceptSeek(k.id); }
    b.dataset.seek = k.id;
    tr.insertCell().appendChild(b);
  }
  $('seeks').hidden = l.seeks.length === 0;
  $('no-seeks').hidden = l.seeks.length > 0;
  const list = (ul, games, label) => {
    ul.textContent = '';
    for (const g of games) {
      const li = document.createElement('li'), a = document.createElement('a');
      a.href = '/g/' + g.id; a.textContent = label(g);
      a.onclick = (e) => { e.preventDefault(); history.pushState(null, '', '/g/' + g.id); openGame(g.id); };
      li.appendChild(a); ul.appendChild(li);
    }
    if (!games.length) ul.appendChild(Object.assign(document.createElement('li'), { textContent: 'none' }));
  };
  list($('playing'), l.playing, (g) => `${players(g)}, ${g.size}×${g.size}, clock ${clockName(g.clock)}`);
  list($('recent'), l.recent, (g) => `${players(g)}, ${g.size}×${g.size}: ${g.result}`);
}

export function playerName() {
  const name = $('player-name').value.trim();
  localStorage.setItem('tak.name', name);
  claim(name); // sent before the request that carries the name
  return name;
}

function seekOptions(f) {
  const msg = { size: +f.get('size'), komi: +f.get('komi'), color: f.get('color'), rated: f.get('rated') === 'on' };
  const tc = f.get('tc');
  if (tc) { const [min, inc] = tc.split('+').map(Number); msg.time = min * 60; msg.increment = inc; }
  return msg;
}

export async function postSeek(ev) {
  ev.preventDefault();
  try {
    const r = await request({ type: 'seek', name: playerName(), ...seekOptions(new FormData($('seek-form'))) });
    app.mySeeks.add(r.seek);
    $('lobby-message').textContent = 'Waiting for someone to take your game…';
    drawLobby();
  } catch (e) { lobbyError(e, 'A game is posted under a name: type yours in "Your name" above, then post it again.'); }
}

// The lobby's refusals in a player's words: where a name is wanted (the
// protocol's text speaks of 'identify' and secrets), the name field is
// offered, with what to do.
function lobbyError(e, noName) {
  if (/under a name|claim the name/.test(e.message)) {
    $('lobby-message').textContent = noName;
    $('player-name').focus();
  } else $('lobby-message').textContent = e.message;
}

async function unseek(id) {
  try { await request({ type: 'unseek', seek: id }); app.mySeeks.delete(id); $('lobby-message').textContent = ''; } catch (e) { $('lobby-message').textContent = e.message; }
}

async function acceptSeek(id) {
  const name = playerName();
  try { enterGame(await request({ type: 'accept_seek', seek: id, ...(name ? { name } : {}) })); } catch (e) {
    lobbyError(e, 'This game is rated, so it is played under a name: pick yours in "Your name" above (it is yours for good), then press Play again.');
  }
}

// Opens a game the server has seated us in (a seek accepted either way).
export function enterGame(r) {
  localStorage.setItem(secretKey(r.game), r.token);
  history.pushState(null, '', '/g/' + r.game);
  $('lobby-message').textContent = '';
  openGame(r.game);
}

// One click against the engine at a level, with the seek form's size and clock.
export function playEngine(level) {
  const o = seekOptions(new FormData($('seek-form')));
  startGame({ type: 'create', opponent: 'engine', level, size: o.size, komi: o.komi, color: o.color,
    ...(o.time ? { time: o.time, increment: o.increment } : {}) }, (m) => { $('lobby-message').textContent = m; });
}

export function showNewGame() {
  closeAnalysisBoard();
  $('play').hidden = true; $('takat').hidden = true; $('new-game').hidden = false;
  followLobby();
  takat.id = null;
  app.gameId = null; app.state = null; app.sandbox = null;
  history.pushState(null, '', '/');
}

export async function createGame(ev) {
  ev.preventDefault();
  const f = new FormData($('new-form'));
  const msg = { type: 'create', opponent: f.get('opponent'), color: f.get('color'), size: +f.get('size'),
    level: +f.get('level'), komi: +f.get('komi') || 0, no_pass: f.get('no_pass') === 'on' };
  const tc = f.get('tc');
  if (tc === 'custom') {
    msg.time = Math.round(+f.get('tc_minutes') * 60);
    msg.increment = +f.get('tc_increment') || 0;
    if (+f.get('tc_extra') > 0) { msg.extra_time = Math.round(+f.get('tc_extra') * 60); msg.extra_move = +f.get('tc_extra_move') || 0; }
  } else if (tc) {
    const [min, inc] = tc.split('+').map(Number);
    msg.time = min * 60; msg.increment = inc;
  }
  if (f.get('stones')) msg.stones = +f.get('stones');
  if (f.get('capstones') !== '' && f.get('capstones') !== null) msg.capstones = +f.get('capstones');
  const name = playerName();
  if (name) msg.name = name;
  if (f.get('kind') === 'takat') { delete msg.name; takatCreate(msg); return; }
  const imp = (f.get('import') || '').trim();
  if (imp) {
    if (imp.startsWith('[') || /^\s*1\.\s/.test(imp)) msg.ptn = imp; else msg.tps = imp;
    delete msg.size;
  }
  if (f.get('enforce') !== 'on') {
    const rules = { size: msg.size, stones: msg.stones, capstones: msg.capstones, komi: msg.komi, no_pass: msg.no_pass };
    const then = { opponent: msg.opponent, level: msg.level, color: msg.color };
    startSandbox(rules, then, Array(msg.size * msg.size).fill(''), 'white', 0);
    return;
  }
  const ok = await startGame(msg, (m) => { $('new-message').textContent = m; });
  const games = +f.get('match');
  if (ok && games > 1) { saveMatch({ of: games, games: [{ id: app.gameId, color: app.seat }] }); showLinks(); refreshMatch(); }
}

// ---- wiring ----------------------------------------------------------------------------

export function initLobby() {
  for (let l = 1; l <= 10; l++) {
    const o = document.createElement('option');
    o.value = l; o.textContent = l === 10 ? '10 (full strength)' : l;
    if (l === 3) o.selected = true;
    $('level').appendChild(o);
  }
  $('game-type').onchange = () => {
    const v = $('game-type').value.split(',');
    const form = $('new-form');
    if (v.length === 3) { form.size.value = v[0]; form.stones.value = v[1]; form.capstones.value = v[2]; }
    else { form.stones.value = ''; form.capstones.value = ''; }
    form.size.dispatchEvent(new Event('change'));
  };
  $('new-form').onsubmit = createGame;
  $('seek-form').onsubmit = postSeek;
  $('player-name').value = localStorage.getItem('tak.name') || '';
  for (let l = 1; l <= 10; l++) {
    const b = document.createElement('button');
    b.type = 'button'; b.textContent = l; b.title = `Play the engine at level ${l} now`; b.dataset.level = l;
    b.onclick = () => playEngine(l);
    $('engine-levels').appendChild(b);
  }
  $('tc').onchange = () => { $('tc-custom').hidden = $('tc').value !== 'custom'; };
  $('new-game-btn').onclick = showNewGame;
  const standard = { 3: [10, 0], 4: [15, 0], 5: [21, 1], 6: [30, 1], 7: [40, 2], 8: [50, 2] };
  const placeholders = () => {
    const [st, caps] = standard[$('size').value] || ['', ''];
    $('new-form').stones.placeholder = st; $('new-form').capstones.placeholder = caps;
  };
  $('size').addEventListener('change', placeholders);
  placeholders();
}
