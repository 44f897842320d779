// review.js: going over a game: the move list, stepping back and forth
// (each position worked out by the page's engine, or asked of the server
// without it), the finished game's graph of every position judged, the
// engine's view of the position shown, and the game written out (PTN, TPS).
import { $, el, say } from './dom.js';
import { app, shown } from './state.js';
import { request } from './connection.js';
import { engine, prepareEngine } from './engine.js';
import { render } from './game.js';
import { analysisStep, abGraph } from './analysis.js';

// ---- the game in one picture: every position judged by the page's engine ----------------

// Asks the page's engine for the graph of a finished game (once a game).
export async function computeGraph() {
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

// White's score in flats, as the review writes it in a note: always signed,
// so PTN Ninja reads it as the note's evaluation (wins are +-20.00).
export const flats = (cp) => (cp < 0 ? '-' : '+') + (Math.abs(cp) / 100).toFixed(2);

// A win the search found, `plies` away (White's view: negative for Black's),
// as players say it, counted in the winner's moves (1 and 2 plies are both
// "in 1"): the analysis board's lines and bar, and the graph's points.
export function winWords(plies) {
  const who = plies > 0 ? 'White' : 'Black', moves = Math.ceil(Math.abs(plies) / 2);
  return { text: `${who} wins in ${moves}`, short: `${who[0]} in ${moves}`, label: `${who} wins in ${moves} move${moves === 1 ? '' : 's'}` };
}

// Whether position `i` of the graph shown is won: a win the search found,
// or the last position of a line that ends there on the board (`src.over`):
// the graph clamps every score to +-2000, so a +20-flat evaluation at the
// end of an unfinished line, or of a game resigned, is a score, not a win.
const graphWon = (src, i) => !!(src.g.wins && src.g.wins[i]) ||
  (src.over && i === src.g.scores.length - 1 && Math.abs(src.g.scores[i]) >= 2000);

// The review as PTN, as `tak analyze --game` judges the plies: each ply's
// mark ('?', '??') and a note with the score after it and, beside a mark,
// the engine's move instead ("{-3.10 best d3}"); added to `plies` (PTN
// document plies or tree nodes: { ptn, marks, comment }) where not there yet.
export function annotate(plies, g) {
  plies.forEach((p, i) => {
    const mark = g.marks[i], best = g.best[i];
    if (mark && !/[?!]/.test(p.marks || '')) p.marks = (p.marks || '') + mark;
    const note = flats(g.scores[i + 1]) + (mark && best && best !== p.ptn ? ' best ' + best : '');
    if (!(p.comment || '').includes(note)) p.comment = p.comment ? p.comment + ' ' + note : note;
  });
}

// The engine's move instead of a marked ply, from its note.
export const better = (p) => (/[?]/.test(p.marks || '') && (/(?:^|\s)best (\S+)/.exec(p.comment || '') || [])[1]) || '';

// The finished game's graph, when it is this game's.
export const gameGraph = (s = app.state) => (s && app.graphKey === s.game + ':' + s.moves.length ? app.graph : null);

// The graph shown: the analysis board's main line (analysis.js), else the
// finished game's: { g, moves, at (the ply shown), go (to a ply), over
// (whether its last position is won on the board: a road or the flats, not
// a resignation or the clock) }, or null.
function graphShown() {
  const g = gameGraph();
  return app.analysisBoard ? abGraph()
    : g && { g, moves: app.state.moves, at: shown().ply, go: showPly, over: /^[RF]-0$|^0-[RF]$/.test(app.state.result.code) };
}

// The scores over the plies, in the graph's own pixels (text unstretched):
// White up, to +-10 flats, a won position at the very top or bottom; lines
// at 0 and +-5 flats labelled, plies below; a point a position, marked plies coloured. A point
// hovered or focused (one Tab stop, the arrows between points) says its
// ply, move and score; a click or Enter goes there.
let tipAt = null;
export function drawGraph() {
  const svg = $('graph'), src = graphShown();
  svg.toggleAttribute('hidden', !src); // an SVG element has no .hidden property
  if (!src) return;
  const { g, at } = src, n = g.scores.length - 1, W = svg.clientWidth || 300, H = svg.clientHeight || 110;
  const x = (i) => (n ? i * (W - 1) / n : 0) + .5, y = (cp) => H / 2 - Math.max(-1, Math.min(1, cp / 1000)) * (H / 2 - 12);
  const py = (i) => (graphWon(src, i) ? (g.scores[i] > 0 ? 3 : H - 3) : y(g.scores[i])); // position i's height
  const focused = svg.contains(document.activeElement) ? +document.activeElement.getAttribute('data-ply') : null;
  svg.textContent = '';
  svg.removeAttribute('viewBox');
  for (const f of [5, 0, -5]) {
    el('line', { x1: 0, y1: y(f * 100), x2: W, y2: y(f * 100), class: f ? 'grid' : 'mid' }, svg);
    el('text', { x: 2, y: y(f * 100) - 2, class: 'axis' }, svg).textContent = f > 0 ? '+' + f : String(f);
  }
  const step = Math.ceil(n / 80) * 10;
  for (let i = step; i < n; i += step) el('text', { x: x(i), y: H - 2, class: 'axis', 'text-anchor': 'middle' }, svg).textContent = i;
  el('polyline', { points: g.scores.map((cp, i) => `${x(i)},${py(i)}`).join(' '), class: 'line' }, svg);
  el('line', { x1: x(Math.min(at, n)), y1: 0, x2: x(Math.min(at, n)), y2: H, class: 'now' }, svg);
  g.scores.forEach((_, i) => {
    const m = g.marks[i - 1] || '';
    const c = el('circle', { cx: x(i), cy: py(i), r: m ? 3 : 2.5, class: 'pt' + (m ? (m === '??' ? ' q2' : ' q1') : ''),
      'data-ply': i, tabindex: i === Math.min(at, n) ? 0 : -1, role: 'button', 'aria-label': graphTip(src, i) }, svg);
    c.onfocus = () => graphTipShow(src, i);
  });
  if (focused !== null) svg.querySelector(`[data-ply="${Math.min(focused, n)}"]`).focus();
  else if (tipAt !== null && tipAt <= n) graphTipShow(src, tipAt);
}

// What a point says: "ply 12, e4??: -3.10, best d3" (the start: "start:
// +0.20"; a win found: "ply 20, c1: White wins in 2"; the end: "White has won").
function graphTip(src, i) {
  const { g, moves } = src, cp = g.scores[i], m = g.marks[i - 1] || '', best = g.best[i - 1];
  const score = !graphWon(src, i) ? flats(cp) + (Math.abs(cp) >= 2000 ? ' or more' : '')
    : g.wins && g.wins[i] ? winWords(g.wins[i]).text : `${cp > 0 ? 'White' : 'Black'} has won`;
  return (i ? `ply ${i}, ${moves[i - 1]}${m}` : 'start') + ': ' + score + (m && best && best !== moves[i - 1] ? ', best ' + best : '');
}

function graphTipShow(src, i) {
  const svg = $('graph'), old = svg.querySelector('.tip'), c = svg.querySelector(`[data-ply="${i}"]`);
  if (old) old.remove();
  tipAt = i;
  if (!c) return;
  const W = svg.clientWidth || 300, tip = el('g', { class: 'tip' }, svg), box = el('rect', { rx: 3 }, tip);
  const t = el('text', { y: 14 }, tip);
  t.textContent = graphTip(src, i);
  const w = t.getComputedTextLength() + 10, cx = +c.getAttribute('cx'), cy = +c.getAttribute('cy');
  box.setAttribute('width', w); box.setAttribute('height', 19); t.setAttribute('x', 5);
  tip.setAttribute('transform', `translate(${Math.max(0, Math.min(W - w, cx - w / 2))},${cy > 40 ? cy - 26 : cy + 7})`);
}

function graphTipHide() { const t = $('graph').querySelector('.tip'); if (t) t.remove(); tipAt = null; }

export function drawMoves() {
  const ol = $('moves'), s = app.state, at = shown().ply, g = gameGraph();
  $('export-review').hidden = !g;
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
      const mark = g ? g.marks[j] : '';
      if (mark) { const b = document.createElement('b'); b.className = 'mark'; b.textContent = mark; span.appendChild(b); }
      // Beside a blunder, the engine's move instead, as a PTN note (the list still copies as PTN).
      const best = mark === '??' && g.best[j] !== s.moves[j] ? g.best[j] : '';
      span.dataset.ply = j + 1;
      if (j + 1 === at) span.className = 'current';
      span.onclick = () => showPly(j + 1);
      if (j > Math.max(i, 0)) li.append(' ');
      li.appendChild(span);
      if (best) li.append(' ', Object.assign(document.createElement('i'), { className: 'better', textContent: `{best ${best}}`, title: 'The engine\'s move instead' }));
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

// ---- review -------------------------------------------------------------------------

// The ply being stepped to: quick presses count from the last one asked
// for, not from the position drawn, so none is lost.
export function stepFrom() { return app.target !== null && app.target !== undefined ? app.target : shown().ply; }

// Shows the position after `ply` plies: worked out in the page by its engine
// (instant, and with the server gone), or asked of the server without it.
export async function showPly(ply) {
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

export function engineWorker() {
  if (app.worker !== undefined) return app.worker;
  try {
    const calls = new Map();
    let next = 0;
    // Made from the module as engine.js prepares it: fetched and compiled once for the page.
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
export async function analyze() {
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

export function drawAnalysis() {
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

// The game's PTN as the server writes it; `review`: with the review's marks
// and notes in it (annotate), once the page has judged the game.
export async function exportPtn(review) {
  try {
    let { ptn } = await request({ type: 'export', game: app.gameId });
    const g = gameGraph(), tak = engine.tak;
    if (review === true && g && tak) {
      const doc = tak.readPtn(ptn);
      if (doc.lines[0].plies.length + 1 === g.scores.length) { annotate(doc.lines[0].plies, g); ptn = tak.writePtn(doc); }
    }
    showExport(ptn);
  } catch (e) { say(e.message); }
}

// Shows `text` (PTN or TPS) in the export box, selected for copying.
export function showExport(text) {
  const t = $('export');
  t.hidden = false; t.value = text; t.focus(); t.select();
}

// ---- wiring ----------------------------------------------------------------------------

export function initReview() {
  $('first').onclick = () => showPly(0);
  $('prev').onclick = () => showPly(stepFrom() - 1);
  $('next').onclick = () => showPly(stepFrom() + 1);
  $('last').onclick = () => showPly(Infinity);
  $('export-ptn').onclick = () => exportPtn(false);
  $('export-review').onclick = () => exportPtn(true);
  $('export-tps').onclick = () => showExport(shown().tps);
  $('analyze').onclick = analyze;
  // The graph: a click (or Enter on a point) goes to the nearest ply, hovering shows its tip; ← → Home End go between points.
  const graph = $('graph'), nearest = (ev, src) => {
    const r = graph.getBoundingClientRect();
    return Math.max(0, Math.min(src.g.scores.length - 1, Math.round((ev.clientX - r.left) / r.width * (src.g.scores.length - 1))));
  };
  graph.onclick = (ev) => { const src = graphShown(); if (src) src.go(nearest(ev, src)); };
  graph.onmousemove = (ev) => { const src = graphShown(), i = src && nearest(ev, src); if (src && i !== tipAt) graphTipShow(src, i); };
  graph.onmouseleave = () => { if (!graph.contains(document.activeElement)) graphTipHide(); };
  graph.addEventListener('focusout', (ev) => { if (!graph.contains(ev.relatedTarget)) graphTipHide(); });
  graph.onkeydown = (ev) => {
    const src = graphShown(), i = +document.activeElement.getAttribute('data-ply'), n = src ? src.g.scores.length - 1 : 0;
    const to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: n }[ev.key];
    if (!src || !graph.contains(document.activeElement)) return;
    if (ev.key === 'Enter' || ev.key === ' ') src.go(i);
    else if (to !== undefined) graph.querySelector(`[data-ply="${Math.max(0, Math.min(n, to))}"]`).focus();
    else return;
    ev.preventDefault(); ev.stopPropagation(); // the page's own ← → step the game
  };
}
