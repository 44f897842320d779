// app.js: the Tak page. It draws what the server sends and sends what the
// player does; it knows no rules: each state carries the legal moves in long
// PTN ("c3", "Sd4", "3c3>12"), and a click is allowed when some legal move
// can still follow from the drops clicked so far. One WebSocket, reopened by
// itself; seat secrets are kept in localStorage, never in the address bar.
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';
const CELL = 100, MARGIN = 30;
const DIRS = { '+': [0, 1], '-': [0, -1], '>': [1, 0], '<': [-1, 0] };

const app = {
  ws: null, connected: false, retry: 500, reqs: 0, pending: new Map(),
  gameId: null, seat: null, state: null, view: null, // view: a past position shown, or null
  piece: '', carry: null, wobbly: localStorage.getItem('tak.wobbly') === '1',
  muted: localStorage.getItem('tak.muted') === '1', sounds: [], // sounds: what was played, for tests
  chat: [], // the messages of the game's room this page may read
  offset: 0, // the server's clock minus this browser's, in ms
  lobby: null, mySeeks: new Set(), // the lobby as last sent; the ids of our own open seeks
};
window.takApp = app; // for tests and the curious

// ---- the connection -------------------------------------------------------------

function connect() {
  const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
  app.ws = ws;
  ws.onopen = () => {
    app.connected = true; app.retry = 500;
    setConn('connected');
    takPlayers.connected(); // first: what follows is sent as this browser's player
    if (app.gameId) joinGame(app.gameId);
    else if (window.takatApp && takatApp.id) takatJoin(takatApp.id);
    else followLobby();
  };
  ws.onclose = () => {
    app.connected = false;
    setConn('reconnecting…', true);
    for (const [, p] of app.pending) p.reject(new Error('connection lost'));
    app.pending.clear();
    setTimeout(connect, app.retry);
    app.retry = Math.min(app.retry * 2, 4000);
  };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    if (m.req !== undefined && app.pending.has(m.req)) {
      const p = app.pending.get(m.req);
      app.pending.delete(m.req);
      // The server's clock, less half the round trip: game clocks are shown by it.
      if (typeof m.now_ms === 'number') app.offset = m.now_ms - (p.sent + Date.now()) / 2;
      if (m.type === 'error') p.reject(new Error(m.message)); else p.resolve(m);
    } else if (m.type === 'state') {
      onState(m);
    } else if (m.type === 'lobby') {
      app.lobby = m; drawLobby();
    } else if (m.type === 'seek_accepted') {
      app.mySeeks.delete(m.seek);
      enterGame(m);
    } else if (m.type === 'chat' && m.game === app.gameId) {
      app.chat.push(m); drawChat();
    } else if (m.type === 'chat_history' && m.game === app.gameId) {
      app.chat = m.messages; drawChat();
    } else if (m.type === 'takat_state') {
      onTakatState(m);
    } else if (m.type === 'next') {
      if (m.from === app.gameId) { if (matchOf(m.from)) nextGame(m.number, m.of); else offerRematch(); }
    } else if (m.type === 'error') {
      say(m.message);
    }
  };
}

function setConn(text, down) {
  const el = $('conn');
  el.textContent = text;
  el.classList.toggle('down', !!down);
  $('offline').hidden = !down;
}

// Sends a request; resolves with its "ok" reply, rejects with the error's message.
function request(msg) {
  if (!app.connected) return Promise.reject(new Error('not connected; retrying'));
  msg.req = ++app.reqs;
  return new Promise((resolve, reject) => {
    app.pending.set(msg.req, { resolve, reject, sent: Date.now() });
    app.ws.send(JSON.stringify(msg));
  });
}

function say(text) { $('message').textContent = text || ''; }

// ---- games and seats ------------------------------------------------------------

function secretKey(id) { return 'tak.seat.' + id; }

async function joinGame(id) {
  const hash = new URLSearchParams(location.hash.slice(1));
  const msg = { type: 'join', game: id };
  const token = localStorage.getItem(secretKey(id)) || hash.get('s');
  if (token) msg.token = token;
  else if (hash.get('invite')) {
    msg.invite = hash.get('invite');
    const name = localStorage.getItem('tak.name');
    if (name) msg.name = name;
  }
  try {
    const r = await request(msg);
    app.seat = r.seat;
    if (r.token) localStorage.setItem(secretKey(id), r.token);
    const of = +hash.get('match');
    if (r.seat && of >= 2 && of <= 25 && !matchOf(id)) saveMatch({ of, games: [{ id, color: r.seat }] });
    if (hash.get('s') || hash.get('invite')) history.replaceState(null, '', '/g/' + id);
    say('');
    showLinks();
  } catch (e) {
    if (msg.invite || msg.token) { // a used invitation: watch instead
      history.replaceState(null, '', '/g/' + id);
      say(e.message + ' — watching');
      request({ type: 'join', game: id }).then((r) => { app.seat = r.seat; showLinks(); }).catch((e2) => say(e2.message));
    } else if (!app.state && app.gameId === id) { // no such game: say so where a game can be started
      showNewGame();
      $('new-message').textContent = /^no game/.test(e.message) ? `There is no game ${id} here: start a new one.`
        : `Game ${id} cannot be opened (${e.message}): start a new one.`;
    } else {
      say(e.message);
    }
  }
}

function showLinks() {
  const el = $('links');
  el.textContent = '';
  const base = location.origin + '/g/' + app.gameId;
  const add = (label, url) => {
    const l = document.createElement('label');
    l.textContent = label;
    const i = document.createElement('input');
    i.readOnly = true; i.value = url; i.onfocus = () => i.select();
    l.appendChild(i);
    el.appendChild(l);
  };
  add('Watch link: ', base);
  const token = localStorage.getItem(secretKey(app.gameId));
  if (app.seat && token) add('Your seat (keep it secret): ', base + '#s=' + token);
  const rec = matchOf(app.gameId);
  // The match's length rides in the fragment too, so the friend's page keeps its table from game 1.
  if (app.invite) add('Invite a friend: ', base + '#invite=' + app.invite + (rec ? '&match=' + rec.of : ''));
}

function openGame(id) {
  closeAnalysisBoard();
  app.sandbox = null; app.matchRows = null;
  app.gameId = id; app.state = null; app.view = null; app.carry = null; app.seat = null; app.analysis = null; app.chat = [];
  app.flip = null; // each game as its player sits
  $('new-game').hidden = true; $('takat').hidden = true; $('play').hidden = false;
  takatApp.id = null;
  window.scrollTo(0, 0); // the board at the top, wherever the form or lobby was scrolled
  if (app.connected) joinGame(id);
}

// ---- the state ----------------------------------------------------------------------

function onState(s) {
  if (s.game !== app.gameId) return;
  const moved = !app.state || app.state.ply !== s.ply;
  const first = !app.state, ended = !!s.result !== !!(app.state && app.state.result);
  const before = app.state;
  app.state = s;
  if (first || ended) refreshMatch();
  if (moved) { app.carry = null; app.analysis = null; if (app.view && app.view.ply >= s.ply) app.view = null; }
  if (before && s.ply === before.ply + 1 && !app.view) app.animate = { ply: s.ply };
  if (before && s.ply === before.ply + 1) play(/^\d?[a-h][1-8][<>+-]/.test(s.moves[s.ply - 1]) ? 'move' : 'place');
  if (before && s.tak.some((t, i) => t && !before.tak[i])) play('tak');
  if (before && s.result && !before.result) play('end');
  announce(s, before);
  const declined = s.declined && app.seat && ['draw', 'takeback'].find((w) => s.declined[w] === app.seat);
  if (declined && !(before && before.declined && before.declined[declined] === app.seat))
    say(declined === 'draw' ? 'Your opponent declined your draw offer.' : 'Your opponent declined your takeback request.');
  if (s.seats[app.seat] !== 'taken') app.invite = app.invite; // nothing: seats shown in turn line
  if (app.invite && s.seats.white !== 'open' && s.seats.black !== 'open') { app.invite = null; showLinks(); }
  render();
}

