// board.js: the Tak board, drawn and played on. It knows no rules: each
// state carries the legal moves in long PTN ("c3", "Sd4", "3c3>12"), and a
// click is allowed when some legal move can still follow from the drops
// clicked so far. The stones in hand, the reserves beside the board, the
// keys on its squares, and pictures of it (SVG, PNG) are here too.
import { $, SVGNS, el, say } from './dom.js';
import { app, shown, myTurn } from './state.js';
import { request } from './connection.js';
import { link } from './players.js';
import { render } from './game.js';
import { sandboxClick } from './sandbox.js';
import { analysisPlay } from './analysis.js';
import { showPly, stepFrom } from './review.js';

// BAR: the strip above the squares (the flat count and the reserves).
const CELL = 100, MARGIN = 30, BAR = 40;
const DIRS = { '+': [0, 1], '-': [0, -1], '>': [1, 0], '<': [-1, 0] };

export function squareName(sq, size) { return String.fromCharCode(97 + (sq % size)) + (Math.floor(sq / size) + 1); }
export function squareAt(file, rank, size) {
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
export function passes() { return app.state.legal.filter((m) => /^\d[a-h][1-8]$/.test(m)); }

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

export function clickSquare(sq) {
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
export function pass() {
  if (!myTurn()) return;
  const all = passes(), c = app.carry;
  const text = c && all.includes('1' + squareName(c.from, app.state.size)) ? '1' + squareName(c.from, app.state.size) : all[0];
  if (!text) return;
  app.carry = null;
  sendMove(text);
}

export async function sendMove(text) {
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

function wobble(sq, level) {
  if (!app.wobbly) return 0;
  const x = Math.sin(sq * 12.9898 + level * 78.233) * 43758.5453;
  return (x - Math.floor(x) - 0.5) * 8;
}

// Draws a stack in its square: every stone of it, bottom first, the lower
// ones as edges, closer together in a tall stack so that the whole of it
// stays about a square high and each stone still shows. A stack of two or
// more stands left of centre and its height is written in the room on its
// right, so the number is never over a stone. `arrived`: how many stones on
// top just came, from where, and how long their animation has run (`ran`, ms).
function drawStack(g, sq, stack, x, y, arrived) {
  const top = stack.endsWith('S') ? 'S' : stack.endsWith('C') ? 'C' : '';
  const colors = colorsOf(stack);
  const h = colors.length;
  const cx = x + (h > 1 ? 40 : 50), edge = h > 1 ? Math.min(7, 72 / (h - 1)) : 7;
  let base = y + CELL - 14;
  // The stones that just arrived move as one group (a wall's own rotation stays its own).
  const moving = arrived ? el('g', { class: arrived.how,
    style: `--dx:${arrived.dx}px;--dy:${arrived.dy}px` + (arrived.ran > 0 ? `;animation-delay:-${arrived.ran}ms` : '') }) : null;
  for (let i = 0; i < h; i++) {
    const cls = colors[i] === '1' ? 'pw' : 'pb', dx = wobble(sq, i), isTop = i === h - 1;
    const into = moving && i >= h - arrived.count ? moving : g;
    if (isTop && top === 'S') {
      el('rect', { x: cx - 9 + dx, y: base - 52, width: 18, height: 56, rx: 3, class: cls + ' wall', transform: `rotate(-30 ${cx + dx} ${base - 24})` }, into);
    } else if (isTop && top === 'C') {
      el('circle', { cx: cx + dx, cy: base - 22, r: 22, class: cls + ' cap' }, into);
    } else {
      el('rect', { x: cx - 30 + dx, y: base - 12, width: 60, height: 14, rx: 3, class: cls }, into);
      base -= edge;
    }
  }
  if (moving) g.appendChild(moving);
  if (h > 1) el('text', { x: x + CELL - 2, y: y + CELL - 29, 'text-anchor': 'end', class: 'height' }, g).textContent = h;
}

// Whether a stack counts for a road, and for whom: its top's colour ('1',
// '2'), or '' for an empty square or a wall.
function roadColor(stack) { return !stack || stack.endsWith('S') ? '' : colorsOf(stack).slice(-1); }

// The road connections of a square, as PTN Ninja draws them: a band in the
// piece's colour from the square's middle to each side where the
// neighbouring square's top is a flat or capstone of the same colour. Each
// square draws its half, under its own stones.
function drawConnections(g, board, sq, size, x, y, flip) {
  const c = roadColor(board[sq]);
  if (!c) return;
  const file = sq % size, rank = Math.floor(sq / size), mx = x + CELL / 2, my = y + CELL - 19, w = 14;
  for (const [df, dr] of Object.values(DIRS)) {
    const n = squareAt(file + df, rank + dr, size);
    if (n < 0 || roadColor(board[n]) !== c) continue;
    const sx = flip ? -df : df, sy = flip ? dr : -dr; // on the screen: right and down
    const box = sx ? { x: sx > 0 ? mx : x, y: my - w / 2, width: CELL / 2, height: w }
      : { x: mx - w / 2, y: sy > 0 ? my : y, width: w, height: sy > 0 ? y + CELL - my : my - y };
    const cls = c === '1' ? 'cw' : 'cb';
    el('rect', { ...box, class: 'conn ' + cls }, g);
    // Its two long sides drawn, where its fill alone is too close to the squares'.
    const { x: bx, y: by, width: bw, height: bh } = box;
    const d = sx ? `M${bx} ${by}h${bw}M${bx} ${by + bh}h${bw}` : `M${bx} ${by}v${bh}M${bx + bw} ${by}v${bh}`;
    el('path', { d, class: 'conn-edge ' + cls }, g);
  }
}

// Above the board: each side's stones and capstones in reserve at either end,
// and between them a bar split by the flats on top of the board (what a flat
// count would score now), the numbers written on it.
function drawFlatBar(svg, s, w) {
  const flats = [0, 0];
  for (const st of s.board) if (st && !/[SC]$/.test(st)) flats[st.slice(-1) === '1' ? 0 : 1]++;
  // Hidden from screen readers: the squares' own labels and the reserves' buttons say it all.
  const g = el('g', { class: 'flat-bar', 'aria-hidden': 'true' }, svg);
  const x0 = MARGIN + 96, x1 = w - 96, span = x1 - x0, least = 44;
  const split = x0 + least + (span - 2 * least) * (flats[0] + flats[1] ? flats[0] / (flats[0] + flats[1]) : 0.5);
  el('rect', { x: x0, y: 6, width: split - x0, height: 26, rx: 4, class: 'fbar-w' }, g);
  el('rect', { x: split, y: 6, width: x1 - split, height: 26, rx: 4, class: 'fbar-b' }, g);
  el('text', { x: x0 + 8, y: 26, class: 'fcount fw' }, g).textContent = flats[0];
  el('text', { x: x1 - 8, y: 26, 'text-anchor': 'end', class: 'fcount fb' }, g).textContent = flats[1];
  // The reserves: a small flat and a small capstone, each with its number.
  [[MARGIN, 0, 'rw'], [x1 + 8, 1, 'rb']].forEach(([rx, c, cls]) => {
    el('rect', { x: rx, y: 13, width: 18, height: 10, rx: 2, class: cls }, g);
    el('text', { x: rx + 22, y: 26, class: 'reserve' }, g).textContent = s.stash[c][0];
    el('circle', { cx: rx + 64, cy: 18, r: 7, class: cls }, g);
    el('text', { x: rx + 74, y: 26, class: 'reserve' }, g).textContent = s.stash[c][1];
  });
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

export function drawBoard() {
  const svg = $('board'), s = shown(), size = app.state.size;
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('#board')
    ? document.activeElement.dataset.square : null;
  const w = size * CELL + MARGIN;
  svg.setAttribute('viewBox', `0 0 ${w} ${w + BAR}`);
  svg.parentNode.style.setProperty('--board-ratio', (w / (w + BAR)).toFixed(3));
  svg.textContent = '';
  drawFlatBar(svg, s, w);
  const hint = hints(), board = boardWithCarry(s.board);
  const last = s.ply > 0 && !app.sandbox ? app.state.moves[s.ply - 1] : null;
  const lastSqs = new Set(moveSquares(last, size));
  // A move is animated as it is played (app.animate, from the server's
  // state) and as the position shown steps one ply on along the same line.
  const line = (n) => (app.gameId || 'board') + ':' + (app.state.moves || []).slice(0, n).join(' ');
  // A redraw of the same position (the engine's worker ready, a graph
  // done) carries a running animation on where it is, not from its start
  // nor cut off: its stones keep their class, delayed by the time it ran.
  const stepped = app.drawn && !app.sandbox && app.drawn.ply === s.ply - 1 && app.drawn.key === line(s.ply - 1);
  const same = app.drawn && app.drawn.ply === s.ply && app.drawn.key === line(s.ply);
  const started = (app.animate && app.animate.ply === s.ply) || stepped;
  const arrived = started ? arrivals(last, size) : same ? app.drawn.arrived : new Map();
  const since = started ? performance.now() : same ? app.drawn.since : 0;
  app.drawn = { ply: s.ply, key: line(s.ply), arrived, since };
  app.animate = null;
  const ran = Math.round(performance.now() - since);
  const animate = new Map([...arrived].map(([sq, a]) => [sq, { ...a, ran }]));
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
      el('rect', { x, y, width: CELL, height: CELL, class: 'cell', fill: (file + rank) % 2 ? 'var(--cell1)' : 'var(--cell2)' }, g);
      if (lastSqs.has(sq)) el('rect', { x, y, width: CELL, height: CELL, class: 'last' }, g);
      if (road.has(name)) el('rect', { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 6, class: 'road' }, g);
      if (hint.has(sq)) el('rect', { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 8, class: 'hint' }, g);
      if (app.sandbox && app.sandbox.lifted === sq) el('rect', { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, class: 'chosen' }, g);
      if (app.carry && !app.view && (sq === app.carry.from || sq === app.carry.cur)) el('rect', { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, class: 'chosen' }, g);
      drawConnections(g, board, sq, size, x, y, flip);
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
    el('text', { x: x + CELL / 2, y: BAR + size * CELL + 22, 'text-anchor': 'middle', class: 'coord' }, svg).textContent = String.fromCharCode(97 + i);
    el('text', { x: 10, y: y + CELL / 2 + 6, class: 'coord' }, svg).textContent = i + 1;
  }
  // The keyboard's cursor stays where it was (a square clicked is not kept
  // focused: the keys then step through the game, with no frame left on it).
  if (focused && !app.boardClicked) { const f = svg.querySelector(`[data-square=${focused}]`); if (f) f.focus({ preventScroll: true }); }
}

// Whether the board is turned around, Black's side at the bottom: as the
// player chose (the Flip button), else for a player of Black.
export function flipped() { return app.flip === true || (app.flip !== false && app.seat === 'black' && !app.analysisBoard); }

// A square's top left corner in the board's picture.
function boardXY(sq, size, flip) {
  const file = sq % size, rank = Math.floor(sq / size);
  return flip ? [MARGIN + (size - 1 - file) * CELL, BAR + rank * CELL] : [MARGIN + file * CELL, BAR + (size - 1 - rank) * CELL];
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

export function drawStash() {
  const s = shown();
  for (const row of document.querySelectorAll('.stash-row')) {
    const color = row.dataset.color, c = color === 'white' ? 0 : 1;
    row.textContent = '';
    const who = document.createElement('span');
    who.className = 'who'; who.textContent = color === 'white' ? 'White' : 'Black';
    const named = app.state.names && app.state.names[color];
    if (named) { who.replaceChildren(link(named, app.state.ratings && app.state.ratings[color], true)); who.title = color === 'white' ? 'White' : 'Black'; }
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

export function toggleWall() {
  if (!myTurn() || !canPlace('S')) return;
  app.piece = app.piece === 'S' ? '' : 'S';
  app.carry = null;
  render();
}

// ---- pictures of the position shown, with the board's theme ------------------------------

// The board as a standalone SVG: its styles (theme colours, pieces) written
// into each element, the hints, focus and carry marks left out, and the strip
// above the squares (the flat count and reserves: the page's, not the
// position's picture) cut off.
function boardPicture() {
  const src = $('board'), copy = src.cloneNode(true);
  const props = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'opacity', 'font-size', 'font-weight', 'font-family'];
  const from = src.querySelectorAll('*'), to = copy.querySelectorAll('*'), drop = [];
  from.forEach((e, i) => {
    const cs = getComputedStyle(e), t = to[i];
    if (e.matches('.hint, .chosen, .in-hand, .flat-bar')) drop.push(t);
    for (const p of props) t.setAttribute(p, cs.getPropertyValue(p));
    t.removeAttribute('class'); t.removeAttribute('tabindex');
  });
  for (const t of drop) t.remove();
  const [, , w, h] = src.getAttribute('viewBox').split(' ').map(Number).map((v, i) => (i === 3 ? v - BAR : v));
  copy.setAttribute('viewBox', `0 ${BAR} ${w} ${h}`);
  copy.setAttribute('xmlns', SVGNS);
  copy.setAttribute('width', w); copy.setAttribute('height', h);
  const bg = document.createElementNS(SVGNS, 'rect');
  bg.setAttribute('y', BAR); bg.setAttribute('width', w); bg.setAttribute('height', h); bg.setAttribute('fill', getComputedStyle(document.body).backgroundColor);
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

export function saveSvg() { download(pictureName('svg'), new Blob([boardPicture().text], { type: 'image/svg+xml' })); }

// The SVG drawn on a canvas of the board's own size, as PNG.
export function savePng() {
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

// A stack's stones, bottom first, without its top's kind ('12S' -> '12').
export function colorsOf(stack) { return stack.replace(/[SC]$/, ''); }

// ---- wiring ------------------------------------------------------------------------------

export function initBoard() {
  $('ptn-form').onsubmit = (e) => {
    e.preventDefault();
    const t = $('ptn-input').value.trim();
    if (t) sendMove(t);
  };
  $('rotate').onclick = toggleWall;
  $('pass').onclick = pass;
  $('picture-svg').onclick = saveSvg;
  $('picture-png').onclick = savePng;
  // Whether the board's focus came from the pointer (the arrows then step
  // through the game) or from the keyboard (they move over the squares).
  $('board').addEventListener('pointerdown', () => { app.boardClicked = true; });
  document.addEventListener('keydown', (e) => { if (e.key === 'Tab') app.boardClicked = false; }, true);
  // The page's keys: the arrows, Home and End step through the game; Escape
  // drops the stones in hand; W stands the next stone up.
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
}