// Says the other side's move to a screen reader (a polite live region):
// a move just played, or the last one when the game opens on our turn.
function announce(s, before) {
  const fresh = before ? s.ply === before.ply + 1 : s.ply > 0 && !s.result && s.turn === app.seat;
  if (!fresh || s.ply === 0) return;
  const mover = (s.ply + (/ 2 \d+$/.test(s.start || '') ? 1 : 0)) % 2 ? 'white' : 'black';
  if (mover === app.seat) return;
  const name = mover === 'white' ? 'White' : 'Black', other = mover === 'white' ? 'black' : 'white';
  const tak = s.tak[mover === 'white' ? 0 : 1] ? ' Tak!' : '';
  $('announce').textContent = `${name} played ${s.moves[s.ply - 1]}.${tak}` + (s.result ? ` ${s.result.text}.` : other === app.seat ? ' Your move.' : '');
}

function shown() { return app.view || app.state; }
function myTurn() {
  const s = app.state;
  if (app.analysisBoard && !app.sandbox) return !!s && !s.result; // analysis.js: either side moves
  return s && !app.view && !s.result && app.seat && s.turn === app.seat;
}
function squareName(sq, size) { return String.fromCharCode(97 + (sq % size)) + (Math.floor(sq / size) + 1); }
function squareAt(file, rank, size) {
  return file < 0 || rank < 0 || file >= size || rank >= size ? -1 : rank * size + file;
}

// ---- input: clicks spell a move, checked against the legal list ---------------------
// A carry is { from, count, dir, drops, cur }: the stones lifted from `from`,
// the direction once chosen, the stones dropped so far on each square of the
// path (the last entry on `cur`, which may still grow).

// A legal stack move in long PTN ("3c3>12") as its parts; null for a placement or a pass.
function spreadParts(text) {
  const r = /^(\d)([a-h][1-8])([<>+-])(\d+)$/.exec(text);
  return r && { count: +r[1], from: r[2], dir: r[3], drops: r[4].split('').map(Number) };
}
function isLegal(text) { return app.state.legal.includes(text); }
function canPlace(piece) { return app.state.legal.some((m) => (piece ? m[0] === piece : /^[a-h]/.test(m) && m.length === 2)); }
function passes() { return app.state.legal.filter((m) => /^\d[a-h][1-8]$/.test(m)); }

// The legal moves the carry `c` can still become: same stack, count and
// direction, the same drops on the squares behind, and no more on the current
// square than the move drops there.
function carryFits(c) {
  const from = squareName(c.from, app.state.size), k = c.drops.length;
  return app.state.legal.map(spreadParts).filter((m) => m && m.from === from && m.count === c.count &&
    (!c.dir || (m.dir === c.dir && m.drops.length >= k &&
      c.drops.every((d, i) => (i < k - 1 ? d === m.drops[i] : d <= m.drops[i])))));
}
function carryText(c) { return c.count + squareName(c.from, app.state.size) + c.dir + c.drops.join(''); }

// What clicking `sq` would make of the carry; null when nothing legal follows.
function carryAfter(sq) {
  const c = app.carry, size = app.state.size;
  const n = { ...c, drops: c.drops.slice() };
  if (!c.dir && sq === c.from) {
    n.count--;
    if (n.count === 0) return { cancel: true };
  } else if (!c.dir) {
    const d = Object.keys(DIRS).find((k) => squareAt(c.from % size + DIRS[k][0], Math.floor(c.from / size) + DIRS[k][1], size) === sq);
    if (!d) return null;
    n.dir = d; n.drops = [1]; n.cur = sq;
  } else if (sq === c.cur) {
    n.drops[n.drops.length - 1]++;
  } else {
    const [df, dr] = DIRS[c.dir];
    if (squareAt(c.cur % size + df, Math.floor(c.cur / size) + dr, size) !== sq) return null;
    n.drops.push(1); n.cur = sq;
  }
  const total = n.drops.reduce((a, b) => a + b, 0);
  if (total > n.count || carryFits(n).length === 0) return null;
  if (total === n.count) return isLegal(carryText(n)) ? { move: carryText(n) } : null;
  return { carry: n };
}

// The stones the carry has lifted and not dropped yet, bottom first ("12": white under black).
function inHand(c, board) {
  const colors = colorsOf(board[c.from]), dropped = c.drops.reduce((a, b) => a + b, 0);
  return colors.slice(colors.length - c.count + dropped);
}

// The board as the carry leaves it: the lifted stones gone from their square,
// those dropped so far on the path (a capstone or wall keeps its kind on top).
function boardWithCarry(board) {
  const c = app.carry;
  if (!c || app.view) return board;
  const out = board.slice(), size = app.state.size;
  const stack = board[c.from], top = stack.match(/[SC]$/), colors = colorsOf(stack);
  let lifted = colors.slice(colors.length - c.count);
  out[c.from] = colors.slice(0, colors.length - c.count);
  const step = DIRS[c.dir || '+'][0] + DIRS[c.dir || '+'][1] * size;
  c.drops.forEach((d, i) => {
    const sq = c.from + (i + 1) * step, part = lifted.slice(0, d);
    lifted = lifted.slice(d);
    out[sq] = colorsOf(out[sq]) + part + (lifted.length === 0 && top ? top[0] : '');
  });
  return out;
}

function placeText(sq) { return app.piece + squareName(sq, app.state.size); }

function clickSquare(sq) {
  if (app.sandbox) { sandboxClick(sq); return; }
  if (!myTurn()) {
    say(!app.connected && app.state && !app.state.result && app.seat ? 'Not connected to the server: waiting to reconnect…' :
      app.view ? 'You are looking at an earlier position: press » to play.' :
        app.state && app.state.result ? 'The game is over.' : app.seat ? 'Wait for your turn.' : 'You are watching this game.');
    return;
  }
  const s = app.state, size = s.size;
  say('');
  if (app.carry) {
    const r = carryAfter(sq);
    if (!r) { say('Not a legal drop there.'); return; }
    if (r.cancel) app.carry = null;
    else if (r.move) { app.carry = null; sendMove(r.move); }
    else app.carry = r.carry;
    render();
    return;
  }
  const stack = s.board[sq];
  if (stack === '') {
    const text = placeText(sq);
    if (isLegal(text)) sendMove(text);
    else say(!canPlace('S') && !canPlace('C') && app.piece ? 'On the first turn, place a flat (of your opponent\'s colour).' :
      'You cannot place ' + describePiece() + ' there.');
    return;
  }
  const count = Math.min(colorsOf(stack).length, size);
  const carry = { from: sq, count, dir: null, drops: [], cur: sq };
  if (carryFits(carry).length === 0 && !isLegal('1' + squareName(sq, size))) {
    say(s.ply < 2 && !canPlace('S') ? 'On the first turn, place a flat on an empty square.' : 'You do not control that stack.');
    return;
  }
  app.carry = carry;
  render();
}

function describePiece() { return app.piece === 'S' ? 'a wall' : app.piece === 'C' ? 'a capstone' : 'a flat'; }

// A pass (the no-pass rule off): lift a stack and put it back; the one carried if any.
function pass() {
  if (!myTurn()) return;
  const all = passes(), c = app.carry;
  const text = c && all.includes('1' + squareName(c.from, app.state.size)) ? '1' + squareName(c.from, app.state.size) : all[0];
  if (!text) return;
  app.carry = null;
  sendMove(text);
}

async function sendMove(text) {
  const s = app.state;
  if (app.analysisBoard) { analysisPlay(text); $('ptn-input').value = ''; app.piece = ''; return; }
  try {
    await request({ type: 'move', game: app.gameId, move: text, ply: s.ply });
    if (app.piece === 'S' || app.piece === 'C') app.piece = '';
    $('ptn-input').value = '';
    say('');
  } catch (e) { say(e.message); }
  render();
}

// The squares a click can use now: the next drops of a carry. Placements are
// not painted: on a placement turn nearly every empty square would be.
function hints() {
  const s = app.state, out = new Set();
  if (!myTurn() || !app.carry) return out;
  const n = s.size * s.size;
  for (let sq = 0; sq < n; sq++) { const r = carryAfter(sq); if (r && !r.cancel) out.add(sq); }
  return out;
}

// ---- drawing -------------------------------------------------------------------------

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function wobble(sq, level) {
  if (!app.wobbly) return 0;
  const x = Math.sin(sq * 12.9898 + level * 78.233) * 43758.5453;
  return (x - Math.floor(x) - 0.5) * 8;
}

// Draws a stack in its square: every stone of it, bottom first, the lower
// ones as edges, closer together in a tall stack so that the whole of it
// stays about a square high and each stone still shows (its height is
// written too). `arrived`: how many stones on top just came, and from
// where, for the move's animation.
function drawStack(g, sq, stack, x, y, arrived) {
  const top = stack.endsWith('S') ? 'S' : stack.endsWith('C') ? 'C' : '';
  const colors = colorsOf(stack);
  const h = colors.length, first = 0;
  const cx = x + CELL / 2, edge = h > 1 ? Math.min(7, 72 / (h - 1)) : 7;
  let base = y + CELL - 14;
  // The stones that just arrived move as one group (a wall's own rotation stays its own).
  const moving = arrived ? el('g', { class: arrived.how, style: `--dx:${arrived.dx}px;--dy:${arrived.dy}px` }) : null;
  for (let i = first; i < h; i++) {
    const cls = colors[i] === '1' ? 'pw' : 'pb', dx = wobble(sq, i), isTop = i === h - 1;
    const into = moving && i >= h - arrived.count ? moving : g;
    if (isTop && top === 'S') {
      el('rect', { x: cx - 9 + dx, y: base - 52, width: 18, height: 56, rx: 3, class: cls + ' wall', transform: `rotate(-30 ${cx + dx} ${base - 24})` }, into);
    } else if (isTop && top === 'C') {
      el('circle', { cx: cx + dx, cy: base - 22, r: 22, class: cls + ' cap' }, into);
    } else {
      el('rect', { x: cx - 32 + dx, y: base - 12, width: 64, height: 14, rx: 3, class: cls }, into);
      base -= edge;
    }
  }
  if (moving) g.appendChild(moving);
  if (h > 1) {
    const t = el('text', { x: x + CELL - 6, y: y + 20, 'text-anchor': 'end', class: 'height' }, g);
    t.textContent = h;
  }
}

// The stones in hand while a stack is being moved, drawn small over the square they hover.
function drawInHand(svg, colors, top, x, y) {
  const g = el('g', { class: 'in-hand', 'aria-hidden': 'true' }, svg);
  el('rect', { x: x + 4, y: y + 4, width: 30, height: 10 + colors.length * 7, rx: 4, class: 'hand-bg' }, g);
  for (let i = 0; i < colors.length; i++) {
    const yy = y + 8 + (colors.length - 1 - i) * 7;
    const cls = colors[i] === '1' ? 'pw' : 'pb';
    if (i === colors.length - 1 && top === 'C') el('circle', { cx: x + 19, cy: yy + 4, r: 6, class: cls }, g);
    else if (i === colors.length - 1 && top === 'S') el('rect', { x: x + 15, y: yy - 2, width: 8, height: 12, class: cls }, g);
    else el('rect', { x: x + 8, y: yy, width: 22, height: 7, rx: 2, class: cls }, g);
  }
  el('text', { x: x + 38, y: y + 16, class: 'hand-count' }, g).textContent = colors.length;
}

// The squares of a move written in PTN, the square it starts from first.
function moveSquares(text, size) {
  const m = /^(\d?)([SCF]?)([a-h])([1-8])([<>+-]?)(\d*)/.exec(text || '');
  if (!m) return [];
  const sq = squareAt(m[3].charCodeAt(0) - 97, +m[4] - 1, size);
  if (!m[5]) return [sq];
  const [df, dr] = DIRS[m[5]], n = m[6] ? m[6].length : 1, out = [sq];
  for (let i = 1; i <= n; i++) out.push(squareAt(m[3].charCodeAt(0) - 97 + df * i, +m[4] - 1 + dr * i, size));
  return out.filter((q) => q >= 0);
}

// How the stones of the last move arrive on each square, for the animation.
function arrivals(text, size) {
  const m = /^(\d?)([SCF]?)([a-h])([1-8])([<>+-]?)(\d*)/.exec(text || '');
  const out = new Map();
  if (!m) return out;
  const sqs = moveSquares(text, size);
  if (!m[5]) { if (!/^\d/.test(text)) out.set(sqs[0], { count: 1, how: 'drop-in', dx: 0, dy: 0 }); return out; }
  const count = +(m[1] || 1), drops = m[6] ? m[6].split('').map(Number) : [count];
  const [df, dr] = DIRS[m[5]];
  drops.forEach((d, i) => out.set(sqs[i + 1], { count: d, how: 'slide', dx: -df * (i + 1) * CELL, dy: dr * (i + 1) * CELL }));
  return out;
}

function drawBoard() {
  const svg = $('board'), s = shown(), size = app.state.size;
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('#board')
    ? document.activeElement.dataset.square : null;
  const w = size * CELL + MARGIN;
  svg.setAttribute('viewBox', `0 0 ${w} ${w}`);
  svg.textContent = '';
  const hint = hints(), board = boardWithCarry(s.board);
  const last = s.ply > 0 && !app.sandbox ? app.state.moves[s.ply - 1] : null;
  const lastSqs = new Set(moveSquares(last, size));
  const animate = app.animate && app.animate.ply === s.ply ? arrivals(last, size) : new Map();
  app.animate = null;
  const result = !app.view && app.state.result;
  const road = new Set(result && result.road ? result.road : []);
  if (app.focusSq === undefined || app.focusSq >= size * size) app.focusSq = 0;
  // Turned around (Black's side at the bottom): the squares drawn from the
  // top row of the screen down, so a tall stack overlaps the square above it.
  const flip = flipped(), at = (sq) => boardXY(sq, size, flip);
  if (flip) for (const a of animate.values()) { a.dx = -a.dx; a.dy = -a.dy; }
  for (let r = 0; r < size; r++) {
    const rank = flip ? r : size - 1 - r;
    const row = el('g', { role: 'row', 'aria-label': 'rank ' + (rank + 1) }, svg);
    for (let c = 0; c < size; c++) {
      const file = flip ? size - 1 - c : c, sq = rank * size + file, [x, y] = at(sq);
      const name = squareName(sq, size);
      const label = name + ', ' + describeStack(board[sq]) + (lastSqs.has(sq) ? ', last move' : '') + (hint.has(sq) ? ', a legal drop' : '');
      const g = el('g', { class: 'sq', tabindex: sq === app.focusSq ? 0 : -1, role: 'gridcell', 'data-square': name, 'aria-label': label }, row);
      el('rect', { x, y, width: CELL, height: CELL, class: 'cell', fill: (file + rank) % 2 ? 'var(--sq1)' : 'var(--sq2)' }, g);
      if (lastSqs.has(sq)) el('rect', { x, y, width: CELL, height: CELL, class: 'last' }, g);
      if (road.has(name)) el('rect', { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 6, class: 'road' }, g);
      if (hint.has(sq)) el('rect', { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 8, class: 'hint' }, g);
      if (app.sandbox && app.sandbox.lifted === sq) el('rect', { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, class: 'chosen' }, g);
      if (app.carry && !app.view && (sq === app.carry.from || sq === app.carry.cur)) el('rect', { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, class: 'chosen' }, g);
      drawStack(g, sq, board[sq], x, y, animate.get(sq));
      g.addEventListener('click', () => { app.focusSq = sq; clickSquare(sq); });
      g.addEventListener('contextmenu', (e) => { e.preventDefault(); toggleWall(); });
      g.addEventListener('keydown', (e) => boardKey(e, sq));
      const inspect = () => { $('inspect').textContent = name + ': ' + describeStack(board[sq]); };
      g.addEventListener('mouseenter', inspect);
      g.addEventListener('focus', () => { app.focusSq = sq; inspect(); });
    }
  }
  if (app.carry && !app.view) {
    const c = app.carry, hand = inHand(c, s.board), top = s.board[c.from].match(/[SC]$/);
    if (hand.length) drawInHand(svg, hand, top && top[0], ...at(c.cur));
  }
  for (let i = 0; i < size; i++) {
    const [x, y] = at(i * size + i);
    el('text', { x: x + CELL / 2, y: size * CELL + 22, 'text-anchor': 'middle', class: 'coord' }, svg).textContent = String.fromCharCode(97 + i);
    el('text', { x: 10, y: y + CELL / 2 + 6, class: 'coord' }, svg).textContent = i + 1;
  }
  // The keyboard's cursor stays where it was (a square clicked is not kept
  // focused: the keys then step through the game, with no frame left on it).
  if (focused && !app.boardClicked) { const f = svg.querySelector(`[data-square=${focused}]`); if (f) f.focus({ preventScroll: true }); }
}

// Whether the board is turned around, Black's side at the bottom: as the
// player chose (the Flip button), else for a player of Black.
function flipped() { return app.flip === true || (app.flip !== false && app.seat === 'black' && !app.analysisBoard); }

// A square's top left corner in the board's picture.
function boardXY(sq, size, flip) {
  const file = sq % size, rank = Math.floor(sq / size);
  return flip ? [MARGIN + (size - 1 - file) * CELL, rank * CELL] : [MARGIN + file * CELL, (size - 1 - rank) * CELL];
}

// Keys on a focused square: Enter or Space clicks it, the arrows move over
// the board, when the square was reached by the keyboard; after a click on
// the board the arrows step through the game, as they do elsewhere.
function boardKey(e, sq) {
  const size = app.state.size, step = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowRight: [1, 0], ArrowLeft: [-1, 0] }[e.key];
  if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.stopPropagation(); clickSquare(sq); return; }
  if (!step || app.boardClicked) return;
  e.preventDefault(); e.stopPropagation();
  const turn = flipped() ? -1 : 1; // up on the screen, whichever way the board is turned
  const to = squareAt(sq % size + step[0] * turn, Math.floor(sq / size) + step[1] * turn, size);
  if (to < 0) return;
  app.focusSq = to;
  for (const g of $('board').querySelectorAll('.sq')) g.tabIndex = -1;
  const g = $('board').querySelector(`[data-square=${squareName(to, size)}]`);
  g.tabIndex = 0; g.focus();
}

function describeStack(stack) {
  if (!stack) return 'empty';
  const top = stack.endsWith('S') ? ' wall' : stack.endsWith('C') ? ' capstone' : ' flat';
  const colors = stack.replace(/[SC]/, '').split('').map((c) => (c === '1' ? 'W' : 'B'));
  return colors.join(' ') + ' (bottom → top; top is a' + top + ')';
}

function drawStash() {
  const s = shown();
  for (const row of document.querySelectorAll('.stash-row')) {
    const color = row.dataset.color, c = color === 'white' ? 0 : 1;
    row.textContent = '';
    const who = document.createElement('span');
    who.className = 'who'; who.textContent = color === 'white' ? 'White' : 'Black';
    const named = app.state.names && app.state.names[color];
    if (named) { who.replaceChildren(takPlayers.link(named, app.state.ratings && app.state.ratings[color], true)); who.title = color === 'white' ? 'White' : 'Black'; }
    row.appendChild(who);
    const mine = myTurn() && (app.analysisBoard ? s.turn === color : app.seat === color);
    const add = (label, count, piece) => {
      const b = document.createElement('button');
      b.type = 'button'; b.textContent = `${label} ${count}`;
      b.dataset.piece = piece;
      b.disabled = !mine || count === 0 || (piece !== '' && !canPlace(piece));
      if (mine && app.piece === piece && !app.carry) b.classList.add('selected');
      b.onclick = () => { app.piece = piece; app.carry = null; render(); };
      b.oncontextmenu = (e) => { e.preventDefault(); toggleWall(); };
      row.appendChild(b);
    };
    add('Stones', s.stash[c][0], app.piece === 'S' && app.seat === color ? 'S' : '');
    add('Caps', s.stash[c][1], 'C');
  }
  $('rotate').textContent = 'Rotate: ' + (app.piece === 'S' ? 'wall' : app.piece === 'C' ? 'capstone' : 'flat');
  $('rotate').disabled = !myTurn() || !canPlace('S');
}

function toggleWall() {
  if (!myTurn() || !canPlace('S')) return;
  app.piece = app.piece === 'S' ? '' : 'S';
  app.carry = null;
  render();
}

// ---- the game in one picture: every position judged by the page's engine ----------------

// Asks the page's engine for the graph of a finished game (once a game).
async function computeGraph() {
  const s = app.state, w = app.worker;
  if (!s || !s.result || !w || app.sandbox || s.moves.length === 0) return;
  const key = s.game + ':' + s.moves.length;
  if (app.graphKey === key) return;
  app.graphKey = key; app.graph = null;
  try {
    const g = await w.call('graph', s.start, s.moves, { komi: s.komi, stones: s.stones, capstones: s.capstones, size: s.size, nodes: 20000 });
    if (app.graphKey === key) { app.graph = g; render(); }
  } catch (e) { app.graphKey = null; }
}

function drawGraph() {
  const svg = $('graph'), g = app.graph, s = app.state;
  const hide = !g || !s || app.graphKey !== s.game + ':' + s.moves.length;
  svg.toggleAttribute('hidden', hide); // an SVG element has no .hidden property
  if (hide) return;
  const n = g.scores.length, W = 300, H = 90, x = (i) => (n > 1 ? i * W / (n - 1) : 0);
  const y = (cp) => H / 2 - Math.max(-1, Math.min(1, cp / 1000)) * (H / 2 - 4);
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.textContent = '';
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'mid' }, svg);
  el('polyline', { points: g.scores.map((cp, i) => `${x(i)},${y(cp)}`).join(' '), class: 'line' }, svg);
  g.marks.forEach((m, i) => { if (m) el('circle', { cx: x(i + 1), cy: y(g.scores[i + 1]), r: 3, class: m === '??' ? 'q2' : 'q1', 'data-ply': i + 1 }, svg); });
  const at = shown().ply;
  el('line', { x1: x(at), y1: 0, x2: x(at), y2: H, class: 'now' }, svg);
}

function drawMoves() {
  const ol = $('moves'), s = app.state, at = shown().ply;
  ol.textContent = '';
  // Numbered as PTN numbers them: from the starting position's move number,
  // with a gap ("…") when Black moved first.
  const [, side, number] = (s.start || '').trim().split(/\s+/);
  const blackFirst = side === '2' ? 1 : 0;
  for (let i = -blackFirst; i < s.moves.length; i += 2) {
    const li = document.createElement('li');
    const num = document.createElement('b');
    num.className = 'num'; num.textContent = (+number || 1) + (i + blackFirst) / 2 + '.';
    li.append(num, ' '); // spaces between the words: the list copies as PTN
    if (i < 0) li.appendChild(document.createTextNode('… '));
    for (let j = Math.max(i, 0); j < Math.min(i + 2, s.moves.length); j++) {
      const span = document.createElement('span');
      span.textContent = s.moves[j];
      const mark = app.graph && app.graphKey === s.game + ':' + s.moves.length ? app.graph.marks[j] : '';
      if (mark) { const b = document.createElement('b'); b.className = 'mark'; b.textContent = mark; span.appendChild(b); }
      span.dataset.ply = j + 1;
      if (j + 1 === at) span.className = 'current';
      span.onclick = () => showPly(j + 1);
      if (j > Math.max(i, 0)) li.append(' ');
      li.appendChild(span);
    }
    ol.appendChild(li);
  }
  // Keep the current move in view by scrolling the list alone: scrolling the
  // page would push the board off a phone's screen.
  const cur = ol.querySelector('.current');
  if (cur) {
    const top = cur.offsetTop, bottom = top + cur.offsetHeight;
    if (top < ol.scrollTop) ol.scrollTop = top;
    else if (bottom > ol.scrollTop + ol.clientHeight) ol.scrollTop = bottom - ol.clientHeight;
  }
}

function render() {
  const s = app.state;
  if (!s) return;
  const v = shown();
  drawBoard();
  drawStash();
  drawMoves();
  const turn = $('turn');
  const name = (c) => (c === 'white' ? 'White' : 'Black');
  const who = (c) => (s.seats[c] === 'engine' ? ` (engine, level ${s.level})` :
    (s.names && s.names[c] ? ` (${s.names[c]}${app.seat === c ? ', you' : ''})` : app.seat === c ? ' (you)' : s.seats[c] === 'open' ? ' (seat open)' : ''));
  const over = !!s.result && !app.view;
  turn.className = 'turn ' + (over ? 'over' : v.turn);
  const firstTurn = !over && !app.view && v.move_number === 1 && !app.sandbox ? ` — first turn: ${v.turn === app.seat ? 'you place' : 'places'} a flat of ${name(v.turn === 'white' ? 'black' : 'white')}'s` : '';
  // Who moves on a line of its own, the rest under it: the box keeps its
  // height from ply to ply (its CSS), so nothing below it moves.
  const sub = document.createElement('span');
  sub.className = 'turn-sub';
  sub.textContent = app.view || s.result ? '' : `${who(v.turn)}${firstTurn}${s.thinking ? ' — thinking…' : ''}`;
  turn.replaceChildren(app.view ? `Viewing move ${v.move_number}: ${name(v.turn)} to play` :
    s.result ? 'Game over' : `Move ${v.move_number}: ${name(v.turn)} to play`, sub);
  turn.classList.toggle('viewing', !!app.view);
  turn.classList.toggle('sandboxed', !!app.sandbox);
  if (app.sandbox) turn.textContent = `Rules off — setting up: ${name(v.turn)} to move (move ${v.move_number})`;
  $('sandbox').hidden = !app.sandbox;
  $('rotate').hidden = $('ptn-form').hidden = $('offers').hidden = !!app.sandbox;
  $('enforce').checked = !app.sandbox;
  $('enforce').disabled = !app.sandbox && !!app.view;
  if (app.sandbox) drawSandbox();
  $('flats').textContent = `Flats: White ${v.flats[0]} — Black ${v.flats[1]}` + (s.komi ? ` (+${s.komi} komi)` : '');
  $('rules-line').textContent = `${s.size}×${s.size}, ${s.stones} stones + ${s.capstones} cap${s.capstones === 1 ? '' : 's'} each` +
    (s.komi ? `, komi ${s.komi}` : '') + (s.no_pass === false ? ', passing allowed' : ', no-pass rule');
  const threat = ['white', 'black'].filter((c, i) => v.tak[i] && c !== v.turn);
  $('tak-warning').hidden = threat.length === 0 || (!!s.result && !app.view);
  $('tak-warning').textContent = threat.length ? `Tak! ${name(threat[0])} threatens a road` : '';
  const res = $('result');
  res.hidden = !s.result || !!app.sandbox;
  const mine = s.result && app.seat && s.result.winner >= 0 ? (['white', 'black'][s.result.winner] === app.seat ? 'win' : 'loss') : s.result && app.seat ? 'draw' : '';
  res.className = 'result ' + mine;
  res.textContent = s.result ? `${mine === 'win' ? 'You won: ' : mine === 'loss' ? 'You lost: ' : ''}${s.result.text} (${s.result.code})` : '';
  const seated = !!app.seat && !s.result;
  // Something of yours to take back: a move of yours has been played.
  $('takeback').disabled = !seated || s.ply === 0 || (s.ply === 1 && s.turn === app.seat);
  $('pass').hidden = !myTurn() || passes().length === 0;
  $('draw').disabled = !seated || s.seats.white === 'engine' || s.seats.black === 'engine';
  $('resign').disabled = !seated;
  $('ptn-input').disabled = !myTurn();
  $('first').disabled = $('prev').disabled = v.ply === 0;
  $('next').disabled = $('last').disabled = !app.view;
  $('analyze').disabled = !s.result || !!app.sandbox;
  $('analyze').title = s.result ? 'The engine\'s score and best line for the position shown' : 'Analysis opens when the game is over';
  const single = !!s.result && !!app.seat && !app.sandbox && !matchOf(app.gameId);
  $('rematch').hidden = !single;
  $('rematch').textContent = app.rematchOffer ? 'Play the rematch' : 'Rematch';
  drawOffers();
  drawAnalysis();
  drawMatch();
  drawChat();
  drawClocks();
  drawGraph();
  if (s.result && app.worker && !app.sandbox && !app.analysisBoard) computeGraph();
  drawAnalysisBoard();
}

function drawOffers() {
  const box = $('offers'), s = app.state;
  box.textContent = '';
  if (app.rematchOffer && s.result) box.textContent = 'Your opponent offers a rematch, colours swapped.';
  if (!app.seat || s.result) return;
  const other = app.seat === 'white' ? 'black' : 'white';
  for (const what of ['draw', 'takeback']) {
    const by = s.offers[what];
    if (!by) continue;
    const p = document.createElement('div');
    if (by === other) {
      // A takeback removes the asker's last move and, if one was played, the reply to it.
      const plies = s.turn === other ? 2 : 1;
      p.textContent = what === 'draw' ? 'Your opponent offers a draw. ' : plies === 2
        ? 'Your opponent asks to take back their last move and your reply to it (2 plies). '
        : 'Your opponent asks to take back their last move. ';
      const yes = document.createElement('button'), no = document.createElement('button');
      yes.textContent = 'Accept'; no.textContent = 'Decline';
      yes.id = `accept-${what}`; no.id = `decline-${what}`;
      yes.onclick = () => act({ type: 'accept', what });
      no.onclick = () => act({ type: 'decline', what });
      p.append(yes, ' ', no);
    } else {
      p.textContent = what === 'draw' ? 'You offered a draw.' : s.turn === app.seat
        ? 'You asked to take back your last move and the reply to it.' : 'You asked to take back your last move.';
    }
    box.appendChild(p);
  }
}

async function act(msg) {
  msg.game = app.gameId;
  try { await request(msg); say(''); } catch (e) { say(e.message); }
}

// ---- review -------------------------------------------------------------------------

// The ply being stepped to: quick presses count from the last one asked
// for, not from the position drawn, so none is lost.
function stepFrom() { return app.target !== null && app.target !== undefined ? app.target : shown().ply; }

// Shows the position after `ply` plies: worked out in the page by its engine
// (instant, and with the server gone), or asked of the server without it.
async function showPly(ply) {
  const s = app.state;
  if (!s || app.sandbox) return;
  if (app.analysisBoard) { analysisStep(ply); return; }
  ply = Math.max(0, Math.min(ply, s.ply));
  app.carry = null;
  app.target = ply;
  if (ply === s.ply) { app.view = null; app.target = null; render(); return; }
  let view = null;
  const w = app.worker;
  if (w) {
    try {
      view = await w.call('view', s.start, s.moves, ply, { komi: s.komi, stones: s.stones, capstones: s.capstones, size: s.size });
    } catch (e) { view = null; }
  }
  try {
    if (!view) view = await request({ type: 'view', game: app.gameId, ply });
  } catch (e) { say(e.message); return; }
  if (app.target !== ply || !app.state || app.state.game !== s.game) return; // a newer step was asked for meanwhile
  app.target = null;
  app.view = view;
  render();
}

// ---- the engine in the page: the C library as WebAssembly, in a Worker --------------------
// Loaded after the first paint; analysis uses it (so it works with the
// server gone), and the server's analysis when it cannot load.

function engineWorker() {
  if (app.worker !== undefined) return app.worker;
  try {
    const calls = new Map();
    let next = 0;
    // Made from the module as analysis.js prepares it: fetched and compiled once for the page.
    const made = prepareEngine().then((e) => {
      const w = new Worker(e.workerUrl);
      w.onmessage = (ev) => {
        const c = calls.get(ev.data.id);
        calls.delete(ev.data.id);
        if (c) (ev.data.error !== undefined ? c.reject(new Error(ev.data.error)) : c.resolve(ev.data.result));
      };
      w.onerror = () => { for (const c of calls.values()) c.reject(new Error('the page engine failed to load')); calls.clear(); app.worker = null; };
      w.postMessage({ id: 0, op: 'load', args: [e.module] });
      return w;
    });
    app.worker = { call: (op, ...args) => made.then((w) => new Promise((resolve, reject) => { const id = ++next; calls.set(id, { resolve, reject }); w.postMessage({ id, op, args }); })) };
    app.worker.ready = app.worker.call('ready').then(() => { if (app.state) render(); }).catch(() => { app.worker = null; });
  } catch (e) { app.worker = null; }
  return app.worker;
}

// The engine's view of the position shown: searched in this page (a second),
// or asked of the server (which searches a bounded time) when the page's
// engine is not there; kept per ply until the game changes.
async function analyze() {
  const v = shown(), s = app.state, ply = v.ply;
  const box = $('analysis');
  box.hidden = false; box.textContent = 'The engine is looking at move ' + v.move_number + '…';
  const w = engineWorker();
  if (w) {
    try {
      const r = await w.call('search', v.tps, { komi: s.komi, stones: s.stones, capstones: s.capstones, level: 10, ms: 1000 });
      const sign = v.turn === 'white' ? 1 : -1; // the page shows White's view
      app.analysis = { ply, score: r.score * sign, win_in: r.win_in ? r.win_in * sign : null,
        depth: r.depth, best: r.best, pv: r.pv, local: true };
      drawAnalysis();
      return;
    } catch (e) { if (!app.connected) { box.textContent = e.message; return; } }
  }
  try {
    const r = await request({ type: 'analyze', game: app.gameId, ply });
    app.analysis = r;
    drawAnalysis();
  } catch (e) { box.textContent = e.message; }
}

function drawAnalysis() {
  const box = $('analysis'), a = app.analysis;
  if (!a || !app.state || a.ply !== shown().ply) { box.hidden = true; return; }
  box.hidden = false; box.textContent = '';
  let verdict;
  if (a.win_in !== null) verdict = a.win_in === 0 ? 'the game is over' : `${a.win_in > 0 ? 'White' : 'Black'} wins in ${Math.abs(a.win_in)} ${Math.abs(a.win_in) === 1 ? 'ply' : 'plies'}`;
  else verdict = (a.score > 0 ? '+' : '') + (a.score / 100).toFixed(2) + (a.score > 50 ? ' (White better)' : a.score < -50 ? ' (Black better)' : ' (about even)');
  const head = document.createElement('div');
  head.className = 'score';
  head.textContent = `Engine${a.local ? ' (in this page)' : ''}, depth ${a.depth}: ${verdict}`;
  box.appendChild(head);
  if (a.best) {
    const line = document.createElement('div');
    line.className = 'pv';
    line.textContent = 'Best: ' + a.best + (a.pv.length > 1 ? ' — line: ' + a.pv.join(' ') : '');
    box.appendChild(line);
  }
}

async function exportPtn() {
  try {
    const r = await request({ type: 'export', game: app.gameId });
    showExport(r.ptn);
  } catch (e) { say(e.message); }
}

// ---- pictures of the position shown, with the board's theme ------------------------------

// The board as a standalone SVG: its styles (theme colours, pieces) written
// into each element, the hints, focus and carry marks left out.
function boardPicture() {
  const src = $('board'), copy = src.cloneNode(true);
  const props = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'opacity', 'font-size', 'font-weight', 'font-family'];
  const from = src.querySelectorAll('*'), to = copy.querySelectorAll('*'), drop = [];
  from.forEach((e, i) => {
    const cs = getComputedStyle(e), t = to[i];
    if (e.matches('.hint, .chosen, .in-hand')) drop.push(t);
    for (const p of props) t.setAttribute(p, cs.getPropertyValue(p));
    t.removeAttribute('class'); t.removeAttribute('tabindex');
  });
  for (const t of drop) t.remove();
  const [, , w, h] = src.getAttribute('viewBox').split(' ').map(Number);
  copy.setAttribute('xmlns', SVGNS);
  copy.setAttribute('width', w); copy.setAttribute('height', h);
  const bg = document.createElementNS(SVGNS, 'rect');
  bg.setAttribute('width', w); bg.setAttribute('height', h); bg.setAttribute('fill', getComputedStyle(document.body).backgroundColor);
  copy.insertBefore(bg, copy.firstChild);
  return { text: new XMLSerializer().serializeToString(copy), width: w, height: h };
}

function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob); a.download = name;
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

function pictureName(ext) { return `tak-${app.gameId || 'position'}-${shown().ply}.${ext}`; }

function saveSvg() { download(pictureName('svg'), new Blob([boardPicture().text], { type: 'image/svg+xml' })); }

// The SVG drawn on a canvas of the board's own size, as PNG.
function savePng() {
  const pic = boardPicture(), img = new Image();
  img.onload = () => {
    const c = document.createElement('canvas');
    c.width = pic.width; c.height = pic.height;
    c.getContext('2d').drawImage(img, 0, 0);
    c.toBlob((b) => download(pictureName('png'), b), 'image/png');
  };
  img.onerror = () => say('The picture could not be drawn.');
  img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(pic.text);
}

function showExport(text) {
  const t = $('export');
  t.hidden = false; t.value = text; t.focus(); t.select();
}


// ---- rule enforcement off: the sandbox -------------------------------------------------
// A local board edited freely; each edit goes to the server as `setup`, which
// reads it as a TPS with the game's rules and answers the position (or says
// what is wrong). Turning enforcement back on creates a game from that TPS.

function sandboxState(p) {
  const sb = app.sandbox;
  return { ...p, game: null, size: sb.rules.size, komi: sb.rules.komi, ply: 0, moves: [], legal: [],
    seats: { white: 'open', black: 'open' }, level: sb.then.level, thinking: false,
    offers: { draw: null, takeback: null }, start: p.tps };
}

// Starts the sandbox on `board` (stacks as the state writes them).
async function startSandbox(rules, then, board, turn, moveNumber) {
  // userMove: the move number the player chose (the server picks otherwise: 1 on an empty board, else 2)
  app.sandbox = { rules, then, board, turn, moveNumber, userMove: moveNumber || 0, piece: '1', lifted: null };
  app.gameId = null; app.view = null; app.carry = null; app.seat = null; app.analysis = null;
  $('new-game').hidden = true; $('play').hidden = false; $('links').textContent = '';
  say('');
  if (!(await sandboxSend(board, turn, moveNumber))) { app.sandbox = null; showNewGame(); }
}

// Sends a board to the server; adopts it when the server accepts it.
async function sandboxSend(board, turn, moveNumber) {
  const sb = app.sandbox, r = sb.rules;
  const msg = { type: 'setup', size: r.size, board, turn, stones: r.stones, capstones: r.capstones,
    komi: r.komi, no_pass: r.no_pass };
  if (moveNumber) msg.move_number = moveNumber;
  try {
    // The analysis board's editor asks the page's module (it works with the server gone).
    const p = app.analysisBoard ? analysisSetup(msg) : await request(msg);
    if (app.sandbox !== sb) return false;
    sb.board = p.board; sb.turn = p.turn; sb.moveNumber = p.move_number; sb.tps = p.tps;
    app.state = sandboxState(p);
    say(p.result ? 'This position is over: ' + p.result.text : '');
    render();
    return true;
  } catch (e) { say(e.message); render(); return false; }
}

function colorsOf(stack) { return stack.replace(/[SC]$/, ''); }

function sandboxClick(sq) {
  const sb = app.sandbox, board = sb.board.slice();
  const tool = document.querySelector('input[name=tool]:checked').value;
  if (tool === 'place') {
    // Only the top of a stack can be a wall or a capstone: nothing goes on a
    // capstone, and only a capstone goes on a wall (flattening it, as in play).
    const top = board[sq].slice(-1);
    if (top === 'C') return say('Nothing can go on a capstone: remove it or move it first.');
    if (top === 'S' && !sb.piece.endsWith('C')) return say('Only a capstone can go on a wall (it flattens it): remove the wall or move it first.');
    board[sq] = colorsOf(board[sq]) + sb.piece;
  } else if (tool === 'remove') {
    if (!board[sq]) return say('That square is empty.');
    board[sq] = colorsOf(board[sq]).slice(0, -1);
  } else if (sb.lifted === null) {
    if (!board[sq]) return say('Pick a square with a stone on it.');
    sb.lifted = sq; say('Now click where it goes.'); render(); return;
  } else {
    const from = sb.lifted, stack = board[from], top = stack.match(/[12][SC]?$/)[0];
    sb.lifted = null;
    if (from === sq) { render(); return; }
    board[from] = colorsOf(stack).slice(0, -1);
    board[sq] = colorsOf(board[sq]) + top;
  }
  sandboxSend(board, sb.turn, sb.userMove);
}

function drawSandbox() {
  const sb = app.sandbox;
  for (const b of document.querySelectorAll('.palette button')) b.classList.toggle('selected', b.dataset.piece === sb.piece);
  $('sandbox-turn').value = sb.turn;
  if (document.activeElement !== $('sandbox-move')) $('sandbox-move').value = sb.moveNumber;
  const t = sb.then;
  $('sandbox-then').textContent = 'Then: ' + (t.opponent === 'engine' ? `against the engine (level ${t.level}), you as ${t.color}` : `against a friend by link, you as ${t.color}`);
}

// Rule enforcement back on: a new game from the position built.
async function sandboxPlay() {
  const sb = app.sandbox, r = sb.rules, t = sb.then;
  const ok = await startGame({ type: 'create', opponent: t.opponent, level: t.level, color: t.color, tps: sb.tps,
    stones: r.stones, capstones: r.capstones, komi: r.komi, no_pass: r.no_pass }, (m) => say(m));
  if (ok) app.sandbox = null;
}

// Rule enforcement off in a game: a sandbox from the position shown.
function leaveRules() {
  const s = app.state, v = shown();
  const opponent = s.seats.white === 'engine' || s.seats.black === 'engine' ? 'engine' : 'friend';
  if (app.gameId && app.connected) request({ type: 'leave' }).catch(() => {});
  startSandbox({ size: s.size, stones: s.stones, capstones: s.capstones, komi: s.komi, no_pass: s.no_pass !== false },
    { opponent, level: s.level, color: app.seat || 'white' }, v.board.slice(), v.turn, v.move_number);
}


// ---- matches ---------------------------------------------------------------------------
// A match is kept in localStorage: its length and its games with the colour
// this player held in each. The server makes the next game (colours swapped)
// and scores each finished one (the rule book's points); this page only adds.

function matchKey(id) { return localStorage.getItem('tak.in-match.' + id); }
function matchOf(id) {
  const k = id && matchKey(id);
  return k ? JSON.parse(localStorage.getItem('tak.match.' + k)) : null;
}
function saveMatch(rec) {
  localStorage.setItem('tak.match.' + rec.games[0].id, JSON.stringify(rec));
  for (const g of rec.games) localStorage.setItem('tak.in-match.' + g.id, rec.games[0].id);
}

async function refreshMatch() {
  const rec = matchOf(app.gameId);
  if (!rec) { $('match').hidden = true; return; }
  try {
    const r = await request({ type: 'score', games: rec.games.map((g) => g.id) });
    app.matchRows = r.rows;
    drawMatch();
  } catch (e) { say(e.message); }
}

function drawMatch() {
  const rec = matchOf(app.gameId), rows = app.matchRows;
  const box = $('match');
  box.hidden = !rec || !rows || app.sandbox;
  if (box.hidden) return;
  const body = $('match-table').tBodies[0], foot = $('match-table').tFoot;
  body.textContent = ''; foot.textContent = '';
  const total = [0, 0];
  const row = (parent, cells, cls) => {
    const tr = document.createElement('tr');
    if (cls) tr.className = cls;
    for (const c of cells) { const td = document.createElement('td'); td.textContent = c; tr.appendChild(td); }
    parent.appendChild(tr);
  };
  rec.games.forEach((g, i) => {
    const r = rows.find((x) => x.game === g.id) || {};
    let mine = '', theirs = '';
    if (r.result) {
      mine = r.winner === g.color ? r.points : 0;
      theirs = r.winner && r.winner !== g.color ? r.points : 0;
      total[0] += mine; total[1] += theirs;
    }
    row(body, [i + 1, g.color === 'white' ? 'White' : 'Black', r.result || 'playing', mine, theirs], g.id === app.gameId ? 'current' : '');
  });
  const done = rows.every((r) => r.result) && rec.games.length >= rec.of;
  row(foot, ['Total', '', '', total[0], total[1]]);
  $('match-caption').textContent = `Match of ${rec.of} games` + (done ? total[0] === total[1] ? ': level' : total[0] > total[1] ? ': you win' : ': you lose' : '');
  const last = rec.games[rec.games.length - 1].id === app.gameId;
  $('next-game').hidden = !(last && app.state && app.state.result && rec.games.length < rec.of && app.seat);
}

// The next game of the match (made by the server, or joined if the other player made it).
async function nextGame(number, of) {
  const from = app.gameId;
  let rec = matchOf(from);
  if (!rec) rec = { of, games: [{ id: from, color: app.seat }] };
  number = number || rec.games.length + 1;
  try {
    const r = await request({ type: 'rematch', game: from, number, of: rec.of });
    if (!rec.games.some((g) => g.id === r.game)) rec.games.push({ id: r.game, color: r.seat });
    saveMatch(rec);
    enterNext(r);
    say(`Game ${number} of ${rec.of}: you play ${r.seat === 'white' ? 'White' : 'Black'}.`);
  } catch (e) { say(e.message); }
}

// The game after a finished one (the server made it and seated us): open it.
function enterNext(r) {
  localStorage.setItem(secretKey(r.game), r.token);
  app.invite = r.invite || null;
  history.pushState(null, '', '/g/' + r.game);
  app.gameId = r.game; app.seat = r.seat; app.view = null; app.carry = null; app.analysis = null; app.state = null;
  app.rematchOffer = false; app.chat = [];
  showLinks();
  drawChat();
}

// A rematch of a single finished game, in one click: the same rules and
// opponent, colours swapped. The opponent is offered it and joins with one
// click too (in a match, the next game is joined without asking).
async function rematch() {
  try {
    const r = await request({ type: 'rematch', game: app.gameId, number: 2, of: 2 });
    enterNext(r);
    say(`Rematch: you play ${r.seat === 'white' ? 'White' : 'Black'}.`);
  } catch (e) { say(e.message); }
}
// ---- clocks: the server keeps them; the page counts down between its words ----------------

function clockText(ms) {
  if (ms <= 0) return '0:00';
  const tenths = Math.ceil(ms / 100);
  if (tenths < 100) return '0:0' + (tenths / 10).toFixed(1); // tenths in the last ten seconds
  const t = Math.ceil(ms / 1000);
  return Math.floor(t / 60) + ':' + String(t % 60).padStart(2, '0');
}

// Each side's time left now, as the server counts it.
function clockLeft(c) {
  const left = c.left_ms.slice();
  // Never more than the server gave: a clock here a little behind the
  // server's would otherwise count up (1:01 on a 1+0 clock).
  if (c.running) left[c.running === 'white' ? 0 : 1] -= Math.max(0, Date.now() + app.offset - c.turn_start_ms);
  return left;
}

function drawClocks() {
  const s = app.state, c = s && !app.sandbox && s.clock;
  $('clocks').hidden = !c;
  if (!c) return;
  const left = clockLeft(c);
  ['white', 'black'].forEach((color, i) => {
    const el = $('clock-' + color);
    el.textContent = `${color === 'white' ? 'White' : 'Black'} ${clockText(left[i])}`;
    el.classList.toggle('running', c.running === color);
    el.classList.toggle('low', left[i] < 10000);
    el.setAttribute('aria-label', `${color} clock: ${clockText(left[i])}${c.running === color ? ', running' : ''}`);
  });
}
setInterval(() => { if (app.state && app.state.clock && app.state.clock.running) drawClocks(); }, 100);

// ---- chat: the players' room for players, the spectators' for watchers ------------------

function drawChat() {
  const list = $('chat-lines');
  $('chat').hidden = !app.gameId || !!app.sandbox;
  $('chat-title').textContent = app.seat ? 'Chat with your opponent' : 'Spectators\' chat';
  list.textContent = '';
  for (const m of app.chat) {
    const li = document.createElement('li'), who = document.createElement('b');
    who.textContent = (m.from === 'white' ? 'White' : m.from === 'black' ? 'Black' : 'Spectator') +
      (app.seat === m.from ? ' (you)' : '') + ': ';
    li.append(who, m.text); // text, never markup
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
}

async function sendChat(ev) {
  ev.preventDefault();
  const input = $('chat-input'), text = input.value.trim();
  if (!text) return;
  try {
    await request({ type: 'chat', game: app.gameId, text });
    input.value = '';
    $('chat-status').textContent = '';
  } catch (e) { $('chat-status').textContent = e.message; }
}

function offerRematch() { app.rematchOffer = true; play('tak'); render(); }

// ---- sounds: short tones the browser makes (no files to load) ----------------------------

const SOUNDS = {
  place: [[520, 0.07]], move: [[440, 0.05], [587, 0.06]],
  tak: [[880, 0.12], [660, 0.16]], end: [[523, 0.14], [659, 0.14], [784, 0.32]],
};
function play(name) {
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

// ---- looks: board theme, dark page, sound, kept in this browser ------------------------

function applyLooks() {
  const root = document.documentElement;
  const dark = localStorage.getItem('tak.dark');
  root.dataset.dark = dark === null ? (matchMedia('(prefers-color-scheme: dark)').matches ? '1' : '0') : dark;
  root.dataset.board = localStorage.getItem('tak.board') || 'wood';
  $('dark').checked = root.dataset.dark === '1';
  $('board-theme').value = root.dataset.board;
  $('mute').checked = app.muted;
}

// ---- new games ------------------------------------------------------------------------

// ---- the lobby: open seeks, the engine's levels, games to watch ----------------------------

function followLobby() {
  if (app.connected && !$('new-game').hidden) request({ type: 'lobby' }).catch((e) => { $('lobby-message').textContent = e.message; });
}

function clockName(c) { return c ? `${c.base_ms / 60000}+${c.increment_ms / 1000}` : 'none'; }

function drawLobby() {
  const l = app.lobby;
  if (!l) return;
  const body = $('seeks').tBodies[0];
  body.textContent = '';
  for (const k of l.seeks) {
    const tr = body.insertRow();
    for (const text of [k.name, `${k.size}×${k.size}`, k.komi, clockName(k.clock), k.color === 'random' ? 'either' : k.color, k.rated ? 'rated' : 'casual']) tr.insertCell().textContent = text;
    tr.cells[0].replaceChildren(takPlayers.link(k.name, k.rating));
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
  list($('playing'), l.playing, (g) => `${g.size}×${g.size}${g.engine ? ' against the engine' : ''}, clock ${clockName(g.clock)}`);
  list($('recent'), l.recent, (g) => `${g.size}×${g.size}: ${g.result}`);
}

function playerName() {
  const name = $('player-name').value.trim();
  localStorage.setItem('tak.name', name);
  takPlayers.claim(name); // sent before the request that carries the name
  return name;
}

function seekOptions(f) {
  const msg = { size: +f.get('size'), komi: +f.get('komi'), color: f.get('color'), rated: f.get('rated') === 'on' };
  const tc = f.get('tc');
  if (tc) { const [min, inc] = tc.split('+').map(Number); msg.time = min * 60; msg.increment = inc; }
  return msg;
}

async function postSeek(ev) {
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
function enterGame(r) {
  localStorage.setItem(secretKey(r.game), r.token);
  history.pushState(null, '', '/g/' + r.game);
  $('lobby-message').textContent = '';
  openGame(r.game);
}

// One click against the engine at a level, with the seek form's size and clock.
function playEngine(level) {
  const o = seekOptions(new FormData($('seek-form')));
  startGame({ type: 'create', opponent: 'engine', level, size: o.size, komi: o.komi, color: o.color,
    ...(o.time ? { time: o.time, increment: o.increment } : {}) }, (m) => { $('lobby-message').textContent = m; });
}

function showNewGame() {
  closeAnalysisBoard();
  $('play').hidden = true; $('takat').hidden = true; $('new-game').hidden = false;
  followLobby();
  takatApp.id = null;
  app.gameId = null; app.state = null; app.sandbox = null;
  history.pushState(null, '', '/');
}

async function createGame(ev) {
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

// Creates a game and opens it; false (after telling `onError`) when refused.
async function startGame(msg, onError) {
  try {
    const r = await request(msg);
    localStorage.setItem(secretKey(r.game), r.token);
    app.invite = r.invite || null;
    history.pushState(null, '', '/g/' + r.game);
    closeAnalysisBoard();
    app.sandbox = null;
    app.gameId = r.game; app.seat = r.seat; app.view = null; app.carry = null; app.analysis = null; app.state = null; app.chat = [];
    app.flip = null;
    $('new-game').hidden = true; $('takat').hidden = true; $('play').hidden = false;
    takatApp.id = null;
    window.scrollTo(0, 0);
    showLinks();
    $('new-message').textContent = '';
    say('');
    return true;
  } catch (e) { onError(e.message); return false; }
}

function route() {
  const m = location.pathname.match(/^\/g\/([a-z2-9]+)/), t = location.pathname.match(/^\/t\/([a-z2-9]+)/);
  if (location.pathname === '/analysis') { openAnalysisFromUrl(); return; }
  closeAnalysisBoard();
  if (takPlayers.route(location.pathname)) { $('play').hidden = true; $('takat').hidden = true; $('new-game').hidden = true; }
  else if (m) openGame(m[1]);
  else if (t) openTakat(t[1]);
  else { $('play').hidden = true; $('takat').hidden = true; $('new-game').hidden = false; followLobby(); }
}

function init() {
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
  $('ptn-form').onsubmit = (e) => {
    e.preventDefault();
    const t = $('ptn-input').value.trim();
    if (t) sendMove(t);
  };
  $('rotate').onclick = toggleWall;
  $('pass').onclick = pass;
  const standard = { 3: [10, 0], 4: [15, 0], 5: [21, 1], 6: [30, 1], 7: [40, 2], 8: [50, 2] };
  const placeholders = () => {
    const [st, caps] = standard[$('size').value] || ['', ''];
    $('new-form').stones.placeholder = st; $('new-form').capstones.placeholder = caps;
  };
  $('size').addEventListener('change', placeholders);
  placeholders();
  $('takeback').onclick = () => act({ type: 'takeback' });
  $('draw').onclick = () => act({ type: 'draw' });
  $('resign').onclick = () => { if (confirm('Resign this game?')) act({ type: 'resign' }); };
  $('first').onclick = () => showPly(0);
  $('prev').onclick = () => showPly(stepFrom() - 1);
  $('next').onclick = () => showPly(stepFrom() + 1);
  $('last').onclick = () => showPly(Infinity);
  $('flip').onclick = () => { app.flip = !flipped(); render(); };
  $('export-ptn').onclick = exportPtn;
  $('analyze').onclick = analyze;
  $('enforce').onchange = () => {
    if (!$('enforce').checked && !app.sandbox && app.state) leaveRules();
    else if ($('enforce').checked && app.sandbox) { $('enforce').checked = false; sandboxPlay(); }
  };
  $('sandbox-play').onclick = sandboxPlay;
  $('next-game').onclick = () => nextGame();
  for (const b of document.querySelectorAll('.palette button')) b.onclick = () => { app.sandbox.piece = b.dataset.piece; render(); };
  $('sandbox-turn').onchange = () => sandboxSend(app.sandbox.board, $('sandbox-turn').value, app.sandbox.userMove);
  $('sandbox-move').onchange = () => { app.sandbox.userMove = +$('sandbox-move').value || 0; sandboxSend(app.sandbox.board, app.sandbox.turn, app.sandbox.userMove); };
  $('export-tps').onclick = () => showExport(shown().tps);
  $('rematch').onclick = rematch;
  $('picture-svg').onclick = saveSvg;
  $('picture-png').onclick = savePng;
  $('graph').onclick = (ev) => {
    const s = app.state, r = $('graph').getBoundingClientRect();
    if (!s || !app.graph) return;
    showPly(Math.round((ev.clientX - r.left) / r.width * (app.graph.scores.length - 1)));
  };
  $('chat-form').onsubmit = sendChat;
  applyLooks();
  $('dark').onchange = () => { localStorage.setItem('tak.dark', $('dark').checked ? '1' : '0'); applyLooks(); };
  $('board-theme').onchange = () => { localStorage.setItem('tak.board', $('board-theme').value); applyLooks(); };
  $('mute').onchange = () => { app.muted = $('mute').checked; localStorage.setItem('tak.muted', app.muted ? '1' : '0'); };
  $('wobbly').checked = app.wobbly;
  $('wobbly').onchange = () => { app.wobbly = $('wobbly').checked; localStorage.setItem('tak.wobbly', app.wobbly ? '1' : '0'); render(); };
  // Whether the board's focus came from the pointer (the arrows then step
  // through the game) or from the keyboard (they move over the squares).
  $('board').addEventListener('pointerdown', () => { app.boardClicked = true; });
  document.addEventListener('keydown', (e) => { if (e.key === 'Tab') app.boardClicked = false; }, true);
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select') || !app.state) return;
    if (e.key === 'ArrowLeft') showPly(stepFrom() - 1);
    else if (e.key === 'ArrowRight') showPly(stepFrom() + 1);
    else if (e.key === 'Home') showPly(0);
    else if (e.key === 'End') showPly(Infinity);
    else if (e.key === 'Escape') { app.carry = null; render(); }
    else if (e.key === 'w' || e.key === 'W') toggleWall();
    else return;
    e.preventDefault();
  });
  window.addEventListener('popstate', route);
  route();
  connect();
  // The page's engine, once the page is up (it is not needed to draw it).
  (window.requestIdleCallback || ((f) => setTimeout(f, 500)))(() => engineWorker());
}

// After every script (takat.js too) has run.
window.addEventListener('DOMContentLoaded', init);
